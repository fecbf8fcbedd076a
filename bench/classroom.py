"""Benchmark: a class of pupils playing at once against a real classroom server.

Starts ``agnes-teach classroom serve`` on a fresh database, lets PUPILS pupils
join, then each pupil, in its own thread and all at the same moment, does
ROUNDS rounds of: a GET of a static file (the baseline: no token, no
database), a replay of a line (the board's move-by-move play: the engine,
no write), and an attempt (the engine and a committed, synced write). It
prints p50, p95 and the maximum of each kind, and the p95 ratios against the
baseline measured in the same run, and checks that every answered attempt is
in the report.

    .venv/bin/python bench/classroom.py --pupils 30 --rounds 10
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from _classroom_util import Reply, Server, init_db, join, setup_class  # noqa: E402

from agnes_teach.classroom.puzzle_library import load_library  # noqa: E402

KINDS = ("static GET (baseline)", "replay", "attempt")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[round(share * (len(ordered) - 1))]


def run(pupils: int, rounds: int, theme: str) -> int:
    folder = Path(tempfile.mkdtemp(prefix="classroom-bench-"))
    db = folder / "class.db"
    teacher = init_db(db)
    server = Server.start(db)
    try:
        class_id, code, assignment = setup_class(server, teacher, name="bench", theme=theme, count=3)
        library = load_library()
        lines = {p: [m.text for m in (library.by_id[p].solution or [])] for p in assignment["puzzles"]}
        clients = [join(server, code, f"pupil {i}") for i in range(pupils)]
        times: dict[str, list[float]] = {kind: [] for kind in KINDS}
        answered = [0]
        lock = threading.Lock()
        barrier = threading.Barrier(pupils)

        def timed(kind: str, reply: Callable[[], Reply]) -> int:
            started = time.perf_counter()
            status = reply().status
            with lock:
                times[kind].append(time.perf_counter() - started)
            return status

        def pupil(index: int) -> None:
            client = clients[index]
            barrier.wait()
            for n in range(rounds):
                puzzle = assignment["puzzles"][(index + n) % len(assignment["puzzles"])]
                line = lines[puzzle][: 1 + (index + n) % len(lines[puzzle])]
                body = {"assignment": assignment["id"], "puzzle": puzzle, "moves": line}
                timed(KINDS[0], partial(client.get, "/static/classroom.css", token=""))
                timed(KINDS[1], partial(client.post, "/api/me/replay", body))
                status = timed(KINDS[2], partial(client.post, "/api/attempts",
                                                 {**body, "client_id": f"{index}-{n}"}))
                if status == 201:
                    with lock:
                        answered[0] += 1

        threads = [threading.Thread(target=pupil, args=(i,)) for i in range(pupils)]
        started = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        wall = time.perf_counter() - started
        report = server.client(teacher).get(f"/api/classes/{class_id}/report").data
    finally:
        server.stop()
    base = percentile(times[KINDS[0]], 0.95)
    print(f"{pupils} pupils x {rounds} rounds at once, {wall:.1f} s, "
          f"{answered[0] / wall:.0f} attempts/s answered")
    print(f"{'request':24} {'n':>5} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} {'p95 / baseline':>15}")
    for kind in KINDS:
        values = times[kind]
        p95 = percentile(values, 0.95)
        print(f"{kind:24} {len(values):5d} {1000 * statistics.median(values):8.1f} {1000 * p95:8.1f} "
              f"{1000 * max(values):8.1f} {p95 / base:15.2f}")
    in_report = report["attempts"]
    print(f"answered attempts: {answered[0]}, in the report: {in_report}")
    return 0 if in_report == answered[0] == pupils * rounds else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pupils", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--theme", default="tableau.empty")
    args = parser.parse_args()
    if not 1 <= args.pupils <= 100 or not 1 <= args.rounds <= 1000:
        parser.error("--pupils 1..100, --rounds 1..1000")
    return run(args.pupils, args.rounds, args.theme)


if __name__ == "__main__":
    sys.exit(main())
