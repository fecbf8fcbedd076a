"""Cards as small integers, and their text forms.

A card is an ``int`` in 0..51: ``suit * 13 + (rank - 1)`` with suits in the
order S H D C (the order of ``formats.md``) and ranks 1 (A) .. 13 (K).  Plain
ints keep positions hashable and cheap to copy, which the solver relies on.
"""

from __future__ import annotations

from typing import NewType

from .errors import AgnesError

Card = NewType("Card", int)

SUITS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_RANK_INPUT = {name: i + 1 for i, name in enumerate(RANK_NAMES)} | {"T": 10, "1": 1}
_SUIT_INPUT = {s: i for i, s in enumerate(SUITS)} | {s: i for i, s in enumerate(SUIT_SYMBOLS)}
# Variation selectors sometimes follow a suit symbol in pasted text.
_STRIP = "\ufe0e\ufe0f"
# A card's text as a pattern (the schema's, and move text's, in ``moves``): what parse_card takes,
# but for "ſ", which str.upper() turns into S (tests/test_fields.py keeps the two in step).
RANK_TEXT = r"(?:10|[2-9AaJjQqKkTt])"
CARD_TEXT = RANK_TEXT + r"[SsHhDdCc♠♥♦♣][\ufe0e\ufe0f]*"
# Letters a person may type for a rank besides the Latin ones (never in files, whose schema keeps
# Latin notation): the Russian rank letters, which are the Cyrillic look-alikes of A and K too.  The
# Russian Т is the ace (туз), as on Russian cards, not the look-alike of the Latin T for ten.  The
# catalogues' "rank-letter" entries are what diagrams and text show; tests/test_card_letters.py
# keeps every language's letters readable here, each as its own rank.
TYPED_RANKS = {"А": 1, "Т": 1, "В": 11, "Д": 12, "К": 13}

FULL_DECK: tuple[Card, ...] = tuple(Card(i) for i in range(52))


class CardError(AgnesError):
    """Text that does not name a card or a rank."""


def make_card(rank: int, suit: int) -> Card:
    return Card(suit * 13 + rank - 1)


def rank_of(card: int) -> int:
    """1 (A) .. 13 (K)."""
    return card % 13 + 1


def suit_of(card: int) -> int:
    """0..3 in the order S H D C."""
    return card // 13


def is_red(card: int) -> bool:
    return card // 13 in (1, 2)


def rank_below(rank: int) -> int:
    """Circular: one below A is K."""
    return 13 if rank == 1 else rank - 1


def rank_above(rank: int) -> int:
    """Circular: one above K is A."""
    return 1 if rank == 13 else rank + 1


def rank_at(base: int, index: int) -> int:
    """The rank `index` steps up the circular order from `base` (0 = the base itself).

    The one place the rank cycle is written: foundations build up from the base rank
    and turn the corner from K to A, so every "n-th card of a foundation" asks this.
    """
    return (base - 1 + index) % 13 + 1


def rank_index(base: int, rank: int) -> int:
    """How many steps up the circular order from `base` the rank lies (0..12): the inverse of rank_at."""
    return (rank - base) % 13


def card_name(card: int) -> str:
    """File form: ``10H``, ``AS``."""
    return RANK_NAMES[card % 13] + SUITS[card // 13]


def card_symbol(card: int) -> str:
    """Document form: ``10♥``, ``A♠``."""
    return RANK_NAMES[card % 13] + SUIT_SYMBOLS[card // 13]


def rank_name(rank: int) -> str:
    return RANK_NAMES[rank - 1]


def parse_rank(text: str | int) -> int:
    """``5``, ``"5"``, ``"A"``, ``"t"`` -> 1..13."""
    if isinstance(text, bool):
        raise CardError(f"not a rank: {text!r}")
    if isinstance(text, int):
        if 1 <= text <= 13:
            return text
        raise CardError(f"not a rank: {text} (ranks are A, 2..10, J, Q, K)")
    key = str(text).strip().upper()
    if key in _RANK_INPUT:
        return _RANK_INPUT[key]
    raise CardError(f"not a rank: {text!r} (ranks are A, 2..10, J, Q, K)")


def parse_card(text: str, *, typed: bool = False) -> Card:
    """``10H``, ``th``, ``A♠`` -> Card.  Raises CardError with the text.

    `typed`: text a person typed, which may also use the letters of ``TYPED_RANKS`` (``К♦``, ``Т♥``).
    """
    if not isinstance(text, str):
        raise CardError(f"not a card: {text!r}")
    raw = text.strip().rstrip(_STRIP)  # a variation selector may follow the suit symbol
    if len(raw) < 2:
        raise CardError(f"not a card: {text!r}")
    rank_text, suit_text = raw[:-1].upper(), raw[-1].upper()
    if suit_text not in _SUIT_INPUT:
        raise CardError(f"not a card: {text!r} (suit must be S, H, D, C or ♠ ♥ ♦ ♣)")
    if typed and rank_text in TYPED_RANKS:
        return make_card(TYPED_RANKS[rank_text], _SUIT_INPUT[suit_text])
    if rank_text not in _RANK_INPUT or rank_text == "1":
        letters = "; Т В Д К as on Russian cards (Т the ace)" if typed else ""
        raise CardError(f"not a card: {text!r} (rank must be A, 2..10, J, Q, K; T for 10{letters})")
    return make_card(_RANK_INPUT[rank_text], _SUIT_INPUT[suit_text])


def parse_cards(text: str | list[object] | None) -> tuple[Card, ...]:
    """A pile: a space-separated string or a list of card strings."""
    if text is None:
        return ()
    if isinstance(text, str):
        return tuple(parse_card(part) for part in text.split())
    if isinstance(text, list):
        return tuple(parse_card(str(part)) for part in text)
    raise CardError(f"not a list of cards: {text!r}")


def cards_text(cards: tuple[int, ...] | list[int]) -> str:
    return " ".join(card_name(c) for c in cards)
