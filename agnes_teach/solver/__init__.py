"""The exact solver's public API.

``solve`` decides a position: ``won`` (with a solution that replays through the
engine, checked when it is first read), ``lost`` (the whole reachable space
was refuted) or ``unknown`` (the budget ran out).  Never a guess.  The search
itself, and why its pruning is safe, is described in :mod:`agnes_teach.solver.search`.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Literal

from ..clock import check as check_clock
from ..engine import apply_move, apply_unchecked, legal_moves
from ..keys import game_key
from ..moves import Move
from ..position import Position
from ..registry import Verdict
from . import compiled
from .fast import FastMove, FastState, Rules, engine_move
from .search import DepthFirst, Restarts, Search

# What `solve` decides about a position: won, lost or unknown (a registry.Verdict).
Status = Verdict
Engine = Literal["auto", "c", "python"]

# States each of the interleaved searches expands before the next takes a turn.
SLICE = 500


@dataclass(frozen=True)
class Order:
    """One search of the portfolio: ``deal`` first or last, buckets of moves backwards or not,
    ``restarts``: short runs in shuffled orders (:class:`.search.Restarts`) instead of one long run,
    ``after``: the search joins once the portfolio has expanded that many states, and
    ``split_home_only``: the search plays a restricted game in which a run is split off a card
    only when that card then goes home.  Its wins are wins (replayed like any other); its
    exhaustion proves nothing, since the restriction is not a proved dominance in this game
    (a split also lets the twin of the moved card take its place), so it then simply stops,
    and it neither reads nor writes the shared table of lost states."""

    deal_first: bool = False
    reverse: bool = False
    restarts: bool = False
    after: int = 0
    split_home_only: bool = False


# The searches `solve` runs side by side (bench/solver.py measures each choice): the two fixed
# orders, the first with its buckets backwards, and - for deals still open after a second or
# so - restarts in shuffled orders.  The last two find wins the fixed orders miss for millions
# of states; restarts from the start only slowed the quick deals down (measured), hence `after`.
RESTARTS_AFTER = 500_000
PORTFOLIO = (Order(), Order(deal_first=True), Order(reverse=True), Order(restarts=True, after=RESTARTS_AFTER))


class SolveResult:
    """What :func:`solve` decided: its verdict, a winning line when won, states expanded, time.

    The winning line is made of engine moves and replayed through the engine (every move checked by
    the rules) the first time it is read, and a line that does not replay to a win is an internal
    error.  A caller that asks only for the verdict (the generator asks hundreds of thousands of
    times) pays for neither: measured, they were two thirds of an agnes-ru generation run, whose
    lines run to hundreds of moves.  The compiled core and the Python search are held to the same
    verdicts and lines by the test suite."""

    __slots__ = ("status", "nodes", "seconds", "_line", "_path", "_unchecked_from")

    def __init__(self, status: Status, solution: list[Move] | None = None, nodes: int = 0,
                 seconds: float = 0.0, *, replay_from: Position | None = None,
                 path: Sequence[FastMove] | None = None) -> None:
        self.status = status
        self.nodes = nodes
        self.seconds = seconds
        self._line = list(solution or [])
        self._path = path  # the search's own moves, made engine moves when the line is read
        self._unchecked_from = replay_from  # the start to replay the line from (None: done)

    @property
    def solution(self) -> list[Move]:
        """The winning line (empty unless won), replayed through the engine on first reading.

        :raises RuntimeError: the search's line does not replay to a win (a solver bug)."""
        if self._path is not None:
            self._line, self._path = [engine_move(m) for m in self._path], None
        if self._unchecked_from is not None:
            if not replays_to_win(self._unchecked_from, self._line):
                raise RuntimeError("internal error: the solver's win does not replay through the engine")
            self._unchecked_from = None
        return self._line

    def __repr__(self) -> str:
        moves = len(self._path) if self._path is not None else len(self._line)
        return f"SolveResult({self.status!r}, {moves} moves, nodes={self.nodes})"

    def to_json(self) -> dict[str, object]:
        return {
            "status": self.status,
            "solution": [str(m) for m in self.solution],
            "nodes": self.nodes,
            "seconds": round(self.seconds, 4),
        }


