"""Practice pages: puzzles a learner plays in the browser, drawn from what :mod:`agnes_teach.practice`
computed at build time.

The page decides nothing: every state's layout, its legal moves with the state
each leads to, whether it can still be won and the engine's refusals are
embedded as data, here encoded compactly: one character per card, a state's
moves as fixed-width records (card, destination, the state it leads to, how
the piles were reordered to reach the stored copy of that state), refusal
messages in the page's language stored once with the destination left as a
field the page fills in, each card's refusals as one pattern number, and the
whole graph of a puzzle gzip-compressed and written in base64 (the page
inflates it with the browser's own ``DecompressionStream``).  A page is filled
only while its size stays under ``PAGE_BUDGET`` bytes; a puzzle that does not
fit (or whose game is too large to analyse) is listed on the page as not
playable here, with the reason.

Puzzles are grouped by the rule they teach, in the registry's order, each rule
a section, easy to hard within it and numbered as ``sheet --theme RULE``
numbers them.  When every puzzle fits on one page, that page has the sections
and a contents list; otherwise each rule has a page of its own and
``practice-<lang>.html`` is the contents page that links them.
"""

from __future__ import annotations

import base64
import gzip
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from babel.numbers import format_decimal
from markupsafe import Markup

from .. import i18n
from ..cards import TYPED_RANKS, card_name, card_symbol, make_card, rank_name, suit_of
from ..engine import Refusal
from ..graph import GameGraph
from ..limits import PRACTICE_MAX_CARDS, PRACTICE_MAX_STATES
from ..moves import Move
from ..piles import Pile
from ..position import Position
from ..practice import Lead, NoLead, PracticeAnalysis, RefusalKey, RefusalRow, Unplayable, analyse, unplayable
from ..practice_cache import AnalysisCache
from ..puzzle_library import difficulty_order
from ..registry import RuleId, Task
from ..registry import rule as registry_rule
from ..scenario import Scenario
from ..tagger.refutation import Explanation
from ..tagger.teaching import cards_not_home
from .env import environment, read_asset
from .sheet import scenario_title
from .svg import card_face, card_words, rank_letter

PAGE_BUDGET = 1_500_000  # bytes per practice page, at most
PILE_FIELD = "{{pile{n}}}"  # the n-th pile an explanation names, named by the page on the learner's board

# One character per card in the embedded data (card number 0..51).
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
NO_LEAD = {NoLead.NONE: "-", NoLead.AMBIGUOUS: "?"}
DEAL_CODE = "**"  # a move's code when it is the deal

# Why a puzzle is listed as not playable here.
TOO_MANY_CARDS = "too-many-cards"  # more cards in play than any game the page can store
TOO_LARGE = "too-large"  # its game has more states than PRACTICE_MAX_STATES
UNPROVED = "unproved"  # cards come back home, and the stored game's losses are not all proved
TOO_BIG_ALONE = "too-big-alone"  # its encoded game alone is larger than a page may be
PAGE_FULL = "page-budget"  # it fits alone, but not beside the other puzzles

SwitcherEntry = tuple[str, str, str]  # language code, its name in itself, the page


def page_name(lang: str) -> str:
    """The practice page's file name in `lang` (the contents page, when the rules have pages of their own)."""
    return f"practice-{lang}.html"


def rule_page_name(lang: str, rule: str | None, part: int = 1) -> str:
    """The file name of one rule's practice page in `lang` (`rule` None: puzzles naming no rule;
    `part`: its second, third ... page, when its puzzles do not fit on one)."""
    more = f"-{part}" if part > 1 else ""
    return f"practice-{lang}-{rule or 'other'}{more}.html"


def section_id(rule: str | None) -> str:
    """The anchor of a rule's section on a practice page."""
    return f"rule-{rule or 'other'}"


