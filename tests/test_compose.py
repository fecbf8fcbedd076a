"""Composed layouts (generator/compose.py): every one is a position a real game can reach, holds
what its theme's recipe asks, and the same number gives the same layouts."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agnes_teach.board import move_tables
from agnes_teach.engine import apply_unchecked, legal_moves, refusal
from agnes_teach.generator.compose import CARDS, layouts
from agnes_teach.position import parse_position
from agnes_teach.profile import get_profile
from agnes_teach.registry import RuleId, Verdict
from agnes_teach.solver import solve
from agnes_teach.tagger.crux import competes
from agnes_teach.tagger.misconception import added_moves
from agnes_teach.tagger.teaching import cards_not_home
from agnes_teach.themes import find_theme, theme_for, theme_ids

PROFILES = ("bernauer", "agnes-ru", "sorel", "sorel-strict", "morehead")


def _usable(profile_id: str, theme: str) -> bool:
    profile = get_profile(profile_id)
    taught = find_theme(theme, profile_id)
    return taught is not None and profile.cannot_use(theme) is None \
        and taught.recipe.deals_left < len(profile.stock_sizes())


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(PROFILES), st.sampled_from(theme_ids()), st.integers(1, 10_000))
def test_layouts_are_positions_a_game_can_reach(profile_id: str, theme: str, number: int) -> None:
    if not _usable(profile_id, theme):
        return
    profile = get_profile(profile_id)
    for _, pos in layouts(number, profile, theme, count=3):
        # The file form reads back as the same position: validation finds nothing to refuse.
        assert parse_position(pos.to_data()) == pos
        assert CARDS[0] <= cards_not_home(pos) <= CARDS[1]
        tables = move_tables(profile, pos.base)
        for j, column in enumerate(pos.tableau):
            # Below its top run-on cards, a column holds at most what was dealt to it.
            built = 0
            while built + 1 < len(column) and column[-1 - built - 1] in tables.hosts[column[-1 - built]]:
                built += 1
            assert len(column) - built - 1 <= profile.column_lengths[j] + len(profile.stock_deals)


@pytest.mark.parametrize("theme", theme_ids("bernauer"))
def test_layouts_hold_what_their_recipe_asks(theme: str) -> None:
    profile = get_profile()
    recipe = theme_for(theme, profile.id).recipe
    drawn = list(layouts(7, profile, theme, count=20))
    assert len(drawn) >= 3  # a draw that fits nowhere in TRIES attempts is skipped
    for _, pos in drawn:
        if recipe.king_topped:
            tops = [pos.foundation_top(s) for s in range(4)]
            assert any(top is not None and top % 13 == 12 for top in tops)
        if recipe.empty_foundation:
            assert 0 in pos.foundations and pos.base != 1
        if recipe.covered_reserve:
            assert any(len(p) >= 2 for p in pos.reserve)
        if recipe.exposed_full:
            assert all(pos.exposed) and not pos.stock
        if recipe.nothing_home:
            assert not any(m.dest.is_foundation for m in legal_moves(pos))
        if recipe.most_cards:
            assert cards_not_home(pos) <= recipe.most_cards
        if recipe.contested:
            # The rule's move is on offer and a move the believer makes competes with it.
            believer = theme_for(theme, profile.id).believer
            moves = legal_moves(pos)
            allowed = believer.allowed(pos, moves)
            rule_moves = [m for m in moves if m not in allowed]
            rivals = [m for m in allowed if any(competes(pos, m, rule) for rule in rule_moves)]
            assert rivals
            if recipe.contest_loses:  # one of them loses, while the layout is won
                assert solve(pos).status == Verdict.WON
                assert any(solve(apply_unchecked(pos, m)).status == Verdict.LOST for m in rivals)
        if recipe.belief_adds:
            # A move the belief adds is on offer, refused by the theme's rule.
            added = added_moves(pos, theme_for(theme, profile.id).believer)
            assert added
            assert all(getattr(refusal(pos, m), "rule", None) == theme for m in added)
        if recipe.move_loses:  # won, and a legal move loses
            assert solve(pos).status == Verdict.WON
            assert any(solve(apply_unchecked(pos, m)).status == Verdict.LOST for m in legal_moves(pos))
        assert len(pos.stock) == profile.stock_sizes()[-1 - recipe.deals_left]


def test_the_same_number_gives_the_same_layouts() -> None:
    profile = get_profile()
    first = list(layouts(42, profile, RuleId.FOUNDATION_WRAP, count=5))
    assert first == list(layouts(42, profile, RuleId.FOUNDATION_WRAP, count=5))
    assert first != list(layouts(43, profile, RuleId.FOUNDATION_WRAP, count=5))
