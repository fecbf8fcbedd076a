"""Distractors: the tempting wrong move a puzzle offers beside its lesson.

Each is refused by the theme's rule (so the answer key can name it) or, with
no rule, is a legal first move the solver proves losing.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import Card, is_red, rank_of, suit_of
from ..engine import builds_on, is_run, locate, refusal
from ..moves import DEAL_MOVE, Move
from ..piles import FOUNDATION, Pile, PileKind
from ..position import Position
from ..registry import RuleId
from .detectors import available

Moves = tuple[Move, ...]


@dataclass(frozen=True)
class Distractor:
    """The tempting wrong move: refused by `rule`, or (rule None) legal and proved losing."""

    move: Move
    rule: str | None



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
    covers = move.dest.is_column and bool(pos.pile(move.dest)) and pos.pile(move.dest)[-1] == key
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
        if key_card is not None and move.card is not None and move.dest.is_column \
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
    empties = [Pile.column(i + 1) for i, c in enumerate(pos.tableau) if not c]
    want = pos.profile.empty_rank(pos.base)
    tempting = [c for c in _movable(pos) if rank_of(c) in (13, pos.base) and rank_of(c) != want]
    tempting.sort(key=lambda c: (rank_of(c) != 13, c))
    return _first_refused(pos, [Move(c, d) for c in tempting for d in empties], RuleId.TABLEAU_EMPTY)


def distract_foundation_start(pos: Position, line: tuple[Move, ...],
                              losing: tuple[Move, ...]) -> Distractor | None:
    """Another card of the empty foundation's suit (an Ace first, the Klondike habit)."""
    empty_suits = [s for s in range(4) if pos.foundations[s] == 0]
    cards = [c for c in available(pos) if suit_of(c) in empty_suits and rank_of(c) != pos.base]
    cards.sort(key=lambda c: (rank_of(c) != 1, c))
    return _first_refused(pos, [Move(c, FOUNDATION) for c in cards], RuleId.FOUNDATION_START)


def distract_reserve_top(pos: Position, line: Moves, losing: Moves) -> Distractor | None:
    """The covered reserve card played before its cover: first the one the line frees."""
    covered: list[Card] = []
    for pile in pos.reserve:
        covered.extend(pile[:-1])
    line_cards = [m.card for m in line if m.card is not None]
    covered.sort(key=lambda c: (line_cards.index(c) if c in line_cards else 99, c))
    moves = [Move(c, FOUNDATION) for c in covered]
    moves += [Move(c, Pile.column(i + 1)) for c in covered for i, col in enumerate(pos.tableau)
              if col and builds_on(c, col[-1], pos.profile.tableau_wrap)]
    moves.sort(key=lambda m: (covered.index(m.card) if m.card is not None else 99, not m.dest.is_foundation))
    return _first_refused(pos, moves, RuleId.RESERVE_TOP)


def distract_stock_last_two(pos: Position, line: tuple[Move, ...],
                            losing: tuple[Move, ...]) -> Distractor | None:
    """A card laid on an exposed card as if it were a column (it builds on it by rank and colour)."""
    moves = []
    for i, cell in enumerate(pos.exposed):
        if cell:
            for card in _movable(pos):
                if builds_on(card, cell[-1], pos.profile.tableau_wrap):
                    moves.append(Move(card, Pile.exposed(i + 1)))
    return _first_refused(pos, sorted(moves), RuleId.STOCK_LAST_TWO)


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
                move = Move(lead, Pile.column(j + 1))
                fit = (builds_on(lead, target[-1], wrap) if target
                       else rank_of(lead) == pos.profile.empty_rank(pos.base))
                (fits if fit else others).append(move)
    # A group that would fit by rank and colour tempts most; next, the whole pile under the
    # run the line moves, sent where the run goes.
    found = _first_refused(pos, sorted(fits), RuleId.TABLEAU_RUN)
    if found is None and line and line[0].card is not None and line[0].dest.is_column:
        place = locate(pos, line[0].card)
        if place.kind is PileKind.COLUMN and place.depth > 0:
            column = pos.tableau[place.index]
            found = _first_refused(pos, [Move(column[place.depth - 1], line[0].dest)], RuleId.TABLEAU_RUN)
    return found


def _movable(pos: Position) -> list[Card]:
    """Available cards and the lead cards of valid runs."""
    wrap = pos.profile.tableau_wrap
    out = set(available(pos))
    for column in pos.tableau:
        for depth in range(len(column)):
            if is_run(column, depth, wrap):
                out.add(column[depth])
    return sorted(out)


def distract_losing(pos: Position, line: Moves, losing: Moves) -> Distractor | None:
    return _losing_tempting(pos, line, losing)


def distract_deal(pos: Position, line: Moves, losing: Moves) -> Distractor | None:
    return Distractor(DEAL_MOVE, None) if DEAL_MOVE in losing else None
