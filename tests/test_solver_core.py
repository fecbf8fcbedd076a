"""The compiled search core against the Python reference search, on a fixed corpus.

Both implement the same algorithm, so on every position they must give the
same verdict, the same winning path and the same number of expanded states,
for every profile, with and without pruning, with ``deal`` first and last,
and when stopped by a state budget part way.  The corpus: the first deals of
every profile, positions from random games, and small random positions (where
the searches often finish, so ``lost`` is compared too; test_solver.py backs
the reference up with brute force).

The core is built by ``pip install -e .`` when gcc and the Python headers are
present (the README's Quick start installs them); this test fails loudly
rather than skip when it is missing.
"""

from __future__ import annotations

import random

import pytest
from _solver_util import ALL_PROFILES, random_small_position, random_walk

from agnes_teach.deal import deal
from agnes_teach.position import Position
from agnes_teach.profile import get_profile
from agnes_teach.solver import Order, compiled, solve
from agnes_teach.solver.compiled import CompiledDepthFirst
from agnes_teach.solver.fast import FastState, Rules
from agnes_teach.solver.search import DepthFirst

# The profiles the core plays; the others (Agnes Sorel) are left to the Python search.
CORE_PROFILES = [p for p in ALL_PROFILES if compiled.supports(FastState(deal(1, get_profile(p))))]


@pytest.fixture(autouse=True)
def _core_built() -> None:
    if not compiled.AVAILABLE:
        pytest.fail("the compiled search core is not built: install gcc and python3-dev, "
                    "then pip install -e .")


# The search options beside prune and deal_first: the default, buckets backwards, deals at any time,
# forced states not stored, the looser test of point 5, the game with restricted splits, a shuffled
# order (as a restart plays it).
VARIANTS: tuple[dict[str, int], ...] = (
    {}, {"reverse": True}, {"deal_timing": False}, {"store_forced": False}, {"tight_lookahead": False},
    {"split_home_only": True}, {"seed": 0x9E3779B97F4A7C15},
)


