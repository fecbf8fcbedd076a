"""The practice pages of a library: a section per rule, a page per rule when they do not fit, the
answer key's reason after a losing move, every answer the engine's, the same bytes in parallel."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from _generator_util import make_position

from agnes_teach import practice
from agnes_teach.cards import Card
from agnes_teach.engine import apply_unchecked, refusal
from agnes_teach.moves import Move
from agnes_teach.practice import analyse, on_board, page_refusal_key
from agnes_teach.profile import get_profile
from agnes_teach.render.guide import build_guide
from agnes_teach.render.practice import (
    PILE_FIELD,
    Reasons,
    build_practice,
    page_name,
    practice_site,
    prepare,
    rule_page_name,
    sections,
    unpack,
)
from agnes_teach.scenario import Scenario, load_scenario
from agnes_teach.tagger.refutation import why_loses
from agnes_teach.tagger.wording import reason_text

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = ROOT / "puzzles" / "small"
# Four small library puzzles on four rules (small games, quick to explore whole).
FILES = ["foundation.wrap/foundation-wrap-l200011-34-c11.yaml",
         "tableau.wrap/tableau-wrap-l10003-28-c10.yaml",
         "tableau.empty/tableau-empty-d26-m8-c11.yaml", "stock.last-two/stock-last-two-l91136-26-c11.yaml"]


@pytest.fixture(scope="module")
def library() -> list[Scenario]:
    return [load_scenario(LIBRARY / name) for name in FILES]


def _ids(html: str) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', html))


def _switch(name: object) -> list[tuple[str, str, str]]:
    page = name if callable(name) else None
    return [(code, code, page(code)) for code in ("en", "ru")] if page else []


def test_a_page_has_a_section_per_rule_and_a_contents_list_that_resolves(library: list[Scenario]) -> None:
    site = practice_site(library, "en", _switch, "en.html")
    assert list(site) == [page_name("en")]  # small enough for one page
    html = site[page_name("en")]
    ids = _ids(html)
    for section in sections(library):
        assert f"rule-{section.rule}" in ids
        assert re.search(rf'<h2 id="rule-{re.escape(str(section.rule))}-title">', html)
    links = re.findall(r'<nav class="contents".*?</nav>', html, re.S)
    assert len(links) == 1
    targets = re.findall(r'href="#([^"]+)"', links[0])
    assert len(targets) == len(library) + len(sections(library)) and set(targets) <= ids
    for sc in library:
        assert f'data-puzzle="{sc.id}"' in html


def test_puzzles_too_many_for_a_page_get_a_page_per_rule(library: list[Scenario]) -> None:
    whole = len(build_practice(library, "en", "en.html").html.encode("utf-8"))
    largest_rule = max(len(build_practice(s.scenarios, "en", "en.html", prepared=prepare(library, "en"))
                           .html.encode("utf-8")) for s in sections(library))
    budget = (whole + largest_rule) // 2
    heard: list[tuple[str, str]] = []
    site = practice_site(library, "en", _switch, "en.html", note=lambda i, t: heard.append((i, t)),
                         budget=budget)
    assert heard == []  # every puzzle plays
    rules = [s.rule for s in sections(library)]
    assert list(site) == [page_name("en"), *(rule_page_name("en", r) for r in rules)]
    contents = site[page_name("en")]
    for href in re.findall(r'href="(practice-en[^"]*)"', contents):
        name, _, anchor = href.partition("#")
        assert name in site, href
        assert not anchor or anchor in _ids(site[name]), href
    for rule in rules:
        page = site[rule_page_name("en", rule)]
        assert len(page.encode("utf-8")) <= budget
        assert f'id="rule-{rule}"' in page and f'href="{page_name("en")}"' in page
        assert f'{rule_page_name("ru", rule)}' in page  # the switcher names the same rule's page
    for sc in library:
        assert sum(f'data-puzzle="{sc.id}"' in page for page in site.values()) == 1
        assert f"#puzzle-{sc.id}" in contents


# Besides FILES: the key's explanations on two more rules (a reserve pile's top, a run).
KEYED = [*FILES, "reserve.top/reserve-top-l100002-22-c8.yaml", "tableau.run/tableau-run-l40005-30-c14.yaml"]


def _key_positions(scenario: Scenario, graph: object) -> dict[int, tuple[int, dict[str, str]]]:
    """Per position of the key's line that is a stored state: that state, and where each of the
    key's piles lies in it (the stored states keep the piles in key order)."""
    from agnes_teach.graph import piles_onto
    from agnes_teach.keys import key_and_order

    states = graph.states  # type: ignore[attr-defined]
    index = {key_and_order(s, kinds_apart=True)[0]: i for i, s in enumerate(states)}
    names = scenario.position.profile.pile_names()
    out = {}
    here = scenario.position
    for t, move in enumerate([*practice.key_of(scenario).line, None]):
        key, order = key_and_order(here, kinds_apart=True)
        if key in index:
            j = index[key]
            onto = piles_onto(order, key_and_order(states[j], kinds_apart=True)[1])
            out[t] = (j, {names[p]: names[onto[p]] for p in range(len(names))})
        if move is not None:
            here = apply_unchecked(here, move)
    return out


