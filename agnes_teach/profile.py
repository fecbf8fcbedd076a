"""Variant profiles: YAML files of parameters (``profiles/*.yaml``)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property
from importlib import resources

import yaml

from .cards import parse_rank, rank_below
from .errors import InputError
from .registry import rules

DEFAULT_PROFILE = "bernauer"


@dataclass(frozen=True)
class Profile:
    """The parameters of one variant.  Engine code reads these; it never tests the name."""

    id: str
    name: str
    column_lengths: tuple[int, ...]
    reserve_piles: int
    base_rank: int | None  # None: the first card dealt sets it; else a fixed rank
    tableau_wrap: bool
    whole_runs_only: bool
    empty_column_rank: int | None  # a fixed rank (K), or None for "one below the base"
    stock_deals: tuple[tuple[str, ...], ...]
    reserve_to_foundation: bool
    exposed_to_foundation: bool
    foundation_return: bool
    rules: tuple[str, ...]
    choices: tuple[str, ...]

    def __repr__(self) -> str:
        return f"Profile({self.id!r})"

    @property
    def columns(self) -> int:
        return len(self.column_lengths)

    @property
    def base_dealt(self) -> bool:
        return self.base_rank is None

    @cached_property
    def exposed_cells(self) -> int:
        return len({p for deal in self.stock_deals for p in deal if p.startswith("x")})

    @property
    def stock_size(self) -> int:
        return sum(len(d) for d in self.stock_deals)

    def stock_sizes(self) -> tuple[int, ...]:
        """Every stock size a game can have, largest first (bernauer: 16, 9, 2, 0)."""
        sizes = [self.stock_size]
        for deal in self.stock_deals:
            sizes.append(sizes[-1] - len(deal))
        return tuple(sizes)

    def deals_done(self, stock_left: int) -> int | None:
        sizes = self.stock_sizes()
        return sizes.index(stock_left) if stock_left in sizes else None

    def pile_names(self) -> tuple[str, ...]:
        return (
            tuple(f"t{i + 1}" for i in range(self.columns))
            + tuple(f"r{i + 1}" for i in range(self.reserve_piles))
            + tuple(f"x{i + 1}" for i in range(self.exposed_cells))
        )

    def empty_rank(self, base: int) -> int:
        """The rank an empty column accepts."""
        return self.empty_column_rank if self.empty_column_rank else rank_below(base)

    def max_pile_heights(self, deals_done: int) -> dict[str, int]:
        """How high each reserve pile and exposed cell can be after `deals_done` deals."""
        heights = {f"r{i + 1}": 1 for i in range(self.reserve_piles)}
        heights |= {f"x{i + 1}": 0 for i in range(self.exposed_cells)}
        for deal in self.stock_deals[:deals_done]:
            for pile in deal:
                heights[pile] += 1
        return heights

    def uses(self, rule_id: str) -> bool:
        return rule_id in self.rules


def _load(data: dict[str, object]) -> Profile:
    def rank_or(value: object, word: str) -> int | None:
        return None if value == word else parse_rank(str(value))

    deals = tuple(tuple(str(p) for p in deal) for deal in data["stock_deals"])  # type: ignore[attr-defined]
    run_moves = data["run_moves"]
    if run_moves not in ("any-tail", "whole-run"):
        raise ValueError(f"run_moves: {run_moves!r}")
    if data["tableau_build"] != "alternate":
        raise ValueError(f"tableau_build: {data['tableau_build']!r} is not supported yet")
    profile = Profile(
        id=str(data["id"]),
        name=str(data["name"]),
        column_lengths=tuple(int(n) for n in data["column_lengths"]),  # type: ignore[attr-defined]
        reserve_piles=int(data["reserve_piles"]),  # type: ignore[call-overload]
        base_rank=rank_or(data["foundation_start"], "dealt"),
        tableau_wrap=bool(data["tableau_wrap"]),
        whole_runs_only=run_moves == "whole-run",
        empty_column_rank=rank_or(data["empty_column"], "below-base"),
        stock_deals=deals,
        reserve_to_foundation=bool(data["reserve_to_foundation"]),
        exposed_to_foundation=bool(data["exposed_to_foundation"]),
        foundation_return=bool(data["foundation_return"]),
        rules=tuple(str(r) for r in data["rules"]),  # type: ignore[attr-defined]
        choices=tuple(str(c) for c in data.get("choices", [])),  # type: ignore[attr-defined]
    )
    unknown = [r for r in profile.rules if r not in rules()]
    if unknown:
        raise ValueError(f"unknown rule ids {unknown}")
    dealt = sum(profile.column_lengths) + profile.reserve_piles + profile.stock_size
    if dealt + (1 if profile.base_dealt else 0) != 52:
        raise ValueError(f"the layout deals {dealt} cards, not 52")
    return profile


def profile_ids() -> list[str]:
    folder = resources.files("agnes_teach").joinpath("profiles")
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".yaml"))


@cache
def get_profile(profile_id: str | None = None) -> Profile:
    """Load a profile by id; InputError (listing the known ids) for an unknown one."""
    pid = profile_id or DEFAULT_PROFILE
    if pid not in profile_ids():
        raise InputError(f"unknown profile {pid!r} (known: {', '.join(profile_ids())})")
    text = resources.files("agnes_teach").joinpath("profiles").joinpath(f"{pid}.yaml").read_text("utf-8")
    data = yaml.safe_load(text)
    try:
        return _load(data)
    except (KeyError, ValueError, TypeError) as exc:  # a broken shipped file is our bug
        raise RuntimeError(f"profile file {pid}.yaml is broken: {exc}") from exc
