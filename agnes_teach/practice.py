"""What a practice page embeds for a puzzle, computed at build time: every answer, in no language yet.

The page decides nothing.  For each puzzle small enough, the whole game graph
reachable from its start is enumerated with the engine (:func:`graph.explore`,
every legal move one edge) with, for every state, whether it can still be
won, the first move of its shortest line, and, for every card and every
destination, the engine's refusal (rule id and parameters) where the move is
illegal.  Whether a state can be won is exact: the graph is complete, so a
state is winnable iff a path in it reaches all 52 cards home; the solver is
asked about the start (and a sample of states) as a cross-check, and a
disagreement stops the build.

States that differ only in the order of interchangeable piles are stored once
(``merge_symmetric``: most of a small game's states are such copies); the
page follows where each pile went.  A game of more than ``FULL_STATES`` such
states is explored again as the game in which the cards that can go home with
no possible harm go there by themselves after each move (the generator's game,
``play_safe_home``; a win there is a win, and with foundations final a loss
there is a loss); the page says so.  A puzzle whose game has more than
``PRACTICE_MAX_STATES`` states even then is not analysed.  (A game with a stock
is explored the other way round, the safe-home game first: its states are
states of the learner's game, so when it alone has more than ``FULL_STATES``
the learner's game is not explored at all.)

Every move that turns a winnable state into a lost one carries the answer
key's explanation: at a position of the key's line, the very explanation the
worksheet's key prints for that move (``tagger.refutation.explain_scenario``:
the rule's side, then what the move costs), its piles renamed into the stored
state's order; anywhere else, the one explanation of a wrong move
(``explain_losing_move``: the rule's side where the theme's misconception plays
the move, then the cost, ``why_loses``).

The engine is asked about every card on the board (in a pile, or on top of its
foundation) and every destination once per what its rules read
(:func:`on_board_key`: the card's pile and what moving it would move, the foundations,
the destination and its top card, a column by whether it is the card's own,
not by its number), not once per state: a move changes two piles, so nearly
every such question recurs in the next state; a card's whole row is kept once
per where it lies and every column's top card (:data:`OnBoardRowKey`).  A card off the
board (in the stock, or under another card of its foundation) is asked about
once per stock, foundations and deals done (:func:`off_board_key`): its refusal
reads no pile of the board.  At the start, the last state and three others,
the engine is asked again about every card, and an answer that differs stops
the build (the test suite asks at every state of puzzles of each game).  An
analysis may be kept for the next build (:mod:`agnes_teach.practice_cache`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from enum import Enum, auto
from functools import cache

from .board import links, run_start_in
from .cards import Card, card_name, make_card, rank_at, suit_of
from .checker import solution_line
from .engine import AmbiguousMoveError, IllegalMoveError, Refusal, apply_unchecked, refusal, resolve
from .graph import GameGraph, explore, piles_onto
from .keys import key_and_order
from .limits import MEASURE_VERDICT_NODES, PRACTICE_MAX_CARDS, PRACTICE_MAX_STATES
from .moves import DEAL_MOVE, Move, MoveText, parse_move_text
from .piles import FOUNDATION, Pile, PileKind
from .position import Cards, Position
from .practice_cache import AnalysisCache
from .profile import Profile
from .registry import Verdict
from .scenario import Scenario
from .solver import solve
from .tagger.refutation import Explanation, Refuted, explain_losing_move, explain_scenario
from .tagger.teaching import cards_not_home
from .themes import find_theme

# The learner's game (every move theirs) is embedded while it has at most this many states; a larger
# one is played with safe cards going home by themselves.  Each state costs build time and bytes:
# at 3,000 the whole small library builds in minutes and each rule's page stays under its budget.
FULL_STATES = 3_000
SOLVER_SECONDS = 5.0  # per cross-checked state
CROSS_CHECKS = 12  # states besides the start whose verdict the solver confirms
# States besides the start and the last whose every refusal is asked afresh at build time (the test
# suite asks at every state of puzzles of each game): each costs as much as a hundred shared states.
REFUSAL_CROSS_CHECKS = 3

# A refusal in no language: rule id and sorted parameters, without the ones the page fills in itself
# (see :func:`page_refusal_key`).
RefusalKey = tuple[str, tuple[tuple[str, str], ...]]
RefusalRow = tuple[RefusalKey | None, ...]  # one card's refusals, per destination


class PracticeError(RuntimeError):
    """The graph and the solver (or the engine's refusals and its moves) disagree: a bug, never shipped."""


class Unplayable(Enum):
    """Why a puzzle's game is not stored for a page (beside too many cards in play)."""

    TOO_LARGE = auto()  # more than PRACTICE_MAX_STATES states, even with safe cards sent home
    UNPROVED = auto()  # cards come back from the foundations, and a loss of the smaller game is unproved


class NoLead(Enum):
    """Where typed ``tI>tJ`` names no one card."""

    NONE = auto()  # the source column is empty, or is the destination
    AMBIGUOUS = auto()  # more than one run could go (or none resolves to a card)


Lead = Card | NoLead


@dataclass(frozen=True)
class PracticeAnalysis:
    """What the engine and the solver say about one puzzle; lists are per state of ``graph``."""

    graph: GameGraph
    auto_home: bool  # the game in which safe cards go home by themselves (the full game was too large)
    destinations: list[Pile]  # the order of every per-destination list: f, then the profile's piles
    winnable: list[bool]
    line: list[int]  # the edge starting the state's shortest line (GameGraph.line_edges)
    refusals: list[list[RefusalRow]]  # [state][card][destination]; None: legal
    free: list[list[bool]]  # [state][card]: can the card be picked up (see :func:`can_pick_up`)
    deal: list[RefusalKey | None]  # None: dealing is legal
    leads: list[list[list[Lead]]]  # [state][source column][destination column]: the card tI>tJ moves
    empty: dict[str, list[RefusalKey]]  # typed input from each pile, emptied, to each destination
    nopile: dict[str, RefusalKey]  # typed input naming a pile the game lacks
    # (state, edge index) of every move from a winnable state into a lost one: why it loses, as the
    # answer key says it (piles named as in the stored state the move leaves)
    losing: dict[tuple[int, int], Explanation] = field(default_factory=dict)


@dataclass(frozen=True)
class KeyLine:
    """What a puzzle's answer key says, as values a worker process can take: the line the key
    explains (``checker.solution_line``), every wrong move it explains (``explain_scenario``,
    by the indices of that line's positions) and the rule of the puzzle's theme."""

    line: tuple[Move, ...] = ()
    refuted: tuple[Refuted, ...] = ()
    theme: str | None = None


def key_of(scenario: Scenario) -> KeyLine:
    """The answer key of a puzzle, as the worksheet explains it."""
    line = solution_line(scenario)
    return KeyLine(tuple(line), tuple(explain_scenario(scenario, line)),
                   scenario.themes[0] if scenario.themes else None)


def destinations(profile: Profile) -> list[Pile]:
    return [FOUNDATION, *profile.pile_names()]


def refusal_key(why: Refusal) -> RefusalKey:
    """The refusal without its destination pile, which the page fills in (a stored state may hold
    its piles in another order than the learner's board, so the pile is the one the learner named).
    The foundation stays: no state reorders it, and its message differs (i18n.refusal_message)."""
    kept = ((k, v) for k, v in why.params.items() if k != "dest" or v == FOUNDATION)
    return (why.rule, tuple(sorted(kept)))


def page_refusal_key(why: Refusal, pos: Position, move: Move) -> RefusalKey:
    """A card's refusal without the facts the page fills in from its own board: the card moved, its
    destination and the destination's top card.  Checked here, so the page's words are the engine's."""
    assert move.card is not None
    pile = () if move.dest.is_foundation else pos.pile(move.dest)
    top = card_name(pile[-1]) if pile else None
    given = why.params
    named = (given.get("card"), given.get("dest"), given.get("target", top))
    if named != (card_name(move.card), move.dest, top):
        raise PracticeError(f"{move}: the refusal names cards or piles the page does not show: {why.params}")
    # The same refusal recurs in state after state: its key is made once (about a sixth of the
    # analysis went to making it again).
    seen = (why.rule, tuple(given.items()))
    found = _PAGE_KEYS.get(seen)
    if found is None:
        params = {k: v for k, v in given.items() if k not in ("card", "target")}
        found = _PAGE_KEYS.setdefault(seen, refusal_key(Refusal(why.rule, why.move, params)))
    return found


_PAGE_KEYS: dict[tuple[str, tuple[tuple[str, str], ...]], RefusalKey] = {}


_ANALYSES: dict[tuple[str, Position], PracticeAnalysis | Unplayable | None] = {}
_KEPT: dict[tuple[str, Position], AnalysisCache] = {}  # analyses to be read from a cache when needed


def clear_analyses() -> None:
    """Forget the analyses kept for the other languages' pages (a caller building many puzzles,
    one after another, frees each one's graph)."""
    _ANALYSES.clear()
    _KEPT.clear()
    _PAGE_KEYS.clear()


def analyse(scenario: Scenario) -> PracticeAnalysis | None:
    """The puzzle's whole game graph with every answer, or None if it has more than
    PRACTICE_MAX_CARDS cards in play or more than PRACTICE_MAX_STATES states."""
    key = (scenario.id, scenario.position)
    if key not in _ANALYSES:
        cache = _KEPT.pop(key, None)
        kept, got = cache.get(scenario) if cache is not None else (False, None)
        if kept and (got is None or isinstance(got, (PracticeAnalysis, Unplayable))):
            _ANALYSES[key] = got
        else:
            _ANALYSES[key] = _analyse(scenario.id, scenario.position, _key_if_small(scenario))
            if cache is not None and _ANALYSES[key] is not None:  # a damaged file is replaced
                cache.put(scenario, _ANALYSES[key])
    got = _ANALYSES[key]
    return got if isinstance(got, PracticeAnalysis) else None


def unplayable(scenario: Scenario) -> Unplayable | None:
    """Why :func:`analyse` gave no analysis of `scenario` (None: it gave one, or the puzzle has too
    many cards in play to be tried)."""
    analyse(scenario)
    got = _ANALYSES[(scenario.id, scenario.position)]
    return got if isinstance(got, Unplayable) else None


def _key_if_small(scenario: Scenario) -> KeyLine:
    """The puzzle's key, for a puzzle the page may play (no key is worked out for one it cannot)."""
    return key_of(scenario) if cards_not_home(scenario.position) <= PRACTICE_MAX_CARDS else KeyLine()


def analyse_all(scenarios: Sequence[Scenario], workers: int | None = None,
                progress: Callable[[int, Scenario], None] | None = None,
                cache: AnalysisCache | None = None) -> None:
    """Analyse every puzzle not analysed yet, in `workers` processes (default: one per core), and
    keep the results for :func:`analyse`.  Each puzzle's analysis is independent and each result
    is kept under its puzzle, so the pages are the same byte for byte whatever the worker count.
    `progress` hears each puzzle as it is done, with how many are done.  With `cache`, a puzzle
    analysed by an earlier build of the same code is read from it, and each new analysis is kept
    there."""
    todo = list({(s.id, s.position): s for s in scenarios if (s.id, s.position) not in _ANALYSES}.values())
    done = 0

    def finished(scenario: Scenario, result: PracticeAnalysis | Unplayable | None, fresh: bool) -> None:
        nonlocal done
        _ANALYSES[(scenario.id, scenario.position)] = result
        if fresh and cache is not None and result is not None:
            cache.put(scenario, result)
        done += 1
        if progress is not None:
            progress(done, scenario)

    if cache is not None:
        # A kept analysis is read only when a page needs it (a page kept in the cache as well does not).
        left = []
        for scenario in todo:
            if cache.has(scenario):
                _KEPT[(scenario.id, scenario.position)] = cache
                done += 1
                if progress is not None:
                    progress(done, scenario)
            else:
                left.append(scenario)
        todo = left
    count = min(workers or os.cpu_count() or 1, len(todo))
    if count <= 1:
        for scenario in todo:
            finished(scenario, _analyse(scenario.id, scenario.position, _key_if_small(scenario)), fresh=True)
        return
    with ProcessPoolExecutor(max_workers=count) as pool:
        # A scenario's id and position travel to the worker (the rest of it need not pickle).  The
        # likely largest games first (a stock, then more cards in play), so that no worker is left
        # with a big one at the end while the others wait.
        first = sorted(todo, key=lambda s: (not s.position.stock, -cards_not_home(s.position)))
        jobs = {pool.submit(_analyse, scenario.id, scenario.position, _key_if_small(scenario)): scenario
                for scenario in first}
        for job in as_completed(jobs):
            finished(jobs[job], job.result(), fresh=True)


def explore_for_page(start: Position) -> tuple[GameGraph | Unplayable, bool]:
    """The game graph the page embeds, and whether safe cards go home by themselves in it: the
    learner's every move if that game has at most FULL_STATES states, else the game with safe moves
    home played at once, up to PRACTICE_MAX_STATES.  Where cards may come back from the foundations a
    loss in that second game is no proof (a safe move is safe only where they may not): it is used
    only when the solver proves each of its lost states lost in the real game, else nothing is."""
    if start.profile.foundation_return:
        graph = explore(start, FULL_STATES, play_safe_home=False, merge_symmetric=True)
        if graph is not None:
            return graph, False
        # Where cards come back a safe move home is no proof (a guest could come back onto the card),
        # so that game's losses stand only where the solver proves them in the real game.
        safe_home = explore(start, PRACTICE_MAX_STATES, play_safe_home=True, merge_symmetric=True,
                            learner_returns=True)
        if safe_home is None:
            return Unplayable.TOO_LARGE, False
        return (safe_home, True) if losses_proved(safe_home) else (Unplayable.UNPROVED, False)
    if start.stock:
        # A game with a stock to deal is mostly too large to play whole: its game with safe cards sent
        # home comes first.  Each of its states is one of the learner's game, so when it has more than
        # FULL_STATES, so has the learner's, and the 3,000 states exploring that would cost are saved.
        safe_home = explore(start, PRACTICE_MAX_STATES, play_safe_home=True, merge_symmetric=True)
        if safe_home is None:
            return Unplayable.TOO_LARGE, False
        if len(safe_home.states) > FULL_STATES:
            return safe_home, True
        graph = explore(start, FULL_STATES, play_safe_home=False, merge_symmetric=True)
        return (graph, False) if graph is not None else (safe_home, True)
    graph = explore(start, FULL_STATES, play_safe_home=False, merge_symmetric=True)
    if graph is not None:
        return graph, False
    safe_home = explore(start, PRACTICE_MAX_STATES, play_safe_home=True, merge_symmetric=True)
    return (safe_home, True) if safe_home is not None else (Unplayable.TOO_LARGE, False)


def page_plays(start: Position) -> bool:
    """Can a practice page play the puzzle that starts at `start` (its game stored whole, or with
    safe cards sent home and every loss proved)?  The library holds only such puzzles."""
    if cards_not_home(start) > PRACTICE_MAX_CARDS:
        return False
    graph, _auto_home = explore_for_page(start)
    return not isinstance(graph, Unplayable)


def losses_proved(graph: GameGraph) -> bool:
    """Does the solver prove, in the real game, every state `graph` holds lost?"""
    return all(graph.won(i) or solve(pos, nodes=MEASURE_VERDICT_NODES).status == Verdict.LOST
               for i, pos in enumerate(graph.states))


def _analyse(scenario_id: str, start: Position, key: KeyLine) -> PracticeAnalysis | Unplayable | None:
    if cards_not_home(start) > PRACTICE_MAX_CARDS:
        return None
    graph, auto_home = explore_for_page(start)
    if isinstance(graph, Unplayable):
        return graph
    winnable = [graph.won(i) for i in range(len(graph.states))]
    cross_check(graph, winnable, scenario_id)
    dests = destinations(start.profile)
    shared = Shared()
    refusals = [card_refusals(graph, i, dests, shared) for i in range(len(graph.states))]
    leads = [typed_leads(pos, shared) for pos in graph.states]
    cross_check_refusals(graph, refusals, leads, dests, scenario_id)
    # Pickability is read off a row, and rows are shared: asked once per row, not per card and state.
    pickable: dict[int, bool] = {}
    for row in {id(row): row for per_card in refusals for row in per_card}.values():
        pickable[id(row)] = can_pick_up(dests, row)
    free = [[pickable[id(row)] for row in per_card] for per_card in refusals]
    deal = [None if (why := refusal(pos, DEAL_MOVE)) is None else refusal_key(why) for pos in graph.states]
    return PracticeAnalysis(
        graph=graph,
        auto_home=auto_home,
        destinations=dests,
        winnable=winnable,
        line=graph.line_edges(),
        refusals=refusals,
        free=free,
        deal=deal,
        leads=leads,
        empty=empty_source_refusals(start, dests),
        nopile=no_such_pile_refusals(start, dests),
        losing=losing_reasons(graph, winnable, key),
    )


def losing_reasons(graph: GameGraph, winnable: list[bool],
                   key: KeyLine = KeyLine()) -> dict[tuple[int, int], Explanation]:
    """Why each move from a winnable state into a lost one loses: at a position of the key's line,
    the key's own explanation of that move (:func:`key_explanations`); elsewhere the one explanation
    of a wrong move (``explain_losing_move``, the theme's rule cited where its misconception plays
    the move, read along the state's shortest win)."""
    theme = find_theme(key.theme, graph.root.profile.id) if key.theme else None
    said = key_explanations(graph, key)
    out: dict[tuple[int, int], Explanation] = {}
    for i, edges in enumerate(graph.edges):
        if not winnable[i]:
            continue
        line: list[Move] | None = None
        for k, (move, j) in enumerate(edges):
            if winnable[j]:
                continue
            found = said.get((i, k))
            if found is None:
                if line is None:
                    line = winning_line(graph, i) if theme is not None else []
                found = explain_losing_move(graph.states[i], move, theme, line)
            out[(i, k)] = found
    return out


def winning_line(graph: GameGraph, start: int) -> list[Move]:
    """A shortest win from state `start`, every pile named as that stored state names it."""
    edges, i = [], start
    while graph.win_edge[i] >= 0:
        k = graph.win_edge[i]
        edges.append(k)
        i = graph.edges[i][k][1]
    return graph.real_line(edges, start)


def key_explanations(graph: GameGraph, key: KeyLine) -> dict[tuple[int, int], Explanation]:
    """The key's explanation of each wrong move it names, by (stored state, edge index) of that
    move at the position of the key's line where the key names it, its piles renamed into the
    stored state's order.  The key's line is followed through the graph while its positions are
    stored states (in a game whose safe cards go home by themselves, a key that plays them one by
    one meets the graph again once it has)."""
    wanted = {index for entry in key.refuted for index in entry.indices}
    if not wanted:
        return {}
    names = graph.root.profile.pile_names()
    at: dict[int, tuple[int, dict[str, Pile]]] = {}  # key position -> (stored state, its pile names)
    here, j = graph.root, 0
    for t in range(min(len(key.line), max(wanted)) + 1):
        mine, order = key_and_order(here, kinds_apart=True)
        stored, stored_order = key_and_order(graph.states[j], kinds_apart=True)
        if mine == stored:
            onto = piles_onto(order, stored_order)
            rename: dict[str, Pile] = {names[p]: names[onto[p]] for p in range(len(names))}
            at[t] = (j, rename)
            if t < len(key.line):
                k = _edge_of(graph, j, _renamed(key.line[t], rename))
                if k is None:
                    break
                j = graph.edges[j][k][1]
        if t < len(key.line):
            here = apply_unchecked(here, key.line[t])
    out: dict[tuple[int, int], Explanation] = {}
    for entry in key.refuted:
        for index in entry.indices:
            if index not in at:
                continue
            j, renamed = at[index]
            for move in entry.moves:
                k = _edge_of(graph, j, _renamed(move, renamed))
                if k is not None:
                    out.setdefault((j, k), entry.explanation.with_piles(renamed))
    return out


def _renamed(move: Move, rename: Mapping[str, Pile]) -> Move:
    return move if move.card is None else Move(move.card, rename.get(move.dest, move.dest))


def _edge_of(graph: GameGraph, state: int, move: Move) -> int | None:
    return next((k for k, (m, _j) in enumerate(graph.edges[state]) if m == move), None)


def cross_check(graph: GameGraph, winnable: list[bool], scenario_id: str) -> None:
    """The solver must agree with the graph on the start and on a spread of other states."""
    n = len(graph.states)
    step = max(1, n // CROSS_CHECKS)
    for i in sorted({0, *range(step, n, step)}):
        status = solve(graph.states[i], seconds=SOLVER_SECONDS).status
        if status != Verdict.UNKNOWN and (status == Verdict.WON) != winnable[i]:
            raise PracticeError(f"{scenario_id}: state {i}: the solver says {status}, the game graph says "
                                f"{Verdict.WON if winnable[i] else Verdict.LOST}")


# An off-board card's refusals are asked once per: the card, whether it is in the stock, and how
# many cards of its suit are home.
OffBoardKey = tuple[int, bool, int]
# Where an on-board card lies, as far as the rules read it: its pile's kind and index, whether it
# is the pile's bottom card, and what moving it from there would move: in a column, how many cards
# the tail from it holds when that tail is one run (None: it is no run), and whether it leads the
# run at the top (a whole-run game moves no part of it); in a stack, whether it is the top card
# (a foundation's top card: the foundation, by suit, and whether it is the only card there).  Not
# the cards themselves: a card buried under other cards is refused alike whatever they are.
Source = tuple[PileKind, int, bool, int | None, bool]
# An on-board card's refusal for one destination is asked once per: the card, where it lies, how
# many cards its suit has home, the destination (a column by whether it is the card's own, not by
# its number: no rule reads which column it is) and, for a column, the card on top of it.
OnBoardKey = tuple[int, Source, int, Pile | bool, int | None]


# An on-board card's whole row is asked once per: the card, where it lies, how many cards its suit
# has home, and every column's top card (None: empty): all that its :data:`OnBoardKey` per
# destination reads.
OnBoardRowKey = tuple[int, Source, int, tuple[int | None, ...]]
# The stock's size and the foundations: which cards are off the board, and each one's key.
OffBoardGroup = tuple[int, tuple[int, int, int, int]]


@dataclass
class Shared:
    """Refusal keys and rows met before, each held once: a 20,000-state game has about 19 million
    answers, which as tuples of their own would take gigabytes.  `off_board`: the rows of cards
    off the board (:func:`off_board_key`); `off_board_at`: those rows by card, per stock size and
    foundations (which say which cards are off the board, and each one's key); `on_board_rows`:
    whole rows of cards on the board (:data:`OnBoardRowKey`); `on_board`: their answers per
    :func:`on_board_key`, its card, source and count home numbered in `where`; `legal_at`: per row
    (by identity: rows are held once), the destinations it answers legal."""

    keys: dict[RefusalKey, RefusalKey] = field(default_factory=dict)
    rows: dict[RefusalRow, RefusalRow] = field(default_factory=dict)
    off_board: dict[OffBoardKey, RefusalRow] = field(default_factory=dict)
    off_board_at: dict[OffBoardGroup, dict[int, RefusalRow]] = field(default_factory=dict)
    where: dict[tuple[int, Source, int], int] = field(default_factory=dict)
    on_board: dict[tuple[int, Pile | bool, int | None], RefusalKey | None] = field(default_factory=dict)
    on_board_rows: dict[OnBoardRowKey, RefusalRow] = field(default_factory=dict)
    legal_at: dict[int, tuple[int, ...]] = field(default_factory=dict)
    leads: dict[LeadKey, Lead] = field(default_factory=dict)


def on_board(pos: Position) -> set[int]:
    """The cards a learner sees and can tap: every card of a pile, and each foundation's top."""
    cards: set[int] = {c for group in (pos.tableau, pos.reserve, pos.exposed) for pile in group for c in pile}
    cards.update(make_card(rank_at(pos.base, n - 1), suit) for suit, n in enumerate(pos.foundations) if n)
    return cards


# Enum members are slow to look up on the class, and every state's every card asks.
_COLUMN, _RESERVE, _EXPOSED = PileKind.COLUMN, PileKind.RESERVE, PileKind.EXPOSED
_FOUNDATION = PileKind.FOUNDATION


def sources(pos: Position) -> dict[int, Source]:
    """Every card a learner sees and can tap (:func:`on_board`), with where it lies
    (:data:`Source`)."""
    out: dict[int, Source] = {}
    table = links(pos.profile, pos.base)
    for index, pile in enumerate(pos.tableau):
        # The tail from a card is one run exactly when the card lies in the run at the top.
        lead = run_start_in(table, pile)
        height = len(pile)
        for depth, card in enumerate(pile):
            out[card] = (_COLUMN, index, depth == 0, height - depth if depth >= lead else None, depth == lead)
    for kind, group in ((_RESERVE, pos.reserve), (_EXPOSED, pos.exposed)):
        for index, pile in enumerate(group):
            top = len(pile) - 1
            for depth, card in enumerate(pile):
                out[card] = (kind, index, depth == 0, None, depth == top)
    for suit, n in enumerate(pos.foundations):
        if n:
            out[make_card(rank_at(pos.base, n - 1), suit)] = (_FOUNDATION, suit, n == 1, None, True)
    return out


def on_board_key(pos: Position, card: int, source: Source, dest: Pile) -> OnBoardKey:
    """What the rules read of a position to answer moving an on-board `card` to `dest`
    (``predicates.py``): where the card lies (:data:`Source`: what moving it would move, and
    whether its run goes on below), how many cards of its suit are home (the next one its
    foundation takes; whether it is a foundation's top card), and for a column destination
    whether it is the card's own, whether it is empty and its top card (a reserve pile or an
    exposed cell refuses every card whatever it holds).  The profile and the base are the game's.
    ``cross_check_refusals`` confirms it on a spread of states."""
    if not dest.is_column:
        return (card, source, pos.foundations[suit_of(card)], dest, None)
    # A column by whether the card lies in it, not by its number: the rules read whether a move
    # stays in its column, never which column it goes to, so a top card met in another column
    # (a run moved there) is answered again from the same key.
    pile = pos.tableau[dest.offset]
    own = source[0] is PileKind.COLUMN and source[1] == dest.offset
    return (card, source, pos.foundations[suit_of(card)], own, pile[-1] if pile else None)


def off_board_key(pos: Position, card: int) -> OffBoardKey:
    """What an off-board card's refusals are asked once per.  Such a card is refused before any rule
    reads a pile of the board: a card in the stock by the stock's rule (after the rules of the
    destination's kind), a card under its foundation's top by the foundations' rules, which read
    how many cards of its suit are home (``cross_check_refusals`` confirms it)."""
    return (card, card in pos.stock, pos.foundations[suit_of(card)])


def _answer(pos: Position, card: int, dest: Pile, legal: set[Move], shared: Shared) -> RefusalKey | None:
    """The engine's refusal of moving `card` to `dest` (None: legal, and then generated)."""
    move = Move(Card(card), dest)
    why = refusal(pos, move)
    if why is None and move not in legal:
        raise PracticeError(f"{move} is legal but not generated")
    key = None if why is None else page_refusal_key(why, pos, move)
    return key if key is None else shared.keys.setdefault(key, key)


def _row(pos: Position, card: int, dests: list[Pile], legal: set[Move], shared: Shared) -> RefusalRow:
    whole = tuple(_answer(pos, card, dest, legal, shared) for dest in dests)
    return shared.rows.setdefault(whole, whole)


def _on_board_row(pos: Position, card: int, source: Source, dests: list[Pile], legal: set[Move],
                  shared: Shared) -> RefusalRow:
    """An on-board card's refusals, each asked of the engine once per :func:`on_board_key` (a move
    answered legal is checked against the state's edges by :func:`card_refusals`).  The key's
    first three parts, the same for every destination, are numbered once, so that each
    destination's look-up hashes three small values rather than the card's pile."""
    where = (card, source, pos.foundations[suit_of(card)])
    number = shared.where.get(where)
    if number is None:
        number = shared.where[where] = len(shared.where)
    row: list[RefusalKey | None] = []
    asked = shared.on_board
    for dest in dests:
        _card, _source, _home, to, top = on_board_key(pos, card, source, dest)
        key = (number, to, top)
        why = asked[key] if key in asked else asked.setdefault(key, _answer(pos, card, dest, legal, shared))
        row.append(why)
    whole = tuple(row)
    return shared.rows.setdefault(whole, whole)


def card_refusals(graph: GameGraph, index: int, dests: list[Pile],
                  shared: Shared | None = None) -> list[RefusalRow]:
    """Per card, per destination: the engine's refusal of the move from state `index`, None if legal
    (equal keys and rows taken from `shared`; a card on the board asked once per
    :data:`OnBoardRowKey`, each destination once per :func:`on_board_key`; a card off the board
    once per its :func:`off_board_key`).  Every move a row answers legal must be one of the
    state's edges."""
    shared = shared or Shared()
    pos = graph.states[index]
    legal = {m for m, _j in graph.edges[index]}
    seen = sources(pos)
    tops = tuple(column[-1] if column else None for column in pos.tableau)
    # The stock's size and the foundations say which cards are off the board (every card is in the
    # stock, home, or on the board), so states sharing them share those cards' rows.
    off_board = shared.off_board_at.setdefault((len(pos.stock), pos.foundations), {})
    per_card = []
    for card in range(52):
        source = seen.get(card)
        row: RefusalRow | None
        if source is None:
            row = off_board.get(card)
            if row is None:
                key = off_board_key(pos, card)
                row = shared.off_board.get(key)
                if row is None:
                    row = shared.off_board[key] = _row(pos, card, dests, legal, shared)
                off_board[card] = row
        else:
            row_key = (card, source, pos.foundations[suit_of(card)], tops)
            row = shared.on_board_rows.get(row_key)
            if row is None:
                row = shared.on_board_rows[row_key] = _on_board_row(pos, card, source, dests, legal, shared)
        at = shared.legal_at.get(id(row))
        if at is None:
            at = shared.legal_at[id(row)] = tuple(d for d, why in enumerate(row) if why is None)
        for d in at:
            if Move(Card(card), dests[d]) not in legal:
                raise PracticeError(f"{Move(Card(card), dests[d])} is legal but not generated")
        per_card.append(row)
    return per_card


def cross_check_refusals(graph: GameGraph, refusals: list[list[RefusalRow]], leads: list[list[list[Lead]]],
                         dests: list[Pile], scenario_id: str, checks: int = REFUSAL_CROSS_CHECKS) -> None:
    """At the start, the last state and `checks` others spread between, the engine asked afresh
    about every card must say what the rows kept once per :func:`on_board_key` or
    :func:`off_board_key` say, and resolving typed ``tI>tJ`` what the leads kept once per
    :func:`lead_key` say."""
    n = len(graph.states)
    step = max(1, n // max(checks, 1))
    for i in sorted({0, *range(step, n, step), n - 1}):
        pos = graph.states[i]
        legal = {m for m, _j in graph.edges[i]}
        seen = on_board(pos)
        fresh = Shared()  # equal keys held once; no answer is taken from it (_row asks the engine)
        for card in range(52):
            if _row(pos, card, dests, legal, fresh) != refusals[i][card]:
                where = "on the board" if card in seen else "off the board"
                raise PracticeError(f"{scenario_id}: state {i}: the refusals of {card_name(Card(card))}, "
                                    f"{where}, depend on more than the positions that share them")
        if typed_leads(pos) != leads[i]:
            raise PracticeError(f"{scenario_id}: state {i}: typed moves between columns depend on more than "
                                "the positions that share them")


def can_pick_up(dests: list[Pile], row: RefusalRow) -> bool:
    """Free to pick up: the card has a legal move, or its destinations refuse it for different
    reasons (so the destination matters).  Otherwise one rule holds it where it is."""
    rules = {why[0] for dest, why in zip(dests, row, strict=True)
             if why is not None and (dest.is_foundation or dest.is_column)}
    return any(why is None for why in row) or len(rules) > 1


def typed_leads(pos: Position, shared: Shared | None = None) -> list[list[Lead]]:
    """For ``t5>t2`` typed input: the card engine.resolve picks from each column for each other
    column, asked once per :data:`LeadKey` (kept in `shared`)."""
    asked = shared.leads if shared is not None else {}
    out = []
    n = pos.profile.columns
    for i in range(n):
        row: list[Lead] = []
        for j in range(n):
            if i == j or not pos.tableau[i]:
                row.append(NoLead.NONE)
                continue
            key = lead_key(pos, i, j)
            found = asked.get(key)
            if found is None:
                found = asked[key] = _lead(pos, i, j)
            row.append(found)
        out.append(row)
    return out


# What resolving typed ``tI>tJ`` (two different columns) reads: the source column's number and
# cards, and the destination's top card (None: empty).  The moves it chooses among are the source's
# cards to the destination, which the rules answer from these (see :func:`on_board_key`: not from
# the destination's number).
LeadKey = tuple[int, Cards, int | None]


def lead_key(pos: Position, source: int, dest: int) -> LeadKey:
    column = pos.tableau[dest]
    return (source, pos.tableau[source], column[-1] if column else None)


def _lead(pos: Position, source: int, dest: int) -> Lead:
    try:
        got = resolve(pos, _typed_move(source, dest))
    except AmbiguousMoveError:
        return NoLead.AMBIGUOUS
    return got.card if got.card is not None else NoLead.AMBIGUOUS


@cache
def _typed_move(source: int, dest: int) -> MoveText:
    return parse_move_text(f"t{source + 1}>t{dest + 1}")


def with_pile_emptied(pos: Position, pile: Pile) -> Position:
    """`pos` with `pile` holding no card (not a real position: only for asking how the engine
    refuses typed input from an empty pile)."""

    def group(kind: PileKind) -> tuple[Cards, ...]:
        return tuple(() if kind is pile.kind and i == pile.offset else cards
                     for i, cards in enumerate(pos.piles_of(kind)))

    return Position(profile=pos.profile, base=pos.base, foundations=pos.foundations,
                    tableau=group(PileKind.COLUMN), reserve=group(PileKind.RESERVE),
                    exposed=group(PileKind.EXPOSED), stock=pos.stock)


def empty_source_refusals(start: Position, dests: list[Pile]) -> dict[str, list[RefusalKey]]:
    """For typed ``SRC>DEST`` from an empty pile: engine.resolve's refusal for each pile and destination."""
    out: dict[str, list[RefusalKey]] = {}
    for pile in dests[1:]:
        if pile.offset >= len(start.piles_of(pile.kind)):
            continue
        emptied = with_pile_emptied(start, pile)
        row = []
        for dest in dests:
            try:
                got = resolve(emptied, parse_move_text(f"{pile}>{dest}"))
            except IllegalMoveError as exc:
                row.append(refusal_key(exc.refusal))
                continue
            raise PracticeError(f"an empty {pile} should refuse, engine resolved {got}")
        out[pile] = row
    return out


def no_such_pile_refusals(start: Position, dests: list[Pile]) -> dict[str, RefusalKey]:
    """For typed input naming a pile this game lacks (t9, x3): the engine's refusal."""
    out = {}
    for kind in "trx":
        for number in range(1, 100):
            name = f"{kind}{number}"
            if name not in dests:
                why = refusal(start, Move(Card(0), Pile.parse(name)))
                if why is None:
                    raise PracticeError(f"the engine accepts a move to {name}")
                out[name] = refusal_key(why)
    return out
