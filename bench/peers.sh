#!/bin/sh
# peers.sh - dyngraph's searches and their peers on the same graphs, in one command on the GPU
# machine (issue 17; bench/NOTES.md): GAP's bfs and sssp on the host's cores, Rodinia's OpenCL
# BFS, and with --gunrock Gunrock's prebuilt BFS and SSSP.
#
# The same graph files go to every program:
#   kron   GAP's own Kronecker generator (converter -g S), written as an edge list (kronS.el) and
#          with GAP's weights 1..255 (kronS.wel); bench_bfs / bench_sssp load them undirected
#   grid   the 2048 x 2048 grid of bench_path (--el), weights 1..9 (grid.el, grid.wel)
#   rod    ../shared/peers/rodinia_graph.c's 2M-vertex graph (rod.rod for Rodinia, rod.el)
# Gunrock generates its own Kronecker scale 22 and grid (same models, other instances: its run.sh).
#
# The peers' sources travel with the device call: cp -r ../shared/peers .peers (ignored) and
# carry [".peers"]. Figures go to DIR: one file a program and graph (about 15), and summary.txt,
# also printed (a device call brings 8 files of $OUT back: keep DIR elsewhere and copy those).
#   usage: bench/peers.sh [--scale S (22)] [--gunrock] [DIR (default /tmp/peers)]
#   e.g.   bench/peers.sh /tmp/peers && cp /tmp/peers/summary.txt /tmp/peers/bfs_*.md $OUT
S=22
GUNROCK=0
DIR=
while [ $# -gt 0 ]; do
    case "$1" in
        --scale) S=$2; shift 2 ;;
        --gunrock) GUNROCK=1; shift ;;
        -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
        *) DIR=$1; shift ;;
    esac
done
DIR=${DIR:-/tmp/peers}
P=${PEERS:-.peers}
G=/tmp/peers_graphs
mkdir -p "$DIR" "$G" build || exit 1
[ -d "$P/gapbs" ] && [ -d "$P/rodinia_bfs" ] || { echo "peers.sh: no $P/gapbs or $P/rodinia_bfs (cp -r ../shared/peers $P)"; exit 1; }
if [ -f /usr/lib/libnvidia-opencl.so.1 ] && [ ! -f /etc/OpenCL/vendors/nvidia.icd ] && [ -w /etc ]; then
    mkdir -p /etc/OpenCL/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
fi

echo "== build"
F="-O2 -march=native -DNDEBUG"
for b in bench_bfs bench_sssp bench_path; do
    cc $F -I. bench/$b.c -o build/$b -lOpenCL -lm || exit 1
done
(cd "$P/gapbs" && make -j8 bfs sssp converter >/dev/null 2>&1) || { echo "peers.sh: GAP did not build"; exit 1; }
(cd "$P/rodinia_bfs" && g++ -O3 -std=gnu++14 -fopenmp bfs.cpp timer.cc timing.c -I. -lOpenCL -DTIMING -o bfs.out -w) ||
    { echo "peers.sh: Rodinia's BFS did not build"; exit 1; }
cc -O2 "$P/rodinia_graph.c" -o build/rodinia_graph || exit 1

echo "== graphs"
"$P/gapbs/converter" -g "$S" -e "$G/kron$S.el" > /dev/null || exit 1
"$P/gapbs/converter" -g "$S" -w -e "$G/kron$S.wel" > /dev/null || exit 1
build/bench_path --side 2048 --apart 100 --exits 64 --reps 3 --el "$G/grid" > "$DIR/path_grid.md" 2>&1 || exit 1
build/rodinia_graph 2097152 "$G/rod" || exit 1
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; nproc; } > "$DIR/machine.txt"

echo "== dyngraph"
B="--strategies top-down,dir-opt,dir-opt-csr --roots 8 --no-dynamic --pinned"
build/bench_bfs --file "$G/kron$S.el" $B > "$DIR/bfs_kron.md" 2>&1
build/bench_bfs --file "$G/grid.el" $B > "$DIR/bfs_grid.md" 2>&1
build/bench_bfs --file "$G/rod.el" --strategies mask,top-down,dir-opt,dir-opt-csr --roots 8 --no-dynamic --pinned > "$DIR/bfs_rod.md" 2>&1
build/bench_sssp --file "$G/kron$S.wel" --file-undirected --strategies near-far --roots 8 --no-dynamic > "$DIR/sssp_kron.md" 2>&1
build/bench_sssp --file "$G/grid.wel" --file-undirected --strategies near-far --roots 8 --no-dynamic > "$DIR/sssp_grid.md" 2>&1

echo "== GAP ($(nproc) cores)"
"$P/gapbs/bfs" -f "$G/kron$S.el" -s -n 8 > "$DIR/gap_bfs_kron.txt" 2>&1
"$P/gapbs/bfs" -f "$G/grid.el" -s -n 8 > "$DIR/gap_bfs_grid.txt" 2>&1
"$P/gapbs/bfs" -f "$G/rod.el" -s -n 8 > "$DIR/gap_bfs_rod.txt" 2>&1
"$P/gapbs/sssp" -f "$G/kron$S.wel" -s -n 8 -d 2 > "$DIR/gap_sssp_kron.txt" 2>&1
"$P/gapbs/sssp" -f "$G/grid.wel" -s -n 8 -d 16 > "$DIR/gap_sssp_grid.txt" 2>&1

echo "== Rodinia"
PLAT=${RODINIA_PLATFORM:-1}     # NVIDIA's platform after PoCL's (../shared/peers/README.md)
for i in 1 2 3; do (cd "$P/rodinia_bfs" && ./bfs.out "$G/rod.rod" -p "$PLAT" -d 0); done > "$DIR/rodinia_rod.txt" 2>&1

if [ "$GUNROCK" = 1 ]; then
    echo "== Gunrock"
    P="$P/gunrock" OUT="$DIR/gunrock" bash "$P/gunrock/run.sh" > "$DIR/gunrock.txt" 2>&1
fi

{
    echo "# peers.sh on $(head -1 "$DIR/machine.txt"), $(sed -n 2p "$DIR/machine.txt") host cores; Kronecker scale $S"
    echo "## dyngraph (device ms median, wall ms median; kernel_ms in the notes)"
    grep -h '^| NVIDIA\|^| Portable' "$DIR"/bfs_*.md "$DIR"/sssp_*.md | cut -d'|' -f3,6,9,10
    grep -h "own times" "$DIR"/bfs_*.md | grep -v '^- '
    echo "## GAP (average seconds)"
    for f in "$DIR"/gap_*.txt; do echo "$(basename "$f" .txt): $(grep 'Average Time' "$f")"; done
    echo "## Rodinia OpenCL BFS (kernel ms)"
    grep -h 'Exec' "$DIR/rodinia_rod.txt"
    [ "$GUNROCK" = 1 ] && { echo "## Gunrock"; cat "$DIR/gunrock/summary.txt" 2>/dev/null; }
    echo "## checks"
    grep -c FAIL "$DIR"/bfs_*.md "$DIR"/sssp_*.md
} > "$DIR/summary.txt"
cat "$DIR/summary.txt"
rm -rf "$G"
