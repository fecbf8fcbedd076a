"""The shipped catalogues: complete, never fuzzy, every message the code uses, Russian plurals."""

from __future__ import annotations

import re
from importlib import resources

import pytest
from _i18n_util import python_messages, template_messages
from babel.messages.pofile import read_po

from agnes_teach import i18n
from agnes_teach.cards import RANK_NAMES, SUITS
from agnes_teach.registry import rules
from agnes_teach.render.guide import SECTION_ORDER, VARIANT_KEYS

SHIPPED = ("en", "ru", "es")
FIELD = re.compile(r"\{[a-z_]+\}|%\([a-z_]+\)[sd]")


def _catalog(lang: str):  # type: ignore[no-untyped-def]
    po = resources.files("agnes_teach").joinpath(f"locale/{lang}/LC_MESSAGES/agnes_teach.po")
    with po.open("rb") as fp:
        return read_po(fp, locale=lang)


def test_shipped_languages() -> None:
    assert sorted(i18n.languages()) == sorted(SHIPPED)


@pytest.mark.parametrize("lang", SHIPPED)
def test_no_untranslated_or_fuzzy_message(lang: str) -> None:
    catalog = _catalog(lang)
    assert catalog.num_plurals == (3 if lang == "ru" else 2)
    problems = []
    for message in catalog:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy:
            problems.append(f"fuzzy: {message.context} {message.id!r}")
        if len(strings) != (catalog.num_plurals if message.pluralizable else 1) or not all(strings):
            problems.append(f"untranslated: {message.context} {message.id!r}")
    assert problems == []


def _keyed_messages() -> set[tuple[str, str]]:
    """Messages looked up by key at run time (rule ids, ranks, suits, sections)."""
    keys = {(ctx, rid) for rid in rules() for ctx in ("refusal", "rule-title", "rule-text")}
    keys |= {("rule-text", key) for key in VARIANT_KEYS}
    keys |= {("rank", r) for r in RANK_NAMES} | {("suit", s) for s in SUITS}
    keys |= {("rank-letter", r) for r in RANK_NAMES}
    keys |= {("section", s) for s in SECTION_ORDER}
    return keys


def test_the_extractor_finds_messages() -> None:
    # Guards the test below against an extractor that silently finds nothing.
    found = python_messages()
    assert ("check", "nothing claimed") in found
    assert ("check", "expect.winnable is false, but the solver found a win") in found
    assert ("figure", "{n} card") in found
    assert ("sheet", "Answer key") in template_messages()


@pytest.mark.parametrize("lang", SHIPPED)
def test_every_message_in_use_is_in_the_catalogue(lang: str) -> None:
    have = {(ctx, msgid) for ctx, ids in i18n.catalog_entries(lang).items() for msgid in ids}
    used = python_messages() | template_messages() | _keyed_messages()
    missing = sorted(str(m) for m in used if m not in have)
    assert missing == []


@pytest.mark.parametrize("lang", ("ru", "es"))
def test_translations_keep_the_fields(lang: str) -> None:
    english = i18n.catalog_entries("en")
    bad = []
    for ctx, ids in i18n.catalog_entries(lang).items():
        for msgid, strings in ids.items():
            want = set(FIELD.findall(english[ctx][msgid][-1]))
            # A translation may leave a figure out (grammar), never invent one.
            for text in strings:
                if set(FIELD.findall(text)) - want:
                    bad.append((ctx, msgid, text))
    assert bad == []


@pytest.mark.parametrize("n, word", [
    (1, "карта"), (2, "карты"), (4, "карты"), (5, "карт"), (11, "карт"), (12, "карт"),
    (16, "карт"), (21, "карта"), (22, "карты"), (28, "карт"), (101, "карта"), (111, "карт"),
])
def test_russian_plural_forms(n: int, word: str) -> None:
    assert i18n.ntext("ru", "figure", "{n} card", "{n} cards", n) == f"{n} {word}"


def test_plural_forms_in_english_and_spanish() -> None:
    assert i18n.ntext("en", "figure", "{n} card", "{n} cards", 1) == "1 card"
    assert i18n.ntext("es", "figure", "{n} card", "{n} cards", 16) == "16 cartas"


def test_rule_titles_and_refusals_are_translated() -> None:
    for rid in rules():
        titles = {lang: i18n.text(lang, "rule-title", rid) for lang in SHIPPED}
        assert len(set(titles.values())) == 3, titles
    message = i18n.rule_message("ru", "tableau.empty", want="4", card="5♦")
    assert message.startswith("Пустой столбец") and "4" in message and "5♦" in message
