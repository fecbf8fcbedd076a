"""The puzzle library as the classroom sees it: every installed scenario by its id.

The library is read once when the server starts (a few dozen small files).
Choosing by theme is the worksheet's choice (``puzzle_library.select_puzzles``
over one game's puzzles: the small puzzles for Bernauer, the game's own folder
for another), so ``sheet --profile P --theme T --count N`` on paper and in
class give the same puzzles.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from .. import i18n
from ..errors import InputError
from ..profile import DEFAULT_PROFILE, profile_ids
from ..puzzle_library import (
    LIBRARY_PUZZLES,
    Selection,
    difficulty_order,
    library_folder,
    library_part,
    select_puzzles,
)
from ..registry import Difficulty, RuleId
from ..render.practice import practice_task
from ..scenario import Scenario, load_scenarios, scenario_files

# The library's folders a puzzle id is looked up in: the small puzzles first (what themes draw from).
# Then every other game's folder (one per shipped game that has puzzles).
LIBRARY_PARTS = (LIBRARY_PUZZLES, "demo",
                 *sorted({library_part(pid) for pid in profile_ids()} - {LIBRARY_PUZZLES}))


@dataclass(frozen=True)
class Library:
    by_id: dict[str, Scenario]
    small: tuple[Scenario, ...]  # Bernauer's small puzzles: what an assignment by theme draws from
    # Each game (profile id) with the puzzles an assignment by theme in that game draws from: those
    # of its library folder (``puzzle_library.library_part``) played in that very game, as the sheet
    # takes them. Every shipped game is here, those without puzzles too.
    games: dict[str, tuple[Scenario, ...]] = field(default_factory=dict)

    def theme_of(self, puzzle: str) -> str | None:
        sc = self.by_id.get(puzzle)
        return sc.themes[0] if sc is not None and sc.themes else None

    def of_game(self, profile: str = DEFAULT_PROFILE) -> tuple[Scenario, ...]:
        return self.small if profile == DEFAULT_PROFILE else self.games.get(profile, ())

    def themes(self, profile: str = DEFAULT_PROFILE) -> dict[str, int]:
        """Each theme the game's puzzles teach, with how many puzzles it has."""
        counts: dict[str, int] = {}
        for sc in self.of_game(profile):
            if sc.themes:
                counts[sc.themes[0]] = counts.get(sc.themes[0], 0) + 1
        return dict(sorted(counts.items()))

    def choose(self, theme: RuleId, count: int, profile: str = DEFAULT_PROFILE) -> list[str]:
        """`count` puzzles of the game `profile` on `theme`, easy to hard, as ``sheet --profile P
        --theme T`` picks them; InputError when the game has none on it."""
        chosen = select_puzzles(list(self.of_game(profile)), Selection(themes=(theme,), count=count),
                                where=f"the puzzle library of {profile}")
        return [sc.id for sc in chosen]

    def listing(self) -> list[dict[str, str | None]]:
        ordered = sorted(self.by_id.values(), key=lambda s: (s.themes[:1], difficulty_order(s), s.id))
        return [{"id": sc.id, "theme": sc.themes[0] if sc.themes else None,
                 "difficulty": sc.difficulty.value if sc.difficulty else None,
                 "profile": sc.position.profile.id} for sc in ordered]

    def puzzle_json(self, puzzle: str, lang: str) -> dict[str, object]:
        """A puzzle as the pupil's page gets it: its task in the class's language and its position."""
        sc = self.by_id[puzzle]
        return {"id": sc.id, "title": sc.title.get(lang) or sc.title.get("en") or sc.id,
                "theme": sc.themes[0] if sc.themes else None,
                # The practice page's words: the pupil plays on a board here, there is nothing to write.
                "task": practice_task(sc, lang),
                "stock_shown": sc.stock_shown,  # else the page shows the stock face down
                "position": sc.position.to_data()}


def rule_title(rule: str, lang: str) -> str:
    return i18n.text(lang, "rule-title", rule)


@cache
def load_library() -> Library:
    by_id: dict[str, Scenario] = {}
    small: list[Scenario] = []
    parts: dict[str, list[Scenario]] = {}
    for part in LIBRARY_PARTS:
        folder = library_folder(part)
        if not folder.is_dir():
            continue
        for sc in load_scenarios(scenario_files([str(folder)])):
            if sc.id in by_id:
                raise InputError(f"the puzzle library holds the id {sc.id} twice ({sc.file}, "
                                 f"{by_id[sc.id].file})")
            by_id[sc.id] = sc
            parts.setdefault(part, []).append(sc)
            if part == LIBRARY_PUZZLES:
                small.append(sc)
    games = {pid: tuple(sc for sc in parts.get(library_part(pid), []) if sc.position.profile.id == pid)
             for pid in profile_ids()}
    games[DEFAULT_PROFILE] = tuple(small)
    return Library(by_id, tuple(small), games)


def difficulty_of(sc: Scenario) -> Difficulty:
    return sc.difficulty or Difficulty.MEDIUM
