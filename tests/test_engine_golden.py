"""Golden transcripts: whole games from a deal, along a fixed line of play.

The line is greedy and deterministic: each step takes the first move in
``legal_moves`` order that reaches a position not seen before, trying
foundation moves first, then the other moves, and deals only when nothing
else is new; it stops when no move is left (or after MAX_MOVES).  Each
transcript in ``tests/golden/`` records the moves and the final position.

The test replays the recorded moves through the engine (each must be legal),
checks the final position, and regenerates the whole transcript to compare
text for text -- so any change in move generation, ordering, dealing or the
YAML form shows up here.  After an intended change, regenerate with::

    AGNES_REGEN_GOLDEN=1 .venv/bin/pytest tests/test_engine_golden.py

and review the diff before committing it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml

from agnes_teach.deal import deal
from agnes_teach.engine import apply_move, legal_moves, resolve
from agnes_teach.moves import Move, parse_move_text
from agnes_teach.position import Position, parse_position
from agnes_teach.profile import get_profile
from agnes_teach.yamlio import dump_yaml

GOLDEN = Path(__file__).resolve().parent / "golden"
MAX_MOVES = 200
GAMES = [("bernauer", 266), ("agnes-ru", 100)]


def greedy_line(pos: Position) -> tuple[list[Move], Position]:
    seen = {pos}
    line: list[Move] = []
    while len(line) < MAX_MOVES:
        moves = legal_moves(pos)
        ordered = [m for m in moves if m.dest == "f"] + [m for m in moves if m.dest not in ("f", "deal")]
        step = next(((m, nxt) for m in ordered if (nxt := apply_move(pos, m)) not in seen), None)
        if step is None and pos.stock:
            step = (Move(None, "deal"), apply_move(pos, Move(None, "deal")))
        if step is None:
            break
        line.append(step[0])
        pos = step[1]
        seen.add(pos)
    return line, pos


def transcript(profile: str, seed: int) -> str:
    line, end = greedy_line(deal(seed, get_profile(profile)))
    result = "won" if end.is_won() else ("stuck" if not legal_moves(end) else "stopped")
    out = [
        f"# deal {seed}, profile {profile}: the greedy line of tests/test_engine_golden.py",
        "# regenerate: AGNES_REGEN_GOLDEN=1 pytest tests/test_engine_golden.py",
        f"deal: {seed}",
        f"profile: {profile}",
        f"result: {result}, {end.cards_home()} of 52 cards home after {len(line)} moves",
        "moves: |",
    ]
    out += [f"  {i}. {m}" for i, m in enumerate(line, start=1)]
    out.append("final:")
    out += ["  " + row for row in dump_yaml(end.to_data()).splitlines()]
    return "\n".join(out) + "\n"


@pytest.mark.parametrize(("profile", "seed"), GAMES, ids=[f"{p}-{s}" for p, s in GAMES])
def test_golden_game(profile: str, seed: int) -> None:
    path = GOLDEN / f"{profile}-{seed}.txt"
    fresh = transcript(profile, seed)
    if os.environ.get("AGNES_REGEN_GOLDEN"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(fresh, encoding="utf-8")
    recorded = path.read_text(encoding="utf-8")

    # Replay the recorded moves, as text, from the deal: each one legal, ending where recorded.
    data = yaml.safe_load(recorded)
    pos = deal(data["deal"], get_profile(data["profile"]))
    for line in data["moves"].splitlines():
        got = resolve(pos, parse_move_text(line.split(".", 1)[1]))
        assert got in legal_moves(pos), line
        pos = apply_move(pos, got)
    assert pos == parse_position(data["final"])
    assert recorded == fresh


def test_a_golden_game_is_won() -> None:
    # At least one transcript is a whole game to the end: every card home.
    assert "result: won, 52 of 52" in (GOLDEN / "bernauer-266.txt").read_text(encoding="utf-8")
