"""Cards in words use each language's rank letters; move notation keeps the Latin ones.

One table per language (``i18n.card_letters``, from the catalogue's
``msgctxt "rank-letter"`` entries) names the ranks in every text a person
reads: diagrams, answer keys, explanations, hints, refusals, the guide and the
practice page.  This file renders every Russian and Spanish text the project
prints and fails on a Latin rank letter the language does not use.

What counts as notation (and is left out of the scan):

* a whole move in notation, ``KS>t1``, ``K♠>t1``, ``K♠ -> t1`` (a card, an
  arrow, a pile), as the key's move line and ``check`` print it;
* text inside ``<code>``, ``<script>``, ``<style>`` and HTML attributes
  (``data-card="K♠"``: what the page's script reads, not what it shows);
* the practice page's embedded data, which holds the notation the page
  prints (``symbols``, ``names``); what it shows (``shown``) and reads aloud
  (``words``) is scanned as text.

A Latin rank letter is then A, J, Q, K or T right before a suit symbol, and in
Russian also one standing alone between non-letters (``base A``), which
Spanish words may do (``A la vez``), so Spanish is scanned for the first form.
"""

from __future__ import annotations

import html
import json
import re
from functools import cache
from pathlib import Path

import pytest
from _engine_util import build
from test_rules_table import CASES
from typer.testing import CliRunner

from agnes_teach import i18n
from agnes_teach.cards import RANK_NAMES, SUIT_SYMBOLS, SUITS, TYPED_RANKS, make_card, parse_card
from agnes_teach.cli import app
from agnes_teach.engine import judge
from agnes_teach.moves import parse_move_text
from agnes_teach.profile import get_profile
from agnes_teach.render.guide import page_html
from agnes_teach.render.practice import card_labels, practice_html
from agnes_teach.render.sheet import load_items, sheet_html
from agnes_teach.scenario import load_scenario

REPO = Path(__file__).resolve().parent.parent
LIBRARY = REPO / "tests" / "fixtures" / "whole-game"  # the earlier whole-game puzzles, every theme
HINT_FILES = sorted((REPO / "tests" / "hint_positions").glob("*.yaml"))
LANGS = ("ru", "es")
LATIN_RANKS = "AJQKT"

_NOTATION_MOVE = re.compile(r"(?:10|[2-9AJQKTajqkt])[SHDCshdc♠♥♦♣]\ufe0f?"  # a card,
                            r"\s*(?:->|→|>)\s*(?:[Ff]|[TtRrXx]\d+)\b")  # an arrow and a pile
_HIDDEN = re.compile(r"<(code|script|style)\b[^>]*>.*?</\1>", re.S)
_TAG = re.compile(r"<[^>]+>")


def latin_rank_letters(text: str, lang: str) -> list[str]:
    """Latin rank letters `lang` does not use, outside notation, each with a little context."""
    text = _TAG.sub(" ", _HIDDEN.sub(" ", text))
    text = _NOTATION_MOVE.sub(" ", html.unescape(text))
    foreign = "".join(r for r in LATIN_RANKS if r not in i18n.card_letters(lang).values())
    patterns = [rf"(?<![A-Za-z])[{foreign}][{SUIT_SYMBOLS}]"]
    if lang == "ru":
        patterns.append(rf"(?<![A-Za-z0-9_.@/-])[{foreign}](?![A-Za-z0-9_.@/-])")
    found = []
    for pattern in patterns:
        for hit in re.finditer(pattern, text):
            found.append(text[max(0, hit.start() - 30):hit.end() + 30].replace("\n", " "))
    return found


def test_the_scanner_finds_what_it_should() -> None:
    assert latin_rank_letters("1. A♠ → в столбец 1", "ru")
    assert latin_rank_letters("база A, столбец", "ru")
    assert latin_rank_letters("T♥ → dom", "es")
    assert not latin_rank_letters("<code>KS>t1 A♠>f</code> Т♠ → в дом; K♠>t1: К♠ не подходит", "ru")
    assert not latin_rank_letters('<g data-card="K♠">К♠</g>', "ru")
    assert not latin_rank_letters("A♠ → a su base; el rey K♠", "es")


# ------------------------------------------------------------------ the one table, and typed input


