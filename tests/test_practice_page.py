"""The practice page's stored game: states merged by symmetry, small puzzles playable, the page's budget.

Every check plays the real game beside the page's data (read back as the page reads it, see
``_page_util``) and holds the page's piles and words against the engine's.
"""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest
from _page_util import Board
from _reduce_util import reduce_to, send_home

from agnes_teach import i18n, practice
from agnes_teach.cards import Card
from agnes_teach.engine import apply_move, legal_moves, refusal
from agnes_teach.graph import autoplay, explore
from agnes_teach.keys import key_and_order, state_key
from agnes_teach.limits import PRACTICE_MAX_CARDS
from agnes_teach.moves import Move
from agnes_teach.piles import FOUNDATION
from agnes_teach.position import Position
from agnes_teach.practice import analyse
from agnes_teach.profile import get_profile
from agnes_teach.render.guide import build_guide
from agnes_teach.render.practice import (
    PAGE_BUDGET,
    PAGE_FULL,
    TOO_BIG_ALONE,
    TOO_MANY_CARDS,
    build_practice,
    builder_note,
    card_labels,
)
from agnes_teach.scenario import Scenario, load_scenario
from agnes_teach.tagger.teaching import cards_not_home

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "agnes_teach" / "data" / "examples"
SECTION_08 = EXAMPLES / "section-08.yaml"
LIBRARY_FILE = ROOT / "tests" / "fixtures" / "whole-game" / "tableau.empty" / "tableau-empty-d12-m21.yaml"


def _small(cards: int) -> Scenario:
    """A library puzzle cut down to at most `cards` cards in play, still winnable."""
    scenario = load_scenario(LIBRARY_FILE)
    pos = reduce_to(scenario.position, cards)
    assert pos is not None
    return dataclasses.replace(scenario, position=pos, id=f"small-{cards}")


def _page_data(scenario: Scenario, lang: str = "en") -> tuple[dict, Board]:  # type: ignore[type-arg]
    page = build_practice([scenario], lang, f"{lang}.html")
    left_out = [(p.scenario.id, p.reason) for p in page.skipped]
    assert [p.scenario.id for p in page.playable] == [scenario.id], left_out
    data = json.loads(str(page.data).replace("<\\/", "</"))
    return data, Board(data["puzzles"][0])


def _same_board(board: Board, pos: Position) -> None:
    assert board.piles() == [list(p) for p in (*pos.tableau, *pos.reserve, *pos.exposed)]
    assert board.foundations() == list(pos.foundations) and board.stock() == list(pos.stock)


def _same_words(board: Board, pos: Position, data: dict, lang: str) -> None:  # type: ignore[type-arg]
    """Every card to every destination: legal where the engine allows it, else the engine's words."""
    shown = card_labels(lang)["shown"]
    dests = data["puzzles"][0]["dests"]
    legal = {(m.card, m.dest) for m in legal_moves(pos)}
    for card in range(52):
        for d, dest in enumerate(dests):
            move = Move(Card(card), dest)
            why = refusal(pos, move)
            assert (why is None) == ((card, dest) in legal)
            if why is not None:
                expected = (why.rule, i18n.refusal_message(why, lang))
                said = board.refusal(card, d, data["messages"], shown,  # type: ignore[arg-type]
                                     data["cards"]["agree"])
                assert said == expected, str(move)


def _walk(scenario: Scenario, walks: int, steps: int, lang: str = "en", words_every: int = 5) -> set[int]:
    """Random real games beside the page's data; returns the reorderings the walks went through."""
    data, _ = _page_data(scenario, lang)
    puzzle = data["puzzles"][0]
    dests = puzzle["dests"]
    rng = random.Random(20)
    reordered: set[int] = set()
    for walk in range(walks):
        board, pos = Board(puzzle), scenario.position
        for step in range(steps):
            _same_board(board, pos)
            if step % words_every == 0 and walk < 3:
                _same_words(board, pos, data, lang)
            moves = legal_moves(pos)
            if not moves or (puzzle["auto_home"] and pos.is_won()):
                break
            move = rng.choice(moves)
            home = board.play(move.card, -1 if move.card is None else dests.index(move.dest))
            assert home is not None, str(move)
            pos = apply_move(pos, move)
            # The cards the page says went home by themselves: real moves, and then no safe one is left.
            for card in home:
                pos = apply_move(pos, Move(Card(card), FOUNDATION))
            assert autoplay(pos)[1] == () if puzzle["auto_home"] else home == []
            reordered.add(board.view != sorted(board.view))
    return {int(r) for r in reordered}


def test_states_merged_by_symmetry_replay_as_real_moves() -> None:
    pos = load_scenario(SECTION_08).position
    exact = explore(pos, 5000, play_safe_home=False)
    merged = explore(pos, 5000, play_safe_home=False, merge_symmetric=True)
    assert exact is not None and merged is not None and merged.relabel
    # One stored state per class of the key that keeps reserve piles and exposed cells apart.
    assert len(merged.states) == len({key_and_order(s, kinds_apart=True)[0] for s in exact.states})
    assert len(merged.states) < len(exact.states)
    assert [merged.won(i) for i in range(len(merged.states))].count(True) > 0
    rng = random.Random(8)
    for _ in range(40):
        path, i = [], 0
        while merged.edges[i] and len(path) < 20:
            k = rng.randrange(len(merged.edges[i]))
            path.append(k)
            i = merged.edges[i][k][1]
        real = merged.root
        for move in merged.real_line(path):
            real = apply_move(real, move)  # raises if the named pile would not take it
        stored = merged.states[i]
        assert key_and_order(real, kinds_apart=True)[0] == key_and_order(stored, kinds_apart=True)[0]


