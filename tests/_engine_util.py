"""Helpers for the engine tests: compact hand-built positions and move checks.

``build`` places a few cards by hand and puts every other card on its
foundation, then goes through the real parser and validator
(``parse_position``), so every test position is a valid one holding all 52
cards.  The cards left for a suit must be exactly the first ranks of that suit
counted from the base (what a foundation can hold); anything else is a mistake
in the test and fails loudly.
"""

from __future__ import annotations

from typing import Any

from agnes_teach.cards import SUITS, card_name, make_card, parse_card, rank_of, suit_of
from agnes_teach.engine import judge, resolve
from agnes_teach.moves import Move, parse_move_text
from agnes_teach.position import Position, parse_position
from agnes_teach.profile import get_profile

PileSpec = str | list[str]


def cards_of(spec: PileSpec) -> list[str]:
    return spec.split() if isinstance(spec, str) else list(spec)


def build(
    profile: str = "bernauer",
    base: int | str = 5,
    tableau: dict[int, PileSpec] | None = None,
    reserve: dict[int, PileSpec] | None = None,
    exposed: dict[int, PileSpec] | None = None,
    stock: PileSpec = "",
) -> Position:
    """A valid position: piles given by number (``tableau={3: "9S 8H"}``), the rest home.

    ``base`` is ignored for profiles whose foundations start at a fixed rank.
    """
    prof = get_profile(profile)
    base_rank = prof.base_rank or parse_card(f"{base}S") % 13 + 1
    placed: list[int] = []

    def piles(spec: dict[int, PileSpec] | None, count: int) -> list[list[str]]:
        out: list[list[str]] = [[] for _ in range(count)]
        for number, cards in (spec or {}).items():
            out[number - 1] = cards_of(cards)
            placed.extend(parse_card(c) for c in out[number - 1])
        return out

    data: dict[str, Any] = {"profile": profile}
    if prof.base_dealt:
        data["base"] = base
    data["tableau"] = piles(tableau, prof.columns)
    data["reserve"] = piles(reserve, prof.reserve_piles)
    exposed_piles = piles(exposed, prof.exposed_cells)
    data["exposed"] = exposed_piles if any(exposed_piles) else []
    data["stock"] = cards_of(stock)
    placed.extend(parse_card(c) for c in data["stock"])
    assert len(placed) == len(set(placed)), "a card is placed twice"

    foundations: dict[str, str] = {}
    for suit in range(4):
        left = sorted((c for c in range(52) if suit_of(c) == suit and c not in placed),
                      key=lambda c: (rank_of(c) - base_rank) % 13)
        expected = [make_card((base_rank - 1 + i) % 13 + 1, suit) for i in range(len(left))]
        assert left == expected, (
            f"the {SUITS[suit]} cards not placed ({' '.join(card_name(c) for c in left)}) "
            "are not a foundation from the base")
        if left:
            foundations[SUITS[suit]] = card_name(left[-1])
    data["foundations"] = foundations
    return parse_position(data)


def verdict(pos: Position, text: str) -> str | None:
    """None if the move text is legal in `pos`, else the rule id that refuses it.

    The text goes the way ``check`` takes it: parsed, resolved against the
    position (``SRC>DEST`` forms), then judged by the engine.
    """
    why = judge(pos, parse_move_text(text))
    return None if why is None else why.rule


def move(pos: Position, text: str) -> Move:
    return resolve(pos, parse_move_text(text))


def every_candidate(pos: Position) -> list[Move]:
    """Every well-formed move: each card to each pile name (also ones the profile lacks), and deal."""
    prof = pos.profile
    dests = (["f"] + [f"t{i + 1}" for i in range(prof.columns + 1)]
             + [f"r{i + 1}" for i in range(prof.reserve_piles + 1)]
             + [f"x{i + 1}" for i in range(prof.exposed_cells + 1)])
    out = [Move(parse_card(card_name(c)), d) for c in range(52) for d in dests]
    out.append(Move(None, "deal"))
    return out
