"""Commands that run the exact solver: ``solve`` and ``survey``."""

from __future__ import annotations

import bisect
import fcntl
import json
import multiprocessing
import queue
import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Annotated, Any

import typer

from ..deal import MAX_SEED, deal
from ..errors import InputError, Problem
from ..limits import MAX_PROBLEMS_SHOWN, check_workers
from ..outputs import Interrupted, interruptible, worker_init
from ..profile import get_profile
from ..solver import PORTFOLIO, Order, SolveResult, solve
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


class DealRanges:
    """Deal numbers as merged, sorted ranges: counted and walked, never listed in memory."""

    def __init__(self, ranges: list[tuple[int, int]]) -> None:
        merged: list[tuple[int, int]] = []
        for low, high in sorted(ranges):
            if merged and low <= merged[-1][1] + 1:
                merged[-1] = (merged[-1][0], max(merged[-1][1], high))
            else:
                merged.append((low, high))
        self.ranges = merged
        self._lows = [low for low, _ in merged]

    def __len__(self) -> int:
        return sum(high - low + 1 for low, high in self.ranges)

    def __iter__(self) -> Iterator[int]:
        for low, high in self.ranges:
            yield from range(low, high + 1)

    def __contains__(self, number: object) -> bool:
        if not isinstance(number, int):
            return False
        i = bisect.bisect_right(self._lows, number) - 1
        return i >= 0 and number <= self.ranges[i][1]


MAX_RANGE_PARTS = 1000


def parse_deal_ranges(text: str) -> DealRanges:
    """``1-10000`` or ``1-10,15,20-30`` -> the deal numbers, as ranges; InputError if malformed."""
    parts = text.split(",")
    if len(parts) > MAX_RANGE_PARTS:
        raise InputError(f"--deals: {len(parts)} parts; at most {MAX_RANGE_PARTS} (use ranges like 1-1000)")
    ranges: list[tuple[int, int]] = []
    for part in parts:
        part = part.strip()
        try:
            if len(part) > 40:
                raise ValueError(part)
            if "-" in part:
                low_text, high_text = part.split("-", 1)
                low, high = int(low_text), int(high_text)
            else:
                low = high = int(part)
        except ValueError:
            shown = part if len(part) <= 40 else part[:37] + "..."
            raise InputError(f"--deals: {shown!r} is not a deal number or a range like 1-1000") from None
        if low > high or low < 0 or high > MAX_SEED:
            raise InputError(f"--deals: {part!r} is not a range of deal numbers (0 to {MAX_SEED})")
        ranges.append((low, high))
    return DealRanges(ranges)


# Deal number, profile id, seconds, states (or None), and whether the restricted-split search joins.
SurveyJob = tuple[int, str, float, int | None, bool]
# The searches of `survey --restricted-splits`: the default ones and the restricted-split game, which
# finds some hard wins fast but can prove nothing (README, "What each lever gains").
WITH_RESTRICTED_SPLITS = (*PORTFOLIO, Order(split_home_only=True))


def _solve_deal(job: SurveyJob) -> dict[str, Any]:
    number, profile_id, budget, states, restricted = job
    orders = WITH_RESTRICTED_SPLITS if restricted else PORTFOLIO
    result: SolveResult = solve(deal(number, get_profile(profile_id)), seconds=budget, nodes=states,
                                orders=orders)
    row: dict[str, Any] = {
        "deal": number,
        "profile": profile_id,
        "status": result.status,
        "nodes": result.nodes,
        "seconds": round(result.seconds, 4),
        "moves": len(result.solution),
        "budget": budget,
    }
    if states is not None:
        row["state_budget"] = states
    if restricted:
        row["restricted_splits"] = True
    return row


def read_survey(path: Path, profile_id: str) -> dict[int, str]:
    """Deal number -> status for the lines of an earlier survey of this profile in `path`.

    A deal with several lines (solved again by --retry-unknown) has the status of its last line.
    """
    done: dict[int, str] = {}
    if not path.exists():
        return done
    problems: list[Problem] = []
    try:
        handle = path.open("r", encoding="utf-8")
    except OSError as exc:
        raise InputError(Problem(f"cannot read the survey file: {exc}", str(path))) from None
    with handle:
        try:
            for number, line in enumerate(handle, 1):  # streamed: the file may hold millions of deals
                if len(problems) > MAX_PROBLEMS_SHOWN:
                    break
                _read_survey_line(line, number, path, profile_id, done, problems)
        except UnicodeDecodeError as exc:
            raise InputError(Problem(f"cannot read the survey file: {exc}", str(path))) from None
    if problems:
        raise InputError(problems)
    return done


