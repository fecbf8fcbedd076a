"""Helpers for the solver tests: random reachable positions, random small positions, brute force."""

from __future__ import annotations

import random
from collections import deque

from agnes_teach.cards import Card, make_card
from agnes_teach.deal import deal
from agnes_teach.engine import apply_move, apply_unchecked, legal_moves
from agnes_teach.errors import InputError
from agnes_teach.moves import Move
from agnes_teach.position import Position, parse_position
from agnes_teach.profile import get_profile, profile_ids


def random_walk(seed: int, profile_id: str, steps: int, play: int | None = None,
                home_bias: float = 0.5) -> list[Position]:
    """The positions of a random game from deal `seed`, its moves drawn with seed `play`
    (default `seed`); a home move is preferred with chance `home_bias` (0: uniform play)."""
    rng = random.Random(seed if play is None else play)
    pos = deal(seed, get_profile(profile_id))
    seen = [pos]
    for _ in range(steps):
        moves = legal_moves(pos)
        if not moves:
            break
        home = [m for m in moves if m.dest == "f"] if home_bias else []
        pos = apply_unchecked(pos, rng.choice(home if home and rng.random() < home_bias else moves))
        seen.append(pos)
    return seen


def random_small_position(
    rng: random.Random, profile_id: str, left: int, stack_share: float = 0.4
) -> Position:
    """A valid position of `profile_id` with about `left` cards not home, dealt at random."""
    profile = get_profile(profile_id)
    while True:
        base = profile.base_rank or rng.randint(1, 13)
        # The cards not home are the last ranks (from the base) of each suit.
        counts = [13, 13, 13, 13]
        # Half the time the cards out are of one colour: then they often have nothing to lie on,
        # which is what makes small positions lost.
        suits = rng.choice([(0, 1, 2, 3), (0, 3), (1, 2)])
        for _ in range(left):
            choices = [s for s in suits if counts[s] > 0] or [s for s in range(4) if counts[s] > 0]
            counts[rng.choice(choices)] -= 1
        out = [make_card((base - 1 + r) % 13 + 1, s) for s in range(4) for r in range(counts[s], 13)]
        rng.shuffle(out)
        sizes = [n for n in profile.stock_sizes() if n <= len(out) // 3]
        stock_size = rng.choice(sizes)
        stock, rest = out[:stock_size], out[stock_size:]
        done = profile.deals_done(stock_size)
        assert done is not None
        heights = profile.max_pile_heights(done)
        tableau: list[list[int]] = [[] for _ in range(profile.columns)]
        reserve: list[list[int]] = [[] for _ in range(profile.reserve_piles)]
        exposed: list[list[int]] = [[] for _ in range(profile.exposed_cells)]
        for card in rest:
            stacks = [(f"r{i + 1}", p) for i, p in enumerate(reserve)]
            if not stock:
                stacks += [(f"x{i + 1}", p) for i, p in enumerate(exposed)]
            room = [p for name, p in stacks if len(p) < heights[name]]
            if room and rng.random() < stack_share:
                rng.choice(room).append(card)
            else:
                rng.choice(tableau).append(card)
        data = Position(
            profile, base, (counts[0], counts[1], counts[2], counts[3]),
            cards(tableau), cards(reserve), cards(exposed), tuple(Card(c) for c in stock),
        ).to_data()
        try:
            return parse_position(data)
        except InputError:
            continue  # e.g. a shape this profile cannot reach; draw again


def cards(piles: list[list[int]]) -> tuple[tuple[Card, ...], ...]:
    return tuple(tuple(Card(c) for c in pile) for pile in piles)


def brute_force_won(pos: Position, limit: int = 300_000, breadth_first: bool = False) -> bool:
    """Is a won position reachable?  Plain enumeration through the engine, no pruning at all.

    Depth-first finds wins fast when foundations are final; where cards come back from the
    foundations, depth-first wanders off and breadth-first is the one that finishes.
    """
    seen = {pos}
    todo = deque([pos])
    while todo:
        p = todo.popleft() if breadth_first else todo.pop()
        if p.is_won():
            return True
        for move in legal_moves(p):
            q = apply_unchecked(p, move)
            if q not in seen:
                seen.add(q)
                todo.append(q)
        assert len(seen) < limit, "position too large for brute force"
    return False


def replays_to_win(pos: Position, solution: list[Move]) -> bool:
    for move in solution:
        pos = apply_move(pos, move)
    return pos.is_won()


ALL_PROFILES = profile_ids()


# Lost, worked by hand: K♣ lies on Q♣ in r1 and can never leave (its foundation wants Q♣
# first, the red Aces are home, and an empty column takes only a 4).
LOST_POSITION = """\
base: 5
foundations: {S: 4S, H: 4H, D: 4D, C: JC}
tableau: [[], [], [], [], [], [], []]
reserve: [QC KC, AC, 2C, 3C, 4C, [], []]
stock: []
exposed: []
"""
