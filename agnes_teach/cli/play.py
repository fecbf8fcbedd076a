"""Commands that play by the rules: ``deal``, ``moves``, ``check``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from .. import i18n
from ..checker import DEFAULT_BUDGET, CheckResult, check_scenario, check_unique_ids
from ..deal import MAX_SEED
from ..engine import legal_moves
from ..errors import InputError, Problem
from ..limits import budget_seconds
from ..scenario import Scenario, load_scenario, load_scenarios, parse_moves, scenario_files
from ..yamlio import Locator, dump_yaml
from .errors import input_errors
from .options import (
    JsonOption,
    LangOption,
    OptionalProfileOption,
    PySolFCOption,
    chosen_position,
)

app = typer.Typer()  # joined, without a name, into the root app of agnes_teach.cli


# ignore_unknown_options: "deal -1" reaches the range check below instead of being
# taken for an option named -1.
@app.command("deal", context_settings={"ignore_unknown_options": True})
@input_errors
def deal_command(
    number: Annotated[
        int | None,
        typer.Argument(metavar="N",
                       help=f"Deal number, 0 to {MAX_SEED} (docs/profiles.md gives the shuffle)."),
    ] = None,
    pysolfc: PySolFCOption = None,
    profile: OptionalProfileOption = None,
    as_json: JsonOption = False,
) -> None:
    """Print the starting position of deal number N (or of a PySolFC game) as YAML.

    \b
    Examples:
      agnes-teach deal 123 > deal123.yaml
      agnes-teach deal --pysolfc 12345
    """
    position = chosen_position(None, number, pysolfc, profile, deal_argument=True)
    if as_json:
        print(json.dumps(position.to_data(), ensure_ascii=False))
        return
    what = f"PySolFC game {pysolfc}" if pysolfc is not None else f"deal {number}"
    sys.stdout.write(f"# {what}, profile {position.profile.id}\n")
    sys.stdout.write(dump_yaml(position.to_data()))


@app.command("moves")
@input_errors
def moves_command(
    file: Annotated[Path, typer.Argument(help="A position file, or a scenario file with position:.")],
    as_json: JsonOption = False,
) -> None:
    """List the legal moves of the position in FILE.

    \b
    Example:
      agnes-teach moves deal123.yaml --json
    """
    scenario = load_scenario(file)
    moves = [str(m) for m in legal_moves(scenario.position)]
    if as_json:
        print(json.dumps({"moves": moves}))
    else:
        for move in moves:
            print(move)


@app.command("check")
@input_errors
def check_command(
    paths: Annotated[list[str], typer.Argument(help="Scenario files, or folders to search for *.yaml.")],
    solution: Annotated[
        str | None, typer.Option("--solution", help="A claimed solution to check against every file.")
    ] = None,
    as_json: JsonOption = False,
    lang: LangOption = "en",
    budget: Annotated[
        float, typer.Option("--budget", help="Seconds the solver may spend on each claim it proves.")
    ] = DEFAULT_BUDGET,
    teach: Annotated[
        bool, typer.Option("--teach", help="Also require that each puzzle teaches (docs/puzzles.md, "
                           "'Puzzles that teach'): random play wins at most 35% of 100 games (a game is lost "
                           "only after a mistake the solver proves fatal), a real choice, the misconception "
                           "loses.")
    ] = False,
) -> None:
    """Validate scenarios and verify every claim, a claimed solution included.

    Exit 0 when every claim holds, 1 when one fails (or is not proved), 2 for bad input.

    \b
    Example:
      agnes-teach check puzzles/ --lang ru
    """
    budget_seconds(budget)
    extra = parse_moves(solution, Locator("--solution", None)) if solution is not None else None
    files = scenario_files(paths)
    if not files:
        raise InputError(Problem("no scenario files (*.yaml) found", " ".join(paths)))
    scenarios = _load_every_scenario(files)
    results = []
    show = sys.stderr.isatty() and not as_json
    for sc in scenarios:
        if show:
            print(f"checking {sc.file} ...", file=sys.stderr, end="\r")
        results.append(check_scenario(sc, lang=lang, extra_solution=extra, budget=budget, teach=teach))
    check_unique_ids(results, lang)
    ok = all(r.ok for r in results)
    if as_json:
        print(json.dumps({"ok": ok, "results": [r.to_json() for r in results]}, ensure_ascii=False))
    else:
        _print_results(results, lang)
    raise typer.Exit(0 if ok else 1)


def _load_every_scenario(files: list[Path]) -> list[Scenario]:
    """Every file's scenario, or InputError listing every problem of every file."""
    # Load everything first: bad input anywhere stops the run before any claim is checked.
    # Two files of one id are each usable: every file is checked, and the second fails the
    # claim that its id is unique (formats.md, "Scenarios").
    return load_scenarios(files)


def _claims_line(r: CheckResult, lang: str) -> str:
    """What a file's claims came to: the passed ones; for a failed file the failed ones first."""
    if r.ok:
        if r.verified:
            return ", ".join(r.verified)
        return i18n.text(lang, "check", "nothing claimed")
    if not r.failed:
        return i18n.text(lang, "check", "nothing verified")
    failed = i18n.text(lang, "check", "failed: {claims}", claims=", ".join(r.failed))
    if not r.verified:
        return failed
    return failed + "; " + i18n.text(lang, "check", "passed: {claims}", claims=", ".join(r.verified))


def _print_results(results: list[CheckResult], lang: str) -> None:
    """Each file's verdict, its claims (what failed, what passed) and its errors, then the totals."""
    for r in results:
        status = "ok  " if r.ok else "FAIL"
        print(f"{status} {r.file} ({r.id}): {_claims_line(r, lang)}")
        for e in r.errors:
            # The move is quoted as the file or --solution wrote it; the words around it are translated.
            where = (i18n.text(lang, "check", "move {number} {move}: ", number=e.move_index, move=e.move)
                     if e.move_index else (f"{e.move}: " if e.move else ""))
            rule = f"[{e.rule}] " if e.rule else ""
            print(f"     {where}{rule}{e.message}")
        for note in r.notes:
            print(f"     {note.message}")
    passed = sum(r.ok for r in results)
    print(i18n.text(lang, "check", "{passed} passed, {failed} failed",
                    passed=passed, failed=len(results) - passed))
