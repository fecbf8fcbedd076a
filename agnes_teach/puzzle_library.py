"""The puzzle library: loading scenario files, leaving out duplicates, and choosing what to pose.

The worksheet (``render.sheet``) and the classroom (``classroom.puzzle_library``) both ask here, so
``sheet --theme T --count N`` on paper and an assignment by theme in class pose the same
puzzles.  Without a seed a theme's puzzles are taken easy to hard, spread evenly from the easiest
to the hardest; with a seed (``sheet --seed S``) they are drawn at random, the same for the same
seed, each at most once, and then shown easy to hard.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from .errors import InputError, Problem
from .profile import DEFAULT_PROFILE, family_of
from .registry import Difficulty, RuleId
from .scenario import Scenario, load_scenarios, scenario_files

Note = Callable[[str], None]  # hears of every puzzle left out and of a theme with fewer than asked


def difficulty_order(sc: Scenario) -> int:
    """Where a puzzle sorts, easy to hard; an unrated one among the medium ones."""
    return (sc.difficulty or Difficulty.MEDIUM).order


LIBRARY_PACKAGE = "agnes_teach.puzzles"  # the repository's puzzles/, installed inside the package
LIBRARY_PUZZLES = "small"  # what a sheet draws from when no file is named: the small puzzles (issue 20)
COPY_PREFIX = "demo-"  # a copied puzzle's id: the prefix and its source's id (puzzles/build-demo.sh)


def library_part(profile_id: str) -> str:
    """The library folder a game's puzzles live in, one folder per rule id below it: ``small`` for
    the default game, else the shipped game its profile extends (sorel-strict's are Sorel's)."""
    return LIBRARY_PUZZLES if profile_id == DEFAULT_PROFILE else family_of(profile_id)


def library_folder(*parts: str) -> Path:
    """A folder of the installed puzzle library (``small`` when no part is given).

    Read through importlib.resources, so an editable install and a wheel find the same files."""
    folder = resources.files(LIBRARY_PACKAGE).joinpath(*(parts or (LIBRARY_PUZZLES,)))
    return Path(str(folder))


@dataclass(frozen=True)
class Selection:
    """Which puzzles of the files (or of the library) a sheet prints: `themes` in that order,
    each easy to hard; `difficulties` filters (empty: all); `count` per theme (None: all);
    `seed` draws a theme's `count` at random, the same for the same seed (None: spread evenly from
    the easiest to the hardest)."""

    themes: tuple[RuleId, ...] = ()
    difficulties: frozenset[Difficulty] = frozenset()
    count: int | None = None
    seed: int | None = None
    # Only puzzles of this game (a profile id); without files, from its library folder. None: the
    # files' puzzles whatever their game, or the default game's library.
    profile: str | None = None


def _puzzles(n: int) -> str:
    return f"{n} puzzle" if n == 1 else f"{n} puzzles"


def _easy_to_hard(sc: Scenario) -> tuple[int, str]:
    return difficulty_order(sc), sc.id


def _spread(have: list[Scenario], count: int | None) -> list[Scenario]:
    """`count` of the puzzles sorted easy to hard, spread evenly from the easiest to the hardest."""
    if count is None or count >= len(have):
        return have
    if count == 1:
        return have[:1]
    step = (len(have) - 1) / (count - 1)  # at least 1, so no puzzle is taken twice
    return [have[round(i * step)] for i in range(count)]


def _drawn(have: list[Scenario], count: int | None, seed: int, theme: str) -> list[Scenario]:
    """`count` of the puzzles (sorted easy to hard) drawn at random without repeats, from a generator
    seeded with the theme and `seed` (so each theme of a sheet draws on its own), shown easy to hard."""
    if count is None or count >= len(have):
        return have
    rng = random.Random(f"sheet/{theme}/{seed}")
    picked = sorted(rng.sample(range(len(have)), count))
    return [have[i] for i in picked]


def _ratings(have: Sequence[Scenario]) -> str:
    """"3 easy, 5 medium" for the puzzles of a theme, to say what a filter left out."""
    counts = {d: sum(1 for s in have if (s.difficulty or Difficulty.MEDIUM) == d) for d in Difficulty}
    return ", ".join(f"{n} {d}" for d, n in counts.items() if n)


def _by_theme(loaded: list[Scenario], selection: Selection, where: str,
              note: Note) -> list[Scenario]:
    """The selection's themes in order, each easy to hard then by id; InputError for a theme with none."""
    chosen: list[Scenario] = []
    missing: list[str] = []
    for theme in selection.themes:
        on_theme = [s for s in loaded if theme_of(s) == theme]
        have = sorted((s for s in on_theme if _rated(s, selection.difficulties)), key=_easy_to_hard)
        if not have:
            rated = " rated " + "/".join(d for d in Difficulty if d in selection.difficulties) \
                if selection.difficulties else ""
            found = f" (it has {_ratings(on_theme)})" if on_theme else _themes_there(loaded)
            missing.append(f"no puzzle on {theme}{rated} in {where}{found}")
            continue
        if selection.count is not None and len(have) < selection.count:
            note(f"--theme {theme}: {_puzzles(len(have))} found, {selection.count} asked; the sheet has "
                 f"{'it' if len(have) == 1 else f'those {len(have)}'}")
        chosen.extend(_spread(have, selection.count) if selection.seed is None
                      else _drawn(have, selection.count, selection.seed, theme))
    if missing:
        raise InputError([Problem(text) for text in missing])
    return chosen


