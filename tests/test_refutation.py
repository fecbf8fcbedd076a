"""Criterion 6: the key says why a legal tempting move loses, from the position.

Fixed mined positions (copies of puzzles of an earlier library, kept here as fixtures): each
tempting move and what the key can read off the position after it."""

from __future__ import annotations

from pathlib import Path

import pytest

from agnes_teach.cards import card_symbol
from agnes_teach.engine import resolve
from agnes_teach.moves import parse_move_text
from agnes_teach.render.sheet import load_items
from agnes_teach.scenario import load_scenario
from agnes_teach.tagger.refutation import observe, reason

HERE = Path(__file__).resolve().parent / "refutation_positions"

CASES = [  # (file, tempting move, deadlock?, observation kind, card, other card, pile, needed next)
    ("foundation-wrap-d43-m36", "KC>t7", False, "buried", "A♦", "K♣", "t7", True),
    ("stock-deal-d9-m9", "deal", False, "buried", "5♦", "9♥", "r3", False),
    ("foundation-wrap-d89-m17", "10S>t1", False, "last-empty", None, None, "", False),
    ("tableau-wrap-d10-m43", "AD>f", True, "no-landing", "K♣", "3♥", "t5", False),
    ("tableau-wrap-d14-m36", "4H>t1", False, "buried", "5♠", "4♥", "t1", False),
    ("tableau-wrap-d5-m32", "AS>f", False, "last-host", "A♠", "K♦", "", False),
]


@pytest.mark.parametrize(("name", "move", "dead", "kind", "card", "other", "pile", "next_"), CASES)
def test_what_a_losing_move_changes_for_good(name: str, move: str, dead: bool, kind: str | None,
                                             card: str | None, other: str | None, pile: str,
                                             next_: bool) -> None:
    sc = load_scenario(HERE / f"{name}.yaml")
    got = resolve(sc.position, parse_move_text(move))
    assert (reason(sc.position, got) is not None) is dead
    seen = observe(sc.position, got)
    if kind is None:
        assert seen is None
        return
    assert seen is not None and seen.kind == kind and seen.pile == pile and seen.next is next_
    if card is not None:
        assert seen.card is not None and card_symbol(seen.card) == card
        second = seen.cover if kind == "buried" else seen.under
        assert second is not None and card_symbol(second) == other


@pytest.mark.parametrize(("name", "lang", "words"), [
    ("foundation-wrap-d43-m36", "en", "it lays K♣ on A♦ in t7, and A♦ is the next card its foundation needs"),
    ("foundation-wrap-d43-m36", "ru", "он кладёт К♣ на Т♦ в t7, а Т♦ — следующая карта, которую ждёт её дом"),
    ("stock-deal-d9-m9", "es", "después 5♦ queda debajo de 9♥ en r3"),
    ("foundation-wrap-d89-m17", "en", "it fills the last empty column"),
    ("tableau-wrap-d5-m32", "en", "it sends A♠ home, the last card K♦ could still be laid on"),
    ("tableau-wrap-d5-m32", "ru", "в дом Т♠ — последнюю карту, на которую ещё можно было положить К♦"),
])
def test_the_key_names_it_in_the_sheets_language(name: str, lang: str, words: str) -> None:
    (item,) = load_items([str(HERE / f"{name}.yaml")], lang)
    assert item.explanation is not None and words in item.explanation


def test_a_deal_onto_the_card_its_foundation_needs_is_named_with_every_continuation_walked() -> None:
    # No pair shows after the deal (a club lies on a heart), but walking every continuation finds
    # that 5♥ never gets home and that 9♣ lies on it whenever hearts are ready for it.
    from agnes_teach.engine import apply_unchecked
    from agnes_teach.moves import DEAL_MOVE
    from agnes_teach.tagger.refutation import ReasonKind, reach, why_loses

    sc = load_scenario(HERE / "deal-covers-handmade.yaml")
    after = apply_unchecked(sc.position, DEAL_MOVE)
    assert reason(sc.position, DEAL_MOVE) is None
    found = reach(after)
    assert found is not None
    blocked = [(card_symbol(c), [card_symbol(x) for x in on]) for c, on in found.blocked]
    assert blocked == [("5♥", ["9♣"]), ("8♣", ["6♥"])]  # and the clubs wait for 8♣ under 6♥
    why = why_loses(sc.position, DEAL_MOVE)
    assert why.kind is ReasonKind.DEAL_COVERS and why.pile == "r1"
    assert why.card is not None and why.cover is not None
    assert (card_symbol(why.card), card_symbol(why.cover)) == ("5♥", "9♣")
    (item,) = load_items([str(HERE / "deal-covers-handmade.yaml")], "ru")
    # The file names the deal as its trap: the key says what the deal rule allows and what the deal
    # costs; the answer deals too, later, and the key says when.
    assert item.why == ("Ход 1: сдать из колоды — Сдавать можно, но не обязательно, а сдача кладёт новую "
                        "карту на каждую стопку резерва: здесь она накроет 5♥. Этот ход проигрывает: сдача "
                        "кладёт 9♣ на 5♥ в r1, и после этого 5♥ уже не попадёт в дом, как ни играй. "
                        "В решении этот ход тоже есть, но только на ходу 4.",)


