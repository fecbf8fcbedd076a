"""The defects of the hardening pass, each reproduced, and the limits that now hold.

Cases 1, 9 and 10 (claims that are one move, claims that fail without a rule,
values of the wrong type) are settled by the table of fields and tested in
``test_fields.py``; the rest are here.  Runs that need a real process (signals,
a file name that is not UTF-8, two surveys at once) use a subprocess.
"""

from __future__ import annotations

import fcntl
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from agnes_teach import survey
from agnes_teach.cli import app
from agnes_teach.limits import MAX_MOVES, MAX_PROBLEMS_SHOWN, max_workers

REPO = Path(__file__).resolve().parent.parent
SECTION_08 = REPO / "agnes_teach" / "data" / "examples" / "section-08.yaml"
runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, result.stdout, result.stderr


def cli(*args: str, **kwargs: object) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-c", "from agnes_teach.cli import main; main()", *args]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kwargs)  # type: ignore[call-overload, no-any-return]


# ------------------------------------------------------------------ 2. budgets are finite


@pytest.mark.parametrize("budget", ["nan", "inf", "1e309", "-1", "0", "1e6"])
@pytest.mark.parametrize("command", ["check", "solve"])
def test_a_budget_that_is_not_a_finite_number_of_seconds_is_bad_input(command: str, budget: str) -> None:
    code, out, err = run(command, str(SECTION_08), "--budget", budget)
    assert code == 2 and "--budget" in err and out == "", (code, err)


def test_survey_budget_is_finite_too(tmp_path: Path) -> None:
    code, _, err = run("survey", "--deals", "1", "--budget", "nan", "--out", str(tmp_path / "s.jsonl"))
    assert code == 2 and "--budget" in err
    assert not (tmp_path / "s.jsonl").exists()


# ------------------------------------------------------------------ 3. deal ranges are streamed


def test_the_widest_deal_range_is_counted_not_listed() -> None:
    started = time.monotonic()
    wanted = survey.parse_deal_ranges("0-2147483647")
    assert len(wanted) == 2**31 and 2147483647 in wanted and -1 not in wanted
    assert time.monotonic() - started < 1
    overlapping = survey.parse_deal_ranges("5-9,1-3,4,8-12")
    assert overlapping.ranges == [(1, 12)] and len(overlapping) == 12


def test_bad_input_to_a_huge_survey_leaves_no_file(tmp_path: Path) -> None:
    out = tmp_path / "s.jsonl"
    code, _, err = run("survey", "--deals", "1-20000000", "--workers", "0", "--out", str(out))
    assert code == 2 and not out.exists(), err


# ------------------------------------------------------------------ 4. input size and kind before reading


@pytest.mark.parametrize("command", ["moves", "check", "solve"])
def test_a_device_is_bad_input_not_a_memory_error(command: str) -> None:
    code, _, err = run(command, "/dev/zero")
    assert code == 2 and "is not a regular file" in err


@pytest.mark.parametrize("command", ["moves", "check", "sheet"])
def test_a_fifo_is_bad_input_and_does_not_hang(tmp_path: Path, command: str) -> None:
    fifo = tmp_path / "in.yaml"
    os.mkfifo(fifo)
    extra = ["--out", str(tmp_path / "x.pdf")] if command == "sheet" else []
    proc = cli(command, str(fifo), *extra)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 2 and b"is not a regular file" in err


def test_survey_out_fifo_is_bad_input(tmp_path: Path) -> None:
    fifo = tmp_path / "out.jsonl"
    os.mkfifo(fifo)
    proc = cli("survey", "--deals", "1", "--budget", "0.1", "--out", str(fifo))
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 2 and b"is not a regular file" in err


