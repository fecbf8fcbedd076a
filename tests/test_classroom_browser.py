"""The classroom pages in headless Chromium against a real server (`agnes-teach classroom serve`).

A teacher creates a class and an assignment on the dashboard; a pupil joins, plays a puzzle wrong
(a move refused by its rule) and then right; the dashboard shows both tries, the refusal under its
rule and the rule among the ones the class misreads.  Another pupil plays offline, hands the line
in while the connection is down, and the attempt reaches the report once the connection is back,
exactly once.  Hostile names are shown as text on both pages, and nothing is loaded from outside
the server (the server's CSP forbids inline scripts and styles; a violation would be a console
error, which the tests count).

Fails, never skips, when Chromium is missing: CI installs it.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect, sync_playwright

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
SHOTS = Path(os.environ.get("CLASSROOM_SHOTS", "")) if os.environ.get("CLASSROOM_SHOTS") else None

# A small library puzzle (base 6, fourteen cards left): A♥ onto the empty column t1 is refused by
# tableau.empty (an empty column takes a 5 here); AH>f 2H>f 4C>t5 leaves only home moves.
PUZZLE = "foundation-wrap-l200008-35-c14"
SECOND = "tableau-empty-d10-m29-c16"  # the walk's assignment has two puzzles: "Next puzzle" leads on
WRONG = ("AH", "t1", "tableau.empty")
RIGHT = ["AH>f", "2H>f", "4C>t5"]
HOSTILE = ['<img src=x onerror=alert(1)>', '"><script>alert(2)</script>', "=cmd|' /C calc'!A0"]


@dataclass
class Server:
    url: str
    token: str
    process: subprocess.Popen[str]

    def call(self, method: str, path: str, body: object = None, token: str | None = None) -> tuple[int, Any]:
        """A request to the API; the teacher's token unless another is given."""
        data = None if body is None else json.dumps(body).encode("utf-8")
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("Authorization", f"Bearer {token or self.token}")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                raw = answer.read().decode("utf-8")
                status = answer.status
        except urllib.error.HTTPError as error:
            raw, status = error.read().decode("utf-8"), error.code
        try:
            return status, json.loads(raw)
        except ValueError:
            return status, raw

    def report(self, class_id: str) -> dict[str, Any]:
        status, report = self.call("GET", f"/api/classes/{class_id}/report")
        assert status == 200, report
        return report  # type: ignore[no-any-return]


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "agnes_teach", *args], capture_output=True, text=True,
                          timeout=60, check=False)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("classroom") / "class.db"
    made = _cli("classroom", "init", "--db", str(db), "--json")
    assert made.returncode == 0, made.stderr
    token = json.loads(made.stdout)["teacher_token"]
    log = db.with_name("serve.log").open("w")  # the server's stderr: a pipe left unread could fill up
    # Port 0: the server takes a free port and its one line says which.
    process = subprocess.Popen([sys.executable, "-m", "agnes_teach", "classroom", "serve", "--db", str(db),
                                "--port", "0"], stdout=subprocess.PIPE, stderr=log, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline().strip()
        started = re.fullmatch(r"serving (http://127\.0\.0\.1:[0-9]+)/", line)
        assert started, (line, db.with_name("serve.log").read_text())
        yield Server(started.group(1), token, process)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    assert CHROMIUM.exists(), "Debian's chromium is needed for this test (apt-get install chromium)"

    with sync_playwright() as play:
        launched = play.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield launched
        finally:
            launched.close()


class Watched:
    """A page with what went wrong on it: script errors, console errors (a CSP violation is one),
    dialogs (an injected alert() would be one) and requests that left the server."""

    def __init__(self, browser: Any, server: Server, viewport: dict[str, int]) -> None:
        self.context = browser.new_context(viewport=viewport, accept_downloads=True)
        self.context.set_default_timeout(10_000)  # a page that hangs fails in seconds, not half a minute
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.foreign: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", self._console)
        self.page.on("response", self._response)
        self.page.on("dialog", self._dialog)
        self.page.on("request", lambda r: None if r.url.startswith(server.url + "/")
                     else self.foreign.append(r.url))

    def _console(self, message: Any) -> None:
        # A failed load is reported by _response, with its address.
        if message.type == "error" and not message.text.startswith("Failed to load resource"):
            self.errors.append(message.text)

    def _response(self, response: Any) -> None:
        # The browser asks for /favicon.ico by itself; the pages name no icon.
        if response.status >= 400 and not response.url.endswith("/favicon.ico"):
            self.errors.append(f"{response.status} {response.url}")

    def _dialog(self, dialog: Any) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def clean(self) -> None:
        assert self.errors == [] and self.dialogs == [] and self.foreign == [], (self.errors, self.dialogs,
                                                                                  self.foreign)

    def fits(self) -> None:
        width = self.page.evaluate("document.documentElement.scrollWidth")
        assert width <= self.page.viewport_size["width"], f"the page is {width}px wide"

    def shot(self, name: str) -> None:
        if SHOTS is not None:
            SHOTS.mkdir(parents=True, exist_ok=True)
            self.page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)

    def close(self) -> None:
        self.context.close()


