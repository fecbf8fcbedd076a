"""What the tests of the themes whose belief adds moves share: a theme's puzzles, each held to
"lost by the believer, won by the key", and a table of moves the belief does or does not add."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from _engine_util import build, move

from agnes_teach.engine import apply_move, finishes_home, legal_moves, refusal, resolve
from agnes_teach.position import Position
from agnes_teach.scenario import Scenario, load_puzzles
from agnes_teach.tagger.misconception import Misconception, added_moves
from agnes_teach.tagger.plans import plans_for
from agnes_teach.tagger.players import lost_under, misconception_policy, playout
from agnes_teach.themes import Theme

LIBRARY = Path(__file__).resolve().parent.parent / "puzzles" / "small"
BELIEVER_PLAYOUTS = 20  # the believer's games per puzzle here (the checker plays 200)


@dataclass(frozen=True)
class AddCase:
    """A move in a hand-built position: does the belief add it (refused by the theme's rule)?"""

    name: str
    layout: dict[str, object]
    move: str
    added: bool
    refused_by: str | None  # the rule that refuses it (None: legal)


def position_of(case: AddCase) -> Position:
    return build(**case.layout)  # type: ignore[arg-type]


def check_case(case: AddCase, believer: Misconception, rule: str) -> None:
    """The table's claims: added or not, refused by exactly `case.refused_by`, and every added
    move refused by exactly the theme's `rule`."""
    pos = position_of(case)
    played = move(pos, case.move)
    why = refusal(pos, played)
    assert (why.rule if why is not None else None) == case.refused_by, case.name
    added = added_moves(pos, believer)
    assert (played in added) == case.added, case.name
    for extra in added:
        refused = refusal(pos, extra)
        assert refused is not None and refused.rule == rule, (case.name, str(extra))
    # The belief takes nothing away: every legal move is still one the believer may make.
    moves = legal_moves(pos)
    assert believer.allowed(pos, moves) == moves


def theme_puzzles(theme: Theme) -> list[Scenario]:
    return load_puzzles([LIBRARY / theme.id])


def check_puzzle(scenario: Scenario, theme: Theme) -> None:
    """The key wins; the believer's plans all need a move the rule refuses; its games all fail."""
    pos = scenario.position
    assert scenario.themes[:1] == [theme.id]
    here = pos
    for text in scenario.solution or []:
        here = apply_move(here, resolve(here, text))
    assert finishes_home(here), scenario.id
    assert lost_under(pos, theme.believer) is True, scenario.id
    policy = misconception_policy(theme.believer)
    rng = random.Random(0)
    assert not any(playout(pos, policy, rng) for _ in range(BELIEVER_PLAYOUTS)), scenario.id


def check_plan_needs_refusal(pos: Position, believer: Misconception, refused: list[str],
                             answer: tuple[str, ...]) -> None:
    """The believer's first moves are the refused ones (`refused`), its game is lost, and the
    rule's `answer` wins (the rest goes home by itself)."""
    first = plans_for(believer, pos).first_moves(pos)
    assert first is not None and not first.legal
    assert [str(m) for m in first.refused] == refused
    assert lost_under(pos, believer) is True
    for text in answer:
        pos = apply_move(pos, move(pos, text))
    assert finishes_home(pos)
