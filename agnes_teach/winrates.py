"""Surveyed win rates per profile (``data/win_rates.yaml``), with their 95% intervals.

The file holds counts only; every percentage the guide prints is computed
here from them, so the text cannot drift from the survey it cites.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources

import yaml

from .errors import InputError
from .stats import wilson

WIN_RATES = "data/win_rates.yaml"
FIELDS = ("deals", "won", "lost", "unknown", "budget_seconds", "results", "command")


@dataclass(frozen=True)
class WinRate:
    """One survey: deals `deals`, each decided won / lost or left unknown within the budget."""

    profile: str
    deals: str
    won: int
    lost: int
    unknown: int
    budget_seconds: float
    results: str
    command: str

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


@cache
def _table() -> dict[str, WinRate]:
    text = resources.files("agnes_teach").joinpath(WIN_RATES).read_text("utf-8")
    data = yaml.safe_load(text) or {}
    out: dict[str, WinRate] = {}
    for profile, entry in (data.get("profiles") or {}).items():
        missing = [f for f in FIELDS if f not in entry]
        if missing:
            raise InputError(f"{WIN_RATES}: profile {profile} lacks {', '.join(missing)}")
        out[profile] = WinRate(profile, str(entry["deals"]), int(entry["won"]), int(entry["lost"]),
                               int(entry["unknown"]), float(entry["budget_seconds"]), str(entry["results"]),
                               str(entry["command"]))
    return out


def win_rate(profile_id: str) -> WinRate | None:
    """The survey of `profile_id`, or None when it has not been surveyed."""
    return _table().get(profile_id)
