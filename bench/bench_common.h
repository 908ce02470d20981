/* bench_common.h - what the dyngraph benchmarks share: error exits, clocks, medians, FAIL lines
   and notes, Markdown and CSV output, option parsing, the xoshiro256** generator, the graph
   generators (Graph500 Kronecker, uniform random, 2-D grid), edge weights and roots, the device
   helpers of the static alternative (timed CSR upload, pinned staging memory, an edge-key hash
   set), and what the search benchmarks (bench_bfs, bench_sssp) share besides: their common
   options, and the buffers and batches of their dynamic scenario.

   Include it after dyngraph.h (it uses its types and a few dg_ calls), with BENCH_NAME defined
   to the program's name (it prefixes every error message):

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
#include <stdarg.h>
#include <math.h>

#if defined(__GNUC__) || defined(__clang__)
#define BENCH_FN static __attribute__((unused))
#define BENCH_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define BENCH_FN static
#define BENCH_PRINTF(f, a)
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

/* Appends a zeroed element of `size` bytes to a growable array (*n used of *cap allocated,
   doubling); returns the array, which may have moved. The new element is at index *n - 1.
   PUSH_ZEROED(arr, n, cap) does that to the array arr and yields a pointer to the new element. */
BENCH_FN void *push_zeroed(void *arr, int *n, int *cap, size_t size)
{
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 32;
        arr = xrealloc(arr, (size_t)*cap * size);
    }
    memset((char *)arr + (size_t)*n * size, 0, size);
    (*n)++;
    return arr;
}

#define PUSH_ZEROED(arr, n, cap) \
    ((arr) = push_zeroed((arr), &(n), &(cap), sizeof *(arr)), &(arr)[(n) - 1])

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

BENCH_FN double parse_double(const char *s, const char *opt)
{
    char *end;
    double v;
    if (!s) { fprintf(stderr, BENCH_NAME ": %s needs a value\n", opt); exit(2); }
    v = strtod(s, &end);
    if (*s == 0 || *end != 0 || !(v >= 0) || v > 1e9) {
        fprintf(stderr, BENCH_NAME ": bad value for %s: %s\n", opt, s);
        exit(2);
    }
    return v;
}

/* Comma-separated integers in lo..hi into out (at most max); returns how many. */
BENCH_FN int parse_list(const char *v, const char *opt, long *out, int max, long lo, long hi)
{
    char buf[512], *tok;
    int n = 0;
    if (!v || strlen(v) >= sizeof buf) { fprintf(stderr, BENCH_NAME ": bad %s\n", opt); exit(2); }
    strcpy(buf, v);
    for (tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        if (n == max) { fprintf(stderr, BENCH_NAME ": too many values for %s\n", opt); exit(2); }
        out[n++] = parse_long(tok, opt, lo, hi);
    }
    if (n == 0) { fprintf(stderr, BENCH_NAME ": empty %s\n", opt); exit(2); }
    return n;
}

/* Comma-separated names out of names[0..nnames-1]: chosen[i] = 1 for those given, else 0. */
BENCH_FN void parse_names(const char *v, const char *opt, const char *const *names, int nnames,
                          int *chosen)
{
    char buf[512], *tok;
    int i;
    if (!v || strlen(v) >= sizeof buf) { fprintf(stderr, BENCH_NAME ": bad %s\n", opt); exit(2); }
    strcpy(buf, v);
    for (i = 0; i < nnames; i++) chosen[i] = 0;
    for (tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        for (i = 0; i < nnames; i++) if (!strcmp(tok, names[i])) break;
        if (i == nnames) { fprintf(stderr, BENCH_NAME ": unknown name in %s: %s\n", opt, tok); exit(2); }
        chosen[i] = 1;
    }
}

/* ------------------------------------------------------------------------------------------ */
/* FAIL lines, notes, CSV                                                                      */
/* ------------------------------------------------------------------------------------------ */

static long g_fails;              /* FAIL lines printed */
static char **g_notes;            /* notes, printed under the tables */
static int g_nnotes, g_capnotes;

