#!/bin/sh
# Rebuilds puzzles/demo/ from puzzles/small/: the first four themes of the list
# below that have small puzzles, and for each the easy puzzle random play wins
# least often (as the file records it; the first in file-name order among
# equals), copied with the id "demo-<its id>" (the demo command and the Quick
# start print these four).  A puzzle listed in puzzles/not-the-crux.txt (its rule is not
# the crux; awaiting replacement) is never chosen.
# Run from the repository root after build-library.sh:  sh puzzles/build-demo.sh
set -e
PY=${PYTHON:-.venv/bin/python}
"$PY" - <<'PYEOF'
from pathlib import Path

import yaml

themes = [("01-empty-column", "tableau.empty"), ("02-ace-after-king", "foundation.wrap"),
          ("03-deal-or-not", "stock.deal"), ("04-run-moves", "tableau.run"),
          ("05-king-on-ace", "tableau.wrap"), ("06-first-card", "foundation.start"),
          ("07-top-card-only", "reserve.top"), ("08-last-two", "stock.last-two")]
demo = Path("puzzles/demo")
demo.mkdir(exist_ok=True)
for old in demo.glob("*.yaml"):
    old.unlink()
awaiting = {line for line in Path("puzzles/not-the-crux.txt").read_text("utf-8").splitlines()
            if line and not line.startswith("#")}
chosen = 0
for name, theme in themes:
    files = [f for f in sorted(Path("puzzles/small", theme).glob("*.yaml"))
             if yaml.safe_load(f.read_text("utf-8"))["id"] not in awaiting]
    if not files or chosen == 4:
        continue
    chosen += 1
    data = {f: yaml.safe_load(f.read_text("utf-8")) for f in files}
    easy = [f for f in files if data[f]["difficulty"] == "easy"] or files
    source = min(easy, key=lambda f: (data[f]["measured"]["random_win_percent"], f.name))
    text = source.read_text("utf-8")
    first, rest = text.split("\n", 1)
    assert first.startswith("id: "), source
    head = (f"# The demo set: a copy of {source.as_posix()} (the demo command and the\n"
            "# Quick start print these four).  Rebuilt by puzzles/build-demo.sh.\n")
    (demo / f"{name}.yaml").write_text(head + f"id: demo-{first[4:]}\n" + rest, encoding="utf-8")
    print(f"{name}: {source.as_posix()}")
PYEOF
