"""The shape framework: what one value of a scenario or position file may be.

A :class:`Shape` states a value's form three ways at once: as JSON Schema
(``schema``), in words for a message (``expects``, ``explain``: what is wrong
and the fix) and as the conversion the loader applies (``convert``: move text
to ``MoveText``, a pile to a tuple of cards).  The patterns of cards and moves
are built from the texts ``cards`` and ``moves`` state and parse with, so the
schema and the parsers agree.  The tables of the files' fields are in
``agnes_teach.fields``; turning jsonschema's errors into those messages is
``agnes_teach.validation``.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from .cards import CARD_TEXT, Card, CardError, parse_card, parse_rank
from .limits import MAX_MOVES, MAX_MOVES_TEXT, MAX_PILE, MAX_PILES, MAX_TEXT
from .moves import MOVE_TEXT, SEPARATOR_TEXT, MoveSyntaxError, MoveText, parse_move_text, split_moves

# Patterns of the schema; tests/test_fields.py checks that a text matches a pattern exactly
# when the parser accepts it.  The counts are part of the patterns, so the schema states the
# limits too.
_SEP = SEPARATOR_TEXT
CARD_PATTERN = r"^\s*" + CARD_TEXT + r"\s*$"
PILE_PATTERN = ("^" + _SEP + "*(?:" + CARD_TEXT + "(?:" + _SEP + "+" + CARD_TEXT + f"){{0,{MAX_PILE - 1}}})?"
                + _SEP + "*$")
MOVE_PATTERN = "^" + _SEP + "*" + MOVE_TEXT + _SEP + "*$"
MOVES_PATTERN = ("^" + _SEP + "*(?:" + MOVE_TEXT + "(?:" + _SEP + "+" + MOVE_TEXT
                 + f"){{0,{MAX_MOVES - 1}}})?" + _SEP + "*$")
RANK_TEXT_PATTERN = r"^\s*(?:10|[2-9AaJjQqKkTt1])\s*$"
SUIT_KEY_PATTERN = r"^\s*[SsHhDdCc♠♥♦♣]\s*$"
LANG_PATTERN = r"^[a-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})?$"
_CONTROL = "[\\u0000-\\u0008\\u000b-\\u001f\\u007f]"  # any control character but tab and newline


def split_tokens(text: str) -> list[str]:
    """Cards or moves in one text: separated by spaces, commas or semicolons (as moves are)."""
    return split_moves(text)


def describe(value: object) -> str:
    """What a value is, for a message: 'a list of 2', 'the number 5', "'ZZ'"."""
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return f"{str(value).lower()} (a yes/no value)"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    if isinstance(value, str):
        shown = value if len(value) <= 60 else value[:57] + "..."
        return repr(shown)
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return "a mapping"
    return f"a YAML value of type {type(value).__name__}"


class Shape:
    """The form of one value: its JSON Schema, what it must be in words, and its conversion."""

    expects = "a value"
    python_types: tuple[type, ...] = (object,)  # what a converted value of this shape is loaded as

    def schema(self) -> dict[str, Any]:
        raise NotImplementedError

    def child(self, key: object) -> Shape | None:
        return None

    def explain(self, value: object) -> str:
        """Why `value` does not fit, naming the fix."""
        return f"must be {self.expects}; here it is {describe(value)}"

    def convert(self, value: Any) -> Any:
        return value


@dataclass
class Text(Shape):
    python_types = (str,)
    expects: str = "a text"
    max_length: int = MAX_TEXT
    single_line: bool = False

    def schema(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "string", "minLength": 1, "maxLength": self.max_length}
        out["not"] = {"pattern": "[\\u0000-\\u001f\\u007f]" if self.single_line else _CONTROL}
        return out

    def explain(self, value: object) -> str:
        if isinstance(value, str):
            if not value:
                return f"must be {self.expects}, not empty"
            if len(value) > self.max_length:
                return f"is too long ({len(value)} characters; at most {self.max_length})"
            return f"must be {self.expects} without control characters"
        return super().explain(value)


@dataclass
class Choice(Shape):
    python_types = (str,)
    values: tuple[str, ...] = ()
    what: str = "value"

    @property
    def expects(self) -> str:  # type: ignore[override]
        return f"one of: {', '.join(self.values)}"

    def schema(self) -> dict[str, Any]:
        return {"enum": list(self.values)}

    def explain(self, value: object) -> str:
        if isinstance(value, str):
            close = difflib.get_close_matches(value, self.values, n=1)
            hint = f"; did you mean {close[0]}?" if close else ""
            return f"unknown {self.what} {value!r} (known: {', '.join(self.values)}){hint}"
        return super().explain(value)


@dataclass
class Member(Choice):
    """A word of one of the registry's vocabularies (a task, a difficulty): loaded as its member."""

    vocabulary: type[StrEnum] | None = None

    @classmethod
    def of(cls, vocabulary: type[StrEnum], what: str) -> Member:
        return cls(tuple(m.value for m in vocabulary), what=what, vocabulary=vocabulary)

    def convert(self, value: Any) -> Any:
        return value if self.vocabulary is None else self.vocabulary(value)


