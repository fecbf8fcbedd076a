"""Themes: one pure detector per rule id, the tempting wrong move, and a builder.

A detector looks at a puzzle's facts (position, winning line, first moves
proved losing) and says whether the line really *uses* the rule early on; the
generator never just asserts a theme.  Detectors are pure functions of their
arguments, in the style of a chess-puzzle tagger, and each has positive and
negative tables in the tests.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from ..cards import Card, is_red, make_card, rank_of, suit_of
from ..engine import apply_move, builds_on, is_run, locate, refusal
from ..moves import DEAL_MOVE, Move
from ..position import Position
from ..profile import Profile
from .build import Draft, foundation_order

LESSON_WINDOW = 3
Moves = tuple[Move, ...]  # the rule must be used within this many moves of the solution


@dataclass(frozen=True)
class Lesson:
    """What a detector may look at: pure data, no solver calls."""

    position: Position
    line: tuple[Move, ...]  # a winning line from `position`
    losing: tuple[Move, ...] = ()  # first moves proved to lose
    within: int = LESSON_WINDOW


@dataclass(frozen=True)
class Distractor:
    """The tempting wrong move: refused by `rule`, or (rule None) legal and proved losing."""

    move: Move
    rule: str | None


def _steps(lesson: Lesson) -> list[tuple[Position, Move]]:
    """The first `within` moves of the line with the position before each (stops at an illegal one)."""
    out: list[tuple[Position, Move]] = []
    pos = lesson.position
    for move in lesson.line[: lesson.within]:
        if refusal(pos, move) is not None:
            break
        out.append((pos, move))
        pos = apply_move(pos, move)
    return out


def _available(pos: Position) -> list[Card]:
    """Cards that can be picked up now: column tops, reserve tops, exposed cards."""
    out: list[Card] = []
    for group in (pos.tableau, pos.reserve, pos.exposed):
        out.extend(pile[-1] for pile in group if pile)
    return out


# ------------------------------------------------------------- rule uses


def wraps_foundation(pos: Position, move: Move) -> bool:
    """An Ace goes onto a King-topped foundation (the base is not an Ace)."""
    if move.dest != "f" or move.card is None or rank_of(move.card) != 1 or pos.base == 1:
        return False
    top = pos.foundation_top(suit_of(move.card))
    return top is not None and rank_of(top) == 13


def fills_empty_column(pos: Position, move: Move) -> bool:
    """A card of the rank below the base (or a run led by one) goes into an empty column."""
    if move.card is None or move.dest[0] != "t" or pos.pile(move.dest):
        return False
    return rank_of(move.card) == pos.profile.empty_rank(pos.base)


def wraps_tableau(pos: Position, move: Move) -> bool:
    """A King goes onto an Ace of the other colour in the tableau."""
    if move.card is None or move.dest[0] != "t" or rank_of(move.card) != 13:
        return False
    target = pos.pile(move.dest)
    return bool(target) and rank_of(target[-1]) == 1 and is_red(target[-1]) != is_red(move.card)


def moves_run(pos: Position, move: Move) -> bool:
    """Two or more cards move together from one column to another."""
    if move.card is None or move.dest[0] != "t":
        return False
    place = locate(pos, move.card)
    return place.kind == "t" and place.depth < len(pos.tableau[place.index]) - 1


def plays_exposed(pos: Position, move: Move) -> bool:
    """A card leaves an exposed cell (x1, x2)."""
    return move.card is not None and locate(pos, move.card).kind == "x"


def starts_foundation(pos: Position, move: Move) -> bool:
    """A base-rank card opens an empty foundation."""
    return (move.dest == "f" and move.card is not None
            and pos.foundations[suit_of(move.card)] == 0 and rank_of(move.card) == pos.base)


def uncovers_reserve(pos: Position, move: Move) -> Card | None:
    """The card a move uncovers on a reserve pile, if it takes the top of a pile of two or more."""
    if move.card is None:
        return None
    place = locate(pos, move.card)
    if place.kind != "r":
        return None
    pile = pos.reserve[place.index]
    return pile[-2] if len(pile) >= 2 and place.depth == len(pile) - 1 else None


# -------------------------------------------------------------- detectors


def _uses(rule_use: Callable[[Position, Move], bool]) -> Callable[[Lesson], bool]:
    def detect(lesson: Lesson) -> bool:
        return any(rule_use(pos, move) for pos, move in _steps(lesson))

    detect.__doc__ = f"The line uses the rule within its first moves: {rule_use.__doc__}"
    return detect


detect_foundation_wrap = _uses(wraps_foundation)
detect_tableau_empty = _uses(fills_empty_column)
detect_tableau_wrap = _uses(wraps_tableau)
detect_tableau_run = _uses(moves_run)
detect_stock_last_two = _uses(plays_exposed)
detect_foundation_start = _uses(starts_foundation)


def detect_reserve_top(lesson: Lesson) -> bool:
    """The line takes a reserve top off a covered card, then plays that card, early on."""
    steps = _steps(lesson)
    for i, (pos, move) in enumerate(steps):
        under = uncovers_reserve(pos, move)
        if under is not None and any(m.card == under for _, m in steps[i + 1:]):
            return True
    return False


def detect_stock_deal(lesson: Lesson) -> bool:
    """Dealing now is legal and proved to lose, it would cover a reserve card, and the line
    wins by first playing a card off a pile the deal would cover."""
    pos = lesson.position
    if not pos.stock or DEAL_MOVE not in lesson.losing or not lesson.line:
        return False
    targets = pos.profile.stock_deals[pos.deals_done]
    covered = [int(t[1:]) - 1 for t in targets if t[0] == "r" and pos.reserve[int(t[1:]) - 1]]
    for before, move in _steps(lesson):
        if move == DEAL_MOVE:
            return False
        if move.card is not None:
            place = locate(before, move.card)
            if place.kind == "r" and place.index in covered:
                return True
    return False


# ------------------------------------------------------------ distractors


def _first_refused(pos: Position, moves: list[Move], rule: str) -> Distractor | None:
    for move in moves:
        why = refusal(pos, move)
        if why is not None and why.rule == rule:
            return Distractor(move, rule)
    return None


def tempting_loss(pos: Position, line: Moves, losing: Moves) -> Move | None:
    """A losing first move that touches the lesson: the lesson card sent elsewhere, a card laid
    on it, or a card of its rank (None if no losing move is that close)."""
    found = _losing_tempting(pos, line, losing)
    if found is None or found.move.card is None or not line or line[0].card is None:
        return None
    key = line[0].card
    move = found.move
    assert move.card is not None
    covers = move.dest[0] == "t" and bool(pos.pile(move.dest)) and pos.pile(move.dest)[-1] == key
    return move if move.card == key or covers or rank_of(move.card) == rank_of(key) else None


def _losing_tempting(pos: Position, line: Moves, losing: Moves) -> Distractor | None:
    """A losing first move a player would be drawn to: the key card elsewhere, a move onto
    the key card, a card of the same rank or colour, an early deal -- in that order."""
    if not losing:
        return None
    key = line[0] if line else None
    key_card = key.card if key is not None else None

    def score(move: Move) -> tuple[int, str]:
        if key_card is not None and move.card == key_card:
            return 0, str(move)
        if key_card is not None and move.card is not None and move.dest[0] == "t" \
                and pos.pile(move.dest) and pos.pile(move.dest)[-1] == key_card:
            return 1, str(move)
        if key_card is not None and move.card is not None and rank_of(move.card) == rank_of(key_card):
            return 2, str(move)
        if move.card is None:
            return 3, str(move)
        if key_card is not None and is_red(move.card) == is_red(key_card):
            return 4, str(move)
        return 5, str(move)

    return Distractor(min(losing, key=score), None)


def distract_tableau_empty(pos: Position, line: Moves, losing: Moves) -> Distractor | None:
    """A King (the Klondike habit) or a base-rank card into an empty column."""
    empties = [f"t{i + 1}" for i, c in enumerate(pos.tableau) if not c]
    want = pos.profile.empty_rank(pos.base)
    tempting = [c for c in _movable(pos) if rank_of(c) in (13, pos.base) and rank_of(c) != want]
    tempting.sort(key=lambda c: (rank_of(c) != 13, c))
    return _first_refused(pos, [Move(c, d) for c in tempting for d in empties], "tableau.empty")


def distract_foundation_start(pos: Position, line: tuple[Move, ...],
                              losing: tuple[Move, ...]) -> Distractor | None:
    """Another card of the empty foundation's suit (an Ace first, the Klondike habit)."""
    empty_suits = [s for s in range(4) if pos.foundations[s] == 0]
    cards = [c for c in _available(pos) if suit_of(c) in empty_suits and rank_of(c) != pos.base]
    cards.sort(key=lambda c: (rank_of(c) != 1, c))
    return _first_refused(pos, [Move(c, "f") for c in cards], "foundation.start")


