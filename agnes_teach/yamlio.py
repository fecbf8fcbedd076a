"""Safe YAML loading that remembers where each value came from.

Files are decoded as strict UTF-8, scanned for aliases before anything is
built (an alias bomb never expands), and loaded with the safe loader (tags
such as ``!!python/object`` are refused).  ``Locator`` maps a path of keys
and indexes back to a line, so problems can name it.  :func:`dump_yaml` is
the one writer of YAML the project prints or saves.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from .errors import InputError, Problem

MAX_BYTES = 2_000_000  # agnes_teach.limits says why
# Positions and scenarios nest four levels at most.  The event scan refuses deeper
# documents before anything is composed: the pure-Python scanner is quadratic in
# flow depth, and composing recurses.
MAX_YAML_DEPTH = 32
# libyaml when present: its parser is iterative and fast, so even a hostile file
# costs little to scan.
_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
PathKey = str | int
_YAML_TAG_PREFIX = "tag:yaml.org,2002:"


class _TracingLoader(_LOADER):  # type: ignore[valid-type,misc]
    """The safe loader, remembering the last node it began to build.

    A tag's constructor may refuse its value with any exception (``!!bool yes`` followed by more
    text is a ``KeyError``, a bad ``!!timestamp`` a ``ValueError``); the node names the line.
    """

    last_node: yaml.Node | None = None

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        self.last_node = node
        return super().construct_object(node, deep)


def _tag_name(tag: str) -> str:
    return "!!" + tag[len(_YAML_TAG_PREFIX):] if tag.startswith(_YAML_TAG_PREFIX) else tag


def _construct_problem(node: yaml.Node | None, file: str | None) -> Problem:
    """Why a tagged value could not be built, at its line."""
    if node is None:
        return Problem("not valid YAML: a value cannot be read", file)
    line = node.start_mark.line + 1
    if isinstance(node, yaml.ScalarNode):
        shown = node.value if len(node.value) <= 40 else node.value[:37] + "..."
        message = f"not valid YAML: the value {shown!r} cannot be read as {_tag_name(node.tag)}"
        return Problem(message, file, line)
    return Problem(f"not valid YAML: this value cannot be read as {_tag_name(node.tag)}", file, line)


@dataclass
class Locator:
    """Finds the 1-based line of a value inside a loaded YAML document."""

    file: str | None
    root: yaml.Node | None

    def line(self, *path: PathKey) -> int | None:
        node = self.root
        best: int | None = node.start_mark.line + 1 if node is not None else None
        for key in path:
            if node is None:
                break
            child: yaml.Node | None = None
            if isinstance(node, yaml.MappingNode):
                for k, v in node.value:
                    if isinstance(k, yaml.ScalarNode) and k.value == str(key):
                        child = v
                        break
            elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and 0 <= key < len(node.value):
                child = node.value[key]
            if child is None:
                break
            node = child
            best = node.start_mark.line + 1
        return best

    def problem(self, message: str, *path: PathKey) -> Problem:
        return Problem(message, self.file, self.line(*path))

    def at(self, *prefix: PathKey) -> Locator:
        """A locator for a sub-document (a scenario's ``position:``)."""
        node = self.root
        for key in prefix:
            nxt = None
            if isinstance(node, yaml.MappingNode):
                for k, v in node.value:
                    if isinstance(k, yaml.ScalarNode) and k.value == str(key):
                        nxt = v
            node = nxt
        return Locator(self.file, node)


def _mark_line(exc: yaml.YAMLError, text: str) -> int | None:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    if mark is not None:
        return int(mark.line) + 1
    position = getattr(exc, "position", None)  # a ReaderError (a control character) has only this
    if isinstance(position, int):
        return text.count("\n", 0, position) + 1
    return None


def _duplicate_keys(root: yaml.Node | None, file: str | None) -> list[Problem]:
    """A key given twice in one mapping: YAML loaders keep the last silently, so refuse it."""
    problems: list[Problem] = []
    stack = [root] if root is not None else []
    while stack:  # iterative: nesting depth is bounded only by the composer
        node = stack.pop()
        if isinstance(node, yaml.MappingNode):
            first: dict[str, int] = {}
            for key, value in node.value:
                if isinstance(key, yaml.ScalarNode):
                    line = key.start_mark.line + 1
                    if key.value in first:
                        message = f"key {key.value!r} is given twice (first on line {first[key.value]})"
                        problems.append(Problem(message, file, line))
                    else:
                        first[key.value] = line
                stack.append(value)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
    return sorted(problems, key=lambda p: p.line or 0)


def loads(text: str, file: str | None = None) -> tuple[Any, Locator]:
    """Parse one YAML document from text; InputError on any problem."""
    try:
        depth = 0
        for event in yaml.parse(text, Loader=_LOADER):
            line = event.start_mark.line + 1 if event.start_mark else None
            if isinstance(event, yaml.AliasEvent):
                raise InputError(Problem("YAML aliases (*name) are not allowed in these files", file, line))
            if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                depth += 1
                if depth > MAX_YAML_DEPTH:
                    raise InputError(Problem(
                        f"not valid here: lists and mappings nested more than {MAX_YAML_DEPTH} deep",
                        file, line))
            elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                depth -= 1
        loader = _TracingLoader(text)
        try:
            root = loader.get_single_node()
            duplicates = _duplicate_keys(root, file)
            if duplicates:
                raise InputError(duplicates)
            data = _construct(loader, root, file)
        finally:
            loader.dispose()
    except InputError:
        raise
    except yaml.YAMLError as exc:
        reason = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise InputError(Problem(f"not valid YAML: {reason}", file, _mark_line(exc, text))) from None
    except RecursionError:
        raise InputError(Problem("not valid YAML: nested too deeply", file)) from None
    return data, Locator(file, root)


def _construct(loader: _TracingLoader, root: yaml.Node | None, file: str | None) -> Any:
    """The document's values; any failure of a tag's constructor is the file's problem, not a crash."""
    if root is None:
        return None
    try:
        return loader.construct_document(root)
    except (yaml.YAMLError, RecursionError):
        raise
    except Exception:  # noqa: BLE001 - whatever a constructor raises, the file is at fault
        raise InputError(_construct_problem(loader.last_node, file)) from None


def read_limited(path: str | Path, limit: int = MAX_BYTES) -> bytes:
    """The bytes of a regular file of at most `limit` bytes; InputError otherwise.

    The kind and size are checked before anything is read: a FIFO would block,
    and a device such as /dev/zero never ends.
    """
    name = str(path)
    try:
        info = os.stat(path)
        if stat.S_ISDIR(info.st_mode):
            raise InputError(Problem("is a folder, not a file", name))
        if not stat.S_ISREG(info.st_mode):
            raise InputError(Problem("is not a regular file (a pipe, socket or device); "
                                     "name a file", name))
        if info.st_size > limit:
            raise InputError(Problem(f"too large ({info.st_size} bytes; at most {limit})", name))
        # O_NONBLOCK: should the file be swapped for a FIFO after the check, opening does not hang.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise InputError(Problem("is not a regular file", name))
            raw = handle.read(limit + 1)
    except FileNotFoundError:
        raise InputError(Problem("no such file", name)) from None
    except OSError as exc:
        raise InputError(Problem(f"cannot read: {exc.strerror}", name)) from None
    if len(raw) > limit:  # it grew after the check
        raise InputError(Problem(f"too large (more than {limit} bytes)", name))
    return raw


def load_file(path: str | Path) -> tuple[Any, Locator]:
    """Read and parse a YAML file; InputError naming the file on any problem."""
    name = str(path)
    raw = read_limited(path)
    if b"\x00" in raw:
        raise InputError(Problem("binary data, not a YAML text file", name))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise InputError(Problem("not UTF-8 text", name, line)) from None
    if not text.strip():
        raise InputError(Problem("the file is empty", name))
    return loads(text, name)


class _NoAliasDumper(yaml.SafeDumper):
    """Writes a value shared by two places twice, never as an anchor and alias (``&id001``)."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


class _FlowPilesDumper(_NoAliasDumper):
    """Lists of piles and short lists print on one line each, as in the hand-written files."""

    def represent_sequence(self, tag: str, sequence: Any,
                           flow_style: bool | None = None) -> yaml.SequenceNode:
        if flow_style is None:
            flow_style = all(isinstance(x, str | list) and not isinstance(x, dict) for x in sequence) and \
                all(not isinstance(x, list) or not x for x in sequence)
        return super().represent_sequence(tag, sequence, flow_style)


def dump_yaml(data: Any, *, flow_piles: bool = False) -> str:
    """`data` as YAML in the files' style: keys in their order, UTF-8 text, lines up to 100 wide.

    Block style throughout (a position printed by ``deal``), or with `flow_piles`
    the lists of piles on one line each (a scenario file the generator writes).
    """
    dumper = _FlowPilesDumper if flow_piles else _NoAliasDumper
    return yaml.dump(data, Dumper=dumper, sort_keys=False, allow_unicode=True, default_flow_style=False,
                     width=100)
