"""The exact search: iterative depth-first search with a transposition table.

Soundness
=========

The search explores the graph of states reachable from the root and stops at
the first won state.  A transposition table holds every state entered; a
state met again is not expanded a second time (it is on the current path, or
all its successors were already explored).  When the last frame is popped,
every state reachable in the explored graph has been expanded and none is
won, so the root is lost.  "won" is only ever reported with the path that
reaches the win.

With ``prune=True`` the graph is reduced in six ways; each keeps the answer
(the arguments below are for these rules - circular ranks, an empty column
taking the rank below the base, reserve piles nobody builds on - not borrowed
from Klondike).  The combined argument is an induction on the length of the
shortest win: from every entered state that has a win, some allowed move
leads to an entered state with a shorter one.

1. **Canonical keys** (:meth:`FastState.key`, the bytes of the one key
   :func:`agnes_teach.keys.state_key`): columns are interchangeable, and so
   are stacks (reserve piles, exposed cells) that share the same permission
   to play home, each pile together with the cards the deals still to come
   will drop on it (within one game those differ from pile to pile, so a pile
   a deal will still reach keeps its place).  States equal up to such a
   permutation have the same future.

2. **Safe moves home** (:func:`safe_home_move`, asking the one test
   :func:`agnes_teach.board.is_safe_home`, which the generator asks too).  A card ``c`` that may go home
   is played home as the only move of the state when *every card that could
   ever be laid on c in the tableau is already home*, and foundations are
   final (no ``foundation_return``).  The cards that may lie on ``c`` are the
   two cards of the other colour one rank below ``c`` - and ranks are
   circular: with base 5, the 4s (the last cards to go home) may lie on a 5
   when tableau ranks wrap or the ranks are adjacent, so a *base-rank* card is
   safe only once both foundations of the other colour are complete.  This is
   why Klondike's "aces are always safe" does not carry over.

   Why it is safe: take any winning line from the state S, and the state S'
   that differs from S only in that ``c`` is home.  Play the same moves from
   S', leaving out every move of ``c``.  Nothing can be laid on ``c`` (its
   guests are home and never come back), so ``c`` is always the top of its
   pile, and every move that does not move ``c`` finds the same tops, the same
   empty columns (a column that held only ``c`` is merely empty earlier) and
   the same foundations, except that the foundation of ``c``'s suit is one
   card ahead - and in S the next card of that suit to go home was ``c``
   itself, which is left out.  Deals land on the same piles.  So the line
   stays legal, stays in step with the original up to the absence of ``c``,
   and ends with all cards home; it is also one move shorter, which makes the
   argument an induction on the length of the shortest win.

   The rule has a second form: a card ``g`` that may lie on ``c`` and is not
   home does not spoil the safety of ``c`` when ``g`` is itself the next card
   of its foundation and every card that may lie on ``g`` is home, in a
   profile where every pile may play home.  Then ``g`` can only ever be laid
   on ``c`` as a lone card from the top of a pile, and at that moment it could
   go home instead (its foundation cannot have moved past it): the winning
   line is changed to play ``g`` home there and leave out its later moves.
   With circular ranks the "cards that may lie on g" of a base card are
   cards of the suit of ``c`` itself one lap round, which are never home
   before ``c`` - the generic test handles that without a special case.

3. **Pointless moves**: a whole column into an empty column (the result is the
   same state up to column order), and a move into an empty column when an
   earlier empty column takes the same thing (symmetric).

4. **Dead ends** (:func:`is_dead` and :func:`can_never_finish`), when
   foundations are final, checked after moves home, deals and run moves that
   uncover a card (skipping a check only costs pruning, never an answer).
   A card is *stuck* when it can never again go onto the tableau: it is not
   of the empty-column rank, and every card it may lie on is home.  A stuck
   card can leave its pile only by going home.  If a card ``y`` lies under a
   stuck card ``x`` and (in a column) every card between them is stuck too,
   then ``y`` cannot be uncovered before ``x`` goes home.  (In a reserve pile
   or an exposed cell only the top card ever moves, so only ``x`` itself
   matters; and there a card is stuck also when the cards it could lie on
   are home or lie under it in the same pile, since those cannot become tops
   while it is there.)  These precedences "x home before y", with each
   suit's own order, must admit one order of all the cards going home;
   :func:`is_dead` plays that relaxed game greedily, which finds an order
   whenever one exists, and reports the position lost when there is none.
   :func:`can_never_finish` is a second, more generous relaxation that also
   reasons about which cards can ever become tops (see its docstring).

5. **Moves that lead nowhere**.  A move of a run from column ``c`` to
   another column (leaving ``P`` on top of ``c``, or ``c`` empty) only matters
   through what it lets happen at ``c``.  Take a shortest win and, in it, a
   run move ``M`` from ``c``; let ``U`` be the first later move that *uses*
   ``c``: puts a card other than the moved run's lead onto ``c``, plays ``P``
   home, or - when the run's lead did not build on ``P`` - moves a run off
   ``c``.  Every move between ``M`` and ``U`` can be played before ``M``
   instead: moves elsewhere do not care; moves onto, off or home from the
   moved run find the same cards on it wherever it lies; a move that carries
   the card the run went onto (with the run on it) is replaced by the same
   move without the run, ``M`` following; moving the run again is replaced by
   one move straight from ``c`` (a shorter win).  When the lead built on
   ``P``, moving ``P`` (with the run) is handled the same way, so it is not a
   use.  Delaying every such ``M`` to just before its ``U`` gives a win of no
   greater length in which each run move is followed by its use - or by one
   other run move (from ``c2``) and then a move that uses both ``c`` and
   ``c2`` (one move can use two columns: its source and its destination).
   So after a run move from ``c`` the search enters the new state only if a
   legal move uses ``c``, or one more run move off a column ``c2`` could make
   possible a move between ``c`` and ``c2`` that uses both: a card that may go
   onto ``c``'s top (or of the empty-column rank while ``c`` is empty) leads a
   movable tail of ``c2`` once one run has left ``c2`` - it lies in ``c2``'s
   top run or in the run right under it -, or (when the lead did not build
   on ``P``) a card of ``c``'s top run may go onto a card that is a top of
   ``c2`` once one run has left it, or is of the empty-column rank while
   ``c2`` is one run that can leave whole (:func:`may_use_after_one_more`).
   A card buried deeper, or lying in a reserve pile (a move from there uses
   no column but its destination), cannot be such a move.  A state turned away is
   not recorded as seen, so reaching it by another move still explores it.

6. **When to deal** (``deal_timing``; not for profiles that deal onto
   columns).  A deal only lays cards on the piles it covers, so it commutes
   with every move that does not take a card from one of those piles: moves
   between columns, moves home from a column, moves from other stacks.
   Given a win, swap each deal with the move before it while that move
   commutes with it; the line stays legal, keeps its length and its end, and
   afterwards every deal comes first, right after the previous deal, or
   right after a move that took a card from a pile the deal covers.  Call
   such a win *deal-normal*.  So the search allows ``deal`` only in a state
   that has the *deal permission*: the root, a state just reached by a deal
   or by a move from a pile the next deal covers, a state where every deal
   is done (nothing to allow), and - because a forced move home (point 2)
   commutes with a deal and is played in place of whatever the win did - a
   state reached by a forced move home from a state that had it.  And when
   the next deal covers only empty piles (or none: Agnes Bernauer's last two
   cards), it commutes with every move, so it is played as the only move.

   The permission belongs to the visit, not to the state, so the table keeps
   it beside each state: a state stored with it covers a later visit without
   it; a state stored without it and reached again with it is expanded once
   more with what the permission adds (the deal, or its forced move home
   again, now carrying the permission).  A refuted dead end is stored with it.

   It combines with the other points: deleting a forced card's moves from a
   deal-normal win (point 2) can leave a deal after a move that commutes
   with it; swapping it earlier again stops at the same kinds of moves, or at
   the start, which it reaches only if the deleted move was the forced card
   leaving a pile the deal covers - then the forced move itself gives the
   permission - or if the state had the permission, which the forced move
   passes on.  Point 5 delays run moves between columns, which commute with
   every deal, so the delays and the swaps move deals and run moves past each
   other without undoing one another; point 5's test only asks that some
   legal move use the column, and a move that was legal after the deal is
   legal before it.  Points 1 and 3 replace a move by an equivalent one of
   the same kind (the same permission follows).

**Shared losses.**  The searches of one :func:`~agnes_teach.solver.solve`
share a table of states proved lost (with the deal permission, or without
it, which covers only visits without it); a search skips a state the table
covers.  A search proves a state lost when every allowed move from it is
refuted and nothing it depends on is still open.  The states it stores form
a graph with cycles (runs travel back and forth), so a frame that is done
may depend on a state still on the path; Tarjan's algorithm for strongly
connected components sorts this out: each frame carries its preorder number
and the least one of a state still open that it reaches (through a move, or
through a table hit on a state not yet proved), and when a frame is done
without reaching anything opened before it, it and every state stored since
and not yet proved form components with no way out but to refuted states,
and are all proved lost together.  Without a win among them, the induction
above applies to each: a win would need an allowed move to a state with a
shorter win, and every such state is in the component or already refuted
(proved lost, dead, or turned away by points 3, 5 or 6).  A state seen
without the permission and reached again with it is a second node, lost only
if the first is; a forced state that is not stored (``store_forced=False``)
is proved when it is the root of its component.

**Restricted splits** (``split_home_only``; not a reduction).  After a run
led by ``X`` is split off the card ``P`` it built on, point 5 keeps the
state when ``P`` can go home, or when a card may next be laid on ``P``: only
``X``'s twin ``X'`` can (the card of the same rank and colour), so the pair
of moves swaps two runs between ``P`` and the place ``X`` went (``P``'s twin
``P'``, or an empty column).  A search with ``split_home_only`` keeps the
state only in the first case, so it plays a smaller game whose wins are
wins of the real one.  The swap is very nearly useless - laying ``X'``'s
run straight where ``X`` went leads to a state that differs only in which
of the two runs lies on which base, and a line from the swapped state can
be copied move for move onto the other one, with one extra move (the run on
one base shifted onto the other) when a base card goes home - but the copy
breaks when a run carrying ``P`` is laid on the run lying on ``P'``, which
with circular ranks needs a run of 25 cards or more on ``P'``.  That case
is not excluded, so an exhausted restricted search proves nothing.  On deals
1-1000 and on the hardest deals of two other ranges (bench/split_restriction.py)
it never was exhausted on a deal the real game wins.

With ``prune=False`` none of this is done: raw keys, every legal move, no
dead-end test.  Tests check that both modes agree, and agree with a plain
enumeration through the engine.

Move ordering (both modes, it never changes an answer): moves home; moves
that uncover a card (a whole run off a column, a card off a stack); moves
into empty columns; moves that split a run; foundation returns.  ``deal`` is
tried first or last: :func:`solve` runs both orders side by side, because a
single order is sometimes hopeless where the other is instant.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from ..board import DEAL_GEN, is_safe_home
from .fast import DEAL, HOME, RETURN, STACK, TAIL, FastMove, FastState


def safe_home_move(state: FastState, moves: list[FastMove]) -> FastMove | None:
    """A move home that keeps every win (see the module docstring, point 2): board.is_safe_home."""
    safety, found, done = state.rules.safety, state.found, state.deals_done
    for m in moves:
        if m[3] == HOME and is_safe_home(safety, found, done, m[4]):
            return m
    return None


def stuck_cards(state: FastState) -> bytearray:
    """Which cards can never again go onto the tableau (only home), given the foundations."""
    r = state.rules
    found, rel, suit, hosts, empty_ok = state.found, r.rel, r.suit, r.hosts, r.is_empty_rank
    out = bytearray(52)
    for c in range(52):
        if found[suit[c]] <= rel[c] and not empty_ok[c]:
            out[c] = all(found[suit[h]] > rel[h] for h in hosts[c])
    return out


def is_dead(state: FastState, cache: dict[tuple[int, ...], bytearray]) -> bool:
    """True when no order of moves home is compatible with the stuck cards (point 4)."""
    r = state.rules
    if r.foundation_return:
        return False
    found = state.found
    fkey = tuple(found)
    stuck = cache.get(fkey)
    if stuck is None:
        stuck = cache[fkey] = stuck_cards(state)
    if not any(stuck) and not any(len(p) > 1 for p in state.stacks):
        return False
    blocked = [0] * 52
    under: dict[int, list[int]] = {}
    home_of, rel, suit, hosts, empty_ok = state.found, r.rel, r.suit, r.hosts, r.is_empty_rank
    for k, pile in enumerate(state.stacks):
        above = 0
        for i in range(len(pile) - 1, -1, -1):
            c = pile[i]
            blocked[c] = above
            # In a stack, a card it could lie on but that lies under it is no help either.
            if stuck[c] or (
                i > 0 and not empty_ok[c]
                and all(home_of[suit[h]] > rel[h] or h in pile[:i] for h in hosts[c])
            ):
                if not r.stack_home[k]:
                    return True  # it can neither go home nor leave to the tableau
                above += 1
                under[c] = pile[:i]
    for col in state.cols:
        low = 0  # where the stretch of stuck cards ending at i began
        for i, c in enumerate(col):
            if stuck[c]:
                if i == 0 or not stuck[col[i - 1]]:
                    low = i
                below = col[max(low - 1, 0):i]
                under[c] = below
                for y in below:
                    blocked[y] += 1
    nxt = list(found)
    card_at = r.card_at
    moved = True
    while moved:
        moved = False
        for s in range(4):
            n = nxt[s]
            while n < 13:
                c = card_at[s][n]
                if blocked[c]:
                    break
                n += 1
                for y in under.get(c, ()):
                    blocked[y] -= 1
            if n != nxt[s]:
                nxt[s] = n
                moved = True
    return nxt != [13, 13, 13, 13]


_MASK64 = (1 << 64) - 1


class Shuffler:
    """A xorshift64 generator that shuffles buckets of moves (the compiled core does the same)."""

    def __init__(self, seed: int) -> None:
        if not 0 < seed <= _MASK64:
            raise ValueError("a shuffle seed is between 1 and 2**64 - 1")
        self.state = seed

    def __call__(self, bucket: list[FastMove]) -> None:
        x = self.state
        for i in range(len(bucket) - 1, 0, -1):
            x ^= (x << 13) & _MASK64
            x ^= x >> 7
            x ^= (x << 17) & _MASK64
            j = x % (i + 1)
            bucket[i], bucket[j] = bucket[j], bucket[i]
        self.state = x


def order_moves(
    state: FastState, moves: list[FastMove], prune: bool, deal_first: bool, may_deal: bool = True,
    reverse: bool = False, shuffle: Shuffler | None = None,
) -> list[FastMove]:
    """Order (and with ``prune``, thin out) the moves of a state; ``may_deal`` False drops the deal.

    ``reverse`` keeps the order of the buckets but takes each bucket backwards:
    a second search with it explores the same graph in another order, which
    finds some wins the first order misses for millions of states.  ``shuffle``
    shuffles each bucket (the restarts of :class:`Restarts`).
    """
    home: list[FastMove] = []
    uncover: list[FastMove] = []
    into_empty: list[FastMove] = []
    split: list[FastMove] = []
    returns: list[FastMove] = []
    deal: list[FastMove] = []
    cols = state.cols
    first_empty = -1
    # Empty columns are interchangeable only while no deal is still to land on them.
    symmetric = prune and not state.columns_fixed()
    if symmetric:
        for j, col in enumerate(cols):
            if not col:
                first_empty = j
                break
    for m in moves:
        kind, src, start, dest = m[0], m[1], m[2], m[3]
        if dest == HOME:
            home.append(m)
        elif kind == DEAL:
            if may_deal:
                deal.append(m)
        elif kind == RETURN:
            returns.append(m)
        else:
            empty_dest = not cols[dest]
            if empty_dest and symmetric and (dest != first_empty or (kind == TAIL and start == 0)):
                continue
            if kind == STACK or start == 0 or start == state.run_start(cols[src]):
                (into_empty if empty_dest else uncover).append(m)
            else:
                split.append(m)
    buckets = [deal, home, uncover, into_empty, split, returns] if deal_first else [
        home, uncover, into_empty, split, returns, deal]
    if shuffle is not None:
        for bucket in buckets:
            shuffle(bucket)
    if reverse:
        return [m for bucket in buckets for m in reversed(bucket)]
    return [m for bucket in buckets for m in bucket]


Left = tuple[int, int, bool]  # (column, lead card, split) of the tableau move just made


def uses(left: Left, m: FastMove) -> bool:
    """Does move `m` use the column a tableau move (``left``) just came from (point 5)?"""
    column, lead, split = left
    if m[3] == column and m[4] != lead:
        return True  # something (other than the same run, moving back) goes onto the column
    return m[0] == TAIL and m[1] == column and (m[3] == HOME or not split)


def may_use_after_one_more(state: FastState, left: Left, tight: bool = True) -> bool:
    """Could one more run move, off another column ``c2``, make possible a move that uses both
    `left`'s column ``c`` and ``c2`` (point 5)?

    The move after it must use both columns, so it goes from one to the
    other.  Into ``c``: a card (another than the run's lead) that may lie on
    ``c``'s top - or of the empty-column rank, when ``c`` is empty - leads a
    movable tail of ``c2`` once one run is moved off ``c2``: it lies in
    ``c2``'s top run or in the run right under it.  Out of ``c`` (when the
    lead did not build on ``P``, so that a run off ``c`` uses it): a card of
    ``c``'s top run may go onto a card that is a top of ``c2`` once one run
    is moved off it (in its top run, or the card right under it), or it is
    of the empty-column rank and ``c2`` is one run that can move whole.
    ``tight=False`` is the looser test of earlier versions (any card lying in
    another column), kept to measure the difference.
    """
    column, lead, split = left
    r = state.rules
    link = r.link  # what makes a run
    cols = state.cols
    leads = bytearray(52)  # lies in another column and leads a movable tail after at most one run move
    tops = bytearray(52)  # is a top of another column after at most one run move
    whole = False  # another column is one run
    for j, col in enumerate(cols):
        if j == column or not col:
            continue
        rs = state.run_start(col) if tight else 0
        second = 0  # where the run under the top run begins
        if rs > 0:
            second = rs - 1
            while second > 0 and link[col[second] * 52 + col[second - 1]]:
                second -= 1
        for c in col[second:]:
            leads[c] = 1
        for c in col[max(rs - 1, 0):]:
            tops[c] = 1
        whole = whole or rs == 0
    col = cols[column]
    if col:
        for g in r.guests[col[-1]]:
            if g != lead and leads[g]:
                return True
    else:
        for c in range(52):
            if r.is_empty_rank[c] and c != lead and leads[c]:
                return True
    if split or not col:
        return False
    for d in range(state.run_start(col), len(col)):
        y = col[d]
        if (r.is_empty_rank[y] and whole) or any(tops[h] for h in r.hosts[y]):
            return True
    return False


def _still_useful(state: FastState, left: Left, moves: list[FastMove], tight: bool,
                  split_home_only: bool = False) -> bool:
    """Point 5: does a move use the column `left` came from, now or after one more tableau move?

    ``split_home_only``: a run split off a card (``left``'s split) is kept only when that card
    can go home at once - a restriction of the game (see "Restricted splits").
    """
    if split_home_only and left[2]:
        return any(m[0] == TAIL and m[1] == left[0] and m[3] == HOME for m in moves)
    return any(uses(left, m) for m in moves) or may_use_after_one_more(state, left, tight)


# States a shared loss table holds at most (the compiled one: half of its slots).
LOST_LIMIT = 1 << 22


def _covers(proved: bool | None, may_deal: bool) -> bool:
    """Does a loss proved with (True) or without (False) the permission, or none (None), cover a visit?"""
    return proved is not None and (proved or not may_deal)


@dataclass(slots=True)
class FrameInfo:
    """What a frame's state is: its deal permission, whether its one move is forced, its key, whether
    it only adds the deal to a state stored without the permission, and its place in Tarjan's search
    for strongly connected components ("Shared losses")."""

    may_deal: bool
    forced: bool
    key: bytes
    upgrade: bool = False
    stored: bool = False
    order: int = 0  # Tarjan: the frame's preorder number
    low: int = 0  # the least preorder number of a state still open that it reaches
    tbase: int = 0  # the height of the stack of open states when it was pushed


class DepthFirst:
    """A resumable iterative depth-first search from one state.

    ``run(limit)`` explores until the search ends or ``limit`` states in total
    have been expanded; ``result`` is then True (won; ``path`` holds the
    moves), False (lost) or None (not finished yet).
    """

    def __init__(
        self, state: FastState, *, prune: bool, deal_first: bool, deal_timing: bool = True,
        reverse: bool = False, store_forced: bool = True, tight_lookahead: bool = True, seed: int = 0,
        lost: dict[bytes, bool] | None = None, split_home_only: bool = False,
    ) -> None:
        self.state = state
        # States proved lost (with the deal permission or not), shared with the other searches of
        # one solve ("Shared losses" in the module docstring); None: nothing shared.
        self.lost = lost if prune else None
        self.prune = prune
        self.deal_first = deal_first
        self.reverse = reverse
        self.store_forced = store_forced
        self.tight_lookahead = tight_lookahead
        self.split_home_only = prune and split_home_only
        self.shuffle = Shuffler(seed) if seed else None
        # Point 6 assumes deals never land on columns (moves from them would not commute with deals).
        self.deal_timing = prune and deal_timing and not state.rules.deals_onto_columns
        # [d]: the stacks deal d lands on.
        self.covers = [frozenset(k for k in deal) for deal in state.rules.deals]
        # Each state entered, with its deal permission (point 6).
        self.seen: dict[bytes, bool] = {}
        # With a shared loss table: each stored state's preorder number, the states proved lost by
        # this search, the stack of states stored and not yet proved, and the preorder counter.
        self.torder: dict[bytes, int] = {}
        self.closed: set[bytes] = set()
        self.open: list[bytes] = []
        self.counter = 0
        self.stuck_cache: dict[tuple[int, ...], bytearray] = {}
        self.frames: list[list[FastMove]] = []
        # Per frame: what it proves when it is done (its state's permission, key, ...).
        self.flags: list[FrameInfo] = []
        self.indices: list[int] = []
        self.path: list[FastMove] = []
        self.nodes = 0
        self.result: bool | None = None
        if self._enter(prune, None, True):
            self.result = True
        elif not self.frames:
            self.result = False

    def _enter(self, check_dead: bool, left: Left | None, may_deal: bool) -> bool:
        """Enter the current state: True if won; else push a frame unless seen, dead or pointless.

        ``left`` describes the tableau move just made (with pruning): the
        state is entered only if the column it came from can be used next, or
        after one more tableau move (point 5).  A state turned away for that
        reason is not recorded as seen: reached by another move, it is explored.

        A state with a forced move (a safe move home, point 2, or a deal that
        covers nothing, point 6) is stored like any other, its one move
        pushed.  ``store_forced=False`` keeps such states out of the table
        (a forced move home or a deal cannot lie on a cycle, so the search
        still ends); measured, that costs more than it saves: a forced state
        reached again is expanded again.

        ``may_deal`` is the state's deal permission as reached (point 6).  A
        state seen with the permission covers a visit without it; one seen
        without it and reached again with it is expanded once more, with the
        deal.
        """
        s = self.state
        if s.home == 52:
            return True
        if not self.deal_timing or s.deals_done >= len(s.rules.deals):
            may_deal = True
        lost = self.lost
        key = s.key(self.prune) if lost is not None else b""
        if lost is not None and _covers(lost.get(key), may_deal):
            return False  # another search proved it lost
        if self.prune and not self.store_forced:
            forced = self._forced_move()
            if forced is not None:
                self._enter_forced_unstored(forced, check_dead, left, may_deal, key)
                return False
        if lost is None:
            key = s.key(self.prune)
        seen = self.seen.get(key)
        if seen is not None and (seen or not may_deal):
            if lost is not None and key not in self.closed:
                self._reach(self.torder[key])  # still open: on the path, or in its component
            return False
        moves = s.moves()
        if left is not None and not _still_useful(s, left, moves, self.tight_lookahead, self.split_home_only):
            return False
        self.nodes += 1
        if seen is not None:  # seen without the permission: now the deal too (listed last)
            self._enter_with_deal(key, moves)
            return False
        self.seen[key] = may_deal
        if lost is not None:
            self.torder[key] = self.counter
        if check_dead and (is_dead(s, self.stuck_cache) or can_never_finish(s)):
            self.seen[key] = True  # refuted whatever the permission
            if lost is not None:
                self.closed.add(key)
                self._prove_lost(key, True)
            return False
        forced = self._forced_move() if self.prune and self.store_forced else None
        if forced is not None:
            self._push([forced], True if forced[0] == DEAL else may_deal, True, key)
        else:
            order = order_moves(s, moves, self.prune, self.deal_first, may_deal, self.reverse, self.shuffle)
            self._push(order, may_deal, False, key)
        if lost is not None:
            self._mark_stored()
        return False

    def _enter_forced_unstored(self, forced: FastMove, check_dead: bool, left: Left | None, may_deal: bool,
                               key: bytes) -> None:
        """Enter a state with a forced move that is not stored (``store_forced=False``): push the move."""
        s = self.state
        if left is not None and not _still_useful(s, left, s.moves(), self.tight_lookahead,
                                                        self.split_home_only):
            return
        self.nodes += 1
        if check_dead and (is_dead(s, self.stuck_cache) or can_never_finish(s)):
            self._prove_lost(key, True)
            return
        self._push([forced], True if forced[0] == DEAL else may_deal, True, key)

    def _enter_with_deal(self, key: bytes, moves: list[FastMove]) -> None:
        """Enter again, now with the deal permission, a state seen without it: push the deal (point 6)."""
        lost = self.lost
        self.seen[key] = True
        forced = self._forced_move() if self.store_forced else None
        if forced is None or forced[0] != DEAL:
            # With the permission it is lost only if it is lost without it: an edge to that visit.
            before = self.torder.get(key, 0)
            was_open = lost is not None and key not in self.closed
            self._push([moves[-1]] if forced is None else [forced], True, forced is not None, key,
                       upgrade=True)
            if lost is not None:
                info = self.flags[-1]
                self.closed.discard(key)
                self.torder[key] = info.order
                if was_open and before < info.low:
                    info.low = before
                self._mark_stored()
        elif lost is not None and key not in self.closed:
            self._reach(self.torder[key])

    def _prove_lost(self, key: bytes, may_deal: bool) -> None:
        lost = self.lost
        if lost is not None and (len(lost) < LOST_LIMIT or key in lost):
            lost[key] = lost.get(key, False) or may_deal

    def _reach(self, order: int) -> None:
        """The frame whose move led here reaches a state still open, of preorder `order` (its lowlink)."""
        if self.flags and order < self.flags[-1].low:
            self.flags[-1].low = order

    def _mark_stored(self) -> None:
        """The top frame's state is stored: it goes on the stack of states not yet proved."""
        info = self.flags[-1]
        info.stored = True
        self.open.append(info.key)

    def _frame_done(self) -> None:
        """The top frame is done, every move refuted (Tarjan, see "Shared losses").

        When it reaches no state opened before it, it is the root of its
        strongly connected component: it and every state still open above it
        are proved lost, each with its permission.  Else its parent inherits
        its lowlink.
        """
        lost = self.lost
        if lost is None:
            return
        info = self.flags[-1]
        if len(self.flags) >= 2 and info.low < self.flags[-2].low:
            self.flags[-2].low = info.low
        if info.low < info.order:
            return
        if not info.stored:
            self._prove_lost(info.key, info.may_deal)
        while len(self.open) > info.tbase:
            key = self.open.pop()
            self.closed.add(key)
            self._prove_lost(key, self.seen[key])

    def _forced_move(self) -> FastMove | None:
        """The state's forced move: the first safe move home in move order, else a deal covering nothing."""
        s = self.state
        r = s.rules
        found, rel, suit = s.found, r.rel, r.suit
        tops: list[FastMove] = []
        for i, col in enumerate(s.cols):
            if col and rel[col[-1]] == found[suit[col[-1]]]:
                tops.append((TAIL, i, len(col) - 1, HOME, col[-1], 1))
        for k, pile in enumerate(s.stacks):
            if pile and r.stack_home[k] and rel[pile[-1]] == found[suit[pile[-1]]]:
                tops.append((STACK, k, 0, HOME, pile[-1], 1))
        safe = safe_home_move(s, tops)
        if safe is not None:
            return safe
        return DEAL_GEN if self._safe_deal() else None

    def _push(self, moves: list[FastMove], may_deal: bool, forced: bool, key: bytes,
              upgrade: bool = False) -> None:
        self.frames.append(moves)
        self.flags.append(FrameInfo(may_deal, forced, key, upgrade, order=self.counter, low=self.counter,
                                    tbase=len(self.open)))
        self.counter += 1
        self.indices.append(0)

    def _safe_deal(self) -> bool:
        """Does the next deal land only on empty piles (point 6)?  Then it is the one move."""
        s = self.state
        d = s.deals_done
        if not self.deal_timing or d >= len(s.rules.deals):
            return False
        return not any(s.stacks[k] for k in s.rules.deals[d])

    def _may_deal_after(self, m: FastMove, parent: FrameInfo) -> bool:
        """The deal permission of the state move `m` led to (point 6)."""
        s = self.state
        if not self.deal_timing or m[0] == DEAL or s.deals_done >= len(s.rules.deals):
            return True
        if m[0] == STACK and m[1] in self.covers[s.deals_done]:
            return True
        return parent.forced and parent.may_deal and m[3] == HOME

    def run(self, limit: int) -> bool | None:
        if self.result is not None:
            return self.result
        frames, indices, path, state = self.frames, self.indices, self.path, self.state
        prune = self.prune
        link = state.rules.link
        # Point 5 assumes deals never land on columns (a deal between a run move and its use
        # would land elsewhere if the two were swapped): off for profiles that deal onto them.
        leads_nowhere = prune and not state.rules.deals_onto_columns
        cols = state.cols
        while frames:
            i = indices[-1]
            moves = frames[-1]
            if i < len(moves):
                indices[-1] = i + 1
                m = moves[i]
                left: Left | None = None
                if leads_nowhere and m[0] == TAIL and m[3] >= 0:
                    depth = m[2]
                    left = (m[1], m[4], depth > 0 and link[m[4] * 52 + cols[m[1]][depth - 1]] == 1)
                state.apply(m)
                path.append(m)
                height = len(frames)
                # Dead ends are looked for after moves that change what is stuck or covered.
                check = prune and (m[3] == HOME or m[0] == DEAL or (left is not None and not left[2])
                                   or (not leads_nowhere and m[0] == TAIL))
                if self._enter(check, left, self._may_deal_after(m, self.flags[-1])):
                    self.result = True
                    return True
                if len(frames) == height:  # nothing pushed: seen, dead, pointless, or a leaf
                    state.undo(path.pop())
                elif self.nodes >= limit:
                    return None
            else:
                self._frame_done()
                frames.pop()
                self.flags.pop()
                indices.pop()
                if path:
                    state.undo(path.pop())
        self.result = False
        return False


def luby(i: int) -> int:
    """The i-th term (from 1) of the Luby sequence 1 1 2 1 1 2 4 1 1 2 ...: restart budgets that waste
    at most a logarithmic factor against the best fixed budget for an unknown run-time distribution."""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while (1 << k) - 1 != i:
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1
    return 1 << (k - 1)


class Search(Protocol):
    """What :func:`agnes_teach.solver.solve` asks of a search (``DepthFirst`` and the compiled one)."""

    state: FastState
    nodes: int
    result: bool | None

    def run(self, limit: int) -> bool | None: ...

    @property
    def path(self) -> list[FastMove]: ...


class Restarts:
    """Depth-first searches with shuffled move orders, each stopped after ``unit * luby(i)`` states
    and replaced by a fresh one with the next seed.

    A depth-first search that goes wrong near the root can spend millions of
    states in one hopeless subtree while another order wins at once; short
    runs in many random orders find such wins.  Each run is a complete
    search of its own (same pruning, its own table), so one that ends before
    its budget decides the position either way: ``lost`` is as sound as
    from a single search.  ``make(seed)`` builds a run (with either engine:
    the compiled core shuffles exactly as :class:`Shuffler` does).
    """

    def __init__(self, make: Callable[[int], Search], root: FastState, unit: int = 2000) -> None:
        self.make = make
        self.state = root
        self.unit = unit
        self.runs = 0
        self.finished = 0  # states expanded by the runs given up
        self.current: Search | None = None
        self.cap = 0
        self.result: bool | None = None
        self.path: list[FastMove] = []

    @property
    def nodes(self) -> int:
        return self.finished + (self.current.nodes if self.current is not None else 0)

    def run(self, limit: int) -> bool | None:
        while self.result is None:
            if self.current is None:
                self.runs += 1
                # Seeds spread over 64 bits (odd, so never 0).
                self.current = self.make((self.runs * 0x9E3779B97F4A7C15) & _MASK64 | 1)
                self.cap = self.unit * luby(self.runs)
            search = self.current
            target = min(self.cap, limit - self.finished)
            if target <= search.nodes:
                return None
            result = search.run(target)
            if result is not None:
                self.result = result
                self.path = search.path
                return result
            if search.nodes >= self.cap or getattr(search, "full", False):
                self.finished += search.nodes
                self.current = None
            else:
                return None
        return self.result


class _Layout:
    """Where each card lies, for :func:`can_never_finish`: the card on it and under it, its kind of
    pile, whether it is a column's bottom card, and whether some column is empty; the cards at the
    top of a pile (or still in the stock) are marked in `top` as it goes."""

    __slots__ = ("above", "below", "col_bottom", "empty", "in_stack")

    def __init__(self, state: FastState, top: bytearray) -> None:
        r = state.rules
        above = [-1] * 52
        below = [-1] * 52
        in_stack = bytearray(52)  # 1: a pile that may play home (or the stock), 2: one that may not
        col_bottom = bytearray(52)
        empty = False
        for col in state.cols:
            if not col:
                empty = True
                continue
            col_bottom[col[0]] = 1
            for i in range(len(col) - 1):
                above[col[i]] = col[i + 1]
                below[col[i + 1]] = col[i]
            top[col[-1]] = 1
        for k, pile in enumerate(state.stacks):
            mark = 1 if r.stack_home[k] else 2
            for i, c in enumerate(pile):
                in_stack[c] = mark
                if i + 1 < len(pile):
                    above[c] = pile[i + 1]
                    below[pile[i + 1]] = c
            if pile:
                top[pile[-1]] = 1
        for c in state.stock[len(state.stock) - state.stock_left():]:
            top[c] = in_stack[c] = 1
        self.above, self.below, self.in_stack, self.col_bottom, self.empty = (
            above, below, in_stack, col_bottom, empty)


def can_never_finish(state: FastState) -> bool:
    """True when some card can never reach its foundation, even in a generous relaxation (point 4).

    Three facts per card are over-approximated by a least fixpoint: ``top``
    (it is the top of its pile at some time), ``leave`` (it leaves the card it
    lies on) and ``home`` (it goes home), with "some column is empty at some
    time" beside them.  Every real game satisfies the rules below, so a card
    that never gets ``home`` in the fixpoint never goes home in any game:

    * a card becomes a top for the first time only when the card lying on it
      since the start leaves it (nothing else can ever be laid on it before);
    * a card leaves the card under it by going home, or as the lead of a run
      onto some card that is then a top (and not home already), or into an
      empty column if it has the empty-column rank; to lead a run, the card
      lying on it must run with it, or have left it first (then it is a top);
      a card in a reserve pile or exposed cell must be the top to move;
    * a card goes home when the card before it in its suit is home and it is
      a top (from a pile that may not play home it must first leave);
    * a column becomes empty when its bottom card leaves.

    Cards still in the stock count as tops (they arrive on top of a pile).
    Timing is ignored (a host may be used "after" it went home), which only
    makes the relaxation more generous.  Not used when foundations are not
    final.
    """
    r = state.rules
    if r.foundation_return:
        return False
    found, rel, suit, hosts, empty_ok = state.found, r.rel, r.suit, r.hosts, r.is_empty_rank
    card_at, link, guests = r.card_at, r.link, r.guests
    home = bytearray(52)
    for c in range(52):
        if found[suit[c]] > rel[c]:
            home[c] = 1
    was_home = bytes(home)
    top = bytearray(was_home)
    leave = bytearray(was_home)
    layout = _Layout(state, top)
    above, below, in_stack, col_bottom = layout.above, layout.below, layout.in_stack, layout.col_bottom
    empty = layout.empty
    queue: list[int] = []  # card * 4 + event (0 top, 1 leave, 2 home); -1: a column can be empty

    def try_home(c: int) -> None:
        if home[c]:
            return
        n = rel[c]
        if (n == 0 or home[card_at[suit[c]][n - 1]]) and (leave[c] if in_stack[c] == 2 else top[c]):
            home[c] = 1
            queue.append(c * 4 + 2)
            if not leave[c]:
                leave[c] = 1
                queue.append(c * 4 + 1)

    def try_leave(c: int) -> None:
        if leave[c]:
            return
        # To lead a run, what lies on the card must run with it (or be gone first: then it is a top).
        # The link table, not the build table: a restriction may narrow one and not the other (the
        # compiled core reads its one table, and runs only where the two are equal).
        if not (top[c] or (not in_stack[c] and link[above[c] * 52 + c])):
            return
        if (empty and empty_ok[c]) or any(top[h] and not was_home[h] for h in hosts[c]):
            leave[c] = 1
            queue.append(c * 4 + 1)

    for c in range(52):
        if not was_home[c]:
            try_home(c)
            try_leave(c)
    while queue:
        item = queue.pop()
        if item < 0:
            for c in range(52):
                if empty_ok[c]:
                    try_leave(c)
            continue
        c, event = item >> 2, item & 3
        if event == 0:
            try_home(c)
            try_leave(c)
            for g in guests[c]:
                try_leave(g)
        elif event == 1:
            b = below[c]
            if b >= 0:
                if not top[b]:
                    top[b] = 1
                    queue.append(b * 4)
            elif col_bottom[c] and not empty:
                empty = True
                queue.append(-1)
            if in_stack[c] == 2:
                try_home(c)
        else:
            n = rel[c]
            if n < 12:
                try_home(card_at[suit[c]][n + 1])
    return not all(home)


__all__ = [
    "DepthFirst", "Restarts", "Search", "Shuffler", "can_never_finish", "is_dead", "luby", "order_moves",
    "safe_home_move", "uses",
]
