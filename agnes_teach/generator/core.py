"""The built source's stages and the typed ``Puzzle`` every source ends in.

A built candidate is laid out around the lesson by its theme's builder, filtered cheaply,
explored, proved and rated (``candidate``); the run that draws the candidates and takes their
puzzles is the pipeline's (``generator.pipeline.generate``). Every candidate has its own seed,
derived from the run's seed, and everything about it follows from that seed: the generator
iterates only over lists in a fixed order and budgets searches by states, never by the clock, so
a run is reproducible byte for byte.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..engine import apply_unchecked, legal_moves, refusal
from ..fairness import claim_holds_for_every_order, key_move_claim, status_claim
from ..graph import GameGraph, explore
from ..limits import CANDIDATE_MAX_STATES
from ..moves import Move
from ..position import Position
from ..profile import Profile
from ..registry import Difficulty, RuleId, Task, Verdict
from ..solver import solve
from ..tagger.detectors import LESSON_WINDOW, Lesson, rule_of
from ..tagger.distractors import Distractor, tempting_loss
from ..tagger.players import (
    GENERATOR_RANDOM_MAX,
    PLAYOUT_SEED,
    PLAYOUTS,
    lost_under,
    misconception_policy,
    random_win_rate,
    win_rate,
)
from ..tagger.small import Tally
from ..tagger.teaching import MIN_FIRST_MOVES, MIN_TRAP_LOSING, MIN_WRONG_FIRST, distinct_children, rating_of
from ..themes import Theme
from .answer_key import AnswerKey
from .canonical import puzzle_key
from .provenance import Provenance, SourceKind

GENERATOR_VERSION = "agnes-teach-generator 2"
SOLVER_NODES = 200_000  # the proof budget (states, not seconds, so runs are reproducible)


@dataclass
class Puzzle:
    """A proved puzzle, whichever source it came from, as the pipeline hands it to the writer."""

    theme: RuleId
    task: Task
    position: Position
    solution: list[Move]
    distractor: Distractor
    difficulty: Difficulty
    score: float
    key: str
    source: Provenance
    key_move: Move | None = None
    trap_move: Move | None = None
    stats: dict[str, float] = field(default_factory=dict)
    stock_shown: bool = False  # the sheet must draw the stock face up (its order decides the claims)
    hidden_stock: str | None = None  # how the claims were shown to hold for every hidden order
    # Reduced puzzles (generator/reduce.py): each one-step reduction and the criterion it breaks.
    economy: dict[str, str] = field(default_factory=dict)
    minimal: bool | None = None
    reduced: tuple[str, ...] = ()  # the reductions applied to the critical moment
    answer_key: AnswerKey | None = None  # the exact key (shortest answer, losing first moves, rating)

    @property
    def seed(self) -> int:
        """The number the puzzle grew from: a built candidate's seed, a deal's or a layout's number."""
        return self.source.number

    @property
    def size(self) -> int:
        """A built candidate's size (0 for a puzzle of a deal or a layout)."""
        return self.source.step if self.source.kind is SourceKind.BUILT else 0


# ------------------------------------------------------------------ lines


def _autoplay_wins(pos: Position) -> bool:
    """Does moving available cards to the foundations, and nothing else, win?"""
    while not pos.is_won():
        for move in legal_moves(pos):
            if move.dest.is_foundation:
                pos = apply_unchecked(pos, move)
                break
        else:
            return False
    return True


def _move_order(move: Move) -> tuple[int, str]:
    """Among equally short lines, prefer foundation moves, then the rest, dealing last."""
    return (0 if move.dest.is_foundation else 2 if move.is_deal else 1), str(move)


def shortest_path(graph: GameGraph, start: int = 0) -> list[Move]:
    """A shortest winning line of graph moves from state `start` (deterministic)."""
    line: list[Move] = []
    i = start
    while graph.win_distance[i]:
        d = graph.win_distance[i] or 0
        options = sorted((m for m, j in graph.edges[i] if graph.win_distance[j] == d - 1), key=_move_order)
        line.append(options[0])
        i = graph.child(i, options[0])
    return line


