"""The theme table: for each rule a puzzle can teach, its detector, distractor and builder.

The three parts live apart, as a chess-puzzle tagger lives apart from its
generator: `detectors` (pure predicates on a puzzle's facts), `distractors`
(the tempting wrong move) and `builders` (one module per theme).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from ..moves import Move
from ..position import Position
from ..profile import Profile, TableauBuild
from ..registry import RuleId
from .build import Draft
from .builders import (
    build_foundation_start,
    build_foundation_wrap,
    build_reserve_top,
    build_stock_deal,
    build_stock_last_two,
    build_tableau_empty,
    build_tableau_run,
    build_tableau_wrap,
)
from .detectors import (
    LESSON_WINDOW,
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
    tempting_loss,
)

__all__ = ["LESSON_WINDOW", "THEMES", "Distractor", "Lesson", "Theme", "tempting_loss", "theme_ids",
           "unavailable"]


@dataclass(frozen=True)
class Theme:
    id: str
    required: bool
    tasks: tuple[str, ...]
    detect: Callable[[Lesson], bool]
    distract: Callable[[Position, tuple[Move, ...], tuple[Move, ...]], Distractor | None]
    build: Callable[[random.Random, Profile, str, int], Draft | None]
    how: str  # the strategy, for --help and the report


THEMES: dict[str, Theme] = {
    t.id: t
    for t in (
        Theme(RuleId.FOUNDATION_WRAP, True, ("key-move", "trap"), detect_foundation_wrap,
              distract_losing, build_foundation_wrap,
              "a suit stopped at its King; its Ace lies on the Queen another suit needs first, and a King "
              "of the other colour could park on that Ace (tableau wrap) and bury both"),
        Theme(RuleId.TABLEAU_EMPTY, True, ("trap", "win"), detect_tableau_empty,
              distract_tableau_empty, build_tableau_empty,
              "an empty column; a card of the rank below the base blocks the first card needed and may "
              "go there; a King (refused there) and often another card of that rank lie on top"),
        Theme(RuleId.STOCK_DEAL, True, ("trap", "key-move", "win"), detect_stock_deal,
              distract_deal, build_stock_deal,
              "one full deal left; the first card needed is a reserve top, and the stock card the deal "
              "would drop on it is a later card of its suit with nowhere else to go"),
        Theme(RuleId.TABLEAU_WRAP, False, ("key-move", "win", "trap"), detect_tableau_wrap,
              distract_losing, build_tableau_wrap,
              "a King lies on the Queen of its suit, needed first; its only way off is onto an Ace of "
              "the other colour on a column top"),
        Theme(RuleId.TABLEAU_RUN, False, ("win",), detect_tableau_run,
              distract_tableau_run, build_tableau_run,
              "a two-card run lies on the first card needed and must move whole onto a column top; the "
              "refused move is an irregular group that would fit by rank and colour"),
        Theme(RuleId.STOCK_LAST_TWO, False, ("key-move", "win", "trap"), detect_stock_last_two,
              distract_stock_last_two, build_stock_last_two,
              "a card blocks the first card needed and fits only on an exposed card, where nothing may "
              "be placed: the exposed card must go to a column first"),
        Theme(RuleId.RESERVE_TOP, False, ("win",), detect_reserve_top,
              distract_reserve_top, build_reserve_top,
              "the first card needed lies under another card on a reserve pile; that card must go onto a "
              "column first (the covered card is refused)"),
        Theme(RuleId.FOUNDATION_START, False, ("win",), detect_foundation_start,
              distract_foundation_start, build_foundation_start,
              "a whole suit out: its base card is blocked by a card that must go onto a column; its Ace "
              "lies free and is refused by the empty foundation"),
    )
}


def unavailable(theme_id: str, profile: Profile, source: str = "built") -> str | None:
    """Why a profile cannot pose this theme's lesson at all (None when it can).

    With ``source="built"`` also why the theme's builder cannot lay the lesson out for this
    profile: the builders lay alternate-colour runs and use reserve piles, so for Agnes Sorel only
    foundation.start is built; the other themes are mined from its deals (``--source deals``).
    """
    why_not = profile.cannot_use(theme_id)
    if why_not:
        return why_not
    if source == "built" and theme_id != RuleId.FOUNDATION_START and (
            profile.tableau_build != TableauBuild.ALTERNATE or not profile.reserve_piles):
        return (f"the built {theme_id} lesson lays out alternate-colour runs and reserve piles, which "
                f"{profile.id} does not have: mine its deals instead (--source deals --deals 1-200)")
    return None


def theme_ids() -> list[str]:
    return sorted(THEMES)
