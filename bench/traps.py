"""The library's traps measured against issue 28's "exactly one tempting move loses".

For every puzzle of the folders given (default: the library's small, demo and
Sorel puzzles), the trap shape of its start (``tagger.teaching.trap_shape``):
how many distinct first moves lose, and whether the theme's believer picks a
losing one (``players.believer_choices``). Per theme: trap puzzles, those
with exactly one losing first move (lone), those where that move is also the
believer's pick, and the other puzzles whose start would make such a trap.
``--list`` prints one line per trap puzzle as well.

    .venv/bin/python bench/traps.py [FOLDER ...] [--list]
"""

from __future__ import annotations

import sys
from collections import Counter, defaultdict

from agnes_teach.registry import Task
from agnes_teach.scenario import load_scenario, scenario_files
from agnes_teach.tagger.teaching import trap_shape
from agnes_teach.themes import find_theme

FOLDERS = ("puzzles/small", "puzzles/demo", "puzzles/sorel")
COLUMNS = ("traps", "lone", "lone_believer", "other_lone_believer")


def main(args: list[str]) -> int:
    listing = "--list" in args
    folders = [a for a in args if a != "--list"] or list(FOLDERS)
    by: dict[str, Counter[str]] = defaultdict(Counter)
    for file in scenario_files(folders):
        sc = load_scenario(file)
        rule = sc.themes[0] if sc.themes else "(none)"
        theme = find_theme(rule, sc.position.profile.id)
        shape = trap_shape(sc.position, theme.believer if theme is not None else None)
        count = by[rule]
        if sc.task == Task.TRAP:
            count["traps"] += 1
            count["lone"] += shape.lone
            count["lone_believer"] += shape.lone_believer_trap
            if listing:
                losing = " ".join(map(str, shape.losing))
                print(f"{sc.id}: {len(shape.losing)} losing first moves ({losing}); "
                      f"the believer picks {' '.join(map(str, shape.picks)) or 'nothing'}")
        else:
            count["other_lone_believer"] += shape.lone_believer_trap
    print("| theme | " + " | ".join(COLUMNS) + " |")
    print("|" + "---|" * (len(COLUMNS) + 1))
    total: Counter[str] = Counter()
    for rule in sorted(by):
        total.update(by[rule])
        print(f"| {rule} | " + " | ".join(str(by[rule][c]) for c in COLUMNS) + " |")
    print("| all | " + " | ".join(str(total[c]) for c in COLUMNS) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
