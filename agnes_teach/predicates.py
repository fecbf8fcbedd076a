"""One small pure predicate per refusing rule: ``check_*(position, move, profile) -> Refusal | None``.

:data:`CHECKS` holds them in the order ``rules.yaml`` states (``checked``);
:func:`first_refusal` asks them in that order and returns the first refusal.
The engine's ``refusal``, the generator's "which rule did this move use", the
theme detectors and the checker all come here, so a rule is decided in one
place.  A predicate may assume that every rule checked before it let the move
pass (that is what the order is for); it reads the profile only through its
parameters.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from .board import (
    Place,
    build_table,
    fits,
    is_run_at,
    locate,
    move_tables,
    next_foundation_rank,
    pile_exists,
    top_run_start,
)
from .cards import Card, card_name, make_card, rank_name, rank_of, suit_of
from .errors import AgnesError
from .moves import Move
from .piles import COLUMNS, STOCK, Pile, PileKind
from .position import Position
from .profile import EmptyFill, Profile, RankCycle, RunLink, TableauBuild
from .registry import RuleId, check_order

# Enum members are slow to look up on the class; every predicate of every move asks these.
_COLUMN, _RESERVE, _EXPOSED, _FOUNDATION, _STOCK = (
    PileKind.COLUMN, PileKind.RESERVE, PileKind.EXPOSED, PileKind.FOUNDATION, PileKind.STOCK)


@dataclass(frozen=True)
class Refusal:
    """Why a move is illegal: the rule id, and the facts a message needs."""

    rule: RuleId
    move: str
    params: dict[str, str] = field(default_factory=dict)


class IllegalMoveError(AgnesError):
    """A move the rules refuse; ``refusal`` names the rule and the facts of the message."""

    def __init__(self, refusal: Refusal) -> None:
        self.refusal = refusal
        super().__init__(f"{refusal.move}: refused by {refusal.rule}")


Check = Callable[[Position, Move, Profile], "Refusal | None"]

# The last card located, kept with its position so the identity test is sound
# (the position cannot be freed and its id reused while it is held here).
_last: tuple[Position, int, Place] | None = None


def place_of(pos: Position, move: Move) -> Place:
    """Where the move's card lies (one lookup shared by every predicate of one move)."""
    global _last
    assert move.card is not None
    if _last is not None and _last[0] is pos and _last[1] == move.card:
        return _last[2]
    found = locate(pos, move.card)
    _last = (pos, move.card, found)
    return found


def refuse(pos: Position, move: Move, rule: RuleId, **extra: str) -> Refusal:
    params = {"dest": move.dest, "base": rank_name(pos.base), **extra}
    if move.card is not None:
        params["card"] = card_name(move.card)
    return Refusal(rule, str(move), params)


# The rule an empty source pile breaks: the one about taking cards from that kind of pile.
_EMPTY_SOURCE_RULE = {PileKind.COLUMN: RuleId.TABLEAU_RUN, PileKind.RESERVE: RuleId.RESERVE_TOP,
                      PileKind.EXPOSED: RuleId.STOCK_LAST_TWO}


def empty_source_refusal(pos: Position, text: str, source: Pile, dest: Pile) -> Refusal:
    """Why ``SRC>DEST`` text naming an empty column, reserve pile or exposed cell is refused.

    "card" names the pile, so a message that shows a card still reads sensibly.
    """
    return Refusal(_EMPTY_SOURCE_RULE[source.kind], text,
                   {"empty": source, "card": source, "dest": dest, "base": rank_name(pos.base)})


def _card_move(move: Move) -> bool:
    return move.card is not None and move.dest is not STOCK


def _onto_column(move: Move) -> bool:
    return _card_move(move) and move.dest.is_column


# --------------------------------------------------------------- the stock


def check_stock_no_redeal(pos: Position, move: Move, profile: Profile) -> Refusal | None:
    """The stock is dealt once: ``deal`` with nothing left in it."""
    return refuse(pos, move, RuleId.STOCK_NO_REDEAL) if move.is_deal and not pos.stock else None


