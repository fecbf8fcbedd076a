"""PySolFC's Agnes Bernauer deals: game number -> layout, against layouts written down from PySolFC's code."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from agnes_teach.cards import card_name, parse_card
from agnes_teach.cli import app
from agnes_teach.engine import DEAL_MOVE, apply_move
from agnes_teach.errors import InputError
from agnes_teach.position import parse_position
from agnes_teach.profile import get_profile
from agnes_teach.pysolfc import dealing_order, parse_game_number, pysolfc_deal

GOLDEN = yaml.safe_load((Path(__file__).parent / "golden" / "pysolfc-layouts.yaml").read_text("utf-8"))
runner = CliRunner()


def _names(pile: tuple[int, ...]) -> str:
    return " ".join(card_name(c) for c in pile)


@pytest.mark.parametrize("game", sorted(GOLDEN))
def test_layout_matches_pysolfc(game: str) -> None:
    want = GOLDEN[game]
    pos = pysolfc_deal(game)
    assert pos.profile.id == "reserve-last-deal"
    base = parse_card(want["base"])
    assert pos.base == base % 13 + 1 and pos.foundation_top(base // 13) == base and pos.cards_home() == 1
    assert [_names(p) for p in pos.tableau] == want["tableau"]
    assert [_names(p) for p in pos.reserve] == want["reserve"]
    assert _names(pos.stock) == want["stock"]


def test_the_shuffle_is_the_microsoft_one_for_small_numbers() -> None:
    # Microsoft FreeCell deal 1 (published everywhere) starts JD 2D 9H JC 5D 7H 7C 5H: PySolFC's
    # game 1 must draw its cards in that order, since it uses the same generator.
    assert [card_name(c) for c in dealing_order(1)[:8]] == ["JD", "2D", "9H", "JC", "5D", "7H", "7C", "5H"]
    assert dealing_order("ms1") == dealing_order(1)


def test_stock_deals_land_as_in_pysolfc() -> None:
    # PySolFC deals the stock onto r1, r2, ... in turn, the last two cards onto r1 and r2.
    pos = pysolfc_deal(123)
    stock = pos.stock
    for _ in range(3):
        pos = apply_move(pos, DEAL_MOVE)
    assert pos.reserve[0][1:] == (stock[0], stock[7], stock[14])
    assert pos.reserve[1][1:] == (stock[1], stock[8], stock[15])
    assert pos.reserve[6][1:] == (stock[6], stock[13])


@pytest.mark.parametrize(("text", "want"), [
    ("123", (True, 123)), ("#00123", (True, 123)), ("ms40000", (True, 40000)), ("MS7", (True, 7)),
    ("31999", (True, 31999)), ("32000", (False, 32000)),
    ("#12,345,678,901,234,567", (False, 12345678901234567)),
])
def test_game_numbers_as_pysolfc_reads_them(text: str, want: tuple[bool, int]) -> None:
    assert parse_game_number(text) == want


@pytest.mark.parametrize("text", ["0", "abc", "5x", "100000000000000000000", "ms0", ""])
def test_bad_game_numbers(text: str) -> None:
    with pytest.raises(InputError):
        parse_game_number(text)


def test_other_profiles_with_the_same_layout() -> None:
    same = pysolfc_deal(123, get_profile("bernauer"))
    assert same.tableau == pysolfc_deal(123).tableau and same.stock == pysolfc_deal(123).stock
    with pytest.raises(InputError, match="agnes-ru"):
        pysolfc_deal(123, get_profile("agnes-ru"))


def test_cli_deal_pysolfc_round_trips(tmp_path: Path) -> None:
    result = runner.invoke(app, ["deal", "--pysolfc", "123"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("# PySolFC game 123, profile reserve-last-deal")
    assert parse_position(yaml.safe_load(result.stdout)) == pysolfc_deal(123)
    as_json = runner.invoke(app, ["deal", "--pysolfc", "123", "--json"])
    assert parse_position(json.loads(as_json.stdout)) == pysolfc_deal(123)
    both = runner.invoke(app, ["deal", "5", "--pysolfc", "123"])
    assert both.exit_code == 2 and "exactly one of" in both.stderr
    bad = runner.invoke(app, ["deal", "--pysolfc", "twelve"])
    assert bad.exit_code == 2 and "not a PySolFC game number" in bad.stderr


def test_cli_solve_and_hint_take_pysolfc() -> None:
    solved = runner.invoke(app, ["solve", "--pysolfc", "123", "--budget", "0.2", "--json"])
    assert solved.exit_code in (0, 1, 3) and json.loads(solved.stdout)["status"] in ("won", "lost", "unknown")
    hint = runner.invoke(app, ["hint", "--pysolfc", "123", "--budget", "0.1", "--json"])
    assert hint.exit_code == 0, hint.output
    assert {m["move"] for m in json.loads(hint.stdout)["moves"]} >= {"deal"}
