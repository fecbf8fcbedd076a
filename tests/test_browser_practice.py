"""Practice pages in headless Chromium: a learner plays puzzles by typing and by tapping.

Fails, never skips, when Chromium is missing: CI installs it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from agnes_teach.profile import get_profile
from agnes_teach.render.guide import build_guide
from agnes_teach.render.practice import PAGE_BUDGET
from agnes_teach.scenario import load_puzzles

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
PHONE = {"width": 390, "height": 844}

# A trap with a tiny game graph: dealing first buries 6♥ under 7♥ for good.
TRAP = """\
id: test-deal-too-early
title: {en: "Play the 6♥ before you deal", ru: "Сначала 6♥, потом сдача", es: "Primero el 6♥, luego reparte"}
task: trap
position:
  profile: bernauer
  base: 5
  foundations: {S: 4S, H: 5H, D: 4D, C: 4C}
  tableau: [4H 3H, [], [], [], [], [], []]
  reserve: [6H, [], [], [], [], [], []]
  stock: 7H 8H 9H 10H JH QH KH AH 2H
  exposed: []
expect: {winnable: true, trap_move: deal}
solution: 6H>f deal 7H>f 8H>f 9H>f 10H>f JH>f QH>f KH>f deal AH>f 2H>f 3H>f 4H>f
stock_shown: true
"""
SECTION_08 = ROOT / "agnes_teach" / "data" / "examples" / "section-08.yaml"
SECTION_08_WIN = ["6H>f", "7H>f", "8H>f", "9H>f", "10H>f", "JH>f", "QH>f", "KH>f", "AH>f", "2H>f", "3H>f",
                  "4H>f", "4C>f"]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("practice")
    (folder / "trap.yaml").write_text(TRAP, "utf-8")
    out = folder / "guide"
    build_guide(["en", "ru", "es"], out, get_profile("bernauer"),
                puzzles=load_puzzles([SECTION_08, folder / "trap.yaml"]))
    return out


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    assert CHROMIUM.exists(), "Debian's chromium is needed for this test (apt-get install chromium)"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as play:
        browser = play.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


def _open(browser, site: Path, lang: str, viewport: dict[str, int] = PHONE):  # type: ignore[no-untyped-def]
    page = browser.new_page(viewport=viewport)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto((site / f"practice-{lang}.html").as_uri())
    page.wait_for_selector('html[data-practice="ready"]')  # every puzzle's graph inflated
    page.errors = errors
    return page


def _type(puzzle, move: str) -> tuple[str, str | None]:  # type: ignore[no-untyped-def]
    box = puzzle.locator("[data-move]")
    box.fill(move)
    box.press("Enter")
    feedback = puzzle.locator("[data-feedback]")
    return feedback.get_attribute("data-verdict"), feedback.get_attribute("data-rule")


def test_pages_stay_within_budget(site: Path) -> None:
    for lang in ("en", "ru", "es"):
        page = site / f"practice-{lang}.html"
        assert page.stat().st_size <= PAGE_BUDGET
        html = page.read_text("utf-8")
        assert 'data-puzzle="handmade-section-08"' in html and 'data-puzzle="test-deal-too-early"' in html
        assert "://" not in html.replace("http://www.w3.org/2000/svg", "")
    assert 'href="practice-en.html"' in (site / "en.html").read_text("utf-8")
    assert 'href="practice-ru.html"' in (site / "index.html").read_text("utf-8")


def test_a_shown_stock_is_drawn_face_up(site: Path, browser) -> None:  # type: ignore[no-untyped-def]
    page = _open(browser, site, "ru")
    shown = page.locator('[data-puzzle="test-deal-too-early"] .stock-shown span.card')
    assert shown.count() == 9
    assert shown.first.inner_text().strip() == "7♥" and shown.last.inner_text().strip() == "2♥"
    assert "колода открыта" in page.locator('[data-puzzle="test-deal-too-early"] .stock-note').inner_text()
    assert page.locator('[data-puzzle="handmade-section-08"] .stock-shown').count() == 0
    assert not page.errors


def test_play_to_the_win_by_typing(site: Path, browser) -> None:  # type: ignore[no-untyped-def]
    page = _open(browser, site, "en")
    puzzle = page.locator('[data-puzzle="handmade-section-08"]')
    feedback = puzzle.locator("[data-feedback]")
    assert feedback.get_attribute("role") == "status"
    # A covered reserve card: refused by its rule, with a link to the rule's section.
    assert _type(puzzle, "7H>f") == ("refused", "reserve.top")
    link = feedback.locator("a").get_attribute("href")
    assert link == "en.html#reserve.top" and 'id="reserve.top"' in (site / "en.html").read_text("utf-8")
    assert "covered" in feedback.inner_text()
    assert _type(puzzle, "9H>t1") == ("refused", "tableau.empty")
    assert _type(puzzle, "nonsense") == ("", None)
    for move in SECTION_08_WIN:
        assert _type(puzzle, move) == ("won", None), move
    assert "solved" in feedback.inner_text()
    assert "52 of 52" in puzzle.locator("[data-progress]").inner_text()
    # Undo takes the last move back, and typing goes on from there.
    puzzle.locator("[data-undo]").click()
    assert "51 of 52" in puzzle.locator("[data-progress]").inner_text()
    assert _type(puzzle, "t2>f") == ("won", None)  # 4C, named by its column
    assert page.errors == []


def test_a_losing_move_and_a_win_by_tapping_on_a_phone(site: Path, browser) -> None:  # type: ignore[no-untyped-def]
    page = _open(browser, site, "ru")
    puzzle = page.locator('[data-puzzle="test-deal-too-early"]')
    feedback = puzzle.locator("[data-feedback]")
    board = puzzle.locator("[data-board]")

    def tap_card(code: str) -> None:
        board.locator(f'[data-card="{code}"]').click(position={"x": 22, "y": 10})  # the visible corner

    def tap_foundation() -> None:
        board.locator(".foundation").first.click()

    # The trap: dealing first is legal but loses; the page says so and shows a line to the dead end.
    board.locator("[data-deal]").click()
    assert feedback.get_attribute("data-verdict") == "lost"
    puzzle.locator("[data-why]").click()
    assert "Например" in feedback.inner_text()
    puzzle.locator("[data-undo]").click()
    # 6♥ (card 18) onto a reserve pile: refused in Russian, linked to the rule.
    tap_card("18")
    board.locator('[aria-label^="стопка резерва 2"] button').click()
    assert feedback.get_attribute("data-verdict") == "refused"
    assert feedback.get_attribute("data-rule") == "reserve.no-build"
    assert "На стопку резерва" in feedback.inner_text()
    assert feedback.locator("a").get_attribute("href") == "ru.html#reserve.no-build"
    # 4♥ under 3♥ is not free: tapping it answers with its rule at once.
    tap_card("16")
    assert feedback.get_attribute("data-rule") == "tableau.run"
    # Now the win, tap by tap: 6♥ home, deal, hearts 7..K home, deal, A♥ 2♥ 3♥ 4♥ home.
    hearts = {rank: 13 + rank - 1 for rank in range(1, 14)}
    tap_card(str(hearts[6]))
    tap_foundation()
    assert feedback.get_attribute("data-verdict") == "won"
    board.locator("[data-deal]").click()
    for rank in (7, 8, 9, 10, 11, 12, 13):
        tap_card(str(hearts[rank]))
        tap_foundation()
        assert feedback.get_attribute("data-verdict") == "won", rank
    board.locator("[data-deal]").click()
    for rank in (1, 2, 3, 4):
        tap_card(str(hearts[rank]))
        tap_foundation()
        assert feedback.get_attribute("data-verdict") == "won", rank
    assert "52" in puzzle.locator("[data-progress]").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.errors == []


def _in_viewport(locator) -> bool:  # type: ignore[no-untyped-def]
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"] + 1  # subpixels


def test_the_answer_to_a_tap_is_announced_and_on_screen_on_a_phone(site: Path, browser) -> None:  # type: ignore[no-untyped-def]
    page = _open(browser, site, "ru")
    puzzle = page.locator('[data-puzzle="test-deal-too-early"]')
    feedback = puzzle.locator("[data-feedback]")
    assert feedback.get_attribute("aria-live") == "polite"
    board = puzzle.locator("[data-board]")
    # The board's foot at the foot of the screen, as after scrolling down to it: the answer is below the fold.
    board.evaluate("b => b.scrollIntoView({block: 'end'})")
    assert not _in_viewport(feedback)
    for dest, verdict in (('[aria-label^="стопка резерва 2"] button', "refused"), (".foundation", "won")):
        board.locator('[data-card="18"]').click(position={"x": 22, "y": 10})  # 6♥
        board.locator(dest).first.click()
        assert feedback.get_attribute("data-verdict") == verdict
        assert _in_viewport(feedback), verdict
        # The answer is in the live region itself (a refusal with its rule's link), so it is read out.
        live = puzzle.locator('[aria-live="polite"]')
        assert live.count() == 1 and live.inner_text() == feedback.inner_text() != ""
        assert (live.locator("a").count() == 1) == (verdict == "refused")
    assert page.errors == []


def test_the_board_labels_its_base_stock_and_foundations(site: Path, browser) -> None:  # type: ignore[no-untyped-def]
    page = _open(browser, site, "ru")
    board = page.locator('[data-puzzle="handmade-section-08"] [data-board]')
    text = board.inner_text()
    assert "Дома, база 5" in text and "колода" in text and "5/13" not in text and "1/13" in text
    assert board.locator("[data-deal]").get_attribute("aria-label").startswith("в колоде 0 карт. ")
    trap = page.locator('[data-puzzle="test-deal-too-early"] [data-board]')
    assert "открыта ниже" in trap.inner_text()
    assert trap.locator("[data-deal]").get_attribute("aria-label").startswith("в колоде 9 карт, открыта ниже")
    assert "Write down" not in page.content() and "Запишите" not in page.content()
    assert not page.errors


def test_a_card_stays_in_the_pile_the_learner_put_it_in(site: Path, browser) -> None:  # type: ignore[no-untyped-def]
    """The page stores one state per class of piles reordered; the board still shows the learner's own."""
    page = _open(browser, site, "en")
    puzzle = page.locator('[data-puzzle="handmade-section-08"]')
    board = puzzle.locator("[data-board]")
    feedback = puzzle.locator("[data-feedback]")

    def holds(dest: int, card: int) -> bool:
        return board.locator(f'.pile[data-dest="{dest}"] [data-card="{card}"]').count() == 1

    assert holds(2, 42)  # 4♣ in t2
    for move, column in (("4C>t6", 6), ("4C>t1", 1), ("t1>t7", 7)):
        assert _type(puzzle, move) == ("won", None), move
        assert holds(column, 42) and board.locator(".kind-t [data-card]").count() == 10, move
    # Refusals name the learner's piles and cards, whichever copy of the state the page stored.
    assert _type(puzzle, "9H>t2") == ("refused", "tableau.empty")
    assert "9♥" in feedback.inner_text()
    assert _type(puzzle, "8H>r5") == ("refused", "reserve.no-build")
    assert "(r5)" in feedback.inner_text()
    assert _type(puzzle, "t3>t7") == ("refused", "tableau.build")
    assert "9♥ cannot go on 4♣" in feedback.inner_text()
    puzzle.locator("[data-why]").click()
    assert "4♣>f" in feedback.inner_text()  # the line ends with the 4♣ from where it lies
    for move in SECTION_08_WIN[:-1] + ["t7>f"]:
        assert _type(puzzle, move) == ("won", None), move
    assert "52 of 52" in puzzle.locator("[data-progress]").inner_text()
    assert page.errors == []


