"""Theme detectors: positive and negative tables, one per rule (pure functions of a puzzle's facts)."""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

import pytest
from _generator_util import make_position

import agnes_teach
from agnes_teach.moves import DEAL_MOVE, Move, parse_move_text
from agnes_teach.position import Position
from agnes_teach.tagger.detectors import Lesson
from agnes_teach.themes import Theme, theme_for, theme_ids


def _theme(rule: str) -> Theme:
    return theme_for(rule, "bernauer")


detect_foundation_final = _theme("foundation.final").detect
detect_foundation_start = _theme("foundation.start").detect
detect_foundation_wrap = _theme("foundation.wrap").detect
detect_reserve_top = _theme("reserve.top").detect
detect_stock_deal = _theme("stock.deal").detect
detect_stock_last_two = _theme("stock.last-two").detect
detect_tableau_empty = _theme("tableau.empty").detect
detect_tableau_run = _theme("tableau.run").detect
detect_tableau_wrap = _theme("tableau.wrap").detect
detect_tableau_build = _theme("tableau.build").detect
detect_reserve_no_build = _theme("reserve.no-build").detect
detect_foundation_suit = _theme("foundation.suit").detect
distract_foundation_start = _theme("foundation.start").tempting
distract_reserve_top = _theme("reserve.top").tempting
distract_stock_last_two = _theme("stock.last-two").tempting
distract_tableau_empty = _theme("tableau.empty").tempting
distract_tableau_run = _theme("tableau.run").tempting


def moves(text: str) -> tuple[Move, ...]:
    out = []
    for part in text.split():
        mt = parse_move_text(part)
        out.append(DEAL_MOVE if mt.is_deal else Move(mt.card, mt.dest))
    return tuple(out)


# base 5: hearts stopped at KH, the Ace on the Queen of spades, a black King beside it
WRAP = make_position(5, ["QS AH", "KS", "4H 3H 2H", "4S 3S 2S AS"])
# base A: the Ace is the base card, it starts its foundation (no corner to turn)
ACE_BASE = make_position(1, ["KS QS JS 10S 9S 8S 7S", "6S 5S 4S 3S 2S AS"])
# base 5: t1 empty, 4C blocks 2D; a black King on top of t3
EMPTY = make_position(5, ["", "2D 4C", "KS", "4S 3S 2S AS"], reserve=["4D 3D"])
# base 3: KS on QS; a red Ace on top of t2, a red 2 on t3
TWRAP = make_position(3, ["QS KS", "AH", "2H"], reserve=["2S AS"])
# base 3: KS lies on AH, a run by the wrap alone; 2S takes the run
TWRAP_RUN = make_position(3, ["AH KS", "2S", "2H"], reserve=["AS"])
# base A: t1 empty, which takes a King, as the belief says too
ACE_EMPTY = make_position(1, ["", "KS KH"])
# base 9: 6C, 7C, 8C and the 7s and 8s of spades and diamonds out, one to a column
BUILD = make_position(9, ["8C 6C", "7C", "7S", "7D", "8S", "8D"])
# base 2: the run QD JS lies on AC; KC takes the run
RUN = make_position(2, ["AC QD JS", "KC"], reserve=["AD KD", "AS KS QS"])
# base 4: the exposed cells hold 3S and 3H; 2S and 2H are left on the columns
LAST_TWO = make_position(4, ["2S", "2H"], exposed=["3S", "3H"])
# base 6, stock empty: r1 holds 5H under 4C; 5D on t1 takes the 4C
RESERVE = make_position(6, ["5D"], reserve=["5H 4C", "5C"])
# base 6, one full deal to come: 4H on r1 would be covered by 5H
DEAL = make_position(6, ["4S"], reserve=["4H"], stock="5H 2C 3C 4C 5C 3D 4D 5D 5S")
# base 5, every spade out: 5S on top of t1, AS alone on r1
START = make_position(5, ["6S 5S", "4S 3S 2S", "KS QS JS 10S 9S 8S 7S"], reserve=["AS"])
# base K: 9S (home next) on JS on 10S; QD, which could go home too, is the only card JS fits on
HOST = make_position(13, ["", "", "10S JS 9S", "", "", "QD"], reserve=["", "", "", "", "QS"])


