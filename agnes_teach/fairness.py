"""Decidable from the page: does a claim hold whatever the order of the cards nobody can see?

A worksheet draws the stock face down: the pupil knows *which* cards are in it
(every card not shown elsewhere) but not their order.  A claim about such a
position ("dealing now loses", "this is the only winning move") is fair only
if it holds for every order of those hidden cards.

``hidden_orders`` lists the position once for each order of the stock:
every order when there are at most ``EXHAUSTIVE_LIMIT`` of them, otherwise the
shown order plus a uniform random sample (seeded, so reproducible).
``claim_holds_for_every_order`` re-decides a claim in each of them and says
which it did: a sampled result is evidence, not proof, and its ``argument``
states the bound it gives (with no failure in n sampled orders, the share of
orders where the claim fails is below 3/n at 95% confidence, the "rule of
three").  ``first_move_odds`` re-solves the position after each first move in
every order tried, for a hint that does not peek at the stock.

Only the solver's public API is used.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from .cards import Card
from .engine import apply_unchecked, legal_moves
from .moves import Move
from .position import Position
from .registry import Verdict
from .solver import solve

EXHAUSTIVE_LIMIT = 720  # 6 hidden cards: every order is re-solved
SAMPLE = 100  # orders re-solved beyond that (the shown order among them)
NODES = 200_000  # solver budget per order (states: reproducible)

Claim = Callable[[Position], bool | None]  # True holds, False fails, None undecided


@dataclass(frozen=True)
class Orders:
    """The position once per stock order considered (the order as given first)."""

    positions: tuple[Position, ...]
    exhaustive: bool  # every distinct order is among `positions`
    total: int  # how many distinct orders there are


def hidden_orders(pos: Position, *, limit: int = EXHAUSTIVE_LIMIT, sample: int = SAMPLE,
                  seed: int = 0) -> Orders:
    """Every order of `pos`'s stock (at most `limit` of them), else the given order and a sample."""
    cards = pos.stock
    total = _distinct_orders(cards)
    if total <= limit:
        seen: dict[tuple[Card, ...], None] = {tuple(cards): None}
        for order in itertools.permutations(cards):
            seen.setdefault(tuple(order), None)
        return Orders(tuple(replace(pos, stock=tuple(o)) for o in seen), True, total)
    rng = random.Random(f"hidden-orders/{seed}")
    chosen: dict[tuple[Card, ...], None] = {tuple(cards): None}
    while len(chosen) < min(sample, total):
        shuffled = list(cards)
        rng.shuffle(shuffled)
        chosen.setdefault(tuple(shuffled), None)
    return Orders(tuple(replace(pos, stock=tuple(o)) for o in chosen), False, total)


def _distinct_orders(cards: tuple[Card, ...]) -> int:
    return math.factorial(len(cards))  # cards in a deck are all different


@dataclass
class Fairness:
    """What re-deciding a claim over the hidden orders found."""

    holds: bool | None  # True: held in every order tried; False: failed in one; None: some undecided
    exhaustive: bool
    tried: int
    total: int
    hidden: int  # cards in the stock
    counter: Position | None = None  # an order in which the claim fails
    undecided: int = 0

    @property
    def proved(self) -> bool:
        """The claim holds for every order, checked order by order."""
        return self.holds is True and self.exhaustive

    def argument(self) -> str:
        """How far the result goes, in one English sentence (for files and reports)."""
        if self.hidden == 0:
            return "no hidden cards: the page shows everything"
        if self.holds is False:
            return (f"the claim fails in at least one of the {self.total} orders of the {self.hidden} "
                    f"hidden cards (found after {self.tried} tried)")
        if self.exhaustive:
            what = "holds in every one" if self.holds else "is undecided in some"
            return f"the claim {what} of the {self.tried} orders of the {self.hidden} hidden cards"
        if self.holds is True:
            return (f"the claim holds in all {self.tried} orders tried (a random sample of {self.total}); "
                    f"with 95% confidence it fails in fewer than {3 / self.tried:.1%} of orders")
        return f"the claim fails or is undecided in some of {self.tried} sampled orders of {self.total}"


def claim_holds_for_every_order(pos: Position, claim: Claim, *, limit: int = EXHAUSTIVE_LIMIT,
                                sample: int = SAMPLE, seed: int = 0) -> Fairness:
    """Re-decide `claim` for each order of the hidden stock; stops at the first counter-example."""
    orders = hidden_orders(pos, limit=limit, sample=sample, seed=seed)
    undecided = 0
    tried = 0
    for here in orders.positions:
        tried += 1
        verdict = claim(here)
        if verdict is False:
            return Fairness(False, orders.exhaustive, tried, orders.total, len(pos.stock), here, undecided)
        if verdict is None:
            undecided += 1
    return Fairness(None if undecided else True, orders.exhaustive, tried, orders.total, len(pos.stock),
                    None, undecided)


def status_claim(move: Move | None, want: str, nodes: int = NODES) -> Claim:
    """The claim "after `move` (None: as it stands) the solver says `want`" ("won" or "lost")."""

    def claim(pos: Position) -> bool | None:
        here = apply_unchecked(pos, move) if move is not None else pos
        status = solve(here, nodes=nodes).status
        return None if status == Verdict.UNKNOWN else status == want

    return claim


def key_move_claim(key: Move, nodes: int = NODES) -> Claim:
    """The claim "`key` is the only winning first move" (all others proved lost)."""

    def claim(pos: Position) -> bool | None:
        undecided = False
        for move in legal_moves(pos):
            status = solve(apply_unchecked(pos, move), nodes=nodes).status
            if status == Verdict.UNKNOWN:
                undecided = True
            elif (status == Verdict.WON) != (move == key):
                return False
        return None if undecided else True

    return claim


@dataclass
class Odds:
    """How a first move fares over the hidden orders tried."""

    won: int = 0
    lost: int = 0
    unknown: int = 0

    @property
    def tried(self) -> int:
        return self.won + self.lost + self.unknown

    @property
    def share_won(self) -> float:
        return self.won / self.tried if self.tried else 0.0


@dataclass
class MoveOdds:
    orders: Orders
    odds: dict[Move, Odds] = field(default_factory=dict)


def first_move_odds(pos: Position, *, limit: int = EXHAUSTIVE_LIMIT, sample: int = SAMPLE, seed: int = 0,
                    nodes: int = NODES) -> MoveOdds:
    """For each legal first move, in how many hidden orders it keeps the win (the solver decides)."""
    orders = hidden_orders(pos, limit=limit, sample=sample, seed=seed)
    out = MoveOdds(orders, {m: Odds() for m in legal_moves(pos)})
    for here in orders.positions:
        for move, odds in out.odds.items():
            status = solve(apply_unchecked(here, move), nodes=nodes).status
            setattr(odds, status, getattr(odds, status) + 1)
    return out


__all__ = [
    "EXHAUSTIVE_LIMIT", "SAMPLE", "Claim", "Fairness", "MoveOdds", "Odds", "Orders",
    "claim_holds_for_every_order", "first_move_odds", "hidden_orders", "key_move_claim", "status_claim",
]
