"""tableau.empty: an empty column takes only the rank below the base (or the profile's rank)."""

from __future__ import annotations

import random

from ..cards import Card, make_card, rank_of, suit_of
from ..generator.build import Draft
from ..generator.builders.layout import merge, pick_base, pick_piles, stack, stock_size, suit_counts
from ..moves import Move
from ..piles import Pile
from ..position import Position
from ..predicates import uses_tableau_empty
from ..profile import Profile
from ..registry import RuleId, Task
from ..solver.fast import Rules
from ..tagger.detectors import detects_move
from ..tagger.distractors import Distractor, Moves, first_refused, movable
from ..tagger.misconception import Misconception
from . import Lays, Lesson, Recipe, RuleFacts, Theme, every_profile

# ------------------------------------------------------------ the lesson


def non_king_into_empty(pos: Position, move: Move) -> bool:
    """A card other than a King (or a run led by one) goes into an empty column, as the rule lets it."""
    return uses_tableau_empty(pos, move) and move.card is not None and rank_of(move.card) != 13


def kings_only_into_empty(rules: Rules) -> bool:
    """The solver's tables with only Kings let into an empty column."""
    rules.is_empty_rank = [ok and rank_of(c) == 13 for c, ok in enumerate(rules.is_empty_rank)]
    return True


# ------------------------------------------------------------ the tempting move


def distract_tableau_empty(pos: Position, line: Moves, losing: Moves) -> Distractor | None:
    """A King (the Klondike habit) or a base-rank card into an empty column."""
    empties = [Pile.column(i + 1) for i, c in enumerate(pos.tableau) if not c]
    want = pos.profile.empty_rank(pos.base)
    tempting = [c for c in movable(pos) if rank_of(c) in (13, pos.base) and rank_of(c) != want]
    tempting.sort(key=lambda c: (rank_of(c) != 13, c))
    return first_refused(pos, [Move(c, d) for c in tempting for d in empties], RuleId.TABLEAU_EMPTY)


# ------------------------------------------------------------ the built layout


def build_tableau_empty(rng: random.Random, profile: Profile, task: str, size: int) -> Draft | None:
    """A card of the rank below the base blocks the card the order needs first; it may go into
    the one empty column, a King (the Klondike habit) may not, another card of its rank may
    but then blocks the column."""
    base = pick_base(profile, rng, 2, 4 + 2 * size)
    want = profile.empty_rank(base)
    if want == 13:
        return None
    suits = [rng.randrange(4) for _ in range(3)]
    filler, decoy, king = make_card(want, suits[0]), make_card(want, suits[1]), make_card(13, suits[2])
    with_decoy = decoy != filler and (task != Task.WIN or rng.random() < 0.7)
    cards = [filler, king] + ([decoy] if with_decoy else [])
    extra = rng.randint(1 + size, 2 + 3 * size) + (0 if task == Task.WIN else 4)
    draft = Draft(profile, base, suit_counts(rng, base, cards, extra, cap=6), stock_size(profile))
    order = merge(rng, draft, [])
    if order is None:
        return None
    first = order[0]
    if first in cards:
        return None
    order.remove(filler)
    empty = rng.choice([Pile.column(i + 1) for i in range(profile.columns)])
    piles = pick_piles(draft, rng, 2 + size, rng.randint(1, 2), {empty}, task)
    if len(piles) < 3:
        return None
    goes_home = [draft.out_cards(suit_of(c))[0] for c in (king, decoy) if c == king or with_decoy]
    if king in goes_home or decoy in goes_home:
        return None  # a King or a decoy that simply goes home tempts no one
    one_empty = task != Task.WIN or rng.random() < 0.5
    # The choice: the first card needed lies alone under the blocker in a column, and the
    # decoy blocks the next card of the same suit.  Decoy first and the first card stays
    # buried; blocker first and the first card goes home, its column empties, and the decoy
    # gets a column of its own.
    choice = one_empty and with_decoy and rng.random() < (0.5 if task == Task.WIN else 1.0)
    if choice and not _column_first(piles):
        return None
    pins = {first: piles[0], king: piles[1]}
    tops = {first, king}
    if with_decoy:
        order.remove(decoy)
        second = _blocked_by_decoy(draft, order, cards, first, choice)
        if second is None:
            return None
        pins[second] = piles[2]
        tops.add(second)
    if one_empty:
        bottoms = _fill_other_columns(profile, order, piles, empty, want, pins)
        if bottoms is None:
            return None
        pins.update(bottoms)
        if task == Task.KEY_MOVE:
            tops.update(bottoms)  # alone in their columns: no side moves from them
        piles = piles + list(bottoms.values())
    # Under a choice, the first card's column holds nothing else.
    if not stack(draft, rng, order, piles[1:] if choice else piles, pins, tops):
        return None
    if not _lay_blockers(draft, piles, filler, decoy, with_decoy):
        return None
    if one_empty and sum(not c for c in draft.tableau) != 1:
        return None
    return draft


