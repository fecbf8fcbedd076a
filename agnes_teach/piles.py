"""Pile names as values: ``Pile.parse("t3")`` is column 3, with a kind and an index.

A :class:`Pile` is a ``str`` (its notation, ``"t3"``), so move text, YAML and
dictionary keys read and write it unchanged, and it compares equal to the
plain string.  Code asks it what it is (``pile.kind is PileKind.COLUMN``,
``pile.offset``) instead of testing prefixes of the text: this module is the
only one that reads a pile name letter by letter (a test keeps it so).

Every pile is made once and cached, so ``Pile.column(3) is Pile.parse("t3")``.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Any

import yaml

from .errors import AgnesError

__all__ = ["PILE_LIMIT", "MoveSyntaxError", "Pile", "PileKind"]

PILE_LIMIT = 99  # the largest pile number the notation has (t1..t99)


class PileKind(StrEnum):
    """What a pile is; the value is its letter in the notation."""

    COLUMN = "t"
    RESERVE = "r"
    EXPOSED = "x"
    FOUNDATION = "f"  # the four foundations share one name
    STOCK = "s"  # named in moves only by the deal it makes: "deal"

    @property
    def is_stack(self) -> bool:
        """A pile the player takes only the top card from and never builds on (reserve, exposed)."""
        return self in (PileKind.RESERVE, PileKind.EXPOSED)


class MoveSyntaxError(AgnesError):
    """Text that is not a move at all (here, because a pile name in it is not one)."""


_NUMBERED = re.compile(r"^([trx])([1-9][0-9]?)$")


class Pile(str):
    """One pile's name: ``t1``.., ``r1``.., ``x1``.., ``f`` (foundations) or ``deal`` (the stock).

    ``kind`` is its :class:`PileKind`, ``number`` its 1-based number (0 for
    the foundations and the stock), ``offset`` the 0-based index into the
    position's tuple of piles of that kind (not ``index``: that is ``str.index``).
    """

    kind: PileKind
    number: int
    offset: int
    # Plain attributes, not properties: the engine asks these in its inner loops.
    is_column: bool
    is_stack: bool
    is_foundation: bool

    _cache: dict[str, Pile] = {}  # noqa: RUF012 - one shared table of every pile made

    def __new__(cls, text: str) -> Pile:
        found = cls._cache.get(text)
        if found is not None:
            return found
        return cls.parse(text)

    @classmethod
    def _make(cls, text: str, kind: PileKind, number: int) -> Pile:
        pile = str.__new__(cls, text)
        pile.kind = kind
        pile.number = number
        pile.offset = number - 1
        pile.is_column = kind is PileKind.COLUMN
        pile.is_stack = kind.is_stack
        pile.is_foundation = kind is PileKind.FOUNDATION
        cls._cache[text] = pile
        return pile

    @classmethod
    def parse(cls, text: str) -> Pile:
        """The pile named `text` (``t3``, ``r1``, ``x2``, ``f``, ``deal``); MoveSyntaxError otherwise."""
        if isinstance(text, Pile):
            return text
        found = cls._cache.get(text)
        if found is not None:
            return found
        raw = str(text).strip().lower()
        if raw in cls._cache:
            return cls._cache[raw]
        match = _NUMBERED.match(raw)
        if match is None:
            raise MoveSyntaxError(
                f"not a pile: {text!r} (write t1..t{PILE_LIMIT} for a column, r1.. for a reserve pile, "
                "x1.. for an exposed cell, or f for the foundations)")
        return cls._make(raw, PileKind(match.group(1)), int(match.group(2)))

    @classmethod
    def of(cls, kind: PileKind, number: int) -> Pile:
        """Pile `number` (1-based) of `kind` (a column, reserve pile or exposed cell)."""
        if not kind.is_stack and kind != PileKind.COLUMN:
            raise ValueError(f"{kind.name.lower()} piles have no numbers")
        if not 1 <= number <= PILE_LIMIT:
            raise ValueError(f"no pile number {number}: piles are numbered 1..{PILE_LIMIT}")
        text = f"{kind.value}{number}"
        return cls._cache.get(text) or cls._make(text, kind, number)

    @classmethod
    def column(cls, number: int) -> Pile:
        return cls.of(PileKind.COLUMN, number)

    @classmethod
    def reserve(cls, number: int) -> Pile:
        return cls.of(PileKind.RESERVE, number)

    @classmethod
    def exposed(cls, number: int) -> Pile:
        return cls.of(PileKind.EXPOSED, number)

    @classmethod
    def foundation(cls) -> Pile:
        return FOUNDATION

    @classmethod
    def stock(cls) -> Pile:
        return STOCK

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        # Unpickled (worker processes) through the cache, so identity and attributes survive.
        return (Pile.parse, (str(self),))



FOUNDATION = Pile._make("f", PileKind.FOUNDATION, 0)
STOCK = Pile._make("deal", PileKind.STOCK, 0)
COLUMNS: tuple[Pile, ...] = tuple(Pile.column(n) for n in range(1, PILE_LIMIT + 1))

# YAML writes a pile as its plain name (safe_dump knows only exact str otherwise).
yaml.SafeDumper.add_representer(Pile, lambda dumper, value: dumper.represent_str(str(value)))
