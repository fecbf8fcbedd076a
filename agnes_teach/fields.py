"""The one table of the fields of scenario and position files.

Every key a file may hold is declared here once, with its shape (type, the
patterns of cards and moves, size limits) and a sentence saying what it must
be.  From this table come both the JSON Schema that ``agnes-teach schema``
prints for editors and the validation the loader runs on every file (the
loader validates against that very schema with ``jsonschema``, then converts
the values: a move field becomes a ``MoveText``, a pile a tuple of cards).  So
the schema and the loader state the same rules, and nothing downstream parses
text again.

What depends on the profile or on the cards together (how many columns, which
cards are missing, whether a stock of that size can happen) is checked by
``parse_position`` after the shapes are known to be right.

To add a scenario key, add one ``Field`` line to ``SCENARIO_FIELDS`` (or
``EXPECT_FIELDS``); the schema, the loader and the tests follow.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from .cards import Card, CardError, parse_card, parse_rank
from .moves import MoveSyntaxError, MoveText, parse_move_text, split_moves
from .piles import Pile

DRAFT = "https://json-schema.org/draft/2020-12/schema"

# Limits.  A whole game rarely needs 300 moves (the longest solution the solver
# wrote for deals 1-1000 has well under that), and every move is replayed, drawn
# and printed: 1,000 keeps a worksheet's answer key to a few pages.
MAX_MOVES = 1000
MAX_PILE = 52
MAX_PILES = 16
MAX_TEXT = 2000
MAX_MOVES_TEXT = 20 * MAX_MOVES
MAX_LIST = MAX_MOVES  # no list or mapping in these files holds more entries

# Patterns shared by the schema and the parsers' tests (tests/test_fields.py
# checks that a text matches a pattern exactly when the parser accepts it).
_SEP = r"[\s,;]"
RANK_PATTERN = r"(?:10|[2-9AaJjQqKkTt])"
CARD_TEXT = RANK_PATTERN + r"[SsHhDdCc♠♥♦♣][\ufe0e\ufe0f]*"
_PILE_NAME = r"[TtRrXx][1-9][0-9]?"
_DEST = r"(?:[Ff]|" + _PILE_NAME + ")"
MOVE_TEXT = r"(?:[Dd][Ee][Aa][Ll]|(?:" + CARD_TEXT + "|" + _PILE_NAME + r")\s*(?:->|→|>)\s*" + _DEST + ")"
CARD_PATTERN = r"^\s*" + CARD_TEXT + r"\s*$"
# The counts are part of the patterns, so the schema states the limits too.
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


# ------------------------------------------------------------------ shapes


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
                    one_card = isinstance(value, str) or _full_match(CARD_PATTERN, token)
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
                                                     and not _full_match(MOVE_PATTERN, text)):
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
                if not _full_match(self.keys, key):
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
        super().__init__(options=(inner, _Null()), expects=inner.expects)
        self.inner = inner

    def child(self, key: object) -> Shape | None:
        return self.inner.child(key)

    def explain(self, value: object) -> str:
        return self.inner.explain(value)

    def convert(self, value: Any) -> Any:
        return None if value is None else self.inner.convert(value)


class _Null(Shape):
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


def _full_match(pattern: str, text: object) -> bool:
    return isinstance(text, str) and re.search(pattern, text) is not None


# ------------------------------------------------------------------ the table


def _rule_ids() -> tuple[str, ...]:
    from .registry import rules

    return tuple(rules())


def _profile_ids() -> tuple[str, ...]:
    from .profile import profile_ids

    return tuple(profile_ids())


TASKS = ("win", "key-move", "legal-moves", "trap")
DIFFICULTIES = ("easy", "medium", "hard")


@cache
def position_record() -> Record:
    return Record(name="a position", fields=(
        Field("profile", ProfileName(_profile_ids(), what="profile"),
              "The variant profile: a shipped profile's id, or the path of a house-rules profile file "
              "ending in .yaml (a relative path is read from the scenario's folder first, then from the "
              "working folder); bernauer when left out."),
        Field("base", Rank(), "The base rank: the rank every foundation starts from (A, 2..10, J, Q, K). "
              "Required in profiles that deal a base card."),
        Field("foundations", Nullable(MapOf(
            keys=SUIT_KEY_PATTERN, key_words="a suit (S, H, D, C)", value=CardShape(foundation=True),
            max_items=8)),
            "Each suit's top card: {H: 6H}.  A suit left out has an empty foundation."),
        Field("tableau", Piles("t", "columns"), "The columns t1, t2, ... each bottom to top.", required=True),
        Field("reserve", Piles("r", "reserve piles"), "The reserve piles r1, r2, ... each bottom to top."),
        Field("stock", PileShape(), "The stock in dealing order: the first card is dealt first."),
        Field("exposed", Nullable(ListOf(PileShape(), max_items=2)),
              "The exposed cells: the cards they hold, 0 to 2 (x1 first), or one entry per cell "
              "([KH, []]: x1 holds K♥, x2 is empty)."),
    ))


def _title() -> Shape:
    return AnyOf(options=(Text("a title"), MapOf(keys=LANG_PATTERN, key_words="a language code (en, ru, es)",
                                                   value=Text("a title"), min_items=1, max_items=20)),
                 expects="a title, or a mapping from a language code to a title (en: ..., ru: ...)")


@cache
def expect_record() -> Record:
    rule_id = Choice(_rule_ids(), what="rule id")
    return Record(name="expect", fields=(
        Field("winnable", Boolean(), "Claim: the position can be won (true) or cannot (false)."),
        Field("key_move", MoveShape(), "Claim: the only first move that keeps the win."),
        Field("trap_move", MoveShape(), "Claim: a legal first move that loses although the position is won."),
        Field("legal", MovesShape(), "Claim: exactly these moves are legal (in any order)."),
        Field("illegal", MapOf(keys=MOVE_PATTERN, key_words="a move such as 6H>f", value=rule_id,
                                    min_items=1, max_items=200, key_shape=MoveShape()),
              "Claim: each move is refused, by the rule id given."),
    ))


@cache
def scenario_record() -> Record:
    rule_id = Choice(_rule_ids(), what="rule id")
    return Record(name="a scenario", fields=(
        Field("id", AnyOf(options=(Text("an id", max_length=200, single_line=True), Integer()),
                          expects="an id: one line of text, unique among the files checked together"),
              "A name for the scenario, unique among the files checked together.", required=True),
        Field("title", _title(), "The title shown on worksheets: one text, or one per language."),
        Field("task", Choice(TASKS, what="task"), "What the reader is asked to do."),
        Field("themes", Nullable(ListOf(rule_id, max_items=50,
                                        words="a list of rule ids, such as [tableau.empty]")),
              "The rule ids the scenario teaches."),
        Field("position", position_record(), "The position (see the position fields).", required=True),
        Field("solution", Nullable(MovesShape()),
              "A line of play; for task win it must bring all 52 cards home."),
        Field("expect", Nullable(expect_record()), "Claims about the position, each checked."),
        # Written by the generator; information only.
        Field("difficulty", Choice(DIFFICULTIES, what="difficulty"), "Information: the rated difficulty."),
        Field("generator", Text("a text", single_line=True), "Information: the generator version."),
        Field("seed", AnyOf(options=(Integer(), MapOf(keys="^[a-z_]+$", key_words="a name",
                                                      value=Integer(minimum=-(2**63)))),
                            expects="a number or a mapping of names to numbers"),
              "Information: the seeds the generator used."),
        Field("distractor", MapOf(keys="^[a-z_]+$", key_words="a name", value=Text("a text")),
              "Information: the tempting wrong move and how it was refuted."),
        Field("notes", Text("a text", max_length=20_000), "Information: free notes."),
        Field("instruction", _title(), "Information: an instruction, one text or one per language."),
        # Teaching (issue 8).
        Field("stock_shown", Boolean(), "The sheet shows the stock face up, in dealing order (so a fair "
              "hint hides nothing); without it every claim must hold for every order of the "
              "face-down stock."),
        Field("source", Text("a text", single_line=True),
              "Information: where the position comes from (built, or deal N move K)."),
        Field("hidden_stock", Text("a text"),
              "Information: how the claims were shown to hold for every order of the face-down stock."),
        Field("measured", MapOf(keys="^[a-z_]+$", key_words="a name", value=Integer()),
              "Information: the generator's measured play (random_win_percent, decisions, refute_depth)."),
    ))


def position_schema() -> dict[str, Any]:
    return position_record().schema()


@cache
def file_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a scenario file or a bare position file."""
    return {
        "$schema": DRAFT,
        "title": "agnes-teach scenario or position file",
        "description": "A scenario (id, task, position, solution, expect, ...) or a bare position "
        "(profile, base, foundations, tableau, reserve, stock, exposed).  A file with a position: key "
        "is a scenario.  Pile counts, card conservation and the stock size depend on the profile and "
        "are checked by agnes-teach itself.",
        "$defs": {"position": position_schema()},
        "if": {"type": "object", "required": ["position"]},
        "then": {**scenario_record().schema(), "properties": {
            **scenario_record().schema()["properties"],
            "position": {"description": scenario_record().field("position").doc,  # type: ignore[union-attr]
                         "$ref": "#/$defs/position"},
        }},
        "else": {"$ref": "#/$defs/position"},
    }


# ------------------------------------------------------------------ validation


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


def _root_shape(data: object, which: str) -> Record:
    if which == "file" and isinstance(data, dict) and "position" in data:
        return scenario_record()
    return position_record()


def shape_issues(data: object, which: str = "file") -> list[Issue]:
    """Every shape problem of a loaded file (``which="file"``) or position, once each; [] if none."""
    early = _walk_issues(data)
    if early:
        return early
    root = _root_shape(data, which)
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


def convert(data: Any, which: str = "file") -> dict[str, Any]:
    """The values of a file whose shapes are right, converted (moves parsed, piles as cards)."""
    return _root_shape(data, which).convert(data)