def distract_reserve_top(pos: Position, line: Moves, losing: Moves) -> Distractor | None:
    """The covered reserve card played before its cover: first the one the line frees."""
    covered: list[Card] = []
    for pile in pos.reserve:
        covered.extend(pile[:-1])
    line_cards = [m.card for m in line if m.card is not None]
    covered.sort(key=lambda c: (line_cards.index(c) if c in line_cards else 99, c))
    moves = [Move(c, "f") for c in covered]
    moves += [Move(c, f"t{i + 1}") for c in covered for i, col in enumerate(pos.tableau)
              if col and builds_on(c, col[-1], pos.profile.tableau_wrap)]
    moves.sort(key=lambda m: (covered.index(m.card) if m.card is not None else 99, m.dest != "f"))
    return _first_refused(pos, moves, "reserve.top")


def distract_stock_last_two(pos: Position, line: tuple[Move, ...],
                            losing: tuple[Move, ...]) -> Distractor | None:
    """A card laid on an exposed card as if it were a column (it builds on it by rank and colour)."""
    moves = []
    for i, cell in enumerate(pos.exposed):
        if cell:
            for card in _movable(pos):
                if builds_on(card, cell[-1], pos.profile.tableau_wrap):
                    moves.append(Move(card, f"x{i + 1}"))
    return _first_refused(pos, sorted(moves), "stock.last-two")


def distract_tableau_run(pos: Position, line: Moves, losing: Moves) -> Distractor | None:
    """An irregular group (every card visible, but not a run) moved as if it were one."""
    wrap = pos.profile.tableau_wrap
    fits: list[Move] = []
    others: list[Move] = []
    for i, column in enumerate(pos.tableau):
        for depth in range(len(column) - 1):
            if is_run(column, depth, wrap):
                continue
            lead = column[depth]
            for j, target in enumerate(pos.tableau):
                if j == i:
                    continue
                move = Move(lead, f"t{j + 1}")
                fit = (builds_on(lead, target[-1], wrap) if target
                       else rank_of(lead) == pos.profile.empty_rank(pos.base))
                (fits if fit else others).append(move)
    # A group that would fit by rank and colour tempts most; next, the whole pile under the
    # run the line moves, sent where the run goes.
    found = _first_refused(pos, sorted(fits), "tableau.run")
    if found is None and line and line[0].card is not None and line[0].dest[0] == "t":
        place = locate(pos, line[0].card)
        if place.kind == "t" and place.depth > 0:
            column = pos.tableau[place.index]
            found = _first_refused(pos, [Move(column[place.depth - 1], line[0].dest)], "tableau.run")
    return found


def _movable(pos: Position) -> list[Card]:
    """Available cards and the lead cards of valid runs."""
    wrap = pos.profile.tableau_wrap
    out = set(_available(pos))
    for column in pos.tableau:
        for depth in range(len(column)):
            if is_run(column, depth, wrap):
                out.add(column[depth])
    return sorted(out)


def distract_losing(pos: Position, line: Moves, losing: Moves) -> Distractor | None:
    return _losing_tempting(pos, line, losing)


def distract_deal(pos: Position, line: Moves, losing: Moves) -> Distractor | None:
    return Distractor(DEAL_MOVE, None) if DEAL_MOVE in losing else None


# ---------------------------------------------------------------- builders
#
# A builder lays the cards out in a *play order*: a random merge of the suits'
# foundation orders, with the cards of every pile ordered so that the higher a
# card lies the earlier it is played.  Such a layout is won by playing home in
# that order; the lesson is then added by putting one or two cards out of
# order (a blocker on the card the order needs first), so that the win needs
# exactly the move the theme teaches.  The search decides the rest.


