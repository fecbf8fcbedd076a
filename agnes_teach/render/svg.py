"""Position diagrams as inline SVG, drawn here from the position alone.

The layout is a grid of card slots.  Top row: the four foundations (S H D C,
each showing its top card, or a faint base-rank placeholder while empty), the
stock (a card back with the number of cards left) and the exposed cells.
Below: the tableau columns, fanned downwards so every card's corner index is
readable, then the reserve piles, fanned the same way with covered cards
shaded.  Every card carries its rank and suit symbol, so red and black stay
distinguishable without colour, and a ``<title>`` naming it for screen
readers.  An optional move is drawn as an arrow from the moving card to its
destination, with the moving card outlined.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape

from markupsafe import Markup

from .. import i18n
from ..cards import SUIT_SYMBOLS, card_symbol, is_red, make_card, rank_name, rank_of, suit_of
from ..engine import locate
from ..moves import Move
from ..piles import Pile, PileKind
from ..position import Position
from ..profile import Profile

CARD_W = 46
CARD_H = 64
PITCH = 54  # horizontal distance between slot origins
FAN = 19  # vertical offset of a card lying on another in a column
RESERVE_FAN = 17
MARGIN = 8
LABEL_H = 16  # room above a row for the pile labels
RED = "#c0182a"
BLACK = "#111111"
FONT = "DejaVu Sans, sans-serif"


@dataclass(frozen=True)
class Slot:
    """Where a pile's cards are drawn: the bottom card's corner and the fan step."""

    x: float
    y: float
    fan: float

    def card_y(self, index: int) -> float:
        return self.y + index * self.fan


@dataclass
class _Layout:
    width: float
    height: float
    foundations: list[Slot]
    stock: Slot
    exposed: list[Slot]
    tableau: list[Slot]
    reserve: list[Slot]


def _layout(pos: Position) -> _Layout:
    p = pos.profile
    n_exposed = p.exposed_cells
    slots_wide = max(p.columns, 4 + 1 + n_exposed, p.reserve_piles)
    width = 2 * MARGIN + (slots_wide - 1) * PITCH + CARD_W
    top_y = MARGIN + LABEL_H
    foundations = [Slot(MARGIN + i * PITCH, top_y, 0) for i in range(4)]
    # The stock follows the foundations (visible first on a narrow screen), then the exposed cells.
    stock = Slot(MARGIN + 4 * PITCH, top_y, 0)
    exposed = [Slot(MARGIN + (5 + i) * PITCH, top_y, 0) for i in range(n_exposed)]
    tab_y = top_y + CARD_H + 10 + LABEL_H
    tableau = [Slot(MARGIN + i * PITCH, tab_y, FAN) for i in range(p.columns)]
    tallest = max([len(c) for c in pos.tableau] + [1])
    res_y = tab_y + (tallest - 1) * FAN + CARD_H + 12 + LABEL_H
    reserve = [Slot(MARGIN + i * PITCH, res_y, RESERVE_FAN) for i in range(p.reserve_piles)]
    highest = max([len(r) for r in pos.reserve] + [1])
    height = res_y + (highest - 1) * RESERVE_FAN + CARD_H + MARGIN
    return _Layout(width, height, foundations, stock, exposed, tableau, reserve)


def exposed_deal(profile: Profile) -> int | None:
    """The 1-based number of the deal that lays the exposed cells (bernauer: 3), or None."""
    for number, targets in enumerate(profile.stock_deals, 1):
        if any(p.kind is PileKind.EXPOSED for p in targets):
            return number
    return None


def deal_ordinal(number: int, lang: str) -> str:
    """"third" (deal), in the grammatical form the deal's noun needs in `lang` (третья, tercer)."""
    key = str(number)
    return i18n.text(lang, "ordinal-deal", key) if i18n.has(lang, "ordinal-deal", key) else key


def profile_name(profile: Profile, lang: str) -> str:
    """The profile's name in `lang` (``msgctxt "profile-name"``, keyed by profile id)."""
    name = i18n.text(lang, "profile-name", profile.id)
    return profile.name if name == profile.id else name


def sheet_title(profiles: Sequence[Profile], lang: str) -> str:
    """A worksheet's heading: the game (or games) its puzzles are played in."""
    games = ", ".join(profile_name(p, lang) for p in profiles)
    return i18n.text(lang, "sheet", "{game}: worksheet", game=games)


