"""Perft: the number of move sequences of each length from a position (the engine's and the fast state's).

Tables per profile live in ``tests/perft/<profile>.perft`` (one line ``deal N depth D nodes X``),
as python-chess keeps them per variant: a change to a rule's code that changes what is legal
changes a count.  ``.venv/bin/python tests/perft/make.py`` writes them from the engine.
"""

from __future__ import annotations

from agnes_teach.engine import apply_unchecked, legal_moves
from agnes_teach.position import Position
from agnes_teach.solver.fast import FastState

DEALS = (1, 2, 3, 4, 5, 6)  # the deals of every table
DEPTH = 5  # counted to this depth (the issue asks 3-4; 5 is still cheap)


def perft_engine(pos: Position, depth: int) -> int:
    if depth == 0:
        return 1
    moves = legal_moves(pos)
    if depth == 1:
        return len(moves)
    return sum(perft_engine(apply_unchecked(pos, m), depth - 1) for m in moves)


def perft_fast(state: FastState, depth: int) -> int:
    if depth == 0:
        return 1
    moves = state.moves()
    if depth == 1:
        return len(moves)
    total = 0
    for m in moves:
        state.apply(m)
        total += perft_fast(state, depth - 1)
        state.undo(m)
    return total
