"""The answer's length: the moves of a winning line up to the last one that is not a plain move
home (issue 20).

The worksheet cuts its key at ``answer_cut``, the generator and the checker hold the answer to at
most ten moves with it and ``bench/teach.py`` measures the library with it, so small known cases
pin the cut for all of them: plain moves home end the answer, and a move home that needs the rule
being taught (the corner's Ace onto a King) stays in it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from agnes_teach.engine import apply_move, resolve
from agnes_teach.moves import Move, parse_move_text
from agnes_teach.position import Position, parse_position
from agnes_teach.registry import RuleId
from agnes_teach.solver import solve
from agnes_teach.tagger.answer import answer_cut
from agnes_teach.tagger.teaching import cards_not_home
from agnes_teach.themes import theme_for

ROOT = Path(__file__).resolve().parent.parent


def _endgame(column: str) -> Position:
    """Every card home but the two black clubs' last ranks, which lie in the first column."""
    return parse_position({
        "profile": "bernauer", "base": "A",
        "foundations": {"S": "KS", "H": "KH", "D": "KD", "C": "JC"},
        "tableau": [column, [], [], [], [], [], []],
        "reserve": [[], [], [], [], [], [], []],
        "stock": [],
    })


def _line(pos: Position, texts: list[str]) -> list[Move]:
    """The moves named, checked to be legal and to win (a cut is only defined on a winning line)."""
    moves = []
    for text in texts:
        move = resolve(pos, parse_move_text(text))
        moves.append(move)
        pos = apply_move(pos, move)
    assert pos.is_won()
    return moves


def test_only_moves_home_left_is_an_answer_of_no_moves() -> None:
    pos = _endgame("KC QC")  # the Queen on top: both go home as they are
    assert cards_not_home(pos) == 2
    assert answer_cut(pos, _line(pos, ["QC>f", "KC>f"])) == 0
    assert answer_cut(pos, solve(pos).solution) == 0


def test_one_move_before_the_cards_go_home_is_an_answer_of_one() -> None:
    pos = _endgame("QC KC")  # the King covers the Queen: it must step aside first
    line = _line(pos, ["KC>t2", "QC>f", "KC>f"])
    assert answer_cut(pos, line) == 1
    assert answer_cut(pos, solve(pos).solution) == 1


def test_a_move_home_inside_the_answer_does_not_end_it() -> None:
    pos = _endgame("QC KC")
    # Only the moves home at the very end are summed up; the line before them is the answer.
    assert answer_cut(pos, _line(pos, ["KC>t2", "QC>f", "KC>t3", "KC>f"])) == 3


def test_bench_prints_the_sizes_without_playouts() -> None:
    run = subprocess.run([sys.executable, str(ROOT / "bench" / "teach.py"), "--library",
                          str(ROOT / "puzzles" / "demo"), "--playouts", "0"],
                         capture_output=True, text=True, check=True, timeout=120)
    head = next(line for line in run.stdout.splitlines() if line.startswith("| theme"))
    for column in ("cards not home (median)", "answer (median)", "<= 24 cards and <= 10 moves"):
        assert column in head
    assert "random" not in head  # no playouts: the players' columns are left out
    total = next(line for line in run.stdout.splitlines() if line.startswith("| all"))
    assert total.split("|")[2].strip() == "4"  # the demo's four puzzles


def _corner(column: str) -> Position:
    """Base 2: spades reached their King and wait for the Ace; the other suits are complete."""
    return parse_position({
        "profile": "bernauer", "base": 2,
        "foundations": {"S": "KS", "H": "AH", "D": "AD", "C": "AC"},
        "tableau": [column, [], [], [], [], [], []],
        "reserve": [[], [], [], [], [], [], []],
        "stock": [],
    })


def test_a_move_home_that_needs_the_rule_stays_in_the_answer() -> None:
    """The Ace onto the King is a move home, but a pupil who holds "an Ace never follows the King"
    never makes it: for the corner it is the lesson, so the answer runs up to it."""
    pos = _corner("AS")
    line = _line(pos, ["AS>f"])
    corner = theme_for(RuleId.FOUNDATION_WRAP, pos.profile.id).believer
    assert answer_cut(pos, line) == 0  # read without the theme: a plain move home
    assert answer_cut(pos, line, corner) == 1  # the corner's answer is the Ace's move
    # Another theme's belief allows the Ace home: for it the move is plain.
    assert answer_cut(pos, line, theme_for(RuleId.TABLEAU_EMPTY, pos.profile.id).believer) == 0
