#!/bin/sh
# The GPU machine's check of a session's work: the BFS tests (deep searches) and the snapshot
# image tests on the GPU, then snapshot save/load at scale 22 on its host beside GAP's .sg.
mkdir -p /etc/OpenCL/vendors build && echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
for t in test_bfs test_save; do cc -std=c99 -O1 -g -I. test/$t.c -o build/$t -lOpenCL -lm || exit 1; done
cc -O2 -march=native -DNDEBUG -I. bench/bench_io.c -o build/bench_io -lOpenCL -lm || exit 1
nvidia-smi --query-gpu=name --format=csv,noheader > $OUT/gpu.txt
(cd .peers/gapbs && make converter bfs >/dev/null 2>&1; ./converter -g 22 -b /tmp/g22.sg >/dev/null 2>&1) &
DYNGRAPH_DEVICE=gpu DG_TESTS=test_bfs:deep,test_bfs:graphs DG_DATA=test/data timeout 120 build/test_bfs > $OUT/test_bfs_gpu.txt 2>&1
DYNGRAPH_DEVICE=gpu DG_TESTS=test_save:image DG_DATA=test/data timeout 60 build/test_save > $OUT/test_save_gpu.txt 2>&1
tail -n 1 $OUT/test_bfs_gpu.txt $OUT/test_save_gpu.txt
wait
timeout 150 build/bench_io --scale 22 --reps 1 --dir /tmp > $OUT/io_s22_gpuhost.md 2>&1
for i in 1 2 3; do .peers/gapbs/bfs -f /tmp/g22.sg -n 1 | grep "Read Time"; done > $OUT/io_gap_s22_gpuhost.txt 2>&1
grep "^| snapshot" $OUT/io_s22_gpuhost.md; cat $OUT/io_gap_s22_gpuhost.txt
