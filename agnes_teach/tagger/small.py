"""Is a puzzle small, short and decided by its rule? Issue 20's criteria, as code.

A small puzzle is a critical moment cut down to the cards that matter. The
**reductions** are the ways of cutting one down by a step: send the next card a
foundation needs home from its pile (the cards above it close up), start after
the next deal (stock cards go only by deals), or start after the answer's first
move. A position **keeps the lesson** while it is won, the believer cannot win
it, and its answer still needs the rule; a kept position is then **judged**
against every criterion, cheapest first (at most ``MAX_CARDS`` cards and a
``MAX_ANSWER``-move answer, the misconception losing at a decision point of the
answer, only moves, the theme used, a real choice, lost under the belief, random
play, the believer's play, a rating). A puzzle is **minimal** when each of its
reductions breaks a criterion or gives a puzzle with more cards (where cards come back from the
foundations, starting after a move can add one): ``economy`` says which.

The generator (``generator/reduce.py``) searches with these; the checker
(``check --teach``) judges a file with the same functions.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from ..cards import card_name, make_card, rank_at
from ..engine import apply_unchecked, legal_moves, locate
from ..limits import REDUCE_BELIEF_STATES
from ..moves import DEAL_MOVE, Move
from ..piles import PileKind
from ..position import Position
from ..registry import Verdict
from ..solver import canonical_key, solve
from ..themes import Theme
from .answer import MAX_ANSWER, MAX_CARDS, Answer, Verdicts, analyse, answer_cut
from .crux import caught_where, crux_problem
from .detectors import Lesson
from .misconception import Misconception
from .plans import plan_departures
from .players import (
    CONFIRM_MAX,
    CONFIRM_PLAYOUTS,
    GENERATOR_RANDOM_MAX,
    PLAYOUT_SEED,
    PLAYOUTS,
    RANDOM_PLAYOUTS,
    confirmed_random_rate,
    lost_under,
    misconception_policy,
    player_max,
    random_win_rate,
    win_rate,
)
from .teaching import MIN_FIRST_MOVES, cards_not_home, rating_of

SOLVE_NODES = 200_000  # one position's proof
DECISION_SLACK = 6  # keeps_lesson asks for a decision point on the answer from this many cards above the bar
LESSON_LOST = "the lesson is lost"  # a reduction after which the position no longer keeps the lesson
NOT_SMALLER = "no smaller"  # a reduction whose puzzle meets every criterion but has more cards
KEPT_PREFIX = "reduced: "  # how keeps_lesson tallies why a position no longer keeps the lesson

_PILE_KINDS = (PileKind.COLUMN, PileKind.RESERVE, PileKind.EXPOSED)  # the piles a card can be sent home from


@dataclass
class Tally:
    """Why candidates were dropped, counted (for the generator's report and the benchmark)."""

    counts: dict[str, int] = field(default_factory=dict)

    def add(self, reason: str) -> None:
        self.counts[reason] = self.counts.get(reason, 0) + 1


# ------------------------------------------------------------------ reductions


def send_home(pos: Position, suit: int) -> Position | None:
    """`pos` with the next card of `suit`'s foundation moved there from its pile; None when the
    suit is complete or that card is still in the stock (stock cards go by deals)."""
    count = pos.foundations[suit]
    if count == 13:
        return None
    card = make_card(rank_at(pos.base, count), suit)
    place = locate(pos, card)
    if place.kind not in _PILE_KINDS:
        return None
    groups = {kind: list(pos.piles_of(kind)) for kind in _PILE_KINDS}
    groups[place.kind][place.index] = tuple(c for c in groups[place.kind][place.index] if c != card)
    homes = list(pos.foundations)
    homes[suit] += 1
    return replace(pos, foundations=(homes[0], homes[1], homes[2], homes[3]),
                   tableau=tuple(groups[PileKind.COLUMN]), reserve=tuple(groups[PileKind.RESERVE]),
                   exposed=tuple(groups[PileKind.EXPOSED]))


def reductions(pos: Position, line: list[Move]) -> Iterator[tuple[str, Position]]:
    """Every one-step simplification of `pos` (won by `line`): (what was done, the result)."""
    for suit in range(4):
        smaller = send_home(pos, suit)
        if smaller is not None:
            top = smaller.foundation_top(suit)
            assert top is not None
            yield f"send {card_name(top)} home", smaller
    if pos.stock and DEAL_MOVE in legal_moves(pos):
        yield "deal before the start", apply_unchecked(pos, DEAL_MOVE)
    if line:
        yield f"start after {line[0]}", apply_unchecked(pos, line[0])


# ------------------------------------------------------------- the lesson kept


@dataclass(frozen=True)
class Kept:
    """A position that still holds the lesson: won by `line`, whose first `cut` moves are the answer."""

    position: Position
    line: tuple[Move, ...]
    cut: int
    cards: int
    steps: tuple[str, ...]  # the reductions from the critical moment

    @property
    def small(self) -> bool:
        return self.cards <= MAX_CARDS and self.cut <= MAX_ANSWER

    def priority(self) -> tuple[int, int]:
        """Best first: the fewest cards and answer moves."""
        return (self.cards + 2 * self.cut, self.cards)


def lesson_moves(pos: Position, line: tuple[Move, ...], cut: int, misconception: Misconception,
                 verdict: Verdicts) -> list[int]:
    """Where the answer needs the rule: its move is one the belief forbids, or the move the belief
    forces (the deal) is on offer there and loses, or a move a *widen* believer's plan makes loses
    there. (Whether that is a decision point, and the
    believer cannot win from there, is the judge's question: the search may pass through positions
    where the rule is needed before it decides.)"""
    if misconception.kind == "add":  # where the answer first parts from the believer's plans
        # With the cutting-down's budget: most of a search that passes it was spent for nothing
        # (an undecided plan is no departure), and a smaller position is asked next.
        return plan_departures(pos, line[:cut], misconception, first_only=True,
                               max_states=REDUCE_BELIEF_STATES)
    out = []
    here = pos
    for i, move in enumerate(line[:cut]):
        moves = legal_moves(here)
        if misconception.kind == "widen":
            # An *widen* belief: a move of the believer's plan loses here.
            plan = misconception.plan(here, moves) or []
            if any(verdict(apply_unchecked(here, m)) == Verdict.LOST for m in plan):
                out.append(i)
            here = apply_unchecked(here, move)
            continue
        allowed = misconception.allowed(here, moves)
        if len(allowed) < len(moves) and move not in allowed and (
                misconception.kind == "forbid"
                or any(verdict(apply_unchecked(here, m)) == Verdict.LOST for m in allowed)):
            out.append(i)
        here = apply_unchecked(here, move)
    return out


def keeps_lesson(pos: Position, theme: Theme, steps: tuple[str, ...], verdict: Verdicts,
                 tally: Tally, strict: bool = False) -> Kept | None:
    """`pos` as a kept position when it is won, its answer needs the rule, it is not won under the
    misconception, and the answer meets a decision point (a legal move loses) no later than its last
    use of the rule; `strict`: the rule's first use is itself made at a decision point (a narrower
    search that, where it holds, finds small puzzles sooner). None (reason tallied)."""
    misconception = theme.believer
    result = solve(pos, nodes=SOLVE_NODES)
    if result.status != Verdict.WON:
        tally.add(KEPT_PREFIX + ("no longer won" if result.status == Verdict.LOST else "undecided"))
        return None
    line = tuple(result.solution)
    cut = answer_cut(pos, line, misconception)
    needed = lesson_moves(pos, line, cut, misconception, verdict)
    if not needed:  # asked first: far cheaper than the believer's search
        tally.add(KEPT_PREFIX + "the rule is not needed in the answer")
        return None
    # The narrow search's tests come first: they ask the solver about one position's moves, while
    # the believer's search below is most of a cut-down's time (for the King-only space, half a
    # run's), and most positions the narrow search drops would pass it. Every test is still asked of
    # a position that is kept; only the reason tallied for a dropped one may differ.
    if strict and not _at_decision(pos, line, needed[:1], verdict, only_last=True):
        tally.add(KEPT_PREFIX + "the rule's first use is not at a decision point")
        return None
    if strict and theme.caught_at_first_use and misconception.kind == "forbid" \
            and not _caught_at(pos, line, needed[0], misconception, verdict):
        tally.add(KEPT_PREFIX + "the believer is not caught at the rule's first use")
        return None
    # The believer's own search (no restricted tables to hand to the solver) is asked near the size
    # bar only: on a big position it seldom settles within its bound, and the judge decides it exactly.
    # An *widen* belief needs no search: the answer's moves are moves of its plan (a real win is a
    # win of its game), so a plan move that loses on the answer's line (``lesson_moves``) is a
    # line on which the believer loses.
    near = misconception.kind != "widen" and (misconception.restriction is not None
                                            or cards_not_home(pos) <= MAX_CARDS + DECISION_SLACK)
    if near and lost_under(pos, misconception, max_states=REDUCE_BELIEF_STATES) is False:
        tally.add(KEPT_PREFIX + "won under the misconception")
        return None
    # Near the size bar only: on a big position the walk along a long answer costs hundreds of proofs,
    # and the judge asks it of every small position anyway.
    if cards_not_home(pos) <= MAX_CARDS + DECISION_SLACK and not _at_decision(pos, line, needed, verdict):
        tally.add(KEPT_PREFIX + "no decision point before the rule is used")
        return None
    return Kept(pos, line, cut, cards_not_home(pos), steps)


def _caught_at(pos: Position, line: tuple[Move, ...], index: int, misconception: Misconception,
               verdict: Verdicts) -> bool:
    """Is the believer caught where the answer makes its move `index` (``crux.caught``, asked before
    the answer is analysed, so with the solver's verdicts)?"""
    here = pos
    for move in line[:index]:
        here = apply_unchecked(here, move)
    return caught_where(here, line[index], misconception,
                        lambda m: verdict(apply_unchecked(here, m)) == Verdict.LOST)


def _at_decision(pos: Position, line: tuple[Move, ...], needed: list[int], verdict: Verdicts,
                 only_last: bool = False) -> bool:
    """Is some position of the answer up to its last move that needs the rule (`needed`, indexes) a
    decision point (a legal move loses there)? `only_last`: that position itself."""
    here = pos
    last = needed[-1]
    for i, move in enumerate(line[:last + 1]):
        if (not only_last or i == last) and \
                any(verdict(apply_unchecked(here, m)) == Verdict.LOST for m in legal_moves(here)):
            return True
        here = apply_unchecked(here, move)
    return False


# ------------------------------------------------------------------ judging


@dataclass
class Judged:
    """A kept position held to every criterion: the puzzle, or why not."""

    kept: Kept
    problem: str | None
    answer: Answer | None = None
    random: float | None = None
    believer: float | None = None


def shape_problem(kept: Kept, theme: Theme, verdict: Verdicts) -> tuple[str | None, Answer | None]:
    """The criteria read off the position and its answer (no playouts): small, short, the rule
    deciding at a decision point, only moves, the rule used, a real choice. (problem, answer)."""
    if not kept.small:
        return (f"{kept.cards} cards and a {kept.cut}-move answer (at most {MAX_CARDS} and {MAX_ANSWER})",
                None)
    pos = kept.position
    answer = analyse(pos, kept.line, theme.believer, verdict)
    if not answer.rule_decides:
        return "the misconception does not lose at a decision point of the answer", answer
    crux = crux_problem(pos, answer, theme.believer)
    if crux is not None:
        return f"the rule is not the crux: {crux}", answer
    if answer.unknown:
        return "a move at a decision point is undecided", answer
    if not answer.only_moves:
        d = next(d for d in answer.decisions if d.other_wins)
        return f"move {d.index + 1} is not the only one ({d.other_wins[0]} also wins)", answer
    first = answer.decisions[0] if answer.decisions and answer.decisions[0].index == 0 else None
    losing = first.losing if first is not None else ()
    # The whole line: a card the answer frees may go home by itself after it (issue 28's answer).
    if not theme.detect(Lesson(pos, kept.line, losing, within=len(kept.line))):
        return "the answer does not use the rule", answer
    if len({canonical_key(apply_unchecked(pos, m)) for m in legal_moves(pos)}) < MIN_FIRST_MOVES:
        return f"fewer than {MIN_FIRST_MOVES} first moves", answer
    return None, answer


def judge(kept: Kept, theme: Theme, verdict: Verdicts, believer: bool = True) -> Judged:
    """Every criterion of a small puzzle, cheapest first; the first one that fails is the problem.

    `believer` False leaves out the misconception player's games (the costliest measure, and one
    that cannot fail once ``lost_under`` has proved the believer's loss): a search judges many
    positions and plays them for the one it keeps."""
    misconception = theme.believer
    problem, answer = shape_problem(kept, theme, verdict)
    if problem is not None or answer is None:
        return Judged(kept, problem, answer)
    pos = kept.position
    # An *widen* belief loses where the rule decides (a plan move loses on the answer's line, which
    # its plan follows): asked of the answer above, so its costly search is left to the checker.
    if misconception.kind != "widen" and lost_under(pos, misconception) is not True:
        return Judged(kept, "not proved lost under the misconception", answer)
    rate = random_win_rate(pos, screen=GENERATOR_RANDOM_MAX)
    if rate is None:
        return Judged(kept, f"random play wins more than {GENERATOR_RANDOM_MAX:.0%}", answer)
    if not confirmed_random_rate(pos, rate):
        return Judged(kept, f"random play wins more than {CONFIRM_MAX:.0%} of "
                            f"{CONFIRM_PLAYOUTS + RANDOM_PLAYOUTS} games", answer)
    if rating_of(rate, len(answer.decisions)) is None:
        return Judged(kept, "too few decision points for its random-play rate", answer, rate)
    if not believer:
        return Judged(kept, None, answer, rate)
    return believer_judged(Judged(kept, None, answer, rate), theme.believer)


def believer_judged(judged: Judged, misconception: Misconception) -> Judged:
    """`judged` with the misconception player's games played: a problem if it wins any."""
    rate = win_rate(judged.kept.position, misconception_policy(misconception), PLAYOUTS, PLAYOUT_SEED)
    most = player_max(misconception)
    problem = f"the misconception player wins {rate:.0%}" if rate > most else judged.problem
    return Judged(judged.kept, problem, judged.answer, judged.random, rate)


def economy(kept: Kept, theme: Theme, verdict: Verdicts, tally: Tally | None = None,
            judged: dict[bytes, Judged] | None = None) -> tuple[dict[str, str], list[Judged]]:
    """(each reduction of `kept` -> the criterion it breaks, the reductions that break none and
    leave no more cards than `kept` has)."""
    tally = tally or Tally()
    judged = judged if judged is not None else {}
    broken: dict[str, str] = {}
    passing: list[Judged] = []
    for what, child in reductions(kept.position, list(kept.line)):
        key = canonical_key(child)
        if key not in judged:
            probe = Tally()
            smaller = keeps_lesson(child, theme, (*kept.steps, what), verdict, probe)
            for reason, n in probe.counts.items():
                tally.counts[reason] = tally.counts.get(reason, 0) + n
            if smaller is None:
                broken[what] = next(iter(probe.counts), LESSON_LOST).removeprefix(KEPT_PREFIX)
                continue
            judged[key] = judge(smaller, theme, verdict, believer=False)
        result = judged[key]
        if result.problem is not None:
            broken[what] = result.problem
        elif result.kept.cards > kept.cards:
            # Where cards come back from the foundations, starting after a move can put a card
            # back in play: a puzzle with more cards, which neither voids minimality nor is a step
            # down (the descent went round between the two). A longer answer alone is no such
            # sign: the solver's line for the cut is not the shortest, the cut may still be smaller.
            broken[what] = f"{NOT_SMALLER} ({result.kept.cards} cards against {kept.cards})"
        else:
            passing.append(result)
    return broken, passing


def kept_of(pos: Position, line: list[Move], misconception: Misconception | None) -> Kept:
    """A file's position and line as a kept position (for the checker: no search, no proof here);
    `misconception`: its theme's believer, if it has a theme."""
    cut = answer_cut(pos, line, misconception)
    return Kept(pos, tuple(line), cut, cards_not_home(pos), ())


def small_problems(pos: Position, line: list[Move], theme: Theme) -> list[str]:
    """What keeps a file's puzzle from meeting issue 20's criteria (small, a short answer, the rule
    deciding in it, only moves, economy); the play criteria are ``teaching.teaching_problems``'."""
    verdict = Verdicts()
    kept = kept_of(pos, line, theme.believer)
    problem, _ = shape_problem(kept, theme, verdict)
    if problem is not None:
        return [problem]
    _, passing = economy(kept, theme, verdict)
    return [f"not minimal: after '{j.kept.steps[-1]}' it still meets every criterion" for j in passing]
