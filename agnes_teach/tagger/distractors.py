"""Distractors: the tempting wrong move a puzzle offers beside its lesson.

Each is refused by the theme's rule (so the answer key can name it) or, with
no rule, is a legal first move the solver proves losing.  This module holds
what every theme's tempting move shares; each theme's own lives in its module
(``agnes_teach.themes``, ``Theme.tempting``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import Card, is_red, rank_of
from ..engine import is_run, refusal
from ..moves import Move
from ..position import Position
from .detectors import available
from .misconception import Misconception, added_moves
from .plans import plans_for

Moves = tuple[Move, ...]


@dataclass(frozen=True)
class Distractor:
    """The tempting wrong move: refused by `rule`, or (rule None) legal and proved losing."""

    move: Move
    rule: str | None


def first_refused(pos: Position, moves: list[Move], rule: str) -> Distractor | None:
    """The first of `moves` that `rule` refuses, as the distractor (None when none is)."""
    for move in moves:
        why = refusal(pos, move)
        if why is not None and why.rule == rule:
            return Distractor(move, rule)
    return None


def tempting_loss(pos: Position, line: Moves, losing: Moves) -> Move | None:
    """A losing first move that touches the lesson: the lesson card sent elsewhere, a card laid
    on it, or a card of its rank (None if no losing move is that close)."""
    found = _losing_tempting(pos, line, losing)
    if found is None or found.move.card is None or not line or line[0].card is None:
        return None
    key = line[0].card
    move = found.move
    assert move.card is not None
    covers = move.dest.is_column and bool(pos.pile(move.dest)) and pos.pile(move.dest)[-1] == key
    return move if move.card == key or covers or rank_of(move.card) == rank_of(key) else None


def _losing_tempting(pos: Position, line: Moves, losing: Moves) -> Distractor | None:
    """A losing first move a player would be drawn to: the key card elsewhere, a move onto
    the key card, a card of the same rank or colour, an early deal -- in that order."""
    if not losing:
        return None
    key = line[0] if line else None
    key_card = key.card if key is not None else None

    def score(move: Move) -> tuple[int, str]:
        if key_card is not None and move.card == key_card:
            return 0, str(move)
        if key_card is not None and move.card is not None and move.dest.is_column \
                and pos.pile(move.dest) and pos.pile(move.dest)[-1] == key_card:
            return 1, str(move)
        if key_card is not None and move.card is not None and rank_of(move.card) == rank_of(key_card):
            return 2, str(move)
        if move.card is None:
            return 3, str(move)
        if key_card is not None and is_red(move.card) == is_red(key_card):
            return 4, str(move)
        return 5, str(move)

    return Distractor(min(losing, key=score), None)


def movable(pos: Position) -> list[Card]:
    """Available cards and the lead cards of valid runs."""
    wrap = pos.profile.tableau_wrap
    out = set(available(pos))
    for column in pos.tableau:
        for depth in range(len(column)):
            if is_run(column, depth, wrap):
                out.add(column[depth])
    return sorted(out)


def distract_losing(pos: Position, line: Moves, losing: Moves) -> Distractor | None:
    """The losing first move a player is drawn to most (for a theme whose rule refuses nothing)."""
    return _losing_tempting(pos, line, losing)


def plan_distractor(pos: Position, losing: Moves, misconception: Misconception,
                    rule: str) -> Distractor | None:
    """For a belief that adds moves: the losing first move the believer's plans start with (it
    counts on a move the rule refuses later), else a move the belief adds here, refused by `rule`
    (first the one the believer's plans start with)."""
    first = plans_for(misconception, pos).first_moves(pos)
    planned: list[Move] = []
    if first is not None:
        trap = next((m for m in first.legal if m in losing), None)
        if trap is not None:
            return Distractor(trap, None)
        planned = list(first.refused)
    return first_refused(pos, [*planned, *added_moves(pos, misconception)], rule)
