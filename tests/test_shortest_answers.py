"""Issue 28: the key is a shortest answer, and `check` takes an answer as the sheet asks for it.

An answer is the moves up to the point from which every card left goes home by
foundation moves alone (``engine.finishes_home``). The generator finds the
shortest ones breadth first (``tagger.shortest``); this file re-checks every
library file with a search written apart from it: an iterative-deepening
depth-first search over the engine's moves, with its own memo of positions
already searched to a depth, and its own count of the answers of that length.
It imports nothing of ``tagger.shortest`` or the generator.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from agnes_teach.checker import check_scenario
from agnes_teach.cli import app
from agnes_teach.engine import apply_unchecked, finishes_home, legal_moves, resolve
from agnes_teach.moves import Move
from agnes_teach.position import Position
from agnes_teach.scenario import Scenario, load_scenario, scenario_files, scenario_from_data
from agnes_teach.yamlio import Locator

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = [load_scenario(f) for f in scenario_files([str(ROOT / "puzzles")])]
runner = CliRunner()


# ----------------------------------------------------------- the second search


class Deepening:
    """Iterative deepening from one position: the shortest answer's length and how many there are."""

    def __init__(self, start: Position) -> None:
        self.start = start
        self.finishes: dict[Position, bool] = {}
        self.failed: dict[Position, int] = {}  # position -> the depth searched from it without an answer
        self.counts: dict[tuple[Position, int], int] = {}

    def _finishes(self, pos: Position) -> bool:
        if pos not in self.finishes:
            self.finishes[pos] = finishes_home(pos)
        return self.finishes[pos]

    def _reaches(self, pos: Position, depth: int) -> bool:
        """Does some line of at most `depth` moves from `pos` reach a finishing position?"""
        if self._finishes(pos):
            return True
        if depth == 0 or self.failed.get(pos, -1) >= depth:
            return False
        for move in legal_moves(pos):
            if self._reaches(apply_unchecked(pos, move), depth - 1):
                return True
        self.failed[pos] = depth
        return False

    def length(self, limit: int = 12) -> int:
        for depth in range(limit + 1):
            if self._reaches(self.start, depth):
                return depth
        raise AssertionError(f"no answer within {limit} moves")

    def count(self, pos: Position, depth: int) -> int:
        """Lines of exactly `depth` moves that end in a finishing position (for depth = the shortest
        length no such line passes through a finishing position before its end)."""
        if depth == 0:
            return int(self._finishes(pos))
        key = (pos, depth)
        if key not in self.counts:
            self.counts[key] = sum(self.count(apply_unchecked(pos, m), depth - 1) for m in legal_moves(pos))
        return self.counts[key]


def _played(pos: Position, texts: list) -> list[Move]:  # type: ignore[type-arg]
    out = []
    for text in texts:
        move = resolve(pos, text)
        out.append(move)
        pos = apply_unchecked(pos, move)
    return out


def _ends_home(pos: Position, moves: list[Move]) -> bool:
    for move in moves:
        assert move in legal_moves(pos)
        pos = apply_unchecked(pos, move)
    return finishes_home(pos)


@pytest.mark.parametrize("scenario", LIBRARY, ids=[s.id for s in LIBRARY])
def test_every_library_key_is_a_shortest_answer_by_a_second_search(scenario: Scenario) -> None:
    started = time.monotonic()
    assert scenario.answer is not None and scenario.solution is not None, scenario.file
    key = _played(scenario.position, scenario.solution)
    assert _ends_home(scenario.position, key), scenario.file
    search = Deepening(scenario.position)
    shortest = search.length()
    assert len(key) == shortest == scenario.answer.moves, scenario.file
    assert search.count(scenario.position, shortest) == scenario.answer.count, scenario.file
    for other in scenario.answer.alternatives:
        line = _played(scenario.position, list(other))
        assert len(line) == shortest and line != key and _ends_home(scenario.position, line), scenario.file
    assert time.monotonic() - started < 60, "the second search is too slow for the suite"


def test_the_library_has_the_claims_issue_28_asks_for() -> None:
    from agnes_teach.registry import Task
    from agnes_teach.solver import first_move_verdicts

    assert len(LIBRARY) >= 60
    for sc in LIBRARY:
        verdicts = first_move_verdicts(sc.position, seconds=30)
        assert not verdicts.unknown, sc.file
        if sc.task == Task.TRAP:
            named = set(_played(sc.position, sc.expect["trap_moves"]))
            assert named == set(verdicts.losing), sc.file
        if sc.task == Task.KEY_MOVE:
            assert sum(1 for g in verdicts.groups if g.status == "won") == 1, sc.file


def test_the_library_ratings_grow_with_the_answer_length() -> None:
    import statistics

    from agnes_teach.registry import Difficulty

    lengths = {d: [s.answer.moves for s in LIBRARY if s.difficulty == d and s.answer] for d in Difficulty}
    medians = [statistics.median(lengths[d]) for d in Difficulty]
    assert medians[0] < medians[1] < medians[2], medians


