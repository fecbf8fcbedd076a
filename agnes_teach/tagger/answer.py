"""The answer a pupil writes, and what it must show (issue 20's criteria 2, 3 and 5).

A winning line has two parts. The **answer** is what the pupil writes: every
move up to the last one that is not a plain move home. The **rest** is moves
home only, each card going as soon as it is free; home moves only ever free
cards, so any order of them ends the same way and the rest is no choice. A home
move that needs the rule being taught (an Ace onto a King for the corner, a
base card opening a foundation) is part of the answer, never of the rest: it is
the lesson.

Along the answer, a **decision point** is a position where some legal move
loses. There the puzzle asks for:

* **the rule deciding** (criterion 3): at some decision point the theme's
  misconception loses: the move a *force* belief forces is on offer and loses;
  for a belief that *adds* moves, the answer parts here from the believer's plans
  and every one of them needs a move the rule refuses; for a *forbid* belief, the
  answer still needs the rule there or later and the believer cannot win from
  there (every move it allows loses, or its game is proved lost);
* **only moves** (criterion 5): every other legal move loses, or merely
  transposes (it reaches a position of the answer's line within
  ``TRANSPOSE_DEPTH`` moves, or the rest of the answer still plays after it and
  leaves only cards that go home by themselves: a move slipped in that changes
  nothing, such as an early move home), or begins another shortest answer (the
  key says how many answers are that short, ``tagger.shortest``), so no longer
  answer hides beside the key.

Everything here asks the engine for moves and the solver for verdicts; nothing
decides a rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..engine import apply_unchecked, finishes_home, legal_moves, refusal
from ..limits import MAX_CARDS
from ..moves import Move
from ..position import Position
from ..registry import Verdict
from ..solver import canonical_key, solve
from .misconception import Misconception
from .plans import plan_departures, plans_for
from .players import lost_under
from .shortest import TooLarge, answer_length

MAX_ANSWER = 10  # criterion 2: moves a pupil writes
TRANSPOSE_DEPTH = 2  # a winning alternative that rejoins the line within this many moves transposes
ANSWER_NODES = 100_000  # the solver's budget per verdict (states, so runs are reproducible)


class Verdicts:
    """Solver verdicts cached by canonical key (one solve per distinct state)."""

    def __init__(self, nodes: int = ANSWER_NODES) -> None:
        self.nodes = nodes
        self.cache: dict[bytes, str] = {}

    def __call__(self, pos: Position) -> str:
        key = canonical_key(pos)
        if key not in self.cache:
            self.cache[key] = Verdict.WON if pos.is_won() else solve(pos, nodes=self.nodes).status
        return self.cache[key]


def is_plain_home(pos: Position, move: Move, misconception: Misconception | None) -> bool:
    """A move home that any pupil makes unprompted: it goes to a foundation and the theme's belief
    allows it (so the corner's Ace onto a King, say, is never "plain")."""
    if not move.dest.is_foundation:
        return False
    return misconception is None or misconception.kind != "forbid" \
        or bool(misconception.allowed(pos, [move]))


def answer_cut(pos: Position, line: Sequence[Move], misconception: Misconception | None = None) -> int:
    """How many moves of a winning line the pupil writes: up to the last move that is not a plain
    move home (``is_plain_home``). The rest are home moves in any order."""
    positions = [pos]
    for move in line[:-1]:
        positions.append(apply_unchecked(positions[-1], move))
    cut = len(line)
    while cut and is_plain_home(positions[cut - 1], line[cut - 1], misconception):
        cut -= 1
    return cut


@dataclass(frozen=True)
class DecisionPoint:
    """A position of the answer where some legal move loses, and what each other move does."""

    index: int  # the position before the answer's move `index` (0: the puzzle's start)
    move: Move  # the answer's move here
    losing: tuple[Move, ...]  # one move per distinct losing result
    transposing: tuple[Move, ...]  # winning moves that rejoin the line
    other_wins: tuple[Move, ...]  # winning moves that do not: the answer is not the only one
    unknown: tuple[Move, ...]  # moves the solver could not decide
    rule_decides: bool  # the misconception loses right here (criterion 3)
    uses_rule: bool = False  # the answer's move here is one the belief forbids (the rule on the spot)


@dataclass(frozen=True)
class Answer:
    """A line split into the answer and the rest, with the answer's decision points."""

    moves: tuple[Move, ...]
    rest: tuple[Move, ...]
    decisions: tuple[DecisionPoint, ...]

    @property
    def rule_decides(self) -> bool:
        return any(d.rule_decides for d in self.decisions)

    @property
    def decided_on_the_spot(self) -> bool:
        """The stricter reading: the misconception loses at the very move that uses the rule."""
        return any(d.rule_decides and d.uses_rule for d in self.decisions)

    @property
    def only_moves(self) -> bool:
        return all(not d.other_wins and not d.unknown for d in self.decisions)

    @property
    def unknown(self) -> int:
        return sum(len(d.unknown) for d in self.decisions)


def _rejoins(after: Position, line_keys: set[bytes], depth: int) -> bool:
    """Does some sequence of at most `depth` legal moves from `after` reach a position of the line?"""
    frontier = [after]
    seen = {canonical_key(after)}
    if seen & line_keys:
        return True
    for _ in range(depth):
        nxt: list[Position] = []
        for here in frontier:
            for move in legal_moves(here):
                child = apply_unchecked(here, move)
                key = canonical_key(child)
                if key in line_keys:
                    return True
                if key not in seen:
                    seen.add(key)
                    nxt.append(child)
        frontier = nxt
    return False


class _Shortest:
    """Whether a move begins another shortest answer (the start's shortest length, found once)."""

    def __init__(self, start: Position) -> None:
        self.start = start
        self.length: int | None = None

    def begins(self, index: int, here: Position, move: Move) -> bool:
        """Is `move`, played as the answer's move `index` from `here`, the start of an answer no longer
        than the shortest from the puzzle's start?"""
        try:
            if self.length is None:
                self.length = answer_length(self.start)
            return index + 1 + answer_length(apply_unchecked(here, move)) <= self.length
        except TooLarge:
            return False


def _slipped_in(here: Position, move: Move, rest: Sequence[Move]) -> bool:
    """Does the rest of the answer still play after `move`, and leave only cards that go home by
    themselves? Then `move` is the same answer with one move slipped in."""
    pos = apply_unchecked(here, move)
    for step in rest:
        if refusal(pos, step) is not None:
            return False
        pos = apply_unchecked(pos, step)
    return finishes_home(pos)


def rule_uses(pos: Position, line: Sequence[Move], cut: int, misconception: Misconception) -> list[int]:
    """The answer's moves (indexes) that a *forbid* belief would never make: where the rule is used.
    For a belief that adds moves and plans with them: where the answer leaves the believer's plans
    (``plans``); none for a *widen* belief, which forbids no move."""
    if misconception.kind == "add":
        return plan_departures(pos, line[:cut], misconception)
    out: list[int] = []
    if misconception.kind == "widen":  # it forbids no move
        return out
    here = pos
    for i, move in enumerate(line[:cut]):
        if not misconception.allowed(here, [move]):
            out.append(i)
        here = apply_unchecked(here, move)
    return out


def _rule_decides(pos: Position, moves: list[Move], index: int, uses: list[int],
                  results: dict[bytes, tuple[Move, str]], misconception: Misconception | None) -> bool:
    """Does the misconception lose at this decision point?

    A *force* belief: the move it forces (the early deal) is on offer here and loses. A *forbid*
    belief: the answer still needs the rule here or later (a move the belief forbids), and the
    believer cannot win from here: every move it allows loses at once, or its game from here is
    lost (``lost_under``, exact). So the rule's absence costs the game at a point where the choice
    is real, and not only in the moves home at the end. A *widen* belief: the believer's game is won
    here and a move of its plan loses in the real game (its plan counts on a move the rules
    refuse)."""
    if misconception is None:
        return False
    if misconception.kind == "widen":
        plan = misconception.plan(pos, moves) or []
        return any(results[canonical_key(apply_unchecked(pos, m))][1] == Verdict.LOST for m in plan)
    allowed = misconception.allowed(pos, moves)
    if misconception.kind == "add":
        return _plan_fails(pos, index, uses, misconception)
    if misconception.kind == "force":
        status_of = {move: status for move, status in results.values()}
        forced = [m for m in allowed if len(allowed) < len(moves)]
        return any(status_of.get(m) == Verdict.LOST for m in forced if m in status_of)
    if not any(u >= index for u in uses):
        return False  # the answer does not need the rule from here on
    # Moves twinned by symmetry share one verdict: look each one up.
    if all(results[canonical_key(apply_unchecked(pos, m))][1] == Verdict.LOST for m in allowed):
        return True
    return lost_under(pos, misconception) is True


def _plan_fails(pos: Position, index: int, uses: list[int], misconception: Misconception) -> bool:
    """A belief that adds moves loses right here: the answer parts from the believer's plans here
    (`uses`), and every plan the believer may follow from here needs a move the rule refuses."""
    return index in uses and plans_for(misconception, pos).lost(pos) is True


def analyse(pos: Position, line: Sequence[Move], misconception: Misconception | None = None,
            verdict: Verdicts | None = None) -> Answer:
    """The answer of a winning `line` from `pos`: its moves, the rest, and its decision points."""
    verdict = verdict or Verdicts()
    cut = answer_cut(pos, line, misconception)
    positions = [pos]
    for move in line:
        positions.append(apply_unchecked(positions[-1], move))
    uses = rule_uses(pos, line, cut, misconception) if misconception is not None else []
    decisions: list[DecisionPoint] = []
    shortest = _Shortest(pos)
    for i in range(cut):
        here = positions[i]
        moves = legal_moves(here)
        results: dict[bytes, tuple[Move, str]] = {}
        for move in moves:
            after = apply_unchecked(here, move)
            key = canonical_key(after)
            if key not in results:
                results[key] = (move, verdict(after))
        if not any(status == Verdict.LOST for _, status in results.values()):
            continue
        answer_key = canonical_key(positions[i + 1])
        later = {canonical_key(p) for p in positions[i + 1:]}
        losing, transposing, other, unknown = [], [], [], []
        for key, (move, status) in results.items():
            if key == answer_key:
                continue
            if status == Verdict.LOST:
                losing.append(move)
            elif status == Verdict.UNKNOWN:
                unknown.append(move)
            elif _rejoins(apply_unchecked(here, move), later, TRANSPOSE_DEPTH) \
                    or _slipped_in(here, move, line[i:cut]) or shortest.begins(i, here, move):
                transposing.append(move)
            else:
                other.append(move)
        decides = _rule_decides(here, moves, i, uses, results, misconception)
        decisions.append(DecisionPoint(i, line[i], tuple(losing), tuple(transposing), tuple(other),
                                       tuple(unknown), decides, i in uses))
    return Answer(tuple(line[:cut]), tuple(line[cut:]), tuple(decisions))


def answer_problems(pos: Position, answer: Answer, cards: int) -> list[str]:
    """What keeps a puzzle from being small, short and decided by its rule (criteria 1, 2, 3, 5)."""
    out: list[str] = []
    if cards > MAX_CARDS:
        out.append(f"{cards} cards not home (at most {MAX_CARDS})")
    if len(answer.moves) > MAX_ANSWER:
        out.append(f"the answer is {len(answer.moves)} moves (at most {MAX_ANSWER})")
    if not answer.rule_decides:
        out.append("the misconception does not lose at any decision point of the answer")
    if answer.unknown:
        out.append(f"{answer.unknown} moves at the answer's decision points could not be decided")
    for d in answer.decisions:
        if d.other_wins:
            out.append(f"move {d.index + 1}: {' '.join(map(str, d.other_wins))} also wins "
                       f"(the answer is not the only one)")
    return out