def lesson_line(graph: GameGraph, theme: Theme, losing: tuple[Move, ...]) -> list[Move] | None:
    """A shortest winning line (real moves) that uses the theme's rule within the lesson window."""

    def walk(i: int, prefix: list[Move]) -> list[Move] | None:
        if len(prefix) == LESSON_WINDOW or graph.win_distance[i] == 0:
            line = graph.expand(0, prefix + shortest_path(graph, i))
            return line if theme.detect(Lesson(graph.root, tuple(line), losing)) else None
        d = graph.win_distance[i]
        for move, j in sorted(graph.edges[i], key=lambda e: _move_order(e[0])):
            if d is not None and graph.win_distance[j] == d - 1:
                found = walk(j, prefix + [move])
                if found is not None:
                    return found
        return None

    return walk(0, [])


# ----------------------------------------------------------------- rating


def rate(graph: GameGraph, line: list[Move], distractor: Distractor) -> tuple[float, dict[str, float]]:
    """Difficulty from what solving needs: choices along the line, how deep the distractor's
    refutation goes, and how many rules the line uses."""
    decisions = 0
    branching = 0
    rules: set[str] = set()
    pos = graph.root
    for move in line:
        rules.add(rule_of(pos, move))
        pos = apply_unchecked(pos, move)
    i = 0
    for move in graph.path_of(line):
        moves = graph.edges[i]
        if any(graph.win_distance[j] is None for _, j in moves):
            decisions += 1
            branching += len(moves)
        i = graph.child(i, move)
    if distractor.rule is None:
        refute = graph.depth_from(graph.child(0, distractor.move))
    else:
        losing = [j for _, j in graph.edges[0] if graph.win_distance[j] is None]
        refute = max((graph.depth_from(j) for j in losing), default=0)
    mean_branch = branching / decisions if decisions else 1.0
    score = 1.5 * decisions + 0.5 * mean_branch + 0.5 * refute + 1.0 * len(rules) + 0.2 * len(line)
    return score, {"decisions": decisions, "branching": round(mean_branch, 2), "refute_depth": refute,
                   "rules": len(rules), "length": len(line), "states": len(graph.states)}


EASY_BELOW, HARD_FROM = 7.0, 11.0


def difficulty_of(score: float) -> Difficulty:
    """Without --teach: the rating from what the search saw (choices, refutation depth, rules)."""
    if score < EASY_BELOW:
        return Difficulty.EASY
    return Difficulty.HARD if score >= HARD_FROM else Difficulty.MEDIUM


def failable_rate(pos: Position, tally: Tally) -> float | None:
    """Criterion 1's screen: at least 3 distinct first moves, and random play's win rate by
    fatal-mistake playouts (``random_win_rate``, stopped early once it must or almost surely
    will exceed the bar); None, with the reason tallied, when either fails."""
    if len(distinct_children(pos)) < MIN_FIRST_MOVES:
        tally.add("fewer than 3 first moves")
        return None
    rate = random_win_rate(pos, screen=GENERATOR_RANDOM_MAX)
    if rate is None:
        tally.add("random play wins")
    return rate


def claimed_trap(key_move: Move | None, trap_move: Move | None, distractor: Distractor) -> Move | None:
    """The move a file claims loses: the trap, or a win puzzle's legal tempting move (written as
    ``expect.trap_move`` too, so it is proved as well)."""
    return trap_move or (distractor.move if distractor.rule is None and key_move is None else None)


