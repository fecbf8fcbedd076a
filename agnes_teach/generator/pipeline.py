"""One pipeline from a source to a typed puzzle: source -> reduce -> judge -> Puzzle -> taken.

A **source** yields numbered starting points, each with its ``Provenance``:

* ``layout`` (the default of ``generate``): the layouts composed for the theme from a number
  (``compose.layouts``);
* ``deal``: the critical moments of a solved deal, later ones first (``reduce.critical_moments``);
* ``built``: a position a theme's builder lays out from a candidate seed (``core.candidate``).

Each starting point then goes through the same stages: a layout or a critical moment is cut down
and judged against every criterion (``reduce.reduce_moment``, ``reduce.keyed``); a built position
is explored and proved (``core.candidate``); every puzzle that would hide a stock is held to the
same fairness test (``hidden_stock_fair``: every claim holds for every order of the hidden cards,
or the stock is shown).  A **run** takes the results in the sources' order: the task form in
turn, the quota (``generator.quota``), no two equal up to symmetry, at most ``per_deal`` from one
number.

The stages of one number (or one batch of candidate seeds) depend on that number alone, so they
run as jobs anywhere (``generator.workers``: this process, ``--workers N`` processes, or a Dask
cluster) while the taking stays here, in order: the same seed writes the same files whatever
the worker count.  A job stops after the few puzzles a number can give (speculating that the run
takes them); when the run refuses some, it goes on with that number's next starting points
itself, so speculation costs time, never a different result.

Mining whole positions of deals (``mining.mine``, ``--source deals``) judges positions without
cutting them down; it stays its own loop over deals, in this process.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..deal import MAX_SEED
from ..limits import check_workers
from ..position import Position
from ..profile import Profile, get_profile
from ..registry import Difficulty, Task
from ..tagger.small import Tally
from ..themes import theme_for
from .compose import layouts
from .core import Puzzle, candidate, fair_stock, pick_task
from .provenance import Provenance
from .quota import Accept, next_task
from .reduce import LAYOUT_POSITIONS, SEARCH_POSITIONS, Keyed, claimed, critical_moments, keyed, reduce_moment
from .workers import ordered_results

DEALS_PER_SEED = 1000  # without --deals, a small run composes layouts SEED*1000+1 .. SEED*1000+1000
CANDIDATES_PER_JOB = 8  # built candidates judged in one job (one is too little work to send away)


def max_run_seed() -> int:
    """The largest run seed whose composed layouts' numbers are all deal numbers."""
    return MAX_SEED // DEALS_PER_SEED - 1


def composed_numbers(seed: int) -> str:
    """The numbers a small run without --deals composes its layouts from: the seed's own thousand."""
    return f"{seed * DEALS_PER_SEED + 1}-{(seed + 1) * DEALS_PER_SEED}"


BUILT_SIZES: dict[Difficulty, tuple[int, ...]] = {
    Difficulty.EASY: (0, 0, 1), Difficulty.MEDIUM: (0, 1, 2), Difficulty.HARD: (1, 2, 2)}


@dataclass(frozen=True)
class Workers:
    """Where a run's jobs go: `processes` local ones, or the Dask `cluster` (a ``distributed.Client``)."""

    processes: int = 1
    cluster: Any = None

    def __post_init__(self) -> None:
        check_workers(self.processes)

    @property
    def parallel(self) -> bool:
        return self.processes > 1 or self.cluster is not None

    def results(self, function: Callable[[Any], Any], jobs: Iterable[Any], name: str) -> Iterator[Any]:
        return ordered_results(function, jobs, workers=self.processes, cluster=self.cluster, name=name)


IN_THIS_PROCESS = Workers()  # the default: every job runs here, one after another


# ------------------------------------------------------------------ the stock's fairness


def hidden_stock_fair(puzzle: Puzzle) -> Puzzle:
    """Every puzzle whose source would hide its stock passes here: its claims must hold for every
    order of the hidden cards (``core.fair_stock``), else the stock is shown. A source that shows
    its stock (a real deal's or a layout's order is part of the puzzle) passes unchanged."""
    if puzzle.stock_shown or not puzzle.position.stock or puzzle.hidden_stock is not None:
        return puzzle
    shown, argument = fair_stock(puzzle.position, puzzle.key_move, puzzle.trap_move, puzzle.distractor)
    puzzle.stock_shown, puzzle.hidden_stock = shown, argument
    return puzzle


# ------------------------------------------------------------------ sources of small puzzles


def starting_points(number: int, profile: Profile, theme_id: str,
                    composed: bool) -> list[tuple[Provenance, Position]]:
    """The starting points numbered `number`, each with its provenance: the layouts composed for the
    theme from `number` (``compose.layouts``), or the critical moments of deal `number`, later ones
    first (they are smaller)."""
    if composed:
        return [(Provenance.layout(number, k), pos) for k, pos in layouts(number, profile, theme_id)]
    moments = reversed(list(critical_moments(number, profile, theme_id)))
    return [(Provenance.deal(number, k), pos) for k, pos in moments]


