"""Worked examples of the guide, built for a profile and verified on the engine at build time.

Each example is a real position of the profile: the cards it features are
placed where the example needs them, every other card is either on its
foundation (the foundation holds a run from the base up to just before the
first featured card of its suit) or in named "filler" piles.  Every claim a
caption makes (this move is legal, that one is refused by this rule) is
checked with ``engine.apply_move`` and ``engine.refusal``; a claim that does
not hold stops the build.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from markupsafe import Markup

from .. import i18n
from ..cards import Card, card_name, make_card, rank_at, rank_index, rank_name, rank_of, suit_of
from ..engine import apply_move, refusal
from ..moves import DEAL_MOVE, Move
from ..piles import FOUNDATION, Pile, PileKind
from ..position import Position, parse_position
from ..profile import Profile
from ..registry import RuleId
from .svg import card_face, position_svg, position_text, rank_letter

SPADES, HEARTS, DIAMONDS, CLUBS = range(4)


class ExampleError(RuntimeError):
    """A worked example whose claim the engine does not confirm: a bug, never shipped."""


def example_base(profile: Profile) -> int:
    """The base rank the guide's examples and figures use: the profile's own, else 5."""
    return profile.base_rank or 5


def _index(base: int, card: Card) -> int:
    return rank_index(base, rank_of(card))


def build_position(profile: Profile, base: int, piles: dict[str, list[Card]],
                   fillers: list[tuple[str, int]], stock: Sequence[Card] = ()) -> Position:
    """A full, valid position: `piles` as given (bottom to top), every other card placed.

    A suit's foundation holds the run from the base up to just before its
    first featured card; the suit's later cards that are not featured go, in
    falling order, into the `fillers` piles (pile name, how many it takes),
    underneath whatever that pile features.  `stock` lists the cards still to
    be dealt, in dealing order.
    """
    featured = {card for pile in piles.values() for card in pile} | set(stock)
    counts: list[int] = []
    spare: list[Card] = []
    for suit in range(4):
        mine = [_index(base, c) for c in featured if suit_of(c) == suit]
        count = min(mine) if mine else 13
        counts.append(count)
        later = [make_card(rank_at(base, i), suit) for i in range(12, count - 1, -1)]
        spare += [c for c in later if c not in featured]
    layout = {name: list(cards) for name, cards in piles.items()}
    for name, room in fillers:
        take, spare = spare[:room], spare[room:]
        layout[name] = take + layout.get(name, [])
    if spare:
        raise ExampleError(f"{len(spare)} cards have no place in the example")

    def names(pile: str) -> list[str]:
        return [card_name(c) for c in layout.get(pile, [])]

    data = {
        "profile": profile.id,
        "base": rank_name(base),
        "foundations": {
            "SHDC"[s]: card_name(make_card(rank_at(base, counts[s] - 1), s)) for s in range(4) if counts[s]
        },
        "tableau": [names(Pile.column(i + 1)) for i in range(profile.columns)],
        "reserve": [names(Pile.reserve(i + 1)) for i in range(profile.reserve_piles)],
        "stock": [card_name(c) for c in stock],
        "exposed": [names(Pile.exposed(i + 1)) for i in range(profile.exposed_cells)],
    }
    return parse_position(data)


@dataclass(frozen=True)
class Step:
    """One diagram of an example, with its caption and the position as text."""

    diagram: Markup
    caption: str
    label: str = ""
    piles: tuple[str, ...] = ()


def _step(pos: Position, lang: str, move: Move | None, label: str, caption: str) -> Step:
    return Step(position_svg(pos, lang, move, label), caption, label, tuple(position_text(pos, lang)))


def _face(lang: str) -> Callable[[Card], str]:
    """Cards in running text: the language's rank letters (Russian В Д К Т) and suit symbols."""
    return lambda card: card_face(card, lang)


@dataclass(frozen=True)
class Example:
    rule: str  # the rule section it is shown under
    title: str
    steps: tuple[Step, ...]


def _legal(pos: Position, move: Move) -> Position:
    why = refusal(pos, move)
    if why is not None:
        raise ExampleError(f"example move {move} is refused by {why.rule}")
    return apply_move(pos, move)


def _refused(pos: Position, move: Move, rule: str, lang: str) -> str:
    why = refusal(pos, move)
    if why is None or why.rule != rule:
        got = "legal" if why is None else why.rule
        raise ExampleError(f"example expects {move} refused by {rule}, engine says {got}")
    return i18n.refusal_message(why, lang)