Row = tuple[Position, str, str, bool]

TABLES: dict[str, tuple[Callable[[Lesson], bool], list[Row]]] = {
    "foundation.wrap": (detect_foundation_wrap, [
        (WRAP, "AH>f 2H>f 3H>f 4H>f", "", True),
        (WRAP, "KS>t1 AH>f", "", False),  # the King covers the Ace: the line is not even legal
        (ACE_BASE, "AS>f", "", False),  # base A: the Ace starts, it does not wrap
        (WRAP, "QS>f", "", False),  # QS lies under the Ace
    ]),
    "tableau.empty": (detect_tableau_empty, [
        (EMPTY, "4C>t1 9D>f", "", True),
        (EMPTY, "KS>t1", "", False),  # refused: the line is illegal, so no use of the rule
        (EMPTY, "KS>f", "", False),
        (ACE_EMPTY, "KH>t1", "", False),  # the rule's own card is a King: the belief agrees, no lesson
    ]),
    "tableau.wrap": (detect_tableau_wrap, [
        (TWRAP, "KS>t2 QS>f", "", True),
        (TWRAP, "AH>f", "", False),
        (TWRAP, "AS>t3", "", False),  # an Ace on a 2: an ordinary build
        (TWRAP_RUN, "AH>t2", "", True),  # the Ace moves with the King the wrap lets lie on it
        (TWRAP_RUN, "KS>f", "", False),
    ]),
    # Both beliefs add moves; where the believer counts on one, the answer lays a card on a column
    # top of the other colour.
    "tableau.build": (detect_tableau_build, [
        (BUILD, "6C>t4", "", True),  # onto 7D: the other colour
        (BUILD, "6C>t2", "", False),  # onto 7C: refused, the line stops there
        (BUILD, "7D>f", "", False),
    ]),
    "reserve.no-build": (detect_reserve_no_build, [
        (BUILD, "7D>f 6C>t4", "", False),  # 7D went home: 6C has no red 7 left
        (BUILD, "7S>t6 6C>t4", "", True),  # 7S onto 8D, then 6C onto 7D
        (BUILD, "6C>r1", "", False),  # refused
    ]),
    # The belief adds moves home by colour; the answer sends a card home on its own suit.
    "foundation.suit": (detect_foundation_suit, [
        (BUILD, "7D>f", "", True),  # the 7♦ is next on its own foundation
        (BUILD, "8D>f", "", False),  # refused: the 7♦ comes first
        (BUILD, "6C>t4", "", False),  # a build, no move home
        (WRAP, "AH>f", "", False),  # the Ace turns the corner: another rule
        (START, "5S>f", "", False),  # the base card opens its foundation: another rule
    ]),
    "tableau.run": (detect_tableau_run, [
        (RUN, "QD>t2 AC>t3", "", True),
        (RUN, "JS>f", "", False),
        (RUN, "JS>f QD>t2", "", False),  # JS home first: QD then moves alone
    ]),
    "stock.last-two": (detect_stock_last_two, [
        (LAST_TWO, "2S>f 3S>f", "", True),
        (LAST_TWO, "2S>f 2H>f", "", False),
        (LAST_TWO, "2H>f 3H>f", "", False),  # x2: the card the belief holds free as well
    ]),
    "reserve.top": (detect_reserve_top, [
        (RESERVE, "4C>t1 5H>f", "", True),
        (RESERVE, "4C>t1", "", False),  # the covered card is not played in the window
        (RESERVE, "5D>f", "", False),
    ]),
    "stock.deal": (detect_stock_deal, [
        (DEAL, "4H>f deal", "deal", True),
        (DEAL, "4H>f deal", "", False),  # dealing is not proved to lose
        (DEAL, "deal", "deal", False),  # the line deals first
        (RESERVE, "4C>t1 5H>f", "deal", False),  # no stock: nothing to deal
    ]),
    "foundation.final": (detect_foundation_final, [
        (HOST, "9S>f JS>t6", "", True),  # JS onto QD while QD could go home: kept back
        (HOST, "9S>f QD>f", "", False),  # the eager line: every card home as soon as it can
        (HOST, "QD>f", "", False),
    ]),
    "foundation.start": (detect_foundation_start, [
        (START, "5S>f 6S>f", "", True),
        (START, "AS>f", "", False),  # refused: an Ace does not start a base-5 foundation
        (WRAP, "AH>f", "", False),
        (ACE_BASE, "AS>f", "", False),  # base A: an Ace starts it, as the belief says too
    ]),
}


