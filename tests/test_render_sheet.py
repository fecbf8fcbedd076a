"""The worksheet PDF: pages, text in each language, the answer key, failures that write nothing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from _render_util import DEMO, pdf_pages, weasyprint_warnings
from typer.testing import CliRunner

from agnes_teach.cli import app
from agnes_teach.render.sheet import build_sheet, load_items, sheet_html
from agnes_teach.scenario import load_scenario

ROOT = Path(__file__).resolve().parent.parent
WHOLE_GAME = ROOT / "tests" / "fixtures" / "whole-game"  # the earlier whole-game puzzles

CYRILLIC = re.compile("[а-яА-ЯёЁ]")


@pytest.fixture(scope="module")
def ru_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("sheet") / "ru.pdf"
    with weasyprint_warnings() as warnings:
        build_sheet([str(DEMO)], "ru", out)
    assert warnings == [], warnings
    return out


def test_russian_sheet_has_puzzles_then_answer_key(ru_pdf: Path) -> None:
    pages = pdf_pages(ru_pdf)
    # The first two puzzles are small and share the first page with the legend; the third is
    # small too but alone, since the fourth (51 cards) is big and has a page of its own; the key
    # starts on a page of its own.
    assert len(list(DEMO.glob("*.yaml"))) == 4
    assert len(pages) == 4
    first = pages[0]
    assert "Условные обозначения" in first and "Класс" in first
    assert CYRILLIC.search(first) and "Агнес Бернауэр" in first
    assert all(symbol in "".join(pages[:-1]) for symbol in "♠♥♦♣")
    assert "Доведите партию до конца: в игре ещё" in first  # cards are home already: no "all 52"
    assert "Ответы" not in "".join(pages[:-1])
    key = pages[-1]
    assert "Ответы" in key and "→ в дом" in key and "7♠>f" in key
    # The worked example's line is only moves home: its answer is one sentence. So is the corner's
    # (issue 28: the Ace onto the King is a move home like any other, and goes by itself).
    assert "Все 13 карт уходят в дом сами, одними ходами в дом, в любом порядке" in key and "6♥>f" not in key
    assert "Все 20 карт уходят в дом сами, одними ходами в дом, в любом порядке" in key
    assert "Страница 1 / " in first


def test_every_puzzle_is_whole_on_one_page(ru_pdf: Path) -> None:
    pages = pdf_pages(ru_pdf)[:-1]
    for item in load_items([str(DEMO)], "ru"):
        holding = [i for i, text in enumerate(pages) if item.title in text]
        assert len(holding) == 1, item.title
        page = pages[holding[0]]
        # The title, its instruction and the diagram's pile labels sit on the same page.
        assert " ".join(item.instruction.split()) in " ".join(page.split()) and "t7" in page and "r1" in page


@pytest.mark.parametrize("lang, word", [("en", "Answer key"), ("es", "Soluciones")])
def test_other_languages_and_letter_paper(tmp_path: Path, lang: str, word: str) -> None:
    out = tmp_path / "sheet.pdf"
    with weasyprint_warnings() as warnings:
        build_sheet([str(DEMO / "01-section-08.yaml")], lang, out, paper="letter")
    assert warnings == [], warnings
    pages = pdf_pages(out)
    assert len(pages) == 2 and word in pages[1] and word not in pages[0]


def test_answers_separate_and_none(tmp_path: Path) -> None:
    out = tmp_path / "w.pdf"
    written = build_sheet([str(DEMO / "03-run-moves-whole.yaml")], "en", out, answers="separate")
    assert written == [out, tmp_path / "w-answers.pdf"]
    assert "Answer key" not in "".join(pdf_pages(out))
    assert "Answer key" in pdf_pages(written[1])[0]
    build_sheet([str(DEMO / "03-run-moves-whole.yaml")], "en", out, answers="none")
    assert "Answer key" not in "".join(pdf_pages(out))


def test_key_gives_moves_as_notation_and_words() -> None:
    items = {i.id: i for i in load_items([str(DEMO)], "en")}
    run = items["demo-run-moves-whole"]
    # Issue 28: the line's first move, 3♠>t2, does nothing; every card goes home by itself.
    assert run.answer_notation == "" and run.answer_words == ()
    assert run.answer_tail == "All 11 cards go home by themselves, by foundation moves alone, in any order."
    legal = items["demo-deal-7-moves"]
    assert "10♣ → column 1" in legal.answer_words and "deal the stock" in legal.answer_words


def test_titles_are_escaped(tmp_path: Path) -> None:
    data = yaml.safe_load((DEMO / "03-run-moves-whole.yaml").read_text("utf-8"))
    data["title"] = {"en": "<script>alert(1)</script> & co"}
    file = tmp_path / "evil.yaml"
    file.write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    html = sheet_html(load_items([str(file)], "en"), "en")
    assert "<script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; co" in html


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output


def test_bad_input_writes_nothing(tmp_path: Path) -> None:
    good = DEMO / "01-section-08.yaml"
    bad = tmp_path / "bad.yaml"
    bad.write_text(good.read_text("utf-8").replace("solution: 6H>f", "solution: 7H>f"), "utf-8")
    out = tmp_path / "out.pdf"
    code, output = _run("sheet", str(good), str(bad), "--out", str(out))
    assert code == 2
    assert "bad.yaml" in output and "reserve" in output and "Traceback" not in output
    assert not out.exists() and list(tmp_path.iterdir()) == [bad]
    code, output = _run("sheet", str(good), "--out", str(out), "--lang", "xx")
    assert code == 2 and "'xx' is not one of" in output and not out.exists()
    code, output = _run("sheet", str(tmp_path / "missing.yaml"), "--out", str(out))
    assert code == 2 and "no such file" in output and not out.exists()


def test_cli_writes_the_pdf(tmp_path: Path) -> None:
    out = tmp_path / "s.pdf"
    code, output = _run("sheet", str(DEMO / "02-ace-after-king.yaml"), "--out", str(out), "--lang", "es")
    assert code == 0, output
    assert str(out) in output and pdf_pages(out)[0].count("Base 9") == 1


def test_only_dejavu_fonts_are_embedded(ru_pdf: Path) -> None:
    # A glyph missing from DejaVu would pull in a fallback font; none may appear.
    from pypdf import PdfReader

    fonts = set()
    for page in PdfReader(str(ru_pdf)).pages:
        for font in page["/Resources"]["/Font"].values():
            fonts.add(str(font.get_object()["/BaseFont"]).split("+")[-1])
    assert fonts and all(name.startswith("DejaVu") for name in fonts), fonts


def test_demo_builds_the_teachers_sheet_worksheet_and_guide(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # the library is found from the installed package, not the folder
    code, output = _run("demo", "--out", "build", "--lang", "en")
    assert code == 0, output
    built = tmp_path / "build"
    teacher = built / "teacher-sheet-tableau-empty-en.pdf"
    assert output.splitlines()[0] == str(Path("build") / teacher.name)
    pages = pdf_pages(teacher)
    puzzles = [p for p in pages if "Difficulty:" in p]
    assert "What may fill an empty column" in pages[0] and "6 puzzles" in pages[0]
    levels = [re.findall(r"Difficulty: (\w+)", p) for p in puzzles]
    rank = {"easy": 0, "medium": 1, "hard": 2}
    got = [rank[level] for level in sum(levels, [])]
    assert len(got) == 6 and got == sorted(got) and set(got) == {0, 1, 2}  # easy to hard, every rating
    assert (built / "worksheet-en.pdf").is_file() and len(pdf_pages(built / "worksheet-en.pdf")) >= 2
    # --lang is honoured by the guide too: English only, no Russian or Spanish page.
    pages = sorted(p.name for p in (built / "guide").iterdir())
    assert pages == ["en.html", "index.html", "practice-en.html"]


def test_sections_by_theme_easy_to_hard_with_the_rule_on_top() -> None:
    items = load_items([str(WHOLE_GAME / "tableau.empty"), str(WHOLE_GAME / "stock.deal")], "en")
    themes = [i.theme for i in items]
    assert themes == sorted(themes, key=themes.index)  # one section per theme
    heads = [i for i in items if i.rule]
    assert [i.theme for i in heads] == ["tableau.empty", "stock.deal"]
    order = {"Difficulty: easy": 0, "Difficulty: medium": 1, "Difficulty: hard": 2}
    for theme in ("tableau.empty", "stock.deal"):
        levels = [order[i.difficulty or ""] for i in items if i.theme == theme]
        assert levels == sorted(levels)
    assert [i.number for i in items] == list(range(1, len(items) + 1))


def test_a_shown_stock_is_listed_face_up_and_the_key_explains_the_tempting_move() -> None:
    (item,) = load_items([str(ROOT / "agnes_teach" / "data" / "examples" / "stock-deal.yaml")], "ru")
    assert item.stock_note is not None and item.stock_note.startswith("Колода открыта")
    # The cards are drawn once, face up under the reserve; the note only says what that means.
    assert "4♥" not in item.stock_note and 'data-card="4♥"' in item.diagram
    assert item.diagram.count('class="stock"') == 0  # no face-down stock drawn beside them
    assert item.explanation is not None and item.explanation.startswith("Ход 1: сдать из колоды — ")
    (run,) = load_items([str(DEMO / "03-run-moves-whole.yaml")], "en")
    assert run.explanation is not None
    assert run.explanation.startswith("At move 1: 3♣>t4 (3♣ → column 4) — refused by the rules. ")
    assert run.stock_note is None


def test_mix_takes_the_easiest_of_each_theme_without_rule_headings() -> None:
    from agnes_teach.cli.options import parse_mix
    from agnes_teach.errors import InputError

    mix = parse_mix("foundation.wrap=2, reserve.top=1")
    items = load_items([str(ROOT / "puzzles")], "en", mix=mix)
    assert sorted(i.theme or "" for i in items) == ["foundation.wrap", "foundation.wrap", "reserve.top"]
    assert not any(i.rule for i in items)
    for bad in ("nonsense=1", "stock.deal=0", "stock.deal", ""):
        with pytest.raises(InputError):
            parse_mix(bad)
    with pytest.raises(InputError, match="no puzzle on stock.deal"):
        load_items([str(DEMO)], "en", mix=parse_mix("stock.deal=5"))


def test_the_key_explains_a_losing_deal_by_the_card_it_buries_in_every_language() -> None:
    # The reason names the pair the position shows after the deal (tagger.refutation): a card
    # that can only go home, dropped on a card of its suit that must go home first.
    from agnes_teach.engine import apply_unchecked
    from agnes_teach.moves import DEAL_MOVE
    from agnes_teach.tagger.refutation import reason

    file = ROOT / "tests" / "hint_positions" / "stock-deal-s103-004.yaml"
    sc = load_scenario(file)
    block = reason(sc.position, DEAL_MOVE)
    assert block is not None
    after = apply_unchecked(sc.position, DEAL_MOVE)
    pile = after.pile(block.pile)
    assert pile.index(block.upper) > pile.index(block.lower)
    texts = {lang: load_items([str(file)], lang)[0].explanation or "" for lang in ("en", "ru", "es")}
    from agnes_teach import i18n

    for lang, text in texts.items():  # the cards as each language writes them (Т♣ in Russian)
        assert i18n.card_text(block.upper, lang) in text and i18n.card_text(block.lower, lang) in text
        assert block.pile in text
    # First what the rule allows (a deal is a choice and covers every reserve top), then the cost.
    assert texts["en"].startswith("At move 1: deal the stock — Dealing is a choice, never a duty")
    assert "This move loses: then" in texts["en"]
    assert "может уйти только в дом" in texts["ru"] and "solo puede ir a su base" in texts["es"]


def test_a_long_line_ends_in_one_sentence_and_a_shown_stock_is_drawn_face_up() -> None:
    from agnes_teach.cards import card_symbol

    file = ROOT / "tests" / "mined_positions" / "tableau-empty-d3-m40.yaml"
    (item,) = load_items([str(file)], "en")
    assert item.answer_tail is not None and item.answer_tail.startswith("Then the remaining ")
    assert not item.answer_words[-1].endswith("foundation")  # the moves home are summed up
    assert "stock, face up, in dealing order" in item.diagram
    for card in load_scenario(file).position.stock:
        assert f'data-card="{card_symbol(card)}"' in item.diagram


@pytest.mark.parametrize(("lang", "start"), [
    ("en", "Finish the game: 49 cards are still in play"),
    ("ru", "Доведите партию до конца: в игре ещё 49 карт, соберите их в домах"),
    ("es", "Termina la partida: quedan 49 cartas en juego"),
])
def test_a_win_task_says_how_many_cards_are_still_to_bring_home(lang: str, start: str) -> None:
    from agnes_teach.render.sheet import instruction

    sc = load_scenario(ROOT / "tests" / "mined_positions" / "tableau-empty-d6-m17.yaml")
    from agnes_teach.deal import deal

    assert 52 - sum(sc.position.foundations) == 49  # three spades are home already
    assert instruction("win", lang, sc.position).startswith(start)
    assert "52" not in instruction("win", lang, sc.position)
    assert instruction("win", "en", deal(1)).startswith("Finish the game: 51 cards")  # the base is home


@pytest.mark.parametrize(("lang", "court"), [("ru", "КДВ"), ("es", "KQJ"), ("en", "KQJ")])
def test_the_keys_other_answers_are_written_in_the_readers_card_letters(lang: str, court: str) -> None:
    """A Russian key printed its other shortest answers in English letters ("Q♠>t5") beside its own
    line in Russian ones ("Д♠>t5")."""
    from agnes_teach.render.sheet import others_sentence

    sc = load_scenario(Path(__file__).resolve().parent.parent / "puzzles" / "small" / "foundation.final"
                       / "foundation-final-l15-15-c14.yaml")
    said = others_sentence(sc, lang)
    assert said is not None
    ranks = set(re.findall(r"([A-ZА-Я])[♠♥♦♣]", said))
    assert ranks and ranks <= set(court) | {"A", "Т"}, said
