"""The answer key's wrong moves, counted per theme, and the crux check over the puzzle library.

For every puzzle of the folders given (default: the library's small, demo and
Sorel puzzles), the English key's wrong-move lines as the sheet builds them
(``tagger.refutation.explain_scenario``, no PDF): how many there are, how many
cite a rule (the rule that refuses the move, or the theme's rule the
misconception missed), how many of the misconception's own moves are
explained in its rule's terms; the key's invariants (a move listed twice, a
move the answer plays later, a move explained by no fact); and, for each
puzzle small enough to analyse (``judged``), whether its theme's rule is the crux
(``tagger.crux.crux_problem``) and whether every move the believer picks loses at
a spot where the rule decides (``every_pick_loses``, ``tagger.crux.picks_lose``: the
strictest reading of "the move the misconception picks loses").

    .venv/bin/python bench/wrong_moves.py [FOLDER ...]
"""

from __future__ import annotations

import sys
from collections import Counter, defaultdict
from pathlib import Path

from agnes_teach.checker import solution_line
from agnes_teach.engine import apply_unchecked
from agnes_teach.registry import Task
from agnes_teach.render.sheet import refuted_text
from agnes_teach.scenario import load_scenario, scenario_files
from agnes_teach.tagger.answer import MAX_CARDS, analyse
from agnes_teach.tagger.crux import crux_problem, picks_lose
from agnes_teach.tagger.reasons import ReasonKind
from agnes_teach.tagger.refutation import Temptation, explain_scenario, key_analysis
from agnes_teach.tagger.teaching import cards_not_home
from agnes_teach.themes import find_theme

FOLDERS = ("puzzles/small", "puzzles/demo", "puzzles/sorel", "puzzles/agnes-ru")
COLUMNS = ("puzzles", "lines", "rule", "believer", "believer_rule", "twice", "later", "unexplained", "judged",
           "every_pick_loses")


def main(folders: list[str]) -> int:
    by: dict[str, Counter[str]] = defaultdict(Counter)
    failing: list[tuple[str, str]] = []
    for file in scenario_files(folders or list(FOLDERS)):
        sc = load_scenario(file)
        theme = sc.themes[0] if sc.themes else "(none)"
        line = solution_line(sc)
        entries = explain_scenario(sc, line)
        count = by[theme]
        count["puzzles"] += 1
        count["lines"] += len(entries)
        count["rule"] += sum(e.explanation.rule is not None for e in entries)
        believer = [e for e in entries if e.temptation is Temptation.BELIEF]
        count["believer"] += len(believer)
        count["believer_rule"] += sum(e.explanation.rule == theme for e in believer)
        moves = Counter(m for e in entries for m in e.moves)
        count["twice"] += sum(n - 1 for n in moves.values())
        found = key_analysis(sc, line)
        if found is not None:
            # a move the answer makes later, listed without saying so
            count["later"] += sum(m in found.moves[i + 1:] and e.explanation.later is None
                                  for e in entries for m in e.moves for i in e.indices)
        count["unexplained"] += sum(e.reason.kind is ReasonKind.UNEXPLAINED for e in entries)
        for e in entries:
            refuted_text(e, "en")
        taught = find_theme(theme, sc.position.profile.id)
        misconception = taught.believer if taught is not None else None
        if misconception is not None and found is not None and cards_not_home(sc.position) <= MAX_CARDS:
            # judged on the whole answer, as check --teach judges it
            whole = found if sc.task == Task.WIN else analyse(sc.position, line, misconception)
            problem = crux_problem(sc.position, whole, misconception)
            if problem is not None:
                failing.append((Path(file).stem if not sc.id else sc.id, problem))
            # The strictest reading of "the move the misconception picks loses": at a decision point
            # where the rule decides (and, for a forbid belief, the answer plays the rule's move), every
            # move the believer picks among loses.
            positions = [sc.position]
            for move in whole.moves:
                positions.append(apply_unchecked(positions[-1], move))
            count["judged"] += 1
            count["every_pick_loses"] += any(
                picks_lose(positions[d.index], d, misconception) for d in whole.decisions
                if d.rule_decides and (d.uses_rule or misconception.kind == "force"))
    print("| theme | " + " | ".join(COLUMNS) + " |")
    print("|" + "---|" * (len(COLUMNS) + 1))
    total: Counter[str] = Counter()
    for theme in sorted(by):
        total.update(by[theme])
        print(f"| {theme} | " + " | ".join(str(by[theme][c]) for c in COLUMNS) + " |")
    print("| all | " + " | ".join(str(total[c]) for c in COLUMNS) + " |")
    print()
    print(f"the rule is not the crux of {len(failing)} puzzles:")
    for ident, problem in failing:
        print(f"  {ident}: {problem}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
