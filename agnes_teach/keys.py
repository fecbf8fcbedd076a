"""The one canonical key of a state: its piles, up to the symmetries its profile allows.

The rules never look at a pile's number, so two states that differ only in
the order of interchangeable piles have the same future.  Which piles are
interchangeable comes from the profile:

* the columns, each together with the stock cards it will still receive (in
  Agnes Sorel the deals land on the columns: a column is then keyed with its
  future cards, so it can only trade places with a column that receives the
  same cards - that is, with none while deals are to come);
* the stacks (reserve piles and exposed cells: nobody builds on them, only
  their top card moves), each with the stock cards it will still receive,
  among the stacks with the same permission to play home.

A pile's part of the key is its cards, bottom to top, then (if any deal is
still to land on it) a separator and, per deal to come, the card it will drop
there or a mark that it passes the pile by; the parts of each group are
sorted.  The foundations are not in the key: within one game every card not
in a pile or the stock is home.  :func:`key_and_order` is the definition
(:func:`state_key` its key): beside the key it gives the piles in the order the
key lists them, which is how the practice page, storing one state per key,
knows where each of the learner's piles went; for the page it can keep reserve
piles and exposed cells apart, whose rules refuse a card put on them in
different words.  :func:`state_key` is the key everyone else uses;
the solver's fast state computes the same bytes faster (``FastState.key``,
tested equal on random positions of every profile), :func:`game_key` adds the
game (profile and base) and the generator's ``puzzle_key`` adds the suit
swaps that keep colours.  The compiled core keeps its own key, checked by
agreeing with the Python search state for state (verdicts and node counts).
"""

from __future__ import annotations

from functools import cache, lru_cache

from .piles import Pile, PileKind
from .position import Cards, Position
from .profile import Profile

PILE_SEP = b"\xfe"  # between the parts of one group
GROUP_SEP = b"\xfd"  # between the columns and the stacks
FUTURE_SEP = b"\xfa"  # before the stock cards a pile will still receive
STACK_TAG = (b"\xc8", b"\xc9")  # a stack's part starts with its permission to play home (no, yes)
EXPOSED_TAG = (b"\xca", b"\xcb")  # an exposed cell's, where exposed cells are kept apart from reserve piles
NO_CARD = 0xFF  # in a pile's future: a deal that passes it by


def futures(pos: Position) -> dict[Pile, list[int]]:
    """What each pile will still receive: per deal to come, its card, or NO_CARD if that deal
    passes the pile by (so two piles trade places only when the deals treat them alike)."""
    return futures_of(pos.profile, pos.stock)


def futures_of(profile: Profile, stock: Cards) -> dict[Pile, list[int]]:
    """:func:`futures` of a position of `profile` with `stock` left (which says the deals done)."""
    out: dict[Pile, list[int]] = {}
    if not stock:  # nothing is to come (the question asked of most states, so answered first)
        return out
    done = profile.deals_done(len(stock))
    assert done is not None
    rest = list(stock)
    deals = profile.stock_deals[done:]
    for d, deal in enumerate(deals):
        for card, pile in zip(rest, deal, strict=False):
            out.setdefault(pile, [NO_CARD] * len(deals))[d] = card
        rest = rest[len(deal):]
    return out


def future_part(coming: list[int] | None) -> bytes:
    return FUTURE_SEP + bytes(coming) if coming else b""


def stack_plays_home(pos: Position, pile: Pile) -> bool:
    p = pos.profile
    return p.reserve_to_foundation if pile.kind is PileKind.RESERVE else p.exposed_to_foundation


def state_key(pos: Position, canonical: bool = True) -> bytes:
    """The key of a state within its game; ``canonical=False`` keeps every pile in its place."""
    if not canonical:
        stacks = [*pos.reserve, *pos.exposed]
        return (PILE_SEP.join(map(bytes, pos.tableau)) + GROUP_SEP + PILE_SEP.join(map(bytes, stacks))
                + bytes((pos.deals_done,)))
    if pos.stock:
        return key_and_order(pos)[0]
    # No deal to come (most states searched): key_and_order's bytes without its order, built
    # several times faster; the tests hold the two equal.
    tags = _stack_tags_of(pos.profile.reserve_to_foundation, pos.profile.exposed_to_foundation,
                          len(pos.reserve), len(pos.exposed))
    return (PILE_SEP.join(sorted(map(bytes, pos.tableau))) + GROUP_SEP
            + PILE_SEP.join(sorted(map(bytes.__add__, tags, map(bytes, (*pos.reserve, *pos.exposed)))))
            + bytes((pos.deals_done,)))


