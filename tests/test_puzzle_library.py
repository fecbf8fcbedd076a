"""The shipped library: every scenario under puzzles/ passes the checker (criteria 3-4 and
every claim), and every file records the play it was measured by and meets criteria 1-2 by it.
The earlier whole-game puzzles (issue 8), kept as test fixtures, still pass the checker, their
counts per theme meet that issue's minimum (12 for each required theme, 8 for each other) and
their ratings differ in measured random play (criterion 5).  Re-measuring every file takes
minutes (`agnes-teach check --teach puzzles`); a fixed sample is measured again here."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from agnes_teach.checker import check_scenario
from agnes_teach.generator import puzzle_key
from agnes_teach.registry import GENERATED_TASKS, Difficulty
from agnes_teach.scenario import Scenario, load_scenario, scenario_files
from agnes_teach.themes import theme_for, theme_ids
from agnes_teach.yamlio import load_file

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = ROOT / "puzzles"
BUDGET = 20.0  # seconds per claim; the library's endgames are decided in milliseconds


def _scenarios() -> list[Scenario]:
    return [load_scenario(f) for f in scenario_files([str(LIBRARY)])]


def _data(s: Scenario) -> dict[str, Any]:
    """The file as written (its information-only keys: source, seed, the solution's text)."""
    data, _ = load_file(s.file)
    return data  # type: ignore[no-any-return]


SCENARIOS = _scenarios()
GENERATED = [s for s in SCENARIOS if s.generator is not None]
SMALL_DIR = LIBRARY / "small"  # issue 20's small puzzles: critical moments cut down
# Issue 8's library, positions of whole games: too large for the library now, kept as test fixtures.
WHOLE_DIR = ROOT / "tests" / "fixtures" / "whole-game"
WHOLE = [load_scenario(f) for f in scenario_files([str(WHOLE_DIR)])]
# The themes of the whole-game fixtures (issue 8): every Bernauer theme but those whose belief adds
# moves, which came after that library left `puzzles/` and have small puzzles only.


def _in(folder: Path, s: Scenario) -> bool:
    return folder in Path(s.file).parents


SMALL = [s for s in SCENARIOS if _in(SMALL_DIR, s)]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.id for s in SCENARIOS])
def test_scenario_passes_the_checker(scenario: Scenario) -> None:
    result = check_scenario(scenario, budget=BUDGET)
    assert result.ok, [f"{e.rule}: {e.message}" for e in result.errors]
    assert result.verified


@pytest.mark.parametrize("scenario", WHOLE, ids=[s.id for s in WHOLE])
def test_whole_game_fixture_passes_the_checker(scenario: Scenario) -> None:
    result = check_scenario(scenario, budget=BUDGET)
    assert result.ok, [f"{e.rule}: {e.message}" for e in result.errors]
    assert result.verified


def test_the_whole_game_puzzles_left_the_library() -> None:
    assert not (LIBRARY / "generated").exists()
    assert WHOLE and not {s.id for s in WHOLE} & {s.id for s in SCENARIOS}


def _whole_game_themes() -> list[str]:
    """The themes the whole-game fixtures hold (the eight of issue 8; a theme added since has
    small puzzles only, held to the criteria by the tests of the library above and below)."""
    held = sorted({theme for s in WHOLE for theme in s.themes})
    assert len(held) >= 8 and set(held) <= set(theme_ids("bernauer"))
    return held


def test_counts_per_theme_meet_the_minimum() -> None:
    """The whole-game fixtures' counts (issue 8); the small set's are below."""
    counts = Counter(theme for s in WHOLE for theme in s.themes)
    for theme in _whole_game_themes():
        required = theme_for(theme, "bernauer").required
        assert counts[theme] >= (12 if required else 8), (theme, counts[theme])


DEMO_DIR = LIBRARY / "demo"


def _in_demo(s: Scenario) -> bool:
    return Path(s.file).parent == DEMO_DIR


def test_ids_are_unique_and_no_generated_puzzle_repeats_another_up_to_symmetry() -> None:
    ids = [s.id for s in SCENARIOS]
    assert len(ids) == len(set(ids))
    keys = Counter(puzzle_key(s.position) for s in SCENARIOS if not _in_demo(s))
    repeated = [s.file for s in GENERATED if not _in_demo(s) and keys[puzzle_key(s.position)] > 1]
    assert not repeated


def test_the_demo_set_is_drawn_from_the_library() -> None:
    demo = [s for s in SCENARIOS if _in_demo(s)]
    assert len(demo) >= 3
    library = {puzzle_key(s.position): s for s in GENERATED if not _in_demo(s)}
    for s in demo:
        twin = library[puzzle_key(s.position)]
        assert s.id == "demo-" + twin.id and _data(s)["solution"] == _data(twin)["solution"]


def test_generated_files_record_what_made_them() -> None:
    assert GENERATED
    for s in GENERATED:
        assert s.difficulty in list(Difficulty)
        source = _data(s)["source"].split()
        if source == ["built"]:
            assert isinstance(_data(s)["seed"]["candidate"], int)
        else:  # deal N move K (a moment of a solved deal) or layout N draw K (a composed layout)
            assert (source[0], source[2]) in {("deal", "move"), ("layout", "draw")}
            assert int(source[1]) >= 0 and int(source[3]) >= 0
            assert not s.position.stock or s.stock_shown  # the stock is shown in order
        assert s.distractor is not None and s.distractor.record["move"]
        assert set(s.title) >= {"en", "ru", "es"}
        # A built puzzle has one of its builder's tasks; a mined one any task its first moves allow.
        built = source == ["built"]
        assert s.task in (theme_for(s.themes[0], s.position.profile.id).tasks if built else GENERATED_TASKS)
        if s.task == "key-move":
            assert "key_move" in s.expect
        if s.task == "trap":  # issue 28: every losing first move, named
            assert s.expect.get("trap_moves"), s.file


