"""The compiled search (``_core``, a C extension) behind the interface of :class:`DepthFirst`.

``_core`` is the same algorithm as :mod:`agnes_teach.solver.search`, move for
move (the tests compare verdicts, paths and node counts).  It is built by
``pip install`` when a C compiler is present; without it :data:`AVAILABLE` is
False and the solver runs the Python search, with the same answers, slower.
"""

from __future__ import annotations

import random
from types import ModuleType

from .fast import FastMove, FastState, Rules

_core: ModuleType | None
try:
    from . import _core  # type: ignore[attr-defined,no-redef]
except ImportError:  # no compiler at install time: the pure-Python search is used
    _core = None

AVAILABLE = _core is not None

# Table slots per search (16 bytes each, filled at most half): 2**24 slots = 256 MiB, 8.4 M states.
DEFAULT_SLOTS = 1 << 24

# Slots of the table of proved-lost states the searches of one solve share (16 bytes each, filled
# at most half, as search.LOST_LIMIT; it grows to that from 16 KiB as states are proved): 128 MiB.
LOST_SLOTS = 1 << 23

_WON, _LOST, _RUNNING, _FULL = 1, 0, -1, 2


def lost_table() -> object:
    """A table of proved-lost states to share between compiled searches (``lost=``)."""
    if _core is None:
        raise RuntimeError("the compiled search is not built (install with a C compiler)")
    return _core.lost_table(LOST_SLOTS)


def supports(state: FastState) -> bool:
    """Can the compiled core play this profile?  It knows a table for building and one for runs,
    deals onto reserve piles and exposed cells, and an empty-column rule by card; Agnes Sorel (deals
    onto the columns, one card at a time into a space) is left to the Python search."""
    r = state.rules
    return not r.deals_onto_columns and not r.empty_single_only


def _snapshot(state: FastState) -> tuple[object, ...]:
    """The core's copy of a state (``new``'s second argument)."""
    return ([bytes(c) for c in state.cols], [bytes(p) for p in state.stacks],
            tuple(state.found), bytes(state.stock), state.deals_done)


def core_tables(r: Rules) -> tuple[object, ...]:
    """The core's copy of a game's tables (``new``'s first argument)."""
    return (
        bytes(r.on), bytes(r.link), bytes(r.rel), bytes(r.suit), bytes(r.is_empty_rank),
        r.whole_runs_only, r.foundation_return,
        bytes(r.stack_home), bytes(tag[0] for tag in r.stack_tag),
        [bytes(d) for d in r.deals],
        [bytes(live) for live, _ in r.stack_groups],
        [bytes(free) for _, free in r.stack_groups],
        bytes(c for suit in r.card_at for c in suit),
    )


class CompiledDepthFirst:
    """A resumable depth-first search run by ``_core``; the interface of ``DepthFirst``.

    `tables`: ``core_tables`` of the state's rules, when the caller has them already.

    ``full`` becomes True when the transposition table reached ``slots``: the
    search then stops for good (``run`` returns None) and the caller answers
    unknown unless another search decides.
    """

    def __init__(
        self, state: FastState, *, prune: bool, deal_first: bool, deal_timing: bool = True,
        reverse: bool = False, store_forced: bool = True, tight_lookahead: bool = True, seed: int = 0,
        slots: int = DEFAULT_SLOTS, lost: object | None = None, split_home_only: bool = False,
        tables: tuple[object, ...] | None = None,
    ) -> None:
        if _core is None:
            raise RuntimeError("the compiled search is not built (install with a C compiler)")
        if not supports(state):
            raise RuntimeError(f"the compiled search does not play {state.rules.profile.id} "
                               "(the Python search does)")
        self.state = state  # the root; the C side keeps its own copy
        self.prune = prune
        self.deal_first = deal_first
        self._lost = lost  # the shared table must outlive the search
        options = (prune, deal_first, deal_timing, reverse, store_forced, tight_lookahead, split_home_only,
                   seed, slots, lost)
        self._handle = _core.new(tables if tables is not None else core_tables(state.rules), _snapshot(state),
                                 *options)
        self.full = False
        self.result: bool | None = None
        self._sync()

    def _sync(self) -> None:
        assert _core is not None
        code, self.nodes, self.stored, self.memory = _core.info(self._handle)
        self.result = True if code == _WON else False if code == _LOST else None
        self.full = code == _FULL

    def run(self, limit: int) -> bool | None:
        if self.result is not None or self.full:
            return self.result
        assert _core is not None
        _core.run(self._handle, limit)
        self._sync()
        return self.result

    @property
    def path(self) -> list[FastMove]:
        assert _core is not None
        return [tuple(m) for m in _core.path(self._handle)]  # type: ignore[misc]


class RandomGames:
    """Games played at random from one start by ``_core``: move for move the games
    ``tagger.players`` plays with ``random.Random`` (the engine's legal moves in its order, one
    picked as ``Random.choice`` picks, from the generator's own state), many times faster; the
    tests compare the two.  The random measure of a puzzle plays hundreds of games of up to
    thousands of moves each.

    Each game's generator state is read once (``Random.getstate``) and the Python generator is
    left as it was: a game's generator serves that game only."""

    def __init__(self, state: FastState) -> None:
        if _core is None or not supports(state):
            raise RuntimeError("the compiled core does not play this game")
        self.tables = core_tables(state.rules)
        self.start = _snapshot(state)

    def game(self, rng: random.Random) -> RandomGame:
        return RandomGame(self, rng)


class RandomGame:
    """One game of ``RandomGames``, played a stretch at a time."""

    WON, STUCK = 1, 2

    def __init__(self, games: RandomGames, rng: random.Random) -> None:
        assert _core is not None
        self._handle = _core.walker(games.tables, games.start, rng.getstate()[1])

    def walk(self, steps: int, greedy: bool) -> tuple[int, int]:
        """At most `steps` moves (`greedy`: a move home whenever there is one): (moves made, 0,
        or ``WON`` when the game is won, ``STUCK`` when no move is legal)."""
        assert _core is not None
        made, end = _core.walk(self._handle, steps, greedy)
        return made, end

    def piles(self) -> tuple[list[bytes], list[bytes], tuple[int, int, int, int], int]:
        """(columns, reserve piles then exposed cells, foundation counts, deals made)."""
        assert _core is not None
        cols, stacks, found, deals_done = _core.walker_state(self._handle)
        return cols, stacks, found, deals_done


def random_games(state: FastState) -> RandomGames | None:
    """``RandomGames`` from `state`, or None when the core is not built or does not play its profile."""
    return RandomGames(state) if _core is not None and supports(state) else None


__all__ = ["AVAILABLE", "DEFAULT_SLOTS", "LOST_SLOTS", "CompiledDepthFirst", "RandomGame", "RandomGames",
           "lost_table", "random_games"]
