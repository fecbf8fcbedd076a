"""The theme registry: what each taught rule's puzzles need, one module per theme.

This file is machinery only and names no theme (docs/design.md, "One module
per theme"). Each module of the package defines ``THEME``, a ``Theme``: the
rule it teaches and the profiles it is posed for, its lesson move and
detector, its misconception (the believer, as data), its tempting wrong move,
its composed-layout recipe and builder, its task forms, the strategy line for
``--help`` and ``explain`` (what the rule allows or forbids where the
believer's wrong move loses, as facts of the position; the words are catalogue
messages keyed by the rule id, ``msgctxt "why-rule"``).

The tagger, the generator, the checker, the renderers and the command line
reach a theme only through ``all_themes``, ``theme_for``, ``find_theme`` and
``theme_ids``. The modules are found with ``pkgutil`` and imported when the
registry is first asked, so the machinery modules whose types a ``Theme``
holds never import a theme module.
"""

from __future__ import annotations

import importlib
import pkgutil
import random
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Protocol

from ..cards import Card
from ..errors import InputError
from ..limits import MINED_FIRST_MOVE
from ..moves import Move
from ..position import Position
from ..profile import Profile, profile_ids
from ..registry import RuleId, Task
from ..tagger import detectors
from ..tagger.detectors import MovePredicate
from ..tagger.distractors import Distractor
from ..tagger.misconception import Misconception

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

    rule: str  # the catalogue key: a rule id, or one with a wording's suffix (``tableau.empty@fixed``)
    cards: tuple[tuple[str, Card], ...] = ()
    ranks: tuple[tuple[str, int], ...] = ()
    words: tuple[tuple[str, str], ...] = ()

    @property
    def rule_id(self) -> str:
        """The rule the facts speak for: the catalogue key without its wording's suffix."""
        return self.rule.partition("@")[0]


@dataclass(frozen=True)
class Recipe:
    """What a theme's lesson needs of a composed layout at all (``generator.compose``);
    everything else is left to chance. Each field names what it lays out, never a theme."""

    king_topped: bool = False  # a foundation tops with its King, so its Ace turns the corner next
    empty_foundation: bool = False  # a foundation not yet started (the base is no Ace)
    covered_reserve: bool = False  # a reserve pile holds a card under its top
    exposed_full: bool = False  # every exposed cell holds its card
    deals_left: int = 0  # deals still to come (e.g. one onto the reserve, then the last two)
    empty_column: float = 0.0  # how often a column starts empty
    one_space: bool = False  # exactly one column starts empty (no second space to fall back on)
    nothing_home: bool = False  # no card can go home at the start (a believer who deals then deals)
    deal_buries: bool = False  # the next deal drops a later card of its suit on some reserve top
    # The rule's move is on offer at the start, and a move the believer makes competes with it
    # (``tagger.crux.competes``): the lesson is a real choice, not a side tactic (issue 28).
    contested: bool = False
    # ... and that competing move loses under the real rules (the solver says so) while the layout
    # is won: for a rule whose card can always go home later (the corner's Ace), only a move that
    # buries it or takes what it needs makes the choice matter.
    contest_loses: bool = False
    # ... and that losing move is one the believer picks (``players.believer_choices``: its moves
    # home first), so the believer is caught there, not only a player who wanders.
    contest_picked: bool = False
    # A King lies over the next card a foundation takes, in a column or reserve pile. With the Ace
    # as every base a King goes home last and onto no card, so only an empty column frees what
    # lies under it.
    king_covers: bool = False
    # Some foundation takes a card of this rank next (0: no such demand): a card of it may go
    # home, and that move competes with the rule's move of the same card.
    waits_for: int = 0
    # At most this many cards not home (0: the composer's own bound). A search of every plan a
    # player could make stays small only on a small layout.
    most_cards: int = 0
    # The theme's tempting move, one its rule refuses, is on offer at the start: the shortcut a
    # believer who holds it legal plans with is there to be seen.
    refused_on_offer: bool = False
    # A move the theme's belief adds (one its rule refuses) is on offer at the start: the shortcut
    # a believer who plans with it sees (found without the plan search ``refused_on_offer`` makes).
    belief_adds: bool = False
    # A legal move at the start loses under the real rules while the layout is won (the solver says
    # both): the layout opens on a decision point, where a believer's plan can go wrong.
    move_loses: bool = False


