"""Benchmark: how large are the practice page's games of small puzzles, and what do their pages weigh?

Run:
  .venv/bin/python bench/practice.py [--library puzzles/small] [--themes tableau.empty]
      [--files 3] [--skip 0] [--sizes 24,20,16,12] [--json FILE]

Positions of 12-24 cards in play are cut from library files by sending cards
home while the solver still wins (``tests/_reduce_util.py``).  For each, it
prints the cards in play, the states of the learner's game as the page stored
it before (every pile in place, counted up to 2,000: the old bound), the states
the page stores now (piles up to symmetry; "home" marks the game in which safe
cards go home by themselves, used when the learner's full game passes
``limits.PRACTICE_MAX_STATES``), the bytes of an English page holding that puzzle
alone, and the seconds the analysis and the page took.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from _reduce_util import reduce_to  # noqa: E402

from agnes_teach.graph import explore  # noqa: E402
from agnes_teach.practice import clear_analyses  # noqa: E402
from agnes_teach.render.practice import build_practice  # noqa: E402
from agnes_teach.scenario import load_scenario  # noqa: E402
from agnes_teach.tagger.teaching import cards_not_home  # noqa: E402

OLD_MAX_STATES = 2000  # the page's bound before states were merged by symmetry


def measure(path: Path, size: int) -> dict[str, object] | None:
    scenario = load_scenario(path)
    pos = reduce_to(scenario.position, size)
    if pos is None:
        return None
    small = dataclasses.replace(scenario, position=pos, id=f"{scenario.id}-{size}")
    exact = explore(pos, OLD_MAX_STATES, play_safe_home=False)
    start = time.perf_counter()
    page = build_practice([small], "en", "en.html")
    seconds = time.perf_counter() - start
    clear_analyses()  # one puzzle's graph at a time in memory
    played = page.playable[0] if page.playable else None
    auto_home = bool(played and played.data and played.data["auto_home"])
    return {
        "file": path.name, "cards": cards_not_home(pos),
        "before": None if exact is None else len(exact.states),
        "states": played.states if played else None, "auto_home": auto_home,
        "reason": page.skipped[0].reason if page.skipped else "",
        "page_bytes": len(page.html.encode("utf-8")), "puzzle_bytes": played.size if played else 0,
        "seconds": round(seconds, 1),
    }


def row(m: dict[str, object]) -> str:
    before = f">{OLD_MAX_STATES:,}" if m["before"] is None else f"{m['before']:,}"
    if m["states"] is None:
        after = f"not played ({m['reason']})"
    else:
        after = f"{m['states']:,}" + (" (home)" if m["auto_home"] else "")
    return (f"| {m['file']} | {m['cards']} | {before} | {after} | {int(m['page_bytes']) / 1000:,.0f} KB "
            f"| {m['seconds']} s |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--library", type=Path, default=ROOT / "puzzles" / "small")
    parser.add_argument("--themes", default="tableau.empty", help="comma-separated theme folders")
    parser.add_argument("--files", type=int, default=3, help="files per theme (in name order)")
    parser.add_argument("--skip", type=int, default=0, help="files of each theme passed over first")
    parser.add_argument("--sizes", default="24,20,16,12", help="cards in play of the positions cut")
    parser.add_argument("--json", type=Path, help="write every measure to this file")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    print("| file | cards | states before | states now | page | build |")
    print("|---|---|---|---|---|---|")
    rows = []
    for theme in args.themes.split(","):
        for path in sorted((args.library / theme).glob("*.yaml"))[args.skip:args.skip + args.files]:
            for size in sizes:
                got = measure(path, size)
                if got is not None:
                    rows.append(got)
                    print(row(got), flush=True)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n", "utf-8")


if __name__ == "__main__":
    main()
