"""Build (or extend) one theme's folder of the small-puzzle library, a file at a time.

    .venv/bin/python puzzles/build_library.py --theme tableau.empty --count 12 --deals 1-2000

Each puzzle is what ``agnes-teach generate`` writes by default (a critical moment of a solved deal
cut down to a small puzzle; generator/reduce.py), but this builder writes each file as soon as it
is found, so a long build that is stopped keeps what it found, and a second run goes on where the
first stopped: the files already in the folder count towards the quotas (at most half the count
of one rating, room kept for a rating or a second task form the folder lacks; the task forms
asked for in turn), and no puzzle equals (up to symmetry) any file
already under puzzles/. Budgets are in solver states, so the same deals give the same files.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from agnes_teach.errors import InputError  # noqa: E402
from agnes_teach.generator.canonical import puzzle_key  # noqa: E402
from agnes_teach.generator.core import Puzzle  # noqa: E402
from agnes_teach.generator.output import scenario_data, to_yaml  # noqa: E402
from agnes_teach.generator.pipeline import Search, Workers, find  # noqa: E402
from agnes_teach.generator.quota import TASK_ROTATION, FolderQuota, rotated  # noqa: E402
from agnes_teach.limits import check_workers  # noqa: E402
from agnes_teach.practice import page_plays  # noqa: E402
from agnes_teach.profile import DEFAULT_PROFILE, get_profile  # noqa: E402
from agnes_teach.puzzle_library import library_part  # noqa: E402
from agnes_teach.registry import Task  # noqa: E402
from agnes_teach.scenario import load_scenario, scenario_files  # noqa: E402
from agnes_teach.survey import parse_deal_ranges  # noqa: E402
from agnes_teach.themes import theme_ids  # noqa: E402

HEARTBEAT_SECONDS = 30.0  # a starting point begun after this long without a line on stderr is reported


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--theme", required=True, choices=theme_ids(), help="a rule id some theme teaches "
                        "for --profile")
    parser.add_argument("--count", type=int, required=True, help="the folder's target size")
    parser.add_argument("--deals", help="critical moments of these deals (e.g. 1-2000)")
    parser.add_argument("--layouts", help="layouts composed for the theme from these numbers (e.g. 1-500)")
    parser.add_argument("--profile", default=DEFAULT_PROFILE)
    parser.add_argument("--folder", help="default: puzzles/small/THEME (another --profile: its game's "
                        "folder, puzzles/GAME/THEME, e.g. puzzles/agnes-ru/foundation.return, and "
                        "puzzles/sorel/THEME for sorel-strict)")
    parser.add_argument("--max-seconds", type=float, default=None)
    parser.add_argument("--task", action="append", choices=[str(t) for t in TASK_ROTATION],
                        help="write only puzzles of this task form (repeat for several; default: any)")
    parser.add_argument("--any-rating", action="store_true",
                        help="no quota per rating (e.g. to add a task form the folder lacks)")
    parser.add_argument("--workers", type=int, default=1,
                        help="search in this many processes (the same files whatever the number)")
    parser.add_argument("--scheduler", help="search on the Dask cluster whose scheduler is at this address")
    args = parser.parse_args()
    if (args.deals is None) == (args.layouts is None):
        parser.error("give --deals or --layouts (one of them)")
    option = "--deals" if args.deals is not None else "--layouts"
    try:
        deals = parse_deal_ranges(args.deals or args.layouts)
        profile = get_profile(args.profile)
        check_workers(args.workers)
    except InputError as exc:
        parser.error(str(exc).replace("--deals:", f"{option}:", 1))
    if args.count < 1:
        parser.error("--count must be 1 or more")
    folder = Path(args.folder) if args.folder else HERE / library_part(profile.id) / args.theme
    folder.mkdir(parents=True, exist_ok=True)
    # The folder's files of this theme and profile (the Sorel folder holds several of each).
    mine = [sc for sc in (load_scenario(f) for f in scenario_files([str(folder)]))
            if sc.themes[:1] == [args.theme] and sc.position.profile.id == args.profile]
    taken = {puzzle_key(load_scenario(f).position) for f in scenario_files([str(HERE)])}
    need = args.count - len(mine)
    if need <= 0:
        print(f"{args.theme}: {len(mine)} files, nothing to do")
        return
    forms = [Task(t) for t in args.task] if args.task else list(TASK_ROTATION)
    wanted = FolderQuota.of_folder(args.count, forms, ((sc.difficulty, sc.task) for sc in mine),
                                   args.any_rating)

    start = time.monotonic()
    number = len(mine)

    def write(puzzle: Puzzle) -> None:
        nonlocal number
        number += 1
        data = scenario_data(puzzle, 0, number)
        if profile.id != DEFAULT_PROFILE:  # another game's file keeps its own ids apart
            data["id"] = f"{args.profile}-{data['id']}"
        name = f"{data['id']}.yaml"
        tmp = folder / f".{name}.tmp"
        tmp.write_text(to_yaml(data), encoding="utf-8")
        tmp.replace(folder / name)
        print(f"{args.theme}: {name} {puzzle.task} {puzzle.difficulty} {int(puzzle.stats['cards'])} cards, "
              f"{int(puzzle.stats['answer'])} moves, random {puzzle.stats['random']:.0%} "
              f"({time.monotonic() - start:.0f} s)", flush=True)

    def wanted_here(puzzle: Puzzle) -> bool:
        # The practice pages play every library puzzle: one whose game is too large for a page (an
        # agnes-ru game where cards come back can have 100,000 states) stays out.
        return page_plays(puzzle.position) and wanted(puzzle)

    search = Search(args.theme, need, tasks=rotated(forms, len(mine)), wanted=wanted_here, on_found=write)
    said = time.monotonic()

    def heard(line: str, always: bool = True) -> None:
        # A line per number, and one per starting point begun once half a minute has gone by
        # silent (an agnes-ru number can take half an hour).
        nonlocal said
        if always or time.monotonic() - said >= HEARTBEAT_SECONDS:
            print(line, file=sys.stderr, flush=True)
            said = time.monotonic()

    with workers_for(args.workers, args.scheduler) as workers:
        find(search, deals, profile, avoid=taken, composed=args.layouts is not None,
             max_seconds=args.max_seconds, workers=workers,
             progress=lambda n, points, found: heard(f"  number {n}: {points} starting points, "
                                                     f"{found} found"),
             working=lambda n, k, total: heard(f"  number {n}: starting point {k} of {total}",
                                               always=False))
    print(f"{args.theme}: {len(search.found)} new, {number} in all; {search.moments} starting points, "
          f"{time.monotonic() - start:.0f} s", flush=True)


@contextmanager
def workers_for(processes: int, scheduler: str | None) -> Iterator[Workers]:
    """`processes` local worker processes, or the Dask cluster at `scheduler`."""
    if scheduler is None:
        yield Workers(processes)
        return
    from agnes_teach.cli.cluster import connect

    with connect(scheduler) as client:
        yield Workers(cluster=client)


if __name__ == "__main__":
    main()