def test_the_key_with_kinds_apart_orders_the_same_piles() -> None:
    pos = load_scenario(SECTION_08).position
    key, order = key_and_order(pos)
    assert key == state_key(pos) and sorted(order) == list(range(16))
    assert key_and_order(pos, kinds_apart=True)[0] != key


def test_a_small_position_is_playable_and_the_page_shows_the_real_game() -> None:
    scenario = _small(16)
    assert cards_not_home(scenario.position) <= 24
    got = analyse(scenario)
    assert got is not None and not got.auto_home
    page = build_practice([scenario], "en", "en.html")
    assert len(page.html.encode("utf-8")) <= PAGE_BUDGET and not page.skipped
    assert _walk(scenario, walks=12, steps=30) == {0, 1}  # the walks met stored states reordered


@pytest.mark.parametrize("lang", ["ru", "es"])
def test_the_page_words_the_real_game_in_every_language(lang: str) -> None:
    _walk(load_scenario(SECTION_08), walks=6, steps=14, lang=lang, words_every=1)


def test_a_game_too_large_for_every_move_is_played_with_safe_cards_going_home(
        monkeypatch: pytest.MonkeyPatch) -> None:
    scenario = _small(12)
    full = explore(scenario.position, 10_000, play_safe_home=False, merge_symmetric=True)
    assert full is not None
    monkeypatch.setattr(practice, "FULL_STATES", len(full.states) - 1)
    practice.clear_analyses()
    try:
        got = analyse(scenario)
        assert got is not None and got.auto_home and got.graph.auto
        data, _ = _page_data(scenario)
        assert data["puzzles"][0]["auto_home"]
        _walk(scenario, walks=20, steps=30)
        html = build_practice([scenario], "en", "en.html").html
        assert "go there by themselves" in html
    finally:
        practice.clear_analyses()


# ------------------------------------------------------------- the page's budget


def test_a_puzzle_too_big_for_any_page_is_not_said_to_lack_room() -> None:
    """A puzzle larger than a page by itself was left out with "the page has no room left", on a
    page of a few dozen kilobytes: it is the puzzle that is too big, and the page says so."""
    big, small = (load_scenario(EXAMPLES / f"{name}.yaml") for name in ("tableau-run", "foundation-wrap"))
    small_alone, big_alone = (len(build_practice([s], "en", "en.html").html.encode("utf-8"))
                              for s in (small, big))
    assert big_alone > small_alone + 4_000
    budget = (small_alone + big_alone) // 2  # room for the small puzzle only
    page = build_practice([big, small], "en", "en.html", budget=budget)
    assert [p.scenario.id for p in page.playable] == [small.id]
    assert [(p.scenario.id, p.reason) for p in page.skipped] == [(big.id, TOO_BIG_ALONE)]
    size = len(page.html.encode("utf-8"))
    assert size <= budget
    assert "more than a whole page may hold" in page.html and "no room" not in page.html
    note = builder_note(page.skipped[0], budget)
    assert big.id in note and f"{page.skipped[0].size:,} bytes" in note and "smaller" in note


def test_a_puzzle_that_fits_alone_but_not_beside_the_others_says_so() -> None:
    first, second = (load_scenario(EXAMPLES / f"{name}.yaml") for name in ("stock-deal", "tableau-run"))
    each = [len(build_practice([s], "en", "en.html").html.encode("utf-8")) for s in (first, second)]
    # Either alone, not both (a page beside another carries the other's messages too: about 1 KB).
    budget = max(each) + 2_000
    page = build_practice([first, second], "en", "en.html", budget=budget)
    assert len(page.playable) == 1 and [p.reason for p in page.skipped] == [PAGE_FULL]
    assert "beside the puzzles above" in page.html and "fewer puzzles" in page.html
    assert "--puzzles fewer puzzles" in builder_note(page.skipped[0], budget)


def test_a_puzzle_with_too_many_cards_is_named_with_its_count(tmp_path: Path) -> None:
    demo = load_scenario(sorted((ROOT / "tests" / "whole_game_demo").glob("*.yaml"))[0])
    out = cards_not_home(demo.position)
    assert out > PRACTICE_MAX_CARDS
    page = build_practice([demo], "ru", "ru.html")
    assert [p.reason for p in page.skipped] == [TOO_MANY_CARDS]
    assert f"в игре ещё {out} карт" in page.html and f"из {PRACTICE_MAX_CARDS} карт" in page.html
    heard: list[str] = []
    build_guide(["en", "ru"], tmp_path / "g", get_profile("bernauer"), puzzles=[demo], note=heard.append)
    assert heard == [builder_note(page.skipped[0], PAGE_BUDGET)]  # once, not once per language
    assert demo.id in heard[0] and f"{out} cards" in heard[0]


def test_the_reduction_helper_sends_the_next_card_home() -> None:
    pos = load_scenario(LIBRARY_FILE).position
    smaller = send_home(pos, 0)
    assert smaller is not None and sum(smaller.foundations) == sum(pos.foundations) + 1
    assert cards_not_home(smaller) == cards_not_home(pos) - 1 and smaller.stock == pos.stock
    left = [c for p in (*pos.tableau, *pos.reserve, *pos.exposed) for c in p]
    gone = [c for c in left if c not in [c for p in (*smaller.tableau, *smaller.reserve, *smaller.exposed)
                                         for c in p]]
    assert len(gone) == 1 and smaller.is_home(gone[0]) and not pos.is_home(gone[0])
    stocked = dataclasses.replace(pos, foundations=(pos.foundations[0], 13, 13, 13))
    assert send_home(dataclasses.replace(stocked, foundations=(13, 13, 13, 13)), 0) is None  # full
