"""The exact solver's public API.

``solve`` decides a position: ``won`` (with a solution that replays through the
engine), ``lost`` (the whole reachable space was refuted) or ``unknown`` (the
budget ran out).  Never a guess.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Literal

from ..engine import apply_unchecked, legal_moves
from ..moves import Move
from ..position import Position

Status = Literal["won", "lost", "unknown"]


@dataclass
class SolveResult:
    status: Status
    solution: list[Move] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0

    def to_json(self) -> dict[str, object]:
        return {
            "status": self.status,
            "solution": [str(m) for m in self.solution],
            "nodes": self.nodes,
            "seconds": round(self.seconds, 4),
        }


class _OutOfBudget(Exception):
    pass


def solve(
    pos: Position,
    *,
    seconds: float | None = None,
    nodes: int | None = None,
    prune: bool = True,
) -> SolveResult:
    """Decide `pos` by depth-first search over engine positions with a visited set."""
    start = time.perf_counter()
    deadline = start + seconds if seconds is not None else None
    seen: set[Position] = set()
    count = 0
    path: list[Move] = []

    def search(p: Position) -> bool:
        nonlocal count
        if p.is_won():
            return True
        if p in seen:
            return False
        seen.add(p)
        count += 1
        if (nodes is not None and count > nodes) or (
            deadline is not None and count % 256 == 0 and time.perf_counter() > deadline
        ):
            raise _OutOfBudget
        for move in legal_moves(p):
            path.append(move)
            if search(apply_unchecked(p, move)):
                return True
            path.pop()
        return False

    try:
        won = search(pos)
    except _OutOfBudget:
        return SolveResult("unknown", [], count, time.perf_counter() - start)
    return SolveResult("won" if won else "lost", list(path) if won else [], count, time.perf_counter() - start)


@dataclass
class FirstMoves:
    """Every legal first move sorted by what the solver proved after it."""

    winning: list[Move]
    losing: list[Move]
    unknown: list[Move]


def first_move_verdicts(pos: Position, *, seconds: float | None = None) -> FirstMoves:
    """Solve the position after each legal first move (each with the same budget)."""
    out = FirstMoves([], [], [])
    for move in legal_moves(pos):
        result = solve(apply_unchecked(pos, move), seconds=seconds)
        {"won": out.winning, "lost": out.losing, "unknown": out.unknown}[result.status].append(move)
    return out
