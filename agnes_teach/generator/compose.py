"""Composed layouts: small positions laid out at random for a theme, as starting points of reduction.

Critical moments of real deals are rare for some lessons (the foundation's
corner, a foundation's start, a covered reserve card, the last two cards, the
deal): a whole game holds a handful, and most of them do not survive being cut
down (docs/puzzles.md). Sudoku and Simon Tatham's generators start elsewhere:
lay out a random grid, keep it if a limited solver still succeeds. A composed
layout is that for Agnes: a small position (``CARDS`` cards not home) laid out
at random under the few conditions its theme's lesson needs at all (a
foundation topped by its King, an empty foundation, a covered reserve card, full
exposed cells, a deal still to come, an empty column: the theme's ``Recipe``,
data in its module, ``Theme.recipe``). It then goes through exactly what a critical moment goes through
(``reduce.reduce_moment``): kept only while it is won and its answer needs the
rule, cut down, judged against every criterion, and stepped down to a minimal
puzzle.

Every layout is one a real game can reach, so a pupil is never shown an
impossible board: a column is what is left of its dealt cards (at most as many
as were dealt to it) with cards built on it, each one rank lower in the
profile's build; an emptied column is refilled only by a card the rule lets in;
a reserve pile holds at most one card per deal that reached it; the exposed
cells hold cards only once the stock is out; foundations are full from the
base up. The layouts of one number are the same on any machine (a seeded
generator), so a composed puzzle is reproducible from its number.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from functools import cache

from ..board import move_tables
from ..cards import Card, make_card, rank_at, rank_index, rank_of, suit_of
from ..engine import apply_unchecked, legal_moves
from ..piles import Pile, PileKind
from ..position import Position
from ..profile import Profile
from ..registry import Verdict
from ..solver import solve
from ..tagger.crux import competes
from ..tagger.misconception import Misconception, added_moves
from ..tagger.players import believer_choices
from ..themes import Recipe as Recipe  # the themes' data, read here (and named here for them)
from ..themes import Tempting, theme_for

CARDS = (12, 24)  # cards not home in a composed layout (the reducer then cuts it down)
BUILD_ON = 0.7  # how often a card goes onto a column top it fits, rather than into a dealt prefix
LAYOUTS_PER_NUMBER = 40  # layouts drawn from one number's generator
TRIES = 50  # attempts to lay out one layout before it is given up
LOSING_CONTEST_TRIES = 1000  # for a recipe whose competing (or any) move must lose (few draws have one)
CONTEST_NODES = 20_000  # the solver's budget for one verdict of that check (undecided: rejected)


@cache  # asked once a draw, and most draws fail at once: worked out once a profile
def _stock_size(profile: Profile, deals_left: int) -> int | None:
    """The stock's size with `deals_left` deals to come (None: the profile has not that many)."""
    sizes = profile.stock_sizes()
    return sizes[-1 - deals_left] if deals_left < len(sizes) else None


@cache
def _pile_depths(profile: Profile, deals_done: int
                 ) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """How many cards each column's dealt part, each reserve pile and each exposed cell can hold
    after `deals_done` deals: what was dealt there, which play can only make fewer."""
    heights = profile.max_pile_heights(deals_done)
    columns = list(profile.column_lengths)
    for deal in profile.stock_deals[:deals_done]:
        for pile in deal:
            if pile.kind is PileKind.COLUMN:
                columns[pile.offset] += 1
    return (tuple(columns), tuple(heights[Pile.reserve(i + 1)] for i in range(profile.reserve_piles)),
            tuple(heights[Pile.exposed(i + 1)] for i in range(profile.exposed_cells)))


def _foundations(rng: random.Random, profile: Profile, recipe: Recipe, cards: tuple[int, int]
                 ) -> tuple[int, list[int]] | None:
    """(base rank, cards on each foundation) leaving between cards[0] and cards[1] not home."""
    base = profile.base_rank or rng.randint(1, 13)
    if (recipe.king_topped or recipe.empty_foundation) and base == 1:
        return None  # the corner and the start are no lessons with an Ace base
    counts = [rng.randint(0, 12) for _ in range(4)]
    special = rng.randrange(4)
    if recipe.king_topped:
        counts[special] = 13 - (base - 1)  # base .. K: the next card is the Ace
    if recipe.empty_foundation:
        counts[special] = 0
    if recipe.waits_for:
        counts[special] = rank_index(base, recipe.waits_for)
    if profile.base_dealt and not any(counts):
        return None  # the base card lies on its foundation
    left = 52 - sum(counts)
    return (base, counts) if cards[0] <= left <= cards[1] else None


