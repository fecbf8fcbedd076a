"""The practice pages' analysis: the one game graph, every legal move an edge, the engine's refusals."""

from __future__ import annotations

from pathlib import Path

from _generator_util import make_position

from agnes_teach.cards import Card
from agnes_teach.engine import apply_unchecked, legal_moves, refusal
from agnes_teach.graph import explore
from agnes_teach.moves import Move
from agnes_teach.practice import NoLead, analyse, destinations
from agnes_teach.scenario import Scenario, load_scenario

ROOT = Path(__file__).resolve().parent.parent
SECTION_08 = ROOT / "agnes_teach" / "data" / "examples" / "section-08.yaml"


def test_the_learners_graph_has_every_legal_move_as_an_edge() -> None:
    pos = make_position(6, ["JD"], reserve=["3H"], stock="4H 5H QD KD AD 2D 3D 4D 5D")
    graph = explore(pos, 2000, play_safe_home=False)
    assert graph is not None
    assert not graph.auto
    for i, state in enumerate(graph.states):
        assert [m for m, _ in graph.edges[i]] == legal_moves(state)
        for move, j in graph.edges[i]:
            assert graph.states[j] == apply_unchecked(state, move)


def test_shortest_lines_lead_to_a_win_or_a_dead_end() -> None:
    graph = explore(make_position(6, ["JD"], reserve=["3H"], stock="4H 5H QD KD AD 2D 3D 4D 5D"), 2000,
                    play_safe_home=False)
    assert graph is not None
    line = graph.line_edges()
    for i in range(len(graph.states)):
        j, steps = i, 0
        while line[j] >= 0:
            j = graph.edges[j][line[j]][1]
            steps += 1
        if graph.won(i):
            assert graph.states[j].is_won() and steps == graph.win_distance[i]
        elif steps or not graph.edges[i]:
            assert not graph.edges[j] and not graph.won(j)


def test_the_analysis_refuses_exactly_the_illegal_moves() -> None:
    scenario = load_scenario(SECTION_08)
    got = analyse(scenario)
    assert got is not None
    assert got.destinations == destinations(scenario.position.profile)
    assert got.winnable[0]
    for i, pos in enumerate(got.graph.states):
        for card, row in enumerate(got.refusals[i]):
            for dest, why in zip(got.destinations, row, strict=True):
                assert (why is None) == (refusal(pos, Move(Card(card), dest)) is None)
        for source, leads in enumerate(got.leads[i]):
            assert len(leads) == pos.profile.columns and leads[source] is NoLead.NONE
            if not pos.tableau[source]:
                assert set(leads) == {NoLead.NONE}


def test_a_game_too_large_is_not_analysed() -> None:
    pos = make_position(5, ["QS AH", "KS", "4H 3H 2H", "4S 3S 2S AS"])
    assert explore(pos, 2, play_safe_home=False) is None
    demo = sorted((ROOT / "puzzles" / "demo").glob("*.yaml"))[0]  # from a real deal: far too large
    big = load_scenario(demo)
    assert analyse(Scenario(big.file, big.id, big.task, [], big.position)) is None