PROFILE_FILE_PATTERN = r"[^\u0000-\u001f\u007f]+\.ya?ml"


@dataclass
class ProfileName(Choice):
    """A shipped profile's id, or the path of a profile file (house rules)."""

    @property
    def expects(self) -> str:  # type: ignore[override]
        return f"one of: {', '.join(self.values)}, or a profile file's path ending in .yaml"

    def schema(self) -> dict[str, Any]:
        return {"anyOf": [{"enum": list(self.values)},
                          {"type": "string", "maxLength": 1000, "pattern": f"^{PROFILE_FILE_PATTERN}$"}]}

    def explain(self, value: object) -> str:
        if isinstance(value, str):
            close = difflib.get_close_matches(value, self.values, n=1)
            hint = f"; did you mean {close[0]}?" if close else ""
            return (f"unknown profile {value!r} (known: {', '.join(self.values)}, or a profile file's path "
                    f"ending in .yaml){hint}")
        return super().explain(value)


@dataclass
class Boolean(Shape):
    expects: str = "true or false"

    def schema(self) -> dict[str, Any]:
        return {"type": "boolean"}


@dataclass
class Integer(Shape):
    python_types = (int, float)
    expects: str = "a whole number"
    minimum: int = 0
    maximum: int = 2**63 - 1

    def schema(self) -> dict[str, Any]:
        return {"type": "integer", "minimum": self.minimum, "maximum": self.maximum}

    def convert(self, value: Any) -> int:
        return int(value)


@dataclass
class Rank(Shape):
    expects: str = "a rank: A, 2..10, J, Q or K"

    def schema(self) -> dict[str, Any]:
        return {"anyOf": [{"type": "integer", "minimum": 1, "maximum": 13},
                          {"type": "string", "pattern": RANK_TEXT_PATTERN}]}

    def explain(self, value: object) -> str:
        if isinstance(value, (str, int)) and not isinstance(value, bool):
            try:
                parse_rank(value)
            except CardError as exc:
                return str(exc)
        return super().explain(value)

    def convert(self, value: Any) -> int:
        # JSON Schema counts 5.0 as an integer; the loader reads it as 5.
        return parse_rank(int(value) if isinstance(value, float) else value)


@dataclass
class CardShape(Shape):
    expects: str = "one card such as 6H, 10S or Q♦"
    foundation: bool = False  # a foundation is named by its top card; empty allowed

    def schema(self) -> dict[str, Any]:
        card = {"type": "string", "pattern": CARD_PATTERN}
        if not self.foundation:
            return card
        return {"anyOf": [card, {"type": "null"}, {"const": ""}, {"type": "array", "maxItems": 0}]}

    def explain(self, value: object) -> str:
        cards = value if isinstance(value, list) else split_tokens(value) if isinstance(value, str) else None
        if self.foundation and cards is not None and len(cards) > 1:
            tops = [c for c in cards if isinstance(c, str)]
            top = tops[-1].strip() if tops else "KH"
            return f"a foundation is written as its top card only, such as {top} (here {len(cards)} cards)"
        if isinstance(value, str):
            try:
                parse_card(value)
            except CardError as exc:
                return str(exc)
        return super().explain(value)

    def convert(self, value: Any) -> Card | None:
        if value is None or value == "" or value == []:
            return None
        return parse_card(value)


