"""The puzzle generator: solver-verified positions that each teach one rule.

It makes puzzles (builders, candidate search, mining, rating, output); what a position or a
line is (themes, tempting moves, teaching measures) it asks the tagger, ``agnes_teach.tagger``.
"""

from .canonical import puzzle_key
from .core import GENERATOR_VERSION, Puzzle, Tally, candidate, generate
from .themes import THEMES, theme_ids

__all__ = [
    "GENERATOR_VERSION", "THEMES", "Puzzle", "Tally",
    "candidate", "generate", "puzzle_key", "theme_ids",
]
