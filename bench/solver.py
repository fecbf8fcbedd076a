"""Solver benchmark (not a test): how many deals are decided within 0.1 s, 1 s and 10 s.

Runs the solver with pruning on deals 1..N and with every pruning switched
off on deals 1..M, one process, and prints both side by side: the fraction
of deals decided (won or lost) within each time, the won/lost/unknown counts
and the states expanded per second.

    python bench/solver.py --deals 1000 --unpruned-deals 200 --budget 10 --log /tmp/bench

Each finished deal is appended to ``LOG-pruned.jsonl`` / ``LOG-unpruned.jsonl``
(one JSON line per deal, the same fields as ``agnes-teach survey --out``), so
an interrupted run resumes, and a survey file made with the same budget can
stand in for the pruned half (``--pruned-log FILE``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from agnes_teach.deal import deal
from agnes_teach.profile import get_profile
from agnes_teach.solver import solve

THRESHOLDS = (0.1, 1.0, 10.0)


def read_log(path: Path | None) -> dict[int, dict[str, Any]]:
    rows: dict[int, dict[str, Any]] = {}
    if path is None or not path.exists():
        return rows
    for line in path.read_text("utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            rows[int(row["deal"])] = row
    return rows


def run(
    numbers: list[int], profile_id: str, budget: float, prune: bool, log: Path | None
) -> dict[int, dict[str, Any]]:
    rows = read_log(log)
    handle = log.open("a", encoding="utf-8") if log is not None else None
    profile = get_profile(profile_id)
    todo = [n for n in numbers if n not in rows]
    started = time.perf_counter()
    for i, number in enumerate(todo, 1):
        result = solve(deal(number, profile), seconds=budget, prune=prune)
        row = {"deal": number, "profile": profile_id, "status": result.status, "nodes": result.nodes,
               "seconds": round(result.seconds, 4), "moves": len(result.solution), "budget": budget,
               "prune": prune}
        rows[number] = row
        if handle is not None:
            handle.write(json.dumps(row) + "\n")
            handle.flush()
        if sys.stderr.isatty():
            spent = time.perf_counter() - started
            print(f"\r{'pruned' if prune else 'unpruned'}: {i}/{len(todo)} deals, {spent:.0f} s",
                  end="", file=sys.stderr)
    if sys.stderr.isatty() and todo:
        print(file=sys.stderr)
    if handle is not None:
        handle.close()
    return {n: rows[n] for n in numbers}


def figures(rows: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(rows)
    decided = [r for r in rows if r["status"] != "unknown"]
    seconds = sum(r["seconds"] for r in rows)
    return {
        "deals": n,
        **{f"within {t:g} s": sum(r["seconds"] <= t for r in decided) / n if n else 0.0 for t in THRESHOLDS},
        "won": sum(r["status"] == "won" for r in rows),
        "lost": sum(r["status"] == "lost" for r in rows),
        "unknown": n - len(decided),
        "states/s": round(sum(r["nodes"] for r in rows) / seconds) if seconds else 0,
    }


def table(columns: dict[str, dict[str, Any]]) -> str:
    names = list(columns)
    keys = list(next(iter(columns.values())))
    lines = ["| | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    for key in keys:
        cells = []
        for name in names:
            value = columns[name][key]
            cells.append(f"{100 * value:.1f}%" if key.startswith("within") else str(value))
        lines.append(f"| {key} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=1000, help="pruned search on deals 1..N")
    parser.add_argument("--unpruned-deals", type=int, default=None, help="unpruned on deals 1..M (default N)")
    parser.add_argument("--budget", type=float, default=10.0, help="seconds per deal")
    parser.add_argument("--profile", default="bernauer")
    parser.add_argument("--log", type=Path, default=None, help="prefix of the per-deal JSON-lines logs")
    parser.add_argument("--pruned-log", type=Path, default=None, help="JSON-lines file for the pruned half")
    parser.add_argument("--only", choices=("pruned", "unpruned"), default=None,
                        help="run one half only (to run the halves in two processes; the logs join them)")
    args = parser.parse_args()
    unpruned_n = args.deals if args.unpruned_deals is None else args.unpruned_deals
    pruned_log = args.pruned_log or (Path(f"{args.log}-pruned.jsonl") if args.log else None)
    unpruned_log = Path(f"{args.log}-unpruned.jsonl") if args.log else None
    if args.only != "unpruned":
        pruned = run(list(range(1, args.deals + 1)), args.profile, args.budget, True, pruned_log)
    if args.only != "pruned":
        unpruned = run(list(range(1, unpruned_n + 1)), args.profile, args.budget, False, unpruned_log)
    if args.only is not None:
        return
    columns = {
        f"pruned, deals 1-{args.deals}": figures(list(pruned.values())),
        f"no pruning, deals 1-{unpruned_n}": figures(list(unpruned.values())),
    }
    if unpruned_n < args.deals:
        columns[f"pruned, deals 1-{unpruned_n}"] = figures([pruned[n] for n in range(1, unpruned_n + 1)])
    print(f"profile {args.profile}, budget {args.budget:g} s per deal, one process")
    print(table(columns))
    hard = sorted((r for r in pruned.values() if r["status"] == "unknown"), key=lambda r: r["deal"])
    if hard:
        print("unknown within the budget (pruned):", " ".join(str(r["deal"]) for r in hard))


if __name__ == "__main__":
    main()
