"""The plans of a believer who takes refused moves for legal (a ``Misconception`` of kind ``add``).

Such a believer may make every legal move, so a belief that only *adds* moves cannot lose by what
it leaves out. It loses by what it counts on. As a pupil solving a puzzle does, the believer plans
a shortest way to its goal (a position from which the real rules' moves home alone finish the
game, the goal of every believer, ``engine.finishes_home``) in the game the belief
imagines: the legal moves and the moves the belief adds (``misconception.added_moves``), laid out
as the believer imagines them (``misconception.apply_believed``). Safe moves home
(``graph.autoplay``'s) are played at once and not counted: they are no choice.

Where every shortest plan needs a move the rules refuse, the believer's answer fails there: the
line it would write (or play) breaks at the refused move, and the real answer is longer. That is
the crux of such a puzzle: the position where the believer's plans part from the answer and all
of them need the refused move (``Plans.lost``; ``answer.DecisionPoint.rule_decides``).

Distances are found by a breadth-first search of the imagined game from the position asked, to
the first depth that holds a goal; only the states on a shortest plan are kept, and a state's
plan moves are the same whichever search found them (a shortest plan from a state on a shortest
plan from the root is the rest of a shortest plan from the root), so one table serves every
question about one game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..engine import apply_unchecked, finishes_home, legal_moves
from ..graph import autoplay, autoplay_after, is_safe_home
from ..keys import state_key
from ..moves import Move
from ..position import Position
from .misconception import Misconception, added_moves, apply_believed

# The imagined game's states within a plan's length: a small puzzle's stay far below; a bigger
# position is left undecided (the generator cuts it down first).
PLAN_MAX_STATES = 5_000
CACHE_STATES = 400_000  # states kept over all games before the tables start afresh
# States whose moves are kept (with the positions they lead to) before that store starts afresh:
# the searches of one game (a practice page asks dozens) then walk what an earlier one expanded.
# Only the table in use keeps them (``plans_for``): a run over many games holds one game's store.
EXPANDED_STATES = 5_000


Edge = tuple[Move, bytes, bool]  # a move of the imagined game: (move, the state it leads to, refused)


def game_state(pos: Position) -> bytes:
    """A state's key that also tells games apart: foundations, the stock and every pile in place
    (the profile and the base are the table's own, ``plans_for``)."""
    return bytes(pos.foundations) + bytes(pos.stock) + b"|" + state_key(pos, canonical=False)


@dataclass(frozen=True)
class PlanMoves:
    """The first moves of a believer's shortest plans at one state: those the rules allow, and
    those they refuse (the belief added them). Both empty: the goal, or no plan at all."""

    legal: tuple[Move, ...]
    refused: tuple[Move, ...]
    goal: bool = False



@dataclass
class Plans:
    """The believer's plans in every game asked about (one profile, base and belief)."""

    misconception: Misconception
    max_states: int = PLAN_MAX_STATES
    first: dict[bytes, PlanMoves] = field(default_factory=dict)
    # A state's moves in the imagined game, each with the key of the state it leads to, and the
    # (settled) position of every state reached: what a search finds that the next can reuse.
    expanded: dict[bytes, list[Edge]] = field(default_factory=dict)
    reached: dict[bytes, Position] = field(default_factory=dict)

    def first_moves(self, pos: Position, max_states: int | None = None) -> PlanMoves | None:
        """The first moves of the believer's shortest plans from `pos` (None: the imagined game
        has more than `max_states` states within the plans' length; default: the table's
        ``max_states``). Where a card can go home with no possible harm (``graph.autoplay``),
        those moves come first: they are no choice. A smaller budget gives the same answer or
        None: a search either ends exact or is not kept."""
        if autoplay(pos)[1]:
            return PlanMoves(tuple(m for m in legal_moves(pos) if _safe_now(pos, m)), ())
        key = game_state(pos)
        if key not in self.first and not self._search(pos, key, max_states or self.max_states):
            return None
        return self.first[key]

    def _search(self, root: Position, root_key: bytes, max_states: int) -> bool:
        """Breadth first from `root` to the first depth that holds a goal, then back: every state
        on a shortest plan gets its plan moves. False when the states run past `max_states`."""
        layers: list[list[tuple[bytes, Position]]] = [[(root_key, root)]]
        depth_of = {root_key: 0}
        edges: dict[bytes, list[Edge]] = {}
        goals: set[bytes] = set()
        while layers[-1]:
            goals = {key for key, here in layers[-1] if finishes_home(here)}
            if goals:
                break
            depth = len(layers)
            layer: list[tuple[bytes, Position]] = []
            for key, here in layers[-1]:
                out = edges.setdefault(key, [])
                for move, child_key, refused in self._moves(key, here):
                    if child_key not in depth_of:
                        if len(depth_of) >= max_states:
                            return False
                        depth_of[child_key] = depth
                        layer.append((child_key, self.reached[child_key]))
                    if depth_of[child_key] == depth:
                        out.append((move, child_key, refused))
            layers.append(layer)
        self._keep(layers, edges, goals)
        if root_key not in self.first:  # the imagined game is lost as well: no plan at all
            self.first[root_key] = PlanMoves((), ())
        return True

    def _moves(self, key: bytes, here: Position) -> list[Edge]:
        """The imagined game's moves at `here` (whose key is `key`), each with the key of the state
        it leads to (its position in ``reached``): found once, then read."""
        known = self.expanded.get(key)
        if known is not None:
            return known
        if len(self.expanded) >= EXPANDED_STATES:
            self.expanded.clear()
            self.reached.clear()
        out: list[Edge] = []
        for move, child, refused in self._children(here):
            child_key = game_state(child)
            self.reached.setdefault(child_key, child)
            out.append((move, child_key, refused))
        self.expanded[key] = out
        return out

    def _children(self, here: Position) -> list[tuple[Move, Position, bool]]:
        """Every move the believer imagines at `here` and its result, with the safe moves home
        after it played at once (they are no choice): (move, after, refused)."""
        out = [(move, autoplay_after(here, move, apply_unchecked(here, move))[0], False)
               for move in legal_moves(here)]
        out += [(move, autoplay_after(here, move, apply_believed(here, move, self.misconception))[0], True)
                for move in added_moves(here, self.misconception)]
        return out

    def _keep(self, layers: list[list[tuple[bytes, Position]]], edges: dict[bytes, list[Edge]],
              goals: set[bytes]) -> None:
        """Walk back from the goals: a state is on a plan when one of its moves leads onto one."""
        if len(self.first) > CACHE_STATES:
            self.first.clear()
        on_plan = set(goals)
        for key in goals:
            self.first[key] = PlanMoves((), (), goal=True)
        for layer in reversed(layers[:-1] if goals else []):
            for key, _ in layer:
                steps = [(move, refused) for move, child, refused in edges.get(key, ()) if child in on_plan]
                if steps:
                    on_plan.add(key)
                    self.first[key] = PlanMoves(tuple(m for m, r in steps if not r),
                                                tuple(m for m, r in steps if r))

    def lost(self, pos: Position, max_states: int | None = None) -> bool | None:
        """Does every plan the believer may follow from `pos` need a move the rule refuses? None:
        could not tell (within `max_states` per search; default: the table's).

        The believer wins on reaching the goal by the plans' legal moves; where a plan's next move
        is refused, that plan fails (the move cannot be made: the answer the believer would write
        is wrong there). Lost: every line of plan moves fails so."""
        seen: dict[bytes, bool | None] = {}

        def walk(here: Position) -> bool | None:
            here = autoplay(here)[0]
            key = game_state(here)
            if key in seen:
                return seen[key]
            moves = self.first_moves(here, max_states)
            if moves is None:
                result: bool | None = None
            elif moves.goal:
                result = False
            else:
                results = [walk(apply_unchecked(here, move)) for move in moves.legal]
                result = False if False in results else None if None in results else True
            seen[key] = result
            return result

        return walk(pos)

    def refused_ahead(self, pos: Position, move: Move) -> tuple[Position, Move] | None:
        """Where a believer who plays `move` at `pos` is caught out, following its plans from
        there (the first plan move in turn): the position and the refused move; None when the
        plans never need one (or could not be found)."""
        here = apply_unchecked(pos, move)
        for _ in range(self.max_states):
            here = autoplay(here)[0]
            moves = self.first_moves(here)
            if moves is None or moves.goal:
                return None
            if moves.refused:
                return here, moves.refused[0]
            if not moves.legal:
                return None
            here = apply_unchecked(here, moves.legal[0])
        return None


def _safe_now(pos: Position, move: Move) -> bool:
    """Is `move` a move home that ``graph.autoplay`` would play first here (any of them may)?"""
    return move.dest.is_foundation and move.card is not None and is_safe_home(pos, move.card)


def plan_departures(pos: Position, line: Sequence[Move], misconception: Misconception,
                    first_only: bool = False, max_states: int | None = None) -> list[int]:
    """The moves of `line` (indexes) that are not a first move of the believer's plans where they
    are played: where the answer parts from what the belief would do (`first_only`: the first such
    move alone, without searching the positions after it; `max_states`: each search's budget, a
    position whose search passes it counting as no departure)."""
    plans = plans_for(misconception, pos)
    out: list[int] = []
    here = pos
    for i, move in enumerate(line):
        first = plans.first_moves(here, max_states)
        if first is not None and not first.goal and move not in first.legal:
            out.append(i)
            if first_only:
                break
        here = apply_unchecked(here, move)
    return out


_TABLES: dict[tuple[Misconception, str, int], Plans] = {}


_IN_USE: list[Plans] = []  # the table asked last: the only one that keeps its expanded states


def plans_for(misconception: Misconception, pos: Position) -> Plans:
    """The one table of plans for the belief in the game of `pos` (its profile and base)."""
    key = (misconception, pos.profile.id, pos.base)
    if key not in _TABLES:
        _TABLES[key] = Plans(misconception)
    table = _TABLES[key]
    if _IN_USE and _IN_USE[0] is not table:
        _IN_USE[0].expanded.clear()
        _IN_USE[0].reached.clear()
    _IN_USE[:] = [table]
    return table
