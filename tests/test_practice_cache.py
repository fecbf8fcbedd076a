"""The practice analyses: the refusals kept once per what the rules read agree with the engine at
every state, and the folder that keeps analyses between guide builds gives the same pages."""

from __future__ import annotations

import gzip
import random
from pathlib import Path

import pytest
from _solver_util import ALL_PROFILES, random_small_position
from typer.testing import CliRunner

from agnes_teach import practice_cache
from agnes_teach.cli import app
from agnes_teach.graph import explore
from agnes_teach.practice import (
    Shared,
    analyse,
    card_refusals,
    clear_analyses,
    cross_check_refusals,
    destinations,
    typed_leads,
)
from agnes_teach.practice_cache import AnalysisCache, scenario_digest
from agnes_teach.profile import get_profile
from agnes_teach.render.guide import build_guide
from agnes_teach.scenario import load_scenario

ROOT = Path(__file__).resolve().parent.parent
SECTION_08 = ROOT / "agnes_teach" / "data" / "examples" / "section-08.yaml"
# One puzzle of each game and of a stock to deal, each with a few hundred states or fewer.
EACH_GAME = [
    SECTION_08,
    ROOT / "puzzles" / "small" / "stock.deal" / "stock-deal-l119-19-c15.yaml",
    ROOT / "puzzles" / "agnes-ru" / "foundation.return" / "agnes-ru-foundation-return-l10-21-c15.yaml",
    ROOT / "puzzles" / "agnes-ru" / "tableau.empty" / "agnes-ru-tableau-empty-l80-12-c14.yaml",
    ROOT / "puzzles" / "sorel" / "tableau.same-colour" / "sorel-strict-tableau-same-colour-l10028-21-c7.yaml",
]


@pytest.mark.parametrize("path", EACH_GAME, ids=lambda p: p.stem)
def test_refusals_kept_once_agree_with_the_engine_at_every_state(path: Path) -> None:
    """The build asks the engine afresh at five states; here at every one."""
    scenario = load_scenario(path)
    got = analyse(scenario)
    assert got is not None
    cross_check_refusals(got.graph, got.refusals, got.leads, destinations(scenario.position.profile),
                         scenario.id, checks=len(got.graph.states))


@pytest.mark.parametrize("profile_id", ALL_PROFILES)
def test_refusals_kept_once_agree_with_the_engine_in_every_game(profile_id: str) -> None:
    """The same at every state of the learner's game from random small positions of every profile,
    the variants no library puzzle plays included (runs moved whole, runs by suit, single cards
    into a space): three games of at most 400 states each.  Where cards come back from the
    foundations the learner's whole game is seldom that small, and the page plays the game in which
    cards go home by themselves once every lower rank is home: so does this test there."""
    returns = get_profile(profile_id).foundation_return
    checked = 0
    for seed in range(200):
        start = random_small_position(random.Random(seed), profile_id, 5 + seed % 6)
        graph = explore(start, 400, play_safe_home=returns, merge_symmetric=True, learner_returns=returns)
        if graph is None or len(graph.states) < 20:  # too large for a test, or too small to tell
            continue
        dests, shared = destinations(start.profile), Shared()
        refusals = [card_refusals(graph, i, dests, shared) for i in range(len(graph.states))]
        leads = [typed_leads(pos, shared) for pos in graph.states]
        cross_check_refusals(graph, refusals, leads, dests, f"{profile_id} {seed}", checks=len(graph.states))
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def _pages(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_a_second_build_reads_every_analysis_and_writes_the_same_pages(tmp_path: Path) -> None:
    puzzles = [load_scenario(p) for p in EACH_GAME[:2]]
    cache = AnalysisCache(tmp_path / "cache")
    clear_analyses()
    build_guide(["en"], tmp_path / "one", get_profile("bernauer"), puzzles=puzzles, workers=1, cache=cache)
    assert cache.hits == 0
    clear_analyses()
    again = AnalysisCache(tmp_path / "cache")
    build_guide(["en"], tmp_path / "two", get_profile("bernauer"), puzzles=puzzles, workers=1, cache=again)
    assert again.hits == len(puzzles)
    assert _pages(tmp_path / "one") == _pages(tmp_path / "two")


def test_a_damaged_file_is_analysed_again_and_replaced(tmp_path: Path) -> None:
    scenario = load_scenario(SECTION_08)
    cache = AnalysisCache(tmp_path)
    clear_analyses()
    cache.put(scenario, analyse(scenario))
    kept = next((tmp_path / "practice").rglob("*.pickle.gz"))
    kept.write_bytes(b"not a pickle")
    assert cache.get(scenario) == (False, None)
    cache.put_entry(scenario, "en", {"graph": "cut short"})  # an entry missing its fields: not taken
    assert cache.get_entry(scenario, "en") is None
    clear_analyses()
    build_guide(["en"], tmp_path / "g", get_profile("bernauer"), puzzles=[scenario], workers=1, cache=cache)
    assert cache.get(scenario)[0] and gzip.decompress(kept.read_bytes())


def test_an_analysis_is_named_by_the_code_and_the_puzzle(monkeypatch: pytest.MonkeyPatch) -> None:
    scenario = load_scenario(SECTION_08)
    name = scenario_digest(scenario)
    other = load_scenario(EACH_GAME[1])
    assert scenario_digest(other) != name
    monkeypatch.setattr(practice_cache, "code_fingerprint", lambda: "another version")
    assert scenario_digest(scenario) != name


def test_guide_keeps_nothing_with_no_cache(tmp_path: Path) -> None:
    def guide(out: str, *more: str) -> list[str]:
        return ["guide", "--lang", "en", "--out", str(tmp_path / out), "--puzzles", str(SECTION_08),
                "--quiet", *more]

    clear_analyses()
    result = CliRunner().invoke(app, guide("g", "--no-cache", "--cache-dir", str(tmp_path / "none")))
    assert result.exit_code == 0, result.output
    assert not (tmp_path / "none").exists()
    clear_analyses()
    result = CliRunner().invoke(app, guide("h", "--cache-dir", str(tmp_path / "kept")))
    assert result.exit_code == 0, result.output
    assert list((tmp_path / "kept" / "practice").rglob("*.pickle.gz"))


def test_a_cache_dir_that_is_a_file_is_bad_input(tmp_path: Path) -> None:
    """Exit 2, one line naming the path and the fix, and no guide written."""
    (tmp_path / "a-file").write_text("x", encoding="utf-8")
    result = CliRunner().invoke(app, ["guide", "--lang", "en", "--out", str(tmp_path / "g"), "--puzzles",
                                      str(SECTION_08), "--quiet", "--cache-dir", str(tmp_path / "a-file")])
    assert result.exit_code == 2
    assert "a-file: is a file; --cache-dir needs a folder" in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "g").exists()
