"""What the rules look at: where a card lies, which card may lie on which, runs.

Pure functions over positions; the engine, the rule predicates and the
generator all read these (one ``run_start``, one build table per profile).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from .cards import Card, is_red, rank_of, suit_of
from .piles import Pile, PileKind
from .position import Cards, Position
from .profile import Profile, RankCycle, RunLink, TableauBuild


@dataclass(frozen=True, slots=True)
class Place:
    kind: PileKind
    index: int  # pile index (the suit for a foundation)
    depth: int  # position in the pile, 0 = bottom


# Enum members are slow to look up on the class, and locate runs for every move applied.
_COLUMN, _RESERVE, _EXPOSED, _STOCK, _FOUNDATION = (
    PileKind.COLUMN, PileKind.RESERVE, PileKind.EXPOSED, PileKind.STOCK, PileKind.FOUNDATION)


def locate(pos: Position, card: Card) -> Place:
    for kind, piles in ((_COLUMN, pos.tableau), (_RESERVE, pos.reserve), (_EXPOSED, pos.exposed)):
        for i, pile in enumerate(piles):
            if card in pile:
                return Place(kind, i, pile.index(card))
    if card in pos.stock:
        return Place(_STOCK, 0, pos.stock.index(card))
    suit = suit_of(card)
    return Place(_FOUNDATION, suit, pos.foundation_cards(suit).index(card))


def pile_count(profile: Profile, kind: PileKind) -> int:
    """How many piles of `kind` the profile's layout has (0 for the foundations and the stock)."""
    return {PileKind.COLUMN: profile.columns, PileKind.RESERVE: profile.reserve_piles,
            PileKind.EXPOSED: profile.exposed_cells}.get(kind, 0)


def pile_exists(pos: Position, name: Pile | str) -> bool:
    pile = Pile.parse(name)
    return 1 <= pile.number <= pile_count(pos.profile, pile.kind)


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


def is_run(pile: Cards, start: int, wrap: bool) -> bool:
    """Is pile[start:] a valid run (each card builds on the one below it)?"""
    table = _BUILDS[wrap]
    return all(table[pile[j] * 52 + pile[j - 1]] for j in range(start + 1, len(pile)))


def run_start(pile: Cards, wrap: bool) -> int:
    """Index of the lead card of the longest valid run at the top of `pile` (alternate colours)."""
    return run_start_in(_BUILDS[wrap], pile)


# ------------------------------------------------ the profile's own tables
#
# Which card may lie on which (the build) and which cards form a run that
# moves together (the link) come from the profile's vocabulary and the base;
# the engine, the rule predicates and the solver's fast state all read these
# tables, indexed card * 52 + target.


def _follows(card: int, target: int, cycle: RankCycle, base: int) -> bool:
    """Is `card` one rank below `target` in the tableau's order of ranks?"""
    r, t = rank_of(card), rank_of(target)
    if cycle == RankCycle.FROM_BASE:
        return (t - base) % 13 == (r - base) % 13 + 1
    return t == r + 1 or (cycle == RankCycle.WRAP and r == 13 and t == 1)


@cache
def build_table(build: TableauBuild, cycle: RankCycle, base: int) -> bytes:
    """[card * 52 + target]: may `card` be laid on the column top `target`?"""
    same = build == TableauBuild.SAME_COLOUR
    return bytes(
        int(c != t and (is_red(c) == is_red(t)) == same and _follows(c, t, cycle, base))
        for c in range(52) for t in range(52)
    )


@cache
def link_table(link: RunLink, cycle: RankCycle, base: int) -> bytes:
    """[card * 52 + below]: does `card` lying on `below` continue a run that moves together?"""
    if link == RunLink.ALTERNATE:
        return build_table(TableauBuild.ALTERNATE, cycle, base)
    return bytes(
        int(c != t and suit_of(c) == suit_of(t) and _follows(c, t, cycle, base))
        for c in range(52) for t in range(52)
    )


def builds(profile: Profile, base: int) -> bytes:
    return build_table(profile.tableau_build, profile.rank_cycle, base)


def links(profile: Profile, base: int) -> bytes:
    return link_table(profile.run_link, profile.rank_cycle, base)


def fits(pos: Position, card: int, target: int) -> bool:
    """May `card` be laid on the column top `target` in this position's game?"""
    return bool(builds(pos.profile, pos.base)[card * 52 + target])


def is_run_at(pos: Position, pile: Cards, start: int) -> bool:
    """Is pile[start:] one run, by the profile's link (it may then move together)?"""
    table = links(pos.profile, pos.base)
    return all(table[pile[j] * 52 + pile[j - 1]] for j in range(start + 1, len(pile)))


def top_run_start(pos: Position, pile: Cards) -> int:
    """Index of the lead card of the longest run at the top of `pile`, by the profile's link."""
    return run_start_in(links(pos.profile, pos.base), pile)


def run_start_in(table: Sequence[int] | Sequence[bool], pile: Cards | list[int]) -> int:
    """The one run scan: down from the top while each card links to the one below it."""
    i = len(pile) - 1
    while i > 0 and table[pile[i] * 52 + pile[i - 1]]:
        i -= 1
    return i


def next_foundation_rank(pos: Position, suit: int) -> int | None:
    """The rank the foundation of `suit` takes next; None when complete."""
    n = pos.foundations[suit]
    return None if n == 13 else (pos.base - 1 + n) % 13 + 1
