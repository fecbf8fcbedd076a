"""Does a puzzle teach?  The measures behind criteria 1 and 2 of the teaching standard.

* failable: random play wins at most ``RANDOM_MAX`` of ``RANDOM_PLAYOUTS``
  fatal-mistake playouts (``players.random_win_rate``: a game counts as lost
  only once the solver proves it lost, never for running out of moves); at least
  three distinct legal first moves; a key-move puzzle has at least two first
  moves that lose or are refused, a trap puzzle at least one (``TrapShape``
  measures whether it is the only one, and the believer's pick); a medium or
  hard puzzle has at least two
  decision points (positions on the solution line where some legal move loses);
* beaten by the misconception: the theme's misconception player (players.py)
  loses, and the position is lost outright when the theme's permission is
  removed (``lost_under``, an exhaustive search).

Everything here asks the engine for moves and the solver (public API) for
verdicts; nothing decides a rule.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ..engine import apply_unchecked, legal_moves
from ..limits import MEASURE_VERDICT_NODES
from ..moves import Move
from ..position import Position
from ..registry import Difficulty, Task, Verdict
from ..solver import canonical_key
from ..themes import find_theme
from .answer import Verdicts  # solver verdicts cached by canonical key: one cache for every measure
from .misconception import Misconception
from .players import (
    PLAYOUT_SEED,
    PLAYOUTS,
    RANDOM_MAX,
    RANDOM_PLAYOUTS,
    believer_choices,
    greedy_policy,
    lost_under,
    misconception_policy,
    player_max,
    random_win_rate,
    win_rate,
)

MIN_FIRST_MOVES = 3
MIN_WRONG_FIRST = 2  # key-move: first moves that lose or are refused
# A trap asks for the one move to avoid: the trap itself is enough, and issue 28 prefers it alone
# (``TrapShape.lone``); a guess among at least ``MIN_FIRST_MOVES`` first moves still fails.
MIN_TRAP_LOSING = 1
MIN_DECISIONS = 2  # medium and hard
# Criterion 5: the rating is the band of the measured random-play rate (fatal-mistake playouts),
# the lowest band first: hard below 4%, medium below 15%, easy up to the criterion-1 bar (35%, what
# `check` accepts; the generator keeps only rates up to GENERATOR_RANDOM_MAX, 30%, so its easy band
# ends there).
RATING_BANDS: tuple[tuple[Difficulty, float], ...] = (
    (Difficulty.HARD, 0.04), (Difficulty.MEDIUM, 0.15), (Difficulty.EASY, RANDOM_MAX))


# Issue 28: a puzzle's rating grows with what solving it needs: the moves of its shortest answer, the
# decision points along that answer (positions where some legal move loses) and how rarely random play
# wins (``RATING_RANDOM_WEIGHT`` points for each 100% below the criterion-1 bar). Medium and hard also
# need ``MIN_DECISIONS`` decision points. The thresholds put the shipped library's medians of answer
# length in the order easy < medium < hard (docs/puzzles.md, "Ratings").
RATING_RANDOM_WEIGHT = 20.0
RATING_FROM: tuple[tuple[Difficulty, float], ...] = ((Difficulty.HARD, 14.0), (Difficulty.MEDIUM, 10.0))


def difficulty_score(answer_moves: int, decisions: int, random: float) -> float:
    """Answer moves + decision points + ``RATING_RANDOM_WEIGHT`` x (``RANDOM_MAX`` - random-play rate)."""
    return answer_moves + decisions + RATING_RANDOM_WEIGHT * max(0.0, RANDOM_MAX - random)


def difficulty_of(answer_moves: int, decisions: int, random: float) -> Difficulty:
    """The rating of a puzzle from its shortest answer's length, its decision points and its random-play
    rate: the first band of ``RATING_FROM`` whose threshold the score reaches (with enough decision
    points), else easy."""
    score = difficulty_score(answer_moves, decisions, random)
    for name, threshold in RATING_FROM:
        if score >= threshold and decisions >= MIN_DECISIONS:
            return name
    return Difficulty.EASY


@dataclass
class Measures:
    random: float  # fatal-mistake playouts won (criterion 1)
    greedy: float | None  # the same for the greedy home-first player (None: not measured)
    misconception: float | None  # None: the theme names no misconception
    lost_without: bool | None  # lost when the theme's permission is removed (None: undecided)
    first_moves: int  # distinct legal first moves (symmetric twins count once)
    losing_first: int  # distinct legal first moves proved to lose
    decisions: int  # positions on the solution line where some legal move loses
    unknown: int = 0  # verdicts the solver could not settle
    problems: list[str] = field(default_factory=list)
    misconception_max: float = 0.0  # the share of games the misconception player may win

    def to_json(self) -> dict[str, object]:
        return {"random": self.random, "greedy": self.greedy, "misconception": self.misconception,
                "lost_without": self.lost_without, "first_moves": self.first_moves,
                "losing_first": self.losing_first, "decisions": self.decisions}


def distinct_children(pos: Position) -> dict[bytes, tuple[Move, Position]]:
    """The legal moves of `pos`, one per distinct resulting state (symmetric twins are one choice)."""
    out: dict[bytes, tuple[Move, Position]] = {}
    for move in legal_moves(pos):
        after = apply_unchecked(pos, move)
        out.setdefault(canonical_key(after), (move, after))
    return out


def decision_points(pos: Position, line: Iterable[Move], verdict: Verdicts | None = None,
                    enough: int | None = None) -> tuple[int, int]:
    """(decision points, unknown verdicts) along a winning line from `pos`; counting stops once
    `enough` are found (a check that needs only so many: a mined line is 40-80 moves long)."""
    verdict = verdict or Verdicts(MEASURE_VERDICT_NODES)
    decisions = unknown = 0
    for move in line:
        if pos.is_won() or (enough is not None and decisions >= enough):
            break
        children = distinct_children(pos)
        statuses = [verdict(after) for _, after in children.values()]
        unknown += statuses.count(Verdict.UNKNOWN)
        if Verdict.LOST in statuses:
            decisions += 1
        pos = apply_unchecked(pos, move)
    return decisions, unknown


def measure(pos: Position, theme: str | None, line: list[Move], *, playouts: int = RANDOM_PLAYOUTS,
            seed: int = PLAYOUT_SEED, decisions_needed: int | None = None, greedy: bool = True) -> Measures:
    """Every teaching measure of one puzzle (its position, theme and winning line).

    Random and greedy play are measured by `playouts` fatal-mistake playouts
    (``random_win_rate``); the misconception player by ``PLAYOUTS`` capped
    ones (its loss is proved exactly by ``lost_under``).  `decisions_needed`
    stops counting decision points once that many are found (0: none are
    counted), for a check that needs only so many; `greedy` False skips the
    greedy player (the checker does not need it)."""
    verdict = Verdicts(MEASURE_VERDICT_NODES)
    children = distinct_children(pos)
    statuses = [verdict(after) for _, after in children.values()]
    decisions, unknown = decision_points(pos, line, verdict, decisions_needed)
    found = find_theme(theme, pos.profile.id)
    misconception = found.believer if found is not None else None
    believer = misconception_policy(misconception) if misconception else None
    return Measures(
        random=random_win_rate(pos, playouts, seed) or 0.0,
        greedy=random_win_rate(pos, playouts, seed, policy=greedy_policy) if greedy else None,
        misconception=win_rate(pos, believer, PLAYOUTS, seed) if believer else None,
        lost_without=lost_under(pos, misconception) if misconception else None,
        first_moves=len(children),
        losing_first=statuses.count(Verdict.LOST),
        decisions=decisions,
        unknown=unknown + statuses.count(Verdict.UNKNOWN),
        misconception_max=player_max(misconception) if misconception else 0.0,
    )


def cards_not_home(pos: Position) -> int:
    """The cards still to play: tableau, reserve, exposed and stock (a puzzle's size)."""
    piles = (*pos.tableau, *pos.reserve, *pos.exposed, pos.stock)
    return sum(len(p) for p in piles)


def rating_of(random: float, decisions: int) -> Difficulty | None:
    """The difficulty band of a measured random-play rate; None when the rate passes the bar, or
    falls in the medium or hard band with fewer than ``MIN_DECISIONS`` decision points."""
    for name, below in RATING_BANDS:
        if random < below or (name == Difficulty.EASY and random <= below):
            if name != Difficulty.EASY and decisions < MIN_DECISIONS:
                return None
            return name
    return None


def teaching_problems(m: Measures, task: str | None, difficulty: str | None,
                      refused_first: int = 0) -> list[str]:
    """What keeps a measured puzzle from teaching (criteria 1 and 2); empty when it teaches.

    `refused_first` counts the tempting first moves the file names as refused
    (``expect.illegal``): for a key-move or trap puzzle they count as wrong choices.
    """
    out: list[str] = []
    if m.random > RANDOM_MAX:
        out.append(f"random play wins {m.random:.0%} of playouts, counting every game without a fatal "
                   f"mistake as won (at most {RANDOM_MAX:.0%} allowed)")
    if m.first_moves < MIN_FIRST_MOVES:
        out.append(f"only {m.first_moves} distinct legal first moves (at least {MIN_FIRST_MOVES} needed)")
    if task == Task.KEY_MOVE and m.losing_first + refused_first < MIN_WRONG_FIRST:
        out.append(f"only {m.losing_first + refused_first} first moves lose or are refused "
                   f"(a {task} puzzle needs {MIN_WRONG_FIRST})")
    if task == Task.TRAP and m.losing_first < MIN_TRAP_LOSING:
        out.append("no legal first move loses (a trap puzzle needs one to avoid)")
    if difficulty in (Difficulty.MEDIUM, Difficulty.HARD) and m.decisions < MIN_DECISIONS:
        out.append(f"only {m.decisions} decision points on the solution line (a {difficulty} puzzle "
                   f"needs {MIN_DECISIONS})")
    if m.misconception is not None and m.misconception > m.misconception_max:
        out.append(f"the misconception player wins {m.misconception:.0%} of playouts")
    if m.lost_without is False:
        out.append("the position can still be won when the theme's permission is removed")
    elif m.lost_without is None and m.misconception is not None:
        out.append("could not decide whether the position is lost without the theme's permission")
    return out


@dataclass(frozen=True)
class TrapShape:
    """The losing first moves of a position, and whether the theme's believer walks into one
    (issue 28: "prefer positions where exactly one tempting move loses")."""

    losing: tuple[Move, ...]  # one move per distinct losing result (symmetric twins are one)
    picks: tuple[Move, ...]  # the moves the misconception player picks among at the start
    picked_losing: tuple[Move, ...]  # those of `picks` that lose

    @property
    def lone(self) -> bool:
        """Exactly one first move loses: the trap names one move, not one of several."""
        return len(self.losing) == 1

    @property
    def believer_loses(self) -> bool:
        """The believer picks a losing first move: some move it picks among loses."""
        return bool(self.picked_losing)

    @property
    def lone_believer_trap(self) -> bool:
        """A lone trap the believer falls into: what the generator prefers (``Search.lone_traps``)."""
        return self.lone and self.believer_loses


def trap_shape(pos: Position, misconception: Misconception | None,
               verdict: Verdicts | None = None) -> TrapShape:
    """The losing first moves of `pos` (the solver's verdicts), the moves the believer of
    `misconception` picks among there (``players.believer_choices``; none without a
    misconception) and which of those lose."""
    verdict = verdict or Verdicts(MEASURE_VERDICT_NODES)
    children = distinct_children(pos)
    losing = {key: move for key, (move, after) in children.items() if verdict(after) == Verdict.LOST}
    picks = tuple(believer_choices(pos, misconception)) if misconception is not None else ()
    picked_losing = tuple(m for m in picks if canonical_key(apply_unchecked(pos, m)) in losing)
    return TrapShape(tuple(losing.values()), picks, picked_losing)