@dataclass
class PileShape(Shape):
    """A pile bottom to top: ``7S 6H`` (spaces or commas between cards), ``[7S, 6H]``, or ``[]``."""

    expects: str = "cards bottom to top, such as 7S 6H or [7S, 6H] ([] for an empty pile)"

    def schema(self) -> dict[str, Any]:
        return {"anyOf": [
            {"type": "string", "pattern": PILE_PATTERN, "maxLength": 8 * MAX_PILE},
            {"type": "array", "items": {"type": "string", "pattern": CARD_PATTERN}, "maxItems": MAX_PILE},
            {"type": "null"},
        ]}

    def child(self, key: object) -> Shape | None:
        return CardShape() if isinstance(key, int) else None

    def explain(self, value: object) -> str:
        tokens: list[object] | None = None
        if isinstance(value, str):
            tokens = list(split_tokens(value))
        elif isinstance(value, list):
            tokens = list(value)
        if tokens is not None:
            if len(tokens) > MAX_PILE:
                return f"holds {len(tokens)} cards; a pile holds at most {MAX_PILE}"
            bad: list[str] = []
            for token in tokens[:MAX_PILE + 1]:
                try:
                    one_card = isinstance(value, str) or full_match(CARD_PATTERN, token)
                    if isinstance(token, str) and one_card:
                        parse_card(token)
                    else:
                        raise CardError(f"not a card: {token!r}")
                except CardError as exc:
                    bad.append(str(exc))
            if bad:
                more = "; and more cards that are not cards" if len(bad) > 3 else ""
                return "; ".join(bad[:3]) + more
        return f"must be {self.expects}; here it is {describe(value)}"

    def convert(self, value: Any) -> tuple[Card, ...]:
        if value is None:
            return ()
        tokens = split_tokens(value) if isinstance(value, str) else value
        return tuple(parse_card(t) for t in tokens)


@dataclass
class Piles(Shape):
    kind: str = "t"
    what: str = "columns"
    max_items: int = MAX_PILES

    @property
    def expects(self) -> str:  # type: ignore[override]
        return f"a list of {self.what}, {self.kind}1 first, each a pile such as 7S 6H ([] when empty)"

    def schema(self) -> dict[str, Any]:
        return {"anyOf": [{"type": "array", "items": PileShape().schema(), "maxItems": self.max_items},
                          {"type": "null"}]}

    def child(self, key: object) -> Shape | None:
        return PileShape() if isinstance(key, int) else None

    def convert(self, value: Any) -> list[tuple[Card, ...]] | None:
        if value is None:
            return None
        return [PileShape().convert(v) for v in value]


@dataclass
class MoveShape(Shape):
    expects: str = "one move, such as 6H>f, 4C>t2, r3>f or deal"

    def schema(self) -> dict[str, Any]:
        one = {"type": "string", "pattern": MOVE_PATTERN, "maxLength": 200}
        return {"anyOf": [one, {"type": "array", "items": one, "minItems": 1, "maxItems": 1}]}

    def explain(self, value: object) -> str:
        texts = split_tokens(value) if isinstance(value, str) else value if isinstance(value, list) else None
        if texts is not None and len(texts) != 1:
            found = f"{describe(value)} moves" if isinstance(value, list) else describe(value)
            return f"must be one move, such as 6H>f or deal; here it is {found}"
        if texts is not None and isinstance(texts[0], str):
            try:
                parse_move_text(texts[0])
            except MoveSyntaxError as exc:
                return str(exc)
        return super().explain(value)

    def convert(self, value: Any) -> MoveText:
        text = value[0] if isinstance(value, list) else value
        (only,) = split_tokens(text)
        return parse_move_text(only)


