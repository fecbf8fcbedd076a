"""The classroom server driven for real: a uvicorn subprocess on 127.0.0.1, HTTP from the standard library.

Every status code of the contract (docs/classroom.md), the server's own verdict on each attempt,
the offline queue's "once", what a pupil may see, the headers, hostile names in the CSV, and the
commands around the server (init, token --reset, report, a foreign file, a clean stop).
"""

from __future__ import annotations

import csv
import http.client
import io
import json
import signal
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from _classroom_util import Server, cli, init_db, join, played_answer, setup_class

from agnes_teach.classroom.puzzle_library import load_library
from agnes_teach.classroom.throttle import FAILURES_PER_MINUTE
from agnes_teach.moves import Move
from agnes_teach.registry import RuleId
from agnes_teach.tagger.answer import answer_cut


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, str]]:
    db = tmp_path_factory.mktemp("classroom") / "class.db"
    teacher = init_db(db)
    server = Server.start(db)
    yield server, teacher
    code, err = server.stop()
    assert code == 0, err


def _solution(puzzle: str) -> list[Move]:
    return played_answer(puzzle)


def _answer_only(puzzle: str) -> list[str]:
    """The moves a pupil writes on the sheet: the solution without the plain moves home at its end."""
    sc = load_library().by_id[puzzle]
    line = _solution(puzzle)
    return [str(m) for m in line[:answer_cut(sc.position, line)]]


# ------------------------------------------------------------------ the pupil's day


def test_a_class_plays_and_the_server_decides_every_attempt(room: tuple[Server, str]) -> None:
    server, teacher = room
    class_id, code, assignment = setup_class(server, teacher, name="verdicts")
    puzzle = assignment["puzzles"][0]
    ann = join(server, code, "Ann")
    mine = ann.get("/api/me/assignments")
    assert mine.status == 200
    (shown,) = mine.data
    assert [p["id"] for p in shown["puzzles"]] == assignment["puzzles"]
    assert shown["puzzles"][0]["position"] == load_library().by_id[puzzle].position.to_data()
    assert shown["puzzles"][0]["task"]

    answer = _answer_only(puzzle)
    full = [str(m) for m in _solution(puzzle)]
    assert len(answer) < len(full), "the puzzle must end with moves home, or this test proves nothing"
    # The answer as the sheet counts it: only home moves are left after it.
    first = ann.post("/api/attempts", {"assignment": assignment["id"], "puzzle": puzzle, "moves": answer})
    assert first.status == 201 and first.data == {"result": "solved", "refused": None}
    whole = ann.post("/api/attempts", {"assignment": assignment["id"], "puzzle": puzzle, "moves": full})
    assert whole.data["result"] == "solved"
    # Stopping one move early (before the last move that is not home) fails.
    short = ann.post("/api/attempts", {"assignment": assignment["id"], "puzzle": puzzle,
                                       "moves": answer[:-1]})
    assert short.status == 201 and short.data == {"result": "failed", "refused": None}
    # A move the rules refuse: illegal, with the rule the engine names.
    sc = load_library().by_id[puzzle]
    bad = ann.post("/api/attempts", {"assignment": assignment["id"], "puzzle": puzzle,
                                     "moves": [answer[0], "deal"]})
    assert bad.status == 201 and bad.data["result"] == "illegal"
    assert bad.data["refused"]["index"] == 1 and bad.data["refused"]["move"] == "deal"
    assert bad.data["refused"]["rule"] == RuleId.STOCK_NO_REDEAL
    assert bad.data["refused"]["message"]  # in the class's language

    report = server.client(teacher).get(f"/api/classes/{class_id}/report")
    assert report.status == 200
    (pupil,) = report.data["pupils"]
    assert (pupil["name"], pupil["attempts"], pupil["solved"], pupil["first_try_solved"]) == ("Ann", 4, 2, 1)
    theme = sc.themes[0]
    assert pupil["by_rule"][theme]["attempts"] == 4 and pupil["by_rule"][theme]["solved"] == 2
    assert pupil["by_rule"][RuleId.STOCK_NO_REDEAL]["refused"] == 1
    rated = {p["id"]: p for p in report.data["puzzles"]}
    assert rated[puzzle]["attempts"] == 4 and rated[puzzle]["solved"] == 2
    assert rated[puzzle]["provisional"] is True and rated[puzzle]["deviation"] >= 110
    assert rated[puzzle]["rating"] < 1300  # seeded easy or medium, then beaten at the first attempt


