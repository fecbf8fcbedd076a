"""Worksheets of small puzzles (issue 20): a numbered writing line per move of the answer, two
puzzles a page, and every wrong move of the answer explained in words in each language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from _render_util import DEMO, pdf_pages, weasyprint_warnings

from agnes_teach import i18n
from agnes_teach.engine import apply_move, apply_unchecked, resolve
from agnes_teach.moves import Move
from agnes_teach.position import Position
from agnes_teach.render.sheet import build_sheet, load_items, refuted_text, sheet_html, sheet_pages
from agnes_teach.scenario import Scenario, load_scenario
from agnes_teach.solver import canonical_key
from agnes_teach.tagger.answer import analyse, answer_cut
from agnes_teach.tagger.misconception import Misconception
from agnes_teach.tagger.refutation import ReasonKind, Refuted, explain_scenario, scenario_theme

ROOT = Path(__file__).resolve().parent.parent
SMALL = ROOT / "tests" / "small_puzzles"
BIG = ROOT / "tests" / "mined_positions" / "tableau-empty-d3-m40.yaml"  # 45 cards: a page of its own
LANGS = ("en", "ru", "es")
# The bare proof is no explanation: none of the small puzzles' lines may fall back on it.
SOLVER_WORD = {"en": "solver", "ru": "решател", "es": "resolvedor"}


def _line(sc: Scenario) -> list[Move]:
    pos, out = sc.position, []
    for text in sc.solution or []:
        move = resolve(pos, text)
        out.append(move)
        pos = apply_move(pos, move)
    return out


def _believer(sc: Scenario) -> Misconception | None:
    theme = scenario_theme(sc)
    return theme.believer if theme is not None else None


def _cut(sc: Scenario) -> int:
    return answer_cut(sc.position, _line(sc), _believer(sc))


@pytest.mark.parametrize(("path", "moves"), [
    (SMALL / "01-empty-column-seven.yaml", 7),
    (SMALL / "02-empty-column-ten.yaml", 10),
    (SMALL / "03-king-on-ace.yaml", 7),
    (SMALL / "04-deal-late.yaml", 11),  # the second deal is its last move: the home moves before it count
], ids=lambda p: p.stem if isinstance(p, Path) else str(p))
def test_a_small_puzzle_has_a_numbered_line_per_move_of_its_answer(path: Path, moves: int) -> None:
    sc = load_scenario(path)
    assert _cut(sc) == moves
    (item,) = load_items([str(path)], "en")
    assert item.compact and item.numbered and item.answer_lines == moves
    assert len(item.answer_words) == moves  # the key prints the same moves
    html = sheet_html([item], "en")
    puzzle = html[html.index('<section class="puzzle'):html.index("</section>")]
    assert puzzle.count('<div class="line">') == moves
    assert re.findall(r'<span class="n">(\d+)\.</span>', puzzle) == [str(n) for n in range(1, moves + 1)]


def test_the_corner_goes_home_by_itself_on_the_sheet() -> None:
    # Every move of the line goes home. The teaching criteria still count the Aces that follow their
    # Kings as the lesson (answer_cut with the misconception), but the sheet asks for the moves up to
    # the point from which the rest goes home by itself (issue 28, engine.finishes_home): the Ace onto
    # its King is a legal move home like any other, so nothing is left to write.
    sc = load_scenario(DEMO / "02-ace-after-king.yaml")
    line = _line(sc)
    assert all(m.dest.is_foundation for m in line)
    assert answer_cut(sc.position, line, None) == 0 and _cut(sc) == 4
    (item,) = load_items([str(DEMO / "02-ace-after-king.yaml")], "en")
    assert item.answer_notation == "" and item.answer_lines == 0
    assert item.answer_tail == (f"All {len(line)} cards go home by themselves, by foundation moves alone, "
                                "in any order.")


def _positions(pos: Position, moves: tuple[Move, ...]) -> list[Position]:
    out = [pos]
    for move in moves:
        out.append(apply_unchecked(out[-1], move))
    return out


def _covers(entries: list[Refuted], here: Position, index: int, move: Move) -> bool:
    """Does an entry explain `move` at `index` (a twin of it up to symmetry there), or the move
    itself where it is first on offer (each move is listed once)?"""
    key = canonical_key(apply_unchecked(here, move))
    return any((index in e.indices and any(canonical_key(apply_unchecked(here, m)) == key for m in e.moves))
               or (move in e.moves and e.indices[0] <= index) for e in entries)


@pytest.mark.parametrize("path", sorted(SMALL.glob("*.yaml")), ids=lambda p: p.stem)
def test_every_losing_move_of_the_answer_is_explained_in_every_language(path: Path) -> None:
    sc = load_scenario(path)
    line = _line(sc)
    found = analyse(sc.position, line, _believer(sc))
    positions = _positions(sc.position, found.moves)
    # A move the answer itself makes later is no wrong move (unless the file names it as the trap,
    # or the belief forces it: then its line says when the answer makes it).
    assert any(d.losing for d in found.decisions)
    losing = [(d.index, m) for d in found.decisions for m in d.losing if m not in found.moves[d.index + 1:]]
    entries = explain_scenario(sc, line)
    assert entries
    for index, move in losing:
        assert _covers(entries, positions[index], index, move), (index, move)
    for entry in entries:
        assert entry.reason.kind not in (ReasonKind.OBSERVED, ReasonKind.UNEXPLAINED), entry
        texts = {lang: refuted_text(entry, lang) for lang in LANGS}
        assert len(set(texts.values())) == len(LANGS), texts
        for lang, text in texts.items():
            assert SOLVER_WORD[lang] not in text, text
            for card in (entry.reason.card, entry.reason.cover):
                if card is not None:  # the cards named, in the language's letters
                    assert i18n.card_text(card, lang) in text, text


def test_the_tempting_moves_come_first_and_every_wrong_move_is_listed_once() -> None:
    # The deal the file names as its trap comes first, in its rule's terms, then what it costs; and
    # the answer's own later deal is said.
    (deal,) = load_items([str(SMALL / "04-deal-late.yaml")], "en")
    assert deal.why[0].startswith("At move 1: deal the stock — Dealing is a choice, never a duty, and a deal "
                                  "lays a new card on every reserve pile: here it would cover 8♣. This move "
                                  "loses: then 9♣ lies on 8♣ in r2;")
    assert deal.why[0].endswith("The answer makes this move too, but only at move 2.")
    (seven,) = load_items([str(SMALL / "01-empty-column-seven.yaml")], "ru")
    moves = [line.split(" — ")[0].split(": ", 1)[1] for line in seven.why]
    assert len(moves) == len(set(moves)) == 4  # every wrong move once, none left unexplained
    # A♥ home takes the King's last place: the theme's believer plays it at moves 1-3, and the key
    # says first what the empty-column rule allows there.
    assert seven.why[0].startswith("Ходы 1–3: Т♥>f (Т♥ → в дом) — Пустой столбец здесь принимает только "
                                   "карту 2")
    assert "Этот ход проигрывает: Т♥ — последняя карта" in seven.why[0]


@pytest.mark.parametrize(("kind", "path", "index", "move", "card", "cover"), [
    (ReasonKind.DEADLOCK, "01-empty-column-seven", 0, "AH>f", "9♣", "K♣"),
    (ReasonKind.BURIED, "01-empty-column-seven", 2, "AC>t1", "J♠", "A♣"),
    (ReasonKind.LAST_EMPTY, "01-empty-column-seven", 3, "2C>t5", "J♠", "9♣"),
    (ReasonKind.NEVER_HOME, "03-king-on-ace", 3, "QH>t3", "J♣", "J♦"),
])
def test_each_reason_names_the_cards_it_is_about(kind: ReasonKind, path: str, index: int, move: str,
                                                 card: str, cover: str) -> None:
    from agnes_teach.cards import card_symbol
    from agnes_teach.moves import parse_move_text

    sc = load_scenario(SMALL / f"{path}.yaml")
    here = _positions(sc.position, tuple(_line(sc)))[index]
    wanted = resolve(here, parse_move_text(move))
    (entry,) = [e for e in explain_scenario(sc, _line(sc)) if index in e.indices and wanted in e.moves]
    why = entry.reason
    assert why.kind is kind and why.card is not None and why.cover is not None
    assert (card_symbol(why.card), card_symbol(why.cover)) == (card, cover)
    if kind is ReasonKind.NEVER_HOME:  # the claim is about every continuation: the solver agrees
        from agnes_teach.solver import solve

        assert solve(apply_unchecked(here, wanted)).status == "lost"


def _small_and_big(tmp_path: Path) -> list[str]:
    """Three small puzzles with a big one between them: copies on one theme and rating, so the sheet
    keeps the files' order."""
    names = ["01-empty-column-seven.yaml", "02-empty-column-ten.yaml", "03-king-on-ace.yaml"]
    files = [SMALL / names[0], SMALL / names[1], BIG, SMALL / names[2]]
    out = []
    for i, f in enumerate(files):
        text = re.sub(r"(?m)^difficulty: \w+$", "difficulty: medium", f.read_text("utf-8"))
        copy = tmp_path / f"{i}-{f.name}"
        copy.write_text(text.replace("themes: [tableau.wrap]", "themes: [tableau.empty]"), "utf-8")
        out.append(str(copy))
    return out


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_two_small_puzzles_share_a_page_and_a_big_one_has_its_own(tmp_path: Path, paper: str) -> None:
    paths = _small_and_big(tmp_path)
    items = load_items(paths, "en")
    assert [[i.number for i in page] for page in sheet_pages(items)] == [[1, 2], [3], [4]]
    out = tmp_path / "sheet.pdf"
    with weasyprint_warnings() as warnings:
        build_sheet(paths, "en", out, paper=paper, answers="separate")
    assert warnings == [], warnings
    pages = pdf_pages(out)
    assert len(pages) == 3  # nothing spills over: the two small puzzles fit the first page
    for page, numbers in zip(pages, ([1, 2], [3], [4]), strict=True):
        assert re.findall(r"(?m)^(\d+)\. ", page) == [str(n) for n in numbers], page
    assert "Answer key" not in "".join(pages)


