"""What the rules look at: where a card lies, which card may lie on which, runs.

Pure functions over positions; the engine, the rule predicates and the
generator all read these (one ``run_start``, one build table per profile).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from .cards import Card, is_red, make_card, rank_at, rank_index, rank_of, suit_of
from .piles import Pile, PileKind
from .position import Cards, Position
from .profile import EmptyFill, Profile, RankCycle, RunLink, TableauBuild


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
    if kind is _COLUMN:
        return profile.columns
    if kind is _RESERVE:
        return profile.reserve_piles
    return profile.exposed_cells if kind is _EXPOSED else 0


def pile_exists(pos: Position, name: Pile | str) -> bool:
    pile = name if type(name) is Pile else Pile.parse(name)
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
        return rank_index(base, t) == rank_index(base, r) + 1
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
    return None if n == 13 else rank_at(pos.base, n)


# ------------------------------------------------------ the safe-home test


@dataclass(frozen=True, slots=True)
class HomeSafety:
    """What the safe-home test reads, per profile and base (:func:`home_safety`)."""

    final: bool  # foundations are final: nothing comes back from them
    anywhere_home: bool  # every pile may play home (the second form needs it)
    deals_onto_columns: tuple[bool, ...]  # [d]: after d deals, does a later one land on columns?
    guests: tuple[tuple[int, ...], ...]  # [c]: the cards that may be laid on c in the tableau
    rel: tuple[int, ...]  # [c]: rank of c counted from the base (0 = base)
    suit: tuple[int, ...]


@cache
def home_safety(profile: Profile, base: int) -> HomeSafety:
    table = builds(profile, base)
    deals = profile.stock_deals
    return HomeSafety(
        final=not profile.foundation_return,
        anywhere_home=(profile.reserve_to_foundation or not profile.reserve_piles)
        and (profile.exposed_to_foundation or not profile.exposed_cells),
        deals_onto_columns=tuple(any(p.is_column for deal in deals[d:] for p in deal)
                                 for d in range(len(deals) + 1)),
        guests=tuple(tuple(c for c in range(52) if table[c * 52 + t]) for t in range(52)),
        rel=tuple(rank_index(base, rank_of(c)) for c in range(52)),
        suit=tuple(suit_of(c) for c in range(52)),
    )


def is_safe_home(safety: HomeSafety, found: Sequence[int], deals_done: int, card: int, *,
                 returns_barred: bool = False) -> bool:
    """May `card`, which can go home now, go home as the only move, keeping every win?

    The one safe-home test: the solver's search and the generator's autoplay
    both ask it (the argument is in ``solver/search.py``, point 2).  It holds
    when the foundations are final and every card that could be laid on `card`
    in the tableau is home - or is itself next home with all of its own guests
    home, where every pile may play home (the second form).  While a deal is
    still to land on the columns nothing is safe: it could bury `card`'s column
    under cards that need it.  Where cards may come back from the foundations a
    guest could come back onto `card`, so nothing is safe either - unless the
    caller asks about the game with ``returns_barred`` (the generator's graph,
    whose claims the solver then proves).  ``found``: the cards home per suit.
    """
    if not (safety.final or returns_barred) or safety.deals_onto_columns[deals_done]:
        return False
    rel, suit = safety.rel, safety.suit
    for g in safety.guests[card]:
        if found[suit[g]] > rel[g]:
            continue
        if safety.anywhere_home and found[suit[g]] == rel[g] \
                and all(found[suit[h]] > rel[h] for h in safety.guests[g]):
            continue
        return False
    return True


# ------------------------------------------------------ the one move generator
#
# A move in the generator's shape is a tuple (kind, source, depth, dest, card, count):
# TAIL - column[depth:] of column `source` (`count` cards led by `card`) to column `dest`, or
# its top card home (dest == HOME); STACK - the top of stack `source` (reserve piles first,
# then exposed cells); RETURN - the top of the foundation of suit `source` back to a column;
# DEAL - the next deal.  The engine turns them into Moves, the solver's fast state plays them.

TAIL, STACK, RETURN, DEAL = 0, 1, 2, 3
HOME = -1
GenMove = tuple[int, int, int, int, int, int]
DEAL_GEN: GenMove = (DEAL, 0, 0, 0, -1, 0)


@dataclass(frozen=True, slots=True)
class MoveTables:
    """What fits where, per profile and base: all the move generator reads besides the piles."""

    hosts: tuple[tuple[int, ...], ...]  # [c]: the cards c may be laid on (the build table)
    link: bytes  # [c * 52 + below]: does c on below continue a run that moves together
    empty_ok: tuple[bool, ...]  # [c]: may c (or a run it leads) go into an empty column
    empty_single_only: bool  # into an empty column only a card alone, not a run
    whole_runs_only: bool  # only the lead of a column's top run goes to another column
    stack_home: tuple[bool, ...]  # [k]: may the top of stack k play home
    foundation_return: bool  # may a foundation's top come back to a column
    rel: tuple[int, ...]  # [c]: rank of c counted from the base
    suit: tuple[int, ...]
    card_at: tuple[tuple[int, ...], ...]  # [suit][rel]: the card of that suit and relative rank


@cache
def move_tables(profile: Profile, base: int) -> MoveTables:
    table = builds(profile, base)
    fill, fill_rank = profile.empty_fill, profile.fill_rank(base)
    return MoveTables(
        hosts=tuple(tuple(t for t in range(52) if table[c * 52 + t]) for c in range(52)),
        link=links(profile, base),
        empty_ok=tuple(fill in (EmptyFill.ANY_RUN, EmptyFill.ANY_CARD) or rank_of(c) == fill_rank
                       for c in range(52)),
        empty_single_only=fill == EmptyFill.ANY_CARD,
        whole_runs_only=profile.whole_runs_only,
        stack_home=(profile.reserve_to_foundation,) * profile.reserve_piles
        + (profile.exposed_to_foundation,) * profile.exposed_cells,
        foundation_return=profile.foundation_return,
        rel=tuple(rank_index(base, rank_of(c)) for c in range(52)),
        suit=tuple(suit_of(c) for c in range(52)),
        card_at=tuple(tuple(make_card(rank_at(base, r), s) for r in range(13)) for s in range(4)),
    )


def generate_moves(t: MoveTables, cols: Sequence[Sequence[int]], stacks: Sequence[Sequence[int]],
                   found: Sequence[int], can_deal: bool) -> list[GenMove]:
    """Every legal move of a state given as piles of card numbers (the one move generator).

    Grouped by source: columns (each top home first, then tails from the lead of the top run
    up), stacks, foundation tops, the deal last; within a source the destinations come in the
    order of the cards they lie on, then the empty columns.  ``engine.legal_moves`` sorts them
    into its stable order; the solver takes them as they come.
    """
    top_col = [-1] * 52  # the column each card tops, or -1
    empties: list[int] = []
    for j, col in enumerate(cols):
        if col:
            top_col[col[-1]] = j
        else:
            empties.append(j)
    out = _column_moves(t, cols, found, top_col, empties)
    _stack_moves(t, stacks, found, top_col, empties, out)
    if t.foundation_return:
        for s in range(4):
            if found[s]:
                _single_to_columns(t, RETURN, s, t.card_at[s][found[s] - 1], top_col, empties, out)
    if can_deal:
        out.append(DEAL_GEN)
    return out


def clears_home(t: MoveTables, cols: Sequence[Sequence[int]], stacks: Sequence[Sequence[int]],
                found: Sequence[int]) -> bool:
    """Do moves home alone, played while there are any, take every card of these piles home?

    The moves home are the generator's (a column's top, a stack's top where ``stack_home`` lets
    it, when it is the next rank of its suit's foundation). Moves home only ever free cards, so
    the order they are played in does not change where this ends; a pile is emptied top down for
    as long as its top goes home, and the piles are passed over again until one pass sends none.
    """
    rel, suit = t.rel, t.suit
    piles = [(pile, True) for pile in cols] + [(pile, t.stack_home[k]) for k, pile in enumerate(stacks)]
    heights = [len(pile) for pile, _ in piles]
    home = list(found)
    progress = True
    while progress:
        progress = False
        for i, (pile, may_go_home) in enumerate(piles):
            n = heights[i]
            while n and may_go_home and rel[pile[n - 1]] == home[suit[pile[n - 1]]]:
                home[suit[pile[n - 1]]] += 1
                n -= 1
            if n != heights[i]:
                heights[i] = n
                progress = True
    return all(n == 13 for n in home)


def _column_moves(t: MoveTables, cols: Sequence[Sequence[int]], found: Sequence[int], top_col: list[int],
                  empties: list[int]) -> list[GenMove]:
    """From each column: its top card home, then each tail from the lead of the top run up, onto
    the column tops it fits and the empty columns."""
    rel, suit, link = t.rel, t.suit, t.link
    hosts, empty_ok = t.hosts, t.empty_ok
    whole = t.whole_runs_only
    single_only = t.empty_single_only
    out: list[GenMove] = []
    for i, col in enumerate(cols):
        if not col:
            continue
        n = len(col)
        top = col[-1]
        if rel[top] == found[suit[top]]:
            out.append((TAIL, i, n - 1, HOME, top, 1))
        start = n - 1
        while start > 0 and link[col[start] * 52 + col[start - 1]]:
            start -= 1
        for d in range(start, start + 1 if whole else n):
            card = col[d]
            for h in hosts[card]:
                j = top_col[h]
                if j >= 0 and j != i:
                    out.append((TAIL, i, d, j, card, n - d))
            if empty_ok[card] and (not single_only or d == n - 1):
                for j in empties:
                    out.append((TAIL, i, d, j, card, n - d))
    return out


def _stack_moves(t: MoveTables, stacks: Sequence[Sequence[int]], found: Sequence[int], top_col: list[int],
                 empties: list[int], out: list[GenMove]) -> None:
    """From each reserve pile and exposed cell: its top card home (where the profile allows), then
    onto the columns."""
    rel, suit, stack_home = t.rel, t.suit, t.stack_home
    for k, pile in enumerate(stacks):
        if pile:
            c = pile[-1]
            if stack_home[k] and rel[c] == found[suit[c]]:
                out.append((STACK, k, 0, HOME, c, 1))
            _single_to_columns(t, STACK, k, c, top_col, empties, out)


def _single_to_columns(t: MoveTables, kind: int, k: int, c: int, top_col: list[int], empties: list[int],
                       out: list[GenMove]) -> None:
    """One card from a stack or a foundation: onto the column tops it fits, then the empties."""
    for h in t.hosts[c]:
        j = top_col[h]
        if j >= 0:
            out.append((kind, k, 0, j, c, 1))
    if t.empty_ok[c]:
        for j in empties:
            out.append((kind, k, 0, j, c, 1))