@dataclass
class MovesShape(Shape):
    expects: str = "moves in order, such as 6H>f 4C>t2 deal (spaces or commas between them), or a list"

    def schema(self) -> dict[str, Any]:
        one = {"type": "string", "pattern": MOVE_PATTERN, "maxLength": 200}
        return {"anyOf": [
            {"type": "string", "pattern": MOVES_PATTERN, "maxLength": MAX_MOVES_TEXT},
            {"type": "array", "items": one, "maxItems": MAX_MOVES},
        ]}

    def child(self, key: object) -> Shape | None:
        return MoveShape() if isinstance(key, int) else None

    def explain(self, value: object) -> str:
        texts: list[object] | None = None
        if isinstance(value, str):
            if len(value) > MAX_MOVES_TEXT:
                return f"is too long ({len(value)} characters; at most {MAX_MOVES_TEXT})"
            texts = list(split_tokens(value))
            if len(texts) > MAX_MOVES:
                return f"holds {len(texts)} moves; at most {MAX_MOVES}"
        elif isinstance(value, list):
            if len(value) > MAX_MOVES:
                return f"holds {len(value)} moves; at most {MAX_MOVES}"
            texts = list(value)
        if texts is not None:
            for i, text in enumerate(texts, start=1):
                try:
                    if not isinstance(text, str) or (isinstance(value, list)
                                                     and not full_match(MOVE_PATTERN, text)):
                        raise MoveSyntaxError(f"not a move: {describe(text)} (one move per entry of a list)")
                    parse_move_text(text)
                except MoveSyntaxError as exc:
                    return f"move {i}: {exc}"
        return super().explain(value)

    def convert(self, value: Any) -> list[MoveText]:
        texts = split_tokens(value) if isinstance(value, str) else [split_tokens(v)[0] for v in value]
        return [parse_move_text(t) for t in texts]


@dataclass
class ListOf(Shape):
    python_types = (list,)
    item: Shape = field(default_factory=Shape)
    max_items: int = 100
    unique: bool = False
    words: str = ""  # what the list is, when the item's own words would be too long

    @property
    def expects(self) -> str:  # type: ignore[override]
        return self.words or f"a list, each entry {self.item.expects}"

    def schema(self) -> dict[str, Any]:
        out = {"type": "array", "items": self.item.schema(), "maxItems": self.max_items}
        if self.unique:
            out["uniqueItems"] = True
        return out

    def child(self, key: object) -> Shape | None:
        return self.item if isinstance(key, int) else None

    def explain(self, value: object) -> str:
        if isinstance(value, list) and self.unique and len(set(map(repr, value))) < len(value):
            return "names an entry twice"
        return super().explain(value)

    def convert(self, value: Any) -> list[Any]:
        return [self.item.convert(v) for v in value]


@dataclass
class MapOf(Shape):
    """A mapping with free keys of one pattern, e.g. a language code to a title."""

    python_types = (dict,)

    keys: str = ".*"
    key_words: str = "a key"
    value: Shape = field(default_factory=Shape)
    min_items: int = 0
    max_items: int = 100
    key_shape: Shape | None = None  # converts the keys too (a move named as a key)

    @property
    def expects(self) -> str:  # type: ignore[override]
        return f"a mapping from {self.key_words} to {self.value.expects}"

    def schema(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "object", "propertyNames": {"pattern": self.keys},
                               "additionalProperties": self.value.schema(), "maxProperties": self.max_items}
        if self.min_items:
            out["minProperties"] = self.min_items
        return out

    def child(self, key: object) -> Shape | None:
        return self.value

    def explain(self, value: object) -> str:
        if isinstance(value, dict):
            if len(value) < self.min_items:
                return f"is empty: give at least one entry ({self.key_words} to {self.value.expects}), " \
                       "or leave the key out"
            for key in value:
                if not full_match(self.keys, key):
                    return f"{key!r} is not {self.key_words}"
        return super().explain(value)

    def convert(self, value: Any) -> dict[Any, Any]:
        key = self.key_shape.convert if self.key_shape is not None else (lambda k: k)
        return {key(k): self.value.convert(v) for k, v in value.items()}


