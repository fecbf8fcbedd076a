"""Printable worksheets: one diagram per puzzle, the task in the reader's language, an answer key.

The HTML comes from ``templates/sheet.html.j2`` and WeasyPrint turns it into
a PDF.  Every answer is replayed on the engine before anything is written,
so a worksheet never prints a key that the rules refuse.
"""

from __future__ import annotations

import logging
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from markupsafe import Markup

from .. import i18n
from ..checker import solution_line
from ..engine import apply_move, apply_unchecked, finishes_home, home_run, legal_moves, resolve
from ..errors import InputError, Problem
from ..moves import AmbiguousMoveError, Move, MoveText
from ..position import Position
from ..predicates import IllegalMoveError
from ..profile import DEFAULT_PROFILE, get_profile
from ..puzzle_library import Selection, choose, theme_of
from ..registry import Difficulty, RuleId, Task
from ..scenario import Scenario
from ..tagger.answer import MAX_CARDS
from ..tagger.refutation import Refuted, explain_scenario
from ..tagger.teaching import cards_not_home
from ..themes import find_theme
from .env import atomic_path, environment, read_asset
from .svg import (
    base_legends,
    exposed_legend,
    last_cards_note,
    piles_legend,
    position_svg,
    sheet_title,
    svg_size,
)

PAPERS = ("a4", "letter")
BIG_DIAGRAM_MM = 102  # a big puzzle's diagram: the width of the page's left half and a bit
ANSWER_MODES = ("appendix", "none", "separate")


@dataclass(frozen=True)
class SheetItem:
    """One puzzle as the worksheet shows it."""

    number: int
    id: str
    title: str
    instruction: str
    diagram: Markup
    answer_label: str
    answer_notation: str
    answer_words: tuple[str, ...]
    theme: str | None = None
    rule: str | None = None  # the rule practised, one sentence (set on the first item of a theme's section)
    difficulty: str | None = None  # "Difficulty: easy", in the sheet's language
    stock_note: str | None = None  # the stock face up, in dealing order (stock_shown: true)
    why: tuple[str, ...] = ()  # why the wrong moves fail, every one once, the tempting ones first
    show_title: bool = True  # a generated puzzle's neutral title ("Puzzle 3") would clash with its number
    answer_tail: str | None = None  # one sentence for the moves home after the answer
    answer_others: str | None = None  # how many answers are as short, and one or two of the others
    answer_lines: int = 9  # writing lines: one per move of the answer on a small puzzle
    exposed_legend: str | None = None  # the legend's x1 x2 line for this puzzle's profile (None: no cells)
    profile: str = DEFAULT_PROFILE  # the game the puzzle is played in (the sheet's title and legend)
    numbered: bool = False  # the writing lines are numbered, one move each
    answer_in_order: bool = True  # the key's moves are a line played in turn (not a trap's alternatives)
    compact: bool = False  # small enough to share a page with another puzzle
    diagram_mm: float = BIG_DIAGRAM_MM  # the diagram's printed width
    diagram_height_mm: float = BIG_DIAGRAM_MM  # and height (set, so the page's layout need not guess)

    @property
    def explanation(self) -> str | None:
        """The first (most tempting) wrong move's explanation, if the key has one."""
        return self.why[0] if self.why else None


def difficulty_label(difficulty: Difficulty | None, lang: str) -> str | None:
    if difficulty is None:
        return None
    word = i18n.text(lang, "sheet", difficulty)  # the catalogue's msgid is the rating's own word
    return i18n.text(lang, "sheet", "Difficulty: {level}", level=word)


def why_lines(refuted: Sequence[Refuted], lang: str) -> tuple[str, ...]:
    """The key's explanations: every wrong move once, the tempting ones first."""
    return tuple(refuted_text(r, lang) for r in refuted)


def _move_shown(move: Move, lang: str) -> str:
    """A move in notation with its words (the words show the language's card letters)."""
    words = i18n.move_words(move, lang)
    return words if move.is_deal else f"{i18n.move_notation(move, lang)} ({words})"