def piles_legend(profiles: Sequence[Profile], lang: str) -> str:
    """The legend's line for the pile names the diagrams use: as many columns and reserve piles as
    the largest of the sheet's games has (a Russian sheet has six reserve piles, a Sorel sheet none)."""
    columns = _pile_range(Pile.column, max(p.columns for p in profiles))
    reserves = max(p.reserve_piles for p in profiles)
    if not reserves:
        return i18n.text(lang, "sheet", "{columns}: the columns; f: a foundation.", columns=columns)
    named = _pile_range(Pile.reserve, reserves)
    return i18n.text(lang, "sheet", "{columns}: the columns; {reserves}: the reserve piles (covered cards "
                     "shaded); f: a foundation.", columns=columns, reserves=named)


def _pile_range(name: Callable[[int], Pile], count: int) -> str:
    return name(1) if count == 1 else f"{name(1)}…{name(count)}"


def base_legends(profiles: Sequence[Profile], lang: str) -> list[str]:
    """The legend's lines for where the foundations start: the dealt base card, or each fixed rank."""
    lines = []
    if any(p.base_dealt for p in profiles):
        lines.append(i18n.text(lang, "sheet", "The base card on the foundations sets the first rank of "
                               "every foundation; n/13 counts the cards of a suit already home."))
    for rank in sorted({p.base_rank for p in profiles if not p.base_dealt and p.base_rank}):
        lines.append(i18n.text(lang, "sheet", "Every foundation starts with {rank}; n/13 counts the cards "
                               "of a suit already home.", rank=i18n.rank_letter(lang, rank_name(rank))))
    return lines


def exposed_legend(profile: Profile, lang: str) -> str | None:
    """The sheet's legend line for x1 x2: the last cards, dealt apart by a deal of their own."""
    number = exposed_deal(profile)
    if number is None:
        return None
    cells = " ".join(Pile.exposed(i + 1) for i in range(profile.exposed_cells))
    return i18n.ntext(lang, "sheet", "{cells}: the last card of the stock, laid face up apart from the "
                      "reserve by a deal of its own, the {ordinal} deal (written deal).",
                      "{cells}: the last {n} cards of the stock, laid face up apart from the reserve by a "
                      "deal of their own, the {ordinal} deal (written deal).", profile.exposed_cells,
                      cells=cells, ordinal=deal_ordinal(number, lang))


def last_cards_note(pos: Position, lang: str) -> str | None:
    """For a task: the last cards still in the stock come only with a deal of their own."""
    number = exposed_deal(pos.profile)
    if number is None or pos.deals_done >= number or not pos.stock:
        return None
    cells = " ".join(Pile.exposed(i + 1) for i in range(pos.profile.exposed_cells))
    return i18n.ntext(lang, "sheet", "The last card of the stock comes with a deal of its own, the "
                      "{ordinal}, into {cells}.",
                      "The last {n} cards of the stock come with a deal of their own, the {ordinal}, into "
                      "{cells}.", pos.profile.exposed_cells, cells=cells,
                      ordinal=deal_ordinal(number, lang))


def _suit_colour(card: int) -> str:
    return RED if is_red(card) else BLACK


def card_words(card: int, lang: str) -> str:
    """The card in words for a text alternative: "6 of hearts"."""
    rank = i18n.text(lang, "rank", rank_name(rank_of(card)))
    suit = i18n.text(lang, "suit", "SHDC"[suit_of(card)])
    return i18n.text(lang, "diagram", "{rank} of {suit}", rank=rank, suit=suit)


def rank_letter(rank: int, lang: str) -> str:
    """The rank as printed on cards in `lang` (i18n.card_letters); notation always stays J Q K A."""
    return i18n.rank_letter(lang, rank_name(rank))


def card_face(card: int, lang: str) -> str:
    """The card as shown in `lang`: localized rank letter and suit symbol (``Д♥``, i18n.card_text)."""
    return i18n.card_text(card, lang)