@pytest.mark.parametrize("name", KEYED)
def test_a_losing_move_on_the_keys_line_says_what_the_key_says(name: str) -> None:
    """Each wrong move the worksheet's key explains, played where the key names it, carries the
    key's own sentence on the page: the rule's side, then the cost, in every language, its piles
    (stored as fields) named as the learner's board names them."""
    scenario = load_scenario(LIBRARY / name)
    got = analyse(scenario)
    assert got is not None and got.losing
    graph = got.graph
    for (i, k), _why in got.losing.items():
        assert got.winnable[i] and not got.winnable[graph.edges[i][k][1]]
    at = _key_positions(scenario, graph)
    checked = 0
    for entry in practice.key_of(scenario).refuted:
        if entry.reason.refusal is not None:
            continue  # refused: the page answers with the rule's refusal, not a reason
        for index in entry.indices:
            j, rename = at[index]
            for move in entry.moves:
                stored_move = move if move.card is None else Move(move.card, rename.get(move.dest, move.dest))
                k = [m for m, _ in graph.edges[j]].index(stored_move)
                stored = got.losing[(j, k)]
                back = {pile: mine for mine, pile in rename.items()}  # the stored piles on the board
                for lang in ("en", "ru", "es"):
                    reasons = Reasons(lang)
                    text, piles = reasons.items[reasons.add(stored)]
                    for n, pile in enumerate(piles):
                        text = text.replace(PILE_FIELD.format(n=n), back[pile])
                    assert text == entry.explanation.text(lang), (name, index, str(move), lang)
                    assert "{" not in text and "circles" not in text
                checked += 1
    assert checked, name


def test_every_stored_reason_is_a_reason_of_its_move(library: list[Scenario]) -> None:
    scenario = next(s for s in library if s.themes[0] == "tableau.empty")
    got = analyse(scenario)
    assert got is not None
    graph = got.graph
    prepared = prepare([scenario], "ru")
    data = prepared.data[id(scenario)].data
    assert data is not None
    stored = unpack(str(data["graph"]))
    assert isinstance(stored, dict)
    first = [0]
    for edges in graph.edges:
        first.append(first[-1] + len(edges))
    by_move = {first[i] + k: (i, k) for (i, k) in got.losing}
    assert sorted(n for n, _ in stored["losing"]) == sorted(by_move)
    for number, reason in stored["losing"]:
        i, k = by_move[number]
        text, piles = stored["reasons"][reason]
        for n, pile in enumerate(piles):
            text = text.replace(PILE_FIELD.format(n=n), pile)
        # Its cost is the one the key computes for this move here (why_loses).
        assert reason_text(why_loses(graph.states[i], graph.edges[i][k][0]), "ru") in text
        assert "круг" not in text  # not "goes round in circles"


def test_an_explanation_leaves_each_pile_it_names_for_the_page_to_name(library: list[Scenario]) -> None:
    """The empty column's rule names t3, the cost names t6: two fields, the page fills in both."""
    scenario = next(s for s in library if s.themes[0] == "tableau.empty")
    entry = next(e for e in practice.key_of(scenario).refuted if e.explanation.facts is not None)
    reasons = Reasons("en")
    text, piles = reasons.items[reasons.add(entry.explanation)]
    assert piles == ("t3", "t6")
    assert PILE_FIELD.format(n=0) in text and PILE_FIELD.format(n=1) in text
    assert "t3" not in text and "t6" not in text
    reasons.add(dataclasses.replace(entry.explanation, facts=None))
    only_cost = reasons.items[-1]
    assert only_cost[1] == ("t6",) and PILE_FIELD.format(n=0) in only_cost[0]


def _buried() -> tuple[object, Move]:
    """Dealing lays 7♥ on 6♥ in the reserve: the trap of the deal played too early."""
    pos = make_position(5, ["4H 3H"], reserve=["6H"], stock="7H 8H 9H 10H JH QH KH AH 2H")
    from agnes_teach.moves import DEAL_MOVE

    return pos, DEAL_MOVE


def test_refusals_of_cards_off_the_board_are_the_engines(library: list[Scenario]) -> None:
    """Cards in the stock or under a foundation's top are asked once per stock and foundations:
    every stored row is still the engine's answer, state by state."""
    pos, _deal = _buried()
    trap = dataclasses.replace(library[3], id="stocked", position=pos)  # type: ignore[arg-type]
    for scenario in (trap, library[3]):
        got = analyse(scenario)
        assert got is not None
        for i, state in enumerate(got.graph.states):
            board = on_board(state)
            for card in range(52):
                for dest, stored in zip(got.destinations, got.refusals[i][card], strict=True):
                    move = Move(Card(card), dest)
                    why = refusal(state, move)
                    assert stored == (None if why is None else page_refusal_key(why, state, move)), \
                        (i, move, card in board)


