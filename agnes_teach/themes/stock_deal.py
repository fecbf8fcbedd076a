"""stock.deal: a deal is the player's choice, and it covers the piles it deals onto."""

from __future__ import annotations

import random

from ..cards import rank_of, suit_of
from ..engine import builds_on, locate
from ..generator.build import Draft
from ..generator.builders.layout import merge, pick_base, pick_piles, stack_then_cover, suit_counts
from ..moves import DEAL_MOVE, Move
from ..piles import PileKind
from ..position import Position
from ..profile import Profile
from ..registry import RuleId, Task
from ..tagger.detectors import Lesson as Line
from ..tagger.detectors import steps
from ..tagger.distractors import Distractor, Moves
from ..tagger.misconception import Misconception
from . import Lays, Lesson, Recipe, RuleFacts, Theme, every_profile

# ------------------------------------------------------------ the lesson


def is_deal(pos: Position, move: Move) -> bool:
    """The stock is dealt."""
    return move.is_deal


def detect_stock_deal(lesson: Line) -> bool:
    """Dealing now is legal and proved to lose, it would cover a reserve card, and the line
    wins by first playing a card off a pile the deal would cover."""
    pos = lesson.position
    if not pos.stock or DEAL_MOVE not in lesson.losing or not lesson.line:
        return False
    targets = pos.profile.stock_deals[pos.deals_done]
    covered = [t.offset for t in targets if t.kind is PileKind.RESERVE and pos.reserve[t.offset]]
    for before, move in steps(lesson):
        if move == DEAL_MOVE:
            return False
        if move.card is not None:
            place = locate(before, move.card)
            if place.kind is PileKind.RESERVE and place.index in covered:
                return True
    return False


# ------------------------------------------------------------ the tempting move


def distract_deal(pos: Position, line: Moves, losing: Moves) -> Distractor | None:
    """The deal itself, when it is proved to lose."""
    return Distractor(DEAL_MOVE, None) if DEAL_MOVE in losing else None


# ------------------------------------------------------------ the built layout


def build_stock_deal(rng: random.Random, profile: Profile, task: str, size: int) -> Draft | None:
    """One full deal is left.  A reserve top is the card the order needs first, and the stock card
    that would land on it is a later card of its suit: deal now and it is buried."""
    stock = next((n for n in profile.stock_sizes()
                  if n and any(t.kind is PileKind.RESERVE
                               for t in profile.stock_deals[profile.deals_done(n) or 0])
                  and n <= 9), -1)
    if stock < 0:
        return None
    base = pick_base(profile, rng, 1, 13)
    draft = Draft(profile, base, [0, 0, 0, 0], stock)
    suit = rng.randrange(4)
    draft.out = suit_counts(rng, base, [], stock + rng.randint(1, 2 + size), cap=7)
    draft.out[suit] = max(draft.out[suit], 2)
    order = merge(rng, draft, [])
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
    slot = rng.choice([k for k, t in enumerate(targets) if t.kind is PileKind.RESERVE])
    pool = [c for c in order[1:] if c != cover]
    if len(pool) < stock - 1:  # too few cards out to fill the stock around the cover
        return None
    picked = rng.sample(pool, stock - 1)
    picked.sort(key=order.index)
    draft.stock = picked[:slot] + [cover] + picked[slot:]
    rest = [c for c in order[1:] if c not in draft.stock]
    piles = pick_piles(draft, rng, 2 + size, 0, set(), task)
    return stack_then_cover(draft, rng, rest, piles, {}, set(), [(targets[slot], first)])


# ------------------------------------------------------------ why the believer loses


def explain(here: Position, wrong: Move, lesson: Lesson | None) -> RuleFacts | None:
    """The reserve tops a deal onto the reserve would cover."""
    if not wrong.is_deal or here.deals_done >= len(here.profile.stock_deals):
        return None
    targets = here.profile.stock_deals[here.deals_done]
    if any(p.kind is not PileKind.RESERVE for p in targets):
        return None
    tops = [here.pile(p)[-1] for p in targets if here.pile(p)]
    if not tops:
        return None
    return RuleFacts(RuleId.STOCK_DEAL, cards=tuple(("top", c) for c in tops))


THEME = Theme(
    rule=RuleId.STOCK_DEAL,
    profiles=every_profile(),
    tasks=(Task.TRAP, Task.KEY_MOVE, Task.WIN),
    # The lesson is a deal *not* made, which no single move shows: the detector reads the line and
    # the losing first moves.
    lesson_move=None,
    detect=detect_stock_deal,
    believer=Misconception("deal whenever nothing is obvious", "force", is_deal),
    tempting=distract_deal,
    recipe=Recipe(deals_left=2, nothing_home=True, deal_buries=True),
    build=build_stock_deal,
    explain=explain,
    how="one full deal left; the first card needed is a reserve top, and the stock card the deal "
        "would drop on it is a later card of its suit with nowhere else to go",
    required=True,
    # The deal's lesson lives in the opening, while the stock is full.
    first_move=4,
    build_lays=(Lays.ALTERNATE_RUNS, Lays.RESERVE_PILES),
)
