"""Why a wrong move loses, read off the positions after it (criterion 6 of "Puzzles that teach").

The solver proves that a move loses; a pupil needs a reason (``why_loses``),
the most telling first:

1. a **deadlock** the position after the move shows: a card that can never
   again go onto the tableau (every card it could lie on is home, and it
   cannot enter an empty column) lies above a card of its own suit that its
   foundation needs first. It can move only home, and home waits for the card
   under it, so no line wins. Sound (each such pair alone proves the loss), not
   complete.
2. on a **small position** (at most ``REACH_CARDS`` cards not home), every
   continuation at once (``reach``): the first card of a suit that no line
   brings home, and the cards lying on it whenever its foundation waits for it.
   The key then names what the move did to that card (dealt or laid a card on
   it, filled the last empty column) or just the card and what covers it; when
   every suit can be completed, only never all together, two cards that never
   get home together. Exact: the walk sees every state.
3. on a position too big to walk, what the move changes for good
   (``observe``): a card that loses its last landing in the columns while it
   still covers another, the card its foundation needs next buried under the
   moved card (or a dealt one), the last empty column filled, or any card
   buried: a fact beside the solver's proof.

``explain_wrong_move`` is the one explanation of a wrong move, for the key
and the practice page alike: a move the rules refuse by its rule
(``engine.refusal``); a losing move the theme's misconception makes first in
the theme's rule's terms (what the rule allows or forbids there, from the
theme's module in ``agnes_teach/themes``), then by its reason above.
``refute`` lists every losing alternative of an answer's decision points so
explained, each move once, the tempting ones first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import IntEnum
from functools import lru_cache

from ..cards import Card, make_card, rank_at, rank_index, rank_of, suit_of
from ..engine import apply_unchecked, legal_moves, refusal, resolve
from ..graph import autoplay, autoplay_after
from ..keys import state_key
from ..moves import AmbiguousMoveError, Move, MoveText
from ..piles import Pile
from ..position import Position
from ..predicates import IllegalMoveError
from ..registry import Task
from ..scenario import Scenario
from ..solver import canonical_key
from ..solver.fast import FastState
from ..solver.search import stuck_cards
from ..themes import Lesson, RuleFacts, Theme, find_theme
from .answer import MAX_CARDS, Answer, analyse
from .misconception import Misconception
from .plans import plans_for
from .reasons import Observation, Reason, ReasonKind, cost_rule
from .wording import explanation_text


@dataclass(frozen=True)
class Deadlock:
    """`upper` lies above `lower` in pile `pile`; `upper` can only go home, after `lower`."""

    upper: Card
    lower: Card
    pile: str  # t3, r5, x1


def deadlock(pos: Position) -> Deadlock | None:
    """A deadlock the position shows (the first in pile order), or None."""
    if pos.profile.foundation_return:  # a foundation card may come back: nothing is stuck for good
        return None
    state = FastState(pos)
    stuck = stuck_cards(state)
    rel = state.rules.rel
    for kind, group in (("t", pos.tableau), ("r", pos.reserve), ("x", pos.exposed)):
        for index, pile in enumerate(group):
            for high in range(len(pile) - 1, 0, -1):
                upper = pile[high]
                if not stuck[upper]:
                    continue
                for low in range(high):
                    lower = pile[low]
                    if suit_of(lower) == suit_of(upper) and rel[lower] < rel[upper]:
                        return Deadlock(upper, lower, f"{kind}{index + 1}")
    return None


def _piles(pos: Position) -> list[tuple[str, tuple[Card, ...]]]:
    return [(f"{kind}{i + 1}", tuple(pile)) for kind, group in (("t", pos.tableau), ("r", pos.reserve),
                                                               ("x", pos.exposed))
            for i, pile in enumerate(group)]


def observe(pos: Position, move: Move) -> Observation | None:
    """The most telling thing the tempting `move` changes for good (None: nothing this finds)."""
    after = apply_unchecked(pos, move)
    before_state, after_state = FastState(pos), FastState(after)
    was_stuck, now_stuck = stuck_cards(before_state), stuck_cards(after_state)
    rel, suit_index = after_state.rules.rel, after_state.rules.suit

    def distance(card: Card) -> int:  # how many cards of its suit must go home before it
        return rel[card] - after.foundations[suit_index[card]]

    landing: list[tuple[int, Observation]] = []
    for name, pile in _piles(after):
        for high in range(1, len(pile)):
            card = pile[high]
            if now_stuck[card] and not was_stuck[card]:
                under = min(pile[:high], key=distance)
                landing.append((distance(under), Observation("no-landing", card, under=under, pile=name)))
    if landing:
        return min(landing, key=lambda x: x[0])[1]
    tops = {name: pile[-1] for name, pile in _piles(pos) if pile}
    buried: list[tuple[int, Observation]] = []
    for name, pile in _piles(after):
        top = tops.get(name)
        if top is not None and top in pile and pile[-1] != top:
            cover = pile[pile.index(top) + 1]
            buried.append((distance(top), Observation("buried", top, cover=cover, pile=name,
                                                      next=distance(top) == 0)))
    best = min(buried, key=lambda x: x[0]) if buried else None
    if best is not None and best[1].next:
        return best[1]
    if any(not col for col in pos.tableau) and all(col for col in after.tableau):
        return Observation("last-empty")
    if best is not None:
        return best[1]
    guest = last_guest(after, move)
    return Observation("last-host", move.card, under=guest) if guest is not None else None


def last_guest(after: Position, move: Move) -> Card | None:
    """For a move home: a card still in play that the moved card was the last place for (every
    other card it could be laid on is home), the nearest to home first; None otherwise."""
    if move.card is None or not move.dest.is_foundation:
        return None
    rules = FastState(after).rules
    deck = [Card(c) for c in range(52)]
    home = [after.is_home(c) for c in deck]
    guests = [c for c in deck if not home[c] and move.card in rules.hosts[c]
              and all(home[h] for h in rules.hosts[c])]
    rel = rules.rel
    return min(guests, key=lambda c: rel[c] - after.foundations[suit_of(c)]) if guests else None


def reason(pos: Position, move: Move) -> Deadlock | None:
    """The deadlock the position shows right after the tempting `move` (None: none shows)."""
    return deadlock(apply_unchecked(pos, move))


# ---------------------------------------------------------------- every continuation (small positions)

SUIT_SIZE = 13
# Positions with at most this many cards not home are explored whole: issue 20's puzzles (at most
# MAX_CARDS) always, and the old library's endgames of up to about 30 cards within the budget (with
# safe moves home played at once, such a walk takes about a second).
REACH_CARDS = MAX_CARDS + 8
EXACT_STATES = 5_000  # the walk that plays every legal move stops here and tries the shorter walk
REACH_STATES = 50_000  # the budget of the walk with safe moves home played (states: machine-independent)


@dataclass(frozen=True)
class Reach:
    """What the continuations of a position can bring home, read off every reachable state.

    ``blocked``: per suit no continuation completes, the first card of it that never gets home,
    with the cards that lie on it in every reachable state where its foundation waits for it
    (nearest first; empty when no one card does). ``homes``: the foundation counts of every
    reachable state (to find two cards that never get home together)."""

    blocked: tuple[tuple[Card, tuple[Card, ...]], ...]
    homes: frozenset[tuple[int, ...]]


def _cards_on(pos: Position, card: Card) -> tuple[Card, ...] | None:
    """The cards lying on `card` in its pile, nearest first; None while it is in the stock."""
    for _, pile in _piles(pos):
        if card in pile:
            return pile[pile.index(card) + 1:]
    return None


def _next_card(pos: Position, suit: int) -> Card:
    return make_card(rank_at(pos.base, pos.foundations[suit]), suit)


def reach(pos: Position) -> Reach | None:
    """Every continuation of `pos` at once (None: too many states for the budgets).

    The walk plays every legal move; when that is more than ``EXACT_STATES`` states it tries
    again with safe moves home played at once (``graph.autoplay``), up to ``REACH_STATES``: a
    safe card home takes no place any card still needs, so what can get home is the same."""
    return _walk(pos, EXACT_STATES, False) or _walk(pos, REACH_STATES, True)


def _walk(pos: Position, max_states: int, safe: bool) -> Reach | None:
    start = autoplay(pos)[0] if safe else pos
    seen = {state_key(start)}
    stack = [start]
    homes: set[tuple[int, ...]] = set()
    # (suit, cards home): the cards on the suit's next card in every state seen with that count.
    covering: dict[tuple[int, int], tuple[Card, ...]] = {}
    while stack:
        here = stack.pop()
        homes.add(here.foundations)
        for suit, count in enumerate(here.foundations):
            if count < SUIT_SIZE:
                on = _cards_on(here, _next_card(here, suit)) or ()
                key = (suit, count)
                covering[key] = tuple(c for c in covering[key] if c in on) if key in covering else on
        for move in legal_moves(here):
            after = apply_unchecked(here, move)
            if safe:
                after = autoplay_after(here, move, after)[0]  # `here` is settled too
            key_after = state_key(after)
            if key_after not in seen:
                if len(seen) >= max_states:
                    return None
                seen.add(key_after)
                stack.append(after)
    best = [max(h[suit] for h in homes) for suit in range(4)]
    blocked = tuple((make_card(rank_at(pos.base, best[suit]), suit), covering[(suit, best[suit])])
                    for suit in range(4) if best[suit] < SUIT_SIZE)
    return Reach(blocked, frozenset(homes))


# ---------------------------------------------------------------- a reason for every losing move


def _last_landing(pos: Position, move: Move, after: Position, card: Card) -> Card | None:
    """The moved card, when the move took the last place in the columns `card` could lie on (it
    went home): `card` could go onto the tableau before the move, and only home after it."""
    if move.card is None or not move.dest.is_foundation:
        return None
    newly = not stuck_cards(FastState(pos))[card] and stuck_cards(FastState(after))[card]
    return move.card if newly else None


@lru_cache(maxsize=4096)
def why_loses(pos: Position, move: Move) -> Reason:
    """The reason a legal `move` the solver proved losing loses, the most telling first: a
    deadlock the position shows; on a small position, the card that then never gets home
    in any continuation (found by walking them all); else what the move changes for good."""
    after = apply_unchecked(pos, move)
    block = deadlock(after)
    if block is not None:
        return Reason(ReasonKind.DEADLOCK, card=block.lower, cover=block.upper, pile=block.pile,
                      landing=_last_landing(pos, move, after, block.upper))
    if not pos.profile.foundation_return and _not_home(after) <= REACH_CARDS:
        found = reach(after)
        if found is not None:
            why = _reason_from_reach(pos, move, after, found)
            if why is not None:
                return why
    seen = observe(pos, move)
    if seen is not None:
        return Reason(ReasonKind.OBSERVED, observation=seen)
    return Reason(ReasonKind.UNEXPLAINED)


def _not_home(pos: Position) -> int:
    return 52 - sum(pos.foundations)


def _reason_from_reach(pos: Position, move: Move, after: Position, found: Reach) -> Reason | None:
    """The reason a walk of every continuation gives: the move buries (or deals onto) a card that
    then never gets home; or it fills the last empty column; or some card never gets home."""
    if not found.blocked:
        pair = never_together(after, found.homes)
        return Reason(ReasonKind.NOT_BOTH, card=pair[0], other=pair[1]) if pair is not None else None
    covers = dict(found.blocked)

    def distance(card: Card) -> int:
        return rank_index(after.base, rank_of(card)) - after.foundations[suit_of(card)]

    before = dict(_piles(pos))
    grown = [(name, pile) for name, pile in _piles(after)
             if len(pile) > len(before[name]) and pile[:len(before[name])] == before[name]]
    for name, pile in grown:
        under = [c for c in before[name] if c in covers]
        if under:
            card = min(under, key=distance)
            kind = ReasonKind.DEAL_COVERS if move.is_deal else ReasonKind.BURIED
            return Reason(kind, card=card, cover=pile[len(before[name])], pile=name)
    card = min(covers, key=lambda c: (not covers[c], distance(c), suit_of(c)))
    cover = covers[card][0] if covers[card] else None
    if any(not col for col in pos.tableau) and all(after.tableau):
        return Reason(ReasonKind.LAST_EMPTY, card=card, cover=cover)
    guest = last_guest(after, move)  # what a move home took away, beside what it leads to
    return Reason(ReasonKind.NEVER_HOME, card=card, cover=cover, other=guest,
                  landing=move.card if guest is not None else None)


def never_together(after: Position, homes: frozenset[tuple[int, ...]]) -> tuple[Card, Card] | None:
    """Two cards no reachable state has home together, given the foundation counts of every
    reachable state (``Reach.homes``): the pair needing the fewest cards home first. Whenever the
    first is home, the second is not; since foundations are final, then it never gets there."""
    best: tuple[int, Card, Card] | None = None
    for first in range(4):
        for second in range(4):
            if first == second:
                continue
            for count in range(after.foundations[first], SUIT_SIZE):
                with_first = [h[second] for h in homes if h[first] > count]
                if not with_first:
                    break
                most = max(with_first)
                if most < SUIT_SIZE:
                    cost = count - after.foundations[first] + most - after.foundations[second]
                    if best is None or cost < best[0]:
                        best = (cost, make_card(rank_at(after.base, count), first),
                                make_card(rank_at(after.base, most), second))
                    break
    return (best[1], best[2]) if best is not None else None


# ---------------------------------------------------------------- one wrong move, explained


@dataclass(frozen=True)
class Explanation:
    """Why one wrong move fails: the rule in whose terms it is explained (`facts`: what the theme's
    rule allows or forbids here, when the move is the theme's misconception at work), and what the
    move costs (`reason`; for a refused move, the rule that refuses it)."""

    reason: Reason
    facts: RuleFacts | None = None
    later: int | None = None  # the answer makes this very move later, at this move (0-based)

    @property
    def rule(self) -> str | None:
        """The rule the explanation cites: the one that refuses the move, or the one the theme's
        misconception denies; None when only the cost speaks."""
        if self.reason.refusal is not None:
            return self.reason.refusal.rule
        return self.facts.rule_id if self.facts is not None else cost_rule(self.reason)

    def text(self, lang: str) -> str:
        """The explanation in `lang`: the rule's side first, then what the move costs."""
        return explanation_text(self.facts, self.reason, lang, self.later)

    def piles(self) -> tuple[str, ...]:
        """The piles the explanation names, each once, in the order its words name them (the
        rule's side first): the practice page names them on the learner's board."""
        named: list[str] = [value for _name, value in self.facts.words if isinstance(value, Pile)] \
            if self.facts else []
        seen = self.reason.observation
        named += [self.reason.pile, seen.pile if seen is not None else ""]
        return tuple(dict.fromkeys(pile for pile in named if pile))

    def with_piles(self, rename: Mapping[str, str]) -> Explanation:
        """The same explanation with each pile it names renamed by `rename` (others kept): the
        practice page's stored states may hold the piles in another order than the key's."""
        def new(pile: str) -> str:
            return rename.get(pile, pile) if pile else pile

        reason, facts = self.reason, self.facts
        seen = reason.observation
        if seen is not None:
            seen = replace(seen, pile=new(seen.pile))
        reason = replace(reason, pile=new(reason.pile), observation=seen)
        if facts is not None:
            facts = replace(facts, words=tuple((name, new(value) if isinstance(value, Pile) else value)
                                               for name, value in facts.words))
        return replace(self, reason=reason, facts=facts)


def believer_plays(pos: Position, move: Move, misconception: Misconception) -> bool:
    """Is `move` one the theme's believer makes here? A *forbid* belief: the belief allows it (the
    caller says where the rule decides); a *force* belief: the belief forces this very move; a
    belief that *adds* moves: a first move of its plans, or one after which its plans need a
    move the rule refuses."""
    if misconception.kind == "add":
        # The believer's own plan move, or a move after which every plan it sees needs a refused
        # move: either way the rule is what the move's loss comes down to.
        plans = plans_for(misconception, pos)
        first = plans.first_moves(pos)
        return (first is not None and move in first.legal) or plans.refused_ahead(pos, move) is not None
    moves = legal_moves(pos)
    allowed = misconception.allowed(pos, moves)
    if misconception.kind == "force":
        return move in allowed and len(allowed) < len(moves)
    return move in allowed


def lesson_of(pos: Position, misconception: Misconception, line: Sequence[Move] = (),
              wrong: Move | None = None) -> Lesson | None:
    """The move that uses the rule the belief denies: the first of `line` (the answer from `pos`)
    that the belief forbids, with the position it is played from; without a line, a legal move
    here that the belief forbids. For a belief that adds moves, the move the rule refuses where
    the believer's plan after the `wrong` move needs it (``plans.Plans.refused_ahead``). None for a
    *force* belief, or when there is none."""
    if misconception.kind == "add":
        ahead = plans_for(misconception, pos).refused_ahead(pos, wrong) if wrong is not None else None
        return Lesson(*ahead) if ahead is not None else None
    if misconception.kind != "forbid":
        return None
    here = pos
    for move in line:
        if not misconception.allowed(here, [move]):
            return Lesson(here, move)
        here = apply_unchecked(here, move)
    if line:
        return None
    forbidden = [m for m in legal_moves(pos) if not misconception.allowed(pos, [m])]
    return Lesson(pos, forbidden[0]) if forbidden else None


def explain_wrong_move(pos: Position, move: Move, sc: Scenario | None = None,
                       line: Sequence[Move] = ()) -> Explanation:
    """Why `move` fails at `pos`: the one function the answer key and the practice page call.

    A move the rules refuse is explained by the rule that refuses it. A legal one (the caller
    knows it loses: the solver proved it) is explained by what it costs (``why_loses``) and, when
    it is what the puzzle's theme's misconception plays here, first by what the theme's rule
    allows or forbids here (the theme's ``explain``): the rule's move taken from `line`, the answer
    from `pos` when the caller knows it, else a legal move here that the belief forbids."""
    refused = refusal(pos, move)
    if refused is not None:
        return Explanation(Reason(ReasonKind.REFUSED, refusal=refused))
    return _explained(pos, move, scenario_theme(sc) if sc is not None else None, line)


def explain_losing_move(pos: Position, move: Move, theme: Theme | None,
                        line: Sequence[Move] = ()) -> Explanation:
    """Why a legal `move` the caller knows loses fails at `pos`, as :func:`explain_wrong_move` says
    it, for a caller that holds the puzzle's theme rather than the puzzle (the practice page's
    workers, about the moves off the key's line)."""
    return _explained(pos, move, theme, line)


def scenario_theme(sc: Scenario) -> Theme | None:
    """The theme of a puzzle's first listed rule for its profile (None: no theme teaches it)."""
    return find_theme(sc.themes[0], sc.position.profile.id) if sc.themes else None


def _explained(pos: Position, move: Move, theme: Theme | None,
               line: Sequence[Move], named: bool = False) -> Explanation:
    """`named`: the file names the move as its theme's trap, so the theme's rule speaks for it
    even where the belief would not make it."""
    facts = None
    if theme is not None and (named or believer_plays(pos, move, theme.believer)):
        facts = theme.explain(pos, move, lesson_of(pos, theme.believer, line, move))
    return Explanation(why_loses(pos, move), facts)


# ---------------------------------------------------------------- the answer's losing moves, explained


class Temptation(IntEnum):
    """Which wrong moves the key explains first."""

    NAMED = 0  # the file names it: expect.illegal, expect.trap_move, the distractor
    BELIEF = 1  # the theme's misconception plays it where the rule decides
    OTHER = 2


@dataclass(frozen=True)
class Refuted:
    """Wrong moves that fail for one reason, and where they are on offer: before the answer's
    moves `indices` (0: the puzzle's start)."""

    indices: tuple[int, ...]
    moves: tuple[Move, ...]
    explanation: Explanation
    temptation: Temptation

    @property
    def reason(self) -> Reason:
        """What the moves cost (or the rule that refuses them)."""
        return self.explanation.reason


def refute(pos: Position, answer: Answer | None, named: Sequence[Move] = (),
           theme: Theme | None = None, line: Sequence[Move] = ()) -> list[Refuted]:
    """Every losing alternative of the answer's decision points explained (``explain_wrong_move``),
    each move listed once, the tempting ones first (`named` moves, then the believer's), then by
    move number. A move the answer itself plays later is not a wrong move, and is left out.

    `named`: the file's tempting moves at the start; a refused one is explained by its rule.
    Without an `answer` (a position too big to analyse), the legal named moves are taken as
    the file claims: losing (the checker proves it); `line` is then the winning line, where the
    rule's move is looked for."""
    found: list[tuple[int, Move, Explanation, Temptation]] = []
    legal_named: dict[bytes, Move] = {}
    for move in named:
        refused = refusal(pos, move)
        if refused is not None:
            # A move refused now may be one the answer makes once the rules allow it: say when.
            later = _played_later(answer.moves, 0, move) if answer is not None else None
            refused_why = Explanation(Reason(ReasonKind.REFUSED, refusal=refused), later=later)
            found.append((0, move, refused_why, Temptation.NAMED))
        else:
            legal_named.setdefault(canonical_key(apply_unchecked(pos, move)), move)
    if answer is None:
        # Too big to find where the rule decides: the rule is cited only when the line's first
        # move is the rule's (a key move) or the belief forces the named move.
        found += [(0, move, _explained(pos, move, theme, line[:1], named=True), Temptation.NAMED)
                  for move in legal_named.values()]
        return _grouped(found)
    positions = [pos]
    for move in answer.moves:
        positions.append(apply_unchecked(positions[-1], move))
    for point in answer.decisions:
        here = positions[point.index]
        believer = theme.believer if theme is not None and point.rule_decides else None
        for move in point.losing:
            plays = believer is not None and believer_plays(here, move, believer)
            temptation = Temptation.BELIEF if plays else Temptation.OTHER
            if point.index == 0:
                twin = legal_named.get(canonical_key(apply_unchecked(here, move)))
                if twin is not None:  # the file's own spelling of the move (a symmetric twin)
                    move, temptation = twin, Temptation.NAMED
            later = _played_later(answer.moves, point.index, move)
            # The answer's own later move is no wrong move, save the one the file names as the trap
            # or a belief forces (the early deal): its lesson is "not yet", so the key says when.
            forced = plays and believer is not None and believer.kind == "force"
            if later is not None and not forced and temptation is not Temptation.NAMED:
                continue
            is_named = temptation is Temptation.NAMED
            cited = theme if plays or is_named else None
            explained = _explained(here, move, cited, answer.moves[point.index:], named=is_named)
            found.append((point.index, move, replace(explained, later=later), temptation))
    return _grouped(found)


def _played_later(moves: Sequence[Move], index: int, move: Move) -> int | None:
    """Where the answer makes `move` after its move `index` (0-based), or None."""
    return next((j for j in range(index + 1, len(moves)) if moves[j] == move), None)


def _grouped(found: list[tuple[int, Move, Explanation, Temptation]]) -> list[Refuted]:
    """Each move once, at the first point it is on offer (and at the later points where it fails
    the same way); then one entry per explanation and set of move numbers, so moves failing the
    same way at the same points share a line."""
    by_move: dict[Move, tuple[Explanation, list[int], Temptation]] = {}
    for index, move, explanation, temptation in found:
        have = by_move.get(move)
        if have is None:
            by_move[move] = (explanation, [index], temptation)
        elif have[0] == explanation:
            by_move[move] = (explanation, [*have[1], index], min(have[2], temptation))
    out: list[Refuted] = []
    for move, (explanation, indices, temptation) in by_move.items():
        at = tuple(sorted(set(indices)))
        for i, entry in enumerate(out):
            if entry.explanation == explanation and entry.indices == at:
                out[i] = replace(entry, moves=(*entry.moves, move),
                                 temptation=min(entry.temptation, temptation))
                break
        else:
            out.append(Refuted(at, (move,), explanation, temptation))
    return sorted(out, key=lambda r: (r.temptation, r.indices[0]))


def _resolved(pos: Position, text: MoveText | None) -> Move | None:
    """The move the text names here, or None (no text, an empty pile, an ambiguous name)."""
    if text is None:
        return None
    try:
        return resolve(pos, text)
    except (AmbiguousMoveError, IllegalMoveError):
        return None


def named_moves(sc: Scenario) -> list[Move]:
    """The tempting moves a file names at its start: ``expect.illegal``, ``expect.trap_move`` and
    the distractor (text that names no move here is passed over)."""
    distractor = sc.distractor.move if sc.distractor is not None else None
    texts = [*(sc.expect.get("illegal") or {}), sc.expect.get("trap_move"), distractor]
    found = (_resolved(sc.position, text) for text in texts)
    return list(dict.fromkeys(m for m in found if m is not None))


def _claimed_losing(sc: Scenario, named: list[Move]) -> list[Move]:
    """The named moves the file claims lose and the checker proves: refused ones, the trap move,
    a key-move puzzle's distractor (the key move is proved the only winning one)."""
    claimed = {_resolved(sc.position, sc.expect.get("trap_move"))}
    if sc.task == Task.KEY_MOVE and sc.distractor is not None:
        claimed.add(_resolved(sc.position, sc.distractor.move))
    return [m for m in named if m in claimed or refusal(sc.position, m) is not None]


def key_analysis(sc: Scenario, line: Sequence[Move]) -> Answer | None:
    """The answer whose decision points a puzzle's key explains: a small puzzle's (at most
    ``MAX_CARDS`` cards not home) along `line`, only the first for a task that asks for the first
    move; None for a bigger one, a legal-moves task, or a first move home (no decision point)."""
    pos = sc.position
    if _not_home(pos) > MAX_CARDS or not line or sc.task == Task.LEGAL_MOVES:
        return None
    found = _analysed(pos, tuple(line), sc.themes[0] if sc.themes else None)
    if sc.task != Task.WIN:
        found = replace(found, decisions=tuple(d for d in found.decisions if d.index == 0))
        if not found.decisions:
            return None
    return found


def explain_scenario(sc: Scenario, line: Sequence[Move]) -> list[Refuted]:
    """Every wrong move a puzzle's key explains, the tempting ones first (``refute``).

    `line`: the answer's winning line (a win task's solution, a key-move puzzle's key move and
    on). A small puzzle has every decision point of its answer analysed (``key_analysis``); a
    bigger one explains the tempting moves its file names, as the file claims them."""
    theme = scenario_theme(sc)
    named = named_moves(sc)
    found = key_analysis(sc, line)
    if found is None:
        return refute(sc.position, None, _claimed_losing(sc, named), theme, line)
    return refute(sc.position, found, named, theme)


def key_explanation_problem(sc: Scenario, line: Sequence[Move]) -> str | None:
    """What keeps the key's wrong moves from being explained as issue 28 asks (None: nothing):
    each is listed once, explained, and cites a rule, the theme's own where the theme's
    misconception plays it.  ``check --teach`` and the generator both ask it.

    Where foundation cards may come back (``agnes-ru``) a losing move's cost often cannot be shown
    (a card sent home can return, so the explorer finds no card that never gets home), nor tied
    to a rule: there a move left to the solver's proof, or explained by its cost alone, is
    allowed; the misconception's move must still be explained by the theme's rule."""
    entries = explain_scenario(sc, line)
    returns = sc.position.profile.foundation_return
    listed = [m for e in entries for m in e.moves]
    if len(listed) != len(set(listed)):
        return "the key lists a wrong move twice"
    for entry in entries:
        moves = " ".join(str(m) for m in entry.moves)
        if entry.reason.kind is ReasonKind.UNEXPLAINED:
            if returns:
                continue
            return f"the key leaves {moves} unexplained"
        if entry.explanation.rule is None and not returns:
            return f"the key explains {moves} by what it costs, citing no rule"
        if entry.temptation is Temptation.BELIEF and sc.themes and entry.explanation.rule != sc.themes[0]:
            return f"the key explains the misconception's move {moves} by another rule than {sc.themes[0]}"
    return None


@lru_cache(maxsize=256)
def _analysed(pos: Position, line: tuple[Move, ...], theme: str | None) -> Answer:
    """The answer's decision points, once per puzzle however many languages its sheets are in."""
    found = find_theme(theme, pos.profile.id) if theme is not None else None
    return analyse(pos, line, found.believer if found is not None else None)
