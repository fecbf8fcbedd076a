"""The win-rate table of docs/benchmarks.md, made from ``agnes_teach/data/win_rates.yaml`` (not a test).

    python bench/win_rates.py            # print the table
    python bench/win_rates.py --write    # put it into docs/benchmarks.md between its markers

Every figure is computed from the counts in the data file (the same
``agnes_teach.winrates`` the guide's FAQ uses), so after a survey only the
data file changes by hand: run this with ``--write`` and docs/benchmarks.md follows.
``tests/test_win_rates.py`` fails when that page's table is not the one this
prints.  The counts themselves are checked against each results file (by each
deal's last line) by the same test file; ``agnes-teach survey --deals RANGE
--out FILE --json`` on a finished file prints them without solving anything.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from agnes_teach.winrates import SurveyPass, WinRate, win_rates

README = Path(__file__).resolve().parent.parent / "docs" / "benchmarks.md"
BEGIN = "<!-- win-rates: made by bench/win_rates.py --write from agnes_teach/data/win_rates.yaml -->"
END = "<!-- win-rates: end -->"


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _budget(survey_pass: SurveyPass) -> str:
    extra = ", restricted-split search added" if survey_pass.restricted_splits else ""
    if survey_pass.state_budget is None:
        return f"{survey_pass.budget_seconds:g} s{extra}"
    return f"{survey_pass.state_budget:,} states (cap {survey_pass.budget_seconds:g} s{extra})"


def _row(rate: WinRate) -> str:
    share, dlo, dhi = rate.decided_rate()
    low, high = rate.bounds()
    ilo, ihi = rate.interval()
    budgets = ", then ".join(_budget(p) for p in rate.passes)
    deals = rate.deals.replace("-", "–")
    counts = f"{rate.won:,} / {rate.lost:,} / {rate.unknown:,}"
    return (f"| `{rate.profile}` | {deals} ({rate.total:,}) | {counts} "
            f"| {_pct(share)} ({_pct(dlo)}–{_pct(dhi)}) | {_pct(low)}–{_pct(high)} ({_pct(ilo)}–{_pct(ihi)}) "
            f"| {budgets} | `{rate.results}` |")


def table() -> str:
    """The markdown table and, under it, the command(s) that made each results file."""
    lines = [
        "| profile | deals | won / lost / unknown | won among decided (95%) "
        "| winnable of all deals: unknown lost – won (95%) | budget per deal | results |",
        "|---|---|---|---|---|---|---|",
    ]
    rates = win_rates()
    lines += [_row(rate) for rate in rates]
    lines += ["", "Commands that made each file (a later pass appended to the same file):", ""]
    for rate in rates:
        commands = "; then ".join(f"`{p.command}`" for p in rate.passes)
        lines.append(f"* `{rate.profile}`: {commands}")
    return "\n".join(lines)


def readme_with_table(text: str) -> str:
    """The page's text with the part between the markers replaced by the current table."""
    if BEGIN not in text or END not in text:
        raise SystemExit(f"docs/benchmarks.md lacks the markers {BEGIN!r} and {END!r}")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{BEGIN}\n{table()}\n{END}{tail}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="update docs/benchmarks.md in place")
    args = parser.parse_args()
    if not args.write:
        print(table())
        return
    text = README.read_text("utf-8")
    new = readme_with_table(text)
    if new != text:
        README.write_text(new, "utf-8")
        print("docs/benchmarks.md: win-rate table updated", file=sys.stderr)


if __name__ == "__main__":
    main()
