"""Count messages agree with their number in Russian and Spanish.

Every message with a plural form is rendered for n in (1, 2, 5, 11, 21, 22, 25).
Russian picks its form by the number's ending (1 and 21 «карта», 2 and 22
«карты», 5, 11 and 25 «карт»), but its pronoun and "in any order" follow the
count of cards itself: 21 cards are «их», not «её». A sentence for exactly one
card lives under ``<context>@one`` (i18n.ntext).
"""

from __future__ import annotations

import re

import pytest

from agnes_teach import i18n

COUNTS = (1, 2, 5, 11, 21, 22, 25)
NOUN_FORM = {1: "карта", 2: "карты", 5: "карт", 11: "карт", 21: "карта", 22: "карты", 25: "карт"}
# A pronoun that sends one card home; never said of several («решите её» is the puzzle, not a card).
SINGLE_PRONOUN = re.compile(r"\b(уберите|отправьте|положите|переложите) (её|ее)\b")
FIELDS = {"at": "3, 5", "moves": "6H>f", "why": "…", "most": "24", "states": "{states}", "seconds": "5"}


def plural_messages() -> list[tuple[str, str, str]]:
    """(context, singular, plural) of every count message of the English catalogue."""
    from importlib import resources

    from babel.messages.pofile import read_po

    po = resources.files("agnes_teach").joinpath("locale/en/LC_MESSAGES/agnes_teach.po")
    with po.open("rb") as fp:
        catalog = read_po(fp, locale="en")
    return [(str(m.context), str(m.id[0]), str(m.id[1])) for m in catalog if m.pluralizable]


MESSAGES = plural_messages()
CARD_MESSAGES = [m for m in MESSAGES if "{n}" in m[1] and "card" in m[1]]


def test_the_count_messages_are_found() -> None:
    assert len(CARD_MESSAGES) >= 8


@pytest.mark.parametrize(("context", "singular", "plural"), CARD_MESSAGES)
@pytest.mark.parametrize("n", COUNTS)
def test_russian_card_counts_agree(context: str, singular: str, plural: str, n: int) -> None:
    said = i18n.ntext("ru", context, singular, plural, n, **FIELDS)
    if n == 1:
        assert re.search(r"\b(1|одна) карта\b|\bкарта\b", said), said
        return
    assert f"{n} {NOUN_FORM[n]}" in said or f"{NOUN_FORM[n]}: {n}" in said, said
    assert not SINGLE_PRONOUN.search(said), said
    if "in any order" in plural:
        assert "в любом порядке" in said, said


@pytest.mark.parametrize(("context", "singular", "plural"), CARD_MESSAGES)
@pytest.mark.parametrize("n", COUNTS)
def test_spanish_card_counts_agree(context: str, singular: str, plural: str, n: int) -> None:
    said = i18n.ntext("es", context, singular, plural, n, **FIELDS)
    if n == 1:
        assert re.search(r"\b(1|una|la) carta\b", said, re.I), said
        return
    assert f"{n} cartas" in said, said
    assert not re.search(r"\bllévala\b", said), said
    if "in any order" in plural:
        assert "en cualquier orden" in said, said


@pytest.mark.parametrize(("n", "words"), [
    (1, "Затем оставшаяся карта уходит в дом сама."),
    (2, "Затем оставшиеся 2 карты уходят в дом сами, одними ходами в дом, в любом порядке."),
    (5, "Затем оставшиеся 5 карт уходят в дом сами, одними ходами в дом, в любом порядке."),
    (11, "Затем оставшиеся 11 карт уходят в дом сами, одними ходами в дом, в любом порядке."),
    (21, "Затем оставшаяся 21 карта уходит в дом сама, одними ходами в дом, в любом порядке."),
    (22, "Затем оставшиеся 22 карты уходят в дом сами, одними ходами в дом, в любом порядке."),
    (25, "Затем оставшиеся 25 карт уходят в дом сами, одними ходами в дом, в любом порядке."),
])
def test_the_issues_sentence(n: int, words: str) -> None:
    assert i18n.ntext("ru", "sheet", "Then the remaining {n} card goes home by itself.",
                      "Then the remaining {n} cards go home by themselves, by foundation moves alone, in any "
                      "order.", n) == words


def test_twenty_one_cards_are_them() -> None:
    said = i18n.ntext("ru", "practice", "Play the winning line: {n} card is still in play; bring it home.",
                      "Play the winning line: {n} cards are still in play; bring them all home.", 21)
    assert "осталась 21 карта" in said and "уберите их" in said, said


@pytest.mark.parametrize("lang", ["en", "ru", "es"])
def test_every_one_sentence_belongs_to_a_count_message(lang: str) -> None:
    plural_ids = {(context, singular) for context, singular, _ in MESSAGES}
    entries = i18n.catalog_entries(lang)
    ones = [(ctx, msgid) for ctx in entries if ctx and ctx.endswith(i18n.ONE_SUFFIX)
            for msgid in entries[ctx]]
    assert ones, "no sentence for exactly one"
    for ctx, msgid in ones:
        assert (ctx.removesuffix(i18n.ONE_SUFFIX), msgid) in plural_ids, (ctx, msgid)
