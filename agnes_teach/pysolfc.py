"""PySolFC's Agnes Bernauer deals: game number -> the starting position, laid out as PySolFC lays it.

The shuffle is PySolFC's own, from the ``pysol-cards`` package (the library
PySolFC itself uses).  The layout follows PySolFC 3.6.1's dealing for Agnes
Bernauer (game id 236; docs/profiles.md, "PySolFC deals", says how it was checked):

* game numbers below 32000, and ``ms<N>``, use the Microsoft FreeCell
  generator with PySolFC's rank-major rearrangement of the deck; other
  numbers (PySolFC's random games have 17 to 20 digits) use its Mersenne
  Twister generator;
* PySolFC's deck is created suit by suit in the order clubs, spades, hearts,
  diamonds, Ace to King, shuffled, and dealt from the end of the list;
* the tableau is dealt in seven rounds: round k (k = 1..6) gives one card to
  each of columns t7, t6, ..., t(k+1), right to left; round 7 gives one card
  to each of t7..t1 (so t1 holds one card and t7 seven);
* then one card on each reserve pile r1..r7, left to right;
* then the base card (the 36th card) goes to its foundation;
* the 16 cards left are the stock; each deal gives one card to r1, r2, ...
  in turn, so the last, short deal lands on r1 and r2 - the
  ``reserve-last-deal`` profile.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .cards import Card, make_card, rank_of, suit_of
from .errors import InputError
from .position import Position
from .profile import Profile, get_profile

PYSOLFC_PROFILE = "reserve-last-deal"
PYSOLFC_VERSION = "3.6.1"
# PySolFC's suits are numbered clubs, spades, hearts, diamonds; ours S H D C (cards.py).
_SUIT_FROM_PYSOLFC = (3, 0, 1, 2)
MS_LIMIT = 32000  # plain numbers below this use the Microsoft generator (PySolFC's construct_random)
MAX_GAME = 10**20  # PySolFC's largest game number (20 digits)
_MS_MAX = (1 << 33) - 1


def parse_game_number(text: str | int) -> tuple[bool, int]:
    """``"123"``, ``"#00123"``, ``"ms123"``, ``"12345678901234567"`` -> (Microsoft generator?, seed).

    Spaces, ``#``, ``-``, ``_``, ``.`` and ``,`` are ignored, as PySolFC's
    "Select game by number" ignores them.
    """
    raw = str(text).strip()
    ms = re.fullmatch(r"ms([0-9]+)", raw.lower())
    if ms:
        seed = int(ms.group(1))
        if not 1 <= seed <= _MS_MAX:
            raise InputError(f"PySolFC game ms{seed} is out of range (ms1 to ms{_MS_MAX})")
        return True, seed
    digits = re.sub(r"[\s#\-_.,]", "", raw)
    if not digits.isdigit():
        raise InputError(f"not a PySolFC game number: {raw!r} (write the number PySolFC shows, "
                         "e.g. 12345 or 08123456789012345678, or ms12345)")
    seed = int(digits)
    if not 1 <= seed < MAX_GAME:
        raise InputError(f"PySolFC game number {seed} is out of range (1 to {MAX_GAME - 1})")
    return seed < MS_LIMIT, seed


def _to_card(pysolfc_id: int) -> Card:
    return make_card(pysolfc_id % 13 + 1, _SUIT_FROM_PYSOLFC[pysolfc_id // 13])


def dealing_order(game: str | int) -> list[Card]:
    """The 52 cards in the order PySolFC deals them for this game number (first dealt first)."""
    from pysol_cards.cards import ms_rearrange
    from pysol_cards.random import LCRandom31, MTRandom

    ms, seed = parse_game_number(game)
    cards = list(range(52))  # PySolFC's card ids: suit * 13 + rank, suits C S H D
    rng = LCRandom31(seed) if ms else MTRandom(seed)
    if ms:
        cards = ms_rearrange(cards)
    rng.reset()
    rng.shuffle(cards)
    # The talon deals from the end of its list.
    return [_to_card(c) for c in reversed(cards)]


def _check_layout(profile: Profile) -> None:
    if (profile.column_lengths != (1, 2, 3, 4, 5, 6, 7) or profile.reserve_piles != 7
            or not profile.base_dealt or profile.stock_size != 16):
        raise InputError(
            f"PySolFC's Agnes Bernauer lays out 7 columns of 1 to 7 cards, 7 reserve piles, a dealt "
            f"base card and a stock of 16; the profile {profile.id} does not (use {PYSOLFC_PROFILE})")


def pysolfc_deal(game: str | int, profile: Profile | None = None) -> Position:
    """The starting position of PySolFC's Agnes Bernauer game number `game`.

    The default profile is ``reserve-last-deal``, whose rules are PySolFC's;
    any profile with the same layout may be asked for (``bernauer`` then
    deals the last two stock cards to the exposed cells instead).
    """
    p = profile or get_profile(PYSOLFC_PROFILE)
    _check_layout(p)
    cards: Iterator[Card] = iter(dealing_order(game))
    columns: list[list[Card]] = [[] for _ in range(7)]
    for first in range(1, 7):
        for c in reversed(range(first, 7)):
            columns[c].append(next(cards))
    for c in reversed(range(7)):
        columns[c].append(next(cards))
    reserve = tuple((next(cards),) for _ in range(7))
    base_card = next(cards)
    foundations = [0, 0, 0, 0]
    foundations[suit_of(base_card)] = 1
    return Position(
        profile=p,
        base=rank_of(base_card),
        foundations=(foundations[0], foundations[1], foundations[2], foundations[3]),
        tableau=tuple(tuple(c) for c in columns),
        reserve=reserve,
        exposed=tuple(() for _ in range(p.exposed_cells)),
        stock=tuple(cards),
    )
