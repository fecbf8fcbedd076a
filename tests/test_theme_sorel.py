"""Agnes Sorel's own themes: packing in the same colour (`tableau.same-colour`, a *forbid* belief)
and moving only runs of one suit (`tableau.suit-run`, an *add* belief), each the misconception of a
Bernauer player at Sorel's table.

Table-driven per rule: the lesson predicates, the move the add belief holds legal (refused by
exactly its rule), the tempting moves, the believer's plan; then every library puzzle of the two
rules: the believer loses it and the key wins it."""

from __future__ import annotations

from pathlib import Path

import pytest

from agnes_teach.cards import parse_card
from agnes_teach.engine import apply_move, finishes_home, legal_moves, refusal, resolve
from agnes_teach.moves import Move, parse_move_text
from agnes_teach.piles import Pile
from agnes_teach.position import Position, parse_position
from agnes_teach.predicates import uses_tableau_same_colour, uses_tableau_suit_run
from agnes_teach.registry import RuleId, Verdict
from agnes_teach.scenario import load_scenario, scenario_files
from agnes_teach.solver import solve
from agnes_teach.tagger.players import WIDEN_PLAYER_MAX, lost_under, misconception_policy, win_rate
from agnes_teach.themes import find_theme, theme_for

ROOT = Path(__file__).resolve().parent.parent
SOREL = ("sorel", "sorel-strict")
RULES = (RuleId.TABLEAU_SAME_COLOUR, RuleId.TABLEAU_SUIT_RUN)


def sorel(profile: str, tableau: list[str], foundations: dict[str, str]) -> Position:
    return parse_position({"profile": profile, "base": 5, "foundations": foundations, "tableau": tableau,
                           "reserve": [], "stock": [], "exposed": []})


def move(pos: Position, text: str) -> Move:
    return resolve(pos, parse_move_text(text))


def raw(text: str) -> Move:
    """``CARD>PILE`` as a move, legal or not (the moves a belief adds are refused ones)."""
    card, dest = text.split(">")
    return Move(parse_card(card), Pile.parse(dest))


# Base 5. Q♣ is needed next and lies under 3♣, whose only way off is onto 4♣: same colour (the
# Bernauer habit, 3♣ on 4♥, is refused).
NEEDS_PACK = sorel("sorel-strict", ["QC 3C", "4C", "KC", "AC", "2C", "4H", []],
                   {"S": "4S", "H": "3H", "D": "4D", "C": "JC"})
# The same cards with Q♣ free: no card needs to be packed.
NO_PACK = sorel("sorel-strict", ["QC", "4C", "KC", "AC", "2C", "3C", []],
                {"S": "4S", "H": "4H", "D": "4D", "C": "JC"})
# Base 5. 4♥ is needed next under 3♣ 2♠, packed in colour but of two suits. 2♠ must go onto 3♠
# alone, then 3♣ onto 4♣ or 4♠. A believer who holds the pair for a run (onto 4♣ together) may
# first lay 2♣ on 3♠, the one place 2♠ had: lost (2♣ cannot go home before A♣, under K♠).
MIXED_PAIR = {"S": "QS", "H": "3H", "D": "4D", "C": "KC"}
MIXED_TABLEAU = ["AC KS 4H 3C 2S", "4C", "3S", "AS", "2C", "4S", []]
NEEDS_PARTING = sorel("sorel-strict", MIXED_TABLEAU, MIXED_PAIR)
# The same in plain Sorel: the empty column t7 takes 2♠, so nothing the believer does loses.
PARTING_EASY = sorel("sorel", MIXED_TABLEAU, MIXED_PAIR)


@pytest.mark.parametrize(("pos", "text", "uses"), [
    (NEEDS_PACK, "3C>t2", True),  # black on black, one rank lower
    (NEEDS_PARTING, "2S>t3", True),
    (NEEDS_PARTING, "2C>t3", True),
    (PARTING_EASY, "2S>t7", False),  # into an empty column: laid on nothing
    (NO_PACK, "3C>t2", True),
    (NO_PACK, "QC>f", False),  # home
])
def test_uses_tableau_same_colour(pos: Position, text: str, uses: bool) -> None:
    m = move(pos, text)
    assert refusal(pos, m) is None
    assert uses_tableau_same_colour(pos, m) is uses


@pytest.mark.parametrize(("pos", "text", "uses"), [
    (NEEDS_PARTING, "2S>t3", True),  # 2♠ leaves the 3♣ it lay packed on: the pair parts
    (PARTING_EASY, "2S>t7", True),
    (NEEDS_PARTING, "3S>t2", False),  # 3♠ lay on nothing
    (NEEDS_PARTING, "2C>t3", False),
    (NEEDS_PACK, "3C>t2", False),  # 3♣ on Q♣ is not packed (Q is no 4)
])
def test_uses_tableau_suit_run(pos: Position, text: str, uses: bool) -> None:
    m = move(pos, text)
    assert refusal(pos, m) is None
    assert uses_tableau_suit_run(pos, m) is uses


