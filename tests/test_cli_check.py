"""check and the other commands on the smaller hitches: the result line, --json on bad input,
the deal command's message, --fair's limit, the arrow forms of move text."""

from __future__ import annotations

import json
from importlib.resources import files
from pathlib import Path

import pytest
from typer.testing import CliRunner

from agnes_teach.cli import app
from agnes_teach.limits import MAX_FAIR_ORDERS
from agnes_teach.moves import parse_move_text

runner = CliRunner()
SECTION_08 = Path(str(files("agnes_teach") / "data" / "examples" / "section-08.yaml"))
FORMATS = (Path(__file__).resolve().parent.parent / "docs" / "formats.md").read_text("utf-8")


def _invoke(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def _variant(tmp_path: Path, name: str, old: str, new: str) -> Path:
    text = SECTION_08.read_text("utf-8")
    assert old in text
    path = tmp_path / name
    path.write_text(text.replace(old, new), "utf-8")
    return path


def test_a_failed_file_names_what_failed_and_then_what_passed(tmp_path: Path) -> None:
    wrong = _variant(tmp_path, "wrong.yaml", "7H>f: reserve.top", "7H>f: tableau.build")
    code, out, _ = _invoke("check", str(wrong))
    assert code == 1
    assert (f"FAIL {wrong} (handmade-section-08): failed: illegal; "
            "passed: solution, legal, winnable, themes") in out


def test_a_claimed_solution_that_fails_is_named_as_failed() -> None:
    code, out, _ = _invoke("check", str(SECTION_08), "--solution", "9H>t2")
    assert code == 1
    assert "failed: --solution; passed: solution," in out


def test_a_file_where_nothing_held_names_only_what_failed(tmp_path: Path) -> None:
    deal = tmp_path / "deal1.yaml"
    deal.write_text(_invoke("deal", "1")[1], "utf-8")
    code, out, _ = _invoke("check", str(deal), "--solution", "4H>t3 9S>t1")
    assert code == 1
    assert f"FAIL {deal} (deal1): failed: --solution\n" in out


def test_check_json_names_the_failed_claims(tmp_path: Path) -> None:
    wrong = _variant(tmp_path, "wrong.yaml", "7H>f: reserve.top", "7H>f: tableau.build")
    code, out, _ = _invoke("check", str(wrong), "--json")
    (result,) = json.loads(out)["results"]
    assert code == 1 and result["failed"] == ["illegal"] and "illegal" not in result["verified"]


def test_two_files_of_one_id_are_both_checked_and_the_second_fails(tmp_path: Path) -> None:
    twin = _variant(tmp_path, "twin.yaml", "7H>f: reserve.top", "7H>f: tableau.build")
    code, out, _ = _invoke("check", str(SECTION_08), str(twin), "--json")
    first, second = json.loads(out)["results"]
    assert code == 1
    assert first["ok"] and first["failed"] == []
    # The second file is checked in full: its own wrong claim is found as well as the shared id.
    assert second["failed"] == ["illegal", "id"]
    (dup,) = [e for e in second["errors"] if e["rule"] == "scenario.id"]
    assert str(SECTION_08) in dup["message"] and "handmade-section-08" in dup["message"]


BAD_INPUT = [
    ("not yaml", "{\n", 2),
    ("unknown card", "position:\n  profile: bernauer\n  base: 5\n  tableau: [ZZ]\n", None),
]


@pytest.mark.parametrize(("what", "text", "line"), BAD_INPUT, ids=[b[0] for b in BAD_INPUT])
@pytest.mark.parametrize("command", ["check", "moves", "sheet"])
def test_bad_input_with_json_prints_a_json_object(tmp_path: Path, command: str, what: str, text: str,
                                                   line: int | None) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(text, "utf-8")
    extra = ["--out", str(tmp_path / "s.pdf")] if command == "sheet" else []
    code, out, err = _invoke(command, str(bad), *extra, "--json")
    assert code == 2
    shown = json.loads(out)
    assert shown["ok"] is False and shown["errors"]
    assert all(set(e) == {"file", "line", "message"} for e in shown["errors"])
    assert shown["errors"][0]["file"] == str(bad)
    if line is not None:
        assert shown["errors"][0]["line"] == line
    assert shown["errors"][0]["message"] in err  # the same problem, also on stderr
    assert not (tmp_path / "s.pdf").exists()


def test_bad_input_without_json_leaves_stdout_empty(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("{\n", "utf-8")
    code, out, err = _invoke("check", str(bad))
    assert code == 2 and out == "" and "not valid YAML" in err


@pytest.mark.parametrize(("args", "got"), [([], "none of them"),
                                           (["3", "--pysolfc", "4"], "N and --pysolfc")])
def test_deal_names_the_options_it_takes(args: list[str], got: str) -> None:
    code, out, err = _invoke("deal", *args)
    assert code == 2 and out == ""
    assert f"give exactly one of a deal number N or --pysolfc GAME (got {got})" in err
    assert "FILE" not in err and "--deal" not in err


def test_solve_still_names_file_and_deal() -> None:
    code, _, err = _invoke("solve")
    assert code == 2 and "give exactly one of a position FILE, --deal N or --pysolfc GAME" in err


def test_fair_help_shows_its_range_and_default() -> None:
    code, out, _ = _invoke("hint", "--help")
    text = " ".join(out.split())
    assert code == 0
    assert f"K from 1 to {MAX_FAIR_ORDERS}" in text and "default: off" in text


@pytest.mark.parametrize("text", ["4S->f", "4S→f", "4S > f"])
def test_the_documented_arrows_are_accepted(text: str) -> None:
    parsed, plain = parse_move_text(text), parse_move_text("4S>f")
    assert (parsed.card, parsed.source, parsed.dest) == (plain.card, plain.source, plain.dest)


def test_formats_documents_the_arrow_forms() -> None:
    assert "`4S->f`" in FORMATS and "`4S→f`" in FORMATS


@pytest.mark.parametrize(("lang", "where"), [("en", "move 2 9S>t1: "), ("ru", "ход 2 9S>t1: "),
                                             ("es", "jugada 2 9S>t1: ")])
def test_the_refused_move_is_named_in_the_language(tmp_path: Path, lang: str, where: str) -> None:
    # The move is quoted as --solution wrote it; the words around it follow --lang.
    code, out, _ = _invoke("deal", "1")
    (tmp_path / "deal1.yaml").write_text(out, "utf-8")
    code, out, _ = _invoke("check", str(tmp_path / "deal1.yaml"), "--solution", "4H>t3 9S>t1", "--lang", lang)
    assert code == 1 and where in out, out
    if lang != "en":
        assert "move 2" not in out
