"""Regression tests for defects a first user found by running every command by hand.

Each test names the defect it guards: the wording that misstated a variant's
rules, the worked example that spoke of a base card where none is dealt, the
runs that failed with a traceback or left files behind.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from agnes_teach import i18n
from agnes_teach.cards import parse_card
from agnes_teach.cli import app
from agnes_teach.engine import refusal
from agnes_teach.moves import Move
from agnes_teach.position import parse_position
from agnes_teach.profile import get_profile
from agnes_teach.render.examples import examples
from agnes_teach.render.guide import faq, rule_text
from agnes_teach.scenario import scenario_files
from agnes_teach.yamlio import Locator

REPO = Path(__file__).resolve().parent.parent
SECTION_08 = REPO / "agnes_teach" / "data" / "examples" / "section-08.yaml"
LANGS = ("en", "ru", "es")
runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, result.stdout, result.stderr


def _example_text(profile_id: str, rule: str, lang: str) -> str:
    found = [ex for ex in examples(get_profile(profile_id), lang) if ex.rule == rule]
    assert found, f"{profile_id} has no worked example under {rule}"
    return " ".join(step.caption for ex in found for step in ex.steps)


# ------------------------------------------------------------------ messages


@pytest.mark.parametrize("lang", LANGS)
def test_foundation_suit_names_the_card_the_pile_wants(lang: str) -> None:
    # Was "that pile takes its 6 next": a bare rank, and in ru/es "ранг 6" / "el rango 6".
    from agnes_teach.scenario import load_scenario

    pos = load_scenario(SECTION_08).position
    why = refusal(pos, Move(parse_card("8H"), "f"))
    assert why is not None and why.rule == "foundation.suit"
    message = i18n.refusal_message(why, lang)
    assert "6♥" in message and "8♥" in message


AGNES_RU_FULL_HEARTS = """\
profile: agnes-ru
base: A
foundations: {H: KH, S: KS, D: KD, C: QC}
tableau: [[], [], [], [], [], [], []]
reserve: [KC, [], [], [], [], []]
stock: []
exposed: []
"""


def test_foundation_full_does_not_deny_the_agnes_ru_return() -> None:
    # The foundation.full message said "nothing leaves it", but in agnes-ru the top card
    # of a complete foundation may come back (a K into an empty column).
    import yaml

    pos = parse_position(yaml.safe_load(AGNES_RU_FULL_HEARTS), Locator("test", None))
    king = parse_card("KH")
    assert refusal(pos, Move(king, "t1")) is None
    why = refusal(pos, Move(king, "f"))
    assert why is not None and why.rule == "foundation.full"
    assert "leaves" not in i18n.refusal_message(why, "en")
    assert "берут" not in i18n.refusal_message(why, "ru")
    assert "sale" not in i18n.refusal_message(why, "es")


@pytest.mark.parametrize(("lang", "wording"), [
    ("ru", "только карту 4"),
    ("es", "solo admite un 4"),
])
def test_tableau_empty_speaks_of_a_card_not_a_bare_rank(lang: str, wording: str) -> None:
    # Was "принимает только ранг 4" / "solo admite el rango 4": a column takes cards, not ranks
    # (and players say "a 4", not "a card of rank 4").
    from agnes_teach.scenario import load_scenario

    pos = load_scenario(SECTION_08).position
    why = refusal(pos, Move(parse_card("9H"), "t1"))
    assert why is not None and why.rule == "tableau.empty"
    assert wording in i18n.refusal_message(why, lang)


# ------------------------------------------------------------------ the guide


def test_fixed_start_example_does_not_speak_of_a_base_card() -> None:
    # agnes-ru deals no base card; its example said "The base is A" and that the
    # empty column ignores "how far the foundation has grown", which is a bernauer point.
    ru_text = _example_text("agnes-ru", "tableau.empty", "en")
    assert "The base is" not in ru_text and "although the foundation has grown" not in ru_text
    assert "The heart foundation holds A♥" in ru_text
    bernauer = _example_text("bernauer", "tableau.empty", "en")
    assert "The base is 5" in bernauer and "although the foundation has grown" in bernauer


@pytest.mark.parametrize("lang", LANGS)
def test_reserve_last_deal_states_where_its_last_cards_go(lang: str) -> None:
    # Was "The last deal lays its 0 cards face up apart from the reserve, as ." for a
    # profile whose last two cards go onto r1 and r2.
    text = rule_text(get_profile("reserve-last-deal"), "stock.last-two", lang)
    assert "r1, r2" in text
    assert "0 " not in text and " ." not in text


@pytest.mark.parametrize("profile_id", ["parlett", "bernauer"])
def test_exposed_cards_go_where_the_profile_allows(profile_id: str) -> None:
    # Parlett's foundations take only tableau cards, yet the guide said the exposed cards
    # go "to a foundation or a column", in the rule text and in the FAQ.
    profile = get_profile(profile_id)
    answers = {q.id: q.answer for q in faq(profile, "en")}
    stated = rule_text(profile, "stock.last-two", "en") + " " + answers["faq-last-two"]
    if profile.exposed_to_foundation:
        assert stated.count("to a foundation or a column") == 2
    else:
        assert "foundation or a column" not in stated
        assert stated.count("only onto a column") == 2


@pytest.mark.parametrize("profile_id", ["bernauer", "parlett", "reserve-last-deal"])
def test_faq_does_not_say_every_deal_covers_the_reserve(profile_id: str) -> None:
    # bernauer's last deal lays x1 x2 apart and covers nothing; parlett's reserve cards
    # never leave "to a foundation".
    answers = {q.id: q.answer for q in faq(get_profile(profile_id), "en")}
    assert "Every deal covers" not in answers["faq-when-to-deal"]
    assert "it lands on" in answers["faq-when-to-deal"]
    assert "to a foundation or a column" not in answers["faq-covered"]


# ------------------------------------------------------------------ check


def test_check_checks_two_files_with_one_id_and_fails_the_second(tmp_path: Path) -> None:
    twin = tmp_path / "twin.yaml"
    twin.write_text(SECTION_08.read_text(encoding="utf-8"), encoding="utf-8")
    code, out, _ = run("check", str(SECTION_08), str(twin))
    assert code == 1
    assert f"ok   {SECTION_08} (handmade-section-08): " in out
    assert f"FAIL {twin} (handmade-section-08): failed: id; passed: " in out
    assert f"[scenario.id] the id handmade-section-08 is also the id of {SECTION_08}" in out


def test_a_file_named_twice_is_checked_once() -> None:
    files = scenario_files([str(SECTION_08), str(SECTION_08.parent)])
    assert len(files) == len({f.resolve() for f in files}) == len(list(SECTION_08.parent.glob("*.yaml")))
    code, out, _ = run("check", str(SECTION_08), str(SECTION_08))
    assert code == 0 and out.count("handmade-section-08") == 1


# ------------------------------------------------------------------ generate


def test_generate_into_a_file_is_bad_input_before_any_search(tmp_path: Path) -> None:
    # Was a NotADirectoryError traceback, after the whole (slow) search.
    target = tmp_path / "taken.yaml"
    target.write_text("keep me\n", encoding="utf-8")
    start = time.monotonic()
    code, _, err = run("generate", "--theme", "tableau.run", "--count", "1", "--seed", "1",
                       "--out", str(target))
    assert code == 2
    assert f"{target}: is a file; --out needs a folder" in err and "Traceback" not in err
    assert time.monotonic() - start < 5
    assert target.read_text(encoding="utf-8") == "keep me\n"


def test_generate_counts_one_puzzle_in_the_singular(tmp_path: Path) -> None:
    code, _, err = run("generate", "--theme", "tableau.wrap", "--count", "1", "--seed", "1",
                       "--source", "built", "--out", str(tmp_path / "out"))
    assert code == 0, err
    assert f"wrote 1 puzzle to {tmp_path / 'out'}" in err and "1 puzzles" not in err


# ------------------------------------------------------------------ interrupted runs


def test_sigterm_during_a_sheet_leaves_nothing_behind(tmp_path: Path) -> None:
    # A run stopped by SIGTERM left its hidden temporary PDF beside the output.
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    puzzles = [str(p) for p in sorted((REPO / "puzzles" / "demo").glob("*.yaml"))]
    command = [sys.executable, "-c", "from agnes_teach.cli import main; main()",
               "sheet", *puzzles, *puzzles[:2], "--out", str(out_dir / "sheet.pdf")]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        # The temporary file appears once every puzzle is loaded and rendering starts.
        while not any(out_dir.iterdir()) and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert proc.poll() is None, "the sheet finished before it could be interrupted"
        os.kill(proc.pid, signal.SIGTERM)
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 128 + signal.SIGTERM
    assert list(out_dir.iterdir()) == []


@pytest.mark.parametrize(("move", "says"), [
    # 4♣ is the top of t2 already: the message talked about foundations and runs.
    ("4C>t2", "4♣ is already in t2"),
    # 10♥ has 9♥ on it: the message for a foundation move spoke of other columns too.
    ("10H>f", "cannot go to its foundation yet"),
    # 10♥ 9♥ is not a run (one colour): this one is about runs, and not about foundations.
    ("10H>t1", "only a top card, or a valid run led by it"),
])
def test_tableau_run_says_which_mistake_was_made(move: str, says: str) -> None:
    from agnes_teach.engine import resolve
    from agnes_teach.moves import parse_move_text
    from agnes_teach.scenario import load_scenario

    pos = load_scenario(SECTION_08).position
    why = refusal(pos, resolve(pos, parse_move_text(move)))
    assert why is not None and why.rule == "tableau.run"
    messages = {lang: i18n.refusal_message(why, lang) for lang in LANGS}
    assert says in messages["en"]
    assert len(set(messages.values())) == 3
    if move.endswith(">f"):
        assert "column" in messages["en"] and "another column" not in messages["en"]
    else:
        assert "foundation" not in messages["en"]


MOREHEAD_RUN = """\
profile: morehead
base: 5
foundations: {S: 4S, D: 4D, H: 5H, C: 6C}
tableau: [7C 6H, 8C 9C 10C JC QC KC AC 2C 3C 4C, 7H 8H 9H 10H JH QH KH AH 2H 3H 4H, [], [], [], []]
reserve: [[], [], [], [], [], [], []]
stock: []
exposed: []
"""


def test_whole_run_text_lets_the_top_card_go_home() -> None:
    # morehead: "goes together, or not at all" read as if the run's top card could never
    # leave alone, but the engine (rightly) lets it go to its foundation.
    import yaml

    text = rule_text(get_profile("morehead"), "tableau.whole-run", "en")
    assert "may still go to its foundation" in text
    pos = parse_position(yaml.safe_load(MOREHEAD_RUN), Locator("test", None))
    six = parse_card("6H")
    assert refusal(pos, Move(six, "f")) is None
    why = refusal(pos, Move(six, "t4"))
    assert why is not None and why.rule == "tableau.whole-run"


@pytest.mark.parametrize(("lang", "summary"), [
    ("en", "1 passed, 0 failed"),
    ("ru", "проверку прошли: 1, не прошли: 0"),
    ("es", "correctos: 1, con fallos: 0"),
])
def test_check_summary_speaks_the_chosen_language(lang: str, summary: str) -> None:
    # The messages followed --lang but the closing count stayed in English.
    code, out, _ = run("check", str(SECTION_08), "--lang", lang)
    assert code == 0 and out.rstrip().endswith(summary)