# ----------------------------------------------------- the search on hand-made positions

# Base 5; every suit home but diamonds (5D..2D home: 3D and 4D still out), no stock, no reserve.
HAND = """
id: hand
task: win
position:
  base: 5
  foundations: {S: 4S, H: 4H, D: {d}, C: 4C}
  tableau: [{t1}, [], [], [], [], [], []]
  reserve: [[], [], [], [], [], [], []]
  stock: []
"""


def _hand(d: str, t1: str) -> Position:
    text = HAND.replace("{d}", d).replace("{t1}", t1)
    return scenario_from_data(yaml.safe_load(text), Locator("hand", None), "hand").position


@pytest.mark.parametrize(("d", "t1", "length", "count"), [
    ("2D", "[3D, 4D]", 1, 6),  # the 4 covers the 3: into any of six empty columns, then both go home
    ("2D", "[4D, 3D]", 0, 1),  # both go home by themselves: nothing to write
    ("4D", "[]", 0, 1),  # already won
])
def test_the_breadth_first_search_on_small_positions(d: str, t1: str, length: int, count: int) -> None:
    from agnes_teach.tagger.shortest import shortest_answers

    pos = _hand(d, t1)
    found = shortest_answers(pos)
    assert (found.length, found.count) == (length, count)
    assert len(found.key) == length and _ends_home(pos, list(found.key))
    assert found.alternatives == ()  # the six are one answer with the empty column renamed
    assert Deepening(pos).length() == length


def test_a_position_with_no_answer_is_too_large_not_a_wrong_key() -> None:
    from agnes_teach.tagger.shortest import TooLarge, shortest_answers

    # Base 5, diamonds at K: A 2 3 4 of diamonds out, the 2 on the A in a column of its own and
    # the 4 on the 3: the A is buried under a 2 that no column takes, so nothing goes home.
    text = HAND.replace("{d}", "KD").replace("tableau: [{t1}, [], [], [], [], [], []]",
                                             "tableau: [[AD, 2D], [3D, 4D], [], [], [], [], []]")
    pos = scenario_from_data(yaml.safe_load(text), Locator("hand", None), "hand").position
    with pytest.raises(TooLarge):
        shortest_answers(pos)


# ----------------------------------------------------------- check takes an answer

EMPTY = ROOT / "puzzles" / "small" / "tableau.empty" / "tableau-empty-d10-m29-c16.yaml"


@pytest.mark.parametrize(("solution", "ok", "rest"), [
    ("10H>t3 9S>t3 5C>f 6C>f 10D>t4", True, 14),  # the sheet's answer: 14 cards go home by themselves
    ("10H>t4 9S>t4 5C>f 6C>f 10D>t3", True, 14),  # another answer, not the key's: accepted too
    ("10H>t3 9S>t3 5C>f 6C>f 7C>f 8D>f 9C>t6 10D>t4", True, 12),  # a longer one wins as well
    ("10H>t3 9S>t3 5C>f 6C>f", False, None),  # the 10 of diamonds is still buried
])
def test_check_accepts_a_line_after_which_the_rest_goes_home(solution: str, ok: bool,
                                                            rest: int | None) -> None:
    result = runner.invoke(app, ["check", str(EMPTY), "--solution", solution])
    assert (result.exit_code == 0) is ok, result.stdout
    if ok:
        assert f"--solution: after its last move the remaining {rest} cards go home by themselves" \
            in result.stdout
    else:
        assert "[end.win]" in result.stdout
    as_json = json.loads(runner.invoke(app, ["check", str(EMPTY), "--solution", solution, "--json"]).stdout)
    notes = [n for n in as_json["results"][0]["notes"] if n["claim"] == "--solution"]
    assert ([n["home_by_themselves"] for n in notes] == [rest]) if ok else notes == []


def test_check_refuses_a_key_that_is_not_the_shortest(tmp_path: Path) -> None:
    text = EMPTY.read_text("utf-8").replace(
        "solution: 10H>t3 9S>t3 5C>f 6C>f 10D>t4\nanswer:\n  moves: 5",
        "solution: 10H>t3 9S>t3 5C>f 6C>f 7C>f 8D>f 9C>t6 10D>t4\nanswer:\n  moves: 8")
    assert "moves: 8" in text
    longer = tmp_path / "longer.yaml"
    longer.write_text(text, "utf-8")
    result = check_scenario(load_scenario(longer))
    assert "answer" in result.failed
    assert any("an answer of 5 moves exists" in e.message for e in result.errors)


def test_check_wants_every_losing_first_move_of_a_trap(tmp_path: Path) -> None:
    trap = next(s for s in LIBRARY if s.task == "trap" and len(s.expect["trap_moves"]) >= 2)
    data = yaml.safe_load(Path(trap.file).read_text("utf-8"))
    left_out = data["expect"]["trap_moves"].pop()
    path = tmp_path / "trap.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    result = check_scenario(load_scenario(path))
    assert "trap_moves" in result.failed
    assert any(left_out in e.message and "lose too" in e.message for e in result.errors)