@dataclass(frozen=True)
class NumberJob:
    """Cut down the starting points of one number, from the `start`-th, until `hits` are keyed."""

    theme: str
    profile: str
    number: int
    composed: bool
    positions: int
    start: int = 0
    hits: int = 2
    until: float | None = None  # wall-clock time (``time.time``) after which the run stops


@dataclass
class NumberDone:
    """What one number gave: each starting point tried, in order, with its keyed puzzle (or None)."""

    number: int
    tried: list[tuple[Provenance, Keyed | None]]
    complete: bool  # every starting point of the number was tried
    tally: dict[str, int]


def _local_deadline(until: float | None) -> float | None:
    """A wall-clock stop as this process's monotonic deadline (the job may run on another machine)."""
    return None if until is None else time.monotonic() + (until - time.time())


def cut_down_number(job: NumberJob) -> NumberDone:
    """The pipeline's stages for one number: starting points, cut down, judged, keyed."""
    tally = Tally()
    deadline = _local_deadline(job.until)
    points = starting_points(job.number, get_profile(job.profile), job.theme, job.composed)
    tried: list[tuple[Provenance, Keyed | None]] = []
    hits = 0
    for source, pos in points[job.start:]:
        if hits >= job.hits or (deadline is not None and time.monotonic() > deadline):
            break
        reduced = reduce_moment(pos, job.theme, positions=job.positions, tally=tally, deadline=deadline)
        found = keyed(job.theme, reduced) if reduced is not None else None
        hits += found is not None
        tried.append((source, found))
    return NumberDone(job.number, tried, job.start + len(tried) == len(points), dict(tally.counts))


@dataclass
class Search:
    """What a small-puzzle run is after, and how far it got."""

    theme: str
    count: int
    tasks: tuple[Task, ...] = ()  # task forms to take in turn (empty: whatever fits)
    wanted: Accept | None = None  # e.g. a quota per rating (``generator.quota``)
    per_deal: int = 2
    positions: int = SEARCH_POSITIONS
    found: list[Puzzle] = field(default_factory=list)
    moments: int = 0
    on_found: Callable[[Puzzle], None] | None = None  # called with each puzzle as it is kept
    # Issue 28: pose a trap only where exactly one first move loses and the theme's believer picks it
    # (``tagger.teaching.TrapShape.lone_believer_trap``); such a position is offered as a trap first.
    lone_traps: bool = True


@dataclass
class _Taking:
    """The run's side of the pipeline: what is taken, in the sources' order."""

    search: Search
    taken: set[str]
    tally: Tally
    progress: Callable[[int, int, int], None] | None

    def offer(self, number: int, source: Provenance, found: Keyed | None) -> bool:
        """Take the starting point's puzzle if the run wants it (True: taken)."""
        search = self.search
        search.moments += 1
        want = next_task(search.tasks, len(search.found))
        puzzle = claimed(search.theme, found, source, want, search.lone_traps) if found is not None else None
        if self.progress:
            self.progress(number, search.moments, len(search.found))
        if puzzle is None:
            return False
        puzzle = hidden_stock_fair(puzzle)
        if puzzle.key in self.taken:
            self.tally.add("duplicate")
            return False
        if search.wanted is not None and not search.wanted(puzzle):
            self.tally.add(f"not wanted ({puzzle.difficulty}, {puzzle.task})")
            return False
        self.taken.add(puzzle.key)
        search.found.append(puzzle)
        if search.on_found is not None:
            search.on_found(puzzle)
        return True

    def full(self) -> bool:
        return len(self.search.found) >= self.search.count


def find(search: Search, numbers: Iterable[int], profile: Profile, *, avoid: set[str] | None = None,
         max_seconds: float | None = None, tally: Tally | None = None, composed: bool = False,
         progress: Callable[[int, int, int], None] | None = None, workers: Workers = IN_THIS_PROCESS
         ) -> list[Puzzle]:
    """Cut down the starting points of `numbers` in order (the layouts composed from those numbers,
    or the critical moments of those deals) until `search.count` puzzles are found: at most
    `search.per_deal` from one number, none equal up to symmetry to another or to one in `avoid`.
    `progress(number, starting points tried, found)` after each one; `workers` run the numbers'
    stages, the taking stays in order here."""
    tally = tally or Tally()
    run = _Taking(search, set(avoid or ()), tally, progress)
    until = time.time() + max_seconds if max_seconds is not None else None
    positions = LAYOUT_POSITIONS if composed else search.positions

    def job(number: int, start: int = 0, hits: int = search.per_deal) -> NumberJob:
        return NumberJob(search.theme, profile.id, number, composed, positions, start, hits, until)

    def over() -> bool:
        return run.full() or (until is not None and time.time() > until)

    def jobs() -> Iterator[NumberJob]:
        # A job is made when its number is due (in this process: once the number before it is
        # taken), so none is made once the run is over, and none looks beyond the puzzles it lacks.
        for number in numbers:
            if over():
                return
            yield job(number, hits=min(search.per_deal, max(1, search.count - len(search.found))))

    results = workers.results(cut_down_number, jobs(), name=f"generate-{search.theme}")
    try:
        for done in results:
            _count(tally, done.tally)  # what failed is reported even when time ran out
            if over():
                break
            from_number, start = 0, 0
            while True:
                for source, found in done.tried:
                    if from_number >= search.per_deal or over():
                        break
                    from_number += run.offer(done.number, source, found)
                start += len(done.tried)
                if done.complete or from_number >= search.per_deal or over():
                    break
                # The run refused some of what the job guessed it would take: go on with the rest here.
                done = cut_down_number(job(done.number, start, search.per_deal - from_number))
                _count(tally, done.tally)
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()
    return search.found


