"""A canonical key per puzzle position, for deduplication up to symmetry.

Three symmetries leave a game unchanged: the columns in any order (the rules
never look at a column's number), reserve piles and exposed cells in any
order together with the stock cards each will receive (a deal drops one card
on every pile at once), and the two suits of one colour swapped (spades with
clubs, hearts with diamonds: building looks only at colour and rank).  The
key is the smallest serialisation over all of them.
"""

from __future__ import annotations

from itertools import product

from ..cards import Card, make_card, rank_of, suit_of
from ..piles import Pile
from ..position import Cards, Position

# S H D C -> image suit: identity, swap the black suits, swap the red suits, both.
_SUIT_MAPS: tuple[tuple[int, int, int, int], ...] = tuple(
    (3 if black else 0, 2 if red else 1, 1 if red else 2, 0 if black else 3)
    for black, red in product((False, True), repeat=2)
)


def _future(pos: Position) -> dict[str, list[Card]]:
    """The stock cards each pile (reserve pile, exposed cell, or column) will still receive, in order."""
    out: dict[str, list[Card]] = {}
    rest = list(pos.stock)
    for deal in pos.profile.stock_deals[pos.deals_done:]:
        for card, pile in zip(rest, deal, strict=False):
            out.setdefault(pile, []).append(card)
        rest = rest[len(deal):]
    return out


def _text(cards: Cards | list[Card], suit_map: tuple[int, int, int, int]) -> str:
    return ".".join(str(make_card(rank_of(c), suit_map[suit_of(c)])) for c in cards)


def puzzle_key(pos: Position) -> str:
    """Equal for two positions that are the same game up to the symmetries above."""
    future = _future(pos)
    best: str | None = None
    for suit_map in _SUIT_MAPS:
        foundations = [0, 0, 0, 0]
        for s in range(4):
            foundations[suit_map[s]] = pos.foundations[s]
        # Columns are interchangeable together with the stock cards each will still receive
        # (Agnes Sorel deals onto them); elsewhere no column receives any.
        columns = sorted(_text(c, suit_map) + ("<" + _text(future[Pile.column(i + 1)], suit_map)
                                              if Pile.column(i + 1) in future else "")
                         for i, c in enumerate(pos.tableau))
        reserve = sorted(
            _text(p, suit_map) + "<" + _text(future.get(Pile.reserve(i + 1), []), suit_map)
            for i, p in enumerate(pos.reserve)
        )
        exposed = sorted(
            _text(p, suit_map) + "<" + _text(future.get(Pile.exposed(i + 1), []), suit_map)
            for i, p in enumerate(pos.exposed)
        )
        key = "|".join([pos.profile.id, str(pos.base), ",".join(map(str, foundations)),
                        "/".join(columns), "/".join(reserve), "/".join(exposed)])
        if best is None or key < best:
            best = key
    assert best is not None
    return best