def check_deal_layout(pos: Position, move: Move, profile: Profile) -> Refusal | None:
    """A pile the profile does not have."""
    if _card_move(move) and not move.dest.is_foundation and not pile_exists(pos, move.dest):
        return refuse(pos, move, RuleId.DEAL_LAYOUT)
    return None


def check_reserve_no_build(pos: Position, move: Move, profile: Profile) -> Refusal | None:
    """Nothing is placed on a reserve pile."""
    onto = _card_move(move) and move.dest.kind is _RESERVE
    return refuse(pos, move, RuleId.RESERVE_NO_BUILD) if onto else None


def check_stock_last_two(pos: Position, move: Move, profile: Profile) -> Refusal | None:
    """Nothing is placed on an exposed cell."""
    onto = _card_move(move) and move.dest.kind is _EXPOSED
    return refuse(pos, move, RuleId.STOCK_LAST_TWO) if onto else None


def check_stock_deal(pos: Position, move: Move, profile: Profile) -> Refusal | None:
    """A card still in the stock cannot be played."""
    if _card_move(move) and place_of(pos, move).kind is _STOCK:
        return refuse(pos, move, RuleId.STOCK_DEAL)
    return None


# ------------------------------------------------------ foundation sources


def check_foundation_full(pos: Position, move: Move, profile: Profile) -> Refusal | None:
    """A complete foundation takes nothing (not even its own card back)."""
    if move.card is not None and move.dest.is_foundation \
            and next_foundation_rank(pos, suit_of(move.card)) is None:
        return refuse(pos, move, RuleId.FOUNDATION_FULL)
    return None


def check_foundation_final(pos: Position, move: Move, profile: Profile) -> Refusal | None:
    """Where foundations are final, a foundation card never moves."""
    if _card_move(move) and not profile.foundation_return and place_of(pos, move).kind is _FOUNDATION:
        return refuse(pos, move, RuleId.FOUNDATION_FINAL)
    return None


def check_foundation_return(pos: Position, move: Move, profile: Profile) -> Refusal | None:
    """Where cards may come back, only a foundation's top card, and only to a column."""
    if not _card_move(move) or not profile.foundation_return:
        return None
    place = place_of(pos, move)
    if place.kind is not _FOUNDATION:
        return None
    # The top card may come back even from a complete foundation (a K into an empty column).
    if move.dest.is_foundation or place.depth != pos.foundations[place.index] - 1:
        return refuse(pos, move, RuleId.FOUNDATION_RETURN)
    return None


# ----------------------------------------------------- pile and run sources


def check_reserve_top(pos: Position, move: Move, profile: Profile) -> Refusal | None:
    """Only the top card of a reserve pile may be played."""
    if not _card_move(move):
        return None
    place = place_of(pos, move)
    if place.kind is _RESERVE and place.depth != len(pos.reserve[place.index]) - 1:
        return refuse(pos, move, RuleId.RESERVE_TOP)
    return None


def check_tableau_run(pos: Position, move: Move, profile: Profile) -> Refusal | None:
    """A column card moves with everything on it, which must be a run; only a top card goes home.

    Where runs are linked by suit, a tail that is no run is ``tableau.suit-run``'s to refuse."""
    if not _card_move(move):
        return None
    place = place_of(pos, move)
    if place.kind is not _COLUMN:
        return None
    column = pos.tableau[place.index]
    if move.dest.is_foundation:
        # A top card goes home even when it lies on a run: whole-run profiles restrict
        # only moves between columns.
        return refuse(pos, move, RuleId.TABLEAU_RUN) if place.depth != len(column) - 1 else None
    if move.dest is COLUMNS[place.index]:
        return refuse(pos, move, RuleId.TABLEAU_RUN, same_column="yes")
    if profile.run_link == RunLink.ALTERNATE and not is_run_at(pos, column, place.depth):
        return refuse(pos, move, RuleId.TABLEAU_RUN)
    return None


