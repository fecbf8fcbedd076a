#!/bin/sh
# Fills puzzles/small/ (small puzzles, issue 20), the small sets of the other
# games (puzzles/sorel/<rule id>/, puzzles/agnes-ru/<rule id>/: one folder per
# game, one per rule below it), and then rebuilds puzzles/demo/ from
# puzzles/small/.
#
# Each folder is filled by puzzles/build_library.py: layouts composed for the
# theme (generator/compose.py) cut down to at most 24 cards and a 10-move
# answer while every teaching criterion holds (generator/reduce.py; what
# `agnes-teach generate` writes by default), a file written as soon as it is
# found, at most half of the count of one rating, room kept for a rating or a
# second task form the folder lacks. A layout is seeded by its profile, theme
# and number, so two themes never share one; the two chains only split the
# work over two cores. Every budget is in solver states, so the same numbers
# give the same files on any machine (the clock only ends a theme's turn: a
# stopped theme keeps what it found, and running the script again goes on
# from there).
# Run from the repository root:  sh puzzles/build-library.sh [SECONDS per theme]
set -e
PY=${PYTHON:-.venv/bin/python}
LIMIT=${1:-1800}
small() {  # theme count layouts [more flags]
    theme=$1 count=$2 numbers=$3
    shift 3
    nice -n 5 "$PY" puzzles/build_library.py --theme "$theme" --count "$count" --layouts "$numbers" \
        --max-seconds "$LIMIT" "$@" 2>/dev/null || echo "FAILED: $theme $*"
}
chain_a() {
    small tableau.empty 12 1-5000
    small foundation.wrap 12 1-5000
    small reserve.top 8 1-5000
    small tableau.run 8 1-5000
    small foundation.return 12 1-5000 --profile agnes-ru
    small foundation.final 30 1-5000
    small tableau.build 30 1-5000
    # Then to 30 each from fresh numbers (the first pass spent its own).
    small tableau.run 30 500001-510000
    small foundation.wrap 30 500001-510000
    small tableau.empty 30 500001-510000
    small stock.last-two 30 500001-510000
    # The variant games' folders to 12 each (their yield is low: most of these numbers give nothing).
    small tableau.same-colour 12 1-20000 --profile sorel-strict
    small tableau.suit-run 12 1-30000 --profile sorel-strict
    small foundation.return 12 1-9000 --profile agnes-ru
    small foundation.return 12 40001-60000 --profile agnes-ru
    small foundation.return 12 100001-110000 --profile agnes-ru
    small tableau.empty 12 1-20000 --profile agnes-ru
}
chain_b() {
    small stock.deal 12 1-5000
    small tableau.wrap 8 1-5000
    small stock.last-two 8 1-5000
    small foundation.start 8 1-5000
    small foundation.start 2 1-5000 --profile sorel-strict --any-rating
    small tableau.empty 12 1-5000 --profile agnes-ru
    small reserve.no-build 30 1-5000
    small foundation.suit 30 1-5000
    small tableau.wrap 30 500001-510000
    small reserve.top 30 500001-510000
    small foundation.start 30 500001-510000
    small stock.deal 30 500001-510000
    small reserve.no-build 30 500001-510000
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
