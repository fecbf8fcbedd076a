"""``sheet --theme`` and ``--mix`` from the installed puzzle library; a duplicate printed once."""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path

import pytest
import yaml
from _render_util import pdf_pages
from typer.testing import CliRunner

from agnes_teach.cli import app
from agnes_teach.cli.options import parse_difficulties, parse_mix, parse_themes
from agnes_teach.puzzle_library import Selection, library_folder
from agnes_teach.registry import Difficulty, RuleId
from agnes_teach.render.sheet import load_items
from agnes_teach.scenario import load_puzzles

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = ROOT / "puzzles"
EMPTY = RuleId.TABLEAU_EMPTY
ORDER = {f"Difficulty: {d}": d.order for d in Difficulty}


def _ratings(theme: str) -> list[int]:
    """The small library's ratings of a theme, easy to hard (what a full --theme sheet prints)."""
    files = (LIBRARY / "small" / theme).glob("*.yaml")
    return sorted(Difficulty(yaml.safe_load(f.read_text("utf-8"))["difficulty"]).order for f in files)


EMPTY_RATINGS = _ratings(EMPTY)


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_the_library_is_found_through_importlib_resources() -> None:
    import agnes_teach.puzzles

    root = Path(str(resources.files("agnes_teach.puzzles")))
    assert root.resolve() == LIBRARY.resolve() == Path(agnes_teach.puzzles.__file__).parent.resolve()
    assert library_folder() == root / "small" and library_folder("demo") == root / "demo"
    assert len(load_puzzles([library_folder()])) == len(list((LIBRARY / "small").rglob("*.yaml")))


def test_the_package_data_ships_every_puzzle_file() -> None:
    # The wheel takes what the package-data globs match: every scenario of the library must be among them.
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]
    assert config["package-dir"]["agnes_teach.puzzles"] == "puzzles"
    assert "agnes_teach.puzzles" in config["packages"]
    shipped = {f for glob in config["package-data"]["agnes_teach.puzzles"] for f in LIBRARY.glob(glob)}
    assert set(LIBRARY.rglob("*.yaml")) <= shipped
    assert (LIBRARY / "__init__.py").is_file()


@pytest.mark.parametrize(("count", "difficulties", "levels"), [
    (None, "", EMPTY_RATINGS),  # all twelve, easy to hard
    (6, "", None),  # six, spread from the easiest to the hardest
    (1, "", [0]),
    (3, "hard", [2] * min(3, EMPTY_RATINGS.count(2))),
    (None, "easy,hard", [r for r in EMPTY_RATINGS if r != 1]),
])
def test_theme_draws_from_the_library_easy_to_hard_under_the_rule_heading(
        count: int | None, difficulties: str, levels: list[int] | None) -> None:
    selection = Selection(parse_themes([EMPTY]), parse_difficulties([difficulties]), count)
    items = load_items([], "en", selection=selection)
    got = [ORDER[i.difficulty or ""] for i in items]
    if levels is None:  # a spread: every rating the theme has, easy first and hard last
        assert len(got) == 6 and got == sorted(got) and set(got) == set(EMPTY_RATINGS)
    else:
        assert got == levels
    for one, other in zip(items, items[1:], strict=False):
        if one.difficulty == other.difficulty:
            assert one.id < other.id  # then by id
    assert {i.theme for i in items} == {EMPTY}
    assert items[0].rule == "What may fill an empty column" and not any(i.rule for i in items[1:])
    assert [i.number for i in items] == list(range(1, len(items) + 1))


def test_themes_in_the_order_given_each_with_its_heading_and_theme_filters_the_files() -> None:
    selection = Selection(parse_themes(["tableau.wrap,tableau.empty"]), count=2)
    items = load_items([], "en", selection=selection)
    assert [i.theme for i in items] == ["tableau.wrap"] * 2 + ["tableau.empty"] * 2
    assert [bool(i.rule) for i in items] == [True, False, True, False]
    # FILES and --theme: the theme picks among the files given (the demo set has one per rule).
    (only,) = load_items([str(LIBRARY / "demo")], "en", selection=Selection(parse_themes(["tableau.run"])))
    assert only.id.startswith("demo-tableau-run-") and only.rule


