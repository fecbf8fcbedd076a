"""Benchmark: do the puzzles teach?  Per theme, measured by players, not by labels.

Run:
  .venv/bin/python bench/teach.py --library puzzles [--playouts 500 --seed 20261201]
  .venv/bin/python bench/teach.py --fresh 6 --fresh-seed 777 [--max-seconds 300]
  .venv/bin/python bench/teach.py --fresh 3 --fresh-layouts 7001-8000 --playouts 100
  .venv/bin/python bench/teach.py --fresh 4 --fresh-deals 5001-5400 --playouts 200
  .venv/bin/python bench/teach.py --library puzzles/small --playouts 0 --fatal 40
  .venv/bin/python bench/teach.py --library puzzles/small --playouts 0 --keys
  .venv/bin/python bench/teach.py --library puzzles/small --playouts 0 --belief
  .venv/bin/python bench/teach.py --library puzzles --playouts 0   # sizes and answer lengths only

With ``--fresh-layouts RANGE`` the fresh batch is what ``generate`` makes by
default: layouts composed from those numbers (``generate --seed S`` takes
S*1000+1 to S*1000+1000), cut down.  With ``--fresh-deals RANGE`` it is cut
down from the critical moments of those deals (``--fresh-source deals``: mined
whole games) instead; with neither, built from ``--fresh-seed``.

For the scenarios of a folder (``--library``), and/or a fresh batch generated
per theme from a seed (``--fresh N --fresh-seed S``), prints per theme:
the size of the start position (cards not home: tableau, reserve, exposed and
stock; median and max), the answer's length (the solution's moves before the
moves home that end it, where the worksheet cuts its key; median and max), how
many puzzles meet issue 20's size bars (at most 24 cards, at most 10 moves) --
these are read off the files, so ``--playouts 0`` prints them alone in a second --
and, with playouts, random-play and greedy home-first win rates by fatal-mistake games (a game
is lost only once the solver proves it lost: criterion 1's measure, with
this run's seed, not the checker's; ``--playouts`` games each), the
misconception player's capped win rate, the share of puzzles lost when the
theme's permission is removed, mean decision points on the solution line
(counted up to 8), the share meeting criteria 1-2, random-play win rate per
difficulty, and for a fresh batch the generation rate (verified puzzles per
minute, one process).  ``--json FILE`` writes every puzzle's measures.

``--fatal N`` (with ``--library``) prints random play alone, N games per
file (``players.fatal_mistake_rate``), the quick table of the earlier
library.  ``--keys`` (with ``--library``) counts how the answer key
explains each tempting move (criterion 6).  ``--belief`` (with
``--library``) decides criterion 2 alone per file: ``lost_under`` (lost,
not lost or undecided, and how long it took) and the misconception
player's games with the checker's seed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from statistics import mean, median

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agnes_teach.engine import resolve  # noqa: E402
from agnes_teach.generator import generate  # noqa: E402
from agnes_teach.generator.core import Puzzle  # noqa: E402
from agnes_teach.moves import Move  # noqa: E402
from agnes_teach.position import Position  # noqa: E402
from agnes_teach.profile import get_profile  # noqa: E402
from agnes_teach.registry import Difficulty  # noqa: E402
from agnes_teach.scenario import Scenario, load_scenario, scenario_files  # noqa: E402
from agnes_teach.tagger.answer import MAX_ANSWER, MAX_CARDS, analyse  # noqa: E402
from agnes_teach.tagger.teaching import (  # noqa: E402
    Measures,
    cards_not_home,
    measure,
    teaching_problems,
)
from agnes_teach.themes import find_theme, theme_ids  # noqa: E402


def _line(sc_pos, texts) -> list[Move]:  # type: ignore[no-untyped-def]
    from agnes_teach.engine import apply_unchecked

    pos, out = sc_pos, []
    for text in texts or []:
        move = resolve(pos, text)
        if not isinstance(move, Move):
            break
        out.append(move)
        pos = apply_unchecked(pos, move)
    return out


DECISIONS_COUNTED = 8  # decision points are counted up to this many (a full 80-move line takes minutes)
MAX_CARDS_NOT_HOME = MAX_CARDS  # issue 20's size bars: a puzzle a pupil solves on paper in five minutes


@dataclass
class Row:
    """One puzzle's measures: its size always, the players' measures only when playouts are run."""

    theme: str
    id: str
    difficulty: str | None
    task: str | None
    measures: Measures | None  # None: --playouts 0, sizes only
    refused: int
    cards: int  # cards not home at the start
    answer: int  # moves the pupil writes (``answer.answer_cut``)
    decisions: int | None = None  # the answer's decision points (None: not analysed, the answer is long)
    only_moves: bool | None = None
    rule_decides: bool | None = None
    minimal: bool | None = None  # as the file records it (measured.minimal)

    def to_json(self) -> dict[str, object]:
        players = self.measures.to_json() if self.measures is not None else {}
        return {"theme": self.theme, "id": self.id, "difficulty": self.difficulty,
                "cards_not_home": self.cards, "answer": self.answer, "answer_decisions": self.decisions,
                "only_moves": self.only_moves, "rule_decides": self.rule_decides, "minimal": self.minimal,
                **players}


ANALYSED_UP_TO = 20  # answers longer than this are not analysed move by move (minutes for a 50-move one)


def _taught(sc: Scenario, rule: str) -> bool:
    """Does a theme teach `rule` for the puzzle's profile?"""
    return find_theme(rule, sc.position.profile.id) is not None


