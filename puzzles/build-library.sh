#!/bin/sh
# Rebuilds puzzles/generated/ from scratch.  Every puzzle is a position mined
# from a solved real deal (generate --source deals): the solver and the
# players decide which positions teach (random play judged by fatal
# mistakes, README "How criterion 1 is measured"), with budgets in solver
# states and seeded games, so the same deal ranges give the same files on any
# machine.  Each run is spread over easy / medium / hard by measured random
# play (a third each, easy first).
#
# Two chains run side by side on disjoint deal ranges (so neither can write a
# position the other writes); within a chain --avoid keeps every puzzle
# distinct, up to symmetry, from the hand-made files and the themes mined
# before it.  Both chains run niced.
# Run from the repository root:  sh puzzles/build-library.sh
set -e
BIN=${AGNES_TEACH:-.venv/bin/agnes-teach}
rm -rf puzzles/generated && mkdir -p puzzles/generated
mined() {  # theme count deals
    nice -n 10 "$BIN" generate --theme "$1" --count "$2" --source deals --deals "$3" \
        --out "puzzles/generated/$1" --avoid puzzles --max-seconds 2400
}
chain_a() {  # deals 1-1500
    mined foundation.wrap 12 1-1500
    mined tableau.empty 12 1-1500
    mined tableau.run 8 1-1500
    mined reserve.top 8 1-1500
}
chain_b() {  # deals 1501-3000
    mined stock.deal 12 1501-3000
    mined tableau.wrap 8 1501-3000
    mined foundation.start 8 1501-3000
    mined stock.last-two 8 1501-3000
}
chain_a > puzzles/generated/.chain-a.log 2>&1 &
a=$!
chain_b > puzzles/generated/.chain-b.log 2>&1 &
b=$!
status=0
wait $a || status=1
wait $b || status=1
if [ $status -ne 0 ]; then
    cat puzzles/generated/.chain-a.log puzzles/generated/.chain-b.log >&2
    exit 1
fi
rm -f puzzles/generated/.chain-a.log puzzles/generated/.chain-b.log