/* In a function (..., fmt, ...): the char array buf receives the message fmt formats. */
#define FORMAT_VARGS(buf, fmt) do { va_list ap_; va_start(ap_, fmt); \
    vsnprintf((buf), sizeof(buf), (fmt), ap_); va_end(ap_); } while (0)

/* A failed check: a FAIL line on stderr and in the Markdown output; counted in g_fails. */
BENCH_FN BENCH_PRINTF(1, 2) void fail(const char *fmt, ...)
{
    char buf[1024];
    FORMAT_VARGS(buf, fmt);
    g_fails++;
    fprintf(stderr, "FAIL: %s\n", buf);
    printf("FAIL: %s\n\n", buf);
    fflush(stdout);
}

/* A note: printed to stderr now, kept for the Notes list of the Markdown output. */
BENCH_FN BENCH_PRINTF(1, 2) void note(const char *fmt, ...)
{
    char buf[1024];
    FORMAT_VARGS(buf, fmt);
    fprintf(stderr, "  %s\n", buf);
    if (g_nnotes == g_capnotes) {
        g_capnotes = g_capnotes ? 2 * g_capnotes : 32;
        g_notes = (char **)xrealloc(g_notes, (size_t)g_capnotes * sizeof *g_notes);
    }
    g_notes[g_nnotes] = (char *)xmalloc(strlen(buf) + 1);
    strcpy(g_notes[g_nnotes++], buf);
}

/* The header of a Markdown table: titles separated by '|', a title ending in ':' a
   right-aligned (numeric) column, e.g. "graph|n:|checks". */
BENCH_FN void md_header(FILE *f, const char *titles)
{
    const char *s = titles;
    int ncol = 0, c;
    char align[64];
    fputc('|', f);
    while (*s) {
        size_t len = strcspn(s, "|");
        int right = len > 0 && s[len - 1] == ':';
        fprintf(f, " %.*s |", (int)(len - (size_t)right), s);
        if (ncol < (int)sizeof align) align[ncol++] = (char)right;
        s += len;
        if (*s) s++;
    }
    fprintf(f, "\n|");
    for (c = 0; c < ncol; c++) fprintf(f, align[c] ? "---:|" : "---|");
    fputc('\n', f);
}

BENCH_FN void csv_str(FILE *f, const char *s)     /* quoted, "" for " */
{
    fputc('"', f);
    for (; *s; s++) { if (*s == '"') fputc('"', f); fputc(*s, f); }
    fputc('"', f);
}

/* Opens `path` (--csv) for the main rows and, when dyn, the same name with .csv replaced by
   _dynamic.csv for the rows of the dynamic scenario (*dcsv stays NULL otherwise). Exits on
   failure. */
BENCH_FN void csv_open(const char *path, int dyn, FILE **csv, FILE **dcsv)
{
    char dpath[1024];
    size_t L = strlen(path);
    if (L >= sizeof dpath - 16) { fprintf(stderr, BENCH_NAME ": --csv path too long\n"); exit(2); }
    *csv = fopen(path, "w");
    if (!*csv) { perror(path); exit(1); }
    *dcsv = NULL;
    if (!dyn) return;
    strcpy(dpath, path);
    if (L > 4 && !strcmp(dpath + L - 4, ".csv")) dpath[L - 4] = 0;
    strcat(dpath, "_dynamic.csv");
    *dcsv = fopen(dpath, "w");
    if (!*dcsv) { perror(dpath); exit(1); }
}

/* --csv of the search benchmarks: the main rows and the dynamic rows (NULL when not written) */
static FILE *g_csv, *g_dcsv;

/* Opens them (nothing when path is NULL; dyn: the dynamic rows too) and writes their headers. */
BENCH_FN void csv_start(const char *path, int dyn, void (*header)(FILE *), void (*dyn_header)(FILE *))
{
    if (!path) return;
    csv_open(path, dyn, &g_csv, &g_dcsv);
    header(g_csv);
    if (g_dcsv) dyn_header(g_dcsv);
}

BENCH_FN void csv_close(void)
{
    if (g_csv) fclose(g_csv);
    if (g_dcsv) fclose(g_dcsv);
    g_csv = g_dcsv = NULL;
}

