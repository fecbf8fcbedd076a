#!/bin/sh
# Rebuilds puzzles/generated/ from scratch.  Every puzzle is a position mined
# from a solved real deal (generate --source deals): the solver and the
# players decide which positions teach (random play judged by fatal
# mistakes, docs/puzzles.md "How criterion 1 is measured"), with budgets in solver
# states and seeded games, so the same deal ranges give the same files on any
# machine.  Each run is spread over easy / medium / hard by measured random
# play (a third each, easy first).
#
# Two chains run side by side; every theme of one chain mines a deal range no
# theme of the other chain mines (tableau.run a range of its own), so no two
# themes can write the same position whatever the timing, and --avoid (every
# puzzle distinct up to symmetry from the files already there) gives the same
# files in any order.  The demo set is removed first and copied again at the
# end (puzzles/build-demo.sh), so it never steers the mining.  Both chains
# run niced; the whole build is about 45 minutes on two shared cores.
#
# The margin (second step, `margin` below): the files in git come from the
# first step run with the generator of that time, whose screen accepted up to
# the checker's 35% bar.  Six easy files recorded near the bar (29-35%)
# measured above it with another seed, so the generator now keeps a margin
# (it accepts at most 30%, players.GENERATOR_RANDOM_MAX) and those six were
# replaced by one easy puzzle each, mined on deals no other run uses:
# deals 4501-6000 (foundation.wrap, tableau.empty, foundation.start) and
# 6001-7500 (foundation.wrap, stock.deal, tableau.wrap), a chain each.  One
# more foundation.start run on deals 7501-9000 ran meanwhile (it found
# foundation-start-d7507-m17, 25%); its file was not used.  Run today from
# scratch (without `margin`), the first step alone keeps at most 30%, so it
# writes a library of the same shape, but not these exact files.
# Run from the repository root:  sh puzzles/build-library.sh
# The margin step also replaces foundation-wrap-d10-m40 (deals 7501-9000).
#            (only the margin step:  sh puzzles/build-library.sh margin)
set -e
BIN=${AGNES_TEACH:-.venv/bin/agnes-teach}
replace() {  # theme file deals: drop a file recorded near the bar, mine one easy puzzle instead
    rm -f "puzzles/generated/$1/$2.yaml"
    nice -n 10 "$BIN" generate --theme "$1" --count 1 --difficulty easy --source deals --deals "$3" \
        --out "puzzles/generated/$1" --avoid puzzles --max-seconds 420 || echo "FAILED: $1"
}
margin() {
    (replace foundation.wrap foundation-wrap-d77-m21 4501-6000
     replace tableau.empty tableau-empty-d10-m28 4501-6000
     replace foundation.start foundation-start-d1506-m29 4501-6000) > puzzles/generated/.margin-a.log 2>&1 &
    a=$!
    (replace foundation.wrap foundation-wrap-d43-m36 6001-7500
     replace stock.deal stock-deal-d1545-m28 6001-7500
     replace tableau.wrap tableau-wrap-d1550-m20 6001-7500) > puzzles/generated/.margin-b.log 2>&1 &
    b=$!
    wait $a
    wait $b
    # foundation-wrap-d10-m40 (29% by the checker's seed) measured 40% and 47%
    # with two other seeds: replaced after the first two chains, on deals no other
    # foundation.wrap run uses.
    replace foundation.wrap foundation-wrap-d10-m40 7501-9000 >> puzzles/generated/.margin-b.log 2>&1
    if grep -q "^FAILED" puzzles/generated/.margin-a.log puzzles/generated/.margin-b.log; then
        cat puzzles/generated/.margin-a.log puzzles/generated/.margin-b.log >&2
        exit 1
    fi
    rm -f puzzles/generated/.margin-a.log puzzles/generated/.margin-b.log
}
if [ "$1" = margin ]; then
    rm -f puzzles/demo/*.yaml
    margin
    sh puzzles/build-demo.sh
    exit 0
fi
rm -rf puzzles/generated && mkdir -p puzzles/generated
rm -f puzzles/demo/*.yaml
mined() {  # theme count deals; a theme that falls short is reported, and the other themes go on
    nice -n 10 "$BIN" generate --theme "$1" --count "$2" --source deals --deals "$3" \
        --out "puzzles/generated/$1" --avoid puzzles --max-seconds 2400 || echo "FAILED: $1"
}
chain_a() {  # deals 1-1500, and 3001-4500 for tableau.run (its lessons are rarer)
    mined foundation.wrap 12 1-1500
    mined tableau.empty 12 1-1500
    mined reserve.top 8 1-1500
    mined tableau.run 8 3001-4500
}
chain_b() {  # deals 1501-3000
    mined tableau.wrap 8 1501-3000
    mined foundation.start 8 1501-3000
    mined stock.last-two 8 1501-3000
    mined stock.deal 12 1501-3000
}
chain_a > puzzles/generated/.chain-a.log 2>&1 &
a=$!
chain_b > puzzles/generated/.chain-b.log 2>&1 &
b=$!
wait $a
wait $b
if grep -q "^FAILED" puzzles/generated/.chain-a.log puzzles/generated/.chain-b.log; then
    cat puzzles/generated/.chain-a.log puzzles/generated/.chain-b.log >&2
    exit 1
fi
rm -f puzzles/generated/.chain-a.log puzzles/generated/.chain-b.log
sh puzzles/build-demo.sh
