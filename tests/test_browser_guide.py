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
                boxes = page.eval_on_selector_all(
                    ".diagram-box", "els => els.map(e => [e.scrollWidth, e.clientWidth])")
                assert boxes and all(scroll > client for scroll, client in boxes)
                page.click("#faq-empty-column summary")
                assert page.eval_on_selector("#faq-empty-column", "e => e.open")
            assert all(url.startswith("file://") for url in requests), requests
        finally:
            browser.close()
