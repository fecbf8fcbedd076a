"""The teacher's report: per pupil and per rule, per puzzle with its rating, the rules the class fails.

Every number is counted from the stored attempts, whose results the server
decided itself (``judge``). Ratings are replayed from the first attempts of the
whole database, oldest first (``glicko``), each time a report is made: they
are never stored, so they cannot drift from the attempts they come from.

The words, as docs/classroom.md defines them:

* a pupil's ``attempts`` and ``solved`` count attempts; ``first_try_solved``
  counts puzzles solved at the pupil's first attempt;
* ``by_rule[R]``: ``attempts``, ``solved`` and ``first_try_solved`` on the
  puzzles whose theme is R; ``refused``: the pupil's moves refused for rule R,
  in any puzzle (the rule the pupil misreads);
* a rule is **weak** for a pupil (lichess's puzzle dashboard) when the pupil
  made at least ``WEAK_MIN_ATTEMPTS`` first attempts on its puzzles and the
  performance there is below the pupil's own rating; performance is the mean
  rating of those puzzles, when played, minus 500, plus 1000 times the share
  solved. ``weak_rules`` lists the rules weak for some pupil, most pupils first.
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..registry import Difficulty
from . import glicko
from .db import AssignmentRow, AttemptRow, Store
from .judge import Outcome
from .puzzle_library import Library, difficulty_of, rule_title

WEAK_MIN_ATTEMPTS = 3  # first attempts on a rule before it can be called weak (lichess asks a few too)
PERFORMANCE_SPAN = 500.0  # lichess: performance = mean puzzle rating - 500 + 1000 * share won
# A puzzle's rating starts from its printed difficulty, with the full deviation of a new rating.
SEED_RATING = {Difficulty.EASY: 1300.0, Difficulty.MEDIUM: 1500.0, Difficulty.HARD: 1700.0}


@dataclass
class Ratings:
    pupils: dict[str, glicko.Rating] = field(default_factory=dict)
    puzzles: dict[str, glicko.Rating] = field(default_factory=dict)
    # (pupil, puzzle) -> (solved at the first attempt, the puzzle's rating when it was played)
    first: dict[tuple[str, str], tuple[bool, float]] = field(default_factory=dict)

    def puzzle(self, puzzle: str, library: Library) -> glicko.Rating:
        if puzzle not in self.puzzles:
            sc = library.by_id.get(puzzle)
            seed = SEED_RATING[difficulty_of(sc)] if sc is not None else glicko.DEFAULT_RATING
            self.puzzles[puzzle] = glicko.Rating(seed)
        return self.puzzles[puzzle]

    def pupil(self, pupil: str) -> glicko.Rating:
        return self.pupils.setdefault(pupil, glicko.Rating())


def replay_ratings(attempts: Iterable[AttemptRow], library: Library) -> Ratings:
    """Every first attempt, oldest first, as a Glicko-2 game between pupil and puzzle."""
    out = Ratings()
    for attempt in attempts:
        key = (attempt.pupil_id, attempt.puzzle)
        if key in out.first:
            continue
        solved = attempt.result == Outcome.SOLVED
        pupil, puzzle = out.pupil(attempt.pupil_id), out.puzzle(attempt.puzzle, library)
        out.first[key] = (solved, puzzle.rating)
        out.pupils[attempt.pupil_id], out.puzzles[attempt.puzzle] = glicko.play(pupil, puzzle, solved)
    return out


@dataclass
class RuleCount:
    attempts: int = 0
    solved: int = 0
    first_try_solved: int = 0
    refused: int = 0
    first_attempts: int = 0
    first_ratings: float = 0.0  # the sum of the puzzles' ratings at the first attempts

    def to_json(self) -> dict[str, int]:
        return {"attempts": self.attempts, "solved": self.solved, "first_try_solved": self.first_try_solved,
                "refused": self.refused}

    def performance(self) -> float:
        return (self.first_ratings / self.first_attempts - PERFORMANCE_SPAN
                + 2 * PERFORMANCE_SPAN * self.first_try_solved / self.first_attempts)


def _rule_counts(attempts: list[AttemptRow], ratings: Ratings, library: Library) -> dict[str, RuleCount]:
    """One pupil's attempts counted per rule (see the module's docstring)."""
    counts: dict[str, RuleCount] = defaultdict(RuleCount)
    seen: set[str] = set()
    for attempt in attempts:
        theme = library.theme_of(attempt.puzzle)
        if attempt.refused_rule:
            counts[attempt.refused_rule].refused += 1
        if theme is None:
            continue
        count = counts[theme]
        count.attempts += 1
        count.solved += attempt.result == Outcome.SOLVED
        if attempt.puzzle not in seen:
            seen.add(attempt.puzzle)
            solved, puzzle_rating = ratings.first[(attempt.pupil_id, attempt.puzzle)]
            count.first_attempts += 1
            count.first_try_solved += solved
            count.first_ratings += puzzle_rating
    return dict(sorted(counts.items()))


def _weak(counts: dict[str, RuleCount], rating: glicko.Rating) -> list[str]:
    return [rule for rule, count in counts.items()
            if count.first_attempts >= WEAK_MIN_ATTEMPTS and count.performance() < rating.rating]


def _round(x: float) -> float:
    return round(x, 1)


def class_report(store: Store, library: Library, class_id: str) -> dict[str, Any]:
    """The report of one class (the contract's shape, with the extras docs/classroom.md lists)."""
    with store.snapshot():
        row = store.class_row(class_id)
        if row is None:
            raise KeyError(class_id)
        all_attempts, attempts = store.all_attempts(), store.attempts_of_class(class_id)
        pupil_rows, assignments = store.pupils(class_id), store.assignments(class_id)
    ratings = replay_ratings(all_attempts, library)
    by_pupil: dict[str, list[AttemptRow]] = defaultdict(list)
    for attempt in attempts:
        by_pupil[attempt.pupil_id].append(attempt)
    pupils = []
    weak_pupils: dict[str, int] = defaultdict(int)
    class_rules: dict[str, RuleCount] = defaultdict(RuleCount)
    for pupil in pupil_rows:
        mine = by_pupil.get(pupil.id, [])
        counts = _rule_counts(mine, ratings, library)
        rating = ratings.pupil(pupil.id)
        weak = _weak(counts, rating)
        for rule in weak:
            weak_pupils[rule] += 1
        for rule, count in counts.items():
            total = class_rules[rule]
            total.attempts += count.attempts
            total.solved += count.solved
            total.first_try_solved += count.first_try_solved
            total.refused += count.refused
        pupils.append({
            "pupil": pupil.id, "name": pupil.name, "attempts": len(mine),
            "solved": sum(a.result == Outcome.SOLVED for a in mine),
            "first_try_solved": sum(ratings.first[(pupil.id, p)][0] for p in {a.puzzle for a in mine}),
            "rating": _round(rating.rating), "deviation": _round(rating.deviation),
            "provisional": rating.provisional,
            "by_rule": {rule: count.to_json() for rule, count in counts.items()},
            "weak_rules": weak,
        })
    weak_rules = [{"rule": rule, "title": rule_title(rule, row.lang), "pupils": n,
                   **class_rules[rule].to_json()}
                  for rule, n in sorted(weak_pupils.items(), key=lambda item: (-item[1], item[0]))]
    return {"class": row.id, "name": row.name, "lang": row.lang, "attempts": len(attempts),
            "pupils": pupils, "puzzles": _puzzles(assignments, library, ratings, row.lang, attempts),
            "weak_rules": weak_rules}


def _puzzles(assignments: list[AssignmentRow], library: Library, ratings: Ratings, lang: str,
             attempts: list[AttemptRow]) -> list[dict[str, Any]]:
    """The class's assigned puzzles in the order first assigned, with the class's counts and the rating."""
    order: dict[str, None] = {}
    for assignment in assignments:
        order.update(dict.fromkeys(assignment.puzzles))
    out = []
    for puzzle in order:
        mine = [a for a in attempts if a.puzzle == puzzle]
        rating = ratings.puzzle(puzzle, library)
        sc = library.by_id.get(puzzle)
        out.append({
            "id": puzzle, "title": (sc.title.get(lang) or sc.title.get("en") or puzzle) if sc else puzzle,
            "theme": library.theme_of(puzzle),
            "difficulty": sc.difficulty.value if sc is not None and sc.difficulty else None,
            "attempts": len(mine), "solved": sum(a.result == Outcome.SOLVED for a in mine),
            "rating": _round(rating.rating), "deviation": _round(rating.deviation),
            "provisional": rating.provisional,
        })
    return out


# --------------------------------------------------------------------- CSV

CSV_COLUMNS = ("pupil", "name", "rule", "rule_title", "attempts", "solved", "first_try_solved", "refused",
               "weak", "pupil_rating")
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: object) -> object:
    """A cell a spreadsheet shows as text: one starting like a formula gets a leading apostrophe."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def report_csv(report: dict[str, Any]) -> str:
    """One row per pupil and rule (a pupil with no attempt yet: one row with no rule), for a gradebook."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    lang = report["lang"]
    for pupil in report["pupils"]:
        head = [pupil["pupil"], pupil["name"]]
        rules = pupil["by_rule"] or {"": {"attempts": 0, "solved": 0, "first_try_solved": 0, "refused": 0}}
        for rule, count in rules.items():
            title = rule_title(rule, lang) if rule else ""
            row = [*head, rule, title, count["attempts"], count["solved"], count["first_try_solved"],
                   count["refused"], int(rule in pupil["weak_rules"]), pupil["rating"]]
            writer.writerow([csv_cell(cell) for cell in row])
    return buffer.getvalue()