def _teaching_files() -> list[Scenario]:
    return SCENARIOS  # every file under puzzles/ is a puzzle that teaches


def test_every_puzzle_records_the_play_that_meets_criteria_1_and_2() -> None:
    from agnes_teach.tagger.players import GENERATOR_RANDOM_MAX, RANDOM_MAX, RANDOM_PLAYOUTS, player_max
    from agnes_teach.tagger.teaching import difficulty_of
    from agnes_teach.themes import find_theme

    teaching = _teaching_files()
    assert len(teaching) >= 30
    for s in teaching:
        measured = s.measured
        assert measured, f"{s.file}: no measured play"
        # Random play by fatal mistakes: a game is lost only once the solver proves it lost.
        assert measured["random_playouts"] == RANDOM_PLAYOUTS, s.file
        # The checker accepts up to RANDOM_MAX (35%); every file under puzzles/ was made by the
        # generator, which keeps a margin (GENERATOR_RANDOM_MAX, 30%) so that another seed's
        # measure stays under the checker's bar.
        assert measured["random_win_percent"] <= round(GENERATOR_RANDOM_MAX * 100) < RANDOM_MAX * 100, s.file
        # A mined file records the misconception player's games; a built one (--teach) is proved
        # lost under the belief, so that player cannot win either.  An *add* believer picks among
        # its plan's moves, the answer's among them: it may win up to WIDEN_PLAYER_MAX of its games.
        theme = find_theme(s.themes[0], s.position.profile.id) if s.themes else None
        most = round(player_max(theme.believer) * 100) if theme is not None else 0
        assert measured.get("misconception_win_percent", 0) <= most, s.file
        if _data(s).get("source", "built") != "built":
            assert "misconception_win_percent" in measured, s.file
        # Issue 28: the rating of the shortest answer's length, its decision points, random play.
        rating = difficulty_of(measured["answer_moves"], measured["decisions"],
                               measured["random_win_percent"] / 100)
        assert s.difficulty == rating, s.file


def test_within_each_theme_the_ratings_differ_in_measured_random_play() -> None:
    by: dict[tuple[str, str], list[int]] = {}
    for s in WHOLE:
        rate = s.measured["random_win_percent"]
        assert s.difficulty is not None
        by.setdefault((s.themes[0], s.difficulty), []).append(rate)
    for theme in _whole_game_themes():
        means = [sum(by[(theme, d)]) / len(by[(theme, d)]) for d in Difficulty if (theme, d) in by]
        assert len(means) == 3, (theme, sorted(k[1] for k in by if k[0] == theme))
        assert means[0] > means[1] > means[2], (theme, means)


# One small puzzle per rating, measured again with the real referee (100 fatal-mistake games each)
# and held to every criterion of issue 20 (the economy recomputed).
# Puzzles awaiting replacement because their rule is not the crux (puzzles/not-the-crux.txt; the
# crux test in test_wrong_move_explanations.py keeps that list exact) are left out of the sample.
NOT_THE_CRUX = {line for line in (ROOT / "puzzles" / "not-the-crux.txt").read_text("utf-8").splitlines()
                if line and not line.startswith("#")}
SAMPLE = [s for s in SMALL if s.themes[0] == "tableau.empty" and s.id not in NOT_THE_CRUX]
SAMPLE = [next(s for s in SAMPLE if s.difficulty == d) for d in Difficulty
          if any(s.difficulty == d for s in SAMPLE)]


@pytest.mark.parametrize("scenario", SAMPLE, ids=[s.id for s in SAMPLE])
def test_a_sample_meets_criteria_1_to_4_measured_again(scenario: Scenario) -> None:
    result = check_scenario(scenario, budget=BUDGET, teach=True)
    assert result.ok, [f"{e.rule}: {e.message}" for e in result.errors]
    assert "teaches" in result.verified


def test_the_hand_made_illustrations_live_outside_the_library() -> None:
    examples = ROOT / "agnes_teach" / "data" / "examples"
    assert len(list(examples.glob("*.yaml"))) >= 3
    assert not (LIBRARY / "handmade").exists()
    assert all(s.generator is not None for s in _teaching_files())


def test_every_small_puzzle_is_small_short_and_minimal_as_recorded() -> None:
    """Issue 20's size bars and economy record, read off every small file (the sample above and
    `check --teach puzzles/small` recompute them)."""
    from agnes_teach.tagger.answer import MAX_ANSWER, MAX_CARDS
    from agnes_teach.tagger.teaching import cards_not_home

    assert len(SMALL) >= 12
    for s in SMALL:
        measured = s.measured
        assert measured["cards"] == cards_not_home(s.position) <= MAX_CARDS, s.file
        # Issue 28: the solution is the answer itself, a shortest one (tests/test_shortest_answers.py).
        claimed = s.answer.moves if s.answer else -1
        assert measured["answer_moves"] == len(s.solution or []) == claimed, s.file
        assert measured["answer_moves"] <= MAX_ANSWER, s.file
        assert measured["minimal"] is True and _data(s)["economy"], s.file
