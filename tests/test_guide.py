"""The HTML guide: one page per language, every rule anchored, figures from the profile, offline."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from markupsafe import escape

from agnes_teach import i18n
from agnes_teach.profile import get_profile, profile_ids
from agnes_teach.render.examples import examples
from agnes_teach.render.guide import build_guide, figures

LANGS = ["ru", "es", "en"]
SVG_NS = "http://www.w3.org/2000/svg"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("guide") / "guide"
    build_guide(LANGS, out, get_profile("bernauer"))
    return out


@pytest.fixture(scope="module")
def ru_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("guide-ru") / "guide"
    build_guide(["ru", "en"], out, get_profile("agnes-ru"))
    return out


def _page(site: Path, lang: str) -> str:
    return (site / f"{lang}.html").read_text("utf-8")


@pytest.mark.parametrize("lang", LANGS)
def test_page_per_language(site: Path, lang: str) -> None:
    html = _page(site, lang)
    assert re.search(rf'<html lang="{lang}">', html)
    for rule_id in get_profile("bernauer").rules:
        assert f'id="{rule_id}"' in html and f'href="#{rule_id}"' in html
    for other in LANGS:
        assert f'href="{other}.html"' in html or other == lang
    faq = html[html.index('id="faq"'):]
    assert faq.count("<details") == 10
    # Every diagram has its position as text beside it, for screen readers.
    assert html.count('class="piles-text"') == html.count('class="diagram-box"') > 0


@pytest.mark.parametrize("lang", LANGS)
def test_no_template_leftovers_and_no_network(site: Path, lang: str) -> None:
    html = _page(site, lang)
    # The scripts' own data holds fields the script fills in ({n}); the text may not.
    text = re.sub(r"<script.*?</script>", "", html, flags=re.S)
    assert not re.search(r"\{\{|\{%|\{[a-z_]+\}|%\([a-z_]+\)", text)
    urls = re.findall(r"[a-z]+://[^\s\"'<>)]*", html)
    assert set(urls) <= {SVG_NS}, urls
    assert "@import" not in html and "<script src" not in html


def test_index_links_every_language(site: Path) -> None:
    index = (site / "index.html").read_text("utf-8")
    assert all(f'href="{lang}.html"' in index for lang in LANGS)


def test_figures_come_from_the_profile(site: Path, ru_site: Path) -> None:
    en = _page(site, "en")
    assert "7 + 7 + 2" in en and "with base 5 that is a 4" in en
    assert "still takes a 4, not a 5" in en
    ru = _page(ru_site, "ru")
    # agnes-ru: six reserve piles, 6 + 6 + 6, a King for empty columns, foundations from the Ace.
    assert "6 + 6 + 6" in ru and "18 карт" in ru and "r1–r6" in ru
    assert "только карту К" in ru and 'id="foundation.return"' in ru
    assert 'id="deal.base"' not in ru and ">x1</text>" not in ru
    assert "7 + 7 + 2" not in ru


def test_section_08_example_is_in_the_guide(site: Path) -> None:
    en = _page(site, "en")
    section = en[en.index('id="tableau.empty"'):en.index('id="reserve.top"')]
    assert "5♥ lies on the heart foundation" in section and "6♥" in section
    assert "4♣ may open it" in section and "an empty column takes a 4, one rank below the base" in section
    assert section.count("<svg") == 3


@pytest.mark.parametrize("profile_id", profile_ids())
def test_examples_hold_for_every_profile(profile_id: str) -> None:
    profile = get_profile(profile_id)
    for example in examples(profile, "en"):
        assert example.rule in profile.rules and example.steps
    assert figures(profile, "en")["stock_deals"].count("+") == len(profile.stock_deals) - 1


def test_a_failed_build_leaves_the_folder_alone(tmp_path: Path) -> None:
    out = tmp_path / "guide"
    out.mkdir()
    (out / "keep.txt").write_text("x")
    from agnes_teach.errors import InputError

    with pytest.raises(InputError):
        build_guide(["en", "xx"], out, get_profile("bernauer"))
    assert [p.name for p in tmp_path.iterdir()] == ["guide"]
    assert [p.name for p in out.iterdir()] == ["keep.txt"]


def test_a_false_example_claim_stops_the_build() -> None:
    from agnes_teach.cards import parse_card
    from agnes_teach.moves import Move
    from agnes_teach.render.examples import ExampleError, _legal, _refused, build_position

    profile = get_profile("bernauer")
    pos = build_position(profile, 5, {"r1": [parse_card("7H"), parse_card("6H")]}, [("t1", 13)])
    with pytest.raises(ExampleError):
        _refused(pos, Move(parse_card("6H"), "f"), "reserve.top", "en")  # legal, not refused
    with pytest.raises(ExampleError):
        _legal(pos, Move(parse_card("7H"), "f"))  # covered
    with pytest.raises(ExampleError):
        build_position(profile, 5, {"r1": [parse_card("7H")]}, [])  # 6H..4H have no place


def test_every_profile_has_a_name_in_every_language() -> None:
    from agnes_teach import i18n
    from agnes_teach.render.guide import profile_name

    for lang in ("en", "ru", "es"):
        for pid in profile_ids():
            assert i18n.text(lang, "profile-name", pid) != pid, (lang, pid)
    english = profile_name(get_profile("agnes-ru"), "en")
    assert not any("\u0400" <= ch <= "\u04ff" for ch in english)
    assert "Агнес" in profile_name(get_profile("agnes-ru"), "ru")


def test_faq_answers_the_questions_players_ask(site: Path) -> None:
    en = _page(site, "en")
    for qid in ("faq-win-rate", "faq-part-of-run", "faq-reserve-refill", "faq-pysolfc", "faq-sorel"):
        assert f'id="{qid}"' in en
    # The win rate comes from data/win_rates.yaml (test_win_rate_faq_* below), beside Morehead's 1 in 3.
    assert "1 game in 3" in en


# Counts no real survey has, so a figure typed into a text or template could not match them.
SYNTHETIC_SURVEYS = """
profiles:
  morehead:
    deals: 1-2000
    won: 1234
    lost: 56
    unknown: 710
    budget_seconds: 1
    results: morehead.jsonl
    command: agnes-teach survey --profile morehead --deals 1-2000 --budget 1 --out morehead.jsonl
    retries:
      - budget_seconds: 7
        command: agnes-teach survey --profile morehead --deals 1-2000 --budget 7 --retry-unknown --out m.jsonl
  sorel:
    deals: 1-300
    won: 41
    lost: 200
    unknown: 59
    budget_seconds: 10
    state_budget: 433
    results: sorel.jsonl
    command: agnes-teach survey --profile sorel --deals 1-300 --budget 10 --states 433 --out sorel.jsonl
