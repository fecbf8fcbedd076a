"""The rules engine: legal moves, refusals by rule id, applying moves.

Pure functions over immutable :class:`Position` values.  Every rule decision
the project makes is made here; the solver's fast state is checked against it.
Profiles are read only through their parameters.
"""

from __future__ import annotations

from dataclasses import replace

from .board import (
    DEAL,
    HOME,
    Place,
    builds_on,
    clears_home,
    generate_moves,
    is_run,
    locate,
    move_tables,
    next_foundation_rank,
    pile_exists,
    run_start,
    top_run_start,
)
from .cards import Card, suit_of
from .moves import DEAL_MOVE, AmbiguousMoveError, Move, MoveText
from .piles import COLUMNS, FOUNDATION, PileKind
from .position import Cards, Position
from .predicates import IllegalMoveError, Refusal, empty_source_refusal, first_refusal
from .registry import RuleId

# Enum members are slow to look up on the class; apply_unchecked asks these on every move.
_COLUMN, _RESERVE, _FOUNDATION = PileKind.COLUMN, PileKind.RESERVE, PileKind.FOUNDATION

__all__ = [
    "AmbiguousMoveError",
    "IllegalMoveError",
    "Place",
    "Refusal",
    "apply_move",
    "apply_unchecked",
    "finishes_home",
    "home_run",
    "builds_on",
    "is_legal",
    "is_run",
    "judge",
    "legal_moves",
    "legal_moves_by_refusal",
    "locate",
    "next_foundation_rank",
    "refusal",
    "resolve",
    "run_start",
]


# --------------------------------------------------------------- refusals


def refusal(pos: Position, move: Move) -> Refusal | None:
    """None if `move` is legal in `pos`, else the first rule (in the registry's order) that refuses it."""
    return first_refusal(pos, move)


def is_legal(pos: Position, move: Move) -> bool:
    return refusal(pos, move) is None


# -------------------------------------------------------------- generation


def _movable_cards(pos: Position) -> list[tuple[Card, Place]]:
    """Every card that might move, with where it lies (tops, run tails, foundation tops)."""
    p = pos.profile
    out: list[tuple[Card, Place]] = []
    for i, column in enumerate(pos.tableau):
        if column:
            for depth in range(top_run_start(pos, column), len(column)):
                out.append((column[depth], Place(PileKind.COLUMN, i, depth)))
    for kind, piles in ((PileKind.RESERVE, pos.reserve), (PileKind.EXPOSED, pos.exposed)):
        for i, pile in enumerate(piles):
            if pile:
                out.append((pile[-1], Place(kind, i, len(pile) - 1)))
    if p.foundation_return:
        for suit in range(4):
            top = pos.foundation_top(suit)
            if top is not None:
                out.append((top, Place(PileKind.FOUNDATION, suit, pos.foundations[suit] - 1)))
    return out


def legal_moves(pos: Position) -> list[Move]:
    """Every legal move, in a stable order (sources, then destinations, deal last).

    The order is that of :func:`_movable_cards` (columns bottom to top, reserve
    piles, exposed cells, foundation tops), each card's destinations in the
    order f, t1..t7.  The moves come from the one move generator
    (:func:`board.generate_moves`, which the solver's fast state runs too); it
    decides exactly as :func:`refusal` does (the property tests compare the two
    on random play), without building a refusal for every move that fails.
    """
    found = generate_moves(move_tables(pos.profile, pos.base), pos.tableau, (*pos.reserve, *pos.exposed),
                           pos.foundations, bool(pos.stock))
    # Sorted by (kind, source, depth, destination), with home (-1) before the columns: the order above.
    found.sort()
    columns = COLUMNS
    return [DEAL_MOVE if m[0] == DEAL else Move(Card(m[4]), FOUNDATION if m[3] == HOME else columns[m[3]])
            for m in found]


