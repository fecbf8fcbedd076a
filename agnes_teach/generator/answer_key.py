"""A puzzle's answer key made exact (issue 28): the shortest answer, every losing first move, the rating.

One function, ``answer_key``, derives what a file claims about its answer from
the position alone, and ``keyed_data`` writes it into a scenario mapping. The
generator calls both for every puzzle it writes, and ``puzzles/rekey.py`` for
every file of the library, so the two cannot drift apart:

* ``solution``: a shortest answer (``tagger.shortest``), preferring one whose
  line uses the theme's rule; ``answer``: its length, how many answers are that
  short, and up to two others that are not the same moves with a pile renamed;
* ``expect.trap_moves``: every legal first move the solver proves losing (a
  trap puzzle's task counts them; a win puzzle names its tempting loss this way
  too);
* a key-move puzzle must have exactly one winning first move (moves that reach
  the same state up to symmetry are one), else ``KeyProblem``;
* ``difficulty``: ``tagger.teaching.difficulty_of`` of the answer's length, its
  decision points and the random-play rate.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine import apply_unchecked, home_run
from ..moves import Move
from ..position import Position
from ..registry import Difficulty, Task, Verdict
from ..solver import first_move_verdicts
from ..tagger.answer import Verdicts
from ..tagger.shortest import ShortestAnswers, shortest_answers
from ..tagger.small import kept_of, shape_problem
from ..tagger.teaching import decision_points, difficulty_of, difficulty_score
from ..themes import find_theme

VERDICT_SECONDS = 30.0  # the solver's budget for each first move (small positions settle in far less)


class KeyProblem(Exception):
    """A puzzle whose claims cannot be made exact (a key move that is not the only winning move, an
    undecided first move, no trap to avoid)."""


@dataclass(frozen=True)
class AnswerKey:
    answers: ShortestAnswers
    trap_moves: tuple[Move, ...]  # every legal first move proved to lose, in the engine's order
    winning_choices: int  # winning first moves, symmetric twins counted once
    decisions: int  # decision points along the shortest answer
    difficulty: Difficulty
    score: float


def answer_key(pos: Position, theme: str | None, random: float) -> AnswerKey:
    """The exact key of `pos` (raises ``tagger.shortest.TooLarge`` for a position too big to search,
    ``KeyProblem`` when a first move cannot be decided)."""
    verdicts = first_move_verdicts(pos, seconds=VERDICT_SECONDS)
    if verdicts.unknown:
        undecided = " ".join(map(str, verdicts.unknown))
        raise KeyProblem(f"the solver could not decide the first moves {undecided}")
    losing = tuple(verdicts.losing)
    tag = find_theme(theme, pos.profile.id)
    verdict = Verdicts()

    def full_line(answer: tuple[Move, ...]) -> tuple[Move, ...]:
        after = pos
        for move in answer:
            after = apply_unchecked(after, move)
        return (*answer, *home_run(after)[1])

    def teaches(answer: tuple[Move, ...]) -> bool:
        """The answer meets the shape criteria of the theme's lesson: it uses the rule, the rule
        decides at a decision point, only moves (``tagger.small.shape_problem``)."""
        if tag is None:
            return False
        line = full_line(answer)
        return shape_problem(kept_of(pos, list(line), tag.believer), tag, verdict)[0] is None

    answers = shortest_answers(pos, prefer=teaches if tag is not None else None)
    if tag is not None and not teaches(answers.key):
        problem = shape_problem(kept_of(pos, list(full_line(answers.key)), tag.believer), tag, verdict)[0]
        raise KeyProblem(f"no shortest answer teaches: {problem}")
    decisions, _ = decision_points(pos, answers.key)
    winning = sum(1 for g in verdicts.groups if g.status == Verdict.WON)
    return AnswerKey(answers, losing, winning, decisions, difficulty_of(answers.length, decisions, random),
                     difficulty_score(answers.length, decisions, random))


def keyed_data(data: dict[str, Any], key: AnswerKey) -> dict[str, Any]:
    """`data` (a scenario mapping) with its solution, answer, trap moves, rating and measures from `key`,
    its keys in the order of formats.md. Raises KeyProblem when the task's claim cannot hold."""
    task = data.get("task")
    expect = dict(data.get("expect") or {})
    if task == Task.KEY_MOVE and key.winning_choices != 1:
        raise KeyProblem(f"a key-move puzzle with {key.winning_choices} winning first moves")
    if task == Task.TRAP and not key.trap_moves:
        raise KeyProblem("a trap puzzle where no first move loses")
    if key.winning_choices == 0:
        raise KeyProblem("every first move loses")
    had_trap = "trap_move" in expect or "trap_moves" in expect
    expect.pop("trap_move", None)
    expect.pop("trap_moves", None)
    if task == Task.TRAP or had_trap:
        expect["trap_moves"] = [str(m) for m in key.trap_moves]
    answer: dict[str, Any] = {"moves": key.answers.length, "count": key.answers.count}
    if key.answers.alternatives:
        answer["alternatives"] = [" ".join(map(str, a)) for a in key.answers.alternatives]
    measured = dict(data.get("measured") or {})
    measured.update({"decisions": key.decisions, "answer_moves": key.answers.length})
    out: dict[str, Any] = {}
    for name, value in data.items():
        if name == "solution":
            out["solution"] = " ".join(map(str, key.answers.key))
            out["answer"] = answer
        elif name == "answer":
            continue
        elif name == "expect":
            out["expect"] = {k: expect[k] for k in sorted(expect, key=_EXPECT_ORDER.index)}
        elif name == "difficulty":
            out["difficulty"] = key.difficulty
        elif name == "measured":
            out["measured"] = measured
        else:
            out[name] = value
    if "solution" not in out:
        out["solution"] = " ".join(map(str, key.answers.key))
        out["answer"] = answer
    out.setdefault("difficulty", key.difficulty)
    return out


_EXPECT_ORDER = ["winnable", "key_move", "trap_moves", "legal", "illegal"]
