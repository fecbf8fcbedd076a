"""Perft tables per profile: the engine and the solver's fast state count the same move sequences.

The counts in ``tests/perft/<profile>.perft`` were written from the engine
(``tests/perft/make.py``); every profile has a table.  A change that alters what is legal
anywhere in the first moves of these deals changes a count.  (The compiled core has no move
generator of its own to count with: it is checked against the Python search state by state in
test_solver_core.py.)
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _perft_util import perft_engine, perft_fast

from agnes_teach.deal import deal
from agnes_teach.profile import get_profile, profile_ids
from agnes_teach.solver.fast import FastState

TABLES = Path(__file__).resolve().parent / "perft"


def _table(pid: str) -> list[tuple[int, int, int]]:
    rows = []
    for line in (TABLES / f"{pid}.perft").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            _, number, _, depth, _, nodes = line.split()
            rows.append((int(number), int(depth), int(nodes)))
    return rows


def test_every_profile_has_a_table() -> None:
    assert sorted(p.stem for p in TABLES.glob("*.perft")) == profile_ids()


@pytest.mark.parametrize("pid", profile_ids())
def test_perft(pid: str) -> None:
    rows = _table(pid)
    assert len({n for n, _, _ in rows}) >= 3 and max(d for _, d, _ in rows) >= 4
    for number, depth, nodes in rows:
        pos = deal(number, get_profile(pid))
        assert perft_engine(pos, depth) == nodes, (pid, number, depth)
        state = FastState(pos)
        before = state.snapshot()
        assert perft_fast(state, depth) == nodes, (pid, number, depth)
        assert state.snapshot() == before
