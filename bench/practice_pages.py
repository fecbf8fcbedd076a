"""Benchmark: does every puzzle of a folder play on the practice page (issue 20, criterion 7)?

Run:
  .venv/bin/python bench/practice_pages.py [puzzles/small puzzles/sorel] [--json FILE]

Builds each file's English practice page alone, as ``agnes-teach guide --puzzles FILE`` would,
and prints per file whether the page can play it (its whole game stored, every answer
worked out at build time), the page's bytes against the page budget, and the seconds the
analysis took; then how many files play and the largest page.  A file that does not play
is named with the page's reason.  Slow by nature: building a page walks every state of the
puzzle's game and asks the engine about every card and pile there.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agnes_teach.errors import InputError  # noqa: E402
from agnes_teach.render.practice import PAGE_BUDGET, build_practice, skip_reason  # noqa: E402
from agnes_teach.scenario import load_puzzles  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", default=[str(ROOT / "puzzles" / "small")])
    parser.add_argument("--json", help="write every file's row to this file")
    args = parser.parse_args()
    rows: list[dict[str, object]] = []
    try:
        scenarios = load_puzzles([Path(p) for p in args.paths])
    except InputError as exc:
        parser.error(str(exc))
    for scenario in scenarios:
        start = time.perf_counter()
        page = build_practice([scenario], "en", "en.html")
        seconds = time.perf_counter() - start
        plays = scenario.id in [p.scenario.id for p in page.playable]
        size = len(page.html.encode("utf-8"))
        why = "" if plays else "not on the page"
        if not plays and page.skipped:
            why = skip_reason(page.skipped[0], "en", PAGE_BUDGET)
        rows.append({"id": scenario.id, "plays": plays, "bytes": size, "seconds": round(seconds, 1),
                     "why": why})
        verdict = "plays" if plays else f"NOT PLAYABLE: {why}"
        print(f"{scenario.id}: {verdict}, {size:,} bytes, {seconds:.1f} s", flush=True)
    playing = sum(1 for r in rows if r["plays"])
    largest = max((int(str(r["bytes"])) for r in rows), default=0)
    print(f"{playing} of {len(rows)} files play; the largest page {largest:,} bytes (budget {PAGE_BUDGET:,})")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
