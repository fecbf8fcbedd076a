"""A canonical key per puzzle position, for deduplication up to symmetry.

The key is the project's one state key (:func:`agnes_teach.keys.game_key`:
profile, base, and the piles up to the order of interchangeable piles, each
with the stock cards it will still receive), minimised over one more symmetry
that the search does not use: the two suits of one colour swapped (spades with
clubs, hearts with diamonds), which the rules cannot tell apart - building
looks at colour and rank, runs at colour or suit, never at which suit.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import product

from ..cards import Card, make_card, rank_of, suit_of
from ..keys import game_key
from ..position import Cards, Position

# S H D C -> image suit: identity, swap the black suits, swap the red suits, both.
_SUIT_MAPS: tuple[tuple[int, int, int, int], ...] = tuple(
    (3 if black else 0, 2 if red else 1, 1 if red else 2, 0 if black else 3)
    for black, red in product((False, True), repeat=2)
)


def _mapped(pos: Position, suit_map: tuple[int, int, int, int]) -> Position:
    """The same position with every card's suit replaced by its image."""
    def cards(pile: Cards) -> Cards:
        return tuple(Card(make_card(rank_of(c), suit_map[suit_of(c)])) for c in pile)

    found = [0, 0, 0, 0]
    for s in range(4):
        found[suit_map[s]] = pos.foundations[s]
    return replace(pos, foundations=(found[0], found[1], found[2], found[3]),
                   tableau=tuple(map(cards, pos.tableau)), reserve=tuple(map(cards, pos.reserve)),
                   exposed=tuple(map(cards, pos.exposed)), stock=cards(pos.stock))


def puzzle_key(pos: Position) -> str:
    """Equal for two positions that are the same game up to the symmetries above."""
    return min(game_key(_mapped(pos, suit_map)) for suit_map in _SUIT_MAPS).hex()