def position_text(pos: Position, lang: str) -> list[str]:
    """The position as lines of text, pile by pile, for readers who cannot see the diagram."""
    t = i18n.text

    def cards(pile: tuple[int, ...]) -> str:
        return ", ".join(card_words(c, lang) for c in pile) if pile else t(lang, "diagram", "empty")

    homes = []
    for suit in range(4):
        top = pos.foundation_top(suit)
        homes.append(card_words(top, lang) if top is not None
                     else t(lang, "diagram", "empty foundation, starts with {card}",
                            card=card_words(make_card(pos.base, suit), lang)))
    lines = [t(lang, "diagram", "Foundations (base {rank}): {cards}", rank=rank_letter(pos.base, lang),
               cards="; ".join(homes))]
    lines += [t(lang, "diagram", "Column t{n}, bottom to top: {cards}", n=i + 1, cards=cards(pile))
              for i, pile in enumerate(pos.tableau)]
    lines += [t(lang, "diagram", "Reserve pile r{n}, bottom to top: {cards}", n=i + 1, cards=cards(pile))
              for i, pile in enumerate(pos.reserve)]
    lines += [t(lang, "diagram", "Exposed cell x{n}: {cards}", n=i + 1, cards=cards(pile))
              for i, pile in enumerate(pos.exposed)]
    stock = len(pos.stock)
    lines.append(i18n.ntext(lang, "diagram", "{n} card in the stock", "{n} cards in the stock", stock))
    return lines


def _card(card: int, x: float, y: float, lang: str, *, covered: bool = False,
          outline: bool = False, pip: bool = True) -> str:
    """One card face; `pip` draws the big suit symbol (hidden anyway under a card lying on it)."""
    colour = _suit_colour(card)
    fill = "#e4e4e4" if covered else "#ffffff"
    stroke, stroke_w = ("#1f5fbf", 2.6) if outline else ("#555555", 1)
    rank = rank_letter(rank_of(card), lang)
    suit = SUIT_SYMBOLS[suit_of(card)]
    label = card_words(card, lang)
    if covered:
        label = i18n.text(lang, "diagram", "{card}, covered", card=label)
    return (
        f'<g class="card" data-card="{escape(card_symbol(card))}">'
        f"<title>{escape(label)}</title>"
        f'<rect x="{x:g}" y="{y:g}" width="{CARD_W}" height="{CARD_H}" rx="4" '
        f'fill="{fill}" stroke="{stroke}" stroke-width="{stroke_w}"/>'
        f'<text x="{x + 4:g}" y="{y + 14:g}" font-size="13" font-weight="bold" fill="{colour}">'
        f"{rank}{suit}</text>"
        + (
            f'<text x="{x + CARD_W / 2:g}" y="{y + CARD_H - 14:g}" font-size="24" text-anchor="middle" '
            f'fill="{colour}">{suit}</text>'
            if pip
            else ""
        )
        + "</g>"
    )


def _empty(x: float, y: float, text: str = "", title: str = "") -> str:
    inner = (
        f'<text x="{x + CARD_W / 2:g}" y="{y + CARD_H / 2 + 5:g}" font-size="13" text-anchor="middle" '
        f'fill="#8a8a8a">{escape(text)}</text>'
        if text
        else ""
    )
    return (
        f'<g class="empty">{f"<title>{escape(title)}</title>" if title else ""}'
        f'<rect x="{x:g}" y="{y:g}" width="{CARD_W}" height="{CARD_H}" rx="4" fill="none" '
        f'stroke="#9a9a9a" stroke-width="1" stroke-dasharray="4 3"/>{inner}</g>'
    )


def _label(x: float, y: float, text: str) -> str:
    return (
        f'<text x="{x + CARD_W / 2:g}" y="{y - 5:g}" font-size="11" text-anchor="middle" '
        f'fill="#333333">{escape(text)}</text>'
    )


def _arrow(x1: float, y1: float, x2: float, y2: float) -> str:
    """A straight arrow with a drawn head (no SVG markers: simpler for PDF renderers)."""
    dx, dy = x2 - x1, y2 - y1
    length = (dx * dx + dy * dy) ** 0.5 or 1.0
    ux, uy = dx / length, dy / length
    head, half = 11.0, 5.5
    bx, by = x2 - ux * head, y2 - uy * head
    left = (bx - uy * half, by + ux * half)
    right = (bx + uy * half, by - ux * half)
    colour = "#1f5fbf"
    return (
        f'<g class="move-arrow"><line x1="{x1:g}" y1="{y1:g}" x2="{bx:g}" y2="{by:g}" stroke="{colour}" '
        f'stroke-width="3" stroke-linecap="round" opacity="0.9"/>'
        f'<polygon points="{x2:g},{y2:g} {left[0]:g},{left[1]:g} {right[0]:g},{right[1]:g}" '
        f'fill="{colour}"/></g>'
    )


