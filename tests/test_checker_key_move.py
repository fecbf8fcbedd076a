"""expect.key_move: moves that reach the same state up to symmetry count once."""

from __future__ import annotations

from agnes_teach.checker import check_scenario
from agnes_teach.scenario import scenario_from_data
from agnes_teach.yamlio import loads

# 4♣ blocks 6♥ (next for hearts) and 3♣ (next for clubs); it can only go into an
# empty column (base 5: the empty-column rank is 4).  Five empty columns, one choice.
SYMMETRIC = """
id: key-into-any-empty-column
task: key-move
themes: [tableau.empty]
position:
  base: 5
  foundations: {S: 4S, H: 5H, D: 4D, C: 2C}
  tableau: [[], [], 3C 6H 4C, 4H 3H 2H AH KH QH JH 10H 9H 8H 7H, [], [], []]
  reserve: [[], [], [], [], [], [], []]
  stock: []
expect:
  winnable: true
  key_move: 4C>t1
"""


def _check(text: str):  # type: ignore[no-untyped-def]
    data, loc = loads(text, "inline.yaml")
    return check_scenario(scenario_from_data(data, loc, "inline.yaml"), budget=10.0)


def test_key_move_into_one_of_several_empty_columns_is_one_choice() -> None:
    result = _check(SYMMETRIC)
    assert result.ok, [e.message for e in result.errors]
    assert "key_move" in result.verified


def test_a_different_winning_first_move_still_fails_the_claim() -> None:
    # With 3♣ free on a reserve pile, 3C>f also keeps the win: two real choices.
    text = SYMMETRIC.replace("3C 6H 4C", "6H 4C").replace(
        "reserve: [[], [], [], [], [], [], []]", "reserve: [3C, [], [], [], [], [], []]"
    )
    result = _check(text)
    assert not result.ok
    assert any("3C>f" in e.message for e in result.errors), [e.message for e in result.errors]