def _dashboard(watched: Watched, server: Server, class_id: str | None = None) -> Any:
    page = watched.page
    fragment = f"#token={server.token}" + (f"&class={class_id}" if class_id else "")
    page.goto(server.url + "/teacher" + fragment)
    page.wait_for_selector('html[data-classroom="ready"]')
    return page


def _join(watched: Watched, server: Server, code: str, name: str) -> Any:
    page = watched.page
    page.goto(server.url + "/")
    page.wait_for_selector('html[data-classroom="ready"]')
    page.fill("#join-code", code)
    page.fill("#join-name", name)
    page.click("[data-join-form] button[type=submit]")
    page.wait_for_selector('[data-view="home"]:not([hidden]) .puzzle-button')
    return page


def _type(page: Any, move: str) -> None:
    page.fill("[data-move]", move)
    page.press("[data-move]", "Enter")


def _feedback(page: Any, verdict: str) -> Any:
    page.wait_for_selector(f'[data-feedback][data-verdict="{verdict}"]')
    return page.locator("[data-feedback]")


def _pupil_row(report: dict[str, Any], name: str) -> dict[str, Any]:
    rows = [p for p in report["pupils"] if p["name"] == name]
    assert len(rows) == 1, report
    return rows[0]  # type: ignore[no-any-return]


def test_the_pages_are_served_with_their_scripts_and_styles_and_nothing_inline(server: Server) -> None:
    for path in ("/", "/teacher"):
        with urllib.request.urlopen(server.url + path, timeout=10) as answer:
            html = answer.read().decode("utf-8")
            policy = answer.headers.get("Content-Security-Policy", "")
        assert "default-src 'self'" in policy
        assert "<script>" not in html and "style=" not in html and "<style" not in html
        assert "://" not in html  # nothing from another origin
    for name in ("classroom.js", "classroom-teacher.js", "classroom-i18n.js", "classroom-common.js",
                 "classroom.css"):
        with urllib.request.urlopen(f"{server.url}/static/{name}", timeout=10) as answer:
            assert answer.status == 200 and answer.read()


def test_every_language_has_every_sentence(server: Server, browser: Any) -> None:
    watched = Watched(browser, server, PHONE)
    watched.page.goto(server.url + "/")
    watched.page.wait_for_selector('html[data-classroom="ready"]')
    keys = watched.page.evaluate("""() => Object.fromEntries(ClassroomText.languages.map(
        code => [code, Object.keys(ClassroomText.table[code]).sort()]))""")
    assert keys["ru"] == keys["en"] and keys["es"] == keys["en"]
    watched.shot("pupil-join-390")
    watched.fits()
    watched.clean()
    watched.close()


