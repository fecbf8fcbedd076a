"""The generator's theme table: the tagger's table plus, per theme, the builder that lays the
lesson out.

The parts live apart, as a chess-puzzle tagger lives apart from its generator:
the tagger (``agnes_teach.tagger``) recognises a theme (its detector, its
tempting wrong move, its tasks); the generator builds it (``builders``, one
module per theme).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from ..profile import Profile, TableauBuild
from ..registry import RuleId
from ..tagger.themes import THEME_TAGS, ThemeTag
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

__all__ = ["THEMES", "Theme", "theme_ids", "unavailable"]

Builder = Callable[[random.Random, Profile, str, int], Draft | None]


@dataclass(frozen=True)
class Theme(ThemeTag):
    """A theme as the generator sees it: how it is recognised, and how it is built."""

    required: bool  # the library must hold more puzzles of it
    build: Builder
    how: str  # the strategy, for --help and the report


def _theme(theme_id: str, required: bool, build: Builder, how: str) -> Theme:
    tag = THEME_TAGS[theme_id]
    return Theme(tag.id, tag.tasks, tag.detect, tag.distract, required, build, how)


THEMES: dict[str, Theme] = {
    t.id: t
    for t in (
        _theme(RuleId.FOUNDATION_WRAP, True, build_foundation_wrap,
               "a suit stopped at its King; its Ace lies on the Queen another suit needs first, and a King "
               "of the other colour could park on that Ace (tableau wrap) and bury both"),
        _theme(RuleId.TABLEAU_EMPTY, True, build_tableau_empty,
               "an empty column; a card of the rank below the base blocks the first card needed and may "
               "go there; a King (refused there) and often another card of that rank lie on top"),
        _theme(RuleId.STOCK_DEAL, True, build_stock_deal,
               "one full deal left; the first card needed is a reserve top, and the stock card the deal "
               "would drop on it is a later card of its suit with nowhere else to go"),
        _theme(RuleId.TABLEAU_WRAP, False, build_tableau_wrap,
               "a King lies on the Queen of its suit, needed first; its only way off is onto an Ace of "
               "the other colour on a column top"),
        _theme(RuleId.TABLEAU_RUN, False, build_tableau_run,
               "a two-card run lies on the first card needed and must move whole onto a column top; the "
               "refused move is an irregular group that would fit by rank and colour"),
        _theme(RuleId.STOCK_LAST_TWO, False, build_stock_last_two,
               "a card blocks the first card needed and fits only on an exposed card, where nothing may "
               "be placed: the exposed card must go to a column first"),
        _theme(RuleId.RESERVE_TOP, False, build_reserve_top,
               "the first card needed lies under another card on a reserve pile; that card must go onto a "
               "column first (the covered card is refused)"),
        _theme(RuleId.FOUNDATION_START, False, build_foundation_start,
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
