"""``survey --scheduler``: the same file through a Dask cluster as through the local pool.

One small ``LocalCluster`` of two worker processes serves every test here: a
survey gives the same rows as the local run (apart from the time each deal
took), a re-run skips what is written, and a worker that dies mid-task loses
no deal (the scheduler gives its task to the other worker).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from agnes_teach import survey
from agnes_teach.cli import app
from agnes_teach.cli.cluster import run_on_cluster

distributed = pytest.importorskip("distributed")

runner = CliRunner()

# Deals decided within a few thousand states; a state budget makes every row reproducible.
DEALS = "1-6"
ARGS = ["--deals", DEALS, "--budget", "60", "--states", "3000"]


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
        host="127.0.0.1", silence_logs=50,
    ) as local:
        yield local


def _rows(path: Path) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in path.read_text("utf-8").splitlines()]
    for row in rows:
        row.pop("seconds")
    return sorted(rows, key=lambda r: r["deal"])


def test_cluster_survey_gives_the_local_file_and_resumes(tmp_path: Path, cluster: Any) -> None:
    local, remote = tmp_path / "local.jsonl", tmp_path / "remote.jsonl"
    assert runner.invoke(app, ["survey", *ARGS, "--out", str(local)]).exit_code == 0
    result = runner.invoke(app, ["survey", *ARGS, "--out", str(remote), "--scheduler",
                                 cluster.scheduler_address, "--json"])
    assert result.exit_code == 0, result.output
    assert _rows(remote) == _rows(local)
    assert len(_rows(remote)) == 6
    summary = json.loads(result.stdout)
    assert summary["deals"] == 6
    # A re-run over a wider range solves only the new deals.
    again = runner.invoke(app, ["survey", "--deals", "1-7", *ARGS[2:], "--out", str(remote),
                                "--scheduler", cluster.scheduler_address])
    assert again.exit_code == 0, again.output
    assert [r["deal"] for r in _rows(remote)] == [1, 2, 3, 4, 5, 6, 7]
    assert len(remote.read_text("utf-8").splitlines()) == 7


def test_cluster_retry_unknown_gives_the_local_file(tmp_path: Path, cluster: Any) -> None:
    local, remote = tmp_path / "local.jsonl", tmp_path / "remote.jsonl"
    first = ["survey", "--deals", "1-4", "--budget", "60", "--states", "1"]
    retry = ["survey", *ARGS, "--retry-unknown"]  # deals 1-6: the four unknown ones again, and two new ones
    assert runner.invoke(app, [*first, "--out", str(local)]).exit_code == 0
    again = runner.invoke(app, [*retry, "--out", str(local)])
    assert again.exit_code == 0, again.output
    cluster_args = ["--scheduler", cluster.scheduler_address]
    assert runner.invoke(app, [*first, "--out", str(remote), *cluster_args]).exit_code == 0
    result = runner.invoke(app, [*retry, "--out", str(remote), *cluster_args, "--json"])
    assert result.exit_code == 0, result.output
    assert _rows(remote) == _rows(local) and len(_rows(remote)) == 10
    assert json.loads(result.stdout)["retried"] == 4 and json.loads(result.stdout)["deals"] == 6


def _die_once(job: tuple[Path, survey.SurveyJob]) -> dict[str, Any]:
    """Solve the job, but kill the worker process the first time deal 2 is met."""
    marker, inner = job
    if inner[0] == 2 and not marker.exists():
        marker.write_text("died", "utf-8")
        os._exit(1)
    return survey.solve_deal(inner)


def test_a_worker_that_dies_loses_no_deal(tmp_path: Path, cluster: Any) -> None:
    marker = tmp_path / "died"
    jobs = [(marker, (n, "bernauer", 60.0, 3000, False)) for n in (1, 2, 3)]
    with distributed.Client(cluster.scheduler_address, set_as_default=False) as client:
        rows = list(run_on_cluster(client, jobs, _die_once))
    assert marker.exists()  # a worker really died
    assert sorted(r["deal"] for r in rows) == [1, 2, 3]
    local = [survey.solve_deal(job) for _, job in jobs]
    strip = [{k: v for k, v in r.items() if k != "seconds"} for r in local]
    assert sorted(({k: v for k, v in r.items() if k != "seconds"} for r in rows),
                  key=lambda r: r["deal"]) == strip


def test_unreachable_scheduler_is_a_clear_error(tmp_path: Path) -> None:
    out = tmp_path / "s.jsonl"
    result = runner.invoke(app, ["survey", "--deals", "3", "--out", str(out),
                                 "--scheduler", "tcp://127.0.0.1:9"])
    assert result.exit_code == 2
    assert "cannot reach a Dask scheduler" in result.stderr and "Traceback" not in result.output
    assert not out.exists()
