"""The server's verdict on a pupil's line: replayed move by move on the engine, nothing taken on trust.

A refused move ends the line as ``illegal`` with the rule that refused it. A
line whose end position is won, or from which foundation moves alone bring
every card home (``engine.finishes_home``, the worksheet's own count of an
answer), is ``solved``. Otherwise the game is ``open`` while it still has a
legal move and ``failed`` when it has none; a stored attempt that is not
solved is ``failed`` either way (the pupil sent it as their finished line).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from .. import i18n
from ..engine import (
    AmbiguousMoveError,
    IllegalMoveError,
    Refusal,
    apply_unchecked,
    finishes_home,
    legal_moves,
    refusal,
    resolve,
)
from ..moves import MoveSyntaxError, MoveText, parse_move_text
from ..position import Position


class Outcome(StrEnum):
    """What a line comes to (the contract's ``result``; ``open`` only in a replay)."""

    SOLVED = "solved"
    FAILED = "failed"
    ILLEGAL = "illegal"
    OPEN = "open"


class LineError(ValueError):
    """Text in the moves that is not a move of this position at all (the body is wrong, not the play)."""


@dataclass(frozen=True)
class Refused:
    index: int  # 0-based, into the moves sent
    move: str
    rule: str
    message: str  # in the class's language

    def to_json(self, with_message: bool) -> dict[str, object]:
        out: dict[str, object] = {"index": self.index, "move": self.move, "rule": self.rule}
        if with_message:
            out["message"] = self.message
        return out


@dataclass(frozen=True)
class Line:
    outcome: Outcome
    refused: Refused | None
    position: Position  # after the legal prefix

    @property
    def attempt_result(self) -> Outcome:
        """The result an attempt stores: a finished line that is neither solved nor illegal failed."""
        return Outcome.FAILED if self.outcome == Outcome.OPEN else self.outcome


def parse_line(moves: Sequence[str]) -> list[MoveText]:
    texts: list[MoveText] = []
    for index, text in enumerate(moves):
        try:
            texts.append(parse_move_text(text, typed=True))
        except MoveSyntaxError as exc:
            raise LineError(f"moves[{index}]: {exc}") from None
    return texts


def judge_line(start: Position, moves: Sequence[str], lang: str) -> Line:
    """Replay `moves` from `start`; LineError for text that is not a move or names several."""
    pos = start
    for index, text in enumerate(parse_line(moves)):
        try:
            move = resolve(pos, text)
            why: Refusal | None = refusal(pos, move)
            shown = str(move)
        except IllegalMoveError as exc:
            why, shown = exc.refusal, text.text
        except AmbiguousMoveError as exc:
            raise LineError(f"moves[{index}]: {exc} (name the card)") from None
        if why is not None:
            refused = Refused(index, shown, str(why.rule), i18n.refusal_message(why, lang))
            return Line(Outcome.ILLEGAL, refused, pos)
        pos = apply_unchecked(pos, move)
    if finishes_home(pos):
        return Line(Outcome.SOLVED, None, pos)
    return Line(Outcome.OPEN if legal_moves(pos) else Outcome.FAILED, None, pos)


def legal_texts(pos: Position) -> list[str]:
    return [str(move) for move in legal_moves(pos)]
