"""Practice pages: puzzles a learner plays in the browser, drawn from what :mod:`agnes_teach.practice`
computed at build time.

The page decides nothing: every state's layout, its legal moves with the state
each leads to, whether it can still be won and the engine's refusals are
embedded as data, here encoded compactly (one character per card, refusal
messages in the page's language stored once, each card's refusals as one
pattern number).  A page is filled only while its size stays under
``PAGE_BUDGET`` bytes; a puzzle that does not fit (or whose game is too large
to analyse) is listed on the page as not playable here, with the reason.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from markupsafe import Markup

from .. import i18n
from ..cards import TYPED_RANKS, card_name, card_symbol, make_card, rank_name, suit_of
from ..engine import Refusal
from ..graph import GameGraph
from ..piles import Pile
from ..position import Position
from ..practice import MAX_STATES, Lead, NoLead, PracticeAnalysis, RefusalKey, analyse
from ..registry import RuleId, Task
from ..registry import rule as registry_rule
from ..scenario import Scenario
from .env import environment, read_asset
from .sheet import scenario_title
from .svg import card_face, card_words, rank_letter

PAGE_BUDGET = 1_000_000  # bytes per practice page, at most

# One character per card in the embedded data (card number 0..51).
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
NO_LEAD = {NoLead.NONE: "-", NoLead.AMBIGUOUS: "?"}
DEAL_CODE = "**"  # a move's code when it is the deal

# Why a puzzle is listed as not playable here.
TOO_LARGE = "too-large"
PAGE_FULL = "page-budget"

SwitcherEntry = tuple[str, str, str]  # language code, its name in itself, the page


def page_name(lang: str) -> str:
    """The practice page's file name in `lang`."""
    return f"practice-{lang}.html"


@dataclass
class Messages:
    """The page's refusal messages, each stored once: (rule id, text) by number."""

    lang: str
    items: list[tuple[str, str]] = field(default_factory=list)
    index: dict[tuple[str, str], int] = field(default_factory=dict)

    by_refusal: dict[object, int] = field(default_factory=dict)

    def add(self, why: RefusalKey) -> int:
        """The number of the message for a refusal (rule id, sorted params)."""
        found = self.by_refusal.get(why)
        if found is not None:
            return found
        rule, params = why
        # The checker's wording, so a move from an empty pile reads as `check --solution` says it.
        key = (rule, i18n.refusal_message(Refusal(RuleId(rule), "", dict(params)), self.lang))
        if key not in self.index:
            self.index[key] = len(self.items)
            self.items.append(key)
        self.by_refusal[why] = self.index[key]
        return self.index[key]


@dataclass
class Patterns:
    """Each card's refusals as one pattern (free to pick up, then a message number per destination,
    -1 where legal), each pattern stored once."""

    items: list[list[int]] = field(default_factory=list)
    index: dict[tuple[int, ...], int] = field(default_factory=dict)

    def add(self, pattern: tuple[int, ...]) -> int:
        if pattern not in self.index:
            self.index[pattern] = len(self.items)
            self.items.append(list(pattern))
        return self.index[pattern]


@dataclass
class PuzzleData:
    scenario: Scenario
    states: int
    data: dict[str, object] | None  # None: not embedded
    reason: str = ""


def _code(n: int, width: int) -> str:
    out = ""
    for _ in range(width):
        n, d = divmod(n, len(DIGITS))
        out = DIGITS[d] + out
    if n:
        raise ValueError("number too large for its width")
    return out


def _width(count: int) -> int:
    width = 1
    while len(DIGITS) ** width < count:
        width += 1
    return width


def _layout(pos: Position) -> str:
    piles = [*pos.tableau, *pos.reserve, *pos.exposed]
    return (",".join("".join(ALPHABET[c] for c in pile) for pile in piles)
            + "|" + "".join(DIGITS[n] for n in pos.foundations)
            + "|" + "".join(ALPHABET[c] for c in pos.stock))


