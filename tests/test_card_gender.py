"""A card filled into a Russian or Spanish message may be of either gender (Russian: король, туз,
валет masculine, дама and the numbered cards feminine; Spanish: el rey, el as, la reina, la jota),
so no verb, adjective or participle agrees with the card field itself: the message says «карта {card}»
(then everything agrees with «карта»), or is worded so nothing agrees, and Spanish articles follow
the card (``i18n.agree``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from agnes_teach import i18n
from agnes_teach.cards import SUITS, make_card

KING, QUEEN, ACE = (i18n.card_text(make_card(rank, SUITS.index("S")), "ru") for rank in (13, 12, 1))
ES_KING, ES_QUEEN, ES_ACE = (i18n.card_text(make_card(rank, SUITS.index("S")), "es") for rank in (13, 12, 1))
CARD_FIELDS = ("card", "landing", "cover", "top", "low", "under", "covered", "other", "opener", "lead",
               "tail", "red", "target", "guest", "on", "two", "next", "base_card")
# Feminine past verbs, short adjectives and participles that would agree with the card field itself.
FEMININE = ("была", "должна", "накрыта", "свободна", "ушедшая", "ушла", "легла", "осталась", "открыта",
            "закрыта", "нужна", "видна")
_AGREES = re.compile(r"(?<!карта )\{(" + "|".join(CARD_FIELDS) + r")\},?(?:\s+(?:на|в)\s+\S+)?"
                     r"\s+(?:(?:уже|ещё|пока|сначала|всё)\s+)?(" + "|".join(FEMININE) + r")\b")


def test_the_ranks_have_the_letters_the_test_reads() -> None:
    assert (KING, QUEEN, ACE) == ("К♠", "Д♠", "Т♠")
    assert (ES_KING, ES_QUEEN, ES_ACE) == ("K♠", "Q♠", "A♠")


def _russian_messages() -> list[str]:
    path = i18n.resources.files("agnes_teach").joinpath("locale/ru/LC_MESSAGES/agnes_teach.po")
    with path.open("rb") as fp:
        catalog = read_po(fp, locale="ru")
    return [s for m in catalog if m.id for s in ([m.string] if isinstance(m.string, str) else m.string)]


def test_no_russian_message_agrees_a_word_with_a_card_field() -> None:
    wrong = [s for s in _russian_messages() if _AGREES.search(s)]
    assert not wrong, "\n".join(wrong)


def test_the_pattern_finds_what_it_forbids() -> None:
    assert _AGREES.search("{landing} была последней картой")
    assert _AGREES.search("{card} на r1 пока свободна.")
    assert _AGREES.search("{card}, ушедшая в дом")
    assert not _AGREES.search("карта {card} уже не попадёт в дом")


LANDING = ("{landing} was the last card {cover} could ever be laid on; now {cover} can go only to its "
           "foundation, yet it lies on {card} in {pile}, which that foundation needs first.")


@pytest.mark.parametrize("card", [KING, QUEEN, ACE])
def test_the_last_landing_reads_right_for_a_king_a_queen_and_an_ace(card: str) -> None:
    said = i18n.text("ru", "sheet", LANDING, landing=card, cover="9♥", card="3♣", pile="t2")
    assert said.startswith(f"{card} — последняя карта, на которую")
    assert "была" not in said and "был " not in said
    assert "на карте 3♣ в t2, которую" in said


@pytest.mark.parametrize("card", [KING, QUEEN, ACE])
def test_russian_card_sentences_read_right_whatever_the_card(card: str) -> None:
    t = i18n.text
    free = t("ru", "example", "{card} on r1 is still free.", card=card)
    assert free == f"{card} на r1 — пока свободная карта."
    assert t("ru", "diagram", "{card}, covered", card=card) == f"{card} — накрытая карта"
    picked = t("ru", "practice", "You picked up {card}. Now choose where it goes, or pick it again to put it "
               "back.", card=card)
    assert picked.startswith(f"Вы взяли карту {card}. ")
    never = t("ru", "sheet", "{card} never gets home, whatever is played: it is never free when its "
              "foundation is ready for it.", card=card)
    assert never.startswith(f"карта {card} уже не попадёт в дом")
    for text in (picked, never):
        assert not re.search(re.escape(card) + r",?\s+(была|был|свободна|свободен|накрыта|накрыт)\b", text)


@pytest.mark.parametrize(("card", "article"), [(ES_KING, "el"), (ES_QUEEN, "la"), (ES_ACE, "el")])
def test_spanish_articles_follow_the_card(card: str, article: str) -> None:
    said = i18n.text("es", "sheet", LANDING, landing=card, cover="9♥", card="3♣", pile="t2")
    assert said.startswith(f"{article} {card} era la última carta")
    free = i18n.text("es", "example", "{card} on r1 is still free.", card=card)
    assert free == f"{article.capitalize()} {card} de r1 todavía está libre."


def test_spanish_pairs_of_cards_are_counted_as_cards() -> None:
    """Two cards named together («los dos», «uno de ellos», «juntos») would take the gender of the
    nouns rey, as, reina, jota; the messages count them as cartas instead."""
    both = i18n.text("es", "sheet", "after it {card} and {other} never both get home: once one of them is "
                     "home, the other can no longer follow.", card=ES_QUEEN, other=ES_KING)
    assert both.startswith(f"después las cartas {ES_QUEEN} y {ES_KING} no pueden llegar ambas")
    assert "uno de ellos" not in both and "el otro" not in both
    es = _spanish_messages()
    assert not [s for s in es if re.search(r"\blos dos son negros\b|\bnunca juntos\b|\buno de ellos\b", s)]


def _spanish_messages() -> list[str]:
    path = i18n.resources.files("agnes_teach").joinpath("locale/es/LC_MESSAGES/agnes_teach.po")
    with path.open("rb") as fp:
        catalog = read_po(fp, locale="es")
    return [s for m in catalog if m.id for s in ([m.string] if isinstance(m.string, str) else m.string)]


def test_the_classroom_pages_own_strings_do_not_agree_with_the_card() -> None:
    text = (Path(__file__).resolve().parent.parent / "templates" / "classroom-i18n.js").read_text("utf-8")
    assert not _AGREES.search(text)
    assert not re.search(r"\{card\}, (накрыта|cubierta)", text)
    assert "Вы взяли карту {card}." in text and "Has tomado la carta {card}." in text
