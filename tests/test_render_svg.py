"""Position diagrams: every card drawn and named, pile labels, the move arrow."""

from __future__ import annotations

import re
from pathlib import Path

from agnes_teach.cards import parse_card
from agnes_teach.deal import deal
from agnes_teach.moves import Move
from agnes_teach.profile import get_profile
from agnes_teach.render.svg import position_svg
from agnes_teach.scenario import load_scenario

DEMO = Path(__file__).resolve().parent / "sheet_positions"


def test_every_card_is_drawn_with_a_text_alternative() -> None:
    pos = deal(7, get_profile("bernauer"))
    svg = str(position_svg(pos, "en"))
    cards = re.findall(r'<g class="card" data-card="([^"]+)"><title>([^<]+)</title>', svg)
    piles = pos.tableau + pos.reserve + pos.exposed
    visible = sum(len(p) for p in piles) + sum(1 for n in pos.foundations if n)
    assert len(cards) == visible == 36
    assert ("6♥", "6 of hearts") in cards and ("10♣", "10 of clubs") in cards
    for name in [f"t{i}" for i in range(1, 8)] + [f"r{i}" for i in range(1, 8)] + ["x1", "x2"]:
        assert f">{name}</text>" in svg
    assert ">16</text>" in svg and "16 cards in the stock" in svg and "base 7" in svg


def test_russian_text_alternatives_and_covered_cards() -> None:
    sc = load_scenario(DEMO / "01-section-08.yaml")
    svg = str(position_svg(sc.position, "ru"))
    assert "<title>7 червей, накрыта</title>" in svg and "<title>король червей</title>" in svg
    assert "в колоде 0 карт" in svg


def test_move_arrow_and_outline() -> None:
    sc = load_scenario(DEMO / "03-run-moves-whole.yaml")
    plain = str(position_svg(sc.position, "en"))
    arrow = str(position_svg(sc.position, "en", Move(parse_card("3S"), "t2")))
    assert "move-arrow" not in plain and arrow.count("move-arrow") == 1
    # The whole run 3♠ 2♥ A♣ is outlined as moving.
    assert arrow.count('stroke="#1f5fbf" stroke-width="2.6"') == 3


def test_agnes_ru_layout_has_six_reserve_piles_and_no_exposed_cells() -> None:
    svg = str(position_svg(deal(1, get_profile("agnes-ru")), "es"))
    assert ">r6</text>" in svg and ">r7</text>" not in svg and ">x1</text>" not in svg
    assert "18 cartas en el mazo" in svg
