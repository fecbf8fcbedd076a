"""Benchmark: the engine's move generator against the refusal-based reference.

``legal_moves`` builds legal moves directly; ``legal_moves_by_refusal`` asks
``refusal`` about every candidate move (the reference the property tests
compare it with).  Both run over the same positions, taken from seeded random
play from deals 1..N, in one process, so the ratio holds on a noisy machine.

    .venv/bin/python bench/engine.py --deals 40 --repeat 3
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from agnes_teach.deal import deal
from agnes_teach.engine import apply_unchecked, legal_moves, legal_moves_by_refusal
from agnes_teach.position import Position
from agnes_teach.profile import get_profile, profile_ids


def positions(deals: int, steps: int) -> list[Position]:
    rng = random.Random(1)
    out: list[Position] = []
    for profile_id in profile_ids():
        profile = get_profile(profile_id)
        for seed in range(1, deals + 1):
            pos = deal(seed, profile)
            for _ in range(steps):
                out.append(pos)
                moves = legal_moves(pos)
                if not moves:
                    break
                pos = apply_unchecked(pos, rng.choice(moves))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    sample = positions(args.deals, args.steps)
    assert all(legal_moves(p) == legal_moves_by_refusal(p) for p in sample)
    fast: list[float] = []
    slow: list[float] = []
    for _ in range(args.repeat):
        for func, times in ((legal_moves, fast), (legal_moves_by_refusal, slow)):
            start = time.perf_counter()
            for p in sample:
                func(p)
            times.append(time.perf_counter() - start)
    f, s = statistics.median(fast), statistics.median(slow)
    print(f"{len(sample)} positions from random play, 5 profiles, median of {args.repeat}")
    print(f"legal_moves:            {len(sample) / f:10.0f} positions/s")
    print(f"legal_moves_by_refusal: {len(sample) / s:10.0f} positions/s")
    print(f"speed-up: {s / f:.1f}x")


if __name__ == "__main__":
    main()