@pytest.fixture(scope="module")
def auto_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A page whose puzzle is played with safe cards going home by themselves: the bound on states
    lowered under its full game's."""
    from agnes_teach import practice

    out = tmp_path_factory.mktemp("auto") / "guide"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(practice, "FULL_STATES", 20)
        practice.clear_analyses()
        try:
            build_guide(["en"], out, get_profile("bernauer"), puzzles=load_puzzles([SECTION_08]))
        finally:
            practice.clear_analyses()
    return out


def test_safe_cards_going_home_by_themselves_are_said(auto_site: Path, browser) -> None:  # type: ignore[no-untyped-def]
    page = _open(browser, auto_site, "en")
    puzzle = page.locator('[data-puzzle="handmade-section-08"]')
    assert "go there by themselves" in puzzle.locator(".auto-home").inner_text()
    assert _type(puzzle, "6H>f") == ("won", None)
    said = puzzle.locator("[data-feedback]").inner_text()
    assert "Gone home by themselves: 7♥, 8♥, 9♥" in said
    puzzle.locator("[data-undo]").click()
    puzzle.locator("[data-why]").click()
    assert "6♥>f, 7♥>f" in puzzle.locator("[data-feedback]").inner_text()
    assert page.errors == []


LIBRARY_PAIR = [ROOT / "puzzles" / "small" / "tableau.empty" / "tableau-empty-d26-m8-c11.yaml",
                ROOT / "puzzles" / "small" / "stock.last-two" / "stock-last-two-l91136-26-c11.yaml"]


