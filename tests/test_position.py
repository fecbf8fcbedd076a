"""Positions: the YAML form of formats.md, its input variants, and a validator that names every problem."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest
import yaml
from _engine_util import build

from agnes_teach.cards import card_name, parse_card
from agnes_teach.deal import deal
from agnes_teach.errors import InputError
from agnes_teach.position import parse_position
from agnes_teach.profile import get_profile, profile_ids
from agnes_teach.yamlio import loads


def messages(data: Any, text_file: str | None = None) -> list[str]:
    with pytest.raises(InputError) as info:
        parse_position(data)
    return [p.message for p in info.value.problems]


def dealt(seed: int = 1, profile: str = "bernauer") -> dict[str, Any]:
    return deal(seed, get_profile(profile)).to_data()


def test_deal_1_as_data_is_valid() -> None:
    assert parse_position(dealt()) == deal(1)


def test_every_problem_is_reported_at_once() -> None:
    data = dealt()
    data["tableau"][0] = "7D"  # 7S lost, 7D twice
    data["tableau"].append([])  # 8 columns
    data["reserve"][0] = "3S " + data["stock"].split()[0]  # r1 two high before any deal
    data["stock"] = " ".join(data["stock"].split()[1:4])  # stock of 3
    data["exposed"] = [[], "KX"]  # not a card, and exposed while the stock is not empty
    # Shapes come first: every card that is not a card, each named with its pile.
    bad_cards = copy.deepcopy(data)
    bad_cards["tableau"][2] = "ZZ 7D"
    assert messages(bad_cards) == ["t3: not a card: 'ZZ' (suit must be S, H, D, C or ♠ ♥ ♦ ♣)",
                                   "x2: not a card: 'KX' (suit must be S, H, D, C or ♠ ♥ ♦ ♣)"]
    # Then everything the profile and the cards together forbid, at once.
    data["exposed"] = [[], []]
    found = messages(data)
    joined = "\n".join(found)
    assert "'tableau' has 8 piles; bernauer has 7" in joined
    assert "duplicated cards: 7D" in joined
    assert re.search(r"missing cards: .*\b7S\b", joined)
    assert "a stock of 3 cards is impossible in bernauer (it holds 16, 9, 2, 0)" in joined
    assert len(found) >= 4


def test_problems_name_their_lines() -> None:
    text = (
        "base: 10\n"
        "foundations: {H: 10H}\n"
        "tableau: [[], 7D 9C, JH 4D 5S, JD 6D 5D QS, 3D 9H KD 2D 2H,\n"
        "          10S KH 3H AH 8C 4H, 8H 4C QD AS AC KS 9S]\n"
        "reserve:\n"
        "  - 3S\n"
        "  - 4S 3C\n"
        "  - 5C\n"
        "  - 7C\n"
        "  - 8D\n"
        "  - KC\n"
        "  - 8S\n"
        "stock: JS QC 6C 2S 7H 10D 10C JC 6H QH AD 5H 2C 9D 6S 7S\n"
        "exposed: [[], 9S]\n"
    )
    data, loc = loads(text, "mine.yaml")
    with pytest.raises(InputError) as info:
        parse_position(data, loc)
    shown = [str(p) for p in info.value.problems]
    assert "mine.yaml:7: reserve pile r2 holds 2 cards; after 0 deal(s) it can hold at most 1" in shown
    assert "mine.yaml:14: exposed card in x2 while the stock still holds 16 cards " \
        "(the exposed cards come only with the last deal)" in shown
    assert "mine.yaml:1: duplicated cards: 9S" in shown


def test_unknown_profile() -> None:
    data = dealt()
    data["profile"] = "klondike"
    assert messages(data) == [
        "unknown profile 'klondike' (known: agnes-ru, bernauer, morehead, parlett, reserve-last-deal, sorel, "
        "sorel-strict, or a profile file's path ending in .yaml)"
    ]


@pytest.mark.parametrize("profile", profile_ids())
def test_stock_sizes(profile: str) -> None:
    prof = get_profile(profile)
    expected = {"agnes-ru": (18, 12, 6, 0), "sorel": (23, 16, 9, 2, 0),
                "sorel-strict": (23, 16, 9, 2, 0)}.get(profile, (16, 9, 2, 0))
    assert prof.stock_sizes() == expected


def test_stock_size_must_be_reachable() -> None:
    assert build("bernauer", base=5, stock="4H 4S")
    with pytest.raises(InputError, match="a stock of 3 cards is impossible in bernauer"):
        build("bernauer", base=5, stock="4H 4S 4D")
    with pytest.raises(InputError, match="a stock of 2 cards is impossible in agnes-ru"):
        build("agnes-ru", stock="KH KS")


def test_pile_heights_are_checked_even_when_the_stock_is_impossible() -> None:
    base = build("bernauer", base=5, tableau={1: "4C 3C 2C AC"}, stock="4H 4S").to_data()
    base["tableau"][0] = []
    base["reserve"][0] = "4C 3C 2C AC"
    base["stock"] = "4H 4S 4D"
    base["foundations"]["D"] = "3D"
    found = messages(base)
    assert any("a stock of 3 cards is impossible" in m for m in found)
    assert any("reserve pile r1 holds 4 cards; it never holds more than 3" in m for m in found)


def test_reserve_heights_follow_the_deals() -> None:
    # after one deal (stock 9) a pile holds at most 2; after all deals 3 (4 on r1, r2 in reserve-last-deal)
    nine = "4S 3S 2S 4H 3H 2H 4D 3D 2D"
    assert build("bernauer", base=5, stock=nine, reserve={1: "4C 3C"})
    with pytest.raises(InputError, match="r1 holds 3 cards; after 1 deal"):
        build("bernauer", base=5, stock=nine, reserve={1: "4C 3C 2C"})
    assert build("bernauer", base=5, reserve={1: "4C 3C 2C"})
    with pytest.raises(InputError, match="r1 holds 4 cards; after 3 deal"):
        build("bernauer", base=5, reserve={1: "4C 3C 2C AC"})
    assert build("reserve-last-deal", base=5, reserve={1: "4C 3C 2C AC", 2: "4D 3D 2D AD"})
    with pytest.raises(InputError, match="r3 holds 4 cards"):
        build("reserve-last-deal", base=5, reserve={3: "4C 3C 2C AC"})


def test_exposed_cells() -> None:
    assert build("bernauer", base=5, exposed={1: "4C", 2: "4D"})
    with pytest.raises(InputError, match="exposed card in x1 while the stock still holds 2"):
        build("bernauer", base=5, exposed={1: "4C"}, stock="4H 4S")
    with pytest.raises(InputError, match="x2 holds 2 cards; it holds at most one"):
        build("bernauer", base=5, exposed={2: "4C 3C"})
    data = build("reserve-last-deal", base=5, tableau={1: "4C"}).to_data()
    data["exposed"] = ["4C"]
    data["tableau"][0] = []
    assert any("has no exposed cells" in m for m in messages(data))


def test_fixed_base_profiles() -> None:
    data = build("agnes-ru", tableau={1: "KC"}).to_data()
    assert data["base"] == "A"
    parse_position({**data, "base": 1})
    parse_position({k: v for k, v in data.items() if k != "base"})  # base may be left out
    assert any("base 5 is not possible in agnes-ru" in m for m in messages({**data, "base": 5}))


def test_dealt_base_profile_needs_a_base_and_a_started_foundation() -> None:
    data = dealt()
    del data["base"]
    assert any("'base' is missing" in m for m in messages(data))
    data = dealt()
    data["foundations"] = {}
    data["stock"] = data["stock"] + " 10H"
    # 17 cards in the stock and no foundation: both are named
    found = "\n".join(messages(data))
    assert "no foundation holds a card" in found and "a stock of 17 cards" in found


def test_a_bad_base_does_not_cascade_into_card_counts() -> None:
    data = dealt()
    data["base"] = 14
    assert messages(data) == ["base: not a rank: 14 (ranks are A, 2..10, J, Q, K)"]
    data = dealt()
    data["foundations"] = {"H": "10S"}
    assert messages(data) == ["foundation H cannot have 10S on top (a foundation holds one suit: "
                              "write it under S)"]


def test_input_forms_are_forgiving() -> None:
    canonical = build("bernauer", base="J", tableau={1: "10S 9H", 2: "10H"}, reserve={1: "10C"})
    data = canonical.to_data()
    loose = copy.deepcopy(data)
    loose["tableau"][0] = ["T♠", "9♥\ufe0f"]  # T for 10, symbols, a variation selector
    loose["tableau"][1] = "th"  # lower case, a string pile
    loose["reserve"][0] = ["10c"]
    loose["base"] = "j"
    loose["foundations"] = {("♥" if k == "H" else k.lower()): v.lower()
                            for k, v in data["foundations"].items()}
    assert parse_position(loose) == canonical


def test_missing_suit_is_an_empty_foundation() -> None:
    pos = build("bernauer", base=5, tableau={1: "6S 7S 8S 9S 10S JS QS KS AS 2S 3S 4S 5S"})
    assert "S" not in pos.to_data()["foundations"]
    assert pos.foundations[0] == 0


@pytest.mark.parametrize("profile", profile_ids())
@pytest.mark.parametrize("seed", [0, 1, 617, 2**31 - 1])
def test_round_trip_through_yaml_text(profile: str, seed: int) -> None:
    pos = deal(seed, get_profile(profile))
    text = yaml.safe_dump(pos.to_data(), sort_keys=False, allow_unicode=True)
    data, loc = loads(text, "x.yaml")
    assert parse_position(data, loc) == pos


def test_card_names() -> None:
    typed = ("10h", "Th", "a♠", "K♣", " qd ")
    assert [card_name(parse_card(t)) for t in typed] == ["10H", "10H", "AS", "KC", "QD"]
    for bad in ("1H", "11S", "ZZ", "H", "", "10", "AX"):
        with pytest.raises(ValueError):
            parse_card(bad)
