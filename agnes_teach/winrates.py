"""Surveyed win rates per profile (``data/win_rates.yaml``), with their 95% intervals.

The file holds counts only; every percentage the guide prints is computed
here from them, so the text cannot drift from the survey it cites.  A survey
may have been made in passes: a first one over every deal, then
``survey --retry-unknown`` passes over the deals still undecided, each with
its own budget (``retries:``); the counts are those of each deal's last line.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import yaml

from .errors import InputError
from .registry import Verdict
from .stats import wilson

WIN_RATES = "data/win_rates.yaml"
FIELDS = ("deals", Verdict.WON.value, Verdict.LOST.value, Verdict.UNKNOWN.value, "budget_seconds", "results",
          "command")
PASS_FIELDS = ("budget_seconds", "command")


@dataclass(frozen=True)
class SurveyPass:
    """One run of ``agnes-teach survey`` over the file: its budget per deal and its command."""

    budget_seconds: float
    state_budget: int | None  # --states, when the pass had one
    command: str
    restricted_splits: bool = False  # --restricted-splits


@dataclass(frozen=True)
class WinRate:
    """One survey: deals `deals`, each decided won / lost or left unknown within the budget."""

    profile: str
    deals: str
    won: int
    lost: int
    unknown: int
    passes: tuple[SurveyPass, ...]  # the first over every deal, then the --retry-unknown passes
    results: str

    @property
    def budget_seconds(self) -> float:
        """The first pass's budget per deal."""
        return self.passes[0].budget_seconds

    @property
    def command(self) -> str:
        """The first pass's command."""
        return self.passes[0].command

    @property
    def total(self) -> int:
        return self.won + self.lost + self.unknown

    @property
    def decided(self) -> int:
        return self.won + self.lost

    def bounds(self) -> tuple[float, float]:
        """Winnable share of all surveyed deals: every unknown lost .. every unknown won."""
        return (self.won / self.total, (self.won + self.unknown) / self.total)

    def interval(self) -> tuple[float, float]:
        """95% Wilson interval around those bounds (low end of the first, high end of the second)."""
        return (wilson(self.won, self.total)[0], wilson(self.won + self.unknown, self.total)[1])

    def decided_rate(self) -> tuple[float, float, float]:
        """Won among decided deals, with its 95% Wilson interval (biased up: wins prove faster)."""
        low, high = wilson(self.won, self.decided)
        return (self.won / self.decided if self.decided else 0.0, low, high)


def _survey_pass(where: str, entry: dict[str, Any]) -> SurveyPass:
    if not isinstance(entry, dict):
        raise InputError(f"{where} is not a mapping")
    missing = [f for f in PASS_FIELDS if f not in entry]
    if missing:
        raise InputError(f"{where} lacks {', '.join(missing)}")
    states = entry.get("state_budget")
    return SurveyPass(float(entry["budget_seconds"]), None if states is None else int(states),
                      str(entry["command"]), bool(entry.get("restricted_splits", False)))


def parse_win_rates(text: str, source: str = WIN_RATES) -> dict[str, WinRate]:
    """The surveys in a win_rates.yaml text, by profile id, in the file's order."""
    data = yaml.safe_load(text) or {}
    out: dict[str, WinRate] = {}
    for profile, entry in (data.get("profiles") or {}).items():
        missing = [f for f in FIELDS if f not in entry]
        if missing:
            raise InputError(f"{source}: profile {profile} lacks {', '.join(missing)}")
        first = _survey_pass(f"{source}: profile {profile}", entry)
        retries = entry.get("retries") or []
        if not isinstance(retries, list):
            raise InputError(f"{source}: profile {profile}: retries is not a list")
        passes = (first, *(_survey_pass(f"{source}: profile {profile}, retry {i}", r)
                           for i, r in enumerate(retries, 1)))
        rate = WinRate(profile, str(entry["deals"]), int(entry[Verdict.WON]), int(entry[Verdict.LOST]),
                       int(entry[Verdict.UNKNOWN]), passes, str(entry["results"]))
        if rate.total == 0:
            raise InputError(f"{source}: profile {profile} counts no deal")
        out[profile] = rate
    return out


@cache
def _table() -> dict[str, WinRate]:
    return parse_win_rates(resources.files("agnes_teach").joinpath(WIN_RATES).read_text("utf-8"))


def win_rate(profile_id: str) -> WinRate | None:
    """The survey of `profile_id`, or None when it has not been surveyed."""
    return _table().get(profile_id)


def win_rates() -> list[WinRate]:
    """Every surveyed profile, in the order of the file."""
    return list(_table().values())
