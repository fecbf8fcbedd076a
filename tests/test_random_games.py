"""The compiled core's random games against the Python players' (``tagger/players.py``).

The random measure of a puzzle (criterion 1) plays its games in the compiled
core when it plays the profile; the games must be the Python games move for
move: the same end, the same position there, the solver asked at the same
positions, so every recorded rate stays what it was.  Compared on the first
deals, on positions of random games (deals still to come, foundations that
give cards back in agnes-ru) and on small random positions (where random play
often wins or gets stuck), for the random and the greedy player.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from _solver_util import ALL_PROFILES, random_small_position, random_walk

from agnes_teach.deal import deal
from agnes_teach.position import Position
from agnes_teach.profile import get_profile
from agnes_teach.registry import Verdict
from agnes_teach.solver import compiled
from agnes_teach.solver.fast import FastState
from agnes_teach.tagger import players
from agnes_teach.tagger.players import (
    _compiled_game,
    _game,
    check_points,
    compiled_games,
    greedy_policy,
    random_policy,
    random_win_rate,
)

CORE_PROFILES = [p for p in ALL_PROFILES if compiled.supports(FastState(deal(1, get_profile(p))))]


@pytest.fixture(autouse=True)
def _core_built() -> None:
    if not compiled.AVAILABLE:
        pytest.fail("the compiled core is not built: install gcc and python3-dev, then pip install -e .")


def _starts(profile_id: str) -> list[Position]:
    rng = random.Random(f"starts/{profile_id}")
    walk = random_walk(3, profile_id, 120, home_bias=0.7)
    return [deal(1, get_profile(profile_id)), walk[40], walk[-1],
            *(random_small_position(rng, profile_id, left) for left in (3, 5, 10, 14, 18))]


def _recording(log: list[tuple[Position, int]], stop_at: int | None,
               points: frozenset[int]) -> Callable[[Position, int], bool]:
    """A halt that notes where it is asked and stops the game at `stop_at` moves."""
    def halt(here: Position, done: int) -> bool:
        if done not in points:
            return False
        log.append((here, done))
        return done == stop_at
    return halt


def test_the_core_plays_the_profiles_with_returns_and_deals() -> None:
    assert {"bernauer", "agnes-ru"} <= set(CORE_PROFILES)


def _compare(profile_id: str, greedy: bool) -> set[str]:
    """Play both kinds of game from each start; the ends seen."""
    policy = greedy_policy if greedy else random_policy
    points = check_points(first=7, cap=400)
    ends: set[str] = set()
    for n, start in enumerate(_starts(profile_id)):
        games = compiled_games(start, policy)
        assert games is not None
        for i in range(12):
            stop_at = (None, 0, 7, 56)[i % 4]
            py_log: list[tuple[Position, int]] = []
            c_log: list[tuple[Position, int]] = []
            py_end = _game(start, policy, random.Random(f"{n}/{i}"), 400, _recording(py_log, stop_at, points))
            c_end = _compiled_game(start, games, greedy, random.Random(f"{n}/{i}"), 400,
                                   _recording(c_log, stop_at, points), points)
            assert c_end == py_end, (profile_id, n, i)
            assert c_log == py_log, (profile_id, n, i)
            ends.add(str(py_end[1]))
    return ends


def test_compiled_games_are_the_python_games() -> None:
    ends = set()
    for profile_id in CORE_PROFILES:
        for greedy in (False, True):
            ends |= _compare(profile_id, greedy)
    # The comparison saw games that were won, stuck, stopped and cut off by the cap.
    assert ends >= {"halted", "cap", "stuck", str(Verdict.WON)}, ends


def test_the_random_measure_is_the_same_with_and_without_the_core(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(5)
    starts = [random_small_position(rng, profile_id, left)
              for profile_id in CORE_PROFILES for left in (8, 12, 16)]
    fast = [random_win_rate(p, playouts=30) for p in starts]
    monkeypatch.setattr(players, "compiled_games", lambda pos, policy: None)
    slow = [random_win_rate(p, playouts=30) for p in starts]
    assert fast == slow
    assert len(set(fast)) > 1  # not all the same rate: the positions differ in how random play fares


def test_other_players_and_profiles_are_played_in_python() -> None:
    believer = players.player("tableau.empty")
    assert compiled_games(deal(1, get_profile("bernauer")), believer) is None
    sorel = deal(1, get_profile("sorel"))
    assert compiled_games(sorel, random_policy) is None