def test_a_large_file_is_refused_by_its_size(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    with big.open("wb") as handle:
        handle.truncate(3_000_000)  # sparse: refused from its size alone
    code, _, err = run("moves", str(big))
    assert code == 2 and "too large (3000000 bytes; at most 2000000)" in err


# ------------------------------------------------------------------ 5 and 6. signals stop every run cleanly


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_during_a_sheet_leaves_nothing_behind(tmp_path: Path, signum: int) -> None:
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    puzzles = [str(p) for p in sorted((REPO / "puzzles" / "demo").glob("*.yaml"))]
    proc = cli("sheet", *puzzles, "--out", str(out_dir / "sheet.pdf"))

    def started() -> bool:
        return any(out_dir.iterdir()) or proc.poll() is not None

    def before_signal() -> None:
        assert proc.poll() is None, "the sheet finished before it could be interrupted"

    err = _signal_when(proc, signum, started, before_signal, pause=0.01)
    assert proc.returncode == 128 + signum
    assert b"Traceback" not in err
    assert list(out_dir.iterdir()) == []


def _signal_when(proc: subprocess.Popen[bytes], signum: int, started: Callable[[], bool],
                 before_signal: Callable[[], None], pause: float) -> bytes:
    """Wait (up to 60 s) until `started()`, send `signum`, and return stderr; never leave `proc` running."""
    try:
        deadline = time.monotonic() + 60
        while not started() and time.monotonic() < deadline:
            time.sleep(pause)
        before_signal()
        os.kill(proc.pid, signum)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return err


def _children(pid: int) -> set[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return set()
    return {int(p) for p in text.split()}


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(max_workers() < 2 or not Path("/proc/self/task").exists(),
                    reason="needs two CPUs and /proc to see the workers")
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_stops_a_multi_worker_survey_and_its_workers(tmp_path: Path, signum: int) -> None:
    out = tmp_path / "s.jsonl"
    proc = cli("survey", "--deals", "1-100000", "--budget", "0.3", "--workers", "2", "--out", str(out))
    workers: set[int] = set()

    def started() -> bool:
        workers.update(_children(proc.pid))
        return out.exists() and out.stat().st_size > 0

    err = _signal_when(proc, signum, started, lambda: workers.update(_children(proc.pid)), pause=0.05)
    assert proc.returncode == 128 + signum, err
    assert b"Traceback" not in err and b"leaked" not in err, err
    assert b"run the same command again to resume" in err
    time.sleep(0.5)
    assert workers and not [p for p in workers if _alive(p)]
    lines = out.read_text("utf-8").splitlines()
    assert lines and all(json.loads(line)["deal"] for line in lines)


def test_workers_are_bounded_by_the_cpus(tmp_path: Path) -> None:
    code, _, err = run("survey", "--deals", "1-2", "--workers", str(max_workers() + 1),
                       "--out", str(tmp_path / "s.jsonl"))
    assert code == 2 and f"--workers must be 1 to {max_workers()}" in err


# ------------------------------------------------------------------ 7. solution length


def test_a_solution_longer_than_the_limit_is_bad_input(tmp_path: Path) -> None:
    path = tmp_path / "long.yaml"
    text = SECTION_08.read_text("utf-8").replace("task: win", "task: legal-moves")
    lines = text.splitlines()
    lines = [ln for ln in lines if not ln.startswith("solution:")]
    lines.append("solution: " + " ".join(["4C>t1", "4C>t5"] * ((MAX_MOVES + 2) // 2)))
    path.write_text("\n".join(lines) + "\n", "utf-8")
    for command in (["check", str(path)], ["sheet", str(path), "--out", str(tmp_path / "x.pdf")]):
        code, _, err = run(*command)
        assert code == 2 and f"at most {MAX_MOVES}" in err, err
    assert not (tmp_path / "x.pdf").exists()
    code, _, err = run("check", str(SECTION_08), "--solution", " ".join(["deal"] * (MAX_MOVES + 1)))
    assert code == 2 and f"at most {MAX_MOVES}" in err


# ------------------------------------------------------------------ 8. one writer per survey file


def test_a_second_survey_on_one_file_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "s.jsonl"
    out.write_text("", "utf-8")
    with out.open("a") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)  # another survey is running
        code, _, err = run("survey", "--deals", "1-3", "--budget", "0.1", "--out", str(out))
    assert code == 2 and "another survey is writing to this file" in err
    assert out.read_text("utf-8") == ""
    # Once the first is done, the same command runs (and resumes as before).
    code, _, _ = run("survey", "--deals", "1-3", "--budget", "0.1", "--out", str(out))
    assert code == 0 and len(out.read_text("utf-8").splitlines()) == 3
    code, _, _ = run("survey", "--deals", "1-4", "--budget", "0.1", "--out", str(out))
    assert code == 0 and len(out.read_text("utf-8").splitlines()) == 4


# ------------------------------------------------------------------ 10. small ones


def test_a_file_name_that_is_not_utf8_does_not_crash(tmp_path: Path) -> None:
    folder = os.fsencode(tmp_path)
    name = folder + b"/\xff-section.yaml"
    with open(name, "wb") as handle:
        handle.write(SECTION_08.read_bytes())
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict", "LC_ALL": "C.UTF-8"}
    proc = cli("check", os.fsdecode(name), "--budget", "5", env=env)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert b"Traceback" not in err and b"section.yaml" in out


def test_300000_bad_cards_give_a_short_message(tmp_path: Path) -> None:
    for stock in (" ".join(["ZZ"] * 300_000), "[" + ", ".join(["ZZ"] * 300_000) + "]"):
        path = tmp_path / "bad.yaml"
        path.write_text(SECTION_08.read_text("utf-8").replace("  stock: []", f"  stock: {stock}"), "utf-8")
        code, _, err = run("moves", str(path))
        assert code == 2 and len(err) < 2000, len(err)


def test_an_error_lists_a_bounded_number_of_problems(tmp_path: Path) -> None:
    for i in range(MAX_PROBLEMS_SHOWN + 5):
        (tmp_path / f"{i:02}.yaml").write_text("id: x\n", "utf-8")
    code, _, err = run("check", str(tmp_path))
    assert code == 2
    lines = err.splitlines()
    assert len(lines) == MAX_PROBLEMS_SHOWN + 1
    assert lines[-1].startswith("agnes-teach: ... and ")
    assert lines[-1].endswith(" more problems (fix these first)")


@pytest.mark.parametrize("tail", [b"", b'{"deal": 3, "sta', b"x" * 200_000])
def test_a_cut_off_last_survey_line_is_dropped_without_reading_the_file_whole(tmp_path: Path,
                                                                            tail: bytes) -> None:
    path = tmp_path / "s.jsonl"
    whole = b'{"deal": 1}\n' * 10_000
    path.write_bytes(whole + tail)
    survey.drop_cut_off_line(path)
    assert path.read_bytes() == whole
    path.write_bytes(tail)
    survey.drop_cut_off_line(path)
    assert path.read_bytes() == b""


def test_generate_count_is_bounded(tmp_path: Path) -> None:
    from agnes_teach.limits import MAX_GENERATE

    code, _, err = run("generate", "--theme", "tableau.empty", "--count", str(MAX_GENERATE + 1),
                       "--seed", "1", "--out", str(tmp_path / "p"))
    assert code == 2 and f"at most {MAX_GENERATE}" in err


def test_hint_is_bounded_too() -> None:
    from agnes_teach.limits import MAX_FAIR_ORDERS, MAX_FAIR_STATES

    for args, words in [(["--fair", "5", "--workers", str(max_workers() + 1)], "--workers must be 1 to"),
                        (["--fair", str(MAX_FAIR_ORDERS + 1)], f"at most {MAX_FAIR_ORDERS} orders"),
                        (["--fair", "5", "--states", str(MAX_FAIR_STATES + 1)], f"at most {MAX_FAIR_STATES}"),
                        (["--budget", "inf"], "--budget")]:
        code, _, err = run("hint", "--deal", "1", *args)
        assert code == 2 and words in err, (args, err)