def _merge(rng: random.Random, draft: Draft, first: list[Card]) -> list[Card] | None:
    """A random play order of the out cards that starts with `first` (None if it cannot)."""
    queues = [draft.out_cards(s) for s in range(4)]
    order: list[Card] = []
    for card in first:
        q = queues[suit_of(card)]
        if not q or q[0] != card:
            return None
        order.append(q.pop(0))
    while any(queues):
        s = rng.choice([i for i in range(4) if queues[i]])
        order.append(queues[s].pop(0))
    return order


def _stack(draft: Draft, rng: random.Random, order: list[Card], piles: list[str],
           pins: dict[Card, str], tops: set[Card]) -> bool:
    """Lay `order` out so every pile is played top first.  Pinned cards go to their pile; a card
    in `tops` stays on top of its pile (nothing played earlier goes on it)."""
    closed: set[str] = set()
    for card in reversed(order):
        if card in pins:
            pile = pins[card]
            if pile in closed or not draft.can_put(pile, card):
                return False
        else:
            spots = [n for n in piles if n not in closed and draft.can_put(n, card)]
            if not spots:
                return False
            pile = rng.choice(spots)
        draft.put(pile, card)
        if card in tops:
            closed.add(pile)
    return True



def _stack_then_cover(draft: Draft, rng: random.Random, order: list[Card], piles: list[str],
                      pins: dict[Card, str], tops: set[Card],
                      covers: list[tuple[str, Card]]) -> Draft | None:
    """`_stack` the order, then lay each (pile, card) of `covers` on top: the cards that set up
    the lesson by blocking what the order needs.  None if any of it does not fit."""
    if not _stack(draft, rng, order, piles, pins, tops):
        return None
    for pile, card in covers:
        if not draft.can_put(pile, card):
            return None
        draft.put(pile, card)
    return draft

def _base(profile: Profile, rng: random.Random, low: int, high: int) -> int:
    """The profile's fixed base, or a random one in low..high."""
    return profile.base_rank or rng.randint(low, min(13, high))


def _piles(draft: Draft, rng: random.Random, columns: int, reserves: int, avoid: set[str],
           task: str = "win") -> list[str]:
    """Random piles to lay cards on.  For a key-move puzzle, few and deep ones: every top is
    then a lesson card, and no side move wins as well."""
    cols = [f"t{i + 1}" for i in range(draft.profile.columns) if f"t{i + 1}" not in avoid]
    res = [f"r{i + 1}" for i in range(draft.profile.reserve_piles) if f"r{i + 1}" not in avoid]
    if task == "key-move":
        cols = sorted(cols, key=lambda n: -draft.profile.column_lengths[int(n[1:]) - 1])[:4]
        columns, reserves = min(columns, 2), min(reserves, 1)
    return rng.sample(cols, min(columns, len(cols))) + rng.sample(res, min(reserves, len(res)))


def _needed(base: int, card: Card) -> int:
    """How many cards of its suit are out when `card` is: it and every card after it."""
    return 13 - foundation_order(base, suit_of(card)).index(card)


def _counts(rng: random.Random, base: int, cards: list[Card], extra: int, cap: int = 4) -> list[int]:
    """Cards out per suit: enough for `cards` to be out, plus `extra` spread at random."""
    out = [0, 0, 0, 0]
    for card in cards:
        out[suit_of(card)] = max(out[suit_of(card)], _needed(base, card))
    for _ in range(extra):
        s = rng.randrange(4)
        if out[s] < cap or out[s] == 0:
            out[s] += 1
    return [min(13, k) for k in out]


def _other_colour(rng: random.Random, suit: int) -> int:
    return rng.choice([s for s in range(4) if is_red(make_card(1, s)) != is_red(make_card(1, suit))])


def _stock(profile: Profile) -> int:
    return 0 if 0 in profile.stock_sizes() else min(profile.stock_sizes())


