"""Hints: every legal first move with its verdict, the best one, and one sentence why.

Two modes, and a hint always says which it used:

* **full** information: the solver knows the order of the stock (as
  ``solve`` does).  Each first move is solved once (moves that reach the same
  state up to symmetry are one choice) and is ``won`` (it keeps the win),
  ``lost`` or ``unknown`` within the budget.
* **fair**: the order of the stock, the only cards a player cannot see, is
  unknown.  The position is re-solved after each first move for each of K
  orders of the hidden cards, sampled at random (seeded; every order when
  there are at most K), and a move is scored by the share of orders after
  which it keeps the win, with a 95% Wilson interval.  The real stock order is
  not among them unless a sample happens to draw it: a hint must not peek.

The best move is the one that keeps the win (in full mode) or keeps it in the
most orders (fair mode); ties go to a move home, then a move on the table,
then a deal, since dealing early is the commonest way to lose.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any, Literal, cast

from . import i18n
from .engine import apply_unchecked, legal_moves
from .fairness import Orders, hidden_orders
from .moves import Move
from .position import Position
from .registry import Verdict
from .solver import Status, canonical_key, first_move_verdicts, solve
from .stats import wilson

Mode = Literal["full", "fair"]
DEFAULT_SECONDS = 2.0  # full mode: solver budget per first move
DEFAULT_FAIR_STATES = 5_000  # fair mode: solver budget per move and order, in states (reproducible)


@dataclass(frozen=True)
class MoveHint:
    """One legal first move and what the solver found after it."""

    move: Move
    verdict: Status
    wins: int | None = None  # fair mode: orders after which the move keeps the win
    lost: int | None = None  # fair mode: orders after which it is proved lost
    of: int | None = None  # fair mode: orders tried

    def interval(self) -> tuple[float, float] | None:
        """95% Wilson interval of the share of orders in which the move keeps the win (fair mode)."""
        return None if self.wins is None or not self.of else wilson(self.wins, self.of)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"move": str(self.move), "verdict": self.verdict}
        if self.of is not None:
            low, high = self.interval() or (0.0, 1.0)
            out |= {"wins": self.wins, "of": self.of, Verdict.LOST.value: self.lost,
                    "interval": [round(low, 4), round(high, 4)]}
        return out


@dataclass
class Hint:
    mode: Mode
    moves: list[MoveHint]
    best: MoveHint | None
    reason_id: str
    exhaustive: bool = False  # fair mode: every order of the hidden cards was tried
    hidden: int = 0  # cards in the stock
    seconds: float = 0.0
    params: dict[str, Any] = field(default_factory=dict)

    def reason(self, lang: str = i18n.DEFAULT_LANG) -> str:
        """One sentence why the best move is best, in `lang`."""
        values: dict[str, object] = dict(self.params)
        if self.best is not None:
            values["move"] = i18n.move_words(self.best.move, lang)
            if self.best.of is not None:
                low, high = self.best.interval() or (0.0, 1.0)
                values |= {"wins": self.best.wins, "of": self.best.of,
                           "low": round(100 * low), "high": round(100 * high)}
        return i18n.text(lang, "hint", REASONS[self.reason_id], **values)

    def to_json(self, lang: str = i18n.DEFAULT_LANG) -> dict[str, Any]:
        out: dict[str, Any] = {
            "mode": self.mode,
            "moves": [m.to_json() for m in self.moves],
            "best": str(self.best.move) if self.best else None,
            "reason": self.reason(lang),
            "seconds": round(self.seconds, 3),
        }
        if self.mode == "fair":
            out |= {"hidden": self.hidden, "exhaustive": self.exhaustive}
        return out


# The reason id of a game already won; plain text, so a Hint's repr shows the word.
WON_REASON = Verdict.WON.value
# Reason id -> English msgid (context "hint"); every one is in the three catalogues.
REASONS = {
    WON_REASON: "All 52 cards are home: the game is won.",
    "stuck": "There is no legal move: the game is lost.",
    "only": "Best: {move}. It is the only move that keeps the win; every other move loses.",
    "only-proved": "Best: {move}. It is the only move proved to keep the win; "
                   "some others were not decided within the budget.",
    "home": "Best: {move}. It keeps the win and puts the card home for good.",
    "keeps": "Best: {move}. It keeps the win (other moves do too).",
    "all-lost": "Every move loses: this position cannot be won.",
    "undecided": "No move was proved to keep the win within the budget; "
                 "{move} at least was not proved to lose.",
    "fair-best": "Best: {move}. It keeps the win in {wins} of {of} sampled orders of the hidden cards "
                 "(95% interval {low}–{high}%); no move does better.",
    "fair-all": "Best: {move}. It keeps the win in {wins} of all {of} orders of the hidden cards; "
                "no move does better.",
    "fair-open": "Best: {move}. Nothing is hidden (the stock is empty), and it keeps the win.",
    "fair-shown": "Best: {move}. Nothing is hidden (the page shows the stock in order), "
                  "and it keeps the win.",
    "fair-none": "No move keeps the win in any of the {of} orders of the hidden cards that were tried.",
}


def _word(verdict: Verdict) -> Status:
    """The solver's plain word for a verdict (a MoveHint's repr shows the word, as before)."""
    return cast(Status, verdict.value)


def preference(move: Move) -> tuple[int, Move]:
    """Ties go to a move home, then a move on the table, then a deal."""
    return (0 if move.dest.is_foundation else 2 if move.is_deal else 1, move)


def full_hint(pos: Position, *, seconds: float = DEFAULT_SECONDS) -> Hint:
    """The hint with the stock order known: each first move solved within `seconds`."""
    start = time.perf_counter()
    if pos.is_won():
        return Hint("full", [], None, WON_REASON, hidden=len(pos.stock))
    verdicts = first_move_verdicts(pos, seconds=seconds)
    status = {m: _word(Verdict.WON) for m in verdicts.winning}
    status |= {m: _word(Verdict.LOST) for m in verdicts.losing}
    status |= {m: _word(Verdict.UNKNOWN) for m in verdicts.unknown}
    moves = [MoveHint(m, status[m]) for m in sorted(status, key=preference)]
    elapsed = time.perf_counter() - start
    if not moves:
        return Hint("full", [], None, "stuck", seconds=elapsed)
    winners = [m for m in moves if m.verdict == Verdict.WON]
    if winners:
        best = winners[0]
        if len(verdicts.winning_groups()) == 1:
            reason = "only" if not verdicts.unknown else "only-proved"
        else:
            reason = "home" if best.move.dest.is_foundation else "keeps"
        return Hint("full", moves, best, reason, seconds=elapsed)
    undecided = [m for m in moves if m.verdict == Verdict.UNKNOWN]
    if undecided:
        return Hint("full", moves, undecided[0], "undecided", seconds=elapsed)
    return Hint("full", moves, None, "all-lost", seconds=elapsed)


def fair_hint(pos: Position, orders: int, *, states: int = DEFAULT_FAIR_STATES, seed: int = 0,
              workers: int = 1, stock_visible: bool = False,
              progress: Callable[[int, int], None] | None = None) -> Hint:
    """The hint with the stock order unknown: each first move re-solved for `orders` orders of it.

    The orders come from :func:`agnes_teach.fairness.hidden_orders` (every order
    when there are at most `orders`, else a seeded random sample).  Each solve
    gets `states` expanded states (a budget in states, not seconds, so the same
    call gives the same hint on any machine); moves that reach the same state up
    to symmetry share one solve.  An order after which the solver runs out of
    budget counts as not keeping the win, so a score is a lower bound; ``lost``
    says how many orders were proved lost.  `workers` > 1 solves the orders in
    that many processes (the result is the same).  `stock_visible`: the page
    shows the stock in order (a scenario's ``stock_shown``), so nothing is
    hidden and the one order tried is the real one.  `progress` is called with
    (orders done, orders in all) after each order.
    """
    if orders < 1:
        raise ValueError("a fair hint needs at least one order of the hidden cards")
    start = time.perf_counter()
    if pos.is_won():
        return Hint("fair", [], None, WON_REASON, hidden=len(pos.stock))
    tried = _orders_tried(pos, orders, seed, stock_visible)
    hidden = 0 if stock_visible else len(pos.stock)
    first = legal_moves(pos)
    n = len(tried.positions)
    moves = _fair_moves(first, tried.positions, states, workers, progress)
    elapsed = time.perf_counter() - start
    common: dict[str, Any] = {"exhaustive": tried.exhaustive, "hidden": hidden, "seconds": elapsed,
                              "params": {"of": n, "n": n, "hidden": hidden}}
    if not moves:
        return Hint("fair", [], None, "stuck", **common)
    best = moves[0]
    if not best.wins:
        return Hint("fair", moves, None, "fair-none", **common)
    if not hidden:
        reason = "fair-shown" if pos.stock else "fair-open"
    else:
        reason = "fair-all" if tried.exhaustive else "fair-best"
    return Hint("fair", moves, best, reason, **common)


def _orders_tried(pos: Position, orders: int, seed: int, stock_visible: bool) -> Orders:
    """The orders of the stock a fair hint solves: the real one alone when the stock is shown."""
    # The orders tried include the one the position lists; shuffle it first, so the real
    # order is no likelier to be tried than any other: a hint must not peek at the stock.
    stock = list(pos.stock)
    random.Random(f"fair-hint/{seed}").shuffle(stock)
    if stock_visible:
        return Orders((pos,), True, 1)
    return hidden_orders(replace(pos, stock=tuple(stock)), limit=orders, sample=orders, seed=seed)


def _fair_moves(first: list[Move], tried: Sequence[Position], states: int, workers: int,
                progress: Callable[[int, int], None] | None) -> list[MoveHint]:
    """Each first move with the orders it keeps the win in (and is proved lost in), best first."""
    wins = dict.fromkeys(first, 0)
    lost = dict.fromkeys(first, 0)
    jobs = [(here, first, states) for here in tried]
    with _mapper(workers) as run:
        for done, statuses in enumerate(run(_order_statuses, jobs), 1):
            for move, status in zip(first, statuses, strict=True):
                wins[move] += status == Verdict.WON
                lost[move] += status == Verdict.LOST
            if progress is not None:
                progress(done, len(jobs))
    n = len(tried)
    moves = []
    for move in first:
        decided = Verdict.WON if wins[move] == n else Verdict.LOST if lost[move] == n else Verdict.UNKNOWN
        moves.append(MoveHint(move, _word(decided), wins=wins[move], lost=lost[move], of=n))
    # Most wins first; then fewest proved losses; then home, table, deal.
    moves.sort(key=lambda m: (-(m.wins or 0), m.lost or 0, preference(m.move)))
    return moves


def _order_statuses(job: tuple[Position, list[Move], int]) -> list[Status]:
    """The verdict after each first move in one order of the hidden cards (one solve per distinct state)."""
    here, first, states = job
    status_of: dict[bytes, Status] = {}
    out: list[Status] = []
    for move in first:
        after = apply_unchecked(here, move)
        key = canonical_key(after)
        if key not in status_of:
            status_of[key] = solve(after, nodes=states).status
        out.append(status_of[key])
    return out


@contextmanager
def _mapper(workers: int) -> Iterator[Callable[..., Iterable[list[Status]]]]:
    """``map`` in this process, or an ordered map over `workers` processes."""
    if workers <= 1:
        yield map
        return
    import multiprocessing

    from .outputs import worker_init

    with multiprocessing.get_context("spawn").Pool(workers, initializer=worker_init) as pool:
        yield pool.imap