def _read_survey_line(line: str, number: int, path: Path, profile_id: str, done: dict[int, str],
                      problems: list[Problem]) -> None:
    if not line.strip():
        return
    try:
        row = json.loads(line)
        if not isinstance(row, dict):
            raise ValueError("not an object")
        deal_number, status, prof = row["deal"], row["status"], row["profile"]
        if not isinstance(deal_number, int) or status not in ("won", "lost", "unknown"):
            raise ValueError("bad deal or status")
    except (ValueError, KeyError) as exc:
        problems.append(Problem(f"not a survey line ({exc}): {line[:60]!r}", str(path), number))
        return
    if prof == profile_id:
        done[deal_number] = status


def drop_cut_off_line(path: Path) -> None:
    """A survey stopped while writing leaves a last line without its newline: drop it (solved again)."""
    try:
        with path.open("r+b") as handle:
            end = handle.seek(0, 2)
            if end == 0:
                return
            handle.seek(end - 1)
            if handle.read(1) == b"\n":
                return
            # Look back from the end for the last newline, a block at a time (never the whole file).
            cut = 0
            position = end
            while position > 0:
                start = max(0, position - 65536)
                handle.seek(start)
                block = handle.read(position - start)
                newline = block.rfind(b"\n")
                if newline >= 0:
                    cut = start + newline + 1
                    break
                position = start
            handle.truncate(cut)
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
    scheduler: Annotated[
        str | None, typer.Option("--scheduler", help="Solve on a Dask cluster: the address of its scheduler, "
                                 "e.g. tcp://127.0.0.1:8786 (needs the 'distributed' package).")
    ] = None,
    states: Annotated[
        int | None, typer.Option("--states", help="Also stop a deal after this many expanded states: a "
                                 "budget that gives the same file on any machine.")
    ] = None,
    retry_unknown: Annotated[
        bool, typer.Option("--retry-unknown", help="Solve again, with this --budget/--states, the deals "
                           "whose last line in --out is unknown; the new line is appended and supersedes "
                           "the old one.")
    ] = False,
    restricted_splits: Annotated[
        bool, typer.Option("--restricted-splits", help="Also run a search that splits a run only when the "
                           "card it uncovers then goes home: it wins some hard deals much sooner, proves "
                           "no loss, and costs the other deals about a fifth more time; each line "
                           "records it.")
    ] = False,
) -> None:
    """Solve many deals with full knowledge of the stock and report the win rate.

    Prints the share of won deals among decided ones with a 95% Wilson
    interval, the same over all deals with unknowns counted both ways, and
    how many deals stayed unknown within the budget.  With --scheduler the
    deals are solved as tasks on a Dask cluster instead of --workers local
    processes; the file and the summary are the same either way.

    The file is only ever appended to.  When it holds several lines for one
    deal (a deal solved again with --retry-unknown), the last one counts: the
    summary counts every deal once, by its last line.

    Example: agnes-teach survey --deals 1-100 --budget 5 --workers 2 --out survey.jsonl

    Example, a second pass over the deals left unknown, with a larger budget:
    agnes-teach survey --deals 1-100 --budget 60 --retry-unknown --out survey.jsonl

    Example, a third pass that also tries the restricted-split search:
    agnes-teach survey --deals 1-100 --budget 60 --retry-unknown --restricted-splits --out survey.jsonl
    """
    check_budget(budget)
    check_out(out, parents)
    check_workers(workers)
    if states is not None and states < 1:
        raise InputError("--states must be at least 1")
    get_profile(profile)
    wanted = parse_deal_ranges(deals)
    client = None
    if scheduler is not None:
        from .cluster import connect

        client = connect(scheduler)  # before the file is opened: a wrong address writes nothing
    with _locked_output(out) as handle, client if client is not None else nullcontext():
        drop_cut_off_line(out)
        done = read_survey(out, profile)
        retried: set[int] = set()
        if retry_unknown:  # solved again: their last line no longer counts once the new one is written
            retried = {n for n, status in done.items() if status == "unknown" and n in wanted}
            done = {n: status for n, status in done.items() if n not in retried}
        settled = 0  # retried deals decided this run
        counts = Counter(status for n, status in done.items() if n in wanted)
        remaining = len(wanted) - sum(counts.values())
        todo = (n for n in wanted if n not in done)  # streamed: a range is never listed in memory
        jobs: Iterator[SurveyJob] = ((n, profile, budget, states, restricted_splits) for n in todo)
        recorded = 0
        try:
            with interruptible(), _progress(len(wanted), len(wanted) - remaining) as advance:
                if client is not None:
                    from .cluster import run_on_cluster

                    rows = run_on_cluster(client, jobs, _solve_deal, name=f"survey-{profile}")
                else:
                    rows = _run_jobs(jobs, workers)
                for row in rows:
                    handle.write(json.dumps(row) + "\n")
                    handle.flush()
                    counts[row["status"]] += 1
                    recorded += 1
                    settled += row["deal"] in retried and row["status"] != "unknown"
                    advance(row)
        except Interrupted as stop:
            again = (" (deals retried this run that stayed unknown are solved once more)"
                     if retry_unknown else "")
            print(f"agnes-teach: interrupted; {recorded} deals recorded in {out} this run "
                  f"({remaining - recorded} left): run the same command again to resume{again}",
                  file=sys.stderr)
            raise typer.Exit(128 + stop.signum) from None
    statuses = [status for status, n in counts.items() for _ in range(n)]
    summary = survey_summary(statuses)
    summary |= {"profile": profile, "budget": budget, "deal_range": deals}
    if retry_unknown:
        summary |= {"retried": len(retried), "retried_decided": settled}
    if as_json:
        print(json.dumps(summary))
        return
    if retry_unknown:
        print(f"retried {len(retried)} deals recorded unknown: {settled} decided this time")
    low, high = summary["wilson95_decided"]
    print(f"profile {profile}, deals {deals}, {budget:g} s per deal: {summary['deals']} deals, "
          f"{summary['won']} won, {summary['lost']} lost, {summary['unknown']} unknown")
    print(f"win rate among decided deals: {_percent(summary['win_rate_decided'])} "
          f"(95% Wilson interval {_percent(low)} to {_percent(high)})")
    lo_all, hi_all = summary["wilson95_all_low"][0], summary["wilson95_all_high"][1]
    print(f"win rate over all deals: {_percent(summary['win_rate_all_low'])} (unknown = lost) to "
          f"{_percent(summary['win_rate_all_high'])} (unknown = won); 95% Wilson bounds "
          f"{_percent(lo_all)} to {_percent(hi_all)}")


