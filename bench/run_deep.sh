#!/bin/sh
# deep BFS (issue 17): the BFS tests on the GPU, then grid / path / Kronecker with and without
# dg_bfs_deep, and GAP beside them, in one command (bench/NOTES.md, "Issue 17: deep searches")
mkdir -p /etc/OpenCL/vendors build && echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
for b in bench_bfs bench_path; do cc -O2 -march=native -DNDEBUG -I. bench/$b.c -o build/$b -lOpenCL -lm || exit 1; done
cc -std=c99 -O1 -g -I. test/test_bfs.c -o build/test_bfs -lOpenCL -lm || exit 1
(cd .peers/gapbs && make -j16 bfs >/dev/null 2>&1) &
nvidia-smi --query-gpu=name --format=csv,noheader > $OUT/gpu.txt
DYNGRAPH_DEVICE=gpu DG_TESTS=test_bfs:deep,test_bfs:graphs DG_DATA=test/data timeout 120 build/test_bfs > $OUT/test_bfs_gpu.txt 2>&1
tail -1 $OUT/test_bfs_gpu.txt
B="build/bench_bfs --scale 22 --strategies top-down,dir-opt --roots 8 --device gpu"
timeout 80 $B --graphs grid --csv $OUT/deep_grid.csv > $OUT/deep_grid.md 2>&1
timeout 80 $B --graphs grid --no-deep > $OUT/nodeep_grid.md 2>&1
timeout 60 build/bench_path --side 2048 --apart 100 --exits 64 --reps 10 --el /tmp/grid > $OUT/path_deep.md 2>&1
wait
(for i in 1 2; do .peers/gapbs/bfs -f /tmp/grid.el -s -r 2098176 -n 8; done; .peers/gapbs/bfs -g 22 -n 8) > $OUT/gap.txt 2>&1
timeout 120 $B --graphs kron > $OUT/deep_kron.md 2>&1
timeout 120 $B --graphs kron --no-deep > $OUT/nodeep_kron.md 2>&1
grep -c FAIL $OUT/*.md