def test_a_pupil_plays_wrong_then_right_and_the_teacher_sees_it(server: Server, browser: Any) -> None:
    teacher = Watched(browser, server, DESKTOP)
    page = _dashboard(teacher, server)
    # The teacher creates a class on the dashboard; its join code is shown large.
    page.fill("#class-name", "Year 5 Friday")
    page.select_option("[data-class-lang]", "en")
    page.click("[data-class-form] button[type=submit]")
    page.wait_for_selector("[data-created]:not([hidden])")
    code = page.locator("[data-created-code]").inner_text().strip()
    assert code
    page.click("[data-created-open]")
    page.wait_for_selector('[data-view="class"]:not([hidden])')
    expect(page.locator("[data-class-title]")).to_have_text("Year 5 Friday")
    expect(page.locator("[data-class-code]")).to_contain_text(code)
    class_id = dict(part.split("=", 1) for part in page.url.split("#", 1)[1].split("&"))["class"]
    # An assignment of one chosen puzzle.
    page.fill("#assignment-title", "Wrap around")
    page.check("#kind-choice")
    page.wait_for_selector(f'[data-puzzle-select] option[value="{PUZZLE}"]', state="attached")
    page.select_option("[data-puzzle-select]", [PUZZLE, SECOND])
    page.click("[data-assignment-form] button[type=submit]")
    page.wait_for_selector("[data-assignment-list] table")
    assert PUZZLE in page.locator("[data-assignment-list]").inner_text()
    # And one by theme: two puzzles on the empty-column rule, as the worksheet would choose them.
    page.fill("#assignment-title", "Empty columns")
    page.check("#kind-theme")
    page.select_option("[data-theme-select]", "tableau.empty")
    page.fill("#assignment-count", "2")
    page.click("[data-assignment-form] button[type=submit]")
    expect(page.locator("[data-assignment-list] tbody tr")).to_have_count(2)
    expect(page.locator("[data-assignment-message]")).to_have_text("Assignment added. Puzzles in it: 2.")

    pupil = Watched(browser, server, PHONE)
    play = _join(pupil, server, code, "Ada")
    assert play.locator("[data-hello]").inner_text() == "Hello, Ada!"
    play.click(f'.puzzle-button[data-puzzle="{PUZZLE}"]')
    play.wait_for_selector('[data-view="play"]:not([hidden]) [data-board] .card')
    board = play.locator("[data-board]")
    pupil.shot("pupil-board-390")
    pupil.fits()
    # Wrong: A♥ onto the empty column, by tapping.  The server refuses it by its rule.
    card, dest, rule = WRONG
    board.locator(f'[data-card="{card}"]').click()
    assert "picked up" in play.locator("[data-feedback]").inner_text()
    board.locator(f'[data-dest="{dest}"] button').first.click()
    feedback = _feedback(play, "refused")
    assert feedback.get_attribute("data-rule") == rule
    assert "empty column" in feedback.inner_text() and rule in feedback.inner_text()
    pupil.shot("pupil-refused-390")
    # Right: A♥ home by tapping, the rest typed; the line is solved and sent.
    board.locator('[data-card="AH"]').click()
    board.locator(".foundation").first.click()
    _feedback(play, "played")
    assert "Cards home: 39 of 52" in play.locator("[data-progress]").inner_text()
    for move in RIGHT[1:]:
        _type(play, move)
        play.wait_for_function("m => document.querySelector('[data-feedback]').textContent.indexOf(m) === 0",
                               arg=move)
    feedback = _feedback(play, "won")
    play.wait_for_selector('[data-server-verdict="solved"]')
    assert "solved" in feedback.inner_text()
    pupil.shot("pupil-solved-390")
    pupil.fits()
    play.set_viewport_size(DESKTOP)
    pupil.shot("pupil-solved-1280")
    pupil.fits()
    play.click("[data-next]")
    expect(play.locator("[data-puzzle-title]")).to_have_text("Wrap around \u2014 Puzzle 2")
    expect(play.locator("[data-feedback]")).to_have_text("")

    # The teacher's report (refreshed by the button; it refreshes itself too).
    page.click("[data-refresh]")
    row = page.locator('[data-pupils] tr:has(th:text-is("Ada"))')
    row.wait_for()
    cells = [c.inner_text() for c in row.locator("td").all()]
    assert cells[:2] == ["2", "1"] and cells[3] == "1", cells  # two tries, one solved, one refused move
    by_rule = page.locator(f'[data-by-rule] tr[data-rule="{rule}"]:has(th:text-is("Ada"))')
    assert by_rule.locator("td").last.inner_text() == "1"
    assert rule in page.locator("[data-weakest]").inner_text()
    puzzle_row = page.locator(f'[data-puzzle-report] tr[data-puzzle="{PUZZLE}"]')
    assert "\u00b1" in puzzle_row.inner_text()
    teacher.shot("teacher-report-1280")
    teacher.fits()
    page.set_viewport_size(PHONE)
    teacher.shot("teacher-report-390")
    teacher.fits()
    report = server.report(class_id)
    ada = _pupil_row(report, "Ada")
    assert (ada["attempts"], ada["solved"], ada["by_rule"][rule]["refused"]) == (2, 1, 1)
    teacher.clean()
    pupil.clean()
    teacher.close()
    pupil.close()


