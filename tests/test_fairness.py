"""Hidden-stock fairness: every order of the cards the pupil cannot see, re-decided."""

from __future__ import annotations

from pathlib import Path

from agnes_teach.cards import parse_card
from agnes_teach.fairness import (
    claim_holds_for_every_order,
    first_move_odds,
    hidden_orders,
    key_move_claim,
    status_claim,
)
from agnes_teach.moves import DEAL_MOVE, Move
from agnes_teach.position import parse_position
from agnes_teach.scenario import load_scenario

ROOT = Path(__file__).resolve().parent.parent

# reserve-last-deal: the last two stock cards land on r1 and r2; either order wins.
TWO_HIDDEN = parse_position({
    "profile": "reserve-last-deal", "base": "A",
    "foundations": {"S": "QS", "H": "JH", "D": "KD", "C": "KC"},
    "tableau": [[], [], [], [], [], [], []], "reserve": ["KH", [], [], [], [], [], []],
    "stock": "QH KS", "exposed": [],
})
NINE_HIDDEN = parse_position({
    "profile": "bernauer", "base": "J",
    "foundations": {"S": "7S", "H": "10H", "D": "9D", "C": "3C"},
    "tableau": ["8C", [], [], [], [], [], []], "reserve": [[], [], [], "4C", [], [], []],
    "stock": "10D 8S 9S 6C 10S 5C 7C 9C 10C", "exposed": [],
})


def test_a_small_stock_is_enumerated_order_by_order() -> None:
    orders = hidden_orders(TWO_HIDDEN)
    assert orders.exhaustive and orders.total == 2
    assert {p.stock for p in orders.positions} == {TWO_HIDDEN.stock, TWO_HIDDEN.stock[::-1]}
    assert orders.positions[0] == TWO_HIDDEN  # the order as given comes first


def test_a_large_stock_is_sampled_with_the_given_order_first() -> None:
    orders = hidden_orders(NINE_HIDDEN, sample=20, seed=3)
    assert not orders.exhaustive and orders.total == 362880
    assert len(orders.positions) == 20 and orders.positions[0] == NINE_HIDDEN
    assert len({p.stock for p in orders.positions}) == 20
    assert hidden_orders(NINE_HIDDEN, sample=20, seed=3) == orders  # reproducible


def test_no_hidden_cards_means_one_order() -> None:
    pos = load_scenario(ROOT / "agnes_teach/data/examples/section-08.yaml").position
    result = claim_holds_for_every_order(pos, status_claim(None, "won"))
    assert result.proved and result.tried == 1
    assert "no hidden cards" in result.argument()


def test_a_claim_true_in_every_order_is_proved() -> None:
    result = claim_holds_for_every_order(TWO_HIDDEN, status_claim(None, "won"))
    assert result.proved and result.tried == 2
    assert "every one of the 2 orders" in result.argument()


def test_a_claim_that_depends_on_the_order_fails_exhaustively() -> None:
    first = TWO_HIDDEN.stock[0]
    result = claim_holds_for_every_order(TWO_HIDDEN, lambda p: p.stock[0] == first)
    assert result.holds is False and result.exhaustive
    assert result.counter is not None and result.counter.stock[0] != first


def test_dealing_loses_only_in_some_orders_of_a_hidden_stock() -> None:
    # The old stock.deal puzzle: "dealing now loses" is true for the printed order only.
    assert status_claim(DEAL_MOVE, "lost")(NINE_HIDDEN) is True
    result = claim_holds_for_every_order(NINE_HIDDEN, status_claim(DEAL_MOVE, "lost"), sample=40)
    assert result.holds is False and not result.exhaustive


def test_sampled_holds_state_their_bound() -> None:
    result = claim_holds_for_every_order(NINE_HIDDEN, status_claim(None, "won"), sample=30)
    assert result.holds is True and not result.proved
    assert "95% confidence" in result.argument() and "10.0%" in result.argument()


def test_key_move_claim_and_first_move_odds() -> None:
    key = Move(parse_card("4C"), "f")
    assert key_move_claim(key)(NINE_HIDDEN) is True  # in the printed order, dealing loses
    assert key_move_claim(DEAL_MOVE)(NINE_HIDDEN) is False
    odds = first_move_odds(NINE_HIDDEN, sample=12)
    assert set(odds.odds) == {key, DEAL_MOVE}
    assert odds.odds[key].share_won == 1.0
    assert 0 < odds.odds[DEAL_MOVE].won < 12
    assert odds.odds[DEAL_MOVE].tried == 12