def foundation_and_empty_column(profile: Profile, lang: str) -> Example:
    """The rules reference's section-08 example, in the profile's own ranks.

    The heart foundation holds its base card; the next heart lies on top of a
    reserve pile (with the one after it covered underneath) and may go home;
    a club of the empty-column rank may open an empty column; after the
    foundation has grown, a base-rank card still may not.
    """
    t = i18n.text
    base = example_base(profile)
    empty = profile.empty_rank(base)
    up1, up2 = make_card(rank_at(base, 1), HEARTS), make_card(rank_at(base, 2), HEARTS)
    opener = make_card(empty, CLUBS)
    base_diamond = make_card(base, DIAMONDS)
    pos = build_position(
        profile, base,
        {"r1": [up2, up1], "t2": [opener], "t6": [base_diamond]},
        [("t3", 5), ("t4", 5), ("t5", 6), ("t6", 6), ("r2", 1), ("r3", 1)],
    )
    first = Move(up1, FOUNDATION)
    _refused(pos, Move(up2, FOUNDATION), RuleId.RESERVE_TOP, lang)
    after = _legal(pos, first)
    open_move = Move(opener, Pile.column(1))
    _legal(after, open_move)
    _refused(after, Move(base_diamond, Pile.column(1)), RuleId.TABLEAU_EMPTY, lang)
    # The point of the example: the empty column's rank does not follow the foundation.
    if after.foundation_top(HEARTS) != up1 or profile.empty_rank(after.base) != empty:
        raise ExampleError("the foundation did not grow as the example says")

    c = _face(lang)
    base_card = c(make_card(base, HEARTS))
    fields = {"base": rank_letter(base, lang), "base_card": base_card, "card": c(up1), "covered": c(up2),
              "opener": c(opener), "empty": rank_letter(empty, lang), "other": c(base_diamond)}
    # A profile whose foundations start at a fixed rank deals no base card, so its
    # example neither speaks of "the base" nor contrasts the empty column with it.
    if profile.base_rank is None:
        opening = t(lang, "example", "The base is {base}: {base_card} lies on the heart foundation. The top "
                    "card of reserve pile r1, {card}, is free and follows it there; {covered} under it stays "
                    "covered until then.", **fields)
        closing = t(lang, "example", "Now the hearts reach {card}. Column t1 is empty, and {opener} may open "
                    "it: an empty column takes a {empty}, one rank below the base. {other} may not, although "
                    "the foundation has grown.", **fields)
    else:
        opening = t(lang, "example", "The heart foundation holds {base_card}. The top card of reserve pile "
                    "r1, {card}, is free and follows it there; {covered} under it stays covered until then.",
                    **fields)
        closing = t(lang, "example", "Now the hearts reach {card}. Column t1 is empty, and {opener} may open "
                    "it: an empty column takes only a {empty}. {other} may not.", **fields)
    step1 = _step(pos, lang, first, t(lang, "example", "Move {card} to its foundation", card=c(up1)), opening)
    step2 = _step(after, lang, open_move,
                  t(lang, "example", "Move {card} into the empty column t1", card=c(opener)), closing)
    step3 = _step(_legal(after, open_move), lang, None, t(lang, "example", "After the move"),
                  t(lang, "example", "{opener} now lies in column t1.", opener=c(opener)))
    title = t(lang, "example", "Worked example: a reserve card goes home, an empty column is filled")
    return Example(RuleId.TABLEAU_EMPTY, title, (step1, step2, step3))


