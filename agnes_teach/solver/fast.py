"""The solver's fast state: small ints in mutable lists, changed in place by do/undo.

The engine (:mod:`agnes_teach.engine`) is the single source of truth for the
rules; this module mirrors it for speed and is tested against it (the move
generator yields exactly ``engine.legal_moves``; do/undo restores the state).
The profile is read only through its parameters.

A move is a tuple ``(kind, source, depth, dest, card, count)``:

* ``TAIL`` - the tail ``column[depth:]`` of column ``source`` (``count`` cards,
  led by ``card``) to column ``dest``, or its top card to the foundation
  (``dest == HOME``);
* ``STACK`` - the top ``card`` of stack ``source`` (reserve piles first, then
  exposed cells) to column ``dest`` or home;
* ``RETURN`` - the top ``card`` of the foundation of suit ``source`` back onto
  column ``dest`` (profiles with ``foundation_return`` only);
* ``DEAL`` - the next deal of the stock.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..board import (
    DEAL,
    DEAL_GEN,
    HOME,
    RETURN,
    STACK,
    TAIL,
    GenMove,
    builds,
    generate_moves,
    home_safety,
    move_tables,
    run_start_in,
)
from ..cards import Card
from ..keys import NO_CARD, future_part
from ..moves import DEAL_MOVE, Move
from ..piles import COLUMNS, FOUNDATION, Pile
from ..position import Position

COLUMN_TARGET = 100  # in a deal's target list: 100 + j is column j (Agnes Sorel); below, a stack index

FastMove = GenMove
DEAL_FAST: FastMove = DEAL_GEN


class Rules:
    """Everything about a profile and a base rank the search needs, precomputed per card."""

    def __init__(self, pos: Position) -> None:
        p = pos.profile
        self.profile = p
        self.base = pos.base
        self.columns = p.columns
        self.wrap = p.tableau_wrap
        # What fits where: the one move generator's tables (board.move_tables), shared with the engine.
        self.tables = t = move_tables(p, pos.base)
        self.whole_runs_only = t.whole_runs_only
        self.empty_rank = p.empty_rank(pos.base)
        # Any card alone (not a run) may go into an empty column.
        self.empty_single_only = t.empty_single_only
        # Stacks: reserve piles r1.. then exposed cells x1..
        self.stack_names = [Pile.reserve(i + 1) for i in range(p.reserve_piles)] + [
            Pile.exposed(i + 1) for i in range(p.exposed_cells)
        ]
        self.reserves = p.reserve_piles
        self.stack_home = t.stack_home
        self.deals = [
            [COLUMN_TARGET + name.offset if name.is_column else self.stack_names.index(name)
             for name in deal]
            for deal in p.stock_deals
        ]
        self.deals_onto_columns = p.deals_onto_columns
        # After d deals: the stacks a later deal can still land on, and the others; the same
        # for columns (a column a later deal lands on is not interchangeable with another).
        self.stack_groups: list[tuple[list[int], list[int]]] = []
        self.column_groups: list[tuple[list[int], list[int]]] = []
        for d in range(len(self.deals) + 1):
            live = {k for deal in self.deals[d:] for k in deal}
            self.stack_groups.append(
                ([k for k in range(len(self.stack_names)) if k in live],
                 [k for k in range(len(self.stack_names)) if k not in live])
            )
            self.column_groups.append(
                ([j for j in range(p.columns) if COLUMN_TARGET + j in live],
                 [j for j in range(p.columns) if COLUMN_TARGET + j not in live])
            )
        # Free stacks are interchangeable only with stacks of the same permission to play home.
        self.stack_tag = [bytes((200 + home,)) for home in self.stack_home]
        self.rel, self.suit, self.card_at = t.rel, t.suit, t.card_at
        # on[c * 52 + t]: does c build on t; link[c * 52 + t]: does c on t continue a run (the
        # engine's tables, so both decide alike).
        self.on = bytearray(builds(p, pos.base))
        self.safety = home_safety(p, pos.base)  # what the one safe-home test reads
        # guests[t]: the cards that may be laid on t in the tableau (the profile's, made once per
        # game and shared; a misconception's game replaces the whole table).
        self.guests: Sequence[Sequence[int]] = self.safety.guests


    # A misconception's game (tagger/players.py) narrows these four; the move generator
    # reads them from ``tables``, so a change goes there.
    @property
    def hosts(self) -> Sequence[Sequence[int]]:
        """[c]: the cards c may be laid on."""
        return self.tables.hosts

    @hosts.setter
    def hosts(self, value: Sequence[Sequence[int]]) -> None:
        self.tables = replace(self.tables, hosts=tuple(tuple(h) for h in value))

    @property
    def link(self) -> bytes:
        """[c * 52 + below]: does c lying on below continue a run that moves together."""
        return self.tables.link

    @link.setter
    def link(self, value: bytes) -> None:
        self.tables = replace(self.tables, link=bytes(value))

    @property
    def is_empty_rank(self) -> Sequence[bool]:
        """[c]: may c (or a run it leads) go into an empty column."""
        return self.tables.empty_ok

    @is_empty_rank.setter
    def is_empty_rank(self, value: Sequence[bool]) -> None:
        self.tables = replace(self.tables, empty_ok=tuple(value))

    @property
    def foundation_return(self) -> bool:
        """May a foundation's top card come back to a column?"""
        return self.tables.foundation_return

    @foundation_return.setter
    def foundation_return(self, value: bool) -> None:
        self.tables = replace(self.tables, foundation_return=value)


