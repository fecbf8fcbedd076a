"""The rule registry and the project's vocabulary.

Every rule id once, as data (``rules.yaml``), and as the :class:`RuleId` enum.
Code names a rule by its enum member, never by a string literal; the enum is
checked against ``rules.yaml`` when this module is imported, so a rule added
to one and not the other fails at once.

Beside it, the other closed sets of words the files and the commands use:
:class:`Task` (what a puzzle asks), :class:`Difficulty` (its rating) and
:class:`Verdict` (what the solver decided).  Each is a ``StrEnum``, so it
reads and writes as its plain text in YAML and JSON; code names a member,
never the string (a test walks the syntax tree for the literals).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from importlib import resources

import yaml

SECTIONS = ("deal", "foundation", "tableau", "reserve", "stock", "end")


class RuleId(StrEnum):
    """Every rule id of the rules reference (a ``str``: ``RuleId.TABLEAU_EMPTY == "tableau.empty"``)."""

    DEAL_BASE = "deal.base"
    DEAL_LAYOUT = "deal.layout"
    FOUNDATION_START = "foundation.start"
    FOUNDATION_SUIT = "foundation.suit"
    FOUNDATION_WRAP = "foundation.wrap"
    FOUNDATION_FULL = "foundation.full"
    FOUNDATION_FINAL = "foundation.final"
    FOUNDATION_RETURN = "foundation.return"
    FOUNDATION_FROM_TABLEAU_ONLY = "foundation.from-tableau-only"
    TABLEAU_BUILD = "tableau.build"
    TABLEAU_SAME_COLOUR = "tableau.same-colour"
    TABLEAU_WRAP = "tableau.wrap"
    TABLEAU_RUN = "tableau.run"
    TABLEAU_SUIT_RUN = "tableau.suit-run"
    TABLEAU_WHOLE_RUN = "tableau.whole-run"
    TABLEAU_EMPTY = "tableau.empty"
    RESERVE_TOP = "reserve.top"
    RESERVE_NO_BUILD = "reserve.no-build"
    RESERVE_TO_TABLEAU_ONLY = "reserve.to-tableau-only"
    STOCK_DEAL = "stock.deal"
    STOCK_LAST_TWO = "stock.last-two"
    STOCK_NO_REDEAL = "stock.no-redeal"
    END_WIN = "end.win"
    END_LOSS = "end.loss"


class Task(StrEnum):
    """What a scenario asks of the pupil (formats.md, "Scenario files")."""

    WIN = "win"
    KEY_MOVE = "key-move"
    LEGAL_MOVES = "legal-moves"
    TRAP = "trap"


# The tasks the generator writes (a legal-moves drill is written by hand).
GENERATED_TASKS = (Task.KEY_MOVE, Task.TRAP, Task.WIN)


class Difficulty(StrEnum):
    """A puzzle's rating, easiest first (the order sheets print them in)."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"

    @property
    def order(self) -> int:
        """0 for easy, 1 for medium, 2 for hard."""
        return list(Difficulty).index(self)


class Verdict(StrEnum):
    """What the solver decided about a position."""

    WON = "won"
    LOST = "lost"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Rule:
    id: RuleId
    section: str
    params: tuple[str, ...]
    refuses: bool
    checked: int | None  # where its check comes in the engine's order (refusing rules only)
    # The guide's text for a parameter's value: {param: {value: text key}}, first match wins.
    texts: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()

    def text_key(self, value_of: Callable[[str], str]) -> str:
        """The ``rule-text`` msgid for a profile whose parameter values `value_of` gives."""
        for param, choices in self.texts:
            value = value_of(param)
            for wanted, key in choices:
                if value == wanted:
                    return key
        return self.id.value


@cache
def rules() -> dict[RuleId, Rule]:
    """All rules by id, in the order of the rules reference."""
    text = resources.files("agnes_teach").joinpath("rules.yaml").read_text("utf-8")
    out: dict[RuleId, Rule] = {}
    for item in yaml.safe_load(text):
        checked = item.get("checked")
        texts = tuple((str(param), tuple((str(v), str(k)) for v, k in choices.items()))
                      for param, choices in (item.get("texts") or {}).items())
        rule = Rule(RuleId(item["id"]), item["section"], tuple(item["params"]), bool(item["refuses"]),
                    None if checked is None else int(checked), texts)
        assert rule.id not in out and rule.section in SECTIONS, rule
        assert (rule.checked is not None) == rule.refuses, f"{rule.id}: check order"
        out[rule.id] = rule
    return out


def check_order() -> list[RuleId]:
    """The refusing rules in the order the engine asks them (``checked`` in ``rules.yaml``)."""
    refusing = [r for r in rules().values() if r.checked is not None]
    return [r.id for r in sorted(refusing, key=lambda r: r.checked or 0)]


def rule(rule_id: str) -> Rule:
    """The rule with this id; KeyError for an unknown id."""
    if not is_rule_id(rule_id):
        raise KeyError(rule_id)
    return rules()[RuleId(rule_id)]


def is_rule_id(rule_id: str) -> bool:
    return rule_id in RuleId._value2member_map_


def _check_enum() -> None:
    text = resources.files("agnes_teach").joinpath("rules.yaml").read_text("utf-8")
    in_file = {str(item["id"]) for item in yaml.safe_load(text)}
    in_code = {m.value for m in RuleId}
    if in_file != in_code:
        raise RuntimeError(f"rules.yaml and RuleId differ: only in the file {sorted(in_file - in_code)}, "
                           f"only in the code {sorted(in_code - in_file)}")


_check_enum()

# A RuleId is written to YAML as its plain id (scenario files, survey output).
for _vocabulary in (RuleId, Task, Difficulty, Verdict):
    yaml.SafeDumper.add_representer(_vocabulary, lambda dumper, value: dumper.represent_str(str(value)))
