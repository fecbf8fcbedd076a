"""Differential benchmark: our solver against quagnes on Agnes Sorel deals, and our win rates.

For ``sorel-strict`` each deal is laid out by ``agnes_teach.deal`` and written as the deck file
quagnes reads (``agnes_teach.deckfile``); quagnes plays it with ``face_up=True,
move_same_suit=True, split_runs=False, move_to_empty_pile='none'``, the same rules.  Every deal
both decide must get the same verdict.  Both are bounded per deal (our search by states and
seconds, quagnes by ``max_states``).  ``--profiles sorel`` also measures the win rate of the
``sorel`` profile (no quagnes setting plays it: its deal is 7..1 and empty columns take any
card); every rate is given with its 95% Wilson interval.

Run it niced on a shared machine; one JSON line per deal goes to ``--out`` (resumable), and the
summary table is printed:

    nice -n 10 .venv/bin/python bench/quagnes.py --deals 1-1000 --out bench/results/quagnes.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import tempfile
import time
from pathlib import Path

# This file is named after the package it compares with: run as a script, its own folder is
# first on sys.path and would shadow the real quagnes.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from agnes_teach.deal import deal  # noqa: E402
from agnes_teach.deckfile import deck_text  # noqa: E402
from agnes_teach.profile import get_profile  # noqa: E402
from agnes_teach.solver import solve  # noqa: E402

QUAGNES_SETTINGS = {"face_up": True, "move_same_suit": True, "split_runs": False,
                    "move_to_empty_pile": "none"}


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def quagnes_verdict(number: int, max_states: int, profile: str = "sorel-strict",
                    empty: str = "none") -> tuple[str, float, int]:
    import quagnes  # a test dependency: pip install -e '.[test]'

    pos = deal(number, get_profile(profile))
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False, encoding="utf-8") as handle:
        handle.write(deck_text(pos))
        name = handle.name
    try:
        start = time.perf_counter()
        settings = QUAGNES_SETTINGS | {"move_to_empty_pile": empty}
        game = quagnes.Agnes(deck_filename=name, max_states=max_states, **settings)
        rc = game.play()
        return {1: "won", 2: "lost", 3: "unknown"}[rc], time.perf_counter() - start, game.n_states_checked
    finally:
        os.unlink(name)


def ours(profile: str, number: int, seconds: float, nodes: int) -> tuple[str, float, int]:
    result = solve(deal(number, get_profile(profile)), seconds=seconds, nodes=nodes)
    return result.status, result.seconds, result.nodes


def parse_range(text: str) -> range:
    low, _, high = text.partition("-")
    return range(int(low), int(high or low) + 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", default="1-1000", help="deal numbers, e.g. 1-1000")
    parser.add_argument("--profiles", default="sorel-strict,sorel", help="profiles to measure")
    parser.add_argument("--seconds", type=float, default=20.0, help="our time budget per deal")
    parser.add_argument("--nodes", type=int, default=400_000, help="our state budget per deal")
    parser.add_argument("--max-states", type=int, default=400_000, help="quagnes' state budget per deal")
    parser.add_argument("--out", type=Path, required=True, help="JSON lines, one per deal and profile")
    parser.add_argument("--empty", default="none",
                        help="quagnes' move_to_empty_pile for profiles laid out 1..7 other than sorel-strict "
                        "(a profile file with extends: sorel-strict and empty_column: any-run is compared "
                        "with --empty 'any run')")
    args = parser.parse_args()
    done: set[tuple[str, int]] = set()
    if args.out.exists():
        for line in args.out.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                done.add((row["profile"], row["deal"]))
    profiles = args.profiles.split(",")
    started = time.perf_counter()
    with args.out.open("a", encoding="utf-8") as out:
        for count, number in enumerate(parse_range(args.deals), start=1):
            for profile in profiles:
                if (get_profile(profile).id, number) in done:
                    continue
                status, seconds, nodes = ours(profile, number, args.seconds, args.nodes)
                name = get_profile(profile).id
                row: dict[str, object] = {"profile": name, "deal": number, "ours": status,
                                          "seconds": round(seconds, 3), "nodes": nodes}
                if get_profile(profile).column_lengths == (1, 2, 3, 4, 5, 6, 7):
                    empty = "none" if name == "sorel-strict" else args.empty
                    q, q_seconds, q_states = quagnes_verdict(number, args.max_states, profile, empty)
                    row |= {"quagnes": q, "quagnes_seconds": round(q_seconds, 3), "quagnes_states": q_states}
                out.write(json.dumps(row) + "\n")
                out.flush()
            if count % 50 == 0:
                print(f"{count} deals, {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    summarise(args.out)


def summarise(path: Path) -> None:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    print("| profile | deals | won | lost | unknown | win rate (decided) | 95% Wilson interval |")
    print("|---|---|---|---|---|---|---|")
    for profile in sorted({r["profile"] for r in rows}):
        mine = [r for r in rows if r["profile"] == profile]
        won = sum(r["ours"] == "won" for r in mine)
        lost = sum(r["ours"] == "lost" for r in mine)
        low, high = wilson(won, won + lost)
        rate = won / (won + lost) if won + lost else 0.0
        print(f"| {profile} | {len(mine)} | {won} | {lost} | {len(mine) - won - lost} | {rate:.1%} | "
              f"{low:.1%} – {high:.1%} |")
    for name in sorted({r["profile"] for r in rows if "quagnes" in r}):
        compare(name, [r for r in rows if "quagnes" in r and r["profile"] == name])


def compare(name: str, strict: list[dict[str, object]]) -> None:
    if strict:
        both = [r for r in strict if "unknown" not in (r["ours"], r["quagnes"])]
        agree = sum(r["ours"] == r["quagnes"] for r in both)
        q_won = sum(r["quagnes"] == "won" for r in strict)
        q_lost = sum(r["quagnes"] == "lost" for r in strict)
        low, high = wilson(q_won, q_won + q_lost)
        print()
        print(f"{name} vs quagnes: {len(strict)} deals, {len(both)} decided by both, {agree} agree, "
              f"{len(both) - agree} disagree; quagnes alone: {q_won} won, {q_lost} lost, "
              f"{len(strict) - q_won - q_lost} unknown (win rate {q_won / max(1, q_won + q_lost):.1%}, "
              f"{low:.1%} – {high:.1%}).")
        ours_s = sum(r["seconds"] for r in strict)
        theirs_s = sum(r["quagnes_seconds"] for r in strict)
        ratio = theirs_s / max(ours_s, 1e-9)
        print(f"time: ours {ours_s:.0f} s, quagnes {theirs_s:.0f} s (ratio {ratio:.2f})")
        for r in both:
            if r["ours"] != r["quagnes"]:
                print(f"DISAGREE deal {r['deal']}: ours {r['ours']}, quagnes {r['quagnes']}")


if __name__ == "__main__":
    main()
