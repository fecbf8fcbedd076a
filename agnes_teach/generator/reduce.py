"""Puzzles by reduction: a critical moment of a real game, cut down to the cards that matter.

The miner finds **critical moments**: positions of a solved deal's winning line
where the next move is one the theme's misconception forbids (or the move it
forces is on offer and loses) and the believer cannot win from there
(``players.lost_under``). Such a moment is a whole game, though: 40-odd cards
and a 40-move answer. The reducer then removes what does not matter, a step at
a time, and keeps a step only while the lesson survives:

* **send a card home**: the next card a foundation needs leaves its pile (the
  cards above it close up) and goes onto its foundation, so a finished suit
  drops out of the puzzle;
* **deal before the start**: the puzzle begins after the next deal (the stock
  shrinks 16, 9, 2, 0 in the canonical profile, so stock cards go by deals);
* **start later**: the puzzle begins after its answer's first move, when that
  move decides nothing.

The search is best-first on the size (cards not home, then the answer's
length): from each kept position every reduction is tried, and each result is
kept only if it is still won, still lost under the misconception and the
misconception still loses at a decision point of its answer. A kept position
of at most ``MAX_CARDS`` cards and a ``MAX_ANSWER``-move answer is then held to
every criterion (only moves, random play, first moves, the believer's play,
the theme on the answer); the smallest such position wins, and it is
**minimal** when no single reduction of it that leaves no more cards meets every
criterion (the reason is recorded otherwise). Every budget is in solver states or positions, never
seconds, so a run is reproducible; the clock only stops it.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from dataclasses import dataclass

from ..clock import check as check_clock
from ..clock import running_until
from ..deal import deal as deal_position
from ..engine import apply_unchecked, home_run
from ..limits import DEAL_NODES, MOMENT_FIRST_MOVE
from ..moves import Move
from ..position import Position
from ..profile import Profile
from ..registry import Task, Verdict
from ..solver import canonical_key, solve
from ..tagger.answer import Verdicts
from ..tagger.crux import key_move_problem
from ..tagger.distractors import Distractor, tempting_loss
from ..tagger.players import lost_under
from ..tagger.shortest import TooLarge
from ..tagger.small import (
    REDUCE_BELIEF_STATES,
    Judged,
    Kept,
    Tally,
    believer_judged,
    economy,
    judge,
    keeps_lesson,
    kept_of,
    lesson_moves,
    reductions,
)
from ..tagger.teaching import MIN_TRAP_LOSING, MIN_WRONG_FIRST, trap_shape
from ..themes import Theme, theme_for
from .answer_key import AnswerKey, KeyProblem, answer_key
from .canonical import puzzle_key
from .core import Puzzle
from .provenance import Provenance

SEARCH_POSITIONS = 300  # positions the reducer examines from one critical moment
LAYOUT_POSITIONS = 60  # and from one composed layout (already small: most of its cuts are decided at once)


# ------------------------------------------------------------------ search


@dataclass
class Reduced:
    """The smallest puzzle found from one critical moment, with its economy record."""

    judged: Judged
    economy: dict[str, str]  # each one-step reduction of it -> the criterion it breaks (all of them do)


def _descend(best: Judged, theme: Theme, verdict: Verdicts, tally: Tally,
             seen: dict[bytes, Judged]) -> tuple[Judged, dict[str, str]]:
    """Go on cutting while some one-step reduction still meets every criterion (the search's budget
    may end above a smaller puzzle); then the economy of the last: what each reduction breaks. A
    step never adds cards (``economy``) and never returns to a position it left, so the descent
    ends."""
    left = {canonical_key(best.kept.position)}
    while True:
        check_clock()
        broken, passing = economy(best.kept, theme, verdict, tally, seen)
        onward = [j for j in passing if canonical_key(j.kept.position) not in left]
        if not onward:
            return best, broken
        best = min(onward, key=lambda j: j.kept.priority())
        left.add(canonical_key(best.kept.position))


def _search(start: Kept, theme: Theme, verdict: Verdicts, tally: Tally, positions: int, strict: bool,
            seen: dict[bytes, Judged]) -> Judged | None:
    """Best first on size from `start`: the smallest kept position that meets every criterion."""
    heap: list[tuple[tuple[int, int], int, Kept]] = [(start.priority(), 0, start)]
    visited = {puzzle_key(start.position)}
    best: Judged | None = None
    examined = 0
    while heap and examined < positions:
        check_clock()
        _, _, kept = heapq.heappop(heap)
        # One no smaller than the best found cannot replace it: its judging (random play above
        # all) is left to the descent, which asks it of the best's own reductions.
        if kept.small and (best is None or kept.priority() < best.kept.priority()):
            key = canonical_key(kept.position)
            judged = seen.get(key) or judge(kept, theme, verdict, believer=False)
            seen[key] = judged
            if judged.problem is None and (best is None or kept.priority() < best.kept.priority()):
                best = judged
            elif judged.problem is not None:
                tally.add(f"judged: {judged.problem.split(' (')[0]}")
        for what, child in reductions(kept.position, list(kept.line)):
            child_key = puzzle_key(child)
            if child_key in visited:
                continue
            visited.add(child_key)
            examined += 1
            smaller = keeps_lesson(child, theme, (*kept.steps, what), verdict, tally, strict)
            if smaller is not None:
                heapq.heappush(heap, (smaller.priority(), examined, smaller))
    return best


def reduce_moment(pos: Position, theme_id: str, *, positions: int = SEARCH_POSITIONS,
                  tally: Tally | None = None, deadline: float | None = None) -> Reduced | None:
    """The smallest puzzle that keeps the lesson of the critical moment `pos`, or None.

    Two searches, the narrow one first: through positions whose answer makes the rule's first use
    at a decision point (where that holds, it reaches small puzzles sooner), then, if that finds
    none, through every position that keeps the lesson.

    `deadline` (``time.monotonic``; default: the run's clock, ``clock.running_until``): past it the
    reduction raises ``clock.OutOfTime`` rather than answer from a search it did not finish."""
    if deadline is not None:
        with running_until(deadline):
            return reduce_moment(pos, theme_id, positions=positions, tally=tally)
    tally = tally or Tally()
    theme = theme_for(theme_id, pos.profile.id)
    verdict = Verdicts()
    seen: dict[bytes, Judged] = {}
    best = None
    for strict in (True,) if theme.caught_at_first_use else (True, False):
        start = keeps_lesson(pos, theme, (), verdict, tally, strict)
        if start is not None:
            best = _search(start, theme, verdict, tally, positions, strict, seen)
        if best is not None:
            break
    if best is None:
        tally.add("no small puzzle kept the lesson")
        return None
    best, broken = _descend(best, theme, verdict, tally, seen)
    best = believer_judged(best, theme.believer)
    if best.problem is not None:
        tally.add(f"judged: {best.problem}")
        return None
    return Reduced(best, broken)


# ------------------------------------------------------------------ moments


def critical_moments(number: int, profile: Profile, theme_id: str,
                     nodes: int = DEAL_NODES) -> Iterator[tuple[int, Position]]:
    """(move number, position) of deal `number`'s winning line where the theme's lesson decides:
    the misconception parts from the line there and the believer cannot win from there."""
    result = solve(deal_position(number, profile), nodes=nodes)
    if result.status != Verdict.WON:
        return
    misconception = theme_for(theme_id, profile.id).believer
    verdict = Verdicts()
    pos = deal_position(number, profile)
    line = tuple(result.solution)
    for k, move in enumerate(line):
        if k >= MOMENT_FIRST_MOVE and lesson_moves(pos, line[k:k + 1], 1, misconception, verdict) \
                and (misconception.restriction is None
                     or lost_under(pos, misconception, max_states=REDUCE_BELIEF_STATES) is not False):
            yield k, pos
        pos = apply_unchecked(pos, move)


# ------------------------------------------------------------------ puzzles


def _claims(theme: Theme, judged: Judged, want: Task | None,
            lone_traps: bool = False) -> tuple[Task, Move | None, Move | None, Distractor] | None:
    """(task, key move, trap move, distractor): a key move when the rule decides at the start and
    the first move is the only one; a trap when a tempting first move loses; else win in N moves.

    Issue 28 prefers traps where exactly one tempting move loses: a *lone* trap whose one losing
    first move is one the theme's believer picks (``TrapShape.lone_believer_trap``) is offered
    before a win; with `lone_traps` no other trap is offered at all."""
    assert judged.answer is not None
    pos, line = judged.kept.position, judged.kept.line
    first = judged.answer.decisions[0] if judged.answer.decisions else None
    start = first if first is not None and first.index == 0 else None
    losing = start.losing if start is not None else ()
    shape = trap_shape(pos, theme.believer)
    lone = shape.lone_believer_trap
    if lone:
        tempting: Move | None = shape.picked_losing[0]
    else:
        tempting = tempting_loss(pos, line, losing) or (losing[0] if losing else None)
    options: list[Task] = []
    if start is not None and start.rule_decides and not start.transposing and len(losing) >= MIN_WRONG_FIRST:
        options.append(Task.KEY_MOVE)
    if tempting is not None and len(losing) >= MIN_TRAP_LOSING and (lone or not lone_traps):
        options.insert(0 if lone else len(options), Task.TRAP)
    options.append(Task.WIN)
    task = want if want in options else options[0]
    distractor = theme.tempting(pos, line, losing)
    if task == Task.TRAP and tempting is not None:
        distractor = Distractor(tempting, None)
    elif distractor is None or (distractor.rule is None and distractor.move not in losing):
        if tempting is None:
            return None
        distractor = Distractor(tempting, None)
    return (task, line[0] if task == Task.KEY_MOVE else None,
            tempting if task == Task.TRAP else None, distractor)


@dataclass(frozen=True)
class Keyed:
    """A reduced position with its exact key and economy: everything about the puzzle but the task
    form it is posed as, which the run's rotation chooses when it takes the puzzle (``claimed``)."""

    judged: Judged
    exact: AnswerKey
    economy: dict[str, str]


def keyed(theme_id: str, reduced: Reduced) -> Keyed | None:
    """The exact key of a reduced position (issue 28: a shortest answer, the claims exact, the
    rating from what solving needs), None when it has none or a one-step cut of it with that key's
    line still meets every criterion (not minimal)."""
    theme = theme_for(theme_id, reduced.judged.kept.position.profile.id)
    judged = reduced.judged
    assert judged.answer is not None and judged.random is not None
    kept = judged.kept
    try:
        exact = answer_key(kept.position, theme_id, judged.random)
    except (KeyProblem, TooLarge):
        return None
    # Minimal with the key's own line: `check --teach` cuts "start after" the key's first move.
    end = kept.position
    for move in exact.answers.key:
        end = apply_unchecked(end, move)
    line = [*exact.answers.key, *home_run(end)[1]]
    broken, passing = economy(kept_of(kept.position, line, theme.believer), theme, Verdicts())
    if passing:
        return None
    return Keyed(judged, exact, broken)


def claimed(theme_id: str, found: Keyed, source: Provenance, want: Task | None = None,
            lone_traps: bool = False) -> Puzzle | None:
    """The keyed position posed as a puzzle, as the task form `want` if it can be (None: no
    tempting move to show, or a key-move puzzle whose first move is not the only winning one or
    not the theme's lesson move). `lone_traps`: a trap only where exactly one first move loses and
    the believer picks it."""
    judged, exact = found.judged, found.exact
    kept = judged.kept
    theme = theme_for(theme_id, kept.position.profile.id)
    claims = _claims(theme, judged, want, lone_traps)
    if claims is None:
        return None
    task, key_move, trap_move, distractor = claims
    key_first = exact.answers.key[0] if exact.answers.key else None
    if task == Task.KEY_MOVE and (exact.winning_choices != 1 or key_first is None
                                  or key_move_problem(kept.position, key_first, theme.lesson_move)):
        return None
    assert judged.random is not None
    stats = {"random": judged.random, "decisions": float(exact.decisions),
             "misconception": judged.believer or 0.0, "answer": float(exact.answers.length),
             "cards": float(kept.cards), "refute_depth": 1.0 if distractor.rule is None else 0.0}
    return Puzzle(theme.rule, task, kept.position, list(kept.line), distractor, exact.difficulty,
                  score=exact.score, key=puzzle_key(kept.position), source=source, key_move=key_move,
                  trap_move=trap_move, stats=stats, stock_shown=bool(kept.position.stock),
                  economy=found.economy, minimal=True, reduced=kept.steps, answer_key=exact)


def as_puzzle(theme_id: str, reduced: Reduced, source: Provenance, want: Task | None = None,
              lone_traps: bool = False) -> Puzzle | None:
    """The reduced position as a puzzle of the generator's shape (None: no key, or no tempting move
    to show): ``keyed`` and ``claimed`` in one."""
    found = keyed(theme_id, reduced)
    return claimed(theme_id, found, source, want, lone_traps) if found is not None else None
