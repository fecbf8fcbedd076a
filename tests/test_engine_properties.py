"""Properties over random play from random deals, in every profile.

* 52 cards are always conserved, and every position reached validates;
* every listed move applies, and ``legal_moves`` is exactly the set of
  candidates ``refusal`` passes (same list, same order, as its reference);
* every refused candidate names a rule id that the profile uses and that the
  registry says can refuse;
* ``moves --json`` and ``check`` agree with the engine and with each other;
* ``deal`` is deterministic and its positions validate and round-trip.
"""

from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path

import yaml
from _engine_util import every_candidate
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from agnes_teach.cards import Card
from agnes_teach.cli import app
from agnes_teach.deal import MAX_SEED, deal
from agnes_teach.engine import (
    apply_move,
    finishes_home,
    home_run,
    legal_moves,
    legal_moves_by_refusal,
    refusal,
)
from agnes_teach.moves import Move
from agnes_teach.position import Position, parse_position
from agnes_teach.profile import get_profile, profile_ids
from agnes_teach.registry import rule
from agnes_teach.yamlio import dump_yaml

PROFILES = st.sampled_from(profile_ids())
SEEDS = st.integers(0, MAX_SEED)
FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_line(pos: Position, rng: random.Random, steps: int) -> tuple[list[Move], list[Position]]:
    """Play `steps` random legal moves (fewer if none is left); the line and every position."""
    line: list[Move] = []
    seen = [pos]
    for _ in range(steps):
        moves = legal_moves(pos)
        if not moves:
            break
        m = rng.choice(moves)
        pos = apply_move(pos, m)
        line.append(m)
        seen.append(pos)
    return line, seen


def assert_conserved(pos: Position) -> None:
    assert sorted(pos.all_cards()) == list(range(52))


def assert_refusal_sound(pos: Position, m: Move) -> None:
    why = refusal(pos, m)
    if why is not None:
        assert pos.profile.uses(why.rule), f"{m} refused for {why.rule}, not a rule of {pos.profile.id}"
        assert rule(why.rule).refuses


@FAST
@given(profile=PROFILES, seed=SEEDS, play=st.integers(0, 2**32 - 1), steps=st.integers(0, 120))
def test_random_play(profile: str, seed: int, play: int, steps: int) -> None:
    rng = random.Random(play)
    start = deal(seed, get_profile(profile))
    line, seen = random_line(start, rng, steps)
    candidates = every_candidate(start)
    for pos in seen:
        assert_conserved(pos)
        listed = legal_moves(pos)
        assert listed == legal_moves_by_refusal(pos)
        assert len(set(listed)) == len(listed)
        for m in listed:
            assert refusal(pos, m) is None
            assert_conserved(apply_move(pos, m))
        for m in rng.sample(candidates, 40):
            assert_refusal_sound(pos, m)
            assert (refusal(pos, m) is None) == (m in listed)
    # The end of the line: every well-formed candidate, exhaustively.
    end = seen[-1]
    passed = {m for m in candidates if refusal(end, m) is None}
    assert passed == set(legal_moves(end))
    for m in candidates:
        assert_refusal_sound(end, m)
    # It validates, and round-trips through the YAML form (as data and as text).
    assert parse_position(end.to_data()) == end
    assert parse_position(yaml.safe_load(dump_yaml(end.to_data()))) == end


@FAST
@given(profile=PROFILES, seed=SEEDS)
def test_deal_is_deterministic_and_valid(profile: str, seed: int) -> None:
    prof = get_profile(profile)
    pos = deal(seed, prof)
    assert pos == deal(seed, prof)
    assert_conserved(pos)
    assert parse_position(pos.to_data()) == pos
    assert [len(c) for c in pos.tableau] == list(prof.column_lengths)
    assert [len(r) for r in pos.reserve] == [1] * prof.reserve_piles
    assert len(pos.stock) == prof.stock_size
    assert pos.cards_home() == (1 if prof.base_dealt else 0)


def test_deal_known_values() -> None:
    # Pinned so a change to the shuffle or the dealing order cannot pass unnoticed
    # (docs/profiles.md documents both, and people reproduce deals by hand).
    pos = deal(1)
    data = pos.to_data()
    assert data["base"] == 10 and data["foundations"] == {"H": "10H"}
    assert data["tableau"][0] == "7S" and data["tableau"][6] == "8H 4C QD AS AC KS 9S"
    assert data["reserve"][0] == "3S" and data["stock"].split()[0] == "JS"
    assert deal(0) != deal(1)


# ------------------------------------------------------------------ the CLI agrees

runner = CliRunner()


