"""Why a tempting move loses, read off the position after it (criterion 6 of "Puzzles that teach").

The solver proves that a move loses; a pupil needs a reason.  The reason
given here is a **deadlock** the position after the move shows: a card that
can never again go onto the tableau (every card it could lie on is home, and
it cannot enter an empty column) lies above a card of its own suit that its
foundation needs first.  It can move only home, and home waits for the card
under it, so no line wins.  The test is sound (each such pair alone proves
the loss) but not complete: many lost positions show no single pair, and
then the key says only that the solver proves the loss.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import Card, suit_of
from ..engine import apply_unchecked
from ..moves import Move
from ..position import Position
from ..solver.fast import FastState
from ..solver.search import stuck_cards


@dataclass(frozen=True)
class Deadlock:
    """`upper` lies above `lower` in pile `pile`; `upper` can only go home, after `lower`."""

    upper: Card
    lower: Card
    pile: str  # t3, r5, x1


def deadlock(pos: Position) -> Deadlock | None:
    """A deadlock the position shows (the first in pile order), or None."""
    if pos.profile.foundation_return:  # a foundation card may come back: nothing is stuck for good
        return None
    state = FastState(pos)
    stuck = stuck_cards(state)
    rel = state.rules.rel
    for kind, group in (("t", pos.tableau), ("r", pos.reserve), ("x", pos.exposed)):
        for index, pile in enumerate(group):
            for high in range(len(pile) - 1, 0, -1):
                upper = pile[high]
                if not stuck[upper]:
                    continue
                for low in range(high):
                    lower = pile[low]
                    if suit_of(lower) == suit_of(upper) and rel[lower] < rel[upper]:
                        return Deadlock(upper, lower, f"{kind}{index + 1}")
    return None


def reason(pos: Position, move: Move) -> Deadlock | None:
    """The deadlock the position shows right after the tempting `move` (None: none shows)."""
    return deadlock(apply_unchecked(pos, move))
