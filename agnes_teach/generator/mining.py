"""Puzzles from real play: positions of solved deals where the theme's rule decides the game.

Small endgames built around a lesson are almost all reversible, so random
play wins them; positions from the middle of real games are not.  The miner
solves a deal (the compiled solver, bounded by states), walks the winning
line and, at each position, asks whether the theme's rule decides the game
there:

* the line uses the theme within its next moves (the theme's detector);
* the position is **lost under the theme's misconception** (exactly:
  :func:`players.lost_under`: the solver on restricted tables, the believer's
  tree with the real game's solver at its leaves, or a bounded search of the
  believer's game), so the misconception player must lose;
* random play wins at most 30% (``players.GENERATOR_RANDOM_MAX``, 5 points
  under the checker's 35% bar) of the checker's fatal-mistake playouts
  (``players.random_win_rate``: a game is lost only once the solver proves
  it lost), at least three distinct first moves are on offer, and a
  key-move or trap puzzle has at least two first moves that lose;
* the rating is the band of that measured rate (``teaching.RATING_BANDS``:
  hard below 4%, medium below 15%, easy up to 30% for a mined file); a medium or hard rating
  needs at least two decision points on the line.

The puzzle's task follows from the first moves' verdicts: ``key-move`` when
exactly one distinct first move keeps the win and it uses the theme;
``trap`` when the misconception's own move (the early deal) is among the
losing ones; ``win`` otherwise.  Cards left in the stock are shown face up
(``stock_shown: true``): the position comes from a real deal whose order is
known.  Every verdict is budgeted in states, never seconds, so a run is
reproducible.

These are the stages of the pipeline's mined source (``pipeline.mine_deal`` walks one deal's
line with them; ``pipeline.mine`` takes the puzzles in order).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ..deal import deal as deal_position
from ..engine import apply_unchecked, legal_moves
from ..limits import DEAL_NODES, MINED_FIRST_MOVE, MINING_BELIEF_STATES, MINING_VERDICT_NODES
from ..moves import DEAL_MOVE, Move
from ..position import Position
from ..profile import Profile
from ..registry import Difficulty, Task, Verdict
from ..solver import solve
from ..tagger.detectors import LESSON_WINDOW, Lesson
from ..tagger.distractors import Distractor, tempting_loss
from ..tagger.players import (
    PLAYOUT_SEED,
    PLAYOUTS,
    lost_under,
    misconception_policy,
    win_rate,
)
from ..tagger.teaching import (
    MIN_DECISIONS,
    MIN_FIRST_MOVES,
    MIN_WRONG_FIRST,
    decision_points,
    distinct_children,
    rating_of,
)
from ..themes import Theme, theme_for
from .canonical import puzzle_key
from .core import Puzzle, Tally, failable_rate
from .provenance import Provenance

TAIL_MOVES = 6  # positions this close to the end are won by anyone
DECISION_WINDOW = 24
SPACING = 6  # two puzzles of one theme from one game lie at least this many moves apart


def solved_line(number: int, profile: Profile, nodes: int = DEAL_NODES) -> list[Move] | None:
    """The solver's winning line of deal `number`, or None (lost, or undecided within `nodes`)."""
    result = solve(deal_position(number, profile), nodes=nodes)
    return result.solution if result.status == Verdict.WON else None


def _restricts(theme: Theme, pos: Position, moves: list[Move]) -> bool:
    """Does the misconception change anything here (forbid a legal move, or force one)?"""
    return len(theme.believer.allowed(pos, moves)) != len(moves)


def _verdicts(pos: Position, nodes: int) -> dict[bytes, tuple[Move, str]]:
    out: dict[bytes, tuple[Move, str]] = {}
    for key, (move, after) in distinct_children(pos).items():
        out[key] = (move, Verdict.WON if after.is_won() else solve(after, nodes=nodes).status)
    return out


class _ThemeTally(Tally):
    """Reasons counted per theme ("tableau.empty: random play wins")."""

    def __init__(self, theme: str, into: Tally) -> None:
        super().__init__(into.counts)
        self.theme = theme

    def add(self, reason: str) -> None:
        super().add(f"{self.theme}: {reason}")


def _worth_proving(theme: Theme, pos: Position, line: list[Move], moves: list[Move], nodes: int,
                   tally: Tally) -> bool:
    """The cheap tests: the belief changes something here, the theme is on the line, a real
    choice is offered, and the position is lost under the misconception."""
    if not _restricts(theme, pos, moves):
        tally.add("the belief changes nothing here")
        return False
    # The stock.deal detector needs the deal proved losing: assume it for the cheap test.
    assumed = (DEAL_MOVE,) if DEAL_MOVE in moves else ()
    if not theme.detect(Lesson(pos, tuple(line), assumed, within=LESSON_WINDOW)):
        tally.add("theme not on the line")
        return False
    if len(distinct_children(pos)) < MIN_FIRST_MOVES:
        tally.add("fewer than 3 first moves")
        return False
    # The proof under the belief is one or a few solver runs, or a bounded search of the believer's
    # game: cheaper than 100 random games.
    if lost_under(pos, theme.believer, max_states=MINING_BELIEF_STATES, nodes=nodes) is not True:
        tally.add("not lost under the misconception")
        return False
    return True


def _random_rate(pos: Position, key: str, tally: Tally,
                 rates: dict[str, float | None] | None) -> float | None:
    """Random play's rate (criterion 1's screen), from the cache `rates` when it has the position."""
    if rates is not None and key in rates:
        rate = rates[key]
        if rate is None:
            tally.add("random play wins")
        return rate
    rate = failable_rate(pos, tally)
    if rates is not None:
        rates[key] = rate
    return rate


