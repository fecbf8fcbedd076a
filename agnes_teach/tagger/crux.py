"""Is the theme's rule the crux of a puzzle? (issue 28: the rule is the crux, and the key says so.)

For a belief that *forces* a move (the early deal), the rule is the crux when
that move is on offer at a decision point where the believer cannot win, and
loses. For a belief that *widens* the game with moves the rules refuse, when at a decision
point a move of the believer's plan (still winning in its own game) loses.
For a belief that *forbids* the rule's move, when at a decision point of
the answer

* the answer plays the rule's move right there, and the believer cannot win
  from there (``DecisionPoint.rule_decides``);
* the believer has a move there (the rule's move is not **forced**);
* and the rule's move is not **obvious**: either it is urgent (every move the
  believer makes there loses: whoever does not know the rule goes wrong at this
  very point), or a move the believer makes there loses while it competes with
  the rule's move (``competes``: it takes the rule's card, its landing place or
  the card it lands on elsewhere, covers its card, or plays a card of its rank).

Otherwise the believer loses only by never making the rule's move, while the
wrong moves on offer are a tactic any player faces, whatever they believe:
the real decision of the puzzle is another one.
"""

from __future__ import annotations

from ..cards import rank_of
from ..engine import apply_unchecked, legal_moves
from ..moves import Move
from ..position import Position
from ..solver import canonical_key
from .answer import Answer, DecisionPoint
from .misconception import Misconception


def believer_losing(pos: Position, point: DecisionPoint, misconception: Misconception) -> list[Move]:
    """The moves the believer makes at `point` (position `pos`) that lose there."""
    losing = {canonical_key(apply_unchecked(pos, m)) for m in point.losing}
    moves = legal_moves(pos)
    if misconception.kind == "widen" and misconception.plan(pos, moves) is None:
        return []  # the believer's own game is lost here too: the belief steers nothing
    allowed = misconception.allowed(pos, moves)
    if misconception.kind == "force" and len(allowed) == len(moves):
        return []  # the belief forces nothing here
    return list({key: m for m in allowed
                 if (key := canonical_key(apply_unchecked(pos, m))) in losing}.values())


def allowed_results(pos: Position, misconception: Misconception) -> set[bytes]:
    """The distinct positions (canonical keys) the believer's moves lead to from `pos`."""
    return {canonical_key(apply_unchecked(pos, m)) for m in misconception.allowed(pos, legal_moves(pos))}


def competes(pos: Position, move: Move, rule_move: Move) -> bool:
    """Does `move` compete with `rule_move` at `pos`: it moves the rule's card elsewhere, takes its
    landing place (the same column) or the card it would land on, lays a card on the rule's card,
    or plays another card of its rank?"""
    card, rule_card = move.card, rule_move.card
    if card is None or rule_card is None:
        return False
    if card == rule_card or rank_of(card) == rank_of(rule_card):
        return True
    if move.dest.is_column and move.dest == rule_move.dest:
        return True
    host = pos.pile(rule_move.dest)[-1:] if rule_move.dest.is_column else ()
    on = pos.pile(move.dest)[-1:] if move.dest.is_column else ()
    return card in host or rule_card in on


def crux_problem(pos: Position, answer: Answer, misconception: Misconception) -> str | None:
    """Why the theme's rule is not the crux of the puzzle whose answer is `answer` (None: it is)."""
    positions = [pos]
    for move in answer.moves:
        positions.append(apply_unchecked(positions[-1], move))
    if misconception.kind != "forbid":
        if any(d.rule_decides and believer_losing(positions[d.index], d, misconception)
               for d in answer.decisions):
            return None
        if misconception.kind == "widen":
            return "no move the believer's plan makes loses at a decision point"
        return "the move the misconception forces is never on offer and losing at a decision point"
    spots = [d for d in answer.decisions if d.uses_rule and d.rule_decides]
    if not spots:
        return "the rule's move is never played at a decision point where the believer cannot win " \
               "(the real decision is elsewhere)"
    forced = 0
    for d in spots:
        here = positions[d.index]
        losing = believer_losing(here, d, misconception)
        believed = allowed_results(here, misconception)
        if not believed:
            forced += 1
        elif len(losing) == len(believed) or any(competes(here, m, d.move) for m in _twins(here, losing,
                                                                                         misconception)):
            return None
    if forced == len(spots):
        return "where the answer plays the rule's move, the believer has no other move (it is forced)"
    return "where the answer plays the rule's move, it is obvious: a move the believer makes still wins, " \
           "and no losing move there competes with it (the real decision is a tactic, not the rule)"


def _twins(pos: Position, losing: list[Move], misconception: Misconception) -> list[Move]:
    """Every move the believer makes at `pos` that leads where one of `losing` does."""
    keys = {canonical_key(apply_unchecked(pos, m)) for m in losing}
    return [m for m in misconception.allowed(pos, legal_moves(pos))
            if canonical_key(apply_unchecked(pos, m)) in keys]