def test_the_pages_are_the_same_whatever_the_worker_count(tmp_path: Path, library: list[Scenario]) -> None:
    steps: list[str] = []
    practice.clear_analyses()
    build_guide(["en"], tmp_path / "one", get_profile("bernauer"), puzzles=library, workers=1)
    practice.clear_analyses()
    build_guide(["en"], tmp_path / "two", get_profile("bernauer"), puzzles=library, workers=2,
                progress=steps.append)
    for page in (tmp_path / "one").iterdir():
        assert page.read_bytes() == (tmp_path / "two" / page.name).read_bytes(), page.name
    analysed = [s for s in steps if s.startswith("practice ")]
    total = len(library) + 1  # and the worked example
    assert len(analysed) == total and analysed[-1].startswith(f"practice {total}/{total} ")
    assert {s.split()[-1] for s in analysed} >= {f"{sc.themes[0]}/{sc.id}" for sc in library}


def test_each_note_is_heard_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A puzzle left out is noted once, though each language's page leaves it out (with its size in
    that language: the same puzzle was noted three times)."""
    from agnes_teach.render import practice as page

    pair = [load_scenario(LIBRARY / "tableau.empty" / name)
            for name in ("tableau-empty-d26-m8-c11.yaml", "tableau-empty-d10-m29-c16.yaml")]
    small, big = ([len(build_practice([sc], lang, f"{lang}.html").html.encode("utf-8"))
                   for lang in ("en", "ru", "es")] for sc in pair)
    budget = (max(small) + min(big)) // 2  # the second puzzle is too big for a page alone, in every language
    assert max(small) + 2_000 < budget < min(big)
    monkeypatch.setattr(page, "PAGE_BUDGET", budget)
    heard: list[str] = []
    build_guide(["en", "ru", "es"], tmp_path / "g", get_profile("bernauer"), puzzles=pair, note=heard.append)
    assert len(heard) == 1 and "not playable there" in heard[0] and pair[1].id in heard[0]
    for name in ("practice-en.html", "practice-ru.html", "practice-es.html"):
        html = (tmp_path / "g" / name).read_text("utf-8")
        assert html.count('class="puzzle-id"') >= 2  # each puzzle named by its id, the one left out too


def test_a_rules_puzzles_are_numbered_as_its_teachers_sheet_numbers_them() -> None:
    from agnes_teach.puzzle_library import Selection
    from agnes_teach.registry import RuleId
    from agnes_teach.render.practice import distinct_titles
    from agnes_teach.render.sheet import load_items
    from agnes_teach.scenario import load_puzzles

    folder = LIBRARY / "reserve.top"
    sheet = load_items([str(folder)], "en", selection=Selection(themes=(RuleId.RESERVE_TOP,)))
    (section,) = sections(load_puzzles([folder]))
    assert [sc.id for sc in section.scenarios] == [item.id for item in sheet]
    assert distinct_titles(section.scenarios, "en") == [f"Puzzle {item.number}" for item in sheet]


def test_a_rule_whose_puzzles_do_not_fit_on_a_page_goes_on_over_more_pages(library: list[Scenario]) -> None:
    """The budget holds any one puzzle but not every rule's puzzles together: a rule's puzzles go on
    to its next page (``...-2.html``), none is left out, and the contents page links each part."""
    library = [*library, load_scenario(LIBRARY / "tableau.wrap" / "tableau-wrap-l40004-36-c11.yaml")]
    prepared = prepare(library, "en")

    def size(scenarios: list[Scenario]) -> int:  # as a rule's page
        switcher = _switch(lambda code: rule_page_name(code, scenarios[0].themes[0]))
        return len(build_practice(scenarios, "en", "en.html", switcher, prepared=prepared,
                                  contents_href=page_name("en")).html.encode("utf-8"))

    budget = max(size([sc]) for sc in library)
    assert size([sc for sc in library if sc.themes[0] == "tableau.wrap"]) > budget
    heard: list[tuple[str, str]] = []
    site = practice_site(library, "en", _switch, "en.html", note=lambda i, t: heard.append((i, t)),
                         budget=budget)
    assert heard == []
    assert any(name.endswith("-2.html") for name in site)
    contents = site[page_name("en")]
    for sc in library:
        assert sum(f'data-puzzle="{sc.id}"' in page for page in site.values()) == 1
        assert f"#puzzle-{sc.id}" in contents
    for name, page in site.items():
        assert name == page_name("en") or len(page.encode("utf-8")) <= budget
    for href in re.findall(r'href="(practice-en[^"]*)"', contents):
        assert href.partition("#")[0] in site, href
    assert ", page 2" in contents