def _count(tally: Tally, counts: dict[str, int]) -> None:
    for why, n in counts.items():
        tally.counts[why] = tally.counts.get(why, 0) + n


# ------------------------------------------------------------------ built layouts


@dataclass(frozen=True)
class BuiltJob:
    """Judge a batch of built candidates: (candidate seed, task, size) each."""

    theme: str
    profile: str
    teach: bool
    candidates: tuple[tuple[int, Task, int], ...]


def judge_built(job: BuiltJob) -> tuple[list[Puzzle | None], dict[str, int]]:
    """The pipeline's stages for built candidates: laid out, explored, proved, the stock judged."""
    profile = get_profile(job.profile)
    theme = theme_for(job.theme, profile.id)
    tally = Tally()
    out = []
    for seed, task, size in job.candidates:
        puzzle = candidate(theme, task, profile, seed, size, tally, job.teach)
        out.append(hidden_stock_fair(puzzle) if puzzle is not None else None)
    return out, dict(tally.counts)


def built_candidates(theme_id: str, seed: int, profile: Profile, difficulty: Difficulty | None,
                     task: Task | None, limit: int) -> Iterator[tuple[int, Task, int]]:
    """The run's candidates, (seed, task, size), drawn in order from the run's seed."""
    theme = theme_for(theme_id, profile.id)
    master = random.Random(seed)
    for _ in range(limit):
        cand_seed = master.randrange(2**31)
        chooser = random.Random(cand_seed)
        this_task = task or pick_task(theme, chooser)
        size = chooser.choice(BUILT_SIZES[difficulty] if difficulty else (0, 1, 2))
        yield cand_seed, this_task, size


def generate(theme_id: str, count: int, seed: int, profile: Profile, *, difficulty: Difficulty | None = None,
             task: Task | None = None, avoid: set[str] | None = None, max_attempts: int | None = None,
             max_seconds: float | None = None, teach: bool = False,
             progress: Callable[[int, int], None] | None = None, tally: Tally | None = None,
             workers: Workers = IN_THIS_PROCESS) -> list[Puzzle]:
    """`count` verified built puzzles for one theme (fewer if `max_attempts` or `max_seconds` runs
    out). `progress(found, attempts)` after every candidate. The clock only stops the run: which
    puzzles a seed gives never depends on it, nor on `workers`."""
    theme_for(theme_id, profile.id)  # InputError for a theme the profile has not
    # A caller may name the task and the rating by their text: the puzzles carry the members.
    task = Task(task) if task is not None else None
    difficulty = Difficulty(difficulty) if difficulty is not None else None
    taken = set(avoid or ())
    out: list[Puzzle] = []
    attempts = 0
    limit = max_attempts if max_attempts is not None else 400 * count + 2000
    deadline = time.monotonic() + max_seconds if max_seconds is not None else None
    drawn = built_candidates(theme_id, seed, profile, difficulty, task, limit)

    per_job = CANDIDATES_PER_JOB if workers.parallel else 1  # in this process: no candidate beyond need

    def over() -> bool:
        return len(out) >= count or (deadline is not None and time.monotonic() > deadline)

    def jobs() -> Iterator[BuiltJob]:
        while not over() and (batch := tuple(c for _, c in zip(range(per_job), drawn, strict=False))):
            yield BuiltJob(theme_id, profile.id, teach, batch)

    results = workers.results(judge_built, jobs(), name=f"generate-{theme_id}")
    try:
        for puzzles, counts in results:
            if tally is not None:
                _count(tally, counts)
            for puzzle in puzzles:
                if over():
                    break
                attempts += 1
                if progress:
                    progress(len(out), attempts)
                if puzzle is None:
                    continue
                if difficulty is not None and puzzle.difficulty != difficulty:
                    if tally is not None:
                        tally.add("other difficulty")
                    continue
                if puzzle.key in taken:
                    if tally is not None:
                        tally.add("duplicate")
                    continue
                taken.add(puzzle.key)
                out.append(puzzle)
            if over():
                break
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()
    if progress:
        progress(len(out), attempts)
    return out
