"""The ``generate`` command: solver-verified puzzles for one rule."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ..errors import InputError, Problem
from ..generator.canonical import puzzle_key
from ..generator.core import Puzzle
from ..generator.output import puzzle_id, scenario_data, to_yaml, write_puzzles
from ..generator.pipeline import (
    DEALS_PER_SEED,
    IN_THIS_PROCESS,
    Search,
    Workers,
    composed_numbers,
    find,
    generate,
    max_run_seed,
    mine,
)
from ..generator.quota import mined_quota, small_quota, task_rotation
from ..generator.themes import unavailable
from ..limits import MAX_GENERATE, check_workers
from ..profile import DEFAULT_PROFILE, Profile, get_profile
from ..registry import GENERATED_TASKS, Difficulty, Task
from ..scenario import load_scenario, scenario_files
from ..survey import DealRanges, parse_deal_ranges
from ..tagger.answer import MAX_ANSWER, MAX_CARDS
from ..tagger.small import KEPT_PREFIX, Tally
from ..themes import theme_for, theme_ids
from .errors import input_errors
from .options import JsonOption, ParentsOption, ProfileOption, check_out

app = typer.Typer()  # joined, without a name, into the root app of agnes_teach.cli
SOURCES = ("small", "built", "deals")  # small (the default): layouts or critical moments cut down (reduce.py)

if TYPE_CHECKING:
    ThemeName = str
    TaskName = str
    DifficultyName = str
    SourceName = str
else:  # choices built from the registry's vocabulary and the theme registry
    ThemeName = StrEnum("ThemeName", [(t, t) for t in theme_ids()])
    TaskName = StrEnum("TaskName", [(t.value, t.value) for t in GENERATED_TASKS])
    DifficultyName = StrEnum("DifficultyName", [(d.value, d.value) for d in Difficulty])
    SourceName = StrEnum("SourceName", [(s, s) for s in SOURCES])


@app.command("generate")
@input_errors
def generate_command(
    theme: Annotated[ThemeName, typer.Option("--theme", help="The rule id to teach.")],
    count: Annotated[int, typer.Option("--count", help="How many puzzles to write.")],
    out: Annotated[Path, typer.Option("--out", help="Folder to write the scenario files into.")],
    seed: Annotated[
        int | None, typer.Option("--seed", help="Run seed: the same seed writes the same files (default: a "
                                 "random seed, printed and recorded in every file).")
    ] = None,
    profile: ProfileOption = DEFAULT_PROFILE,
    difficulty: Annotated[
        DifficultyName | None, typer.Option("--difficulty", help="Keep only puzzles of this rating.")
    ] = None,
    task: Annotated[
        TaskName | None, typer.Option("--task", help="The kind of puzzle (default: a mix).")
    ] = None,
    avoid: Annotated[
        list[Path] | None,
        typer.Option("--avoid", help="Scenario files or folders: never write a puzzle equal to one of "
                     "them up to symmetry (e.g. --avoid puzzles)."),
    ] = None,
    teach: Annotated[
        bool, typer.Option("--teach", help="Keep only puzzles that meet the teaching criteria 1-2 of "
                           "docs/puzzles.md (random play wins at most 35%, a game lost only after a fatal "
                           "mistake; the generator keeps a margin and accepts at most 30%; a real choice, "
                           "the theme's misconception loses, lost without the rule); difficulty then comes "
                           "from measured play.")
    ] = False,
    max_seconds: Annotated[
        float, typer.Option("--max-seconds", help="Stop after this many seconds: the puzzles found by "
                            "then are written, and the exit status is 3 when they are fewer than --count.")
    ] = 180.0,
    source: Annotated[
        SourceName, typer.Option("--source", help="small (the default): layouts composed for the theme, "
                                 "or with --deals critical moments of solved deals, cut down to at most 24 "
                                 "cards and a 10-move answer; built: endgames built around the lesson; "
                                 "deals: whole mid-game positions of solved deals.")
    ] = "small",
    deals: Annotated[
        str | None, typer.Option("--deals", help="With --source small or deals: the deal numbers to mine, in "
                                 "order (e.g. 1-200 or 5,9,20-40). Without it, small composes layouts "
                                 "numbered SEED*1000+1 to SEED*1000+1000, and deals mines 1-1000.")
    ] = None,
    workers: Annotated[
        int, typer.Option("--workers", help="Search in this many processes; the same seed writes the "
                          "same files whatever the number.")
    ] = 1,
    scheduler: Annotated[
        str | None, typer.Option("--scheduler", help="Search on a Dask cluster: the address of its scheduler "
                                 "(e.g. tcp://10.0.0.5:8786; needs the 'distributed' package); the same "
                                 "files as without it.")
    ] = None,
    as_json: JsonOption = False,
    parents: ParentsOption = False,
) -> None:
    """Write COUNT solver-verified puzzles that each teach the rule THEME.

    Every puzzle is proved by the solver, its theme detected in its solution,
    its tempting wrong move refuted, its difficulty rated; no two are the same
    up to symmetry.  A claim about a face-down stock is checked for every order
    of its cards, or the file says stock_shown: true.

    By default (--source small) each puzzle starts from a small layout composed
    for the theme (with --deals: a critical moment of a solved deal, where the
    theme's misconception loses) and is cut down card by card to at most 24
    cards not home and an answer of at most 10 moves while every teaching
    criterion still holds (docs/puzzles.md); the file records which criterion
    each further cut would break (measured.minimal, economy).  Without
    --difficulty at most a third of them share a rating; each time the run has
    turned away COUNT puzzles for their rating alone, each rating may take one
    more; a run whose time ends short of COUNT takes the puzzles it turned
    away for their rating (each met every criterion) and says so.

    With --source deals the puzzles are mid-game positions of real deals
    (solved, then walked move by move): the misconception loses there, random
    play wins at most 30% (a game counts as lost only after a mistake the
    solver proves fatal; 5 points under the checker's 35% bar, so that a
    measure with another seed stays under it), and the file records
    "source: deal N move K".  Without --difficulty the run is spread over
    easy, medium and hard (by measured random play: 15-30%, 4-15%, under 4%).

    \b
    Examples:
      agnes-teach generate --theme tableau.empty --count 4 --seed 1 \\
        --out my-puzzles
      agnes-teach generate --theme foundation.wrap --count 2 --deals 1-300 \\
        --max-seconds 600 --out corner
      agnes-teach generate --theme stock.deal --count 3 --source deals \\
        --deals 1-100 --out mined
    """
    # The registry's vocabulary from here on: the choice enums only serve --help and completion.
    theme = str(theme)
    source = str(source)
    _check_request(theme, str(task) if task else None, str(difficulty) if difficulty else None, count, source)
    wanted_task = Task(str(task)) if task is not None else None
    rating = Difficulty(str(difficulty)) if difficulty is not None else None
    check_workers(workers)
    composed = deals is None and source == "small"
    seed = _run_seed(seed, source if deals is None else "deals", composed)
    if composed:
        deals = composed_numbers(seed)
    deals = deals or "1-1000"
    deal_numbers = parse_deal_ranges(deals) if source != "built" else None
    if max_seconds <= 0:
        raise InputError("--max-seconds must be more than 0")
    # Refuse an unusable --out before the (slow) search, not after it.
    if out.exists() and not out.is_dir():
        raise InputError(Problem("is a file; --out needs a folder", str(out)))
    check_out(out, parents)
    chosen = get_profile(profile)
    why = unavailable(theme, chosen, source)
    if why is not None:
        raise InputError(why)
    if wanted_task is not None and source != "small" and wanted_task not in theme_for(theme, chosen.id).tasks:
        has = ", ".join(theme_for(theme, chosen.id).tasks)
        raise InputError(f"the theme {theme} has no {wanted_task} puzzles (it has: {has})")
    taken = _avoided_keys(avoid)
    tally = Tally()
    with _workers(workers, scheduler) as where:
        puzzles = _find_puzzles(theme, count, seed, chosen, rating, wanted_task, taken, max_seconds, teach,
                                deal_numbers, source, composed, tally, where)
    if len(puzzles) < count:
        _partial(puzzles, seed, out, as_json, _too_few(len(puzzles), count, theme, wanted_task, rating, teach,
                 max_seconds, deals if deal_numbers is not None else None, source, composed, tally))
    _write(puzzles, seed, out, as_json)


@contextmanager
def _workers(workers: int, scheduler: str | None) -> Iterator[Workers]:
    """Where the search runs: `workers` local processes, or the Dask cluster at `scheduler` (reached
    before the search: a wrong address costs no time)."""
    if scheduler is None:
        yield Workers(workers)
        return
    from .cluster import connect

    with connect(scheduler) as client:
        yield Workers(cluster=client)


def _check_request(theme: str, task: str | None, difficulty: str | None, count: int, source: str) -> None:
    """The theme, task, difficulty and count asked for exist and go together (a small puzzle of any
    theme may take any task form; the builders and the miner have each theme's own list, checked
    once the profile is known)."""
    if theme not in theme_ids():
        raise InputError(f"unknown theme {theme!r} (themes: {', '.join(theme_ids())})")
    if task is not None and task not in GENERATED_TASKS:
        raise InputError(f"unknown task {task!r} (one of: {', '.join(GENERATED_TASKS)})")
    if difficulty is not None and difficulty not in tuple(Difficulty):
        raise InputError(f"unknown difficulty {difficulty!r} (one of: {', '.join(Difficulty)})")
    if not 1 <= count <= MAX_GENERATE:
        raise InputError(f"--count must be 1 to {MAX_GENERATE} (at most {MAX_GENERATE} puzzles per run)")


def _run_seed(seed: int | None, source: str, composed: bool = False) -> int:
    """--seed, or the seed a run without one uses: 0 for mined puzzles of given deals, else a random
    one (printed; a small run without --deals composes the seed's own thousand layouts, so its
    seed is drawn, and must lie, where those numbers are deal numbers)."""
    if seed is None and source == "deals":
        seed = 0  # a mined puzzle depends on its deal alone
    if seed is None:
        import random

        seed = random.SystemRandom().randint(0, max_run_seed())
        print(f"seed {seed} (pass --seed {seed} to write the same files again)", file=sys.stderr)
    if seed < 0:
        raise InputError("--seed must be 0 or more")
    if composed and seed > max_run_seed():
        raise InputError(f"--seed must be 0 to {max_run_seed()} for composed layouts (they are "
                         f"numbered SEED*{DEALS_PER_SEED}+1 to SEED*{DEALS_PER_SEED}+{DEALS_PER_SEED}); "
                         "or give --deals")
    return seed


def _avoided_keys(avoid: list[Path] | None) -> set[str]:
    """The puzzle keys (equal up to symmetry) of the scenarios of --avoid."""
    taken: set[str] = set()
    if avoid:
        for f in scenario_files([str(a) for a in avoid]):
            taken.add(puzzle_key(load_scenario(f).position))
    return taken


def _find_puzzles(theme: str, count: int, seed: int, profile: Profile, difficulty: Difficulty | None,
                  task: Task | None, taken: set[str], max_seconds: float, teach: bool,
                  deal_numbers: DealRanges | None, source: str, composed: bool = False,
                  tally: Tally | None = None, workers: Workers = IN_THIS_PROCESS) -> list[Puzzle]:
    """Build (or, with deal numbers, mine or compose) the puzzles, with a progress bar on stderr."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn(f"{theme}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("{task.fields[tried]} candidates tried"), TimeElapsedColumn())
    if deal_numbers is not None:
        what = "layout" if composed else "deal"
        columns = (TextColumn(f"{theme}"), BarColumn(), MofNCompleteColumn(),
                   TextColumn(what + " {task.fields[deal]}, {task.fields[tried]} starting points examined"),
                   TimeElapsedColumn())
    with Progress(*columns, console=_stderr_console(), transient=False) as bar:
        job = bar.add_task("generate", total=count, tried=0, deal="-")

        def show(found: int, tried: int) -> None:
            bar.update(job, completed=found, tried=tried)

        def show_number(deal: int, tried: int, found: int) -> None:
            bar.update(job, completed=found, tried=tried, deal=deal)

        if deal_numbers is None:
            return generate(theme, count, seed, profile, difficulty=difficulty, task=task, avoid=taken,
                            max_seconds=max_seconds, teach=teach, progress=show, workers=workers)
        if source != "small":
            search = Search(theme, count, wanted=mined_quota(count, difficulty, task))
            return mine(search, deal_numbers, profile, avoid=taken, max_seconds=max_seconds,
                        progress=show_number, tally=tally, workers=workers)
        quota = small_quota(count, difficulty, task)
        search = Search(theme, count, tasks=task_rotation(task), wanted=quota)
        found = find(search, deal_numbers, profile, avoid=taken, max_seconds=max_seconds,
                     composed=composed, progress=show_number, tally=tally, workers=workers)
    ratings = ", ".join(f"{d} {n}" for d in Difficulty if (n := sum(p.difficulty == d for p in found)))
    if search.set_aside_taken:
        print(f"the ratings could not be spread in the time: the last {search.set_aside_taken} of the "
              f"{len(found)} written had been turned away for their rating alone (ratings written: "
              f"{ratings}; --difficulty asks for one)", file=sys.stderr)
    elif quota.gave_way:
        print(f"the spread over ratings gave way: {quota.turned_away} puzzles were turned away for their "
              f"rating alone (ratings written: {ratings}; --difficulty asks for one)", file=sys.stderr)
    return found


