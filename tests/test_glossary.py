"""The catalogues keep to the glossary (agnes_teach/locale/GLOSSARY.md).

The glossary's "Never written" table lists, per language, words a message
must not use (a covered card is «накрыта», not «закрыта»; Spanish says «base»,
not «fundación»).  Every translation of the catalogue is scanned, and every
Spanish message with a card field is filled with a jack and a queen to check
the article follows the card («la J♠», never «el J♠»).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from agnes_teach import i18n
from agnes_teach.cards import parse_card

GLOSSARY = Path(__file__).resolve().parent.parent / "agnes_teach" / "locale" / "GLOSSARY.md"
CARD_FIELDS = ("card", "target", "covered", "cover", "opener", "other", "lead", "red", "tail", "base_card",
               "landing", "under", "next")


def forbidden() -> list[tuple[str, re.Pattern[str]]]:
    """(language, pattern) of each row of the glossary's "Never written" table."""
    text = GLOSSARY.read_text("utf-8")
    section = text.split("## Never written", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        if len(cells) == 3 and cells[0] in ("ru", "es"):
            rows.append((cells[0], re.compile(cells[1].strip("`"))))
    return rows


FORBIDDEN = forbidden()


def test_the_glossary_forbids_what_the_issue_found() -> None:
    langs = [lang for lang, _ in FORBIDDEN]
    assert langs.count("ru") >= 4 and langs.count("es") >= 5
    patterns = {p.pattern for _, p in FORBIDDEN}
    assert "доказанно" in patterns and "[Ff]undaci[oó]n" in patterns


@pytest.mark.parametrize(("lang", "pattern"), FORBIDDEN, ids=[p.pattern for _, p in FORBIDDEN])
def test_no_message_uses_a_forbidden_word(lang: str, pattern: re.Pattern[str]) -> None:
    found = [(ctx, text) for ctx, ids in i18n.catalog_entries(lang).items()
             for strings in ids.values() for text in strings if pattern.search(text)]
    assert found == []


def test_the_scan_finds_the_old_wording() -> None:
    # Guards the scan above against patterns that could never match.
    old = {"ru": ["{card} закрыта в своей стопке резерва", "выиграно 3, доказанно проиграно 1"],
           "es": ["a su fundación", "el 7♥ sigue tapado", "el J♠ no puede"]}
    for lang, texts in old.items():
        for text in texts:
            assert any(p.search(text) for lng, p in FORBIDDEN if lng == lang), text


@pytest.mark.parametrize("letter", ["J", "Q"])
def test_spanish_articles_follow_the_card(letter: str) -> None:
    card = parse_card(letter + "S")
    shown = i18n.card_text(card, "es")
    checked = 0
    for ctx, ids in i18n.catalog_entries("es").items():
        if ctx is None or ctx.endswith(i18n.ONE_SUFFIX):
            continue
        for msgid, strings in ids.items():
            if len(strings) != 1 or not any("{" + f + "}" in strings[0] for f in CARD_FIELDS):
                continue
            said = i18n.text("es", ctx, msgid, **{f: shown for f in CARD_FIELDS})
            assert not re.search(rf"\b([Ee]l|del|al|[Uu]n) {re.escape(shown)}", said), said
            checked += 1
    assert checked > 20
    assert i18n.agree("es", "el Q♣ y del J♥") == "la Q♣ y de la J♥"