/* The start of the Markdown output of a search benchmark: the title, the device (NULL: none
   used) and the host CPU (baseline: the single-threaded CPU reference's name), the compiler and
   the library. */
BENCH_FN void report_begin(const char *title, const char *dev_name, const char *baseline)
{
    char cpu[256];
    cpu_model(cpu, sizeof cpu);
    printf("# dyngraph %s benchmark (bench/" BENCH_NAME ".c)\n\n", title);
    printf("- device: %s; host CPU: %s (the benchmark's host code and %s are single-threaded)\n",
           dev_name ? dev_name : "(none used)", cpu, baseline);
#ifdef __VERSION__
    printf("- compiler: %s; dyngraph %s\n", __VERSION__, DYNGRAPH_VERSION_STRING);
#endif
}

/* The end of the Markdown output: the notes, then the verdict (also on stderr); frees the
   notes. Returns the exit status: 1 if any check failed. */
BENCH_FN int report_end(void)
{
    int i;
    printf("\nNotes:\n\n");
    for (i = 0; i < g_nnotes; i++) printf("- %s\n", g_notes[i]);
    if (g_fails) printf("\n**%ld FAIL lines: see above and stderr.**\n", g_fails);
    else printf("\nAll checks passed.\n");
    for (i = 0; i < g_nnotes; i++) free(g_notes[i]);
    free(g_notes);
    g_notes = NULL; g_nnotes = g_capnotes = 0;
    fprintf(stderr, BENCH_NAME ": %s\n", g_fails ? "FAILED (see the FAIL lines)" : "all checks passed");
    return g_fails ? 1 : 0;
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

/* An edge list file: lines "u v" or "u v w" (weights ignored: 1), '#' and '%' lines skipped,
   ids from 0. *n receives the largest id + 1, *m the tuples. Exits on a bad line. */
BENCH_FN dg_edge *read_edge_list(const char *path, size_t *n, size_t *m)
{
    FILE *f = fopen(path, "r");
    char line[256];
    size_t cap = 1 << 20, k = 0, nmax = 0, lineno = 0;
    dg_edge *e = (dg_edge *)xmalloc(cap * sizeof *e);
    if (!f) die("cannot open the edge list");
    while (fgets(line, sizeof line, f)) {
        long long u, v;
        lineno++;
        if (line[0] == '#' || line[0] == '%' || line[0] == '\n') continue;
        if (sscanf(line, "%lld %lld", &u, &v) != 2 || u < 0 || v < 0 || u > 0x7ffffffe || v > 0x7ffffffe) {
            fprintf(stderr, BENCH_NAME ": %s line %zu: not \"u v\"\n", path, lineno);
            exit(1);
        }
        if (k == cap) { cap *= 2; e = (dg_edge *)xrealloc(e, cap * sizeof *e); }
        e[k].src = (dg_vertex)u; e[k].dst = (dg_vertex)v; e[k].weight = 1.0f;
        if ((size_t)u + 1 > nmax) nmax = (size_t)u + 1;
        if ((size_t)v + 1 > nmax) nmax = (size_t)v + 1;
        k++;
    }
    fclose(f);
    *n = nmax; *m = k;
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

/* A plain CSR of the tuples e[0..m-1]: u->v, and v->u when undirected (a self-loop gives one
   arc); lists unsorted, repeats kept. off (n + 1 entries) and col and w (room for every arc; w
   may be NULL: no weights) are the caller's. Counting sort: degrees, inclusive prefix sums,
   then each arc written at --off[u] (off ends as the starts). Returns the number of arcs. */
BENCH_FN size_t csr_fill(size_t n, const dg_edge *e, size_t m, int undirected, uint32_t *off,
                         int32_t *col, float *w)
{
    size_t k, u;
    memset(off, 0, (n + 1) * sizeof *off);
    for (k = 0; k < m; k++) {
        off[e[k].src]++;
        if (undirected && e[k].src != e[k].dst) off[e[k].dst]++;
    }
    for (u = 1; u < n; u++) off[u] += off[u - 1];
    off[n] = n ? off[n - 1] : 0;
    for (k = 0; k < m; k++) {
        dg_vertex a = e[k].src, b = e[k].dst;
        uint32_t i = --off[a];
        col[i] = b;
        if (w) w[i] = e[k].weight;
        if (undirected && a != b) {
            i = --off[b];
            col[i] = a;
            if (w) w[i] = e[k].weight;
        }
    }
    return off[n];
}

/* Weight of the undirected edge {u, v}: a hash of the unordered pair and the seed, so that a
   repeated tuple (u,v) or (v,u) gets the same weight wherever it stands, and the graph's weights
   do not depend on which repeat a loader keeps. Integer weights are uniform in [1, 255] (GAP's
   choice); real ones (real != 0) uniform in [0, 1) on a grid of 2^-24 (Graph500 kernel 3). */
BENCH_FN float edge_weight(uint64_t seed, dg_vertex u, dg_vertex v, int real)
{
    uint64_t x = seed ^ ((uint64_t)(uint32_t)(u < v ? u : v) << 32 | (uint32_t)(u < v ? v : u));
    uint64_t h = splitmix64(&x);
    return real ? (float)(h >> 40) * (1.0f / 16777216.0f) : (float)(1 + h % 255);
}

BENCH_FN void set_weights(dg_edge *e, size_t m, uint64_t seed, int real)
{
    size_t k;
    for (k = 0; k < m; k++) e[k].weight = edge_weight(seed, e[k].src, e[k].dst, real);
}

/* ------------------------------------------------------------------------------------------ */
/* The static alternative on the device: upload, pinned staging memory; edge-key sets          */
/* ------------------------------------------------------------------------------------------ */

BENCH_FN void cl_check(cl_int err, const char *what)
{
    if (err != CL_SUCCESS) {
        fprintf(stderr, BENCH_NAME ": %s failed: OpenCL error %d\n", what, (int)err);
        exit(1);
    }
}

/* The static alternative's upload: one new device buffer per array (at most 4), written from
   host memory, clFinish; the buffers are released after the timing. Seconds. */
BENCH_FN double upload_arrays(dg_graph *g, int narr, const void *const *ptr, const size_t *bytes)
{
    cl_context ctx = dg_cl_context(g);
    cl_command_queue q = dg_cl_queue(g);
    cl_mem buf[4];
    cl_int err;
    double t0, t;
    int i;
    if (!ctx || !q) die_dg(g, "dg_cl_context / dg_cl_queue", DG_ERR_OPENCL, __LINE__);
    if (narr > 4) die("upload_arrays: too many arrays");
    t0 = now_s();
    for (i = 0; i < narr; i++) {
        buf[i] = clCreateBuffer(ctx, CL_MEM_READ_ONLY, bytes[i] ? bytes[i] : 1, NULL, &err);
        cl_check(err, "clCreateBuffer (upload)");
    }
    for (i = 0; i < narr; i++)
        if (bytes[i])
            cl_check(clEnqueueWriteBuffer(q, buf[i], CL_FALSE, 0, bytes[i], ptr[i], 0, NULL, NULL),
                     "clEnqueueWriteBuffer");
    cl_check(clFinish(q), "clFinish");
    t = now_s() - t0;
    for (i = 0; i < narr; i++) clReleaseMemObject(buf[i]);
    return t;
}

/* Host memory pinned by the device's runtime (CL_MEM_ALLOC_HOST_PTR, mapped), as a static
   system would stage its CSR for a fast upload. */
typedef struct pinned { cl_mem buf; void *ptr; } pinned;

BENCH_FN void pinned_alloc(dg_graph *g, pinned *p, size_t bytes)
{
    cl_int err;
    p->buf = clCreateBuffer(dg_cl_context(g), CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, bytes, NULL, &err);
    cl_check(err, "clCreateBuffer (pinned staging)");
    p->ptr = clEnqueueMapBuffer(dg_cl_queue(g), p->buf, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes,
                                0, NULL, NULL, &err);
    cl_check(err, "clEnqueueMapBuffer (pinned staging)");
    memset(p->ptr, 0, bytes);
}

/* A result of `kind` from source that follows the graph (the dynamic scenarios' incremental
   column), brought up to date once (its first, full run). */
BENCH_FN dg_result *dyn_result_follow(dg_graph *g, dg_result_kind kind, dg_vertex source)
{
    dg_result_desc rdesc;
    dg_result *res = NULL;
    memset(&rdesc, 0, sizeof rdesc);
    rdesc.kind = kind;
    rdesc.source = source;
    CK(g, dg_result_create(g, &rdesc, &res));
    CK(g, dg_result_update(res, NULL, NULL));
    return res;
}

BENCH_FN void pinned_free(dg_graph *g, pinned *p)
{
    cl_check(clEnqueueUnmapMemObject(dg_cl_queue(g), p->buf, p->ptr, 0, NULL, NULL), "clEnqueueUnmapMemObject");
    cl_check(clFinish(dg_cl_queue(g)), "clFinish");
    clReleaseMemObject(p->buf);
    p->buf = NULL; p->ptr = NULL;
}

/* Key of the edge u->v for set_insert (never 0, the empty slot). */
BENCH_FN uint64_t ekey(dg_vertex u, dg_vertex v) { return ((uint64_t)(uint32_t)u << 32 | (uint32_t)v) + 1; }

/* Inserts key into an open-addressing set of cap (a power of two) slots; 0 if already there. */
BENCH_FN int set_insert(uint64_t *tab, size_t cap, uint64_t key)
{
    size_t h = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 20) & (cap - 1);
    while (tab[h]) {
        if (tab[h] == key) return 0;
        h = (h + 1) & (cap - 1);
    }
    tab[h] = key;
    return 1;
}

/* A batch of the dynamic scenarios, chosen before the timing: nrem random edges taken out of the
   current edge set cur[0..*ncur-1] into rems (each swapped with the last), and nadd absent
   edges u != v (absent from g and from the batch; u < v when undirected), weight 1, into adds.
   set: an edge-key set of setcap slots (a power of two, at least 2 * nadd). */
BENCH_FN void pick_batch(rng *r, dg_graph *g, int undirected, dg_edge *cur, size_t *ncur,
                         dg_edge *rems, size_t nrem, dg_edge *adds, size_t nadd, uint64_t *set,
                         size_t setcap)
{
    size_t n = dg_vertex_id_bound(g), j;
    for (j = 0; j < nrem; j++) {
        size_t i = (size_t)rng_below(r, *ncur);
        rems[j] = cur[i];
        cur[i] = cur[--*ncur];
    }
    memset(set, 0, setcap * sizeof *set);
    for (j = 0; j < nadd; j++) {
        dg_vertex a, b;
        do {
            a = (dg_vertex)rng_below(r, n);
            b = (dg_vertex)rng_below(r, n);
            if (undirected && a > b) { dg_vertex t = a; a = b; b = t; }
        } while (a == b || dg_has_edge(g, a, b) || !set_insert(set, setcap, ekey(a, b)));
        adds[j].src = a; adds[j].dst = b; adds[j].weight = 1.0f;
    }
}

/* ------------------------------------------------------------------------------------------ */
/* The search benchmarks (bench_bfs, bench_sssp): graphs, roots, options, dynamic batches       */
/* ------------------------------------------------------------------------------------------ */

enum { G_KRON = 0, G_UNIFORM = 1, G_GRID = 2, NGRAPHS = 3 };
static const char *const GRAPH_NAMES[NGRAPHS] = { "kron", "uniform", "grid" };

/* The generator seed of graph gi at this scale. */
BENCH_FN uint64_t graph_seed(uint64_t seed, int gi, int scale)
{
    return seed * 1000003ull + (uint64_t)gi + (uint64_t)scale * 0x10000ull;
}

/* The tuples of graph gi at this scale: kron and uniform 2^scale vertices and 16 tuples per
   vertex, grid floor(sqrt(2^scale))^2 vertices. *n receives the vertex count, *m the tuples. */
BENCH_FN dg_edge *gen_graph(int gi, int scale, uint64_t seed, size_t *n, size_t *m)
{
    if (gi == G_GRID) {
        size_t side = (size_t)floor(sqrt((double)((size_t)1 << scale)) + 1e-9);
        *n = side * side;
        return gen_grid(side, m);
    }
    *n = (size_t)1 << scale;
    *m = 16 * *n;
    return gi == G_KRON ? gen_kronecker(scale, *m, seed) : gen_uniform(*n, *m, seed, 0);
}

/* Roots: up to `want` distinct random vertices (drawn from the graph's seed) with an arc to
   another vertex in the CSR off / col of n vertices (Graph500). *nroots receives how many;
   exits when there is none. */
BENCH_FN dg_vertex *pick_roots(const uint32_t *off, const int32_t *col, size_t n, int want, uint64_t seed,
                               int *nroots)
{
    dg_vertex *roots = (dg_vertex *)xmalloc((size_t)want * sizeof *roots);
    size_t k;
    int i;
    rng r;
    rng_seed(&r, seed ^ 0x600DF00Dull);
    *nroots = 0;
    for (k = 0; k < 100 * (size_t)want + 10000 && *nroots < want; k++) {
        dg_vertex v = (dg_vertex)rng_below(&r, n);
        int ok = 0;
        uint32_t a;
        for (a = off[v]; a < off[v + 1] && !ok; a++) ok = col[a] != v;
        for (i = 0; i < *nroots && ok; i++) ok = roots[i] != v;
        if (ok) roots[(*nroots)++] = v;
    }
    if (*nroots == 0) die("no vertex with an edge to start from");
    return roots;
}

#define BENCH_MAX_LIST 32
#define BENCH_MAX_STRATS 16

/* The options both search benchmarks take (each adds its own) */
typedef struct bench_opts {
    int scales[BENCH_MAX_LIST], nscales;
    int graphs[NGRAPHS];          /* chosen generated graphs */
    int strats[BENCH_MAX_STRATS]; /* chosen strategies (--strategies: their names) */
    const char *const *strat_names;
    int nstrats;
    int roots;                    /* roots (sources) per graph */
    long dyn_k[BENCH_MAX_LIST]; int ndyn;     /* batch sizes k of the dynamic scenario */
    int dyn_reps;                 /* batches per k */
    uint32_t page_size;
    int device_batches;           /* dg_desc.device_batches */
    const char *device;           /* dg_desc.device */
    const char *csv_path;
    uint64_t seed;
    int quick;
    int scales_given, graphs_given, dyn_given, no_dyn, reps_given;   /* on the command line */
} bench_opts;

/* Their lines of the usage text (each program prints the rest, and its own) */
#define BENCH_USAGE_SCALE \
    "  --scale LIST       scales, comma-separated (default 16,18,20,22; 12 with --quick):\n" \
    "                     kron and uniform have 2^S vertices and 16*2^S edge tuples, grid\n"
#define BENCH_USAGE_DYNAMIC \
    "  --dynamic LIST     batch sizes k of the dynamic scenario (default 1,1000,100000;\n" \
    "                     1,100,1000 with --quick); --no-dynamic: skip it\n" \
    "  --dyn-reps R       batches per k, medians reported (default 5; 3 with --quick)\n" \
    "  --device STR       dg_desc.device: gpu, cpu, or text matched against the device name\n" \
    "  --page P           dg_desc.page_size (default 0: the library's default)\n" \
    "  --device-batches D dg_desc.device_batches: 1 device, -1 host, 0 automatic (default)\n"
#define BENCH_USAGE_SEED \
    "  --seed N           generator seed (default 1)\n"

/* The defaults: every graph, every strategy of the nstrats named, `roots` roots, seed 1, 5
   batches per k. */
BENCH_FN void opts_init(bench_opts *c, const char *const *strat_names, int nstrats, int roots)
{
    int i;
    memset(c, 0, sizeof *c);
    if (nstrats > BENCH_MAX_STRATS) die("too many strategies");
    for (i = 0; i < NGRAPHS; i++) c->graphs[i] = 1;
    for (i = 0; i < nstrats; i++) c->strats[i] = 1;
    c->strat_names = strat_names;
    c->nstrats = nstrats;
    c->roots = roots;
    c->seed = 1;
    c->dyn_reps = 5;
}

/* A program's own options: how many arguments it took at a (1: a flag; 2: a and its value v,
   NULL when a is the last argument), 0 when a is none of them. */
typedef int (*own_opt_fn)(void *ctx, const char *a, const char *v);

/* The command line: the common options into c, the others through own(ctx, a, v). --help
   prints usage() and exits 0; an unknown option or a missing value exits 2 with a message. */
BENCH_FN void opts_parse(bench_opts *c, int argc, char **argv, own_opt_fn own, void *ctx,
                         void (*usage)(void))
{
    long tmp[BENCH_MAX_LIST];
    int i, j, took;
    for (i = 1; i < argc; i += took) {
        const char *a = argv[i], *v = (i + 1 < argc) ? argv[i + 1] : NULL;
        took = 2;
        if (!strcmp(a, "--scale")) {
            c->nscales = parse_list(v, a, tmp, BENCH_MAX_LIST, 1, 29);
            for (j = 0; j < c->nscales; j++) c->scales[j] = (int)tmp[j];
            c->scales_given = 1;
        }
        else if (!strcmp(a, "--graphs") || !strcmp(a, "--graph")) {
            parse_names(v, a, GRAPH_NAMES, NGRAPHS, c->graphs); c->graphs_given = 1;
        }
        else if (!strcmp(a, "--strategies") || !strcmp(a, "--strategy"))
            parse_names(v, a, c->strat_names, c->nstrats, c->strats);
        else if (!strcmp(a, "--roots")) c->roots = (int)parse_long(v, a, 1, 4096);
        else if (!strcmp(a, "--dynamic")) {
            c->ndyn = parse_list(v, a, c->dyn_k, BENCH_MAX_LIST, 1, 100000000L); c->dyn_given = 1;
        }
        else if (!strcmp(a, "--no-dynamic")) { c->no_dyn = 1; took = 1; }
        else if (!strcmp(a, "--dyn-reps")) { c->dyn_reps = (int)parse_long(v, a, 1, 1000); c->reps_given = 1; }
        else if (!strcmp(a, "--device")) {
            if (!v) { fprintf(stderr, BENCH_NAME ": --device needs a value\n"); exit(2); }
            c->device = v;
        }
        else if (!strcmp(a, "--page")) c->page_size = (uint32_t)parse_long(v, a, 0, 65536);
        else if (!strcmp(a, "--device-batches")) c->device_batches = (int)parse_long(v, a, -1, 1);
        else if (!strcmp(a, "--csv")) {
            if (!v) { fprintf(stderr, BENCH_NAME ": --csv needs a file name\n"); exit(2); }
            c->csv_path = v;
        }
        else if (!strcmp(a, "--seed")) c->seed = (uint64_t)parse_long(v, a, 0, 0x7fffffffL);
        else if (!strcmp(a, "--quick")) { c->quick = 1; took = 1; }
        else if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage(); exit(0); }
        else if ((took = own(ctx, a, v)) == 0) {
            fprintf(stderr, BENCH_NAME ": unknown option %s\n", a);
            usage();
            exit(2);
        }
    }
}