def select_puzzles(loaded: list[Scenario], selection: Selection, where: str = "the puzzle library",
                   note: Note | None = None) -> list[Scenario]:
    """The puzzles of `loaded` a sheet of `selection` prints, in its order, without drawing them: a
    duplicate left out, then each theme easy to hard, spread over the ratings (``sheet --theme``'s choice,
    which the classroom's assignments by theme take too). InputError for a theme with none."""
    tell = note or (lambda _text: None)
    return _by_theme(_unique(loaded, tell)[0], selection, where, tell)


def _themes_there(loaded: list[Scenario]) -> str:
    """The themes the puzzles do have, so a message can suggest one."""
    themes = sorted({t for t in (theme_of(s) for s in loaded) if t is not None})
    return f" (its themes: {', '.join(themes)})" if themes else ""


def of_profile(loaded: list[Scenario], profile: str, where: str) -> list[Scenario]:
    """The puzzles of `loaded` played in the game `profile`; InputError when there is none."""
    kept = [sc for sc in loaded if sc.position.profile.id == profile]
    if not kept:
        games = sorted({sc.position.profile.id for sc in loaded})
        there = f" (its games: {', '.join(games)})" if games else ""
        raise InputError(f"no puzzle of the profile {profile} in {where}{there}")
    return kept


def _rated(sc: Scenario, difficulties: frozenset[Difficulty]) -> bool:
    return not difficulties or (sc.difficulty or Difficulty.MEDIUM) in difficulties


def _mixed(loaded: list[Scenario], mix: dict[RuleId, int], where: str,
           note: Note) -> list[Scenario]:
    """The `mix[theme]` easiest puzzles of each theme, easy to hard overall; InputError for a theme
    with none, a note for one with fewer than asked."""
    chosen: list[Scenario] = []
    missing: list[str] = []
    for theme, count in mix.items():
        have = sorted((s for s in loaded if theme_of(s) == theme), key=_easy_to_hard)
        if not have:
            missing.append(f"--mix: no puzzle on {theme} in {where}{_themes_there(loaded)}")
        elif len(have) < count:
            note(f"--mix {theme}: {_puzzles(len(have))} found, {count} asked; the sheet has "
                 f"{'it' if len(have) == 1 else f'those {len(have)}'}")
        chosen.extend(have[:count])
    if missing:
        raise InputError([Problem(text) for text in missing])
    return sorted(chosen, key=difficulty_order)


