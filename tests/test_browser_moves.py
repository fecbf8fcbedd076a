"""The practice page's move-text parser (templates/practice.js) against the engine's (moves.parse_move_text).

The page parses what a learner types by itself, offline; the engine's parser
states move text once (the schema's patterns are built from it).  Each text
of the table is typed into a practice puzzle in headless Chromium: the page
either answers that the text is not a move, or takes it as one (plays it,
refuses it by a rule, calls it ambiguous); the engine must agree.  Two
differences are known and kept here exactly, so that any other drift fails.

Fails, never skips, when Chromium is missing (the fixtures of
test_browser_practice.py say so).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_browser_practice import browser, site  # noqa: F401  (fixtures: a built guide, a Chromium)

from agnes_teach.moves import MoveSyntaxError, parse_move_text

MOVE_TEXTS = [
    # valid
    "6H>f", "6h>F", "6H > f", "  6H>f  ", "6H->f", "6H -> f", "6H→f", "6H → f", "10H>f", "TH>f", "th>f",
    "10♥>f", "A♠>t1", "4C>t1", "4c>T5", "KH>r1", "QS>x1", "deal", "DEAL", "Deal", " deal ", "t2>f", "T2>F",
    "t2 > t1", "r1>f", "R2>t1", "t3>t1", "t1>f", "x1>f", "6H>t8",
    # valid as typed: the Russian rank letters (Т is the ace), the Cyrillic look-alikes of A and K
    "К♦>f", "к♦>f", "Т♥>f", "т♥>f", "А♠>t1", "а♠>t1", "В♣>t1", "Д♠>x1", "Кs>f", "Д♥ > f", "Т♥→f",
    # invalid
    "nonsense", "6H", "6H>", ">f", "6H>>f", "6H>f>t1", "6H>t0", "6H>y1", "6H>ff", "f>t1", "F>t1", "1H>f",
    "11H>f", "6X>f", "6>f", "H6>f", "6H-f", "6H=>f", "6H>t100", "deal now", "dealt", "de al", "t0>f",
    "y1>f", "6H 4C>f", "Ж♦>f", "КК>f", "Б♥>f", "10Т>f", "Кх>f",
]
# Text the two parsers read differently (the page's parser is not this branch's to change):
# the page deletes spaces inside a card, the engine keeps them (and refuses the card);
# the engine drops the variation selector pasted text may put after a suit symbol, the page does not.
KNOWN_DIFFERENCES = {"6 H>f": (True, False), "6♥\ufe0f>f": (False, True)}  # text -> (page, engine)


def engine_takes(text: str) -> bool:
    try:
        parse_move_text(text, typed=True)  # what a learner types, as the page reads it
    except MoveSyntaxError:
        return False
    return True


def page_takes(page, text: str) -> bool:  # type: ignore[no-untyped-def]
    """Type `text` into the section-08 puzzle: True unless the page answers that it is not a move."""
    puzzle = page.locator('[data-puzzle="handmade-section-08"]')
    box = puzzle.locator("[data-move]")
    box.fill(text)
    box.press("Enter")
    said = puzzle.locator("[data-feedback]").inner_text()
    puzzle.locator("[data-restart]").click()  # back to the start whatever the text did
    return "is not a move" not in said


@pytest.fixture(scope="module")
def page(site: Path, browser):  # type: ignore[no-untyped-def]  # noqa: F811
    opened = browser.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda e: errors.append(str(e)))
    opened.goto((site / "practice-en.html").as_uri())
    opened.wait_for_selector('html[data-practice="ready"]')  # every puzzle's graph inflated
    opened.errors = errors
    yield opened
    opened.close()


def test_the_page_reads_move_text_as_the_engine_does(page) -> None:  # type: ignore[no-untyped-def]
    differ = {text: (page_takes(page, text), engine_takes(text)) for text in MOVE_TEXTS}
    differ = {text: got for text, got in differ.items() if got[0] != got[1]}
    assert not differ, differ
    assert page.errors == []


def test_the_known_differences_stay_as_recorded(page) -> None:  # type: ignore[no-untyped-def]
    got = {text: (page_takes(page, text), engine_takes(text)) for text in KNOWN_DIFFERENCES}
    assert got == KNOWN_DIFFERENCES
    assert page.errors == []


def test_the_table_holds_both_kinds() -> None:
    taken = [engine_takes(text) for text in MOVE_TEXTS]
    assert any(taken) and not all(taken)
