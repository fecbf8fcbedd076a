"""The profile vocabulary: enums for every parameter, `extends:`, rule lists derived from the
parameters, profile files as house rules, and the Agnes Sorel deal."""

from __future__ import annotations

from pathlib import Path

import pytest

from agnes_teach.cards import parse_card
from agnes_teach.deal import deal, shuffled_deck
from agnes_teach.engine import apply_move, legal_moves
from agnes_teach.errors import InputError, ProfileError
from agnes_teach.moves import DEAL_MOVE
from agnes_teach.profile import (
    BaseCard,
    EmptyFill,
    RankCycle,
    RunLink,
    RunUnit,
    TableauBuild,
    derived_rules,
    get_profile,
    profile_ids,
)
from agnes_teach.registry import RuleId


def test_every_parameter_is_typed() -> None:
    for pid in profile_ids():
        p = get_profile(pid)
        for value, enum in ((p.tableau_build, TableauBuild), (p.rank_cycle, RankCycle), (p.run_link, RunLink),
                            (p.run_unit, RunUnit), (p.empty_fill, EmptyFill), (p.base_card, BaseCard)):
            assert isinstance(value, enum)
        assert p.rules == derived_rules(p)


def test_the_shipped_profiles_list_no_rules_beside_their_parameters() -> None:
    folder = Path(__file__).resolve().parent.parent / "agnes_teach" / "profiles"
    for path in folder.glob("*.yaml"):
        assert "\nrules:" not in path.read_text(encoding="utf-8"), path.name


def test_sorel_rules_come_from_its_parameters() -> None:
    sorel = get_profile("sorel")
    assert sorel.uses(RuleId.TABLEAU_SAME_COLOUR) and not sorel.uses(RuleId.TABLEAU_BUILD)
    assert sorel.uses(RuleId.TABLEAU_SUIT_RUN) and sorel.uses(RuleId.TABLEAU_WHOLE_RUN)
    assert not sorel.uses(RuleId.RESERVE_TOP) and not sorel.uses(RuleId.RESERVE_NO_BUILD)
    assert get_profile("bernauer").uses(RuleId.TABLEAU_BUILD)


def test_sorel_strict_extends_sorel() -> None:
    sorel, strict = get_profile("sorel"), get_profile("sorel-strict")
    assert strict.column_lengths == (1, 2, 3, 4, 5, 6, 7) and sorel.column_lengths == (7, 6, 5, 4, 3, 2, 1)
    assert strict.empty_fill == EmptyFill.DEAL_ONLY and sorel.empty_fill == EmptyFill.ANY_RUN
    assert strict.stock_deals == sorel.stock_deals and strict.tableau_build == sorel.tableau_build


@pytest.mark.parametrize("pid", ["sorel", "sorel-strict"])
def test_the_sorel_deal(pid: str) -> None:
    profile = get_profile(pid)
    deck = shuffled_deck(9)
    pos = deal(9, profile)
    # the 28 tableau cards come first, row by row; the 29th is the base card
    assert sum(len(c) for c in pos.tableau) == 28 and not pos.reserve and not pos.exposed
    assert pos.base == deck[28] % 13 + 1 and pos.foundations[deck[28] // 13] == 1
    assert pos.stock == tuple(deck[29:]) and len(pos.stock) == 23
    # 7 + 7 + 7 onto t1..t7, then the last two onto t1 and t2; one pass
    for _ in range(3):
        lengths = [len(c) for c in pos.tableau]
        pos = apply_move(pos, DEAL_MOVE)
        assert [len(c) for c in pos.tableau] == [n + 1 for n in lengths]
    lengths = [len(c) for c in pos.tableau]
    last_two = pos.stock
    pos = apply_move(pos, DEAL_MOVE)
    assert [len(c) for c in pos.tableau] == [lengths[0] + 1, lengths[1] + 1, *lengths[2:]]
    assert (pos.tableau[0][-1], pos.tableau[1][-1]) == last_two and not pos.stock
    assert DEAL_MOVE not in legal_moves(pos)


def test_a_profile_file_is_house_rules(tmp_path: Path) -> None:
    house = tmp_path / "house.yaml"
    house.write_text("extends: sorel\nname: Sorel, single cards into gaps\nempty_column: any-card\n")
    p = get_profile(str(house))
    assert p.id == "house" and p.empty_fill == EmptyFill.ANY_CARD
    assert p.tableau_build == TableauBuild.SAME_COLOUR
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: sorel\nempty_column: anything\n")
    with pytest.raises(ProfileError, match="empty_column: 'anything' is not one of"):
        get_profile(str(bad))
    with pytest.raises(ProfileError, match="extends 'klondike'"):
        (tmp_path / "k.yaml").write_text("extends: klondike\n")
        get_profile(str(tmp_path / "k.yaml"))
    with pytest.raises(InputError, match="unknown profile"):
        get_profile("klondike")


def _house_scenario(tmp_path: Path) -> Path:
    """A deal of a house profile, written as a file in `games/` beside `house.yaml`."""
    import yaml

    (tmp_path / "house.yaml").write_text("extends: sorel-strict\nempty_column: any-run\n")
    games = tmp_path / "games"
    games.mkdir()
    pos = deal(5, get_profile(str(tmp_path / "house.yaml")))
    data = pos.to_data()
    data["profile"] = "../house.yaml"  # as `deal --profile ../house.yaml` writes it from games/
    (games / "d5.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    return games / "d5.yaml"


@pytest.mark.parametrize(("profile_line", "problem"), [
    ("../house.yaml", None),  # relative to the scenario's folder
    ("../nohouse.yaml", "d5.yaml:1: profile ../nohouse.yaml: no such file"),
    ("sorell", "unknown profile 'sorell' (known: agnes-ru, bernauer"),
    ("house", "or a profile file's path ending in .yaml"),
])
def test_a_scenario_names_its_house_profile_file(tmp_path: Path, profile_line: str,
                                                 problem: str | None) -> None:
    from agnes_teach.scenario import load_scenario

    path = _house_scenario(tmp_path)
    text = path.read_text().replace("profile: ../house.yaml", f"profile: {profile_line}")
    path.write_text(text)
    if problem is None:
        sc = load_scenario(path)
        assert sc.position.profile.empty_fill == EmptyFill.ANY_RUN
        assert sc.position.to_data()["profile"] == str(tmp_path / "games" / "../house.yaml")
        return
    with pytest.raises(InputError) as caught:
        load_scenario(path)
    assert problem in str(caught.value)


def test_a_house_profile_deal_loads_again(tmp_path: Path) -> None:
    from agnes_teach.position import parse_position

    house = tmp_path / "house.yaml"
    house.write_text("extends: sorel\nempty_column: any-card\n")
    pos = deal(2, get_profile(str(house)))
    assert parse_position(pos.to_data()) == pos


def test_the_same_colour_table() -> None:
    pos = deal(1, get_profile("sorel"))  # base 9: ranks run 8 (highest), 7, ..., A, K, ..., 9
    from agnes_teach.board import fits

    assert fits(pos, parse_card("7S"), parse_card("8C")) and not fits(pos, parse_card("7S"), parse_card("8H"))
    assert fits(pos, parse_card("KD"), parse_card("AH"))  # round the corner
    assert not fits(pos, parse_card("8S"), parse_card("9C"))  # nothing goes on a base card
