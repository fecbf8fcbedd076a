"""Fair-hint benchmark (not a test): what ``hint --fair K`` costs per legal move, and what K buys.

For each deal, in one process and the same run: the full-information hint
(the baseline: one solve per move, ``--budget`` seconds each) and the fair
hint with K sampled orders of the hidden cards (``--states`` per solve).
Prints, per deal, the number of legal first moves, seconds per move for both,
their ratio, the share of (move, order) solves left undecided by the budget,
and the best move with its score and 95% interval.  The last table is the
half-width of the 95% Wilson interval for a move that keeps the win in half
the orders, for several K: the price of precision, since the cost grows
linearly with K.

    .venv/bin/python bench/hint.py --deals 123,500,777 --orders 10 --states 5000
"""

from __future__ import annotations

import argparse
import time

from agnes_teach.deal import deal
from agnes_teach.hint import fair_hint, full_hint
from agnes_teach.profile import get_profile
from agnes_teach.stats import wilson


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", default="123,500,777")
    parser.add_argument("--orders", type=int, default=10, help="K, orders of the hidden cards per move")
    parser.add_argument("--states", type=int, default=5000, help="solver states per move and order")
    parser.add_argument("--budget", type=float, default=2.0, help="full mode: seconds per move")
    parser.add_argument("--profile", default="bernauer")
    args = parser.parse_args()
    profile = get_profile(args.profile)
    print(f"profile {profile.id}, K = {args.orders}, {args.states} states per solve (fair), "
          f"{args.budget:g} s per move (full)")
    print("| deal | moves | full s/move | fair s/move | fair/full | undecided | best (fair) | wins/K | 95% |")
    print("|---|---|---|---|---|---|---|---|---|")
    for number in (int(d) for d in args.deals.split(",")):
        pos = deal(number, profile)
        start = time.perf_counter()
        full = full_hint(pos, seconds=args.budget)
        full_s = time.perf_counter() - start
        start = time.perf_counter()
        fair = fair_hint(pos, args.orders, states=args.states)
        fair_s = time.perf_counter() - start
        n = len(fair.moves)
        undecided = sum((m.of or 0) - (m.wins or 0) - (m.lost or 0) for m in fair.moves)
        solves = sum(m.of or 0 for m in fair.moves)
        best = fair.best
        low, high = (best.interval() or (0.0, 1.0)) if best else (0.0, 1.0)
        print(f"| {number} | {n} | {full_s / max(len(full.moves), 1):.2f} | {fair_s / max(n, 1):.2f} | "
              f"{fair_s / max(full_s, 1e-9):.1f}x | {undecided}/{solves} | {best.move if best else '-'} | "
              f"{best.wins if best else 0}/{args.orders} | {100 * low:.0f}–{100 * high:.0f}% |", flush=True)
    print()
    print("| K | 95% half-width at 50% | relative cost |")
    print("|---|---|---|")
    for k in (5, 10, 20, 50, 100):
        low, high = wilson(k // 2, k)
        print(f"| {k} | ±{50 * (high - low):.0f} points | {k / args.orders:.1f}x |")


if __name__ == "__main__":
    main()
