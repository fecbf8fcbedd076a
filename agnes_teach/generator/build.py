"""Building small endgame positions around a lesson.

A draft starts from a nearly finished game: every foundation is complete but
for its last few cards, and those cards are laid out on the tableau, the
reserve, the exposed cells and the stock in shapes a real game can reach.
Theme builders (each in its theme module, ``Theme.build``) choose the base,
which cards are out, the order they are played in and where the lesson's
cards lie.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..cards import Card, make_card, rank_at
from ..engine import builds_on, run_start
from ..errors import InputError
from ..piles import Pile, PileKind
from ..position import Position, parse_position
from ..profile import Profile


def foundation_order(base: int, suit: int) -> list[Card]:
    """The 13 cards of `suit` in the order its foundation takes them."""
    return [make_card(rank_at(base, i), suit) for i in range(13)]


@dataclass
class Draft:
    """A position under construction (mutable; turned into a Position at the end)."""

    profile: Profile
    base: int
    out: list[int]  # per suit S H D C: how many cards are not yet home
    stock_size: int
    tableau: list[list[Card]] = field(default_factory=list)
    reserve: list[list[Card]] = field(default_factory=list)
    exposed: list[list[Card]] = field(default_factory=list)
    stock: list[Card] = field(default_factory=list)

    def __post_init__(self) -> None:
        p = self.profile
        self.tableau = self.tableau or [[] for _ in range(p.columns)]
        self.reserve = self.reserve or [[] for _ in range(p.reserve_piles)]
        self.exposed = self.exposed or [[] for _ in range(p.exposed_cells)]

    @property
    def deals_done(self) -> int:
        done = self.profile.deals_done(self.stock_size)
        assert done is not None, self.stock_size
        return done

    def out_cards(self, suit: int) -> list[Card]:
        """The cards of `suit` not yet home, in the order the foundation wants them."""
        k = self.out[suit]
        return foundation_order(self.base, suit)[13 - k:] if k else []

    # ---------------------------------------------------------------- spots

    def can_put(self, pile: str, card: Card) -> bool:
        """May `card` go on top of `pile` and keep the shape a game can reach?"""
        kind, i = (where := Pile.parse(pile)).kind, where.offset
        if kind is PileKind.COLUMN:
            column = self.tableau[i]
            if column and builds_on(card, column[-1], self.profile.tableau_wrap):
                return True
            # Below the top run lie only cards dealt there: at most the column's deal.
            return len(column) < self.profile.column_lengths[i]
        if kind is PileKind.RESERVE:
            height = self.profile.max_pile_heights(self.deals_done)[where]
            return len(self.reserve[i]) < height
        height = self.profile.max_pile_heights(self.deals_done)[where]
        return not self.stock_size and len(self.exposed[i]) < height

    def put(self, pile: str, card: Card) -> None:
        where = Pile.parse(pile)
        {PileKind.COLUMN: self.tableau, PileKind.RESERVE: self.reserve,
         PileKind.EXPOSED: self.exposed}[where.kind][where.offset].append(card)

    def piles(self) -> list[Pile]:
        return list(self.profile.pile_names())

    def position(self) -> Position | None:
        """The Position, or None when the draft is not a valid, reachable one."""
        data = self.to_data()
        try:
            pos = parse_position(data, profile=self.profile)
        except InputError:
            return None
        return pos if not shape_problems(pos) else None

    def to_data(self) -> dict[str, object]:
        from ..cards import SUITS, card_name

        def text(p: list[Card]) -> str | list[str]:
            return " ".join(card_name(c) for c in p) if p else []

        foundations = {}
        for s in range(4):
            home = 13 - self.out[s]
            if home:
                foundations[SUITS[s]] = card_name(foundation_order(self.base, s)[home - 1])
        return {
            "profile": self.profile.id,
            "base": self.base,
            "foundations": foundations,
            "tableau": [text(p) for p in self.tableau],
            "reserve": [text(p) for p in self.reserve],
            "stock": text(self.stock),
            "exposed": [text(p) for p in self.exposed] if any(self.exposed) else [],
        }


def shape_problems(pos: Position) -> list[str]:
    """What no game of the profile can reach, beyond what parse_position checks.

    A column is its dealt cards with a valid run built on the last of them (or,
    once emptied, a run alone), so the cards below its top run are at most the
    cards dealt to it.
    """
    problems = []
    wrap = pos.profile.tableau_wrap
    for i, column in enumerate(pos.tableau):
        if column and run_start(column, wrap) > pos.profile.column_lengths[i] - 1:
            problems.append(f"t{i + 1}: {run_start(column, wrap)} cards lie below its top run, "
                            f"more than the {pos.profile.column_lengths[i]} dealt there")
    return problems
