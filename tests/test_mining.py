"""The miner: positions of solved real deals where the theme's rule decides the game.

Small, fixed inputs only (a mined position kept as a file, one deal, tiny budgets)."""

from __future__ import annotations

from pathlib import Path

import pytest

from agnes_teach.cli import app
from agnes_teach.cli import generate as _generate  # noqa: F401  (registers the command)
from agnes_teach.generator.core import Tally
from agnes_teach.generator.mining import examine, mined_difficulty, positions, solved_line
from agnes_teach.generator.output import puzzle_id, scenario_data
from agnes_teach.generator.players import MISCONCEPTIONS, lost_under
from agnes_teach.profile import get_profile
from agnes_teach.scenario import load_scenario

HERE = Path(__file__).resolve().parent
MINED = load_scenario(HERE / "mined_positions" / "tableau-empty-d3-m40.yaml")


@pytest.mark.parametrize(("random", "decisions", "rating"), [
    (0.30, 5, "easy"),  # random play wins too often for more
    (0.00, 1, "easy"),  # one decision point is not enough for medium
    (0.05, 2, "medium"),
    (0.00, 3, "medium"),  # hard needs four decision points
    (0.00, 4, "hard"),
    (0.01, 9, "medium"),  # hard needs random play never to win
    (0.06, 9, "easy"),
])
def test_difficulty_from_measured_play(random: float, decisions: int, rating: str) -> None:
    assert mined_difficulty(random, decisions) == rating


def test_a_mined_position_teaches_its_theme() -> None:
    tally = Tally()
    line = list(MINED.solution or [])
    puzzle = examine("tableau.empty", MINED.position, line, "deal 3 move 40", tally=tally)
    assert puzzle is not None, tally.counts
    assert puzzle.stats["random"] <= 0.35 and puzzle.stats["misconception"] == 0.0
    assert puzzle.stock_shown  # two cards in the stock, in the real deal's order
    assert lost_under(MINED.position, MISCONCEPTIONS["tableau.empty"], max_states=0) is True
    data = scenario_data(puzzle, 0, 1)
    assert data["source"] == "deal 3 move 40" and data["stock_shown"] is True and "seed" not in data
    assert puzzle_id(puzzle, 0, 1) == "tableau-empty-d3-m40"


def test_a_position_where_the_belief_changes_nothing_is_refused_with_its_reason() -> None:
    tally = Tally()
    assert examine("foundation.wrap", MINED.position, list(MINED.solution or []), "x", tally=tally) is None
    assert tally.counts == {"foundation.wrap: the belief changes nothing here": 1}


def test_positions_walk_the_solved_line() -> None:
    profile = get_profile("bernauer")
    line = solved_line(3, profile)
    assert line is not None
    walked = list(positions(3, profile, line, first=40))
    assert walked[0][0] == 40 and walked[0][2] == line[40:]
    assert walked[0][1].stock == MINED.position.stock and walked[0][1].tableau == MINED.position.tableau


def test_generate_from_deals_refuses_a_bad_range_and_reports_too_few(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    runner = CliRunner()
    bad = runner.invoke(app, ["generate", "--theme", "stock.deal", "--count", "1", "--source", "deals",
                              "--deals", "5-x", "--out", str(tmp_path / "a")])
    assert bad.exit_code == 2 and "--deals" in bad.output
    few = runner.invoke(app, ["generate", "--theme", "foundation.wrap", "--count", "1", "--source", "deals",
                              "--deals", "1", "--max-seconds", "0.5", "--out", str(tmp_path / "b")])
    assert few.exit_code == 2 and "mined from deals 1" in few.output
    assert not (tmp_path / "b").exists()


def test_a_batch_is_rated_by_rank_so_its_ratings_differ_in_random_play() -> None:
    from agnes_teach.generator.core import Puzzle
    from agnes_teach.generator.distractors import Distractor
    from agnes_teach.generator.mining import calibrate

    def made(random: float, decisions: int, name: str) -> Puzzle:
        tempting = Distractor(list(MINED.solution or [])[0], None)
        return Puzzle("tableau.empty", "win", 0, MINED.position, [], tempting, "hard", 0.0, name,
                      stats={"random": random, "decisions": float(decisions)}, source=name)

    batch = [made(0.30, 5, "a"), made(0.00, 1, "b"), made(0.10, 3, "c"), made(0.02, 6, "d"),
             made(0.00, 9, "e"), made(0.05, 2, "f")]
    calibrate(batch)
    rated = {p.source: p.difficulty for p in batch}
    assert rated == {"a": "easy", "b": "easy", "c": "medium", "f": "medium", "d": "hard", "e": "hard"}
