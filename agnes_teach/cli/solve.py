"""Commands that run the exact solver: ``solve`` and ``survey``."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer

from ..errors import InputError
from ..limits import check_workers
from ..outputs import Interrupted
from ..profile import DEFAULT_PROFILE, get_profile
from ..registry import Verdict
from ..solver import solve
from ..survey import (
    Solver,
    SurveyRow,
    SurveyTally,
    parse_deal_ranges,
    run_jobs,
    run_survey,
    solve_deal,
    survey_summary,
)
from .errors import input_errors
from .options import (
    DealOption,
    JsonOption,
    OptionalProfileOption,
    ParentsOption,
    PositionFileArgument,
    ProfileOption,
    PySolFCOption,
    check_budget,
    check_out,
    chosen_position,
)

app = typer.Typer()  # joined, without a name, into the root app of agnes_teach.cli

DEFAULT_SOLVE_BUDGET = 10.0


# Exit codes of `solve` (formats.md): the verdict, so scripts can branch on it.
SOLVE_EXIT = {Verdict.WON: 0, Verdict.LOST: 1, Verdict.UNKNOWN: 3}


@app.command("solve")
@input_errors
def solve_command(
    file: PositionFileArgument = None,
    deal_number: DealOption = None,
    pysolfc: PySolFCOption = None,
    profile: OptionalProfileOption = None,
    budget: Annotated[
        float, typer.Option("--budget", help="Seconds the solver may spend before answering unknown.")
    ] = DEFAULT_SOLVE_BUDGET,
    as_json: JsonOption = False,
    no_prune: Annotated[
        bool, typer.Option("--no-prune", help="Switch off every pruning and dominance rule (slow).")
    ] = False,
) -> None:
    """Decide a position: won (with a solution), lost, or unknown within the budget.

    The solver knows the order of the stock, as every published patience
    solver does (for advice without that knowledge, see hint --fair).
    Exit 0 won, 1 lost, 3 unknown, 2 bad input.

    \b
    Example:
      agnes-teach solve --deal 123 --budget 30 --json
    """
    check_budget(budget)
    position = chosen_position(file, deal_number, pysolfc, profile)
    result = solve(position, seconds=budget, prune=not no_prune)
    if as_json:
        print(json.dumps(result.to_json()))
    else:
        print(f"{result.status} ({result.nodes} states, {result.seconds:.2f} s)")
        if result.status == Verdict.WON:
            print(" ".join(str(m) for m in result.solution))
    raise typer.Exit(SOLVE_EXIT[result.status])


def _percent(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.2f}%"


@app.command("survey")
@input_errors
def survey_command(
    deals: Annotated[str, typer.Option("--deals", help="Deal numbers: 1-10000, or 1-10,20-30.")],
    out: Annotated[Path, typer.Option("--out", help="JSON-lines file: one line per deal, appended; "
                                      "deals already in it are skipped (resume).")],
    budget: Annotated[float, typer.Option("--budget", help="Seconds per deal.")] = DEFAULT_SOLVE_BUDGET,
    workers: Annotated[int, typer.Option("--workers", help="Parallel processes.")] = 1,
    profile: ProfileOption = DEFAULT_PROFILE,
    as_json: JsonOption = False,
    parents: ParentsOption = False,
    scheduler: Annotated[
        str | None, typer.Option("--scheduler", help="Solve on a Dask cluster: the address of its scheduler, "
                                 "e.g. tcp://127.0.0.1:8786 (needs the 'distributed' package).")
    ] = None,
    states: Annotated[
        int | None, typer.Option("--states", help="Also stop a deal after this many expanded states: a "
                                 "budget that gives the same file on any machine.")
    ] = None,
    retry_unknown: Annotated[
        bool, typer.Option("--retry-unknown", help="Solve again, with this --budget/--states, the deals "
                           "whose last line in --out is unknown; the new line is appended and supersedes "
                           "the old one.")
    ] = False,
    restricted_splits: Annotated[
        bool, typer.Option("--restricted-splits", help="Also run a search that splits a run only when the "
                           "card it uncovers then goes home: it wins some hard deals much sooner, proves "
                           "no loss, and costs the other deals about a fifth more time; each line "
                           "records it.")
    ] = False,
) -> None:
    """Solve many deals with full knowledge of the stock and report the win rate.

    Prints the share of won deals among decided ones with a 95% Wilson
    interval, the same over all deals with unknowns counted both ways, and
    how many deals stayed unknown within the budget.  With --scheduler the
    deals are solved as tasks on a Dask cluster instead of --workers local
    processes; the file and the summary are the same either way.

    The file is only ever appended to.  When it holds several lines for one
    deal (a deal solved again with --retry-unknown), the last one counts: the
    summary counts every deal once, by its last line.

    \b
    Example:
      agnes-teach survey --deals 1-100 --budget 5 --workers 2 --out survey.jsonl

    \b
    A second pass over the deals left unknown, with a larger budget:
      agnes-teach survey --deals 1-100 --budget 60 --retry-unknown \\
        --out survey.jsonl

    \b
    A third pass that also tries the restricted-split search:
      agnes-teach survey --deals 1-100 --budget 60 --retry-unknown \\
        --restricted-splits --out survey.jsonl
    """
    check_budget(budget)
    check_out(out, parents)
    check_workers(workers)
    if states is not None and states < 1:
        raise InputError("--states must be at least 1")
    get_profile(profile)
    wanted = parse_deal_ranges(deals)
    tally = SurveyTally()
    try:
        with _solver(scheduler, workers, profile) as solve_jobs:
            run_survey(out, wanted, profile, budget, states, restricted_splits=restricted_splits,
                       retry_unknown=retry_unknown, solve_jobs=solve_jobs, progress=_progress, tally=tally)
    except Interrupted as stop:
        again = (" (deals retried this run that stayed unknown are solved once more)"
                 if retry_unknown else "")
        print(f"agnes-teach: interrupted; {tally.recorded} deals recorded in {out} this run "
              f"({tally.left - tally.recorded} left): run the same command again to resume{again}",
              file=sys.stderr)
        raise typer.Exit(128 + stop.signum) from None
    summary = survey_summary(tally.statuses())
    summary |= {"profile": profile, "budget": budget, "deal_range": deals}
    if retry_unknown:
        summary |= {"retried": len(tally.retried), "retried_decided": tally.settled}
    if as_json:
        print(json.dumps(summary))
        return
    if retry_unknown:
        print(f"retried {len(tally.retried)} deals recorded unknown: {tally.settled} decided this time")
    _print_summary(summary, profile, deals, budget)


@contextmanager
def _solver(scheduler: str | None, workers: int, profile: str) -> Iterator[Solver]:
    """How the survey's deals are solved: by `workers` local processes, or on the Dask cluster at
    `scheduler` (reached before the file is opened: a wrong address writes nothing)."""
    if scheduler is None:
        yield lambda jobs: run_jobs(jobs, workers)
        return
    from .cluster import connect, run_on_cluster

    with connect(scheduler) as client:
        yield lambda jobs: run_on_cluster(client, jobs, solve_deal, name=f"survey-{profile}")


def _print_summary(summary: dict[str, Any], profile: str, deals: str, budget: float) -> None:
    low, high = summary["wilson95_decided"]
    print(f"profile {profile}, deals {deals}, {budget:g} s per deal: {summary['deals']} deals, "
          f"{summary[Verdict.WON]} won, {summary[Verdict.LOST]} lost, {summary[Verdict.UNKNOWN]} unknown")
    print(f"win rate among decided deals: {_percent(summary['win_rate_decided'])} "
          f"(95% Wilson interval {_percent(low)} to {_percent(high)})")
    lo_all, hi_all = summary["wilson95_all_low"][0], summary["wilson95_all_high"][1]
    print(f"win rate over all deals: {_percent(summary['win_rate_all_low'])} (unknown = lost) to "
          f"{_percent(summary['win_rate_all_high'])} (unknown = won); 95% Wilson bounds "
          f"{_percent(lo_all)} to {_percent(hi_all)}")


class _progress:
    """A rich progress bar on stderr (only when stderr is a terminal)."""

    def __init__(self, total: int, completed: int) -> None:
        self.total, self.completed = total, completed
        self.bar: Any = None

    def __enter__(self) -> Callable[[SurveyRow], None]:
        if sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

            self.bar = Progress(
                TextColumn("survey"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                TextColumn("{task.description}"), console=Console(stderr=True),
            )
            self.bar.start()
            self.task = self.bar.add_task("", total=self.total, completed=self.completed)
        counts = dict.fromkeys(Verdict, 0)

        def advance(row: SurveyRow) -> None:
            counts[row["status"]] += 1
            if self.bar is not None:
                tally = " ".join(f"{k} {v}" for k, v in counts.items())
                self.bar.update(self.task, advance=1, description=tally)

        return advance

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()