@dataclass
class Reasons:
    """Why losing moves lose, in the page's language (the answer key's words), each stored once:
    (text, the stored state's piles it names) by number."""

    lang: str
    items: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)
    index: dict[tuple[str, tuple[str, ...]], int] = field(default_factory=dict)

    def add(self, why: Explanation) -> int:
        """The number of an explanation's text; each pile it names is left a field (``{pile0}``,
        ``{pile1}``, ...) the page fills in, since the learner's board may number the piles
        otherwise than the stored state."""
        piles = why.piles()
        text = why.with_piles({pile: PILE_FIELD.format(n=n) for n, pile in enumerate(piles)}).text(self.lang)
        key = (text, piles)
        if key not in self.index:
            self.index[key] = len(self.items)
            self.items.append(key)
        return self.index[key]


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
        # The facts a key leaves out (practice.page_refusal_key) stay {dest}, {card} and {target}
        # fields, which the page fills in from its board.
        key = (rule, i18n.refusal_message(Refusal(RuleId(rule), "", dict(params)), self.lang))
        if key not in self.index:
            self.index[key] = len(self.items)
            self.items.append(key)
        self.by_refusal[why] = self.index[key]
        return self.index[key]


@dataclass
class PuzzleRefusals:
    """A puzzle's refusals, numbered among its own in the order its graph first names them; the page
    maps each number onto its messages (``msgs`` in the puzzle's data), so the packed graph is the
    same on any page and can be kept from build to build."""

    items: list[RefusalKey] = field(default_factory=list)
    index: dict[RefusalKey, int] = field(default_factory=dict)

    def add(self, why: RefusalKey) -> int:
        found = self.index.get(why)
        if found is None:
            found = self.index[why] = len(self.items)
            self.items.append(why)
        return found


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
    size: int = 0  # bytes of its embedded data


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


@dataclass
class Relabels:
    """The reorderings of the piles a puzzle's moves make (``GameGraph.relabel``), each stored once;
    number 0 keeps every pile in place."""

    width: int
    items: list[list[int]] = field(default_factory=list)
    index: dict[tuple[int, ...], int] = field(default_factory=dict)

    def add(self, order: tuple[int, ...] | None) -> int:
        if order is None:
            return 0
        if order not in self.index:
            self.index[order] = len(self.items) + 1
            self.items.append(list(order))
        return self.index[order]


def move_code(move: Move, dests: list[Pile]) -> str:
    """A move as the page looks it up: its card and destination (by number), or the deal."""
    return DEAL_CODE if move.card is None else ALPHABET[move.card] + DIGITS[dests.index(move.dest)]


def auto_moves(graph: GameGraph, index: int) -> str:
    """The cards that went home by themselves after each move of a state (games with safe moves
    played at once): ``k=CARDS`` per such move, by its edge number, comma-separated."""
    return ",".join(f"{k}=" + "".join(ALPHABET[a.card] for a in graph.auto[(index, m)] if a.card is not None)
                    for k, (m, _j) in enumerate(graph.edges[index]) if (index, m) in graph.auto)


def encode_graph(got: PracticeAnalysis, refusals: PuzzleRefusals, patterns: Patterns,
                 reasons: Reasons) -> dict[str, object]:
    """The game graph, one list (or string) per field, each indexed by state; the moves' targets and
    reorderings in one list each, all states' moves one after another (``codes`` gives their count).

    A target is written as its distance from the state the move leaves (states found together lie
    near each other, so the numbers are small and compress well); a reordering by its number in
    ``relabels`` (0: none).  ``losing``: per move into a lost state from a winnable one, its number
    among all moves and the number of its reason in `reasons`.
    """
    graph = got.graph
    n = len(graph.states)
    # A puzzle's reasons travel in its own compressed data: they are its own (a rule's page would
    # otherwise carry every other rule's sentences, uncompressed).
    first = [0]
    for edges in graph.edges:
        first.append(first[-1] + len(edges))
    relabels = Relabels(_width(len(set(graph.relabel.values())) + 1))
    # A card's refusals are one row the analysis holds once however many states share it
    # (practice.Shared): its pattern is made once per row and pickability, not once per card and state.
    by_row: dict[tuple[bool, int], int] = {}

    def pattern_of(free: bool, row: RefusalRow) -> int:
        found = by_row.get((free, id(row)))
        if found is None:
            found = by_row[(free, id(row))] = patterns.add(
                (int(free), *(-1 if why is None else refusals.add(why) for why in row)))
        return found

    ids = [[pattern_of(free, row) for free, row in zip(got.free[i], got.refusals[i], strict=True)]
           for i in range(n)]
    width = _width(len(patterns.items))
    pattern_codes = [_code(p, width) for p in range(len(patterns.items))]
    return {
        "patterns": patterns.items,
        "layout": [_layout(pos) for pos in graph.states],
        "winnable": "".join(str(int(w)) for w in got.winnable),
        "codes": ["".join(move_code(m, got.destinations) for m, _j in graph.edges[i]) for i in range(n)],
        "to": [j - i for i in range(n) for _m, j in graph.edges[i]],
        "relabel": "".join(_code(relabels.add(graph.relabel.get((i, k))), relabels.width)
                           for i in range(n) for k in range(len(graph.edges[i]))),
        "relabel_width": relabels.width,
        "relabels": relabels.items,
        "auto": [auto_moves(graph, i) for i in range(n)] if graph.auto else [],
        "refusals": ["".join(pattern_codes[p] for p in row) for row in ids],
        "width": width,
        "deal": [-1 if why is None else refusals.add(why) for why in got.deal],
        "line": got.line,
        "leads": [lead_code(got.leads[i]) for i in range(n)],
        "losing": [[first[i] + k, reasons.add(why)] for (i, k), why in sorted(got.losing.items())],
        "reasons": reasons.items,
    }


