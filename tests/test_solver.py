"""The exact solver: its fast state against the engine, and its verdicts against brute force.

* the fast move generator yields exactly ``engine.legal_moves`` over random
  reachable positions of every profile, and do/undo restores the state;
* every ``won`` answer replays through the engine to a win;
* on small random positions (8 to 11 cards out) the pruned search, the
  unpruned search and a plain enumeration through the engine agree.
"""

from __future__ import annotations

import random

import pytest
from _solver_util import ALL_PROFILES, brute_force_won, random_small_position, random_walk, replays_to_win
from hypothesis import given, settings
from hypothesis import strategies as st

from agnes_teach.deal import deal
from agnes_teach.engine import apply_unchecked, legal_moves
from agnes_teach.moves import Move
from agnes_teach.position import Position
from agnes_teach.profile import EmptyFill, get_profile
from agnes_teach.registry import Verdict
from agnes_teach.solver import PORTFOLIO, Order, SolveResult, canonical_key, first_move_verdicts, solve
from agnes_teach.solver.fast import FastState, Rules
from agnes_teach.solver.search import DepthFirst, Restarts, Shuffler, is_dead, luby, safe_home_move


@pytest.mark.parametrize("profile_id", ALL_PROFILES)
def test_fast_moves_are_the_engine_moves_and_undo_restores(profile_id: str) -> None:
    checked = 0
    for seed in range(1, 21):
        positions = random_walk(seed, profile_id, 100)
        rules = Rules(positions[0])
        for pos in positions:
            state = FastState(pos, rules)
            fast = state.moves()
            engine = legal_moves(pos)
            assert sorted(map(str, map(state.engine_move, fast))) == sorted(map(str, engine))
            assert len(fast) == len(engine)  # no move generated twice
            before = state.snapshot()
            for m in fast:
                state.apply(m)
                after = FastState(apply_unchecked(pos, state.engine_move(m)), rules)
                assert state.snapshot() == after.snapshot(), (str(state.engine_move(m)), pos.to_data())
                state.undo(m)
                assert state.snapshot() == before
                checked += 1
    # Agnes Sorel has fewer moves a position (no reserve), so fewer are checked.
    assert checked > (3000 if get_profile(profile_id).reserve_piles else 600)


def _walk_positions() -> list[Position]:
    return [p for profile_id in ALL_PROFILES for p in random_walk(7, profile_id, 40)[::8]]


def test_canonical_key_ignores_column_order_and_sees_the_rest() -> None:
    for pos in _walk_positions():
        turned = Position(pos.profile, pos.base, pos.foundations, tuple(reversed(pos.tableau)),
                          pos.reserve, pos.exposed, pos.stock)
        if FastState(pos).columns_fixed():
            # A deal still lands on the columns (Agnes Sorel): they are not interchangeable.
            assert (canonical_key(turned) == canonical_key(pos)) == (turned.tableau == pos.tableau)
        else:
            assert canonical_key(turned) == canonical_key(pos)
        for move in legal_moves(pos)[:6]:
            after = apply_unchecked(pos, move)
            if sorted(after.tableau) != sorted(pos.tableau) or after.stock != pos.stock:
                assert canonical_key(after) != canonical_key(pos)


def test_solutions_replay_through_the_engine() -> None:
    won = 0
    for profile_id in ALL_PROFILES:
        for seed in (3, 5, 7):
            pos = deal(seed, get_profile(profile_id))
            result = solve(pos, seconds=1)
            if result.status == "won":
                assert replays_to_win(pos, result.solution)
                won += 1
    assert won >= 5


# The small-position searches are budgeted in expanded states, not seconds, so a loaded machine
# cannot turn a verdict into "unknown"; the largest case needs about 85,000 (parlett, unpruned).
SMALL_NODES = 2_000_000


def _agree(pos: Position) -> str:
    pruned = solve(pos, nodes=SMALL_NODES)
    plain = solve(pos, nodes=SMALL_NODES, prune=False)
    # Each search of the portfolio on its own, and the portfolio dealing at any time (point 6 off).
    singles = [solve(pos, nodes=SMALL_NODES, orders=(order,)) for order in PORTFOLIO]
    singles.append(solve(pos, nodes=SMALL_NODES, deal_timing=False))
    truth = "won" if brute_force_won(pos, breadth_first=pos.profile.foundation_return) else "lost"
    statuses = [r.status for r in (pruned, plain, *singles)]
    assert statuses == [truth] * len(statuses), pos.to_data()
    for result in (pruned, plain, *singles):
        if result.status == "won":
            assert replays_to_win(pos, result.solution)
    return truth