def check_tableau_suit_run(pos: Position, move: Move, profile: Profile) -> Refusal | None:
    """Where runs are linked by suit, only a tail of one suit in sequence moves together."""
    if not _onto_column(move) or profile.run_link != RunLink.SAME_SUIT:
        return None
    place = place_of(pos, move)
    if place.kind is _COLUMN and not is_run_at(pos, pos.tableau[place.index], place.depth):
        return refuse(pos, move, RuleId.TABLEAU_SUIT_RUN)
    return None


def check_tableau_whole_run(pos: Position, move: Move, profile: Profile) -> Refusal | None:
    """Where runs move only whole, a part of the top run never goes to another column."""
    if not _onto_column(move) or not profile.whole_runs_only:
        return None
    place = place_of(pos, move)
    if place.kind is _COLUMN and place.depth != top_run_start(pos, pos.tableau[place.index]):
        return refuse(pos, move, RuleId.TABLEAU_WHOLE_RUN)
    return None


# ------------------------------------------------------ to the foundations


def check_reserve_to_tableau_only(pos: Position, move: Move, profile: Profile) -> Refusal | None:
    """Where reserve cards go only to the tableau."""
    if _card_move(move) and move.dest.is_foundation and not profile.reserve_to_foundation \
            and place_of(pos, move).kind is _RESERVE:
        return refuse(pos, move, RuleId.RESERVE_TO_TABLEAU_ONLY)
    return None


def check_foundation_from_tableau_only(pos: Position, move: Move, profile: Profile) -> Refusal | None:
    """Where foundations take only tableau cards, an exposed card goes to a column first."""
    if _card_move(move) and move.dest.is_foundation and not profile.exposed_to_foundation \
            and place_of(pos, move).kind is _EXPOSED:
        return refuse(pos, move, RuleId.FOUNDATION_FROM_TABLEAU_ONLY)
    return None


def check_foundation_start(pos: Position, move: Move, profile: Profile) -> Refusal | None:
    """An empty foundation takes only the base rank."""
    if _card_move(move) and move.dest.is_foundation:
        assert move.card is not None
        if pos.foundations[suit_of(move.card)] == 0 and rank_of(move.card) != pos.base:
            return refuse(pos, move, RuleId.FOUNDATION_START)
    return None


def check_foundation_suit(pos: Position, move: Move, profile: Profile) -> Refusal | None:
    """A foundation takes the next rank of its suit."""
    if not _card_move(move) or not move.dest.is_foundation:
        return None
    assert move.card is not None
    suit = suit_of(move.card)
    want = next_foundation_rank(pos, suit)
    if want is not None and rank_of(move.card) != want:
        # `next` names the very card the pile wants, so the message can show it (6♥).
        return refuse(pos, move, RuleId.FOUNDATION_SUIT, want=rank_name(want),
                      next=card_name(make_card(want, suit)))
    return None


# ----------------------------------------------------------- to a column


def check_tableau_empty(pos: Position, move: Move, profile: Profile) -> Refusal | None:
    """An empty column takes what the profile's ``empty_column`` names: a rank, any card, any run,
    or nothing but a deal."""
    if not _onto_column(move) or pos.pile(move.dest):
        return None
    assert move.card is not None
    fill = profile.empty_fill
    if fill == EmptyFill.ANY_RUN:
        return None
    if fill == EmptyFill.DEAL_ONLY:
        return refuse(pos, move, RuleId.TABLEAU_EMPTY, msg="tableau.empty@deal-only")
    if fill == EmptyFill.ANY_CARD:
        place = place_of(pos, move)
        alone = place.kind is not _COLUMN or place.depth == len(pos.tableau[place.index]) - 1
        return None if alone else refuse(pos, move, RuleId.TABLEAU_EMPTY, msg="tableau.empty@any-card")
    want = profile.fill_rank(pos.base)
    assert want is not None
    if rank_of(move.card) != want:
        return refuse(pos, move, RuleId.TABLEAU_EMPTY, want=rank_name(want))
    return None