/* The defaults that depend on --quick; explicit options win over it, whatever their order. */
BENCH_FN void opts_finish(bench_opts *c)
{
    if (!c->scales_given) {
        if (c->quick) { c->scales[0] = 12; c->nscales = 1; }
        else {
            static const int def[4] = { 16, 18, 20, 22 };
            for (c->nscales = 0; c->nscales < 4; c->nscales++) c->scales[c->nscales] = def[c->nscales];
        }
    }
    if (!c->dyn_given) {
        static const long defq[3] = { 1, 100, 1000 }, def[3] = { 1, 1000, 100000 };
        for (c->ndyn = 0; c->ndyn < 3; c->ndyn++) c->dyn_k[c->ndyn] = c->quick ? defq[c->ndyn] : def[c->ndyn];
    }
    if (c->no_dyn) c->ndyn = 0;
    if (!c->reps_given && c->quick) c->dyn_reps = 3;
}

/* All three: the defaults, the command line, the defaults --quick sets. */
BENCH_FN void opts_read(bench_opts *c, const char *const *strat_names, int nstrats, int roots, int argc,
                        char **argv, own_opt_fn own, void *ctx, void (*usage)(void))
{
    opts_init(c, strat_names, nstrats, roots);
    opts_parse(c, argc, argv, own, ctx, usage);
    opts_finish(c);
}

