"""The rules engine: legal moves, refusals by rule id, applying moves.

Pure functions over immutable :class:`Position` values.  Every rule decision
the project makes is made here; the solver's fast state is checked against it.
Profiles are read only through their parameters.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from .cards import Card, card_name, is_red, make_card, rank_name, rank_of, suit_of
from .moves import DEAL, DEAL_MOVE, Move, MoveText
from .position import Pile, Position


@dataclass(frozen=True)
class Refusal:
    """Why a move is illegal: the rule id, and the facts a message needs."""

    rule: str
    move: str
    params: dict[str, str] = field(default_factory=dict)


class IllegalMoveError(ValueError):
    """Raised by :func:`apply_move` for a refused move; carries the refusal."""

    def __init__(self, refusal: Refusal) -> None:
        self.refusal = refusal
        super().__init__(f"{refusal.move}: refused by {refusal.rule}")


# ----------------------------------------------------------------- locating


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


def _pile_exists(pos: Position, name: str) -> bool:
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


# --------------------------------------------------------------- refusals


def refusal(pos: Position, move: Move) -> Refusal | None:
    """None if `move` is legal in `pos`, else the rule that refuses it."""
    place = locate(pos, move.card) if move.card is not None else None
    return _refusal(pos, move, place)


def _refusal(pos: Position, move: Move, place: Place | None) -> Refusal | None:
    p = pos.profile

    def no(rule: str, **extra: str) -> Refusal:
        params = {"dest": move.dest, "base": rank_name(pos.base), **extra}
        if move.card is not None:
            params["card"] = card_name(move.card)
        return Refusal(rule, str(move), params)

    if move.dest == DEAL:
        return None if pos.stock else no("stock.no-redeal")
    assert move.card is not None
    card, dest = move.card, move.dest

    if dest != "f" and not _pile_exists(pos, dest):
        return no("deal.layout")
    if dest[0] == "r":
        return no("reserve.no-build")
    if dest[0] == "x":
        return no("stock.last-two")

    assert place is not None
    if place.kind == "s":
        return no("stock.deal")
    if place.kind == "f":
        complete = pos.foundations[place.index] == 13
        if dest == "f":
            if complete:
                return no("foundation.full")
            # Where cards may come back, that rule says where they may go (only to a
            # column); foundation.final is not a rule of such a profile.
            return no("foundation.return" if p.foundation_return else "foundation.final")
        if not p.foundation_return:
            return no("foundation.final")
        # The top card may come back even from a complete foundation (a K into an empty column).
        if place.depth != pos.foundations[place.index] - 1:
            return no("foundation.return")
    elif place.kind == "r":
        if place.depth != len(pos.reserve[place.index]) - 1:
            return no("reserve.top")
    elif place.kind == "t":
        column = pos.tableau[place.index]
        is_top = place.depth == len(column) - 1
        if dest == "f":
            # A top card goes home even when it lies on a run: whole-run profiles restrict
            # only moves between columns.
            if not is_top:
                return no("tableau.run")
        else:
            if dest == f"t{place.index + 1}":
                return no("tableau.run", same_column="yes")
            if not is_run(column, place.depth, p.tableau_wrap):
                return no("tableau.run")
            if p.whole_runs_only and place.depth != run_start(column, p.tableau_wrap):
                return no("tableau.whole-run")

    if dest == "f":
        if place.kind == "r" and not p.reserve_to_foundation:
            return no("reserve.to-tableau-only")
        if place.kind == "x" and not p.exposed_to_foundation:
            return no("foundation.from-tableau-only")
        suit = suit_of(card)
        want = next_foundation_rank(pos, suit)
        if want is None:
            return no("foundation.full")
        if pos.foundations[suit] == 0 and rank_of(card) != pos.base:
            return no("foundation.start")
        if rank_of(card) != want:
            # `next` names the very card the pile wants, so the message can show it (6♥).
            return no("foundation.suit", want=rank_name(want), next=card_name(make_card(want, suit)))
        return None

    target = pos.tableau[int(dest[1:]) - 1]
    if not target:
        want = p.empty_rank(pos.base)
        if rank_of(card) != want:
            return no("tableau.empty", want=rank_name(want))
        return None
    top = target[-1]
    if builds_on(card, top, p.tableau_wrap):
        return None
    if not p.tableau_wrap and builds_on(card, top, True):
        return no("tableau.wrap", target=card_name(top))
    return no("tableau.build", target=card_name(top))


def is_legal(pos: Position, move: Move) -> bool:
    return refusal(pos, move) is None


# -------------------------------------------------------------- generation


def _movable_cards(pos: Position) -> list[tuple[Card, Place]]:
    """Every card that might move, with where it lies (tops, run tails, foundation tops)."""
    p = pos.profile
    out: list[tuple[Card, Place]] = []
    for i, column in enumerate(pos.tableau):
        if column:
            for depth in range(run_start(column, p.tableau_wrap), len(column)):
                out.append((column[depth], Place("t", i, depth)))
    for kind, piles in (("r", pos.reserve), ("x", pos.exposed)):
        for i, pile in enumerate(piles):
            if pile:
                out.append((pile[-1], Place(kind, i, len(pile) - 1)))
    if p.foundation_return:
        for suit in range(4):
            top = pos.foundation_top(suit)
            if top is not None:
                out.append((top, Place("f", suit, pos.foundations[suit] - 1)))
    return out


_COLUMN_NAMES = tuple(f"t{i + 1}" for i in range(99))


def legal_moves(pos: Position) -> list[Move]:
    """Every legal move, in a stable order (sources, then destinations, deal last).

    The order is that of :func:`_movable_cards` (columns bottom to top, reserve
    piles, exposed cells, foundation tops), each card's destinations in the
    order f, t1..t7.  This is a direct generator: it decides exactly as
    :func:`refusal` does (the property tests compare the two on random play),
    without building a refusal for every move that fails.
    """
    p = pos.profile
    wrap = p.tableau_wrap
    table = _BUILDS[wrap]
    base = pos.base
    found = pos.foundations
    empty_want = p.empty_rank(base)
    tops = [column[-1] if column else -1 for column in pos.tableau]
    names = _COLUMN_NAMES
    moves: list[Move] = []

    def home(card: int) -> bool:
        n = found[card // 13]
        return n < 13 and card % 13 == (base - 1 + n) % 13

    def onto_columns(card: int, skip: int) -> None:
        rank = card % 13 + 1
        for j, top in enumerate(tops):
            if j != skip and (table[card * 52 + top] if top >= 0 else rank == empty_want):
                moves.append(Move(Card(card), names[j]))

    for i, column in enumerate(pos.tableau):
        if not column:
            continue
        last = len(column) - 1
        start = run_start(column, wrap)
        for depth in range(start, last + 1):
            card = column[depth]
            if depth == last and home(card):
                moves.append(Move(card, "f"))
            # In whole-run profiles only the lead of the top run goes to another column.
            if depth == start or not p.whole_runs_only:
                onto_columns(card, i)
    for piles, to_f in ((pos.reserve, p.reserve_to_foundation), (pos.exposed, p.exposed_to_foundation)):
        for pile in piles:
            if pile:
                card = pile[-1]
                if to_f and home(card):
                    moves.append(Move(card, "f"))
                onto_columns(card, -1)
    if p.foundation_return:
        for suit in range(4):
            top = pos.foundation_top(suit)
            if top is not None:
                onto_columns(top, -1)
    if pos.stock:
        moves.append(DEAL_MOVE)
    return moves


def legal_moves_by_refusal(pos: Position) -> list[Move]:
    """The definition :func:`legal_moves` implements: every candidate that :func:`refusal` passes."""
    dests = ["f"] + [f"t{i + 1}" for i in range(pos.profile.columns)]
    moves = [
        m
        for card, place in _movable_cards(pos)
        for m in (Move(card, d) for d in dests)
        if _refusal(pos, m, place) is None
    ]
    if pos.stock:
        moves.append(DEAL_MOVE)
    return moves


# ---------------------------------------------------------------- applying


def apply_move(pos: Position, move: Move) -> Position:
    """The position after a legal move; IllegalMoveError naming the rule otherwise."""
    why = refusal(pos, move)
    if why is not None:
        raise IllegalMoveError(why)
    return apply_unchecked(pos, move)


def apply_unchecked(pos: Position, move: Move) -> Position:
    """Apply a move known to be legal (no checks; garbage in, garbage out)."""
    if move.dest == DEAL:
        deal = pos.profile.stock_deals[pos.deals_done]
        reserve = [list(p) for p in pos.reserve]
        exposed = [list(p) for p in pos.exposed]
        for card, pile in zip(pos.stock, deal, strict=False):  # the stock may outlast a deal
            (reserve if pile[0] == "r" else exposed)[int(pile[1:]) - 1].append(card)
        return replace(
            pos,
            reserve=tuple(tuple(p) for p in reserve),
            exposed=tuple(tuple(p) for p in exposed),
            stock=pos.stock[len(deal):],
        )
    assert move.card is not None
    place = locate(pos, move.card)
    tableau = list(pos.tableau)
    foundations = list(pos.foundations)
    moving: Pile
    if place.kind == "t":
        column = tableau[place.index]
        moving = column[place.depth:]
        tableau[place.index] = column[: place.depth]
    elif place.kind == "f":
        moving = (move.card,)
        foundations[place.index] -= 1
    else:
        piles = list(pos.reserve if place.kind == "r" else pos.exposed)
        moving = (move.card,)
        piles[place.index] = piles[place.index][:-1]
        pos = replace(pos, reserve=tuple(piles)) if place.kind == "r" else replace(pos, exposed=tuple(piles))
    if move.dest == "f":
        foundations[suit_of(move.card)] += 1
    else:
        i = int(move.dest[1:]) - 1
        tableau[i] = tableau[i] + moving
    return replace(
        pos,
        tableau=tuple(tableau),
        foundations=(foundations[0], foundations[1], foundations[2], foundations[3]),
    )


# ---------------------------------------------------------- reading input


def resolve(pos: Position, text: MoveText) -> Move | Refusal | str:
    """Turn parsed move text into a Move for this position.

    ``CARD>DEST`` always resolves.  ``SRC>DEST`` names a pile: its top card, or
    for a column onto a column the one tail that can legally go there.  Returns
    a Refusal when the source pile is empty, and a string (what is ambiguous)
    when a column holds several tails that could go.
    """
    if text.is_deal:
        return DEAL_MOVE
    if text.card is not None:
        return Move(text.card, text.dest)
    assert text.source is not None
    source = text.source
    if not _pile_exists(pos, source):
        return Refusal("deal.layout", text.text, {"dest": source})
    pile = pos.pile(source)
    if not pile:
        rule = {"t": "tableau.run", "r": "reserve.top", "x": "stock.last-two"}[source[0]]
        # Which rule an empty source breaks is the one about taking cards from that kind of
        # pile; "card" names the pile so a message that shows a card still reads sensibly.
        return Refusal(rule, text.text, {"empty": source, "card": source, "dest": text.dest,
                                          "base": rank_name(pos.base)})
    if source[0] != "t" or text.dest[0] != "t":
        return Move(pile[-1], text.dest)
    leads = [Move(pile[i], text.dest) for i in range(len(pile))]
    legal = [m for m in leads if refusal(pos, m) is None]
    if len(legal) == 1:
        return legal[0]
    if not legal:
        # Nothing can go: report the longest run that could move (its lead card), so
        # the refusal is about that run, not about a card inside it (tableau.whole-run).
        return Move(pile[run_start(pile, pos.profile.tableau_wrap)], text.dest)
    return f"{text.text} is ambiguous: " + " or ".join(str(m) for m in legal)
