"""Is the theme's rule the crux of a puzzle? (issue 28: the rule is the crux, and the key says so.)

The rule is the crux when, at a decision point of the answer, **the move the
theme's misconception picks loses**. The believer picks among the moves its
player would play (``players.believer_choices``: the moves home its belief
allows, else every move it allows); a losing move must be among those. That a
losing move merely exists among the moves the belief allows is not enough: a
believer who plays a card home first, and whose home move still wins, has not
been caught by the rule there. (``picks_lose`` is the strictest reading, every
move the believer picks loses; ``bench/wrong_moves.py`` counts it.)

For a belief that *adds* moves (a prohibition not known), the rule is the crux
at a decision point where the answer parts from the believer's plans and every
one of them needs a move the rule refuses (``answer.DecisionPoint.rule_decides``).

For a belief that *widens* the game with moves the rules refuse (the believer's
own game is the solver's widened tables), a move of the believer's plan, still
winning in its own game, loses at a decision point.

For a belief that *forces* a move (the early deal), that is the forced move,
on offer at a decision point where the believer cannot win. For a belief that
*forbids* the rule's move, the spot is one where

* the answer plays the rule's move right there, and the believer cannot win
  from there (``DecisionPoint.rule_decides``);
* the believer has a move there (the rule's move is not **forced**);
* and the rule's move is not **obvious**: the believer is **caught** there
  (``caught``): it picks a losing move, and either every move its belief
  allows loses (the rule's move is urgent) or a losing move it picks competes
  with the rule's move (``competes``: it takes the rule's card, its landing
  place or the card it lands on, covers its card, or plays a card of its rank).

Otherwise the believer loses only by never making the rule's move, while the
wrong moves on offer are a tactic any player faces, whatever they believe:
the real decision of the puzzle is another one.

The layout composer asks ``competes`` of a contested lesson too.
"""

from __future__ import annotations

from collections.abc import Callable

from ..cards import rank_of
from ..engine import apply_unchecked, legal_moves
from ..moves import Move
from ..position import Position
from ..solver import canonical_key
from .answer import Answer, DecisionPoint
from .detectors import MovePredicate
from .misconception import Misconception
from .players import believer_choices


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


def believer_picks(pos: Position, point: DecisionPoint,
                   misconception: Misconception) -> tuple[list[Move], list[Move]]:
    """(the moves the believer picks among at `point`, position `pos`; those of them that lose)."""
    losing = {canonical_key(apply_unchecked(pos, m)) for m in point.losing}
    picks = believer_choices(pos, misconception)
    return picks, [m for m in picks if canonical_key(apply_unchecked(pos, m)) in losing]


def picks_lose(pos: Position, point: DecisionPoint, misconception: Misconception) -> bool:
    """Does the move the believer picks at `point` lose, whichever of its choices it picks?"""
    picks, losing = believer_picks(pos, point, misconception)
    return bool(picks) and len(losing) == len(picks)


def caught(pos: Position, point: DecisionPoint, misconception: Misconception) -> bool:
    """Is the believer caught by the rule at `point` (a *forbid* belief, where the answer plays the
    rule's move)? It picks a losing move there (``believer_picks``), and either every move its
    belief allows loses (the rule's move is urgent) or a losing move it picks competes with the
    rule's move: its loss is over the rule's card or place, not a tactic beside it."""
    losing = {canonical_key(apply_unchecked(pos, m)) for m in point.losing}
    return caught_where(pos, point.move, misconception,
                        lambda m: canonical_key(apply_unchecked(pos, m)) in losing)


def caught_where(pos: Position, rule_move: Move, misconception: Misconception,
                 loses: Callable[[Move], bool]) -> bool:
    """``caught`` where the answer plays `rule_move` at `pos`, with `loses` saying which moves there
    lose (a decision point's losing moves, or the solver's verdicts before the answer is analysed)."""
    picked_losing = [m for m in believer_choices(pos, misconception) if loses(m)]
    if not picked_losing:
        return False
    if all(loses(m) for m in misconception.allowed(pos, legal_moves(pos))):
        return True
    return any(competes(pos, m, rule_move) for m in picked_losing)


def crux_problem(pos: Position, answer: Answer, misconception: Misconception) -> str | None:
    """Why the theme's rule is not the crux of the puzzle whose answer is `answer` (None: it is)."""
    positions = [pos]
    for move in answer.moves:
        positions.append(apply_unchecked(positions[-1], move))
    if misconception.kind == "add":
        if any(d.rule_decides for d in answer.decisions):
            return None
        return "the answer never parts from the believer's plans at a decision point where every " \
               "plan needs a move the rule refuses"
    if misconception.kind in ("force", "widen"):
        # A widening believer's plan holds the answer's move too (its game's wins include the real
        # ones), so it is caught where a plan move loses, not where every pick loses.
        if any(d.rule_decides and believer_losing(positions[d.index], d, misconception)
               and (misconception.kind == "widen" or picks_lose(positions[d.index], d, misconception))
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
        if not allowed_results(here, misconception):
            forced += 1
        elif caught(here, d, misconception):
            return None
    if forced == len(spots):
        return "where the answer plays the rule's move, the believer has no other move (it is forced)"
    return "where the answer plays the rule's move, it is obvious: the believer picks no losing move " \
           "there that competes with it (the real decision is a tactic, not the rule)"


def key_move_problem(pos: Position, key_move: Move, lesson_move: MovePredicate | None) -> str | None:
    """Why a key-move puzzle's key move is not its theme's lesson (None: it is, or the theme has no
    single lesson move, as for the early deal). Issue 28: the one winning first move must be the
    rule's move, not a tactic beside it."""
    if lesson_move is None or lesson_move(pos, key_move):
        return None
    return f"the key move {key_move} is not a move of the theme's rule (the real decision is elsewhere)"