def cli(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(profile=PROFILES, seed=SEEDS, play=st.integers(0, 2**32 - 1), steps=st.integers(0, 60))
def test_moves_and_check_agree(profile: str, seed: int, play: int, steps: int) -> None:
    rng = random.Random(play)
    start = deal(seed, get_profile(profile))
    line, seen = random_line(start, rng, steps)
    end = seen[-1]
    with tempfile.TemporaryDirectory() as tmp:
        start_file, end_file = Path(tmp) / "start.yaml", Path(tmp) / "end.yaml"
        start_file.write_text(dump_yaml(start.to_data()), encoding="utf-8")
        end_file.write_text(dump_yaml(end.to_data()), encoding="utf-8")

        code, out, _ = cli("moves", str(end_file), "--json")
        assert code == 0
        listed = json.loads(out)["moves"]
        assert listed == [str(m) for m in legal_moves(end)]

        # The whole random line replays through check: no move of it is refused.
        if line:
            code, out, _ = cli("check", str(start_file), "--json", "--solution", " ".join(map(str, line)))
            errors = json.loads(out)["results"][0]["errors"]
            assert all(e["move_index"] is None for e in errors), errors
            assert code == (0 if end.is_won() else 1)

        # A listed move passes check; a candidate that moves is refused with the engine's rule.
        if listed:
            code, out, _ = cli("check", str(end_file), "--json", "--solution", rng.choice(listed))
            assert all(e["move_index"] is None for e in json.loads(out)["results"][0]["errors"])
        refused = [m for m in every_candidate(end) if str(m) not in listed]
        m = rng.choice(refused)
        code, out, _ = cli("check", str(end_file), "--json", "--solution", str(m))
        assert code == 1
        (error,) = json.loads(out)["results"][0]["errors"]
        why = refusal(end, m)
        assert why is not None
        assert (error["rule"], error["move_index"], error["move"]) == (why.rule, 1, str(m))


# ------------------------------------------------------- random valid positions, not only reachable ones


@st.composite
def scattered_positions(draw: st.DrawFn) -> Position:
    """A valid position with cards scattered at random: many cards home, empty columns, full
    foundations, high reserve piles -- the states random play from a deal seldom reaches."""
    prof = get_profile(draw(PROFILES))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    base = prof.base_rank or rng.randint(1, 13)
    home = [rng.choice([0, 13, rng.randint(0, 13), rng.randint(9, 13)]) for _ in range(4)]
    if prof.base_dealt and not any(home):
        home[rng.randrange(4)] = 1  # the base card never leaves its foundation
    on_foundations = {(s * 13 + (base - 1 + i) % 13) for s in range(4) for i in range(home[s])}
    loose = [c for c in range(52) if c not in on_foundations]
    rng.shuffle(loose)
    sizes = [n for n in prof.stock_sizes() if n <= len(loose)]
    stock_size = rng.choice(sizes)
    done = prof.deals_done(stock_size)
    assert done is not None
    stock, loose = loose[:stock_size], loose[stock_size:]
    heights = prof.max_pile_heights(done)
    tableau: list[list[int]] = [[] for _ in range(prof.columns)]
    reserve: list[list[int]] = [[] for _ in range(prof.reserve_piles)]
    exposed: list[list[int]] = [[] for _ in range(prof.exposed_cells)]
    for card in loose:
        open_piles = [p for i, p in enumerate(reserve) if len(p) < heights[f"r{i + 1}"]]
        open_piles += [p for i, p in enumerate(exposed) if len(p) < heights[f"x{i + 1}"]]
        if open_piles and rng.random() < 0.3:
            rng.choice(open_piles).append(card)
        else:
            rng.choice(tableau).append(card)
    def piles(group: list[list[int]]) -> tuple[tuple[Card, ...], ...]:
        return tuple(tuple(Card(c) for c in p) for p in group)

    return Position(prof, base, (home[0], home[1], home[2], home[3]),
                    piles(tableau), piles(reserve), piles(exposed), tuple(Card(c) for c in stock))


@settings(max_examples=150, deadline=None)
@given(pos=scattered_positions())
def test_scattered_positions(pos: Position) -> None:
    # The generator makes only valid positions: the validator agrees.
    assert parse_position(pos.to_data()) == pos
    # The quick test of "the rest goes home by itself" is the home run's verdict.
    assert finishes_home(pos) == home_run(pos)[0].is_won()
    listed = legal_moves(pos)
    assert listed == legal_moves_by_refusal(pos)
    assert {m for m in every_candidate(pos) if refusal(pos, m) is None} == set(listed)
    for m in every_candidate(pos):
        assert_refusal_sound(pos, m)
    for m in listed:
        after = apply_move(pos, m)
        assert_conserved(after)
        assert parse_position(after.to_data()) == after


LIBRARY = Path(__file__).resolve().parent.parent / "puzzles"


def test_finishes_home_agrees_with_the_home_run_along_every_library_key() -> None:
    # Before its last move a key never reaches a finishing position (it is a shortest answer); after
    # it, the rest goes home by itself.
    from agnes_teach.engine import resolve
    from agnes_teach.scenario import load_puzzles

    verdicts = set()
    for scenario in load_puzzles([str(LIBRARY)]):
        pos = scenario.position
        for text in (scenario.solution or []):
            verdict = finishes_home(pos)
            assert verdict == home_run(pos)[0].is_won(), scenario.id
            verdicts.add(verdict)
            pos = apply_move(pos, resolve(pos, text))
        if scenario.solution:
            assert finishes_home(pos) and home_run(pos)[0].is_won(), scenario.id
    assert verdicts == {False}
