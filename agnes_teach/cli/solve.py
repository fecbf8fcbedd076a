"""Commands that run the exact solver: ``solve`` and ``survey``."""

from __future__ import annotations

import json
import multiprocessing
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from ..deal import MAX_SEED, deal
from ..errors import InputError, Problem
from ..profile import get_profile
from ..solver import SolveResult, solve
from ..stats import wilson
from . import app, input_errors
from .options import (
    DealOption,
    JsonOption,
    OptionalProfileOption,
    ParentsOption,
    PositionFileArgument,
    ProfileOption,
    PySolFCOption,
    check_budget,
    check_out,
    chosen_position,
)

DEFAULT_SOLVE_BUDGET = 10.0


# Exit codes of `solve` (formats.md): the verdict, so scripts can branch on it.
SOLVE_EXIT = {"won": 0, "lost": 1, "unknown": 3}


@app.command("solve")
@input_errors
def solve_command(
    file: PositionFileArgument = None,
    deal_number: DealOption = None,
    pysolfc: PySolFCOption = None,
    profile: OptionalProfileOption = None,
    budget: Annotated[
        float, typer.Option("--budget", help="Seconds the solver may spend before answering unknown.")
    ] = DEFAULT_SOLVE_BUDGET,
    as_json: JsonOption = False,
    no_prune: Annotated[
        bool, typer.Option("--no-prune", help="Switch off every pruning and dominance rule (slow).")
    ] = False,
) -> None:
    """Decide a position: won (with a solution), lost, or unknown within the budget.

    The solver knows the order of the stock, as every published patience
    solver does (for advice without that knowledge, see hint --fair).
    Exit 0 won, 1 lost, 3 unknown, 2 bad input.

    Example: agnes-teach solve --deal 123 --budget 30 --json
    """
    check_budget(budget)
    position = chosen_position(file, deal_number, pysolfc, profile)
    result = solve(position, seconds=budget, prune=not no_prune)
    if as_json:
        print(json.dumps(result.to_json()))
    else:
        print(f"{result.status} ({result.nodes} states, {result.seconds:.2f} s)")
        if result.status == "won":
            print(" ".join(str(m) for m in result.solution))
    raise typer.Exit(SOLVE_EXIT[result.status])


# ------------------------------------------------------------------ survey


def parse_deal_ranges(text: str) -> list[int]:
    """``1-10000`` or ``1-10,15,20-30`` -> sorted deal numbers; InputError if malformed."""
    out: set[int] = set()
    for part in text.split(","):
        part = part.strip()
        try:
            if "-" in part:
                low_text, high_text = part.split("-", 1)
                low, high = int(low_text), int(high_text)
            else:
                low = high = int(part)
        except ValueError:
            raise InputError(f"--deals: {part!r} is not a deal number or a range like 1-1000") from None
        if low > high or low < 0 or high > MAX_SEED:
            raise InputError(f"--deals: {part!r} is not a range of deal numbers (0 to {MAX_SEED})")
        out.update(range(low, high + 1))
    return sorted(out)


def _solve_deal(job: tuple[int, str, float]) -> dict[str, Any]:
    number, profile_id, budget = job
    result: SolveResult = solve(deal(number, get_profile(profile_id)), seconds=budget)
    return {
        "deal": number,
        "profile": profile_id,
        "status": result.status,
        "nodes": result.nodes,
        "seconds": round(result.seconds, 4),
        "moves": len(result.solution),
        "budget": budget,
    }


def read_survey(path: Path, profile_id: str) -> dict[int, str]:
    """Deal number -> status for the lines of an earlier survey of this profile in `path`."""
    done: dict[int, str] = {}
    if not path.exists():
        return done
    problems: list[Problem] = []
    try:
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(Problem(f"cannot read the survey file: {exc}", str(path))) from None
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            if not isinstance(row, dict):
                raise ValueError("not an object")
            deal_number, status, prof = row["deal"], row["status"], row["profile"]
            if not isinstance(deal_number, int) or status not in ("won", "lost", "unknown"):
                raise ValueError("bad deal or status")
        except (ValueError, KeyError) as exc:
            problems.append(Problem(f"not a survey line ({exc}): {line[:60]!r}", str(path), number))
            continue
        if prof == profile_id:
            done[deal_number] = status
    if problems:
        raise InputError(problems)
    return done


def drop_cut_off_line(path: Path) -> None:
    """A survey stopped while writing leaves a last line without its newline: drop it (solved again)."""
    try:
        data = path.read_bytes()
        if data and not data.endswith(b"\n"):
            with path.open("r+b") as handle:
                handle.truncate(data.rfind(b"\n") + 1)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise InputError(Problem(f"cannot read the survey file: {exc}", str(path))) from None


