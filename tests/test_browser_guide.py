"""The guide in a real browser (headless Chromium) at phone width: the page never scrolls sideways.

This test fails, never skips, when Chromium is missing: CI installs it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from agnes_teach.profile import get_profile
from agnes_teach.render.guide import build_guide

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
PHONE = {"width": 390, "height": 844}


@pytest.mark.parametrize("profile_id", ["bernauer", "agnes-ru"])
def test_guide_fits_a_phone(tmp_path: Path, profile_id: str) -> None:
    assert CHROMIUM.exists(), "Debian's chromium is needed for this test (apt-get install chromium)"
    from playwright.sync_api import sync_playwright

    out = tmp_path / "guide"
    build_guide(["en", "ru", "es"], out, get_profile(profile_id))
    with sync_playwright() as play:
        browser = play.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = browser.new_page(viewport=PHONE)
            requests: list[str] = []
            page.on("request", lambda r: requests.append(r.url))
            for lang in ("en", "ru", "es"):
                page.goto((out / f"{lang}.html").as_uri())
                assert page.evaluate("document.documentElement.lang") == lang
                width = page.evaluate("document.documentElement.scrollWidth")
                assert width <= PHONE["width"], f"{lang}: the page is {width}px wide"
                # The diagrams are wider than the phone: they scroll inside their own boxes.
                # Steps hidden by the step-through controls have no size; the shown ones scroll.
                boxes = page.eval_on_selector_all(
                    ".diagram-box",
                    "els => els.filter(e => e.clientWidth).map(e => [e.scrollWidth, e.clientWidth])")
                assert boxes and all(scroll > client for scroll, client in boxes)
                # Each worked example steps forward and back.
                example = page.locator(".example").first
                example.locator("[data-step-next]").click()
                assert example.locator("figure.step:not(.step-hidden)").get_attribute("data-step") == "2"
                example.locator("[data-step-back]").click()
                assert example.locator("figure.step:not(.step-hidden)").get_attribute("data-step") == "1"
                page.click("#faq-empty-column summary")
                assert page.eval_on_selector("#faq-empty-column", "e => e.open")
            assert all(url.startswith("file://") for url in requests), requests
        finally:
            browser.close()


# --------------------------------------------------------------- accessibility and print

DESKTOP = {"width": 1280, "height": 900}


def axe_script() -> str:
    """axe-core's browser build: the copy vendored in the axe-playwright-python package.

    AGNES_AXE_JS may name another axe.min.js (e.g. one unpacked from the npm
    package axe-core) to run the same checks with that version.
    """
    import os
    from importlib import resources

    override = os.environ.get("AGNES_AXE_JS")
    if override:
        return Path(override).read_text("utf-8")
    # A missing package fails the test (pip install -e '.[test]' installs it); it never skips.
    return resources.files("axe_playwright_python").joinpath("axe.min.js").read_text("utf-8")


@pytest.fixture(scope="module")
def full_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from agnes_teach.scenario import load_puzzles

    out = tmp_path_factory.mktemp("a11y") / "guide"
    root = Path(__file__).resolve().parent.parent
    build_guide(["en", "ru", "es"], out, get_profile("bernauer"),
                puzzles=load_puzzles([root / "agnes_teach" / "data" / "examples" / "section-08.yaml"]))
    return out


def test_axe_finds_nothing_on_any_page_at_either_width(full_site: Path) -> None:
    assert CHROMIUM.exists(), "Debian's chromium is needed for this test (apt-get install chromium)"
    from playwright.sync_api import sync_playwright

    script = axe_script()
    pages = sorted(p.name for p in full_site.glob("*.html"))
    assert len(pages) == 7, pages
    found = []
    with sync_playwright() as play:
        browser = play.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            for viewport in (PHONE, DESKTOP):
                page = browser.new_page(viewport=viewport)
                for name in pages:
                    page.goto((full_site / name).as_uri())
                    if name.startswith("practice-"):
                        page.wait_for_selector('html[data-practice="ready"]')  # the boards drawn
                    page.add_script_tag(content=script)
                    version = page.evaluate("axe.version")
                    states = ["as loaded"]
                    if name.startswith("practice-"):
                        states.append("after a refused move")
                    for state in states:
                        if state == "after a refused move":
                            # A picked-up card, then a refusal with its rule link in the feedback.
                            page.locator('[data-card="42"]').click()  # 4♣, free
                            page.locator(".kind-r").nth(2).locator("button").first.click()  # onto r3
                            verdict = page.locator("[data-feedback]").first.get_attribute("data-verdict")
                            assert verdict == "refused"
                        violations = page.evaluate(
                            "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
                            ".map(v => [v.id, v.impact, v.nodes.length, v.nodes[0].target.join(' ')])")
                        found += [(viewport["width"], name, state, *v) for v in violations]
                page.close()
        finally:
            browser.close()
    assert version.startswith("4."), version
    assert found == []


def test_the_printed_guide_carries_every_faq_answer(tmp_path: Path, full_site: Path) -> None:
    assert CHROMIUM.exists(), "Debian's chromium is needed for this test (apt-get install chromium)"
    import re
    import unicodedata

    from playwright.sync_api import sync_playwright
    from pypdf import PdfReader

    from agnes_teach.render.guide import faq

    pdf = tmp_path / "guide-en.pdf"
    with sync_playwright() as play:
        browser = play.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = browser.new_page()
            page.goto((full_site / "en.html").as_uri())
            page.pdf(path=str(pdf), prefer_css_page_size=True)
        finally:
            browser.close()
    reader = PdfReader(str(pdf))
    pages = [p.extract_text() for p in reader.pages]

    def squeeze(text: str) -> str:
        # NFKC undoes the typesetter's ligatures (ﬁ); whitespace differs by line breaks only.
        return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text))

    text = squeeze("".join(pages))
    for item in faq(get_profile("bernauer"), "en"):
        assert squeeze(item.question) in text, item.id
        assert squeeze(item.answer) in text, item.id
    assert "Русский" not in text and "Español" not in text  # no language bar
    assert "Step1of" not in text  # no on-screen controls
    # Page numbers from the print stylesheet: "1 / N" at the foot of the first page.
    assert f"1/{len(pages)}" in squeeze(pages[0])
    assert len(pages) >= 4
