"""Surveys: many deals solved with the stock order known, one JSON line per deal (``agnes-teach survey``).

The file is only ever appended to, under a lock for the whole run; a run
resumes where an earlier one stopped (deals already in the file are skipped),
and ``retry_unknown`` solves again the deals whose last line is unknown.  The
deals are solved by a local pool of processes (:func:`run_jobs`) or by any
other function that turns jobs into rows as they finish (a Dask cluster:
``agnes_teach.cli.cluster``).
"""

from __future__ import annotations

import bisect
import fcntl
import json
import multiprocessing
import queue
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from .deal import MAX_SEED, deal
from .errors import InputError, Problem
from .limits import MAX_PROBLEMS_SHOWN
from .outputs import interruptible, worker_init
from .profile import get_profile
from .registry import Verdict
from .solver import PORTFOLIO, Order, SolveResult, solve
from .stats import wilson


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
# One line of the survey file (and what a solved job returns).
SurveyRow = dict[str, Any]
# The searches of `survey --restricted-splits`: the default ones and the restricted-split game, which
# finds some hard wins fast but can prove nothing (docs/solver.md, "What each lever gains").
WITH_RESTRICTED_SPLITS = (*PORTFOLIO, Order(split_home_only=True))


def solve_deal(job: SurveyJob) -> SurveyRow:
    """Solve one job's deal: its line of the survey file."""
    number, profile_id, budget, states, restricted = job
    orders = WITH_RESTRICTED_SPLITS if restricted else PORTFOLIO
    result: SolveResult = solve(deal(number, get_profile(profile_id)), seconds=budget, nodes=states,
                                orders=orders)
    row: SurveyRow = {
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
        if not isinstance(deal_number, int) or status not in tuple(Verdict):
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
    won = statuses.count(Verdict.WON)
    lost = statuses.count(Verdict.LOST)
    unknown = statuses.count(Verdict.UNKNOWN)
    decided = won + lost
    total = len(statuses)
    return {
        "deals": total,
        Verdict.WON.value: won,
        Verdict.LOST.value: lost,
        Verdict.UNKNOWN.value: unknown,
        "win_rate_decided": won / decided if decided else None,
        "wilson95_decided": wilson(won, decided),
        "win_rate_all_low": won / total if total else None,  # every unknown counted as lost
        "wilson95_all_low": wilson(won, total),
        "win_rate_all_high": (won + unknown) / total if total else None,  # every unknown counted as won
        "wilson95_all_high": wilson(won + unknown, total),
    }


@contextmanager
def locked_output(out: Path) -> Iterator[IO[str]]:
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


def run_jobs(jobs: Iterator[SurveyJob], workers: int) -> Iterator[SurveyRow]:
    """Solve the jobs, yielding each row as it is done; at most 2 x workers jobs in flight.

    The jobs are pulled from the iterator as workers free up (``Pool.imap``
    would read it to the end first).  On Interrupted the pool is terminated,
    so no worker outlives the run.
    """
    if workers == 1:
        yield from map(solve_deal, jobs)
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
                pool.apply_async(solve_deal, (job,), callback=lambda row: done.put((True, row)),
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


@dataclass
class SurveyTally:
    """What a survey run found and did; up to date when the run ends or is interrupted."""

    counts: Counter[str] = field(default_factory=Counter)  # deals of the range by their last line's status
    retried: set[int] = field(default_factory=set)  # deals recorded unknown, solved again this run
    left: int = 0  # deals of the range the run set out to solve
    recorded: int = 0  # lines written this run
    settled: int = 0  # retried deals decided this run

    def statuses(self) -> list[str]:
        """The status of each deal of the range that has a line, counted once (its last line)."""
        return [status for status, n in self.counts.items() for _ in range(n)]


# Jobs in, rows out as they are done: run_jobs with some workers, or a cluster's runner.
Solver = Callable[[Iterator[SurveyJob]], Iterable[SurveyRow]]
# (deals in the range, deals already done) -> a block that is told of each row written.
Progress = Callable[[int, int], AbstractContextManager[Callable[[SurveyRow], None]]]


def run_survey(
    out: Path, wanted: DealRanges, profile_id: str, budget: float, states: int | None, *,
    restricted_splits: bool, retry_unknown: bool, solve_jobs: Solver, progress: Progress,
    tally: SurveyTally,
) -> None:
    """Append a line to `out` for every deal of `wanted` it has none for (or, with `retry_unknown`,
    whose last line is unknown), solving them with `solve_jobs`; `tally` follows the run.

    A stop signal inside raises ``outputs.Interrupted`` once the file is whole: `tally` then says
    how far the run came.
    """
    with locked_output(out) as handle:
        drop_cut_off_line(out)
        done = read_survey(out, profile_id)
        if retry_unknown:  # solved again: their last line no longer counts once the new one is written
            tally.retried = {n for n, status in done.items() if status == Verdict.UNKNOWN and n in wanted}
            done = {n: status for n, status in done.items() if n not in tally.retried}
        tally.counts = Counter(status for n, status in done.items() if n in wanted)
        tally.left = len(wanted) - sum(tally.counts.values())
        todo = (n for n in wanted if n not in done)  # streamed: a range is never listed in memory
        jobs: Iterator[SurveyJob] = ((n, profile_id, budget, states, restricted_splits) for n in todo)
        with interruptible(), progress(len(wanted), len(wanted) - tally.left) as advance:
            for row in solve_jobs(jobs):
                handle.write(json.dumps(row) + "\n")
                handle.flush()
                tally.counts[row["status"]] += 1
                tally.recorded += 1
                tally.settled += row["deal"] in tally.retried and row["status"] != Verdict.UNKNOWN
                advance(row)