def _numbers(indices: Sequence[int]) -> str:
    """Move numbers, 1-based, with runs joined: "1–4, 6"."""
    runs: list[list[int]] = []
    for n in (i + 1 for i in indices):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{r[0]}–{r[-1]}" if len(r) > 2 else ", ".join(map(str, r)) for r in runs)


def refuted_text(refuted: Refuted, lang: str) -> str:
    """One line of the key: where the wrong moves are on offer, the moves, and why they fail."""
    joiner = i18n.text(lang, "sheet", " or ")
    moves = joiner.join(_move_shown(m, lang) for m in refuted.moves)
    return i18n.ntext(lang, "sheet", "At move {at}: {moves} — {why}", "At moves {at}: {moves} — {why}",
                      len(refuted.indices), at=_numbers(refuted.indices), moves=moves,
                      why=refuted.explanation.text(lang))


def stock_note(sc: Scenario, lang: str) -> str | None:
    """What a shown stock means for the pupil (its cards are drawn once, in the diagram)."""
    last = last_cards_note(sc.position, lang)  # the last two come with a deal of their own
    if not sc.position.stock or not sc.stock_shown:
        return last
    # The diagram draws the shown stock below its lowest row: the reserve, or the columns in a game
    # without a reserve (``svg._shown_stock_svg``).
    if sc.position.profile.reserve_piles:
        shown = i18n.text(lang, "sheet", "The stock is face up: its cards are drawn under the reserve, in "
                          "dealing order, one row per deal. You may plan with that order.")
    else:
        shown = i18n.text(lang, "sheet", "The stock is face up: its cards are drawn under the columns, in "
                          "dealing order, one row per deal. You may plan with that order.")
    return f"{shown} {last}" if last else shown


def instruction(task: str | None, lang: str, pos: Position | None = None, *, lines: int | None = None,
                rest: int = 0, traps: int = 1) -> str:
    """The task in words; a win task says how many cards are still to bring home (a mined
    position has many home already), and, with numbered `lines`, that each takes one move and
    whether cards are left to go home after the last; a trap task says how many moves lose (`traps`)."""
    if not lines or task != Task.WIN or pos is None:
        return _task_text(task, lang, pos, traps)
    out = 52 - sum(pos.foundations)
    if rest:
        return i18n.ntext(lang, "sheet", "Finish the game: {n} card is still in play. Write one move on each "
                          "line; after the last line, the cards left go home by foundation moves alone.",
                          "Finish the game: {n} cards are still in play. Write one move on each line; after "
                          "the last line, the cards left go home by foundation moves alone.", out)
    return i18n.ntext(lang, "sheet", "Finish the game: {n} card is still in play. Write one move on each "
                      "line.", "Finish the game: {n} cards are still in play. Write one move on each "
                      "line.", out)


def _task_text(task: str | None, lang: str, pos: Position | None, traps: int = 1) -> str:
    t = i18n.text
    if task == Task.WIN:
        out = 52 - sum(pos.foundations) if pos is not None else 52
        if out < 52:
            return i18n.ntext(lang, "sheet", "Finish the game: {n} card is still in play; bring it home to "
                              "its foundation. Write down your moves in order.",
                              "Finish the game: {n} cards are still in play; bring them home to the "
                              "foundations. Write down your moves in order.", out)
        return t(lang, "sheet", "Bring all 52 cards home to the foundations. Write down your moves in order.")
    if task == Task.KEY_MOVE:
        return t(lang, "sheet", "Only one first move keeps this game winnable. Which move is it?")
    if task == Task.TRAP and traps > 1:
        return i18n.ntext(lang, "sheet", "This game can be won, but {n} first move loses it. Which one?",
                          "This game can be won, but {n} first moves lose it. Which are they?", traps)
    if task == Task.TRAP:
        return t(lang, "sheet", "One move here looks useful but loses the game. Which move must you avoid?")
    return t(lang, "sheet", "Write down every legal move in this position.")


def _resolve(pos: Position, text: MoveText, file: str, what: str) -> Move:
    try:
        return resolve(pos, text)
    except AmbiguousMoveError as exc:
        why = str(exc)
    except IllegalMoveError as exc:
        why = i18n.refusal_message(exc.refusal, "en")
    raise InputError(Problem(f"{what} {text.text!r} cannot be played: {why}", file))