def test_an_offline_line_is_sent_once_when_the_connection_returns(server: Server, browser: Any) -> None:
    status, made = server.call("POST", "/api/classes", {"name": "Offline class", "lang": "es"})
    assert status == 201, made
    status, assigned = server.call("POST", f"/api/classes/{made['id']}/assignments",
                                   {"title": "Sin red", "puzzles": [PUZZLE]})
    assert status == 201, assigned
    pupil = Watched(browser, server, PHONE)
    play = _join(pupil, server, made["code"], "Bea")
    assert play.evaluate("document.documentElement.lang") == "es"  # the class's language
    play.click(f'.puzzle-button[data-puzzle="{PUZZLE}"]')
    play.wait_for_selector('[data-view="play"]:not([hidden]) [data-board] .card')
    # A move refused by its rule, played while offline: unjudged at first, refused once the
    # connection returns, and that try sent.
    pupil.context.set_offline(True)
    card, dest, rule = WRONG
    _type(play, f"{card}>{dest}")
    _feedback(play, "unchecked")
    assert play.locator(f'[data-dest="{dest}"] [data-card="{card}"]').count() == 1
    pupil.context.set_offline(False)
    assert _feedback(play, "refused").get_attribute("data-rule") == rule
    assert play.locator(f'[data-dest="{dest}"] [data-card="{card}"]').count() == 0  # back where it was
    play.wait_for_selector("[data-pending][hidden]", state="attached")
    # Now the right line, all of it offline, handed in offline.
    pupil.context.set_offline(True)
    for move in RIGHT:
        _type(play, move)
        _feedback(play, "unchecked")
    assert play.locator("[data-offline-banner]").is_visible()
    # Played unjudged: the cards moved on the board all the same.
    assert play.locator('[data-dest="t5"] [data-card="4C"]').count() == 1
    pupil.shot("pupil-offline-390")
    play.click("[data-submit]")
    assert "Sin conexión" in play.locator("[data-feedback]").inner_text()
    assert play.locator("[data-pending]").is_visible()
    queued = play.evaluate("JSON.parse(localStorage.getItem('agnes-classroom:queue'))")
    assert len(queued) == 1 and queued[0]["moves"] == RIGHT and queued[0]["client_id"]
    assert _pupil_row(server.report(made["id"]), "Bea")["attempts"] == 1  # the refused try only
    pupil.context.set_offline(False)
    play.wait_for_selector('[data-server-verdict="solved"]')
    play.wait_for_selector("[data-pending][hidden]", state="attached")
    assert play.evaluate("JSON.parse(localStorage.getItem('agnes-classroom:queue'))") == []
    # A retry round later (the page retries on a timer too) the line is still counted once.
    time.sleep(5.5)
    bea = _pupil_row(server.report(made["id"]), "Bea")
    assert (bea["attempts"], bea["solved"], bea["by_rule"][rule]["refused"]) == (2, 1, 1)
    pupil.clean()
    pupil.close()


def test_hostile_names_are_shown_as_text(server: Server, browser: Any) -> None:
    status, made = server.call("POST", "/api/classes", {"name": HOSTILE[0], "lang": "ru"})
    assert status == 201, made
    server.call("POST", f"/api/classes/{made['id']}/assignments", {"title": HOSTILE[1], "puzzles": [PUZZLE]})
    names = []
    for name in HOSTILE:
        pupil = Watched(browser, server, PHONE)
        play = _join(pupil, server, made["code"], name)
        assert play.evaluate("document.documentElement.lang") == "ru"
        assert play.locator("[data-hello]").inner_text() == f"Здравствуйте, {name}!"
        assert play.locator("[data-class-line]").inner_text() == f"Класс: {HOSTILE[0]}"
        assert play.locator(".assignment h3").inner_text() == HOSTILE[1]
        assert play.locator("img, script:not([src])").count() == 0
        pupil.shot(f"pupil-hostile-{len(names)}-390")
        pupil.fits()
        pupil.clean()
        pupil.close()
        names.append(name)
    teacher = Watched(browser, server, PHONE)
    page = _dashboard(teacher, server)
    page.wait_for_selector(f'[data-class-row="{made["id"]}"]')
    assert page.locator(f'[data-class-row="{made["id"]}"] th').inner_text() == HOSTILE[0]
    teacher.shot("teacher-classes-390")
    teacher.fits()
    page = _dashboard(teacher, server, made["id"])
    page.wait_for_selector("[data-pupils] table")
    shown = page.locator("[data-pupils] .pupil-name").all_inner_texts()
    assert sorted(shown) == sorted(names)
    # The title and the assignments come from requests of their own: wait for them as the other
    # dashboard tests do (under load the pupils' table was drawn first and the title read empty).
    expect(page.locator("[data-class-title]")).to_have_text(HOSTILE[0])
    expect(page.locator("[data-assignment-list]")).to_contain_text(HOSTILE[1])
    assert page.locator("img, script:not([src])").count() == 0
    teacher.shot("teacher-hostile-390")
    teacher.fits()
    # The dashboard's language switch: every word of the page, and the rule titles of the library.
    page.click('[data-languages] button[data-lang="es"]')
    assert page.evaluate("document.documentElement.lang") == "es"
    expect(page.locator("[data-refresh]")).to_have_text("Actualizar ahora")
    _status, library = server.call("GET", "/api/library?lang=es")
    first = library["themes"][0]
    shown = f"{first['title']} ({first['count']} problemas)"
    expect(page.locator("[data-theme-select] option").first).to_have_text(shown)
    teacher.shot("teacher-es-390")
    teacher.fits()
    # The CSV comes through the header-authorised fetch, saved from a Blob: no token in any address.
    with page.expect_download() as waiting:
        page.click("[data-download]")
    csv_text = Path(waiting.value.path()).read_text("utf-8")
    assert server.token not in waiting.value.url
    cells = [cell for row in csv.reader(io.StringIO(csv_text)) for cell in row]
    assert any(HOSTILE[2] in cell for cell in cells), csv_text  # the name is there, as text
    formulas = [cell for cell in cells if cell[:1] in ("=", "+", "-", "@")]
    assert formulas == [], formulas  # no cell a spreadsheet would run as a formula
    teacher.clean()
    teacher.close()


