/* bench_common.h - what the dyngraph benchmarks share: error exits, clocks, medians, the
   xoshiro256** generator and the graph generators (Graph500 Kronecker, uniform random).

   Include it after dyngraph.h (it uses dg_edge, dg_vertex), with BENCH_NAME defined to the
   program's name (it prefixes every error message):

       #define BENCH_NAME "bench_build"
       #include "bench_common.h"

   Everything is static; functions a program does not use raise no warning. */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#ifndef BENCH_NAME
#error "define BENCH_NAME (the program's name) before including bench_common.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
#define BENCH_FN static __attribute__((unused))
#else
#define BENCH_FN static
#endif

/* ------------------------------------------------------------------------------------------ */
/* Utilities                                                                                   */
/* ------------------------------------------------------------------------------------------ */

BENCH_FN void die(const char *what)
{
    fprintf(stderr, BENCH_NAME ": %s\n", what);
    exit(1);
}

BENCH_FN void die_dg(const dg_graph *g, const char *call, dg_status s, int line)
{
    fprintf(stderr, BENCH_NAME ": line %d: %s failed: %s (%s)\n", line, call,
            dg_status_string(s), g ? dg_error_message(g) : "");
    exit(1);
}

/* Checks the status of a dg_ call on graph g; exits with a message on failure. */
#define CK(g, call) do { dg_status ck_s_ = (call); \
    if (ck_s_ != DG_OK) die_dg((g), #call, ck_s_, __LINE__); } while (0)

BENCH_FN void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) die("out of memory");
    return p;
}

BENCH_FN void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p) die("out of memory");
    return p;
}

BENCH_FN double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU time of the process: cpu / wall over the timed sections shows whether other processes
   competed for the core (1.00 = the benchmark had the core to itself). */
BENCH_FN double cpu_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

BENCH_FN int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of v[0..n-1] (sorts v). 0 for n = 0. */
BENCH_FN double median(double *v, int n)
{
    if (n <= 0) return 0.0;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return (n % 2) ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

BENCH_FN void cpu_model(char *buf, size_t cap)
{
    char line[512];
    FILE *f = fopen("/proc/cpuinfo", "r");
    snprintf(buf, cap, "unknown");
    if (!f) return;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) == 0) {
            char *p = strchr(line, ':');
            if (p) {
                p++;
                while (*p == ' ' || *p == '\t') p++;
                p[strcspn(p, "\r\n")] = 0;
                snprintf(buf, cap, "%s", p);
            }
            break;
        }
    }
    fclose(f);
}

BENCH_FN long parse_long(const char *s, const char *opt, long lo, long hi)
{
    char *end;
    long v;
    if (!s) { fprintf(stderr, BENCH_NAME ": %s needs a value\n", opt); exit(2); }
    v = strtol(s, &end, 10);
    if (*s == 0 || *end != 0 || v < lo || v > hi) {
        fprintf(stderr, BENCH_NAME ": bad value for %s: %s (allowed %ld..%ld)\n", opt, s, lo, hi);
        exit(2);
    }
    return v;
}

/* ------------------------------------------------------------------------------------------ */
/* Random numbers: xoshiro256** seeded through splitmix64 (deterministic for a given seed)     */
/* ------------------------------------------------------------------------------------------ */

typedef struct rng { uint64_t s[4]; } rng;

BENCH_FN uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

BENCH_FN void rng_seed(rng *r, uint64_t seed)
{
    int i;
    for (i = 0; i < 4; i++) r->s[i] = splitmix64(&seed);
}