def compose(rng: random.Random, profile: Profile, recipe: Recipe, cards: tuple[int, int] = CARDS
            ) -> Position | None:
    """One random layout that `recipe` allows (None when this draw did not fit; draw again)."""
    if recipe.most_cards:
        cards = (min(cards[0], recipe.most_cards), min(cards[1], recipe.most_cards))
    stock_size = _stock_size(profile, recipe.deals_left)
    if stock_size is None:
        return None
    laid = _foundations(rng, profile, recipe, cards)
    if laid is None:
        return None
    base, counts = laid
    pool: list[Card] = [make_card(rank_at(base, i), s) for s in range(4) for i in range(counts[s], 13)]
    rng.shuffle(pool)
    if stock_size > len(pool) - 2:
        return None
    stock, pool = pool[:stock_size], pool[stock_size:]
    deals_done = profile.deals_done(stock_size) or 0
    dealt, reserve_depth, exposed_depth = _pile_depths(profile, deals_done)
    exposed: list[list[Card]] = [[] for _ in exposed_depth]
    for i, depth in enumerate(exposed_depth):
        if depth and (recipe.exposed_full or rng.random() < 0.5):
            exposed[i].append(pool.pop())
    if recipe.exposed_full and not all(exposed):
        return None
    reserve: list[list[Card]] = [[] for _ in reserve_depth]
    if reserve:
        for _ in range(rng.randint(2 if recipe.covered_reserve else 0, max(2, len(pool) // 3))):
            i = rng.randrange(len(reserve))
            if len(reserve[i]) < reserve_depth[i] and pool:
                reserve[i].append(pool.pop())
        if recipe.covered_reserve and not any(len(r) >= 2 for r in reserve):
            return None
    # The next deal lands on reserve piles (bernauer) or on columns (sorel): bury a top of those.
    onto = _next_deal_kinds(profile, deals_done)
    if recipe.deal_buries and PileKind.RESERVE in onto \
            and not _bury(rng, profile, base, deals_done, stock, PileKind.RESERVE, reserve, pool):
        return None
    columns = _columns(rng, profile, base, pool, dealt, recipe.empty_column, recipe.one_space)
    if columns is None or (recipe.one_space and sum(not c for c in columns) != 1):
        return None
    if recipe.deal_buries and PileKind.RESERVE not in onto \
            and not _bury(rng, profile, base, deals_done, stock, PileKind.COLUMN, columns, [],
                          [c for pile in (*columns, *reserve, *exposed) for c in pile],
                          empty_columns=not all(columns)):
        return None
    pos = Position(profile, base, (counts[0], counts[1], counts[2], counts[3]), tuple(map(tuple, columns)),
                   tuple(map(tuple, reserve)), tuple(map(tuple, exposed)), tuple(stock))
    if recipe.nothing_home and any(m.dest.is_foundation for m in legal_moves(pos)):
        return None
    if recipe.king_covers and not _king_covers(pos):
        return None
    return pos


def _king_covers(pos: Position) -> bool:
    """Does a King lie, in a column or a reserve pile, over the next card some foundation takes?"""
    for pile in (*pos.tableau, *pos.reserve):
        kings = [depth for depth, card in enumerate(pile) if rank_of(card) == 13]
        if kings and any(_goes_home_now(pos, card) for card in pile[:kings[-1]]):
            return True
    return False


def _goes_home_now(pos: Position, card: Card) -> bool:
    """Is `card` the next card its foundation takes?"""
    count = pos.foundations[suit_of(card)]
    return count < 13 and rank_at(pos.base, count) == rank_of(card)


def contested(pos: Position, believer: Misconception, loses: bool = False, picked: bool = False) -> bool:
    """Is a move `believer`'s belief forbids on offer in `pos` while a move the believer makes
    competes with it (moves the same card, takes its place, covers it, or plays its rank)?  With
    `loses`: one such move loses under the real rules, and `pos` is won (both proved by the solver);
    `picked`: that move is one the believer picks among (its moves home first)."""
    moves = legal_moves(pos)
    allowed = believer.allowed(pos, moves)
    rule_moves = [m for m in moves if m not in allowed]
    makes = believer_choices(pos, believer, moves) if picked else allowed
    rivals = [m for m in makes if m in allowed and any(competes(pos, m, rule) for rule in rule_moves)]
    if not loses or not rivals:
        return bool(rivals)
    return any(solve(apply_unchecked(pos, m), nodes=CONTEST_NODES).status == Verdict.LOST for m in rivals) \
        and solve(pos, nodes=CONTEST_NODES).status == Verdict.WON


def refused_on_offer(pos: Position, tempting: Tempting) -> bool:
    """Is the theme's tempting move, one its rule refuses, on offer in `pos` (the shortcut a
    believer who holds it legal plans with)?"""
    found = tempting(pos, (), ())
    return found is not None and found.rule is not None


def opens_on_decision(pos: Position) -> bool:
    """Is `pos` won while one of its legal moves loses (both proved by the solver)?"""
    return any(solve(apply_unchecked(pos, m), nodes=CONTEST_NODES).status == Verdict.LOST
               for m in legal_moves(pos)) and solve(pos, nodes=CONTEST_NODES).status == Verdict.WON


def _next_deal_kinds(profile: Profile, deals_done: int) -> set[PileKind]:
    """The kinds of pile the next deal lands on (none when the stock is out)."""
    if deals_done >= len(profile.stock_deals):
        return set()
    return {pile.kind for pile in profile.stock_deals[deals_done]}


def _bury(rng: random.Random, profile: Profile, base: int, deals_done: int, stock: list[Card],
          kind: PileKind, piles: list[list[Card]], pool: list[Card], laid: Sequence[Card] = (),
          empty_columns: bool = True) -> bool:
    """Make the next deal drop, on one top of `piles` (the reserve piles or the columns, `kind`), a
    later card of that top's suit whose hosts are all home and that no empty column takes: it can
    go neither home before that top nor onto a column, so the deal buries the top for good. Swap
    such a card (from the stock or the cards not yet laid out, `pool`) into that place of the
    stock; `laid` are the other cards already laid out (not home). An empty column counts only
    when one may be there (`empty_columns`: unknown before the columns are laid out, so assumed;
    in Sorel any card may fill one). False: no top allows it."""
    if deals_done >= len(profile.stock_deals):
        return False
    tables = move_tables(profile, base)
    in_play = set(stock) | set(pool) | set(laid)
    landing = [(j, pile.offset) for j, pile in enumerate(profile.stock_deals[deals_done])
               if pile.kind is kind and piles[pile.offset]]
    rng.shuffle(landing)
    for j, r in landing:
        top = piles[r][-1]
        later = [c for c in stock + pool if suit_of(c) == suit_of(top)
                 and rank_index(base, rank_of(c)) > rank_index(base, rank_of(top))
                 and not (empty_columns and tables.empty_ok[c])
                 and not any(h in in_play for h in tables.hosts[c])]
        if later:
            card = rng.choice(later)
            if card in stock:
                i = stock.index(card)
                stock[i], stock[j] = stock[j], stock[i]
            else:
                i = pool.index(card)
                pool[i], stock[j] = stock[j], pool[i]
            return True
    return False


def _columns(rng: random.Random, profile: Profile, base: int, pool: list[Card], dealt: Sequence[int],
             empty_column: float, one_space: bool = False) -> list[list[Card]] | None:
    """Lay `pool` out in columns: what is left of each column's dealt cards (at most `dealt[j]`),
    then cards built on it; None when some card has no place. `one_space`: every column but the
    one `empty_column` empties keeps a dealt card."""
    tables = move_tables(profile, base)
    # how much of its dealt part each column still holds
    room = [rng.randint(1 if one_space else 0, d) for d in dealt]
    if rng.random() < empty_column:
        room[rng.randrange(len(room))] = 0
    columns: list[list[Card]] = [[] for _ in dealt]
    refilled = [False] * len(dealt)  # an emptied column that took a card the rule lets in
    for card in pool:
        fits = [j for j, col in enumerate(columns) if col and col[-1] in tables.hosts[card]
                and (len(col) >= room[j] or refilled[j])]
        if fits and rng.random() < BUILD_ON:
            columns[rng.choice(fits)].append(card)
            continue
        dealt_room = [j for j, col in enumerate(columns) if len(col) < room[j] and not refilled[j]]
        refill = [j for j, col in enumerate(columns) if not col and not room[j] and tables.empty_ok[card]]
        if dealt_room:
            columns[rng.choice(dealt_room)].append(card)
        elif refill and rng.random() < 0.5:
            j = rng.choice(refill)
            columns[j].append(card)
            refilled[j] = True
        elif fits:
            columns[rng.choice(fits)].append(card)
        else:
            return None
    return columns


def layouts(number: int, profile: Profile, theme_id: str, count: int = LAYOUTS_PER_NUMBER
            ) -> Iterator[tuple[int, Position]]:
    """(k, layout) for k = 1..count: the composed layouts of `number` for the theme, each drawn from
    the generator seeded by the number and the theme, so the same number gives the same layouts."""
    rng = random.Random(f"{profile.id}/{theme_id}/{number}")
    theme = theme_for(theme_id, profile.id)
    recipe = theme.recipe
    believer = theme.believer if recipe.contested else None
    tempting = theme.tempting if recipe.refused_on_offer else None
    adding = theme.believer if recipe.belief_adds else None
    for k in range(1, count + 1):
        for _ in range(LOSING_CONTEST_TRIES if recipe.contest_loses or recipe.move_loses else TRIES):
            pos = compose(rng, profile, recipe)
            if pos is not None and (believer is None or contested(
                    pos, believer, recipe.contest_loses, recipe.contest_picked)) \
                    and (tempting is None or refused_on_offer(pos, tempting)) \
                    and (adding is None or bool(added_moves(pos, adding))) \
                    and (not recipe.move_loses or opens_on_decision(pos)):
                yield k, pos
                break