def _column_first(piles: list[Pile]) -> bool:
    """Move the first column among `piles` to the front (the first card needed lies there alone);
    False when there is no column."""
    columns = [p for p in piles if p.is_column]
    if not columns:
        return False
    piles.remove(columns[0])
    piles.insert(0, columns[0])
    return True


def _blocked_by_decoy(draft: Draft, order: list[Card], cards: list[Card], first: Card,
                      choice: bool) -> Card | None:
    """The early card the decoy blocks too, so that which of the two goes into the column
    matters: under a choice the next card of the first card's suit, else the next card played."""
    suit_cards = draft.out_cards(suit_of(first))
    if choice:
        return suit_cards[1] if len(suit_cards) > 1 and suit_cards[1] not in cards else None
    return next((c for c in order[1:] if c not in cards), None)


def _fill_other_columns(profile: Profile, order: list[Card], piles: list[Pile], empty: Pile, want: int,
                        pins: dict[Card, Pile]) -> dict[Card, Pile] | None:
    """One card at the bottom of every column besides the lesson's and the empty one: exactly one
    column stays empty (else the other card of the right rank could take another).  The last cards
    played lie there; None when too few are left."""
    others = [Pile.column(i + 1) for i in range(profile.columns)
              if Pile.column(i + 1) not in piles and Pile.column(i + 1) != empty]
    latest = [c for c in reversed(order) if c not in pins and rank_of(c) != want][: len(others)]
    if len(latest) < len(others):
        return None
    return dict(zip(latest, others, strict=True))


def _lay_blockers(draft: Draft, piles: list[Pile], filler: Card, decoy: Card, with_decoy: bool) -> bool:
    """The blocker on the first card's pile, the decoy (with one) on the third pile; False when one
    does not fit."""
    for card, pile in ((filler, piles[0]), (decoy, piles[2])):
        if card == filler or with_decoy:
            if not draft.can_put(pile, card):
                return False
            draft.put(pile, card)
    return True


# ------------------------------------------------------------ why the believer loses


def explain(here: Position, wrong: Move, lesson: Lesson | None) -> RuleFacts | None:
    """Which rank may fill an empty column, and the card the answer puts there."""
    if lesson is None or lesson.move.card is None:
        return None
    pos = lesson.position
    return RuleFacts(RuleId.TABLEAU_EMPTY, cards=(("card", lesson.move.card),),
                     ranks=(("rank", pos.profile.empty_rank(pos.base)), ("base", pos.base)),
                     words=(("pile", lesson.move.dest),))


THEME = Theme(
    rule=RuleId.TABLEAU_EMPTY,
    # agnes-ru: only a King goes into a space there, which this belief allows; its own module
    # (tableau_empty_ru) teaches it with a Bernauer player's misconception.
    profiles=every_profile("agnes-ru"),
    tasks=(Task.TRAP, Task.WIN),
    lesson_move=non_king_into_empty,
    detect=detects_move(non_king_into_empty),
    believer=Misconception("empty columns are for Kings", "forbid", non_king_into_empty,
                           restriction=kings_only_into_empty),
    tempting=distract_tableau_empty,
    recipe=Recipe(empty_column=0.5),
    build=build_tableau_empty,
    explain=explain,
    how="an empty column; a card of the rank below the base blocks the first card needed and may "
        "go there; a King (refused there) and often another card of that rank lie on top",
    required=True,
    build_lays=(Lays.ALTERNATE_RUNS, Lays.RESERVE_PILES),
)