def legal_moves_by_refusal(pos: Position) -> list[Move]:
    """The definition :func:`legal_moves` implements: every candidate that :func:`refusal` passes."""
    dests = [FOUNDATION, *COLUMNS[:pos.profile.columns]]
    moves = [
        m
        for card, place in _movable_cards(pos)
        for m in (Move(card, d) for d in dests)
        if first_refusal(pos, m) is None
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
    if move.is_deal:
        deal = pos.profile.stock_deals[pos.deals_done]
        groups = {kind: [list(p) for p in pos.piles_of(kind)]
                  for kind in (PileKind.COLUMN, PileKind.RESERVE, PileKind.EXPOSED)}
        for card, pile in zip(pos.stock, deal, strict=False):  # the stock may outlast a deal
            groups[pile.kind][pile.offset].append(card)
        return replace(
            pos,
            tableau=tuple(tuple(p) for p in groups[PileKind.COLUMN]),
            reserve=tuple(tuple(p) for p in groups[PileKind.RESERVE]),
            exposed=tuple(tuple(p) for p in groups[PileKind.EXPOSED]),
            stock=pos.stock[len(deal):],
        )
    assert move.card is not None
    place = locate(pos, move.card)
    tableau = list(pos.tableau)
    foundations = list(pos.foundations)
    reserve, exposed = pos.reserve, pos.exposed
    moving: Cards
    if place.kind is _COLUMN:
        column = tableau[place.index]
        moving = column[place.depth:]
        tableau[place.index] = column[: place.depth]
    elif place.kind is _FOUNDATION:
        moving = (move.card,)
        foundations[place.index] -= 1
    else:
        piles = list(reserve if place.kind is _RESERVE else exposed)
        moving = (move.card,)
        piles[place.index] = piles[place.index][:-1]
        if place.kind is _RESERVE:
            reserve = tuple(piles)
        else:
            exposed = tuple(piles)
    if move.dest.is_foundation:
        foundations[suit_of(move.card)] += 1
    else:
        i = move.dest.offset
        tableau[i] = tableau[i] + moving
    # Built directly rather than by dataclasses.replace, which costs several times more: the
    # searches of the tagger apply hundreds of thousands of moves.
    return Position(pos.profile, pos.base, (foundations[0], foundations[1], foundations[2], foundations[3]),
                    tuple(tableau), reserve, exposed, pos.stock)


# ---------------------------------------------------------- reading input


def resolve(pos: Position, text: MoveText) -> Move:
    """Turn parsed move text into a Move for this position (the move may still be refused).

    ``CARD>DEST`` always resolves.  ``SRC>DEST`` names a pile: its top card, or
    for a column onto a column the one tail that can legally go there.  Raises
    :class:`IllegalMoveError` when the source pile is empty or missing, and
    :class:`AmbiguousMoveError` (with the candidates) when a column holds
    several tails that could go.
    """
    if text.is_deal:
        return DEAL_MOVE
    if text.card is not None:
        return Move(text.card, text.dest)
    assert text.source is not None
    source = text.source
    if not pile_exists(pos, source):
        raise IllegalMoveError(Refusal(RuleId.DEAL_LAYOUT, text.text, {"dest": source}))
    pile = pos.pile(source)
    if not pile:
        raise IllegalMoveError(empty_source_refusal(pos, text.text, source, text.dest))
    if not (source.is_column and text.dest.is_column):
        return Move(pile[-1], text.dest)
    leads = [Move(pile[i], text.dest) for i in range(len(pile))]
    legal = [m for m in leads if refusal(pos, m) is None]
    if len(legal) == 1:
        return legal[0]
    if not legal:
        # Nothing can go: report the longest run that could move (its lead card), so
        # the refusal is about that run, not about a card inside it (tableau.whole-run).
        return Move(pile[top_run_start(pos, pile)], text.dest)
    raise AmbiguousMoveError(text.text, legal)


def judge(pos: Position, text: MoveText) -> Refusal | None:
    """None if the text names a legal move of `pos`, else why not (AmbiguousMoveError stays raised)."""
    try:
        move = resolve(pos, text)
    except IllegalMoveError as exc:
        return exc.refusal
    return refusal(pos, move)


# ------------------------------------------------------ the rest goes home


def home_run(pos: Position) -> tuple[Position, tuple[Move, ...]]:
    """Play moves to the foundations, any that is legal, until none is left.

    This is "the rest goes home by itself" of a worksheet's answer and of the
    classroom's verdict. A foundation move only ever frees cards, so the order
    chosen does not change where this ends: a line "wins as the sheet counts
    it" exactly when ``home_run`` of its end position is won.

    >>> from agnes_teach.deal import deal
    >>> start = deal(1)
    >>> end, moves = home_run(start)
    >>> end.is_won(), all(m.dest.is_foundation for m in moves)
    (False, True)
    """
    played: list[Move] = []
    progress = True
    while progress and not pos.is_won():
        progress = False
        for move in legal_moves(pos):
            if move.dest.is_foundation:
                pos = apply_unchecked(pos, move)
                played.append(move)
                progress = True
                break
    return pos, tuple(played)


def finishes_home(pos: Position) -> bool:
    """Whether foundation moves alone, from here, bring every card home.

    The same answer as ``home_run(pos)[0].is_won()`` (the property tests compare them), without
    building a position per move: the shortest-answer search asks it of every state it reaches.
    """
    if pos.stock:
        return False  # home_run never deals, so a card in the stock never goes home
    return clears_home(move_tables(pos.profile, pos.base), pos.tableau, (*pos.reserve, *pos.exposed),
                       pos.foundations)
