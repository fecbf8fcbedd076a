"""Practice pages: puzzles a learner plays in the browser, every answer computed here at build time.

The page decides nothing.  For each puzzle small enough, the whole game graph
reachable from its start is enumerated with the engine (``legal_moves``,
``apply_unchecked``) and embedded as data: every state's layout, its legal
moves with the state each leads to, whether the state can still be won, and,
for every card and every destination, the engine's refusal (rule id and
message in the page's language) where the move is illegal.  Whether a state
can be won is exact: the graph is complete, so a state is winnable iff a path
in it reaches all 52 cards home; the solver is asked about the start (and a
sample of states) as a cross-check, and a disagreement stops the build.

Bounds: a puzzle is embedded only if its reachable graph has at most
``MAX_STATES`` states, and a page only while its size stays under
``PAGE_BUDGET`` bytes; a puzzle that does not fit is listed on the page as
not playable here, with the reason.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from markupsafe import Markup

from .. import i18n
from ..cards import Card, card_name, card_symbol, rank_name, suit_of
from ..engine import (
    AmbiguousMoveError,
    IllegalMoveError,
    Refusal,
    apply_unchecked,
    legal_moves,
    refusal,
    resolve,
)
from ..moves import DEAL_MOVE, Move, parse_move_text
from ..piles import FOUNDATION, Pile, PileKind
from ..position import Position
from ..profile import Profile
from ..registry import RuleId
from ..registry import rule as registry_rule
from ..scenario import Scenario, load_scenario, scenario_files
from ..solver import solve

MAX_STATES = 2000  # reachable states embedded per puzzle, at most
PAGE_BUDGET = 1_000_000  # bytes per practice page, at most
SOLVER_SECONDS = 5.0  # per cross-checked state
CROSS_CHECKS = 12  # states besides the start whose verdict the solver confirms

# One character per card in the embedded data (card number 0..51).
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


class PracticeError(RuntimeError):
    """The graph and the solver disagree: a bug, never shipped."""


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


def destinations(profile: Profile) -> list[Pile]:
    return [FOUNDATION, *profile.pile_names()]


@dataclass
class Messages:
    """The page's refusal messages, each stored once: (rule id, text) by number."""

    lang: str
    items: list[tuple[str, str]] = field(default_factory=list)
    index: dict[tuple[str, str], int] = field(default_factory=dict)

    by_refusal: dict[object, int] = field(default_factory=dict)

    def add(self, why: tuple[str, tuple[tuple[str, str], ...]]) -> int:
        """The number of the message for a refusal (rule id, sorted params)."""
        found = self.by_refusal.get(why)
        if found is not None:
            return found
        rule, params = why
        key = (rule, i18n.refusal_message(Refusal(RuleId(rule), "", dict(params)), self.lang))
        if key not in self.index:
            self.index[key] = len(self.items)
            self.items.append(key)
        self.by_refusal[why] = self.index[key]
        return self.index[key]


@dataclass
class Graph:
    states: list[Position]
    moves: list[list[tuple[Move, int]]]
    complete: bool


def reachable(start: Position, limit: int = MAX_STATES) -> Graph:
    """Every state reachable from `start` (breadth first), unless there are more than `limit`."""
    index = {start: 0}
    states = [start]
    moves: list[list[tuple[Move, int]]] = []
    queue = deque([0])
    while queue:
        i = queue.popleft()
        out = []
        for move in legal_moves(states[i]):
            after = apply_unchecked(states[i], move)
            j = index.get(after)
            if j is None:
                if len(states) >= limit:
                    return Graph(states, moves, False)
                j = index[after] = len(states)
                states.append(after)
                queue.append(j)
            out.append((move, j))
        moves.append(out)
    return Graph(states, moves, True)


def verdicts(graph: Graph) -> tuple[list[bool], list[int]]:
    """Which states can be won, and for each the move (index) on its shortest line.

    For a winnable state the line is a shortest win; for a lost one, a
    shortest way into a dead end (no legal move at all), or -1 if every line
    only goes round in circles.
    """
    n = len(graph.states)
    parents: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for i, out in enumerate(graph.moves):
        for k, (_move, j) in enumerate(out):
            parents[j].append((i, k))

    def backwards(targets: list[int], allowed: list[bool]) -> list[int]:
        best = [-1] * n
        seen = [False] * n
        queue = deque(targets)
        for t in targets:
            seen[t] = True
        while queue:
            j = queue.popleft()
            for i, k in parents[j]:
                if not seen[i] and allowed[i]:
                    seen[i] = True
                    best[i] = k
                    queue.append(i)
        return best

    won_states = [i for i, s in enumerate(graph.states) if s.is_won()]
    everyone = [True] * n
    to_win = backwards(won_states, everyone)
    winnable = [graph.states[i].is_won() or to_win[i] >= 0 for i in range(n)]
    lost = [not w for w in winnable]
    dead = [i for i in range(n) if not graph.moves[i] and lost[i]]
    to_dead = backwards(dead, lost)
    line = [to_win[i] if winnable[i] else to_dead[i] for i in range(n)]
    return winnable, line


