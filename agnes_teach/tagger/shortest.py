"""The shortest answer of a puzzle: the fewest moves after which the rest goes home by itself.

A worksheet asks a pupil for the moves up to the point from which every card
left goes home by foundation moves alone (``engine.finishes_home``, the one
definition of "the rest goes home by itself"). The key must be a shortest such
answer, or a pupil with a better one looks wrong.

The search is breadth first over exact states (``keys.state_key`` with
``canonical=False``: a card in column 3 and the same card in column 4 are two
states, so two answers that differ only in the empty column they use are two
answers). Every legal move is an edge, foundation moves included, and nothing
is pruned: a foundation move that the run home would play anyway can still
shorten an answer, by freeing the card under it for a move that is not home.
Along the way it counts, for each state, the shortest move sequences that reach
it, so the number of shortest answers is exact (up to ``COUNT_CAP``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ..clock import check as check_clock
from ..engine import apply_unchecked, finishes_home, legal_moves
from ..keys import state_key
from ..limits import ANSWER_MAX_DEPTH, ANSWER_MAX_STATES
from ..moves import Move
from ..position import Position

COUNT_CAP = 1_000_000  # shortest answers are counted exactly up to this many
ENUMERATE = 64  # shortest answers looked at when choosing the key and the alternatives
ALTERNATIVES = 2  # other shortest answers a key shows


class TooLarge(Exception):
    """The position's answer is longer than ``ANSWER_MAX_DEPTH`` moves or its states more than
    ``ANSWER_MAX_STATES``."""


@dataclass(frozen=True)
class ShortestAnswers:
    """The length of a shortest answer, how many there are, the key and up to two others."""

    length: int
    count: int  # exact up to COUNT_CAP (then COUNT_CAP)
    key: tuple[Move, ...]
    alternatives: tuple[tuple[Move, ...], ...]


Layer = dict[bytes, tuple[Position, int]]  # state key -> (position, shortest move sequences reaching it)
Edges = dict[bytes, list[tuple[Move, bytes]]]  # state key -> (move, parent key) from the layer before


def _layers(pos: Position) -> tuple[list[Layer], list[Edges]]:
    """Breadth-first layers up to the first that holds a finishing state, and the edges into each."""
    start = state_key(pos, canonical=False)
    layers: list[Layer] = [{start: (pos, 1)}]
    parents: list[Edges] = [{}]
    seen = {start}
    while not any(finishes_home(p) for p, _ in layers[-1].values()):
        check_clock()
        if len(layers) > ANSWER_MAX_DEPTH or len(seen) > ANSWER_MAX_STATES:
            raise TooLarge(f"no answer within {ANSWER_MAX_DEPTH} moves and {ANSWER_MAX_STATES} states")
        layer: Layer = {}
        into: Edges = {}
        for key, (here, paths) in layers[-1].items():
            for move in legal_moves(here):
                after = apply_unchecked(here, move)
                child = state_key(after, canonical=False)
                if child in seen and child not in layer:
                    continue  # reached sooner: no shortest answer passes through it here
                got = layer.get(child)
                layer[child] = (after, min(COUNT_CAP, paths + (got[1] if got else 0)))
                into.setdefault(child, []).append((move, key))
                seen.add(child)
        if not layer:
            raise TooLarge("no line reaches a position from which the rest goes home by itself")
        layers.append(layer)
        parents.append(into)
    return layers, parents


def answer_length(pos: Position) -> int:
    """The length of a shortest answer from `pos` (raises TooLarge)."""
    return len(_layers(pos)[0]) - 1


def shortest_answers(pos: Position,
                     prefer: Callable[[tuple[Move, ...]], bool] | None = None) -> ShortestAnswers:
    """The shortest answers of `pos` (raises TooLarge). The key is the first of them in the engine's
    move order for which `prefer` holds (e.g. the line uses the theme's rule), else the first; the
    alternatives are the first others that are not the key with a pile renamed (a run into the
    other empty column), when there are such."""
    layers, parents = _layers(pos)
    depth = len(layers) - 1
    goals = sorted(k for k, (p, _) in layers[depth].items() if finishes_home(p))
    count = min(COUNT_CAP, sum(layers[depth][k][1] for k in goals))
    answers = list(_enumerate(pos, parents, goals, depth))
    key = next((a for a in answers if prefer is not None and prefer(a)), answers[0])
    seen_shapes = {_shape(pos, key)}
    others: list[tuple[Move, ...]] = []
    for answer in answers:
        shape = _shape(pos, answer)
        if answer != key and shape not in seen_shapes and len(others) < ALTERNATIVES:
            seen_shapes.add(shape)
            others.append(answer)
    return ShortestAnswers(depth, count, key, tuple(others))


def _enumerate(pos: Position, parents: list[Edges], goals: list[bytes],
               depth: int) -> Iterator[tuple[Move, ...]]:
    """Up to ``ENUMERATE`` shortest answers, in the engine's move order from the start."""
    # Forward edges restricted to shortest paths that end in a goal: walk back from the goals first.
    useful: list[set[bytes]] = [set() for _ in range(depth + 1)]
    useful[depth] = set(goals)
    for d in range(depth, 0, -1):
        for key in useful[d]:
            useful[d - 1].update(parent for _, parent in parents[d][key])
    found = 0

    def walk(d: int, here: Position, prefix: tuple[Move, ...]) -> Iterator[tuple[Move, ...]]:
        nonlocal found
        if d == depth:
            found += 1
            yield prefix
            return
        for move in legal_moves(here):
            if found >= ENUMERATE:
                return
            after = apply_unchecked(here, move)
            if state_key(after, canonical=False) in useful[d + 1]:
                yield from walk(d + 1, after, (*prefix, move))

    yield from walk(0, pos, ())


def _shape(pos: Position, answer: tuple[Move, ...]) -> tuple[bytes, ...]:
    """The answer's states up to symmetry: two answers of one shape differ only by a pile's name."""
    out = []
    for move in answer:
        pos = apply_unchecked(pos, move)
        out.append(state_key(pos))
    return tuple(out)


def is_answer(pos: Position, moves: tuple[Move, ...]) -> bool:
    """Whether legal `moves` from `pos` reach a position from which the rest goes home by itself."""
    for move in moves:
        pos = apply_unchecked(pos, move)
    return finishes_home(pos)
