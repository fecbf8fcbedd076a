"""Test and bench helper: smaller positions cut from a real one by sending cards home.

A card "sent home" is the next card a foundation needs, taken from wherever it
lies in a column, a reserve pile or an exposed cell (never from the stock,
whose order the deals depend on), with that foundation's count raised by one.
Each step is kept only while the solver still wins the position, so every
position this yields is a winnable game of fewer cards.
"""

from __future__ import annotations

from collections.abc import Iterator

from agnes_teach.position import Position
from agnes_teach.registry import Verdict
from agnes_teach.solver import solve
from agnes_teach.tagger.small import send_home  # the reducer's own step: one definition
from agnes_teach.tagger.teaching import cards_not_home

SOLVER_NODES = 200_000  # per step: a budget in states, so a run is the same on any machine


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
