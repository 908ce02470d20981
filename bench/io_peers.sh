#!/bin/sh
# io_peers.sh - GAP's readers beside bench_io (bench/README.md, "bench_io"): GAP's Kronecker
# graph of the same scale, written by its converter as an edge list (symmetrised) and as its
# serialized .sg, each read by GAP's bfs once; "Read Time" is the figure to set beside
# bench_io's load times, on the same machine.
#   usage: bench/io_peers.sh [SCALE (20)] [DIR (/tmp)]     GAP: $GAP (default .peers/gapbs)
S=${1:-20}
DIR=${2:-/tmp}
GAP=${GAP:-.peers/gapbs}
(cd "$GAP" && make converter bfs >/dev/null) || { echo "io_peers: cannot build GAP in $GAP"; exit 1; }
"$GAP/converter" -g "$S" -e "$DIR/gap$S.el" > /dev/null || exit 1
"$GAP/converter" -g "$S" -b "$DIR/gap$S.sg" > /dev/null || exit 1
ls -l "$DIR/gap$S.el" "$DIR/gap$S.sg"
for i in 1 2 3; do
    echo "== GAP bfs -f gap$S.el -s"; "$GAP/bfs" -f "$DIR/gap$S.el" -s -n 1 | grep -E "Read Time|Build Time|Graph has"
    echo "== GAP bfs -f gap$S.sg"; "$GAP/bfs" -f "$DIR/gap$S.sg" -n 1 | grep -E "Read Time|Graph has"
done
rm -f "$DIR/gap$S.el" "$DIR/gap$S.sg"
