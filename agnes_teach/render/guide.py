"""The offline HTML rules guide: one page per language, one section per rule id of the profile.

Every number the text states (the base example, the rank an empty column
takes, the stock's deals) is computed from the Profile here and passed to the
messages as fields, so a guide built for another variant states that
variant's rules.  The rule statements live in the catalogues under
``msgctxt "rule-text"``, keyed by rule id (with a suffix where a profile
parameter changes the sentence, not just a figure).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from babel.numbers import format_decimal, format_percent
from markupsafe import Markup

from .. import i18n
from ..cards import rank_above, rank_at, rank_below, rank_name
from ..errors import InputError, Problem
from ..outputs import registered
from ..piles import Pile, PileKind
from ..practice import analyse_all
from ..practice_cache import AnalysisCache
from ..profile import Profile, RankCycle
from ..registry import RuleId
from ..registry import rule as registry_rule
from ..registry import rules as registry_rules
from ..scenario import Scenario, load_scenario
from ..winrates import SurveyPass, WinRate, win_rate, win_rates
from .env import environment, read_asset
from .examples import Example, example_base, examples
from .practice import page_name as practice_page
from .practice import practice_links, practice_site
from .svg import deal_ordinal, exposed_deal, profile_name

# The rules reference's worked example (section 08): hand-made and small enough to play, so the
# practice pages keep one playable puzzle whatever --puzzles names (real deals are too large).
WORKED_EXAMPLE = "data/examples/section-08.yaml"

# Each language named in itself, for the language switcher.
ENDONYMS = {"en": "English", "ru": "Русский", "es": "Español"}
SECTION_ORDER = ("deal", "foundation", "tableau", "reserve", "stock", "end")
# Suffixed rule-text ids: a profile parameter that changes the sentence itself.
# Every rule text a parameter's value may pick (``texts:`` in rules.yaml).
VARIANT_KEYS = tuple(key for r in registry_rules().values() for _, choices in r.texts for _, key in choices)


def rule_text_key(profile: Profile, rule_id: str) -> str:
    """The ``rule-text`` msgid that states `rule_id` for `profile`: the registry maps the values of
    the rule's parameters to its texts (``texts:`` in rules.yaml), so text and code read one field."""
    return registry_rule(rule_id).text_key(profile.param)


def _pile_range(piles: Sequence[Pile]) -> str:
    """``r1 r2 ... r7`` -> ``r1–r7``; a short or broken list stays listed."""
    if len(piles) > 2 and all(p.kind is piles[0].kind for p in piles):
        numbers = [p.number for p in piles]
        if numbers == list(range(numbers[0], numbers[0] + len(numbers))):
            return f"{piles[0]}–{piles[-1]}"
    return ", ".join(piles)


def figures(profile: Profile, lang: str) -> dict[str, str]:
    """Every figure the guide's text states, computed from the profile (never typed in)."""
    base = example_base(profile)
    deals = profile.stock_deals
    exposed = [p for deal in deals for p in deal if p.kind is PileKind.EXPOSED]
    reserve_deals = [d for d in deals if all(p.kind is PileKind.RESERVE for p in d)]
    def letter(rank: int) -> str:
        # The rank as printed on cards in this language (Russian В Д К Т); notation keeps J Q K A.
        return i18n.rank_letter(lang, rank_name(rank))

    return {
        "base_example": letter(base),
        "empty_rank": letter(profile.empty_rank(base)),
        "next_rank": letter(rank_above(base)),
        "start_rank": letter(base),
        "end_rank": letter(rank_below(base)),
        "start_rank_word": i18n.text(lang, "rank", rank_name(base)),
        "end_rank_word": i18n.text(lang, "rank", rank_name(rank_below(base))),
        "empty_rank_word": i18n.text(lang, "rank", rank_name(profile.empty_rank(base))),
        "wrap_sequence": ", ".join(letter(rank_at(base, i)) for i in range(13)),
        "columns": str(profile.columns),
        "column_lengths": ", ".join(str(c) for c in profile.column_lengths),
        "tableau_cards": i18n.ntext(lang, "figure", "{n} card", "{n} cards", sum(profile.column_lengths)),
        "reserve_piles": str(profile.reserve_piles),
        "stock_cards": i18n.ntext(lang, "figure", "{n} card", "{n} cards", profile.stock_size),
        "stock_deals": " + ".join(str(len(d)) for d in deals),
        "deal_count": str(len(deals)),
        "deal_targets": "; ".join(_pile_range(d) for d in deals),
        "reserve_deals": str(len(reserve_deals)),
        "last_cards": i18n.ntext(lang, "figure", "{n} card", "{n} cards", len(exposed)),
        "exposed_names": ", ".join(exposed),
        "last_deal_cards": i18n.ntext(lang, "figure", "{n} card", "{n} cards",
                                      len(deals[-1]) if deals else 0),
        "last_deal_targets": _pile_range(deals[-1]) if deals else "",
        # The deal that lays the exposed cells ("third"): a move of its own, never automatic.
        "last_deal_ordinal": deal_ordinal(exposed_deal(profile) or len(deals), lang),
    }


@dataclass(frozen=True)
class RuleSection:
    id: str
    number: str
    title: str
    text: str
    examples: tuple[Example, ...]


@dataclass(frozen=True)
class Group:
    id: str
    number: int
    title: str
    rules: tuple[RuleSection, ...]


@dataclass(frozen=True)
class FigureTable:
    """A small table of figures in an answer; each cell is its lines; `current` is the guide's own row."""

    caption: str
    header: tuple[str, ...]
    rows: tuple[tuple[tuple[str, ...], ...], ...]
    current: int | None = None


@dataclass(frozen=True)
class Question:
    id: str
    question: str
    answer: str
    table: FigureTable | None = None
    after: str = ""  # a paragraph after the table


def rule_title(profile: Profile, rule_id: str, lang: str) -> str:
    """The rule's heading: its variant's own title where the catalogue has one (the layout without a
    reserve), else the rule id's."""
    key = rule_text_key(profile, rule_id)
    return i18n.text(lang, "rule-title", key if i18n.has(lang, "rule-title", key) else rule_id)


def rule_text(profile: Profile, rule_id: str, lang: str) -> str:
    return i18n.text(lang, "rule-text", rule_text_key(profile, rule_id), **figures(profile, lang))


def groups(profile: Profile, lang: str) -> list[Group]:
    """The profile's rules, grouped by registry section in play order, numbered."""
    worked = examples(profile, lang)
    by_section: dict[str, list[str]] = {}
    for rule_id in profile.rules:
        by_section.setdefault(registry_rule(rule_id).section, []).append(rule_id)
    out = []
    sections = [s for s in SECTION_ORDER if s in by_section]
    sections += [s for s in by_section if s not in SECTION_ORDER]
    for number, section in enumerate(sections, start=1):
        rules = tuple(
            RuleSection(
                id=rule_id,
                number=f"{number}.{i}",
                title=rule_title(profile, rule_id, lang),
                text=rule_text(profile, rule_id, lang),
                examples=tuple(e for e in worked if e.rule == rule_id),
            )
            for i, rule_id in enumerate(by_section[section], start=1)
        )
        out.append(Group(section, number, i18n.text(lang, "section", section), rules))
    placed = {e.rule for g in out for r in g.rules for e in r.examples}
    lost = [e.rule for e in worked if e.rule not in placed]
    if lost:
        raise RuntimeError(f"worked examples for rules the profile does not list: {lost}")
    return out


def wrap_answer(profile: Profile, lang: str, f: dict[str, str]) -> str:
    """Does an Ace follow a King: on the foundations, then in the columns."""
    t = i18n.text
    answer = (
        t(lang, "faq", "Yes. Ranks go round in a circle, so with base {base_example} a foundation is built "
          "{wrap_sequence}.", **f)
        if profile.base_dealt
        else t(lang, "faq", "Not in this variant: every foundation starts with the {start_rank_word} "
               "({start_rank}) of its suit and ends with the {end_rank_word} ({end_rank}), and nothing "
               "goes on it after that.", **f)
    )
    if profile.rank_cycle == RankCycle.FROM_BASE:
        return answer + " " + rule_text(profile, RuleId.TABLEAU_WRAP, lang)
    return answer + " " + (
        t(lang, "faq", "The circle holds in the columns too: a black King may go on a red Ace, and a red "
          "King on a black Ace.", **f)
        if profile.tableau_wrap
        else t(lang, "faq", "In the columns a King may not be placed on an Ace.", **f)
    )


