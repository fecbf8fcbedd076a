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
    assert "<title>7 червей — накрытая карта</title>" in svg and "<title>король червей</title>" in svg
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


# ------------------------------------------------------------ the last two cards: a deal of their own

def _shown_rows(svg: str) -> list[tuple[float, str]]:
    """(y, label) of each labelled row of the shown stock, top to bottom."""
    return [(float(y), label) for y, label in
            re.findall(r'<text x="[\d.]+" y="([\d.]+)" font-size="10"(?: text-anchor="end")? '
                       r'fill="#555555">([^<]+)</text>', svg)]


def _cards_at(svg: str, below: float) -> dict[str, float]:
    """Card -> x of every card drawn below the height `below` (the shown stock's rows)."""
    found = re.findall(r'data-card="([^"]+)"><title>[^<]+</title><rect x="([\d.]+)" y="([\d.]+)"', svg)
    return {card: float(x) for card, x, y in found if float(y) > below}


def test_the_last_two_stand_under_x1_x2_with_their_own_deal() -> None:
    from agnes_teach.render.svg import exposed_legend

    pos = deal(1, get_profile("bernauer"))
    svg = str(position_svg(pos, "en", stock_shown=True))
    rows = _shown_rows(svg)
    assert [label for _, label in rows] == ["first deal → r1…r7", "second deal → r1…r7",
                                            "third deal, the last → x1 x2, apart from the reserve"]
    x_of = {m[1]: float(m[0]) for m in re.findall(r'<text x="([\d.]+)" y="[\d.]+" font-size="11" '
                                                   r'text-anchor="middle" fill="#333333">(\w+)</text>', svg)}
    last_two = _cards_at(svg, rows[-1][0])
    assert len(last_two) == 2
    # Centred under the cells' labels x1 and x2, not under r1 r2.
    assert sorted(x + 23 for x in last_two.values()) == [x_of["x1"], x_of["x2"]]
    assert x_of["r1"] not in {x + 23 for x in last_two.values()}
    # The empty cells say which deal fills them.
    assert svg.count(">deal 3</text>") == 2 and "x1: empty until the third deal lays a card here" in svg
    assert exposed_legend(pos.profile, "ru") == (
        "x1 x2 — последние 2 карты колоды: их кладёт открыто, отдельно от резерва, своя, третья сдача "
        "(запись: deal).")


def test_a_profile_that_deals_the_last_two_to_the_reserve_draws_them_there() -> None:
    from agnes_teach.render.svg import exposed_legend, last_cards_note

    pos = deal(1, get_profile("reserve-last-deal"))
    svg = str(position_svg(pos, "ru", stock_shown=True))
    labels = [label for _, label in _shown_rows(svg)]
    assert labels == ["первая сдача → r1…r7", "вторая сдача → r1…r7", "третья сдача → r1 r2"]
    assert exposed_legend(pos.profile, "ru") is None and last_cards_note(pos, "ru") is None
    assert "x1" not in svg


def test_the_task_says_the_last_two_need_their_deal_until_it_is_made() -> None:
    from agnes_teach.engine import apply_move
    from agnes_teach.moves import DEAL_MOVE
    from agnes_teach.render.svg import last_cards_note

    pos = deal(1, get_profile("bernauer"))
    assert last_cards_note(pos, "es") == ("Las 2 últimas cartas del mazo llegan a x1 x2 con su propio "
                                          "reparto, el tercer reparto.")
    assert last_cards_note(pos, "ru") == "Последние 2 карты колоды кладёт в x1 x2 своя, третья сдача."
    for _ in range(3):
        assert last_cards_note(pos, "en") is not None
        pos = apply_move(pos, DEAL_MOVE)
    assert last_cards_note(pos, "en") is None and pos.exposed