def build_foundation_wrap(rng: random.Random, profile: Profile, task: str, size: int) -> Draft | None:
    """A black King could park on the red Ace that blocks the Queen its suit needs: the Ace goes
    home on its King instead."""
    base = _base(profile, rng, 2, 3 + 2 * size)
    if base == 1:
        return None
    ace_suit = rng.randrange(4)
    king_suit = _other_colour(rng, ace_suit)
    ace = make_card(1, ace_suit)
    queen, king = make_card(12, king_suit), make_card(13, king_suit)
    if base == 13:
        return None
    counts = _counts(rng, base, [ace, queen], rng.randint(size, 1 + 3 * size))
    counts[ace_suit] = _needed(base, ace)
    draft = Draft(profile, base, counts, _stock(profile))
    order = _merge(rng, draft, [ace])
    if order is None or king not in order or order.index(queen) > order.index(king):
        return None
    order.remove(ace)
    cols = _piles(draft, rng, 2 + size, rng.randint(0, 1 + size), set(), task)
    blocked, parking = cols[0], cols[1]
    pins = {queen: blocked, king: parking}
    return _stack_then_cover(draft, rng, order, cols, pins, {queen, king}, [(blocked, ace)])


def build_tableau_empty(rng: random.Random, profile: Profile, task: str, size: int) -> Draft | None:
    """A card of the rank below the base blocks the card the order needs first; it may go into
    the one empty column, a King (the Klondike habit) may not, another card of its rank may
    but then blocks the column."""
    base = _base(profile, rng, 2, 4 + 2 * size)
    want = profile.empty_rank(base)
    if want == 13:
        return None
    suits = [rng.randrange(4) for _ in range(3)]
    filler, decoy, king = make_card(want, suits[0]), make_card(want, suits[1]), make_card(13, suits[2])
    with_decoy = decoy != filler and (task != "win" or rng.random() < 0.7)
    cards = [filler, king] + ([decoy] if with_decoy else [])
    extra = rng.randint(1 + size, 2 + 3 * size) + (0 if task == "win" else 4)
    draft = Draft(profile, base, _counts(rng, base, cards, extra, cap=6), _stock(profile))
    order = _merge(rng, draft, [])
    if order is None:
        return None
    first = order[0]
    if first in cards:
        return None
    order.remove(filler)
    empty = rng.choice([f"t{i + 1}" for i in range(profile.columns)])
    piles = _piles(draft, rng, 2 + size, rng.randint(1, 2), {empty}, task)
    if len(piles) < 3:
        return None
    goes_home = [draft.out_cards(suit_of(c))[0] for c in (king, decoy) if c == king or with_decoy]
    if king in goes_home or decoy in goes_home:
        return None  # a King or a decoy that simply goes home tempts no one
    one_empty = task != "win" or rng.random() < 0.5
    # The choice: the first card needed lies alone under the blocker in a column, and the
    # decoy blocks the next card of the same suit.  Decoy first and the first card stays
    # buried; blocker first and the first card goes home, its column empties, and the decoy
    # gets a column of its own.
    choice = one_empty and with_decoy and rng.random() < (0.5 if task == "win" else 1.0)
    if choice:
        columns = [p for p in piles if p[0] == "t"]
        if not columns:
            return None
        piles.remove(columns[0])
        piles.insert(0, columns[0])
    pins = {first: piles[0], king: piles[1]}
    tops = {first, king}
    if with_decoy:
        order.remove(decoy)
        # The decoy blocks an early card too: which of the two goes into the column matters.
        suit_cards = draft.out_cards(suit_of(first))
        if choice:
            second = suit_cards[1] if len(suit_cards) > 1 and suit_cards[1] not in cards else None
        else:
            second = next((c for c in order[1:] if c not in cards), None)
        if second is None:
            return None
        pins[second] = piles[2]
        tops.add(second)
    if one_empty:
        # Exactly one empty column (else the other card of the right rank could take another).
        others = [f"t{i + 1}" for i in range(profile.columns)
                  if f"t{i + 1}" not in piles and f"t{i + 1}" != empty]
        latest = [c for c in reversed(order) if c not in pins and rank_of(c) != want][: len(others)]
        if len(latest) < len(others):
            return None
        pins.update(zip(latest, others, strict=True))  # the last cards played lie at the bottom
        if task == "key-move":
            tops.update(latest)  # alone in their columns: no side moves from them
        piles = piles + others
    # Under a choice, the first card's column holds nothing else.
    if not _stack(draft, rng, order, piles[1:] if choice else piles, pins, tops):
        return None
    for card, pile in ((filler, piles[0]), (decoy, piles[2])):
        if card == filler or with_decoy:
            if not draft.can_put(pile, card):
                return None
            draft.put(pile, card)
    if one_empty and sum(not c for c in draft.tableau) != 1:
        return None
    return draft