def _replay(pos: Position, texts: Sequence[MoveText], file: str) -> list[Move]:
    moves: list[Move] = []
    for index, text in enumerate(texts, start=1):
        move = _resolve(pos, text, file, f"solution move {index}")
        try:
            pos = apply_move(pos, move)
        except IllegalMoveError as exc:
            why = i18n.refusal_message(exc.refusal, "en")
            problem = Problem(f"solution move {index} {text.text!r} is refused: {why}", file)
            raise InputError(problem) from None
        moves.append(move)
    return moves


def _expected_move(sc: Scenario, key: str) -> Move:
    raw = sc.expect.get(key)
    if raw is None:
        raise InputError(Problem(f"task {sc.task} needs expect.{key} for the answer key", sc.file))
    text: MoveText = raw  # converted when the scenario was loaded
    move = _resolve(sc.position, text, sc.file, f"expect.{key}")
    if key == "key_move" and not any(m == move for m in legal_moves(sc.position)):
        raise InputError(Problem(f"expect.key_move {text.text!r} is not a legal move", sc.file))
    return move


def answer(sc: Scenario, lang: str) -> tuple[str, list[Move]]:
    """The answer key entry of a scenario: a label and the moves it names."""
    t = i18n.text
    if sc.solution and sc.task != Task.WIN:
        _replay(sc.position, sc.solution, sc.file)  # the line the key explains must play too
    if sc.task == Task.WIN:
        if not sc.solution:
            raise InputError(Problem("task win needs a solution for the answer key", sc.file))
        moves = _replay(sc.position, sc.solution, sc.file)
        final = sc.position
        for move in moves:
            final = apply_move(final, move)
        if not finishes_home(final):
            raise InputError(Problem("the solution does not bring all 52 cards home, nor leave only "
                                     "cards that go home by themselves", sc.file))
        return t(lang, "sheet", "Solution"), moves + list(home_run(final)[1])
    if sc.task == Task.KEY_MOVE:
        return t(lang, "sheet", "The key move"), [_expected_move(sc, "key_move")]
    if sc.task == Task.TRAP:
        traps = _trap_moves(sc)
        if len(traps) > 1:
            return t(lang, "sheet", "The moves to avoid"), traps
        return t(lang, "sheet", "The move to avoid"), traps
    return t(lang, "sheet", "The legal moves"), sorted(legal_moves(sc.position), key=_move_order)


def _trap_moves(sc: Scenario) -> list[Move]:
    """A trap task's losing first moves: ``expect.trap_moves`` (every one), else the older single
    ``expect.trap_move``."""
    texts: list[MoveText] = sc.expect.get("trap_moves") or []
    if not texts:
        return [_expected_move(sc, "trap_move")]
    return [_resolve(sc.position, text, sc.file, "expect.trap_moves") for text in texts]


def _move_order(move: Move) -> tuple[int, int, str]:
    return (1, 0, "") if move.card is None else (0, move.card, move.dest)


def scenario_title(sc: Scenario, lang: str) -> str:
    return sc.title.get(lang) or sc.title.get("en") or sc.id


COMPACT_LINES = 12  # a small puzzle's writing lines beside its diagram; more, and it takes a page of its own
BIG_LINES, MOVES_PER_LINE, MAX_LINES = 9, 4, 20  # a big puzzle: about four moves a line, at most twenty lines
DIAGRAM_BOX_MM = (84.0, 76.0)  # a small puzzle's diagram fits this box (width, height): two a page on Letter
MIN_DIAGRAM_MM = 52.0  # a diagram that fits the box only narrower than this (tall columns) takes a page


def answer_split(sc: Scenario, moves: list[Move]) -> tuple[list[Move], int]:
    """(the moves the pupil writes, how many moves home follow them): a win task's line cut at the
    first position from which the rest goes home by itself (``engine.finishes_home``, what the
    instruction promises); another task's answer whole."""
    if sc.task != Task.WIN:
        return moves, 0
    pos = sc.position
    for cut, move in enumerate(moves):
        if finishes_home(pos):
            return moves[:cut], len(moves) - cut
        pos = apply_unchecked(pos, move)
    return moves, 0


