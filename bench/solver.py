"""Solver benchmark (not a test): how many deals are decided within 0.1 / 1 / 10 / 60 s.

Runs the solver on the same deals with each of several configurations, one
process, and prints them side by side: the fraction of deals decided (won or
lost) within each time, the won/lost/unknown counts, states expanded per
second, and the peak memory of the process.  The configurations take turns
deal by deal, so a change in the machine's load hits them alike.

    python bench/solver.py --deals 20001-20300 --budget 10 --configs c,c-before --log LOG
    python bench/solver.py --deals 20014,20015,20043 --rate 30000

Configurations (``CONFIGS``): ``c`` is the solver as shipped (compiled core,
every reduction, the default portfolio); ``c-before`` the search as it was
before the levers of issue 9 (two orders, forced states stored, deals at any
time, the looser test of point 5); each ``c-no-*`` / ``c-*`` switches one
lever off or changes the portfolio; ``python*`` the Python reference search
(slow), ``*-unpruned`` every reduction off.  ``--python-deals N`` runs the
Python configurations on the first N deals of the range only, and the table
then also shows the other configurations on those same N deals, so every
ratio is taken on the same deals in the same run.

Times: ``seconds`` in the logs is wall clock (the budget is wall clock, as
``agnes-teach solve --budget``), ``cpu`` the process time of that solve; the
table's "within" rows count CPU time, which another process's load does not
inflate.  Each finished deal is appended to ``LOG-CONFIG.jsonl`` (one JSON
line per deal, the fields of ``agnes-teach survey --out`` plus ``cpu``), so
an interrupted run resumes; ``--only CONFIG`` runs one configuration.
``--rate STATES`` measures instead the states per CPU second of the compiled
core and of the Python search, expanding the same states.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from agnes_teach.deal import deal
from agnes_teach.profile import get_profile
from agnes_teach.solver import RESTARTS_AFTER, Order, solve

THRESHOLDS = (0.1, 1.0, 10.0, 60.0)
_LAST, _FIRST, _BACK = Order(), Order(deal_first=True), Order(reverse=True)
_RESTARTS = Order(restarts=True, after=RESTARTS_AFTER)
_SPLIT = Order(split_home_only=True)
_BEFORE: dict[str, Any] = dict(
    orders=(_LAST, _FIRST), deal_timing=False, share_losses=False, tight_lookahead=False)
# name: keyword arguments of solve()
CONFIGS: dict[str, dict[str, Any]] = {
    "c": dict(engine="c"),
    "c-before": dict(engine="c", **_BEFORE),
    "c-no-deal-timing": dict(engine="c", deal_timing=False),
    "c-unstored-forced": dict(engine="c", store_forced=False),
    "c-no-shared-losses": dict(engine="c", share_losses=False),
    "c-loose-lookahead": dict(engine="c", tight_lookahead=False),
    "c-two-orders": dict(engine="c", orders=(_LAST, _FIRST)),
    "c-no-restarts": dict(engine="c", orders=(_LAST, _FIRST, _BACK)),
    "c-no-reverse": dict(engine="c", orders=(_LAST, _FIRST, _RESTARTS)),
    "c-restarts-at-once": dict(engine="c", orders=(_LAST, _FIRST, _BACK, Order(restarts=True))),
    # The restricted-split search (Order.split_home_only) added to the portfolio, or in place of one.
    "c-split-added": dict(engine="c", orders=(_LAST, _FIRST, _BACK, _SPLIT, _RESTARTS)),
    "c-split-for-back": dict(engine="c", orders=(_LAST, _FIRST, _SPLIT, _RESTARTS)),
    "python": dict(engine="python"),
    "python-before": dict(engine="python", **_BEFORE),
    "c-unpruned": dict(engine="c", prune=False),
    "python-unpruned": dict(engine="python", prune=False),
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


def solve_one(number: int, profile_id: str, budget: float, states: int | None, config: str) -> dict[str, Any]:
    cpu = time.process_time()
    result = solve(deal(number, get_profile(profile_id)), seconds=budget, nodes=states, **CONFIGS[config])
    return {"deal": number, "profile": profile_id, "status": result.status, "nodes": result.nodes,
            "seconds": round(result.seconds, 4), "cpu": round(time.process_time() - cpu, 4),
            "moves": len(result.solution), "budget": budget, "config": config,
            "peak_mib": round(peak_mib(), 1)}


def run(
    plan: dict[str, list[int]], profile_id: str, budget: float, states: int | None, log: Path | None
) -> dict[str, dict[int, dict[str, Any]]]:
    """Solve each configuration's deals, deal by deal, the configurations taking turns on each."""
    rows = {config: read_log(Path(f"{log}-{config}.jsonl") if log else None) for config in plan}
    numbers = sorted({n for deals in plan.values() for n in deals})
    started = time.perf_counter()
    with ExitStack() as files:
        handles = {config: files.enter_context(Path(f"{log}-{config}.jsonl").open("a", encoding="utf-8"))
                   for config in plan} if log else {}
        for i, number in enumerate(numbers, 1):
            for config, deals in plan.items():
                if number in rows[config] or number not in deals:
                    continue
                row = solve_one(number, profile_id, budget, states, config)
                rows[config][number] = row
                if config in handles:
                    handles[config].write(json.dumps(row) + "\n")
                    handles[config].flush()
            if sys.stderr.isatty():
                spent = time.perf_counter() - started
                print(f"\r{i}/{len(numbers)} deals, {spent:.0f} s", end="", file=sys.stderr)
    if sys.stderr.isatty() and numbers:
        print(file=sys.stderr)
    return {config: {n: rows[config][n] for n in deals} for config, deals in plan.items()}