def _stock_rows(pos: Position) -> list[tuple[int, ...]]:
    """The stock's cards in dealing order, one row per deal still to come."""
    rows: list[tuple[int, ...]] = []
    left = tuple(pos.stock)
    for targets in pos.profile.stock_deals[pos.deals_done:]:
        if left:
            rows.append(left[:len(targets)])
            left = left[len(targets):]
    if left:
        rows.append(left)
    return rows


def position_svg(pos: Position, lang: str = "en", move: Move | None = None, caption: str = "",
                 stock_shown: bool = False, show_foundation_start: bool = True) -> Markup:
    """The diagram of `pos` as an ``<svg>`` element; `move` is drawn as an arrow.

    `show_foundation_start` False draws an empty foundation blank, without the faint card that
    starts it (a puzzle that asks which card opens a foundation must not show it).

    `stock_shown` (a scenario's ``stock_shown: true``) adds the stock's cards
    face up under the reserve, in dealing order, one row per deal to come."""
    i18n.check_lang(lang)
    lay = _layout(pos)
    moving = _moving_cards(pos, move)
    parts = _foundations_svg(pos, lay, lang, show_foundation_start)
    parts += _stock_svg(pos, lay, lang, stock_shown)
    parts += _exposed_svg(pos, lay, lang, moving)
    parts += _piles_svg(pos, lay, lang, moving)
    if move is not None and move.card is not None:
        parts.append(_move_arrow(pos, lay, move))
    if stock_shown and pos.stock:
        parts += _shown_stock_svg(pos, lay, lang)
    label = caption or i18n.text(lang, "diagram", "Position diagram")
    return Markup(
        f'<svg xmlns="http://www.w3.org/2000/svg" class="position" role="group" '
        f'width="{lay.width:g}" height="{lay.height:g}" viewBox="0 0 {lay.width:g} {lay.height:g}" '
        f'font-family="{FONT}" aria-label="{escape(label)}">'
        f"<title>{escape(label)}</title>" + "".join(parts) + "</svg>"
    )


def _moving_cards(pos: Position, move: Move | None) -> set[int]:
    """The cards `move` carries (outlined in the diagram): a column's tail, or one card."""
    if move is None or move.card is None:
        return set()
    place = locate(pos, move.card)
    if place.kind not in (PileKind.COLUMN, PileKind.RESERVE, PileKind.EXPOSED):
        return set()
    pile = pos.piles_of(place.kind)[place.index]
    return set(pile[place.depth:]) if place.kind is PileKind.COLUMN else {move.card}


def _foundations_svg(pos: Position, lay: _Layout, lang: str, show_start: bool = True) -> list[str]:
    """The base rank, then each foundation's top card and count (or the card it starts with;
    `show_start` False leaves an empty foundation blank, for a puzzle whose lesson is that card)."""
    t = i18n.text
    base_text = t(lang, "diagram", "base {rank}", rank=rank_letter(pos.base, lang))
    parts = [
        f'<text x="{MARGIN:g}" y="{lay.foundations[0].y - 5:g}" font-size="11" fill="#333333">'
        f"{escape(base_text)}</text>"
    ]
    for suit, slot in enumerate(lay.foundations):
        top = pos.foundation_top(suit)
        if top is None and not show_start:
            parts.append(_empty(slot.x, slot.y, "", t(lang, "diagram", "empty")))
        elif top is None:
            start = make_card(pos.base, suit)
            parts.append(_empty(slot.x, slot.y, card_face(start, lang),
                                t(lang, "diagram", "empty foundation, starts with {card}",
                                  card=card_words(start, lang))))
        else:
            parts.append(_card(top, slot.x, slot.y, lang))
            count = pos.foundations[suit]
            parts.append(
                f'<text x="{slot.x + CARD_W - 4:g}" y="{slot.y + CARD_H - 4:g}" font-size="9" '
                f'text-anchor="end" fill="#555555">{count}/13</text>'
            )
    return parts