def _too_few(found: int, count: int, theme: str, task: Task | None, difficulty: Difficulty | None,
             teach: bool, max_seconds: float, deals: str | None, source: str = "deals",
             composed: bool = False, tally: Tally | None = None) -> str:
    """What a run that found fewer puzzles than --count says (`deals`: the --deals mined); for
    small puzzles it names what failed most often (`tally`)."""
    written = f"the {found} found were written" if found else "nothing was written"
    asked = " ".join(x for x in (f"--task {task}" if task else "", f"--difficulty {difficulty}"
                                 if difficulty else "", "--teach" if teach else "") if x)
    asked = f" with {asked}" if asked else ""
    if source == "small":
        grouped: dict[str, int] = {}  # "move 4 is not the only one" and "move 1 ..." count together
        for why, n in (tally.counts if tally else {}).items():
            if not why.startswith(KEPT_PREFIX):
                key = re.sub(r"\d+", "N", why)
                grouped[key] = grouped.get(key, 0) + n
        ended = sorted(((n, why) for why, n in grouped.items()), reverse=True)[:3]
        reasons = ", ".join(f"{why} ({n})" for n, why in ended)
        stopped = f"; what failed most often: {reasons}" if ended else ""
        return (f"only {found} of {count} small puzzles for {theme}{asked} (at most {MAX_CARDS} "
                f"cards, an answer of at most {MAX_ANSWER} moves, every teaching criterion) were "
                f"found in {'layouts' if composed else 'deals'} {deals} within {max_seconds:g} s"
                f"{stopped}; {written} (try a larger --max-seconds, another --seed or "
                "more --deals, a smaller --count, or drop --task/--difficulty)")
    if deals is not None:
        return (f"only {found} of {count} puzzles for {theme}{asked} were mined from "
                f"deals {deals} within {max_seconds:g} s; {written} (try more "
                "--deals, a smaller --count, or a larger --max-seconds)")
    return (f"only {found} of {count} puzzles for {theme}{asked} "
            f"were found and proved within {max_seconds:g} s or the attempt limit; {written} "
            "(try another --seed, a smaller --count, or a larger --max-seconds)")