def build_stock_deal(rng: random.Random, profile: Profile, task: str, size: int) -> Draft | None:
    """One full deal is left.  A reserve top is the card the order needs first, and the stock card
    that would land on it is a later card of its suit: deal now and it is buried."""
    stock = next((n for n in profile.stock_sizes()
                  if n and any(t[0] == "r" for t in profile.stock_deals[profile.deals_done(n) or 0])
                  and n <= 9), -1)
    if stock < 0:
        return None
    base = _base(profile, rng, 1, 13)
    draft = Draft(profile, base, [0, 0, 0, 0], stock)
    suit = rng.randrange(4)
    draft.out = _counts(rng, base, [], stock + rng.randint(1, 2 + size), cap=7)
    draft.out[suit] = max(draft.out[suit], 2)
    order = _merge(rng, draft, [])
    if order is None:
        return None
    first = order[0]
    # The cover must have no way off the buried card: no column card it could build on is
    # still out, and it is not of the rank an empty column takes.
    out = set(order)
    later = [c for c in draft.out_cards(suit_of(first))[1:]
             if rank_of(c) != profile.empty_rank(base)
             and not any(builds_on(c, t, profile.tableau_wrap) for t in out)]
    if not later:
        return None
    cover = rng.choice(later)
    targets = profile.stock_deals[draft.deals_done]
    slot = rng.choice([k for k, t in enumerate(targets) if t[0] == "r"])
    pool = [c for c in order[1:] if c != cover]
    picked = rng.sample(pool, stock - 1)
    picked.sort(key=order.index)
    draft.stock = picked[:slot] + [cover] + picked[slot:]
    rest = [c for c in order[1:] if c not in draft.stock]
    piles = _piles(draft, rng, 2 + size, 0, set(), task)
    return _stack_then_cover(draft, rng, rest, piles, {}, set(), [(targets[slot], first)])


def build_tableau_wrap(rng: random.Random, profile: Profile, task: str, size: int) -> Draft | None:
    """A King lies on the Queen of its suit, which the order needs first; its only way off is
    onto an Ace of the other colour."""
    if not profile.tableau_wrap:
        return None
    base = _base(profile, rng, 2, 5 + 2 * size)
    if base in (1, 13):
        return None
    king_suit = rng.randrange(4)
    ace_suit = _other_colour(rng, king_suit)
    king, queen, ace = make_card(13, king_suit), make_card(12, king_suit), make_card(1, ace_suit)
    counts = _counts(rng, base, [queen, ace], rng.randint(size, 1 + 3 * size))
    draft = Draft(profile, base, counts, _stock(profile))
    order = _merge(rng, draft, [queen])
    if order is None or order.index(ace) < order.index(king):
        return None
    order.remove(king)
    piles = _piles(draft, rng, 2 + size, rng.randint(0, 1 + size), set(), task)
    if len(piles) < 2 or piles[1][0] != "t":
        return None
    return _stack_then_cover(draft, rng, order, piles, {queen: piles[0], ace: piles[1]}, {queen, ace},
                             [(piles[0], king)])


def _target_pairs(order: list[Card], wrap: bool, after: int) -> list[tuple[Card, Card]]:
    """(card, target) with `card` building on `target`, the target played after the card."""
    return [(c, t) for i, c in enumerate(order) if i >= after for t in order[i + 1:] if builds_on(c, t, wrap)]


def build_tableau_run(rng: random.Random, profile: Profile, task: str, size: int) -> Draft | None:
    """A two-card run lies on the card the order needs first; it moves whole onto a column."""
    base = _base(profile, rng, 1, 13)
    wrap = profile.tableau_wrap
    extra = rng.randint(7 + size, 9 + 3 * size) if task == "key-move" else rng.randint(4 + size, 6 + 3 * size)
    draft = Draft(profile, base, _counts(rng, base, [], extra, cap=5), _stock(profile))
    order = _merge(rng, draft, [])
    if order is None:
        return None
    first = order[0]
    # For a key move: a lead or target of the rank an empty column takes, or a top card that
    # simply goes home, would give a second winning move.
    empty_rank = profile.empty_rank(base)
    triples = [(lead, second, target) for lead, target in _target_pairs(order, wrap, 1)
               for second in order[1:] if builds_on(second, lead, wrap)
               and order.index(second) < order.index(lead)
               and (task != "key-move" or (empty_rank not in (rank_of(lead), rank_of(target))
                                           and draft.out_cards(suit_of(second))[0] != second))]
    if not triples:
        return None
    lead, second, target = rng.choice(triples)
    order = [c for c in order if c not in (lead, second)]
    piles = _piles(draft, rng, 2 + size, rng.randint(0, 1), set(), task)
    cols = [p for p in piles if p[0] == "t"]
    if len(cols) < 2:
        return None
    return _stack_then_cover(draft, rng, order, piles, {first: cols[0], target: cols[1]}, {first, target},
                             [(cols[0], lead), (cols[0], second)])


