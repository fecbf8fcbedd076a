"""The believer's plan search and the explorer settle each move's result by a shortcut
(``graph.autoplay_after``): a move between piles can only have uncovered one card that goes home
safely.  Held equal to the full settling (every safe move home played, ``graph.autoplay``, also
with ``lowest_first`` as the practice page plays where cards come back) for every legal move and
every move an *add* belief imagines, on random small positions of every profile (hypothesis) and
along random games."""

from __future__ import annotations

import random

import pytest
from _solver_util import ALL_PROFILES, random_small_position, random_walk
from hypothesis import given, settings
from hypothesis import strategies as st

from agnes_teach.engine import apply_unchecked, legal_moves
from agnes_teach.graph import autoplay, autoplay_after
from agnes_teach.position import Position
from agnes_teach.tagger.misconception import added_moves, apply_believed
from agnes_teach.tagger.plans import EXPANDED_STATES, Plans, plans_for
from agnes_teach.themes import all_themes

ADD_BELIEFS = [t.believer for t in all_themes() if t.believer.kind == "add"]


def _check_every_move(pos: Position) -> int:
    """Assert the shortcut on every move at `pos` settled; how many moves were compared."""
    compared = 0
    for lowest_first in (False, True):
        here = autoplay(pos, lowest_first)[0]
        for move in legal_moves(here):
            after = apply_unchecked(here, move)
            assert autoplay_after(here, move, after, lowest_first) == autoplay(after, lowest_first), \
                (str(move), lowest_first, here.to_data())
            compared += 1
        for belief in ADD_BELIEFS:
            for move in added_moves(here, belief):
                after = apply_believed(here, move, belief)
                assert autoplay_after(here, move, after, lowest_first) == autoplay(after, lowest_first), \
                    (str(move), lowest_first, here.to_data())
                compared += 1
    return compared


def test_there_are_add_beliefs_to_check() -> None:
    assert len(ADD_BELIEFS) >= 3


@pytest.mark.parametrize("profile_id", ALL_PROFILES)
def test_the_shortcut_settles_as_the_full_settling_along_random_games(profile_id: str) -> None:
    compared = 0
    for seed in range(6):
        for pos in random_walk(seed, profile_id, 120, home_bias=0.3)[::4]:
            compared += _check_every_move(pos)
    assert compared > 40  # the walks are games, not stalls


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), profile_id=st.sampled_from(ALL_PROFILES), left=st.integers(6, 16))
def test_the_shortcut_settles_as_the_full_settling_on_small_positions(seed: int, profile_id: str,
                                                                       left: int) -> None:
    _check_every_move(random_small_position(random.Random(seed), profile_id, left))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), profile_id=st.sampled_from(ALL_PROFILES), left=st.integers(8, 18),
       budget=st.sampled_from([20, 100, 400]))
def test_a_smaller_search_budget_gives_the_same_plans_or_none(seed: int, profile_id: str, left: int,
                                                                budget: int) -> None:
    """The cutting-down asks with a smaller budget (``limits.REDUCE_BELIEF_STATES``): a search that
    ends within it is exact, so it answers as the full one or not at all, and never leaves a
    guess behind for a later question with the full budget."""
    pos = random_small_position(random.Random(seed), profile_id, left)
    for belief in ADD_BELIEFS:
        full = Plans(belief).first_moves(pos)
        small = Plans(belief)
        assert small.first_moves(pos, budget) in (None, full)
        assert small.first_moves(pos) == full  # the same table, asked again with its own budget
        lost_small = Plans(belief).lost(pos, budget)
        assert lost_small is None or lost_small == Plans(belief).lost(pos)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), profile_id=st.sampled_from(ALL_PROFILES), left=st.integers(8, 16))
def test_a_table_that_reuses_its_expanded_states_answers_as_fresh_tables(seed: int, profile_id: str,
                                                                         left: int) -> None:
    """One table asked along a game (as a practice page asks it) walks the states an earlier search
    expanded; every answer is the one a table of its own gives."""
    pos = random_small_position(random.Random(seed), profile_id, left)
    for belief in ADD_BELIEFS:
        shared = Plans(belief)
        here = pos
        for move in legal_moves(pos)[:4]:
            here = apply_unchecked(pos, move)
            assert shared.first_moves(here) == Plans(belief).first_moves(here), str(move)
            assert shared.lost(here) == Plans(belief).lost(here), str(move)
        assert len(shared.expanded) <= EXPANDED_STATES


def test_only_the_table_in_use_keeps_its_expanded_states() -> None:
    belief = ADD_BELIEFS[0]
    searched: dict[int, Plans] = {}  # a table whose search kept states, by its game's base
    for seed in range(200):
        pos = random_small_position(random.Random(seed), "bernauer", 14)
        table = plans_for(belief, pos)
        table.first_moves(pos)
        if table.expanded:
            searched[pos.base] = table
            if len(searched) == 2:
                break
    assert len(searched) == 2, "two games of different bases that needed a search"
    older, newer = searched.values()
    assert not older.expanded and not older.reached  # the other game's table let its store go
    assert newer.expanded and newer.reached
