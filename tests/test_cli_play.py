"""The commands ``deal``, ``moves`` and ``check`` as a user runs them (formats.md, "The command line").

The positions here are written by hand, in the loose forms a person types
(symbols, lower case, strings or lists), and their legal moves were worked out
by hand from the rules, not taken from the engine.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from agnes_teach.cli import app
from agnes_teach.deal import deal
from agnes_teach.profile import get_profile

REPO = Path(__file__).resolve().parent.parent
runner = CliRunner()

# Base 5; spades home to 3, hearts to 2, diamonds to K, clubs to Q; the other 12 cards out.
HAND_POSITION = """\
base: 5
foundations: {S: 3S, "♥": 2♥, D: KD, c: qc}
tableau:
  - [AD]
  - []
  - KC 4D 3C
  - 4♣
  - 2d
  - []
  - 3H
reserve: [4S, 4H, [AC, 2C], [], [], [], []]
stock: []
exposed: [[], 3D]
"""
# Worked out by hand: A♦ 3♥ 4♠ go home; the three 4s (and the run 4♦ 3♣) may open t2 or t6;
# 2♦ goes on 3♣, 3♥ on 4♣, 2♣ (top of r3) on 3♥, 3♦ (x2) on 4♣.
HAND_MOVES = {
    "AD>f", "3H>f", "4S>f",
    "4D>t2", "4D>t6", "4C>t2", "4C>t6", "4S>t2", "4S>t6", "4H>t2", "4H>t6",
    "2D>t3", "3H>t4", "2C>t7", "3D>t4",
}


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def hand_file(tmp_path: Path) -> Path:
    path = tmp_path / "mine.yaml"
    path.write_text(HAND_POSITION, encoding="utf-8")
    return path


def check_json(*args: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    code, out, err = run("check", *args, "--json")
    assert code in (0, 1), err
    return code, json.loads(out)


# ---------------------------------------------------------------------------------- deal


def test_deal_prints_a_valid_position() -> None:
    code, out, _ = run("deal", "1")
    assert code == 0
    assert out.startswith("# deal 1, profile bernauer\n")
    assert yaml.safe_load(out) == deal(1).to_data()


@pytest.mark.parametrize("profile", ["agnes-ru", "reserve-last-deal"])
def test_deal_with_a_profile(profile: str, tmp_path: Path) -> None:
    code, out, _ = run("deal", "7", "--profile", profile)
    assert code == 0
    assert yaml.safe_load(out) == deal(7, get_profile(profile)).to_data()
    # what deal prints, moves reads back
    (tmp_path / "d.yaml").write_text(out, encoding="utf-8")
    assert run("moves", str(tmp_path / "d.yaml"))[0] == 0


def test_deal_is_the_same_every_time() -> None:
    assert run("deal", "2026")[1] == run("deal", "2026")[1]
    assert run("deal", "2026")[1] != run("deal", "2027")[1]


# --------------------------------------------------------------------------------- moves


def test_moves_of_a_hand_written_position(hand_file: Path) -> None:
    code, out, _ = run("moves", str(hand_file))
    assert code == 0
    assert set(out.split()) == HAND_MOVES
    code, out, _ = run("moves", str(hand_file), "--json")
    assert code == 0
    assert set(json.loads(out)["moves"]) == HAND_MOVES
    assert list(json.loads(out)) == ["moves"]


def test_moves_reads_a_scenario_file_too(tmp_path: Path) -> None:
    scenario = "id: mine\ntask: legal-moves\nposition:\n" + "".join(
        "  " + line + "\n" for line in HAND_POSITION.splitlines())
    path = tmp_path / "scenario.yaml"
    path.write_text(scenario, encoding="utf-8")
    code, out, _ = run("moves", str(path), "--json")
    assert code == 0 and set(json.loads(out)["moves"]) == HAND_MOVES


# --------------------------------------------------------------------------------- check


def test_check_the_shipped_puzzles() -> None:
    folder = REPO / "agnes_teach" / "data" / "examples"
    count = len(list(folder.glob("*.yaml")))
    code, out, _ = run("check", str(folder))
    assert code == 0, out
    assert count >= 1 and f"{count} passed, 0 failed" in out


def test_check_json_shape(hand_file: Path) -> None:
    code, data = check_json(str(hand_file), "--solution", "AD>f 3H>f 2C>t7")
    assert code == 1 and data["ok"] is False
    (result,) = data["results"]
    assert result["file"] == str(hand_file) and result["id"] == "mine" and result["ok"] is False
    (error,) = result["errors"]
    assert set(error) == {"rule", "move_index", "move", "message"}
    # 3♥ went home, so t7 is empty and takes only a 4
    assert (error["rule"], error["move_index"], error["move"]) == ("tableau.empty", 3, "2C>t7")
    assert "4" in error["message"] and "2♣" in error["message"]


def test_check_a_line_that_stops_short_fails_for_end_win(hand_file: Path) -> None:
    code, data = check_json(str(hand_file), "--solution", "AD>f, 4S>f")
    (error,) = data["results"][0]["errors"]
    assert code == 1
    assert (error["rule"], error["move_index"], error["move"]) == ("end.win", None, None)
    assert "42 of 52" in error["message"]


def test_check_a_full_win_by_hand(hand_file: Path) -> None:
    # Worked out by hand; some moves written SRC>DEST (r3>t7 is 2C onto 3H, t3>t1 the run 4D 3C
    # into the empty t1, which frees KC, the next club).
    line = ("AD>f 2D>f x2>f r3>t7 t3>t1 KC>f AC>f t7>f 3C>f 4D>f t4>f 3H>f r2>f 4S>f")
    code, data = check_json(str(hand_file), "--solution", line)
    assert data["results"][0]["errors"] == [] and code == 0
    assert data["results"][0]["verified"] == ["--solution"]
    assert data["results"][0]["notes"] == []  # every card home: nothing left to go by itself
    # One step shorter, the last card goes home by itself: a win as the sheet counts it (issue 28).
    code, data = check_json(str(hand_file), "--solution", line.rsplit(" ", 1)[0])
    assert code == 0 and data["results"][0]["notes"][0]["home_by_themselves"] == 1
    # Before t3>t1 the King of clubs is buried under 4D 3C: no win.
    code, data = check_json(str(hand_file), "--solution", "AD>f 2D>f x2>f r3>t7")
    assert code == 1 and data["results"][0]["errors"][0]["rule"] == "end.win"


def test_check_names_a_source_form_move_by_its_card(hand_file: Path) -> None:
    # r3>f means 2C>f, which clubs (wanting K) refuse; the error shows the card form.
    code, data = check_json(str(hand_file), "--solution", "r3>f")
    (error,) = data["results"][0]["errors"]
    assert (error["rule"], error["move_index"], error["move"]) == ("foundation.suit", 1, "2C>f")


def test_check_claims(tmp_path: Path) -> None:
    scenario = "id: claims\ntask: legal-moves\nposition:\n" + "".join(
        "  " + line + "\n" for line in HAND_POSITION.splitlines()) + (
        "expect:\n"
        f"  legal: {' '.join(sorted(HAND_MOVES))}\n"
        "  illegal:\n"
        "    3C>t2: tableau.empty\n"
        "    KC>t1: tableau.run\n"
        "    x1>t1: stock.last-two\n"
        "    3D>f: foundation.suit\n"
        "    2C>x1: stock.last-two\n"
        "    AC>t5: reserve.top\n"
        "    3S>t2: foundation.final\n"
        "    4H>r5: reserve.no-build\n"
        "    4C>t9: deal.layout\n"
        "    deal: stock.no-redeal\n"
    )
    path = tmp_path / "claims.yaml"
    path.write_text(scenario, encoding="utf-8")
    code, data = check_json(str(path))
    assert code == 0, data
    assert set(data["results"][0]["verified"]) == {"legal", "illegal"}

    wrong = scenario.replace("3D>f: foundation.suit", "3D>f: foundation.start").replace(" 3D>t4", "")
    path.write_text(wrong, encoding="utf-8")
    code, data = check_json(str(path))
    errors = data["results"][0]["errors"]
    assert code == 1
    expected = {("expect.legal", "3D>t4"), ("foundation.suit", "3D>f")}
    assert {(e["rule"], e["move"]) for e in errors} == expected


@pytest.mark.parametrize("command", ["deal", "moves", "check"])
def test_help(command: str) -> None:
    code, out, _ = run(command, "--help")
    assert code == 0 and "Usage" in out