class FastState:
    """One mutable game state.  ``apply``/``undo`` change it in place."""

    __slots__ = ("rules", "cols", "stacks", "found", "stock", "deals_done", "home", "future")

    def __init__(self, pos: Position, rules: Rules | None = None) -> None:
        self.rules = rules or Rules(pos)
        # Plain ints (not the Card NewType): the hot loops only compare and index.
        self.cols: list[list[int]] = [[int(c) for c in col] for col in pos.tableau]
        self.stacks: list[list[int]] = [[int(c) for c in p] for p in (*pos.reserve, *pos.exposed)]
        self.found = list(pos.foundations)
        self.stock: tuple[int, ...] = tuple(int(c) for c in pos.stock)
        self.deals_done = pos.deals_done
        self.home = sum(self.found)
        self.future = self._futures()

    def _futures(self) -> list[tuple[list[bytes], list[bytes]]]:
        """[d]: after d deals, each column's and each stack's part of the key after its cards
        (``keys.futures``: per deal to come, the card it drops there or NO_CARD)."""
        r = self.rules
        out: list[tuple[list[bytes], list[bytes]]] = [([], [])] * self.deals_done
        for d in range(self.deals_done, len(r.deals) + 1):
            cols: list[list[int] | None] = [None] * len(self.cols)
            stacks: list[list[int] | None] = [None] * len(self.stacks)
            rest = self.stock[sum(len(t) for t in r.deals[self.deals_done:d]):]
            coming = r.deals[d:]
            for e, targets in enumerate(coming):
                for card, k in zip(rest, targets, strict=False):
                    group, i = (cols, k - COLUMN_TARGET) if k >= COLUMN_TARGET else (stacks, k)
                    slot = group[i]
                    if slot is None:
                        slot = group[i] = [NO_CARD] * len(coming)
                    slot[e] = card
                rest = rest[len(targets):]
            out.append(([future_part(c) for c in cols], [future_part(p) for p in stacks]))
        return out

    def copy(self) -> FastState:
        other = object.__new__(FastState)
        other.rules = self.rules
        other.cols = [list(c) for c in self.cols]
        other.stacks = [list(p) for p in self.stacks]
        other.found = list(self.found)
        other.stock = self.stock
        other.deals_done = self.deals_done
        other.home = self.home
        other.future = self.future
        return other

    def snapshot(self) -> tuple[object, ...]:
        """Everything, exactly (tests compare snapshots around do/undo)."""
        return (
            tuple(tuple(c) for c in self.cols),
            tuple(tuple(p) for p in self.stacks),
            tuple(self.found),
            self.deals_done,
            self.home,
        )

    def stock_left(self) -> int:
        return sum(len(d) for d in self.rules.deals[self.deals_done:])

    def columns_fixed(self) -> bool:
        """Does a deal still to come land on columns (then they are not interchangeable)?"""
        return bool(self.rules.column_groups[self.deals_done][0])

    # ------------------------------------------------------------ keys

    def key(self, canonical: bool) -> bytes:
        """The transposition-table key: ``keys.state_key`` of this state, byte for byte.

        The definition sorts the columns and the stacks of each permission to play home, each
        pile with the stock cards it will still receive (its ``future`` part, precomputed per
        deal); the tests check the two agree on random positions of every profile.
        """
        stacks = self.stacks
        if not canonical:
            return (
                b"\xfe".join(map(bytes, self.cols)) + b"\xfd" + b"\xfe".join(map(bytes, stacks))
                + bytes((self.deals_done,))
            )
        col_future, stack_future = self.future[self.deals_done]
        tag = self.rules.stack_tag
        return (
            b"\xfe".join(sorted([bytes(c) + f for c, f in zip(self.cols, col_future, strict=True)]))
            + b"\xfd"
            + b"\xfe".join(sorted([tag[k] + bytes(p) + stack_future[k] for k, p in enumerate(stacks)]))
            + bytes((self.deals_done,))
        )

    # ------------------------------------------------------- generation

    def run_start(self, col: list[int]) -> int:
        return run_start_in(self.rules.link, col)

    def moves(self) -> list[FastMove]:
        """Every legal move: the one move generator (``board.generate_moves``) on this state."""
        r = self.rules
        return generate_moves(r.tables, self.cols, self.stacks, self.found, self.deals_done < len(r.deals))

    # --------------------------------------------------------- do/undo

    def apply(self, m: FastMove) -> None:
        kind, src, depth, dest, card, count = m
        if kind == TAIL:
            col = self.cols[src]
            if dest == HOME:
                col.pop()
                self.found[self.rules.suit[card]] += 1
                self.home += 1
            else:
                self.cols[dest].extend(col[depth:])
                del col[depth:]
        elif kind == STACK:
            self.stacks[src].pop()
            if dest == HOME:
                self.found[self.rules.suit[card]] += 1
                self.home += 1
            else:
                self.cols[dest].append(card)
        elif kind == RETURN:
            self.found[src] -= 1
            self.home -= 1
            self.cols[dest].append(card)
        else:
            start = self.stock_left()
            targets = self.rules.deals[self.deals_done]
            stacks, cols = self.stacks, self.cols
            for offset, k in enumerate(targets):
                card = self.stock[len(self.stock) - start + offset]
                if k >= COLUMN_TARGET:
                    cols[k - COLUMN_TARGET].append(card)
                else:
                    stacks[k].append(card)
            self.deals_done += 1

    def undo(self, m: FastMove) -> None:
        kind, src, depth, dest, card, count = m
        if kind == TAIL:
            col = self.cols[src]
            if dest == HOME:
                col.append(card)
                self.found[self.rules.suit[card]] -= 1
                self.home -= 1
            else:
                target = self.cols[dest]
                col.extend(target[-count:])
                del target[-count:]
        elif kind == STACK:
            if dest == HOME:
                self.found[self.rules.suit[card]] -= 1
                self.home -= 1
            else:
                self.cols[dest].pop()
            self.stacks[src].append(card)
        elif kind == RETURN:
            self.cols[dest].pop()
            self.found[src] += 1
            self.home += 1
        else:
            self.deals_done -= 1
            for k in self.rules.deals[self.deals_done]:
                if k >= COLUMN_TARGET:
                    self.cols[k - COLUMN_TARGET].pop()
                else:
                    self.stacks[k].pop()

    # ------------------------------------------------------ conversion

    def engine_move(self, m: FastMove) -> Move:
        """The engine's form of a fast move (card and destination name)."""
        return engine_move(m)


def engine_move(m: FastMove) -> Move:
    """The engine's form of a fast move (card and destination name): it reads the move alone, so a
    search's path can be turned into engine moves after the search is gone."""
    if m[0] == DEAL:
        return DEAL_MOVE
    return Move(Card(m[4]), FOUNDATION if m[3] == HOME else COLUMNS[m[3]])
