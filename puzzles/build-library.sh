#!/bin/sh
# Fills puzzles/small/ (small puzzles, issue 20) and then rebuilds puzzles/demo/ from it.
#
# Each theme's folder is filled by puzzles/build_library.py: critical moments
# of solved deals cut down to at most 24 cards and a 10-move answer while every
# teaching criterion holds (generator/reduce.py; what `agnes-teach generate`
# writes by default), a file written as soon as it is found, at most half of
# the count per rating, the task forms in turn. The two chains mine
# disjoint deal ranges, so no position can be taken by two themes whatever
# the timing; every budget is in solver states, so the same ranges give the
# same files on any machine (the clock only ends a theme's turn: a stopped
# theme keeps what it found, and running the script again goes on from there).
# Run from the repository root:  sh puzzles/build-library.sh [SECONDS per theme]
set -e
PY=${PYTHON:-.venv/bin/python}
LIMIT=${1:-1800}
small() {  # theme count deals
    nice -n 5 "$PY" puzzles/build_library.py --theme "$1" --count "$2" --deals "$3" \
        --max-seconds "$LIMIT" 2>/dev/null || echo "FAILED: $1"
}
chain_a() {  # deals 1-3000
    small tableau.empty 12 1-3000
    small foundation.wrap 12 1-3000
    small reserve.top 8 1-3000
    small tableau.run 8 1-3000
}
chain_b() {  # deals 3001-6000
    small stock.deal 12 3001-6000
    small tableau.wrap 8 3001-6000
    small stock.last-two 8 3001-6000
    small foundation.start 8 3001-6000
}
mkdir -p puzzles/small
chain_a > puzzles/small/.chain-a.log 2>&1 &
a=$!
chain_b > puzzles/small/.chain-b.log 2>&1 &
b=$!
wait $a
wait $b
cat puzzles/small/.chain-a.log puzzles/small/.chain-b.log
rm -f puzzles/small/.chain-a.log puzzles/small/.chain-b.log
sh puzzles/build-demo.sh
