"""Is the theme's rule the crux of a puzzle? (issue 28: the rule is the crux, and the key says so.)

The rule is the crux when, at a decision point of the answer, the theme's
misconception makes the mistake the rule corrects: for a belief that *forbids*
the rule's move, the answer plays that move right there, the believer cannot win
from there (``DecisionPoint.rule_decides``), and a move the believer does make is
on offer there and loses; for a belief that *forces* a move (the early deal),
that move is on offer at a decision point and loses.

It is not the crux when the rule's move is **forced** (at the point where the
answer plays it the believer has no move at all: nothing else is legal, or every
other move is one the belief denies too) or **obvious**: the answer never plays
the rule's move at a decision point (no wrong move is on offer where the rule is
used: the real decision is elsewhere), or no move the believer makes loses
where it is played.
"""

from __future__ import annotations

from ..engine import apply_unchecked, legal_moves
from ..moves import Move
from ..position import Position
from ..solver import canonical_key
from .answer import Answer, DecisionPoint
from .players import Misconception


def believer_losing(pos: Position, point: DecisionPoint, misconception: Misconception) -> list[Move]:
    """The moves the believer makes at `point` (position `pos`) that lose there."""
    losing = {canonical_key(apply_unchecked(pos, m)) for m in point.losing}
    moves = legal_moves(pos)
    allowed = misconception.allowed(pos, moves)
    if misconception.kind == "force" and len(allowed) == len(moves):
        return []  # the belief forces nothing here
    return [m for m in allowed if canonical_key(apply_unchecked(pos, m)) in losing]


def crux_problem(pos: Position, answer: Answer, misconception: Misconception) -> str | None:
    """Why the theme's rule is not the crux of the puzzle whose answer is `answer` (None: it is)."""
    positions = [pos]
    for move in answer.moves:
        positions.append(apply_unchecked(positions[-1], move))
    if misconception.kind == "force":
        if any(d.rule_decides and believer_losing(positions[d.index], d, misconception)
               for d in answer.decisions):
            return None
        return "the move the misconception forces is never on offer and losing at a decision point"
    spots = [d for d in answer.decisions if d.uses_rule]
    if not spots:
        return "the rule's move is never played at a decision point (forced or obvious: the real " \
               "decision is elsewhere)"
    forced = 0
    for d in spots:
        here = positions[d.index]
        if not misconception.allowed(here, legal_moves(here)):
            forced += 1
        elif d.rule_decides and believer_losing(here, d, misconception):
            return None
    if forced == len(spots):
        return "where the answer plays the rule's move, the believer has no other move (it is forced)"
    return "where the answer plays the rule's move, no move the believer makes loses (the believer " \
           "can still win from there)"
