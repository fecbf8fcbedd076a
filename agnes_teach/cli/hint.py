"""The ``hint`` command: each legal first move with its verdict, and the best one with a reason."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from .. import i18n
from ..hint import DEFAULT_SECONDS, Hint, full_hint
from . import app, input_errors
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


@app.command("hint")
@input_errors
def hint_command(
    file: PositionFileArgument = None,
    deal_number: DealOption = None,
    pysolfc: PySolFCOption = None,
    profile: OptionalProfileOption = None,
    lang: LangOption = "en",
    as_json: JsonOption = False,
    budget: Annotated[
        float, typer.Option("--budget", help="Seconds the solver may spend after each first move.")
    ] = DEFAULT_SECONDS,
) -> None:
    """Each legal first move with its verdict (keeps the win, loses, undecided), and the best one with why.

    Full information: the solver knows the order of the stock.

    Example: agnes-teach hint --deal 123 --lang ru
    """
    check_budget(budget)
    position = chosen_position(file, deal_number, pysolfc, profile)
    hint = full_hint(position, seconds=budget)
    if as_json:
        print(json.dumps(hint.to_json(lang), ensure_ascii=False))
        return
    print(render_hint(hint, lang))


def render_hint(hint: Hint, lang: str) -> str:
    from ..render.env import move_words

    t = i18n.text
    lines = [t(lang, "hint", MODE_LINES[hint.mode])]
    words = {"won": t(lang, "hint", "keeps the win"), "lost": t(lang, "hint", "loses"),
             "unknown": t(lang, "hint", "undecided")}
    width = max((len(str(m.move)) for m in hint.moves), default=0)
    for m in hint.moves:
        mark = "*" if hint.best is not None and m.move == hint.best.move else " "
        line = f"{mark} {str(m.move):<{width}}  {words[m.verdict]}"
        lines.append(f"{line}  ({move_words(m.move, lang)})")
    lines.append(hint.reason(lang))
    return "\n".join(lines)


MODE_LINES = {
    "full": "Full information: the solver knows the order of the stock.",
    "fair": "Fair: the order of the stock is unknown (hidden cards: {hidden}); orders tried: {n}.",
}


