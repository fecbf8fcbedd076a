"""The ``solve`` and ``survey`` commands as a user runs them."""

from __future__ import annotations

import json
import math
from pathlib import Path

from _solver_util import LOST_POSITION
from typer.testing import CliRunner

from agnes_teach import survey
from agnes_teach.cli import app
from agnes_teach.deal import deal
from agnes_teach.engine import apply_move
from agnes_teach.moves import parse_move_text
from agnes_teach.profile import get_profile
from agnes_teach.stats import wilson

runner = CliRunner()

# Deals the solver wins within milliseconds (measured): quick and still real.
EASY = (3, 5)


def _write_deal(tmp_path: Path, number: int) -> Path:
    result = runner.invoke(app, ["deal", str(number)])
    assert result.exit_code == 0
    path = tmp_path / f"deal-{number}.yaml"
    path.write_text(result.stdout, "utf-8")
    return path


def test_solve_file_json_is_a_win_that_replays(tmp_path: Path) -> None:
    path = _write_deal(tmp_path, EASY[0])
    result = runner.invoke(app, ["solve", str(path), "--json", "--budget", "20"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) == {"status", "solution", "nodes", "seconds"}
    assert data["status"] == "won" and data["nodes"] > 0
    pos = deal(EASY[0], get_profile("bernauer"))
    for text in data["solution"]:
        move = parse_move_text(text)
        assert move.card is not None or move.is_deal
        from agnes_teach.engine import resolve

        pos = apply_move(pos, resolve(pos, move))
    assert pos.is_won()
    # And the checker agrees, through --solution.
    check = runner.invoke(app, ["check", str(path), "--solution", " ".join(data["solution"])])
    assert check.exit_code == 0, check.output


def test_solve_deal_text_output() -> None:
    result = runner.invoke(app, ["solve", "--deal", str(EASY[1]), "--budget", "20"])
    assert result.exit_code == 0, result.output
    first, moves = result.stdout.splitlines()[:2]
    assert first.startswith("won (")
    assert len(moves.split()) > 50


def test_solve_unknown_is_reported_not_guessed() -> None:
    result = runner.invoke(app, ["solve", "--deal", "1", "--budget", "0.01", "--json"])
    status = json.loads(result.stdout)["status"]
    assert status in ("unknown", "won", "lost")
    # formats.md: the exit code is the verdict.
    assert result.exit_code == {"won": 0, "lost": 1, "unknown": 3}[status]


def test_solve_exit_codes_are_the_verdict(tmp_path: Path) -> None:
    won = runner.invoke(app, ["solve", "--deal", str(EASY[0]), "--budget", "20"])
    assert won.exit_code == 0 and won.stdout.startswith("won")
    # Deal 20015 stays unknown after 60 s (bench/results/bench-20001-21000-c.jsonl and later runs).
    unknown = runner.invoke(app, ["solve", "--deal", "20015", "--budget", "0.2"])
    assert unknown.exit_code == 3 and unknown.stdout.startswith("unknown")
    lost = tmp_path / "lost.yaml"
    lost.write_text(LOST_POSITION, "utf-8")
    result = runner.invoke(app, ["solve", str(lost)])
    assert result.exit_code == 1 and result.stdout.startswith("lost"), result.output


def test_solve_bad_input_exits_2(tmp_path: Path) -> None:
    missing = runner.invoke(app, ["solve", str(tmp_path / "nothing.yaml")])
    assert missing.exit_code == 2 and "nothing.yaml" in missing.stderr
    neither = runner.invoke(app, ["solve"])
    assert neither.exit_code == 2 and "exactly one of" in neither.stderr
    both = runner.invoke(app, ["solve", str(tmp_path / "x.yaml"), "--deal", "3"])
    assert both.exit_code == 2
    budget = runner.invoke(app, ["solve", "--deal", "3", "--budget", "0"])
    assert budget.exit_code == 2 and "--budget" in budget.stderr
    profile = runner.invoke(app, ["solve", "--deal", "3", "--profile", "nosuch"])
    assert profile.exit_code == 2 and "nosuch" in profile.stderr
    broken = tmp_path / "broken.yaml"
    broken.write_text("base: 5\ntableau: [[ZZ]]\n", "utf-8")
    bad = runner.invoke(app, ["solve", str(broken)])
    assert bad.exit_code == 2 and "broken.yaml" in bad.stderr and "Traceback" not in bad.output


def test_survey_appends_resumes_and_summarises(tmp_path: Path) -> None:
    out = tmp_path / "survey.jsonl"
    first = runner.invoke(app, ["survey", "--deals", "3", "--budget", "20", "--out", str(out)])
    assert first.exit_code == 0, first.output
    assert len(out.read_text().splitlines()) == 1
    # A cut-off last line (an interrupted run) is dropped and that deal solved again.
    with out.open("a") as handle:
        handle.write('{"deal": 5, "prof')
    second = runner.invoke(app, ["survey", "--deals", "3,5", "--budget", "20", "--out", str(out), "--json"])
    assert second.exit_code == 0, second.output
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["deal"] for r in rows] == [3, 5]  # deal 3 was not solved again
    assert all(r["status"] == "won" and r["profile"] == "bernauer" for r in rows)
    summary = json.loads(second.stdout)
    assert (summary["won"], summary["lost"], summary["unknown"]) == (2, 0, 0)
    assert summary["win_rate_decided"] == 1.0


def _lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()]