def check_tableau_wrap(pos: Position, move: Move, profile: Profile) -> Refusal | None:
    """Where tableau ranks stop at the Ace, a King never goes on an Ace."""
    if not _onto_column(move) or profile.rank_cycle != RankCycle.STOP_AT_ACE:
        return None
    target = pos.pile(move.dest)
    assert move.card is not None
    if target and rank_of(move.card) == 13 and rank_of(target[-1]) == 1 \
            and build_table(profile.tableau_build, RankCycle.WRAP, pos.base)[move.card * 52 + target[-1]]:
        return refuse(pos, move, RuleId.TABLEAU_WRAP, target=card_name(target[-1]))
    return None


def check_tableau_build(pos: Position, move: Move, profile: Profile) -> Refusal | None:
    """A column top takes the next lower rank in the other colour."""
    return _build_check(pos, move, profile, TableauBuild.ALTERNATE, RuleId.TABLEAU_BUILD)


def check_tableau_same_colour(pos: Position, move: Move, profile: Profile) -> Refusal | None:
    """A column top takes the next lower rank in the same colour (Agnes Sorel)."""
    return _build_check(pos, move, profile, TableauBuild.SAME_COLOUR, RuleId.TABLEAU_SAME_COLOUR)


def _build_check(pos: Position, move: Move, profile: Profile, build: TableauBuild,
                 rule: RuleId) -> Refusal | None:
    if not _onto_column(move) or profile.tableau_build != build:
        return None
    target = pos.pile(move.dest)
    assert move.card is not None
    if target and not fits(pos, move.card, target[-1]):
        return refuse(pos, move, rule, target=card_name(target[-1]))
    return None


PREDICATES: dict[RuleId, Check] = {
    RuleId.STOCK_NO_REDEAL: check_stock_no_redeal,
    RuleId.DEAL_LAYOUT: check_deal_layout,
    RuleId.RESERVE_NO_BUILD: check_reserve_no_build,
    RuleId.STOCK_LAST_TWO: check_stock_last_two,
    RuleId.STOCK_DEAL: check_stock_deal,
    RuleId.FOUNDATION_FULL: check_foundation_full,
    RuleId.FOUNDATION_FINAL: check_foundation_final,
    RuleId.FOUNDATION_RETURN: check_foundation_return,
    RuleId.RESERVE_TOP: check_reserve_top,
    RuleId.TABLEAU_RUN: check_tableau_run,
    RuleId.TABLEAU_SUIT_RUN: check_tableau_suit_run,
    RuleId.TABLEAU_WHOLE_RUN: check_tableau_whole_run,
    RuleId.RESERVE_TO_TABLEAU_ONLY: check_reserve_to_tableau_only,
    RuleId.FOUNDATION_FROM_TABLEAU_ONLY: check_foundation_from_tableau_only,
    RuleId.FOUNDATION_START: check_foundation_start,
    RuleId.FOUNDATION_SUIT: check_foundation_suit,
    RuleId.TABLEAU_EMPTY: check_tableau_empty,
    RuleId.TABLEAU_WRAP: check_tableau_wrap,
    RuleId.TABLEAU_BUILD: check_tableau_build,
    RuleId.TABLEAU_SAME_COLOUR: check_tableau_same_colour,
}


def _ordered() -> tuple[tuple[RuleId, Check], ...]:
    order = check_order()
    if set(order) != set(PREDICATES):
        raise RuntimeError(f"refusing rules without a predicate: {sorted(set(order) - set(PREDICATES))}; "
                           f"predicates of no refusing rule: {sorted(set(PREDICATES) - set(order))}")
    return tuple((rule_id, PREDICATES[rule_id]) for rule_id in order)