@pytest.fixture(scope="module")
def library_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("library") / "guide"
    build_guide(["en"], out, get_profile("bernauer"), puzzles=load_puzzles(LIBRARY_PAIR))
    return out


def test_why_after_a_losing_move_gives_the_keys_reason(library_site: Path, browser) -> None:  # type: ignore[no-untyped-def]
    """K♠ home takes the last card Q♥ could lie on, and Q♥ covers 6♥: the page says so in the
    worksheet key's own sentence, the empty column's rule first (A♥ may go into t3), then the cost
    (6♥ in t6), both piles named on the learner's board; never "round in circles"."""
    from agnes_teach.practice import key_of
    from agnes_teach.scenario import load_scenario

    scenario = load_scenario(LIBRARY_PAIR[0])
    entry = next(e for e in key_of(scenario).refuted if "KS>f" in [str(m) for m in e.moves])
    expected = entry.explanation.text("en")
    assert "t3" in expected and "t6" in expected and "This move loses" in expected
    page = _open(browser, library_site, "en")
    assert page.locator("nav.contents a").count() == 6  # three rules (the worked example is beside them)
    for rule in ("tableau.empty", "stock.last-two"):
        assert page.locator(f'section.rule[id="rule-{rule}"] h2').count() == 1
    puzzle = page.locator(f'[data-puzzle="{scenario.id}"]')
    assert _type(puzzle, "KS>f") == ("lost", None)
    puzzle.locator("[data-why]").click()
    said = puzzle.locator("[data-feedback]").inner_text()
    assert said.startswith("Why K♠>f loses: " + expected), said
    assert "circles" not in said and "{" not in said
    assert page.errors == []
