"""The rule registry: every rule id once, as data (``rules.yaml``)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources

import yaml

SECTIONS = ("deal", "foundation", "tableau", "reserve", "stock", "end")


@dataclass(frozen=True)
class Rule:
    id: str
    section: str
    params: tuple[str, ...]
    refuses: bool


@cache
def rules() -> dict[str, Rule]:
    """All rules by id, in the order of the rules reference."""
    text = resources.files("agnes_teach").joinpath("rules.yaml").read_text("utf-8")
    out: dict[str, Rule] = {}
    for item in yaml.safe_load(text):
        rule = Rule(item["id"], item["section"], tuple(item["params"]), bool(item["refuses"]))
        assert rule.id not in out and rule.section in SECTIONS, rule
        out[rule.id] = rule
    return out


def rule(rule_id: str) -> Rule:
    """The rule with this id; KeyError for an unknown id."""
    return rules()[rule_id]


def is_rule_id(rule_id: str) -> bool:
    return rule_id in rules()
