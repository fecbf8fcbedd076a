"""Issue 28's precise traps and crux: the trap shape measure (one losing first move, the believer
walking into it), the crux read off the moves the believer picks, and the key move as the lesson.

Each fixture is a library puzzle as it was keyed: a lone trap (one losing first move, the
believer's), traps with two and three losing first moves, and two key-move puzzles, one whose
key move is the theme's rule and one whose key move is a card sent home before it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from agnes_teach.checker import solution_line
from agnes_teach.engine import apply_unchecked, legal_moves, resolve
from agnes_teach.registry import Task
from agnes_teach.scenario import Scenario, load_scenario
from agnes_teach.tagger.answer import analyse
from agnes_teach.tagger.crux import believer_picks, crux_problem, key_move_problem, picks_lose
from agnes_teach.tagger.players import believer_choices, misconception_policy
from agnes_teach.tagger.refutation import key_analysis, scenario_theme
from agnes_teach.tagger.teaching import TrapShape, trap_shape

POSITIONS = Path(__file__).resolve().parent / "trap_positions"


def _scenario(name: str) -> Scenario:
    return load_scenario(POSITIONS / f"{name}.yaml")


def _shape(sc: Scenario) -> TrapShape:
    theme = scenario_theme(sc)
    assert theme is not None
    return trap_shape(sc.position, theme.believer)


# fixture, losing first moves (one per distinct result), lone, the believer picks a losing move
@pytest.mark.parametrize(("name", "losing", "lone", "believer_loses"), [
    ("lone", {"5D>f"}, True, True),
    ("two-losers", {"4C>f", "3H>f"}, False, True),
    ("three-losers", {"8D>t5", "9S>f", "10S>t2"}, False, True),
    ("key-is-the-rule", None, False, None),  # a key-move puzzle: several first moves lose
])
def test_the_trap_shape_counts_the_losing_first_moves_and_the_believers_pick(
        name: str, losing: set[str] | None, lone: bool, believer_loses: bool | None) -> None:
    sc = _scenario(name)
    shape = _shape(sc)
    assert shape.lone is lone
    if losing is not None:
        assert {str(m) for m in shape.losing} == losing
        # the file's exact trap list names the same moves (symmetric twins aside)
        assert losing <= {str(m) for m in resolve_all(sc, sc.expect["trap_moves"])}
    else:
        assert len(shape.losing) >= 2
    if believer_loses is not None:
        assert shape.believer_loses is believer_loses
    assert set(shape.picked_losing) <= set(shape.picks) <= set(legal_moves(sc.position))
    assert shape.lone_believer_trap is (shape.lone and shape.believer_loses)


def resolve_all(sc: Scenario, texts: list[str]) -> list[object]:
    return [resolve(sc.position, t) for t in texts]


def test_a_lone_trap_is_the_one_move_the_believer_goes_wrong_with() -> None:
    sc = _scenario("lone")
    shape = _shape(sc)
    (trap,) = shape.losing
    assert shape.picked_losing == (trap,)
    assert [str(m) for m in resolve_all(sc, sc.expect["trap_moves"])] == [str(trap)]


def test_a_position_without_a_theme_has_no_believer_picks() -> None:
    shape = trap_shape(_scenario("two-losers").position, None)
    assert shape.picks == () and not shape.believer_loses and len(shape.losing) == 2


@pytest.mark.parametrize("name", ["lone", "two-losers", "three-losers", "key-is-the-rule"])
def test_the_misconception_player_plays_only_the_moves_the_believer_picks(name: str) -> None:
    import random

    sc = _scenario(name)
    theme = scenario_theme(sc)
    assert theme is not None
    moves = legal_moves(sc.position)
    choices = believer_choices(sc.position, theme.believer)
    policy = misconception_policy(theme.believer)
    played = {policy(sc.position, moves, random.Random(seed)) for seed in range(40)}
    assert played <= set(choices) and played


# fixture, is the rule the crux (None) or why not, every move the believer picks loses at some
# spot where the answer plays the rule's move (``picks_lose``, the strictest reading)
@pytest.mark.parametrize(("name", "crux", "picks_all_lose"), [
    ("lone", None, True),
    ("two-losers", None, True),
    ("key-is-the-rule", None, True),
    # the corner's Ace home: a believer's pick there still wins, but another pick loses over its card
    ("corner-not-urgent", None, False),
    # a tactic beside the rule (6H home while 5S needs it): the believer's pick loses, but over
    # another card: losing picks alone do not make the rule the crux
    ("tactic", "obvious", True),
    # the same where the believer's picks lose: none of them takes the rule's card or place
    ("three-losers", "obvious", True),
])
def test_the_crux_is_where_the_believers_own_pick_loses(name: str, crux: str | None,
                                                         picks_all_lose: bool) -> None:
    sc = _scenario(name)
    theme = scenario_theme(sc)
    assert theme is not None
    line = solution_line(sc)
    found = key_analysis(sc, line)
    assert found is not None
    # judged on the whole answer, as check --teach judges it
    whole = found if sc.task == Task.WIN else analyse(sc.position, line, theme.believer)
    said = crux_problem(sc.position, whole, theme.believer)
    assert said is None if crux is None else (said is not None and crux in said), said
    positions = [sc.position]
    for move in whole.moves:
        positions.append(apply_unchecked(positions[-1], move))
    spots = [d for d in whole.decisions if d.rule_decides and d.uses_rule]
    assert spots
    assert any(picks_lose(positions[d.index], d, theme.believer) for d in spots) is picks_all_lose
    for d in spots:
        picks, losing = believer_picks(positions[d.index], d, theme.believer)
        assert set(losing) <= set(picks)


@pytest.mark.parametrize(("name", "problem"), [
    ("key-is-the-rule", None),
    ("key-not-the-rule", "JH>f is not a move of the theme's rule"),
])
def test_a_key_move_must_be_the_themes_lesson_move(name: str, problem: str | None) -> None:
    sc = _scenario(name)
    theme = scenario_theme(sc)
    assert theme is not None and sc.task == Task.KEY_MOVE
    key = resolve(sc.position, sc.expect["key_move"])
    said = key_move_problem(sc.position, key, theme.lesson_move)
    assert said is None if problem is None else (said is not None and problem in said), said


# task, losing first moves, refused tempting moves, does criterion 1 object to the count?
@pytest.mark.parametrize(("task", "losing", "refused", "objects"), [
    (Task.TRAP, 1, 0, False),  # a lone trap: the one move to avoid is enough
    (Task.TRAP, 2, 0, False),
    (Task.TRAP, 0, 1, True),  # a refused move is no trap to avoid: a legal move must lose
    (Task.KEY_MOVE, 1, 0, True),  # a key move still needs two wrong choices
    (Task.KEY_MOVE, 1, 1, False),
    (Task.KEY_MOVE, 2, 0, False),
])
def test_a_trap_needs_one_losing_first_move_and_a_key_move_two_wrong_ones(
        task: Task, losing: int, refused: int, objects: bool) -> None:
    from agnes_teach.tagger.teaching import Measures, teaching_problems

    measured = Measures(random=0.1, greedy=None, misconception=0.0, lost_without=True, first_moves=4,
                        losing_first=losing, decisions=1)
    problems = teaching_problems(measured, task, "easy", refused)
    assert any("first move" in p for p in problems) is objects, problems
