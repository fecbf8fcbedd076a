"""tableau.suit-run: at Agnes Sorel's table only a run of one suit moves together.

Sorel packs a column in the same colour (8♠ on 9♣), but two cards packed so move together only
when they are of one suit. The misconception is a Bernauer player's, for whom what is packed moves
together: it holds a packed group of mixed suits for a run and plans with moving it as one
(an *add* belief: ``tagger.misconception``). Where its plan counts on such a move, a move it
makes loses in the real game.
"""

from __future__ import annotations

from dataclasses import replace

from ..board import fits, is_run_at
from ..cards import Card, suit_of
from ..moves import Move
from ..piles import Pile
from ..position import Cards, Position
from ..predicates import CHECKS, first_refusal, uses_tableau_suit_run
from ..profile import RunLink, get_profile, profile_ids
from ..registry import RuleId, Task
from ..solver.fast import Rules
from ..tagger.detectors import detects_move
from ..tagger.distractors import Distractor, Moves, first_refused
from ..tagger.misconception import Misconception
from . import Lesson, Recipe, RuleFacts, Theme

# ------------------------------------------------------------ the belief


def packed(pos: Position, column: Cards, depth: int) -> bool:
    """Is column[depth:] packed: each card laid on the one under it as the build rule allows?"""
    tail = column[depth:]
    return all(fits(pos, upper, lower) for lower, upper in zip(tail, tail[1:], strict=False))


ADDED_BY = (RuleId.TABLEAU_SUIT_RUN, RuleId.TABLEAU_WHOLE_RUN)  # the refusals the belief overlooks


def moves_packed_group(pos: Position, move: Move) -> bool:
    """A move the belief adds: a packed group (or a top card) moved to another column as one unit
    where the rules refuse it, because its suits are mixed (only a run of one suit moves together)
    or because it is the tail of a longer run (as at Bernauer's table, the believer moves any
    tail)."""
    if move.card is None or not move.dest.is_column:
        return False
    for column in pos.tableau:
        if move.card in column:
            depth = column.index(move.card)
            if not packed(pos, column, depth):
                return False
            why = first_refusal(pos, move)
            # ... and every other rule lets it pass: the group fits where it goes.
            return why is not None and why.rule in ADDED_BY and all(
                check(pos, move, pos.profile) is None for rule, check in CHECKS if rule not in ADDED_BY)
    return False


def packed_groups_run(rules: Rules) -> bool:
    """The believer's game for the solver: every card packed on another runs with it (the link
    table widened to the build table), so a packed group of mixed suits moves as one unit; and, as
    at Bernauer's table, any tail of such a group moves (else the believer's game would lose the
    real moves of a suit run off a mixed group, and the believer could not see the answer)."""
    rules.link = bytes(rules.on)
    rules.whole_runs_only = False
    rules.tables = replace(rules.tables, whole_runs_only=False)
    return True


def suit_run_profiles() -> tuple[str, ...]:
    """The shipped profiles in which only a run of one suit moves together: where the rule is in
    force."""
    return tuple(p for p in profile_ids() if get_profile(p).run_link == RunLink.SAME_SUIT)


# ------------------------------------------------------------ the tempting move


def distract_suit_run(pos: Position, line: Moves, losing: Moves) -> Distractor | None:
    """A packed group of mixed suits moved as one unit onto a column top it would fit."""
    candidates: list[Move] = []
    for i, column in enumerate(pos.tableau):
        for depth in range(len(column) - 1):
            if not packed(pos, column, depth) or is_run_at(pos, column, depth):
                continue
            for j, target in enumerate(pos.tableau):
                if j != i and (not target or fits(pos, column[depth], target[-1])):
                    candidates.append(Move(column[depth], Pile.column(j + 1)))
    return first_refused(pos, sorted(candidates, key=lambda m: (not pos.pile(m.dest), str(m))),
                         RuleId.TABLEAU_SUIT_RUN)


# ------------------------------------------------------------ why the believer loses


def mixed_pair(pos: Position) -> tuple[Card, Card] | None:
    """(card, the card of another suit packed on it) in the first column whose top group is packed
    but of mixed suits: what the believer takes for a run."""
    for column in pos.tableau:
        for depth in range(len(column) - 1):
            if packed(pos, column, depth):
                for lower, upper in zip(column[depth:], column[depth + 1:], strict=False):
                    if suit_of(lower) != suit_of(upper):
                        return lower, upper
                break
    return None


def explain(here: Position, wrong: Move, lesson: Lesson | None) -> RuleFacts | None:
    """The packed pair of mixed suits the believer's plan moves as one: they part, one card at a
    time."""
    pair = mixed_pair(here)
    if pair is None:
        return None
    lower, upper = pair
    return RuleFacts(RuleId.TABLEAU_SUIT_RUN, cards=(("card", lower), ("on", upper)))


THEME = Theme(
    rule=RuleId.TABLEAU_SUIT_RUN,
    profiles=suit_run_profiles(),
    tasks=(Task.WIN, Task.TRAP),
    lesson_move=uses_tableau_suit_run,
    detect=detects_move(uses_tableau_suit_run),
    believer=Misconception("cards packed on each other move together, whatever their suits", "widen",
                           moves_packed_group, restriction=packed_groups_run),
    tempting=distract_suit_run,
    # The mixed pair on offer, and a legal move at the start that loses: of the layouts with the
    # pair alone, nearly all kept no lesson once cut down (docs/puzzles.md, "Sorel's own rules").
    recipe=Recipe(refused_on_offer=True, move_loses=True),
    build=None,
    explain=explain,
    how="a packed group of mixed suits looks like a run; the answer parts it card by card, while a "
        "believer who plans to move it as one unit spends the place it needs",
)