@contextmanager
def _locked_output(out: Path) -> Iterator[Any]:
    """The survey file opened for appending, under an exclusive lock for the whole run.

    A second survey on the same file is refused at once (bad input, exit 2)
    instead of solving every deal twice; the lock goes with the process.
    """
    if out.exists() and not out.is_file():
        raise InputError(Problem("is not a regular file; --out needs a JSON-lines file", str(out)))
    try:
        out.parent.mkdir(parents=True, exist_ok=True)  # check_out allowed it (--parents)
        handle = out.open("a", encoding="utf-8")
    except OSError as exc:
        raise InputError(Problem(f"cannot write the survey file: {exc.strerror or exc}", str(out))) from None
    with handle:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise InputError(Problem("another survey is writing to this file; wait for it to finish "
                                     "or give another --out", str(out))) from None
        yield handle


def _run_jobs(jobs: Iterator[SurveyJob], workers: int) -> Iterator[dict[str, Any]]:
    """Solve the jobs, yielding each row as it is done; at most 2 x workers jobs in flight.

    The jobs are pulled from the iterator as workers free up (``Pool.imap``
    would read it to the end first).  On Interrupted the pool is terminated,
    so no worker outlives the run.
    """
    if workers == 1:
        yield from map(_solve_deal, jobs)
        return
    done: queue.SimpleQueue[tuple[bool, Any]] = queue.SimpleQueue()
    pool = multiprocessing.get_context("spawn").Pool(workers, initializer=worker_init)
    try:
        in_flight = 0
        exhausted = False
        while True:
            while not exhausted and in_flight < 2 * workers:
                job = next(jobs, None)
                if job is None:
                    exhausted = True
                    break
                pool.apply_async(_solve_deal, (job,), callback=lambda row: done.put((True, row)),
                                 error_callback=lambda exc: done.put((False, exc)))
                in_flight += 1
            if in_flight == 0:
                break
            ok, value = _next_result(done)
            in_flight -= 1
            if not ok:
                raise value
            yield value
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def _next_result(done: queue.SimpleQueue[tuple[bool, Any]]) -> tuple[bool, Any]:
    while True:  # short waits keep the main thread ready for a stop signal
        try:
            return done.get(timeout=0.2)
        except queue.Empty:
            continue


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