PARTIAL_EXIT = 3  # fewer puzzles than --count: the ones found are written (formats.md, exit codes)


def _partial(puzzles: list[Puzzle], seed: int, out: Path, as_json: bool, message: str) -> None:
    """A run that found fewer than asked: write what it found (each file whole), say so, exit 3."""
    if puzzles:
        _write(puzzles, seed, out, as_json)
    elif as_json:
        print(json.dumps({"written": []}))
    print(message, file=sys.stderr)
    raise typer.Exit(PARTIAL_EXIT)


def _write(puzzles: list[Puzzle], seed: int, out: Path, as_json: bool) -> None:
    """Write the puzzles' scenario files into `out` (all or none) and say so."""
    files = []
    for number, puzzle in enumerate(puzzles, start=1):
        text = to_yaml(scenario_data(puzzle, seed, number))
        files.append((puzzle_id(puzzle, seed, number) + ".yaml", text))
    try:
        write_puzzles(files, out)
    except OSError as exc:
        raise InputError(Problem(f"cannot write the puzzles: {exc.strerror or exc}", str(out))) from None
    noun = "puzzle" if len(files) == 1 else "puzzles"
    print(f"wrote {len(files)} {noun} to {out}", file=sys.stderr)
    if as_json:
        print(json.dumps({"written": [str(out / name) for name, _ in files]}))


def _stderr_console():  # type: ignore[no-untyped-def]
    from rich.console import Console

    return Console(stderr=True)
