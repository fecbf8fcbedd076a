"""tableau.run: a valid run moves as one unit."""

from __future__ import annotations

import random

from ..cards import rank_of, suit_of
from ..engine import builds_on, is_run, locate
from ..generator.build import Draft
from ..generator.builders.layout import (
    merge,
    pick_base,
    pick_piles,
    stack_then_cover,
    stock_size,
    suit_counts,
    target_pairs,
)
from ..moves import Move
from ..piles import Pile, PileKind
from ..position import Position
from ..predicates import uses_tableau_run
from ..profile import Profile
from ..registry import RuleId, Task
from ..solver.fast import Rules
from ..tagger.detectors import detects_move
from ..tagger.distractors import Distractor, Moves, first_refused
from ..tagger.misconception import Misconception, runs_may_shorten
from . import Lays, Lesson, Recipe, RuleFacts, Theme, every_profile

# ------------------------------------------------------------ the lesson


def single_cards_only(rules: Rules) -> bool:
    """No card runs with the one under it: a move to a column takes the top card alone."""
    rules.link = bytes(52 * 52)
    return runs_may_shorten(rules)


# ------------------------------------------------------------ the tempting move


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
    found = first_refused(pos, sorted(fits), RuleId.TABLEAU_RUN)
    if found is None and line and line[0].card is not None and line[0].dest.is_column:
        place = locate(pos, line[0].card)
        if place.kind is PileKind.COLUMN and place.depth > 0:
            column = pos.tableau[place.index]
            found = first_refused(pos, [Move(column[place.depth - 1], line[0].dest)], RuleId.TABLEAU_RUN)
    return found


# ------------------------------------------------------------ the built layout


def build_tableau_run(rng: random.Random, profile: Profile, task: str, size: int) -> Draft | None:
    """A two-card run lies on the card the order needs first; it moves whole onto a column."""
    base = pick_base(profile, rng, 1, 13)
    wrap = profile.tableau_wrap
    extra = (rng.randint(7 + size, 9 + 3 * size) if task == Task.KEY_MOVE
             else rng.randint(4 + size, 6 + 3 * size))
    draft = Draft(profile, base, suit_counts(rng, base, [], extra, cap=5), stock_size(profile))
    order = merge(rng, draft, [])
    if order is None:
        return None
    first = order[0]
    # For a key move: a lead or target of the rank an empty column takes, or a top card that
    # simply goes home, would give a second winning move.
    empty_rank = profile.empty_rank(base)
    triples = [(lead, second, target) for lead, target in target_pairs(order, wrap, 1)
               for second in order[1:] if builds_on(second, lead, wrap)
               and order.index(second) < order.index(lead)
               and (task != Task.KEY_MOVE or (empty_rank not in (rank_of(lead), rank_of(target))
                                           and draft.out_cards(suit_of(second))[0] != second))]
    if not triples:
        return None
    lead, second, target = rng.choice(triples)
    order = [c for c in order if c not in (lead, second)]
    piles = pick_piles(draft, rng, 2 + size, rng.randint(0, 1), set(), task)
    cols = [p for p in piles if p.is_column]
    if len(cols) < 2:
        return None
    return stack_then_cover(draft, rng, order, piles, {first: cols[0], target: cols[1]}, {first, target},
                             [(cols[0], lead), (cols[0], second)])


# ------------------------------------------------------------ why the believer loses


def explain(here: Position, wrong: Move, lesson: Lesson | None) -> RuleFacts | None:
    """The run the answer moves whole: its lead card, the cards on it and where it goes."""
    if lesson is None or lesson.move.card is None:
        return None
    place = locate(lesson.position, lesson.move.card)
    if place.kind is not PileKind.COLUMN:
        return None
    column = lesson.position.tableau[place.index]
    on = column[place.depth + 1:]
    if not on:
        return None
    return RuleFacts(RuleId.TABLEAU_RUN, cards=(("card", lesson.move.card), *(("on", c) for c in on)),
                     words=(("pile", lesson.move.dest),))


THEME = Theme(
    rule=RuleId.TABLEAU_RUN,
    profiles=every_profile(),
    tasks=(Task.WIN,),
    lesson_move=uses_tableau_run,
    detect=detects_move(uses_tableau_run),
    believer=Misconception("move one card at a time", "forbid", uses_tableau_run,
                           restriction=single_cards_only),
    tempting=distract_tableau_run,
    recipe=Recipe(),
    build=build_tableau_run,
    explain=explain,
    how="a two-card run lies on the first card needed and must move whole onto a column top; the "
        "refused move is an irregular group that would fit by rank and colour",
    build_lays=(Lays.ALTERNATE_RUNS, Lays.RESERVE_PILES),
)
