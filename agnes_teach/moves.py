"""Moves and their text: ``6H>f``, ``4C>t2``, ``deal``; input also ``r3>f``, ``t5>t2``."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import CARD_TEXT, Card, CardError, card_name, card_symbol, parse_card
from .errors import AgnesError
from .piles import STOCK, MoveSyntaxError, Pile

__all__ = ["DEAL", "DEAL_MOVE", "AmbiguousMoveError", "Move", "MoveSyntaxError", "MoveText",
           "parse_move_text", "split_moves"]

DEAL = STOCK  # the deal move's destination: the stock pile, written "deal"

# Move text, stated once.  The JSON Schema's patterns (``shapes``) are built from these and the
# parser below matches with them, so the two cannot drift apart; the practice page's own parser
# is tested against this one (tests/test_browser_moves.py).
DEAL_TEXT = r"[Dd][Ee][Aa][Ll]"
PILE_NAME_TEXT = r"[TtRrXx][1-9][0-9]?"  # a source or destination pile: t3, r1, x2
DEST_TEXT = r"(?:[Ff]|" + PILE_NAME_TEXT + ")"
ARROW_TEXT = r"(?:->|→|>)"
MOVE_TEXT = (r"(?:" + DEAL_TEXT + r"|(?:" + CARD_TEXT + "|" + PILE_NAME_TEXT + r")\s*" + ARROW_TEXT
             + r"\s*" + DEST_TEXT + ")")
SEPARATOR_TEXT = r"[\s,;]"  # between the moves of a line (and the cards of a pile)
_DEAL = re.compile(DEAL_TEXT)
_PILE_NAME = re.compile(PILE_NAME_TEXT)
_DEST = re.compile(DEST_TEXT)
_ARROW = re.compile(r"\s*" + ARROW_TEXT + r"\s*")
_GLUED_ARROW = re.compile(r"\s*(" + ARROW_TEXT + r")\s*")
_SEPARATORS = re.compile(SEPARATOR_TEXT + "+")


@dataclass(frozen=True, slots=True, order=True)
class Move:
    """One step: a card (with everything on it) to a destination pile, or a deal."""

    card: Card | None  # None for a deal
    dest: Pile  # f, t1.., r1.., x1.., or the stock (the deal); plain text is parsed

    def __post_init__(self) -> None:
        if type(self.dest) is not Pile:
            object.__setattr__(self, "dest", Pile.parse(self.dest))

    @property
    def is_deal(self) -> bool:
        return self.dest is STOCK  # piles are made once: identity is the test

    def __str__(self) -> str:
        return DEAL if self.card is None else f"{card_name(self.card)}>{self.dest}"

    def __repr__(self) -> str:
        return f"Move({self.symbol_text()})"

    def symbol_text(self) -> str:
        """Document form: ``6♥>f``."""
        return DEAL if self.card is None else f"{card_symbol(self.card)}>{self.dest}"


DEAL_MOVE = Move(None, DEAL)


class AmbiguousMoveError(AgnesError):
    """``SRC>DEST`` text that several legal moves fit; ``candidates`` lists them."""

    def __init__(self, text: str, candidates: Sequence[Move]) -> None:
        self.text = text
        self.candidates = tuple(candidates)
        super().__init__(f"{text} is ambiguous: " + " or ".join(str(m) for m in self.candidates))


@dataclass(frozen=True, slots=True)
class MoveText:
    """A parsed move before it meets a position: the card, or a source pile."""

    text: str
    card: Card | None
    source: Pile | None  # t5, r3, x1 when written SRC>DEST
    dest: Pile

    @property
    def is_deal(self) -> bool:
        return self.dest is STOCK  # piles are made once: identity is the test


def parse_move_text(text: str, *, typed: bool = False) -> MoveText:
    """Parse one move; MoveSyntaxError for text that is not a move.

    `typed`: a person typed it (not a file), so the card may use Russian rank letters (``К♦>f``).
    """
    raw = str(text).strip()
    if _DEAL.fullmatch(raw):
        return MoveText(raw, None, None, STOCK)
    parts = _ARROW.split(raw)
    if len(parts) != 2 or not parts[0] or not parts[1]:
        raise MoveSyntaxError(f"not a move: {raw!r} (write CARD>DEST such as 6H>f or 4C>t2, or deal)")
    left, dest_text = parts
    if not _DEST.fullmatch(dest_text):
        raise MoveSyntaxError(f"not a move: {raw!r} (the destination must be f, t1..t7, r1..r7, x1 or x2)")
    if left.lower() == "f":
        # Four foundations share the name f, so a foundation card is named by itself.
        raise MoveSyntaxError(f"not a move: {raw!r} (to take a card from a foundation, name the card: 6H>t2)")
    dest = Pile.parse(dest_text.lower())
    if _PILE_NAME.fullmatch(left):
        return MoveText(raw, None, Pile.parse(left.lower()), dest)
    try:
        card = parse_card(left, typed=typed)
    except CardError as exc:
        raise MoveSyntaxError(f"not a move: {raw!r} ({exc})") from None
    return MoveText(raw, card, None, dest)


def split_moves(text: str | list[object]) -> list[str]:
    """A solution: a list of moves, or one string separated by commas or spaces."""
    if isinstance(text, list):
        out: list[str] = []
        for item in text:
            out.extend(split_moves(str(item)))
        return out
    # "6H > f" is one move written with spaces: glue the arrow before splitting.
    glued = _GLUED_ARROW.sub(r"\1", str(text))
    return [part for part in _SEPARATORS.split(glued) if part]
