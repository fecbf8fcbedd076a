"""The Python API: ``import agnes_teach as at``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import agnes_teach as at

REPO = Path(__file__).resolve().parent.parent


def test_the_top_level_names() -> None:
    for name in ("deal", "parse_position", "legal_moves", "apply_move", "solve", "check", "hint",
                 "pysolfc_deal", "Position", "Move", "InputError", "IllegalMoveError", "__version__"):
        assert hasattr(at, name), name


def _modules_loaded_by(code: str) -> set[str]:
    """The project's modules a fresh interpreter has loaded after running `code`."""
    script = f"import sys; {code}; print(__import__('json').dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    return {name for name in json.loads(out) if name.split(".")[0] == "agnes_teach"}


def test_one_module_loads_without_the_api() -> None:
    # The API's names load on first use: the cards module needs only the package and errors.
    assert _modules_loaded_by("import agnes_teach.cards") == {"agnes_teach", "agnes_teach.cards",
                                                               "agnes_teach.errors"}


def test_the_api_loads_on_first_use_and_keeps_its_names() -> None:
    # deal.py and hint.py share their names with API functions: loaded first, they must not hide them.
    code = ("import agnes_teach.deal, agnes_teach.hint, agnes_teach as at; from agnes_teach import Move; "
            "assert callable(at.deal) and callable(at.hint) and at.deal(1).profile.id == 'bernauer'; "
            "assert {'deal', 'solve', 'Move'} <= set(dir(at))")
    assert "agnes_teach.api" in _modules_loaded_by(code)
    assert "agnes_teach.api" not in _modules_loaded_by("import agnes_teach")


def test_reprs_are_short_and_use_card_symbols() -> None:
    pos = at.deal(1)
    text = repr(pos)
    assert text.startswith("Position(bernauer, base 10, f 10♥, t 7♠ | 7♦ 9♣ |") and text.endswith("stock 16)")
    assert len(text) < 300 and "Card" not in text
    assert repr(at.legal_moves(pos)[0]) == "Move(4♥>t3)"
    assert repr(pos.profile) == "Profile('bernauer')"
    assert str(pos).splitlines()[:3] == ["bernauer, base 10", "f:  10♥", "t1: 7♠"]


def test_moves_as_text_and_errors_as_values() -> None:
    pos = at.deal(1)
    after = at.apply_move(pos, "4H>t3")
    assert after.tableau[2][-1] == at.move(pos, "4H>t3").card
    with pytest.raises(at.IllegalMoveError) as refused:
        at.apply_move(after, "9S>t1")
    assert refused.value.refusal.rule == "tableau.build"
    with pytest.raises(at.InputError):
        at.apply_move(pos, "4H>>t3")


def test_parse_position_from_text_or_mapping() -> None:
    data = at.deal(7).to_data()
    assert at.parse_position(data) == at.deal(7)
    import yaml

    assert at.parse_position(yaml.safe_dump(data)) == at.deal(7)
    with pytest.raises(at.InputError, match="missing cards"):
        at.parse_position({**data, "stock": []})


def test_solve_check_and_hint() -> None:
    result = at.solve(at.deal(3), seconds=20)
    assert result.status == "won"
    checked = at.check(REPO / "agnes_teach/data/examples/section-08.yaml")
    assert checked.ok
    import yaml

    as_data = yaml.safe_load((REPO / "agnes_teach/data/examples/section-08.yaml").read_text("utf-8"))
    assert at.check(as_data).verified == checked.verified
    # The worked example goes home by itself: one move, and the other 12 cards follow (issue 28).
    short = at.check(REPO / "agnes_teach/data/examples/section-08.yaml", solution="6H>f")
    assert short.ok and [n.cards for n in short.notes] == [12]
    hint = at.hint(at.parse_position((REPO / "tests/hint_positions/tableau-wrap-s104-001.yaml")
                                     .read_text("utf-8")))
    assert hint.best is not None and str(hint.best.move) == "KD>t6"


def test_pysolfc_deal() -> None:
    assert at.pysolfc_deal(123).profile.id == "reserve-last-deal"


RUSSIAN_LETTERS = {"A": "Т", "J": "В", "Q": "Д", "K": "К"}


def test_move_text_is_read_as_the_command_line_reads_it() -> None:
    # The API and `check --solution` share one parser: what a pupil types at one, the other takes,
    # the Russian rank letters included ("К♦>t3").
    from agnes_teach.cards import SUIT_SYMBOLS, SUITS
    from agnes_teach.moves import parse_move_text
    from agnes_teach.scenario import parse_moves
    from agnes_teach.yamlio import Locator

    tried = 0
    for number in range(1, 40):
        pos = at.deal(number)
        for legal in at.legal_moves(pos):
            latin = str(legal)
            rank = latin.split(">")[0][:-1]
            if rank not in RUSSIAN_LETTERS:
                continue
            suit = latin.split(">")[0][-1]
            typed = RUSSIAN_LETTERS[rank] + SUIT_SYMBOLS[SUITS.index(suit)] + ">" + latin.split(">")[1]
            (from_cli,) = parse_moves(typed, Locator("--solution", None))
            expected = parse_move_text(latin)
            assert (from_cli.card, from_cli.source, from_cli.dest) == \
                (expected.card, expected.source, expected.dest)
            assert at.move(pos, typed) == legal
            tried += 1
    assert tried >= 5
    with pytest.raises(at.InputError, match="not a"):
        at.move(at.deal(1), "Ж♦>t3")
