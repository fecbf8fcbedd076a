"""A folder of practice analyses kept between guide builds, so a rebuild analyses only what changed.

A practice page's analysis of a puzzle (:func:`agnes_teach.practice.analyse`) takes about a
second; the rest of a page, a few hundredths.  A teacher who adds a puzzle to a library of
hundreds and builds the guide again should wait for that puzzle, not for the library.

Each analysis is stored under a digest of everything it is computed from: the puzzle (its id,
game parameters, position and the claims its key is read from) and the package's own code
and data (every source, profile and catalogue file, so a changed rule or a new version
never reads an old answer).  A file that cannot be read as one is ignored and replaced;
files are written whole (a temporary file renamed), so two builds at once cannot leave half
of one.  The folder is the user's own cache (``$AGNES_TEACH_CACHE``, else
``$XDG_CACHE_HOME/agnes-teach``, else ``~/.cache/agnes-teach``): its files are Python
pickles, to be read only from a folder no one else writes.
"""

from __future__ import annotations

import dataclasses
import gzip
import hashlib
import json
import os
import pickle
import tempfile
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from .scenario import Scenario

FOLDER_ENV = "AGNES_TEACH_CACHE"
# Files whose text the analyses depend on: the code, the compiled core's source, profiles and data.
_CODE_SUFFIXES = (".py", ".c", ".yaml", ".yml", ".json", ".po")
# What a page entry holds (``render.practice.puzzle_entry``) when its puzzle plays.
_ENTRY_FIELDS = frozenset({"states", "graph", "keys", "dests", "auto_home", "empty", "nopile"})
_LEVEL = 1  # gzip: a graph of 10,000 states shrinks ninefold at the lowest level; higher ones gain little


def default_folder() -> Path:
    """Where the guide keeps its practice analyses by default."""
    own = os.environ.get(FOLDER_ENV)
    if own:
        return Path(own)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "agnes-teach"


@cache
def code_fingerprint() -> str:
    """A digest of the package's every source and data file, names and bytes."""
    root = Path(str(resources.files("agnes_teach")))
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.suffix in _CODE_SUFFIXES and p.is_file()):
        digest.update(path.relative_to(root).as_posix().encode("utf-8") + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def scenario_digest(scenario: Scenario) -> str:
    """The name of `scenario`'s analysis: what the analysis reads of it, and the code that reads it."""
    pos = scenario.position
    profile = tuple(getattr(pos.profile, f.name) for f in dataclasses.fields(pos.profile)
                    if f.name != "source")
    read = (scenario.id, profile, pos.base, pos.foundations, pos.tableau, pos.reserve, pos.exposed, pos.stock,
            scenario.task, tuple(scenario.themes), scenario.solution, sorted(scenario.expect.items()),
            scenario.answer)
    return hashlib.sha256(f"{code_fingerprint()}\n{read!r}".encode()).hexdigest()


class AnalysisCache:
    """Practice analyses kept in `folder` (see the module's text), by :func:`scenario_digest`."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder / "practice"
        self.hits = 0

    def _path(self, scenario: Scenario, lang: str | None = None) -> Path:
        digest = scenario_digest(scenario)
        name = f"{digest}.pickle.gz" if lang is None else f"{digest}-{lang}.json.gz"
        return self.folder / digest[:2] / name

    def has(self, scenario: Scenario) -> bool:
        """Is an analysis of `scenario` kept (:meth:`get` may still find it unreadable)?"""
        return self._path(scenario).is_file()

    def get(self, scenario: Scenario) -> tuple[bool, object]:
        """(True, the analysis kept) or (False, None) when none is kept or it cannot be read."""
        path = self._path(scenario)
        try:
            with gzip.open(path, "rb") as stream:
                got = pickle.load(stream)
        except Exception:  # noqa: BLE001 - none kept, or a damaged or foreign file: analyse again
            return False, None
        self.hits += 1
        return True, got

    def put(self, scenario: Scenario, analysis: object) -> None:
        """Keep `analysis`; a folder that cannot be written costs only the next build's time."""
        _write(self._path(scenario), pickle.dumps(analysis, protocol=pickle.HIGHEST_PROTOCOL))

    def get_entry(self, scenario: Scenario, lang: str) -> dict[str, Any] | None:
        """What a page in `lang` embeds of `scenario` (``render.practice.puzzle_entry``), if kept."""
        try:
            with gzip.open(self._path(scenario, lang), "rb") as stream:
                got = json.loads(stream.read().decode("utf-8"))
        except (OSError, EOFError, ValueError):  # none kept, or damaged: encode it again
            return None
        if not isinstance(got, dict) or not ("unplayable" in got or got.keys() >= _ENTRY_FIELDS):
            return None  # not an entry this version writes: encode it again
        self.hits += 1
        return got

    def put_entry(self, scenario: Scenario, lang: str, entry: dict[str, Any]) -> None:
        _write(self._path(scenario, lang), json.dumps(entry, ensure_ascii=False).encode("utf-8"))


def _write(path: Path, data: bytes) -> None:
    """`data` gzip-compressed into `path`, whole or not at all (a folder that cannot be written costs
    only the next build's time)."""
    tmp_name: str | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".tmp", delete=False) as tmp:
            tmp_name = tmp.name
            with gzip.GzipFile(fileobj=tmp, mode="wb", compresslevel=_LEVEL, mtime=0) as stream:
                stream.write(data)
        os.replace(tmp_name, path)
    except OSError:
        if tmp_name is not None:
            Path(tmp_name).unlink(missing_ok=True)
