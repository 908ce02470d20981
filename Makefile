# Makefile - build, test and benchmark dyngraph (GNU make).
#
#   make test      install/check dependencies, then every check; last line "N passed, M failed"
#   make demo      build and run examples/demo.c
#   make bench     build each bench/NAME.c (-O2 -march=native) as build/NAME
#   make kernels   regenerate dyngraph_kernels.cl.h from kernels/*.cl (commit the result)
#   make deps      check the OpenCL headers, ICD loader, PoCL and compilers (as root: install)
#   make clean     remove build outputs
#
# Build outputs go to build/. CC (default cc) builds the tests, the demo and the benchmarks.

LDLIBS       = -lOpenCL -lm
BENCH_CFLAGS = -O2 -march=native -DNDEBUG -I.
BENCH_SRC    = $(sort $(wildcard bench/*.c))
BENCH_BIN    = $(BENCH_SRC:bench/%.c=build/%)

.PHONY: test deps kernels demo bench clean

test: deps
	@CC="$(CC)" sh test/run.sh

deps:
	@CC="$(CC)" sh tools/deps.sh

kernels:
	sh tools/gen_kernels.sh > dyngraph_kernels.cl.h.tmp
	mv dyngraph_kernels.cl.h.tmp dyngraph_kernels.cl.h

demo: deps
	@mkdir -p build
	$(CC) -O2 -I. examples/demo.c -o build/demo $(LDLIBS)
	./build/demo

bench: deps $(BENCH_BIN)
	@$(if $(BENCH_SRC),echo "bench: built $(BENCH_BIN)",echo "bench: no bench/*.c yet, nothing to build")

$(BENCH_BIN): build/%: bench/%.c dyngraph.h dyngraph_kernels.cl.h $(wildcard bench/*.h) | deps
	@mkdir -p build
	$(CC) $(BENCH_CFLAGS) $< -o $@ $(LDLIBS)

clean:
	rm -rf build demo dyngraph_kernels.cl.h.tmp
