"""foundation.suit: a foundation takes the next rank of its own suit, and of no other.

The misconception: a foundation takes the next rank in its colour. A beginner has just learnt that
in the columns only the colour counts (a red 7 goes on any black 8) and carries that over to the
foundations, where the suit counts: the 7♦ goes on the 6♥ because both are red. It forbids nothing
a player may do; it adds moves the rule refuses, so the believer is a *planner* (``Misconception``
of kind ``add``): it plans the quickest win counting on sending a card home on the foundation of
the other suit of its colour, makes the legal moves that plan starts with, and is caught out only
where the plan needs the refused move, with the game already lost.

How the believer imagines such a move is exact: for it the two cards of one rank and colour are
one and the same card, so after the 7♦ goes onto the 6♥ it sees the ♥ foundation one card longer
and the 7♥, wherever it lies, as the card its own ♦ foundation still waits for. In a game that
builds in alternate colours the two cards fit the same column tops, so nothing else changes.
"""

from __future__ import annotations

from dataclasses import replace

from ..board import next_foundation_rank
from ..cards import Card, make_card, rank_of, suit_of
from ..engine import locate
from ..moves import Move
from ..piles import PileKind
from ..position import Position
from ..predicates import first_refusal, rule_used
from ..profile import TableauBuild, get_profile
from ..registry import RuleId, Task
from ..tagger.detectors import detects_move
from ..tagger.distractors import Distractor, Moves, plan_distractor
from ..tagger.misconception import Misconception
from . import Lesson, Recipe, RuleFacts, Theme, every_profile

# ------------------------------------------------------------ the misconception


def twin_suit(suit: int) -> int:
    """The other suit of the same colour (♠ and ♣, ♥ and ♦)."""
    return 3 - suit


def _refused_by_the_rule(pos: Position, move: Move) -> bool:
    """The rules refuse `move`, first by this theme's rule (so the key can cite it)."""
    why = first_refusal(pos, move)
    return why is not None and why.rule == RuleId.FOUNDATION_SUIT


def homes_by_colour(pos: Position, move: Move) -> bool:
    """A card goes home where the foundation of the other suit of its colour takes its rank next
    (the 7♦ onto the 6♥) while its own does not: what the believer takes for legal and the rule
    refuses."""
    if move.card is None or not move.dest.is_foundation:
        return False
    twin = twin_suit(suit_of(move.card))
    if not 0 < pos.foundations[twin] < 13 or next_foundation_rank(pos, twin) != rank_of(move.card):
        return False
    return _refused_by_the_rule(pos, move)


def imagine_home(pos: Position, move: Move) -> Position:
    """The position the believer sees after sending `move`'s card home on its twin suit's
    foundation: that foundation one card longer, the card gone from its pile, and the twin card of
    that rank (the one the foundation really takes) standing in for it wherever it lies."""
    card = move.card
    assert card is not None
    twin = make_card(rank_of(card), twin_suit(suit_of(card)))
    place = locate(pos, card)
    groups = {kind: [list(p) for p in pos.piles_of(kind)]
              for kind in (PileKind.COLUMN, PileKind.RESERVE, PileKind.EXPOSED)}
    groups[place.kind][place.index].pop()

    def swap(cards: list[Card] | tuple[Card, ...]) -> tuple[Card, ...]:
        return tuple(card if c == twin else c for c in cards)

    foundations = list(pos.foundations)
    foundations[suit_of(twin)] += 1
    return replace(pos, foundations=(foundations[0], foundations[1], foundations[2], foundations[3]),
                   tableau=tuple(swap(p) for p in groups[PileKind.COLUMN]),
                   reserve=tuple(swap(p) for p in groups[PileKind.RESERVE]),
                   exposed=tuple(swap(p) for p in groups[PileKind.EXPOSED]),
                   stock=swap(pos.stock))


COLOUR_HOMER = Misconception("a foundation takes the next rank of its colour: a 7♦ goes on the 6♥ as "
                             "well as on the 6♦", "add", homes_by_colour, imagine=imagine_home,
                             dest_kinds=frozenset({PileKind.FOUNDATION}))


# ------------------------------------------------------------ the lesson move


def goes_home_in_suit(pos: Position, move: Move) -> bool:
    """A card goes onto its own foundation as the next rank of its suit (neither opening the
    foundation nor turning the corner from King to Ace)."""
    return move.dest.is_foundation and move.card is not None and first_refusal(pos, move) is None \
        and rule_used(pos, move) == RuleId.FOUNDATION_SUIT


# ------------------------------------------------------------ the tempting move


def distract_foundation_suit(pos: Position, line: Moves, losing: Moves) -> Distractor | None:
    """The believer's losing first move (its plan sends a card home by colour later), else a card
    sent home by colour now, which the rule refuses."""
    return plan_distractor(pos, losing, COLOUR_HOMER, RuleId.FOUNDATION_SUIT)


# ------------------------------------------------------------ why the believer loses


def explain(here: Position, wrong: Move, lesson: Lesson | None) -> RuleFacts | None:
    """The card the believer's plan sends home by colour after the wrong move, the foundation top
    it cannot go on, and the card its own foundation waits for."""
    if lesson is None or lesson.move.card is None or not lesson.move.dest.is_foundation:
        return None
    card, pos = lesson.move.card, lesson.position
    suit = suit_of(card)
    top, want = pos.foundation_top(twin_suit(suit)), next_foundation_rank(pos, suit)
    if top is None or want is None:
        return None
    return RuleFacts(RuleId.FOUNDATION_SUIT,
                     cards=(("card", card), ("target", top), ("next", make_card(want, suit))))


def _alternate_profiles() -> tuple[str, ...]:
    """The Bernauer family: every shipped profile that builds in alternate colours (there the two
    cards of one rank and colour fit the same column tops, so the believer's game is exact), but
    the Russian game, whose own themes teach a Bernauer player at its table."""
    return tuple(p for p in every_profile("agnes-ru")
                 if get_profile(p).tableau_build == TableauBuild.ALTERNATE)


THEME = Theme(
    rule=RuleId.FOUNDATION_SUIT,
    profiles=_alternate_profiles(),
    tasks=(Task.WIN,),
    lesson_move=goes_home_in_suit,
    detect=detects_move(goes_home_in_suit),
    believer=COLOUR_HOMER,
    tempting=distract_foundation_suit,
    recipe=Recipe(most_cards=16, belief_adds=True, move_loses=True),
    build=None,
    explain=explain,
    how="a foundation takes only the next card of its own suit; a player who sends a card home on "
        "the other foundation of its colour counts on a move the rule refuses and spends the moves "
        "that would have freed the right card",
)