def empty_column_answer(profile: Profile, lang: str, f: dict[str, str]) -> str:
    """What may fill an empty column."""
    t = i18n.text
    if profile.fill_rank(example_base(profile)) is None:  # not a rank: the rule's own text says it
        return rule_text(profile, RuleId.TABLEAU_EMPTY, lang)
    return (
        t(lang, "faq", "Only a card one rank below the base, or a valid run led by one: with base "
          "{base_example}, a {empty_rank}. The foundations' progress does not change this: when the hearts "
          "have grown to {next_rank}, an empty column still takes a {empty_rank}, not a {base_example}.", **f)
        if profile.empty_column_rank is None
        else t(lang, "faq", "Only a {empty_rank_word} ({empty_rank}), or a valid run led by one.", **f)
    )


def last_cards_answer(profile: Profile, lang: str, f: dict[str, str]) -> str:
    """What happens to the last cards of the stock."""
    t = i18n.text
    if not profile.exposed_cells:
        return t(lang, "faq", "In this variant there are no separate last cards: all {stock_cards} of "
                 "the stock are dealt onto the reserve ({stock_deals}).", **f)
    if profile.exposed_to_foundation:
        return t(lang, "faq", "The last {last_cards} of the stock are not laid out by themselves: they "
                 "need a deal of their own, the {last_deal_ordinal} deal (written deal), after "
                 "{reserve_deals} deals onto the reserve. It lays them face up apart from the reserve, as "
                 "{exposed_names}. Both are free at once, to a foundation or a column, and nothing may be "
                 "placed on them.", **f)
    return t(lang, "faq", "The last {last_cards} of the stock are not laid out by themselves: they "
             "need a deal of their own, the {last_deal_ordinal} deal (written deal), after "
             "{reserve_deals} deals onto the reserve. It lays them face up apart from the reserve, as "
             "{exposed_names}. Both are free at once, but only onto a column, and nothing may be "
             "placed on them.", **f)


def part_of_run_answer(profile: Profile, lang: str, f: dict[str, str]) -> str:
    """Whether part of a run may move."""
    t = i18n.text
    if profile.whole_runs_only:
        return t(lang, "faq", "Not in this variant: between columns a run moves only whole, led by "
                 "its first card. Its top card may still go to a foundation on its own.", **f)
    return t(lang, "faq", "Yes. Any card of a valid run may lead the move and takes the cards on "
             "it along, as long as the column it goes to takes that card. The cards below it stay "
             "where they are.", **f)


def questions_left_out(profile: Profile) -> set[str]:
    """Questions about piles or programs the profile does not have (Agnes Sorel has no reserve, and
    PySolFC's game numbers are Agnes Bernauer's)."""
    reserve = profile.reserve_piles > 0
    skip = set() if reserve else {"faq-reserve-refill", "faq-pysolfc", "faq-covered", "faq-when-to-deal",
                                  "faq-last-two"}
    if profile.game == "Agnes Sorel":
        skip.add("faq-sorel")
    return skip


def faq(profile: Profile, lang: str) -> list[Question]:
    """The questions people ask, answered for this profile."""
    t = i18n.text
    f = figures(profile, lang)

    def q(qid: str, question: str, answer: str, table: FigureTable | None = None,
          after: str = "") -> Question:
        return Question(qid, t(lang, "faq", question, **f), answer, table, after)

    skip = questions_left_out(profile)
    return [question for question in [
        q("faq-win-rate", "How often can it be won?", win_rate_answer(profile, lang),
          win_rate_table(profile, lang), ordinary_play(lang)),
        q("faq-part-of-run", "Can I move part of a run?", part_of_run_answer(profile, lang, f)),
        q("faq-reserve-refill", "Does an empty reserve pile fill again?",
          t(lang, "faq", "Only through a deal. The stock is dealt as {stock_deals}, onto {deal_targets}, and "
            "a deal puts a card on each of those piles whether it is empty or not. You may never put a card "
            "on a reserve pile yourself, so an empty one is not a free cell, and after the last deal onto "
            "the reserve it stays empty.", **f)),
        q("faq-pysolfc", "Why does my PySolFC game look different?",
          t(lang, "faq", "Game numbers are not shared between programs. PySolFC shuffles in its own way, "
            "deals the base card 36th, after the columns and the reserve, and its last, short deal goes onto "
            "r1 and r2 (the profile reserve-last-deal). So game 123 there is not deal 123 here; agnes-teach "
            "deal --pysolfc 123 lays out PySolFC's game for these tools.", **f)),
        q("faq-covered", "Can I play a reserve card that is covered?",
          t(lang, "faq", "No. Only the top card of each reserve pile is in play. A covered card becomes free "
            "again once every card lying on it has left. A deal onto the reserve covers its tops again, so "
            "free the reserve cards you need before you deal.", **f)),
        q("faq-ace-after-king", "Does an Ace follow a King?", wrap_answer(profile, lang, f)),
        q("faq-sorel", "Is Agnes Sorel the same game as Agnes Bernauer?",
          t(lang, "faq", "No: it is a different patience with a similar name. Agnes Sorel has no reserve; "
            "its columns are built down in the same colour, a run moves only whole and only within one suit, "
            "and the stock is dealt onto the columns themselves. Do not mix its rules with these.", **f)),
        q("faq-empty-column", "What may fill an empty column?", empty_column_answer(profile, lang, f)),
        q("faq-when-to-deal", "When should I deal?",
          t(lang, "faq", "Whenever you choose: a deal is never forced, and it is allowed while the stock "
            "has cards. The stock holds {stock_cards}, dealt as {stock_deals}. A deal covers the reserve "
            "tops it lands on, so first play what you need from them.", **f)),
        q("faq-last-two", "What happens to the last two cards?", last_cards_answer(profile, lang, f)),
    ] if question.id not in skip]


def _percent(value: float, lang: str) -> str:
    return format_percent(value, format="#,##0.0%", locale=lang)


def _number(value: float, lang: str) -> str:
    return format_decimal(value, locale=lang)


def _deal_range(deals: str, lang: str) -> str:
    """``1-2000,3001-3100`` as the language writes it: 1–2,000, 3,001–3,100 (grouped digits, en dash)."""
    parts = []
    for part in deals.split(","):
        ends = part.strip().split("-")
        parts.append("–".join(_number(int(end), lang) if end.isdigit() else end for end in ends))
    return ", ".join(parts)


def _span(low: float, high: float, lang: str) -> str:
    """Two shares as a range, ``72.3%–98.1%`` (each as the language writes percentages; the dash is every
    language's)."""
    return f"{_percent(low, lang)}–{_percent(high, lang)}"


def _pass_budget(survey_pass: SurveyPass, lang: str) -> str:
    seconds = _number(survey_pass.budget_seconds, lang)
    if survey_pass.state_budget is None:
        return i18n.text(lang, "faq", "{seconds} s per deal", seconds=seconds)
    states = survey_pass.state_budget
    return i18n.ntext(lang, "faq",
                      "up to {states} searched state per deal, or {seconds} s if that came first",
                      "up to {states} searched states per deal, or {seconds} s if that came first",
                      states, states=_number(states, lang), seconds=seconds)


def _short_budget(survey_pass: SurveyPass, lang: str) -> str:
    """A pass's budget in a table cell: ``1 s`` or ``200,000 states``."""
    if survey_pass.state_budget is None:
        return i18n.text(lang, "faq", "{seconds} s", seconds=_number(survey_pass.budget_seconds, lang))
    states = survey_pass.state_budget
    return i18n.ntext(lang, "faq", "{states} state", "{states} states", states, states=_number(states, lang))


def survey_budget(rate: WinRate, lang: str) -> str:
    """The budget of each pass of a survey: the first over every deal, then each --retry-unknown pass."""
    text = _pass_budget(rate.passes[0], lang)
    for retry in rate.passes[1:]:
        text = i18n.text(lang, "faq", "{budget}; the deals still undecided again with {retry}", budget=text,
                         retry=_pass_budget(retry, lang))
    return text


def ordinary_play(lang: str) -> str:
    return i18n.text(lang, "faq", "Without knowing the stock a player wins far less often: Morehead's rule "
                     "book of 1949 put ordinary play of Agnes Bernauer at about 1 game in 3.")


def win_rate_answer(profile: Profile, lang: str) -> str:
    """How often the profile's deals can be won: from the survey in data/win_rates.yaml, with intervals."""
    t = i18n.text
    rate = win_rate(profile.id)
    if rate is None:
        return t(lang, "faq", "This variant has not been surveyed yet (agnes-teach survey --profile {id} "
                 "does it).", id=profile.id)
    low, high = rate.bounds()
    ilo, ihi = rate.interval()
    share, dlo, dhi = rate.decided_rate()
    return t(lang, "faq", "With the order of the stock known, the solver tried deals {deals} ({budget}): "
             "{won} were won, {lost} proved lost and {unknown} left undecided. So between {low} and {high} "
             "of these deals can be won (every undecided deal lost, or every one won; 95% interval {ilo} to "
             "{ihi}). Of the decided deals, {share} were won ({dlo} to {dhi}), a figure that leans high "
             "because a win is quicker to prove than a loss.",
             deals=_deal_range(rate.deals, lang), budget=survey_budget(rate, lang),
             won=_number(rate.won, lang), lost=_number(rate.lost, lang), unknown=_number(rate.unknown, lang),
             low=_percent(low, lang), high=_percent(high, lang), ilo=_percent(ilo, lang),
             ihi=_percent(ihi, lang), share=_percent(share, lang), dlo=_percent(dlo, lang),
             dhi=_percent(dhi, lang))


def win_rate_table(profile: Profile, lang: str) -> FigureTable | None:
    """Every surveyed profile side by side (data/win_rates.yaml), the guide's own row marked."""
    t = i18n.text
    rates = win_rates()
    if not rates:
        return None
    rows = []
    for rate in rates:
        share, dlo, dhi = rate.decided_rate()
        low, high = rate.bounds()
        ilo, ihi = rate.interval()
        name = t(lang, "profile-name", rate.profile)
        rows.append((
            (rate.profile if name == rate.profile else name,),
            (_deal_range(rate.deals, lang),),
            (" / ".join(_number(n, lang) for n in (rate.won, rate.lost, rate.unknown)),),
            (_percent(share, lang), f"({_span(dlo, dhi, lang)})"),
            (_span(low, high, lang), f"({_span(ilo, ihi, lang)})"),
            tuple(_short_budget(p, lang) if i == 0 else
                  i18n.text(lang, "faq", "then {budget}", budget=_short_budget(p, lang))
                  for i, p in enumerate(rate.passes)),
        ))
    current = next((i for i, rate in enumerate(rates) if rate.profile == profile.id), None)
    return FigureTable(
        caption=t(lang, "faq", "Every surveyed variant, with the order of the stock known. In brackets: the "
                  "95% intervals. The winnable range counts every undecided deal lost, then every one won."),
        header=(t(lang, "faq", "Variant"), t(lang, "faq", "Deals"), t(lang, "faq", "Won / lost / undecided"),
                t(lang, "faq", "Won among decided"),
                t(lang, "faq", "Winnable of all deals"),
                t(lang, "faq", "Budget per deal, then for the undecided")),
        rows=tuple(rows), current=current)


def notation(profile: Profile, lang: str) -> str:
    """How piles and moves are written, with this profile's pile names."""
    columns = _pile_range([Pile.column(i + 1) for i in range(profile.columns)])
    reserve = _pile_range([Pile.reserve(i + 1) for i in range(profile.reserve_piles)])
    exposed = ", ".join(Pile.exposed(i + 1) for i in range(profile.exposed_cells))
    if exposed:
        names = i18n.text(lang, "guide", "Piles are named {columns} (columns), {reserve} (reserve piles) "
                          "and {exposed} (the exposed last cards).",
                          columns=columns, reserve=reserve, exposed=exposed)
    elif not profile.reserve_piles:
        names = i18n.text(lang, "guide", "Piles are named {columns} (columns); there is no reserve.",
                          columns=columns)
    else:
        names = i18n.text(lang, "guide", "Piles are named {columns} (columns) and {reserve} (reserve piles).",
                          columns=columns, reserve=reserve)
    return names + " " + i18n.text(lang, "guide", "A move is written CARD>PILE: 6♥>f puts 6♥ on its "
                                   "foundation, 4♣>t2 moves 4♣ with the cards on it onto column t2, and deal "
                                   "deals from the stock.")


def guide_page(lang: str) -> str:
    """The guide page's file name in `lang`."""
    return f"{lang}.html"


def switcher(langs: Sequence[str], page: Callable[[str], str]) -> list[tuple[str, str, str]]:
    """The language switcher: each language, named in itself, with its `page`."""
    return [(code, ENDONYMS.get(code, code), page(code)) for code in langs]