def _sizes(pos: Position, line: list[Move], theme: str | None) -> dict[str, object]:
    """Cards not home, the answer's length and, for an answer of at most ``ANALYSED_UP_TO`` moves,
    its decision points, whether every move is the only one and whether the rule decides in it."""
    taught = find_theme(theme, pos.profile.id)
    answer = analyse(pos, line, taught.believer if taught is not None else None) if len(line) else None
    out: dict[str, object] = {"cards": cards_not_home(pos), "answer": len(answer.moves) if answer else 0}
    if answer is not None and len(answer.moves) <= ANALYSED_UP_TO:
        out.update(decisions=len(answer.decisions), only_moves=answer.only_moves,
                   rule_decides=answer.rule_decides)
    return out


def library_rows(folder: str, playouts: int, seed: int) -> list[Row]:
    rows: list[Row] = []
    for f in scenario_files([folder]):
        sc = load_scenario(f)
        themes = [t for t in sc.themes if _taught(sc, t)] or ["(other)"]
        line = _line(sc.position, sc.solution)
        refused = len(sc.expect.get("illegal", {}))
        theme = themes[0] if _taught(sc, themes[0]) else None
        m = measure(sc.position, theme, line, playouts=playouts, seed=seed,
                    decisions_needed=DECISIONS_COUNTED) if playouts else None
        minimal = sc.measured.get("minimal")
        sizes = _sizes(sc.position, line, theme)
        rows.append(Row(themes[0], sc.id, sc.difficulty, sc.task, m, refused, **sizes,  # type: ignore[arg-type]
                        minimal=bool(minimal) if minimal is not None else None))
        if m is not None:
            print(f"  {sc.id}: random {m.random:.2f} misc {m.misconception}", file=sys.stderr, flush=True)
    return rows


def _measured(theme: str, puzzles: list[Puzzle], ids: list[str], playouts: int, seed: int) -> list[Row]:
    """The players' measures of a fresh batch, one row per puzzle."""
    rows: list[Row] = []
    for p, ident in zip(puzzles, ids, strict=True):
        m = measure(p.position, theme, p.solution, playouts=playouts, seed=seed,
                    decisions_needed=DECISIONS_COUNTED) if playouts else None
        refused = 1 if p.distractor.rule is not None else 0
        sizes = _sizes(p.position, p.solution, theme)
        rows.append(Row(theme, ident, p.difficulty, p.task, m, refused, **sizes,  # type: ignore[arg-type]
                        minimal=p.minimal))
    return rows


def fresh_rows(count: int, fresh_seed: int, playouts: int, seed: int, max_seconds: float,
               themes: list[str]) -> tuple[list[Row], dict[str, float]]:
    rows: list[Row] = []
    rates: dict[str, float] = {}
    profile = get_profile("bernauer")
    for theme in themes:
        start = time.perf_counter()
        puzzles = generate(theme, count, fresh_seed, profile, max_seconds=max_seconds)
        spent = time.perf_counter() - start
        rates[theme] = 60 * len(puzzles) / spent if spent else 0.0
        rows += _measured(theme, puzzles, [f"{theme}-{p.seed}" for p in puzzles], playouts, seed)
        print(f"  {theme}: {len(puzzles)} in {spent:.0f} s", file=sys.stderr, flush=True)
    return rows, rates


def _timed_batches(themes: list[str], make: Callable[[str], list[Puzzle]], playouts: int,
                   seed: int) -> tuple[list[Row], dict[str, float]]:
    """Each theme's fresh batch (`make(theme)`), measured, and its rate in puzzles per minute."""
    rows: list[Row] = []
    rates: dict[str, float] = {}
    for theme in themes:
        start = time.perf_counter()
        puzzles = make(theme)
        spent = time.perf_counter() - start
        rates[theme] = 60 * len(puzzles) / spent if spent else 0.0
        rows += _measured(theme, puzzles, [p.source.text() for p in puzzles], playouts, seed)
        print(f"  {theme}: {len(puzzles)} in {spent:.0f} s", file=sys.stderr, flush=True)
    return rows, rates


def small_rows(count: int, deals: str, playouts: int, seed: int, max_seconds: float,
               themes: list[str], composed: bool = False) -> tuple[list[Row], dict[str, float]]:
    """A fresh batch as ``generate`` makes it: the layouts composed from the numbers `deals`
    (`composed`, the default of ``generate``) or the critical moments of those deals, reduced."""
    from agnes_teach.generator.pipeline import Search, find
    from agnes_teach.generator.quota import TASK_ROTATION, small_quota
    from agnes_teach.survey import parse_deal_ranges

    def make(theme: str) -> list[Puzzle]:
        search = Search(theme, count, tasks=TASK_ROTATION, wanted=small_quota(count, None))
        return find(search, parse_deal_ranges(deals), get_profile("bernauer"), max_seconds=max_seconds,
                    composed=composed)

    return _timed_batches(themes, make, playouts, seed)


def mined_rows(count: int, deals: str, playouts: int, seed: int, max_seconds: float,
               themes: list[str]) -> tuple[list[Row], dict[str, float]]:
    from agnes_teach.generator.mining import mine
    from agnes_teach.generator.quota import band_picker
    from agnes_teach.survey import parse_deal_ranges

    def make(theme: str) -> list[Puzzle]:
        accept, rating_open = band_picker(count, None)  # spread over the ratings, as generate does
        found = mine([theme], parse_deal_ranges(deals), get_profile("bernauer"), want={theme: count},
                     max_seconds=max_seconds, accept=accept, rating_open=rating_open)
        return [f.puzzle for f in found]

    return _timed_batches(themes, make, playouts, seed)


def fatal_table(folder: str, playouts: int, seed: int) -> str:
    """Per theme: how often uniform random play makes a fatal mistake (no cap that matters)."""
    from agnes_teach.tagger.players import fatal_mistake_rate, random_policy

    by: dict[str, list[float]] = defaultdict(list)
    for f in scenario_files([folder]):
        sc = load_scenario(f)
        theme = next((t for t in sc.themes if _taught(sc, t)), "(other)")
        survives = 1 - fatal_mistake_rate(sc.position, random_policy, playouts=playouts, seed=seed)
        by[theme].append(survives)
        print(f"  {sc.id}: random survives {survives:.2f}", file=sys.stderr, flush=True)
    head = ["theme", "n", "random wins (no fatal mistake)", "files at most 35%"]
    out = [f"### {folder}: random play to a fatal mistake ({playouts} playouts per file)", "",
           "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    everything = [x for xs in by.values() for x in xs]
    for theme in sorted(by):
        xs = by[theme]
        out.append(f"| {theme} | {len(xs)} | {mean(xs):.0%} | {sum(x <= 0.35 for x in xs)}/{len(xs)} |")
    out.append(f"| all | {len(everything)} | {mean(everything):.0%} | "
               f"{sum(x <= 0.35 for x in everything)}/{len(everything)} |")
    return "\n".join(out)


def belief_table(folder: str) -> str:
    """Criterion 2 alone, per theme: is each file lost for the believer (``lost_under``, timed),
    and does the misconception player win none of the checker's capped games?"""
    from agnes_teach.tagger.players import (
        PLAYOUT_SEED,
        PLAYOUTS,
        lost_under,
        misconception_policy,
        win_rate,
    )

    by: dict[str, list[tuple[bool | None, float, float]]] = defaultdict(list)
    for f in scenario_files([folder]):
        sc = load_scenario(f)
        taught = next((t for t in (find_theme(r, sc.position.profile.id) for r in sc.themes) if t), None)
        if taught is None:
            continue
        theme = taught.id
        start = time.perf_counter()
        lost = lost_under(sc.position, taught.believer)
        took = time.perf_counter() - start
        rate = win_rate(sc.position, misconception_policy(taught.believer), PLAYOUTS, PLAYOUT_SEED)
        by[theme].append((lost, rate, took))
        print(f"  {sc.id}: lost {lost}, misconception wins {rate:.2f}, {took:.2f} s", file=sys.stderr,
              flush=True)
    head = ["theme", "n", "lost / not lost / undecided", "misconception wins none", "meets 2",
            "lost_under median", "max"]
    out = [f"### {folder}: lost under the misconception (criterion 2)", "",
           "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]

    def cells(rs: list[tuple[bool | None, float, float]]) -> str:
        verdicts = [sum(1 for lost, _, _ in rs if lost is v) for v in (True, False, None)]
        meets = sum(1 for lost, rate, _ in rs if lost is True and rate == 0)
        seconds = [t for _, _, t in rs]
        return (f"{len(rs)} | {' / '.join(map(str, verdicts))} | {sum(1 for _, r, _ in rs if r == 0)} | "
                f"{meets}/{len(rs)} | {median(seconds):.2f} s | {max(seconds):.1f} s")

    for theme in sorted(by):
        out.append(f"| {theme} | {cells(by[theme])} |")
    out.append(f"| all | {cells([r for rs in by.values() for r in rs])} |")
    return "\n".join(out)


def key_table(folder: str) -> str:
    """Criterion 6: how the answer key explains the wrong moves, per theme and reason kind.

    Counts the key's entries (wrong moves grouped by reason, ``tagger.refutation.refute``) and,
    apart, the first entry (the most tempting move), as the sheet makes them."""
    from agnes_teach.checker import solution_line
    from agnes_teach.tagger.refutation import explain_scenario

    by: dict[str, dict[str, int]] = defaultdict(lambda: dict.fromkeys(_kind_names(), 0))
    first: dict[str, int] = dict.fromkeys(_kind_names(), 0)
    for f in scenario_files([folder]):
        sc = load_scenario(f)
        theme = next((t for t in sc.themes if _taught(sc, t)), "(other)")
        entries = explain_scenario(sc, solution_line(sc))
        for entry in entries:
            by[theme][_kind_name(entry.reason)] += 1
        if entries:
            first[_kind_name(entries[0].reason)] += 1
    kinds = [k for k in _kind_names() if any(by[t].get(k) for t in by) or first.get(k)]
    head = ["theme", *kinds]
    out = [f"### {folder}: how the key explains the wrong moves (entries, grouped by reason)", "",
           "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    total = dict.fromkeys(kinds, 0)
    for theme in sorted(by):
        out.append(f"| {theme} | " + " | ".join(str(by[theme].get(k, 0)) for k in kinds) + " |")
        for k in kinds:
            total[k] += by[theme].get(k, 0)
    out.append("| all | " + " | ".join(str(total[k]) for k in kinds) + " |")
    out.append("| first entry | " + " | ".join(str(first.get(k, 0)) for k in kinds) + " |")
    return "\n".join(out)


def _kind_names() -> list[str]:
    from agnes_teach.tagger.refutation import ReasonKind

    names = [str(k) for k in ReasonKind if k is not ReasonKind.OBSERVED]
    at = names.index(str(ReasonKind.UNEXPLAINED))
    return names[:at] + ["observed: no-landing", "observed: buried (next)", "observed: buried",
                         "observed: last-empty", "observed: last-host"] + names[at:]


def _kind_name(reason) -> str:  # type: ignore[no-untyped-def]
    seen = reason.observation
    if seen is None:
        return str(reason.kind)
    return "observed: " + ("buried (next)" if seen.kind == "buried" and seen.next else seen.kind)


def _size_cells(rs: list[Row]) -> list[str]:
    """Cards not home and answer length (median, max), how many meet issue 20's size bars, the
    answer's decision points (mean), the shares with only moves, the rule deciding, and minimal."""
    cards = [r.cards for r in rs]
    answers = [r.answer for r in rs]
    small = sum(r.cards <= MAX_CARDS_NOT_HOME and r.answer <= MAX_ANSWER for r in rs)
    analysed = [r for r in rs if r.decisions is not None]

    def share(flag: str) -> str:
        return f"{sum(bool(getattr(r, flag)) for r in analysed)}/{len(analysed)}" if analysed else "-"

    decisions = f"{mean(r.decisions or 0 for r in analysed):.1f}" if analysed else "-"
    return [f"{median(cards):g}", str(max(cards)), f"{median(answers):g}", str(max(answers)),
            f"{small}/{len(rs)}", decisions, share("rule_decides"), share("only_moves"),
            f"{sum(r.minimal is True for r in rs)}/{len(rs)}"]


SIZE_HEAD = ["cards not home (median)", "(max)", "answer (median)", "(max)",
             f"<= {MAX_CARDS_NOT_HOME} cards and <= {MAX_ANSWER} moves", "answer decisions",
             "rule decides", "only moves", "minimal"]


def _player_cells(rs: list[Row], per_theme: bool) -> list[str]:
    """The players' columns of a group of rows (all measured)."""
    ms = [r.measures for r in rs if r.measures is not None]
    ok = sum(not teaching_problems(m, r.task, r.difficulty, r.refused)
             for r in rs if (m := r.measures) is not None)
    cells = [f"{mean(m.random for m in ms):.0%}", f"{mean(m.greedy or 0.0 for m in ms):.0%}"]
    if per_theme:
        misc = [m.misconception for m in ms if m.misconception is not None]
        lost = [m.lost_without for m in ms if m.misconception is not None]
        cells += [f"{mean(misc):.0%}" if misc else "-",
                  f"{sum(1 for x in lost if x) / len(lost):.0%}" if lost else "-"]
    else:
        cells += ["", ""]
    cells += [f"{mean(m.decisions for m in ms):.1f}", f"{ok}/{len(rs)}"]
    if per_theme:
        per = []
        for d in Difficulty:
            vals = [m.random for r in rs if r.difficulty == d and (m := r.measures) is not None]
            per.append(f"{mean(vals):.0%}" if vals else "-")
        cells.append(" / ".join(per))
    else:
        cells.append("")
    return cells


def table(title: str, rows: list[Row], rates: dict[str, float] | None) -> str:
    """Per theme and for all: the sizes, and the players' measures when they were run."""
    by: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        by[row.theme].append(row)
    played = any(r.measures is not None for r in rows)
    head = ["theme", "n", *SIZE_HEAD]
    if played:
        head += ["random", "greedy", "misconception", "lost w/o rule", "decisions", "meets 1-2",
                 "random easy/med/hard"]
    if rates is not None:
        head.append("puzzles/min")
    out = [f"### {title}", "", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for theme in sorted(by):
        rs = by[theme]
        cells = [theme, str(len(rs)), *_size_cells(rs)]
        if played:
            cells += _player_cells(rs, per_theme=True)
        if rates is not None:
            cells.append(f"{rates.get(theme, 0):.1f}")
        out.append("| " + " | ".join(cells) + " |")
    if not rows:  # a fresh batch that found nothing within its time
        out.append("| all | 0 |" + " |" * (len(head) - 2))
        return "\n".join(out)
    cells = ["all", str(len(rows)), *_size_cells(rows)]
    if played:
        cells += _player_cells(rows, per_theme=False)
    if rates is not None:
        cells.append("")
    out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--library", help="a folder of scenarios to measure (e.g. puzzles)")
    parser.add_argument("--fresh", type=int, default=0, help="also generate this many puzzles per theme")
    parser.add_argument("--fresh-seed", type=int, default=777)
    parser.add_argument("--fresh-deals", help="the fresh batch's deals (e.g. 5001-5400): small puzzles "
                        "reduced from them (generate's default), or whole mined ones (--fresh-source deals)")
    parser.add_argument("--fresh-layouts", help="the fresh batch's composed layouts (e.g. 7001-8000): "
                        "what generate --seed 7 composes")
    parser.add_argument("--fresh-source", choices=("small", "deals"), default="small")
    parser.add_argument("--themes", default=",".join(theme_ids()))
    parser.add_argument("--max-seconds", type=float, default=300.0, help="per theme, for --fresh")
    parser.add_argument("--playouts", type=int, default=100,
                        help="fatal-mistake games per puzzle, random and greedy play "
                             "(0: skip the players; the sizes are still printed)")
    parser.add_argument("--seed", type=int, default=20261201, help="playout seed (not the checker's)")
    parser.add_argument("--fatal", type=int, default=0,
                        help="with --library: this many more random playouts per file, to a fatal mistake")
    parser.add_argument("--belief", action="store_true",
                        help="with --library: criterion 2 alone, lost_under per file and its time")
    parser.add_argument("--keys", action="store_true",
                        help="with --library: how the answer key explains each tempting move (criterion 6)")
    parser.add_argument("--json", help="write every puzzle's measures to this file")
    args = parser.parse_args()
    from agnes_teach.errors import InputError
    from agnes_teach.survey import parse_deal_ranges

    for option, value in (("--fresh-layouts", args.fresh_layouts), ("--fresh-deals", args.fresh_deals)):
        try:
            if value:
                parse_deal_ranges(value)
        except InputError as exc:
            parser.error(str(exc).replace("--deals:", f"{option}:", 1))
    dump: list[dict[str, object]] = []
    if args.library:  # with --playouts 0 the sizes alone: read off the files, no playouts
        rows = library_rows(args.library, args.playouts, args.seed)
        print(table(f"library {args.library}", rows, None))
        dump += [r.to_json() for r in rows]
    if args.library and args.keys:
        print(key_table(args.library))
    if args.library and args.belief:
        print(belief_table(args.library))
    if args.library and args.fatal:
        print(fatal_table(args.library, args.fatal, args.seed))
    if args.fresh:
        themes = [t for t in args.themes.split(",") if t]
        if args.fresh_layouts:
            rows, rates = small_rows(args.fresh, args.fresh_layouts, args.playouts, args.seed,
                                     args.max_seconds, themes, composed=True)
            title = f"fresh batch of small puzzles from layouts {args.fresh_layouts}"
        elif args.fresh_deals and args.fresh_source == "small":
            rows, rates = small_rows(args.fresh, args.fresh_deals, args.playouts, args.seed, args.max_seconds,
                                     themes)
            title = f"fresh batch of small puzzles from deals {args.fresh_deals}"
        elif args.fresh_deals:
            rows, rates = mined_rows(args.fresh, args.fresh_deals, args.playouts, args.seed, args.max_seconds,
                                     themes)
            title = f"fresh batch mined from deals {args.fresh_deals}"
        else:
            rows, rates = fresh_rows(args.fresh, args.fresh_seed, args.playouts, args.seed, args.max_seconds,
                                     themes)
            title = f"fresh batch, seed {args.fresh_seed}"
        print(table(title, rows, rates))
        dump += [r.to_json() for r in rows]
    if args.json:
        Path(args.json).write_text(json.dumps(dump, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
