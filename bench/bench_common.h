/* bench_common.h - what the dyngraph benchmarks share: error exits, clocks, medians, FAIL lines
   and notes, option parsing, the xoshiro256** generator, the graph generators (Graph500
   Kronecker, uniform random, 2-D grid) and edge weights, and the device helpers of the static
   alternative (timed CSR upload, pinned staging memory, an edge-key hash set).

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
   doubling); returns the array, which may have moved. The new element is at index *n - 1. */
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

/* A failed check: a FAIL line on stderr and in the Markdown output; counted in g_fails. */
BENCH_FN BENCH_PRINTF(1, 2) void fail(const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    g_fails++;
    fprintf(stderr, "FAIL: %s\n", buf);
    printf("FAIL: %s\n\n", buf);
    fflush(stdout);
}

/* A note: printed to stderr now, kept for the Notes list of the Markdown output. */
BENCH_FN BENCH_PRINTF(1, 2) void note(const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    fprintf(stderr, "  %s\n", buf);
    if (g_nnotes == g_capnotes) {
        g_capnotes = g_capnotes ? 2 * g_capnotes : 32;
        g_notes = (char **)xrealloc(g_notes, (size_t)g_capnotes * sizeof *g_notes);
    }
    g_notes[g_nnotes] = (char *)xmalloc(strlen(buf) + 1);
    strcpy(g_notes[g_nnotes++], buf);
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

#endif /* BENCH_COMMON_H */