@pytest.mark.parametrize(
    ("theme", "index"), [(t, i) for t, (_, rows) in sorted(TABLES.items()) for i in range(len(rows))]
)
def test_detector_table(theme: str, index: int) -> None:
    detect, rows = TABLES[theme]
    pos, line, losing, expected = rows[index]
    assert detect(Lesson(pos, moves(line), moves(losing))) is expected


def test_every_theme_has_positive_and_negative_rows() -> None:
    assert sorted(TABLES) == theme_ids("bernauer")
    for _, rows in TABLES.values():
        assert any(r[3] for r in rows) and any(not r[3] for r in rows)


def test_window_limits_detection() -> None:
    # The wrap happens at move 2: inside a window of 2, outside a window of 1.
    assert detect_foundation_wrap(Lesson(WRAP, moves("AH>f 2H>f"), (), within=1))
    late = make_position(5, ["AH", "4H 3H 2H", "4C"])
    line = moves("4C>f AH>f")
    assert detect_foundation_wrap(Lesson(late, line, (), within=2))
    assert not detect_foundation_wrap(Lesson(late, line, (), within=1))


DISTRACTORS = [
    (distract_tableau_empty, EMPTY, "KS>t1", "tableau.empty"),
    (distract_foundation_start, START, "AS>f", "foundation.start"),
    (distract_reserve_top, RESERVE, "5H>f", "reserve.top"),
    (distract_stock_last_two, LAST_TWO, "2S>x2", "stock.last-two"),
]


@pytest.mark.parametrize(("find", "pos", "move", "rule"), DISTRACTORS)
def test_illegal_distractors_are_refused_by_the_theme_rule(find, pos, move, rule) -> None:  # type: ignore[no-untyped-def]
    found = find(pos, (), ())
    assert found is not None
    assert (str(found.move), found.rule) == (move, rule)


def test_run_distractor_is_an_irregular_group() -> None:
    # AC with QD JS on it is no run; alone, the Ace would fit an empty column (base 2).
    found = distract_tableau_run(RUN, moves("QD>t2"), ())
    assert found is not None and found.rule == "tableau.run"
    assert str(found.move) == "AC>t3"


def test_no_distractor_without_the_temptation() -> None:
    assert distract_tableau_empty(RESERVE, (), ()) is None  # no King or base card to tempt
    assert distract_foundation_start(WRAP, (), ()) is None  # no empty foundation
    assert distract_reserve_top(WRAP, (), ()) is None  # no covered reserve card


def _imported_modules(path: Path, package: str) -> set[str]:
    """Every module a file imports, relative imports resolved against its `package`."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            out.add(module)
            out.update(f"{module}.{alias.name}" for alias in node.names)
    return out


def test_the_tagger_stands_apart_from_the_generator() -> None:
    # The tagger describes; the generator makes puzzles: the tagger (and the checker) never reach
    # into the generator, nor the tagger into the renderers.
    root = Path(agnes_teach.__file__).parent
    for path in sorted((root / "tagger").glob("*.py")):
        used = _imported_modules(path, "agnes_teach.tagger")
        assert not {m for m in used if m.startswith(("agnes_teach.generator", "agnes_teach.render"))}, path
    used = _imported_modules(root / "checker.py", "agnes_teach")
    assert not {m for m in used if m.startswith("agnes_teach.generator")}