def lead_code(leads: list[list[Lead]]) -> str:
    """The cards typed ``tI>tJ`` moves (:func:`agnes_teach.practice.typed_leads`), as text.

    Per source column, one character per destination column: the card, ``-``
    for an empty source or the same column, ``?`` where the move is ambiguous;
    written in brackets, or as one character when all destinations agree.
    """
    out = []
    for i, leads_of_column in enumerate(leads):
        row = [NO_LEAD[lead] if isinstance(lead, NoLead) else ALPHABET[lead] for lead in leads_of_column]
        # Most columns give the same card for every destination: then one character stands for the row.
        others = {c for j, c in enumerate(row) if j != i}
        out.append(others.pop() if len(others) == 1 else "(" + "".join(row) + ")")
    return "".join(out)


def move_codes(graph: GameGraph, index: int, dests: list[Pile]) -> list[str | int]:
    """A state's moves as the page reads them: per move its code (card and destination) and the state
    it leads to."""
    return [x for m, j in graph.edges[index]
            for x in ((DEAL_CODE if m.card is None else ALPHABET[m.card] + DIGITS[dests.index(m.dest)]), j)]


def state_row(got: PracticeAnalysis, index: int, messages: Messages, patterns: Patterns) -> dict[str, object]:
    """One state of the embedded graph; ``r`` holds pattern numbers until :func:`puzzle_data` codes them."""
    ids = []
    for card in range(52):
        entry = [-1 if why is None else messages.add(why) for why in got.refusals[index][card]]
        ids.append(patterns.add((int(got.free[index][card]), *entry)))
    deal_why = got.deal[index]
    return {
        "l": _layout(got.graph.states[index]),
        "w": int(got.winnable[index]),
        "m": move_codes(got.graph, index, got.destinations),
        "r": ids,
        "d": -1 if deal_why is None else messages.add(deal_why),
        "n": got.line[index],
        "t": lead_code(got.leads[index]),
    }


def puzzle_data(scenario: Scenario, lang: str, messages: Messages) -> PuzzleData:
    """The embedded game graph of one puzzle in `lang`, or the reason it is not embedded."""
    got = analyse(scenario)
    if got is None:
        return PuzzleData(scenario, MAX_STATES, None, TOO_LARGE)
    patterns = Patterns()
    rows = [state_row(got, i, messages, patterns) for i in range(len(got.graph.states))]
    width = _width(len(patterns.items))
    for row in rows:
        row["r"] = "".join(_code(p, width) for p in row["r"])  # type: ignore[attr-defined]
    return PuzzleData(scenario, len(got.graph.states), puzzle_header(scenario, got, messages, width, patterns)
                      | {"states": rows})


def puzzle_header(scenario: Scenario, got: PracticeAnalysis, messages: Messages, width: int,
                  patterns: Patterns) -> dict[str, object]:
    """Everything the page embeds for a puzzle besides its states."""
    start: Position = scenario.position
    profile = start.profile
    return {
        "id": scenario.id,
        "dests": got.destinations,
        "columns": profile.columns,
        "reserve": profile.reserve_piles,
        "exposed": profile.exposed_cells,
        "stock_shown": scenario.stock_shown,  # draw the stock face up, in order
        "base": rank_name(start.base),
        "labels": board_labels(start, scenario.stock_shown, messages.lang),
        "width": width,
        "patterns": patterns.items,
        "empty": {pile: [messages.add(k) for k in row] for pile, row in got.empty.items()},
        "nopile": {name: messages.add(k) for name, k in got.nopile.items()},
    }


def board_labels(start: Position, stock_shown: bool, lang: str) -> dict[str, object]:
    """The board's labels as the worksheet's diagram words them: the base rank over the foundations,
    each empty foundation's first card, the stock with its count (face down, or shown below)."""
    t = i18n.text
    firsts = [make_card(start.base, suit) for suit in range(4)]
    return {
        "foundations": t(lang, "practice", "Foundations, base {rank}", rank=rank_letter(start.base, lang)),
        "first": [card_face(c, lang) for c in firsts],
        "first_words": [t(lang, "diagram", "empty foundation, starts with {card}", card=card_words(c, lang))
                        for c in firsts],
        "stock": t(lang, "diagram", "stock"),
        "stock_state": (t(lang, "practice", "shown below") if stock_shown
                        else t(lang, "practice", "face down")),
        # The count's words for every count the game can reach (plural forms are the catalogue's).
        "stock_words": [i18n.ntext(lang, "diagram", "{n} card in the stock", "{n} cards in the stock", n)
                        for n in range(len(start.stock) + 1)],
    }