/* The dynamic scenario's buffers for batches of up to maxk changes: additions, removals, and
   the edge-key set pick_batch checks the additions against. */
typedef struct batch_bufs {
    dg_edge *adds, *rems;
    uint64_t *set;
    size_t setcap;
} batch_bufs;

/* Sizes over every k of c (reps batches each, one warm-up batch more): *maxadd the edges the
   scenario can add in all, *maxk the largest k; and the buffers for batches of *maxk. */
BENCH_FN void batch_bufs_alloc(batch_bufs *bb, const bench_opts *c, size_t *maxadd, size_t *maxk)
{
    int ki;
    *maxadd = *maxk = 0;
    for (ki = 0; ki < c->ndyn; ki++) {
        *maxadd += (size_t)(c->dyn_reps + 1) * ((size_t)c->dyn_k[ki] / 2 + 1);
        if ((size_t)c->dyn_k[ki] > *maxk) *maxk = (size_t)c->dyn_k[ki];
    }
    bb->adds = (dg_edge *)xmalloc((*maxk / 2 + 2) * sizeof *bb->adds);
    bb->rems = (dg_edge *)xmalloc((*maxk / 2 + 2) * sizeof *bb->rems);
    bb->setcap = 16;
    while (bb->setcap < 2 * (*maxk / 2 + 2)) bb->setcap *= 2;
    bb->set = (uint64_t *)xmalloc(bb->setcap * sizeof *bb->set);
}

