"""The one table of the fields of scenario and position files.

Every key a file may hold is declared here once, with its shape (type, the
patterns of cards and moves, size limits; ``agnes_teach.shapes``) and a
sentence saying what it must be.  From this table come both the JSON Schema
that ``agnes-teach schema`` prints for editors and the validation the loader
runs on every file (the loader validates against that very schema with
``jsonschema``, ``agnes_teach.validation``, then converts the values: a move
field becomes a ``MoveText``, a pile a tuple of cards).  So the schema and the
loader state the same rules, and nothing downstream parses text again.

What depends on the profile or on the cards together (how many columns, which
cards are missing, whether a stock of that size can happen) is checked by
``parse_position`` after the shapes are known to be right.

To add a scenario key, add one ``Field`` line to ``scenario_record`` (or
``expect_record``); the schema, the loader and the tests follow.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from .registry import Difficulty, Task
from .shapes import (
    LANG_PATTERN,
    MOVE_PATTERN,
    SUIT_KEY_PATTERN,
    AnyOf,
    Boolean,
    CardShape,
    Choice,
    Field,
    Integer,
    ListOf,
    MapOf,
    Member,
    MoveShape,
    MovesShape,
    Nullable,
    Piles,
    PileShape,
    ProfileName,
    Rank,
    Record,
    Shape,
    Text,
)

DRAFT = "https://json-schema.org/draft/2020-12/schema"


def _rule_ids() -> tuple[str, ...]:
    from .registry import rules

    return tuple(rules())


def _profile_ids() -> tuple[str, ...]:
    from .profile import profile_ids

    return tuple(profile_ids())


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
        Field("trap_move", MoveShape(), "Claim: a legal first move that loses although the position is won "
              "(the older, single form; trap_moves names them all)."),
        Field("trap_moves", ListOf(MoveShape(), max_items=200, unique=True,
                                   words="a list of moves, such as [10H>f, deal]"),
              "Claim: exactly these legal first moves lose, every one of them, although the position is "
              "won."),
        Field("legal", MovesShape(), "Claim: exactly these moves are legal (in any order)."),
        Field("illegal", MapOf(keys=MOVE_PATTERN, key_words="a move such as 6H>f", value=rule_id,
                                    min_items=1, max_items=200, key_shape=MoveShape()),
              "Claim: each move is refused, by the rule id given."),
    ))


@cache
def answer_record() -> Record:
    return Record(name="answer", fields=(
        Field("moves", Integer(minimum=0), "How many moves a shortest answer has.", required=True),
        Field("count", Integer(minimum=1), "How many answers (move sequences) are that short.",
              required=True),
        Field("alternatives", ListOf(MovesShape(), max_items=10,
                                     words="a list of answers, each moves in order"),
              "Other shortest answers, for the key to show."),
    ))


@cache
def scenario_record() -> Record:
    rule_id = Choice(_rule_ids(), what="rule id")
    return Record(name="a scenario", fields=(
        Field("id", AnyOf(options=(Text("an id", max_length=200, single_line=True), Integer()),
                          expects="an id: one line of text, unique among the files checked together"),
              "A name for the scenario, unique among the files checked together.", required=True),
        Field("title", _title(), "The title shown on worksheets: one text, or one per language."),
        Field("task", Member.of(Task, "task"), "What the reader is asked to do."),
        Field("themes", Nullable(ListOf(rule_id, max_items=50,
                                        words="a list of rule ids, such as [tableau.empty]")),
              "The rule ids the scenario teaches."),
        Field("position", position_record(), "The position (see the position fields).", required=True),
        Field("solution", Nullable(MovesShape()),
              "A line of play; for task win it must bring all 52 cards home."),
        Field("expect", Nullable(expect_record()), "Claims about the position, each checked."),
        Field("answer", answer_record(),
              "Claim: the solution is a shortest answer (the moves after which every card left goes home by "
              "foundation moves alone), of `moves` moves; `count` answers are that short; `alternatives` "
              "are others of them."),
        # Written by the generator; information only.
        Field("difficulty", Member.of(Difficulty, "difficulty"), "Information: the rated difficulty."),
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
        Field("measured", MapOf(keys="^[a-z_]+$", key_words="a name", value=AnyOf(
            options=(Boolean(), Integer()), expects="a number or true/false")),
              "Information: the generator's measured play (random_win_percent, decisions, refute_depth, "
              "cards, answer_moves; minimal: true when every one-step reduction breaks a criterion)."),
        Field("economy", MapOf(keys="^[A-Za-z0-9 >]+$", key_words="a reduction such as 'send 7S home'",
                               value=Text("a text")),
              "Information: each one-step reduction of the puzzle (a card sent home, a deal before the "
              "start, a later start) and the teaching criterion it breaks."),
        Field("reduced", Integer(minimum=0),
              "Information: how many reductions cut the critical moment down to this puzzle."),
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


def root_record(data: object, which: str = "file") -> Record:
    """The record a loaded file is read against: a scenario (it has a position: key), else a position."""
    if which == "file" and isinstance(data, dict) and "position" in data:
        return scenario_record()
    return position_record()


def convert(data: Any, which: str = "file") -> dict[str, Any]:
    """The values of a file whose shapes are right, converted (moves parsed, piles as cards)."""
    return root_record(data, which).convert(data)
