"""Test helper: a real classroom server in a subprocess, and a small HTTP client (the standard library's).

``Server.start`` runs ``agnes-teach classroom serve --port 0`` on a database made by
``classroom init`` and reads the one line it prints; the tests and ``bench/classroom.py``
talk to it over real sockets, as a browser would.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

START_TIMEOUT = 30.0  # seconds for the server to print its line (2 shared cores: be patient)


@dataclass
class Ran:
    returncode: int
    stdout: str
    stderr: str


def cli(*args: str, check: bool = True) -> Ran:
    """Run ``agnes-teach ARGS`` in this interpreter (a fresh one costs seconds on a busy machine);
    ``serve`` alone runs as a real process (``Server.start``)."""
    from typer.testing import CliRunner

    from agnes_teach.cli import app

    result = CliRunner().invoke(app, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    ran = Ran(result.exit_code, result.stdout, result.stderr)
    if check:
        assert ran.returncode == 0, ran.stderr
    return ran


def init_db(path: Path) -> str:
    """A new classroom database; the teacher's token."""
    out = json.loads(cli("classroom", "init", "--db", str(path), "--json").stdout)
    return str(out["teacher_token"])


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def data(self) -> Any:
        return json.loads(self.body.decode("utf-8"))

    @property
    def text(self) -> str:
        return self.body.decode("utf-8")


@dataclass
class Client:
    """One browser's worth of HTTP/1.1 keep-alive connection to the server."""

    host: str
    port: int
    token: str | None = None
    conn: http.client.HTTPConnection | None = field(default=None, repr=False)

    def request(self, method: str, path: str, body: Any = None, *, raw: bytes | None = None,
                token: str | None = None, headers: dict[str, str] | None = None) -> Reply:
        sent = dict(headers or {})
        bearer = token if token is not None else self.token
        if bearer:
            sent["Authorization"] = f"Bearer {bearer}"
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        if data is not None:
            sent.setdefault("Content-Type", "application/json")
        for retry in (True, False):
            if self.conn is None:
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
            try:
                self.conn.request(method, path, body=data, headers=sent)
                resp = self.conn.getresponse()
                reply = Reply(resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read())
                if resp.getheader("connection", "").lower() == "close":
                    self.close()
                return reply
            except (ConnectionError, http.client.RemoteDisconnected, http.client.BadStatusLine):
                self.close()  # a kept-alive connection the server closed: open another, once
                if not retry:
                    raise
        raise AssertionError("unreachable")

    def get(self, path: str, **kw: Any) -> Reply:
        return self.request("GET", path, **kw)

    def post(self, path: str, body: Any = None, **kw: Any) -> Reply:
        return self.request("POST", path, body, **kw)

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


@dataclass
class Server:
    db: Path
    proc: subprocess.Popen[str]
    url: str

    @classmethod
    def start(cls, db: Path, *extra: str) -> Server:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        proc = subprocess.Popen([sys.executable, "-m", "agnes_teach", "classroom", "serve", "--db", str(db),
                                 "--port", "0", *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, env=env)
        assert proc.stdout is not None
        deadline = time.monotonic() + START_TIMEOUT
        line = proc.stdout.readline()  # the server prints exactly this one line when it listens
        if not line.startswith("serving http://"):
            proc.kill()
            raise AssertionError(f"no serving line: {line!r} {proc.communicate()[1]}")
        assert time.monotonic() < deadline, "the server took too long to start"
        return cls(db, proc, line.split()[1])

    @property
    def address(self) -> tuple[str, int]:
        parts = urlsplit(self.url)
        assert parts.hostname is not None and parts.port is not None
        return parts.hostname, parts.port

    def client(self, token: str | None = None) -> Client:
        return Client(*self.address, token=token)

    def stop(self, sig: int = signal.SIGTERM) -> tuple[int, str]:
        """Send `sig` and wait: the exit code and what the server wrote on stderr."""
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        _, err = self.proc.communicate(timeout=30)
        return self.proc.returncode, err


def setup_class(server: Server, teacher: str, name: str = "5B", lang: str = "en",
                theme: str = "tableau.empty", count: int = 3) -> tuple[str, str, dict[str, Any]]:
    """A class with one assignment by theme: (class id, code, the assignment's answer)."""
    t = server.client(teacher)
    made = t.post("/api/classes", {"name": name, "lang": lang})
    assert made.status == 201, made.body
    assignment = t.post(f"/api/classes/{made.data['id']}/assignments",
                        {"title": "Practice", "theme": theme, "count": count})
    assert assignment.status == 201, assignment.body
    t.close()
    return made.data["id"], made.data["code"], assignment.data


def join(server: Server, code: str, name: str) -> Client:
    c = server.client()
    joined = c.post("/api/join", {"code": code, "name": name})
    assert joined.status == 201, joined.body
    c.token = joined.data["token"]
    return c


def played_answer(puzzle: str) -> list[Any]:
    """A library puzzle's answer played to the end: its moves, then every card home (engine.home_run)."""
    from agnes_teach.classroom.puzzle_library import load_library
    from agnes_teach.engine import apply_unchecked, home_run, resolve

    sc = load_library().by_id[puzzle]
    assert sc.solution is not None
    pos, moves = sc.position, []
    for text in sc.solution:
        move = resolve(pos, text)
        moves.append(move)
        pos = apply_unchecked(pos, move)
    return moves + list(home_run(pos)[1])