def solve(
    pos: Position,
    *,
    seconds: float | None = None,
    nodes: int | None = None,
    prune: bool = True,
    orders: Iterable[Order | bool] = PORTFOLIO,
    engine: Engine = "auto",
    rules: Rules | None = None,
    deal_timing: bool = True,
    store_forced: bool = True,
    tight_lookahead: bool = True,
    share_losses: bool = True,
    widened: bool = False,
) -> SolveResult:
    """Decide `pos` exactly within a budget of `seconds` and/or expanded `nodes`.

    Depth-first searches run side by side in slices, each with its own move
    order (``orders``, default :data:`PORTFOLIO`: ``deal`` last, ``deal``
    first, ``deal`` last with each bucket of moves backwards, and restarts
    in shuffled orders; a bare bool is ``Order(deal_first=...)``; pass one
    value for a single search).
    Any one finishing decides the position.  ``prune=False`` switches off
    every pruning and dominance rule (canonical keys, safe moves home,
    pointless moves, dead-end detection, run moves that lead nowhere, deal
    timing); the move order stays.  ``deal_timing=False`` switches off only
    the rule of when to deal (search.py, point 6), ``store_forced=False``
    keeps states whose one move is forced out of the table (measured: it
    does not pay, so it is off), and
    ``tight_lookahead=False`` takes the looser test of point 5 (a run move
    whose column may be used after one more move), each to measure what it
    gains (bench/solver.py); ``share_losses=False`` keeps each search's
    proved-lost states to itself.

    ``engine`` picks the implementation of the search: ``"c"`` the compiled
    core, ``"python"`` the reference in :mod:`.search`, ``"auto"`` the
    compiled one when it is built.  Both expand the same states in the same
    order, so the answer and ``nodes`` do not depend on it; the compiled
    one stops with ``unknown`` if its transposition table fills
    (:data:`.compiled.DEFAULT_SLOTS`).  A win's line is replayed through the
    engine when it is first read (:class:`SolveResult`).

    ``rules`` replaces the tables the search derives from the profile (default
    ``Rules(pos)``): a restriction of them (fewer hosts, no empty-column
    entries) decides the game of a player who never makes the removed moves;
    such a win is still replayed through the engine under the real rules. ``widened``: the tables
    hold moves the real rules refuse (the game of a player who believes them legal), so a win is
    not replayed.
    """
    start = time.perf_counter()
    deadline = start + seconds if seconds is not None else None
    rules, shared = (rules, None) if rules is not None else _profile_rules(pos)
    root = FastState(pos, rules)
    use_c = _use_compiled(root, engine)
    plan = [o if isinstance(o, Order) else Order(deal_first=o) for o in orders]
    searches = _searches(root, plan, use_c, prune=prune, deal_timing=deal_timing,
                         store_forced=store_forced, tight_lookahead=tight_lookahead,
                         share_losses=share_losses, tables=shared)
    return _interleave(pos, plan, searches, prune, nodes, deadline, start, replay=not widened)


class _SharedRules:
    """A profile's tables for one base rank, and the compiled core's copy of them, made once."""

    def __init__(self, pos: Position) -> None:
        self.profile = pos.profile  # held, so that the id in the key is never another profile's
        self.rules = Rules(pos)
        self._core_tables: tuple[object, ...] | None = None

    def core_tables(self) -> tuple[object, ...]:
        if self._core_tables is None:
            self._core_tables = compiled.core_tables(self.rules)
        return self._core_tables


# Most solves are small (the generator's checks ask "still won?" of positions of a few dozen
# states) and making the tables took longer than the search: a solve without `rules` of its own
# reads these, which nothing changes (a restriction narrows a Rules of its own).
_SHARED: dict[tuple[int, int], _SharedRules] = {}


def _profile_rules(pos: Position) -> tuple[Rules, _SharedRules]:
    key = (id(pos.profile), pos.base)
    shared = _SHARED.get(key)
    if shared is None or shared.profile is not pos.profile:
        shared = _SHARED[key] = _SharedRules(pos)
    return shared.rules, shared


def _use_compiled(root: FastState, engine: Engine) -> bool:
    """Does `engine` mean the compiled search for this position (RuntimeError if it cannot be had)?"""
    if engine == "c" and not compiled.AVAILABLE:
        raise RuntimeError("the compiled search is not built (install with a C compiler)")
    supported = compiled.supports(root)
    if engine == "c" and not supported:
        raise RuntimeError(f"the compiled search does not play {root.rules.profile.id} (use engine='python')")
    # "auto" falls back to the Python search for profiles the compiled core does not know (Sorel).
    return engine == "c" or (engine == "auto" and compiled.AVAILABLE and supported)


def _searches(
    root: FastState, plan: list[Order], use_c: bool, *, prune: bool, deal_timing: bool,
    store_forced: bool, tight_lookahead: bool, share_losses: bool, tables: _SharedRules | None = None,
) -> list[Restarts | Search]:
    """One search per order of `plan`, each from its own copy of `root`, sharing one table of lost
    states; `tables`: the shared tables `root` was made with (the compiled core's copy is reused)."""
    # States one search proves lost, the others skip (search.py, "Shared losses").
    lost: object | None = None
    if share_losses and prune:
        lost = compiled.lost_table() if use_c else {}
    core_tables = tables.core_tables() if use_c and tables is not None else None

    def make(order: Order, seed: int = 0) -> Search:
        restricted = order.split_home_only and prune
        if use_c:
            return compiled.CompiledDepthFirst(
                root.copy(), prune=prune, deal_first=order.deal_first, reverse=order.reverse,
                deal_timing=deal_timing, store_forced=store_forced, tight_lookahead=tight_lookahead,
                seed=seed, lost=None if restricted else lost, split_home_only=restricted, tables=core_tables)
        return DepthFirst(
            root.copy(), prune=prune, deal_first=order.deal_first, reverse=order.reverse,
            deal_timing=deal_timing, store_forced=store_forced, tight_lookahead=tight_lookahead, seed=seed,
            lost=None if restricted else lost, split_home_only=restricted)  # type: ignore[arg-type]

    searches = [Restarts(partial(make, o), root.copy()) if o.restarts else make(o) for o in plan]
    if not searches:
        raise ValueError("solve needs at least one search order")
    return searches


