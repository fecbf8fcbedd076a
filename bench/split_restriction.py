"""How far the restricted-split game (``Order(split_home_only=True)``) is from the real one.

Not a test.  The restricted game splits a run off a card only when that card
then goes home (search.py, "Restricted splits").  Its wins are real wins, but
its exhaustion is not a proof of loss: the swap it forbids is not a proved
dominance.  This benchmark measures, on a range of deals, the two things that
decide whether proving it would pay:

* counterexamples: deals the real game wins while the restricted game is
  exhausted - one would show the rule unsound here - and the deals the
  real solver leaves open that the restricted game exhausts (what a proof
  would decide);
* on deals the real game proves lost, the states the solver expands against
  the states the restricted game needs to be exhausted (the saving a proof
  would bring), as a geometric mean ratio and per deal.

    python bench/split_restriction.py --deals 1-300 --states 3000000
    python bench/split_restriction.py --deals 50013,50025 --states 20000000 \
        --known bench/results/bench-50001-50300-final-c.jsonl bench/results/bench-50001-50300-60s-c.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

from agnes_teach.deal import deal
from agnes_teach.profile import get_profile
from agnes_teach.solver import replays_to_win, solve
from agnes_teach.solver.compiled import CompiledDepthFirst
from agnes_teach.solver.fast import FastState
from agnes_teach.survey import parse_deal_ranges


def measure(number: int, profile_id: str, states: int, known: dict[str, Any] | None) -> dict[str, Any]:
    pos = deal(number, get_profile(profile_id))
    if known is not None:
        real_status, real_states = known["status"], known["nodes"]
    else:
        real = solve(pos, nodes=states, engine="c")
        real_status, real_states = real.status, real.nodes
    # One search, as solve() runs a one-order portfolio, asked directly so that running out of moves
    # (result False: exhausted) is told apart from a full table (unknown, like the state budget).
    search = CompiledDepthFirst(FastState(pos), prune=True, deal_first=False, split_home_only=True)
    result = search.run(states)
    if result:
        solution = [search.state.engine_move(m) for m in search.path]
        if not replays_to_win(pos, solution):
            raise SystemExit(f"deal {number}: the restricted game's win does not replay through the engine")
    status = "won" if result else "exhausted" if result is False else "unknown"
    restricted_states = search.nodes
    return {"deal": number, "real": real_status, "real_states": real_states,
            "restricted": status, "restricted_states": restricted_states}


def report(rows: list[dict[str, Any]]) -> str:
    counter = [r for r in rows if r["restricted"] == "exhausted" and r["real"] == "won"]
    # Undecided by the real solver, exhausted in the restricted game: what a proof would decide.
    would_decide = [r for r in rows if r["restricted"] == "exhausted" and r["real"] == "unknown"]
    lost = [r for r in rows if r["real"] == "lost" and r["restricted"] == "exhausted"]
    won = [r for r in rows if r["real"] == "won"]
    won_restricted = [r for r in won if r["restricted"] == "won"]
    lines = [
        f"deals: {len(rows)}; real game won {len(won)}, lost {sum(r['real'] == 'lost' for r in rows)}, "
        f"unknown {sum(r['real'] == 'unknown' for r in rows)}",
        f"restricted game won {len(won_restricted)} of the {len(won)} real wins",
        f"counterexamples (real game won, restricted game exhausted): "
        f"{' '.join(str(r['deal']) for r in counter) or 'none'}",
        f"real game unknown, restricted game exhausted: {len(would_decide)} "
        f"({' '.join(str(r['deal']) for r in would_decide) or '-'})",
    ]
    if lost:
        ratios = [r["real_states"] / max(r["restricted_states"], 1) for r in lost]
        mean = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
        lines.append(f"lost deals: states of the real proof / states to exhaust the restricted game: "
                     f"geometric mean {mean:.2f}x on {len(lost)} deals, max {max(ratios):.1f}x")
        big = sorted(lost, key=lambda r: -r["real_states"])[:10]
        lines.append("largest real proofs: " + ", ".join(
            f"{r['deal']} ({r['real_states']:,} vs {r['restricted_states']:,})" for r in big))
    return "\n".join(lines)


def read_rows(paths: list[Path]) -> dict[int, dict[str, Any]]:
    """Each deal's last line in these JSON-lines files; ValueError naming the file and line if bad."""
    rows: dict[int, dict[str, Any]] = {}
    for path in paths:
        try:
            text = path.read_text("utf-8")
        except OSError as problem:
            raise ValueError(f"{path}: cannot read it ({problem.strerror})") from None
        for number, line in enumerate(text.splitlines(), 1):
            try:
                row = json.loads(line)
                rows[int(row["deal"])] = row
            except (ValueError, KeyError, TypeError):
                raise ValueError(f"{path}, line {number}: not a JSON line with a \"deal\"") from None
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", required=True, help="deal numbers: 1-300, or 1-10,15,20-30")
    parser.add_argument("--profile", default="bernauer")
    parser.add_argument("--states", type=int, default=3_000_000, help="state budget of each solve")
    parser.add_argument("--known", type=Path, nargs="+", default=[],
                        help="take the real game's verdicts and states from these JSON-lines files "
                        "(survey --out or bench/solver.py --log; a later line of a deal counts) "
                        "instead of solving again")
    parser.add_argument("--log", type=Path, help="append one JSON line per deal (and resume from it)")
    args = parser.parse_args()
    if args.states < 1:
        parser.error("--states must be at least 1")
    try:
        numbers = list(parse_deal_ranges(args.deals))
        get_profile(args.profile)
    except ValueError as problem:  # an InputError: a malformed --deals or an unknown profile
        parser.error(str(problem))
    if args.log and not args.log.parent.is_dir():
        parser.error(f"--log {args.log}: the folder {args.log.parent} does not exist")
    try:
        done = read_rows([args.log] if args.log and args.log.exists() else [])
        known = read_rows(args.known)
    except ValueError as problem:
        parser.error(str(problem))
    rows = []
    log = open(args.log, "a") if args.log else None  # noqa: SIM115 - kept open for the whole run
    try:
        for i, number in enumerate(numbers, 1):
            row = done.get(number) or measure(number, args.profile, args.states, known.get(number))
            if log is not None and number not in done:
                log.write(json.dumps(row) + "\n")
                log.flush()
            rows.append(row)
            if i % 50 == 0:
                print(f"  {i}/{len(numbers)} deals", file=sys.stderr, flush=True)
    finally:
        if log is not None:
            log.close()
    print(f"profile {args.profile}, deals {args.deals}, at most {args.states:,} states per solve")
    print(report(rows))


if __name__ == "__main__":
    main()