def fair_stock(pos: Position, key_move: Move | None, trap_move: Move | None,
               distractor: Distractor) -> tuple[bool, str | None]:
    """(stock shown, argument): a claim about a hidden stock must hold for every order of it,
    checked order by order; otherwise the sheet shows the stock face up."""
    if not pos.stock:
        return False, None
    trap = claimed_trap(key_move, trap_move, distractor)
    if key_move is None and trap is None:
        return True, None  # a win line depends on the order the cards come in: show it
    claim = key_move_claim(key_move) if key_move is not None else status_claim(trap, Verdict.LOST)
    fairness = claim_holds_for_every_order(pos, claim)
    if fairness.proved:
        won = claim_holds_for_every_order(pos, status_claim(None, Verdict.WON))
        if won.proved:
            return False, fairness.argument()
    return True, None


# ----------------------------------------------------------------- proving


def _proved(pos: Position, key_move: Move | None, trap_move: Move | None) -> bool:
    """The project's solver confirms every claim the file will make."""
    if solve(pos, nodes=SOLVER_NODES).status != Verdict.WON:
        return False
    if key_move is not None:
        for move in legal_moves(pos):
            status = solve(apply_unchecked(pos, move), nodes=SOLVER_NODES).status
            if status != (Verdict.WON if move == key_move else Verdict.LOST):
                return False
    return trap_move is None or \
        solve(apply_unchecked(pos, trap_move), nodes=SOLVER_NODES).status == Verdict.LOST


def _trim(pos: Position, line: list[Move], keep: int) -> list[Move]:
    """Cut the forced tail: stop where playing available cards home is all that is left."""
    for cut in range(keep, len(line)):
        here = pos
        for move in line[:cut]:
            here = apply_unchecked(here, move)
        if _autoplay_wins(here):
            return line[:cut]
    return line


# --------------------------------------------------------------- candidates


def _built_position(theme: Theme, task: Task, profile: Profile, seed: int, size: int,
                    tally: Tally) -> Position | None:
    """The candidate's position, laid out by the theme's builder, when it offers a choice."""
    rng = random.Random(f"{theme.id}/{task}/{profile.id}/{size}/{seed}")
    draft = theme.build(rng, profile, task, size) if theme.build is not None else None
    pos = draft.position() if draft is not None else None
    if pos is None:
        tally.add("unbuildable")
        return None
    if task == Task.WIN and (_autoplay_wins(pos) or len(legal_moves(pos)) < 2):
        tally.add("trivial")
        return None
    first = legal_moves(pos)
    if task == Task.KEY_MOVE:
        # Cheap filters before the search: a choice to make, and no free foundation move
        # beside the one a foundation theme teaches (it would win as well).
        home_moves = sum(m.dest.is_foundation for m in first)
        if len(first) < 2 or home_moves > 1:
            tally.add("no unique choice")
            return None
    return pos


def _lesson_of(graph: GameGraph, theme: Theme, task: Task, pos: Position, losing: tuple[Move, ...],
               tally: Tally) -> tuple[list[Move], Move | None] | None:
    """(the winning line that teaches, the key move of a key-move task)."""
    if task == Task.KEY_MOVE:
        winning = graph.winning_moves()
        if len(winning) != 1:
            tally.add("key not unique")
            return None
        key_move = winning[0]
        line = graph.expand(0, [key_move] + shortest_path(graph, graph.child(0, key_move)))
        if not theme.detect(Lesson(pos, tuple(line), losing, within=1)):
            tally.add("theme not detected")
            return None
        return line, key_move
    found = lesson_line(graph, theme, losing)
    if found is None:
        tally.add("theme not detected")
        return None
    return found, None


def _tempting_moves(theme: Theme, task: Task, pos: Position, tail: tuple[Move, ...], losing: tuple[Move, ...],
                    tally: Tally) -> tuple[Distractor, Move | None] | None:
    """(the distractor, the trap move of a trap task) offered beside the lesson's `tail`."""
    distractor = theme.tempting(pos, tail, losing)
    if distractor is None:
        tally.add("no distractor")
        return None
    trap_move = None
    if task == Task.TRAP:
        if distractor.rule is None and distractor.move in losing:
            trap_move = distractor.move
        if trap_move is None:
            trap_move = tempting_loss(pos, tail, losing)
        if trap_move is None:
            tally.add("no trap")
            return None
    if distractor.rule is None and distractor.move not in losing:
        tally.add("distractor not refuted")
        return None
    if distractor.rule is not None and (why := refusal(pos, distractor.move)) is not None \
            and why.rule != distractor.rule:
        tally.add("distractor refused by another rule")
        return None
    return distractor, trap_move


