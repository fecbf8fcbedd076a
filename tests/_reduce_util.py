"""Test and bench helper: smaller positions cut from a real one by sending cards home.

A card "sent home" is the next card a foundation needs, taken from wherever it
lies in a column, a reserve pile or an exposed cell (never from the stock,
whose order the deals depend on), with that foundation's count raised by one.
Each step is kept only while the solver still wins the position, so every
position this yields is a winnable game of fewer cards.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

from agnes_teach.cards import make_card, rank_at
from agnes_teach.position import Cards, Position
from agnes_teach.registry import Verdict
from agnes_teach.solver import solve
from agnes_teach.tagger.teaching import cards_not_home

SOLVER_NODES = 200_000  # per step: a budget in states, so a run is the same on any machine


def without(piles: tuple[Cards, ...], card: int) -> tuple[Cards, ...]:
    return tuple(tuple(c for c in pile if c != card) for pile in piles)


def send_home(pos: Position, suit: int) -> Position | None:
    """`pos` with the next card of `suit`'s foundation sent home; None if that card is in the stock
    or the foundation is full."""
    count = pos.foundations[suit]
    if count == 13:
        return None
    card = make_card(rank_at(pos.base, count), suit)
    if card in pos.stock:
        return None
    counts = list(pos.foundations)
    counts[suit] += 1
    return dataclasses.replace(pos, foundations=(counts[0], counts[1], counts[2], counts[3]),
                               tableau=without(pos.tableau, card), reserve=without(pos.reserve, card),
                               exposed=without(pos.exposed, card))


def winnable(pos: Position) -> bool:
    return solve(pos, nodes=SOLVER_NODES).status == Verdict.WON


def reductions(pos: Position) -> Iterator[Position]:
    """Ever smaller winnable positions from `pos`: one card home per step, the suits taken in turn
    (a suit whose card would lose the game, or lies in the stock, is passed over)."""
    suit = 0
    while True:
        for tried in range(4):
            smaller = send_home(pos, (suit + tried) % 4)
            if smaller is not None and winnable(smaller):
                pos, suit = smaller, (suit + tried + 1) % 4
                yield pos
                break
        else:
            return


def reduce_to(pos: Position, cards: int) -> Position | None:
    """The first winnable reduction of `pos` with at most `cards` cards not home, or None."""
    if cards_not_home(pos) <= cards:
        return pos
    for smaller in reductions(pos):
        if cards_not_home(smaller) <= cards:
            return smaller
    return None