BENCH_FN uint64_t rotl64(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

BENCH_FN uint64_t rng_next(rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl64(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl64(s[3], 45);
    return result;
}

/* Uniform double in [0, 1). */
BENCH_FN double rng_uniform(rng *r) { return (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0); }

/* Unbiased uniform integer in [0, n), n > 0. */
BENCH_FN uint64_t rng_below(rng *r, uint64_t n)
{
    uint64_t threshold = (0 - n) % n, x;
    do x = rng_next(r); while (x < threshold);
    return x % n;
}

BENCH_FN void shuffle_edges(rng *r, dg_edge *e, size_t m)
{
    size_t i;
    for (i = m; i > 1; i--) {
        size_t j = (size_t)rng_below(r, i);
        dg_edge t = e[i - 1]; e[i - 1] = e[j]; e[j] = t;
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Graph generators                                                                            */
/* ------------------------------------------------------------------------------------------ */

/* Graph500 Kronecker generator (as the reference kronecker_generator.m): for each of the m edge
   tuples and each of the scale bit levels, the (row, column) bit pair is (0,0) with probability
   A, (0,1) with B, (1,0) with C, (1,1) with D = 1-A-B-C; then the vertex ids are permuted by a
   random permutation and the tuples are shuffled. Self-loops and repeated tuples are kept. */
BENCH_FN dg_edge *gen_kronecker(int scale, size_t m, uint64_t seed)
{
    const double A = 0.57, B = 0.19, C = 0.19;
    const double ab = A + B, c_norm = C / (1.0 - (A + B)), a_norm = A / (A + B);
    size_t n = (size_t)1 << scale, k;
    dg_edge *e = (dg_edge *)xmalloc(m * sizeof *e);
    dg_vertex *perm = (dg_vertex *)xmalloc(n * sizeof *perm);
    rng r;
    int ib;
    rng_seed(&r, seed);
    for (k = 0; k < m; k++) {
        uint32_t u = 0, v = 0;
        for (ib = 0; ib < scale; ib++) {
            uint32_t ii = rng_uniform(&r) > ab;
            uint32_t jj = rng_uniform(&r) > (ii ? c_norm : a_norm);
            u |= ii << ib;
            v |= jj << ib;
        }
        e[k].src = (dg_vertex)u;
        e[k].dst = (dg_vertex)v;
        e[k].weight = 1.0f;
    }
    /* random relabelling of the vertices (randperm), then random order of the tuples */
    for (k = 0; k < n; k++) perm[k] = (dg_vertex)k;
    for (k = n; k > 1; k--) {
        size_t j = (size_t)rng_below(&r, k);
        dg_vertex t = perm[k - 1]; perm[k - 1] = perm[j]; perm[j] = t;
    }
    for (k = 0; k < m; k++) {
        e[k].src = perm[e[k].src];
        e[k].dst = perm[e[k].dst];
    }
    shuffle_edges(&r, e, m);
    free(perm);
    return e;
}

/* Uniform random graph: m tuples with source and destination uniform in [0, n). If no_loops,
   u != v is drawn instead. */
BENCH_FN dg_edge *gen_uniform(size_t n, size_t m, uint64_t seed, int no_loops)
{
    dg_edge *e = (dg_edge *)xmalloc(m * sizeof *e);
    rng r;
    size_t k;
    rng_seed(&r, seed);
    for (k = 0; k < m; k++) {
        do {
            e[k].src = (dg_vertex)rng_below(&r, n);
            e[k].dst = (dg_vertex)rng_below(&r, n);
        } while (no_loops && e[k].src == e[k].dst);
        e[k].weight = 1.0f;
    }
    return e;
}

/* 2-D grid of side x side vertices, 4-neighbour: vertex r*side + c is joined to its right and
   lower neighbours; 2*side*(side-1) tuples, no repeats, no self-loops, ids in row-major order
   (not permuted). *m_out receives the tuple count. */
BENCH_FN dg_edge *gen_grid(size_t side, size_t *m_out)
{
    size_t m = side > 0 ? 2 * side * (side - 1) : 0, k = 0, r, c;
    dg_edge *e = (dg_edge *)xmalloc(m * sizeof *e);
    for (r = 0; r < side; r++)
        for (c = 0; c < side; c++) {
            dg_vertex v = (dg_vertex)(r * side + c);
            if (c + 1 < side) { e[k].src = v; e[k].dst = v + 1; e[k].weight = 1.0f; k++; }
            if (r + 1 < side) { e[k].src = v; e[k].dst = (dg_vertex)(v + (dg_vertex)side); e[k].weight = 1.0f; k++; }
        }
    *m_out = k;
    return e;
}

BENCH_FN size_t count_self_loops(const dg_edge *e, size_t m)
{
    size_t k, c = 0;
    for (k = 0; k < m; k++) c += e[k].src == e[k].dst;
    return c;
}

#endif /* BENCH_COMMON_H */
