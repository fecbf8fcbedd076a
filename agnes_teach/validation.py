"""Validation of a loaded file against the schema, each problem as a message that names its place.

``jsonschema`` finds what is wrong; this module says it the way a person
fixes it: ``t3: not a card: 'ZZ'`` rather than a schema path, one message per
place, the one alternative of an ``anyOf`` that fits the value followed to
its precise error.  The words come from the shapes (``agnes_teach.shapes``)
of the field tables (``agnes_teach.fields``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from .fields import DRAFT, file_schema, position_schema, root_record
from .limits import MAX_LIST
from .piles import Pile
from .shapes import ListOf, MovesShape, Nullable, Piles, Record, Shape

Path_ = tuple[str | int, ...]


@dataclass(frozen=True)
class Issue:
    """One shape problem: where (keys and indexes from the top of the file) and what."""

    path: Path_
    message: str


def _walk_issues(data: object) -> list[Issue]:
    """Before the schema: mapping keys that are not text (``no:`` reads as false, ``1:`` as a
    number), and lists or mappings too long for any field (their every entry would be an error)."""
    found: list[Issue] = []
    stack: list[tuple[object, Path_]] = [(data, ())]
    while stack:
        node, at = stack.pop()
        if isinstance(node, (dict, list)) and len(node) > MAX_LIST:
            found.append(Issue(at, _prefix(at, f"has {len(node)} entries; no list or mapping in these "
                                               f"files holds more than {MAX_LIST}")))
        elif isinstance(node, dict):
            for key, value in node.items():
                if not isinstance(key, str):
                    found.append(Issue(at, _prefix(at, f"the key {key!r} must be text: put it in quotes")))
                else:
                    stack.append((value, (*at, key)))
        elif isinstance(node, list):
            stack.extend((v, (*at, i)) for i, v in enumerate(node))
    return found


def _label(path: Path_, root: Shape | None = None) -> str:
    """How a message names a place: ``t3``, ``expect.legal, move 2``, ``foundations.H``."""
    keys = list(path)
    shape: Shape | None = root
    if keys and keys[0] == "position":
        keys = keys[1:]
        shape = shape.child("position") if shape is not None else None
    out = ""
    for key in keys:
        parent, shape = shape, (shape.child(key) if shape is not None else None)
        if isinstance(parent, Piles) and isinstance(key, int):
            return f"{parent.kind}{key + 1}"  # a pile is named by itself; a card in it by the message
        if isinstance(parent, Nullable) and isinstance(parent.inner, ListOf) and isinstance(key, int) \
                and out == "exposed":
            return Pile.exposed(key + 1)
        if isinstance(key, int):
            word = "move" if isinstance(parent, MovesShape) else "entry"
            out += f", {word} {key + 1}" if out else f"{word} {key + 1}"
        else:
            out += ("." if out else "") + key
    return out


def _shape_at(root: Shape, path: Path_) -> Shape | None:
    shape: Shape | None = root
    for key in path:
        if shape is None:
            return None
        shape = shape.child(key)
    return shape


@cache
def _validator(which: str) -> Any:
    from jsonschema import Draft202012Validator

    schema = file_schema() if which == "file" else {"$schema": DRAFT, **position_schema()}
    return Draft202012Validator(schema)


def shape_issues(data: object, which: str = "file") -> list[Issue]:
    """Every shape problem of a loaded file (``which="file"``) or position, once each; [] if none."""
    early = _walk_issues(data)
    if early:
        return early
    root = root_record(data, which)
    issues: dict[Path_, Issue] = {}
    for error in _validator(which).iter_errors(data):
        for issue in _issues_of(error, root, data):
            issues.setdefault(issue.path, issue)
    return list(issues.values())


def _is_type_miss(error: Any, depth: int) -> bool:
    return error.validator in ("type", "const") and len(error.absolute_path) == depth


def _issues_of(error: Any, root: Record, doc: object) -> list[Issue]:
    path: Path_ = tuple(error.absolute_path)
    if error.validator in ("anyOf", "oneOf") and error.context:
        # Follow the one alternative whose type fits the value: its errors are precise.
        branches: dict[object, list[Any]] = {}
        for sub in error.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)
        fitting = [errs for errs in branches.values() if not any(_is_type_miss(e, len(path)) for e in errs)]
        if len(fitting) == 1:
            errs = fitting[0]
            own = [e for e in errs if len(e.absolute_path) == len(path)]
            if own and not isinstance(_core(_shape_at(root, path)), Record):
                errs = own  # "one move, here a list of 2" says it all; skip what is wrong inside
            return [issue for sub in errs for issue in _issues_of(sub, root, doc)]
    shape = _core(_shape_at(root, path))
    value = error.instance
    while shape is None and path:
        # No shape of its own (an entry inside a one-move list): explain the nearest value that has one.
        path = path[:-1]
        shape = _shape_at(root, path)
        value = _value_at(doc, path)
    if error.validator == "additionalProperties" and isinstance(shape, Record) and isinstance(value, dict):
        return [Issue((*path, k), _prefix(path, shape.unknown_key(k), root))
                for k in value if shape.field(k) is None]
    if error.validator == "required" and isinstance(shape, Record) and isinstance(value, dict):
        return [Issue((*path, k), _prefix(path, shape.missing_key(k), root)) for k in shape.key_names()
                if k not in value and (f := shape.field(k)) is not None and f.required]
    if shape is None:
        return [Issue(path, _prefix(path, error.message, root))]
    return [Issue(path, _prefix(path, shape.explain(value), root))]


def _core(shape: Shape | None) -> Shape | None:
    return shape.inner if isinstance(shape, Nullable) else shape


def _value_at(doc: object, path: Path_) -> object:
    node = doc
    for key in path:
        node = node[key]  # type: ignore[index]
    return node


def _prefix(path: Path_, message: str, root: Shape | None = None) -> str:
    label = _label(path, root)
    last = label.rsplit(".", 1)[-1]
    if not label or message.startswith((f"unknown {last} ", f"'{last}'")):  # names its place already
        return message
    return f"{label}: {message}"
