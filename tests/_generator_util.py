"""Test helper: a valid position from the piles alone (foundations hold everything else)."""

from __future__ import annotations

from typing import Any

from agnes_teach.cards import SUITS, card_name, make_card, parse_card, suit_of
from agnes_teach.position import Position, parse_position


def make_position(base: int, tableau: list[str], reserve: list[str] | None = None,
                  exposed: list[str] | None = None, stock: str = "", profile: str = "bernauer") -> Position:
    """Every card not in a pile is home; each suit's cards out must be the end of its foundation order."""
    reserve = reserve or []
    piles = [p for p in tableau + reserve + (exposed or [])] + [stock]
    placed = [parse_card(c) for p in piles for c in p.split()]
    foundations: dict[str, str] = {}
    for s in range(4):
        order = [make_card((base - 1 + i) % 13 + 1, s) for i in range(13)]
        mine = [c for c in placed if suit_of(c) == s]
        k = 13 - min((order.index(c) for c in mine), default=13)
        missing = [card_name(c) for c in order[13 - k:] if c not in placed]
        assert not missing, f"cards out but not placed: {missing}"
        if k < 13:
            foundations[SUITS[s]] = card_name(order[12 - k])
    data: dict[str, Any] = {
        "profile": profile, "base": base, "foundations": foundations,
        "tableau": [p or [] for p in tableau] + [[]] * (7 - len(tableau)),
        "reserve": [p or [] for p in reserve] + [[]] * (7 - len(reserve)),
        "stock": stock or [],
        "exposed": [p or [] for p in exposed] if exposed else [],
    }
    return parse_position(data)