def others_sentence(sc: Scenario, lang: str) -> str | None:
    """What the key says about other answers as short as its own (the file's ``answer:`` claim,
    which ``check`` proves): how many there are, and one or two of them."""
    claim = sc.answer
    if sc.task != Task.WIN or claim is None or claim.count < 2:
        return None
    count = i18n.ntext(lang, "sheet", "{n} answer is this short; any of them is right.",
                       "{n} answers are this short; any of them is right.", claim.count)
    if not claim.alternatives:
        return count
    shown = "; ".join(" ".join(i18n.move_notation(m, lang) for m in _replay(sc.position, alt, sc.file))
                      for alt in claim.alternatives)
    return count + " " + i18n.text(lang, "sheet", "For example: {moves}.", moves=shown)


def rest_sentence(answer_moves: int, rest: int, lang: str) -> str | None:
    """One sentence for the moves home after the answer (they go in any order)."""
    if not rest:
        return None
    if not answer_moves:
        return i18n.ntext(lang, "sheet", "The {n} card goes home by itself.",
                          "All {n} cards go home by themselves, by foundation moves alone, in any order.",
                          rest)
    return i18n.ntext(lang, "sheet", "Then the remaining {n} card goes home by itself.",
                      "Then the remaining {n} cards go home by themselves, by foundation moves alone, in any "
                      "order.", rest)


def _diagram_width(diagram: Markup) -> float:
    """The printed width that fits the diagram into DIAGRAM_BOX_MM, keeping its proportions."""
    width, height = svg_size(diagram)
    box_w, box_h = DIAGRAM_BOX_MM
    return round(min(box_w, box_h * width / height), 1)


