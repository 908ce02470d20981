#!/bin/sh
# run.sh - dyngraph's test runner: `make test` calls it (after `make deps`), from any directory.
#
# Counts checks, each passed or failed:
#   1 check    dyngraph_kernels.cl.h is what tools/gen_kernels.sh makes of kernels/*.cl now;
#   1 check    tools/check_kernels.sh where clang is found: every program through clang's OpenCL
#              front end, warnings as errors, and 64-bit positions (DG_POS64) never narrowed;
#   6 checks   test/compile/c99.c with gcc and clang (-std=c99), test/compile/cxx.cc with g++
#              and clang++ (-std=c++11), all -Wall -Wextra -Werror -pedantic, and c99.c twice
#              more, with -DDYNGRAPH_STATIC and with -DDYNGRAPH_TRACE_UPDATE (the update's
#              phase and kernel trace); each is compiled and linked, not run;
#   2 checks   the README's example (its first C block) with gcc -std=c99 and g++ -std=c++11;
#   3 checks   test/compile/no_opencl.c (DYNGRAPH_NO_OPENCL) with gcc, clang and g++, without
#              the OpenCL headers or -lOpenCL, built and run;
#   2E+3 checks every examples/*.c with gcc -std=c99 and g++ -std=c++11 (strict), and the three
#              that check their own answer (components, pagerank, crowd) run;
#   N checks   every test/test_*.c is built with sanitizers ($TEST_CFLAGS, -Og) and run from the
#              repository root with DG_DATA=test/data; the last line of its stdout,
#              "<name>: N passed, M failed" (test/tt.h's TT_SUMMARY), gives its counts. A test
#              that fails to build, or ends without that line (crash, timeout), counts as
#              1 failed; so does one that exits non-zero while reporting 0 failures (for
#              instance a leak found by LeakSanitizer at exit). The fast host tests
#              ($CLANG_TESTS) are then built and run once more with clang and the same flags
#              but -O0 (clang's UBSan checks more), reported as NAME.clang (test_load's
#              datasets case runs in the first pass only);
#   7 checks   a fuzzing smoke where clang has libFuzzer: the six loaders and the mutation
#              sequences, a few seconds each from test/fuzz/corpus (see below).
# On 2 cores the test programs' builds, their runs and the other checks overlap (below); the
# other checks' report is printed after the test programs'. The last line printed is
# "N passed, M failed" (the totals); the exit status is 1 if M > 0.
#
# Environment: CC (default cc) builds the tests; DYNGRAPH_CL_OPTIONS (default -cl-opt-disable;
# set it empty to test optimised kernels); DG_TEST_TIMEOUT (seconds per test program,
# default 1200); DG_TESTS, which test programs and which of their cases to run (below).
#
# DG_TESTS: entries separated by spaces or commas, each a program or program:case:
#   DG_TESTS="test_load test_bfs:graphs test_bfs:datasets" make test
# runs all of test_load and the cases graphs and datasets of test_bfs. Empty (the default): every
# program, every case. A program is built and run if DG_TESTS is empty or one of its entries
# names it (bare or with a case); the program reads DG_TESTS itself (test/tt.h, TT_RUN) and runs
# only the cases named, or all of them for a bare entry. It prints "-- CASE" as each case
# starts; a case name it does not have is a failure (the message lists its cases; each
# test/test_*.c names its cases in its header comment). An entry that names no test/test_*.c
# counts as 1 failed; the entry "fuzz" selects the fuzzing smoke. The compile checks above run
# whatever DG_TESTS says.
# Flag lists ($STRICT, $LIBS, ...) are split into words on purpose:
# shellcheck disable=SC2086
set -u
cd "$(dirname "$0")/.." || exit 1

CC=${CC:-cc}
BUILD=build/test
# Optimisation (the job's, below): -Og for the test programs, -O0 for the clang pass. On the
# 2-core machine a build is 23 s at -O1, 14 s at -Og, 10 s at -O0 with gcc; 27 s at -O1 and
# 5 s at -O0 with clang; a host-heavy run (test_random) 28 s at -O1, 32 s at -Og, 62 s at -O0.
# The clang pass's programs are small or run briefly. Debug information is line tables only
# (-g1: the sanitizers' reports keep file:line; a build took 10-13 s instead of 17-18 s with -g).
TEST_CFLAGS="-std=c99 -g1 -fsanitize=address,undefined -fno-omit-frame-pointer \
-fno-sanitize-recover=all -Wall -Wextra -I."
STRICT="-Wall -Wextra -Werror -pedantic"
LIBS="-lOpenCL -lm"
TIMEOUT=${DG_TEST_TIMEOUT:-1200}

