"""A position's cards as the deck file of quagnes (an independent Agnes Sorel solver on PyPI).

quagnes reads 52 lines ``(rank, suit)`` with rank 0..12 and suit 0..3, two
suits being of one colour when their numbers are equal modulo 2.  ``play()``
turns the first card up as the base card, then deals the tableau row by row
as in Klondike (row i gives one card to each of piles i..6), then deals the
rest 7 + 7 + 7 onto piles 0..6 and the last 2 onto piles 0 and 1, taking the
lines in order.  It counts ranks from the base (any numbering of the ranks
gives the same game).  So the deck of a starting position of ``sorel-strict``
is: the base card, the tableau cards in that row order, then the stock in
dealing order; spades and clubs take suits 0 and 2, hearts and diamonds 1
and 3.
"""

from __future__ import annotations

from .cards import Card, make_card, rank_of, suit_of
from .position import Position

SUIT_NUMBER = (0, 1, 3, 2)  # S H D C -> quagnes suits (S and C even, H and D odd)


def deck_order(pos: Position) -> list[Card]:
    """The 52 cards in the order quagnes deals them, for a starting position laid out 1..7."""
    lengths = [len(col) for col in pos.tableau]
    if lengths != list(range(1, 8)) or sum(pos.foundations) != 1 or pos.reserve or any(pos.exposed):
        raise ValueError("quagnes lays out only a Sorel start in seven columns of 1..7 cards")
    base_suit = next(s for s in range(4) if pos.foundations[s])
    cards = [make_card(pos.base, base_suit)]
    for row in range(7):
        cards.extend(pos.tableau[j][row] for j in range(row, 7))
    cards.extend(pos.stock)
    assert len(cards) == 52 and len(set(cards)) == 52
    return cards


def deck_text(pos: Position) -> str:
    """The deck file's text."""
    return "".join(f"({rank_of(c) - 1}, {SUIT_NUMBER[suit_of(c)]})\n" for c in deck_order(pos))
