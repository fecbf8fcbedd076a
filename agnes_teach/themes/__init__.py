"""Per-theme knowledge, one module per theme (docs/design.md, "One module per theme").

This file is machinery only and names no theme. Each module of the package
defines ``RULE`` (the rule id its theme teaches) and
``explain(here, wrong, lesson) -> RuleFacts | None``: what that rule allows or
forbids at a decision point, as facts of the position, when the theme's
misconception plays `wrong` there. `lesson` is the answer's next move that the
rule permits and the belief denies (with the position it is played from), or
None for a belief that forces a move instead. The words are catalogue
messages keyed by the rule id (``msgctxt "why-rule"``), filled with the facts.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from ..cards import Card
from ..moves import Move
from ..position import Position

WHY_RULE = "why-rule"  # the catalogue context of the rule's side of a wrong move's explanation


@dataclass(frozen=True)
class Lesson:
    """The answer's move that uses the rule (`move`, played from `position`)."""

    position: Position
    move: Move


@dataclass(frozen=True)
class RuleFacts:
    """What a rule allows or forbids at one position, as the facts its catalogue message is filled
    with: `cards` are shown in the reader's card letters, `ranks` as the language's rank letters,
    `words` as written (pile names)."""

    rule: str
    cards: tuple[tuple[str, Card], ...] = ()
    ranks: tuple[tuple[str, int], ...] = ()
    words: tuple[tuple[str, str], ...] = ()


Explain = Callable[[Position, Move, Lesson | None], RuleFacts | None]


@cache
def explainers() -> dict[str, Explain]:
    """Every theme module's ``explain``, by the rule id it teaches (each id once)."""
    found: dict[str, Explain] = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        rule = str(module.RULE)
        if rule in found:
            raise RuntimeError(f"rule {rule} is explained by two theme modules")
        found[rule] = module.explain
    return found


def rule_facts(rule: str, here: Position, wrong: Move, lesson: Lesson | None) -> RuleFacts | None:
    """The facts of `rule` at `here` for the wrong move, or None when no module explains the rule
    or the rule has nothing to say here."""
    explain = explainers().get(rule)
    return explain(here, wrong, lesson) if explain is not None else None
