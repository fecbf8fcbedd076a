"""Variant profiles: YAML files of parameters (``profiles/*.yaml``), in a typed vocabulary.

Each parameter takes one of a few named values (the enums below), so the
engine, the solver, the guide and the generator read the same fields and
never a profile's name.  A profile may ``extends:`` another and override some
of its parameters; its rule list is derived from the parameters
(:func:`derived_rules`), not written beside them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cache, cached_property
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from .cards import parse_rank, rank_below
from .errors import InputError, ProfileError
from .piles import MoveSyntaxError, Pile, PileKind
from .registry import RuleId

DEFAULT_PROFILE = "bernauer"
MAX_EXTENDS = 8  # a chain of `extends:` longer than this is a loop


class BaseCard(StrEnum):
    """Where the base card comes from (``foundation_start``)."""

    FIRST = "dealt"  # the first card of the deal
    AFTER_TABLEAU = "dealt-after-tableau"  # the card dealt right after the tableau (Sorel: the 29th)
    FIXED = "fixed"  # no base card: every foundation starts at a fixed rank (written as the rank)


class TableauBuild(StrEnum):
    """What a column top takes: the next lower rank in the other colour, or in the same colour."""

    ALTERNATE = "alternate"
    SAME_COLOUR = "same-colour"


class RankCycle(StrEnum):
    """How tableau ranks go round (``tableau_wrap``)."""

    WRAP = "true"  # K on A: ranks are a circle
    STOP_AT_ACE = "false"  # nothing goes on an Ace
    FROM_BASE = "from-base"  # down from the card below the base round to the base; nothing on a base card


class RunLink(StrEnum):
    """What makes cards a run that moves together."""

    ALTERNATE = "alternate"  # each card one lower, other colour (as they are built)
    SAME_SUIT = "same-suit"  # each card one lower, same suit


class RunUnit(StrEnum):
    """What moves as a unit between columns."""

    ANY_TAIL = "any-tail"  # any tail that is a run
    WHOLE_RUN = "whole-run"  # only the whole run at the top of a column


class EmptyFill(StrEnum):
    """What fills an empty column."""

    BELOW_BASE = "below-base"  # a card (or run led by one) of the rank below the base
    KING = "K"  # a King, or a run led by one
    ANY_CARD = "any-card"  # any single card
    ANY_RUN = "any-run"  # any card or run that may move
    DEAL_ONLY = "deal-only"  # nothing but a deal


class DealTarget(StrEnum):
    """Where a deal of the stock lands."""

    RESERVE = "reserve"
    COLUMNS = "columns"
    EXPOSED = "exposed"


_TARGET_OF = {PileKind.RESERVE: DealTarget.RESERVE, PileKind.COLUMN: DealTarget.COLUMNS,
              PileKind.EXPOSED: DealTarget.EXPOSED}


@dataclass(frozen=True)
class Profile:
    """The parameters of one variant.  Engine code reads these; it never tests the name."""

    id: str
    name: str
    column_lengths: tuple[int, ...]
    reserve_piles: int
    base_card: BaseCard
    base_rank: int | None  # None: a dealt card sets it; else the fixed rank
    tableau_build: TableauBuild
    rank_cycle: RankCycle
    run_link: RunLink
    run_unit: RunUnit
    empty_fill: EmptyFill
    stock_deals: tuple[tuple[Pile, ...], ...]
    reserve_to_foundation: bool
    exposed_to_foundation: bool
    foundation_return: bool
    rules: tuple[RuleId, ...]
    choices: tuple[str, ...]
    source: str = ""  # the file it was read from, for messages ("" for a shipped profile)
    game: str = "Agnes Bernauer"  # the game it is a variant of (the guide's heading)

    def __repr__(self) -> str:
        return f"Profile({self.id!r})"

    @property
    def columns(self) -> int:
        return len(self.column_lengths)

    @property
    def base_dealt(self) -> bool:
        return self.base_rank is None

    @property
    def tableau_wrap(self) -> bool:
        """A King goes on an Ace in the columns, with any base (the classic circle)."""
        return self.rank_cycle == RankCycle.WRAP

    @property
    def whole_runs_only(self) -> bool:
        return self.run_unit == RunUnit.WHOLE_RUN

    @property
    def empty_column_rank(self) -> int | None:
        """A fixed rank an empty column takes (K), or None."""
        return 13 if self.empty_fill == EmptyFill.KING else None

    @cached_property
    def exposed_cells(self) -> int:
        return len({p for deal in self.stock_deals for p in deal if p.kind is PileKind.EXPOSED})

    @property
    def stock_size(self) -> int:
        return sum(len(d) for d in self.stock_deals)

    def deal_target(self, deal: int) -> DealTarget:
        """Where deal number `deal` (0-based) lands."""
        return _TARGET_OF[self.stock_deals[deal][0].kind]

    @cached_property
    def deals_onto_columns(self) -> bool:
        return any(p.is_column for deal in self.stock_deals for p in deal)

    def stock_sizes(self) -> tuple[int, ...]:
        """Every stock size a game can have, largest first (bernauer: 16, 9, 2, 0)."""
        sizes = [self.stock_size]
        for deal in self.stock_deals:
            sizes.append(sizes[-1] - len(deal))
        return tuple(sizes)

    def deals_done(self, stock_left: int) -> int | None:
        return self._deals_by_stock_left.get(stock_left)

    @cached_property
    def _deals_by_stock_left(self) -> dict[int, int]:
        """How many deals are done when the stock holds so many cards (every position asks)."""
        out: dict[int, int] = {}
        for done, size in enumerate(self.stock_sizes()):
            out.setdefault(size, done)
        return out

    def pile_names(self) -> tuple[Pile, ...]:
        return (
            tuple(Pile.column(i + 1) for i in range(self.columns))
            + tuple(Pile.reserve(i + 1) for i in range(self.reserve_piles))
            + tuple(Pile.exposed(i + 1) for i in range(self.exposed_cells))
        )

    def empty_rank(self, base: int) -> int:
        """The rank an empty column accepts where the rule names a rank (a King, or the rank below
        the base); for the other fills, the rank below the base (a figure only, see fill_rank)."""
        return 13 if self.empty_fill == EmptyFill.KING else rank_below(base)

    def fill_rank(self, base: int) -> int | None:
        """The one rank an empty column takes, or None when the rule is not about a rank."""
        return self.empty_rank(base) if self.empty_fill in (EmptyFill.KING, EmptyFill.BELOW_BASE) else None

    def max_pile_heights(self, deals_done: int) -> dict[Pile, int]:
        """How high each reserve pile and exposed cell can be after `deals_done` deals."""
        heights = {Pile.reserve(i + 1): 1 for i in range(self.reserve_piles)}
        heights |= {Pile.exposed(i + 1): 0 for i in range(self.exposed_cells)}
        for deal in self.stock_deals[:deals_done]:
            for pile in deal:
                if pile in heights:
                    heights[pile] += 1
        return heights

    def uses(self, rule_id: str) -> bool:
        return rule_id in self.rules

    def cannot_use(self, rule_id: str) -> str | None:
        """Why no position of this profile ever calls on the rule (None when one can).

        A rule may be in force and still never matter: every foundation of a fixed Ace base
        stops at its King, so none turns the corner; a tableau that stops at the Ace never
        lays a King on it; with reserve cards barred from the foundations, the deal never
        has to be weighed against them.
        """
        if not self.uses(rule_id):
            return f"the profile {self.id} does not use the rule {rule_id}"
        if rule_id == RuleId.FOUNDATION_WRAP and self.base_rank == 1:
            return f"in {self.id} every foundation starts at the Ace, so none turns from King to Ace"
        if rule_id == RuleId.TABLEAU_WRAP and self.rank_cycle == RankCycle.STOP_AT_ACE:
            return f"in {self.id} a King never goes on an Ace in the columns"
        if rule_id == RuleId.STOCK_DEAL and not self.reserve_to_foundation:
            return f"in {self.id} reserve cards never go to a foundation, which this lesson's positions need"
        return None

    def param(self, name: str) -> str:
        """A parameter's value as the profile file writes it (the guide picks a rule's text by it)."""
        values = {
            "foundation_start": self.base_card.value if self.base_dealt else "fixed",
            "tableau_build": self.tableau_build.value,
            "tableau_wrap": self.rank_cycle.value,
            "run_link": self.run_link.value,
            "run_moves": self.run_unit.value,
            "empty_column": self.empty_fill.value,
            "reserve_to_foundation": str(self.reserve_to_foundation).lower(),
            "exposed_to_foundation": str(self.exposed_to_foundation).lower(),
            "foundation_return": str(self.foundation_return).lower(),
            "reserve_piles": str(self.reserve_piles),
            "last_deal": self.deal_target(len(self.stock_deals) - 1).value if self.stock_deals else "none",
            "first_deal": self.deal_target(0).value if self.stock_deals else "none",
        }
        return values[name]


def derived_rules(p: Profile) -> tuple[RuleId, ...]:
    """The rules in force, from the parameters alone, in the registry's order."""
    has_stock = bool(p.stock_deals)
    short_last = has_stock and len(p.stock_deals) > 1 and len(p.stock_deals[-1]) < len(p.stock_deals[0])
    wanted = {
        RuleId.DEAL_BASE: p.base_dealt,
        RuleId.DEAL_LAYOUT: True,
        RuleId.FOUNDATION_START: True,
        RuleId.FOUNDATION_SUIT: True,
        RuleId.FOUNDATION_WRAP: p.base_dealt,
        RuleId.FOUNDATION_FULL: True,
        RuleId.FOUNDATION_FINAL: not p.foundation_return,
        RuleId.FOUNDATION_RETURN: p.foundation_return,
        RuleId.FOUNDATION_FROM_TABLEAU_ONLY: not p.exposed_to_foundation,
        RuleId.TABLEAU_BUILD: p.tableau_build == TableauBuild.ALTERNATE,
        RuleId.TABLEAU_WRAP: True,
        RuleId.TABLEAU_RUN: True,
        RuleId.TABLEAU_WHOLE_RUN: p.run_unit == RunUnit.WHOLE_RUN,
        RuleId.TABLEAU_EMPTY: True,
        RuleId.RESERVE_TOP: p.reserve_piles > 0,
        RuleId.RESERVE_NO_BUILD: p.reserve_piles > 0,
        RuleId.RESERVE_TO_TABLEAU_ONLY: p.reserve_piles > 0 and not p.reserve_to_foundation,
        RuleId.STOCK_DEAL: has_stock,
        RuleId.STOCK_LAST_TWO: short_last,
        RuleId.STOCK_NO_REDEAL: has_stock,
        RuleId.END_WIN: True,
        RuleId.END_LOSS: True,
    }
    wanted[RuleId.TABLEAU_SAME_COLOUR] = p.tableau_build == TableauBuild.SAME_COLOUR
    wanted[RuleId.TABLEAU_SUIT_RUN] = p.run_link == RunLink.SAME_SUIT
    return tuple(r for r in RuleId if wanted[r])


