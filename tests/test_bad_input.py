"""Bad input through the real command line: exit code 2, a clear message, never a traceback.

Each file of ``tests/bad_inputs/`` is one kind of bad input (its first line
says which).  Every file goes through ``moves`` and ``check``; the message
must name the file, the line where one is known, and the problem.  Most runs
use typer's in-process runner on the real ``app``; a few go through the
installed console script in a subprocess, as a user would run it.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from agnes_teach.checker import check_scenario
from agnes_teach.cli import app
from agnes_teach.errors import InputError
from agnes_teach.scenario import scenario_from_data
from agnes_teach.yamlio import loads

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "bad_inputs"
GOOD = HERE.parent / "agnes_teach" / "data" / "examples" / "section-08.yaml"

# file -> (line named in the message or None, words the message must contain)
EXPECTED: dict[str, tuple[int | None, list[str]]] = {
    "syntax-error.yaml": (14, ["not valid YAML", "']'"]),
    "duplicate-card.yaml": (2, ["duplicated cards: 7S", "missing cards: 8S"]),
    "missing-card.yaml": (2, ["missing cards: JS QC", "a stock of 14 cards is impossible"]),
    "unknown-card.yaml": (7, ["not a card: '11S'", "not a card: 'ZZ'"]),
    "impossible-stock.yaml": (22, ["a stock of 12 cards is impossible in bernauer"]),
    "reserve-too-high.yaml": (15, ["reserve pile r1 holds 2 cards", "at most 1"]),
    "exposed-with-stock.yaml": (23, ["exposed card in x1 while the stock still holds 16",
                                     "exposed card in x2"]),
    "wrong-pile-counts.yaml": (7, ["'tableau' has 6 piles; bernauer has 7", "'reserve' has 8 piles"]),
    "unknown-profile.yaml": (2, ["unknown profile 'klondike'", "bernauer"]),
    "unknown-rule-theme.yaml": (4, ["unknown rule id 'tableau.nonsense'"]),
    "unknown-rule-illegal.yaml": (29, ["unknown rule id 'tableau.no-such-rule'"]),
    "alias-bomb.yaml": (3, ["aliases"]),
    "python-tag.yaml": (2, ["not valid YAML", "python/object"]),
    "tag-refuses-value.yaml": (35, ["not valid YAML", "'yes - 6H>f' cannot be read as !!bool"]),
    "bad-move-solution.yaml": (27, ["move 2: not a move: '3S>t99x'"]),
    "bad-move-expect.yaml": (28, ["move 2: not a move: '4H>>t3'"]),
    "empty.yaml": (None, ["the file is empty"]),
    "whitespace-only.yaml": (None, ["the file is empty"]),
    "comment-only.yaml": (None, ["holds no YAML data"]),
    "binary.yaml": (None, ["binary data"]),
    "latin1.yaml": (4, ["not UTF-8"]),
    "list-not-mapping.yaml": (2, ["must be a YAML mapping"]),
    "scalar-not-mapping.yaml": (2, ["must be a YAML mapping"]),
    "deeply-nested.yaml": (2, ["nesting depth"]),
    "deeply-nested-block.yaml": (34, ["nested more than 32 deep"]),
    "duplicate-key.yaml": (24, ["key 'stock' is given twice (first on line 22)"]),
    "bad-base.yaml": (3, ["not a rank: 14"]),
    "foundation-wrong-suit.yaml": (5, ["foundation H cannot have 10S on top"]),
}

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    # Anything but a clean exit is a bug: an exception escaping means a traceback for the user.
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, result.stdout, result.stderr


def assert_refused(code: int, out: str, err: str, *needles: str) -> None:
    assert code == 2, (code, out, err)
    assert "Traceback" not in out + err
    for needle in needles:
        assert needle in err, (needle, err)


def test_the_corpus_is_complete() -> None:
    files = {p.name for p in CORPUS.glob("*.yaml")}
    assert files == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
@pytest.mark.parametrize("command", ["moves", "check", "solve", "hint"])
def test_bad_file(command: str, name: str) -> None:
    line, words = EXPECTED[name]
    path = str(CORPUS / name)
    code, out, err = run(command, path)
    where = f"{path}:{line}:" if line else f"{path}:"
    assert_refused(code, out, err, where, *words)
    assert out == ""  # nothing on stdout: no half-written output


def test_check_loads_every_file_before_checking_any() -> None:
    # A good file next to a bad one: the run stops with exit 2 and checks nothing; with --json
    # stdout holds the problems, not results (formats.md, "--json output").
    code, out, err = run("check", str(GOOD), str(CORPUS / "duplicate-card.yaml"), "--json")
    assert_refused(code, out, err, "duplicate-card.yaml:2: duplicated cards: 7S")
    shown = json.loads(out)
    assert shown["ok"] is False and "results" not in shown
    assert shown["errors"][0] == {"file": str(CORPUS / "duplicate-card.yaml"), "line": 2,
                                  "message": "duplicated cards: 7S"}


def test_check_reports_every_bad_file() -> None:
    code, out, err = run("check", str(CORPUS / "unknown-card.yaml"), str(CORPUS / "bad-base.yaml"))
    assert_refused(code, out, err, "unknown-card.yaml:7", "bad-base.yaml:3")


@pytest.mark.parametrize("solution", ["4C>t2 4C>>t1", "6H>f, xyz", "6H>q", "t0>t1", "deal deal 1H>f"])
def test_bad_move_text_in_solution_option(solution: str) -> None:
    code, out, err = run("check", str(GOOD), "--solution", solution)
    assert_refused(code, out, err, "--solution", "not a move")


def test_folder_without_yaml() -> None:
    code, out, err = run("check", str(CORPUS / "no-yaml-here"))
    assert_refused(code, out, err, "no-yaml-here", "no scenario files")


def test_missing_file() -> None:
    missing = str(CORPUS / "no-such-file.yaml")
    for command in ("moves", "check"):
        code, out, err = run(command, missing)
        assert_refused(code, out, err, "no-such-file.yaml", "no such file")


def test_moves_on_a_folder() -> None:
    code, out, err = run("moves", str(CORPUS))
    assert_refused(code, out, err, "is a folder, not a file")


@pytest.mark.parametrize(("args", "needle"), [
    (["deal", "-1"], "deal number -1 is out of range"),
    (["deal", "2147483648"], "out of range"),
    (["deal", "abc"], "valid integer"),
    # Closed sets are choices: the message lists them.
    (["deal", "1", "--profile", "klondike"], "'klondike' is not one of 'agnes-ru', 'bernauer'"),
    (["check", str(GOOD), "--lang", "xx"], "'xx' is not one of 'en', 'es', 'ru'"),
    (["check", str(GOOD), "--budget", "0"], "--budget"),
])
def test_bad_arguments(args: list[str], needle: str) -> None:
    code, out, err = run(*args)
    assert_refused(code, out, err, needle)


def test_expect_illegal_with_an_unknown_rule_in_a_scenario_dir(tmp_path: Path) -> None:
    # A folder scan meets the bad file too, and names it.
    shutil.copy(CORPUS / "unknown-rule-illegal.yaml", tmp_path / "x.yaml")
    code, out, err = run("check", str(tmp_path))
    assert_refused(code, out, err, "x.yaml:29", "tableau.no-such-rule")


# ------------------------------------------------------------ the installed console script

SCRIPT = Path(sys.executable).parent / "agnes-teach"


@pytest.mark.skipif(not SCRIPT.exists(), reason="console script not installed next to this python")
@pytest.mark.parametrize("args", [
    ["moves", str(CORPUS / "python-tag.yaml")],
    ["solve", str(CORPUS / "tag-refuses-value.yaml")],
    ["check", str(CORPUS / "alias-bomb.yaml")],
    ["check", str(CORPUS / "binary.yaml")],
    ["check", str(CORPUS / "deeply-nested.yaml")],
    ["deal", "-1"],
    ["deal", "abc"],
])
def test_console_script(args: list[str]) -> None:
    proc = subprocess.run([str(SCRIPT), *args], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2, proc
    assert "Traceback" not in proc.stdout + proc.stderr
    assert proc.stdout == ""
    assert proc.stderr.strip()


# ------------------------------------------------------------ fuzzing: damaged files fail cleanly

GOOD_TEXT = GOOD.read_text(encoding="utf-8")
SNIPPETS = ["", " ", "\n", ":", "- ", "[", "]", "{", "}", "&a ", "*a", "!!binary ", "'", '"', "#", ">", "|",
            "~", "null", "[]", "{}", "4C", "ZZ", "t9", "10H>f", "x1", "deal", "\t", "? ", ",", "-1", "1e9"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edits=st.lists(st.tuples(st.floats(0, 1), st.integers(0, 8), st.sampled_from(SNIPPETS)),
                      min_size=1, max_size=4))
def test_damaged_scenarios_fail_cleanly(edits: list[tuple[float, int, str]]) -> None:
    text = GOOD_TEXT
    for where, cut, insert in edits:
        i = int(where * len(text))
        text = text[:i] + insert + text[i + cut:]
    try:
        data, loc = loads(text, "fuzz.yaml")
        sc = scenario_from_data(data, loc, "fuzz.yaml")
    except InputError as exc:
        assert exc.problems and all(p.message for p in exc.problems)
        return
    # Still a valid scenario: checking it must not crash either (solver claims left out: slow).
    sc.expect.pop("winnable", None)
    with contextlib.suppress(InputError):  # e.g. an ambiguous SRC>DEST move: bad input, exit 2
        check_scenario(sc, budget=1)


@pytest.mark.parametrize("command", ["moves", "check", "solve", "hint", "sheet"])
def test_a_tag_that_refuses_its_value_is_one_message(command: str, tmp_path: Path) -> None:
    # The input: `solution: !!bool yes` with the moves on the next line made the YAML
    # constructor raise KeyError, a traceback and exit 1.
    path = str(CORPUS / "tag-refuses-value.yaml")
    out_file = tmp_path / "sheet.pdf"
    args = [command, path] + (["--out", str(out_file)] if command == "sheet" else [])
    code, out, err = run(*args)
    assert_refused(code, out, err,
                   f"{path}:35: not valid YAML: the value 'yes - 6H>f' cannot be read as !!bool")
    assert err.count("not valid YAML") == 1 and not out_file.exists()