def key_and_order(pos: Position, kinds_apart: bool = False) -> tuple[bytes, tuple[int, ...]]:
    """The canonical key, and the piles in the order the key lists them (each pile by its place
    in ``[*tableau, *reserve, *exposed]``).

    Two states of one key hold the same cards in the piles of the same place in their orders, so
    the orders map one state's piles onto the other's.  ``kinds_apart`` keeps reserve piles and
    exposed cells from trading places (the same future either way, but a card put on them is
    refused by different rules: the practice page names the rule, so it must not merge them).
    """
    if pos.stock:
        column_futures, stack_futures = _future_parts(pos.profile, pos.stock)
        columns = sorted((bytes(cards) + future, j)
                         for j, (cards, future) in enumerate(zip(pos.tableau, column_futures, strict=True)))
        stacks = zip(_stack_tags(pos.profile, kinds_apart), (*pos.reserve, *pos.exposed), stack_futures,
                     strict=True)
    else:  # no deal to come: a pile's part is its cards (after a stack's tag)
        columns = sorted((bytes(cards), j) for j, cards in enumerate(pos.tableau))
        piles = (*pos.reserve, *pos.exposed)
        stacks = zip(_stack_tags(pos.profile, kinds_apart), piles, (b"",) * len(piles), strict=True)
    first = len(pos.tableau)
    parts = sorted((tag + bytes(cards) + future, first + i) for i, (tag, cards, future) in enumerate(stacks))
    key = (PILE_SEP.join(part for part, _ in columns) + GROUP_SEP + PILE_SEP.join(part for part, _ in parts)
           + bytes((pos.deals_done,)))
    return key, tuple(place for _, place in (*columns, *parts))


@lru_cache(maxsize=1024)
def _future_parts(profile: Profile, stock: Cards) -> tuple[tuple[bytes, ...], tuple[bytes, ...]]:
    """Each column's and each stack's part after its cards (``future_part`` of :func:`futures`) in a
    position of `profile` with `stock` left: the explorer keys every state of a game with a stock,
    whose stock changes only at a deal."""
    coming = futures_of(profile, stock)
    columns_named, stacks_named = _pile_names(profile.columns, profile.reserve_piles, profile.exposed_cells)
    return (tuple(future_part(coming.get(name)) for name in columns_named),
            tuple(future_part(coming.get(name)) for name in stacks_named))


@cache
def _stack_tags(profile: Profile, kinds_apart: bool) -> tuple[bytes, ...]:
    """Each stack's tag in a position of `profile`: its permission to play home, and with `kinds_apart`
    its kind."""
    reserve = STACK_TAG[profile.reserve_to_foundation]
    exposed = (EXPOSED_TAG if kinds_apart else STACK_TAG)[profile.exposed_to_foundation]
    return (reserve,) * profile.reserve_piles + (exposed,) * profile.exposed_cells


@cache
def _pile_names(columns: int, reserve: int, exposed: int) -> tuple[tuple[Pile, ...], tuple[Pile, ...]]:
    """The columns' names, and the stacks' (reserve piles, then exposed cells), in place order."""
    return (tuple(Pile.column(j + 1) for j in range(columns)),
            (*(Pile.reserve(i + 1) for i in range(reserve)), *(Pile.exposed(i + 1) for i in range(exposed))))


@cache
def _stack_tags_of(reserve_home: bool, exposed_home: bool, reserve: int, exposed: int) -> tuple[bytes, ...]:
    """Each stack's tag where reserve piles and exposed cells may trade places."""
    return (STACK_TAG[reserve_home],) * reserve + (STACK_TAG[exposed_home],) * exposed


def game_key(pos: Position) -> bytes:
    """Equal for two positions of the same profile and base that are the same state up to symmetry."""
    return _game_prefix(pos.profile.id, pos.base) + state_key(pos)


@cache
def _game_prefix(profile_id: str, base: int) -> bytes:
    return f"{profile_id}|{base}|".encode()
