"""The worked example of the rules reference (seed 000, section 08), as its own test.

Base 5♥ on the heart foundation; 6♥ on top of a reserve pile goes onto it; a
free 4♣ may open an empty column; and after the foundation reaches 6 an empty
column still wants a 4 -- a free 5 is refused for tableau.empty.
"""

from __future__ import annotations

from pathlib import Path

from _engine_util import build, move, verdict

from agnes_teach.cards import SUITS, card_name
from agnes_teach.checker import check_scenario
from agnes_teach.engine import apply_move, legal_moves, refusal
from agnes_teach.i18n import refusal_message
from agnes_teach.scenario import load_scenario

SPADES_5_ON_TOP = "6S 7S 8S 9S 10S JS QS KS AS 2S 3S 4S 5S"
REPO = Path(__file__).resolve().parent.parent


def worked_example():  # type: ignore[no-untyped-def]
    return build(
        "bernauer", base=5,
        tableau={2: "4C", 3: SPADES_5_ON_TOP, 4: "8H 9H 10H JH QH KH AH 2H 3H 4H"},
        reserve={1: "7H 6H"},
    )


def test_the_base_card_starts_the_heart_foundation() -> None:
    pos = worked_example()
    assert pos.base == 5
    assert card_name(pos.foundation_top(SUITS.index("H"))) == "5H"  # type: ignore[arg-type]


def test_six_of_hearts_goes_from_the_reserve_to_the_foundation() -> None:
    pos = worked_example()
    assert verdict(pos, "6H>f") is None
    after = apply_move(pos, move(pos, "6H>f"))
    assert card_name(after.foundation_top(SUITS.index("H"))) == "6H"  # type: ignore[arg-type]
    assert after.reserve[0] == (move(pos, "7H>f").card,)
    # the card under it is free now, and follows
    assert verdict(pos, "7H>f") == "reserve.top"
    assert verdict(after, "7H>f") is None


def test_a_four_opens_an_empty_column_and_a_five_never_does() -> None:
    pos = worked_example()
    after = apply_move(pos, move(pos, "6H>f"))
    for here in (pos, after):
        assert verdict(here, "4C>t1") is None
        assert move(here, "4C>t1") in legal_moves(here)
        # The foundation holds 5-6 of hearts after the first move: "one below" it would be a 5,
        # but the empty column keys on the base rank, so it still wants a 4.
        assert verdict(here, "5S>t1") == "tableau.empty"
        assert move(here, "5S>t1") not in legal_moves(here)
        why = refusal(here, move(here, "5S>t1"))
        assert why is not None and why.params["want"] == "4"
        assert "4" in refusal_message(why, "en") and "5♠" in refusal_message(why, "en")
    # the free 5 is still welcome where it belongs: it starts the spade foundation
    assert verdict(after, "5S>f") is None


def test_the_handmade_scenario_checks() -> None:
    sc = load_scenario(REPO / "agnes_teach" / "data" / "examples" / "section-08.yaml")
    result = check_scenario(sc, budget=20)
    assert result.ok, result.errors
    assert {"solution", "legal", "illegal"} <= set(result.verified)