def test_replay_shows_the_board_after_the_legal_moves_and_stores_nothing(room: tuple[Server, str]) -> None:
    server, teacher = room
    class_id, code, assignment = setup_class(server, teacher, name="replay", lang="ru")
    puzzle = assignment["puzzles"][0]
    bea = join(server, code, "Bea")
    answer = _answer_only(puzzle)
    body = {"assignment": assignment["id"], "puzzle": puzzle, "moves": answer[:1]}
    step = bea.post("/api/me/replay", body)
    assert step.status == 200 and step.data["result"] == "open" and step.data["refused"] is None
    assert answer[1] in step.data["legal"] and step.data["home_left"] > 0
    refused = bea.post("/api/me/replay", {**body, "moves": [answer[0], "deal", answer[1]]})
    assert refused.data["result"] == "illegal" and refused.data["refused"]["index"] == 1
    assert refused.data["position"] == step.data["position"]  # the board after the legal prefix
    assert any("\u0400" <= ch <= "\u04ff" for ch in refused.data["refused"]["message"])  # Russian
    done = bea.post("/api/me/replay", {**body, "moves": answer})
    assert done.data["result"] == "solved"
    assert bea.get("/api/me/attempts").data == []


def test_a_retry_with_the_same_client_id_is_answered_once_and_stored_once(room: tuple[Server, str]) -> None:
    server, teacher = room
    class_id, code, assignment = setup_class(server, teacher, name="offline")
    cid = join(server, code, "Cid")
    body = {"assignment": assignment["id"], "puzzle": assignment["puzzles"][0],
            "moves": _answer_only(assignment["puzzles"][0]), "client_id": "queue-1"}
    first = cid.post("/api/attempts", body)
    again = cid.post("/api/attempts", {**body, "moves": ["deal"]})  # the stored answer wins
    assert first.status == again.status == 201 and first.body == again.body
    assert len(cid.get("/api/me/attempts").data) == 1
    other = join(server, code, "Dee")  # the same client id from another pupil is another attempt
    assert other.post("/api/attempts", body).status == 201
    report = server.client(teacher).get(f"/api/classes/{class_id}/report").data
    assert report["attempts"] == 2


def test_a_pupil_sees_only_their_own_attempts_and_class(room: tuple[Server, str]) -> None:
    server, teacher = room
    _, code_a, assignment_a = setup_class(server, teacher, name="A")
    _, code_b, assignment_b = setup_class(server, teacher, name="B")
    eve, fay = join(server, code_a, "Eve"), join(server, code_a, "Fay")
    gus = join(server, code_b, "Gus")
    body = {"assignment": assignment_a["id"], "puzzle": assignment_a["puzzles"][0], "moves": ["deal"]}
    assert eve.post("/api/attempts", body).status == 201
    assert [a["assignment"] for a in eve.get("/api/me/attempts").data] == [assignment_a["id"]]
    assert fay.get("/api/me/attempts").data == []
    # Another class's assignment: 403, for attempts and replays alike.
    assert gus.post("/api/attempts", body).status == 403
    assert gus.post("/api/me/replay", body).status == 403
    assert [a["id"] for a in gus.get("/api/me/assignments").data] == [assignment_b["id"]]
    me = gus.get("/api/me").data
    assert me["name"] == "Gus" and me["class"]["name"] == "B"


# ------------------------------------------------------------------ status codes


def test_401_without_a_token_or_with_an_unknown_one(room: tuple[Server, str]) -> None:
    server, _ = room
    c = server.client()
    for path in ("/api/classes", "/api/me", "/api/me/assignments"):
        reply = c.get(path)
        assert reply.status == 401 and "token" in reply.data["error"]
    assert c.get("/api/classes", token="not-a-token").status == 401
    assert c.get("/api/me", headers={"Authorization": "Basic abc"}).status == 401


def test_403_for_the_other_kind_of_token(room: tuple[Server, str]) -> None:
    server, teacher = room
    class_id, code, _ = setup_class(server, teacher, name="kinds")
    pupil = join(server, code, "Hal")
    for path in ("/api/classes", f"/api/classes/{class_id}/report", f"/api/classes/{class_id}/report.csv",
                 "/api/library", f"/api/classes/{class_id}/assignments"):
        assert pupil.get(path).status == 403, path
    assert pupil.post("/api/classes", {"name": "mine"}).status == 403
    assert server.client(teacher).get("/api/me").status == 403