def run_moves(profile: Profile, lang: str) -> Example:
    """A valid run moves as one unit; a group that is not a run stays where it is."""
    t = i18n.text
    base = example_base(profile)

    def card(steps_below: int, suit: int) -> Card:
        return make_card(rank_at(base, 13 - steps_below), suit)

    # Ranks just below the base are the last to reach the foundations, so few
    # other cards need a place.  Run: 2-below spade, 3-below heart, 4-below club.
    lead, middle, tail = card(2, SPADES), card(3, HEARTS), card(4, CLUBS)
    target = card(1, DIAMONDS)
    pair_low, pair_top = card(2, CLUBS), card(3, CLUBS)
    pair_target = card(1, HEARTS)
    pos = build_position(
        profile, base,
        {"t1": [lead, middle, tail], "t2": [target], "t3": [pair_low, pair_top], "t4": [pair_target]},
        [("r1", 1), ("r2", 1), ("r3", 1)],
    )
    move = Move(lead, Pile.column(2))
    _legal(pos, move)
    _refused(pos, Move(pair_low, Pile.column(4)), RuleId.TABLEAU_RUN, lang)
    c = _face(lang)
    run_text = " ".join(c(x) for x in (lead, middle, tail))
    step = _step(pos, lang, move, t(lang, "example", "Move the run {run} onto {card}", run=run_text,
                                    card=c(target)),
                 t(lang, "example", "{run} in t1 is a valid run, so it moves onto {card} in t2 in one move. "
                   "In t3, {low} and {top} lie one on the other, but both are black, so they are no run: "
                   "{low} cannot take {top} along, and {top} has to leave first.",
                   run=run_text, card=c(target), low=c(pair_low), top=c(pair_top)))
    after = _step(_legal(pos, move), lang, None, t(lang, "example", "After the move"),
                  t(lang, "example", "Column t1 is empty now, and t2 holds {card} with the whole run on it.",
                    card=c(target)))
    title = t(lang, "example", "Worked example: a run moves as one unit")
    return Example(RuleId.TABLEAU_RUN, title, (step, after))


def suit_run(profile: Profile, lang: str) -> Example:
    """Agnes Sorel: a run of one suit moves whole onto a card of its colour; its top card alone may not."""
    t = i18n.text
    base = example_base(profile)

    def card(steps_below: int, suit: int) -> Card:
        return make_card(rank_at(base, 13 - steps_below), suit)

    # Ranks just below the base are the last to go home, so few other cards need a place.
    lead, tail = card(3, SPADES), card(4, SPADES)  # a spade run: the 4-below on the 3-below
    target, red = card(2, CLUBS), card(3, HEARTS)  # black takes black; the red card does not fit
    other = card(3, CLUBS)  # would take the run's top card alone
    pos = build_position(profile, base, {"t1": [lead, tail], "t2": [target], "t3": [red], "t4": [other]},
                         [("t5", 13)])
    move = Move(lead, Pile.column(2))
    _legal(pos, move)
    _refused(pos, Move(red, Pile.column(2)), RuleId.TABLEAU_SAME_COLOUR, lang)
    _refused(pos, Move(tail, Pile.column(4)), RuleId.TABLEAU_WHOLE_RUN, lang)
    c = _face(lang)
    run_text = " ".join(c(x) for x in (lead, tail))
    step = _step(pos, lang, move, t(lang, "example", "Move the run {run} onto {card}", run=run_text,
                                    card=c(target)),
                 t(lang, "example", "{run} in t1 is a run of one suit, and {lead} is one rank below {card} "
                   "and of the same colour, so the run goes onto {card} in t2 in one move. {red} has the "
                   "right rank for {card} but the other colour, and {tail} may not leave the run alone for "
                   "{other}.",
                   run=run_text, lead=c(lead), card=c(target), red=c(red), tail=c(tail), other=c(other)))
    after = _step(_legal(pos, move), lang, None, t(lang, "example", "After the move"),
                  t(lang, "example", "Column t1 is empty now, and t2 holds {card} with the whole run on it.",
                    card=c(target)))
    title = t(lang, "example", "Worked example: a run of one suit moves whole, onto its own colour")
    return Example(RuleId.TABLEAU_SUIT_RUN, title, (step, after))


def ace_after_king(profile: Profile, lang: str) -> Example:
    """The heart foundation has reached its King; the Ace follows it, and the 2 must wait."""
    t = i18n.text
    base = example_base(profile)
    king, ace, two = make_card(13, HEARTS), make_card(1, HEARTS), make_card(2, HEARTS)
    pos = build_position(profile, base, {"r1": [ace]}, [("t1", 13)])
    if pos.foundation_top(HEARTS) != king or pos.tableau[0][-1] != two:
        raise ExampleError("the wrap example needs base above 2 and hearts up to the King")
    move = Move(ace, FOUNDATION)
    _refused(pos, Move(two, FOUNDATION), RuleId.FOUNDATION_SUIT, lang)
    after = _legal(pos, move)
    if after.foundation_top(HEARTS) != ace:
        raise ExampleError("the Ace did not land on the King")
    c = _face(lang)
    step = _step(pos, lang, move, t(lang, "example", "Move {card} to its foundation", card=c(ace)),
                 t(lang, "example", "With base {base} the hearts have reached {king}. The next card up is "
                   "{ace}, so it goes home from r1; {two} must wait until {ace} is there.",
                   base=rank_letter(base, lang), king=c(king), ace=c(ace), two=c(two)))
    done = _step(after, lang, None, t(lang, "example", "After the move"),
                 t(lang, "example", "{ace} lies on {king}, and now {two} may follow it home.",
                   ace=c(ace), king=c(king), two=c(two)))
    return Example(RuleId.FOUNDATION_WRAP, t(lang, "example", "Worked example: the Ace follows the King"),
                   (step, done))


