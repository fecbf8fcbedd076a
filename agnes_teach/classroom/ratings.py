"""A puzzle's printed difficulty refreshed from how pupils did: its Glicko-2 rating, once settled.

A puzzle's rating starts from its printed difficulty (``report.SEED_RATING``);
once its deviation is below the provisional mark, the rating says which band
it is really in: below ``EASY_BELOW`` easy, from ``HARD_FROM`` on hard,
medium between (the seeds sit in the middle of each band). ``classroom
ratings`` writes the library's files with that difficulty.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import InputError, Problem
from ..registry import Difficulty
from ..yamlio import dump_yaml, load_file
from .db import Store
from .puzzle_library import Library, difficulty_of
from .report import replay_ratings

EASY_BELOW = 1400.0
HARD_FROM = 1600.0


def band(rating: float) -> Difficulty:
    if rating < EASY_BELOW:
        return Difficulty.EASY
    return Difficulty.HARD if rating >= HARD_FROM else Difficulty.MEDIUM


@dataclass(frozen=True)
class Refresh:
    puzzle: str
    file: Path
    printed: Difficulty
    rated: Difficulty
    rating: float
    deviation: float

    def to_json(self) -> dict[str, Any]:
        return {"puzzle": self.puzzle, "file": str(self.file), "printed": self.printed.value,
                "rated": self.rated.value, "rating": round(self.rating, 1),
                "deviation": round(self.deviation, 1)}


def refreshes(store: Store, library: Library) -> list[Refresh]:
    """Every library puzzle whose rating is settled (not provisional), with the band it falls in."""
    ratings = replay_ratings(store.all_attempts(), library)
    out = []
    for puzzle, rating in sorted(ratings.puzzles.items()):
        sc = library.by_id.get(puzzle)
        if sc is None or rating.provisional:
            continue
        out.append(Refresh(puzzle, Path(sc.file), difficulty_of(sc), band(rating.rating), rating.rating,
                           rating.deviation))
    return out


def refreshed_file(refresh: Refresh) -> str:
    """The scenario file again, its ``difficulty`` the rated band (the one YAML writer writes it)."""
    data, _ = load_file(refresh.file)
    if not isinstance(data, dict):
        raise InputError(Problem("not a scenario file", str(refresh.file)))
    data["difficulty"] = refresh.rated.value
    return dump_yaml(data, flow_piles=True)
