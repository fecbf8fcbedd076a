"""Benchmark: verified puzzles per minute, per theme.

Run:  .venv/bin/python bench/generate.py [--seconds 60] [--themes foundation.wrap,...] [--seed 1]

For each theme, generates puzzles for the given wall-clock time (one process,
one core) and reports how many were fully verified (built, explored, theme
detected, distractor refuted, proved by the project's solver), how many
candidates were tried, and why the others were dropped.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agnes_teach.generator import Tally, generate  # noqa: E402
from agnes_teach.profile import get_profile  # noqa: E402
from agnes_teach.themes import theme_ids  # noqa: E402


def bench_theme(theme: str, seconds: float, seed: int, profile_id: str) -> tuple[int, int, float, Tally]:
    """Puzzles found, candidates tried, seconds spent, rejection tally."""
    profile = get_profile(profile_id)
    tally = Tally()
    found = tried = 0
    start = time.perf_counter()
    batch_seed = seed
    while time.perf_counter() - start < seconds:
        before = sum(tally.counts.values())
        found += len(generate(theme, 1, batch_seed, profile, tally=tally, max_attempts=200))
        tried += sum(tally.counts.values()) - before
        batch_seed += 1
    tried += found
    return found, tried, time.perf_counter() - start, tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="time per theme")
    parser.add_argument("--themes", default=None,
                        help="comma-separated rule ids (default: every theme of the profile)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", default="bernauer")
    args = parser.parse_args()
    known = theme_ids(args.profile)
    themes = [t for t in args.themes.split(",") if t] if args.themes is not None else known
    unknown = [t for t in themes if t not in known]
    if unknown:
        parser.error(f"unknown theme(s): {', '.join(unknown)} (known: {', '.join(known)})")
    print(f"{'theme':18} {'puzzles':>7} {'tried':>6} {'seconds':>7} {'per min':>8}  top rejections")
    for theme in themes:
        found, tried, spent, tally = bench_theme(theme, args.seconds, args.seed, args.profile)
        top = sorted(tally.counts.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
        reasons = ", ".join(f"{k} {v}" for k, v in top)
        rate = 60 * found / spent
        print(f"{theme:18} {found:7d} {tried:6d} {spent:7.1f} {rate:8.1f}  {reasons}", flush=True)


if __name__ == "__main__":
    main()