DG_DATA=test/data
DG_TESTS=${DG_TESTS:-}
export DG_TESTS
# Kernels built without optimisation: on a fresh machine PoCL compiles every kernel of every
# program (page size and directedness are compiled in), and its optimiser is most of the run
# time of test_bfs and test_device (about 3x faster cold). The benchmarks run optimised.
DYNGRAPH_CL_OPTIONS=${DYNGRAPH_CL_OPTIONS--cl-opt-disable}
export DYNGRAPH_CL_OPTIONS
# PoCL and its LLVM keep allocations until exit: test/lsan.supp keeps them out of leak reports.
# Options already in the environment come last, so they win.
LSAN_OPTIONS="suppressions=$(pwd)/test/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
UBSAN_OPTIONS="print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
export DG_DATA LSAN_OPTIONS UBSAN_OPTIONS

passed=0
failed=0
pass() { passed=$((passed + 1)); echo "PASS  $1"; }
fail() { failed=$((failed + 1)); echo "FAIL  $1"; }
indent() { sed 's/^/      /' "$@"; }

rm -rf "$BUILD"
mkdir -p "$BUILD"

# ---- the test programs: their builder starts at once, the checks below beside it, and the
# runner as soon as the first program is built.
# the entries of DG_TESTS, one per line (spaces and commas split them, no glob expansion)
entries() { printf '%s\n' "$DG_TESTS" | awk -F'[ ,\t]+' '{ for (i = 1; i <= NF; i++) if ($i != "") print $i }'; }
selected() {                    # selected NAME: DG_TESTS is empty or names NAME or NAME:case
    [ -z "$DG_TESTS" ] || entries | grep -qx -e "$1" -e "$1:.*"
}
entries | while IFS= read -r entry; do
    [ "$entry" = fuzz ] && continue
    [ -f "test/${entry%%:*}.c" ] && case ${entry%%:*} in test_*) continue ;; esac
    echo "FAIL  DG_TESTS: '$entry' names no test program (test/test_*.c)"
done > "$BUILD/unknown.log"
if [ -s "$BUILD/unknown.log" ]; then
    cat "$BUILD/unknown.log"
    failed=$((failed + $(wc -l < "$BUILD/unknown.log")))
