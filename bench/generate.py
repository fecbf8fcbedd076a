"""Benchmark: verified puzzles per minute, per theme, with one worker process and with more.

Run:  .venv/bin/python bench/generate.py [--seconds 120] [--themes tableau.wrap,...] [--seed 1]
      [--source small|built] [--workers 1,2]

For each theme and each worker count, the generator runs for the given wall-clock time on the
pipeline ``generate`` uses (``--source small``, the default: layouts composed from the seed's own
thousand numbers, cut down and judged; ``--source built``: built candidates) and the benchmark
counts the puzzles it took.  It prints puzzles per minute for each worker count and the ratio of
each rate to the first count's (the speed-up), and why candidates were dropped.  The files are
the same whatever the worker count (tests/test_pipeline.py), so the ratio is the pipeline's gain
alone.  Numbers are wall-clock rates on whatever else the machine is running: say how loaded it
was when you quote them.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agnes_teach.generator import Tally, Workers, generate  # noqa: E402
from agnes_teach.generator.pipeline import Search, composed_numbers, find  # noqa: E402
from agnes_teach.generator.quota import TASK_ROTATION  # noqa: E402
from agnes_teach.profile import get_profile  # noqa: E402
from agnes_teach.survey import parse_deal_ranges  # noqa: E402
from agnes_teach.themes import theme_ids  # noqa: E402

UNBOUNDED = 1000  # a count no timed run reaches: the clock ends each run


def bench_theme(theme: str, source: str, seconds: float, seed: int, profile_id: str,
                workers: int) -> tuple[int, float, Tally]:
    """Puzzles taken, seconds spent (worker start-up included), the rejection tally."""
    profile = get_profile(profile_id)
    tally = Tally()
    start = time.perf_counter()
    if source == "built":
        found = generate(theme, UNBOUNDED, seed, profile, max_seconds=seconds, tally=tally,
                         workers=Workers(workers))
    else:
        search = Search(theme, UNBOUNDED, tasks=TASK_ROTATION)
        found = find(search, parse_deal_ranges(composed_numbers(seed)), profile, max_seconds=seconds,
                     tally=tally, composed=True, workers=Workers(workers))
    return len(found), time.perf_counter() - start, tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=120.0,
                        help="wall-clock time per theme and worker count")
    parser.add_argument("--themes", default=None,
                        help="comma-separated rule ids (default: every theme of the profile)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", default="bernauer")
    parser.add_argument("--source", choices=("small", "built"), default="small")
    parser.add_argument("--workers", default="1,2", help="worker counts to compare, the first as the base")
    args = parser.parse_args()
    known = theme_ids(args.profile)
    themes = [t for t in args.themes.split(",") if t] if args.themes is not None else known
    unknown = [t for t in themes if t not in known]
    if unknown:
        parser.error(f"unknown theme(s): {', '.join(unknown)} (known: {', '.join(known)})")
    counts = [int(w) for w in args.workers.split(",")]
    heads = "".join(f" {f'w={w} /min':>10}" for w in counts) + "".join(f" {f'w={w}/w={counts[0]}':>9}"
                                                                      for w in counts[1:])
    print(f"{'theme':18}{heads}  top rejections (first count)")
    for theme in themes:
        rates: list[float] = []
        first_tally = Tally()
        for w in counts:
            found, spent, tally = bench_theme(theme, args.source, args.seconds, args.seed, args.profile, w)
            rates.append(60 * found / spent)
            if w == counts[0]:
                first_tally = tally
            print(f"  {theme} workers={w}: {found} puzzles in {spent:.0f} s", file=sys.stderr, flush=True)
        top = sorted(first_tally.counts.items(), key=lambda kv: (-kv[1], kv[0]))[:2]
        reasons = ", ".join(f"{k[:50]} {v}" for k, v in top)
        ratios = "".join(f" {(r / rates[0] if rates[0] else float('nan')):9.2f}" for r in rates[1:])
        print(f"{theme:18}{''.join(f' {r:10.2f}' for r in rates)}{ratios}  {reasons}", flush=True)


if __name__ == "__main__":
    main()