def _cross_check(graph: Graph, winnable: list[bool], scenario_id: str) -> None:
    """The solver must agree with the graph on the start and on a spread of other states."""
    n = len(graph.states)
    step = max(1, n // CROSS_CHECKS)
    for i in sorted({0, *range(step, n, step)}):
        status = solve(graph.states[i], seconds=SOLVER_SECONDS).status
        if status != "unknown" and (status == "won") != winnable[i]:
            raise PracticeError(f"{scenario_id}: state {i}: the solver says {status}, the game graph says "
                                f"{'won' if winnable[i] else 'lost'}")


def _layout(pos: Position) -> str:
    piles = [*pos.tableau, *pos.reserve, *pos.exposed]
    return (",".join("".join(ALPHABET[c] for c in pile) for pile in piles)
            + "|" + "".join(DIGITS[n] for n in pos.foundations)
            + "|" + "".join(ALPHABET[c] for c in pos.stock))


def _lead(pos: Position) -> str:
    """For ``t5>t2`` typed input: the card engine.resolve picks from each column for each other column.

    Per source column, one character per destination column: the card, ``-``
    for an empty source or the same column, ``?`` where the move is ambiguous;
    written in brackets, or as one character when all destinations agree.
    """
    out = []
    n = pos.profile.columns
    for i in range(n):
        row = []
        for j in range(n):
            if i == j or not pos.tableau[i]:
                row.append("-")
                continue
            try:
                got = resolve(pos, parse_move_text(f"t{i + 1}>t{j + 1}"))
            except AmbiguousMoveError:
                row.append("?")
                continue
            row.append(ALPHABET[got.card] if got.card is not None else "?")
        # Most columns give the same card for every destination: then one character stands for the row.
        others = {c for j, c in enumerate(row) if j != i}
        out.append(others.pop() if len(others) == 1 else "(" + "".join(row) + ")")
    return "".join(out)


def _empty_source(start: Position, dests: list[Pile]) -> dict[str, list[RefusalKey]]:
    """For typed ``SRC>DEST`` from an empty pile: engine.resolve's refusal for each pile and destination."""
    out: dict[str, list[RefusalKey]] = {}
    for pile in dests[1:]:
        kind, i = pile.kind, pile.offset
        piles = list(start.piles_of(kind))
        if i >= len(piles):
            continue
        piles[i] = ()
        if kind is PileKind.COLUMN:
            emptied = replace(start, tableau=tuple(piles))
        elif kind is PileKind.RESERVE:
            emptied = replace(start, reserve=tuple(piles))
        else:
            emptied = replace(start, exposed=tuple(piles))
        row = []
        for dest in dests:
            try:
                got = resolve(emptied, parse_move_text(f"{pile}>{dest}"))
            except IllegalMoveError as exc:
                row.append(_key(exc.refusal))
                continue
            raise PracticeError(f"an empty {pile} should refuse, engine resolved {got}")
        out[pile] = row
    return out


def _no_such_pile(start: Position, dests: list[Pile]) -> dict[str, RefusalKey]:
    """For typed input naming a pile this game lacks (t9, x3): the engine's refusal."""
    out = {}
    for kind in "trx":
        for number in range(1, 100):
            name = f"{kind}{number}"
            if name not in dests:
                why = refusal(start, Move(Card(0), Pile.parse(name)))
                if why is None:
                    raise PracticeError(f"the engine accepts a move to {name}")
                out[name] = _key(why)
    return out


@dataclass
class PuzzleData:
    scenario: Scenario
    states: int
    data: dict[str, object] | None  # None: not embedded
    reason: str = ""


RefusalKey = tuple[str, tuple[tuple[str, str], ...]]


def _key(why: Refusal) -> RefusalKey:
    return (why.rule, tuple(sorted(why.params.items())))


@dataclass
class Analysis:
    """What the engine and the solver say about one puzzle, in no language yet."""

    graph: Graph
    winnable: list[bool]
    line: list[int]
    refusals: list[list[list[RefusalKey | None]]]  # [state][card][destination]; None: legal
    deal: list[RefusalKey | None]
    lead: list[str]
    empty: dict[str, list[RefusalKey]]
    nopile: dict[str, RefusalKey]


_ANALYSES: dict[tuple[str, Position], Analysis | int] = {}


def analyse(scenario: Scenario) -> Analysis | int:
    """The puzzle's whole game graph with every answer, or its size so far if it is too large."""
    key = (scenario.id, scenario.position)
    if key not in _ANALYSES:
        _ANALYSES[key] = _analyse(scenario)
    return _ANALYSES[key]


def _analyse(scenario: Scenario) -> Analysis | int:
    start = scenario.position
    graph = reachable(start)
    if not graph.complete:
        return len(graph.states)
    winnable, line = verdicts(graph)
    _cross_check(graph, winnable, scenario.id)
    dests = destinations(start.profile)
    refusals = []
    for pos in graph.states:
        per_card = []
        for card in range(52):
            # Where the card lies is the same for every destination: the predicates find it once.
            answers = (refusal(pos, Move(Card(card), dest)) for dest in dests)
            per_card.append([None if why is None else _key(why) for why in answers])
        refusals.append(per_card)
    deal = [None if (why := refusal(pos, DEAL_MOVE)) is None else _key(why) for pos in graph.states]
    return Analysis(graph, winnable, line, refusals, deal, [_lead(pos) for pos in graph.states],
                    _empty_source(start, dests), _no_such_pile(start, dests))


def puzzle_data(scenario: Scenario, lang: str, messages: Messages) -> PuzzleData:
    """The embedded game graph of one puzzle in `lang`, or the reason it is not embedded."""
    got = analyse(scenario)
    if isinstance(got, int):
        return PuzzleData(scenario, got, None, "too-large")
    graph = got.graph
    start = scenario.position
    profile = start.profile
    dests = destinations(profile)
    patterns: list[list[int]] = []
    pattern_index: dict[tuple[int, ...], int] = {}
    rows = []
    for i in range(len(graph.states)):
        legal = {m for m, _j in graph.moves[i]}
        ids = []
        for card in range(52):
            entry = []
            rules = set()
            for dest, why in zip(dests, got.refusals[i][card], strict=True):
                if why is None:
                    if Move(Card(card), dest) not in legal:
                        raise PracticeError(f"{card_name(Card(card))}>{dest} is legal but not generated")
                    entry.append(-1)
                    continue
                entry.append(messages.add(why))
                if dest.is_foundation or dest.is_column:
                    rules.add(why[0])
            # Free to pick up: it has a legal move, or its destinations refuse it for different
            # reasons (so the destination matters).  Otherwise one rule holds it where it is.
            free = int(any(e < 0 for e in entry) or len(rules) > 1)
            key = (free, *entry)
            if key not in pattern_index:
                pattern_index[key] = len(patterns)
                patterns.append(list(key))
            ids.append(pattern_index[key])
        deal_why = got.deal[i]
        rows.append({
            "l": _layout(graph.states[i]),
            "w": int(got.winnable[i]),
            "m": [x for m, j in graph.moves[i]
                  for x in (("**" if m.card is None else ALPHABET[m.card] + DIGITS[dests.index(m.dest)]), j)],
            "r": ids,
            "d": -1 if deal_why is None else messages.add(deal_why),
            "n": got.line[i],
            "t": got.lead[i],
        })
    width = _width(len(patterns))
    for row in rows:
        row["r"] = "".join(_code(p, width) for p in row["r"])  # type: ignore[attr-defined]
    data: dict[str, object] = {
        "id": scenario.id,
        "dests": dests,
        "columns": profile.columns,
        "reserve": profile.reserve_piles,
        "exposed": profile.exposed_cells,
        "stock_shown": scenario.stock_shown,  # draw the stock face up, in order
        "base": rank_name(start.base),
        "width": width,
        "patterns": patterns,
        "empty": {pile: [messages.add(k) for k in row] for pile, row in got.empty.items()},
        "nopile": {name: messages.add(k) for name, k in got.nopile.items()},
        "states": rows,
    }
    return PuzzleData(scenario, len(graph.states), data)


def card_labels(lang: str) -> dict[str, object]:
    """How the page shows a card: rank letters of the language, suit symbols, words for screen readers."""
    from .svg import card_face, card_words

    return {
        "symbols": [card_symbol(c) for c in range(52)],
        "shown": [card_face(c, lang) for c in range(52)],
        "words": [card_words(c, lang) for c in range(52)],
        "names": [card_name(c) for c in range(52)],
        "red": [suit_of(c) in (1, 2) for c in range(52)],
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
        skipped.append(PuzzleData(largest.scenario, largest.states, None, "page-budget"))
        text = payload()
    return PracticePage(lang, playable, skipped, Markup(text))


def _known_rule(rule_id: str) -> bool:
    try:
        registry_rule(rule_id)
    except Exception:
        return False
    return True


def load_puzzles(paths: Sequence[str | Path]) -> list[Scenario]:
    return [load_scenario(f) for f in scenario_files([str(p) for p in paths])]


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