def test_four_small_puzzles_take_two_pages_and_their_key_follows(tmp_path: Path) -> None:
    out = tmp_path / "four.pdf"
    build_sheet([str(SMALL)], "ru", out)
    pages = pdf_pages(out)
    key = next(i for i, text in enumerate(pages) if "Ответы" in text)
    assert key == 2  # two pages of puzzles, two each
    assert "Ошибочные ходы" in "".join(pages[key:])
    # A third of a page or less per puzzle: the four keys fit on two pages.
    assert len(pages) - key <= 2


@pytest.mark.parametrize(("paper", "pages"), [("a4", 1), ("letter", 2)])
def test_a_pair_too_tall_for_the_first_page_of_letter_is_split_there(tmp_path: Path, paper: str,
                                                                      pages: int) -> None:
    # Ten lines, then eleven lines and the shown stock's note: together about 210 mm, which the
    # first page holds on A4 (under the sheet's head) but not on Letter.
    for name in ("02-empty-column-ten.yaml", "04-deal-late.yaml"):
        text = re.sub(r"(?m)^themes: .*$", "themes: [tableau.empty]", (SMALL / name).read_text("utf-8"))
        (tmp_path / name).write_text(re.sub(r"(?m)^difficulty: \w+$", "difficulty: medium", text), "utf-8")
    items = load_items([str(tmp_path)], "en")
    assert len(sheet_pages(items, paper)) == pages
    out = tmp_path / "sheet.pdf"
    build_sheet([str(tmp_path)], "en", out, paper=paper, answers="none")
    assert len(pdf_pages(out)) == pages  # the estimate agrees with the printed layout


