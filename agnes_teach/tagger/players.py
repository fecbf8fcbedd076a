"""Players that try a puzzle the way pupils would: at random, greedily, and by a misconception.

A puzzle teaches only if it can be failed.  These players measure that:

* ``random``: every legal move equally likely;
* ``greedy``: a card goes home whenever one can, otherwise a random move;
* a theme's **misconception** player: home moves first, then plays by the
  wrong belief the theme corrects (``MISCONCEPTIONS``, a table of data: a
  belief, and a move predicate the belief forbids or forces).

**Criterion 1's measure is the fatal-mistake playout** (``random_win_rate``):
a uniformly random game goes on until it wins, until the solver proves the
position lost (checked at the start, after ``FATAL_CHECK_FIRST`` moves and
then at doubling gaps; ``FATAL_STEP_NODES`` states per check on the way,
``FATAL_NODES`` at the end), until it has no legal move, or until
``FATAL_CAP`` moves
(far beyond any solution line; then the solver decides once more and a
position not proved lost counts as "no fatal mistake").  A playout is *won*
when it made no fatal mistake.  ``RANDOM_PLAYOUTS`` playouts, playout `i`
seeded by ``(seed, i)`` alone, so a count is reproducible anywhere and a
shorter run is a prefix of a longer one.

The capped win rate (``win_rate``: a game that reaches ``MAX_MOVES`` without
winning counts as lost) is kept for the misconception player, whose loss is
proved exactly by ``lost_under`` anyway.  It must not decide criterion 1: a
40-80 move mined line looked failable only because the random player ran
out of moves.

``lost_under`` decides exactly, by an argument, a restricted solver or an
exhaustive search, whether a position can be won at all by someone who holds
the misconception: "the position is lost when the theme's permission is
removed".
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Literal

from ..cards import rank_index, rank_of
from ..engine import apply_unchecked, builds_on, legal_moves, locate
from ..graph import state_key
from ..moves import Move
from ..piles import PileKind
from ..position import Position
from ..registry import RuleId, Verdict
from ..solver import canonical_key, solve
from ..solver.fast import Rules
from .detectors import (
    fills_empty_column,
    moves_run,
    starts_foundation,
    uncovers_reserve,
    wraps_foundation,
    wraps_tableau,
)

MAX_MOVES = 200  # a playout this long without a win is going round in circles: a loss
PLAYOUTS = 200  # capped playouts of the misconception player (fixed seed)
PLAYOUT_SEED = 8
RANDOM_MAX = 0.35  # criterion 1: random play may win at most this share
# The generator keeps a margin under the checker's bar: it accepts a position only when the
# recorded rate is at most this, so that a measure with another seed (100 games, a standard error
# of about 4.6 points near 30%) still stays under RANDOM_MAX.
GENERATOR_RANDOM_MAX = 0.30
MAX_STATES = 30_000  # the most states ``lost_under`` explores before it answers "unknown"
BELIEF_NODES = 300_000  # the solver's budget (states) for one verdict of the believer's game
TREE_DEPTH = 1  # how many believer moves the tree test looks ahead before the full game's solver decides

FATAL_CAP = 3_000  # far beyond any solution line: a playout still alive here has made no fatal mistake
FATAL_CHECK_FIRST = 15  # the first solver check of a playout after its start; the gap then doubles
FATAL_NODES = 200_000  # the solver's budget for the check at the cap; "unknown" counts as no fatal mistake
FATAL_STEP_NODES = 20_000  # ... and for each check on the way ("unknown": play on, a later check decides)
RANDOM_PLAYOUTS = 100  # criterion 1: fatal-mistake playouts per puzzle (checker, generator, files)
SCREEN_MIN = 20  # the generator's early reject looks at no fewer playouts than this
SCREEN_Z = 2.576  # ... and rejects once the 99% Wilson lower bound of the win rate passes RANDOM_MAX

MovePredicate = Callable[[Position, Move], bool]


def _non_king_into_empty(pos: Position, move: Move) -> bool:
    """A card other than a King (or a run led by one) goes into an empty column."""
    return fills_empty_column(pos, move) and move.card is not None and rank_of(move.card) != 13


def _uncovers_reserve_card(pos: Position, move: Move) -> bool:
    """A reserve top that covers another card is moved off it."""
    return uncovers_reserve(pos, move) is not None


def _plays_lower_exposed(pos: Position, move: Move) -> bool:
    """The first exposed cell is played while the second still holds a card (as if x2 covered x1)."""
    if move.card is None:
        return False
    place = locate(pos, move.card)
    return place.kind is PileKind.EXPOSED and any(pos.exposed[place.index + 1:])


def _starts_foundation_not_ace(pos: Position, move: Move) -> bool:
    """An empty foundation is opened by a card that is not an Ace."""
    return starts_foundation(pos, move) and move.card is not None and rank_of(move.card) != 1


def _is_deal(pos: Position, move: Move) -> bool:
    """The stock is dealt."""
    return move.is_deal


# The move predicates a misconception may name, by name (the table below is data).
PREDICATES: dict[str, MovePredicate] = {
    "non-king-into-empty-column": _non_king_into_empty,
    "deal": _is_deal,
    "king-onto-ace": wraps_tableau,
    "ace-onto-king-foundation": wraps_foundation,
    "multi-card-move": moves_run,
    "uncover-reserve-card": _uncovers_reserve_card,
    "play-lower-exposed-cell": _plays_lower_exposed,
    "start-foundation-not-ace": _starts_foundation_not_ace,
}


@dataclass(frozen=True)
class Misconception:
    """A wrong belief about one rule, as data.

    ``forbid``: the believer never makes a move of ``predicate`` (the theme's
    permission removed).  ``force``: when no card can go home and a move of
    ``predicate`` is legal, the believer makes it (and nothing else).
    """

    theme: str
    belief: str
    kind: Literal["forbid", "force"]
    predicate: str
    # How "lost under the belief" is proved beyond a small exhaustive search (see ``lost_under``):
    # the solver's tables restricted by name (RESTRICTIONS), or an argument from the position
    # alone (ARGUMENTS).  None: the believer's tree, with the real game's solver at its leaves.
    restriction: str | None = None
    argument: str | None = None
    transform: str | None = None  # a position whose real game is the believer's game (TRANSFORMS)

    def allowed(self, pos: Position, moves: list[Move]) -> list[Move]:
        """The moves a believer considers in `pos` (home moves are never forbidden by a force)."""
        test = PREDICATES[self.predicate]
        if self.kind == "forbid":
            return [m for m in moves if not test(pos, m)]
        if any(m.dest.is_foundation for m in moves):
            return moves
        forced = [m for m in moves if test(pos, m)]
        return forced or moves


MISCONCEPTIONS: dict[str, Misconception] = {
    m.theme: m
    for m in (
        Misconception(RuleId.TABLEAU_EMPTY, "empty columns are for Kings", "forbid",
                      "non-king-into-empty-column", restriction="empty-column-kings-only"),
        Misconception(RuleId.STOCK_DEAL, "deal whenever nothing is obvious", "force", "deal"),
        Misconception(RuleId.TABLEAU_WRAP, "ranks stop at the King: nothing goes on an Ace", "forbid",
                      "king-onto-ace", restriction="no-tableau-wrap"),
        Misconception(RuleId.FOUNDATION_WRAP, "ranks stop at the King: an Ace never follows it", "forbid",
                      "ace-onto-king-foundation", argument="a-foundation-must-pass-its-king"),
        Misconception(RuleId.TABLEAU_RUN, "move one card at a time", "forbid", "multi-card-move"),
        Misconception(RuleId.RESERVE_TOP,
                      "a visible covered card is playable, so nothing needs moving off it", "forbid",
                      "uncover-reserve-card", argument="a-reserve-card-is-covered"),
        Misconception(RuleId.STOCK_LAST_TWO, "only one exposed card is free (the last one dealt)", "forbid",
                      "play-lower-exposed-cell", transform="exposed-cells-as-one-pile"),
        Misconception(RuleId.FOUNDATION_START, "foundations start with Aces", "forbid",
                      "start-foundation-not-ace", argument="a-foundation-is-empty"),
    )
}

# A policy picks one of the legal moves, or None when it sees no move it would make (it gives up).
Policy = Callable[[Position, list[Move], random.Random], Move | None]


def random_policy(pos: Position, moves: list[Move], rng: random.Random) -> Move | None:
    return rng.choice(moves)


def greedy_policy(pos: Position, moves: list[Move], rng: random.Random) -> Move | None:
    home = [m for m in moves if m.dest.is_foundation]
    return rng.choice(home or moves)


def misconception_policy(misconception: Misconception) -> Policy:
    def policy(pos: Position, moves: list[Move], rng: random.Random) -> Move | None:
        allowed = misconception.allowed(pos, moves)
        home = [m for m in allowed if m.dest.is_foundation]
        # A believer who sees no move the belief allows is stuck: the game is lost.
        return rng.choice(home or allowed) if allowed else None

    return policy


def player(name: str) -> Policy:
    """``random``, ``greedy``, or a theme id (that theme's misconception player)."""
    if name == "random":
        return random_policy
    if name == "greedy":
        return greedy_policy
    return misconception_policy(MISCONCEPTIONS[name])


GameEnd = Literal[Verdict.WON, "halted", "stuck", "cap"]


def _game(pos: Position, policy: Policy, rng: random.Random, max_moves: int,
          halt: Callable[[Position, int], bool] | None = None) -> tuple[Position, GameEnd]:
    """Play `policy` from `pos` until it wins, `halt(position, moves made)` is true, it makes no move
    (stuck), or `max_moves` are made (cap); the last position and why the game ended."""
    for done in range(max_moves):
        if pos.is_won():
            return pos, Verdict.WON
        if halt is not None and halt(pos, done):
            return pos, "halted"
        moves = legal_moves(pos)
        move = policy(pos, moves, rng) if moves else None
        if move is None:
            return pos, "stuck"
        pos = apply_unchecked(pos, move)
    return pos, Verdict.WON if pos.is_won() else "cap"


def playout(pos: Position, policy: Policy, rng: random.Random, max_moves: int = MAX_MOVES) -> bool:
    """One game by `policy` from `pos`: won or not."""
    return _game(pos, policy, rng, max_moves)[1] == Verdict.WON


def win_rate(pos: Position, policy: Policy, playouts: int = PLAYOUTS, seed: int = PLAYOUT_SEED) -> float:
    """The share of `playouts` games `policy` wins from `pos` (fixed seed: reproducible)."""
    rng = random.Random(seed)
    return sum(playout(pos, policy, rng) for _ in range(playouts)) / playouts


def check_points(first: int = FATAL_CHECK_FIRST, cap: int = FATAL_CAP) -> frozenset[int]:
    """The moves after which a playout asks the solver: the start, `first`, then doubling gaps.

    A lost position stays lost and cannot be won, so the schedule changes
    only how soon a fatal mistake is seen (and what it costs), never whether:
    a game that made one is stopped at a later check, or at the cap."""
    points = {0}
    at = first
    while at < cap:
        points.add(at)
        at *= 2
    return frozenset(points)


CHECK_POINTS = check_points()


def fatal_playout(pos: Position, policy: Policy, rng: random.Random, max_moves: int = FATAL_CAP,
                  nodes: int = FATAL_NODES, step_nodes: int = FATAL_STEP_NODES,
                  verdicts: dict[Position, str] | None = None) -> bool:
    """One game by `policy` from `pos`: did it reach a position the solver proves lost?

    The solver looks at the positions after ``CHECK_POINTS`` moves
    (`step_nodes` states each: an undecided check only defers the question)
    and at the cap (`nodes` states).  A game that wins, or is still not proved lost after
    `max_moves`, made no fatal mistake.  Being stuck (no move the policy
    makes) in an unwon position is a loss.  `verdicts` caches the solver's
    answers (the start position is checked by every playout).
    """
    cache = verdicts if verdicts is not None else {}

    def lost(here: Position, budget: int) -> bool:
        if cache.get(here, Verdict.UNKNOWN) == Verdict.UNKNOWN:
            cache[here] = solve(here, nodes=budget).status
        return cache[here] == Verdict.LOST

    def proved_lost(here: Position, done: int = 0) -> bool:
        return done in CHECK_POINTS and lost(here, step_nodes)

    end, how = _game(pos, policy, rng, max_moves, proved_lost)
    return how in ("halted", "stuck") or (how == "cap" and lost(end, nodes))


def _playout_rng(seed: int, i: int) -> random.Random:
    """Playout `i`'s own generator: a count's first n playouts are those of any longer count."""
    return random.Random(f"{seed}/{i}")


def fatal_mistake_rate(pos: Position, policy: Policy, playouts: int = 40, seed: int = PLAYOUT_SEED,
                       **limits: int) -> float:
    """The share of `playouts` games by `policy` that make a fatal mistake (fixed seed)."""
    cache: dict[Position, str] = {}
    return sum(fatal_playout(pos, policy, _playout_rng(seed, i), verdicts=cache, **limits)
               for i in range(playouts)) / playouts


def wilson_low(wins: int, n: int, z: float = SCREEN_Z) -> float:
    """The lower end of the Wilson score interval of `wins` out of `n`."""
    if n == 0:
        return 0.0
    p = wins / n
    centre = p + z * z / (2 * n)
    spread = z * ((p * (1 - p) + z * z / (4 * n)) / n) ** 0.5
    return max(0.0, (centre - spread) / (1 + z * z / n))


def random_win_rate(pos: Position, playouts: int = RANDOM_PLAYOUTS, seed: int = PLAYOUT_SEED,
                    policy: Policy | None = None, screen: float | None = None) -> float | None:
    """Criterion 1's measure: the share of `playouts` random games that make no fatal mistake.

    With `screen` (a bar such as ``RANDOM_MAX``) the playouts stop early, and
    None is returned, as soon as the rate cannot end at or below the bar: the
    wins so far already exceed it (certain), or, after ``SCREEN_MIN``
    playouts, the 99% Wilson lower bound of the rate exceeds it (probable; a
    generator's screen only ever rejects this way, never accepts).  A rate
    that is returned is always the full count's."""
    policy = policy or random_policy
    cache: dict[Position, str] = {}
    wins = 0
    for i in range(playouts):
        wins += not fatal_playout(pos, policy, _playout_rng(seed, i), verdicts=cache)
        if screen is not None and (wins > screen * playouts
                                   or (i + 1 >= SCREEN_MIN and wilson_low(wins, i + 1) > screen)):
            return None
    return wins / playouts


def _kings_only_into_empty(rules: Rules) -> None:
    rules.is_empty_rank = [ok and rank_of(c) == 13 for c, ok in enumerate(rules.is_empty_rank)]


def _no_tableau_wrap(rules: Rules) -> None:
    rules.wrap = False
    rules.hosts = [[t for t in range(52) if builds_on(c, t, False)] for c in range(52)]
    rules.on = bytearray(52 * 52)
    for c in range(52):
        for t in rules.hosts[c]:
            rules.on[c * 52 + t] = 1
    rules.guests = [[c for c in range(52) if rules.on[c * 52 + t]] for t in range(52)]


# Restrictions of the solver's tables, by name: each removes exactly the moves its belief forbids,
# and nothing else, so the solver (with its own pruning, argued for any tables) decides the
# believer's game exactly.
RESTRICTIONS: dict[str, Callable[[Rules], None]] = {
    "empty-column-kings-only": _kings_only_into_empty,
    "no-tableau-wrap": _no_tableau_wrap,
}


def _must_pass_king(pos: Position) -> bool:
    """Some suit's foundation still needs its Ace on its King (the base is not an Ace)."""
    ace_at = rank_index(pos.base, 1)  # the Ace's place in the foundation's order
    return pos.base != 1 and any(count <= ace_at for count in pos.foundations)


def _foundation_empty(pos: Position) -> bool:
    """Some foundation is still empty and must be opened by a base card that is not an Ace."""
    return pos.base != 1 and any(count == 0 for count in pos.foundations)


def _reserve_card_covered(pos: Position) -> bool:
    """A reserve pile holds two or more cards: the believer never moves its top, so the card under
    it never comes free (piles only grow), and a game needs every card home."""
    return any(len(pile) >= 2 for pile in pos.reserve)


# Arguments from the position alone: when true, no game under the belief can be won.
ARGUMENTS: dict[str, Callable[[Position], bool]] = {
    "a-foundation-must-pass-its-king": _must_pass_king,
    "a-foundation-is-empty": _foundation_empty,
    "a-reserve-card-is-covered": _reserve_card_covered,
}


def _exposed_as_one_pile(pos: Position) -> Position | None:
    """With the stock dealt out and both exposed cells full, the believer plays x1 only after x2,
    as if x2 lay on x1: the real game of one pile (x1 under x2) and an empty cell."""
    if pos.stock or len(pos.exposed) != 2 or not all(pos.exposed):
        return None
    (low,), (high,) = pos.exposed
    return replace(pos, exposed=((low, high), ()))


# Positions whose real game is exactly the believer's game (None where that does not hold).
TRANSFORMS: dict[str, Callable[[Position], Position | None]] = {
    "exposed-cells-as-one-pile": _exposed_as_one_pile,
}


def restricted_rules(pos: Position, restriction: str) -> Rules:
    """The solver's tables for `pos` with the moves of `restriction` removed."""
    rules = Rules(pos)
    RESTRICTIONS[restriction](rules)
    return rules


def _explore(pos: Position, misconception: Misconception, max_states: int) -> bool | None:
    seen = {state_key(pos)}
    todo = [pos]
    while todo:
        here = todo.pop()
        if here.is_won():
            return False
        for move in misconception.allowed(here, legal_moves(here)):
            nxt = apply_unchecked(here, move)
            key = state_key(nxt)
            if key not in seen:
                if len(seen) >= max_states:
                    return None
                seen.add(key)
                todo.append(nxt)
    return True


def _tree(pos: Position, misconception: Misconception, depth: int, nodes: int,
          cache: dict[bytes, str]) -> bool | None:
    """True when every line of `depth` believer moves ends in a position the real game's solver
    proves lost (then no game under the belief wins); None when that cannot be shown."""
    key = canonical_key(pos)
    if key not in cache:
        cache[key] = Verdict.WON if pos.is_won() else solve(pos, nodes=nodes).status
    if cache[key] == Verdict.LOST:
        return True
    if pos.is_won() or depth == 0:
        return None
    for move in misconception.allowed(pos, legal_moves(pos)):
        if _tree(apply_unchecked(pos, move), misconception, depth - 1, nodes, cache) is not True:
            return None
    return True  # every believer move loses (or the believer has no move at all)


def lost_under(pos: Position, misconception: Misconception, max_states: int = MAX_STATES,
               nodes: int = BELIEF_NODES, depth: int = TREE_DEPTH) -> bool | None:
    """Is `pos` lost for every player who holds `misconception`?  None: could not tell.

    Every answer is exact.  In turn: the misconception's argument from the
    position (a foundation that can never be completed under the belief);
    the solver on the tables restricted by the belief (``restriction``), or
    on a position whose real game is the believer's (``transform``);
    every state the believer's moves reach, when there are at most
    `max_states`; and last the believer's tree: every line of `depth` moves
    the belief allows ends in a position the solver proves lost in the real
    game (a restriction of a lost game is lost).
    """
    if misconception.argument is not None and ARGUMENTS[misconception.argument](pos):
        return True
    if misconception.restriction is not None:
        status = solve(pos, nodes=nodes, rules=restricted_rules(pos, misconception.restriction)).status
        return None if status == Verdict.UNKNOWN else status == Verdict.LOST
    believed = TRANSFORMS[misconception.transform](pos) if misconception.transform is not None else None
    if believed is not None:
        status = solve(believed, nodes=nodes).status
        return None if status == Verdict.UNKNOWN else status == Verdict.LOST
    if _tree(pos, misconception, depth, nodes, {}):
        return True
    return _explore(pos, misconception, max_states)