def test_404_for_unknown_ids_and_routes(room: tuple[Server, str]) -> None:
    server, teacher = room
    t = server.client(teacher)
    for path in ("/api/classes/c-000000000000/report", "/api/classes/c-000000000000/report.csv",
                 "/api/classes/c-000000000000/assignments", "/api/nothing", "/static/../pyproject.toml",
                 "/static/evil.js"):
        reply = t.get(path)
        assert reply.status == 404 and reply.data["error"], path
    wrong_method = t.request("DELETE", "/api/classes")
    assert wrong_method.status == 405 and wrong_method.data["error"]
    class_id, code, assignment = setup_class(server, teacher, name="ids")
    unknown_puzzle = t.post(f"/api/classes/{class_id}/assignments", {"title": "x", "puzzles": ["no-such"]})
    assert unknown_puzzle.status == 404 and "puzzles[0]" in unknown_puzzle.data["error"]
    pupil = join(server, code, "Ida")
    body = {"assignment": "a-000000000000", "puzzle": assignment["puzzles"][0], "moves": []}
    assert pupil.post("/api/attempts", body).status == 404
    body["assignment"] = assignment["id"]
    body["puzzle"] = "no-such"
    reply = pupil.post("/api/attempts", body)
    assert reply.status == 404 and reply.data["error"].startswith("puzzle")


