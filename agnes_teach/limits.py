"""Every bound a run keeps, in one place (docs/decisions.md, "Limits", lists them and why).

A hostile or mistaken input must cost little: files are checked for size and
kind before they are read, move lists and budgets are bounded, the number of
worker processes is tied to the machine, and an error lists a bounded number
of problems.
"""

from __future__ import annotations

import math
import os

from .errors import InputError
from .yamlio import MAX_BYTES, MAX_YAML_DEPTH

__all__ = [
    "ANSWER_MAX_DEPTH", "ANSWER_MAX_STATES", "BELIEVER_MAX_STATES", "CANDIDATE_MAX_STATES", "DEAL_NODES",
    "MAX_BUDGET", "MAX_BYTES", "MAX_CARDS", "MAX_FAIR_ORDERS", "MAX_FAIR_STATES", "MAX_GENERATE", "MAX_LIST",
    "MAX_MOVES", "MAX_MOVES_TEXT", "MAX_PILE", "MAX_PILES", "MAX_PROBLEMS_SHOWN", "MAX_TEXT",
    "MAX_YAML_DEPTH",
    "MEASURE_VERDICT_NODES", "MINED_FIRST_MOVE", "MINING_BELIEF_STATES", "MINING_VERDICT_NODES",
    "MOMENT_FIRST_MOVE", "PLAYOUT_MAX_MOVES", "PRACTICE_MAX_CARDS", "PRACTICE_MAX_STATES",
    "REDUCE_BELIEF_STATES", "budget_seconds", "check_workers", "cpu_count", "max_workers",
]

# MAX_BYTES (yamlio): a position or scenario file is a few kilobytes; 2 MB leaves
# room for notes and long solutions while a hostile file still parses in about a second.
# MAX_YAML_DEPTH (yamlio): how deep lists and mappings may nest in such a file.

# The sizes in scenario and position files (the schema states them too).  A whole game
# rarely needs 300 moves (the longest solution the solver wrote for deals 1-1000 has well
# under that), and every move is replayed, drawn and printed: 1,000 keeps a worksheet's
# answer key to a few pages.
MAX_MOVES = 1000
MAX_PILE = 52
MAX_PILES = 16
MAX_TEXT = 2000
MAX_MOVES_TEXT = 20 * MAX_MOVES
MAX_LIST = MAX_MOVES  # no list or mapping in these files holds more entries

# One day: far above any claim or deal worth proving, and a number, never "forever".
MAX_BUDGET = 86_400.0
# generate --count: the search tries up to 400 candidates per puzzle, so the count
# bounds the run; the whole shipped library is under 100 puzzles.
MAX_GENERATE = 1000
# An error names at most this many problems, then counts the rest.
MAX_PROBLEMS_SHOWN = 20
# hint --fair: orders of the hidden cards (an interval of about ±3 points at 1000) and solver
# states per solve (minutes per solve on one core); beyond these a hint takes days.
MAX_FAIR_ORDERS = 1000
MAX_FAIR_STATES = 2_000_000

# Mining whole deals: positions before this move are openings, nearly the whole game still to
# play; a theme whose lesson lives in the opening says its own (``Theme.first_move``).
MINED_FIRST_MOVE = 10
# ... while a critical moment that is then cut down to a small puzzle may come this early.
MOMENT_FIRST_MOVE = 4

# Search budgets, in states (never seconds, so a run is reproducible).  One name per meaning:
DEAL_NODES = 400_000  # the solver, solving a whole deal (mining, critical moments)
MEASURE_VERDICT_NODES = 200_000  # the solver, one first move's verdict in a puzzle's teaching measures
MINING_VERDICT_NODES = 100_000  # the solver, one first move's verdict while mining (a cheaper screen)
BELIEVER_MAX_STATES = 30_000  # the believer's search (``lost_under``) before it answers "unknown"
MINING_BELIEF_STATES = 5_000  # ... per mined position: a few seconds at most
REDUCE_BELIEF_STATES = 2_000  # ... while cutting down (undecided: keep going, the judge decides)
ANSWER_MAX_STATES = 400_000  # the shortest-answer search: a big position fails fast, not out of memory
ANSWER_MAX_DEPTH = 16  # ... and its moves (a small puzzle's answer is at most 10)
CANDIDATE_MAX_STATES = 3000  # a built candidate with a larger reachable space is no small endgame
PRACTICE_MAX_STATES = 20_000  # reachable states (up to symmetry) a practice page embeds per puzzle
PLAYOUT_MAX_MOVES = 200  # a capped playout this long without a win goes round in circles: a loss

# Sizes in cards not home.
MAX_CARDS = 24  # a small puzzle (criterion 1: a pupil solves it on paper)
# Cards in play (tableau, reserve, exposed, stock) of a puzzle a practice page plays, at most: the
# library's puzzles of 29 and 30 cards fit, those of 32 measured do not (docs/guide.md), and finding
# out that a game is too large takes a minute or more.
PRACTICE_MAX_CARDS = 30


def cpu_count() -> int:
    """The CPUs this process may run on (the affinity mask, when the system has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def max_workers() -> int:
    """Worker processes beyond the CPU count only wait for a CPU (the solver never waits on I/O)."""
    return cpu_count()


def budget_seconds(value: float, option: str = "--budget") -> float:
    """A usable time budget: a finite number of seconds above 0 and at most MAX_BUDGET."""
    if not math.isfinite(value) or value <= 0:
        raise InputError(f"{option} must be a positive number of seconds (here {value!r})")
    if value > MAX_BUDGET:
        raise InputError(f"{option} is at most {MAX_BUDGET:g} seconds (one day); here {value:g}")
    return value


def check_workers(workers: int) -> int:
    """``--workers``: 1 to the CPU count."""
    if not 1 <= workers <= max_workers():
        raise InputError(f"--workers must be 1 to {max_workers()} (the CPUs this machine lets the run use); "
                         f"here {workers}")
    return workers
