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

``lost_under`` decides exactly, by a restricted solver, the believer's tree
or an exhaustive search, whether someone who holds the misconception can reach
the believer's goal: a position from which the real rules' moves home alone
finish the game ("the position is lost when the theme's permission is
removed").  The misconception player plays those moves home once it gets
there, so it wins where the believer reaches the goal.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Literal

from ..cards import rank_of
from ..engine import apply_unchecked, legal_moves
from ..moves import Move
from ..position import Position
from ..registry import RuleId, Verdict
from ..solver import canonical_key, solve
from ..solver.fast import Rules
from .detectors import (
    MovePredicate,
    moves_run,
    non_king_into_empty,
    plays_lower_exposed,
    starts_foundation_not_ace,
    uncovers_reserve_card,
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
# Near that bar one seed's 100 games are not enough: another seed's measure passed 35% on a fresh
# batch. A rate above CONFIRM_ABOVE is played CONFIRM_PLAYOUTS more games with another seed, and the
# generator keeps the puzzle only if all the games together stay at or under CONFIRM_MAX (then a
# new 100-game measure passes RANDOM_MAX in about 4 cases in 100, not 14).
CONFIRM_ABOVE = 0.20
CONFIRM_PLAYOUTS = 300
CONFIRM_MAX = 0.27
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

def _is_deal(pos: Position, move: Move) -> bool:
    """The stock is dealt."""
    return move.is_deal


# The move predicates a misconception may name, by name (the table below is data).  A forbidden
# move is the theme's lesson move (``detectors.LESSON_MOVES``): what the detector looks for.
PREDICATES: dict[str, MovePredicate] = {
    "non-king-into-empty-column": non_king_into_empty,
    "deal": _is_deal,
    "king-on-ace": wraps_tableau,
    "ace-onto-king-foundation": wraps_foundation,
    "multi-card-move": moves_run,
    "uncover-reserve-card": uncovers_reserve_card,
    "play-lower-exposed-cell": plays_lower_exposed,
    "start-foundation-not-ace": starts_foundation_not_ace,
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
    # How "lost under the belief" is proved beyond the believer's search (see ``lost_under``): the
    # solver's tables restricted by name (RESTRICTIONS), or a position whose real game is the
    # believer's (TRANSFORMS).  Neither: the believer's tree and the believer's search.
    restriction: str | None = None
    transform: str | None = None

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
        Misconception(RuleId.TABLEAU_WRAP,
                      "ranks stop at the King: nothing goes on an Ace, and a King on an Ace is no run",
                      "forbid", "king-on-ace", restriction="no-tableau-wrap"),
        Misconception(RuleId.FOUNDATION_WRAP, "ranks stop at the King: an Ace never follows it", "forbid",
                      "ace-onto-king-foundation"),
        Misconception(RuleId.TABLEAU_RUN, "move one card at a time", "forbid", "multi-card-move",
                      restriction="single-cards-only"),
        Misconception(RuleId.RESERVE_TOP,
                      "a visible covered card is playable, so nothing needs moving off it", "forbid",
                      "uncover-reserve-card"),
        Misconception(RuleId.STOCK_LAST_TWO, "only one exposed card is free (the last one dealt)", "forbid",
                      "play-lower-exposed-cell", transform="exposed-cells-as-one-pile"),
        Misconception(RuleId.FOUNDATION_START, "foundations start with Aces", "forbid",
                      "start-foundation-not-ace"),
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
    """Home moves first, then a move the belief allows; once the moves home alone finish the game,
    those (the believer's goal, ``home_moves_finish``: the pupil learns the rule at the very end)."""
    def policy(pos: Position, moves: list[Move], rng: random.Random) -> Move | None:
        home_now = [m for m in moves if m.dest.is_foundation]
        if home_now and home_moves_finish(pos, moves):
            return rng.choice(home_now)
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


def confirmed_random_rate(pos: Position, rate: float, playouts: int = RANDOM_PLAYOUTS) -> bool:
    """Does a random-play rate the generator would keep (`rate`, of `playouts` games with the
    checker's seed) hold up?  Rates above CONFIRM_ABOVE must stay at or under CONFIRM_MAX over
    CONFIRM_PLAYOUTS more games with another seed, counted together with the first ones."""
    if rate <= CONFIRM_ABOVE:
        return True
    more = random_win_rate(pos, CONFIRM_PLAYOUTS, PLAYOUT_SEED + 1,
                           screen=(CONFIRM_MAX * (playouts + CONFIRM_PLAYOUTS) - rate * playouts)
                           / CONFIRM_PLAYOUTS)
    if more is None:
        return False
    return (rate * playouts + more * CONFIRM_PLAYOUTS) / (playouts + CONFIRM_PLAYOUTS) <= CONFIRM_MAX


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


def _kings_only_into_empty(rules: Rules) -> bool:
    rules.is_empty_rank = [ok and rank_of(c) == 13 for c, ok in enumerate(rules.is_empty_rank)]
    return True


def _king_on_ace(pair: int) -> bool:
    """Is the pair ``card * 52 + below`` of a build or link table a King on an Ace?"""
    return rank_of(pair // 52) == 13 and rank_of(pair % 52) == 1


def _no_tableau_wrap(rules: Rules) -> bool:
    """A King neither builds on an Ace nor, lying on one, moves with it: the belief's rank order
    stops at the King for the build and for runs alike (``wraps_tableau``)."""
    rules.on = bytearray(ok and not _king_on_ace(i) for i, ok in enumerate(rules.on))
    rules.hosts = [[t for t in range(52) if rules.on[c * 52 + t]] for c in range(52)]
    rules.guests = [[c for c in range(52) if rules.on[c * 52 + t]] for t in range(52)]
    rules.link = bytes(ok and not _king_on_ace(i) for i, ok in enumerate(rules.link))
    return _runs_may_shorten(rules)


def _single_cards_only(rules: Rules) -> bool:
    """No card runs with the one under it: a move to a column takes the top card alone."""
    rules.link = bytes(52 * 52)
    return _runs_may_shorten(rules)


def _runs_may_shorten(rules: Rules) -> bool:
    """Does a narrower link table only remove moves?  Not where a run moves only whole: there the
    shorter run the belief sees would be a move the rules refuse."""
    return not rules.whole_runs_only


# Restrictions of the solver's tables, by name: each removes exactly the moves its belief forbids,
# and nothing else, so the solver (with its own pruning, argued for any tables) decides the
# believer's game exactly; it answers False where the tables cannot say that for the profile.
# None of them removes a move home, so the believer's goal (below) is reached in such a game
# exactly when the game is won.
RESTRICTIONS: dict[str, Callable[[Rules], bool]] = {
    "empty-column-kings-only": _kings_only_into_empty,
    "no-tableau-wrap": _no_tableau_wrap,
    "single-cards-only": _single_cards_only,
}


def _exposed_as_one_pile(pos: Position) -> Position | None:
    """With the stock dealt out and both exposed cells full, the believer plays x1 only after x2,
    as if x2 lay on x1: the real game of one pile (x1 under x2) and an empty cell."""
    if pos.stock or len(pos.exposed) != 2 or not all(pos.exposed):
        return None
    (low,), (high,) = pos.exposed
    return replace(pos, exposed=((low, high), ()))


# Positions whose real game is exactly the believer's game (None where that does not hold).  The
# belief forbids a move home there (x1 home while x2 is full), so a win in that game proves the
# believer reaches the goal, while a loss does not prove the believer never reaches it.
TRANSFORMS: dict[str, Callable[[Position], Position | None]] = {
    "exposed-cells-as-one-pile": _exposed_as_one_pile,
}


def restricted_rules(pos: Position, restriction: str) -> Rules | None:
    """The solver's tables for `pos` with the moves of `restriction` removed (None: tables cannot
    express it in this profile)."""
    rules = Rules(pos)
    return rules if RESTRICTIONS[restriction](rules) else None


def home_moves_finish(pos: Position, moves: list[Move] | None = None) -> bool:
    """Do the real rules' moves home alone finish the game from `pos`?  (`moves`: its legal moves.)

    The believer's goal: from here every card left goes home by itself, so a pupil who learns the
    rule only now still wins, and the rule did not decide the game.  A move home never takes
    another away (it frees the card under it, and a card its foundation awaits stays awaited), so
    they may be played in any order: one order decides."""
    if pos.stock:
        return False  # no move home deals
    while not pos.is_won():
        home = next((m for m in (legal_moves(pos) if moves is None else moves) if m.dest.is_foundation), None)
        if home is None:
            return False
        pos, moves = apply_unchecked(pos, home), None
    return True


def _believer_search(pos: Position, misconception: Misconception, max_states: int) -> bool | None:
    """True: no line of believer moves from `pos` reaches the goal (every state they reach was
    seen); False: one does; None: they reach more than `max_states` states.

    States equal up to the solver's symmetries are one state (``canonical_key``): no belief
    names a column, and a card never moves from one reserve pile or exposed cell to another, so
    the stacks of two states of one game are never a permutation of each other."""
    seen = {canonical_key(pos)}
    todo = [pos]
    while todo:
        here = todo.pop()
        moves = legal_moves(here)
        if home_moves_finish(here, moves):
            return False
        for move in misconception.allowed(here, moves):
            after = apply_unchecked(here, move)
            key = canonical_key(after)
            if key not in seen:
                if len(seen) >= max_states:
                    return None
                seen.add(key)
                todo.append(after)
    return True


def _tree(pos: Position, misconception: Misconception, depth: int, nodes: int,
          cache: dict[bytes, str]) -> bool | None:
    """True when every line of `depth` believer moves ends in a position the real game's solver
    proves lost (then no line reaches the goal, whose moves home are real moves); None when that
    cannot be shown."""
    key = canonical_key(pos)
    if key not in cache:
        cache[key] = Verdict.WON if pos.is_won() else solve(pos, nodes=nodes).status
    if cache[key] == Verdict.LOST:
        return True
    if depth == 0 or home_moves_finish(pos):
        return None  # the believer's goal is reached here: not lost
    for move in misconception.allowed(pos, legal_moves(pos)):
        if _tree(apply_unchecked(pos, move), misconception, depth - 1, nodes, cache) is not True:
            return None
    return True  # every believer move loses (or the believer has no move at all)


def lost_under(pos: Position, misconception: Misconception, max_states: int = MAX_STATES,
               nodes: int = BELIEF_NODES, depth: int = TREE_DEPTH) -> bool | None:
    """Can no player who holds `misconception` reach the believer's goal from `pos`?  None: could
    not tell.

    The believer makes only the moves the belief allows, and wins on reaching a position from
    which the real rules' moves home alone finish the game (``home_moves_finish``).  Where the
    belief forbids no move home (tableau.empty, tableau.wrap, tableau.run; stock.deal's force never
    hides one) that is winning outright; where it forbids one (foundation.wrap, foundation.start,
    reserve.top, stock.last-two) it is not, and "lost" says the rule was needed before the end.

    Every answer is exact.  In turn: the solver on the tables restricted by the belief
    (``restriction``; its verdict unless undecided); a position whose real game is the believer's
    (``transform``: a win there is the believer's); the believer's tree (every line of `depth`
    moves the belief allows ends in a position the real game's solver proves lost); and the
    believer's search (every state the believer's moves reach, at most `max_states`).
    """
    rules = restricted_rules(pos, misconception.restriction) if misconception.restriction else None
    if rules is not None:
        status = solve(pos, nodes=nodes, rules=rules).status
        if status != Verdict.UNKNOWN:
            return status == Verdict.LOST
    believed = TRANSFORMS[misconception.transform](pos) if misconception.transform is not None else None
    if believed is not None and solve(believed, nodes=nodes).status == Verdict.WON:
        return False
    if _tree(pos, misconception, depth, nodes, {}):
        return True
    return _believer_search(pos, misconception, max_states)