def last_deal(profile: Profile, lang: str) -> Example:
    """The stock's last deal: before it the cards cannot be played; after it they cover or lie apart."""
    t = i18n.text
    base = example_base(profile)
    targets = profile.stock_deals[-1]

    def card(steps_below: int, suit: int) -> Card:
        return make_card(rank_at(base, 13 - steps_below), suit)

    # The ranks just below the base are the last to go home, so few cards need a place.
    stock = [card(1 + k // 4, k % 4) for k in range(len(targets))]
    under = card(3, DIAMONDS)
    covers = targets[0].kind is PileKind.RESERVE
    pos = build_position(profile, base, {"r1": [under]} if covers else {}, [("t1", 13)], stock)
    first = stock[0]
    _refused(pos, Move(first, FOUNDATION), RuleId.STOCK_DEAL, lang)
    if covers:
        _legal(pos, Move(under, FOUNDATION))
    after = _legal(pos, DEAL_MOVE)
    _refused(after, DEAL_MOVE, RuleId.STOCK_NO_REDEAL, lang)
    c = _face(lang)
    names = " ".join(c(x) for x in stock)
    before_text = t(lang, "example", "The stock holds its last cards, {cards}; none of them can be played "
                    "before it is dealt.", cards=names)
    if covers:
        before_text += " " + t(lang, "example", "{card} on r1 is still free.", card=c(under))
        _refused(after, Move(under, FOUNDATION), RuleId.RESERVE_TOP, lang)
        after_text = t(lang, "example", "The deal put {card} on r1, on top of {under}, which cannot be "
                       "played until {card} has left.", card=c(after.reserve[0][-1]), under=c(under))
    else:
        _legal(after, Move(first, FOUNDATION))
        _refused(after, Move(first, targets[-1]), RuleId.STOCK_LAST_TWO, lang)
        after_text = t(lang, "example", "The deal laid {cards} face up apart from the reserve. {card} may go "
                       "home at once, but nothing may be placed on these cards.", cards=names, card=c(first))
    after_text += " " + t(lang, "example", "The stock is now empty, and it is never dealt again.")
    steps = (
        _step(pos, lang, None, t(lang, "example", "Before the last deal"), before_text),
        _step(after, lang, None, t(lang, "example", "After the last deal"), after_text),
    )
    return Example(RuleId.STOCK_DEAL, t(lang, "example", "Worked example: the last deal"), steps)


def examples(profile: Profile, lang: str) -> list[Example]:
    """Every worked example that fits the profile's rules, checked on the engine."""
    out = []
    # The worked examples so far lay cards on reserve piles; Agnes Sorel has none.
    reserve = profile.reserve_piles > 0 and profile.reserve_to_foundation
    if profile.uses(RuleId.FOUNDATION_WRAP) and example_base(profile) > 2 and reserve:
        out.append(ace_after_king(profile, lang))
    uses = profile.uses
    if uses(RuleId.TABLEAU_EMPTY) and uses(RuleId.RESERVE_TOP) and profile.reserve_to_foundation:
        out.append(foundation_and_empty_column(profile, lang))
    if profile.uses(RuleId.TABLEAU_RUN) and not profile.whole_runs_only:
        out.append(run_moves(profile, lang))
    if uses(RuleId.TABLEAU_SUIT_RUN) and uses(RuleId.TABLEAU_SAME_COLOUR) and uses(RuleId.TABLEAU_WHOLE_RUN):
        out.append(suit_run(profile, lang))
    if uses(RuleId.STOCK_DEAL) and uses(RuleId.STOCK_NO_REDEAL) and reserve:
        out.append(last_deal(profile, lang))
    return out
