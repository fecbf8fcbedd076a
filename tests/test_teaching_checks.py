"""`check`'s teaching properties: theme use on the line (criterion 4), hidden-stock fairness
(criterion 3) and, with teach=True, failability and the misconception (criteria 1-2)."""

from __future__ import annotations

import pytest

from agnes_teach.checker import check_scenario
from agnes_teach.scenario import Scenario, scenario_from_data
from agnes_teach.yamlio import loads

RUN = """
id: run
task: win
themes: [tableau.run]
position:
  profile: bernauer
  base: 5
  foundations: {S: 2S, H: AH, D: 3D, C: KC}
  tableau: [3S 2H AC, 4D, 3C 2C, 4H, [], [], []]
  reserve: [4S, 3H, 4C, [], [], [], []]
  stock: []
  exposed: []
expect: {winnable: true}
"""
NINE = """
id: nine
task: trap
themes: [stock.deal]
position:
  profile: bernauer
  base: J
  foundations: {S: 7S, H: 10H, D: 9D, C: 3C}
  tableau: [8C, [], [], [], [], [], []]
  reserve: [[], [], [], 4C, [], [], []]
  stock: 10D 8S 9S 6C 10S 5C 7C 9C 10C
  exposed: []
solution: 4C>f deal 8S>f 9S>f 10S>f 5C>f 6C>f 7C>f 8C>f deal
expect: {winnable: true, trap_move: deal}
"""
TWO = """
id: two
task: win
position:
  profile: reserve-last-deal
  base: A
  foundations: {S: QS, H: JH, D: KD, C: KC}
  tableau: [[], [], [], [], [], [], []]
  reserve: [KH, [], [], [], [], [], []]
  stock: QH KS
  exposed: []
expect: {winnable: true}
"""


def scenario(text: str, **changes: object) -> Scenario:
    data, loc = loads(text, "test.yaml")
    data.update(changes)
    return scenario_from_data(data, loc, "test.yaml")


def errors(sc: Scenario, teach: bool = False) -> list[str]:
    return [e.message for e in check_scenario(sc, budget=5, teach=teach).errors]


THEME_CASES = [  # (scenario, ok)
    (scenario(RUN, solution="3S>t2 AC>f 2H>f 3S>f 2C>f 3C>f 4D>f 3H>f 4H>f 4S>f 4C>f"), True),
    (scenario(RUN, solution="AC>f 2H>f 3S>f 2C>f 3C>f 4D>f 3H>f 4H>f 4S>f 4C>f"), False),
    (scenario(RUN, themes=["foundation.suit"], solution="AC>f 2H>f 3S>f 2C>f 3C>f 4D>f 3H>f 4H>f 4S>f 4C>f"),
     True),
    (scenario(NINE), True),
]


@pytest.mark.parametrize(("sc", "ok"), THEME_CASES)
def test_themes_must_be_used_on_the_line(sc: Scenario, ok: bool) -> None:
    found = [m for m in errors(sc) if "never uses" in m]
    assert (not found) is ok, found


@pytest.mark.parametrize(("sc", "ok"), [
    (scenario(NINE), False),  # "dealing loses" holds for the printed order only
    (scenario(NINE, stock_shown=True), True),  # the page shows the order: fair
    (scenario(TWO, solution="deal QH>f KH>f KS>f"), False),  # a line played blind: the order matters
    (scenario(TWO), True),  # winnable in both orders, checked one by one
    (scenario(TWO, task="key-move", expect={"winnable": True, "key_move": "deal"}), False),  # KH>t1 wins too
])
def test_claims_about_a_face_down_stock(sc: Scenario, ok: bool) -> None:
    found = [m for m in errors(sc) if "face-down" in m]
    assert (not found) is ok, found


def test_teach_fails_a_puzzle_random_play_wins() -> None:
    sc = scenario(RUN, solution="3S>t2 AC>f 2H>f 3S>f 2C>f 3C>f 4D>f 3H>f 4H>f 4S>f 4C>f")
    found = [m for m in errors(sc, teach=True) if "does not teach" in m]
    assert any("random play wins" in m for m in found), found
    assert not [m for m in errors(sc) if "does not teach" in m]  # only with teach
