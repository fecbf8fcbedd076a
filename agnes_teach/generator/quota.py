"""What a generating run wants: how many puzzles of each rating, and which task form comes next.

One place for the policy the command line, the library builder (``puzzles/build_library.py``)
and the benchmarks apply, so a run of ``generate``, a library build and a measured batch take
the same puzzles from the same search.  Every quota here is a function of the puzzles already
taken, in the order they were taken; none reads the clock, so a quota never makes a run depend
on how fast it went or on how many processes searched.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from ..registry import Difficulty, Task
from .core import Puzzle

# Small puzzles take the task forms in turn, in this order, unless --task names one.
TASK_ROTATION: tuple[Task, ...] = (Task.KEY_MOVE, Task.WIN, Task.TRAP)

Accept = Callable[[Puzzle], bool]  # takes a puzzle (and counts it) or refuses it


def task_rotation(task: Task | None = None) -> tuple[Task, ...]:
    """The task forms a small run asks for in turn: the one given, else ``TASK_ROTATION``."""
    return (task,) if task is not None else TASK_ROTATION


def rotated(forms: Sequence[Task], had: int) -> tuple[Task, ...]:
    """`forms` in turn, starting where a folder holding `had` puzzles left off."""
    if not forms:
        return ()
    start = had % len(forms)
    return (*forms[start:], *forms[:start])


def next_task(tasks: Sequence[Task], found: int) -> Task | None:
    """The task form the next puzzle is asked for once `found` are taken (None: whatever fits)."""
    return tasks[found % len(tasks)] if tasks else None


@dataclass
class BandQuota:
    """A run's quota per rating: take puzzles of `task` (any when None) while their rating's count
    in `left` lasts, counting it down. Plain data, so a job can carry a copy of it and skip a
    position whose rating is already full before proving it (``pipeline.mine``).

    `patience` (None: never): each time this many puzzles have been turned away only because their
    rating was full, the spread gives way by one: every rating may take one more. It counts refusals
    in the order the run takes results, never the clock, so a seed's files stay the same on any
    machine; a mined run's jobs skip by a copy made earlier, so only a quota no job copies has it.
    Such a quota also keeps the puzzles it turned away (`set_aside`, in order): a run that ends
    short of its count takes them (``pipeline.find``), since the spread is only a preference."""

    left: dict[Difficulty, int]
    task: Task | None = None
    patience: int | None = None
    turned_away: int = 0  # puzzles refused only for their rating so far
    gave_way: int = 0  # how many times every rating's share grew by one
    set_aside: list[Puzzle] = field(default_factory=list)  # those puzzles (with `patience` only)

    def open(self, rating: Difficulty) -> bool:
        """Is a puzzle of this rating still wanted?"""
        return self.left.get(rating, 0) > 0

    def __call__(self, puzzle: Puzzle) -> bool:
        if self.task not in (None, puzzle.task):
            return False
        if not self.open(puzzle.difficulty):
            self.turned_away += 1
            if self.patience is not None:
                self.set_aside.append(puzzle)
            if self.patience is not None and self.turned_away % self.patience == 0:
                self.gave_way += 1
                self.left = {d: self.left.get(d, 0) + 1 for d in Difficulty}
            return False
        self.left[puzzle.difficulty] -= 1
        return True

    def copy(self) -> BandQuota:
        return BandQuota(dict(self.left), self.task, self.patience, self.turned_away, self.gave_way,
                         list(self.set_aside))


def band_quotas(count: int, difficulty: Difficulty | None) -> dict[Difficulty, int]:
    """How many puzzles of each rating a mined run wants: all of --difficulty, else a spread (easy
    first), the remainder going to the easier ratings."""
    if difficulty is not None:
        return {Difficulty(difficulty): count}
    return {d: count // 3 + (i < count % 3) for i, d in enumerate(Difficulty)}


def mined_quota(count: int, difficulty: Difficulty | None, task: Task | None = None) -> BandQuota:
    """A mined run's quota: puzzles of the wanted task while their rating's share
    (``band_quotas``) lasts."""
    return BandQuota(band_quotas(count, difficulty), task)


def small_quota(count: int, difficulty: Difficulty | None, task: Task | None = None) -> BandQuota:
    """Accept small puzzles of the wanted task, at most a third of the run (rounded up) per rating
    while the search finds them, or all of --difficulty: a count of 1 takes whatever rating comes
    first. The spread is a preference: each time the run has turned away as many puzzles as it asks
    for only because their rating was full, every rating may take one more (composed layouts seldom
    rate hard, and a teacher who asks for three wants three more than three ratings)."""
    if difficulty is not None:
        return BandQuota({Difficulty(difficulty): count}, task)
    return BandQuota({d: -(-count // 3) for d in Difficulty}, task, patience=count)


@dataclass
class FolderQuota:
    """A library folder's quota (``puzzles/build_library.py``): the folder grows to `count` files,
    at most half of them (rounded up) of one rating unless `any_rating`, keeping room for every
    rating and for a second task form the folder still lacks; only puzzles of `forms` are taken.
    `ratings` and `forms_had` start as what the folder holds and count each puzzle taken."""

    count: int
    forms: tuple[Task, ...]
    ratings: Counter[Difficulty] = field(default_factory=Counter)
    forms_had: Counter[Task] = field(default_factory=Counter)
    any_rating: bool = False

    @classmethod
    def of_folder(cls, count: int, forms: Iterable[Task], held: Iterable[tuple[Difficulty | None, Task]],
                  any_rating: bool = False) -> FolderQuota:
        """The quota of a folder holding puzzles of these (rating, task form) pairs."""
        held = list(held)
        return cls(count, tuple(forms), Counter(d for d, _ in held if d is not None),
                   Counter(t for _, t in held), any_rating)

    def __call__(self, puzzle: Puzzle) -> bool:
        if puzzle.task not in self.forms:
            return False
        left = self.count - sum(self.ratings.values()) - 1  # slots after this one
        rating, form = puzzle.difficulty, puzzle.task
        missing_ratings = sum(1 for d in Difficulty if self.ratings[d] == 0 and d != rating)
        missing_forms = max(0, 2 - len(set(self.forms_had) | {form}))
        most = -(-self.count // 2)
        if not self.any_rating and (self.ratings[rating] >= most or left < missing_ratings + missing_forms):
            return False
        self.ratings[rating] += 1
        self.forms_had[form] += 1
        return True
