"""Positions: immutable values, parsed and validated from the YAML form of formats.md."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from .cards import (
    FULL_DECK,
    SUIT_SYMBOLS,
    SUITS,
    Card,
    card_name,
    card_symbol,
    make_card,
    rank_at,
    rank_index,
    rank_name,
    rank_of,
    suit_of,
)
from .errors import InputError, Problem, ProfileError
from .fields import convert
from .piles import Pile, PileKind
from .profile import Profile, get_profile
from .registry import RuleId
from .validation import shape_issues
from .yamlio import Locator

Cards = tuple[Card, ...]  # one pile's cards, bottom to top

# Enum members are slow to look up on the class, and the rule predicates read piles all the time.
_COLUMN, _RESERVE, _EXPOSED = PileKind.COLUMN, PileKind.RESERVE, PileKind.EXPOSED


@dataclass(frozen=True, slots=True)
class Position:
    """A game state.  Piles list cards bottom to top; foundations are card counts per suit."""

    profile: Profile
    base: int
    foundations: tuple[int, int, int, int]  # S H D C: how many cards each holds
    tableau: tuple[Cards, ...]
    reserve: tuple[Cards, ...]
    exposed: tuple[Cards, ...]
    stock: Cards  # dealing order: stock[0] is dealt first

    def foundation_cards(self, suit: int) -> Cards:
        return tuple(make_card(rank_at(self.base, i), suit) for i in range(self.foundations[suit]))

    def foundation_top(self, suit: int) -> Card | None:
        n = self.foundations[suit]
        return make_card(rank_at(self.base, n - 1), suit) if n else None

    def is_home(self, card: Card) -> bool:
        """Whether the card already lies on its foundation."""
        return rank_index(self.base, rank_of(card)) < self.foundations[suit_of(card)]

    @property
    def deals_done(self) -> int:
        done = self.profile.deals_done(len(self.stock))
        assert done is not None
        return done

    def piles_of(self, kind: PileKind) -> tuple[Cards, ...]:
        """The piles of one kind (columns, reserve piles or exposed cells), in order."""
        if kind is _COLUMN:
            return self.tableau
        if kind is _RESERVE:
            return self.reserve
        if kind is _EXPOSED:
            return self.exposed
        raise ValueError(f"{kind.name.lower()} is not a pile of cards in a row")

    def pile(self, name: Pile | str) -> Cards:
        pile = name if type(name) is Pile else Pile.parse(name)
        return self.piles_of(pile.kind)[pile.offset]

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

    def __repr__(self) -> str:
        """One line, cards as people write them: ``Position(bernauer, base 10, f 10♥, t 7♠ | ...)``."""

        def piles(group: tuple[Cards, ...]) -> str:
            return " | ".join(" ".join(card_symbol(c) for c in p) or "-" for p in group)

        homes = " ".join(card_symbol(top) for s in range(4) if (top := self.foundation_top(s)) is not None)
        parts = [self.profile.id, f"base {rank_name(self.base)}", f"f {homes or '-'}",
                 f"t {piles(self.tableau)}"]
        if self.reserve:
            parts.append(f"r {piles(self.reserve)}")
        if any(self.exposed):
            parts.append(f"x {piles(self.exposed)}")
        parts.append(f"stock {len(self.stock)}")
        return f"Position({', '.join(parts)})"

    def __str__(self) -> str:
        """The layout, one pile a line, bottom to top (the stock's order is not shown)."""
        lines = [f"{self.profile.id}, base {rank_name(self.base)}"]
        homes = [card_symbol(top) for s in range(4) if (top := self.foundation_top(s)) is not None]
        lines.append("f:  " + (" ".join(homes) or "-"))
        for prefix, group in (("t", self.tableau), ("r", self.reserve), ("x", self.exposed)):
            for i, pile in enumerate(group, 1):
                lines.append(f"{prefix}{i}: " + (" ".join(card_symbol(c) for c in pile) or "-"))
        lines.append(f"stock: {len(self.stock)} cards")
        return "\n".join(lines)

    def with_profile(self, profile: Profile) -> Position:
        return replace(self, profile=profile)

    def to_data(self) -> dict[str, Any]:
        """The YAML form of formats.md (card names, bottom to top)."""

        def pile(p: Cards) -> str | list[str]:
            return " ".join(card_name(c) for c in p) if p else []

        base: int | str = self.base if 2 <= self.base <= 10 else rank_name(self.base)
        # A house-rules profile is named by the file it was read from, so the file loads again.
        data: dict[str, Any] = {"profile": self.profile.source or self.profile.id, "base": base}
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
    """Build a Position from its YAML form; InputError listing every problem found.

    The shapes of the fields are checked first, against the table of
    ``agnes_teach.fields`` (the same rules as the JSON Schema); then what
    depends on the profile and on all the cards together.
    """
    loc = where or Locator(None, None)
    issues = shape_issues(data, "position")
    if issues:
        raise InputError([loc.problem(i.message, *i.path) for i in issues])
    assert isinstance(data, dict)
    return position_from_values(convert(data, "position"), loc, profile)


def _profile_name(name: str | None, loc: Locator) -> str | None:
    """A relative profile file path is read from the scenario's folder first (a scenario and its
    house rules travel together), then from the working folder."""
    if not name or not name.endswith((".yaml", ".yml")) or Path(name).is_absolute() or not loc.file:
        return name
    beside = Path(loc.file).parent / name
    return str(beside) if beside.is_file() else name


def position_from_values(
    values: dict[str, Any], loc: Locator, profile: Profile | None = None
) -> Position:
    """A Position from converted field values (``fields.convert``); InputError naming what the
    profile or the cards together forbid."""
    problems: list[Problem] = []

    def bad(message: str, *path: str | int) -> None:
        problems.append(loc.problem(message, *path))

    if profile is None:
        profile = _profile_of(values, loc)
    base = _base_of(values, profile, bad)
    # Without a usable base the foundations' cards are unknown: counting cards would only
    # echo that problem as a list of "duplicated"/"missing" cards.
    cards_known = not problems
    base = base or 1
    tableau = _piles_of(values, "tableau", profile.columns, "columns", "t", profile, bad)
    reserve = _piles_of(values, "reserve", profile.reserve_piles, "reserve piles", "r", profile, bad)
    # exposed: the cells' cards in order, x1 first; a shorter list leaves the last cells empty.
    exposed = _piles_of(values, "exposed", profile.exposed_cells, "exposed cells", "x", profile, bad)
    if values.get("exposed") and any(values["exposed"]) and profile.exposed_cells == 0:
        bad(f"{profile.id} has no exposed cells", "exposed")
    stock: Cards = values.get("stock") or ()

    before_foundations = len(problems)
    foundations, tops = _foundations_of(values, base, bad)
    position = Position(profile, base, foundations, tableau, reserve, exposed, stock)
    cards_known = cards_known and len(problems) == before_foundations
    layout = _layout_problems(position, loc, cards_known)
    problems.extend(layout)
    if cards_known and any(p.message.startswith(("duplicated cards", "missing cards")) for p in layout):
        hint = _base_hint(position, tops, loc)
        if hint is not None:
            problems.append(hint)
    if problems:
        raise InputError(problems)
    return position


Complain = Callable[..., None]  # records one problem: (message, *path of keys and indexes)


def _profile_of(values: dict[str, Any], loc: Locator) -> Profile:
    """The profile the values name (bernauer when they name none)."""
    name = values.get("profile")
    try:
        return get_profile(_profile_name(name, loc))
    except ProfileError as exc:  # a house-rules file that is missing or broken: say where it is named
        raise ProfileError([loc.problem(f"profile {name}: {p.message}", "profile") if not p.file
                            or p.file == name else p for p in exc.problems]) from None


def _base_of(values: dict[str, Any], profile: Profile, bad: Complain) -> int:
    """The base rank given, or the profile's (0 when neither says); `bad` when it cannot be."""
    base = profile.base_rank or 0
    given: int | None = values.get("base")
    if given is None:
        if profile.base_dealt:
            bad("'base' is missing: write the base rank, the rank of the card dealt first to its "
                "foundation (base: A, 2..10, J, Q or K)")
        return base
    if profile.base_rank and given != profile.base_rank:
        bad(
            f"base {rank_name(given)} is not possible in {profile.id}: "
            f"its foundations start at {rank_name(profile.base_rank)} (write base: "
            f"{rank_name(profile.base_rank)} or leave it out)",
            "base",
        )
    return given


def _piles_of(values: dict[str, Any], key: str, count: int, label: str, letter: str, profile: Profile,
              bad: Complain) -> tuple[Cards, ...]:
    """The `count` piles under `key`, empty ones added; `bad` when the file lists another number."""
    raw: list[Cards] | None = values.get(key)
    if raw is None:
        if count and key != "exposed":
            bad(f"'{key}' is missing: {profile.id} has {count} {label} {letter}1..{letter}{count}, "
                f"each a list of cards bottom to top (write [] for an empty one)", key)
        raw = []
    if key == "exposed":
        if len(raw) > count:
            bad(f"'exposed' lists {len(raw)} cells; {profile.id} has "
                + (f"{count} ({', '.join(Pile.exposed(i + 1) for i in range(count))})"
                   if count else "none"), key)
    elif raw and len(raw) != count:
        piles_text = f"{len(raw)} pile" + ("s" if len(raw) != 1 else "")
        fix = "add [] for each empty one" if len(raw) < count else "remove the extra ones"
        bad(f"'{key}' has {piles_text}; {profile.id} has {count} {label} {letter}1..{letter}{count} "
            f"({fix})", key)
    out = list(raw[:count]) + [()] * max(0, count - len(raw))
    return tuple(out) if count else ()


def _foundations_of(values: dict[str, Any], base: int,
                    bad: Complain) -> tuple[tuple[int, int, int, int], dict[int, Card]]:
    """How many cards each foundation holds, and its top card by suit; `bad` for a suit given
    twice or a top card of another suit."""
    foundations = [0, 0, 0, 0]
    tops: dict[int, Card] = {}
    given_suits: dict[int, str] = {}
    for key, top in (values.get("foundations") or {}).items():
        suit = _suit_key(key)
        assert suit is not None  # the shape check allows suit keys only
        if suit in given_suits:
            bad(f"foundation {SUITS[suit]} is given twice ({given_suits[suit]!r} and {key!r})",
                "foundations", key)
            continue
        given_suits[suit] = key
        if top is None:
            continue
        if suit_of(top) != suit:
            bad(f"foundation {SUITS[suit]} cannot have {card_name(top)} on top "
                f"(a foundation holds one suit: write it under {SUITS[suit_of(top)]})", "foundations", key)
            continue
        tops[suit] = top
        foundations[suit] = rank_index(base, rank_of(top)) + 1
    return (foundations[0], foundations[1], foundations[2], foundations[3]), tops


def _base_hint(pos: Position, tops: dict[int, Card], loc: Locator) -> Problem | None:
    """A wrong base shows up as missing or doubled cards: name the base that would fit."""
    if pos.profile.base_rank or not tops:
        return None
    for base in range(1, 14):
        if base == pos.base:
            continue
        counts = [0, 0, 0, 0]
        for suit, top in tops.items():
            counts[suit] = rank_index(base, rank_of(top)) + 1
        trial = replace(pos, base=base, foundations=(counts[0], counts[1], counts[2], counts[3]))
        if sorted(trial.all_cards()) == list(FULL_DECK):
            return loc.problem(
                f"with base {rank_name(base)} instead of {rank_name(pos.base)} every card would be "
                f"there exactly once: is the base {rank_name(base)}? (write base: {rank_name(base)})", "base")
    return None


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
            if len(pile) > highest[Pile.reserve(i + 1)]:
                problems.append(loc.problem(
                    f"reserve pile r{i + 1} holds {len(pile)} cards; it never holds more than "
                    f"{highest[Pile.reserve(i + 1)]}", "reserve", i))
    else:
        heights = profile.max_pile_heights(done)
        for i, pile in enumerate(pos.reserve):
            if len(pile) > heights[Pile.reserve(i + 1)]:
                problems.append(loc.problem(
                    f"reserve pile r{i + 1} holds {len(pile)} cards; after {done} deal(s) "
                    f"it can hold at most {heights[Pile.reserve(i + 1)]}", "reserve", i))
        for i, pile in enumerate(pos.exposed):
            if pile and pos.stock:
                problems.append(loc.problem(
                    f"exposed card in x{i + 1} while the stock still holds {len(pos.stock)} cards "
                    "(the exposed cards come only with the last deal)", "exposed", i))
            elif len(pile) > heights[Pile.exposed(i + 1)]:
                problems.append(loc.problem(
                    f"exposed cell x{i + 1} holds {len(pile)} cards; it holds at most one", "exposed", i))
    if cards_known and profile.base_dealt and profile.uses(RuleId.FOUNDATION_FINAL) \
            and not any(pos.foundations):
        problems.append(loc.problem(
            "no foundation holds a card, but the first card dealt starts one and never leaves "
            "(deal.base)", "foundations"))
    return problems