@pytest.mark.parametrize("lang", i18n.languages())
def test_every_language_shows_a_letter_for_each_rank(lang: str) -> None:
    letters = i18n.card_letters(lang)
    assert list(letters) == list(RANK_NAMES)
    assert len(set(letters.values())) == 13, letters
    for card in (make_card(1, 0), make_card(12, 1), make_card(10, 3)):
        assert i18n.card_text(card, lang) == letters[RANK_NAMES[card % 13]] + SUIT_SYMBOLS[card // 13]


@pytest.mark.parametrize("lang", i18n.languages())
def test_a_person_may_type_every_letter_the_cards_show(lang: str) -> None:
    """The letters the diagrams show are letters the move parser takes, each for its own rank."""
    for rank, letter in i18n.card_letters(lang).items():
        for suit, symbol in zip(SUITS, SUIT_SYMBOLS, strict=True):
            want = parse_card(rank + suit)
            for typed in (letter + symbol, letter.lower() + suit.lower()):
                assert parse_move_text(f"{typed}>f", typed=True).card == want, typed


@pytest.mark.parametrize(("typed", "card"), [
    ("К♦>f", "KD"), ("к♦>f", "KD"), ("Т♥>f", "AH"), ("т♥>f", "AH"), ("А♠>t1", "AS"), ("а♠>t1", "AS"),
    ("В♣>t2", "JC"), ("Д♥>r1", "QH"), ("Кs>f", "KS"), ("T♥>f", "10H"), ("K♦>f", "KD"),
])
def test_typed_moves_take_the_russian_letters(typed: str, card: str) -> None:
    assert parse_move_text(typed, typed=True).card == parse_card(card)


def test_files_keep_latin_notation() -> None:
    """A file's moves match the schema's Latin patterns; only typed input takes other letters."""
    from agnes_teach.moves import MoveSyntaxError

    with pytest.raises(MoveSyntaxError, match="rank must be"):
        parse_move_text("К♦>f")
    assert set(TYPED_RANKS) == {"А", "Т", "В", "Д", "К"}


def test_the_not_a_move_message_names_the_letters_it_takes() -> None:
    from agnes_teach.moves import MoveSyntaxError

    with pytest.raises(MoveSyntaxError) as got:
        parse_move_text("Ж♦>f", typed=True)
    assert "Т В Д К" in str(got.value)


def test_check_solution_takes_russian_letters() -> None:
    """``check --solution`` reads what a person typed: Russian letters are the Latin ones."""
    runner = CliRunner()
    path = REPO / "tests" / "hint_positions" / "tableau-wrap-s104-001.yaml"
    latin = runner.invoke(app, ["check", str(path), "--solution", "KD>t6 QD>f", "--lang", "ru"])
    typed = runner.invoke(app, ["check", str(path), "--solution", "к♦>t6 Д♦>f", "--lang", "ru"])
    assert "not a move" not in typed.output, typed.output
    assert (typed.exit_code, typed.output) == (latin.exit_code, latin.output)
    wrong = runner.invoke(app, ["check", str(path), "--solution", "Ж♦>t6", "--lang", "ru"])
    assert wrong.exit_code == 2 and "Т В Д К" in wrong.output


# ------------------------------------------------------------------ every rendered ru/es text


@cache
def _library_items(lang: str) -> tuple[object, ...]:
    return tuple(load_items([str(LIBRARY)], lang))


@pytest.mark.parametrize("lang", LANGS)
def test_worksheet_and_key_show_the_languages_letters(lang: str) -> None:
    items = list(_library_items(lang))
    assert items
    for document in (sheet_html(items, lang), sheet_html(items, lang, key_only=True)):  # type: ignore[arg-type]
        assert latin_rank_letters(document, lang) == []


@pytest.mark.parametrize("lang", LANGS)
def test_guide_shows_the_languages_letters(lang: str) -> None:
    page = page_html(get_profile("bernauer"), lang, ["en", "ru", "es"])
    assert latin_rank_letters(page, lang) == []


@pytest.mark.parametrize("lang", LANGS)
def test_practice_page_shows_the_languages_letters(lang: str) -> None:
    scenarios = [load_scenario(p) for p in sorted((REPO / "puzzles" / "demo").glob("*.yaml"))[:2]]
    page = practice_html(scenarios, lang, [], f"{lang}.html")
    assert latin_rank_letters(page, lang) == []
    labels = card_labels(lang)
    shown = " ".join(str(s) for s in labels["shown"])  # type: ignore[attr-defined]
    words = " ".join(str(s) for s in labels["words"])  # type: ignore[attr-defined]
    assert latin_rank_letters(shown + " " + words, lang) == []
    data = re.search(r'<script[^>]*id="practice-data"[^>]*>(.*?)</script>', page, re.S)
    assert data is not None
    for message in json.loads(data.group(1))["messages"]:
        assert latin_rank_letters(str(message), lang) == [], message


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("path", HINT_FILES, ids=lambda p: p.stem)
def test_hint_names_cards_in_the_languages_letters(lang: str, path: Path) -> None:
    got = CliRunner().invoke(app, ["hint", str(path), "--lang", lang])
    assert got.exit_code == 0, got.output
    # Each line starts with the move in notation; the words after it are scanned.
    assert latin_rank_letters(got.output, lang) == [], got.output


@pytest.mark.parametrize("lang", LANGS)
def test_refusals_name_cards_in_the_languages_letters(lang: str) -> None:
    seen = 0
    for case in CASES:
        for profile, expected in case.runs():
            if expected is None:
                continue
            why = judge(build(profile, **case.layout), parse_move_text(case.move))
            assert why is not None
            message = i18n.refusal_message(why, lang)
            assert latin_rank_letters(message, lang) == [], (case.move, message)
            seen += 1
    assert seen > 20


def test_russian_key_line_in_words() -> None:
    """The issue's line: «1. A♠ → в столбец 1» is «Т♠ → в столбец 1» now."""
    for item in _library_items("ru"):
        for words in item.answer_words:  # type: ignore[attr-defined]
            assert latin_rank_letters(words, "ru") == [], words


@pytest.mark.parametrize(("n", "form"), [
    (1, "оставшаяся карта уходит в дом сама."), (21, "оставшаяся 21 карта уходит"),
    (31, "оставшаяся 31 карта уходит"),
    (3, "оставшиеся 3 карты уходят"), (24, "оставшиеся 24 карты уходят"), (5, "оставшиеся 5 карт уходят"),
    (11, "оставшиеся 11 карт уходят"), (12, "оставшиеся 12 карт уходят"),
])
def test_the_last_cards_agree_with_their_number(n: int, form: str) -> None:
    text = i18n.ntext("ru", "sheet", "Then the remaining {n} card goes home by itself.",
                      "Then the remaining {n} cards go home by themselves, by foundation moves alone, in any "
                      "order.", n)
    assert form in text, text
