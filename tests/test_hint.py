"""Hints: full information and fair (the stock order unknown), in every language, as text and JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from _solver_util import LOST_POSITION
from typer.testing import CliRunner

from agnes_teach import i18n
from agnes_teach.cli import app
from agnes_teach.hint import REASONS, fair_hint, full_hint
from agnes_teach.moves import parse_move_text
from agnes_teach.position import parse_position
from agnes_teach.scenario import load_scenario
from agnes_teach.yamlio import load_file

REPO = Path(__file__).resolve().parent.parent
runner = CliRunner()
# Fixed copies of two puzzles of the earlier library (a key move; a face-down stock).
OPEN_KEY = REPO / "tests/hint_positions/tableau-wrap-s104-001.yaml"
HIDDEN_KEY = REPO / "tests/hint_positions/stock-deal-s103-004.yaml"


def _key(path: Path) -> str:
    data, _ = load_file(path)
    return str(data["expect"]["key_move"])


@pytest.mark.parametrize("path", [OPEN_KEY, HIDDEN_KEY])
def test_full_hint_finds_the_key_move(path: Path) -> None:
    hint = full_hint(load_scenario(path).position, seconds=10)
    assert hint.mode == "full" and hint.best is not None and str(hint.best.move) == _key(path)
    assert hint.reason_id == "only"
    assert [m.verdict for m in hint.moves].count("won") == 1


def test_a_lost_position_has_no_best_move() -> None:
    hint = full_hint(parse_position(yaml.safe_load(LOST_POSITION)), seconds=5)
    assert hint.best is None and hint.reason_id == "all-lost"
    assert hint.moves and all(m.verdict == "lost" for m in hint.moves)


def test_fair_hint_with_nothing_hidden_is_the_full_hint() -> None:
    pos = load_scenario(OPEN_KEY).position
    hint = fair_hint(pos, 10)
    assert hint.exhaustive and hint.hidden == 0 and hint.reason_id == "fair-open"
    assert hint.best is not None and str(hint.best.move) == _key(OPEN_KEY)
    assert all(m.of == 1 for m in hint.moves)


def test_fair_hint_samples_orders_of_the_hidden_cards_only() -> None:
    pos = load_scenario(HIDDEN_KEY).position
    hint = fair_hint(pos, 6, seed=3)
    assert hint.hidden == len(pos.stock) == 9 and not hint.exhaustive
    assert {str(m.move) for m in hint.moves} == {"AC>f", "deal"}
    assert all(m.of == 6 and 0 <= (m.wins or 0) + (m.lost or 0) <= 6 for m in hint.moves)
    # The key move keeps the win whatever the order: no deal is needed to play A♣ home and win.
    best = hint.best
    assert best is not None and str(best.move) == "AC>f" and best.wins == 6 and best.verdict == "won"
    again = fair_hint(pos, 6, seed=3)
    assert [(m.move, m.wins, m.lost) for m in again.moves] == [(m.move, m.wins, m.lost) for m in hint.moves]


def test_fair_hint_with_few_orders_tries_every_one() -> None:
    # Two hidden cards have two orders: with K >= 2 both are tried, and the hint says "all".
    pos = load_scenario(HIDDEN_KEY).position
    from agnes_teach.engine import DEAL_MOVE, apply_move

    two = apply_move(pos, DEAL_MOVE)
    hint = fair_hint(two, 5)
    assert hint.hidden == 2 and hint.exhaustive and all(m.of == 2 for m in hint.moves)


@pytest.mark.parametrize("lang", ["en", "ru", "es"])
def test_json_contract_and_language(lang: str) -> None:
    full = runner.invoke(app, ["hint", str(OPEN_KEY), "--json", "--lang", lang])
    assert full.exit_code == 0, full.output
    data = json.loads(full.stdout)
    assert data["mode"] == "full" and data["best"] == _key(OPEN_KEY)
    assert {tuple(sorted(m)) for m in data["moves"]} == {("move", "verdict")}
    assert all(m["verdict"] in ("won", "lost", "unknown") for m in data["moves"])
    for m in data["moves"]:
        parse_move_text(m["move"])
    fair = runner.invoke(app, ["hint", str(HIDDEN_KEY), "--json", "--lang", lang, "--fair", "4"])
    data = json.loads(fair.stdout)
    assert data["mode"] == "fair" and all({"move", "verdict", "wins", "of"} <= set(m) for m in data["moves"])
    assert data["reason"] == i18n.text(lang, "hint", REASONS["fair-best"], move=_words("AC>f", lang),
                                       wins=4, of=4, low=51, high=100)


def _words(move: str, lang: str) -> str:
    from agnes_teach.i18n import move_words

    text = parse_move_text(move)
    from agnes_teach.moves import Move

    return move_words(Move(text.card, text.dest), lang)


def test_text_output_names_the_mode_and_marks_the_best_move() -> None:
    result = runner.invoke(app, ["hint", str(OPEN_KEY), "--lang", "ru"])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Полная информация")
    assert any(line.startswith("* KD>t6") and "сохраняет выигрыш" in line for line in lines)
    assert lines[-1].startswith("Лучший ход: К♦ → в столбец 6.")  # Cyrillic К: the Russian card letter
    fair = runner.invoke(app, ["hint", str(HIDDEN_KEY), "--fair", "4", "--lang", "es"])
    assert fair.stdout.splitlines()[0].startswith("Modo justo") and "4/4" in fair.stdout


@pytest.mark.parametrize("lang", ["en", "ru", "es"])
def test_every_hint_message_is_translated(lang: str) -> None:
    from agnes_teach.cli.hint import MODE_LINES

    have = i18n.catalog_entries(lang)["hint"]
    for msgid in [*REASONS.values(), *MODE_LINES.values(), "keeps the win", "loses", "undecided"]:
        assert msgid in have and have[msgid][0], msgid


def test_hint_bad_input() -> None:
    assert runner.invoke(app, ["hint"]).exit_code == 2
    assert runner.invoke(app, ["hint", "--deal", "1", "--fair", "0"]).exit_code == 2
    assert runner.invoke(app, ["hint", "--deal", "1", "--budget", "0"]).exit_code == 2
    assert runner.invoke(app, ["hint", "--deal", "1", "--lang", "de"]).exit_code == 2
    too_many = runner.invoke(app, ["hint", "--deal", "1", "--fair", "1001"])
    assert too_many.exit_code == 2 and "--fair is at most 1000" in too_many.stderr
    assert runner.invoke(app, ["hint", "--deal", "1", "--fair", "2", "--states", "2000001"]).exit_code == 2
    assert runner.invoke(app, ["hint", "--deal", "1", "--fair", "2", "--workers", "999"]).exit_code == 2


def test_fair_hint_in_two_processes_is_the_same_hint() -> None:
    pos = load_scenario(HIDDEN_KEY).position
    one = fair_hint(pos, 4, seed=1)
    two = fair_hint(pos, 4, seed=1, workers=2)
    assert [(m.move, m.wins, m.lost) for m in two.moves] == [(m.move, m.wins, m.lost) for m in one.moves]


def test_fair_hint_with_the_stock_shown_hides_nothing() -> None:
    pos = load_scenario(HIDDEN_KEY).position
    hint = fair_hint(pos, 8, stock_visible=True)
    assert hint.hidden == 0 and hint.exhaustive and hint.reason_id == "fair-shown"
    assert all(m.of == 1 for m in hint.moves)
    assert hint.best is not None and str(hint.best.move) == "AC>f"
    # The one order tried is the real one: the verdicts are the full-information ones.
    full = {str(m.move): m.verdict for m in full_hint(pos, seconds=10).moves}
    assert {str(m.move): m.verdict for m in hint.moves} == full