@pytest.mark.parametrize(("args", "message"), [
    (["--theme", "nonsense"], "'nonsense' is not a rule id"),
    (["--theme", "deal.base"], "no puzzle on deal.base in the puzzle library"),
    (["--theme", "tableau.empty", "--difficulty", "tricky"], "'tricky' is not a rating"),
    (["--count", "2"], "--count needs --theme"),
    (["--theme", "tableau.empty", "--mix", "stock.deal=1"], "not both"),
    ([], "give scenario FILES, --theme T or --mix"),
    (["--mix", "deal.base=1"], "--mix: no puzzle on deal.base"),
    ([str(LIBRARY / "demo"), "--theme", "reserve.top"], "no puzzle on reserve.top in "),
])
def test_bad_selection_exits_2_and_writes_nothing(tmp_path: Path, args: list[str], message: str) -> None:
    out = tmp_path / "s.pdf"
    code, stdout, stderr = _run("sheet", *args, "--out", str(out))
    assert code == 2 and message in stderr and "Traceback" not in stderr + stdout
    assert not out.exists()


def test_theme_cli_writes_the_sheet_and_says_when_fewer_than_asked(tmp_path: Path) -> None:
    out = tmp_path / "hard.pdf"
    code, stdout, stderr = _run("sheet", "--theme", "tableau.empty", "--difficulty", "hard",
                                "--count", "9", "--out", str(out))
    assert code == 0, stderr
    assert stdout.strip() == str(out)
    hard = EMPTY_RATINGS.count(2)
    assert f"{hard} puzzle{'s' if hard != 1 else ''} found, 9 asked" in stderr
    text = " ".join(pdf_pages(out))
    assert "What may fill an empty column" in text and text.count("Difficulty: hard") == hard


def test_mix_draws_from_the_library_without_paths() -> None:
    notes: list[str] = []
    items = load_items([], "en", mix=parse_mix("tableau.empty=2,tableau.wrap=40"), note=notes.append)
    wraps = len(_ratings("tableau.wrap"))
    assert [i.theme for i in items].count("tableau.empty") == 2
    assert [i.theme for i in items].count("tableau.wrap") == wraps and not any(i.rule for i in items)
    assert notes == [f"--mix tableau.wrap: {wraps} puzzles found, 40 asked; the sheet has those {wraps}"]


def test_a_copy_is_printed_once_with_a_note(tmp_path: Path) -> None:
    # `sheet puzzles --mix ...`: the demo file and the library file it copies were both printed.
    notes: list[str] = []
    demo = yaml.safe_load((LIBRARY / "demo" / "04-run-moves.yaml").read_text("utf-8"))["id"]
    source = demo.removeprefix("demo-")
    folders = [str(LIBRARY / "small"), str(LIBRARY / "demo")]
    items = load_items(folders, "en", mix=parse_mix("tableau.run=40"), note=notes.append)
    ids = [i.id for i in items]
    assert source in ids and demo not in ids
    assert len(ids) == len(set(ids)) == len(_ratings("tableau.run"))
    (note,) = [n for n in notes if "04-run-moves.yaml" in n]
    assert demo in note and f"{source}.yaml" in note and "copy" in note


def test_the_same_position_under_another_id_is_printed_once(tmp_path: Path) -> None:
    source = ROOT / "tests" / "fixtures" / "whole-game" / "tableau.empty" / "tableau-empty-d6-m23.yaml"
    data = yaml.safe_load(source.read_text("utf-8"))
    data["id"] = "my-own-puzzle"
    twin = tmp_path / "twin.yaml"
    twin.write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    code, _stdout, stderr = _run("sheet", str(twin), str(source), "--out", str(tmp_path / "s.pdf"))
    assert code == 0, stderr
    assert len([p for p in pdf_pages(tmp_path / "s.pdf") if "Difficulty:" in p]) == 1
    assert "the same position, up to symmetry" in stderr
    # The files named first keeps its place; the other is the one left out.
    assert "tableau-empty-d6-m23.yaml (tableau-empty-d6-m23) is left out" in stderr and "twin.yaml" in stderr


def test_the_sheet_command_runs_from_any_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    items = load_items([], "en", selection=Selection((EMPTY,), count=1))
    assert len(items) == 1 and items[0].theme == EMPTY


def test_every_library_puzzle_shares_its_page_and_writes_one_line_a_move() -> None:
    # Issue 20: two puzzles a page, as many writing lines as the answer has moves.
    from agnes_teach.render.sheet import sheet_pages

    items = load_items([str(LIBRARY)], "en")
    assert items and all(i.compact for i in items), [i.id for i in items if not i.compact]
    for paper in ("a4", "letter"):
        sizes = [len(page) for page in sheet_pages(items, paper)]
        assert all(n == 2 for n in sizes[:-1]) and sizes[-1] in (1, 2), sizes
    for item in items:
        if item.numbered:  # a win task: a line a move of the answer
            assert item.answer_lines == len(item.answer_words) <= 10