_KEYS = ("id", "name", "column_lengths", "reserve_piles", "foundation_start", "tableau_build", "tableau_wrap",
         "run_moves", "empty_column", "stock_deals", "reserve_to_foundation", "exposed_to_foundation",
         "foundation_return")
_OPTIONAL = ("columns", "run_link", "choices", "extends", "rules", "game")


def _choice(enum: type[StrEnum], key: str, value: object) -> Any:
    text = str(value).lower() if isinstance(value, bool) else str(value)
    try:
        return enum(text)
    except ValueError:
        known = ", ".join(m.value for m in enum)  # type: ignore[attr-defined]
        raise ValueError(f"{key}: {value!r} is not one of {known}") from None


def _load(data: dict[str, Any], source: str = "") -> Profile:
    missing = [k for k in _KEYS if k not in data]
    if missing:
        raise ValueError(f"missing {', '.join(missing)}")
    unknown = sorted(set(data) - set(_KEYS) - set(_OPTIONAL))
    if unknown:
        raise ValueError(f"unknown key(s) {', '.join(unknown)}")
    deals = tuple(tuple(_deal_pile(p, deal) for p in deal) for deal in data["stock_deals"])
    for deal in deals:
        if len({p.kind for p in deal}) != 1:
            raise ValueError(f"stock_deals: {[str(p) for p in deal]} must name piles of one kind "
                             "(t1.., r1.. or x1..)")
    start = str(data["foundation_start"])
    if start in (BaseCard.FIRST, BaseCard.AFTER_TABLEAU):
        base_card, base_rank = BaseCard(start), None
    else:
        base_card, base_rank = BaseCard.FIXED, parse_rank(start)
    build = _choice(TableauBuild, "tableau_build", data["tableau_build"])
    link_default = RunLink.ALTERNATE if build == TableauBuild.ALTERNATE else RunLink.SAME_SUIT
    profile = Profile(
        id=str(data["id"]),
        name=str(data["name"]),
        column_lengths=tuple(int(n) for n in data["column_lengths"]),
        reserve_piles=int(data["reserve_piles"]),
        base_card=base_card,
        base_rank=base_rank,
        tableau_build=build,
        rank_cycle=_choice(RankCycle, "tableau_wrap", data["tableau_wrap"]),
        run_link=_choice(RunLink, "run_link", data.get("run_link", link_default)),
        run_unit=_choice(RunUnit, "run_moves", data["run_moves"]),
        empty_fill=_choice(EmptyFill, "empty_column", data["empty_column"]),
        stock_deals=deals,
        reserve_to_foundation=bool(data["reserve_to_foundation"]),
        exposed_to_foundation=bool(data["exposed_to_foundation"]),
        foundation_return=bool(data["foundation_return"]),
        rules=(),
        choices=tuple(str(c) for c in data.get("choices", [])),
        source=source,
        game=str(data.get("game", "Agnes Bernauer")),
    )
    for pile in {p for deal in deals for p in deal}:
        limit = {PileKind.COLUMN: profile.columns, PileKind.RESERVE: profile.reserve_piles}.get(pile.kind, 99)
        if not 1 <= pile.number <= limit:
            raise ValueError(f"stock_deals: there is no pile {pile}")
    object.__setattr__(profile, "rules", derived_rules(profile))
    if "rules" in data and {str(r) for r in data["rules"]} != {str(r) for r in profile.rules}:
        raise ValueError(f"rules: the parameters give {[str(r) for r in profile.rules]}; leave 'rules' out")
    dealt = sum(profile.column_lengths) + profile.reserve_piles + profile.stock_size
    if dealt + (1 if profile.base_dealt else 0) != 52:
        raise ValueError(f"the layout deals {dealt} cards, not 52")
    return profile