def survey_summary(statuses: list[str]) -> dict[str, Any]:
    """Counts, the win rate among decided deals and bounds that count unknowns both ways."""
    won = statuses.count("won")
    lost = statuses.count("lost")
    unknown = statuses.count("unknown")
    decided = won + lost
    total = len(statuses)
    return {
        "deals": total,
        "won": won,
        "lost": lost,
        "unknown": unknown,
        "win_rate_decided": won / decided if decided else None,
        "wilson95_decided": wilson(won, decided),
        "win_rate_all_low": won / total if total else None,  # every unknown counted as lost
        "wilson95_all_low": wilson(won, total),
        "win_rate_all_high": (won + unknown) / total if total else None,  # every unknown counted as won
        "wilson95_all_high": wilson(won + unknown, total),
    }


def _percent(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.2f}%"


@app.command("survey")
@input_errors
def survey_command(
    deals: Annotated[str, typer.Option("--deals", help="Deal numbers: 1-10000, or 1-10,20-30.")],
    out: Annotated[Path, typer.Option("--out", help="JSON-lines file: one line per deal, appended; "
                                      "deals already in it are skipped (resume).")],
    budget: Annotated[float, typer.Option("--budget", help="Seconds per deal.")] = DEFAULT_SOLVE_BUDGET,
    workers: Annotated[int, typer.Option("--workers", help="Parallel processes.")] = 1,
    profile: ProfileOption = "bernauer",
    as_json: JsonOption = False,
    parents: ParentsOption = False,
) -> None:
    """Solve many deals with full knowledge of the stock and report the win rate.

    Prints the share of won deals among decided ones with a 95% Wilson
    interval, the same over all deals with unknowns counted both ways, and
    how many deals stayed unknown within the budget.

    Example: agnes-teach survey --deals 1-100 --budget 5 --workers 2 --out survey.jsonl
    """
    check_budget(budget)
    check_out(out, parents)
    if workers < 1:
        raise InputError("--workers must be at least 1")
    get_profile(profile)
    wanted = parse_deal_ranges(deals)
    drop_cut_off_line(out)
    done = read_survey(out, profile)
    todo = [n for n in wanted if n not in done]
    statuses = {n: done[n] for n in wanted if n in done}
    if todo:
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            handle = out.open("a", encoding="utf-8")
        except OSError as exc:
            raise InputError(Problem(f"cannot write the survey file: {exc}", str(out))) from None
        jobs = [(n, profile, budget) for n in todo]
        with handle, _progress(len(wanted), len(statuses)) as advance:
            if workers == 1:
                rows = map(_solve_deal, jobs)
                for row in rows:
                    _record(handle, row, statuses, advance)
            else:
                with multiprocessing.get_context("spawn").Pool(workers) as pool:
                    for row in pool.imap_unordered(_solve_deal, jobs):
                        _record(handle, row, statuses, advance)
    summary = survey_summary([statuses[n] for n in wanted])
    summary |= {"profile": profile, "budget": budget, "deal_range": deals}
    if as_json:
        print(json.dumps(summary))
        return
    low, high = summary["wilson95_decided"]
    print(f"profile {profile}, deals {deals}, {budget:g} s per deal: {summary['deals']} deals, "
          f"{summary['won']} won, {summary['lost']} lost, {summary['unknown']} unknown")
    print(f"win rate among decided deals: {_percent(summary['win_rate_decided'])} "
          f"(95% Wilson interval {_percent(low)} to {_percent(high)})")
    lo_all, hi_all = summary["wilson95_all_low"][0], summary["wilson95_all_high"][1]
    print(f"win rate over all deals: {_percent(summary['win_rate_all_low'])} (unknown = lost) to "
          f"{_percent(summary['win_rate_all_high'])} (unknown = won); 95% Wilson bounds "
          f"{_percent(lo_all)} to {_percent(hi_all)}")


def _record(handle: Any, row: dict[str, Any], statuses: dict[int, str], advance: Any) -> None:
    handle.write(json.dumps(row) + "\n")
    handle.flush()
    statuses[row["deal"]] = row["status"]
    advance(row)


class _progress:
    """A rich progress bar on stderr (only when stderr is a terminal)."""

    def __init__(self, total: int, completed: int) -> None:
        self.total, self.completed = total, completed
        self.bar: Any = None

    def __enter__(self) -> Any:
        if sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

            self.bar = Progress(
                TextColumn("survey"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                TextColumn("{task.description}"), console=Console(stderr=True),
            )
            self.bar.start()
            self.task = self.bar.add_task("", total=self.total, completed=self.completed)
        counts = {"won": 0, "lost": 0, "unknown": 0}

        def advance(row: dict[str, Any]) -> None:
            counts[row["status"]] += 1
            if self.bar is not None:
                tally = " ".join(f"{k} {v}" for k, v in counts.items())
                self.bar.update(self.task, advance=1, description=tally)

        return advance

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()