@pytest.mark.parametrize(("foundations", "rest", "homes", "pair"), [
    # spades or hearts can be completed, never both: the Queens are the first pair never home together
    ({"S": "JS", "H": "JH"}, "QS KS QH KH", {(11, 11, 13, 13), (13, 11, 13, 13), (11, 13, 13, 13)},
     ("Q♠", "Q♥")),
    # once Q♠ is home, hearts stop at Q♥ (and once K♥ is, spades stop at J♠): Q♠ and K♥ never together
    ({"S": "10S", "H": "QH"}, "JS QS KS KH", {(10, 12, 13, 13), (13, 12, 13, 13), (11, 13, 13, 13)},
     ("Q♠", "K♥")),
    ({"C": "QC"}, "KC", {(13, 13, 13, 12), (13, 13, 13, 13)}, None),  # all home at once: no pair
])
def test_two_cards_never_home_together(foundations: dict[str, str], rest: str, homes: set[tuple[int, ...]],
                                       pair: tuple[str, str] | None) -> None:
    from agnes_teach.position import parse_position
    from agnes_teach.tagger.refutation import never_together

    full = {"S": "KS", "H": "KH", "D": "KD", "C": "KC"} | foundations
    pos = parse_position({"profile": "bernauer", "base": "A", "foundations": full,
                          "tableau": [rest, [], [], [], [], [], []], "reserve": [[]] * 7, "stock": []})
    got = never_together(pos, frozenset(homes))
    assert (tuple(card_symbol(c) for c in got) if got is not None else None) == pair


@pytest.mark.parametrize(("lang", "joined"), [("en", "4♦ and K♦"), ("ru", "4♦ и К♦"), ("es", "4♦ y K♦")])
def test_a_rule_fact_of_several_cards_lists_them_in_the_language(lang: str, joined: str) -> None:
    from agnes_teach.cards import parse_card
    from agnes_teach.registry import RuleId
    from agnes_teach.tagger.wording import rule_text
    from agnes_teach.themes import RuleFacts

    facts = RuleFacts(RuleId.STOCK_DEAL, cards=(("top", parse_card("4D")), ("top", parse_card("KD"))))
    assert joined in rule_text(facts, lang)


@pytest.mark.parametrize(("lang", "loses"), [("en", "loses"), ("ru", "проигрывает"), ("es", "pierde")])
@pytest.mark.parametrize("observation", [None, "buried"])
def test_a_rule_then_a_loss_only_the_solver_shows_says_loses_once(lang: str, loses: str,
                                                                 observation: str | None) -> None:
    """The rule's side, then a cost beside the solver's proof: "this move loses (the solver proves
    it): after it ...", not "this move loses: it loses ..." (a Russian sheet showed it)."""
    from agnes_teach.cards import parse_card
    from agnes_teach.registry import RuleId
    from agnes_teach.tagger.reasons import Observation, Reason, ReasonKind
    from agnes_teach.tagger.wording import explanation_text
    from agnes_teach.themes import RuleFacts

    facts = RuleFacts(RuleId.STOCK_DEAL, cards=(("top", parse_card("4D")),))
    seen = Observation("buried", card=parse_card("3D"), cover=parse_card("9C"), pile="t2") \
        if observation else None
    reason = Reason(ReasonKind.OBSERVED, observation=seen) if seen else Reason(ReasonKind.UNEXPLAINED)
    text = explanation_text(facts, reason, lang)
    assert text.lower().count(loses) == 1, text
    assert "{" not in text and (seen is None or "t2" in text), text
