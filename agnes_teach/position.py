"""Positions: immutable values, parsed and validated from the YAML form of formats.md."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

from .cards import (
    FULL_DECK,
    SUIT_SYMBOLS,
    SUITS,
    Card,
    CardError,
    card_name,
    make_card,
    parse_card,
    parse_rank,
    rank_name,
    suit_of,
)
from .errors import InputError, Problem
from .profile import Profile, get_profile
from .yamlio import Locator

Pile = tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Position:
    """A game state.  Piles list cards bottom to top; foundations are card counts per suit."""

    profile: Profile
    base: int
    foundations: tuple[int, int, int, int]  # S H D C: how many cards each holds
    tableau: tuple[Pile, ...]
    reserve: tuple[Pile, ...]
    exposed: tuple[Pile, ...]
    stock: Pile  # dealing order: stock[0] is dealt first

    def foundation_cards(self, suit: int) -> Pile:
        return tuple(make_card((self.base - 1 + i) % 13 + 1, suit) for i in range(self.foundations[suit]))

    def foundation_top(self, suit: int) -> Card | None:
        n = self.foundations[suit]
        return make_card((self.base - 1 + n - 1) % 13 + 1, suit) if n else None

    @property
    def deals_done(self) -> int:
        done = self.profile.deals_done(len(self.stock))
        assert done is not None
        return done

    def pile(self, name: str) -> Pile:
        kind, index = name[0], int(name[1:]) - 1
        piles = {"t": self.tableau, "r": self.reserve, "x": self.exposed}[kind]
        return piles[index]

    def is_won(self) -> bool:
        return all(n == 13 for n in self.foundations)

    def cards_home(self) -> int:
        return sum(self.foundations)

    def all_cards(self) -> list[Card]:
        out: list[Card] = []
        for s in range(4):
            out.extend(self.foundation_cards(s))
        for group in (self.tableau, self.reserve, self.exposed):
            for p in group:
                out.extend(p)
        out.extend(self.stock)
        return out

    def with_profile(self, profile: Profile) -> Position:
        return replace(self, profile=profile)

    def to_data(self) -> dict[str, Any]:
        """The YAML form of formats.md (card names, bottom to top)."""

        def pile(p: Pile) -> str | list[str]:
            return " ".join(card_name(c) for c in p) if p else []

        base: int | str = self.base if 2 <= self.base <= 10 else rank_name(self.base)
        data: dict[str, Any] = {"profile": self.profile.id, "base": base}
        data["foundations"] = {
            SUITS[s]: card_name(top) for s in range(4) if (top := self.foundation_top(s)) is not None
        }
        data["tableau"] = [pile(p) for p in self.tableau]
        data["reserve"] = [pile(p) for p in self.reserve]
        data["stock"] = pile(self.stock)
        data["exposed"] = [pile(p) for p in self.exposed] if any(self.exposed) else []
        return data


def _suit_key(key: object) -> int | None:
    text = str(key).strip().upper()
    if len(text) == 1 and text in SUITS:
        return SUITS.index(text)
    if len(text) == 1 and text in SUIT_SYMBOLS:
        return SUIT_SYMBOLS.index(text)
    return None


def parse_position(
    data: object, where: Locator | None = None, profile: Profile | None = None
) -> Position:
    """Build a Position from its YAML form; InputError listing every problem found."""
    loc = where or Locator(None, None)
    problems: list[Problem] = []

    def bad(message: str, *path: str | int) -> None:
        problems.append(loc.problem(message, *path))

    if not isinstance(data, dict):
        raise InputError(loc.problem("a position must be a YAML mapping (profile, base, tableau, ...)"))
    known = {"profile", "base", "foundations", "tableau", "reserve", "stock", "exposed"}
    for key in data:
        if key not in known:
            bad(f"unknown key {key!r} in a position (known: {', '.join(sorted(known))})", key)

    if profile is None:
        try:
            profile = get_profile(str(data["profile"]) if data.get("profile") is not None else None)
        except InputError as exc:
            raise InputError(loc.problem(exc.problems[0].message, "profile")) from None

    # base
    base = profile.base_rank or 0
    before_base = len(problems)
    if data.get("base") is None:
        if profile.base_dealt:
            bad("'base' is missing: the base rank (A, 2..10, J, Q, K)")
    else:
        try:
            given = parse_rank(data["base"])
        except CardError as exc:
            bad(str(exc), "base")
        else:
            if profile.base_rank and given != profile.base_rank:
                bad(
                    f"base {rank_name(given)} is not possible in {profile.id}: "
                    f"its foundations start at {rank_name(profile.base_rank)}",
                    "base",
                )
            base = given
    base = base or 1
    # Without a usable base the foundations' cards are unknown: counting cards would only
    # echo that problem as a list of "duplicated"/"missing" cards.
    cards_known = len(problems) == before_base

    def piles(key: str, count: int, label: str) -> tuple[Pile, ...]:
        raw = data.get(key)
        if raw is None:
            raw = []
        if not isinstance(raw, list):
            bad(f"'{key}' must be a list of piles", key)
            return tuple(() for _ in range(count))
        if len(raw) != count and not (key == "exposed" and len(raw) == 0):
            piles_text = f"{len(raw)} pile" + ("s" if len(raw) != 1 else "")
            bad(f"'{key}' has {piles_text}; {profile.id} has {count} ({label})", key)
        out: list[Pile] = []
        for i, item in enumerate(raw):
            out.append(cards_at(item, key, i))
        out += [()] * (count - len(out))
        return tuple(out[:count]) if count else ()

    def cards_at(item: object, *path: str | int) -> Pile:
        if item is None or item == []:
            return ()
        parts: list[object]
        if isinstance(item, str):
            parts = list(item.split())
        elif isinstance(item, list):
            parts = list(item)
        else:
            parts = [item]
        cards: list[Card] = []
        for part in parts:
            try:
                cards.append(parse_card(str(part)) if not isinstance(part, bool) else parse_card(""))
            except CardError as exc:
                bad(str(exc), *path)
        return tuple(cards)

    tableau = piles("tableau", profile.columns, f"columns t1..t{profile.columns}")
    reserve = piles("reserve", profile.reserve_piles, f"reserve piles r1..r{profile.reserve_piles}")
    exposed = piles("exposed", profile.exposed_cells, "exposed cells")
    if data.get("exposed") and profile.exposed_cells == 0:
        bad(f"{profile.id} has no exposed cells", "exposed")
    stock = cards_at(data.get("stock"), "stock")

    foundations = [0, 0, 0, 0]
    before_foundations = len(problems)
    raw_f = data.get("foundations")
    if raw_f is None:
        raw_f = {}
    if not isinstance(raw_f, dict):
        bad("'foundations' must map a suit to its top card (H: 6H)", "foundations")
        raw_f = {}
    for key, value in raw_f.items():
        suit = _suit_key(key)
        if suit is None:
            bad(f"foundation key {key!r} is not a suit (S, H, D, C)", "foundations", key)
            continue
        if value is None or value == [] or value == "":
            continue
        try:
            top = parse_card(str(value))
        except CardError as exc:
            bad(str(exc), "foundations", key)
            continue
        if suit_of(top) != suit:
            bad(f"foundation {SUITS[suit]} cannot have {card_name(top)} on top", "foundations", key)
            continue
        foundations[suit] = (top % 13 + 1 - base) % 13 + 1

    position = Position(profile, base, (foundations[0], foundations[1], foundations[2], foundations[3]),
                        tableau, reserve, exposed, stock)
    cards_known = cards_known and len(problems) == before_foundations
    problems.extend(_layout_problems(position, loc, cards_known))
    if problems:
        raise InputError(problems)
    return position


def _layout_problems(pos: Position, loc: Locator, cards_known: bool = True) -> list[Problem]:
    """Card conservation and the shapes a game of this profile can reach.

    With ``cards_known`` false (the base or a foundation could not be read), the
    checks that depend on the foundations' cards are left out.
    """
    problems: list[Problem] = []
    profile = pos.profile
    counts = Counter(pos.all_cards())
    dupes = sorted(c for c, n in counts.items() if n > 1) if cards_known else []
    missing = sorted(set(FULL_DECK) - set(counts)) if cards_known else []
    if dupes:
        problems.append(loc.problem("duplicated cards: " + " ".join(card_name(c) for c in dupes)))
    if missing:
        problems.append(loc.problem("missing cards: " + " ".join(card_name(c) for c in missing)))
    sizes = profile.stock_sizes()
    done = profile.deals_done(len(pos.stock))
    if done is None:
        problems.append(loc.problem(
            f"a stock of {len(pos.stock)} cards is impossible in {profile.id} "
            f"(it holds {', '.join(map(str, sizes))})", "stock"))
        # The deals done are unknown, but no game ever piles higher than after the last one.
        highest = profile.max_pile_heights(len(profile.stock_deals))
        for i, pile in enumerate(pos.reserve):
            if len(pile) > highest[f"r{i + 1}"]:
                problems.append(loc.problem(
                    f"reserve pile r{i + 1} holds {len(pile)} cards; it never holds more than "
                    f"{highest[f'r{i + 1}']}", "reserve", i))
    else:
        heights = profile.max_pile_heights(done)
        for i, pile in enumerate(pos.reserve):
            if len(pile) > heights[f"r{i + 1}"]:
                problems.append(loc.problem(
                    f"reserve pile r{i + 1} holds {len(pile)} cards; after {done} deal(s) "
                    f"it can hold at most {heights[f'r{i + 1}']}", "reserve", i))
        for i, pile in enumerate(pos.exposed):
            if pile and pos.stock:
                problems.append(loc.problem(
                    f"exposed card in x{i + 1} while the stock still holds {len(pos.stock)} cards "
                    "(the exposed cards come only with the last deal)", "exposed", i))
            elif len(pile) > heights[f"x{i + 1}"]:
                problems.append(loc.problem(
                    f"exposed cell x{i + 1} holds {len(pile)} cards; it holds at most one", "exposed", i))
    if cards_known and profile.base_dealt and profile.uses("foundation.final") and not any(pos.foundations):
        problems.append(loc.problem(
            "no foundation holds a card, but the first card dealt starts one and never leaves "
            "(deal.base)", "foundations"))
    return problems
