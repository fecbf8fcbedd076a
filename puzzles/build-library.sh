#!/bin/sh
# Rebuilds puzzles/generated/ from scratch, byte for byte (the generator is
# seeded; --avoid keeps every puzzle distinct, up to symmetry, from the
# hand-made ones and from the themes generated before it, so the order of the
# lines matters).  Run from the repository root:  sh puzzles/build-library.sh
set -e
BIN=${AGNES_TEACH:-.venv/bin/agnes-teach}
rm -rf puzzles/generated && mkdir -p puzzles/generated
gen() {  # theme count seed [extra options]
    theme=$1; count=$2; seed=$3; shift 3
    "$BIN" generate --theme "$theme" --count "$count" --seed "$seed" \
        --out "puzzles/generated/$theme" --avoid puzzles --max-seconds 3600 "$@"
}
# Required themes: 12 each.
gen foundation.wrap 12 101
gen tableau.empty 12 102
gen tableau.empty 1 31 --task win --difficulty medium  # most come out easy: see README.md
gen stock.deal 12 103
# Other themes: 8 each.
gen tableau.wrap 8 104
gen tableau.run 8 105
gen stock.last-two 8 106
gen reserve.top 8 107
gen foundation.start 8 108