def practice_task(scenario: Scenario, lang: str) -> str:
    """What the page asks of the learner, in the page's own words (the worksheet's ask for writing)."""
    t = i18n.text
    task = scenario.task
    if task == Task.KEY_MOVE:
        return t(lang, "practice", "Only one first move keeps this game winnable. Find the move that keeps "
                 "the win, then play on to the end.")
    if task == Task.TRAP:
        return t(lang, "practice", "One move here looks useful but loses the game. Play the winning line "
                 "without it.")
    if task == Task.LEGAL_MOVES:
        return t(lang, "practice", "Try the moves of this position: the page answers each one, legal or "
                 "not, and names the rule.")
    out = 52 - sum(scenario.position.foundations)
    return i18n.ntext(lang, "practice", "Play the winning line: {n} card is still in play; bring it home.",
                      "Play the winning line: {n} cards are still in play; bring them all home.", out)


def distinct_titles(scenarios: Sequence[Scenario], lang: str) -> list[str]:
    """Each puzzle's title in `lang` (else its id); a title that two puzzles share gets the id beside it."""
    titles = [scenario_title(s, lang) for s in scenarios]
    shared = {title for title in titles if titles.count(title) > 1}
    return [f"{title} ({s.id})" if title in shared and title != s.id else title
            for title, s in zip(titles, scenarios, strict=True)]


def card_labels(lang: str) -> dict[str, object]:
    """How the page shows a card: rank letters of the language, suit symbols, words for screen readers."""
    return {
        "symbols": [card_symbol(c) for c in range(52)],
        "shown": [card_face(c, lang) for c in range(52)],
        "words": [card_words(c, lang) for c in range(52)],
        "names": [card_name(c) for c in range(52)],
        "red": [suit_of(c) in (1, 2) for c in range(52)],
        # The letters a learner may type besides the Latin ones (cards.TYPED_RANKS: Т В Д К).
        "typed": dict(TYPED_RANKS),
    }


@dataclass
class PracticePage:
    lang: str
    playable: list[PuzzleData]
    skipped: list[PuzzleData]
    data: Markup  # the JSON for the page's script, safe inside <script>