@pytest.mark.parametrize("task", ["trap", "win"])
def test_a_traps_key_lists_its_moves_and_a_lines_key_numbers_them(task: str) -> None:
    # A trap's losing moves are alternatives, not steps: the key bullets them; a line is numbered.
    path = next(p for p in sorted((ROOT / "puzzles" / "small").rglob("*.yaml"))
                if load_scenario(p).task == task)
    (item,) = load_items([str(path)], "en")
    assert item.answer_in_order is (task == "win")
    html = sheet_html([item], "en")
    key = html[html.index('class="key"'):]
    assert ('<span class="n">1.</span>' in key) is (task == "win")
    assert ('<span class="n">•</span>' in key) is (task == "trap")


def test_the_sheet_explains_the_line_the_checker_and_the_practice_page_read(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A trap's solution that stops before every card is home is followed by the moves home: the
    sheet's key explains that whole line, the one ``checker.solution_line`` defines."""
    import agnes_teach.render.sheet as sheet
    from agnes_teach.checker import solution_line

    path = ROOT / "puzzles" / "small" / "foundation.wrap" / "foundation-wrap-l200008-35-c14.yaml"
    sc = load_scenario(path)
    explained: list[list[Move]] = []

    def recording(scenario: Scenario, line: list[Move]) -> list[Refuted]:
        explained.append(list(line))
        return explain_scenario(scenario, line)

    monkeypatch.setattr(sheet, "explain_scenario", recording)
    load_items([str(path)], "en")
    whole = solution_line(sc)
    assert len(whole) > len(sc.solution or []) and explained == [whole]
