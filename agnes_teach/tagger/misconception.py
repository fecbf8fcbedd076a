"""A misconception as data: the wrong belief a theme's rule corrects, and how its game is proved.

The type lives here, apart from the players that play it (``players``) and from the theme modules
that define one each (``agnes_teach.themes``), so that neither has to import the other.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Literal

from ..board import top_run_start
from ..cards import Card
from ..engine import apply_unchecked, locate, refusal
from ..moves import Move
from ..piles import COLUMNS, FOUNDATION, Pile, PileKind
from ..position import Position
from ..registry import Verdict
from ..solver import canonical_key, solve
from ..solver.fast import Rules
from .detectors import MovePredicate

# A restriction changes the solver's tables to the believer's game in place: narrowed to the moves
# a *forbid* belief allows, widened by the moves a *widen* belief adds; False where the tables cannot
# say the belief for this profile.
Restriction = Callable[[Rules], bool]
Kind = Literal["forbid", "force", "add", "widen"]
PLAN_NODES = 50_000  # the solver's budget for one verdict of a *widen* believer's game
PLAN_CACHE = 200_000  # verdicts a *widen* belief keeps before it starts afresh
# A transform gives a position whose real game is the believer's (None where that does not hold).
Transform = Callable[[Position], Position | None]
# How a believer lays out a move its belief adds where the default (a card laid on a column or a
# reserve pile, ``apply_believed``) cannot say it: the position it imagines after the move.
Imagine = Callable[[Position, Move], Position]


@dataclass(frozen=True)
class Misconception:
    """A wrong belief about one rule, as data.

    ``forbid``: the believer never makes a move of ``predicate`` (the theme's
    permission removed).  ``force``: when no card can go home and a move of
    ``predicate`` is legal, the believer makes it (and nothing else).  ``add``:
    the believer takes the moves of ``predicate`` that the rules refuse for
    legal too (a prohibition not known), and plans with them (``plans``): every
    legal move stays one the believer may make, and the believer is caught out
    where a plan needs a move the rule refuses.  ``widen``:
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
    # An *add* belief whose added moves go home: the position the believer imagines after one
    # (``apply_believed`` lays out the others).
    imagine: Imagine | None = None
    # An *add* belief's added moves go only to piles of these kinds (None: any): its predicate refuses
    # every other, so the believer's search does not build those moves to ask (a search asks at
    # every state of the imagined game).
    dest_kinds: frozenset[PileKind] | None = None
    # A *widen* belief's verdicts of its own game, by state (the players and the judge ask the same
    # states again and again).
    _verdicts: dict[bytes, bool] = field(default_factory=dict, compare=False, repr=False)

    def allowed(self, pos: Position, moves: list[Move]) -> list[Move]:
        """The legal moves a believer considers in `pos` (home moves are never forbidden by a
        force; an added belief forbids nothing: its extra moves are ``added``; a
        *widen* believer considers the moves that keep its own game won, or every move without a plan)."""
        test = self.predicate
        if self.kind == "add":
            return moves
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
        """A *widen* believer's moves in `pos`: the legal ones after which its game is still won.
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


def _candidates(pos: Position, kinds: frozenset[PileKind] | None = None) -> list[tuple[Move, bool]]:
    """Every move of a card that can be picked up (column tops and the tails of the top run,
    reserve tops, exposed cards) to another column or reserve pile, and of a card alone home:
    (move, the card is alone); with `kinds`, only the moves to piles of those kinds."""
    dests = [*(COLUMNS[:len(pos.tableau)] if kinds is None or PileKind.COLUMN in kinds else ()),
             *(Pile.reserve(i + 1) for i in range(len(pos.reserve))
               if kinds is None or PileKind.RESERVE in kinds)]
    home = kinds is None or PileKind.FOUNDATION in kinds
    if not dests and not home:
        return []
    cards: list[tuple[Card, bool, Pile]] = []
    for i, column in enumerate(pos.tableau):
        if column:
            start = top_run_start(pos, column)
            cards += [(column[depth], depth == len(column) - 1, COLUMNS[i])
                      for depth in range(start, len(column))]
    cards += [(pile[-1], True, Pile.reserve(i + 1)) for i, pile in enumerate(pos.reserve) if pile]
    cards += [(pile[-1], True, Pile.exposed(i + 1)) for i, pile in enumerate(pos.exposed) if pile]
    return [(Move(card, dest), alone) for card, alone, source in cards for dest in dests if dest != source] \
        + [(Move(card, FOUNDATION), True) for card, alone, _ in cards if alone and home]


def added_moves(pos: Position, misconception: Misconception) -> list[Move]:
    """The moves an *add* belief takes for legal in `pos` that the rules refuse (none for another
    kind). Only a card alone goes onto a reserve pile or home: no belief moves a run there, and a
    move home is the belief's only where it says how the believer imagines it
    (``Misconception.imagine``)."""
    if misconception.kind != "add":
        return []
    test = misconception.predicate
    home = misconception.imagine is not None
    return [move for move, alone in _candidates(pos, misconception.dest_kinds)
            if (alone or move.dest.is_column) and (home or not move.dest.is_foundation)
            and test(pos, move) and refusal(pos, move) is not None]


def apply_believed(pos: Position, move: Move, misconception: Misconception | None = None) -> Position:
    """The position a believer imagines after `move`, legal or one the belief adds: a card (with
    the cards on it, from a column) laid on a column, a card alone laid on a reserve pile, or a
    card sent home as the belief's ``imagine`` lays it out."""
    if move.dest.is_foundation and misconception is not None and misconception.imagine is not None \
            and refusal(pos, move) is not None:
        return misconception.imagine(pos, move)
    if move.card is None or move.dest.kind is not PileKind.RESERVE:
        return apply_unchecked(pos, move)
    place = locate(pos, move.card)
    groups = {kind: [list(p) for p in pos.piles_of(kind)]
              for kind in (PileKind.COLUMN, PileKind.RESERVE, PileKind.EXPOSED)}
    groups[place.kind][place.index].pop()
    groups[PileKind.RESERVE][move.dest.offset].append(move.card)
    return replace(pos, tableau=tuple(tuple(p) for p in groups[PileKind.COLUMN]),
                   reserve=tuple(tuple(p) for p in groups[PileKind.RESERVE]),
                   exposed=tuple(tuple(p) for p in groups[PileKind.EXPOSED]))
