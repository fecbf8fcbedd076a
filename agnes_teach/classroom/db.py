"""The classroom's one file: an SQLite database in WAL mode, with a versioned schema.

Durability: every write commits before the server answers, in WAL mode with
``synchronous=FULL``, so the WAL is synced to disk at each commit. A process
killed with SIGKILL loses nothing it has committed (the WAL is in the file
system already); FULL adds that a power cut after the answer loses nothing
either, at the cost of one fsync per attempt (about a millisecond on an SSD).

One connection serves the whole process behind a lock: SQLite writes one
transaction at a time anyway, and the class's requests are short. Another
process reading the file (``classroom report`` while the server runs) waits
up to ``BUSY_MS`` for a writer instead of failing.

The schema grows by migrations: ``MIGRATIONS[n]`` takes the file from version
n to n + 1 and the table ``schema_version`` records where a file is. A file
written by a newer version is refused, not guessed at.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..errors import InputError, Problem
from . import tokens

# PRAGMA application_id: marks the file as ours ("AgTc"), so a foreign SQLite file is refused.
APPLICATION_ID = 0x41675463
BUSY_MS = 5000

MIGRATIONS: tuple[str, ...] = (
    # 0 -> 1: the first schema.
    """
    CREATE TABLE teacher (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        token_hash TEXT NOT NULL
    );
    CREATE TABLE classes (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        code TEXT NOT NULL UNIQUE,
        lang TEXT NOT NULL,
        created TEXT NOT NULL
    );
    CREATE TABLE pupils (
        id TEXT PRIMARY KEY,
        class_id TEXT NOT NULL REFERENCES classes(id),
        name TEXT NOT NULL,
        token_hash TEXT NOT NULL UNIQUE,
        created TEXT NOT NULL
    );
    CREATE INDEX pupils_class ON pupils(class_id);
    CREATE TABLE assignments (
        id TEXT PRIMARY KEY,
        class_id TEXT NOT NULL REFERENCES classes(id),
        title TEXT NOT NULL,
        created TEXT NOT NULL
    );
    CREATE INDEX assignments_class ON assignments(class_id);
    CREATE TABLE assignment_puzzles (
        assignment_id TEXT NOT NULL REFERENCES assignments(id),
        place INTEGER NOT NULL,
        puzzle TEXT NOT NULL,
        PRIMARY KEY (assignment_id, place)
    );
    CREATE TABLE attempts (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        pupil_id TEXT NOT NULL REFERENCES pupils(id),
        assignment_id TEXT NOT NULL REFERENCES assignments(id),
        puzzle TEXT NOT NULL,
        moves TEXT NOT NULL,
        result TEXT NOT NULL,
        refused_rule TEXT,
        client_id TEXT,
        answer TEXT NOT NULL,
        at TEXT NOT NULL,
        UNIQUE (pupil_id, client_id)
    );
    CREATE INDEX attempts_pupil ON attempts(pupil_id);
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass(frozen=True)
class ClassRow:
    id: str
    name: str
    code: str
    lang: str


@dataclass(frozen=True)
class PupilRow:
    id: str
    class_id: str
    name: str


@dataclass(frozen=True)
class AssignmentRow:
    id: str
    class_id: str
    title: str
    puzzles: tuple[str, ...]


@dataclass(frozen=True)
class AttemptRow:
    id: int
    pupil_id: str
    assignment_id: str
    puzzle: str
    result: str
    refused_rule: str | None
    at: str


def _connect(path: Path, mode: str) -> sqlite3.Connection:
    uri = f"{path.resolve().as_uri()}?mode={mode}"
    conn = sqlite3.connect(uri, uri=True, check_same_thread=False, isolation_level=None)
    conn.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
    return conn


def _foreign(path: Path, why: str) -> InputError:
    return InputError(Problem(f"not a classroom database ({why}); `agnes-teach classroom init --db FILE` "
                              "makes one", str(path)))


def _setup(conn: sqlite3.Connection) -> None:
    """The pragmas every connection needs (WAL itself is a property of the file)."""
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("PRAGMA foreign_keys = ON")


def _version(conn: sqlite3.Connection) -> int:
    row = conn.execute("SELECT max(version) FROM schema_version").fetchone()
    return int(row[0] or 0)


def migrate(conn: sqlite3.Connection, path: Path) -> None:
    """Bring the schema to SCHEMA_VERSION, each step in its own transaction."""
    conn.execute("CREATE TABLE IF NOT EXISTS schema_version "
                 "(version INTEGER NOT NULL, applied TEXT NOT NULL)")
    version = _version(conn)
    if version > SCHEMA_VERSION:
        raise InputError(Problem(f"the database has schema version {version}; this agnes-teach knows up "
                                 f"to {SCHEMA_VERSION} (use a newer agnes-teach)", str(path)))
    for step in range(version, SCHEMA_VERSION):
        conn.execute("BEGIN IMMEDIATE")
        try:
            for statement in MIGRATIONS[step].split(";"):
                if statement.strip():
                    conn.execute(statement)
            conn.execute("INSERT INTO schema_version VALUES (?, ?)", (step + 1, now()))
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise


def create(path: Path, teacher_token: str) -> None:
    """A new database at `path` with this teacher token; InputError if `path` exists.

    Written under a temporary name and linked into place, so a failed run leaves
    nothing and an existing file is never overwritten, even by a race."""
    if path.exists() or path.is_symlink():
        raise InputError(Problem("the file exists; init makes a new database and never overwrites one",
                                 str(path)))
    if not path.parent.is_dir():
        raise InputError(Problem(f"no such folder: {path.parent}", str(path)))
    temp = path.with_name(f".{path.name}.{os.getpid()}.new")
    try:
        conn = _connect(temp, "rwc")
        try:
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            _setup(conn)
            migrate(conn, temp)
            conn.execute("INSERT INTO teacher VALUES (1, ?)", (tokens.token_hash(teacher_token),))
            # Fold the WAL into the file, so the one file is the whole database before it is linked.
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            conn.close()
        try:
            os.link(temp, path)
        except FileExistsError:
            raise InputError(Problem("the file exists; init makes a new database and never overwrites one",
                                     str(path))) from None
    finally:
        for leftover in (temp, temp.with_name(temp.name + "-wal"), temp.with_name(temp.name + "-shm")):
            with contextlib.suppress(FileNotFoundError):
                leftover.unlink()


class Store:
    """The open database: every method takes the lock and commits before it returns."""

    def __init__(self, path: Path) -> None:
        self.path = path
        if not path.is_file():
            raise InputError(Problem("no such database file", str(path)))
        self.lock = threading.RLock()  # re-entered by the queries inside snapshot()
        try:
            self.conn = _connect(path, "rw")
            self._check()
        except sqlite3.DatabaseError as exc:
            raise _foreign(path, str(exc)) from None

    def _check(self) -> None:
        """Ours, whole and at the current schema: refuse the file otherwise."""
        conn = self.conn
        if conn.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
            conn.close()
            raise _foreign(self.path, "it is an SQLite file of another program")
        problems = [row[0] for row in conn.execute("PRAGMA integrity_check")]
        if problems != ["ok"]:
            conn.close()
            raise InputError(Problem("the database is damaged (PRAGMA integrity_check: "
                                     + "; ".join(problems[:3]) + ")", str(self.path)))
        _setup(conn)
        migrate(conn, self.path)

    def close(self) -> None:
        with self.lock:
            self.conn.close()

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction, committed (and synced) before the block's caller goes on."""
        with self.lock:
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield self.conn
            except BaseException:
                self.conn.execute("ROLLBACK")
                raise
            self.conn.execute("COMMIT")

    @contextlib.contextmanager
    def snapshot(self) -> Iterator[None]:
        """Reads that see one state of the file: no write of this process or another lands between
        them (a report reads the attempts twice: for the ratings and for the class)."""
        with self.lock:
            self.conn.execute("BEGIN")
            try:
                yield
            finally:
                self.conn.execute("COMMIT")

    def query(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        with self.lock:
            return self.conn.execute(sql, tuple(args)).fetchall()

    # ------------------------------------------------------------ teacher

    def teacher_hash(self) -> str:
        rows = self.query("SELECT token_hash FROM teacher WHERE id = 1")
        return str(rows[0][0]) if rows else ""

    def reset_teacher(self, token: str) -> None:
        with self.transaction() as conn:
            conn.execute("UPDATE teacher SET token_hash = ? WHERE id = 1", (tokens.token_hash(token),))

    # ------------------------------------------------------------ classes

    def create_class(self, name: str, lang: str) -> ClassRow:
        with self.transaction() as conn:
            while True:  # a code already taken is drawn again
                row = ClassRow(tokens.new_id("c"), name, tokens.new_code(), lang)
                if not conn.execute("SELECT 1 FROM classes WHERE code = ?", (row.code,)).fetchone():
                    break
            conn.execute("INSERT INTO classes VALUES (?, ?, ?, ?, ?)",
                         (row.id, row.name, row.code, row.lang, now()))
        return row

    def classes(self) -> list[tuple[ClassRow, int]]:
        rows = self.query("SELECT c.id, c.name, c.code, c.lang, "
                          "(SELECT count(*) FROM pupils p WHERE p.class_id = c.id) "
                          "FROM classes c ORDER BY c.created, c.id")
        return [(ClassRow(*row[:4]), int(row[4])) for row in rows]

    def class_row(self, class_id: str) -> ClassRow | None:
        rows = self.query("SELECT id, name, code, lang FROM classes WHERE id = ?", (class_id,))
        return ClassRow(*rows[0]) if rows else None

    def class_by_code(self, code: str) -> ClassRow | None:
        rows = self.query("SELECT id, name, code, lang FROM classes WHERE code = ?", (code,))
        return ClassRow(*rows[0]) if rows else None

    # ------------------------------------------------------------- pupils

    def add_pupil(self, class_id: str, name: str, token: str, most: int | None = None) -> PupilRow | None:
        """The new pupil; None when the class has `most` pupils already (counted in the same transaction)."""
        row = PupilRow(tokens.new_id("p"), class_id, name)
        with self.transaction() as conn:
            if most is not None and conn.execute("SELECT count(*) FROM pupils WHERE class_id = ?",
                                                 (class_id,)).fetchone()[0] >= most:
                return None
            conn.execute("INSERT INTO pupils VALUES (?, ?, ?, ?, ?)",
                         (row.id, class_id, name, tokens.token_hash(token), now()))
        return row

    def pupil_by_token(self, token: str) -> PupilRow | None:
        rows = self.query("SELECT id, class_id, name FROM pupils WHERE token_hash = ?",
                          (tokens.token_hash(token),))
        return PupilRow(*rows[0]) if rows else None

    def pupils(self, class_id: str) -> list[PupilRow]:
        rows = self.query("SELECT id, class_id, name FROM pupils WHERE class_id = ? ORDER BY created, id",
                          (class_id,))
        return [PupilRow(*row) for row in rows]

    # -------------------------------------------------------- assignments

    def create_assignment(self, class_id: str, title: str, puzzles: Sequence[str]) -> AssignmentRow:
        row = AssignmentRow(tokens.new_id("a"), class_id, title, tuple(puzzles))
        with self.transaction() as conn:
            conn.execute("INSERT INTO assignments VALUES (?, ?, ?, ?)", (row.id, class_id, title, now()))
            conn.executemany("INSERT INTO assignment_puzzles VALUES (?, ?, ?)",
                             [(row.id, place, puzzle) for place, puzzle in enumerate(puzzles)])
        return row

    def _puzzles_of(self, assignment_ids: Sequence[str]) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {a: [] for a in assignment_ids}
        marks = ",".join("?" * len(assignment_ids))
        for assignment_id, puzzle in self.query(
                f"SELECT assignment_id, puzzle FROM assignment_puzzles WHERE assignment_id IN ({marks}) "
                "ORDER BY assignment_id, place", assignment_ids):
            out[assignment_id].append(puzzle)
        return out

    def assignments(self, class_id: str) -> list[AssignmentRow]:
        rows = self.query("SELECT id, class_id, title FROM assignments WHERE class_id = ? "
                          "ORDER BY created, id", (class_id,))
        puzzles = self._puzzles_of([row[0] for row in rows])
        return [AssignmentRow(row[0], row[1], row[2], tuple(puzzles[row[0]])) for row in rows]

    def assignment(self, assignment_id: str) -> AssignmentRow | None:
        rows = self.query("SELECT id, class_id, title FROM assignments WHERE id = ?", (assignment_id,))
        if not rows:
            return None
        row = rows[0]
        return AssignmentRow(row[0], row[1], row[2], tuple(self._puzzles_of([assignment_id])[assignment_id]))

    # ----------------------------------------------------------- attempts

    def answered(self, pupil_id: str, client_id: str) -> dict[str, Any] | None:
        """The answer already given to this pupil's attempt `client_id`, if it was stored."""
        rows = self.query("SELECT answer FROM attempts WHERE pupil_id = ? AND client_id = ?",
                          (pupil_id, client_id))
        return json.loads(rows[0][0]) if rows else None

    def add_attempt(self, pupil_id: str, assignment_id: str, puzzle: str, moves: Sequence[str],
                    answer: dict[str, Any], client_id: str | None) -> dict[str, Any]:
        """Store an attempt with its answer; the answer stored first for a repeated `client_id`."""
        refused = answer.get("refused")
        with self.transaction() as conn:
            if client_id is not None:
                row = conn.execute("SELECT answer FROM attempts WHERE pupil_id = ? AND client_id = ?",
                                   (pupil_id, client_id)).fetchone()
                if row:
                    stored: dict[str, Any] = json.loads(row[0])
                    return stored
            conn.execute(
                "INSERT INTO attempts (pupil_id, assignment_id, puzzle, moves, result, refused_rule, "
                "client_id, answer, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (pupil_id, assignment_id, puzzle, json.dumps(list(moves)), answer["result"],
                 refused["rule"] if refused else None, client_id, json.dumps(answer), now()))
        return answer

    def attempts_of_pupil(self, pupil_id: str) -> list[AttemptRow]:
        return [AttemptRow(*row) for row in self.query(
            "SELECT id, pupil_id, assignment_id, puzzle, result, refused_rule, at FROM attempts "
            "WHERE pupil_id = ? ORDER BY id", (pupil_id,))]

    def attempts_of_class(self, class_id: str) -> list[AttemptRow]:
        return [AttemptRow(*row) for row in self.query(
            "SELECT a.id, a.pupil_id, a.assignment_id, a.puzzle, a.result, a.refused_rule, a.at "
            "FROM attempts a JOIN pupils p ON p.id = a.pupil_id WHERE p.class_id = ? ORDER BY a.id",
            (class_id,))]

    def all_attempts(self) -> list[AttemptRow]:
        """Every attempt of every class, oldest first: the games the ratings are made of."""
        return [AttemptRow(*row) for row in self.query(
            "SELECT id, pupil_id, assignment_id, puzzle, result, refused_rule, at FROM attempts ORDER BY id")]

    def count_attempts(self) -> int:
        return int(self.query("SELECT count(*) FROM attempts")[0][0])
