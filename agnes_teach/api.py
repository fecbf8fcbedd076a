"""The Python API: ``import agnes_teach as at``.

Thin, forgiving front doors to the engine, solver, checker and hints: they take
the forms a person types (a profile id, a move as text, a position as YAML
text or a mapping) and return the package's own values.  Bad input raises
``InputError`` (a ``ValueError``) listing every problem; an illegal move raises
``IllegalMoveError`` (a ``ValueError``) naming the rule.
"""

from __future__ import annotations

from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from . import checker, engine, yamlio
from .deal import deal as _deal
from .errors import InputError
from .hint import DEFAULT_SECONDS, Hint, fair_hint, full_hint
from .moves import Move, MoveSyntaxError, parse_move_text
from .position import Position
from .position import parse_position as _parse_position
from .profile import Profile, get_profile
from .scenario import load_scenario, parse_moves, scenario_from_data
from .solver import SolveResult
from .solver import solve as _solve


def _profile(profile: str | Profile | None) -> Profile:
    return profile if isinstance(profile, Profile) else get_profile(profile)


def deal(number: int, profile: str | Profile | None = None) -> Position:
    """The starting position of deal number `number` (0 to 2147483647) under `profile` (default bernauer)."""
    return _deal(number, _profile(profile))


def pysolfc_deal(game: int | str, profile: str | Profile | None = None) -> Position:
    """The starting position of PySolFC's Agnes Bernauer game `game` (default profile reserve-last-deal)."""
    from .pysolfc import pysolfc_deal as _pysolfc

    return _pysolfc(game, _profile(profile) if profile is not None else None)


def parse_position(data: str | dict[str, Any], profile: str | Profile | None = None) -> Position:
    """A position from its YAML text (formats.md) or from the mapping YAML loads to."""
    if isinstance(data, str):
        loaded, loc = yamlio.loads(data)
    else:
        loaded, loc = data, yamlio.Locator(None, None)
    if isinstance(loaded, dict) and "position" in loaded:
        loaded = loaded["position"]
    return _parse_position(loaded, loc, _profile(profile) if profile is not None else None)


def legal_moves(pos: Position) -> list[Move]:
    """Every legal move of `pos`, in the engine's order."""
    return engine.legal_moves(pos)


def move(pos: Position, text: str | Move) -> Move:
    """A move of `pos` from its text (``6H>f``, ``r3>f``, ``t5>t2``, ``deal``, ``К♦>t3``).

    The text is read as the command line reads a move a person typed (``check --solution``), so
    the Russian rank letters Т В Д К (and А) are taken too.
    """
    if isinstance(text, Move):
        return text
    try:
        parsed = parse_move_text(text, typed=True)
    except MoveSyntaxError as exc:
        raise InputError(str(exc)) from None
    try:
        return engine.resolve(pos, parsed)
    except engine.AmbiguousMoveError as exc:
        raise InputError(str(exc)) from None


def apply_move(pos: Position, text: str | Move) -> Position:
    """The position after a legal move (given as text or a Move); IllegalMoveError naming the rule."""
    return engine.apply_move(pos, move(pos, text))


def solve(pos: Position, seconds: float = 10.0) -> SolveResult:
    """Decide `pos` with the stock order known: won (with a solution), lost, or unknown after `seconds`."""
    return _solve(pos, seconds=seconds)


def check(
    scenario: str | Path | Traversable | dict[str, Any],
    solution: str | list[str] | None = None,
    *,
    lang: str = "en",
    budget: float = checker.DEFAULT_BUDGET,
) -> checker.CheckResult:
    """Verify every claim of a scenario (a file, or its mapping), and `solution` if given.

    A file the package ships is named by ``importlib.resources.files("agnes_teach") / ...``.
    """
    if isinstance(scenario, dict):
        sc = scenario_from_data(scenario, yamlio.Locator(None, None), str(scenario.get("id", "scenario")))
    else:
        sc = load_scenario(scenario if isinstance(scenario, str | Path) else Path(str(scenario)))
    extra = parse_moves(solution, yamlio.Locator("solution", None)) if solution is not None else None
    return checker.check_scenario(sc, lang=lang, extra_solution=extra, budget=budget)


def hint(pos: Position, *, fair: int | None = None, seconds: float = DEFAULT_SECONDS) -> Hint:
    """Each legal first move with its verdict and the best one (``fair=K``: the stock order unknown)."""
    if fair is not None:
        return fair_hint(pos, fair)
    return full_hint(pos, seconds=seconds)