CHECKS: tuple[tuple[RuleId, Check], ...] = _ordered()


# ------------------------------------------------- what a legal move uses
#
# The generator rates a line by the rules it needs, the theme detectors ask
# whether a line uses its theme's rule, the players recognise a misconception:
# all through these, which read the same parameters as the checks above.


def uses_foundation_wrap(pos: Position, move: Move) -> bool:
    """An Ace goes onto a King-topped foundation (the base is not an Ace)."""
    if not move.dest.is_foundation or move.card is None or rank_of(move.card) != 1 or pos.base == 1:
        return False
    top = pos.foundation_top(suit_of(move.card))
    return top is not None and rank_of(top) == 13


def uses_foundation_start(pos: Position, move: Move) -> bool:
    """A base-rank card opens an empty foundation."""
    return (move.dest.is_foundation and move.card is not None and pos.foundations[suit_of(move.card)] == 0
            and check_foundation_start(pos, move, pos.profile) is None)


def uses_tableau_empty(pos: Position, move: Move) -> bool:
    """A card (or a run led by it) that the empty-column rule lets in goes into an empty column."""
    if not _onto_column(move) or pos.pile(move.dest):
        return False
    return check_tableau_empty(pos, move, pos.profile) is None


def uses_tableau_wrap(pos: Position, move: Move) -> bool:
    """A King goes onto an Ace in the tableau, as the build rule allows, or a run in which a King
    lies on an Ace moves as one unit.

    Both need ranks to go round: without the wrap a King on an Ace is no run, so the pair could
    not move together (the rule decides the move, not only the deal that made the pair)."""
    if not _onto_column(move) or move.card is None:
        return False
    place = place_of(pos, move)
    moved = pos.tableau[place.index][place.depth:] if place.kind is _COLUMN else (move.card,)
    if any(rank_of(upper) == 13 and rank_of(lower) == 1
           for lower, upper in zip(moved, moved[1:], strict=False)):
        return True
    target = pos.pile(move.dest)
    return rank_of(move.card) == 13 and bool(target) and rank_of(target[-1]) == 1 \
        and fits(pos, move.card, target[-1])


def uses_tableau_run(pos: Position, move: Move) -> bool:
    """Two or more cards move together from one column to another."""
    if not _onto_column(move):
        return False
    place = place_of(pos, move)
    return place.kind is _COLUMN and place.depth < len(pos.tableau[place.index]) - 1


def uses_foundation_return(pos: Position, move: Move) -> bool:
    """A foundation's top card comes back to a column, as the profile lets it."""
    if not _onto_column(move) or not pos.profile.foundation_return:
        return False
    return place_of(pos, move).kind is _FOUNDATION


def uses_tableau_build(pos: Position, move: Move) -> bool:
    """A card (or a run led by it) goes onto a column top one rank higher of the other colour, as
    the alternate-colour build lets it (a King onto an Ace, the wrap's move, included)."""
    return _builds_on_column(pos, move, TableauBuild.ALTERNATE)


def _builds_on_column(pos: Position, move: Move, build: TableauBuild) -> bool:
    """A card (or a run led by it) is laid on a column top it fits, in a game that builds by `build`
    (a card into an empty column builds on nothing)."""
    if not _onto_column(move) or pos.profile.tableau_build != build:
        return False
    target = pos.pile(move.dest)
    assert move.card is not None
    return bool(target) and fits(pos, move.card, target[-1])


def uses_tableau_same_colour(pos: Position, move: Move) -> bool:
    """A card (or a run led by it) is laid on a column top one rank higher and of its own colour,
    as same-colour packing allows (Agnes Sorel); a card into an empty column builds on nothing."""
    return _builds_on_column(pos, move, TableauBuild.SAME_COLOUR)