def _task_of(theme: Theme, pos: Position, line: list[Move], moves: list[Move], winning: list[Move],
             losing: tuple[Move, ...], nodes: int) -> tuple[Task, Move | None, Move | None, list[Move]]:
    """(task, key move, trap move, line) from the first moves' verdicts: key-move when one first
    move keeps the win and uses the theme, trap when the misconception forces a losing move."""
    key_move = trap_move = None
    task = Task.WIN
    if len(winning) == 1 and len(losing) >= MIN_WRONG_FIRST:
        after = apply_unchecked(pos, winning[0])
        rest = solve(after, nodes=nodes).solution
        if theme.detect(Lesson(pos, (winning[0], *rest), losing, within=1)):
            task, key_move, line = Task.KEY_MOVE, winning[0], [winning[0], *rest]
    if task == Task.WIN and len(losing) >= MIN_WRONG_FIRST:
        misconception = theme.believer
        forced = [m for m in misconception.allowed(pos, moves) if m in losing]
        if misconception.kind == "force" and forced:
            task, trap_move = Task.TRAP, forced[0]
    return task, key_move, trap_move, line


def _distractor_of(theme: Theme, pos: Position, line: list[Move], losing: tuple[Move, ...],
                   trap_move: Move | None, tally: Tally) -> Distractor | None:
    """The tempting wrong move: the trap, else the theme's distractor when it is refused or
    refuted, else a tempting losing move."""
    distractor = theme.tempting(pos, tuple(line), losing)
    if distractor is None or (distractor.rule is None and distractor.move not in losing):
        tempting = tempting_loss(pos, tuple(line), losing) or (losing[0] if losing else None)
        if tempting is None:
            tally.add("no tempting wrong move")
            return None
        distractor = Distractor(tempting, None)
    if trap_move is not None:
        distractor = Distractor(trap_move, None)
    return distractor


def examine(theme_id: str, pos: Position, line: list[Move], source: Provenance, *, tally: Tally | None = None,
            nodes: int = MINING_VERDICT_NODES, rates: dict[str, float | None] | None = None,
            rating_open: Callable[[Difficulty], bool] | None = None) -> Puzzle | None:
    """The puzzle at `pos` (won by `line`) for `theme_id`, or None with the reason in `tally`.

    Cheapest tests first: the theme on the line, a real choice, the
    misconception, random play, the first moves' verdicts, the decision
    points (the order changes only the cost and the reason tallied, never
    which positions are kept).
    `rates` caches random play's rate by position (it does not depend on the theme);
    `rating_open(rating)` false skips a position whose measured rate falls in a band no longer
    wanted, before the expensive proofs."""
    tally = _ThemeTally(theme_id, tally or Tally())
    theme = theme_for(theme_id, pos.profile.id)
    moves = legal_moves(pos)
    if not _worth_proving(theme, pos, line, moves, nodes, tally):
        return None
    key = puzzle_key(pos)
    rate = _random_rate(pos, key, tally, rates)
    if rate is None:
        return None
    band = rating_of(rate, MIN_DECISIONS)
    if rating_open is not None and band is not None and not rating_open(band):
        tally.add(f"not wanted ({band})")
        return None
    verdicts = _verdicts(pos, nodes)
    statuses = [status for _, status in verdicts.values()]
    if Verdict.UNKNOWN in statuses:
        tally.add("a first move undecided")
        return None
    losing = tuple(move for move, status in verdicts.values() if status == Verdict.LOST)
    winning = [move for move, status in verdicts.values() if status == Verdict.WON]
    if not theme.detect(Lesson(pos, tuple(line), losing, within=LESSON_WINDOW)):
        tally.add("theme not on the line")
        return None
    task, key_move, trap_move, line = _task_of(theme, pos, line, moves, winning, losing, nodes)
    distractor = _distractor_of(theme, pos, line, losing, trap_move, tally)
    if distractor is None:
        return None
    # Counted along the first DECISION_WINDOW moves only: a lower bound of the whole line's count
    # (which the checker takes), so a rating that needs decision points never claims too many.
    decisions, unknown = decision_points(pos, line[:DECISION_WINDOW])
    believer = win_rate(pos, misconception_policy(theme.believer), PLAYOUTS, PLAYOUT_SEED)
    difficulty = rating_of(rate, decisions)
    if difficulty is None:
        tally.add("too few decision points for its random-play rate")
        return None
    stats = {"random": rate, "decisions": float(decisions), "misconception": believer,
             "first_moves": float(len(verdicts)), "losing_first": float(len(losing)),
             "refute_depth": 1.0 if distractor.rule is None else 0.0, Verdict.UNKNOWN: float(unknown)}
    return Puzzle(theme.rule, task, pos, list(line), distractor, difficulty,
                  score=1.0 - rate, key=key, source=source, key_move=key_move, trap_move=trap_move,
                  stats=stats, stock_shown=bool(pos.stock))


def positions(number: int, profile: Profile, line: list[Move],
              first: int = MINED_FIRST_MOVE) -> Iterator[tuple[int, Position, list[Move]]]:
    """(move number, position, the rest of the line) along a deal's winning line."""
    pos = deal_position(number, profile)
    for k, move in enumerate(line):
        if first <= k <= len(line) - TAIL_MOVES:
            yield k, pos, line[k:]
        pos = apply_unchecked(pos, move)


def may_start(theme: Theme, k: int, last_at: int) -> bool:
    """May a puzzle of `theme` start at move `k`: past the opening (``Theme.first_move``), and
    ``SPACING`` moves before the last one taken from this game (`last_at`)?"""
    return k >= theme.first_move and last_at - k >= SPACING