def figures(rows: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(rows)
    decided = [r for r in rows if r["status"] != "unknown"]
    seconds = sum(r["seconds"] for r in rows)
    cpu = sum(r.get("cpu", r["seconds"]) for r in rows)
    budget = max((r["budget"] for r in rows), default=0)
    return {
        "deals": n,
        **{f"within {t:g} s": (sum(r.get("cpu", r["seconds"]) <= t for r in decided) / n if n else 0.0)
           if t <= budget else None for t in THRESHOLDS},
        "won": sum(r["status"] == "won" for r in rows),
        "lost": sum(r["status"] == "lost" for r in rows),
        "unknown": n - len(decided),
        "states/s": round(sum(r["nodes"] for r in rows) / seconds) if seconds else 0,
        "states/CPU s": round(sum(r["nodes"] for r in rows) / cpu) if cpu else 0,
        "peak MiB": max((r.get("peak_mib", 0) for r in rows), default=0),
    }


def ratios(results: dict[str, dict[int, dict[str, Any]]], base: str, short: list[int]) -> str:
    """CPU time of each configuration over the first one's, on the deals both decided (same deals)."""
    lines = [f"CPU time against {base}, on the deals both decided:"]
    for config, rows in results.items():
        if config == base:
            continue
        both = [n for n in rows if n in results[base] and "unknown" not in (
            rows[n]["status"], results[base][n]["status"])]
        if not both:
            continue
        mine = sum(rows[n].get("cpu", rows[n]["seconds"]) for n in both)
        theirs = sum(results[base][n].get("cpu", results[base][n]["seconds"]) for n in both)
        verdicts = sum(rows[n]["status"] != results[base][n]["status"] for n in both)
        lines.append(f"  {config}: {mine / theirs:.2f}x on {len(both)} deals"
                     f" ({verdicts} different verdicts)" if theirs else f"  {config}: -")
    return "\n".join(lines)


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


def rates(numbers: list[int], profile_id: str, states: int) -> str:
    """States per CPU second of each engine on the same deals: one search (``deal`` last, fixed order),
    the same state budget, so both engines expand exactly the same states."""
    lines = [f"states per CPU second, one search, {states:,} states per deal (or fewer if it ends):",
             "| deal | states | compiled | Python | ratio |", "|---|---|---|---|---|"]
    for number in numbers:
        pos = deal(number, get_profile(profile_id))
        speed = {}
        for engine in ("c", "python"):
            cpu = time.process_time()
            result = solve(pos, nodes=states, orders=(_LAST,), engine=engine)  # type: ignore[arg-type]
            speed[engine] = result.nodes / max(time.process_time() - cpu, 1e-9)
        lines.append(f"| {number} | {result.nodes:,} | {speed['c']:,.0f} | {speed['python']:,.0f} | "
                     f"{speed['c'] / speed['python']:.1f}x |")
    return "\n".join(lines)


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
    parser.add_argument("--rate", type=int, default=None, metavar="STATES",
                        help="instead: states per CPU second of both engines, STATES per deal")
    args = parser.parse_args()
    try:
        numbers = parse_range(args.deals)
    except ValueError:
        parser.error(f"--deals: {args.deals!r} is not a list of deal numbers and ranges like 1-1000")
    if args.rate is not None and args.rate < 1:
        parser.error("--rate: the number of states per deal must be at least 1")
    if args.rate:
        print(rates(numbers, args.profile, args.rate))
        return
    configs = [c.strip() for c in args.configs.split(",") if c.strip()]
    for c in configs:
        if c not in CONFIGS:
            parser.error(f"unknown configuration {c!r}")
    short = numbers[: args.python_deals] if args.python_deals else numbers
    plan = {config: short if config.startswith("python") else numbers for config in configs
            if args.only is None or config == args.only}
    results = run(plan, args.profile, args.budget, args.states, args.log)
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
    print(ratios(results, configs[0], short))
    for config in configs:
        hard = sorted(n for n, r in results[config].items() if r["status"] == "unknown")
        if hard:
            print(f"unknown within the budget ({config}):", " ".join(map(str, hard)))
        slow = sorted((n, r) for n, r in results[config].items()
                      if r["status"] != "unknown" and r.get("cpu", r["seconds"]) > 1)
        if slow:
            print(f"decided after more than 1 s ({config}):",
                  " ".join(f"{n} ({r['status']}, {r.get('cpu', r['seconds']):.1f} s)" for n, r in slow))


if __name__ == "__main__":
    main()