@pytest.mark.parametrize(("pos", "text", "added"), [
    (NEEDS_PARTING, "3C>t2", True),  # the mixed pair onto 4♣ as one unit
    (NEEDS_PARTING, "3C>t6", True),  # ... or onto 4♠
    (PARTING_EASY, "3C>t7", True),  # ... or into the empty column (plain Sorel takes only runs)
    (NEEDS_PARTING, "2S>t3", False),  # a legal move: nothing added
    (NEEDS_PARTING, "4H>t2", False),  # 4♥ 3♣ 2♠ is not packed (3♣ on 4♥ is no same-colour build)
])
def test_the_move_the_suit_run_belief_adds(pos: Position, text: str, added: bool) -> None:
    believer = theme_for(RuleId.TABLEAU_SUIT_RUN, pos.profile.id).believer
    assert believer.kind == "widen"
    m = raw(text)
    assert believer.predicate(pos, m) is added
    if added:
        why = refusal(pos, m)
        assert why is not None and why.rule == RuleId.TABLEAU_SUIT_RUN


@pytest.mark.parametrize(("rule", "pos"), [
    (RuleId.TABLEAU_SAME_COLOUR, NEEDS_PACK),
    (RuleId.TABLEAU_SUIT_RUN, NEEDS_PARTING),
])
def test_tempting_move_is_refused_by_the_rule(rule: RuleId, pos: Position) -> None:
    found = theme_for(rule, pos.profile.id).tempting(pos, (), ())
    assert found is not None and found.rule == rule
    why = refusal(pos, found.move)
    assert why is not None and why.rule == rule


@pytest.mark.parametrize(("rule", "pos", "lost"), [
    (RuleId.TABLEAU_SAME_COLOUR, NEEDS_PACK, True),  # never packing, Q♣ stays buried
    (RuleId.TABLEAU_SAME_COLOUR, NO_PACK, False),
    (RuleId.TABLEAU_SUIT_RUN, NEEDS_PARTING, True),  # 2♣ onto 3♠ is in the plan, and loses
    (RuleId.TABLEAU_SUIT_RUN, PARTING_EASY, False),
])
def test_believer_loses_where_the_rule_decides(rule: RuleId, pos: Position, lost: bool) -> None:
    assert solve(pos).status == Verdict.WON
    assert lost_under(pos, theme_for(rule, pos.profile.id).believer) is lost


def test_add_believer_plans_with_the_real_wins_and_the_added_move() -> None:
    """Every real winning move is in the plan (a real win is a win of the believer's game); the
    plan holds a move that loses in the real game only where the added move is needed."""
    believer = theme_for(RuleId.TABLEAU_SUIT_RUN, "sorel-strict").believer
    pos = NEEDS_PARTING
    moves = legal_moves(pos)
    plan = believer.plan(pos, moves)
    assert plan is not None
    verdicts = {m: solve(apply_move(pos, m)).status for m in moves}
    assert all(m in plan for m, v in verdicts.items() if v == Verdict.WON)
    assert move(pos, "2C>t3") in plan and verdicts[move(pos, "2C>t3")] == Verdict.LOST
    # The player picks among its plan: it loses some games and wins others.
    rate = win_rate(pos, misconception_policy(believer), playouts=100)
    assert 0 < rate < 1


def test_themes_are_posed_only_where_the_rule_is_in_force() -> None:
    for rule in RULES:
        for profile in SOREL:
            assert find_theme(rule, profile) is not None
        assert find_theme(rule, "bernauer") is None
        assert find_theme(rule, "agnes-ru") is None


def _library() -> list[tuple[str, Path]]:
    out = []
    for rule in RULES:
        folder = ROOT / "puzzles" / "sorel" / str(rule)
        out += [(str(rule), Path(f)) for f in scenario_files([str(folder)])] if folder.is_dir() else []
    return out


LIBRARY = _library()


def test_library_holds_puzzles_of_the_sorel_themes() -> None:
    assert any(rule == RuleId.TABLEAU_SAME_COLOUR for rule, _ in LIBRARY)


@pytest.mark.parametrize(("rule", "path"), LIBRARY, ids=[p.name for _, p in LIBRARY])
def test_library_puzzle_believer_loses_and_key_wins(rule: str, path: Path) -> None:
    sc = load_scenario(path)
    pos = sc.position
    assert sc.themes[:1] == [rule]
    believer = theme_for(rule, pos.profile.id).believer
    assert lost_under(pos, believer) is True
    here = pos
    for text in sc.solution or []:
        here = apply_move(here, resolve(here, text))
    assert here.is_won() or finishes_home(here)
    if believer.kind == "widen":
        assert win_rate(pos, misconception_policy(believer), playouts=50) <= WIDEN_PLAYER_MAX + 0.1
