"""The puzzle generator: solver-verified positions that each teach one rule.

It makes puzzles (builders, candidate search, mining, rating, output); what a position or a
line is (tempting moves, teaching measures) it asks the tagger, ``agnes_teach.tagger``; what a
theme needs, the theme registry, ``agnes_teach.themes``.
"""

from .canonical import puzzle_key
from .core import GENERATOR_VERSION, Puzzle, Tally, candidate
from .pipeline import Workers, generate
from .provenance import Provenance, SourceKind

__all__ = [
    "GENERATOR_VERSION", "Provenance", "Puzzle", "SourceKind", "Tally", "Workers",
    "candidate", "generate", "puzzle_key",
]