fi
# (--foreground: the program stays in this shell's process group, so Ctrl-C stops it too)
run_limited=""
command -v timeout >/dev/null 2>&1 && run_limited="timeout --foreground $TIMEOUT"
# build_one COMPILER NAME LABEL OPT: builds test/NAME.c with COMPILER, OPT and $TEST_CFLAGS as
# $BUILD/LABEL; the compiler's exit status goes to $BUILD/LABEL.build.rc, written once the
# build is over. A builder in the background (below) builds every program in turn while the
# runner runs them as they become ready: the builds (one header of 13k lines each time, with
# sanitizers) take about two thirds as long as the runs, and on 2 cores each keeps one busy.
build_one() {
    $1 $4 $TEST_CFLAGS "test/$2.c" -o "$BUILD/$3" $LIBS > "$BUILD/$3.build.log" 2>&1
    echo $? > "$BUILD/$3.build.rc.tmp" && mv "$BUILD/$3.build.rc.tmp" "$BUILD/$3.build.rc"
}
# run_one COMPILER NAME LABEL OPT [CASES]: runs $BUILD/LABEL (with DG_TESTS=CASES where given,
# and TMPDIR=$BUILD/LABEL.tmp: NAME and NAME.clang may run at once) once the builder has built
# it (or builds it itself where the builder is gone) and writes its counts "N M" to
# $BUILD/LABEL.counts (LABEL is NAME, or NAME.clang for the clang pass). Two runners may run
# jobs at once (below), so a job's report (its output, its PASS or FAIL line) goes to
# $BUILD/LABEL.report and is printed whole when the job is over.
job_result() {                  # job_result LABEL N M LINE
    echo "$2 $3" > "$BUILD/$1.counts.tmp" && mv "$BUILD/$1.counts.tmp" "$BUILD/$1.counts"
    echo "$4" >> "$BUILD/$1.report"
}
show_report() {                 # one report at a time on stdout (a lock left by a killed
    tries=0                     # runner is taken over after a minute)
    until mkdir "$BUILD/print.lock" 2>/dev/null || [ "$tries" -ge 60 ]; do
        tries=$((tries + 1))
        sleep 1
    done
    cat "$1"
    rmdir "$BUILD/print.lock" 2>/dev/null
}
run_one() {
    rcc=$1; name=$2; label=$3; opt=$4; cases=${5:-$DG_TESTS}
    bin="$BUILD/$label"
    mkdir -p "$bin.tmp"
    while [ ! -f "$bin.build.rc" ] && kill -0 "$builder" 2>/dev/null; do sleep 1; done
    [ -f "$bin.build.rc" ] || build_one "$rcc" "$name" "$label" "$opt"
    : > "$bin.report"
    if [ "$(cat "$bin.build.rc")" != 0 ]; then
        head -n 60 "$bin.build.log" | indent >> "$bin.report"
        job_result "$label" 0 1 "FAIL  $label: does not build"
        show_report "$bin.report"
        return
    fi
    [ -s "$bin.build.log" ] && indent "$bin.build.log" >> "$bin.report"     # warnings
    echo "---- $label" >> "$bin.report"
    start=$(date +%s)
    DG_TESTS=$cases TMPDIR="$bin.tmp" $run_limited "./$bin" < /dev/null > "$bin.out" 2> "$bin.err"
    rc=$?
    # LeakSanitizer's own stop-the-world tracer at times crashes at exit ("Tracer caught signal
    # 11 ... LeakSanitizer has encountered a fatal error", google/sanitizers#1353): no leak was
    # found or checked, so the program runs again (at most twice more), with the same seed where
    # it printed one and with use_tls=0 (the tracer's crash comes from reading a thread's TLS:
    # test_modules, built with gcc, crashed it every time; leaks are still checked, without TLS
    # as roots), and the last run counts. Another such crash, or any other failure, still counts
    # as failed.
    tries=0
    while [ "$rc" != 0 ] && [ "$tries" -lt 2 ] && grep -q "LeakSanitizer has encountered a fatal error" "$bin.err"; do
        tries=$((tries + 1))
        cat "$bin.err" >> "$bin.report"
        echo "      $label: LeakSanitizer's tracer crashed at exit; run once more ($tries of 2, use_tls=0)" >> "$bin.report"
        rseed=$(sed -n 's/^[^ ]*: seed \([0-9][0-9]*\)$/\1/p' "$bin.out" | head -n 1)
        DG_TESTS=$cases TMPDIR="$bin.tmp" LSAN_OPTIONS="$LSAN_OPTIONS:use_tls=0" $run_limited "./$bin" $rseed \
            < /dev/null > "$bin.out" 2> "$bin.err"
        rc=$?
    done
    secs=$(( $(date +%s) - start ))
    cat "$bin.out" >> "$bin.report"
    [ -s "$bin.err" ] && { echo "---- $label (stderr)"; cat "$bin.err"; } >> "$bin.report"
    counts=$(tail -n 1 "$bin.out" |
             sed -n 's/^.*: \([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed$/\1 \2/p')
    if [ -z "$counts" ]; then
        case $rc in
            124) why="timed out after ${TIMEOUT}s" ;;
            0)   why="exited 0" ;;
            *)   why="exit status $rc (a crash or sanitizer report? see its stderr)" ;;
        esac
        job_result "$label" 0 1 "FAIL  $label: $why without a final '<name>: N passed, M failed' line (${secs}s)"
        show_report "$bin.report"
        return
    fi
    n=${counts% *}
    m=${counts#* }
    if [ "$rc" != 0 ] && [ "$m" = 0 ]; then
        m=1
        echo "      $label reported no failure but exited with status $rc: counted as 1 failed" >> "$bin.report"
    fi
    if [ "$m" = 0 ]; then
        job_result "$label" "$n" "$m" "PASS  $label: $n passed (${secs}s)"
    else
        job_result "$label" "$n" "$m" "FAIL  $label: $n passed, $m failed (${secs}s, exit status $rc)"
    fi
    show_report "$bin.report"
}