def _same(
    pos: Position, *, prune: bool, deal_first: bool, limit: int, **options: int
) -> tuple[bool | None, int]:
    rules = Rules(pos)
    ref = DepthFirst(FastState(pos, rules), prune=prune, deal_first=deal_first, **options)
    core = CompiledDepthFirst(FastState(pos, rules), prune=prune, deal_first=deal_first, **options)
    # Resumed in slices, as solve() does: both must stop at the same states.
    for step in (limit // 4, limit // 2, limit):
        assert core.run(step) == ref.run(step)
        assert core.nodes == ref.nodes, (pos.to_data(), prune, deal_first, options, step)
        if ref.result is not None:
            break
    if ref.result:
        assert core.path == ref.path
    return ref.result, ref.nodes


@pytest.mark.parametrize("profile_id", CORE_PROFILES)
def test_core_matches_reference_on_deals(profile_id: str) -> None:
    outcomes = set()
    for number in range(1, 7):
        pos = deal(number, get_profile(profile_id))
        for prune in (True, False):
            for deal_first in (False, True):
                for options in VARIANTS if prune else (VARIANTS[0], VARIANTS[1], VARIANTS[-1]):
                    outcomes.add(_same(pos, prune=prune, deal_first=deal_first, limit=1200, **options)[0])
    assert outcomes & {True, None}  # the corpus has wins or unfinished searches, not only trivia


@pytest.mark.parametrize("profile_id", CORE_PROFILES)
def test_core_matches_reference_on_random_games(profile_id: str) -> None:
    for seed in (11, 12):
        for pos in random_walk(seed, profile_id, 60)[10::25]:
            for options in VARIANTS:
                _same(pos, prune=True, deal_first=False, limit=800, **options)


@pytest.mark.parametrize("profile_id", CORE_PROFILES)
def test_core_matches_reference_on_small_positions(profile_id: str) -> None:
    rng = random.Random(f"core-{profile_id}")
    verdicts = []
    for _ in range(10):
        pos = random_small_position(rng, profile_id, rng.randint(6, 9))
        for prune in (True, False):
            options = VARIANTS[rng.randrange(len(VARIANTS))]
            first = rng.random() < 0.5
            verdicts.append(_same(pos, prune=prune, deal_first=first, limit=20_000, **options)[0])
    assert True in verdicts and (False in verdicts or profile_id == "agnes-ru")


def test_solve_gives_the_same_answer_with_either_engine() -> None:
    pos = deal(4, get_profile("bernauer"))
    a, b = solve(pos, nodes=5000, engine="python"), solve(pos, nodes=5000, engine="c")
    assert (a.status, a.nodes, a.solution) == (b.status, b.nodes, b.solution)
    assert a.status == "won"


def test_restarts_are_the_same_with_either_engine() -> None:
    # Deal 20294: the fixed orders spend millions of states; a few shuffled restarts win it.
    pos = deal(20294, get_profile("bernauer"))
    order = (Order(restarts=True),)
    a = solve(pos, nodes=10_000, orders=order, engine="python")
    b = solve(pos, nodes=10_000, orders=order, engine="c")
    assert (a.status, a.nodes, a.solution) == (b.status, b.nodes, b.solution)
    assert a.status == "won"


def test_a_full_table_answers_unknown() -> None:
    pos = deal(1, get_profile("bernauer"))
    search = CompiledDepthFirst(FastState(pos), prune=True, deal_first=False, slots=1024)
    assert search.run(10**9) is None and search.full
    assert 0 < search.stored <= 512 and search.nodes <= 512


@pytest.mark.parametrize("profile_id", ["sorel", "sorel-strict"])
def test_auto_falls_back_to_python_where_the_core_cannot_play(profile_id: str) -> None:
    pos = deal(2, get_profile(profile_id))
    assert not compiled.supports(FastState(pos))
    with pytest.raises(RuntimeError, match="does not play"):
        CompiledDepthFirst(FastState(pos), prune=True, deal_first=False)
    with pytest.raises(RuntimeError, match="does not play"):
        solve(pos, nodes=100, engine="c")
    auto, python = solve(pos, nodes=3000, engine="auto"), solve(pos, nodes=3000, engine="python")
    assert (auto.status, auto.nodes, auto.solution) == (python.status, python.nodes, python.solution)


def test_the_core_plays_every_bernauer_family_profile() -> None:
    assert {"bernauer", "morehead", "parlett", "agnes-ru", "reserve-last-deal"} <= set(CORE_PROFILES)


@pytest.mark.parametrize("profile_id", CORE_PROFILES)
def test_shared_losses_are_the_same_with_either_engine(profile_id: str) -> None:
    # solve() shares proved-lost states between its searches; both engines must share the same ones.
    rng = random.Random(f"shared-{profile_id}")
    changed = 0
    for _ in range(8):
        pos = random_small_position(rng, profile_id, rng.randint(7, 11))
        a, b = solve(pos, nodes=20_000, engine="python"), solve(pos, nodes=20_000, engine="c")
        assert (a.status, a.nodes, a.solution) == (b.status, b.nodes, b.solution), pos.to_data()
        changed += solve(pos, nodes=20_000, engine="c", share_losses=False).nodes != b.nodes
    assert changed or profile_id == "agnes-ru"  # sharing matters on this corpus (agnes-ru: no proofs)


def test_shared_losses_refute_a_lost_deal_with_fewer_states() -> None:
    # Deal 20045 is lost; the four searches refute it together (each skips what another proved).
    pos = deal(20045, get_profile("bernauer"))
    a, b = solve(pos, nodes=40_000, engine="python"), solve(pos, nodes=40_000, engine="c")
    assert (a.status, a.nodes) == (b.status, b.nodes) and a.status == "lost"
    alone = solve(pos, nodes=200_000, engine="c", share_losses=False)
    assert alone.status == "lost" and alone.nodes > 2 * b.nodes


def test_a_run_table_narrower_than_the_build_table_is_the_same_with_either_engine() -> None:
    # The one-card-at-a-time believer of tableau.run keeps every host but links no run: the core
    # takes the two tables apart, so it decides that player's game as the Python search does.
    from agnes_teach.tagger.players import restricted_rules
    from agnes_teach.themes import theme_for

    believer = theme_for("tableau.run", "bernauer").believer
    assert believer.restriction is not None
    rng = random.Random("narrow-links")
    verdicts = []
    for _ in range(8):
        pos = random_small_position(rng, "bernauer", rng.randint(9, 13))
        rules = restricted_rules(pos, believer.restriction)
        assert rules.on != rules.link and compiled.supports(FastState(pos, rules))
        a = solve(pos, nodes=20_000, rules=rules, engine="python")
        b = solve(pos, nodes=20_000, rules=rules, engine="c")
        assert (a.status, a.nodes, a.solution) == (b.status, b.nodes, b.solution), pos.to_data()
        verdicts.append(a.status)
    assert "won" in verdicts