class Layout(Protocol):
    """What a builder lays out (``generator.build.Draft``): it becomes a position, or None when it
    is not a valid, reachable one."""

    def position(self) -> Position | None: ...


class Lays(StrEnum):
    """What a theme's builder lays out that a profile must have for it to build there at all."""

    ALTERNATE_RUNS = "alternate-colour runs"
    RESERVE_PILES = "reserve piles"


Explain = Callable[[Position, Move, Lesson | None], RuleFacts | None]
Tempting = Callable[[Position, tuple[Move, ...], tuple[Move, ...]], Distractor | None]
# (seeded generator, profile, task, size) -> a layout around the lesson, or None (draw again)
Builder = Callable[[random.Random, Profile, str, int], Layout | None]


@dataclass(frozen=True)
class Theme:
    """Everything that is one theme's: the machinery asks it, never names it."""

    rule: RuleId  # the rule it teaches
    profiles: tuple[str, ...]  # the profile ids it is posed for; (rule, profile) is unique
    tasks: tuple[Task, ...]  # the task forms it poses, in rotation order
    # (position, move) -> the rule used where the belief denies it; None when no single move shows
    # the lesson (its detector then reads the line and the first moves proved losing)
    lesson_move: MovePredicate | None
    detect: Callable[[detectors.Lesson], bool]  # does a line make the lesson early on?
    believer: Misconception  # the wrong belief the rule corrects, as data
    tempting: Tempting  # the tempting wrong move beside the lesson
    recipe: Recipe  # what a composed layout needs
    build: Builder | None  # the built layout's builder (--source built), or None
    explain: Explain  # the facts of the rule where the believer's move loses
    how: str  # the strategy, one line for --help and reports
    required: bool = False  # the library must hold more puzzles of it
    first_move: int = MINED_FIRST_MOVE  # the earliest move of a mined whole-deal puzzle
    build_lays: tuple[Lays, ...] = ()  # what its builder lays out that a profile must have
    # May a diagram show the faint base card in an empty foundation? Not where it gives the
    # lesson away.
    shows_base_card: bool = True
    # Cut down only through positions where the believer is caught (``tagger.crux.caught``) at the
    # answer's first use of the rule, and try no wider search: in a game with few decision points
    # (cards come back from the foundations) a wider one ends in positions whose rule is no crux.
    caught_at_first_use: bool = False

    @property
    def id(self) -> str:
        """The rule id as text: what files, seeds and reports name the theme by."""
        return str(self.rule)


def every_profile(*but: str) -> tuple[str, ...]:
    """Every shipped profile id except `but` (for a theme posed everywhere a rule is used)."""
    return tuple(p for p in profile_ids() if p not in but)


@cache
def all_themes() -> tuple[Theme, ...]:
    """Every theme module's ``THEME``, in module order; each (rule, profile) pair once."""
    found: list[Theme] = []
    seen: dict[tuple[str, str], str] = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        theme = getattr(module, "THEME", None)
        if not isinstance(theme, Theme):
            raise RuntimeError(f"{module.__name__} defines no THEME = Theme(...)")
        for profile in theme.profiles:
            other = seen.setdefault((theme.id, profile), info.name)
            if other != info.name:
                raise RuntimeError(f"the rule {theme.id} is taught for the profile {profile} by two theme "
                                   f"modules: {other} and {info.name}")
        found.append(theme)
    return tuple(found)


def find_theme(rule: str | None, profile: str) -> Theme | None:
    """The theme that teaches `rule` for the profile id `profile`, or None (a rule no theme
    teaches there, e.g. a hand-written puzzle's)."""
    return next((t for t in all_themes() if t.id == rule and profile in t.profiles), None)


def theme_for(rule: str, profile: str) -> Theme:
    """The theme that teaches `rule` for the profile id `profile` (``InputError`` if none does)."""
    theme = find_theme(rule, profile)
    if theme is None:
        known = ", ".join(theme_ids(profile)) or "none"
        raise InputError(f"no theme teaches {rule!r} for the profile {profile} (themes there: {known})")
    return theme


def theme_ids(profile: str | None = None) -> list[str]:
    """The rule ids some theme teaches (for `profile`, or for any profile), sorted."""
    return sorted({t.id for t in all_themes() if profile is None or profile in t.profiles})
