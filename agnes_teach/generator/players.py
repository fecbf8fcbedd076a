"""Players that try a puzzle the way pupils would: at random, greedily, and by a misconception.

A puzzle teaches only if it can be failed.  These players measure that:

* ``random``: every legal move equally likely;
* ``greedy``: a card goes home whenever one can, otherwise a random move;
* a theme's **misconception** player: home moves first, then plays by the
  wrong belief the theme corrects (``MISCONCEPTIONS``, a table of data: a
  belief, and a move predicate the belief forbids or forces).

Win rates come from playouts with a fixed seed (so a check is reproducible);
a playout that reaches ``MAX_MOVES`` without winning counts as a loss (the
player is going round in circles).  ``lost_under`` decides exactly, by
exploring every reachable state, whether a position can be won at all by
someone who holds the misconception: "the position is lost when the theme's
permission is removed".
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from ..cards import rank_of
from ..engine import apply_unchecked, legal_moves, locate
from ..moves import Move
from ..position import Position
from ..registry import RuleId
from .detectors import (
    fills_empty_column,
    moves_run,
    starts_foundation,
    uncovers_reserve,
    wraps_foundation,
    wraps_tableau,
)
from .graph import state_key

MAX_MOVES = 200  # a playout this long without a win is going round in circles: a loss
PLAYOUTS = 200  # the generator's and the checker's count (fixed seed): cheap and reproducible
PLAYOUT_SEED = 8
RANDOM_MAX = 0.35  # criterion 1: random play may win at most this share
MAX_STATES = 30_000  # the most states ``lost_under`` explores before it answers "unknown"

MovePredicate = Callable[[Position, Move], bool]


def _non_king_into_empty(pos: Position, move: Move) -> bool:
    """A card other than a King (or a run led by one) goes into an empty column."""
    return fills_empty_column(pos, move) and move.card is not None and rank_of(move.card) != 13


def _uncovers_reserve_card(pos: Position, move: Move) -> bool:
    """A reserve top that covers another card is moved off it."""
    return uncovers_reserve(pos, move) is not None


def _plays_lower_exposed(pos: Position, move: Move) -> bool:
    """The first exposed cell is played while the second still holds a card (as if x2 covered x1)."""
    if move.card is None:
        return False
    place = locate(pos, move.card)
    return place.kind == "x" and any(pos.exposed[place.index + 1:])


def _starts_foundation_not_ace(pos: Position, move: Move) -> bool:
    """An empty foundation is opened by a card that is not an Ace."""
    return starts_foundation(pos, move) and move.card is not None and rank_of(move.card) != 1


def _is_deal(pos: Position, move: Move) -> bool:
    """The stock is dealt."""
    return move.is_deal


# The move predicates a misconception may name, by name (the table below is data).
PREDICATES: dict[str, MovePredicate] = {
    "non-king-into-empty-column": _non_king_into_empty,
    "deal": _is_deal,
    "king-onto-ace": wraps_tableau,
    "ace-onto-king-foundation": wraps_foundation,
    "multi-card-move": moves_run,
    "uncover-reserve-card": _uncovers_reserve_card,
    "play-lower-exposed-cell": _plays_lower_exposed,
    "start-foundation-not-ace": _starts_foundation_not_ace,
}


@dataclass(frozen=True)
class Misconception:
    """A wrong belief about one rule, as data.

    ``forbid``: the believer never makes a move of ``predicate`` (the theme's
    permission removed).  ``force``: when no card can go home and a move of
    ``predicate`` is legal, the believer makes it (and nothing else).
    """

    theme: str
    belief: str
    kind: Literal["forbid", "force"]
    predicate: str

    def allowed(self, pos: Position, moves: list[Move]) -> list[Move]:
        """The moves a believer considers in `pos` (home moves are never forbidden by a force)."""
        test = PREDICATES[self.predicate]
        if self.kind == "forbid":
            return [m for m in moves if not test(pos, m)]
        if any(m.dest == "f" for m in moves):
            return moves
        forced = [m for m in moves if test(pos, m)]
        return forced or moves


MISCONCEPTIONS: dict[str, Misconception] = {
    m.theme: m
    for m in (
        Misconception(RuleId.TABLEAU_EMPTY, "empty columns are for Kings", "forbid",
                      "non-king-into-empty-column"),
        Misconception(RuleId.STOCK_DEAL, "deal whenever nothing is obvious", "force", "deal"),
        Misconception(RuleId.TABLEAU_WRAP, "ranks stop at the King: nothing goes on an Ace", "forbid",
                      "king-onto-ace"),
        Misconception(RuleId.FOUNDATION_WRAP, "ranks stop at the King: an Ace never follows it", "forbid",
                      "ace-onto-king-foundation"),
        Misconception(RuleId.TABLEAU_RUN, "move one card at a time", "forbid", "multi-card-move"),
        Misconception(RuleId.RESERVE_TOP,
                      "a visible covered card is playable, so nothing needs moving off it", "forbid",
                      "uncover-reserve-card"),
        Misconception(RuleId.STOCK_LAST_TWO, "only one exposed card is free (the last one dealt)", "forbid",
                      "play-lower-exposed-cell"),
        Misconception(RuleId.FOUNDATION_START, "foundations start with Aces", "forbid",
                      "start-foundation-not-ace"),
    )
}

# A policy picks one of the legal moves, or None when it sees no move it would make (it gives up).
Policy = Callable[[Position, list[Move], random.Random], Move | None]


def random_policy(pos: Position, moves: list[Move], rng: random.Random) -> Move | None:
    return rng.choice(moves)


def greedy_policy(pos: Position, moves: list[Move], rng: random.Random) -> Move | None:
    home = [m for m in moves if m.dest == "f"]
    return rng.choice(home or moves)


def misconception_policy(misconception: Misconception) -> Policy:
    def policy(pos: Position, moves: list[Move], rng: random.Random) -> Move | None:
        allowed = misconception.allowed(pos, moves)
        home = [m for m in allowed if m.dest == "f"]
        # A believer who sees no move the belief allows is stuck: the game is lost.
        return rng.choice(home or allowed) if allowed else None

    return policy


def player(name: str) -> Policy:
    """``random``, ``greedy``, or a theme id (that theme's misconception player)."""
    if name == "random":
        return random_policy
    if name == "greedy":
        return greedy_policy
    return misconception_policy(MISCONCEPTIONS[name])


def playout(pos: Position, policy: Policy, rng: random.Random, max_moves: int = MAX_MOVES) -> bool:
    """One game by `policy` from `pos`: won or not."""
    for _ in range(max_moves):
        if pos.is_won():
            return True
        moves = legal_moves(pos)
        move = policy(pos, moves, rng) if moves else None
        if move is None:
            return False
        pos = apply_unchecked(pos, move)
    return pos.is_won()


def win_rate(pos: Position, policy: Policy, playouts: int = PLAYOUTS, seed: int = PLAYOUT_SEED) -> float:
    """The share of `playouts` games `policy` wins from `pos` (fixed seed: reproducible)."""
    rng = random.Random(seed)
    return sum(playout(pos, policy, rng) for _ in range(playouts)) / playouts


def lost_under(pos: Position, misconception: Misconception, max_states: int = MAX_STATES) -> bool | None:
    """Is `pos` lost for every player who holds `misconception`?  None: too many states to tell.

    Explores every state reachable by the moves the believer allows; the
    position is lost under the belief when none of them is won.
    """
    seen = {state_key(pos)}
    todo = [pos]
    while todo:
        here = todo.pop()
        if here.is_won():
            return False
        for move in misconception.allowed(here, legal_moves(here)):
            nxt = apply_unchecked(here, move)
            key = state_key(nxt)
            if key not in seen:
                if len(seen) >= max_states:
                    return None
                seen.add(key)
                todo.append(nxt)
    return True
