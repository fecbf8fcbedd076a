"""A misconception as data: the wrong belief a theme's rule corrects, and how its game is proved.

The type lives here, apart from the players that play it (``players``) and from the theme modules
that define one each (``agnes_teach.themes``), so that neither has to import the other.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from ..engine import apply_unchecked
from ..moves import Move
from ..position import Position
from ..registry import Verdict
from ..solver import canonical_key, solve
from ..solver.fast import Rules
from .detectors import MovePredicate

# A restriction changes the solver's tables to the believer's game in place: narrowed to the moves
# a *forbid* belief allows, widened by the moves an *widen* belief adds; False where the tables cannot
# say the belief for this profile.
Restriction = Callable[[Rules], bool]
Kind = Literal["forbid", "force", "add", "widen"]
PLAN_NODES = 50_000  # the solver's budget for one verdict of an *widen* believer's game
PLAN_CACHE = 200_000  # verdicts an *widen* belief keeps before it starts afresh
# A transform gives a position whose real game is the believer's (None where that does not hold).
Transform = Callable[[Position], Position | None]


@dataclass(frozen=True)
class Misconception:
    """A wrong belief about one rule, as data.

    ``forbid``: the believer never makes a move of ``predicate`` (the theme's
    permission removed).  ``force``: when no card can go home and a move of
    ``predicate`` is legal, the believer makes it (and nothing else).  ``widen``:
    the believer holds some moves the rules refuse for legal (``predicate``
    says which) and plans with them: it makes the legal moves after which its
    own game (the solver's tables widened by ``restriction``) is still won
    (``plan``); a move that loses in the real game while its plan counts on an
    added move is where the belief costs the game.
    """

    belief: str
    kind: Kind
    predicate: MovePredicate
    # How "lost under the belief" is proved beyond the believer's search (see
    # ``players.lost_under``): the solver's tables restricted to the believer's moves, or a
    # position whose real game is the believer's.  Neither: the believer's tree and search.
    restriction: Restriction | None = None
    transform: Transform | None = None
    # An *widen* belief's verdicts of its own game, by state (the players and the judge ask the same
    # states again and again).
    _verdicts: dict[bytes, bool] = field(default_factory=dict, compare=False, repr=False)

    def allowed(self, pos: Position, moves: list[Move]) -> list[Move]:
        """The moves a believer considers in `pos` (home moves are never forbidden by a force; an
        *widen* believer without a plan considers every move)."""
        test = self.predicate
        if self.kind == "widen":
            plan = self.plan(pos, moves)
            return moves if plan is None else plan
        if self.kind == "forbid":
            return [m for m in moves if not test(pos, m)]
        if any(m.dest.is_foundation for m in moves):
            return moves
        forced = [m for m in moves if test(pos, m)]
        return forced or moves


    def plan(self, pos: Position, moves: list[Move]) -> list[Move] | None:
        """An *widen* believer's moves in `pos`: the legal ones after which its game is still won.
        None when its game is not won from `pos` either (it has no plan, so the belief steers
        nothing); an empty list when every plan begins with a move the rules refuse (the believer
        tries it and is stuck)."""
        if self.kind != "widen" or self.restriction is None:
            return None
        plan = [m for m in moves if self.believed_won(apply_unchecked(pos, m))]
        if plan or not self.believed_won(pos):
            return plan or None
        return plan

    def believed_won(self, pos: Position) -> bool:
        """Is `pos` won in the *widen* believer's game (an undecided verdict counts as won: the
        believer cannot rule the line out)?"""
        key = canonical_key(pos)
        known = self._verdicts.get(key)
        if known is None:
            if len(self._verdicts) >= PLAN_CACHE:
                self._verdicts.clear()
            rules = Rules(pos)
            assert self.restriction is not None
            widened = self.restriction(rules)
            status = solve(pos, nodes=PLAN_NODES, rules=rules if widened else None, widened=widened).status
            known = self._verdicts[key] = pos.is_won() or status != Verdict.LOST
        return known


def runs_may_shorten(rules: Rules) -> bool:
    """Does a narrower link table only remove moves?  Not where a run moves only whole: there the
    shorter run the belief sees would be a move the rules refuse."""
    return not rules.whole_runs_only