def _stock_svg(pos: Position, lay: _Layout, lang: str, stock_shown: bool) -> list[str]:
    """The stock: face down with its count, or only the count when its cards are drawn below."""
    stock_n = len(pos.stock)
    parts = [_label(lay.stock.x, lay.stock.y, i18n.text(lang, "diagram", "stock"))]
    stock_words = i18n.ntext(lang, "diagram", "{n} card in the stock", "{n} cards in the stock", stock_n)
    if stock_n and stock_shown:  # its cards are drawn face up below: here only how many are left
        parts.append(_empty(lay.stock.x, lay.stock.y, str(stock_n), stock_words))
    elif stock_n:
        parts.append(
            f'<g class="stock"><title>{escape(stock_words)}</title>'
            f'<rect x="{lay.stock.x:g}" y="{lay.stock.y:g}" width="{CARD_W}" height="{CARD_H}" rx="4" '
            f'fill="#2d5d8a" stroke="#1b3d5e"/>'
            f'<rect x="{lay.stock.x + 4:g}" y="{lay.stock.y + 4:g}" width="{CARD_W - 8}" '
            f'height="{CARD_H - 8}" rx="3" fill="none" stroke="#9fc0e0" stroke-width="1"/>'
            f'<text x="{lay.stock.x + CARD_W / 2:g}" y="{lay.stock.y + CARD_H / 2 + 7:g}" font-size="20" '
            f'font-weight="bold" text-anchor="middle" fill="#ffffff">{stock_n}</text></g>'
        )
    else:
        parts.append(_empty(lay.stock.x, lay.stock.y, "0", stock_words))
    return parts


def _exposed_svg(pos: Position, lay: _Layout, lang: str, moving: set[int]) -> list[str]:
    """The exposed cells; while the deal that lays them is still to come, each says which deal."""
    parts: list[str] = []
    number = exposed_deal(pos.profile)
    pending = number is not None and pos.deals_done < number
    for i, slot in enumerate(lay.exposed):
        name = Pile.exposed(i + 1)
        parts.append(_label(slot.x, slot.y, name))
        pile = pos.exposed[i] if i < len(pos.exposed) else ()
        if pile:
            parts.append(_card(pile[-1], slot.x, slot.y, lang, outline=pile[-1] in moving))
        elif pending and number is not None:
            title = i18n.text(lang, "diagram", "{cell}: empty until the {ordinal} deal lays a card here",
                              cell=name, ordinal=deal_ordinal(number, lang))
            parts.append(_empty(slot.x, slot.y, title=title))
            parts.append(f'<text x="{slot.x + CARD_W / 2:g}" y="{slot.y + CARD_H / 2 + 3:g}" font-size="8" '
                         f'text-anchor="middle" fill="#6a6a6a">'
                         f'{escape(i18n.text(lang, "diagram", "deal {number}", number=number))}</text>')
        else:
            parts.append(_empty(slot.x, slot.y, title=i18n.text(lang, "diagram", "empty")))
    return parts


def _piles_svg(pos: Position, lay: _Layout, lang: str, moving: set[int]) -> list[str]:
    """The columns fanned down, then the reserve piles (all but their top card covered)."""
    parts: list[str] = []
    for prefix, slots, piles in (("t", lay.tableau, pos.tableau), ("r", lay.reserve, pos.reserve)):
        for i, slot in enumerate(slots):
            parts.append(_label(slot.x, slot.y, f"{prefix}{i + 1}"))
            pile = piles[i]
            if not pile:
                parts.append(_empty(slot.x, slot.y, title=i18n.text(lang, "diagram", "empty")))
            for depth, card in enumerate(pile):
                covered = prefix == "r" and depth < len(pile) - 1
                parts.append(_card(card, slot.x, slot.card_y(depth), lang, covered=covered,
                                   outline=card in moving, pip=depth == len(pile) - 1))
    return parts


def _deal_row_label(pos: Position, number: int, targets: tuple[Pile, ...], lang: str) -> str:
    """"third deal, the last → x1 x2, apart from the reserve" above a row of the shown stock."""
    piles = " ".join(targets) if len(targets) <= 2 else f"{targets[0]}…{targets[-1]}"
    ordinal = deal_ordinal(number, lang)
    if any(p.kind is PileKind.EXPOSED for p in targets):
        return i18n.text(lang, "diagram", "{ordinal} deal, the last → {piles}, apart from the reserve",
                         ordinal=ordinal, piles=piles)
    return i18n.text(lang, "diagram", "{ordinal} deal → {piles}", ordinal=ordinal, piles=piles)


