"""The agnes-ru themes (issue 29 item 4): a Bernauer player at the Russian table.

Two rules differ there and each is taught with that player's misconception: a card may come back
from a foundation (``foundation.return``; the Bernauer player never takes one back), and only a
King fills an empty column (``tableau.empty``; the Bernauer player keeps the space for an Ace the
King would go on in Bernauer). The tables below are hand-built positions, one block per rule id;
the library's puzzles are each lost by the believer, and the sheet and the library loader find
the variant's folders.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from _engine_util import build, move, verdict
from typer.testing import CliRunner

from agnes_teach.cards import rank_of
from agnes_teach.cli import app
from agnes_teach.engine import apply_move
from agnes_teach.position import Position
from agnes_teach.predicates import rule_used
from agnes_teach.profile import family_of, get_profile
from agnes_teach.puzzle_library import Selection, library_part
from agnes_teach.registry import RuleId
from agnes_teach.render.sheet import load_items, sheet_html
from agnes_teach.render.svg import base_legends, piles_legend, sheet_title
from agnes_teach.scenario import load_scenario, scenario_files
from agnes_teach.solver import solve
from agnes_teach.tagger.players import lost_under
from agnes_teach.themes import theme_for, theme_ids

ROOT = Path(__file__).resolve().parent.parent
RU = "agnes-ru"
LIBRARY = ROOT / "puzzles" / RU
EXAMPLES = ROOT / "tests" / "agnes_ru_examples"  # a hand-made illustration (not a library puzzle)
runner = CliRunner()

# foundation.return: spades and clubs home to the 9, diamonds to the 7, hearts to the 4. In r1 the
# 8H lies on the 7H and 6H that hearts need; both black 9s it could go on are home, and 9S tops
# its foundation, so it may come back onto the 10D of t2 to take the 8H (the 8D of t7, which
# could go there too, goes home).
RETURN_LESSON = {
    "tableau": {2: "KC QD JC 10D", 7: "5H 8D"},
    "reserve": {1: "6H 7H 8H", 2: "9H 10H JH", 3: "QH KH 10S", 4: "JS QS KS", 5: "9D JD KD", 6: "10C QC"},
}
# tableau.empty: t1 is empty and the KC lies on the 5H that hearts need next; every spade is out
# and the AS is alone in t2, the Ace a Bernauer player would lay the King on.
KING_LESSON = {
    "tableau": {2: "AS", 3: "2S 3S", 4: "4S 5S 6S", 7: "5H KC"},
    "reserve": {1: "7S 8S 9S 10S", 2: "JS QS KS", 3: "6H 7H 8H 9H", 4: "10H JH QH KH", 5: "QD KD"},
}


@dataclass(frozen=True)
class Case:
    """A move at a hand-built position: is it the lesson move, and which rule does it use or break?"""

    rule: RuleId  # the theme
    layout: dict[str, dict[int, str]]
    text: str
    lesson: bool  # the theme's lesson move (the belief forbids it)
    used: RuleId | None  # the rule the legal move uses (None: the move is refused)
    refused: RuleId | None = None  # the rule that refuses it


CASES = [
    Case(RuleId.FOUNDATION_RETURN, RETURN_LESSON, "9S>t2", True, RuleId.FOUNDATION_RETURN),
    Case(RuleId.FOUNDATION_RETURN, RETURN_LESSON, "10S>f", False, RuleId.FOUNDATION_SUIT),
    Case(RuleId.FOUNDATION_RETURN, RETURN_LESSON, "9S>r6", False, None, RuleId.RESERVE_NO_BUILD),
    Case(RuleId.FOUNDATION_RETURN, RETURN_LESSON, "8S>t2", False, None, RuleId.FOUNDATION_RETURN),
    Case(RuleId.FOUNDATION_RETURN, RETURN_LESSON, "8D>t1", False, None, RuleId.TABLEAU_EMPTY),
    Case(RuleId.TABLEAU_EMPTY, KING_LESSON, "KC>t1", True, RuleId.TABLEAU_EMPTY),
    Case(RuleId.TABLEAU_EMPTY, KING_LESSON, "KS>t1", True, RuleId.TABLEAU_EMPTY),
    Case(RuleId.TABLEAU_EMPTY, KING_LESSON, "9H>t1", False, None, RuleId.TABLEAU_EMPTY),
    Case(RuleId.TABLEAU_EMPTY, KING_LESSON, "KH>t2", False, None, RuleId.TABLEAU_WRAP),
    Case(RuleId.TABLEAU_EMPTY, KING_LESSON, "AS>f", False, RuleId.FOUNDATION_START),
]


def _position(layout: dict[str, dict[int, str]]) -> Position:
    return build(RU, tableau=layout["tableau"], reserve=layout["reserve"])


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.rule}:{c.text}")
def test_the_lesson_moves_and_the_rules_they_use(case: Case) -> None:
    pos = _position(case.layout)
    theme = theme_for(case.rule, RU)
    assert verdict(pos, case.text) == case.refused
    if case.refused is not None:
        return
    played = move(pos, case.text)
    assert rule_used(pos, played) == case.used
    assert theme.lesson_move is not None and theme.lesson_move(pos, played) is case.lesson
    # The believer's moves are exactly those the lesson predicate leaves.
    assert (played not in theme.believer.allowed(pos, [played])) is case.lesson


@pytest.mark.parametrize("layout", [RETURN_LESSON, KING_LESSON], ids=["foundation.return", "tableau.empty"])
def test_the_hand_built_lessons_are_won_and_lost_by_the_believer(layout: dict[str, dict[int, str]]) -> None:
    pos = _position(layout)
    assert solve(pos).status == "won"
    rule = RuleId.FOUNDATION_RETURN if layout is RETURN_LESSON else RuleId.TABLEAU_EMPTY
    assert lost_under(pos, theme_for(rule, RU).believer) is True


def test_the_king_lessons_tempting_move_is_the_bernauer_wrap() -> None:
    pos = _position(KING_LESSON)
    lesson = move(pos, "KC>t1")
    tempting = theme_for(RuleId.TABLEAU_EMPTY, RU).tempting(pos, (lesson,), ())
    assert tempting is not None and tempting.rule == RuleId.TABLEAU_WRAP
    assert tempting.move.card is not None and rank_of(tempting.move.card) == 13
    assert str(tempting.move.dest) == "t2"


def test_the_return_lesson_explains_the_card_brought_back() -> None:
    from agnes_teach.tagger.wording import rule_text
    from agnes_teach.themes import Lesson

    pos = _position(RETURN_LESSON)
    back = move(pos, "9S>t2")
    facts = theme_for(RuleId.FOUNDATION_RETURN, RU).explain(pos, move(pos, "10S>f"), Lesson(pos, back))
    assert facts is not None
    for lang, word in (("en", "back"), ("ru", "дома"), ("es", "base")):
        text = rule_text(facts, lang)
        assert word in text and "t2" in text and "{" not in text
    king = theme_for(RuleId.TABLEAU_EMPTY, RU)
    king_pos = _position(KING_LESSON)
    facts = king.explain(king_pos, move(king_pos, "AS>f"), Lesson(king_pos, move(king_pos, "KC>t1")))
    assert facts is not None and "t1" in rule_text(facts, "ru") and "King" in rule_text(facts, "en")


def test_agnes_ru_has_its_own_themes() -> None:
    assert {RuleId.FOUNDATION_RETURN, RuleId.TABLEAU_EMPTY} <= set(theme_ids(RU))
    # The Bernauer module no longer poses the empty column in agnes-ru: there only Kings go in,
    # which its belief ("empty columns are for Kings") allows.
    assert theme_for(RuleId.TABLEAU_EMPTY, RU) is not theme_for(RuleId.TABLEAU_EMPTY, "bernauer")
    assert RuleId.FOUNDATION_RETURN not in theme_ids("bernauer")


def test_the_first_card_lesson_is_posed_only_where_a_dealt_card_sets_the_base() -> None:
    """Every foundation of agnes-ru starts at the Ace, as the believer thinks: nothing to teach. The
    profiles say it in their data (``foundation_start``), not by name."""
    from agnes_teach.profile import profile_ids

    assert not get_profile(RU).base_dealt
    assert RuleId.FOUNDATION_START not in theme_ids(RU)
    posed = {p for p in profile_ids() if RuleId.FOUNDATION_START in theme_ids(p)}
    assert posed == {p for p in profile_ids() if get_profile(p).base_dealt} and "bernauer" in posed
    refused = runner.invoke(app, ["generate", "--theme", "foundation.start", "--profile", RU, "--count", "1",
                                  "--seed", "1", "--out", "never"])
    assert refused.exit_code == 2 and "foundation.start" in refused.output


def _library_files() -> list[Path]:
    return scenario_files([str(LIBRARY)]) if LIBRARY.is_dir() else []


def test_the_library_has_agnes_ru_puzzles_in_rule_folders() -> None:
    files = _library_files()
    assert files, "puzzles/agnes-ru holds no puzzle"
    for f in files:
        sc = load_scenario(f)
        assert f.parent.name == sc.themes[0] and sc.position.profile.id == RU


@pytest.mark.parametrize("path", _library_files(), ids=lambda p: p.name)
def test_the_believer_loses_each_library_puzzle(path: Path) -> None:
    sc = load_scenario(path)
    assert lost_under(sc.position, theme_for(sc.themes[0], RU).believer) is True


def test_each_game_has_its_library_folder() -> None:
    assert library_part("bernauer") == "small"
    assert library_part(RU) == RU
    assert library_part("sorel-strict") == library_part("sorel") == "sorel" == family_of("sorel-strict")


def test_the_sheet_header_fits_the_game() -> None:
    ru, bernauer, sorel = get_profile(RU), get_profile("bernauer"), get_profile("sorel")
    assert piles_legend([ru], "en").startswith("t1…t7: the columns; r1…r6: the reserve piles")
    assert piles_legend([bernauer], "es").startswith("t1…t7: las columnas; r1…r7:")
    assert "r1" not in piles_legend([sorel], "ru")
    assert base_legends([ru], "ru") == [
        "Каждый дом начинается с карты Т; n/13 — сколько карт этой масти уже в доме."]
    assert len(base_legends([bernauer], "en")) == 1 and "base card" in base_legends([bernauer], "en")[0]
    assert sheet_title([ru], "ru") == "Агнес, как в русских онлайн-сборниках: задачи"
    assert "Bernauer" not in sheet_title([sorel], "en")


def test_sheet_with_profile_keeps_the_games_puzzles_and_names_the_game() -> None:
    paths = [str(EXAMPLES), str(ROOT / "tests" / "sheet_positions")]
    items = load_items(paths, "ru", selection=Selection(themes=(RuleId.FOUNDATION_RETURN,), profile=RU))
    assert [item.id for item in items] == ["agnes-ru-foundation-return-hand"]
    html = sheet_html(items, "ru")
    assert "Агнес, как в русских онлайн-сборниках: задачи" in html and "r1…r6" in html
    assert "Агнес Бернауэр" not in html and "r1…r7" not in html
    assert "Каждый дом начинается с карты Т" in html and "Базовая карта" not in html


def test_sheet_profile_renders_a_pdf(tmp_path: Path) -> None:
    out = tmp_path / "ru.pdf"
    result = runner.invoke(app, ["sheet", str(EXAMPLES), "--theme", "foundation.return", "--profile", RU,
                                 "--lang", "ru", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:4] == b"%PDF"
    # No puzzle of that game among the files: an input error, and nothing written.
    refused = runner.invoke(app, ["sheet", str(EXAMPLES), "--theme", "foundation.return", "--profile",
                                  "bernauer", "--out", str(tmp_path / "none.pdf")])
    assert refused.exit_code != 0 and "no puzzle of the profile bernauer" in refused.output
    assert not (tmp_path / "none.pdf").exists()


def test_a_returned_card_can_be_built_on() -> None:
    pos = apply_move(_position(RETURN_LESSON), move(_position(RETURN_LESSON), "9S>t2"))
    assert verdict(pos, "8D>t2") is None


def test_the_guide_of_agnes_ru_plays_its_own_puzzles(tmp_path: Path) -> None:
    out = tmp_path / "guide"
    result = runner.invoke(app, ["guide", "--profile", RU, "--lang", "ru", "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.output
    page = (out / "practice-ru.html").read_text(encoding="utf-8")
    ids = {load_scenario(f).id for f in _library_files()}
    assert ids and all(i in page for i in ids)
    # Bernauer's worked example stays out of another game's practice pages.
    assert "section-08" not in page


# Composed layouts (generator.compose): the recipe fields the King-only space asks for.


def test_one_space_leaves_exactly_one_column_empty() -> None:
    import random

    from agnes_teach.generator.compose import compose
    from agnes_teach.themes import Recipe

    profile = get_profile(RU)

    def empties(recipe: Recipe) -> list[int]:
        rng = random.Random(29)
        laid = (compose(rng, profile, recipe) for _ in range(3000))
        return [sum(not c for c in pos.tableau) for pos in laid if pos is not None]

    one = empties(Recipe(empty_column=1.0, one_space=True))
    assert len(one) >= 20 and set(one) == {1}
    # Without it, a column dealt few cards often ends empty too: the field is what makes it one.
    assert max(empties(Recipe(empty_column=1.0))) >= 2


def test_a_contest_counts_only_a_move_the_believer_picks_when_asked() -> None:
    from agnes_teach.generator.compose import contested
    from agnes_teach.tagger.players import believer_choices

    # Hearts home to the Queen, so the KH may go home: the believer's one pick (its moves home
    # first), and a winning one. The QC onto the KH competes with the King's move into a space
    # and loses, but the believer never makes it.
    pos = build(RU, tableau={2: "QC", 3: "KH", 5: "9S 10S JD KS", 6: "QD JC", 7: "KC JS 10D KD 10C QS"})
    believer = theme_for(RuleId.TABLEAU_EMPTY, RU).believer
    assert [str(m) for m in believer_choices(pos, believer)] == ["KH>f"]
    assert verdict(pos, "QC>t3") is None and solve(apply_move(pos, move(pos, "QC>t3"))).status == "lost"
    assert contested(pos, believer, loses=True) is True
    assert contested(pos, believer, loses=True, picked=True) is False


def test_waits_for_lays_a_foundation_that_takes_that_rank_next() -> None:
    import random

    from agnes_teach.generator.compose import compose
    from agnes_teach.themes import Recipe

    profile = get_profile(RU)
    rng = random.Random(540)
    laid = [p for p in (compose(rng, profile, Recipe(waits_for=13)) for _ in range(3000)) if p is not None]
    assert len(laid) >= 20 and all(12 in p.foundations for p in laid)
    rng = random.Random(540)
    plain = [p for p in (compose(rng, profile, Recipe()) for _ in range(3000)) if p is not None]
    assert not all(12 in p.foundations for p in plain)  # without it, only by chance


# tableau.empty, found by the generator (seed 540): the KD goes into the space t7, the QC comes back
# from its foundation onto it and takes the JD off the 4D that diamonds need. The believer keeps the
# space and sends the KC home (its moves home first), which shuts the QC in for good.
SPACE_AND_RETURN = {"tableau": {1: "9D", 2: "4D JD", 3: "7D", 4: "6D", 5: "10D", 6: "QD 8D 5D"},
                    "reserve": {1: "KD", 5: "KC"}}


def test_the_believers_move_cites_the_rule_whatever_its_wording() -> None:
    # The King-only sentence is the catalogue key "tableau.empty@fixed"; the key's check compares
    # the rule it cites with the theme's, and once refused every such puzzle for it.
    from agnes_teach.tagger.refutation import Explanation, Reason, ReasonKind
    from agnes_teach.themes import Lesson

    pos = _position(SPACE_AND_RETURN)
    theme = theme_for(RuleId.TABLEAU_EMPTY, RU)
    facts = theme.explain(pos, move(pos, "KC>f"), Lesson(pos, move(pos, "KD>t7")))
    assert facts is not None and facts.rule == "tableau.empty@fixed"
    assert facts.rule_id == RuleId.TABLEAU_EMPTY
    assert Explanation(Reason(ReasonKind.UNEXPLAINED), facts).rule == RuleId.TABLEAU_EMPTY


def test_the_cut_down_keeps_a_position_whose_believer_is_caught_at_the_kings_move() -> None:
    from agnes_teach.tagger.answer import Verdicts
    from agnes_teach.tagger.small import Tally, keeps_lesson

    theme = theme_for(RuleId.TABLEAU_EMPTY, RU)
    assert theme.caught_at_first_use
    tally = Tally()
    kept = keeps_lesson(_position(SPACE_AND_RETURN), theme, (), Verdicts(), tally, strict=True)
    assert kept is not None and [str(m) for m in kept.line[:3]] == ["KD>t7", "QC>t7", "JD>t7"], tally.counts
    assert kept.cut == 3


def test_a_generated_king_puzzle_passes_check_teach(tmp_path: Path) -> None:
    path = tmp_path / "space.yaml"
    path.write_text(
        "id: space-and-return\n"
        "position:\n"
        "  profile: agnes-ru\n  base: A\n"
        "  foundations: {C: QC, D: 3D, H: KH, S: KS}\n"
        "  tableau: [9D, 4D JD, 7D, 6D, 10D, QD 8D 5D, []]\n"
        "  reserve: [KD, [], [], [], KC, []]\n"
        "  exposed: []\n  stock: []\n"
        "task: win\nthemes: [tableau.empty]\n"
        "solution: KD>t7 QC>t7 JD>t7\n"
        "expect: {winnable: true}\n", encoding="utf-8")
    result = runner.invoke(app, ["check", "--teach", str(path)])
    assert result.exit_code == 0, result.output
    assert "1 passed" in result.output


def test_starting_after_a_card_comes_back_is_no_step_down() -> None:
    # Composed on seed 551: the answer's first move brings the QH back onto the KC, so starting
    # after it puts a card back in play and the solver's answer grows (13 cards, 8 moves against
    # 12 and 7). The cut-down once took that as a step down and the step back up again, round and
    # round until the run's clock stopped it.
    from agnes_teach.tagger.answer import Verdicts
    from agnes_teach.tagger.small import NOT_SMALLER, economy, kept_of

    pos = build(RU, tableau={2: "KH QS", 3: "KC", 4: "KS QC", 6: "JS KD 9S 6S 8S"},
                reserve={1: "10S", 5: "7S"})
    theme = theme_for(RuleId.FOUNDATION_RETURN, RU)
    line = solve(pos).solution
    assert str(line[0]) == "QH>t3"
    kept = kept_of(pos, list(line), theme.believer)
    broken, passing = economy(kept, theme, Verdicts())
    assert broken["start after QH>t3"].startswith(NOT_SMALLER), broken
    assert all(j.kept.cards <= kept.cards for j in passing)
