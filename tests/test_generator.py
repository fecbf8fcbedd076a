"""The generator: canonical keys, the game graph, verified puzzles, reproducible files, the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from _generator_util import make_position

from agnes_teach.cards import Card, parse_card
from agnes_teach.checker import check_scenario
from agnes_teach.generator import Tally, candidate, generate, puzzle_key
from agnes_teach.generator.build import shape_problems
from agnes_teach.generator.output import scenario_data, to_yaml
from agnes_teach.graph import autoplay, explore, is_safe_home
from agnes_teach.position import parse_position
from agnes_teach.profile import get_profile
from agnes_teach.scenario import load_scenario
from agnes_teach.tagger.detectors import LESSON_WINDOW, Lesson
from agnes_teach.themes import theme_for, theme_ids
from agnes_teach.yamlio import load_file

BIN = Path(sys.executable).parent


# ------------------------------------------------------------ canonical key


def test_key_ignores_column_order_and_one_colour_suit_swaps() -> None:
    a = make_position(5, ["QS AH", "KS", "4H 3H 2H", "4S 3S 2S AS"])
    columns_moved = make_position(5, ["", "4S 3S 2S AS", "KS", "", "QS AH", "", "4H 3H 2H"])
    # spades <-> clubs and hearts <-> diamonds: the same game
    suits_swapped = make_position(5, ["QC AD", "KC", "4D 3D 2D", "4C 3C 2C AC"])
    assert puzzle_key(a) == puzzle_key(columns_moved) == puzzle_key(suits_swapped)


def test_key_tells_different_games_apart() -> None:
    a = make_position(5, ["QS AH", "KS", "4H 3H 2H", "4S 3S 2S AS"])
    other_colour = make_position(5, ["QH AS", "KH", "4S 3S 2S", "4H 3H 2H AH"])
    assert puzzle_key(a) != puzzle_key(other_colour)  # spades <-> hearts changes the colours
    order_changed = make_position(5, ["AH QS", "KS", "4H 3H 2H", "4S 3S 2S AS"])
    assert puzzle_key(a) != puzzle_key(order_changed)


def test_key_moves_reserve_piles_with_the_cards_they_will_receive() -> None:
    stock = "5H 2C 3C 4C 5C 3D 4D 5D 5S"
    a = make_position(6, ["4S"], reserve=["4H"], stock=stock)
    # r1 and r2 swapped together with their next stock cards (5H and 2C): the same game
    b = make_position(6, ["4S"], reserve=["", "4H"], stock="2C 5H 3C 4C 5C 3D 4D 5D 5S")
    # the pile swapped but not its stock card: 2C now lands on 4H
    c = make_position(6, ["4S"], reserve=["", "4H"], stock=stock)
    assert puzzle_key(a) == puzzle_key(b) != puzzle_key(c)


# ------------------------------------------------------------ game graph


GRAPH_CASES = [
    make_position(5, ["QS AH", "KS", "4H 3H 2H", "4S 3S 2S AS"]),
    make_position(3, ["QS KS", "AH", "2H"], reserve=["2S AS"]),
    # base 6, one full deal to come: it would drop 4H on the 3H hearts need next
    make_position(6, ["JD"], reserve=["3H"], stock="4H 5H QD KD AD 2D 3D 4D 5D"),
    make_position(2, ["AC QD JS", "KC"], reserve=["AD KD", "AS KS QS"]),
]


@pytest.mark.parametrize("index", range(len(GRAPH_CASES)))
def test_graph_verdicts_agree_with_the_solver(index: int) -> None:
    from agnes_teach.engine import apply_unchecked
    from agnes_teach.solver import solve

    pos = GRAPH_CASES[index]
    graph = explore(pos, 20_000)
    assert graph is not None
    assert graph.won() == (solve(pos, nodes=2_000_000).status == "won")
    for move, child in graph.edges[0]:
        child_won = solve(apply_unchecked(pos, move), nodes=2_000_000).status == "won"
        assert graph.won(child) == child_won, str(move)


def test_graph_finds_the_burial_by_an_early_deal() -> None:
    # Dealing drops 4H on 3H, and 4H has nowhere to go: hearts are stuck.
    graph = explore(GRAPH_CASES[2], 20_000)
    assert graph is not None
    assert [str(m) for m in graph.winning_moves()] == ["JD>f", "3H>f"]
    assert [str(m) for m in graph.losing_moves()] == ["deal"]
    line = graph.expand(0, [graph.winning_moves()[1]])
    assert [str(m) for m in line][0] == "3H>f"


def test_graph_gives_up_beyond_its_budget() -> None:
    pos = make_position(5, ["QS AH", "KS", "4H 3H 2H", "4S 3S 2S AS"])
    assert explore(pos, 2) is None


def test_safe_home_needs_every_card_that_builds_on_it_home() -> None:
    pos = make_position(5, ["QS AH", "KS", "4H 3H 2H", "4S 3S 2S AS"])
    # 2H: the black Aces (AS out, on t4) could lie on it, so sending it home is not safe
    assert not is_safe_home(pos, parse_position_card("2H"))
    done, played = autoplay(make_position(4, ["2S"], exposed=["3S", ""]))
    assert done.is_won() and [str(m) for m in played] == ["2S>f", "3S>f"]


def parse_position_card(text: str) -> Card:
    return parse_card(text)


# ------------------------------------------------------------ puzzles


# One puzzle per theme, every task represented (tasks picked for a quick test run).
BATCH_TASKS = {
    "foundation.start": "win", "foundation.wrap": "key-move", "reserve.top": "win",
    "stock.deal": "trap", "stock.last-two": "win", "tableau.empty": "win", "tableau.run": "win",
    "tableau.wrap": "trap",
}


@pytest.fixture(scope="module")
def batch() -> list:  # type: ignore[type-arg]
    profile = get_profile("bernauer")
    out = []
    for theme, task in sorted(BATCH_TASKS.items()):
        out += generate(theme, 1, 2026, profile, task=task, max_attempts=4000)
    return out


def test_every_theme_yields_a_puzzle(batch: list) -> None:  # type: ignore[type-arg]
    # Every theme with a builder (the themes whose belief adds moves are only composed and cut down).
    assert sorted(BATCH_TASKS) == [t for t in theme_ids("bernauer") if theme_for(t, "bernauer").build]
    assert [(p.theme, p.task) for p in batch] == sorted(BATCH_TASKS.items())


def test_generated_puzzles_meet_the_criteria(batch: list, tmp_path: Path) -> None:  # type: ignore[type-arg]
    for number, puzzle in enumerate(batch, start=1):
        pos = puzzle.position
        assert parse_position(pos.to_data()) == pos  # 1. valid for its profile
        assert not shape_problems(pos)  # 1. reachable in spirit
        theme = theme_for(puzzle.theme, puzzle.position.profile.id)
        within = 1 if puzzle.task == "key-move" else LESSON_WINDOW
        full = explore(pos, 100_000)
        assert full is not None
        assert theme.detect(Lesson(pos, tuple(puzzle.solution), tuple(full.losing_moves()), within))  # 3.
        if puzzle.key_move is not None:  # 2. exactly one winning first move
            assert full.winning_moves() == [puzzle.key_move]
        assert puzzle.difficulty in ("easy", "medium", "hard")  # 6.
        # the file passes the checker, every claim verified
        path = tmp_path / f"{number}.yaml"
        path.write_text(to_yaml(scenario_data(puzzle, 2026, number)), encoding="utf-8")
        result = check_scenario(load_scenario(path), budget=30)
        assert result.ok, (puzzle.theme, [e.message for e in result.errors])
        assert "winnable" in result.verified and "solution" in result.verified
        assert {"key_move", "trap_move", "illegal"} & set(result.verified)  # 4. distractor refuted


def test_win_solutions_end_with_every_card_home(batch: list) -> None:  # type: ignore[type-arg]
    from agnes_teach.engine import apply_move

    for puzzle in batch:
        if puzzle.task == "win":
            pos = puzzle.position
            for move in puzzle.solution:
                pos = apply_move(pos, move)
            assert pos.is_won()


def test_no_two_puzzles_of_a_batch_are_the_same_up_to_symmetry() -> None:
    puzzles = generate("tableau.wrap", 6, 5, get_profile("bernauer"))
    assert len({p.key for p in puzzles}) == 6


def test_candidates_are_reproducible_from_their_own_seed() -> None:
    profile = get_profile("bernauer")
    first = generate("foundation.wrap", 2, 9, profile)
    for puzzle in first:
        again = candidate(theme_for(puzzle.theme, profile.id), puzzle.task, profile, puzzle.seed, puzzle.size)
        assert again is not None and again.position == puzzle.position and again.solution == puzzle.solution


def test_tally_explains_rejections() -> None:
    tally = Tally()
    generate("stock.last-two", 1, 3, get_profile("bernauer"), task="win", tally=tally, max_attempts=3000)
    assert tally.counts and all(n > 0 for n in tally.counts.values())


# ------------------------------------------------------------ command line


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BIN / "agnes-teach"), *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300)


def test_cli_writes_the_same_files_for_the_same_seed(tmp_path: Path) -> None:
    args = ("generate", "--theme", "tableau.wrap", "--count", "3", "--seed", "41", "--source", "built")
    one = run(*args, "--out", "one", cwd=tmp_path)
    two = run(*args, "--out", "two", cwd=tmp_path)
    assert one.returncode == 0 and two.returncode == 0, one.stderr + two.stderr
    names = sorted(p.name for p in (tmp_path / "one").iterdir())
    assert len(names) == 3 and names == sorted(p.name for p in (tmp_path / "two").iterdir())
    for name in names:
        text = (tmp_path / "one" / name).read_bytes()
        assert text == (tmp_path / "two" / name).read_bytes()
        load_scenario(tmp_path / "one" / name)
        data, _ = load_file(tmp_path / "one" / name)
        assert data["generator"] and data["seed"]["run"] == 41 and data["themes"] == ["tableau.wrap"]
        assert set(data["title"]) == {"en", "ru", "es"}
    checked = run("check", "one", cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--theme", "foundation.nope"), "'foundation.nope' is not one of 'foundation.final'"),
        (("--theme", "tableau.wrap", "--task", "puzzle"), "'puzzle' is not one of"),
        (("--theme", "tableau.wrap", "--difficulty", "brutal"), "'brutal' is not one of"),
        (("--theme", "tableau.empty", "--task", "key-move", "--source", "built"), "has no key-move puzzles"),
        (("--theme", "stock.last-two", "--profile", "agnes-ru"), "does not use the rule stock.last-two"),
        (("--theme", "tableau.wrap", "--profile", "nope"), "'nope' is not one of"),
        (("--theme", "tableau.wrap", "--profile", "agnes-ru"), "a King never goes on an Ace"),
    ],
)
def test_cli_refuses_bad_options_and_writes_nothing(
    tmp_path: Path, args: tuple[str, ...], message: str
) -> None:
    result = run("generate", *args, "--count", "2", "--seed", "1", "--out", "out", cwd=tmp_path)
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "out").exists()


def test_cli_help_names_the_themes(tmp_path: Path) -> None:
    result = run("generate", "--help", cwd=tmp_path)
    assert result.returncode == 0 and "foundation.wrap" in result.stdout


def test_generate_without_a_seed_draws_one_prints_it_and_records_it(tmp_path: Path) -> None:
    got = run("generate", "--theme", "tableau.wrap", "--count", "1", "--source", "built", "--out", "p",
              cwd=tmp_path)
    assert got.returncode == 0, got.stderr
    seed = int(got.stderr.split("seed ", 1)[1].split()[0])
    (file,) = (tmp_path / "p").glob("*.yaml")
    sc = load_scenario(file)
    data, _ = load_file(file)
    assert data["seed"]["run"] == seed and data["source"] == "built"
    assert sc.title["en"] == "Puzzle 1" and sc.title["ru"] == "Задача 1"


def test_generate_stops_at_max_seconds_with_a_clear_message(tmp_path: Path) -> None:
    got = run("generate", "--theme", "stock.deal", "--count", "50", "--seed", "3", "--teach",
              "--source", "built", "--max-seconds", "2", "--out", "p", cwd=tmp_path)
    assert got.returncode == 3  # time ran out: not bad input (issue 28)
    assert "within 2 s" in got.stderr and "--teach" in got.stderr and "nothing was" in got.stderr
    assert not (tmp_path / "p").exists()


def test_teach_mode_rejects_what_random_play_wins() -> None:
    tally = Tally()
    found = generate("tableau.empty", 1, 4, get_profile("bernauer"), teach=True, max_attempts=40, tally=tally)
    assert found == [] and tally.counts.get("random play wins", 0) > 0


def test_the_default_generates_small_puzzles_that_check(tmp_path: Path) -> None:
    """generate with no source: a critical moment of the deals given, cut down to a small puzzle that
    records its economy and passes check --teach (issue 20)."""
    got = run("generate", "--theme", "tableau.empty", "--count", "1", "--deals", "4", "--out", "p",
              cwd=tmp_path)
    assert got.returncode == 0, got.stderr
    (file,) = (tmp_path / "p").glob("*.yaml")
    data, _ = load_file(file)
    assert data["source"].startswith("deal 4 move ") and data["measured"]["minimal"] is True
    assert data["measured"]["cards"] <= 24 and data["measured"]["answer_moves"] <= 10
    assert data["economy"] and all(data["economy"].values())
    checked = run("check", "--teach", "p", cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout


def test_the_default_says_when_no_small_puzzle_is_found(tmp_path: Path) -> None:
    got = run("generate", "--theme", "stock.deal", "--count", "3", "--deals", "1-2", "--out", "p",
              cwd=tmp_path)
    assert got.returncode == 3 and "small puzzles for stock.deal" in got.stderr
    assert "at most 24 cards" in got.stderr and "nothing was written" in got.stderr
    assert not (tmp_path / "p").exists()


def test_composed_layouts_say_what_failed_when_time_runs_out(tmp_path: Path) -> None:
    got = run("generate", "--theme", "reserve.top", "--count", "5", "--seed", "5", "--max-seconds", "15",
              "--out", "p", cwd=tmp_path)
    assert got.returncode == 3 and "small puzzles for reserve.top" in got.stderr
    assert "layouts 5001-6000" in got.stderr and "what failed most often:" in got.stderr
    assert "Traceback" not in got.stderr
    # Contested layouts (compose.Recipe.contested) may find a few in time: those are whole.
    written = sorted((tmp_path / "p").glob("*.yaml")) if (tmp_path / "p").exists() else []
    assert len(written) < 5
    if written:
        assert f"the {len(written)} found were written" in got.stderr
        checked = run("check", "p", cwd=tmp_path)
        assert checked.returncode == 0, checked.stdout


def test_a_run_that_finds_fewer_writes_what_it_found_and_exits_3(tmp_path: Path) -> None:
    """Issue 28: when the deals (or the time) run out, the puzzles found are written, each file
    whole, and the run says "only k of N" and exits 3."""
    got = run("generate", "--theme", "tableau.empty", "--count", "5", "--deals", "4", "--out", "p", "--json",
              cwd=tmp_path)
    assert got.returncode == 3, got.stderr
    written = json.loads(got.stdout)["written"]
    assert 1 <= len(written) < 5 and f"only {len(written)} of 5 small puzzles" in got.stderr
    assert f"the {len(written)} found were written" in got.stderr and "Traceback" not in got.stderr
    assert sorted(str(tmp_path / w) if not Path(w).is_absolute() else w for w in written) == \
        sorted(str(f) for f in (tmp_path / "p").glob("*.yaml"))
    checked = run("check", "p", cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout
