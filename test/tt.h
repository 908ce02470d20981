/* tt.h - the tiny test harness of dyngraph's tests, and the helpers every test may use.

   CHECK(cond) counts a pass or a failure; a failure prints "FAIL program:case file:line: cond"
   on stderr (the first 50 of them). CHECK_MSG(cond, fmt, ...) adds a message.
   TT_SUMMARY(name) prints "<name>: N passed, M failed" (test/run.sh reads this last line of
   stdout) and yields the exit status.

   Named cases: a program lists its top-level tests in a table and runs them with TT_RUN, which
   yields 1 when every case ran (checks that need them all, such as "every variant ran", go
   after it under that condition):
       static const tt_case cases[] = { { "bad", test_bad_input }, { "graphs", test_graphs } };
       int main(void) { int all = TT_RUN("test_bfs", cases); ...; return TT_SUMMARY("test_bfs"); }
   The environment variable DG_TESTS selects: entries separated by spaces or commas, each a
   program name (all its cases) or program:case (that case), e.g.
       DG_TESTS="test_bfs:graphs test_bfs:datasets test_load"
   A program that no entry names runs all its cases (entries of other programs are ignored);
   one that is named runs the cases named (all of them if an entry is its bare name), in table
   order, each once. A case name the table lacks counts as a failure, and the known names are
   printed. Each case prints "-- name" on stdout as it starts, "-- name: N failed" after it
   if it failed, and "-- name: S s" with its wall time (where a test program's time goes).

   xmalloc, xcalloc, xrealloc: allocation that ends the program (exit 2, "<program>: out of
   memory") on failure; a size of 0 asks for 1 byte. cmp_i32: qsort's comparison of int32_t.
   Everything is static; the helpers are static inline, so a test that leaves one unused builds
   without -Wunused-function warnings. */
#ifndef TT_H
#define TT_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <time.h>

static long tt_passed, tt_failed;
static const char *tt_prog = "test";     /* the program, once TT_RUN has run */
static const char *tt_case_name = "";    /* the case running ("" outside one) */

#define TT_FAIL_AT() fprintf(stderr, "FAIL %s%s%s %s:%d: ", tt_prog, *tt_case_name ? ":" : "", tt_case_name, \
                             __FILE__, __LINE__)
#define CHECK(c) do { if (c) tt_passed++; else { tt_failed++; \
    if (tt_failed <= 50) { TT_FAIL_AT(); fprintf(stderr, "%s\n", #c); } } } while (0)
#define CHECK_MSG(c, ...) do { if (c) tt_passed++; else { tt_failed++; \
    if (tt_failed <= 50) { TT_FAIL_AT(); fprintf(stderr, "%s: ", #c); \
    fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } } while (0)
#define TT_SUMMARY(name) (printf("%s: %ld passed, %ld failed\n", (name), tt_passed, tt_failed), \
    tt_failed ? 1 : 0)

typedef struct {
    const char *name;             /* short, no spaces, commas or colons */
    void (*run)(void);
} tt_case;

#define TT_RUN(prog, cases) tt_run((prog), (cases), sizeof (cases) / sizeof (cases)[0])
#define TT_SEPARATORS " ,\t\n"

static int tt_run(const char *prog, const tt_case *cases, size_t ncases)
{
    const char *p = getenv("DG_TESTS"), *c;
    size_t plen = strlen(prog), n, cn, i, ran = 0;
    int named = 0, whole = 0;
    unsigned char *chosen = (unsigned char *)calloc(ncases + 1, 1);
    if (!chosen) { fprintf(stderr, "%s: out of memory\n", prog); exit(2); }
    tt_prog = prog;
    for (p = p ? p : ""; *(p += strspn(p, TT_SEPARATORS)); p += n) {
        n = strcspn(p, TT_SEPARATORS);            /* the entry p[0..n-1] */
        if (n < plen || strncmp(p, prog, plen) != 0 || (n > plen && p[plen] != ':')) continue;
        named = 1;
        if (n == plen) { whole = 1; continue; }
        c = p + plen + 1;
        cn = n - plen - 1;
        for (i = 0; i < ncases; i++)
            if (strlen(cases[i].name) == cn && strncmp(cases[i].name, c, cn) == 0) break;
        if (i < ncases) { chosen[i] = 1; continue; }
        tt_failed++;
        fprintf(stderr, "FAIL %s: DG_TESTS names the case '%.*s', which %s does not have; its cases:", prog,
                (int)cn, c, prog);
        for (i = 0; i < ncases; i++) fprintf(stderr, " %s", cases[i].name);
        fputc('\n', stderr);
    }
    for (i = 0; i < ncases; i++) {
        long failed_before = tt_failed;
        time_t start;
        if (named && !whole && !chosen[i]) continue;
        tt_case_name = cases[i].name;
        printf("-- %s\n", cases[i].name);
        fflush(stdout);
        start = time(NULL);
        cases[i].run();
        if (tt_failed > failed_before) printf("-- %s: %ld failed\n", cases[i].name, tt_failed - failed_before);
        printf("-- %s: %.0f s\n", cases[i].name, difftime(time(NULL), start));
        fflush(stdout);
        tt_case_name = "";
        ran++;
    }
    free(chosen);
    return ran == ncases;
}

/* ================================ helpers ================================ */
static inline void *xmalloc(size_t sz)
{
    void *p = malloc(sz ? sz : 1);
    if (!p) { fprintf(stderr, "%s: out of memory\n", tt_prog); exit(2); }
    return p;
}
static inline void *xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz ? sz : 1);
    if (!p) { fprintf(stderr, "%s: out of memory\n", tt_prog); exit(2); }
    return p;
}
static inline void *xrealloc(void *p, size_t sz)
{
    void *q = realloc(p, sz ? sz : 1);
    if (!q) { fprintf(stderr, "%s: out of memory\n", tt_prog); exit(2); }
    return q;
}
static inline int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return x < y ? -1 : x > y;
}
#endif