def test_413_for_a_body_over_64_kib(room: tuple[Server, str]) -> None:
    server, teacher = room
    t = server.client(teacher)
    big = json.dumps({"name": "x" * (64 * 1024)}).encode()
    reply = t.post("/api/classes", raw=big)
    assert reply.status == 413 and "64 KiB" in reply.data["error"]
    t.close()
    # Without a Content-Length (chunked), the server stops reading at the limit too.
    conn = http.client.HTTPConnection(*server.address, timeout=30)
    conn.putrequest("POST", "/api/classes")
    conn.putheader("Authorization", f"Bearer {teacher}")
    conn.putheader("Transfer-Encoding", "chunked")
    conn.endheaders()
    chunk = b"x" * 8192
    for _ in range(10):
        conn.send(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
    conn.send(b"0\r\n\r\n")
    assert conn.getresponse().status == 413
    conn.close()


@pytest.mark.parametrize(("body", "field"), [
    (b"not json", "body"),
    (b"[1, 2]", "body"),
    (b'{"lang": "en"}', "name"),
    (b'{"name": 5}', "name"),
    (b'{"name": "   "}', "name"),
    (b'{"name": "a\\u0000b"}', "name"),
    (b'{"name": "x", "lang": "de"}', "lang"),
    (b'{"name": "x", "colour": "red"}', "colour"),
])
def test_422_names_the_field(room: tuple[Server, str], body: bytes, field: str) -> None:
    server, teacher = room
    reply = server.client(teacher).post("/api/classes", raw=body)
    assert reply.status == 422 and reply.data["error"].startswith(field), reply.data


def test_422_for_assignments_and_attempts(room: tuple[Server, str]) -> None:
    server, teacher = room
    class_id, code, assignment = setup_class(server, teacher, name="bodies")
    t = server.client(teacher)
    path = f"/api/classes/{class_id}/assignments"
    for body, field in [({"title": "x", "theme": "no.such", "count": 2}, "theme"),
                        ({"title": "x", "theme": "tableau.empty", "count": 0}, "count"),
                        ({"title": "x", "theme": "tableau.empty", "count": True}, "count"),
                        ({"title": "x"}, "body"),
                        ({"title": "x", "puzzles": []}, "puzzles"),
                        ({"title": "x", "puzzles": [assignment["puzzles"][0]] * 2}, "puzzles[1]"),
                        ({"theme": "tableau.empty", "count": 2}, "title")]:
        reply = t.post(path, body)
        assert reply.status == 422 and reply.data["error"].startswith(field), (body, reply.data)
    pupil = join(server, code, "Jo")
    good = {"assignment": assignment["id"], "puzzle": assignment["puzzles"][0], "moves": ["deal"]}
    for body, field in [({**good, "moves": "deal"}, "moves"),
                        ({**good, "moves": ["deal", "hello"]}, "moves[1]"),
                        ({**good, "client_id": "x" * 65}, "client_id"),
                        ({k: v for k, v in good.items() if k != "puzzle"}, "puzzle")]:
        reply = pupil.post("/api/attempts", body)
        assert reply.status == 422 and reply.data["error"].startswith(field), (body, reply.data)
    assert pupil.post("/api/join", {"code": code}).status == 422


def test_429_after_many_wrong_codes_yet_joined_pupils_play_on(tmp_path: Path) -> None:
    db = tmp_path / "class.db"
    teacher = init_db(db)
    server = Server.start(db)  # its own server: the failures of other tests count for the same address
    try:
        _throttled_guesser(server, teacher)
    finally:
        server.stop()


def _throttled_guesser(server: Server, teacher: str) -> None:
    _, code, _ = setup_class(server, teacher, name="throttled")
    kim = join(server, code, "Kim")
    guesser = server.client()
    limit = FAILURES_PER_MINUTE
    statuses = [guesser.post("/api/join", {"code": "AAAAAA", "name": "x"}).status for _ in range(limit + 5)]
    assert statuses[:limit] == [404] * limit and set(statuses[limit:]) == {429}
    assert guesser.post("/api/join", {"code": code, "name": "Lee"}).status == 429  # even the right code
    assert guesser.get("/api/me", token="guess").status == 429
    assert kim.get("/api/me").status == 200  # a known token is never locked out by a classmate's typos
    assert server.client(teacher).get("/api/classes").status == 200


def test_a_pupil_is_not_throttled_below_60_requests_a_minute_and_is_above_300(
        room: tuple[Server, str]) -> None:
    server, teacher = room
    _, code, _ = setup_class(server, teacher, name="busy")
    max_ = join(server, code, "Max")
    statuses = [max_.get("/api/me").status for _ in range(310)]
    assert statuses[:300] == [200] * 300 and statuses[-1] == 429
    assert max_.get("/api/me").data["error"].startswith("too many")
    assert join(server, code, "Ned").get("/api/me").status == 200  # only that pupil waits


# ------------------------------------------------------------------ pages, headers, escaping


def test_pages_and_static_files_carry_a_strict_policy(room: tuple[Server, str]) -> None:
    server, _ = room
    c = server.client()
    for path, kind in [("/", "text/html"), ("/teacher", "text/html"), ("/static/classroom.js", "javascript"),
                       ("/static/classroom.css", "text/css"), ("/static/classroom-teacher.js", "javascript")]:
        reply = c.get(path)
        assert reply.status == 200, path
        assert kind in reply.headers["content-type"]
        assert reply.headers["content-security-policy"].startswith("default-src 'self'")
        assert reply.headers["x-content-type-options"] == "nosniff"
    for path in ("/api/me", "/api/nothing"):
        reply = c.get(path)
        assert reply.headers["content-type"].startswith("application/json")
        assert "default-src 'self'" in reply.headers["content-security-policy"]
        assert reply.headers["cache-control"] == "no-store"
        assert "Traceback" not in reply.text


def test_hostile_names_are_data_and_the_csv_defuses_formulas(room: tuple[Server, str]) -> None:
    server, teacher = room
    hostile = ['=HYPERLINK("http://x","y")', "+1+1", "-2", "@SUM(A1)", "<script>alert(1)</script>",
               'Zoë "quoted", with comma']
    class_id, code, assignment = setup_class(server, teacher, name="<b>5B</b> =1")
    for name in hostile:
        pupil = join(server, code, name)
        body = {"assignment": assignment["id"], "puzzle": assignment["puzzles"][0], "moves": ["deal"]}
        assert pupil.post("/api/attempts", body).status == 201
    t = server.client(teacher)
    report = t.get(f"/api/classes/{class_id}/report").data
    assert [p["name"] for p in report["pupils"]] == hostile  # stored and answered as sent, JSON-encoded
    assert report["name"] == "<b>5B</b> =1"
    reply = t.get(f"/api/classes/{class_id}/report.csv")
    assert reply.status == 200 and reply.headers["content-type"].startswith("text/csv")
    assert "attachment" in reply.headers["content-disposition"]
    rows = list(csv.DictReader(io.StringIO(reply.text.removeprefix("\ufeff"))))
    names = [row["name"] for row in rows]
    for name in hostile:
        shown = "'" + name if name[0] in "=+-@" else name
        assert shown in names
    for row in rows:
        assert all(not cell.startswith(("=", "+", "-", "@", "\t", "\r")) for cell in row.values())


# ------------------------------------------------------------------ commands around the server


def test_init_refuses_an_existing_file_and_serve_a_missing_or_foreign_one(tmp_path: Path) -> None:
    db = tmp_path / "class.db"
    init_db(db)
    again = cli("classroom", "init", "--db", str(db), check=False)
    assert again.returncode == 2 and "exists" in again.stderr and "Traceback" not in again.stderr
    missing = cli("classroom", "serve", "--db", str(tmp_path / "none.db"), check=False)
    assert missing.returncode == 2 and "none.db" in missing.stderr
    text = tmp_path / "notes.db"
    text.write_text("not a database at all, just some words that are long enough to fill a header\n" * 20)
    foreign = cli("classroom", "serve", "--db", str(text), check=False)
    assert foreign.returncode == 2 and "not a classroom database" in foreign.stderr
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE t (x)")
    conn.close()
    refused = cli("classroom", "serve", "--db", str(other), check=False)
    assert refused.returncode == 2 and "another program" in refused.stderr
    assert cli("classroom", "init", "--db", str(tmp_path / "no" / "x.db"), check=False).returncode == 2
    assert not (tmp_path / "no").exists()


def test_a_newer_schema_is_refused_and_the_version_table_is_kept(tmp_path: Path) -> None:
    db = tmp_path / "class.db"
    init_db(db)
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT max(version) FROM schema_version").fetchone()[0] == 1
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        conn.execute("INSERT INTO schema_version VALUES (99, 'later')")
    conn.close()
    refused = cli("classroom", "report", "--db", str(db), "--class", "x", check=False)
    assert refused.returncode == 2 and "schema version 99" in refused.stderr


def test_token_reset_and_the_offline_report(room: tuple[Server, str], tmp_path: Path) -> None:
    db = tmp_path / "class.db"
    teacher = init_db(db)
    server = Server.start(db)
    try:
        class_id, code, assignment = setup_class(server, teacher, name="offline report")
        pupil = join(server, code, "=Ola")
        body = {"assignment": assignment["id"], "puzzle": assignment["puzzles"][0], "moves": ["deal"]}
        assert pupil.post("/api/attempts", body).status == 201
        api_report = server.client(teacher).get(f"/api/classes/{class_id}/report").data
        api_csv = server.client(teacher).get(f"/api/classes/{class_id}/report.csv").text
        # The offline report reads the file the running server writes.
        offline = json.loads(cli("classroom", "report", "--db", str(db), "--class", class_id,
                                 "--json").stdout)
        assert offline == api_report
        assert cli("classroom", "report", "--db", str(db), "--class", class_id, "--csv").stdout \
            == api_csv.removeprefix("\ufeff").replace("\r\n", "\n")
        text = cli("classroom", "report", "--db", str(db), "--class", class_id).stdout
        assert "=Ola" in text and "1 attempts" in text
        unknown = cli("classroom", "report", "--db", str(db), "--class", "c-nope", check=False)
        assert unknown.returncode == 2 and class_id in unknown.stderr
        reset = json.loads(cli("classroom", "token", "--db", str(db), "--reset", "--json").stdout)
        assert server.client(teacher).get("/api/classes").status == 401  # the old token is gone at once
        assert server.client(reset["teacher_token"]).get("/api/classes").status == 200
        assert cli("classroom", "token", "--db", str(db), check=False).returncode == 2
    finally:
        code, err = server.stop(signal.SIGINT)
    assert code == 0 and "stopped" in err and "Traceback" not in err


def test_library_lists_themes_with_titles(room: tuple[Server, str]) -> None:
    server, teacher = room
    reply = server.client(teacher).get("/api/library?lang=es")
    assert reply.status == 200
    themes = {t["theme"]: t for t in reply.data["themes"]}
    assert RuleId.TABLEAU_EMPTY in themes and themes[RuleId.TABLEAU_EMPTY]["count"] >= 3
    assert all(t["title"] for t in themes.values())
    ids = {p["id"] for p in reply.data["puzzles"]}
    assert set(load_library().by_id) == ids
    listed = server.client(teacher).get("/api/classes").data
    assert all({"id", "name", "code", "lang", "pupils"} <= set(c) for c in listed)


def test_a_port_in_use_or_a_foreign_host_is_a_message(room: tuple[Server, str]) -> None:
    server, _ = room
    host, port = server.address
    busy = cli("classroom", "serve", "--db", str(server.db), "--port", str(port), check=False)
    assert busy.returncode == 2 and f"cannot listen on 127.0.0.1:{port}" in busy.stderr
    nowhere = cli("classroom", "serve", "--db", str(server.db), "--host", "no-such-host.invalid", check=False)
    assert nowhere.returncode == 2 and "--host" in nowhere.stderr
    assert server.client().get("/static/classroom.css").status == 200  # the first server is unharmed
