"""``generate --max-seconds`` stops inside a job's stages, not only between jobs, and a job the clock
cuts gives nothing: a run cut short keeps a prefix of what an unbounded run keeps.

The slow stage is simulated by moving the run's clock (``agnes_teach.clock``) forward inside it, so
no test here depends on how fast the machine is."""

from __future__ import annotations

import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from typer.testing import CliRunner

from agnes_teach import clock
from agnes_teach.cli import app
from agnes_teach.generator import pipeline, reduce
from agnes_teach.generator.pipeline import Search, find
from agnes_teach.profile import get_profile
from agnes_teach.registry import RuleId

AGES = 10.0**6  # how far a slow stage moves the clock: far past any --max-seconds


class _Clock:
    """The run's clock, moved forward by `AGES` once `age` is called."""

    def __init__(self) -> None:
        self.offset = 0.0

    def monotonic(self) -> float:
        return time.monotonic() + self.offset

    def age(self) -> None:
        self.offset = AGES


@pytest.fixture
def slow_clock(monkeypatch: pytest.MonkeyPatch) -> _Clock:
    fake = _Clock()
    monkeypatch.setattr(clock, "time", SimpleNamespace(monotonic=fake.monotonic))
    return fake


def test_a_long_keying_stops_at_the_deadline_and_its_job_gives_nothing(
        slow_clock: _Clock, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Deal 4's first critical moment gives a tableau.empty puzzle (test_pipeline); here its keying
    outlasts --max-seconds: the keying itself sees the deadline and stops, the run takes nothing from
    the job, starts no other, and ends with exit 3 and no file."""
    real = reduce.answer_key
    calls: list[str] = []

    def slow_answer_key(*args: Any, **kwargs: Any) -> Any:
        calls.append("entered")
        slow_clock.age()  # the keying runs long: the run's time is over while it works
        try:
            return real(*args, **kwargs)
        except clock.OutOfTime:
            calls.append("stopped at the deadline")
            raise

    monkeypatch.setattr(reduce, "answer_key", slow_answer_key)
    out = tmp_path / "out"
    args = ["generate", "--theme", "tableau.empty", "--count", "1", "--deals", "4-9", "--seed", "0",
            "--max-seconds", "600", "--out", str(out)]
    result = CliRunner().invoke(app, args)
    assert calls == ["entered", "stopped at the deadline"]
    assert result.exit_code == 3, result.output
    assert "only 0 of 1 small puzzles" in result.output
    assert not out.exists() or not any(out.iterdir())


def test_a_job_cut_by_the_clock_drops_what_it_found_before_the_cut(
        slow_clock: _Clock, monkeypatch: pytest.MonkeyPatch) -> None:
    """A job that has keyed a puzzle and is cut on its next starting point gives nothing at all: its
    first puzzle is not taken, though an unbounded run would take it (a prefix, never a pick).
    Deal 4's last critical moment gives a tableau.empty puzzle; here it is tried first."""
    real_points = pipeline.starting_points

    def puzzle_first(*args: Any) -> Any:
        points = real_points(*args)
        return [points[-1], *points[:-1]]

    monkeypatch.setattr(pipeline, "starting_points", puzzle_first)
    real_keyed, real_reduce = pipeline.keyed, pipeline.reduce_moment
    keyed_puzzles: list[object] = []
    cut: list[str] = []

    def keyed(theme: str, reduced: Any) -> Any:
        found = real_keyed(theme, reduced)
        if found is not None:
            keyed_puzzles.append(found)
        return found

    def slow_once_keyed(*args: Any, **kwargs: Any) -> Any:
        if keyed_puzzles:
            slow_clock.age()  # the next cut-down runs long
            try:
                return real_reduce(*args, **kwargs)
            except clock.OutOfTime:
                cut.append("the cut-down stopped at the deadline")
                raise
        return real_reduce(*args, **kwargs)

    monkeypatch.setattr(pipeline, "keyed", keyed)
    monkeypatch.setattr(pipeline, "reduce_moment", slow_once_keyed)
    job = pipeline.NumberJob(RuleId.TABLEAU_EMPTY, "bernauer", 4, False, reduce.SEARCH_POSITIONS, hits=2,
                             until=time.time() + 600)
    done = pipeline.cut_down_number(job)
    assert len(keyed_puzzles) == 1 and cut == ["the cut-down stopped at the deadline"]
    assert done.cut and done.tried == [] and not done.complete
    keyed_puzzles.clear()
    assert find(Search(RuleId.TABLEAU_EMPTY, 2), [4], get_profile("bernauer"), max_seconds=600) == []


def test_without_a_deadline_the_clock_never_stops_a_stage(slow_clock: _Clock) -> None:
    slow_clock.age()
    clock.check()  # no deadline set: nothing raised
    with clock.running_until(time.monotonic() + 2 * AGES):
        clock.check()
    with clock.running_until(time.monotonic()), pytest.raises(clock.OutOfTime):
        clock.check()
    assert clock.deadline() is None


def test_a_built_candidate_cut_by_the_clock_is_not_taken(
        slow_clock: _Clock, monkeypatch: pytest.MonkeyPatch) -> None:
    """Built puzzles: the run's time runs out while the second candidate is judged. The run judges no
    candidate after it, and keeps exactly what a run of as many attempts as were judged whole keeps
    (the second one's, only if its judging finished before any stage looked at the clock)."""
    real = pipeline.candidate
    calls: list[str] = []

    def slow_second(*args: Any, **kwargs: Any) -> Any:
        calls.append("judged")
        if len(calls) == 2:
            slow_clock.age()
            try:
                return real(*args, **kwargs)
            except clock.OutOfTime:
                calls.append("stopped at the deadline")
                raise
        return real(*args, **kwargs)

    monkeypatch.setattr(pipeline, "candidate", slow_second)
    profile = get_profile("bernauer")
    cut = pipeline.generate("tableau.wrap", 3, 41, profile, max_seconds=600)
    assert calls in (["judged", "judged"], ["judged", "judged", "stopped at the deadline"])
    whole = 1 if calls[-1] == "stopped at the deadline" else 2
    monkeypatch.setattr(pipeline, "candidate", real)
    slow_clock.offset = 0.0
    unbounded = pipeline.generate("tableau.wrap", 3, 41, profile, max_attempts=whole)
    assert [p.key for p in cut] == [p.key for p in unbounded]
