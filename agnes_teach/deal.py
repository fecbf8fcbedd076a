"""Deterministic deals: deal number SEED -> the starting position.

The shuffle is simple enough to do by hand (docs/profiles.md, "Deals: how deal
number N is made", spells it out):

1. Order the deck A..K of spades, then hearts, diamonds, clubs (card index
   0..51).
2. Random numbers: ``state = SEED``; each draw sets
   ``state = (state * 214013 + 2531011) mod 2**31`` and yields ``state >> 16``
   (0..32767) -- the generator of the classic FreeCell deal numbers.
3. Fisher-Yates from the end: for ``i`` = 51 down to 1, draw ``n`` and swap
   the cards at ``i`` and ``n mod (i + 1)``.
4. Deal from index 0: the base card to its foundation (profiles with a dealt
   base; Agnes Sorel deals it right after the tableau), the tableau row by row
   (each row gives one card to every column not yet full, left to right), one
   card on each reserve pile r1.., and the rest is the stock in order.
"""

from __future__ import annotations

from .cards import Card, rank_of, suit_of
from .position import Position
from .profile import BaseCard, Profile, get_profile

MAX_SEED = 2**31 - 1


def lcg(seed: int):  # type: ignore[no-untyped-def]
    state = seed
    while True:
        state = (state * 214013 + 2531011) % 2**31
        yield state >> 16


def shuffled_deck(seed: int) -> list[Card]:
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"deal numbers run from 0 to {MAX_SEED}")
    deck = [Card(i) for i in range(52)]
    draws = lcg(seed)
    for i in range(51, 0, -1):
        j = next(draws) % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deal(seed: int, profile: Profile | None = None) -> Position:
    """The starting position of deal number `seed` under `profile`."""
    p = profile or get_profile()
    deck = shuffled_deck(seed)
    k = 0
    foundations = [0, 0, 0, 0]
    base = p.base_rank or 0

    def deal_base() -> None:
        nonlocal k, base
        base = rank_of(deck[k])
        foundations[suit_of(deck[k])] = 1
        k += 1

    if p.base_card == BaseCard.FIRST:
        deal_base()
    columns: list[list[Card]] = [[] for _ in p.column_lengths]
    for row in range(max(p.column_lengths)):
        for c, length in enumerate(p.column_lengths):
            if row < length:
                columns[c].append(deck[k])
                k += 1
    if p.base_card == BaseCard.AFTER_TABLEAU:
        deal_base()  # Agnes Sorel: the 29th card
    reserve = tuple((deck[k + i],) for i in range(p.reserve_piles))
    k += p.reserve_piles
    return Position(
        profile=p,
        base=base,
        foundations=(foundations[0], foundations[1], foundations[2], foundations[3]),
        tableau=tuple(tuple(c) for c in columns),
        reserve=reserve,
        exposed=tuple(() for _ in range(p.exposed_cells)),
        stock=tuple(deck[k:]),
    )
