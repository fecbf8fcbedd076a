"""The whole reachable game graph of a small position: the one explorer.

Agnes is a one-player game, so "won" means "a won state is reachable".  For the
small endgames the generator builds, the reachable space is a few thousand
states at most: exploring it once answers every question the generator asks
(which first moves keep the win, the shortest solution, how long a refuted
move lets the player wander before the dead end) without a solver call per
question.  The project's solver then proves the claims that are written down.
The practice pages explore the same way, move by move as the learner plays
(``play_safe_home=False``), and embed the graph.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from . import keys
from .board import home_safety, locate
from .board import is_safe_home as board_safe_home
from .cards import Card, rank_index, rank_of, suit_of
from .engine import apply_unchecked, home_moves, legal_moves
from .moves import Move
from .piles import PileKind
from .position import Position


def state_key(pos: Position) -> bytes:
    """The graph keeps exact states (its lines are real moves): the one key, every pile in place."""
    return keys.state_key(pos, canonical=False)


def is_safe_home(pos: Position, card: Card) -> bool:
    """Can `card` go to its foundation with no possible harm?  The solver's test (board.is_safe_home).

    Asked with returns barred: where cards may come back from the foundations,
    the graph explores the game in which a card played home this way stays
    there (otherwise every card may wander back and forth, and no endgame's
    graph stays small).  A win in that game is a win in the real one; a loss
    is only a claim, and every claim a puzzle file makes is proved by the
    project's solver on the full rules (``core._proved``).
    """
    return board_safe_home(home_safety(pos.profile, pos.base), pos.foundations, pos.deals_done, card,
                           returns_barred=True)


def is_home(pos: Position, card: Card) -> bool:
    """Is `card` on its foundation?"""
    return pos.is_home(card)


def _lower_ranks_home(pos: Position, card: Card) -> bool:
    """Is every card of a lower rank than `card` (in the foundations' order) home?"""
    return min(pos.foundations) >= rank_index(pos.base, rank_of(card))


def autoplay(pos: Position, lowest_first: bool = False) -> tuple[Position, tuple[Move, ...]]:
    """Play safe foundation moves until none is left (see :func:`is_safe_home`); `lowest_first`:
    only those of cards whose lower ranks are all home."""
    played: list[Move] = []
    progress = True
    while progress and not pos.is_won():
        progress = False
        # The moves home alone, in legal_moves's order: the explorer asks this after every move.
        for move in home_moves(pos):
            if move.card is not None and is_safe_home(pos, move.card) \
                    and (not lowest_first or _lower_ranks_home(pos, move.card)):
                pos = apply_unchecked(pos, move)
                played.append(move)
                progress = True
                break
    return pos, tuple(played)


def autoplay_after(here: Position, move: Move, after: Position,
                   lowest_first: bool = False) -> tuple[Position, tuple[Move, ...]]:
    """``autoplay(after, lowest_first)`` where `after` is `move` played (or, by a believer, imagined)
    at `here`, a state autoplay has settled with the same `lowest_first`: the explorers ask it of
    every move of every state.  A move between piles changes neither the foundations nor the
    deals, so which cards may go home safely is unchanged; only the card it uncovers and the one
    now on top where it went can have become such a move home (a card may play home from a column
    and not from a reserve pile).  Unless one of them is next home, `after` is settled already
    (``tests/test_plans.py`` holds the two equal)."""
    if move.card is None or move.dest.is_foundation:
        return autoplay(after, lowest_first)
    place = locate(here, move.card)
    if place.kind is PileKind.FOUNDATION or place.kind is PileKind.STOCK:
        return autoplay(after, lowest_first)
    for pile in (after.piles_of(place.kind)[place.index], after.pile(move.dest)):
        if pile and after.foundations[suit_of(pile[-1])] == rank_index(after.base, rank_of(pile[-1])):
            return autoplay(after, lowest_first)
    return after, ()


@dataclass
class GameGraph:
    """Every state reachable from ``states[0]``, its moves, and its distance to a win.

    Every state but the root has had its safe foundation moves played (see
    :func:`autoplay`); an edge records them, so a line expands to real moves.
    """

    states: list[Position]
    edges: list[list[tuple[Move, int]]]  # per state: (legal move, index of the state it leads to)
    win_distance: list[int | None]  # fewest moves to a won state; None: lost
    auto: dict[tuple[int, Move], tuple[Move, ...]]  # safe moves played after a move
    win_edge: list[int]  # per state: the edge (index in its edges) of a shortest win; -1: none or won
    # Graphs explored with merge_symmetric: per (state, edge index) whose target was stored with its
    # piles in another order, where each pile of the position the move makes lies in the stored one
    # (piles by place in [*tableau, *reserve, *exposed]); an edge not listed keeps every pile in place.
    relabel: dict[tuple[int, int], tuple[int, ...]] = field(default_factory=dict)

    def real_line(self, edges: list[int], start: int = 0) -> list[Move]:
        """The moves a player makes from state `start` (the root) along a path of edge indices, every
        pile under the name it has in the player's game (stored states may hold their piles in
        another order; the player's names are those of state `start`), with the safe moves played
        after each."""
        names = self.root.profile.pile_names()
        view = tuple(range(len(names)))  # where each of the player's piles lies in the stored state
        out: list[Move] = []
        i = start
        for k in edges:
            move, j = self.edges[i][k]
            if move.card is not None and move.dest in names:
                move = Move(move.card, names[view.index(names.index(move.dest))])
            out.append(move)
            out.extend(self.auto.get((i, self.edges[i][k][0]), ()))
            to = self.relabel.get((i, k))
            if to is not None:
                view = tuple(to[place] for place in view)
            i = j
        return out

    def expand(self, start: int, moves: list[Move]) -> list[Move]:
        """The real moves of a line of graph moves from state `start` (a graph explored without
        merge_symmetric: :meth:`real_line` names the piles of a merged one)."""
        out: list[Move] = []
        i = start
        for move in moves:
            out.append(move)
            out.extend(self.auto.get((i, move), ()))
            i = self.child(i, move)
        return out

    @property
    def root(self) -> Position:
        return self.states[0]

    def path_of(self, line: list[Move]) -> list[Move]:
        """The graph moves of a real line from the root (the inverse of :meth:`expand`)."""
        out: list[Move] = []
        i, k = 0, 0
        while k < len(line):
            move = line[k]
            out.append(move)
            k += 1 + len(self.auto.get((i, move), ()))
            i = self.child(i, move)
        return out

    def won(self, index: int = 0) -> bool:
        return self.win_distance[index] is not None

    def child(self, index: int, move: Move) -> int:
        for m, j in self.edges[index]:
            if m == move:
                return j
        raise KeyError(str(move))

    def winning_moves(self, index: int = 0) -> list[Move]:
        return [m for m, j in self.edges[index] if self.win_distance[j] is not None]

    def losing_moves(self, index: int = 0) -> list[Move]:
        return [m for m, j in self.edges[index] if self.win_distance[j] is None]

    def depth_from(self, index: int) -> int:
        """BFS eccentricity of a state: the most moves a shortest path from it ever needs.

        For a lost state this measures how far the refutation reaches: how many
        moves a player can make before every line has visibly run dry.
        """
        dist = {index: 0}
        queue = deque([index])
        far = 0
        while queue:
            i = queue.popleft()
            for _, j in self.edges[i]:
                if j not in dist:
                    dist[j] = dist[i] + 1
                    far = max(far, dist[j])
                    queue.append(j)
        return far

    def line_edges(self) -> list[int]:
        """Per state, the edge (index in its edges) that starts its shortest line.

        For a winnable state the line is a shortest win; for a lost one, a
        shortest way into a dead end (no move at all), or -1 if every line
        only goes round in circles.
        """
        n = len(self.states)
        lost = [d is None for d in self.win_distance]
        dead = [i for i in range(n) if not self.edges[i] and lost[i]]
        _, to_dead = backward_search(parents_of(self.edges), dead, lost)
        return [self.win_edge[i] if not lost[i] else to_dead[i] for i in range(n)]


def parents_of(edges: list[list[tuple[Move, int]]]) -> list[list[tuple[int, int]]]:
    """Per state, the (state, edge index) pairs that lead to it, in the order of the states' edges."""
    parents: list[list[tuple[int, int]]] = [[] for _ in edges]
    for a, out in enumerate(edges):
        for k, (_move, b) in enumerate(out):
            parents[b].append((a, k))
    return parents


def backward_search(parents: list[list[tuple[int, int]]], targets: list[int],
                    allowed: list[bool] | None = None) -> tuple[list[int | None], list[int]]:
    """Breadth first backwards from `targets`, through `allowed` states only (all if None).

    Per state: the fewest moves to a target (None: none is reached), and the
    edge that starts such a line (-1 for a target or a state not reached).
    """
    dist: list[int | None] = [None] * len(parents)
    via = [-1] * len(parents)
    queue: deque[int] = deque(targets)
    for t in targets:
        dist[t] = 0
    while queue:
        b = queue.popleft()
        d = dist[b]
        assert d is not None
        for a, k in parents[b]:
            if dist[a] is None and (allowed is None or allowed[a]):
                dist[a] = d + 1
                via[a] = k
                queue.append(a)
    return dist, via


def explore(pos: Position, max_states: int, play_safe_home: bool = True,
            merge_symmetric: bool = False, learner_returns: bool = False) -> GameGraph | None:
    """The reachable graph of `pos`, or None when it has more than `max_states` states.

    With `play_safe_home` (the generator's game), safe foundation moves are
    played after every move (:func:`autoplay`) and a won state ends the game.
    Without (the practice page, where the learner makes every move), each
    legal move of the engine is one edge, a won state's too.  With
    `learner_returns` (the page, where cards may come back from the
    foundations): a card goes home by itself only once every card of a
    lower rank is home (a safe card's guests could otherwise come back onto
    it), and a won state keeps its moves, as the learner may still make them.

    With `merge_symmetric` (the practice page), states that differ only in the
    order of interchangeable piles are one state: the canonical key
    (``keys.key_and_order``, reserve piles and exposed cells kept apart) finds
    them, and an edge into a state first stored with its piles in another order
    records where each pile went (``GameGraph.relabel``), so the page can go on
    showing every card in the pile the player put it in.
    """
    key_of = _keyer(merge_symmetric)
    root_key, root_order = key_of(pos)
    index: dict[bytes, int] = {root_key: 0}
    orders = [root_order]  # per stored state: its piles in key order (merge_symmetric only)
    states = [pos]
    edges: list[list[tuple[Move, int]]] = []
    auto: dict[tuple[int, Move], tuple[Move, ...]] = {}
    relabel: dict[tuple[int, int], tuple[int, ...]] = {}
    i = 0
    while i < len(states):
        here = states[i]
        out: list[tuple[Move, int]] = []
        if not (play_safe_home and not learner_returns and here.is_won()):
            for move in legal_moves(here):
                nxt = apply_unchecked(here, move)
                if play_safe_home:
                    # Every stored state but the root has been settled so.
                    nxt, played = (autoplay_after(here, move, nxt, learner_returns) if i
                                   else autoplay(nxt, lowest_first=learner_returns))
                    if played:
                        auto[(i, move)] = played
                key, order = key_of(nxt)
                j = index.get(key)
                if j is None:
                    if len(states) >= max_states:
                        return None
                    j = len(states)
                    index[key] = j
                    states.append(nxt)
                    orders.append(order)
                elif order is not None and order != orders[j]:
                    relabel[(i, len(out))] = piles_onto(order, orders[j])
                out.append((move, j))
        edges.append(out)
        i += 1
    # Backward BFS from the won states gives each state's distance to a win.
    won = [k for k, state in enumerate(states) if state.is_won()]
    dist, via = backward_search(parents_of(edges), won)
    return GameGraph(states, edges, dist, auto, via, relabel)


def _keyer(merge_symmetric: bool) -> Callable[[Position], tuple[bytes, tuple[int, ...] | None]]:
    """How :func:`explore` keys a state: exactly, or up to symmetry with the piles in key order.
    A state met again by another order of the same moves gets its canonical key back by its exact
    key (a join of its piles), far quicker to make than the canonical key's sorting."""
    canonical: dict[bytes, tuple[bytes, tuple[int, ...]]] = {}

    def key_of(state: Position) -> tuple[bytes, tuple[int, ...] | None]:
        exact = state_key(state)
        if not merge_symmetric:
            return exact, None
        found = canonical.get(exact)
        if found is None:
            found = canonical[exact] = keys.key_and_order(state, kinds_apart=True)
        return found

    return key_of


def piles_onto(order: tuple[int, ...], stored: tuple[int, ...] | None) -> tuple[int, ...]:
    """Where each pile of a state lies in the stored state of the same key: the piles at the same
    place in the two key orders hold the same cards."""
    assert stored is not None
    out = [0] * len(order)
    for mine, theirs in zip(order, stored, strict=True):
        out[mine] = theirs
    return tuple(out)
