#!/bin/sh
# Rebuilds puzzles/generated/ from scratch.  Every puzzle is a position mined
# from a solved real deal (generate --source deals): the solver and the
# players decide which positions teach, with budgets in solver states and
# seeded playouts, so the same deal ranges give the same files on any machine.
# --avoid keeps every puzzle distinct, up to symmetry, from the hand-made and
# demo ones and from the themes mined before it.
# Run from the repository root:  sh puzzles/build-library.sh   (about an hour on one core)
set -e
BIN=${AGNES_TEACH:-.venv/bin/agnes-teach}
rm -rf puzzles/generated && mkdir -p puzzles/generated
mined() {  # theme count deals
    "$BIN" generate --theme "$1" --count "$2" --source deals --deals "$3" \
        --out "puzzles/generated/$1" --avoid puzzles --max-seconds 3600
}
# Required themes: 12 each.
mined tableau.empty 12 1-400
mined foundation.wrap 12 1-400
mined stock.deal 12 1-1000
# Other themes: 8 each.
mined tableau.wrap 8 1-400
mined tableau.run 8 1-400
mined foundation.start 8 1-400
mined reserve.top 8 1-400
mined stock.last-two 8 1-1000