"""


def _name(lang: str, profile_id: str) -> str:
    return str(escape(i18n.text(lang, "profile-name", profile_id)))


def _faq_win_rate(html: str) -> str:
    start = html.index('id="faq-win-rate"')
    return html[start:html.index("</details>", start)]


@pytest.mark.parametrize("lang", LANGS)
def test_win_rate_faq_is_computed_from_the_survey_file(monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    from babel.numbers import format_decimal, format_percent

    from agnes_teach import winrates
    from agnes_teach.render.guide import page_html
    from agnes_teach.stats import wilson

    table = winrates.parse_win_rates(SYNTHETIC_SURVEYS)
    monkeypatch.setattr(winrates, "_table", lambda: table)

    def pct(x: float) -> str:
        return format_percent(x, format="#,##0.0%", locale=lang)

    html = _faq_win_rate(page_html(get_profile("morehead"), lang, [lang]))
    # The guide's own profile: its counts, both bounds with their 95% intervals, the decided share.
    for count in (1234, 56, 710):
        assert format_decimal(count, locale=lang) in html
    assert pct(1234 / 2000) in html and pct(1944 / 2000) in html
    assert pct(wilson(1234, 2000)[0]) in html and pct(wilson(1944, 2000)[1]) in html
    assert pct(1234 / 1290) in html
    assert pct(wilson(1234, 1290)[0]) in html and pct(wilson(1234, 1290)[1]) in html
    # Both passes' budgets are named (the retry's 7 s), and the table has every surveyed profile.
    assert html.count("<tr") == 3 and html.count('<tr class="current">') == 1
    current = html[html.index('<tr class="current">'):]
    assert _name(lang, "morehead") in current[:current.index("</tr>")]
    budget_cell = re.sub(r"<[^>]+>", "", current[:current.index("</tr>")].rsplit("<td>", 1)[1])
    assert budget_cell.startswith("1 ") and " 7 " in budget_cell, budget_cell
    sorel_row = html[html.index(_name(lang, "sorel")):]
    sorel_row = sorel_row[:sorel_row.index("</tr>")]
    wanted = ("41", "200", "59", "433", pct(41 / 241), pct(wilson(41, 241)[0]), pct(wilson(100, 300)[1]))
    for figure in wanted:
        assert figure in sorel_row, (figure, sorel_row)
    # Morehead's 1 in 3 for ordinary play, after the table.
    assert html.rindex("</table>") < html.rindex("1949")
    # A profile with no survey says so, and still shows the others.
    other = _faq_win_rate(page_html(get_profile("parlett"), lang, [lang]))
    assert "survey --profile parlett" in other and other.count("<tr") == 3 and 'class="current"' not in other


def test_win_rate_faq_shows_the_shipped_surveys() -> None:
    from importlib import resources

    import yaml
    from babel.numbers import format_decimal

    from agnes_teach.render.guide import page_html

    data = yaml.safe_load(resources.files("agnes_teach").joinpath("data/win_rates.yaml").read_text("utf-8"))
    shipped = data["profiles"]
    assert "bernauer" in shipped
    for lang in LANGS:
        html = _faq_win_rate(page_html(get_profile("bernauer"), lang, [lang]))
        assert html.count("<tr") == 1 + len(shipped)
        for pid, entry in shipped.items():
            row = html[html.index(_name(lang, pid) + "</th>"):]
            row = row[:row.index("</tr>")]
            counts = " / ".join(format_decimal(entry[key], locale=lang) for key in ("won", "lost", "unknown"))
            assert f"<td><span>{counts}</span></td>" in row, (lang, pid, row)


def test_russian_text_uses_russian_rank_letters(site: Path, ru_site: Path) -> None:
    ru = _page(site, "ru")
    captions = re.findall(r"<figcaption>(.*?)</figcaption>", ru, re.S)
    assert captions and not any(re.search(r"[JQKA][♠♥♦♣]", c) for c in captions), captions
    assert "Т♥" in ru and "К♥" in ru  # the Ace after the King
    assert ">Д♥</text>" in ru or "Д♥</text>" in ru  # diagrams print Д for the Queen
    assert "кладут карту на единицу младше" in ru or "на единицу младше" in ru
