"""Solver benchmark (not a test): how many deals are decided within 0.1 / 1 / 10 / 60 s.

Runs the solver on the same deals with each of several configurations, one
process, one deal at a time, and prints them side by side: the fraction of
deals decided (won or lost) within each time, the won/lost/unknown counts,
states expanded per second, and the peak memory of the process.

    python bench/solver.py --deals 20001-21000 --budget 10 --configs c,python --python-deals 200 --log LOG

Configurations: ``c`` (the compiled core, pruning on), ``python`` (the Python
reference search, pruning on), ``c-unpruned`` / ``python-unpruned`` (every
pruning off).  ``--python-deals N`` runs the Python configurations on the
first N deals of the range only (they are slow), and the table then also
shows the other configurations on those same N deals, so every ratio is
taken on the same deals in the same run.

Each finished deal is appended to ``LOG-CONFIG.jsonl`` (one JSON line per
deal, the fields of ``agnes-teach survey --out``), so an interrupted run
resumes; ``--only CONFIG`` runs one configuration (to run several in
separate processes; the logs join them).
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path
from typing import Any

from agnes_teach.deal import deal
from agnes_teach.profile import get_profile
from agnes_teach.solver import solve

THRESHOLDS = (0.1, 1.0, 10.0, 60.0)
# name: (engine, prune)
CONFIGS = {
    "c": ("c", True),
    "python": ("python", True),
    "c-unpruned": ("c", False),
    "python-unpruned": ("python", False),
}


def read_log(path: Path | None) -> dict[int, dict[str, Any]]:
    rows: dict[int, dict[str, Any]] = {}
    if path is None or not path.exists():
        return rows
    for line in path.read_text("utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            rows[int(row["deal"])] = row
    return rows


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run(
    numbers: list[int], profile_id: str, budget: float, states: int | None, config: str, log: Path | None
) -> dict[int, dict]:
    engine, prune = CONFIGS[config]
    rows = read_log(log)
    handle = log.open("a", encoding="utf-8") if log is not None else None
    profile = get_profile(profile_id)
    todo = [n for n in numbers if n not in rows]
    started = time.perf_counter()
    for i, number in enumerate(todo, 1):
        result = solve(deal(number, profile), seconds=budget, nodes=states, prune=prune,
                       engine=engine)  # type: ignore[arg-type]
        row = {"deal": number, "profile": profile_id, "status": result.status, "nodes": result.nodes,
               "seconds": round(result.seconds, 4), "moves": len(result.solution), "budget": budget,
               "config": config, "peak_mib": round(peak_mib(), 1)}
        rows[number] = row
        if handle is not None:
            handle.write(json.dumps(row) + "\n")
            handle.flush()
        if sys.stderr.isatty():
            spent = time.perf_counter() - started
            print(f"\r{config}: {i}/{len(todo)} deals, {spent:.0f} s", end="", file=sys.stderr)
    if sys.stderr.isatty() and todo:
        print(file=sys.stderr)
    if handle is not None:
        handle.close()
    return {n: rows[n] for n in numbers}


def figures(rows: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(rows)
    decided = [r for r in rows if r["status"] != "unknown"]
    seconds = sum(r["seconds"] for r in rows)
    budget = max((r["budget"] for r in rows), default=0)
    return {
        "deals": n,
        **{f"within {t:g} s": (sum(r["seconds"] <= t for r in decided) / n if n else 0.0)
           if t <= budget else None for t in THRESHOLDS},
        "won": sum(r["status"] == "won" for r in rows),
        "lost": sum(r["status"] == "lost" for r in rows),
        "unknown": n - len(decided),
        "states/s": round(sum(r["nodes"] for r in rows) / seconds) if seconds else 0,
        "peak MiB": max((r.get("peak_mib", 0) for r in rows), default=0),
    }


def table(columns: dict[str, dict[str, Any]]) -> str:
    names = list(columns)
    keys = list(next(iter(columns.values())))
    lines = ["| | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    for key in keys:
        cells = []
        for name in names:
            value = columns[name][key]
            if value is None:
                cells.append("-")
            elif key.startswith("within"):
                cells.append(f"{100 * value:.1f}%")
            else:
                cells.append(f"{value:,}" if isinstance(value, int) else str(value))
        lines.append(f"| {key} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def parse_range(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        low, _, high = part.strip().partition("-")
        out.extend(range(int(low), int(high or low) + 1))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", default="1-1000", help="deal range, e.g. 20001-21000")
    parser.add_argument("--budget", type=float, default=10.0, help="seconds per deal")
    parser.add_argument("--states", type=int, default=None,
                        help="also stop a deal after this many expanded states (unaffected by load)")
    parser.add_argument("--profile", default="bernauer")
    parser.add_argument("--configs", default="c,python", help=f"comma-separated, of {', '.join(CONFIGS)}")
    parser.add_argument("--python-deals", type=int, default=None,
                        help="run the python configurations on the first N deals only")
    parser.add_argument("--log", type=Path, default=None, help="prefix of the per-deal JSON-lines logs")
    parser.add_argument("--only", choices=tuple(CONFIGS), default=None, help="run this configuration only")
    args = parser.parse_args()
    numbers = parse_range(args.deals)
    configs = [c.strip() for c in args.configs.split(",") if c.strip()]
    for c in configs:
        if c not in CONFIGS:
            parser.error(f"unknown configuration {c!r}")
    short = numbers[: args.python_deals] if args.python_deals else numbers
    results: dict[str, dict[int, dict]] = {}
    for config in configs:
        if args.only is not None and config != args.only:
            continue
        deals = short if config.startswith("python") else numbers
        log = Path(f"{args.log}-{config}.jsonl") if args.log else None
        results[config] = run(deals, args.profile, args.budget, args.states, config, log)
    if args.only is not None:
        return
    columns: dict[str, dict[str, Any]] = {}
    span = args.deals if len(args.deals) <= 24 else f"{numbers[0]}-{numbers[-1]} ({len(numbers)} deals)"
    for config in configs:
        if not config.startswith("python"):
            columns[f"{config}, deals {span}"] = figures(list(results[config].values()))
    if short != numbers or any(c.startswith("python") for c in configs):
        small = span if short == numbers else f"{short[0]}-{short[-1]} ({len(short)} deals)"
        for config in configs:
            rows = [results[config][n] for n in short]
            columns[f"{config}, deals {small}"] = figures(rows)
    states = f" and {args.states:,} states" if args.states else ""
    print(f"profile {args.profile}, budget {args.budget:g} s{states} per deal, one process")
    print(table(columns))
    for config in configs:
        hard = sorted(n for n, r in results[config].items() if r["status"] == "unknown")
        if hard:
            print(f"unknown within the budget ({config}):", " ".join(map(str, hard)))


if __name__ == "__main__":
    main()