@pytest.mark.parametrize("profile_id", ALL_PROFILES)
def test_small_positions_pruned_unpruned_and_brute_force_agree(profile_id: str) -> None:
    rng = random.Random(f"small-{profile_id}")
    returns = get_profile(profile_id).foundation_return
    sizes = [rng.randint(2, 4) if returns else rng.randint(6, 10) for _ in range(6 if returns else 20)]
    verdicts = [_agree(random_small_position(rng, profile_id, left, 0.6)) for left in sizes]
    if returns:
        # With foundation cards coming back nearly every small position is won, and a lost one
        # would need the whole (huge) space enumerated: only wins are compared here.
        assert set(verdicts) == {"won"}, verdicts
    elif get_profile(profile_id).empty_fill == EmptyFill.ANY_RUN:
        # Any card may take an empty column (sorel): a handful of cards is nearly always won.
        assert "won" in verdicts, verdicts
    else:
        # Both answers must occur, or the comparison proves little.
        assert "won" in verdicts and "lost" in verdicts, verdicts


@settings(max_examples=30, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**9), profile_id=st.sampled_from(ALL_PROFILES), left=st.integers(4, 10))
def test_property_random_small_positions_agree(seed: int, profile_id: str, left: int) -> None:
    if get_profile(profile_id).foundation_return:
        left = min(left, 4)  # see the test above: the brute force's space explodes otherwise
    pos = random_small_position(random.Random(seed), profile_id, left)
    pruned = solve(pos, nodes=SMALL_NODES)
    plain = solve(pos, nodes=SMALL_NODES, prune=False)
    assert pruned.status == plain.status != "unknown"
    if pruned.status == "won":
        assert replays_to_win(pos, pruned.solution) and replays_to_win(pos, plain.solution)


def test_unknown_when_the_budget_runs_out() -> None:
    pos = deal(1, get_profile("bernauer"))
    result = solve(pos, nodes=50)
    assert result.status in ("unknown", "won", "lost")
    if result.status == "unknown":
        assert result.solution == [] and result.nodes >= 50


def test_first_moves_that_reach_the_same_state_form_one_group() -> None:
    from _engine_util import build

    # Base 5: an empty column takes a 4.  4H may go home or into any of six empty columns.
    pos = build("bernauer", 5, tableau={1: "4C"}, reserve={1: "4H"})
    four = pos.reserve[0][-1]
    verdicts = first_move_verdicts(pos, seconds=5)
    into_empty = [m for m in legal_moves(pos) if m.card == four and m.dest.startswith("t")]
    assert len(into_empty) == 6
    groups = [g.moves for g in verdicts.groups]
    assert sorted(map(str, into_empty)) in [sorted(map(str, g)) for g in groups]
    home = verdicts.group_of(Move(four, "f"))
    assert home is not None and home.moves == [Move(four, "f")] and home.status == "won"
    assert sorted(map(str, verdicts.winning)) == sorted(map(str, legal_moves(pos)))
    assert len(verdicts.groups) < len(legal_moves(pos))


def _home_move_of(state: FastState, card_text: str) -> tuple[int, ...] | None:
    from agnes_teach.cards import parse_card

    card = parse_card(card_text)
    return next((m for m in state.moves() if m[4] == card and m[3] == -1), None)


def test_a_base_card_is_safe_only_when_the_last_cards_of_the_other_colour_are_home() -> None:
    from _engine_util import build

    # Base 5: the red 4s go home last of their suits, yet a red 4 may lie on 5S.
    spades: dict[int, str | list[str]] = {1: "KS QS JS 10S 9S 8S 7S 6S 5S", 2: "4S 3S 2S AS"}
    with_red_four_out = FastState(build("bernauer", 5, tableau={**spades, 3: "4H"}))
    assert _home_move_of(with_red_four_out, "5S") is not None
    assert safe_home_move(with_red_four_out, with_red_four_out.moves()) is None
    all_red_home = FastState(build("bernauer", 5, tableau=spades))
    assert safe_home_move(all_red_home, all_red_home.moves()) == _home_move_of(all_red_home, "5S")