def pack(value: object) -> str:
    """JSON, gzip-compressed (no timestamp, so a build is the same byte for byte), in base64."""
    raw = json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return base64.b64encode(gzip.compress(raw, compresslevel=9, mtime=0)).decode("ascii")


def unpack(text: str) -> object:
    """What :func:`pack` wrote (for tests and measures: the page inflates it itself)."""
    return json.loads(gzip.decompress(base64.b64decode(text)).decode("utf-8"))


def puzzle_entry(scenario: Scenario, lang: str, cache: AnalysisCache | None = None) -> dict[str, Any]:
    """What a page embeds of a puzzle in `lang` that comes from its analysis, in JSON's values: the
    packed graph, its refusals (``keys``, numbered as the graph numbers them), the destinations and
    the refusals of typed input from an emptied or missing pile; or the reason it is not played
    (``unplayable``).  Kept in `cache` and read back from it, so a rebuild analyses nothing."""
    if cache is not None:
        kept = cache.get_entry(scenario, lang)
        if kept is not None:
            return kept
    got = analyse(scenario)
    entry: dict[str, Any]
    if got is None:
        entry = {"unplayable": UNPROVED if unplayable(scenario) is Unplayable.UNPROVED else TOO_LARGE}
    else:
        refusals = PuzzleRefusals()
        graph = pack(encode_graph(got, refusals, Patterns(), Reasons(lang)))
        entry = {"states": len(got.graph.states), "graph": graph, "keys": refusals.items,
                 "dests": got.destinations, "auto_home": got.auto_home,
                 "empty": got.empty, "nopile": got.nopile}
    # As JSON reads it back, so that a page drawn from a kept entry is the page drawn from a new one.
    entry = json.loads(json.dumps(entry))
    if cache is not None:
        cache.put_entry(scenario, lang, entry)
    return entry


def _key(value: list[Any]) -> RefusalKey:
    """A refusal key as :func:`puzzle_entry` keeps it (JSON lists), made a key again."""
    rule, params = value
    return (rule, tuple((k, v) for k, v in params))


def puzzle_data(scenario: Scenario, lang: str, messages: Messages,
                cache: AnalysisCache | None = None) -> PuzzleData:
    """The embedded game graph of one puzzle in `lang`, or the reason it is not embedded."""
    if cards_not_home(scenario.position) > PRACTICE_MAX_CARDS:
        return PuzzleData(scenario, 0, None, TOO_MANY_CARDS)
    entry = puzzle_entry(scenario, lang, cache)
    if "unplayable" in entry:
        return PuzzleData(scenario, PRACTICE_MAX_STATES, None, entry["unplayable"])
    msgs = [messages.add(_key(k)) for k in entry["keys"]]
    data = puzzle_header(scenario, entry, messages) | {"graph": entry["graph"], "msgs": msgs}
    return PuzzleData(scenario, entry["states"], data, size=len(_json(data).encode("utf-8")))