def _writing_room(sc: Scenario, answer_moves: int) -> int:
    """How many lines a pupil gets: a line per move of a win task's answer on a small puzzle, one
    for a key move or a trap; a big puzzle's answer at about four moves a line."""
    if sc.task in (Task.KEY_MOVE, Task.TRAP):
        return 1
    if sc.task == Task.WIN and cards_not_home(sc.position) <= MAX_CARDS:
        return answer_moves
    return min(MAX_LINES, max(BIG_LINES, -(-answer_moves // MOVES_PER_LINE)))


def load_items(
    paths: Sequence[str], lang: str, progress: Callable[[str], None] | None = None,
    mix: dict[RuleId, int] | None = None, selection: Selection | None = None,
    note: Callable[[str], None] | None = None,
) -> list[SheetItem]:
    """Load, check and draw every scenario chosen; InputError naming every bad file.

    No paths: the installed library's small puzzles. `note` hears of every puzzle left out
    (a duplicate) and of a theme with fewer puzzles than asked."""
    loaded, left_out = choose(paths, mix, selection, note)
    problems = _bad_answers(left_out, lang)  # a file left out is still one the run was given
    items: list[SheetItem] = []
    previous_theme: str | None = None
    for sc in loaded:
        if progress:
            progress(str(Path(sc.file)))
        try:
            answered = answer(sc, lang)
        except InputError as exc:
            problems.extend(exc.in_file(str(Path(sc.file))).problems)
            continue
        new_theme = mix is None and theme_of(sc) != previous_theme
        item = _sheet_item(sc, answered, len(items) + 1, lang, new_theme=new_theme)
        items.append(item)
        previous_theme = item.theme
    if problems:
        raise InputError(problems)
    return items


def _bad_answers(scenarios: Sequence[Scenario], lang: str) -> list[Problem]:
    problems: list[Problem] = []
    for sc in scenarios:
        try:
            answer(sc, lang)
        except InputError as exc:
            problems.extend(exc.in_file(str(Path(sc.file))).problems)
    return problems


def _sheet_item(sc: Scenario, answered: tuple[str, list[Move]], number: int, lang: str, *,
                new_theme: bool) -> SheetItem:
    """One puzzle drawn with its answer; the first item of a new theme's section names the rule."""
    label, moves = answered
    title = scenario_title(sc, lang)
    theme = theme_of(sc)
    shown, rest = answer_split(sc, moves)
    # The faint base card in an empty foundation would give some themes' lesson away.
    taught = find_theme(theme, sc.position.profile.id)
    diagram = position_svg(sc.position, lang, caption=title, stock_shown=sc.stock_shown,
                           show_foundation_start=taught is None or taught.shows_base_card)
    lines = _writing_room(sc, len(shown))
    small = cards_not_home(sc.position) <= MAX_CARDS
    width = _diagram_width(diagram)
    compact = small and lines <= COMPACT_LINES and width >= MIN_DIAGRAM_MM
    numbered = small and sc.task == Task.WIN
    why = why_lines(explain_scenario(sc, solution_line(sc)), lang)
    shown_width = width if compact else BIG_DIAGRAM_MM
    wide, height = svg_size(diagram)
    return SheetItem(
        number=number,
        id=sc.id,
        title=title,
        instruction=instruction(sc.task, lang, sc.position, lines=lines if numbered else None, rest=rest,
                                traps=len(moves) if sc.task == Task.TRAP else 1),
        diagram=diagram,
        answer_label=label,
        answer_notation=" ".join(i18n.move_notation(m, lang) for m in shown),
        answer_words=tuple(i18n.move_words(m, lang) for m in shown),
        answer_tail=rest_sentence(len(shown), rest, lang),
        answer_others=others_sentence(sc, lang),
        theme=theme,
        rule=i18n.text(lang, "rule-title", theme) if theme and new_theme else None,
        difficulty=difficulty_label(sc.difficulty, lang),
        stock_note=stock_note(sc, lang),
        exposed_legend=exposed_legend(sc.position.profile, lang),
        profile=sc.position.profile.id,
        why=why,
        show_title=sc.generator is None,
        answer_lines=lines,
        numbered=numbered,
        # A trap's moves are alternatives, each losing on its own: a list, not steps 1, 2, ...
        answer_in_order=sc.task not in (Task.TRAP, Task.LEGAL_MOVES),
        compact=compact,
        diagram_mm=shown_width,
        diagram_height_mm=round(shown_width * height / wide, 1),
    )


# How a page prints, in mm, measured on WeasyPrint's layout of the sheet's CSS: the text block of each
# paper inside its margins; the first page's head (title, name line, legend, notation); a rule's
# heading; a small puzzle's frame (rule, heading, margins) around its diagram or side column; the
# task's 9.5 pt text (a character's mean width, a line's height, a paragraph's margin); a writing line.
PAGE_MM = {"a4": (182.0, 267.0), "letter": (187.9, 249.4)}
HEAD_MM, RULE_HEAD_MM, FRAME_MM = 50.0, 10.5, 14.0
CHAR_MM, TEXT_LINE_MM, PARAGRAPH_MM, WRITE_LINE_MM = 1.95, 4.3, 2.0, 6.0


def block_height(item: SheetItem, text_width: float) -> float:
    """About how tall a small puzzle prints (mm): its frame, then its diagram or, when taller, the
    task, the stock note and the writing lines beside it; and its rule's heading above it."""
    chars = max(10, int((text_width - item.diagram_mm - 5) / CHAR_MM))
    texts = [t for t in (item.instruction, item.stock_note) if t]
    side = sum(len(textwrap.wrap(t, chars)) * TEXT_LINE_MM + PARAGRAPH_MM for t in texts) \
        + item.answer_lines * WRITE_LINE_MM
    return FRAME_MM + max(item.diagram_height_mm, side) + (RULE_HEAD_MM if item.rule else 0)


def sheet_pages(items: Sequence[SheetItem], paper: str = "a4") -> list[list[SheetItem]]:
    """The puzzles page by page: two small ones share a page when both fit it (the first page also
    holds the sheet's head), a big one has a page of its own."""
    width, height = PAGE_MM[paper]
    pages: list[list[SheetItem]] = []
    for item in items:
        if item.compact and pages and len(pages[-1]) == 1 and pages[-1][0].compact:
            room = height - (HEAD_MM if len(pages) == 1 else 0)
            if block_height(pages[-1][0], width) + block_height(item, width) <= room:
                pages[-1].append(item)
                continue
        pages.append([item])
    return pages


def sheet_html(items: Sequence[SheetItem], lang: str, *, paper: str = "a4",
               answers: str = "appendix", key_only: bool = False) -> str:
    """The worksheet as one HTML document (`key_only`: the answer key alone)."""
    if paper not in PAPERS:
        raise InputError(f"unknown paper {paper!r} (one of: {', '.join(PAPERS)})")
    if answers not in ANSWER_MODES:
        raise InputError(f"unknown answers mode {answers!r} (one of: {', '.join(ANSWER_MODES)})")
    template = environment(lang).get_template("sheet.html.j2")
    # The games of the sheet's puzzles, in their order (the default game for an empty sheet).
    games = dict.fromkeys(item.profile for item in items) or {DEFAULT_PROFILE: None}
    profiles = [get_profile(pid) for pid in games]
    return template.render(
        items=items,
        title=sheet_title(profiles, lang),
        piles_legend=piles_legend(profiles, lang),
        base_legends=base_legends(profiles, lang),
        pages=sheet_pages(items, paper),
        paper="A4" if paper == "a4" else "letter",
        show_puzzles=not key_only,
        show_key=key_only or answers == "appendix",
        exposed_legend=next((item.exposed_legend for item in items if item.exposed_legend), None),
        css=Markup(read_asset("sheet.css")),
    )


class _WarningsToErrors(logging.Handler):
    """Collects WeasyPrint warnings (a missing font or an unsupported property) so a run can fail on them."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def html_to_pdf(html: str, target: Path, *, strict: bool = False) -> None:
    """Render `html` to a PDF at `target` (the caller makes it atomic)."""
    import weasyprint  # slow to import: only when a PDF is really made

    logger = logging.getLogger("weasyprint")
    handler = _WarningsToErrors()
    logger.addHandler(handler)
    try:
        weasyprint.HTML(string=html, base_url=".").write_pdf(target)
    finally:
        logger.removeHandler(handler)
    if strict and handler.messages:
        raise RuntimeError("WeasyPrint warned: " + "; ".join(handler.messages))


def answers_path(out: Path) -> Path:
    return out.with_name(out.stem + "-answers" + (out.suffix or ".pdf"))


def build_sheet(
    paths: Sequence[str],
    lang: str,
    out: Path,
    *,
    paper: str = "a4",
    answers: str = "appendix",
    progress: Callable[[str], None] | None = None,
    mix: dict[RuleId, int] | None = None,
    selection: Selection | None = None,
    note: Callable[[str], None] | None = None,
) -> list[Path]:
    """Write the worksheet PDF (and, for ``answers="separate"``, its key); return the files written."""
    i18n.check_lang(lang)
    if paper not in PAPERS:
        raise InputError(f"unknown paper {paper!r} (one of: {', '.join(PAPERS)})")
    if answers not in ANSWER_MODES:
        raise InputError(f"unknown answers mode {answers!r} (one of: {', '.join(ANSWER_MODES)})")
    if out.is_dir():
        raise InputError(Problem("is a folder; --out needs a PDF file name", str(out)))
    items = load_items(paths, lang, progress, mix, selection, note)
    documents = [(out, sheet_html(items, lang, paper=paper, answers=answers))]
    if answers == "separate":
        documents.append((answers_path(out), sheet_html(items, lang, paper=paper, key_only=True)))
    if progress:
        progress("PDF")
    # Render every document before renaming any, so a failure leaves nothing behind.
    try:
        with atomic_path(out, ".pdf") as first:
            html_to_pdf(documents[0][1], first)
            if len(documents) == 2:
                with atomic_path(documents[1][0], ".pdf") as second:
                    html_to_pdf(documents[1][1], second)
    except OSError as exc:
        raise InputError(Problem(f"cannot write the PDF: {exc.strerror or exc}", str(out))) from None
    return [path for path, _ in documents]