def test_dead_end_test_finds_a_blocked_pile() -> None:
    from _engine_util import build

    # Base 5.  In r1, 3H lies on 2H: 3H can go only home (both black 4s are home, and it is
    # not the rank an empty column takes), and it must follow 2H, which it covers.  Lost.
    pos = build("bernauer", 5, reserve={1: "2H 3H", 2: "4H"})
    assert is_dead(FastState(pos), {})
    assert solve(pos, seconds=5).status == "lost"
    assert not brute_force_won(pos)
    # The same cards with 3H under 2H are fine.
    ok = build("bernauer", 5, reserve={1: "3H 2H", 2: "4H"})
    assert not is_dead(FastState(ok), {})
    assert solve(ok, seconds=5).status == "won"


def test_luby_sequence_and_shuffler() -> None:
    assert [luby(i) for i in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]
    a, b = list(range(10)), list(range(10))
    Shuffler(7)(a)
    Shuffler(7)(b)
    assert a == b != list(range(10)) and sorted(a) == list(range(10))
    with pytest.raises(ValueError):
        Shuffler(0)


def test_restarts_give_up_each_run_at_its_budget() -> None:
    pos = deal(20014, get_profile("bernauer"))
    runs: list[int] = []

    def make(seed: int) -> DepthFirst:
        runs.append(seed)
        return DepthFirst(FastState(pos), prune=True, deal_first=False, seed=seed)

    search = Restarts(make, FastState(pos), unit=50)
    assert search.run(400) is None
    # Budgets 50, 50, 100, 50, 50, 100: six runs fit in 400 states, each with its own seed.
    assert search.nodes >= 400 and len(runs) == len(set(runs)) >= 6


def test_deal_timing_keeps_every_verdict_and_saves_states() -> None:
    rng = random.Random("deal-timing")
    saved = 0
    for _ in range(12):
        pos = random_small_position(rng, "bernauer", rng.randint(8, 12), 0.7)
        on, off = solve(pos, nodes=SMALL_NODES), solve(pos, nodes=SMALL_NODES, deal_timing=False)
        assert on.status == off.status != "unknown"
        saved += off.nodes - on.nodes
    assert saved > 0


def test_an_exhausted_restricted_split_search_proves_nothing() -> None:
    # Deal 164 is lost; the restricted game (splits only before a move home) runs out of moves
    # first, and that alone must not be reported as a loss.
    pos = deal(164, get_profile("bernauer"))
    restricted = (Order(split_home_only=True),)
    alone = solve(pos, nodes=100_000, orders=restricted)
    assert alone.status == "unknown" and alone.nodes < 100_000
    assert solve(pos, nodes=100_000, orders=(Order(), *restricted)).status == "lost"
    # A win of the restricted game is a win, replayed through the engine like any other.
    won = solve(deal(4, get_profile("bernauer")), nodes=100_000, orders=restricted)
    assert won.status == "won" and replays_to_win(deal(4, get_profile("bernauer")), won.solution)


def test_a_restricted_split_search_keeps_fewer_states_than_the_real_one() -> None:
    # Deal 164 again: both searches run out of moves; the restricted one turns away swaps of runs.
    pos = deal(164, get_profile("bernauer"))
    real = DepthFirst(FastState(pos), prune=True, deal_first=False)
    restricted = DepthFirst(FastState(pos), prune=True, deal_first=False, split_home_only=True)
    assert real.run(SMALL_NODES) is False and restricted.run(SMALL_NODES) is False
    assert restricted.nodes < real.nodes


def test_a_win_line_is_checked_by_the_engine_when_it_is_read() -> None:
    # The verdict alone is the search's; the line is replayed under the rules on first reading, and
    # one that does not replay (a solver bug) is an internal error, never handed out.
    pos = deal(4, get_profile("bernauer"))
    won = solve(pos, nodes=100_000)
    assert won.status == "won" and replays_to_win(pos, won.solution)
    broken = SolveResult(Verdict.WON, won.solution[1:], replay_from=pos)
    assert broken.status == Verdict.WON
    with pytest.raises(RuntimeError, match="does not replay"):
        _ = broken.solution
