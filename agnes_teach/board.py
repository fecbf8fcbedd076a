"""What the rules look at: where a card lies, which card may lie on which, runs.

Pure functions over positions; the engine, the rule predicates and the
generator all read these (one ``run_start``, one build table per profile).
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card, is_red, rank_of, suit_of
from .position import Pile, Position


@dataclass(frozen=True, slots=True)
class Place:
    kind: str  # "t", "r", "x", "f", "s" (stock)
    index: int  # pile index (suit for "f")
    depth: int  # position in the pile, 0 = bottom


def locate(pos: Position, card: Card) -> Place:
    for kind, piles in (("t", pos.tableau), ("r", pos.reserve), ("x", pos.exposed)):
        for i, pile in enumerate(piles):
            if card in pile:
                return Place(kind, i, pile.index(card))
    if card in pos.stock:
        return Place("s", 0, pos.stock.index(card))
    suit = suit_of(card)
    return Place("f", suit, pos.foundation_cards(suit).index(card))


def pile_exists(pos: Position, name: str) -> bool:
    kind, number = name[0], int(name[1:])
    count = {"t": pos.profile.columns, "r": pos.profile.reserve_piles, "x": pos.profile.exposed_cells}[kind]
    return 1 <= number <= count


# -------------------------------------------------------------- rank logic


def _builds_on(card: int, target: int, wrap: bool) -> bool:
    if is_red(card) == is_red(target):
        return False
    r, t = rank_of(card), rank_of(target)
    return t == r + 1 or (wrap and r == 13 and t == 1)


# builds_on is the hottest test of all (run scans, move generation): a table
# indexed [wrap][card * 52 + target] answers it without arithmetic.
_BUILDS: tuple[tuple[bool, ...], tuple[bool, ...]] = (
    tuple(_builds_on(c, t, False) for c in range(52) for t in range(52)),
    tuple(_builds_on(c, t, True) for c in range(52) for t in range(52)),
)


def builds_on(card: int, target: int, wrap: bool) -> bool:
    """Can `card` lie on `target` in the tableau: other colour, one rank lower."""
    return _BUILDS[wrap][card * 52 + target]


def is_run(pile: Pile, start: int, wrap: bool) -> bool:
    """Is pile[start:] a valid run (each card builds on the one below it)?"""
    table = _BUILDS[wrap]
    return all(table[pile[j] * 52 + pile[j - 1]] for j in range(start + 1, len(pile)))


def run_start(pile: Pile, wrap: bool) -> int:
    """Index of the lead card of the longest valid run at the top of `pile`."""
    table = _BUILDS[wrap]
    i = len(pile) - 1
    while i > 0 and table[pile[i] * 52 + pile[i - 1]]:
        i -= 1
    return i


def next_foundation_rank(pos: Position, suit: int) -> int | None:
    """The rank the foundation of `suit` takes next; None when complete."""
    n = pos.foundations[suit]
    return None if n == 13 else (pos.base - 1 + n) % 13 + 1
