"""Issue 20's small puzzles: the reductions, the judge, the search, and the criteria as the checker
applies them.

The reductions are pure functions of a position (table-driven below); the search and the judge
ask the solver, so one real critical moment (deal 4, where an Ace must start an empty column) is
cut down once and the result held to every criterion by the checker's own code.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from agnes_teach.cards import parse_cards
from agnes_teach.checker import check_scenario
from agnes_teach.generator.core import Puzzle
from agnes_teach.generator.output import scenario_data
from agnes_teach.generator.pipeline import Search, find
from agnes_teach.position import Position, parse_position
from agnes_teach.profile import get_profile
from agnes_teach.registry import RuleId
from agnes_teach.scenario import Scenario, scenario_from_data
from agnes_teach.tagger.answer import MAX_ANSWER, MAX_CARDS, analyse
from agnes_teach.tagger.small import reductions, send_home, small_problems
from agnes_teach.tagger.teaching import cards_not_home
from agnes_teach.themes import Theme, theme_for
from agnes_teach.yamlio import Locator

SUITS = "SHDC"


def _endgame() -> Position:
    """Base A; hearts and diamonds complete, spades up to 8, clubs up to 10: eight cards to play."""
    return parse_position({
        "profile": "bernauer", "base": "A",
        "foundations": {"S": "8S", "H": "KH", "D": "KD", "C": "10C"},
        "tableau": ["9S JC", "KS 10S", "QC", "JS", [], [], []],
        "reserve": ["QS KC", [], [], [], [], [], []],
        "stock": [],
    })


@pytest.mark.parametrize(("position", "suit", "pile", "left"), [
    (_endgame(), "S", 0, "JC"),  # 9S lies under JC: JC closes up onto the column's base
    (_endgame(), "C", 0, "9S"),  # JC is a column's top
    (_endgame(), "H", None, None),  # hearts are complete: nothing to send
])
def test_send_home_takes_the_next_card_of_a_suit_from_wherever_it_lies(
        position: Position, suit: str, pile: int | None, left: str | None) -> None:
    s = SUITS.index(suit)
    after = send_home(position, s)
    if pile is None:
        assert after is None
        return
    assert after is not None
    assert after.foundations[s] == position.foundations[s] + 1
    assert after.tableau[pile] == parse_cards(left)
    assert cards_not_home(after) == cards_not_home(position) - 1
    assert sorted(after.all_cards()) == sorted(position.all_cards())  # conserved: the card is home


def test_a_card_still_in_the_stock_is_not_sent_home() -> None:
    """Stock cards go only by deals: a stock of 2 after the second deal, with KC and QC in it."""
    with_stock = parse_position({
        "profile": "bernauer", "base": "A",
        "foundations": {"S": "8S", "H": "KH", "D": "KD", "C": "10C"},
        "tableau": ["9S", "KS 10S", "QS JS", [], [], [], []],
        "reserve": ["KC", [], [], [], [], [], []],
        "stock": "JC QC",
    })
    assert send_home(with_stock, SUITS.index("C")) is None  # JC is in the stock
    assert send_home(with_stock, SUITS.index("S")) is not None
    kinds = [what.split()[0] for what, _ in reductions(with_stock, [])]
    assert kinds == ["send", "deal"]  # spades home, or deal first; no line: no later start


def _empty_theme(sc: Scenario) -> Theme:
    return theme_for(RuleId.TABLEAU_EMPTY, sc.position.profile.id)


@cache
def _found() -> Puzzle:
    search = Search(RuleId.TABLEAU_EMPTY, 1)
    (puzzle,) = find(search, [4], get_profile("bernauer"))
    return puzzle


def test_a_critical_moment_cut_down_meets_every_criterion() -> None:
    puzzle = _found()
    pos = puzzle.position
    answer = analyse(pos, puzzle.solution, theme_for(RuleId.TABLEAU_EMPTY, pos.profile.id).believer)
    assert cards_not_home(pos) <= MAX_CARDS and len(answer.moves) <= MAX_ANSWER
    assert answer.rule_decides and answer.only_moves
    assert puzzle.minimal is True
    # Every one-step reduction is recorded with the criterion it breaks.
    assert set(puzzle.economy) == {what for what, _ in reductions(pos, puzzle.solution)}
    assert all(puzzle.economy.values())
    assert puzzle.stats["random"] <= 0.30


def test_the_checker_holds_a_reduced_puzzle_to_the_same_criteria() -> None:
    puzzle = _found()
    data = scenario_data(puzzle, 0, 1)
    assert data["measured"]["minimal"] is True and data["economy"]
    sc = scenario_from_data(data, Locator("reduced.yaml", None), "reduced.yaml")
    assert small_problems(sc.position, list(puzzle.solution), _empty_theme(sc)) == []
    result = check_scenario(sc, teach=True)
    assert not result.errors, result.errors


def test_a_whole_game_position_is_not_a_small_puzzle() -> None:
    """The critical moment before any cut: the checker names its size, the first criterion."""
    from agnes_teach.scenario import load_scenario

    sc = load_scenario(Path(__file__).resolve().parent / "whole_game_demo" / "01-empty-column.yaml")
    problems = small_problems(sc.position, _line(sc), _empty_theme(sc))
    assert len(problems) == 1 and f"(at most {MAX_CARDS} and {MAX_ANSWER})" in problems[0]


def _line(sc):  # type: ignore[no-untyped-def]
    from agnes_teach.engine import apply_move, resolve

    pos, out = sc.position, []
    for text in sc.solution:
        move = resolve(pos, text)
        out.append(move)
        pos = apply_move(pos, move)
    return out