def build_stock_last_two(rng: random.Random, profile: Profile, task: str, size: int) -> Draft | None:
    """A card blocks the first card of the order and fits only on an exposed card, which is
    not a place to build: the exposed card goes to the tableau first."""
    if not profile.exposed_cells:
        return None
    base = _base(profile, rng, 1, 13)
    wrap = profile.tableau_wrap
    draft = Draft(profile, base, _counts(rng, base, [], rng.randint(6, 9 + 2 * size), cap=5), 0)
    order = _merge(rng, draft, [])
    if order is None:
        return None
    first = order[0]
    # blocker Z on X (exposed) on W (a column top): played Z, X, W in that order.
    chains = [(z, x, w) for x, w in _target_pairs(order, wrap, 1)
              for z in order[1:order.index(x)] if builds_on(z, x, wrap)]
    if not chains:
        return None
    blocker, exposed, target = rng.choice(chains)
    others = [c for c in order[1:] if c not in (blocker, exposed, target)]
    second = rng.choice(others) if others and profile.exposed_cells > 1 else None
    order = [c for c in order if c not in (blocker, exposed, second)]
    piles = _piles(draft, rng, 2 + size, rng.randint(0, 1), set(), task)
    cols = [p for p in piles if p[0] == "t"]
    if len(cols) < 2:
        return None
    if not _stack(draft, rng, order, piles, {first: cols[0], target: cols[1]}, {first, target}):
        return None
    if not draft.can_put(cols[0], blocker):
        return None
    draft.put(cols[0], blocker)
    draft.put("x1", exposed)
    if second is not None:
        draft.put("x2", second)
    return draft


def _blocked_by_tableau_card(draft: Draft, rng: random.Random, order: list[Card], first: Card,
                             first_kind: str, columns: int, tops: dict[Card, str] | None = None,
                             task: str = "win") -> Draft | None:
    """`first` under a card that must go onto a column top before `first` can be played."""
    wrap = draft.profile.tableau_wrap
    pairs = _target_pairs(order, wrap, 1)
    if not pairs:
        return None
    cover, target = rng.choice(pairs)
    order = [c for c in order if c != cover]
    piles = _piles(draft, rng, columns, 1 + rng.randint(0, 1), set(), task)
    holder = next((p for p in piles if p[0] in first_kind), None)
    cols = [p for p in piles if p[0] == "t" and p != holder]
    if holder is None or not cols:
        return None
    pins = {first: holder, target: cols[0]}
    extra = {c: p for c, p in (tops or {}).items()}
    spare = [p for p in piles if p not in (holder, cols[0])]
    for card in extra:
        if not spare:
            return None
        pins[card] = spare.pop(0)
    return _stack_then_cover(draft, rng, order, piles, pins, set(pins), [(holder, cover)])


def build_reserve_top(rng: random.Random, profile: Profile, task: str, size: int) -> Draft | None:
    """The first card of the order lies under another card on a reserve pile; that card goes
    onto a column first."""
    stock = next((n for n in (0, 2) if n in profile.stock_sizes() and profile.deals_done(n)), None)
    if stock is None:
        return None
    base = _base(profile, rng, 1, 13)
    draft = Draft(profile, base, _counts(rng, base, [], rng.randint(4 + size, 6 + 3 * size)), stock)
    order = _merge(rng, draft, [])
    if order is None:
        return None
    if stock:
        draft.stock = sorted(rng.sample(order[1:], stock), key=order.index)
        order = [c for c in order if c not in draft.stock]
    return _blocked_by_tableau_card(draft, rng, order, order[0], "r", 2 + size, task=task)