# The jobs, one line each (compiler, name, label, optimisation): every test program with $CC,
# then the fast host tests once more with clang's sanitizers, which check what gcc's do not
# (e.g. arithmetic on a null pointer): skipped, with a note, where clang is missing.
jobs="$BUILD/jobs.txt"
: > "$jobs"
# In order of their run times on the 2-core machine, longest first (the runners take the
# longest left: they end close together); programs not listed come after, in name order.
ORDER="test_bfs test_device test_sssp test_reach test_graph test_random test_random_lh \
test_result test_pos64 test_update test_path test_load test_user test_alloc test_save test_modules \
test_regress test_validate"
for name in $ORDER $(for src in test/test_*.c; do basename "$src" .c; done); do
    [ -f "test/$name.c" ] || continue
    selected "$name" || continue
    grep -q " $name $name " "$jobs" && continue
    echo "$CC $name $name -Og" >> "$jobs"
done
CLANG_TESTS="test_alloc test_load test_modules test_regress test_validate"
if command -v clang >/dev/null 2>&1; then
    for name in $CLANG_TESTS; do
        selected "$name" || continue
        # (test_load's datasets case, 31 s of its 33 at -O0, runs in the gcc pass only: the
        # other cases take every format's parser through its paths; a DG_TESTS given is kept)
        cases=""
        if [ -z "$DG_TESTS" ] && [ "$name" = test_load ]; then   # (test_load.c's cases, less one)
            for c in weights good existing bad failures long_lines exact_weights memory; do
                cases="$cases${cases:+,}test_load:$c"
            done
        fi
        echo "clang $name $name.clang -O0 $cases" >> "$jobs"
    done
else
    echo "note: clang not found, the clang sanitizer pass ($CLANG_TESTS) is skipped"