def puzzle_header(scenario: Scenario, entry: dict[str, Any], messages: Messages) -> dict[str, object]:
    """Everything the page embeds for a puzzle besides its states."""
    start: Position = scenario.position
    profile = start.profile
    return {
        "id": scenario.id,
        "dests": entry["dests"],
        "columns": profile.columns,
        "reserve": profile.reserve_piles,
        "exposed": profile.exposed_cells,
        "stock_shown": scenario.stock_shown,  # draw the stock face up, in order
        "base": rank_name(start.base),
        "labels": board_labels(start, scenario.stock_shown, messages.lang),
        "auto_home": entry["auto_home"],  # safe cards go home by themselves after each move
        "empty": {pile: [messages.add(_key(k)) for k in row] for pile, row in entry["empty"].items()},
        "nopile": {name: messages.add(_key(k)) for name, k in entry["nopile"].items()},
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
    """Each puzzle's title in `lang` (else its id); a title that two puzzles share gets the id beside it.
    A generated puzzle's title is neutral ("Puzzle 3", numbered when it was written), so it is
    numbered again by its place on the page, as the worksheet does."""
    use = lang if lang in i18n.languages() else "en"
    titles = [i18n.text(use, "sheet", "Puzzle {number}", number=n) if s.generator is not None
              else scenario_title(s, lang) for n, s in enumerate(scenarios, 1)]
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
        # The article before a jack or queen (Spanish «la J♠»), as i18n.agree gives it in Python.
        "agree": i18n.agreement(lang),
    }


@dataclass
class Section:
    """One rule's puzzles on the practice pages, easy to hard (then by id), as ``sheet --theme RULE``
    orders and numbers them; `rule` None: puzzles that name no rule."""

    rule: str | None
    scenarios: list[Scenario]


def sections(scenarios: Sequence[Scenario]) -> list[Section]:
    """The puzzles by the rule each teaches (its first theme), the rules in the registry's order."""
    order = {str(rule): n for n, rule in enumerate(RuleId)}
    by_rule: dict[str | None, list[Scenario]] = {}
    for sc in scenarios:
        by_rule.setdefault(sc.themes[0] if sc.themes else None, []).append(sc)
    rules = sorted(by_rule, key=lambda r: (r is None, order.get(r or "", len(order)), r or ""))
    return [Section(r, sorted(by_rule[r], key=lambda s: (difficulty_order(s), s.id))) for r in rules]


def section_title(rule: str | None, lang: str) -> str:
    return i18n.text(lang, "rule-title", rule) if rule else i18n.text(lang, "practice", "Other puzzles")


@dataclass
class Prepared:
    """A language's encoded puzzles, shared by every practice page in it: messages
    numbered once for all the pages, each puzzle's data and its title (by ``id`` of its scenario)."""

    messages: Messages
    data: dict[int, PuzzleData]
    titles: dict[int, str]


def prepare(scenarios: Sequence[Scenario], lang: str, cache: AnalysisCache | None = None) -> Prepared:
    """Every puzzle encoded in `lang`, titled within its rule's section (see :func:`distinct_titles`);
    with `cache`, each puzzle's encoding is read from it when kept there, and kept there when not."""
    messages = Messages(lang)
    data: dict[int, PuzzleData] = {}
    titles: dict[int, str] = {}
    for section in sections(scenarios):
        for sc, title in zip(section.scenarios, distinct_titles(section.scenarios, lang), strict=True):
            data[id(sc)] = puzzle_data(sc, lang, messages, cache)
            titles[id(sc)] = title
    return Prepared(messages, data, titles)


@dataclass
class PracticePage:
    lang: str
    playable: list[PuzzleData]
    skipped: list[PuzzleData]
    data: Markup  # the JSON for the page's script, safe inside <script>
    html: str  # the whole page


