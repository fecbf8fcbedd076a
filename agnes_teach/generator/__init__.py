"""The puzzle generator: solver-verified positions that each teach one rule.

It makes puzzles (builders, candidate search, mining, rating, output); what a position or a
line is (themes, tempting moves, teaching measures) it asks the tagger, ``agnes_teach.tagger``.
"""

from .canonical import puzzle_key
from .core import DIFFICULTIES, GENERATOR_VERSION, TASKS, Puzzle, Tally, candidate, generate
from .themes import THEMES, theme_ids

__all__ = [
    "DIFFICULTIES", "GENERATOR_VERSION", "TASKS", "THEMES", "Puzzle", "Tally",
    "candidate", "generate", "puzzle_key", "theme_ids",
]