def _target_x(lay: _Layout, pile: Pile, fallback: int) -> float:
    """The x of the slot a dealt card lands on: the stock's rows line up with their piles."""
    slots = {PileKind.COLUMN: lay.tableau, PileKind.RESERVE: lay.reserve, PileKind.EXPOSED: lay.exposed}
    row = slots.get(pile.kind, [])
    return row[pile.offset].x if pile.offset < len(row) else MARGIN + fallback * PITCH


def _shown_stock_svg(pos: Position, lay: _Layout, lang: str) -> list[str]:
    """The stock face up under the reserve (under the columns in a game without one), one labelled
    row per deal, each card under the pile that deal lays it on (the last two under x1 x2, never
    under r1 r2); the diagram grows to hold it."""
    y = lay.height - MARGIN + 6 + LABEL_H
    note = i18n.text(lang, "diagram", "stock, face up, in dealing order (a row per deal)")
    parts = [f'<text x="{MARGIN:g}" y="{y - 5:g}" font-size="11" fill="#333333">{escape(note)}</text>']
    deals = pos.profile.stock_deals[pos.deals_done:]
    for k, row in enumerate(_stock_rows(pos)):
        number = pos.deals_done + k + 1
        targets = deals[k] if k < len(deals) else ()
        y += LABEL_H
        if targets:
            label = escape(_deal_row_label(pos, number, targets, lang))
            xs = [_target_x(lay, targets[i], i) for i in range(min(len(row), len(targets)))]
            if targets[0].kind is PileKind.EXPOSED:  # the cells sit at the right: the label ends there
                parts.append(f'<text x="{max(xs) + CARD_W:g}" y="{y - 4:g}" font-size="10" text-anchor="end" '
                             f'fill="#555555">{label}</text>')
            else:
                parts.append(f'<text x="{min(xs):g}" y="{y - 4:g}" font-size="10" '
                             f'fill="#555555">{label}</text>')
        for i, shown in enumerate(row):
            x = _target_x(lay, targets[i], i % 7) if i < len(targets) else MARGIN + (i % 7) * PITCH
            parts.append(_card(shown, x, y + (i // 7 if i >= len(targets) else 0) * (CARD_H + 6), lang))
        y += ((len(row) - 1) // 7 + 1 if len(row) > len(targets) else 1) * (CARD_H + 6)
    lay.height = y - 6 + MARGIN
    return parts


def _move_arrow(pos: Position, lay: _Layout, move: Move) -> str:
    assert move.card is not None
    place = locate(pos, move.card)
    if place.kind is PileKind.COLUMN:
        slot = lay.tableau[place.index]
    elif place.kind is PileKind.RESERVE:
        slot = lay.reserve[place.index]
    elif place.kind is PileKind.EXPOSED:
        slot = lay.exposed[place.index]
    elif place.kind is PileKind.FOUNDATION:
        slot = lay.foundations[place.index]
    else:  # in the stock: the arrow starts at the stock
        slot = lay.stock
    depth = place.depth if place.kind in (PileKind.COLUMN, PileKind.RESERVE) else 0
    x1, y1 = slot.x + CARD_W / 2, slot.card_y(depth) + 10
    if move.dest.is_foundation:
        target = lay.foundations[suit_of(move.card)]
        x2, y2 = target.x + CARD_W / 2, target.y + CARD_H / 2
    else:
        kind, index = move.dest.kind, move.dest.offset
        slots = {PileKind.COLUMN: lay.tableau, PileKind.RESERVE: lay.reserve,
                 PileKind.EXPOSED: lay.exposed}[kind]
        if index >= len(slots):
            return ""
        target = slots[index]
        height = len(pos.pile(move.dest)) if kind is not PileKind.EXPOSED or index < len(pos.exposed) else 0
        x2, y2 = target.x + CARD_W / 2, target.card_y(max(height, 0)) + 12
    return _arrow(x1, y1, x2, y2)


def svg_size(svg: str) -> tuple[float, float]:
    """The width and height a diagram of ``position_svg`` declares (its drawing units)."""
    head = svg[:svg.index(">")]
    return float(head.split(' width="')[1].split('"')[0]), float(head.split(' height="')[1].split('"')[0])
