"""Where a generated puzzle comes from, as a typed value, and how a scenario file writes it.

A file's ``source`` is text (formats.md): ``built`` for a position a theme's builder laid out
(the candidate's seed and size then stand in the file's ``seed`` mapping), ``deal N move K`` for
a position of deal N's winning line (mined whole, or cut down from that critical moment) and
``layout N draw K`` for the K-th layout composed from the number N, cut down.  The generator
carries it as a ``Provenance`` and turns it into text only when it writes, and back only when it
reads, here, so no other module takes the text apart.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ..errors import InputError


class SourceKind(StrEnum):
    """The sources of the pipeline (``generator.pipeline``), by what their files say."""

    BUILT = "built"  # laid out around the lesson by the theme's builder, from a candidate seed
    DEAL = "deal"  # a position of a solved deal's winning line: mined whole, or cut down
    LAYOUT = "layout"  # a layout composed at random for the theme, then cut down


# What follows the kind's word in the text, naming `step`: "deal 12 move 30", "layout 7001 draw 3".
_STEP_WORD = {SourceKind.DEAL: "move", SourceKind.LAYOUT: "draw"}


@dataclass(frozen=True)
class Provenance:
    """A puzzle's origin: enough to find the same starting point again.

    `number` is the candidate's seed of a built puzzle, the deal's number, or the number a
    layout was composed from; `step` is the size drawn for a built candidate, the move of the
    deal's line, or which of the number's layouts it is."""

    kind: SourceKind
    number: int
    step: int

    @classmethod
    def built(cls, seed: int, size: int) -> Provenance:
        return cls(SourceKind.BUILT, seed, size)

    @classmethod
    def deal(cls, number: int, move: int) -> Provenance:
        return cls(SourceKind.DEAL, number, move)

    @classmethod
    def layout(cls, number: int, draw: int) -> Provenance:
        return cls(SourceKind.LAYOUT, number, draw)

    @property
    def from_deal(self) -> bool:
        """Does the puzzle depend on a deal or layout number alone (not on the run's seed)?"""
        return self.kind is not SourceKind.BUILT

    def text(self) -> str:
        """The file's ``source`` text."""
        if self.kind is SourceKind.BUILT:
            return str(self.kind)
        return f"{self.kind} {self.number} {_STEP_WORD[self.kind]} {self.step}"

    def __str__(self) -> str:
        return self.text()

    def seed_data(self, run_seed: int) -> dict[str, int] | None:
        """The file's ``seed`` mapping (a built puzzle's run, candidate and size); None for a
        puzzle of a deal or a layout, which depends on its number alone."""
        if self.kind is not SourceKind.BUILT:
            return None
        return {"run": run_seed, "candidate": self.number, "size": self.step}

    @classmethod
    def parse(cls, text: str, seed: Mapping[str, Any] | None = None) -> Provenance:
        """The provenance a file's ``source`` text (and, for ``built``, its ``seed`` mapping) says;
        InputError for text of another shape."""
        words = text.split(" ")
        try:
            kind = SourceKind(words[0])
        except ValueError:
            raise InputError(f"source: {text!r} names no source (one of: {', '.join(SourceKind)})") from None
        if kind is SourceKind.BUILT:
            if len(words) != 1:
                raise InputError(f"source: {text!r}: a built puzzle's source is the word built alone")
            seed = seed or {}
            return cls.built(int(seed.get("candidate", 0)), int(seed.get("size", 0)))
        if len(words) != 4 or words[2] != _STEP_WORD[kind] or not (words[1].isdigit() and words[3].isdigit()):
            raise InputError(f"source: {text!r} is not '{kind} N {_STEP_WORD[kind]} K'")
        return cls(kind, int(words[1]), int(words[3]))


def read_provenance(data: Mapping[str, Any]) -> Provenance | None:
    """The provenance a scenario file's mapping records (None: a file with no ``source``, such as a
    hand-made one)."""
    text = data.get("source")
    if not isinstance(text, str):
        return None
    seed = data.get("seed")
    return Provenance.parse(text, seed if isinstance(seed, Mapping) else None)