def uses_tableau_suit_run(pos: Position, move: Move) -> bool:
    """A card (or the run of one suit it leads) leaves a column where it lay packed on a card of
    another suit: where only a run of one suit moves together, the two part, and each leaves the
    column on its own (Agnes Sorel)."""
    if not _card_move(move) or pos.profile.run_link != RunLink.SAME_SUIT:
        return False
    place = place_of(pos, move)
    if place.kind is not _COLUMN or place.depth == 0:
        return False
    assert move.card is not None
    below = pos.tableau[place.index][place.depth - 1]
    return suit_of(below) != suit_of(move.card) and fits(pos, move.card, below)


def uses_stock_last_two(pos: Position, move: Move) -> bool:
    """A card leaves an exposed cell (x1, x2)."""
    return _card_move(move) and place_of(pos, move).kind is _EXPOSED


# The cards that may go home in the last position asked about, kept with that position so the
# identity test is sound (the believer asks once per legal move of the same position).
_last_home: tuple[Position, tuple[Card, ...]] | None = None


def home_moves_on_offer(pos: Position) -> tuple[Card, ...]:
    """The cards that may go to their foundation now: column tops, and reserve and exposed tops
    where the profile lets them, each the next card its foundation takes (the move generator's
    own test, ``board.generate_moves``)."""
    global _last_home
    if _last_home is not None and _last_home[0] is pos:
        return _last_home[1]
    tables = move_tables(pos.profile, pos.base)
    rel, suit, found = tables.rel, tables.suit, pos.foundations
    cards = [col[-1] for col in pos.tableau if col and rel[col[-1]] == found[suit[col[-1]]]]
    for k, pile in enumerate((*pos.reserve, *pos.exposed)):
        if pile and tables.stack_home[k] and rel[pile[-1]] == found[suit[pile[-1]]]:
            cards.append(pile[-1])
    found_cards = tuple(Card(c) for c in cards)
    _last_home = (pos, found_cards)
    return found_cards


def uses_foundation_final(pos: Position, move: Move) -> bool:
    """A card that could go home is kept in play: any move but one home (a deal too) while a card
    can go to its foundation, where foundations are final.

    Only finality makes this a choice: a card sent home never comes back, so a card that another
    still needs to be laid on must stay out until that card no longer needs it."""
    if move.dest.is_foundation or pos.profile.foundation_return:
        return False
    return bool(home_moves_on_offer(pos))


def rule_used(pos: Position, move: Move) -> RuleId:
    """The rule a legal move applies (the generator counts how many rules a solution needs)."""
    if move.is_deal:
        deal = pos.profile.stock_deals[pos.deals_done]
        return RuleId.STOCK_LAST_TWO if any(t.kind is _EXPOSED for t in deal) else RuleId.STOCK_DEAL
    if uses_foundation_return(pos, move):
        return RuleId.FOUNDATION_RETURN  # before the column it lands in: the move back is the rule
    if move.dest.is_foundation:
        if uses_foundation_start(pos, move):
            return RuleId.FOUNDATION_START
        return RuleId.FOUNDATION_WRAP if uses_foundation_wrap(pos, move) else RuleId.FOUNDATION_SUIT
    if uses_tableau_empty(pos, move):
        return RuleId.TABLEAU_EMPTY
    profile = pos.profile
    if uses_tableau_run(pos, move):
        return RuleId.TABLEAU_SUIT_RUN if profile.run_link == RunLink.SAME_SUIT else RuleId.TABLEAU_RUN
    if uses_tableau_wrap(pos, move):
        return RuleId.TABLEAU_WRAP
    return RuleId.TABLEAU_SAME_COLOUR if profile.tableau_build == TableauBuild.SAME_COLOUR \
        else RuleId.TABLEAU_BUILD


def first_refusal(pos: Position, move: Move) -> Refusal | None:
    """The first rule, in the registry's order, that refuses `move` in `pos` (None: it is legal)."""
    profile = pos.profile
    for _, check in CHECKS:
        why = check(pos, move, profile)
        if why is not None:
            return why
    return None