def _copy_of(sc: Scenario, by_id: dict[str, Scenario]) -> Scenario | None:
    """The file a puzzle says it copies: its id is COPY_PREFIX and the source's id."""
    source = sc.id.removeprefix(COPY_PREFIX)
    if source == sc.id:
        return None
    return by_id.get(source)


def _unique(loaded: list[Scenario], note: Note) -> tuple[list[Scenario], list[Scenario]]:
    """(the puzzles kept, those left out): a copy (by its id) or the same position up to symmetry
    (puzzle_key) is left out, with a note; the original is kept over a copy."""
    from .generator.canonical import puzzle_key

    by_id = {sc.id: sc for sc in loaded}
    kept: dict[str, Scenario] = {}
    left_out: set[int] = set()
    # Files that do not call themselves a copy claim their position first.
    for sc in sorted(loaded, key=lambda s: s.id.startswith(COPY_PREFIX)):
        source = _copy_of(sc, by_id)
        if source is not None:
            why = "its id names it a copy"
        else:
            key = puzzle_key(sc.position)
            source = kept.setdefault(key, sc)
            why = "the same position, up to symmetry"
            if source is sc:
                continue
        left_out.add(id(sc))
        note(f"{Path(sc.file)} ({sc.id}) is left out, printed once: {why} of {Path(source.file)} "
             f"({source.id})")
    return ([sc for sc in loaded if id(sc) not in left_out], [sc for sc in loaded if id(sc) in left_out])


def _load_all(paths: Sequence[str]) -> list[Scenario]:
    """Every scenario file named or under a folder named; InputError naming every bad file."""
    files = scenario_files(list(paths))
    if not files:
        raise InputError("no scenario files found in " + ", ".join(paths))
    return load_scenarios(files)


def _in_sections(loaded: list[Scenario]) -> list[Scenario]:
    """Sections by theme (in the order the files name them), easy to hard within each."""
    first_seen: dict[str, int] = {}
    for sc in loaded:
        first_seen.setdefault(sc.themes[0] if sc.themes else "", len(first_seen))
    return sorted(loaded, key=lambda s: (first_seen[s.themes[0] if s.themes else ""], difficulty_order(s)))


def theme_of(sc: Scenario) -> str | None:
    """The theme a puzzle is filed under: the first it names."""
    return sc.themes[0] if sc.themes else None


def choose(paths: Sequence[str], mix: dict[RuleId, int] | None = None, selection: Selection | None = None,
           note: Note | None = None) -> tuple[list[Scenario], list[Scenario]]:
    """(the puzzles chosen, in the order a sheet prints them; the files left out as duplicates) of the
    scenario files under `paths` (none: the installed library's small puzzles): by `mix` (each
    theme's easiest), by `selection`'s themes, or all of them in sections by theme."""
    tell = note or (lambda _text: None)
    where = ", ".join(paths) if paths else "the puzzle library"
    profile = selection.profile if selection is not None else None
    if not paths and profile is not None:
        where = f"the puzzle library's {library_part(profile)} folder"
    library = library_folder(library_part(profile or DEFAULT_PROFILE))
    loaded, left_out = _unique(_load_all(list(paths) or [str(library)]), tell)
    if profile is not None:
        loaded = of_profile(loaded, profile, where)
    if selection is not None and selection.difficulties and not selection.themes:
        loaded = [s for s in loaded if _rated(s, selection.difficulties)]
        if not loaded:
            raise InputError(f"--difficulty: no puzzle so rated in {where}")
    if mix is not None:
        return _mixed(loaded, mix, where, tell), left_out
    if selection is not None and selection.themes:
        return _by_theme(loaded, selection, where, tell), left_out
    return _in_sections(loaded), left_out