def _deal_pile(text: object, deal: object) -> Pile:
    """One target of a stock deal: a column, reserve pile or exposed cell."""
    try:
        pile = Pile.parse(str(text))
    except MoveSyntaxError:
        pile = None
    if pile is None or not (pile.is_column or pile.is_stack):
        raise ValueError(f"stock_deals: {deal} must name piles of one kind (t1.., r1.. or x1..)")
    return pile


def profile_ids() -> list[str]:
    folder = resources.files("agnes_teach").joinpath("profiles")
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".yaml"))


def _shipped_data(pid: str) -> dict[str, Any]:
    text = resources.files("agnes_teach").joinpath("profiles").joinpath(f"{pid}.yaml").read_text("utf-8")
    data = yaml.safe_load(text)
    assert isinstance(data, dict)
    return data


def family_of(profile_id: str) -> str:
    """The shipped profile at the root of `profile_id`'s ``extends:`` chain (itself when it extends
    none, or when it is not shipped): a stricter house rule of a game plays that game's puzzles."""
    pid = profile_id
    for _ in range(MAX_EXTENDS):
        if pid not in profile_ids():
            return pid
        parent = _shipped_data(pid).get("extends")
        if parent is None:
            return pid
        pid = str(parent)
    return pid


def _resolve_extends(data: dict[str, Any], where: str) -> dict[str, Any]:
    """The parameters with every `extends:` parent filled in (the child's values win)."""
    chain = [data]
    while "extends" in chain[-1]:
        parent = str(chain[-1]["extends"])
        if parent not in profile_ids():
            raise ProfileError(f"{where}: extends {parent!r}, which is not a profile "
                               f"(known: {', '.join(profile_ids())})")
        if len(chain) > MAX_EXTENDS:
            raise ProfileError(f"{where}: 'extends' goes round in a loop")
        chain.append(_shipped_data(parent))
    merged: dict[str, Any] = {}
    for layer in reversed(chain):
        merged.update({k: v for k, v in layer.items() if k != "extends"})
    if "choices" in data:
        merged["choices"] = data["choices"]
    return merged