def _interleave(pos: Position, plan: list[Order], searches: list[Restarts | Search], prune: bool,
                nodes: int | None, deadline: float | None, start: float, replay: bool = True) -> SolveResult:
    """Run the searches side by side, SLICE states at a time each, until one decides or the budget ends."""
    # A restricted search that ends without a win proves nothing: it just drops out.
    dropped = [False] * len(plan)
    limit = 0
    joined_at = [0 if o.after == 0 else None for o in plan]  # the limit at which each search joined
    while True:
        check_clock()  # a run's deadline stops the search between slices (``clock``)
        limit += SLICE
        for i, search in enumerate(searches):
            if dropped[i]:
                continue
            spent = sum(s.nodes for s in searches)
            if joined_at[i] is None:
                # A search that waits needs another one running meanwhile (else it starts at once).
                running = any(j is not None and not gone for j, gone in zip(joined_at, dropped, strict=True))
                if spent < plan[i].after and running:
                    continue
                joined_at[i] = limit - SLICE
            own = limit - (joined_at[i] or 0)
            others = spent - search.nodes
            step = own if nodes is None else min(own, nodes - others)
            result = search.run(max(step, search.nodes))
            if result is False and plan[i].split_home_only and prune:
                dropped[i] = True
                continue
            if result is not None:
                return SolveResult(
                    Verdict.WON if result else Verdict.LOST,
                    None,
                    sum(s.nodes for s in searches),
                    time.perf_counter() - start,
                    replay_from=pos if result and replay else None,
                    path=list(search.path) if result else None,
                )
        spent = sum(s.nodes for s in searches)
        over_time = deadline is not None and time.perf_counter() > deadline
        stuck = all(getattr(s, "full", False) or gone for s, gone in zip(searches, dropped, strict=True))
        if (nodes is not None and spent >= nodes) or over_time or stuck:
            return SolveResult(Verdict.UNKNOWN, [], spent, time.perf_counter() - start)


def replays_to_win(pos: Position, solution: list[Move]) -> bool:
    """Does `solution` play legally from `pos` to a win (the engine's verdict, not the solver's)?"""
    try:
        for move in solution:
            pos = apply_move(pos, move)
    except ValueError:  # IllegalMoveError
        return False
    return pos.is_won()


def canonical_key(pos: Position) -> bytes:
    """A key equal for positions that are the same game state up to symmetry (``keys.game_key``).

    Use it to de-duplicate puzzles and to count first moves that reach the same state once.
    """
    return game_key(pos)


@dataclass
class MoveGroup:
    """First moves that lead to the same state (up to symmetry), and its verdict."""

    moves: list[Move]
    status: Status


@dataclass
class FirstMoves:
    """Every legal first move sorted by what the solver proved after it.

    ``groups`` puts together the first moves that reach the same state up to
    symmetry (:func:`canonical_key`): two such moves are one choice, not two
    (e.g. a card into either of two empty columns).  ``winning``, ``losing``
    and ``unknown`` list every move individually.
    """

    winning: list[Move]
    losing: list[Move]
    unknown: list[Move]
    groups: list[MoveGroup] = field(default_factory=list)

    def winning_groups(self) -> list[MoveGroup]:
        return [g for g in self.groups if g.status == Verdict.WON]

    def group_of(self, move: Move) -> MoveGroup | None:
        return next((g for g in self.groups if move in g.moves), None)


def first_move_verdicts(pos: Position, *, seconds: float | None = None, prune: bool = True) -> FirstMoves:
    """Solve the position after each legal first move (each distinct state with the same budget).

    Moves that reach the same state up to symmetry form one group and are
    solved once; every move of a group gets the group's verdict.
    """
    out = FirstMoves([], [], [])
    by_key: dict[bytes, MoveGroup] = {}
    for move in legal_moves(pos):
        after = apply_unchecked(pos, move)
        key = canonical_key(after)
        group = by_key.get(key)
        if group is None:
            group = MoveGroup([], solve(after, seconds=seconds, prune=prune).status)
            by_key[key] = group
            out.groups.append(group)
        group.moves.append(move)
        by_verdict = {Verdict.WON: out.winning, Verdict.LOST: out.losing, Verdict.UNKNOWN: out.unknown}
        by_verdict[group.status].append(move)
    return out


__all__ = [
    "Engine",
    "FirstMoves",
    "MoveGroup",
    "Order",
    "PORTFOLIO",
    "RESTARTS_AFTER",
    "SolveResult",
    "Status",
    "canonical_key",
    "first_move_verdicts",
    "replays_to_win",
    "solve",
]
