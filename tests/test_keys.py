"""The one canonical key: keys.state_key is the definition; the fast state computes the same bytes."""

from __future__ import annotations

import dataclasses
import random

from _solver_util import random_small_position, random_walk
from hypothesis import given, settings
from hypothesis import strategies as st

from agnes_teach.cards import Card
from agnes_teach.deal import deal
from agnes_teach.engine import apply_unchecked, legal_moves
from agnes_teach.generator.canonical import puzzle_key
from agnes_teach.keys import futures, game_key, key_and_order, state_key
from agnes_teach.piles import Pile
from agnes_teach.position import Position
from agnes_teach.profile import get_profile, profile_ids
from agnes_teach.solver.fast import FastState, Rules

PROFILES = st.sampled_from(profile_ids())


@settings(max_examples=60, deadline=None)
@given(profile=PROFILES, seed=st.integers(1, 10_000), play=st.integers(0, 2**32 - 1),
       steps=st.integers(0, 80))
def test_fast_state_key_is_the_definition_along_random_games(profile: str, seed: int, play: int,
                                                              steps: int) -> None:
    walk = random_walk(seed, profile, steps, play=play, home_bias=0.0)
    rules = Rules(walk[0])
    carried = FastState(walk[0], rules)  # along the game by do (its futures from the start)
    for i, pos in enumerate(walk):
        if i:
            step = next(m for m in carried.moves()
                        if apply_unchecked(walk[i - 1], carried.engine_move(m)) == pos)
            carried.apply(step)
        assert carried.key(True) == state_key(pos) and carried.key(False) == state_key(pos, False)
        fresh = FastState(pos, rules)
        for canonical in (True, False):
            assert fresh.key(canonical) == state_key(pos, canonical)
        for m in fresh.moves():
            fresh.apply(m)
            after = apply_unchecked(pos, fresh.engine_move(m))
            assert fresh.key(True) == state_key(after), str(fresh.engine_move(m))
            fresh.undo(m)


@settings(max_examples=60, deadline=None)
@given(profile=PROFILES, seed=st.integers(0, 2**32 - 1), out=st.integers(4, 30))
def test_fast_state_key_is_the_definition_on_scattered_positions(profile: str, seed: int, out: int) -> None:
    pos = random_small_position(random.Random(seed), profile, out)
    assert FastState(pos).key(True) == state_key(pos)
    assert FastState(pos).key(False) == state_key(pos, canonical=False)


def _permuted(pos: Position, rng: random.Random, with_futures: bool) -> Position:
    """The columns in another order; with_futures: the stock reordered so that each column takes
    its cards to come along (among columns the deals treat alike)."""
    deals = pos.profile.stock_deals[pos.deals_done:]
    pattern = [tuple(Pile.column(j + 1) in d for d in deals) for j in range(len(pos.tableau))]
    order = list(range(len(pos.tableau)))
    for kind in set(pattern):
        same = [j for j in order if pattern[j] == kind]
        shuffled = same[:]
        rng.shuffle(shuffled)
        for j, k in zip(same, shuffled, strict=True):
            order[j] = k
    tableau = tuple(pos.tableau[order[j]] for j in range(len(order)))
    stock = pos.stock
    if with_futures:
        coming = futures(pos)
        column_of = {Pile.column(j + 1): Pile.column(order[j] + 1) for j in range(len(order))}
        rest, cards = list(pos.stock), []
        for d, targets in enumerate(deals):
            for pile in targets[:len(rest)]:
                cards.append(coming[column_of.get(pile, pile)][d])
            rest = rest[len(targets):]
        stock = tuple(Card(c) for c in cards)
    return Position(pos.profile, pos.base, pos.foundations, tableau, pos.reserve, pos.exposed, stock)


@settings(max_examples=60, deadline=None)
@given(profile=PROFILES, seed=st.integers(1, 10_000), play=st.integers(0, 2**32 - 1),
       steps=st.integers(0, 60), shuffle=st.integers(0, 2**32 - 1))
def test_columns_trade_places_with_the_cards_they_will_receive(profile: str, seed: int, play: int,
                                                               steps: int, shuffle: int) -> None:
    pos = random_walk(seed, profile, steps, play=play, home_bias=0.0)[-1]
    rng = random.Random(shuffle)
    moved = _permuted(pos, rng, with_futures=True)
    assert state_key(moved) == state_key(pos) and game_key(moved) == game_key(pos)
    assert puzzle_key(moved) == puzzle_key(pos)
    # Where deals still land on the columns, two columns swapped without their cards to come are
    # another game: t1 and t2 receive every deal in both Sorel profiles.
    coming = futures(pos)
    one, two = Pile.column(1), Pile.column(2)
    if pos.profile.deals_onto_columns and one in coming and two in coming \
            and pos.tableau[0] != pos.tableau[1]:
        swapped = (pos.tableau[1], pos.tableau[0], *pos.tableau[2:])
        alone = Position(pos.profile, pos.base, pos.foundations, swapped, pos.reserve, pos.exposed, pos.stock)
        assert state_key(alone) != state_key(pos)


def test_the_key_tells_states_apart() -> None:
    for profile in profile_ids():
        for pos in random_walk(5, profile, 40, play=1, home_bias=0.0)[::5]:
            for move in legal_moves(pos)[:8]:
                after = apply_unchecked(pos, move)
                if sorted(after.tableau) != sorted(pos.tableau) or after.stock != pos.stock \
                        or sorted(after.reserve + after.exposed) != sorted(pos.reserve + pos.exposed):
                    assert state_key(after) != state_key(pos)


def test_columns_a_deal_will_reach_keep_their_place() -> None:
    for profile, same in (("bernauer", True), ("sorel", False), ("sorel-strict", False)):
        pos = deal(4, get_profile(profile))
        swapped = Position(pos.profile, pos.base, pos.foundations,
                           (pos.tableau[1], pos.tableau[0], *pos.tableau[2:]), pos.reserve, pos.exposed,
                           pos.stock)
        assert (state_key(swapped) == state_key(pos)) is same, profile
        assert (FastState(swapped).key(True) == FastState(pos).key(True)) is same, profile


@settings(max_examples=80, deadline=None)
@given(profile=PROFILES, seed=st.integers(0, 2**32 - 1), out=st.integers(4, 40), steps=st.integers(0, 60))
def test_state_key_shortcut_is_the_definition(profile: str, seed: int, out: int, steps: int) -> None:
    """Without a deal to come, state_key builds key_and_order's bytes by a shorter way."""
    rng = random.Random(seed)
    small = random_small_position(rng, profile, out)
    walk = random_walk(seed % 10_000 + 1, profile, steps, play=seed, home_bias=0.0)
    # Without its stock the position is not a valid one, but its key is still defined.
    for pos in (small, walk[-1], dataclasses.replace(small, stock=())):
        assert state_key(pos) == key_and_order(pos)[0]
        assert game_key(pos).endswith(key_and_order(pos)[0])
