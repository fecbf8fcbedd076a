"""tableau.empty (agnes-ru): only a King, or a run led by one, fills an empty column.

With the Ace as every foundation's base, a King is the only card an empty column takes. A
Bernauer player at the Russian table is used to Kings going onto Aces in the columns (the tableau
wrap, which this game does not have) and to spaces kept for the card below the dealt base; so he
waits with the King and never spends an empty column on it. The lesson is a position where moving
a King into the space is the way through.
"""

from __future__ import annotations

from ..cards import rank_of
from ..moves import Move
from ..piles import Pile
from ..position import Position
from ..predicates import uses_tableau_empty
from ..registry import RuleId, Task
from ..solver.fast import Rules
from ..tagger.detectors import detects_move
from ..tagger.distractors import Distractor, Moves, distract_losing, first_refused, movable
from ..tagger.misconception import Misconception
from . import Lesson, Recipe, RuleFacts, Theme

# The catalogue key of this profile's wording: the guide's text for a King-only empty column.
WHY_KING_ONLY = f"{RuleId.TABLEAU_EMPTY}@fixed"

# ------------------------------------------------------------ the lesson


def no_card_into_empty(rules: Rules) -> bool:
    """The solver's tables with nothing let into an empty column (here only Kings could go)."""
    rules.is_empty_rank = [False] * len(rules.is_empty_rank)
    return True


# ------------------------------------------------------------ the tempting move


def distract_king_elsewhere(pos: Position, line: Moves, losing: Moves) -> Distractor | None:
    """The Bernauer habits: a King onto an Ace in the columns (no wrap here), or another card into
    the space; else the losing move a player is drawn to most."""
    empties = [Pile.column(i + 1) for i, c in enumerate(pos.tableau) if not c]
    cards = movable(pos)
    kings = [c for c in cards if rank_of(c) == 13]
    aces = [Pile.column(i + 1) for i, c in enumerate(pos.tableau) if c and rank_of(c[-1]) == 1]
    onto_ace = first_refused(pos, [Move(k, a) for k in kings for a in aces], RuleId.TABLEAU_WRAP)
    if onto_ace is not None:
        return onto_ace
    others = sorted((c for c in cards if rank_of(c) != 13), key=lambda c: (rank_of(c) != 12, c))
    into_space = first_refused(pos, [Move(c, e) for c in others for e in empties], RuleId.TABLEAU_EMPTY)
    return into_space if into_space is not None else distract_losing(pos, line, losing)


# ------------------------------------------------------------ why the believer loses


def explain(here: Position, wrong: Move, lesson: Lesson | None) -> RuleFacts | None:
    """The King the answer moves into the empty column, and that column."""
    if lesson is None or lesson.move.card is None:
        return None
    return RuleFacts(WHY_KING_ONLY, cards=(("card", lesson.move.card),), words=(("pile", lesson.move.dest),))


THEME = Theme(
    rule=RuleId.TABLEAU_EMPTY,
    profiles=("agnes-ru",),
    tasks=(Task.TRAP, Task.WIN),
    lesson_move=uses_tableau_empty,
    detect=detects_move(uses_tableau_empty),
    believer=Misconception("a King waits for an Ace to go on (as in Bernauer): a space is not for it",
                           "forbid", uses_tableau_empty, restriction=no_card_into_empty),
    tempting=distract_king_elsewhere,
    # One space and a King over the next card a foundation takes, on a small layout, and a move
    # the believer picks at the start (its moves home first) that competes with the King's move
    # and loses: in a game where cards come back from the foundations little else loses, so the
    # choice has to be laid out.
    recipe=Recipe(empty_column=1.0, one_space=True, king_covers=True, contested=True, contest_loses=True,
                  contest_picked=True, most_cards=16, waits_for=13),
    caught_at_first_use=True,
    build=None,
    explain=explain,
    how="an empty column and a King that blocks the card needed next: only the King may go into the "
        "space, and a Bernauer player keeps it back for an Ace that never takes it",
)