@cache
def get_profile(profile_id: str | None = None) -> Profile:
    """Load a profile by id, or from a profile file's path; ProfileError (an InputError) otherwise."""
    pid = profile_id or DEFAULT_PROFILE
    if pid in profile_ids():
        data = _resolve_extends(_shipped_data(pid), f"{pid}.yaml")
        try:
            return _load(data)
        except (KeyError, ValueError, TypeError) as exc:  # a broken shipped file is our bug
            raise RuntimeError(f"profile file {pid}.yaml is broken: {exc}") from exc
    path = Path(pid)
    if pid.endswith((".yaml", ".yml")) or path.is_file():
        return _load_file(path)
    raise ProfileError(f"unknown profile {pid!r} (known: {', '.join(profile_ids())}, or a profile file)")


def _load_file(path: Path) -> Profile:
    from .yamlio import load_file  # late: the YAML reader is a layer above the profiles

    where = str(path)
    try:
        data, _ = load_file(path)
    except InputError as exc:
        raise ProfileError(exc.problems) from None
    if not isinstance(data, dict):
        raise ProfileError(f"{where}: a profile file is a mapping of parameters (e.g. extends: sorel)")
    data.setdefault("id", path.stem)
    try:
        return _load(_resolve_extends(data, where), source=where)
    except ProfileError:  # already names the file
        raise
    except (KeyError, ValueError, TypeError) as exc:
        raise ProfileError(f"{where}: {exc}") from None
