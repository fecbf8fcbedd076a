"""The classroom's ASGI application (Starlette): the pages, the API, the status codes, the headers.

Each API route is one plain function ``(Call) -> (status, body)`` run in a
worker thread (the database waits on fsync; the event loop must not). Around
it, in this order: the token (401, 403, 429), the body (413, 422), then the
route's own checks (404, 403 for another class's things, 422). Every error
answer is ``{"error": message}``; none carries a traceback.
"""

from __future__ import annotations

import hmac
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from enum import Enum
from importlib import resources
from typing import Any

import anyio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import i18n
from ..profile import DEFAULT_PROFILE, get_profile
from ..registry import RuleId
from ..render.env import TEMPLATE_PACKAGE
from ..render.svg import profile_name
from . import tokens
from .body import (
    MAX_CLIENT_ID,
    ApiError,
    id_field,
    int_field,
    only_fields,
    read_json,
    string_list,
    text_field,
    unprocessable,
)
from .db import AssignmentRow, ClassRow, PupilRow, Store
from .judge import Line, LineError, judge_line, legal_texts
from .puzzle_library import Library, rule_title
from .report import class_report, report_csv
from .throttle import Throttle

log = logging.getLogger("agnes_teach.classroom")

MAX_PUPILS = 100  # lichess's limit for a class
MAX_COUNT = 50  # puzzles an assignment by theme asks for
MAX_PUZZLES = 100  # puzzles an assignment lists
MAX_LINE = 1000  # moves in one attempt (limits.MAX_MOVES: the longest solution any file may hold)

# The pages' own files, the only names /static/ serves (from the installed templates).
PAGES = {"/": "classroom-pupil.html", "/teacher": "classroom-teacher.html"}
STATIC = {"classroom.js": "text/javascript", "classroom-teacher.js": "text/javascript",
          "classroom-i18n.js": "text/javascript", "classroom-common.js": "text/javascript",
          "classroom.css": "text/css"}