def _axe(page: Any) -> list[tuple[str, str, int, str]]:
    from importlib import resources

    # axe-core as the guide's accessibility test takes it (vendored in axe-playwright-python; a
    # missing package fails here).  Injected inline, which the page's CSP would refuse: the context
    # that runs it bypasses CSP, and only that one.
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(content=resources.files("axe_playwright_python").joinpath("axe.min.js")
                            .read_text("utf-8"))
    found = page.evaluate("async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
                          ".map(v => [v.id, v.impact, v.nodes.length, v.nodes[0].target.join(' ')])")
    return [tuple(v) for v in found]


def test_the_library_comes_in_the_language_chosen_while_on_its_way(server: Server, browser: Any) -> None:
    """The dashboard asks for the library in its first language; switched to Spanish before that
    answer arrives, it shows the Spanish titles, not the late English ones (under load the CI
    once saw the English titles stay)."""
    status, made = server.call("POST", "/api/classes", {"name": "Late library", "lang": "en"})
    assert status == 201, made
    teacher = Watched(browser, server, PHONE)
    held: list[Any] = []

    def hold_english(route: Any) -> None:
        if "lang=en" in route.request.url and not held:
            held.append(route)  # answered below, after the switch
        else:
            route.continue_()

    teacher.page.route("**/api/library?*", hold_english)
    page = _dashboard(teacher, server, made["id"])
    page.wait_for_function("document.querySelector('[data-languages] button[data-lang=\"es\"]') !== null")
    assert held, "the English library was never asked for"
    page.click('[data-languages] button[data-lang="es"]')
    held[0].continue_()
    _status, library = server.call("GET", "/api/library?lang=es")
    first = library["themes"][0]
    expect(page.locator("[data-theme-select] option").first).to_have_text(
        f"{first['title']} ({first['count']} problemas)")
    teacher.clean()
    teacher.close()


def test_axe_finds_nothing_on_the_pages(server: Server, browser: Any) -> None:
    status, made = server.call("POST", "/api/classes", {"name": "Axe class", "lang": "en"})
    assert status == 201, made
    server.call("POST", f"/api/classes/{made['id']}/assignments", {"title": "Look", "puzzles": [PUZZLE]})
    found: list[tuple[object, ...]] = []
    for viewport in (PHONE, DESKTOP):
        context = browser.new_context(viewport=viewport, bypass_csp=True)
        context.set_default_timeout(10_000)
        page = context.new_page()
        page.goto(server.url + "/")
        page.wait_for_selector('html[data-classroom="ready"]')
        found += [(viewport["width"], "join", *v) for v in _axe(page)]
        page.fill("#join-code", made["code"])
        page.fill("#join-name", f"Axe {viewport['width']}")
        page.click("[data-join-form] button[type=submit]")
        page.wait_for_selector('[data-view="home"]:not([hidden]) .puzzle-button')
        found += [(viewport["width"], "assignments", *v) for v in _axe(page)]
        page.click(f'.puzzle-button[data-puzzle="{PUZZLE}"]')
        card, dest, _rule = WRONG
        page.locator(f'[data-board] [data-card="{card}"]').click()
        page.locator(f'[data-board] [data-dest="{dest}"] button').first.click()
        _feedback(page, "refused")
        found += [(viewport["width"], "a refused move", *v) for v in _axe(page)]
        page.goto(f"{server.url}/teacher#token={server.token}&class={made['id']}")
        page.wait_for_selector("[data-pupils] table")
        found += [(viewport["width"], "dashboard", *v) for v in _axe(page)]
        context.close()
    assert found == []
