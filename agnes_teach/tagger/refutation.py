"""Why a tempting move loses, read off the position after it (criterion 6 of "Puzzles that teach").

The solver proves that a move loses; a pupil needs a reason.  The reason
given here is a **deadlock** the position after the move shows: a card that
can never again go onto the tableau (every card it could lie on is home, and
it cannot enter an empty column) lies above a card of its own suit that its
foundation needs first.  It can move only home, and home waits for the card
under it, so no line wins.  The test is sound (each such pair alone proves
the loss) but not complete: most lost mid-game positions show no such pair
(their loss lies deeper than any pattern visible now).  For those,
``observe`` reads off what the move changes for good, a fact the pupil can
check on the page: a card that loses its last landing in the columns while
it still covers another, the card its foundation needs next buried under
the moved card (or a dealt one), the last empty column filled, or any card
buried.  The key then says the solver proves the loss and names that fact;
only a move that changes none of these gets the bare "the solver proves it".
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


@dataclass(frozen=True)
class Observation:
    """What the tempting move changes for good, read off the positions before and after it.

    ``kind``: ``no-landing`` (`card` lost its last landing in the columns, and still covers
    `under` in `pile`); ``buried`` (`card`, needed next by its foundation when `next` is true,
    is covered by `cover` in `pile`); ``last-empty`` (the move fills the last empty column).
    A fact, not a proof: the solver proves the loss."""

    kind: str
    card: Card | None = None
    under: Card | None = None
    cover: Card | None = None
    pile: str = ""
    next: bool = False


def _piles(pos: Position) -> list[tuple[str, tuple[Card, ...]]]:
    return [(f"{kind}{i + 1}", tuple(pile)) for kind, group in (("t", pos.tableau), ("r", pos.reserve),
                                                               ("x", pos.exposed))
            for i, pile in enumerate(group)]


def observe(pos: Position, move: Move) -> Observation | None:
    """The most telling thing the tempting `move` changes for good (None: nothing this finds)."""
    after = apply_unchecked(pos, move)
    before_state, after_state = FastState(pos), FastState(after)
    was_stuck, now_stuck = stuck_cards(before_state), stuck_cards(after_state)
    rel, suit_index = after_state.rules.rel, after_state.rules.suit

    def distance(card: Card) -> int:  # how many cards of its suit must go home before it
        return rel[card] - after.foundations[suit_index[card]]

    landing: list[tuple[int, Observation]] = []
    for name, pile in _piles(after):
        for high in range(1, len(pile)):
            card = pile[high]
            if now_stuck[card] and not was_stuck[card]:
                under = min(pile[:high], key=distance)
                landing.append((distance(under), Observation("no-landing", card, under=under, pile=name)))
    if landing:
        return min(landing, key=lambda x: x[0])[1]
    tops = {name: pile[-1] for name, pile in _piles(pos) if pile}
    buried: list[tuple[int, Observation]] = []
    for name, pile in _piles(after):
        top = tops.get(name)
        if top is not None and top in pile and pile[-1] != top:
            cover = pile[pile.index(top) + 1]
            buried.append((distance(top), Observation("buried", top, cover=cover, pile=name,
                                                      next=distance(top) == 0)))
    best = min(buried, key=lambda x: x[0]) if buried else None
    if best is not None and best[1].next:
        return best[1]
    if any(not col for col in pos.tableau) and all(col for col in after.tableau):
        return Observation("last-empty")
    return best[1] if best is not None else None


def reason(pos: Position, move: Move) -> Deadlock | None:
    """The deadlock the position shows right after the tempting `move` (None: none shows)."""
    return deadlock(apply_unchecked(pos, move))