@dataclass
class AnyOf(Shape):
    """One of several shapes (a title: one text, or one per language)."""

    options: tuple[Shape, ...] = ()
    expects: str = "a value"

    def schema(self) -> dict[str, Any]:
        return {"anyOf": [o.schema() for o in self.options]}

    def child(self, key: object) -> Shape | None:
        for option in self.options:
            if isinstance(option, (MapOf, Record)) and not isinstance(key, int):
                return option.child(key)
            if isinstance(option, ListOf) and isinstance(key, int):
                return option.child(key)
        return None

    def explain(self, value: object) -> str:
        for option in self.options:
            if isinstance(value, dict) and isinstance(option, (MapOf, Record)):
                return option.explain(value)
            if isinstance(value, str) and isinstance(option, Text):
                return option.explain(value)
        return super().explain(value)

    def convert(self, value: Any) -> Any:
        for option in self.options:
            if isinstance(value, option.python_types) and not isinstance(value, bool):
                return option.convert(value)
        return value


class Nullable(AnyOf):
    def __init__(self, inner: Shape) -> None:
        super().__init__(options=(inner, Null()), expects=inner.expects)
        self.inner = inner

    def child(self, key: object) -> Shape | None:
        return self.inner.child(key)

    def explain(self, value: object) -> str:
        return self.inner.explain(value)

    def convert(self, value: Any) -> Any:
        return None if value is None else self.inner.convert(value)


class Null(Shape):
    expects = "nothing"
    python_types = (type(None),)

    def schema(self) -> dict[str, Any]:
        return {"type": "null"}


@dataclass(frozen=True)
class Field:
    """One key of a mapping: its shape, what it means, whether it must be there."""

    key: str
    shape: Shape
    doc: str
    required: bool = False


@dataclass
class Record(Shape):
    """A mapping with a fixed set of keys, each a Field."""

    python_types = (dict,)

    name: str = "mapping"
    fields: tuple[Field, ...] = ()

    @property
    def expects(self) -> str:  # type: ignore[override]
        return f"a mapping ({', '.join(f.key for f in self.fields)})"

    def key_names(self) -> list[str]:
        return [f.key for f in self.fields]

    def field(self, key: object) -> Field | None:
        for f in self.fields:
            if f.key == key:
                return f
        return None

    def schema(self) -> dict[str, Any]:
        properties = {}
        for f in self.fields:
            properties[f.key] = {"description": f.doc, **f.shape.schema()}
        out: dict[str, Any] = {"type": "object", "properties": properties, "additionalProperties": False}
        required = [f.key for f in self.fields if f.required]
        if required:
            out["required"] = required
        return out

    def child(self, key: object) -> Shape | None:
        f = self.field(key)
        return f.shape if f is not None else None

    def unknown_key(self, key: object) -> str:
        known = self.key_names()
        close = difflib.get_close_matches(str(key), known, n=1) if isinstance(key, str) else []
        hint = f"; did you mean {close[0]!r}?" if close else f" (known: {', '.join(known)})"
        return f"unknown key {key!r} in {self.name}{hint}"

    def missing_key(self, key: str) -> str:
        f = self.field(key)
        what = f.shape.expects if f is not None else "a value"
        return f"{key!r} is missing: {what}"

    def explain(self, value: object) -> str:
        if not isinstance(value, dict):
            return f"{self.name} must be a YAML mapping ({', '.join(self.key_names()[:6])}, ...); " \
                   f"here it is {describe(value)}"
        return super().explain(value)

    def convert(self, value: Any) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, item in value.items():
            f = self.field(key)
            out[key] = f.shape.convert(item) if f is not None else item
        return out


def full_match(pattern: str, text: object) -> bool:
    """`text` is a string that `pattern` (anchored or not) finds in."""
    return isinstance(text, str) and re.search(pattern, text) is not None