BENCH_FN void batch_bufs_free(batch_bufs *bb)
{
    free(bb->adds); free(bb->rems); free(bb->set);
    memset(bb, 0, sizeof *bb);
}

/* The random source of the dynamic scenario on graph `name` at this scale. */
BENCH_FN void dyn_rng_seed(rng *r, const bench_opts *c, int scale, const char *name)
{
    rng_seed(r, c->seed * 7919ull + (uint64_t)scale * 131ull + (uint64_t)(name[0]) + 0xD1CEull);
}

/* Round ki of the dynamic scenario: k changes per batch (ki = -1: the untimed warm-up, up to
   1000). Batch rep of k: *nadd additions, *nrem removals (k = 1 alternates them). */
BENCH_FN long dyn_k_of(const bench_opts *c, int ki, size_t maxk)
{
    return ki < 0 ? (maxk < 1000 ? (long)maxk : 1000) : c->dyn_k[ki];
}

BENCH_FN void batch_split(long k, int rep, size_t *nadd, size_t *nrem)
{
    *nadd = (size_t)k / 2 + ((k & 1) && !(rep & 1));
    *nrem = (size_t)k - *nadd;
}

/* The batch's additions bb->adds[0..nadd-1] and removals bb->rems[0..nrem-1] applied (one
   dg_add_edges, one dg_remove_edges: *t_add and *t_rem receive their seconds), the additions
   appended to the current edge set cur[0..*ncur-1]; the counts checked (FAIL lines). */
BENCH_FN void batch_apply(dg_graph *g, const batch_bufs *bb, size_t nadd, size_t nrem, dg_edge *cur,
                          size_t *ncur, const char *what, double *t_add, double *t_rem)
{
    size_t added = 0, removed = 0, j;
    double t0, t1, t2;
    t0 = now_s();
    CK(g, dg_add_edges(g, bb->adds, nadd, &added));
    t1 = now_s();
    CK(g, dg_remove_edges(g, bb->rems, nrem, &removed));
    t2 = now_s();
    *t_add = t1 - t0;
    *t_rem = t2 - t1;
    for (j = 0; j < nadd; j++) cur[(*ncur)++] = bb->adds[j];
    if (added != nadd || removed != nrem || dg_edge_count(g) != *ncur)
        fail("%s: added %zu of %zu, removed %zu of %zu; dg_edge_count %zu, expected %zu",
             what, added, nadd, removed, nrem, dg_edge_count(g), *ncur);
}

#endif /* BENCH_COMMON_H */
