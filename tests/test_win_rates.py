"""data/win_rates.yaml: its counts are those of the results file it names, by each deal's last line."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from agnes_teach.errors import InputError
from agnes_teach.survey import parse_deal_ranges, read_survey
from agnes_teach.winrates import _table, parse_win_rates, wilson, win_rate, win_rates

ROOT = Path(__file__).resolve().parent.parent


def _options(command: str) -> dict[str, str]:
    """``agnes-teach survey --deals 1-10 --retry-unknown`` -> {"--deals": "1-10", "--retry-unknown": ""}."""
    words = shlex.split(command)
    assert words[:2] == ["agnes-teach", "survey"], command
    options: dict[str, str] = {}
    i = 2
    while i < len(words):
        takes_value = i + 1 < len(words) and not words[i + 1].startswith("--")
        options[words[i]] = words[i + 1] if takes_value else ""
        i += 2 if takes_value else 1
    return options


@pytest.mark.parametrize("profile_id", sorted(_table()))
def test_counts_match_the_results_file(profile_id: str) -> None:
    rate = win_rate(profile_id)
    assert rate is not None
    path = ROOT / rate.results
    lines = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line]
    assert {r["profile"] for r in lines} == {profile_id}
    # A deal solved again (--retry-unknown) counts once, by its last line.
    last = read_survey(path, profile_id)
    counts = {s: sum(status == s for status in last.values()) for s in ("won", "lost", "unknown")}
    assert (rate.won, rate.lost, rate.unknown) == (counts["won"], counts["lost"], counts["unknown"])
    assert sorted(last) == list(parse_deal_ranges(rate.deals))
    # Every line was made by one of the passes the entry states, and every pass made lines.
    passes = {(p.budget_seconds, p.state_budget, p.restricted_splits) for p in rate.passes}
    used = {(r["budget"], r.get("state_budget"), r.get("restricted_splits", False)) for r in lines}
    assert used == passes
    assert len(lines) >= len(last) + (len(rate.passes) > 1)


@pytest.mark.parametrize("profile_id", sorted(_table()))
def test_each_pass_states_the_command_that_made_it(profile_id: str) -> None:
    rate = win_rate(profile_id)
    assert rate is not None
    for i, survey_pass in enumerate(rate.passes):
        options = _options(survey_pass.command)
        # A run stopped early (a partial file) covers less than its command asked for, never more.
        asked = parse_deal_ranges(options["--deals"])
        assert all(n in asked for n in parse_deal_ranges(rate.deals))
        assert float(options["--budget"]) == survey_pass.budget_seconds
        assert options.get("--states") == (None if survey_pass.state_budget is None
                                           else str(survey_pass.state_budget))
        assert options.get("--profile", "bernauer") == profile_id
        assert ("--retry-unknown" in options) == (i > 0)
        assert ("--restricted-splits" in options) == survey_pass.restricted_splits


def test_bounds_and_intervals() -> None:
    rate = win_rate("bernauer")
    assert rate is not None
    lo, hi = rate.bounds()
    ilo, ihi = rate.interval()
    assert ilo < lo <= hi < ihi
    share, dlo, dhi = rate.decided_rate()
    assert dlo < share < dhi and share == rate.won / rate.decided
    assert win_rate("no-such-profile") is None
    assert wilson(0, 0) == (0.0, 1.0)
    assert [r.profile for r in win_rates()] == list(_table())


SURVEY = """
profiles:
  morehead:
    deals: 1-2000
    won: 1200
    lost: 300
    unknown: 500
    budget_seconds: 1
    results: r.jsonl
    command: agnes-teach survey --profile morehead --deals 1-2000 --budget 1 --out r.jsonl
    retries:
      - budget_seconds: 10
        state_budget: 5000
        command: agnes-teach survey --profile morehead --deals 1-2000 --budget 10 --states 5000
          --retry-unknown
"""


def test_a_survey_in_two_passes() -> None:
    rate = parse_win_rates(SURVEY)["morehead"]
    assert [(p.budget_seconds, p.state_budget) for p in rate.passes] == [(1.0, None), (10.0, 5000)]
    assert rate.budget_seconds == 1.0 and rate.total == 2000 and rate.bounds() == (0.6, 0.85)


@pytest.mark.parametrize("broken, message", [
    (SURVEY.replace("    won: 1200\n", ""), "lacks won"),
    (SURVEY.replace("      - budget_seconds: 10\n        state", "      - state"),
     "retry 1 lacks budget_seconds"),
    (SURVEY.replace("    retries:\n", "    retries: 3\n    unused:\n"), "retries is not a list"),
    (SURVEY.replace("1200", "0").replace("300", "0").replace("500", "0"), "counts no deal"),
])
def test_a_broken_entry_is_named(broken: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        parse_win_rates(broken)


def test_the_benchmarks_page_table_is_made_from_the_data_file() -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_win_rates", ROOT / "bench" / "win_rates.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert bench.README == ROOT / "docs" / "benchmarks.md"
    page = bench.README.read_text("utf-8")
    # Run `python bench/win_rates.py --write` after changing data/win_rates.yaml.
    assert bench.readme_with_table(page) == page
    for rate in win_rates():
        assert f"| `{rate.profile}` |" in page and rate.results in page
