"""A misconception as data: the wrong belief a theme's rule corrects, and how its game is proved.

The type lives here, apart from the players that play it (``players``) and from the theme modules
that define one each (``agnes_teach.themes``), so that neither has to import the other.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from ..moves import Move
from ..position import Position
from ..solver.fast import Rules
from .detectors import MovePredicate

# A restriction narrows the solver's tables to the believer's moves in place; False where the
# tables cannot say the belief for this profile.
Restriction = Callable[[Rules], bool]
# A transform gives a position whose real game is the believer's (None where that does not hold).
Transform = Callable[[Position], Position | None]


@dataclass(frozen=True)
class Misconception:
    """A wrong belief about one rule, as data.

    ``forbid``: the believer never makes a move of ``predicate`` (the theme's
    permission removed).  ``force``: when no card can go home and a move of
    ``predicate`` is legal, the believer makes it (and nothing else).
    """

    belief: str
    kind: Literal["forbid", "force"]
    predicate: MovePredicate
    # How "lost under the belief" is proved beyond the believer's search (see
    # ``players.lost_under``): the solver's tables restricted to the believer's moves, or a
    # position whose real game is the believer's.  Neither: the believer's tree and search.
    restriction: Restriction | None = None
    transform: Transform | None = None

    def allowed(self, pos: Position, moves: list[Move]) -> list[Move]:
        """The moves a believer considers in `pos` (home moves are never forbidden by a force)."""
        test = self.predicate
        if self.kind == "forbid":
            return [m for m in moves if not test(pos, m)]
        if any(m.dest.is_foundation for m in moves):
            return moves
        forced = [m for m in moves if test(pos, m)]
        return forced or moves


def runs_may_shorten(rules: Rules) -> bool:
    """Does a narrower link table only remove moves?  Not where a run moves only whole: there the
    shorter run the belief sees would be a move the rules refuse."""
    return not rules.whole_runs_only