def _json(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    # Inside <script>: no "</" can end the element early.
    return text.replace("</", "<\\/")


def _megabytes(size: int, lang: str) -> str:
    return format_decimal(round(size / 1_000_000, 2), locale=lang)


def skip_reason(p: PuzzleData, lang: str, budget: int) -> str:
    """Why a puzzle is not on the page, in the page's language: what is too big, and what to do."""
    t = i18n.text
    n_cards = cards_not_home(p.scenario.position)
    if p.reason == TOO_MANY_CARDS:
        return i18n.ntext(lang, "practice", "{n} card is still in play, and this page plays puzzles of at "
                          "most {most} cards; play it on the worksheet.",
                          "{n} cards are still in play, and this page plays puzzles of at most {most} "
                          "cards; play it on the worksheet.", n_cards, most=PRACTICE_MAX_CARDS)
    if p.reason == TOO_LARGE:
        return t(lang, "practice", "its game has more than {n} positions, even with the cards that can "
                 "safely go home sent there by themselves: too many to store in a page; play it on the "
                 "worksheet.", n=format_decimal(PRACTICE_MAX_STATES, locale=lang))
    if p.reason == UNPROVED:
        return t(lang, "practice", "cards may come back from the foundations here, and its game is too "
                 "large to store unless safe cards go home by themselves, which could cost a win here; "
                 "play it on the worksheet.")
    size, most = _megabytes(p.size, lang), _megabytes(budget, lang)
    if p.reason == TOO_BIG_ALONE:
        return t(lang, "practice", "its game takes {size} MB stored, more than a whole page may hold "
                 "({most} MB); play it on the worksheet.", size=size, most=most)
    return t(lang, "practice", "its game takes {size} MB stored, and beside the puzzles above the page "
             "would pass its {most} MB; a page with fewer puzzles can hold it, or play it on the worksheet.",
             size=size, most=most)


def builder_note(p: PuzzleData, budget: int) -> str:
    """What the person building the pages is told about a puzzle left out (once, in English)."""
    where = f"{p.scenario.id} ({p.scenario.file})"
    if p.reason == TOO_MANY_CARDS:
        return (f"practice pages: {where} is not playable there: {cards_not_home(p.scenario.position)} "
                f"cards in play, the pages play at most {PRACTICE_MAX_CARDS}; make the position smaller")
    if p.reason == TOO_LARGE:
        return (f"practice pages: {where} is not playable there: its game has more than "
                f"{PRACTICE_MAX_STATES:,} states even with safe cards sent home; make the position smaller")
    if p.reason == UNPROVED:
        return (f"practice pages: {where} is not playable there: its game is stored only with safe cards "
                "sent home, and where cards come back from the foundations the solver did not prove each "
                "loss of that game; make the position smaller")
    if p.reason == TOO_BIG_ALONE:
        return (f"practice pages: {where} is not playable there: its data take {p.size:,} bytes, a page "
                f"at most {budget:,}; make the position smaller")
    return (f"practice pages: {where} is left out: its data take {p.size:,} bytes and the page would pass "
            f"{budget:,} bytes beside the other puzzles; give --puzzles fewer puzzles to play it")


def build_practice(scenarios: Sequence[Scenario], lang: str, guide_href: str,
                   switcher: Sequence[SwitcherEntry] = (), budget: int = PAGE_BUDGET, *,
                   prepared: Prepared | None = None, contents_href: str = "") -> PracticePage:
    """Every scenario that fits, as embedded game graphs in a section per rule; the rest listed with
    the reason.  `contents_href`: the contents page this page is one rule of ("": this page has
    every rule, and a contents list of its own).

    The page is measured whole (drawn with its puzzles).  While it is over `budget`, the puzzle of
    the largest data leaves it: as too big by itself when a page holding that puzzle alone would
    still be over the budget, else as one the other puzzles leave no room for.
    """
    prepared = prepared or prepare(scenarios, lang)
    ordered = [sc for section in sections(scenarios) for sc in section.scenarios]
    built = [prepared.data[id(s)] for s in ordered]
    playable = [p for p in built if p.data is not None]
    skipped = [p for p in built if p.data is None]

    def draw(puzzles: list[PuzzleData], left_out: list[PuzzleData]) -> tuple[str, str]:
        data = payload(puzzles, prepared, lang, guide_href)
        return data, render_page(ordered, puzzles, left_out, prepared.titles, data, lang, switcher,
                                 guide_href, budget, contents_href)

    data, html = draw(playable, skipped)
    while len(html.encode("utf-8")) > budget and playable:
        largest = max(playable, key=lambda p: p.size)
        playable.remove(largest)
        alone = len(draw([largest], [])[1].encode("utf-8"))
        reason = TOO_BIG_ALONE if alone > budget else PAGE_FULL
        skipped.append(PuzzleData(largest.scenario, largest.states, None, reason, largest.size))
        data, html = draw(playable, skipped)
    return PracticePage(lang, playable, skipped, Markup(data), html)


def payload(puzzles: list[PuzzleData], prepared: Prepared, lang: str, guide_href: str) -> str:
    """The JSON the page's script reads: messages, rule links, card and page words, the puzzles."""
    rules = sorted({rule for rule, _text in prepared.messages.items})
    return _json({
        "messages": prepared.messages.items,
        "rules": {r: {"title": i18n.text(lang, "rule-title", r),
                      "href": f"{guide_href}#{r}"} for r in rules if _known_rule(r)},
        "cards": card_labels(lang),
        "ui": ui_strings(lang),
        "puzzles": [p.data for p in puzzles],
    })


def render_page(ordered: list[Scenario], puzzles: list[PuzzleData], skipped: list[PuzzleData],
                titles: dict[int, str], data: str, lang: str, switcher: Sequence[SwitcherEntry],
                guide_href: str, budget: int, contents_href: str = "") -> str:
    """One practice page: a section per rule of its playable puzzles, then those left out."""
    template = environment(lang).get_template("guide-practice.html.j2")
    here = {id(p.scenario): p for p in puzzles}
    shown: list[dict[str, object]] = []
    contents: list[dict[str, object]] = []
    for section in sections([sc for sc in ordered if id(sc) in here]):
        items = [{"id": sc.id, "title": titles[id(sc)], "task": practice_task(sc, lang),
                  "auto_home": bool((here[id(sc)].data or {}).get("auto_home"))} for sc in section.scenarios]
        title, anchor = section_title(section.rule, lang), section_id(section.rule)
        shown.append({"anchor": anchor, "title": title, "puzzles": items,
                      "href": f"{guide_href}#{section.rule}" if section.rule else "",
                      "link": i18n.text(lang, "practice", "Rule: {title}", title=title)})
        links = [{"href": f"#puzzle-{item['id']}", "title": item["title"], "id": item["id"]}
                 for item in items]
        contents.append({"href": f"#{anchor}", "title": title, "puzzles": links})
    return template.render(
        switcher=switcher,
        guide_href=guide_href,
        contents_href=contents_href,
        contents=[] if contents_href or len(shown) < 2 else contents,
        sections=shown,
        skipped=[{"title": titles[id(p.scenario)], "id": p.scenario.id,
                  "reason": skip_reason(p, lang, budget)} for p in skipped],
        data=Markup(data),
        css=Markup(read_asset("guide.css") + read_asset("practice.css")),
        script=Markup(read_asset("practice.js")),
    )


def _known_rule(rule_id: str) -> bool:
    try:
        registry_rule(rule_id)
    except Exception:
        return False
    return True


def contents_html(pages: list[tuple[Section, str, PracticePage, int]], prepared: Prepared, lang: str,
                  switcher: Sequence[SwitcherEntry], guide_href: str) -> str:
    """The contents page of a practice site with a page per rule: each rule, its page and its
    puzzles (those a page leaves out named, not linked)."""
    template = environment(lang).get_template("guide-practice.html.j2")
    contents = []
    for section, name, page, part in pages:
        playing = {id(p.scenario) for p in page.playable}
        title = section_title(section.rule, lang)
        if part > 1:
            title = i18n.text(lang, "practice", "{title}, page {n}", title=title, n=part)
        contents.append({"href": name, "title": title, "puzzles": [
            {"href": f"{name}#puzzle-{sc.id}" if id(sc) in playing else "", "title": prepared.titles[id(sc)],
             "id": sc.id} for sc in section.scenarios]})
    return template.render(switcher=switcher, guide_href=guide_href, contents_href="", contents=contents,
                           sections=[], skipped=[], data=Markup(_json({"puzzles": []})),
                           css=Markup(read_asset("guide.css") + read_asset("practice.css")),
                           script=Markup(""))


Switchers = Callable[[Callable[[str], str]], Sequence[SwitcherEntry]]
Note = Callable[[str, str], None]  # hears a puzzle's id and what the builder is told about it


def practice_site(scenarios: Sequence[Scenario], lang: str, switchers: Switchers, guide_href: str,
                  note: Note | None = None, budget: int | None = None,
                  cache: AnalysisCache | None = None) -> dict[str, str]:
    """The practice pages in `lang`, by file name: one page with a section per rule when every
    puzzle fits on it; else a page per rule (a rule whose puzzles do not fit on one goes on over
    more: ``practice-<lang>-<rule>-2.html`` ...) and ``practice-<lang>.html`` the contents page
    linking them.  `switchers` gives the language switcher of a page, from its name in each language.
    `note` hears, for each puzzle left out, what is too big and what to do.  `budget`: bytes per
    page (default ``PAGE_BUDGET``).  `cache`: see :func:`prepare`."""
    budget = budget or PAGE_BUDGET
    prepared = prepare(scenarios, lang, cache)
    groups = sections(scenarios)
    whole = sum(p.size for p in prepared.data.values())
    pages: list[tuple[Section, str, PracticePage, int]] = []
    if len(groups) <= 1 or whole < budget:
        page = build_practice(scenarios, lang, guide_href, switchers(page_name), budget, prepared=prepared)
        if len(groups) <= 1 or not any(p.reason == PAGE_FULL for p in page.skipped):
            _tell(page, budget, note)
            return {page_name(lang): page.html}
    for section in groups:
        rest, part = list(section.scenarios), 1
        while rest:
            switcher = switchers(_rule_pages(section.rule, part))
            page = build_practice(rest, lang, guide_href, switcher, budget, prepared=prepared,
                                  contents_href=page_name(lang))
            over = {id(p.scenario) for p in page.skipped if p.reason == PAGE_FULL}
            here = [sc for sc in rest if id(sc) not in over]
            if over and here:  # the puzzles the page had no room for go on to the rule's next page
                page = build_practice(here, lang, guide_href, switcher, budget, prepared=prepared,
                                      contents_href=page_name(lang))
            _tell(page, budget, note)
            pages.append((Section(section.rule, here), rule_page_name(lang, section.rule, part), page, part))
            rest = [sc for sc in rest if id(sc) in over] if here else []
            part += 1
    site = {page_name(lang): contents_html(pages, prepared, lang, switchers(page_name), guide_href)}
    site.update((name, page.html) for _section, name, page, _part in pages)
    return site


def _rule_pages(rule: str | None, part: int = 1) -> Callable[[str], str]:
    """A rule's practice page (its `part`-th) in each language, by language code."""
    return lambda code: rule_page_name(code, rule, part)


def _tell(page: PracticePage, budget: int, note: Note | None) -> None:
    if note is not None:
        for p in page.skipped:
            note(p.scenario.id, builder_note(p, budget))


def practice_html(scenarios: Sequence[Scenario], lang: str, switcher: Sequence[SwitcherEntry],
                  guide_href: str, note: Callable[[str], None] | None = None) -> str:
    """One practice page of every puzzle that fits; `switcher` links its other languages.
    `note` hears, for each puzzle left out, what is too big and what to do."""
    page = build_practice(scenarios, lang, guide_href, switcher)
    if note is not None:
        for p in page.skipped:
            note(builder_note(p, PAGE_BUDGET))
    return page.html


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
        "why_lost": t(lang, "practice", "Why {move} loses: {why}"),
        "circles": t(lang, "practice", "From here every line only goes round in circles; none brings every "
                     "card home."),
        "auto_went": t(lang, "practice", "Gone home by themselves: {cards}."),
        "no_inflate": t(lang, "practice", "This browser cannot open the puzzles stored in this page "
                        "(it lacks DecompressionStream); a recent browser plays them."),
    }
