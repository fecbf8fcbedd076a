"""Players that try a puzzle the way pupils would: at random, greedily, and by a misconception.

A puzzle teaches only if it can be failed.  These players measure that:

* ``random``: every legal move equally likely;
* ``greedy``: a card goes home whenever one can, otherwise a random move;
* a theme's **misconception** player: home moves first, then plays by the
  wrong belief the theme corrects (its theme module's ``THEME.believer``, a
  ``Misconception``: a belief, and a move predicate the belief forbids or forces).

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

The capped win rate (``win_rate``: a game that reaches ``PLAYOUT_MAX_MOVES`` without
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
from collections import deque
from collections.abc import Callable
from typing import Literal, cast

from ..engine import apply_unchecked, finishes_home, legal_moves
from ..limits import BELIEVER_MAX_STATES, PLAYOUT_MAX_MOVES
from ..moves import Move
from ..position import Cards, Position
from ..profile import DEFAULT_PROFILE
from ..registry import Verdict
from ..solver import canonical_key, solve
from ..solver.compiled import RandomGame, RandomGames, random_games
from ..solver.fast import FastState, Rules
from ..themes import theme_for
from .misconception import Misconception, Restriction
from .plans import PLAN_MAX_STATES, plans_for

PLAYOUTS = 200  # capped playouts of the misconception player (fixed seed)
# A *widen* believer picks among the moves its plan makes, the answer's among them (the real game's
# wins are wins of its game too), so it cannot be made to lose every game; it must lose at least
# as often as it wins.  The other beliefs' players must win none.
WIDEN_PLAYER_MAX = 0.5
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
BELIEF_NODES = 300_000  # the solver's budget (states) for one verdict of the believer's game
TREE_DEPTH = 1  # how many believer moves the tree test looks ahead before the full game's solver decides

FATAL_CAP = 3_000  # far beyond any solution line: a playout still alive here has made no fatal mistake
FATAL_CHECK_FIRST = 15  # the first solver check of a playout after its start; the gap then doubles
FATAL_NODES = 200_000  # the solver's budget for the check at the cap; "unknown" counts as no fatal mistake
FATAL_STEP_NODES = 20_000  # ... and for each check on the way ("unknown": play on, a later check decides)
RANDOM_PLAYOUTS = 100  # criterion 1: fatal-mistake playouts per puzzle (checker, generator, files)
SCREEN_MIN = 20  # the generator's early reject looks at no fewer playouts than this
SCREEN_Z = 2.576  # ... and rejects once the 99% Wilson lower bound of the win rate passes RANDOM_MAX

# A policy picks one of the legal moves, or None when it sees no move it would make (it gives up).
Policy = Callable[[Position, list[Move], random.Random], Move | None]


def random_policy(pos: Position, moves: list[Move], rng: random.Random) -> Move | None:
    return rng.choice(moves)


def greedy_policy(pos: Position, moves: list[Move], rng: random.Random) -> Move | None:
    home = [m for m in moves if m.dest.is_foundation]
    return rng.choice(home or moves)


def believer_choices(pos: Position, misconception: Misconception,
                     moves: list[Move] | None = None) -> list[Move]:
    """The moves the misconception player picks among at `pos` (it plays one of them at random):
    once the moves home alone finish the game, those (the believer's goal, ``engine.finishes_home``:
    the pupil learns the rule at the very end); else the moves home the belief allows, if any; else
    every move it allows. Empty: the believer sees no move it would make (it is stuck). The move
    "the misconception picks" (issue 28) is one of these."""
    moves = legal_moves(pos) if moves is None else moves
    home_now = [m for m in moves if m.dest.is_foundation]
    if home_now and finishes_home(pos):
        return home_now
    allowed = misconception.allowed(pos, moves)
    home = [m for m in allowed if m.dest.is_foundation]
    return home or allowed


def misconception_policy(misconception: Misconception) -> Policy:
    """One of the moves the believer picks among (``believer_choices``), at random; None (it gives
    up, the game is lost) when the belief allows no move.
    A belief that adds moves plays by its plans instead (``planning_policy``)."""
    if misconception.kind == "add":
        return planning_policy(misconception)

    def policy(pos: Position, moves: list[Move], rng: random.Random) -> Move | None:
        choices = believer_choices(pos, misconception, moves)
        return rng.choice(choices) if choices else None

    return policy


def planning_policy(misconception: Misconception) -> Policy:
    """A believer who takes refused moves for legal: one of the first moves of its shortest plans
    (``plans``), safe moves home first. A plan move the rules refuse ends its game: the plan it
    counted on fails there (and with it the answer it would write)."""
    def policy(pos: Position, moves: list[Move], rng: random.Random) -> Move | None:
        home_now = [m for m in moves if m.dest.is_foundation]
        if home_now and finishes_home(pos):
            return rng.choice(home_now)
        first = plans_for(misconception, pos).first_moves(pos)
        options = [*first.legal, *first.refused] if first is not None else []
        pick = rng.choice(options) if options else None
        return pick if pick is not None and pick in moves else None

    return policy


def player(name: str, profile: str = DEFAULT_PROFILE) -> Policy:
    """``random``, ``greedy``, or a theme's rule id (the misconception player of that rule's theme
    for `profile`; an unknown one raises ``InputError``)."""
    if name == "random":
        return random_policy
    if name == "greedy":
        return greedy_policy
    return misconception_policy(theme_for(name, profile).believer)


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


def playout(pos: Position, policy: Policy, rng: random.Random, max_moves: int = PLAYOUT_MAX_MOVES) -> bool:
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


def compiled_games(pos: Position, policy: Policy) -> RandomGames | None:
    """The compiled core's games from `pos` when it can play `policy`'s games (the random and the
    greedy player's, in a profile it plays); None: they are played here."""
    if policy is not random_policy and policy is not greedy_policy:
        return None
    return random_games(FastState(pos))


def _position_of(start: Position, game: RandomGame) -> Position:
    """The position a compiled game from `start` has reached."""
    cols, stacks, found, deals_done = game.piles()
    stock = start.stock
    for deal in start.profile.stock_deals[start.deals_done:deals_done]:
        stock = stock[len(deal):]  # as engine.apply_unchecked deals
    reserves = start.profile.reserve_piles
    piles = [cast(Cards, tuple(pile)) for pile in (*cols, *stacks)]  # a card is its number
    tableau, stacks_at = piles[:len(cols)], piles[len(cols):]
    return Position(start.profile, start.base, found, tuple(tableau), tuple(stacks_at[:reserves]),
                    tuple(stacks_at[reserves:]), stock)


def _compiled_game(pos: Position, games: RandomGames, greedy: bool, rng: random.Random, max_moves: int,
                   halt: Callable[[Position, int], bool], points: frozenset[int]) -> tuple[Position, GameEnd]:
    """``_game`` played by the compiled core, where `halt` can only be true after a number of moves
    in `points`: the same game and the same end, the positions built only where `halt` looks."""
    game = games.game(rng)
    done = 0
    for point in [*sorted(p for p in points if p < max_moves), max_moves]:
        made, end = game.walk(point - done, greedy)
        done += made
        if end == RandomGame.WON:
            return _position_of(pos, game), Verdict.WON
        if end == RandomGame.STUCK:
            return _position_of(pos, game), "stuck"
        here = _position_of(pos, game)
        if point == max_moves:
            return here, "cap"
        if halt(here, done):
            return here, "halted"
    raise AssertionError("the last stretch ends at max_moves")


def fatal_playout(pos: Position, policy: Policy, rng: random.Random, max_moves: int = FATAL_CAP,
                  nodes: int = FATAL_NODES, step_nodes: int = FATAL_STEP_NODES,
                  verdicts: dict[Position, str] | None = None, games: RandomGames | None = None) -> bool:
    """One game by `policy` from `pos`: did it reach a position the solver proves lost?

    The solver looks at the positions after ``CHECK_POINTS`` moves
    (`step_nodes` states each: an undecided check only defers the question)
    and at the cap (`nodes` states).  A game that wins, or is still not proved lost after
    `max_moves`, made no fatal mistake.  Being stuck (no move the policy
    makes) in an unwon position is a loss.  `verdicts` caches the solver's
    answers (the start position is checked by every playout).  `games`
    (``compiled_games`` of `pos` and `policy`): the compiled core plays the game.
    """
    cache = verdicts if verdicts is not None else {}

    def lost(here: Position, budget: int) -> bool:
        if cache.get(here, Verdict.UNKNOWN) == Verdict.UNKNOWN:
            cache[here] = solve(here, nodes=budget).status
        return cache[here] == Verdict.LOST

    def proved_lost(here: Position, done: int = 0) -> bool:
        return done in CHECK_POINTS and lost(here, step_nodes)

    if games is not None:
        end, how = _compiled_game(pos, games, policy is greedy_policy, rng, max_moves, proved_lost,
                                  CHECK_POINTS)
    else:
        end, how = _game(pos, policy, rng, max_moves, proved_lost)
    return how in ("halted", "stuck") or (how == "cap" and lost(end, nodes))


def _playout_rng(seed: int, i: int) -> random.Random:
    """Playout `i`'s own generator: a count's first n playouts are those of any longer count."""
    return random.Random(f"{seed}/{i}")


def fatal_mistake_rate(pos: Position, policy: Policy, playouts: int = 40, seed: int = PLAYOUT_SEED,
                       **limits: int) -> float:
    """The share of `playouts` games by `policy` that make a fatal mistake (fixed seed)."""
    cache: dict[Position, str] = {}
    games = compiled_games(pos, policy)
    return sum(fatal_playout(pos, policy, _playout_rng(seed, i), verdicts=cache, games=games, **limits)
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
    games = compiled_games(pos, policy)
    wins = 0
    for i in range(playouts):
        wins += not fatal_playout(pos, policy, _playout_rng(seed, i), verdicts=cache, games=games)
        if screen is not None and (wins > screen * playouts
                                   or (i + 1 >= SCREEN_MIN and wilson_low(wins, i + 1) > screen)):
            return None
    return wins / playouts


def restricted_rules(pos: Position, restriction: Restriction) -> Rules | None:
    """The solver's tables for `pos` narrowed by `restriction` to the believer's moves (None: the
    tables cannot express it in this profile).

    A restriction removes exactly the moves its belief forbids, and nothing else, so the solver
    (with its own pruning, argued for any tables) decides the believer's game exactly.  None of
    them removes a move home, so the believer's goal is reached in such a game exactly when the
    game is won."""
    rules = Rules(pos)
    return rules if restriction(rules) else None


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
        if finishes_home(here):
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
    if depth == 0 or finishes_home(pos):
        return None  # the believer's goal is reached here: not lost
    for move in misconception.allowed(pos, legal_moves(pos)):
        if _tree(apply_unchecked(pos, move), misconception, depth - 1, nodes, cache) is not True:
            return None
    return True  # every believer move loses (or the believer has no move at all)


def player_max(misconception: Misconception) -> float:
    """The share of games the misconception player may win in a puzzle that teaches."""
    return WIDEN_PLAYER_MAX if misconception.kind == "widen" else 0.0


def _plan_can_lose(pos: Position, misconception: Misconception, max_states: int, nodes: int) -> bool | None:
    """A *widen* belief: can a believer who follows its plan lose (True), reaching a position the
    real game's solver proves lost, or stuck with a plan that begins with a refused move?  False:
    every state its plan moves reach was seen and none is; None: more than `max_states` states, or
    a verdict the solver could not settle."""
    seen = {canonical_key(pos)}
    todo = deque([pos])  # breadth first: the answer's decision points come early
    undecided = False
    while todo:
        here = todo.popleft()
        moves = legal_moves(here)
        if finishes_home(here):
            continue
        plan = misconception.plan(here, moves)
        if plan == []:
            return True
        for move in plan if plan is not None else []:
            after = apply_unchecked(here, move)
            key = canonical_key(after)
            if key in seen:
                continue
            status = Verdict.WON if after.is_won() else solve(after, nodes=nodes).status
            if status == Verdict.LOST:
                return True
            undecided = undecided or status == Verdict.UNKNOWN
            if len(seen) >= max_states:
                return None
            seen.add(key)
            todo.append(after)
    return None if undecided else False


def lost_under(pos: Position, misconception: Misconception, max_states: int = BELIEVER_MAX_STATES,
               nodes: int = BELIEF_NODES, depth: int = TREE_DEPTH) -> bool | None:
    """Can no player who holds `misconception` reach the believer's goal from `pos`?  None: could
    not tell.

    The believer makes only the moves the belief allows, and wins on reaching a position from
    which the real rules' moves home alone finish the game (``engine.finishes_home``).  Where the
    belief forbids no move home (tableau.empty, tableau.wrap, tableau.run; stock.deal's force never
    hides one) that is winning outright; where it forbids one (foundation.wrap, foundation.start,
    reserve.top, stock.last-two) it is not, and "lost" says the rule was needed before the end.

    A belief that adds moves is decided by its plans (``plans.Plans.lost``: every shortest plan it
    may follow needs a move the rule refuses).  Every other answer is exact.  In turn: the solver on
    the tables restricted by the belief (``restriction``; its verdict unless undecided); a position
    whose real game is the believer's (``transform``: a win there is the believer's); the believer's
    tree (every line of `depth` moves the belief allows ends in a position the real game's solver
    proves lost); and the believer's search (every state the believer's moves reach, at most
    `max_states`).

    A *widen* belief forbids nothing (the answer is a win of its game too), so "lost" reads: a
    believer who follows its plan can lose (``_plan_can_lose``), the belief can cost the game.
    """
    if misconception.kind == "add":  # the plans' own budget, or a smaller one asked (cutting down)
        return plans_for(misconception, pos).lost(pos, min(max_states, PLAN_MAX_STATES))
    if misconception.kind == "widen":
        return _plan_can_lose(pos, misconception, max_states, nodes)
    rules = restricted_rules(pos, misconception.restriction) if misconception.restriction else None
    if rules is not None:
        status = solve(pos, nodes=nodes, rules=rules).status
        if status != Verdict.UNKNOWN:
            return status == Verdict.LOST
    believed = misconception.transform(pos) if misconception.transform is not None else None
    if believed is not None and solve(believed, nodes=nodes).status == Verdict.WON:
        return False
    if _tree(pos, misconception, depth, nodes, {}):
        return True
    return _believer_search(pos, misconception, max_states)
