"""stock.last-two: both exposed cards are free at once."""

from __future__ import annotations

import random
from dataclasses import replace

from ..engine import builds_on, locate
from ..generator.build import Draft
from ..generator.builders.layout import merge, pick_base, pick_piles, stack, suit_counts, target_pairs
from ..moves import Move
from ..piles import Pile, PileKind
from ..position import Position
from ..predicates import uses_stock_last_two
from ..profile import Profile
from ..registry import RuleId, Task
from ..tagger.detectors import detects_move
from ..tagger.distractors import Distractor, first_refused, movable
from ..tagger.misconception import Misconception
from . import Lays, Lesson, Recipe, RuleFacts, Theme, every_profile

# ------------------------------------------------------------ the lesson


def plays_lower_exposed(pos: Position, move: Move) -> bool:
    """The first exposed cell is played while the second still holds a card (as if x2 covered x1)."""
    if not uses_stock_last_two(pos, move) or move.card is None:
        return False
    place = locate(pos, move.card)
    return any(pos.exposed[place.index + 1:])


def exposed_as_one_pile(pos: Position) -> Position | None:
    """With the stock dealt out and both exposed cells full, the believer plays x1 only after x2,
    as if x2 lay on x1: the real game of one pile (x1 under x2) and an empty cell.  The belief
    forbids a move home there (x1 home while x2 is full), so a win in that game proves the believer
    reaches the goal, while a loss does not prove the believer never reaches it."""
    if pos.stock or len(pos.exposed) != 2 or not all(pos.exposed):
        return None
    (low,), (high,) = pos.exposed
    return replace(pos, exposed=((low, high), ()))


# ------------------------------------------------------------ the tempting move


def distract_stock_last_two(pos: Position, line: tuple[Move, ...],
                            losing: tuple[Move, ...]) -> Distractor | None:
    """A card laid on an exposed card as if it were a column (it builds on it by rank and colour)."""
    moves = []
    for i, cell in enumerate(pos.exposed):
        if cell:
            for card in movable(pos):
                if builds_on(card, cell[-1], pos.profile.tableau_wrap):
                    moves.append(Move(card, Pile.exposed(i + 1)))
    return first_refused(pos, sorted(moves), RuleId.STOCK_LAST_TWO)


# ------------------------------------------------------------ the built layout


def build_stock_last_two(rng: random.Random, profile: Profile, task: str, size: int) -> Draft | None:
    """A card blocks the first card of the order and fits only on an exposed card, which is
    not a place to build: the exposed card goes to the tableau first."""
    if not profile.exposed_cells:
        return None
    base = pick_base(profile, rng, 1, 13)
    wrap = profile.tableau_wrap
    draft = Draft(profile, base, suit_counts(rng, base, [], rng.randint(6, 9 + 2 * size), cap=5), 0)
    order = merge(rng, draft, [])
    if order is None:
        return None
    first = order[0]
    # blocker Z on X (exposed) on W (a column top): played Z, X, W in that order.
    chains = [(z, x, w) for x, w in target_pairs(order, wrap, 1)
              for z in order[1:order.index(x)] if builds_on(z, x, wrap)]
    if not chains:
        return None
    blocker, exposed, target = rng.choice(chains)
    others = [c for c in order[1:] if c not in (blocker, exposed, target)]
    second = rng.choice(others) if others and profile.exposed_cells > 1 else None
    order = [c for c in order if c not in (blocker, exposed, second)]
    piles = pick_piles(draft, rng, 2 + size, rng.randint(0, 1), set(), task)
    cols = [p for p in piles if p.is_column]
    if len(cols) < 2:
        return None
    if not stack(draft, rng, order, piles, {first: cols[0], target: cols[1]}, {first, target}):
        return None
    if not draft.can_put(cols[0], blocker):
        return None
    draft.put(cols[0], blocker)
    draft.put("x1", exposed)
    if second is not None:
        draft.put("x2", second)
    return draft


# ------------------------------------------------------------ why the believer loses


def explain(here: Position, wrong: Move, lesson: Lesson | None) -> RuleFacts | None:
    """The exposed card the answer plays while the other cell still holds a card."""
    if lesson is None or lesson.move.card is None:
        return None
    pos = lesson.position
    place = locate(pos, lesson.move.card)
    if place.kind is not PileKind.EXPOSED:
        return None
    other = next(((i, cell[-1]) for i, cell in enumerate(pos.exposed) if cell and i != place.index), None)
    if other is None:
        return None
    cells = (("pile", Pile.exposed(place.index + 1)), ("other_pile", Pile.exposed(other[0] + 1)))
    return RuleFacts(RuleId.STOCK_LAST_TWO, cards=(("card", lesson.move.card), ("other", other[1])),
                     words=cells)


THEME = Theme(
    rule=RuleId.STOCK_LAST_TWO,
    profiles=every_profile(),
    tasks=(Task.KEY_MOVE, Task.WIN, Task.TRAP),
    lesson_move=plays_lower_exposed,
    detect=detects_move(plays_lower_exposed),
    believer=Misconception("only one exposed card is free (the last one dealt)", "forbid",
                           plays_lower_exposed,
                           transform=exposed_as_one_pile),
    tempting=distract_stock_last_two,
    # Opening on a decision point: the order of the last two cards can matter only where some
    # move loses (docs/puzzles.md, "Recipes that fail less"); and the believer's own pick competes
    # with playing the lower card, and loses: else the judge finds the rule's move obvious there.
    recipe=Recipe(exposed_full=True, move_loses=True, contested=True, contest_loses=True,
                  contest_picked=True),
    build=build_stock_last_two,
    explain=explain,
    how="a card blocks the first card needed and fits only on an exposed card, where nothing may "
        "be placed: the exposed card must go to a column first",
    build_lays=(Lays.ALTERNATE_RUNS, Lays.RESERVE_PILES),
)