SECURITY_HEADERS = [
    (b"content-security-policy",
     b"default-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'; object-src 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]
NO_STORE = [(b"cache-control", b"no-store")]


class Who(Enum):
    ANYONE = "anyone"
    TEACHER = "teacher"
    PUPIL = "pupil"


@dataclass
class Classroom:
    store: Store
    puzzles: Library  # the puzzle library, loaded once
    throttle: Throttle = field(default_factory=Throttle.default)


@dataclass
class Call:
    """One request as a route sees it: who asks, the path's ids, the body."""

    room: Classroom
    client: str
    params: dict[str, str]
    query: dict[str, str]
    data: dict[str, Any]
    pupil: PupilRow | None = None


Answer = tuple[int, Any]


# ------------------------------------------------------------------ tokens


def _bearer(request: Request) -> str | None:
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


def authenticate(room: Classroom, request: Request, client: str, who: Who) -> PupilRow | None:
    """The caller of a route for `who`: 401 without a known token, 403 with the other kind of token,
    429 over a limit."""
    if who is Who.ANYONE:
        return None
    token = _bearer(request)
    if token is None:
        raise ApiError(401, "no token: send the header Authorization: Bearer TOKEN")
    is_teacher = hmac.compare_digest(tokens.token_hash(token), room.store.teacher_hash())
    pupil = None if is_teacher else room.store.pupil_by_token(token)
    if not is_teacher and pupil is None:
        if room.throttle.failures.over(client):
            raise ApiError(429, "too many failed requests from this address; wait a minute")
        room.throttle.failures.note(client)
        raise ApiError(401, "unknown token")
    if not room.throttle.requests.hit("teacher" if is_teacher else f"pupil {pupil.id if pupil else ''}"):
        raise ApiError(429, "too many requests with this token; wait a minute")
    if who is Who.TEACHER and not is_teacher:
        raise ApiError(403, "this needs the teacher's token")
    if who is Who.PUPIL and is_teacher:
        raise ApiError(403, "this needs a pupil's token (join the class first)")
    return pupil


# ------------------------------------------------------------------ routes: teacher


def _class_of(call: Call, key: str = "id") -> ClassRow:
    row = call.room.store.class_row(call.params[key])
    if row is None:
        raise ApiError(404, f"no class {call.params[key]}")
    return row


def create_class(call: Call) -> Answer:
    only_fields(call.data, ("name",), ("lang",))
    name = text_field(call.data, "name")
    lang = call.data.get("lang", i18n.DEFAULT_LANG)
    if lang not in i18n.languages():
        raise unprocessable(f"lang: one of {', '.join(i18n.languages())} is expected")
    row = call.room.store.create_class(name, lang)
    return 201, {"id": row.id, "code": row.code}


def list_classes(call: Call) -> Answer:
    return 200, [{"id": row.id, "name": row.name, "code": row.code, "lang": row.lang, "pupils": pupils}
                 for row, pupils in call.room.store.classes()]


def _assigned_puzzles(call: Call) -> list[str]:
    data, library = call.data, call.room.puzzles
    if ("theme" in data) == ("puzzles" in data):
        raise unprocessable("body: give either theme and count, or puzzles")
    if "theme" in data:
        only_fields(data, ("title", "theme", "count"), ("profile",))
        theme = data["theme"]
        if not isinstance(theme, str) or theme not in RuleId.__members__.values():
            raise unprocessable("theme: a rule id such as tableau.empty is expected")
        count = int_field(data, "count", 1, MAX_COUNT)
        profile = data.get("profile", DEFAULT_PROFILE)
        if not isinstance(profile, str) or profile not in library.games:
            raise unprocessable(f"profile: a game of the library is expected, one of "
                                f"{', '.join(sorted(library.games))}")
        themes = library.themes(profile)
        if theme not in themes:
            there = f"its themes: {', '.join(themes)}" if themes else "it has no puzzles"
            raise unprocessable(f"theme: the library has no puzzle of the game {profile} on {theme} "
                                f"({there})")
        return library.choose(RuleId(theme), count, profile)
    only_fields(data, ("title", "puzzles"))
    puzzles = string_list(data, "puzzles", 1, MAX_PUZZLES)
    for index, puzzle in enumerate(puzzles):
        if puzzle not in library.by_id:
            raise ApiError(404, f"puzzles[{index}]: no puzzle {puzzle} in the library")
        if puzzle in puzzles[:index]:
            raise unprocessable(f"puzzles[{index}]: {puzzle} is listed twice")
    return puzzles


def create_assignment(call: Call) -> Answer:
    row = _class_of(call)
    title = text_field(call.data, "title")
    puzzles = _assigned_puzzles(call)
    assignment = call.room.store.create_assignment(row.id, title, puzzles)
    return 201, {"id": assignment.id, "puzzles": list(assignment.puzzles)}


def list_assignments(call: Call) -> Answer:
    row = _class_of(call)
    return 200, [{"id": a.id, "title": a.title, "puzzles": list(a.puzzles)}
                 for a in call.room.store.assignments(row.id)]


def report(call: Call) -> Answer:
    return 200, class_report(call.room.store, call.room.puzzles, _class_of(call).id)


def report_as_csv(call: Call) -> Answer:
    row = _class_of(call)
    text = report_csv(class_report(call.room.store, call.room.puzzles, row.id))
    # The byte-order mark makes spreadsheets read the file as UTF-8 (names in Cyrillic, accents).
    return 200, Response("\ufeff" + text, media_type="text/csv; charset=utf-8", headers={
        "content-disposition": f'attachment; filename="report-{row.id}.csv"'})


def library(call: Call) -> Answer:
    lang = call.query.get("lang", i18n.DEFAULT_LANG)
    if lang not in i18n.languages():
        raise unprocessable(f"lang: one of {', '.join(i18n.languages())} is expected")
    lib = call.room.puzzles

    def themes(profile: str) -> list[dict[str, object]]:
        return [{"theme": theme, "count": count, "title": rule_title(theme, lang)}
                for theme, count in lib.themes(profile).items()]

    # Bernauer first (an assignment's default game), then the other games that have puzzles.
    games = sorted((p for p in lib.games if lib.games[p]), key=lambda p: (p != DEFAULT_PROFILE, p))
    return 200, {"themes": themes(DEFAULT_PROFILE),
                 "games": [{"profile": p, "name": profile_name(get_profile(p), lang), "themes": themes(p)}
                           for p in games],
                 "puzzles": lib.listing()}


# ------------------------------------------------------------------ routes: pupils


def join(call: Call) -> Answer:
    room = call.room
    if room.throttle.failures.over(call.client):
        raise ApiError(429, "too many failed requests from this address; wait a minute")
    only_fields(call.data, ("code", "name"))
    code = text_field(call.data, "code", 20)
    name = text_field(call.data, "name")
    row = room.store.class_by_code(tokens.normal_code(code))
    if row is None:
        room.throttle.failures.note(call.client)
        raise ApiError(404, "code: no class has this code")
    if not room.throttle.joins.hit(call.client):
        raise ApiError(429, "too many pupils joined from this address; wait a minute")
    token = tokens.new_token()
    pupil = room.store.add_pupil(row.id, name, token, most=MAX_PUPILS)
    if pupil is None:
        raise ApiError(409, f"the class is full ({MAX_PUPILS} pupils)")
    return 201, {"pupil": pupil.id, "token": token}


def _me(call: Call) -> tuple[PupilRow, ClassRow]:
    assert call.pupil is not None
    row = call.room.store.class_row(call.pupil.class_id)
    assert row is not None  # a pupil's class is never deleted
    return call.pupil, row


def me(call: Call) -> Answer:
    pupil, row = _me(call)
    return 200, {"pupil": pupil.id, "name": pupil.name,
                 "class": {"id": row.id, "name": row.name, "lang": row.lang}}


def my_assignments(call: Call) -> Answer:
    _, row = _me(call)
    lib = call.room.puzzles
    return 200, [{"id": a.id, "title": a.title,
                  "puzzles": [lib.puzzle_json(p, row.lang) for p in a.puzzles if p in lib.by_id]}
                 for a in call.room.store.assignments(row.id)]


def my_attempts(call: Call) -> Answer:
    pupil, _ = _me(call)
    return 200, [{"assignment": a.assignment_id, "puzzle": a.puzzle, "result": a.result,
                  "refused_rule": a.refused_rule, "at": a.at}
                 for a in call.room.store.attempts_of_pupil(pupil.id)]


def _play(call: Call, optional: tuple[str, ...]) -> tuple[AssignmentRow, Line]:
    """The line of an attempt or a replay, judged: its assignment must be the pupil's class's."""
    pupil, row = _me(call)
    only_fields(call.data, ("assignment", "puzzle", "moves"), optional)
    assignment_id, puzzle = id_field(call.data, "assignment"), id_field(call.data, "puzzle")
    moves = string_list(call.data, "moves", 0, MAX_LINE, 40)
    assignment = call.room.store.assignment(assignment_id)
    if assignment is None:
        raise ApiError(404, f"assignment: no assignment {assignment_id}")
    if assignment.class_id != pupil.class_id:
        raise ApiError(403, "assignment: it belongs to another class")
    if puzzle not in assignment.puzzles or puzzle not in call.room.puzzles.by_id:
        raise ApiError(404, f"puzzle: no puzzle {puzzle} in this assignment")
    try:
        line = judge_line(call.room.puzzles.by_id[puzzle].position, moves, row.lang)
    except LineError as exc:
        raise unprocessable(str(exc)) from None
    return assignment, line


def attempt(call: Call) -> Answer:
    pupil, _ = _me(call)
    client_id = call.data.get("client_id")
    if client_id is not None:
        if not isinstance(client_id, str) or not 0 < len(client_id) <= MAX_CLIENT_ID:
            raise unprocessable(f"client_id: a string of 1 to {MAX_CLIENT_ID} characters is expected")
        stored = call.room.store.answered(pupil.id, client_id)
        if stored is not None:
            return 201, stored  # the offline queue sent it again: the first answer, nothing stored
    assignment, line = _play(call, ("client_id",))
    answer = {"result": line.attempt_result.value,
              "refused": line.refused.to_json(with_message=True) if line.refused else None}
    stored = call.room.store.add_attempt(pupil.id, assignment.id, call.data["puzzle"], call.data["moves"],
                                         answer, client_id)
    return 201, stored


def replay(call: Call) -> Answer:
    _, line = _play(call, ())
    pos = line.position
    return 200, {"position": pos.to_data(), "legal": legal_texts(pos),
                 "refused": line.refused.to_json(with_message=True) if line.refused else None,
                 "result": line.outcome.value, "home_left": 52 - pos.cards_home()}


# ------------------------------------------------------------------ plumbing


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def endpoint(room: Classroom, who: Who, work: Callable[[Call], Answer],
             body: bool) -> Callable[[Request], Awaitable[Response]]:
    async def handle(request: Request) -> Response:
        client = request.client.host if request.client else "?"
        try:
            pupil = await anyio.to_thread.run_sync(authenticate, room, request, client, who)
            data = await read_json(request) if body else {}
            call = Call(room, client, dict(request.path_params), dict(request.query_params), data, pupil)
            status, content = await anyio.to_thread.run_sync(work, call)
            answer = content if isinstance(content, Response) else JSONResponse(content, status_code=status)
        except ApiError as exc:
            answer = _error(exc.status, exc.message)
        return answer

    return handle


def _page(name: str, media_type: str) -> Callable[[Request], Awaitable[Response]]:
    async def serve(request: Request) -> Response:
        file = resources.files(TEMPLATE_PACKAGE).joinpath(name)
        if not file.is_file():
            return _error(404, f"{name} is not installed")
        return Response(file.read_bytes(), media_type=media_type, headers={"cache-control": "no-cache"})

    return serve


async def static(request: Request) -> Response:
    name = request.path_params["name"]
    if name not in STATIC:
        return _error(404, f"no static file {name}")
    return await _page(name, STATIC[name])(request)


def security_headers(app: ASGIApp) -> ASGIApp:
    """Every answer gets the strict headers: nothing loads from outside the server."""

    async def wrapped(scope: Scope, receive: Receive, send: Send) -> None:
        # The API's answers hold tokens and pupils' names: no cache keeps them.
        extra = [*SECURITY_HEADERS, *NO_STORE] if str(scope.get("path", "")).startswith("/api/") \
            else SECURITY_HEADERS

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        await app(scope, receive, send_with_headers)

    return wrapped


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return _error(exc.status_code, "no such route" if exc.status_code == 404 else str(exc.detail))


async def _crash(request: Request, exc: Exception) -> Response:
    log.error("%s %s failed: %s: %s", request.method, request.url.path, type(exc).__name__, exc)
    return _error(500, "the server failed on this request; the teacher's console has the details")


def routes(room: Classroom) -> list[Route]:
    api: list[tuple[str, str, Who, Callable[[Call], Answer]]] = [
        ("POST", "/api/classes", Who.TEACHER, create_class),
        ("GET", "/api/classes", Who.TEACHER, list_classes),
        ("POST", "/api/classes/{id}/assignments", Who.TEACHER, create_assignment),
        ("GET", "/api/classes/{id}/assignments", Who.TEACHER, list_assignments),
        ("GET", "/api/classes/{id}/report", Who.TEACHER, report),
        ("GET", "/api/classes/{id}/report.csv", Who.TEACHER, report_as_csv),
        ("GET", "/api/library", Who.TEACHER, library),
        ("POST", "/api/join", Who.ANYONE, join),
        ("GET", "/api/me", Who.PUPIL, me),
        ("GET", "/api/me/assignments", Who.PUPIL, my_assignments),
        ("GET", "/api/me/attempts", Who.PUPIL, my_attempts),
        ("POST", "/api/me/replay", Who.PUPIL, replay),
        ("POST", "/api/attempts", Who.PUPIL, attempt),
    ]
    out = [Route(path, endpoint(room, who, work, method == "POST"), methods=[method])
           for method, path, who, work in api]
    out += [Route(path, _page(name, "text/html; charset=utf-8"), methods=["GET"])
            for path, name in PAGES.items()]
    out.append(Route("/static/{name}", static, methods=["GET"]))
    return out


def create_app(room: Classroom) -> ASGIApp:
    app = Starlette(routes=routes(room), exception_handlers={HTTPException: _http_error, Exception: _crash})
    return security_headers(app)
