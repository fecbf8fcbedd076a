"""The ``hint`` command: each legal first move with its verdict, and the best one with a reason."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer

from .. import i18n
from ..errors import InputError
from ..hint import DEFAULT_FAIR_STATES, DEFAULT_SECONDS, Hint, fair_hint, full_hint
from ..limits import MAX_FAIR_ORDERS, MAX_FAIR_STATES, max_workers
from ..registry import Verdict
from ..scenario import load_scenario
from .errors import input_errors
from .options import (
    DealOption,
    JsonOption,
    LangOption,
    OptionalProfileOption,
    PositionFileArgument,
    PySolFCOption,
    check_budget,
    chosen_position,
)

app = typer.Typer()  # joined, without a name, into the root app of agnes_teach.cli


@app.command("hint")
@input_errors
def hint_command(
    file: PositionFileArgument = None,
    deal_number: DealOption = None,
    pysolfc: PySolFCOption = None,
    profile: OptionalProfileOption = None,
    lang: LangOption = "en",
    as_json: JsonOption = False,
    fair: Annotated[
        int | None,
        typer.Option("--fair", metavar="K", min=1,
                     help="Fair mode: the stock order unknown; score each move over K sampled orders of the "
                     f"hidden cards, K from 1 to {MAX_FAIR_ORDERS} (default: off, the stock order known)."),
    ] = None,
    budget: Annotated[
        float, typer.Option("--budget", help="Full mode: seconds the solver may spend after each first move.")
    ] = DEFAULT_SECONDS,
    states: Annotated[
        int, typer.Option("--states", min=1, help="Fair mode: solver states per move and order, "
                     f"at most {MAX_FAIR_STATES}.")
    ] = DEFAULT_FAIR_STATES,
    seed: Annotated[int, typer.Option("--seed", min=0, help="Fair mode: which sample of orders.")] = 0,
    workers: Annotated[
        int, typer.Option("--workers", min=1, help="Fair mode: parallel processes (the hint is the same).")
    ] = 1,
) -> None:
    """Each legal first move with its verdict (keeps the win, loses, undecided), and the best one with why.

    Full information by default: the solver knows the order of the stock.
    With --fair K the order is unknown, as it is to a player: each move is
    scored by the share of K sampled orders of the hidden cards after which
    it keeps the win, with a 95% interval.

    \b
    Example:
      agnes-teach hint --deal 123 --fair 20 --lang ru
    """
    check_budget(budget)
    if fair is not None and fair > MAX_FAIR_ORDERS:
        raise InputError(f"--fair is at most {MAX_FAIR_ORDERS} orders (here {fair})")
    if states > MAX_FAIR_STATES:
        raise InputError(f"--states is at most {MAX_FAIR_STATES} (here {states})")
    if workers > max_workers():
        raise InputError(f"--workers must be 1 to {max_workers()} (the CPUs this machine lets the run use)")
    position = chosen_position(file, deal_number, pysolfc, profile)
    if fair is not None:
        with _progress() as step:
            hint = fair_hint(position, fair, states=states, seed=seed, workers=workers,
                             stock_visible=_stock_shown(file), progress=step)
    else:
        hint = full_hint(position, seconds=budget)
    if as_json:
        print(json.dumps(hint.to_json(lang), ensure_ascii=False))
        return
    print(render_hint(hint, lang))


def _stock_shown(file: Path | None) -> bool:
    """A scenario whose page shows the stock in order (``stock_shown: true``) hides nothing."""
    return file is not None and load_scenario(file).stock_shown


@contextmanager
def _progress() -> Iterator[Callable[[int, int], None]]:
    """Orders of the hidden cards done, as a bar on stderr when it is a terminal."""
    if not sys.stderr.isatty():
        yield lambda _done, _total: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    columns = (TextColumn("hint --fair"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("orders", total=None)

        def step(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield step


def render_hint(hint: Hint, lang: str) -> str:
    from ..i18n import move_words

    t = i18n.text
    lines = [t(lang, "hint", MODE_LINES[hint.mode], hidden=hint.hidden,
               n=hint.moves[0].of if hint.moves and hint.moves[0].of is not None else 0)]
    words = {Verdict.WON: t(lang, "hint", "keeps the win"), Verdict.LOST: t(lang, "hint", "loses"),
             Verdict.UNKNOWN: t(lang, "hint", "undecided")}
    width = max((len(str(m.move)) for m in hint.moves), default=0)
    for m in hint.moves:
        mark = "*" if hint.best is not None and m.move == hint.best.move else " "
        if m.of is not None:
            low, high = m.interval() or (0.0, 1.0)
            score = f"{m.wins:>3}/{m.of}  {round(100 * low):>3}–{round(100 * high)}%"
            line = f"{mark} {str(m.move):<{width}}  {score}"
        else:
            line = f"{mark} {str(m.move):<{width}}  {words[m.verdict]}"
        lines.append(f"{line}  ({move_words(m.move, lang)})")
    lines.append(hint.reason(lang))
    return "\n".join(lines)


MODE_LINES = {
    "full": "Full information: the solver knows the order of the stock.",
    "fair": "Fair: the order of the stock is unknown (hidden cards: {hidden}); orders tried: {n}.",
}