def page_html(profile: Profile, lang: str, langs: Sequence[str], practice: bool = False) -> str:
    template = environment(lang).get_template("guide.html.j2")
    return template.render(
        practice_href=practice_page(lang) if practice else "",
        profile=profile,
        profile_name=profile_name(profile, lang),
        heading=i18n.text(lang, "guide", "{game}: rules and questions",
                          game=i18n.text(lang, "game", profile.game)),
        notation=notation(profile, lang),
        groups=groups(profile, lang),
        questions=faq(profile, lang),
        switcher=switcher(langs, guide_page),
        css=Markup(read_asset("guide.css")),
        step_labels=Markup(json.dumps({
            "back": i18n.text(lang, "guide", "Previous step"),
            "next": i18n.text(lang, "guide", "Next step"),
            "status": i18n.text(lang, "guide", "Step {n} of {count}"),
        }, ensure_ascii=False).replace("</", "<\\/")),
        script=Markup(read_asset("guide-steps.js")),
    )


def index_html(langs: Sequence[str], first: str, practice: bool = False) -> str:
    template = environment(first).get_template("guide-index.html.j2")
    return template.render(
        switcher=switcher(langs, guide_page),
        practice=practice_links(langs) if practice else [],
        css=Markup(read_asset("guide.css")),
    )


def practice_set(puzzles: Sequence[Scenario]) -> list[Scenario]:
    """The practice pages' puzzles: `puzzles` and, beside them, the worked example (once: not when
    `puzzles` hold it already, as the same id or the same position; not when none of them is of its
    game)."""
    if not puzzles:
        return []
    example = load_scenario(Path(str(resources.files("agnes_teach"))) / WORKED_EXAMPLE)
    if any(s.id == example.id or s.position == example.position for s in puzzles):
        return list(puzzles)
    # The worked example is a position of one game: beside another game's puzzles it would teach
    # that game's reader the wrong rules.
    if not any(s.position.profile.id == example.position.profile.id for s in puzzles):
        return list(puzzles)
    return [*puzzles, example]


def build_guide(langs: Sequence[str], out: Path, profile: Profile,
                progress: Callable[[str], None] | None = None,
                puzzles: Sequence[Scenario] = (), note: Callable[[str], None] | None = None,
                workers: int | None = None, cache: AnalysisCache | None = None) -> list[Path]:
    """Write ``<lang>.html`` for each language and ``index.html`` into `out`; return the files.

    With `puzzles`, also the practice pages (``practice-<lang>.html``, and a page per rule when the
    puzzles do not fit on one): those puzzles, playable in the browser, analysed in `workers`
    processes (default: one per core) before any page is drawn; `progress` hears each puzzle
    analysed (``practice 12/76 tableau.empty/ID``) and each language; `note` hears once about
    each puzzle a practice page leaves out, and why.  `cache` keeps each puzzle's analysis for the
    next build (:mod:`agnes_teach.practice_cache`).
    The pages are built in a temporary folder first, so a failure leaves `out` as it was.
    """
    said: dict[str, str] = {}  # each note once, by puzzle, not once per language or page

    def heard(puzzle: str, text: str) -> None:
        said.setdefault(puzzle, text)

    for lang in langs:
        i18n.check_lang(lang)
    puzzles = practice_set(puzzles)
    if out.exists() and not out.is_dir():
        raise InputError(Problem("is a file; --out needs a folder", str(out)))
    if puzzles:
        total = len(puzzles)

        def analysed(done: int, sc: Scenario) -> None:
            if progress:
                progress(f"practice {done}/{total} {sc.themes[0] if sc.themes else '-'}/{sc.id}")

        analyse_all(puzzles, workers, analysed, cache)
    pages: dict[str, str] = {}
    for lang in langs:
        if progress:
            progress(lang)
        pages[guide_page(lang)] = page_html(profile, lang, langs, practice=bool(puzzles))
        if puzzles:
            pages.update(practice_site(puzzles, lang, lambda name: switcher(langs, name), guide_page(lang),
                                       note=heard, cache=cache))
    pages["index.html"] = index_html(langs, langs[0], practice=bool(puzzles))
    if note is not None:
        for text in said.values():
            note(text)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        with registered(lambda: Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))) as staging:
            try:
                for name, html in pages.items():
                    (staging / name).write_text(html, encoding="utf-8")
                out.mkdir(exist_ok=True)
                for name in pages:
                    os.replace(staging / name, out / name)
            finally:
                shutil.rmtree(staging, ignore_errors=True)
    except OSError as exc:
        raise InputError(Problem(f"cannot write the guide: {exc.strerror or exc}", str(out))) from None
    return [out / name for name in pages]