def _teaches(graph: GameGraph, theme: Theme, task: Task, pos: Position, distractor: Distractor,
             decisions: int, tally: Tally) -> bool:
    """--teach's tests after the search: enough wrong first moves, a decision point, and the
    position lost under the theme's misconception."""
    wrong = len({puzzle_key(graph.states[j]) for _, j in graph.edges[0] if graph.win_distance[j] is None})
    if task == Task.KEY_MOVE and wrong + (distractor.rule is not None) < MIN_WRONG_FIRST:
        tally.add("fewer than 2 wrong first moves")
        return False
    if task == Task.TRAP and wrong < MIN_TRAP_LOSING:
        tally.add("no losing first move")
        return False
    if task != Task.WIN and decisions < 1:
        tally.add("no decision point")
        return False
    if lost_under(pos, theme.believer) is not True:
        tally.add("won without the rule")
        return False
    return True


def candidate(theme: Theme, task: Task, profile: Profile, seed: int, size: int,
              tally: Tally | None = None, teach: bool = False) -> Puzzle | None:
    """The puzzle grown from one candidate seed, or None (the reason goes to `tally`)."""
    tally = tally or Tally()
    pos = _built_position(theme, task, profile, seed, size, tally)
    if pos is None:
        return None
    # Criterion 1 before the search, as it is cheaper: a choice, and random play must lose.
    rate_random = None
    if teach:
        rate_random = failable_rate(pos, tally)
        if rate_random is None:
            return None
    graph = explore(pos, CANDIDATE_MAX_STATES)
    if graph is None:
        tally.add("too large")
        return None
    if not graph.won():
        tally.add(Verdict.LOST)
        return None
    losing = tuple(graph.losing_moves())
    lesson = _lesson_of(graph, theme, task, pos, losing, tally)
    if lesson is None:
        return None
    line, key_move = lesson
    lesson_at = next(i for i in range(len(line))
                     if theme.detect(Lesson(pos, tuple(line), losing, within=i + 1)))
    tempting = _tempting_moves(theme, task, pos, tuple(line[lesson_at:]), losing, tally)
    if tempting is None:
        return None
    distractor, trap_move = tempting
    score, stats = rate(graph, line, distractor)
    if teach and not _teaches(graph, theme, task, pos, distractor, int(stats["decisions"]), tally):
        return None
    if task != Task.WIN:
        line = _trim(pos, line, lesson_at + 2)
    # A legal distractor of a win puzzle is written as expect.trap_move: prove it too.
    if not _proved(pos, key_move, claimed_trap(key_move, trap_move, distractor)):
        tally.add("solver did not confirm")
        return None
    decisions = int(stats["decisions"])
    if rate_random is None:
        rate_random = random_win_rate(pos) or 0.0
    stats["random"] = rate_random
    if teach:
        stats["misconception"] = win_rate(pos, misconception_policy(theme.believer), PLAYOUTS, PLAYOUT_SEED)
    rated = rating_of(rate_random, decisions) if teach else difficulty_of(score)
    if rated is None:
        tally.add("too few decision points for its random-play rate")
        return None
    # A hidden stock is judged by the pipeline's one fairness stage (pipeline.hidden_stock_fair).
    return Puzzle(theme.rule, task, pos, line, distractor, rated, score, puzzle_key(pos),
                  Provenance.built(seed, size), key_move, trap_move, stats)


def pick_task(theme: Theme, rng: random.Random) -> Task:
    weights = {Task.KEY_MOVE: 3, Task.TRAP: 2, Task.WIN: 2}
    tasks = list(theme.tasks)
    return rng.choices(tasks, weights=[weights[t] for t in tasks])[0]
