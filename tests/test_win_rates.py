"""data/win_rates.yaml: its counts are those of the results file it names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agnes_teach.winrates import _table, wilson, win_rate

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("profile_id", sorted(_table()))
def test_counts_match_the_results_file(profile_id: str) -> None:
    rate = win_rate(profile_id)
    assert rate is not None
    lines = [json.loads(line) for line in (ROOT / rate.results).read_text("utf-8").splitlines() if line]
    assert {r["profile"] for r in lines} == {profile_id}
    counts = {s: sum(r["status"] == s for r in lines) for s in ("won", "lost", "unknown")}
    assert (rate.won, rate.lost, rate.unknown) == (counts["won"], counts["lost"], counts["unknown"])
    assert {r["budget"] for r in lines} == {rate.budget_seconds}
    low, high = (int(x) for x in rate.deals.split("-"))
    assert sorted(r["deal"] for r in lines) == list(range(low, high + 1))


def test_bounds_and_intervals() -> None:
    rate = win_rate("bernauer")
    assert rate is not None
    lo, hi = rate.bounds()
    ilo, ihi = rate.interval()
    assert ilo < lo <= hi < ihi
    assert win_rate("no-such-profile") is None
    assert wilson(0, 0) == (0.0, 1.0)