def test_survey_retry_unknown_appends_and_the_last_line_counts(tmp_path: Path) -> None:
    out = tmp_path / "survey.jsonl"
    # One expanded state decides nothing: both deals are recorded unknown.
    first = runner.invoke(app, ["survey", "--deals", "3,5", "--states", "1", "--out", str(out), "--json"])
    assert first.exit_code == 0, first.output
    assert [r["status"] for r in _lines(out)] == ["unknown", "unknown"]
    # Without --retry-unknown a re-run solves nothing: unknown is a recorded answer.
    again = runner.invoke(app, ["survey", "--deals", "3,5", "--budget", "20", "--out", str(out), "--json"])
    assert again.exit_code == 0 and len(_lines(out)) == 2
    assert json.loads(again.stdout)["unknown"] == 2
    # The retry solves them again (and the new deal 7 too) and appends; the old lines stay.
    retry = runner.invoke(app, ["survey", "--deals", "3,5,7", "--budget", "20", "--retry-unknown",
                                "--out", str(out), "--json"])
    assert retry.exit_code == 0, retry.output
    rows = _lines(out)
    assert [(r["deal"], r["status"]) for r in rows[:2]] == [(3, "unknown"), (5, "unknown")]
    assert sorted(r["deal"] for r in rows[2:]) == [3, 5, 7]
    assert {r["deal"]: r["status"] for r in rows}[3] == "won" and rows[2]["budget"] == 20.0
    summary = json.loads(retry.stdout)
    assert summary["deals"] == 3 and summary["unknown"] == sum(r["status"] == "unknown" for r in rows[2:])
    assert (summary["retried"], summary["retried_decided"]) == (2, 2)
    # The summary of the file counts each deal once, by its last line: nothing is solved again.
    read = runner.invoke(app, ["survey", "--deals", "3,5,7", "--retry-unknown", "--out", str(out)])
    assert read.exit_code == 0 and len(_lines(out)) == 5
    assert "3 deals" in read.stdout and "retried 0 deals" in read.stdout
    assert survey.read_survey(out, "bernauer") == {r["deal"]: r["status"] for r in rows}


def test_survey_retry_only_touches_unknown_deals_of_the_range(tmp_path: Path) -> None:
    out = tmp_path / "survey.jsonl"
    line = '{{"deal": {n}, "profile": "{p}", "status": "{s}", "nodes": 1, "seconds": 0.0, "moves": 0, ' \
        '"budget": 1.0}}\n'
    out.write_text(line.format(n=3, p="bernauer", s="won")  # decided: never solved again
                   + line.format(n=5, p="bernauer", s="unknown")  # superseded by the next line
                   + line.format(n=5, p="bernauer", s="lost")
                   + line.format(n=9, p="bernauer", s="unknown")  # outside --deals
                   + line.format(n=3, p="morehead", s="unknown"), "utf-8")  # another profile
    result = runner.invoke(app, ["survey", "--deals", "3,5", "--retry-unknown", "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert (summary["deals"], summary["won"], summary["lost"], summary["unknown"]) == (2, 1, 1, 0)
    assert summary["retried"] == 0 and len(_lines(out)) == 5


def test_survey_bad_input_exits_2(tmp_path: Path) -> None:
    out = tmp_path / "survey.jsonl"
    out.write_text("not json\n", "utf-8")
    bad_file = runner.invoke(app, ["survey", "--deals", "3", "--out", str(out)])
    assert bad_file.exit_code == 2 and "survey.jsonl:1" in bad_file.stderr
    bad_range = runner.invoke(app, ["survey", "--deals", "9-3", "--out", str(tmp_path / "o.jsonl")])
    assert bad_range.exit_code == 2 and "--deals" in bad_range.stderr
    no_workers = ["survey", "--deals", "3", "--workers", "0", "--out", str(tmp_path / "o")]
    bad_workers = runner.invoke(app, no_workers)
    assert bad_workers.exit_code == 2
    assert not (tmp_path / "o.jsonl").exists() and not (tmp_path / "o").exists()


def test_wilson_interval_matches_known_values() -> None:
    low, high = wilson(81, 100)
    # 81/100 at 95% (worked by hand): centre 0.8292/1.0384 = 0.7985, half-width 0.0763.
    assert math.isclose(low, 0.7222, abs_tol=5e-4) and math.isclose(high, 0.8749, abs_tol=5e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    assert math.isclose(wilson(10, 10)[1], 1.0)


def test_deal_ranges() -> None:
    assert list(survey.parse_deal_ranges("1-3,7,5-6")) == [1, 2, 3, 5, 6, 7]


def test_survey_with_the_restricted_split_search_records_it(tmp_path: Path) -> None:
    plain, wide = tmp_path / "plain.jsonl", tmp_path / "wide.jsonl"
    for out, extra in ((plain, []), (wide, ["--restricted-splits"])):
        args = ["survey", "--deals", "1-4", "--states", "20000", "--out", str(out), *extra]
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.output
    plain_rows = [json.loads(line) for line in plain.read_text().splitlines()]
    wide_rows = [json.loads(line) for line in wide.read_text().splitlines()]
    assert all(r.get("restricted_splits") is True for r in wide_rows)
    assert not any("restricted_splits" in r for r in plain_rows)
    # A win is a win either way; the extra search never turns a decided deal around.
    for a, b in zip(plain_rows, wide_rows, strict=True):
        assert "unknown" in (a["status"], b["status"]) or a["status"] == b["status"]