def build_foundation_start(rng: random.Random, profile: Profile, task: str, size: int) -> Draft | None:
    """A whole suit is out.  Its base card is blocked by a card that goes onto a column; its Ace
    (the Klondike habit) lies free but may not start the foundation."""
    base = _base(profile, rng, 2, 13)
    suit = rng.randrange(4)
    start, ace = make_card(base, suit), make_card(1, suit)
    counts = _counts(rng, base, [], rng.randint(3 + size, 5 + 2 * size), cap=4)
    counts[suit] = 13
    if profile.base_dealt and all(k == 13 for k in counts):
        return None
    draft = Draft(profile, base, counts, _stock(profile))
    order = _merge(rng, draft, [start])
    if order is None:
        return None
    return _blocked_by_tableau_card(draft, rng, order, start, "tr", 5 + size,
                                    {ace: "top"} if base != 1 else None)


@dataclass(frozen=True)
class Theme:
    id: str
    required: bool
    tasks: tuple[str, ...]
    detect: Callable[[Lesson], bool]
    distract: Callable[[Position, tuple[Move, ...], tuple[Move, ...]], Distractor | None]
    build: Callable[[random.Random, Profile, str, int], Draft | None]
    how: str  # the strategy, for --help and the report


THEMES: dict[str, Theme] = {
    t.id: t
    for t in (
        Theme("foundation.wrap", True, ("key-move", "trap"), detect_foundation_wrap,
              distract_losing, build_foundation_wrap,
              "a suit stopped at its King; its Ace lies on the Queen another suit needs first, and a King "
              "of the other colour could park on that Ace (tableau wrap) and bury both"),
        Theme("tableau.empty", True, ("trap", "win"), detect_tableau_empty,
              distract_tableau_empty, build_tableau_empty,
              "an empty column; a card of the rank below the base blocks the first card needed and may "
              "go there; a King (refused there) and often another card of that rank lie on top"),
        Theme("stock.deal", True, ("trap", "key-move", "win"), detect_stock_deal,
              distract_deal, build_stock_deal,
              "one full deal left; the first card needed is a reserve top, and the stock card the deal "
              "would drop on it is a later card of its suit with nowhere else to go"),
        Theme("tableau.wrap", False, ("key-move", "win", "trap"), detect_tableau_wrap,
              distract_losing, build_tableau_wrap,
              "a King lies on the Queen of its suit, needed first; its only way off is onto an Ace of "
              "the other colour on a column top"),
        Theme("tableau.run", False, ("win",), detect_tableau_run,
              distract_tableau_run, build_tableau_run,
              "a two-card run lies on the first card needed and must move whole onto a column top; the "
              "refused move is an irregular group that would fit by rank and colour"),
        Theme("stock.last-two", False, ("key-move", "win", "trap"), detect_stock_last_two,
              distract_stock_last_two, build_stock_last_two,
              "a card blocks the first card needed and fits only on an exposed card, where nothing may "
              "be placed: the exposed card must go to a column first"),
        Theme("reserve.top", False, ("win",), detect_reserve_top,
              distract_reserve_top, build_reserve_top,
              "the first card needed lies under another card on a reserve pile; that card must go onto a "
              "column first (the covered card is refused)"),
        Theme("foundation.start", False, ("win",), detect_foundation_start,
              distract_foundation_start, build_foundation_start,
              "a whole suit out: its base card is blocked by a card that must go onto a column; its Ace "
              "lies free and is refused by the empty foundation"),
    )
}


def unavailable(theme_id: str, profile: Profile) -> str | None:
    """Why a profile cannot pose this theme's lesson at all (None when it can)."""
    if not profile.uses(theme_id):
        return f"the profile {profile.id} does not use the rule {theme_id}"
    if theme_id == "foundation.wrap" and profile.base_rank == 1:
        return f"in {profile.id} every foundation starts at the Ace, so none turns from King to Ace"
    if theme_id == "tableau.wrap" and not profile.tableau_wrap:
        return f"in {profile.id} a King never goes on an Ace in the columns"
    if theme_id == "stock.deal" and not profile.reserve_to_foundation:
        return f"in {profile.id} reserve cards never go to a foundation, which this lesson's positions need"
    return None


def theme_ids() -> list[str]:
    return sorted(THEMES)