def _json(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    # Inside <script>: no "</" can end the element early.
    return text.replace("</", "<\\/")


def build_practice(scenarios: Sequence[Scenario], lang: str, guide_href: str,
                   budget: int = PAGE_BUDGET) -> PracticePage:
    """Every scenario that fits, as embedded game graphs; the rest listed with the reason."""
    messages = Messages(lang)
    built = [puzzle_data(s, lang, messages) for s in scenarios]
    playable = [p for p in built if p.data is not None]
    skipped = [p for p in built if p.data is None]

    def payload() -> str:
        rules = sorted({rule for rule, _text in messages.items})
        return _json({
            "messages": messages.items,
            "rules": {r: {"title": i18n.text(lang, "rule-title", r),
                          "href": f"{guide_href}#{r}"} for r in rules if _known_rule(r)},
            "cards": card_labels(lang),
            "ui": ui_strings(lang),
            "puzzles": [p.data for p in playable],
        })

    text = payload()
    # Over the budget: leave out the largest puzzles until the page fits.
    while len(text.encode("utf-8")) > budget - 60_000 and playable:
        largest = max(playable, key=lambda p: p.states)
        playable.remove(largest)
        skipped.append(PuzzleData(largest.scenario, largest.states, None, PAGE_FULL))
        text = payload()
    return PracticePage(lang, playable, skipped, Markup(text))


def _known_rule(rule_id: str) -> bool:
    try:
        registry_rule(rule_id)
    except Exception:
        return False
    return True


def practice_html(scenarios: Sequence[Scenario], lang: str, switcher: Sequence[SwitcherEntry],
                  guide_href: str) -> str:
    """The practice page: the puzzles that fit, playable offline; `switcher` links its other languages."""
    page = build_practice(scenarios, lang, guide_href)
    reasons = {
        TOO_LARGE: i18n.text(lang, "practice", "its game has more than {n} positions, too many to store "
                             "in a page; play it on the worksheet.", n=MAX_STATES),
        PAGE_FULL: i18n.text(lang, "practice", "the page has no room left for it (each page stays under "
                             "{n} bytes); play it on the worksheet.", n=PAGE_BUDGET),
    }
    template = environment(lang).get_template("guide-practice.html.j2")
    titles = dict(zip((id(s) for s in scenarios), distinct_titles(scenarios, lang), strict=True))
    return template.render(
        switcher=switcher,
        guide_href=guide_href,
        puzzles=[{"id": p.scenario.id, "title": titles[id(p.scenario)],
                  "task": practice_task(p.scenario, lang)} for p in page.playable],
        skipped=[{"title": titles[id(p.scenario)], "reason": reasons[p.reason]} for p in page.skipped],
        data=page.data,
        css=Markup(read_asset("guide.css") + read_asset("practice.css")),
        script=Markup(read_asset("practice.js")),
    )


def practice_links(langs: Sequence[str]) -> list[tuple[str, str, str]]:
    """The index page's links to the practice pages: language, link text, page."""
    return [(code, i18n.text(code, "practice", "Practice puzzles"), page_name(code)) for code in langs]


def ui_strings(lang: str) -> dict[str, object]:
    """Every sentence the page's script shows, in `lang` (fields in braces are filled by the script)."""
    t = i18n.text
    return {
        "foundation": t(lang, "practice", "foundation"),
        "stock": t(lang, "practice", "stock"),
        "stock_face_up": t(lang, "diagram", "stock, face up, in dealing order (a row per deal)"),
        "deal_label": t(lang, "practice", "Deal from the stock (cards left: {n})"),
        "pile": {
            "t": t(lang, "practice", "column {n}"),
            "r": t(lang, "practice", "reserve pile {n}"),
            "x": t(lang, "practice", "exposed cell {n}"),
        },
        "empty_pile": t(lang, "practice", "{pile}, empty"),
        "covered": t(lang, "diagram", "{card}, covered"),
        "progress": t(lang, "practice", "Cards home: {n} of 52"),
        "selected": t(lang, "practice", "You picked up {card}. Now choose where it goes, or pick it again to "
                      "put it back."),
        "deselected": t(lang, "practice", "The card is back in its place."),
        "solved": t(lang, "practice", "{move}: solved, every card is home!"),
        "keeps": t(lang, "practice", "{move} is legal, and the game can still be won."),
        "loses": t(lang, "practice", "{move} is legal, but now the game is lost: no line from here brings "
                   "every card home. Undo it, or ask why."),
        "refused": t(lang, "practice", "{move} is not allowed."),
        "not_free": t(lang, "practice", "{card} cannot be picked up."),
        "rule_link": t(lang, "practice", "Rule: {title}"),
        "not_a_move": t(lang, "practice", "“{text}” is not a move. Write CARD>PILE, such as 6H>f or 4C>t2, "
                        "or deal."),
        "ambiguous": t(lang, "practice", "“{text}” could mean more than one run: name the card, such as "
                       "4C>t2."),
        "undone": t(lang, "practice", "The last move is taken back."),
        "restarted": t(lang, "practice", "Back to the starting position."),
        "already_won": t(lang, "practice", "This puzzle is solved."),
        "hint": t(lang, "practice", "A winning line from here: {moves}."),
        "refutation": t(lang, "practice", "Every line from here loses. For example: {moves}, and then no "
                        "move is left."),
        "stuck": t(lang, "practice", "No move is left: the game is lost."),
        "circles": t(lang, "practice", "From here every line only goes round in circles; none brings every "
                     "card home."),
    }
