"""The tagger's theme table: for each rule a puzzle can teach, its detector, its tempting wrong
move and the tasks it can pose.

The generator's table (``generator.themes``) is this one plus a builder per theme;
the checker reads this one alone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..moves import Move
from ..position import Position
from ..registry import RuleId, Task
from .detectors import (
    Lesson,
    detect_foundation_start,
    detect_foundation_wrap,
    detect_reserve_top,
    detect_stock_deal,
    detect_stock_last_two,
    detect_tableau_empty,
    detect_tableau_run,
    detect_tableau_wrap,
)
from .distractors import (
    Distractor,
    distract_deal,
    distract_foundation_start,
    distract_losing,
    distract_reserve_top,
    distract_stock_last_two,
    distract_tableau_empty,
    distract_tableau_run,
)

__all__ = ["THEME_TAGS", "ThemeTag"]


@dataclass(frozen=True)
class ThemeTag:
    """How a theme is recognised: the tasks it poses, its detector, its tempting wrong move."""

    id: str
    tasks: tuple[Task, ...]
    detect: Callable[[Lesson], bool]
    distract: Callable[[Position, tuple[Move, ...], tuple[Move, ...]], Distractor | None]


THEME_TAGS: dict[str, ThemeTag] = {
    t.id: t
    for t in (
        ThemeTag(RuleId.FOUNDATION_WRAP, (Task.KEY_MOVE, Task.TRAP), detect_foundation_wrap, distract_losing),
        ThemeTag(RuleId.TABLEAU_EMPTY, (Task.TRAP, Task.WIN), detect_tableau_empty, distract_tableau_empty),
        ThemeTag(RuleId.STOCK_DEAL, (Task.TRAP, Task.KEY_MOVE, Task.WIN), detect_stock_deal, distract_deal),
        ThemeTag(RuleId.TABLEAU_WRAP, (Task.KEY_MOVE, Task.WIN, Task.TRAP), detect_tableau_wrap,
                 distract_losing),
        ThemeTag(RuleId.TABLEAU_RUN, (Task.WIN,), detect_tableau_run, distract_tableau_run),
        ThemeTag(RuleId.STOCK_LAST_TWO, (Task.KEY_MOVE, Task.WIN, Task.TRAP), detect_stock_last_two,
                 distract_stock_last_two),
        ThemeTag(RuleId.RESERVE_TOP, (Task.WIN,), detect_reserve_top, distract_reserve_top),
        ThemeTag(RuleId.FOUNDATION_START, (Task.WIN,), detect_foundation_start, distract_foundation_start),
    )
}
