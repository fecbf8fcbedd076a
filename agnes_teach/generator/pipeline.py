"""One pipeline from a source to a typed puzzle: source -> reduce -> judge -> Puzzle -> taken.

A **source** yields numbered starting points, each with its ``Provenance``:

* ``layout`` (the default of ``generate``): the layouts composed for the theme from a number
  (``compose.layouts``);
* ``deal``: the critical moments of a solved deal, later ones first (``reduce.critical_moments``);
* ``deal``, judged whole (``--source deals``): the positions of a solved deal's winning line, later
  ones first, at least ``mining.SPACING`` moves apart (``mine_deal``);
* ``built``: a position a theme's builder lays out from a candidate seed (``core.candidate``).

Each starting point then goes through the same stages: a layout or a critical moment is cut down
and judged against every criterion (``reduce.reduce_moment``, ``reduce.keyed``); a position of a
deal's line is judged as it stands (``mining.examine``); a built position is explored and proved
(``core.candidate``); every puzzle that would hide a stock is held to the same fairness test
(``hidden_stock_fair``: every claim holds for every order of the hidden cards, or the stock is
shown).  A **run** takes the results in the sources' order: the task form in turn (small
puzzles), the quota (``generator.quota``), no two equal up to symmetry, at most ``per_deal`` from
one number.

The stages of one number (or one batch of candidate seeds) depend on that number alone, so they
run as jobs anywhere (``generator.workers``: this process, ``--workers N`` processes, or a Dask
cluster) while the taking stays here, in order: the same seed writes the same files whatever
the worker count.  A job stops after the few puzzles a number can give (speculating that the run
takes them: a mined deal's job also skips the moves too close to a puzzle it found, and the
ratings its copy of the quota has filled); when the run refuses some, it goes on with that
number's next starting points itself, from what it really took, so speculation costs time,
never a different result.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, Protocol, TypeVar

from ..clock import OutOfTime, running_until
from ..clock import check as check_clock
from ..deal import MAX_SEED
from ..limits import check_workers
from ..moves import Move
from ..position import Position
from ..profile import Profile, get_profile
from ..registry import Difficulty, Task
from ..scenario import scenario_from_data
from ..tagger.small import Tally
from ..themes import theme_for
from .compose import layouts
from .core import Puzzle, candidate, fair_stock, pick_task
from .mining import examine, may_start, solved_line
from .mining import positions as mined_positions
from .provenance import Provenance
from .quota import Accept, BandQuota, next_task
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


def key_problem(puzzle: Puzzle) -> str | None:
    """What keeps the key of a small puzzle, as its file would print it, from explaining every
    wrong move by a rule (``refutation.key_explanation_problem``, which ``check --teach`` asks)."""
    from ..checker import solution_line
    from ..tagger.refutation import key_explanation_problem
    from ..yamlio import Locator
    from .output import scenario_data

    sc = scenario_from_data(scenario_data(puzzle, 0, 1), Locator(None, None), "<generated>")
    return key_explanation_problem(sc, solution_line(sc))


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


# Kept for the few numbers a process works on last: when the run refuses what a number's job
# guessed it would take, the job that goes on with that number here asks for its starting points
# again, and a recipe whose layouts need the solver's verdicts (``Recipe.contest_loses``,
# ``move_loses``) or a deal that must be solved takes seconds to give them.
@lru_cache(maxsize=4)
def starting_points(number: int, profile: Profile, theme_id: str,
                    composed: bool) -> tuple[tuple[Provenance, Position], ...]:
    """The starting points numbered `number`, each with its provenance: the layouts composed for the
    theme from `number` (``compose.layouts``), or the critical moments of deal `number`, later ones
    first (they are smaller)."""
    if composed:
        return tuple((Provenance.layout(number, k), pos) for k, pos in layouts(number, profile, theme_id))
    moments = reversed(list(critical_moments(number, profile, theme_id)))
    return tuple((Provenance.deal(number, k), pos) for k, pos in moments)


@dataclass(frozen=True)
class NumberJob:
    """Cut down the starting points of one number, from the `start`-th, until `hits` are keyed
    (`had` of the number's puzzles are taken already)."""

    theme: str
    profile: str
    number: int
    composed: bool
    positions: int
    start: int = 0
    hits: int = 2
    until: float | None = None  # wall-clock time (``time.time``) after which the run stops
    had: int = 0


@dataclass
class NumberDone:
    """What one number gave: each starting point tried, in order, with its keyed puzzle (or None)."""

    job: NumberJob
    tried: list[tuple[Provenance, Keyed | None]]
    complete: bool  # every starting point of the number was tried
    tally: dict[str, int]
    cut: bool = False  # the run's time ran out inside the job: `tried` is empty, nothing is taken


def _local_deadline(until: float | None) -> float | None:
    """A wall-clock stop as this process's monotonic deadline (the job may run on another machine)."""
    return None if until is None else time.monotonic() + (until - time.time())


# Hears (number, starting point, of how many) as each starting point is begun, while a run's
# numbers are cut down in this process (``find``'s `working`); a job on another process or machine
# is heard of only when its number is done.
_starting: Callable[[int, int, int], None] | None = None


def cut_down_number(job: NumberJob) -> NumberDone:
    """The pipeline's stages for one number: starting points, cut down, judged, keyed. Every stage
    runs on the run's clock (``clock``): when the time runs out inside one, the job is cut and
    gives nothing (what it found so far is dropped whole, so a run never keeps a result that an
    unbounded run would not)."""
    tally = Tally()
    deadline = _local_deadline(job.until)
    tried: list[tuple[Provenance, Keyed | None]] = []
    try:
        with running_until(deadline):
            points = starting_points(job.number, get_profile(job.profile), job.theme, job.composed)
            hits = 0
            for index, (source, pos) in enumerate(points[job.start:], start=job.start + 1):
                if hits >= job.hits:
                    break
                check_clock()
                if _starting is not None:
                    _starting(job.number, index, len(points))
                reduced = reduce_moment(pos, job.theme, positions=job.positions, tally=tally)
                found = keyed(job.theme, reduced) if reduced is not None else None
                hits += found is not None
                tried.append((source, found))
    except OutOfTime:
        return NumberDone(job, [], False, dict(tally.counts), cut=True)
    return NumberDone(job, tried, job.start + len(tried) == len(points), dict(tally.counts))


# ------------------------------------------------------------------ the mined source


NONE_TAKEN = 10**6  # the move of "the last puzzle taken from this deal" before any is taken


@dataclass(frozen=True)
class DealJob:
    """Judge whole the positions of deal `number`'s winning line, latest first, from the `start`-th,
    until `hits` puzzles that the run would take are found (`had` are taken already, the last at
    move `last_at`). `quota` is the run's quota when the job was made (None: the run's own test
    decides alone); the job counts its finds off a copy of it, so it skips a rating it has filled."""

    theme: str
    profile: str
    number: int
    quota: BandQuota | None
    hits: int
    until: float | None = None  # wall-clock time (``time.time``) after which the run stops
    start: int = 0
    had: int = 0
    last_at: int = NONE_TAKEN
    line: tuple[Move, ...] | None = None  # the deal's winning line, once solved


@dataclass
class DealDone:
    """What one deal gave: each position judged, by its index along the line (latest first), with
    its puzzle (None: no puzzle, or one the run would refuse); `resume` is the next index to judge
    (None: the line is done)."""

    job: DealJob
    line: tuple[Move, ...] | None  # None: the deal was not solved
    tried: list[tuple[int, Puzzle | None]]
    resume: int | None
    tally: dict[str, int]
    cut: bool = False  # the run's time ran out inside the job: `tried` is empty, nothing is taken


def mine_deal(job: DealJob) -> DealDone:
    """The mined source's stages for one deal: solved, its line walked from the end, each position
    at least ``mining.SPACING`` moves before the last puzzle (guessing that the run takes every
    puzzle the job finds) judged whole (``mining.examine``). On the run's clock: a job the time
    runs out in gives nothing."""
    try:
        with running_until(_local_deadline(job.until)):
            return _mine_deal(job)
    except OutOfTime:
        return DealDone(job, None, [], None, {}, cut=True)


def _mine_deal(job: DealJob) -> DealDone:
    profile = get_profile(job.profile)
    theme = theme_for(job.theme, profile.id)
    tally = Tally()
    line = list(job.line) if job.line is not None else solved_line(job.number, profile)
    if line is None:
        tally.add("deal not solved")
        return DealDone(job, None, [], None, dict(tally.counts))
    points = list(reversed(list(mined_positions(job.number, profile, line, theme.first_move))))
    quota = job.quota.copy() if job.quota is not None else None
    rates: dict[str, float | None] = {}  # random play's rate by position, for this deal
    tried: list[tuple[int, Puzzle | None]] = []
    hits, last_at = 0, job.last_at
    for index in range(job.start, len(points)):
        if hits >= job.hits:
            return DealDone(job, tuple(line), tried, index, dict(tally.counts))
        check_clock()
        k, pos, rest = points[index]
        if not may_start(theme, k, last_at):
            continue
        puzzle = examine(job.theme, pos, rest, Provenance.deal(job.number, k), tally=tally, rates=rates,
                         rating_open=quota.open if quota is not None else None)
        if puzzle is not None and quota is not None and not quota(puzzle):
            tally.add(f"{job.theme}: not wanted ({puzzle.difficulty}, {puzzle.task})")
            puzzle = None
        if puzzle is not None:
            hits, last_at = hits + 1, k
        tried.append((index, puzzle))
    return DealDone(job, tuple(line), tried, None, dict(tally.counts))


# ------------------------------------------------------------------ taking, in order


@dataclass
class Search:
    """What a run of numbered starting points is after, and how far it got."""

    theme: str
    count: int
    tasks: tuple[Task, ...] = ()  # task forms to take in turn (empty: whatever fits; small puzzles)
    wanted: Accept | None = None  # e.g. a quota per rating (``generator.quota``)
    per_deal: int = 2
    positions: int = SEARCH_POSITIONS  # the reduction's budget (small puzzles)
    found: list[Puzzle] = field(default_factory=list)
    moments: int = 0  # starting points examined
    on_found: Callable[[Puzzle], None] | None = None  # called with each puzzle as it is kept
    set_aside_taken: int = 0  # of `found`, the last ones: turned away for their rating, taken at the end
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
    until: float | None  # wall-clock time after which the run stops

    def examined(self, number: int) -> None:
        """Count one starting point of `number` as examined."""
        self.search.moments += 1
        if self.progress:
            self.progress(number, self.search.moments, len(self.search.found))

    def offer(self, number: int, source: Provenance, found: Keyed | None) -> bool:
        """Pose a keyed starting point as the task form asked next and take it if the run wants
        it (True: taken)."""
        search = self.search
        self.examined(number)
        want = next_task(search.tasks, len(search.found))
        puzzle = claimed(search.theme, found, source, want, search.lone_traps) if found is not None else None
        return puzzle is not None and self.take(puzzle)

    def take(self, puzzle: Puzzle) -> bool:
        """Take the puzzle if the run wants it (True: taken): the stock's fairness, no two equal up
        to symmetry, the key's explanations, the quota."""
        search = self.search
        puzzle = hidden_stock_fair(puzzle)
        if puzzle.key in self.taken:
            self.tally.add("duplicate")
            return False
        if puzzle.minimal and key_problem(puzzle) is not None:
            self.tally.add("key: a wrong move is not explained by its rule")
            return False
        # Last: a quota counts what it takes.
        if search.wanted is not None and not search.wanted(puzzle):
            self.tally.add(f"not wanted ({puzzle.difficulty}, {puzzle.task})")
            return False
        self.taken.add(puzzle.key)
        search.found.append(puzzle)
        if search.on_found is not None:
            search.on_found(puzzle)
        return True

    def take_set_aside(self) -> None:
        """At the end of a run short of its count: the puzzles its quota turned away for their
        rating alone (``BandQuota.set_aside``), in the order they were found, fill the places left
        (still at most ``per_deal`` from one number). Each met every criterion; a teacher who asked
        for three wants three more than a spread."""
        quota = self.search.wanted
        if not isinstance(quota, BandQuota):
            return
        per_number = Counter(p.source.number for p in self.search.found)
        for puzzle in quota.set_aside:
            if self.full():
                break
            if puzzle.key in self.taken or per_number[puzzle.source.number] >= self.search.per_deal:
                continue
            per_number[puzzle.source.number] += 1
            self.taken.add(puzzle.key)
            self.search.found.append(puzzle)
            self.search.set_aside_taken += 1
            if self.search.on_found is not None:
                self.search.on_found(puzzle)

    def full(self) -> bool:
        return len(self.search.found) >= self.search.count

    def over(self) -> bool:
        return self.full() or (self.until is not None and time.time() > self.until)

    def hits(self) -> int:
        """How many puzzles a new number's job looks for: what one number may give, at most what the
        run lacks (at least one)."""
        return min(self.search.per_deal, max(1, self.search.count - len(self.search.found)))


class _Done(Protocol):
    tally: dict[str, int]
    cut: bool  # the run's time ran out inside the job: it gives nothing, and the run is over


JobT = TypeVar("JobT")
DoneT = TypeVar("DoneT", bound=_Done)


def _in_order(run: _Taking, workers: Workers, stage: Callable[[JobT], DoneT], jobs: Iterator[JobT],
              take: Callable[[DoneT], JobT | None]) -> None:
    """Run `stage` on `jobs` (with `workers`) and hand each result, in the jobs' order, to `take`,
    which returns the job that goes on with the same number here (what the job guessed the run
    would take, it refused) or None."""
    results = workers.results(stage, jobs, name=f"generate-{run.search.theme}")
    try:
        for done in results:
            _count(run.tally, done.tally)  # what failed is reported even when time ran out
            if done.cut or run.over():
                break
            going_on = take(done)
            while going_on is not None:
                done = stage(going_on)
                _count(run.tally, done.tally)
                if done.cut:
                    return
                going_on = take(done)
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()


def find(search: Search, numbers: Iterable[int], profile: Profile, *, avoid: set[str] | None = None,
         max_seconds: float | None = None, tally: Tally | None = None, composed: bool = False,
         progress: Callable[[int, int, int], None] | None = None, workers: Workers = IN_THIS_PROCESS,
         working: Callable[[int, int, int], None] | None = None) -> list[Puzzle]:
    """Cut down the starting points of `numbers` in order (the layouts composed from those numbers,
    or the critical moments of those deals) until `search.count` puzzles are found: at most
    `search.per_deal` from one number, none equal up to symmetry to another or to one in `avoid`.
    `progress(number, starting points tried, found)` after each number; `working(number, starting
    point, of how many)` as each starting point is begun, where the numbers run in this process (a
    number can take many minutes); `workers` run the numbers' stages, the taking stays in order here."""
    until = time.time() + max_seconds if max_seconds is not None else None
    run = _Taking(search, set(avoid or ()), tally or Tally(), progress, until)
    positions = LAYOUT_POSITIONS if composed else search.positions

    def jobs() -> Iterator[NumberJob]:
        # A job is made when its number is due (in this process: once the number before it is
        # taken), so none is made once the run is over, and none looks beyond the puzzles it lacks.
        for number in numbers:
            if run.over():
                return
            yield NumberJob(search.theme, profile.id, number, composed, positions, hits=run.hits(),
                            until=until)

    def take(done: NumberDone) -> NumberJob | None:
        job, had = done.job, done.job.had
        for source, found in done.tried:
            if had >= search.per_deal or run.over():
                break
            had += run.offer(job.number, source, found)
        if done.complete or had >= search.per_deal or run.over():
            return None
        # The run refused some of what the job guessed it would take: go on with the rest here.
        return replace(job, start=job.start + len(done.tried), hits=search.per_deal - had, had=had)

    global _starting
    _starting = working if not workers.parallel else None
    try:
        _in_order(run, workers, cut_down_number, jobs(), take)
    finally:
        _starting = None
    run.take_set_aside()
    return search.found


def mine(search: Search, numbers: Iterable[int], profile: Profile, *, avoid: set[str] | None = None,
         max_seconds: float | None = None, tally: Tally | None = None,
         progress: Callable[[int, int, int], None] | None = None, workers: Workers = IN_THIS_PROCESS
         ) -> list[Puzzle]:
    """Judge whole the positions of the winning lines of deals `numbers`, in order, each line from
    its end (the later, easier positions first), until `search.count` puzzles are found: at most
    `search.per_deal` from one deal, at least ``mining.SPACING`` moves apart, none equal up to
    symmetry to another or to one in `avoid`, each one `search.wanted` takes (a ``BandQuota`` goes
    with the jobs, which then skip a full rating before proving a position).
    `progress(deal, positions judged, found)` after each one; `workers` run the deals' stages, the
    taking stays in order here."""
    until = time.time() + max_seconds if max_seconds is not None else None
    run = _Taking(search, set(avoid or ()), tally or Tally(), progress, until)

    def quota() -> BandQuota | None:
        return search.wanted.copy() if isinstance(search.wanted, BandQuota) else None

    def jobs() -> Iterator[DealJob]:
        for number in numbers:
            if run.over():
                return
            yield DealJob(search.theme, profile.id, number, quota(), run.hits(), until)

    def take(done: DealDone) -> DealJob | None:
        job, had, last_at, resume = done.job, done.job.had, done.job.last_at, done.resume
        for index, puzzle in done.tried:
            if had >= search.per_deal or run.over():
                return None
            run.examined(job.number)
            if puzzle is None:
                continue
            if not run.take(puzzle):
                # The job guessed the run would take it, and judged the next positions as if it
                # had: judge them again here, from what the run really took.
                resume = index + 1
                break
            had, last_at = had + 1, puzzle.source.step
        if resume is None or had >= search.per_deal or run.over():
            return None
        return replace(job, quota=quota(), hits=min(search.per_deal - had, run.hits()), start=resume,
                       had=had, last_at=last_at, line=done.line)

    _in_order(run, workers, mine_deal, jobs(), take)
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
    until: float | None = None  # wall-clock time (``time.time``) after which the run stops


@dataclass
class BuiltDone:
    """What a batch of built candidates gave: a puzzle (or None) for each, in order."""

    puzzles: list[Puzzle | None]
    tally: dict[str, int]
    cut: bool = False  # the run's time ran out inside the job: `puzzles` is empty, nothing is taken


def judge_built(job: BuiltJob) -> BuiltDone:
    """The pipeline's stages for built candidates: laid out, explored, proved, the stock judged. On
    the run's clock: a batch the time runs out in gives nothing."""
    profile = get_profile(job.profile)
    theme = theme_for(job.theme, profile.id)
    tally = Tally()
    out = []
    try:
        with running_until(_local_deadline(job.until)):
            for seed, task, size in job.candidates:
                check_clock()
                puzzle = candidate(theme, task, profile, seed, size, tally, job.teach)
                out.append(hidden_stock_fair(puzzle) if puzzle is not None else None)
    except OutOfTime:
        return BuiltDone([], dict(tally.counts), cut=True)
    return BuiltDone(out, dict(tally.counts))


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


def _wanted_built(puzzle: Puzzle | None, difficulty: Difficulty | None, taken: set[str],
                  tally: Tally | None) -> bool:
    """Does a built run take `puzzle` (its rating asked, not one it has): then its key is taken."""
    if puzzle is None:
        return False
    why = ("other difficulty" if difficulty is not None and puzzle.difficulty != difficulty
           else "duplicate" if puzzle.key in taken else None)
    if why is not None:
        if tally is not None:
            tally.add(why)
        return False
    taken.add(puzzle.key)
    return True


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
    until = time.time() + max_seconds if max_seconds is not None else None
    deadline = time.monotonic() + max_seconds if max_seconds is not None else None
    drawn = built_candidates(theme_id, seed, profile, difficulty, task, limit)

    per_job = CANDIDATES_PER_JOB if workers.parallel else 1  # in this process: no candidate beyond need

    def over() -> bool:
        return len(out) >= count or (deadline is not None and time.monotonic() > deadline)

    def jobs() -> Iterator[BuiltJob]:
        while not over() and (batch := tuple(c for _, c in zip(range(per_job), drawn, strict=False))):
            yield BuiltJob(theme_id, profile.id, teach, batch, until)

    results = workers.results(judge_built, jobs(), name=f"generate-{theme_id}")
    try:
        for done in results:
            if tally is not None:
                _count(tally, done.tally)
            if done.cut:
                break  # the time ran out inside the batch: none of it is taken
            for puzzle in done.puzzles:
                if over():
                    break
                attempts += 1
                if progress:
                    progress(len(out), attempts)
                if _wanted_built(puzzle, difficulty, taken, tally):
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
