# Makefile - build, test and benchmark dyngraph (GNU make).
#
#   make test      install/check dependencies, then every check; last line "N passed, M failed"
#   make demo      build and run examples/demo.c (host only), then examples/bfs.c,
#                  examples/sssp.c and examples/reach.c (device)
#   make examples  build each examples/NAME.c as build/NAME
#   make bench     build each bench/NAME.c (-O2 -march=native) as build/NAME
#   make kernels   regenerate dyngraph_kernels.cl.h from kernels/*.cl (commit the result)
#   make deps      check the OpenCL headers, ICD loader, PoCL and compilers (as root: install)
#   make clean     remove build outputs
#
# Build outputs go to build/. CC (default cc) builds the tests, the examples and the benchmarks.

LDLIBS       = -lOpenCL -lm
BENCH_CFLAGS = -O2 -march=native -DNDEBUG -I.
BENCH_SRC    = $(sort $(wildcard bench/*.c))
BENCH_BIN    = $(BENCH_SRC:bench/%.c=build/%)
EX_CFLAGS    = -O2 -Wall -Wextra -I.
EX_SRC       = $(sort $(wildcard examples/*.c))
EX_BIN       = $(EX_SRC:examples/%.c=build/%)

.PHONY: test deps kernels demo examples bench clean

test: deps
	@CC="$(CC)" sh test/run.sh

deps:
	@CC="$(CC)" sh tools/deps.sh

kernels:
	sh tools/gen_kernels.sh > dyngraph_kernels.cl.h.tmp
	mv dyngraph_kernels.cl.h.tmp dyngraph_kernels.cl.h

demo: deps build/demo build/bfs build/sssp build/reach
	./build/demo
	./build/bfs
	./build/sssp
	./build/reach

examples: deps $(EX_BIN)
	@echo "examples: built $(EX_BIN)"

$(EX_BIN): build/%: examples/%.c dyngraph.h dyngraph_kernels.cl.h | deps
	@mkdir -p build
	$(CC) $(EX_CFLAGS) $< -o $@ $(if $(filter build/demo,$@),-lm,$(LDLIBS))

bench: deps $(BENCH_BIN)
	@$(if $(BENCH_SRC),echo "bench: built $(BENCH_BIN)",echo "bench: no bench/*.c yet, nothing to build")

$(BENCH_BIN): build/%: bench/%.c dyngraph.h dyngraph_kernels.cl.h $(wildcard bench/*.h) | deps
	@mkdir -p build
	$(CC) $(BENCH_CFLAGS) $< -o $@ $(LDLIBS)

clean:
	rm -rf build demo bfs components sssp reach dyngraph_kernels.cl.h.tmp