fi
# The builder: every job's build in turn, then the fuzzing smoke's two targets (below); then it
# runs the jobs left too, beside the runner (the runs take longer than the builds: one core
# would otherwise idle for the last few minutes).
# A runner claims a job by making $BUILD/LABEL.claim (mkdir: one of them gets it) and skips
# those the other one has claimed: both take the longest job left, so they end close together.
claim() { mkdir "$BUILD/$3.claim" 2>/dev/null; }
fuzz_build() {                  # fuzz_build TARGET: $BUILD/fuzz/TARGET from test/fuzz/fuzz_TARGET.c
    clang $FUZZ_FLAGS "test/fuzz/fuzz_$1.c" -o "$BUILD/fuzz/$1" $LIBS > "$BUILD/fuzz/$1.build.log" 2>&1
}
# (-O0: a build takes 5 s instead of 33; the smoke runs a fixed time, on fewer inputs)
FUZZ_FLAGS="-g -O0 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -Wall -Wextra -I."
# It stops where the runner is gone (an interrupted run: a background subshell ignores SIGINT),
# and the runner stops it on its way out.
runner=$$
builder=""
(
    while IFS= read -r job; do
        kill -0 "$runner" 2>/dev/null || exit 0
        build_one $job < /dev/null
    done < "$jobs"
    if selected fuzz && command -v clang >/dev/null 2>&1; then
        mkdir -p "$BUILD/fuzz"
        for target in load mutate; do
            kill -0 "$runner" 2>/dev/null || exit 0
            fuzz_build "$target" < /dev/null
        done
    fi
    while IFS= read -r job <&3; do
        kill -0 "$runner" 2>/dev/null || exit 0
        claim $job || continue
        run_one $job 3<&-
    done 3< "$jobs"
) &
builder=$!
trap 'kill "$builder" 2>/dev/null' EXIT
trap 'exit 130' INT TERM
# ---- the checks before the test programs (the generated header, the kernels through clang,
# compiling as users do, the examples): run in the background beside the builder and the
# runner, their report and counts ($BUILD/checks.report, $BUILD/checks.counts) taken at the
# end. They are single-threaded compiles for the most part (~50 s on 2 cores).
checks() {
    passed=0
    failed=0
    echo "== generated kernel header"
    if sh tools/gen_kernels.sh > "$BUILD/dyngraph_kernels.cl.h" 2> "$BUILD/gen.log" &&
       cmp -s "$BUILD/dyngraph_kernels.cl.h" dyngraph_kernels.cl.h; then
        pass "dyngraph_kernels.cl.h is up to date with kernels/*.cl"
    else
        fail "dyngraph_kernels.cl.h is stale (or missing): run 'make kernels' and commit the result"
        indent "$BUILD/gen.log"
    fi
    if command -v clang > /dev/null 2>&1; then
        if sh tools/check_kernels.sh > "$BUILD/check_kernels.log" 2>&1; then
            pass "kernels compile with clang's OpenCL C 1.2 front end (tools/check_kernels.sh), DG_POS64 narrowing included"
        else
            fail "tools/check_kernels.sh"
            head -n 60 "$BUILD/check_kernels.log" | indent
        fi
    fi

    echo "== compile checks: $STRICT"
    compile() {                     # compile LABEL OUTPUT COMMAND... (the output is linked too)
        label=$1 out=$2
        shift 2
        if "$@" -o "$BUILD/$out" $LIBS > "$BUILD/$out.log" 2>&1; then
            pass "$label"
        else
            fail "$label: $*"
            head -n 60 "$BUILD/$out.log" | indent
        fi
    }
    compile "C99   gcc"                       c99_gcc     gcc     -std=c99   $STRICT -I. test/compile/c99.c
    compile "C99   clang"                     c99_clang   clang   -std=c99   $STRICT -I. test/compile/c99.c
    compile "C++11 g++"                       cxx_gxx     g++     -std=c++11 $STRICT -I. test/compile/cxx.cc
    compile "C++11 clang++"                   cxx_clangxx clang++ -std=c++11 $STRICT -I. test/compile/cxx.cc
    compile "C99   gcc -DDYNGRAPH_STATIC"     c99_static  gcc     -std=c99   $STRICT -DDYNGRAPH_STATIC -I. test/compile/c99.c
    compile "C99   clang -DDYNGRAPH_TRACE_UPDATE" c99_trace clang -std=c99   $STRICT -DDYNGRAPH_TRACE_UPDATE -I. test/compile/c99.c
    # the README's example, as a user copies it: C99 and C++11, warning-free
    awk '/^## Example/ { f = 1 } f && /^```c/ { p = 1; next } p && /^```/ { exit } p' README.md > "$BUILD/readme_example.c"
    compile "C99   gcc   README example"     readme_gcc  gcc     -std=c99   $STRICT -I. "$BUILD/readme_example.c"
    compile "C++11 g++   README example"     readme_gxx  g++     -std=c++11 $STRICT -I. -x c++ "$BUILD/readme_example.c"
    # host only: without the OpenCL headers (test/compile/no_cl stops any include of them) and
    # without -lOpenCL; built with gcc, clang and g++, and run (device calls: DG_ERR_NO_DEVICE)
    no_opencl() {                   # no_opencl LABEL OUTPUT COMMAND...
        label=$1 out=$2
        shift 2
        if "$@" -Itest/compile/no_cl -I. -o "$BUILD/$out" -lm > "$BUILD/$out.log" 2>&1 &&
           "./$BUILD/$out" >> "$BUILD/$out.log" 2>&1; then
            pass "$label"
        else
            fail "$label: $*"
            head -n 60 "$BUILD/$out.log" | indent
        fi
    }
    no_opencl "C99   gcc   -DDYNGRAPH_NO_OPENCL, no OpenCL" noocl_gcc   gcc   -std=c99 $STRICT test/compile/no_opencl.c
    no_opencl "C99   clang -DDYNGRAPH_NO_OPENCL, no OpenCL" noocl_clang clang -std=c99 $STRICT test/compile/no_opencl.c
    no_opencl "C++11 g++   -DDYNGRAPH_NO_OPENCL, no OpenCL" noocl_gxx   g++   -std=c++11 $STRICT -x c++ test/compile/no_opencl.c

    # the examples, as a user builds them (C99 and C++11, warning-free); those that check their own
    # answer against a reference (components: a union-find and dg_components; pagerank: dg_pagerank;
    # crowd: a host BFS) run too, on small inputs
    for src in examples/*.c; do
        ex=$(basename "$src" .c)
        compile "C99   gcc   examples/$ex.c" "ex_$ex" gcc -std=c99 $STRICT -I. "$src"
        compile "C++11 g++   examples/$ex.c" "ex_${ex}_gxx" g++ -std=c++11 $STRICT -I. -x c++ "$src"
    done
    for run in "components" "pagerank" "crowd 40x16 6"; do
        ex=${run%% *}
        [ -x "$BUILD/ex_$ex" ] || continue
        if "./$BUILD/ex_$ex" ${run#"$ex"} > "$BUILD/ex_$ex.out" 2>&1; then
            pass "examples/$ex.c runs and checks its answer: $(tail -n 1 "$BUILD/ex_$ex.out")"
        else
            fail "examples/$ex.c: ./$ex${run#"$ex"} failed"
            tail -n 20 "$BUILD/ex_$ex.out" | indent
        fi
    done

    echo "$passed $failed" > "$BUILD/checks.counts"
}
( checks > "$BUILD/checks.report" 2>&1 ) &
checks_pid=$!
trap 'kill "$builder" "$checks_pid" 2>/dev/null' EXIT
echo "== test programs: $CC -Og (clang pass: -O0) $TEST_CFLAGS ... $LIBS"
while IFS= read -r job <&3; do claim $job || continue; run_one $job 3<&-; done 3< "$jobs"
wait "$builder"
wait "$checks_pid"
cat "$BUILD/checks.report"
add_counts() {                  # add_counts FILE WHAT: FILE's "N M" into the totals, else 1 failed
    if [ -f "$1" ] && read -r n m < "$1" && [ -n "$m" ]; then
        passed=$((passed + n))
        failed=$((failed + m))
    else
        fail "$2"
    fi
}
add_counts "$BUILD/checks.counts" "the checks before the test programs did not finish"
# the counts of every job (one that never ran, e.g. an interrupted runner, counts as 1 failed)
while IFS= read -r job; do
    set -- $job
    add_counts "$BUILD/$3.counts" "$3: did not run"
done < "$jobs"

# Fuzzing smoke, where clang has libFuzzer: each loader's target (test/fuzz/fuzz_load.c, built
# once and run once per format, the format a dg_format number in FUZZ_FORMAT) and the
# mutation-sequence target against its reference model (test/fuzz/fuzz_mutate.c), FUZZ_SECONDS
# each (default 3), starting from the corpus in test/fuzz/corpus/NAME/ (read only: new inputs go
# to $BUILD/fuzz/NAME.new/). A crash, a failed check, a sanitizer report, a leak or a slow input
# is 1 failed; the input that did it is kept as $BUILD/fuzz/NAME-crash-* (or -leak-, -timeout-),
# and `FUZZ_FORMAT=N $BUILD/fuzz/TARGET that-file` runs it again. Selected like a test program
# (DG_TESTS=fuzz). The builder above has built the two targets while the test programs ran.
FUZZ_SECONDS=${FUZZ_SECONDS:-3}
# NAME:TARGET:FORMAT (dg_format: 1 edge list, 2 Matrix Market, 3 DIMACS, 4 METIS, 5 GRAIL,
# 6 snapshot)
FUZZ_RUNS="load_edge_list:load:1 load_mm:load:2 load_dimacs:load:3 load_metis:load:4 \
load_grail:load:5 load_snapshot:load:6 mutate:mutate:"
if selected fuzz; then
    mkdir -p "$BUILD/fuzz"
    if printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; return (int)n * 0; }\n' \
           > "$BUILD/fuzz/probe.c" &&
       clang -fsanitize=fuzzer "$BUILD/fuzz/probe.c" -o "$BUILD/fuzz/probe" > /dev/null 2>&1; then
        echo "== fuzzing smoke: clang $FUZZ_FLAGS, ${FUZZ_SECONDS}s a target"
        for t in $FUZZ_RUNS; do
            name=${t%%:*}
            rest=${t#*:}
            target=${rest%%:*}
            bin="$BUILD/fuzz/$target"
            if [ ! -x "$bin" ]; then
                fail "fuzz $name: does not build"
                head -n 60 "$bin.build.log" | indent
                continue
            fi
            mkdir -p "$BUILD/fuzz/$name.new"
            if FUZZ_FORMAT=${rest#*:} "./$bin" -max_total_time="$FUZZ_SECONDS" -timeout=20 -rss_limit_mb=2048 \
                   -max_len=4096 -print_final_stats=1 -artifact_prefix="$BUILD/fuzz/$name-" \
                   "$BUILD/fuzz/$name.new" "test/fuzz/corpus/$name" > "$BUILD/fuzz/$name.log" 2>&1; then
                pass "fuzz $name: $(sed -n 's/^stat::number_of_executed_units: *//p' "$BUILD/fuzz/$name.log") inputs"
            else
                fail "fuzz $name: see $BUILD/fuzz/$name.log"
                tail -n 40 "$BUILD/fuzz/$name.log" | indent
            fi
        done
    else
        echo "note: clang with libFuzzer not found, the fuzzing smoke is skipped"
    fi
fi

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
