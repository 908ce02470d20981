/* bench_reach.c - reachability benchmark of dyngraph (dg_reach: the GRAIL index and batched
   queries on the OpenCL device).

   Graphs, each loaded DIRECTED and unweighted: every GRAIL dataset (*.gra in --grail DIR), the
   SNAP citation fragment cit-HepPh_partial.txt, and generated graphs of 1M-10M vertices:
     dag       random DAG: vertices in a random order, each gets D out-edges to vertices
               uniform among those after it;
     citation  citation-like DAG: vertices arrive one by one and each cites D earlier ones,
               mostly recent (distance (p-1) * u^4, u uniform);
     cyclic    the random DAG with its order cut into blocks of 1..B vertices, each block
               closed into a directed cycle: every block is one strongly connected component,
               so the condensation matters.
   Vertex ids are randomly permuted. Per graph:
     1. a host snapshot of the out-lists (read back with dg_neighbors), Tarjan's strongly
        connected components (the component count is checked against dg_reach_stats), the
        query sets: random pairs and known-positive pairs (t at the end of a random walk of
        1..32 steps from s), drawn among the vertices with an edge;
     2. the baseline: a per-query CPU BFS with early exit at the target over the snapshot, on
        a sample of the queries (capped in time), extrapolated to queries/s; its answers are
        the reference the device results are compared with;
     3. the index build, both paths (opt.build = DG_REACH_BUILD_HOST and _DEVICE, opt.rebuild
        = 1, one trivial query), median of several runs; a failing path prints "n/a" and its
        message;
     4. query throughput on the index opt.build = AUTO builds (and for the largest sets on the
        other path's): each query set after one warm-up call, median of R runs;
     5. optionally (--labels-sweep) the same for d = 1..5 labels per component;
     6. the dynamic scenario: k edge deletions then the queries (filter-only mode), then the
        same k edges inserted again then the queries (the rebuild included).
   Every answer is checked: a sample against the CPU BFS, every known-positive query, every
   other result against the first one (same graph), after deletions every "yes" against the
   static answers. A wrong answer prints "check: FAILED ..." and stops the program (exit 1)
   unless --keep-going. The last line of the Markdown output is "check: ok (...)".

   Build:  make bench  (or: gcc -O2 -march=native -DNDEBUG -I. bench/bench_reach.c -o build/bench_reach -lOpenCL -lm)
   Run:    build/bench_reach --quick                     smoke test (GRAIL, 20000-vertex graphs)
           build/bench_reach --graphs dag --dag-vertices 10000000 --device gpu --csv F
           build/bench_reach --graphs grail,cit --labels-sweep
   The Markdown tables go to stdout, progress to stderr; build/bench_reach --help lists the
   options. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE     /* and madvise: the library offers its large arrays huge pages */
#define DYNGRAPH_IMPLEMENTATION
#include "dyngraph.h"

#define BENCH_NAME "bench_reach"
#include "bench_common.h"   /* utilities, FAIL lines and notes, random numbers, CSV */

#include <dirent.h>
#include <sys/stat.h>

/* ------------------------------------------------------------------------------------------ */
/* Options                                                                                     */
/* ------------------------------------------------------------------------------------------ */

#define RB_MAX_LIST 32
#define RB_MAX_RUNS 100
#define RB_MAX_FILES 256

enum { RK_GRAIL = 0, RK_CIT, RK_DAG, RK_CITATION, RK_CYCLIC, RK_N };
static const char *const RK_NAMES[RK_N] = { "grail", "cit", "dag", "citation", "cyclic" };

enum { Q_RANDOM = 0, Q_POSITIVE = 1 };
static const char *const Q_NAMES[2] = { "random", "positive" };

typedef struct options {
    const char *grail_dir;        /* NULL: the first of the default places that exists */
    const char *cit_file;         /* NULL: next to the GRAIL directory, else test/data */
    int graphs[RK_N];
    long dag_n[RB_MAX_LIST]; int ndag;
    int degree;                   /* out-edges per vertex of the generated graphs */
    int block;                    /* cyclic: largest block (cycle) */
    uint32_t labels;              /* d; 0: the library's default */
    long sweep[RB_MAX_LIST]; int nsweep;   /* d values of --labels-sweep */
    long queries[RB_MAX_LIST]; int nqueries;
    int runs, build_runs;
    long baseline;                /* CPU BFS sample per query kind */
    double baseline_s;            /* its time cap per kind */
    long dyn_k[RB_MAX_LIST]; int ndyn;
    int dyn_reps;
    long dyn_check;               /* CPU BFS sample after each deletion batch */
    double budget_s;              /* time after which a measurement stops adding runs */
    double time_limit;            /* --time-limit: seconds after which nothing new starts */
    const char *device;
    uint32_t page_size;
    const char *csv_path;
    uint64_t seed;
    int quick, keep_going;
} options;

static const char *build_name(dg_reach_build b)
{
    return b == DG_REACH_BUILD_HOST ? "host" : b == DG_REACH_BUILD_DEVICE ? "device" : "auto";
}

/* ------------------------------------------------------------------------------------------ */
/* The host snapshot, Tarjan, the CPU BFS                                                      */
/* ------------------------------------------------------------------------------------------ */

/* Out-lists of every vertex id (removed ones: none). An arc whose col is negative is taken out
   (the dynamic scenario marks deleted edges so: -1 - v). */
typedef struct hcsr {
    size_t n, m;
    uint32_t *row;                /* n + 1 */
    int32_t *col;                 /* m */
} hcsr;

static void hcsr_from_graph(hcsr *c, dg_graph *g)
{
    size_t n = dg_vertex_id_bound(g), v, deg, m = 0;
    c->n = n;
    c->row = (uint32_t *)xmalloc((n + 1) * sizeof *c->row);
    for (v = 0; v < n; v++) {
        c->row[v] = (uint32_t)m;
        if (!dg_has_vertex(g, (dg_vertex)v)) continue;
        CK(g, dg_degree(g, (dg_vertex)v, &deg));
        m += deg;
        if (m >= 0xffffffffull) die("graph too large for 32-bit offsets");
    }
    c->row[n] = (uint32_t)m;
    c->m = m;
    c->col = (int32_t *)xmalloc((m ? m : 1) * sizeof *c->col);
    for (v = 0; v < n; v++) {
        size_t want = c->row[v + 1] - c->row[v];
        if (!want) continue;
        CK(g, dg_neighbors(g, (dg_vertex)v, c->col + c->row[v], NULL, want, &deg));
        if (deg != want) die("dg_neighbors and dg_degree disagree");
    }
}

static void hcsr_free(hcsr *c)
{
    free(c->row); free(c->col);
    memset(c, 0, sizeof *c);
}

/* Strongly connected components of the live vertices (iterative Tarjan); removed vertices
   (alive[v] == 0) are not counted. Returns the number of components. */
static size_t tarjan_count(const hcsr *c, const uint8_t *alive)
{
    size_t n = c->n, r, nst = 0, ncs, nc = 0;
    int32_t *idx = (int32_t *)xmalloc((n ? n : 1) * sizeof *idx);
    int32_t *low = (int32_t *)xmalloc((n ? n : 1) * sizeof *low);
    int32_t *stk = (int32_t *)xmalloc((n ? n : 1) * sizeof *stk);
    int32_t *cs = (int32_t *)xmalloc((n ? n : 1) * sizeof *cs);
    uint32_t *ce = (uint32_t *)xmalloc((n ? n : 1) * sizeof *ce);
    uint8_t *on = (uint8_t *)xmalloc(n ? n : 1);
    int32_t counter = 0;
    for (r = 0; r < n; r++) { idx[r] = -1; on[r] = 0; }
    for (r = 0; r < n; r++) {
        if (idx[r] >= 0 || !alive[r]) continue;
        idx[r] = low[r] = counter++; stk[nst++] = (int32_t)r; on[r] = 1;
        cs[0] = (int32_t)r; ce[0] = c->row[r]; ncs = 1;
        while (ncs) {
            int32_t v = cs[ncs - 1];
            if (ce[ncs - 1] < c->row[v + 1]) {
                int32_t u = c->col[ce[ncs - 1]++];
                if (u < 0) continue;
                if (idx[u] < 0) {
                    idx[u] = low[u] = counter++; stk[nst++] = u; on[u] = 1;
                    cs[ncs] = u; ce[ncs] = c->row[u]; ncs++;
                } else if (on[u] && idx[u] < low[v]) low[v] = idx[u];
            } else {
                ncs--;
                if (low[v] == idx[v]) {
                    int32_t w;
                    do { w = stk[--nst]; on[w] = 0; } while (w != v);
                    nc++;
                }
                if (ncs && low[v] < low[cs[ncs - 1]]) low[cs[ncs - 1]] = low[v];
            }
        }
    }
    free(idx); free(low); free(stk); free(cs); free(ce); free(on);
    return nc;
}

/* The CPU baseline: a BFS from s that stops when it discovers t. mark[] holds the epoch of the
   search that last visited each vertex (no clearing between searches). */
typedef struct cpu_bfs {
    uint32_t *mark, epoch;
    int32_t *queue;
    size_t n;
} cpu_bfs;

static void cpu_bfs_init(cpu_bfs *b, size_t n)
{
    b->n = n;
    b->mark = (uint32_t *)calloc(n ? n : 1, sizeof *b->mark);
    b->queue = (int32_t *)xmalloc((n ? n : 1) * sizeof *b->queue);
    if (!b->mark) die("out of memory");
    b->epoch = 0;
}

static void cpu_bfs_free(cpu_bfs *b)
{
    free(b->mark); free(b->queue);
    memset(b, 0, sizeof *b);
}

static int cpu_reach(cpu_bfs *b, const hcsr *c, int32_t s, int32_t t)
{
    size_t head = 0, tail = 0;
    uint32_t ep;
    if (s == t) return 1;
    if (++b->epoch == 0) { memset(b->mark, 0, b->n * sizeof *b->mark); b->epoch = 1; }
    ep = b->epoch;
    b->queue[tail++] = s;
    b->mark[s] = ep;
    while (head < tail) {
        int32_t v = b->queue[head++];
        uint32_t k, end = c->row[v + 1];
        for (k = c->row[v]; k < end; k++) {
            int32_t u = c->col[k];
            if (u < 0) continue;
            if (u == t) return 1;
            if (b->mark[u] != ep) { b->mark[u] = ep; b->queue[tail++] = u; }
        }
    }
    return 0;
}

/* CPU BFS answers of the first queries, at most `want` and while the time stays under cap_s
   (at least one). Returns how many were answered; *secs the time they took. */
static size_t cpu_sample(cpu_bfs *b, const hcsr *c, const dg_vertex *s, const dg_vertex *t,
                         size_t want, double cap_s, uint8_t *ans, double *secs)
{
    double t0 = now_s(), el = 0;
    size_t i;
    for (i = 0; i < want; i++) {
        ans[i] = (uint8_t)cpu_reach(b, c, s[i], t[i]);
        el = now_s() - t0;
        if (el > cap_s) { i++; break; }
    }
    *secs = el;
    return i;
}

/* ------------------------------------------------------------------------------------------ */
/* Generated graphs                                                                            */
/* ------------------------------------------------------------------------------------------ */

static dg_vertex *rand_perm(rng *r, size_t n)
{
    dg_vertex *p = (dg_vertex *)xmalloc((n ? n : 1) * sizeof *p);
    size_t i;
    for (i = 0; i < n; i++) p[i] = (dg_vertex)i;
    for (i = n; i > 1; i--) {
        size_t j = (size_t)rng_below(r, i);
        dg_vertex x = p[i - 1]; p[i - 1] = p[j]; p[j] = x;
    }
    return p;
}

/* The tuples of generated graph `kind` (RK_DAG, RK_CITATION, RK_CYCLIC) of n vertices (ids
   permuted); repeats are left to dg_add_edges. *blocks receives the blocks of cyclic (its
   component count), 0 for the others. */
static dg_edge *gen_reach_graph(int kind, size_t n, int D, int B, uint64_t seed, size_t *m_out,
                                size_t *blocks)
{
    rng r;
    dg_vertex *perm;
    dg_edge *e;
    size_t cap = n * (size_t)D + (kind == RK_CYCLIC ? n : 0), m = 0, p;
    int j;
    rng_seed(&r, seed);
    perm = rand_perm(&r, n);
    e = (dg_edge *)xmalloc((cap ? cap : 1) * sizeof *e);
    *blocks = 0;
    for (p = 0; p < n; p++) {
        for (j = 0; j < D; j++) {
            size_t q;
            if (kind == RK_CITATION) {            /* cites an earlier vertex, mostly a recent one */
                double u;
                if (p == 0) break;
                u = rng_uniform(&r);
                q = p - 1 - (size_t)((double)(p - 1) * u * u * u * u);
            } else {                              /* a later vertex, uniform */
                if (p + 1 >= n) break;
                q = p + 1 + (size_t)rng_below(&r, n - 1 - p);
            }
            e[m].src = perm[p]; e[m].dst = perm[q]; e[m].weight = 1.0f; m++;
        }
    }
    if (kind == RK_CYCLIC) {
        for (p = 0; p < n;) {
            size_t len = 1 + (size_t)rng_below(&r, (uint64_t)B), k;
            if (len > n - p) len = n - p;
            for (k = 0; len > 1 && k < len; k++) {   /* p -> p+1 -> ... -> p+len-1 -> p */
                e[m].src = perm[p + k]; e[m].dst = perm[p + (k + 1) % len]; e[m].weight = 1.0f; m++;
            }
            (*blocks)++;
            p += len;
        }
    }
    free(perm);
    *m_out = m;
    return e;
}

/* ------------------------------------------------------------------------------------------ */
/* Rows                                                                                        */
/* ------------------------------------------------------------------------------------------ */

typedef struct irow {             /* one per graph: the index */
    char device[256], graph[96];
    size_t nbound, nlive, npool, m, comps, comps_ref;
    uint32_t d;
    double host_ms, host_scc_ms, host_call_ms; int host_runs;
    double dev_ms, dev_scc_ms, dev_call_ms; int dev_runs, dev_ok;
    const char *auto_on;          /* where AUTO built the index of the query rows */
    char dev_err[200];
    double load_s;
} irow;

typedef struct qrow {             /* a query set on an index */
    char device[256], graph[96], mode[16];
    int gidx;                     /* graph number (ordering) */
    char index[24];               /* where the index was built ("auto: host" for AUTO's choice) */
    const char *kind;             /* random or positive */
    uint32_t d;
    size_t n, m, comps, nq;
    int runs;
    double wall_ms, wall_min, wall_max, dev_ms;
    uint64_t by_labels, searched, positive;
    uint32_t batches, levels;
    double host_build_ms, dev_build_ms;
    double cpu_qps; size_t cpu_n;
    size_t checked_cpu, checked_all;
    char err[200];
} qrow;

typedef struct srow {             /* --labels-sweep: one d on one graph */
    char graph[96];
    uint32_t d;
    double host_ms, dev_ms; int dev_ok;
    size_t nq;
    double mq[2], frac[2];
    uint64_t searched[2];
    uint32_t levels[2];
} srow;

typedef struct drow {             /* dynamic scenario: k changes of one kind */
    char device[256], graph[96];
    size_t n, m, nq;
    long k;
    const char *op;               /* delete or insert */
    int reps;
    double update_ms, reach_ms, build_ms, dev_ms;
    double mq, static_mq;
    int filter_only, index_built;
    uint64_t by_labels, searched;
    uint32_t batches, levels;
    size_t checked_cpu, checked_all;
} drow;

/* Appends a zeroed row to a growable array; yields a pointer to it. */
#define PUSH_ROW(arr, n, cap) ((arr) = push_zeroed((arr), &(n), &(cap), sizeof *(arr)), &(arr)[(n) - 1])

static irow *g_irows; static int g_nirows, g_capirows;
static qrow *g_qrows; static int g_nqrows, g_capqrows;
static srow *g_srows; static int g_nsrows, g_capsrows;
static drow *g_drows_r; static int g_ndrows_r, g_capdrows_r;
static FILE *rb_csv, *rb_dcsv;
static size_t g_checked_cpu, g_checked_all;     /* answers compared, in all */
static double g_deadline;         /* --time-limit: no new measurement after this (0: none) */
static int g_skipped;             /* measurements skipped for it */

/* 1 once the --time-limit has passed: what is left is skipped (and counted). */
static int time_up(void)
{
    if (g_deadline <= 0 || now_s() < g_deadline) return 0;
    g_skipped++;
    return 1;
}

/* ------------------------------------------------------------------------------------------ */
/* One graph                                                                                   */
/* ------------------------------------------------------------------------------------------ */

typedef struct rgraph {
    const options *o;
    int kind, gidx;
    char name[96];
    char path[1024];
    dg_graph *g;
    char device[256];
    size_t nbound, nlive, m, comps_ref;
    hcsr c;
    cpu_bfs bfs;
    dg_vertex *pool; size_t npool;        /* vertices with an in- or out-edge */
    dg_vertex *spool; size_t nspool;      /* vertices with an out-edge */
    size_t maxq;
    dg_vertex *qs[2], *qt[2];             /* random, positive: maxq each */
    uint8_t *ref[2]; size_t nref[2];      /* CPU BFS answers of the first nref queries */
    double cpu_qps[2];
    uint8_t *res_static;                  /* AUTO's index, d: answers of the maxq random queries */
    uint8_t *res;                         /* scratch */
    double static_mq;
    uint32_t d;                           /* labels of the main rows (stats.labels) */
    dg_reach_build auto_build;            /* where AUTO built the index of the main rows */
    double host_build_ms, dev_build_ms;
    int dev_ok;
    char dev_err[200];
} rgraph;

/* A wrong answer: stop with a clear message (--keep-going: a FAIL line, go on). Returns 0. */
static int wrong(const rgraph *b, const char *what, size_t i, dg_vertex s, dg_vertex t, int got,
                 int want, const char *against)
{
    char msg[1024];
    snprintf(msg, sizeof msg, "%s, %s: query %zu (%d -> %d): dg_reach says %d, %s says %d",
             b->name, what, i, (int)s, (int)t, got, against, want);
    if (b->o->keep_going) { fail("check: %s", msg); return 0; }
    fflush(stdout);
    printf("\ncheck: FAILED: %s\n", msg);
    fprintf(stderr, BENCH_NAME ": check: FAILED: %s\n", msg);
    exit(1);
}

/* got[0..n) against want[0..n); stops at the first difference (or after 3 with --keep-going). */
static size_t check_same(const rgraph *b, const char *what, const dg_vertex *s, const dg_vertex *t,
                         const uint8_t *got, const uint8_t *want, size_t n, const char *against)
{
    size_t i, bad = 0;
    for (i = 0; i < n; i++)
        if ((got[i] != 0) != (want[i] != 0) && bad++ < 3)
            wrong(b, what, i, s[i], t[i], got[i], want[i], against);
    return n;
}

/* After deletions: every "yes" must have been a "yes" before. */
static size_t check_subset(const rgraph *b, const char *what, const dg_vertex *s, const dg_vertex *t,
                           const uint8_t *got, const uint8_t *before, size_t n)
{
    size_t i, bad = 0;
    for (i = 0; i < n; i++)
        if (got[i] && !before[i] && bad++ < 3)
            wrong(b, what, i, s[i], t[i], got[i], 0, "the graph before the deletions");
    return n;
}

static size_t count_ones(const uint8_t *r, size_t n)
{
    size_t i, c = 0;
    for (i = 0; i < n; i++) c += r[i] != 0;
    return c;
}

/* dg_reach_ex with these options; the wall time of the call into *ms. */
static dg_status reach_call(rgraph *b, const dg_vertex *s, const dg_vertex *t, size_t n, uint8_t *res,
                            dg_reach_build build, uint32_t d, int rebuild, dg_reach_stats *st, double *ms)
{
    dg_reach_options ro;
    double t0;
    dg_status r;
    memset(&ro, 0, sizeof ro);
    memset(st, 0, sizeof *st);
    ro.labels = d;
    ro.build = build;
    ro.rebuild = rebuild;
    ro.stats = st;
    t0 = now_s();
    r = dg_reach_ex(b->g, s, t, n, res, &ro);
    *ms = (now_s() - t0) * 1e3;
    return r;
}

/* The index build on `where` (rebuild = 1, one trivial query): median of runs. Returns 1, or 0 with
   the message in err. */
static int measure_build(rgraph *b, dg_reach_build where, uint32_t d, int runs, double *ms,
                         double *scc_ms, double *call_ms, int *done, size_t *comps, char *err, size_t errcap)
{
    double tb[RB_MAX_RUNS], ts[RB_MAX_RUNS], tc[RB_MAX_RUNS], spent = 0;
    dg_reach_stats st;
    dg_vertex v = b->spool[0];
    uint8_t one;
    int r;
    *done = 0;
    for (r = 0; r < runs; r++) {
        dg_status s;
        if (r >= 1 && spent > b->o->budget_s) break;
        /* one query (v -> v): a call without queries returns before looking at the index */
        s = reach_call(b, &v, &v, 1, &one, where, d, 1, &st, &tc[r]);
        if (s != DG_OK) {
            snprintf(err, errcap, "%.40s: %.150s", dg_status_string(s), dg_error_message(b->g));
            return 0;
        }
        spent += tc[r] * 1e-3;
        if (!st.index_built) fail("%s: rebuild = 1 with build %s: stats.index_built is 0", b->name, build_name(where));
        if (where != DG_REACH_BUILD_AUTO && st.built_on != where) fail("%s: build %s: stats.built_on is %d", b->name, build_name(where), (int)st.built_on);
        if (st.components != b->comps_ref)
            fail("%s: build %s: stats.components = %zu, Tarjan on the snapshot finds %zu", b->name,
                 build_name(where), st.components, b->comps_ref);
        if (st.scc_ms > st.build_ms || st.build_ms > tc[r] * 1.01 + 0.01)
            fail("%s: build %s: scc_ms %.3f, build_ms %.3f, call %.3f ms", b->name, build_name(where),
                 st.scc_ms, st.build_ms, tc[r]);
        tb[r] = st.build_ms; ts[r] = st.scc_ms;
        *comps = st.components;
        (*done)++;
    }
    *ms = median(tb, *done); *scc_ms = median(ts, *done); *call_ms = median(tc, *done);
    return 1;
}

/* Query set (s, t, nq) on the index of `build` with d labels: one warm-up call (it may build
   the index; rebuild: it must), then up to o->runs timed calls (fewer once o->budget_s is spent). Fills the
   times and stats of w and the answers into res. Returns 1, or 0 with w->err set. */
static int measure_queries(rgraph *b, const dg_vertex *s, const dg_vertex *t, size_t nq, uint8_t *res,
                           dg_reach_build build, uint32_t d, int rebuild, qrow *w)
{
    double tw[RB_MAX_RUNS], td[RB_MAX_RUNS], ms, spent = 0;
    dg_reach_stats st, st0;
    uint64_t pos0;
    int r;
    dg_status s0 = reach_call(b, s, t, nq, res, build, d, rebuild, &st0, &ms);
    if (s0 != DG_OK) {
        snprintf(w->err, sizeof w->err, "%.40s: %.150s", dg_status_string(s0), dg_error_message(b->g));
        return 0;
    }
    pos0 = count_ones(res, nq);
    if (st0.positive != pos0) fail("%s: stats.positive = %llu, the answers hold %llu", b->name,
                                   (unsigned long long)st0.positive, (unsigned long long)pos0);
    w->runs = 0;
    for (r = 0; r < b->o->runs; r++) {
        dg_status sr;
        if (r >= 1 && spent > b->o->budget_s) break;
        sr = reach_call(b, s, t, nq, res, build, d, 0, &st, &tw[r]);
        if (sr != DG_OK) {
            snprintf(w->err, sizeof w->err, "%.40s: %.150s", dg_status_string(sr), dg_error_message(b->g));
            return 0;
        }
        spent += tw[r] * 1e-3;
        td[r] = st.device_ms;
        w->runs++;
        if (st.index_built) fail("%s: %s %zu: the index was built again with nothing changed", b->name, w->kind, nq);
        if (st.queries != nq || st.by_labels + st.searched != nq)
            fail("%s: %s %zu: stats.queries %llu, by_labels %llu + searched %llu", b->name, w->kind, nq,
                 (unsigned long long)st.queries, (unsigned long long)st.by_labels, (unsigned long long)st.searched);
        if (st.positive != pos0 || count_ones(res, nq) != pos0)
            fail("%s: %s %zu: %llu positive answers, %llu in the warm-up", b->name, w->kind, nq,
                 (unsigned long long)st.positive, (unsigned long long)pos0);
        if (st.device_ms > 0 && st.device_ms > tw[r] * 1.05 + 0.05)
            fail("%s: %s %zu: device_ms %.3f > wall %.3f ms", b->name, w->kind, nq, st.device_ms, tw[r]);
        if (st.filter_only) fail("%s: %s %zu: filter_only with nothing removed", b->name, w->kind, nq);
    }
    w->wall_ms = median(tw, w->runs);
    w->wall_min = tw[0]; w->wall_max = tw[0];
    for (r = 0; r < w->runs; r++) {
        if (tw[r] < w->wall_min) w->wall_min = tw[r];
        if (tw[r] > w->wall_max) w->wall_max = tw[r];
    }
    w->dev_ms = median(td, w->runs);
    snprintf(w->index, sizeof w->index, "%s%s", build == DG_REACH_BUILD_AUTO ? "auto: " : "",
             build_name(st.built_on));
    w->d = st.labels;
    w->comps = st.components;
    w->by_labels = st.by_labels; w->searched = st.searched; w->positive = st.positive;
    w->batches = st.batches; w->levels = st.levels;
    return 1;
}

static double mqps(size_t nq, double ms) { return ms > 0 ? (double)nq / ms * 1e-3 : 0; }

static void print_q_csv_header(FILE *f)
{
    fprintf(f, "device,graph,mode,index,labels,kind,queries,vertices,edges,components,runs,"
               "wall_ms_median,wall_ms_min,wall_ms_max,device_ms_median,mqps_wall,mqps_device,"
               "by_labels,labels_fraction,searched,positive,batches,levels,host_build_ms,"
               "device_build_ms,cpu_bfs_qps,cpu_bfs_sample,speedup_vs_cpu_bfs,checked_cpu_bfs,"
               "checked_all,error\n");
}

static void print_q_csv_row(FILE *f, const qrow *w)
{
    double mq = mqps(w->nq, w->wall_ms);
    csv_str(f, w->device); fputc(',', f);
    csv_str(f, w->graph);
    fprintf(f, ",%s,%s,%u,%s,%zu,%zu,%zu,%zu,%d,%.4f,%.4f,%.4f,%.4f,%.5f,%.5f,%llu,%.5f,%llu,%llu,"
               "%u,%u,%.3f,%.3f,%.1f,%zu,%.3f,%zu,%zu,",
            w->mode, w->index, w->d, w->kind, w->nq, w->n, w->m, w->comps, w->runs, w->wall_ms,
            w->wall_min, w->wall_max, w->dev_ms, mq, mqps(w->nq, w->dev_ms),
            (unsigned long long)w->by_labels, w->nq ? (double)w->by_labels / (double)w->nq : 0,
            (unsigned long long)w->searched, (unsigned long long)w->positive, w->batches, w->levels,
            w->host_build_ms, w->dev_build_ms, w->cpu_qps, w->cpu_n,
            w->cpu_qps > 0 ? mq * 1e6 / w->cpu_qps : 0, w->checked_cpu, w->checked_all);
    csv_str(f, w->err);
    fputc('\n', f);
    fflush(f);
}

static void print_d_csv_header(FILE *f)
{
    fprintf(f, "device,graph,vertices,edges,k,change,reps,queries,update_ms,reach_ms,build_ms,"
               "device_ms,mqps,static_mqps,filter_only,index_built,by_labels,searched,batches,"
               "levels,checked_cpu_bfs,checked_all\n");
}

static void print_d_csv_row(FILE *f, const drow *w)
{
    csv_str(f, w->device); fputc(',', f);
    csv_str(f, w->graph);
    fprintf(f, ",%zu,%zu,%ld,%s,%d,%zu,%.4f,%.4f,%.4f,%.4f,%.5f,%.5f,%d,%d,%llu,%llu,%u,%u,%zu,%zu\n",
            w->n, w->m, w->k, w->op, w->reps, w->nq, w->update_ms, w->reach_ms, w->build_ms,
            w->dev_ms, w->mq, w->static_mq, w->filter_only, w->index_built,
            (unsigned long long)w->by_labels, (unsigned long long)w->searched, w->batches, w->levels,
            w->checked_cpu, w->checked_all);
    fflush(f);
}

/* A new query row of graph b with its constant columns. */
static qrow *new_qrow(rgraph *b, const char *mode, const char *index, int kind, size_t nq)
{
    qrow *w = PUSH_ROW(g_qrows, g_nqrows, g_capqrows);
    snprintf(w->device, sizeof w->device, "%s", b->device);
    snprintf(w->graph, sizeof w->graph, "%s", b->name);
    snprintf(w->mode, sizeof w->mode, "%s", mode);
    w->gidx = b->gidx;
    snprintf(w->index, sizeof w->index, "%s", index);
    w->kind = Q_NAMES[kind];
    w->n = b->nlive; w->m = b->m; w->nq = nq;
    w->comps = b->comps_ref;
    w->host_build_ms = b->host_build_ms;
    w->dev_build_ms = b->dev_ok ? b->dev_build_ms : -1;
    w->cpu_qps = b->cpu_qps[kind];
    w->cpu_n = b->nref[kind];
    return w;
}

/* ------------------------------------------------------------------------------------------ */
/* The steps of one graph                                                                      */
/* ------------------------------------------------------------------------------------------ */

/* The device first (on the empty graph: setup and kernel build stay out of the times), then
   the graph: a file through dg_load, or generated tuples through one dg_add_edges; then the
   first sync. Returns the seconds of load + sync; *blocks: the cyclic generator's blocks. */
static double load_graph(rgraph *b, size_t gen_n, size_t *blocks)
{
    const options *o = b->o;
    dg_desc desc;
    dg_status s;
    double t0;
    memset(&desc, 0, sizeof desc);
    desc.page_size = o->page_size;
    desc.device = o->device;
    s = dg_create(&desc, &b->g);
    if (s != DG_OK) die_dg(NULL, "dg_create", s, __LINE__);
    if (!dg_cl_context(b->g)) die_dg(b->g, "dg_cl_context", DG_ERR_OPENCL, __LINE__);
    snprintf(b->device, sizeof b->device, "%s", dg_device_name(b->g));
    *blocks = 0;
    t0 = now_s();
    if (b->kind == RK_GRAIL || b->kind == RK_CIT) {
        CK(b->g, dg_load(b->g, b->path, DG_FORMAT_AUTO));
    } else {
        size_t m, added;
        dg_vertex first;
        dg_edge *e = gen_reach_graph(b->kind, gen_n, o->degree, o->block,
                                     o->seed * 1000003ull + (uint64_t)b->kind * 77ull + gen_n, &m, blocks);
        fprintf(stderr, "  generated %zu tuples in %.2f s\n", m, now_s() - t0);
        t0 = now_s();
        CK(b->g, dg_add_vertices(b->g, gen_n, &first));
        CK(b->g, dg_add_edges(b->g, e, m, &added));
        free(e);
    }
    CK(b->g, dg_sync(b->g));
    return now_s() - t0;
}

/* The snapshot, the components, the vertex pools, the query sets, the CPU baseline. */
static void prepare(rgraph *b, size_t blocks)
{
    const options *o = b->o;
    size_t v, i, n;
    uint8_t *alive, *has_in;
    rng r;
    int k;
    double t0 = now_s();

    b->nbound = dg_vertex_id_bound(b->g);
    b->nlive = dg_vertex_count(b->g);
    b->m = dg_edge_count(b->g);
    hcsr_from_graph(&b->c, b->g);
    n = b->c.n;
    if (b->c.m != b->m) die("the snapshot's arcs differ from dg_edge_count");
    alive = (uint8_t *)xmalloc(n ? n : 1);
    has_in = (uint8_t *)calloc(n ? n : 1, 1);
    if (!has_in) die("out of memory");
    for (v = 0; v < n; v++) alive[v] = (uint8_t)dg_has_vertex(b->g, (dg_vertex)v);
    b->comps_ref = tarjan_count(&b->c, alive);
    if (b->kind == RK_CYCLIC && b->comps_ref != blocks)
        fail("%s: Tarjan finds %zu components, the generator made %zu blocks", b->name, b->comps_ref, blocks);
    for (i = 0; i < b->c.m; i++) has_in[b->c.col[i]] = 1;
    b->pool = (dg_vertex *)xmalloc((n ? n : 1) * sizeof *b->pool);
    b->spool = (dg_vertex *)xmalloc((n ? n : 1) * sizeof *b->spool);
    b->npool = b->nspool = 0;
    for (v = 0; v < n; v++) {
        int out = b->c.row[v + 1] > b->c.row[v];
        if (!alive[v]) continue;
        if (out || has_in[v]) b->pool[b->npool++] = (dg_vertex)v;
        if (out) b->spool[b->nspool++] = (dg_vertex)v;
    }
    free(alive); free(has_in);
    if (b->nspool == 0) die("a graph without edges");

    /* the queries: random pairs among the vertices with an edge; known positives */
    rng_seed(&r, o->seed ^ (0x7265616368ull + (uint64_t)b->gidx * 0x9E3779B97F4A7C15ull));
    for (k = 0; k < 2; k++) {
        b->qs[k] = (dg_vertex *)xmalloc(b->maxq * sizeof **b->qs);
        b->qt[k] = (dg_vertex *)xmalloc(b->maxq * sizeof **b->qt);
    }
    for (i = 0; i < b->maxq; i++) {
        dg_vertex s, t;
        int steps, j;
        b->qs[Q_RANDOM][i] = b->pool[rng_below(&r, b->npool)];
        b->qt[Q_RANDOM][i] = b->pool[rng_below(&r, b->npool)];
        s = t = b->spool[rng_below(&r, b->nspool)];
        steps = 1 + (int)rng_below(&r, 32);
        for (j = 0; j < steps; j++) {
            uint32_t deg = b->c.row[t + 1] - b->c.row[t];
            if (!deg) break;
            t = b->c.col[b->c.row[t] + rng_below(&r, deg)];
        }
        b->qs[Q_POSITIVE][i] = s; b->qt[Q_POSITIVE][i] = t;
    }

    /* the CPU baseline on a sample; its answers are the reference */
    cpu_bfs_init(&b->bfs, n);
    for (k = 0; k < 2; k++) {
        size_t want = (size_t)o->baseline < b->maxq ? (size_t)o->baseline : b->maxq, pos;
        double secs;
        b->ref[k] = (uint8_t *)xmalloc(want ? want : 1);
        b->nref[k] = cpu_sample(&b->bfs, &b->c, b->qs[k], b->qt[k], want, o->baseline_s, b->ref[k], &secs);
        b->cpu_qps[k] = secs > 0 ? (double)b->nref[k] / secs : 0;
        pos = count_ones(b->ref[k], b->nref[k]);
        if (k == Q_POSITIVE && pos != b->nref[k])
            die("internal: a known-positive query is not reachable for the CPU BFS");
        fprintf(stderr, "  CPU BFS, %s queries: %zu in %.3f s (%.0f queries/s), %zu positive\n",
                Q_NAMES[k], b->nref[k], secs, b->cpu_qps[k], pos);
    }
    fprintf(stderr, "  snapshot, components (%zu), queries and CPU baseline: %.2f s\n",
            b->comps_ref, now_s() - t0);
}

/* Both build paths, d = o->labels (else the library's default): b->d, passed explicitly from
   here on (opt.labels = 0 would keep the d of the index in use). */
static void run_builds(rgraph *b, double load_s)
{
    const options *o = b->o;
    irow *w = PUSH_ROW(g_irows, g_nirows, g_capirows);
    char err[200];
    size_t comps = 0;
    snprintf(w->device, sizeof w->device, "%s", b->device);
    snprintf(w->graph, sizeof w->graph, "%s", b->name);
    w->nbound = b->nbound; w->nlive = b->nlive; w->npool = b->npool; w->m = b->m;
    w->comps_ref = b->comps_ref;
    w->load_s = load_s;
    b->d = o->labels ? o->labels : DG_REACH_LABELS;
    if (!measure_build(b, DG_REACH_BUILD_HOST, b->d, o->build_runs, &w->host_ms, &w->host_scc_ms,
                       &w->host_call_ms, &w->host_runs, &comps, err, sizeof err)) {
        fprintf(stderr, BENCH_NAME ": %s: the host build failed: %s\n", b->name, err);
        exit(1);
    }
    w->comps = comps;
    w->d = b->d;
    b->host_build_ms = w->host_ms;
    fprintf(stderr, "  host build: %.3f ms (SCC %.3f ms), %zu components\n", w->host_ms, w->host_scc_ms, comps);
    {   /* dg_scc on the device beside the host Tarjan of the condensation (same graph) */
        double t[3], t0;
        size_t sc = 0;
        int r;
        if (dg_scc(b->g, NULL, &sc) != DG_OK) { fprintf(stderr, "dg_scc: %s\n", dg_error_message(b->g)); exit(1); }
        for (r = 0; r < 3; r++) { t0 = now_s(); dg_scc(b->g, NULL, &sc); t[r] = 1e3 * (now_s() - t0); }
        printf("scc: %s: dg_scc %.3f ms (median of 3 after a warm-up), %zu components; host Tarjan of the "
               "condensation %.3f ms, %zu components: %.1fx\n", b->name, median(t, 3), sc, w->host_scc_ms, comps,
               w->host_scc_ms / median(t, 3));
        if (sc != comps) fail("%s: dg_scc finds %zu components, the condensation %zu", b->name, sc, comps);
    }
    w->dev_ok = measure_build(b, DG_REACH_BUILD_DEVICE, b->d, o->build_runs, &w->dev_ms,
                              &w->dev_scc_ms, &w->dev_call_ms, &w->dev_runs, &comps, err, sizeof err);
    b->dev_ok = w->dev_ok;
    b->dev_build_ms = w->dev_ms;
    if (!w->dev_ok) {
        snprintf(w->dev_err, sizeof w->dev_err, "%s", err);
        snprintf(b->dev_err, sizeof b->dev_err, "%s", err);
        fprintf(stderr, "  device build: n/a (%s)\n", err);
    } else {
        fprintf(stderr, "  device build: %.3f ms (SCC %.3f ms)\n", w->dev_ms, w->dev_scc_ms);
    }
}

static int cmp_long_desc(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x < y) - (x > y);
}

/* The checks of a query row: the CPU BFS sample, every positive, the static answers. */
static void check_row(rgraph *b, qrow *w, int kind, size_t nq, const uint8_t *res, int have_static)
{
    char what[160];
    size_t nc = b->nref[kind] < nq ? b->nref[kind] : nq, i;
    snprintf(what, sizeof what, "%s index, d %u, %zu %s queries", w->index, w->d, nq, w->kind);
    w->checked_cpu = check_same(b, what, b->qs[kind], b->qt[kind], res, b->ref[kind], nc, "the CPU BFS");
    if (kind == Q_POSITIVE) {
        size_t bad = 0;
        for (i = 0; i < nq; i++)
            if (!res[i] && bad++ < 3)
                wrong(b, what, i, b->qs[kind][i], b->qt[kind][i], 0, 1, "the walk that drew t from s");
        w->checked_all = nq;
    } else if (have_static && res != b->res_static) {
        w->checked_all = check_same(b, what, b->qs[kind], b->qt[kind], res, b->res_static, nq,
                                    "the first result (AUTO's index, largest set)");
    }
    g_checked_cpu += w->checked_cpu;
    g_checked_all += w->checked_all;
}

static void progress(const qrow *w)
{
    if (w->err[0]) { fprintf(stderr, "  %s %s d%u %zu %s: n/a (%s)\n", w->mode, w->index, w->d, w->nq, w->kind, w->err); return; }
    fprintf(stderr, "  %s %s d%u %8zu %-8s %2d runs: %8.3f M q/s (%.3f ms), by labels %.3f, "
            "searched %llu, %u batches, %u levels\n", w->mode, w->index, w->d, w->nq, w->kind,
            w->runs, mqps(w->nq, w->wall_ms), w->wall_ms, w->nq ? (double)w->by_labels / (double)w->nq : 0,
            (unsigned long long)w->searched, w->batches, w->levels);
}

/* The query sets on the index the library chooses (opt.build = AUTO, rebuilt by the first
   call), largest first: its random answers are the static answers every later result is
   compared with. Then the largest sets on the index of the other build path. Returns 1 when
   the static answers exist. */
static int run_queries(rgraph *b)
{
    const options *o = b->o;
    long qn[RB_MAX_LIST];
    int i, k, p, have_static = 0;
    dg_reach_build chosen = DG_REACH_BUILD_AUTO;
    memcpy(qn, o->queries, (size_t)o->nqueries * sizeof *qn);
    qsort(qn, (size_t)o->nqueries, sizeof *qn, cmp_long_desc);
    for (k = 0; k < 2; k++)
        for (i = 0; i < o->nqueries; i++) {
            size_t nq = (size_t)qn[i];
            int first = k == Q_RANDOM && i == 0;
            uint8_t *res = first ? b->res_static : b->res;
            qrow *w;
            if (!first && time_up()) continue;
            w = new_qrow(b, "query", "auto", k, nq);
            if (measure_queries(b, b->qs[k], b->qt[k], nq, res, DG_REACH_BUILD_AUTO, b->d, first, w)) {
                if (first) {
                    have_static = 1;
                    b->static_mq = mqps(nq, w->wall_ms);
                    chosen = !strcmp(w->index, "auto: device") ? DG_REACH_BUILD_DEVICE : DG_REACH_BUILD_HOST;
                    if (w->d != b->d) fail("%s: stats.labels = %u, asked for %u", b->name, w->d, b->d);
                }
                check_row(b, w, k, nq, res, have_static);
            }
            if (!w->d) w->d = b->d;
            progress(w);
            if (rb_csv) print_q_csv_row(rb_csv, w);
        }
    b->auto_build = chosen;
    if (have_static) g_irows[g_nirows - 1].auto_on = build_name(chosen);
    for (p = DG_REACH_BUILD_HOST; p <= DG_REACH_BUILD_DEVICE; p++) {
        if (p == (int)chosen || (p == DG_REACH_BUILD_DEVICE && !b->dev_ok)) continue;
        for (k = 0; k < 2; k++) {
            qrow *w;
            if (time_up()) continue;
            w = new_qrow(b, "other-index", build_name((dg_reach_build)p), k, b->maxq);
            if (measure_queries(b, b->qs[k], b->qt[k], b->maxq, b->res, (dg_reach_build)p, b->d, 0, w))
                check_row(b, w, k, b->maxq, b->res, have_static);
            if (!w->d) w->d = b->d;
            progress(w);
            if (rb_csv) print_q_csv_row(rb_csv, w);
        }
    }
    return have_static;
}

/* --labels-sweep: per d, both builds, then the largest query sets on the index AUTO builds. */
static void run_sweep(rgraph *b, int have_static)
{
    const options *o = b->o;
    int si, k;
    for (si = 0; si < o->nsweep; si++) {
        uint32_t d = (uint32_t)o->sweep[si];
        srow *sw;
        double scc, call;
        int done;
        size_t comps;
        char err[200];
        if (time_up()) continue;
        sw = PUSH_ROW(g_srows, g_nsrows, g_capsrows);
        snprintf(sw->graph, sizeof sw->graph, "%s", b->name);
        sw->d = d;
        sw->nq = b->maxq;
        if (!measure_build(b, DG_REACH_BUILD_HOST, d, o->build_runs, &sw->host_ms, &scc, &call, &done,
                           &comps, err, sizeof err)) {
            fprintf(stderr, BENCH_NAME ": %s: the host build with d = %u failed: %s\n", b->name, d, err);
            exit(1);
        }
        sw->dev_ok = b->dev_ok && measure_build(b, DG_REACH_BUILD_DEVICE, d, o->build_runs, &sw->dev_ms,
                                                &scc, &call, &done, &comps, err, sizeof err);
        for (k = 0; k < 2; k++) {
            qrow *w = new_qrow(b, "sweep", "auto", k, b->maxq);
            w->host_build_ms = sw->host_ms;
            w->dev_build_ms = sw->dev_ok ? sw->dev_ms : -1;
            if (measure_queries(b, b->qs[k], b->qt[k], b->maxq, b->res, DG_REACH_BUILD_AUTO, d, 1, w)) {
                check_row(b, w, k, b->maxq, b->res, have_static);
                sw->mq[k] = mqps(b->maxq, w->wall_ms);
                sw->frac[k] = (double)w->by_labels / (double)b->maxq;
                sw->searched[k] = w->searched;
                sw->levels[k] = w->levels;
            } else {
                sw->mq[k] = -1;
            }
            if (!w->d) w->d = d;
            progress(w);
            if (rb_csv) print_q_csv_row(rb_csv, w);
        }
    }
}

/* k distinct arcs of the snapshot at random: into e (and arc: their places), marked deleted
   in the snapshot (col = -1 - v). */
static void pick_arcs(rng *r, hcsr *c, size_t k, size_t *arc, dg_edge *e)
{
    size_t j;
    for (j = 0; j < k; j++) {
        size_t a, lo = 0, hi = c->n;
        do a = (size_t)rng_below(r, c->m); while (c->col[a] < 0);
        while (lo < hi) {                     /* the last u with row[u] <= a */
            size_t mid = (lo + hi + 1) / 2;
            if (c->row[mid] <= a) lo = mid; else hi = mid - 1;
        }
        e[j].src = (dg_vertex)lo; e[j].dst = c->col[a]; e[j].weight = 1.0f;
        arc[j] = a;
        c->col[a] = -1 - c->col[a];
    }
}

/* The dynamic scenario on the largest random query set: per k and rep, k random edges
   deleted then the queries (filter-only), then the same k edges inserted again then the
   queries (the rebuild included). */
static void run_dynamic(rgraph *b)
{
    const options *o = b->o;
    size_t nq = b->maxq, maxk = 0;
    int ki, rep, k2;
    uint8_t *ans;
    size_t *arc;
    dg_edge *e;
    for (ki = 0; ki < o->ndyn; ki++) if ((size_t)o->dyn_k[ki] > maxk) maxk = (size_t)o->dyn_k[ki];
    arc = (size_t *)xmalloc(maxk * sizeof *arc);
    e = (dg_edge *)xmalloc(maxk * sizeof *e);
    ans = (uint8_t *)xmalloc(o->dyn_check > 0 ? (size_t)o->dyn_check : 1);
    {   /* AUTO's index again, as for the static rows (the other rows and the sweep replaced it) */
        dg_reach_stats st;
        double ms;
        dg_vertex v = b->spool[0];
        uint8_t one;
        CK(b->g, reach_call(b, &v, &v, 1, &one, DG_REACH_BUILD_AUTO, b->d, 1, &st, &ms));
    }
    for (ki = 0; ki < o->ndyn; ki++) {
        size_t k = (size_t)o->dyn_k[ki], j;
        double col[2][5][RB_MAX_RUNS];      /* [delete, insert] x [update, reach, build, device, -] */
        dg_reach_stats last[2];
        size_t chk_cpu = 0, chk_del = 0, chk_ins = 0;
        rng r;
        if (time_up()) continue;
        if (k > b->m / 2) { note("%s: dynamic k = %zu skipped (the graph has %zu edges)", b->name, k, b->m); continue; }
        rng_seed(&r, o->seed * 0x51ED27ull + k + (uint64_t)b->gidx * 0x10001ull);
        memset(last, 0, sizeof last);
        for (rep = 0; rep < o->dyn_reps; rep++) {
            size_t done, nc;
            double t0, ms, secs;
            dg_reach_stats st;
            char what[160];
            pick_arcs(&r, &b->c, k, arc, e);
            t0 = now_s();
            CK(b->g, dg_remove_edges(b->g, e, k, &done));
            col[0][0][rep] = (now_s() - t0) * 1e3;
            if (done != k) fail("%s: dg_remove_edges removed %zu of %zu edges", b->name, done, k);
            CK(b->g, reach_call(b, b->qs[Q_RANDOM], b->qt[Q_RANDOM], nq, b->res, DG_REACH_BUILD_AUTO,
                                b->d, 0, &st, &ms));
            col[0][1][rep] = ms; col[0][2][rep] = st.build_ms; col[0][3][rep] = st.device_ms;
            last[0] = st;
            if (!st.filter_only || st.index_built)
                fail("%s: after %zu deletions: filter_only %d, index_built %d (expected 1, 0)", b->name, k,
                     st.filter_only, st.index_built);
            snprintf(what, sizeof what, "after %zu deletions (rep %d)", k, rep);
            chk_del += check_subset(b, what, b->qs[Q_RANDOM], b->qt[Q_RANDOM], b->res, b->res_static, nq);
            nc = cpu_sample(&b->bfs, &b->c, b->qs[Q_RANDOM], b->qt[Q_RANDOM],
                            (size_t)o->dyn_check < nq ? (size_t)o->dyn_check : nq, o->baseline_s / 2, ans, &secs);
            chk_cpu += check_same(b, what, b->qs[Q_RANDOM], b->qt[Q_RANDOM], b->res, ans, nc, "the CPU BFS");

            t0 = now_s();
            CK(b->g, dg_add_edges(b->g, e, k, &done));
            col[1][0][rep] = (now_s() - t0) * 1e3;
            if (done != k) fail("%s: dg_add_edges added %zu of %zu edges", b->name, done, k);
            for (j = 0; j < k; j++) b->c.col[arc[j]] = -1 - b->c.col[arc[j]];
            CK(b->g, reach_call(b, b->qs[Q_RANDOM], b->qt[Q_RANDOM], nq, b->res, DG_REACH_BUILD_AUTO,
                                b->d, 0, &st, &ms));
            col[1][1][rep] = ms; col[1][2][rep] = st.build_ms; col[1][3][rep] = st.device_ms;
            last[1] = st;
            if (st.filter_only || !st.index_built)
                fail("%s: after %zu insertions: filter_only %d, index_built %d (expected 0, 1)", b->name, k,
                     st.filter_only, st.index_built);
            snprintf(what, sizeof what, "after %zu deletions and the same insertions (rep %d)", k, rep);
            chk_ins += check_same(b, what, b->qs[Q_RANDOM], b->qt[Q_RANDOM], b->res, b->res_static, nq,
                                  "the static answers (same graph)");
        }
        g_checked_cpu += chk_cpu; g_checked_all += chk_del + chk_ins;
        for (k2 = 0; k2 < 2; k2++) {
            drow *d = PUSH_ROW(g_drows_r, g_ndrows_r, g_capdrows_r);
            snprintf(d->device, sizeof d->device, "%s", b->device);
            snprintf(d->graph, sizeof d->graph, "%s", b->name);
            d->n = b->nlive; d->m = b->m; d->nq = nq; d->k = (long)k;
            d->op = k2 ? "insert" : "delete";
            d->reps = o->dyn_reps;
            d->update_ms = median(col[k2][0], o->dyn_reps);
            d->reach_ms = median(col[k2][1], o->dyn_reps);
            d->build_ms = median(col[k2][2], o->dyn_reps);
            d->dev_ms = median(col[k2][3], o->dyn_reps);
            d->mq = mqps(nq, d->reach_ms);
            d->static_mq = b->static_mq;
            d->filter_only = last[k2].filter_only; d->index_built = last[k2].index_built;
            d->by_labels = last[k2].by_labels; d->searched = last[k2].searched;
            d->batches = last[k2].batches; d->levels = last[k2].levels;
            d->checked_cpu = k2 ? 0 : chk_cpu;
            d->checked_all = k2 ? chk_ins : chk_del;
            fprintf(stderr, "  dynamic k %zu %s: update %.3f ms, dg_reach %.3f ms (build %.3f ms), %.3f M q/s, "
                    "searched %llu\n", k, d->op, d->update_ms, d->reach_ms, d->build_ms, d->mq,
                    (unsigned long long)d->searched);
            if (rb_dcsv) print_d_csv_row(rb_dcsv, d);
        }
    }
    free(arc); free(e); free(ans);
}

static void run_graph(const options *o, int kind, int gidx, const char *path, size_t gen_n)
{
    rgraph B, *b = &B;
    size_t blocks = 0;
    double load_s;
    int i, have_static;
    dg_stats gs;

    memset(b, 0, sizeof *b);
    b->o = o;
    b->kind = kind;
    b->gidx = gidx;
    if (path) {
        const char *base = strrchr(path, '/');
        snprintf(b->path, sizeof b->path, "%s", path);
        snprintf(b->name, sizeof b->name, "%s", base ? base + 1 : path);
    } else {
        snprintf(b->name, sizeof b->name, "%s n=%zu D=%d", RK_NAMES[kind], gen_n, o->degree);
    }
    for (i = 0; i < o->nqueries; i++) if ((size_t)o->queries[i] > b->maxq) b->maxq = (size_t)o->queries[i];
    fprintf(stderr, "%s:\n", b->name);
    load_s = load_graph(b, gen_n, &blocks);
    prepare(b, blocks);
    CK(b->g, dg_get_stats(b->g, &gs));
    note("%s: %zu vertices (ids < %zu), %zu with an edge, %zu edges, %zu strongly connected "
         "components; loaded and synced in %.2f s, host %.1f MB, device %.1f MB; CPU BFS sample: "
         "%zu random queries (%zu positive), %zu known-positive", b->name, b->nlive, b->nbound,
         b->npool, b->m, b->comps_ref, load_s, gs.host_bytes / 1048576.0, gs.device_bytes / 1048576.0,
         b->nref[Q_RANDOM], count_ones(b->ref[Q_RANDOM], b->nref[Q_RANDOM]), b->nref[Q_POSITIVE]);
    b->res_static = (uint8_t *)xmalloc(b->maxq);
    b->res = (uint8_t *)xmalloc(b->maxq);

    run_builds(b, load_s);
    have_static = run_queries(b);
    if (o->nsweep) run_sweep(b, have_static);
    if (o->ndyn && have_static) run_dynamic(b);
    else if (o->ndyn) note("%s: no dynamic scenario (the static queries failed)", b->name);

    dg_destroy(b->g);
    hcsr_free(&b->c);
    cpu_bfs_free(&b->bfs);
    for (i = 0; i < 2; i++) { free(b->qs[i]); free(b->qt[i]); free(b->ref[i]); }
    free(b->pool); free(b->spool); free(b->res_static); free(b->res);
}

/* ------------------------------------------------------------------------------------------ */
/* Output                                                                                      */
/* ------------------------------------------------------------------------------------------ */

static void fmt_ms(char *buf, size_t cap, double ms)
{
    if (ms < 0) snprintf(buf, cap, "n/a");
    else if (ms < 10) snprintf(buf, cap, "%.3f", ms);
    else if (ms < 1000) snprintf(buf, cap, "%.1f", ms);
    else snprintf(buf, cap, "%.0f", ms);
}

static void fmt_mq(char *buf, size_t cap, double mq)
{
    if (mq < 0) snprintf(buf, cap, "n/a");
    else if (mq < 0.01) snprintf(buf, cap, "%.5f", mq);
    else if (mq < 10) snprintf(buf, cap, "%.3f", mq);
    else snprintf(buf, cap, "%.1f", mq);
}

static void fmt_ratio(char *buf, size_t cap, double x)
{
    if (x < 0) snprintf(buf, cap, "n/a");
    else if (x < 10) snprintf(buf, cap, "%.2f×", x);
    else snprintf(buf, cap, "%.0f×", x);
}

static void print_index_table(void)
{
    int i;
    printf("## Index\n\n");
    printf("| device | graph | vertices | with an edge | edges | components | d | host build ms | "
           "of which SCC ms | device build ms | of which SCC ms | AUTO builds on |\n");
    printf("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    for (i = 0; i < g_nirows; i++) {
        const irow *w = &g_irows[i];
        char a[32], bb[32], c[32], d[32];
        fmt_ms(a, sizeof a, w->host_ms); fmt_ms(bb, sizeof bb, w->host_scc_ms);
        fmt_ms(c, sizeof c, w->dev_ms); fmt_ms(d, sizeof d, w->dev_scc_ms);
        printf("| %s | %s | %zu | %zu | %zu | %zu | %u | %s | %s | ", w->device, w->graph, w->nlive,
               w->npool, w->m, w->comps, w->d, a, bb);
        if (w->dev_ok) printf("%s | %s | ", c, d);
        else printf("n/a (%s) | n/a | ", w->dev_err);
        printf("%s |\n", w->auto_on ? w->auto_on : "n/a");
    }
}

static int mode_rank(const char *m) { return !strcmp(m, "query") ? 0 : !strcmp(m, "other-index") ? 1 : 2; }

static int cmp_qrow(const void *pa, const void *pb)
{
    const qrow *a = (const qrow *)pa, *b = (const qrow *)pb;
    int x;
    if (a->gidx != b->gidx) return a->gidx - b->gidx;
    if ((x = mode_rank(a->mode) - mode_rank(b->mode)) != 0) return x;
    if ((x = strcmp(a->kind, b->kind)) != 0) return -x;        /* random first */
    return (a->nq > b->nq) - (a->nq < b->nq);
}

static void print_query_table(void)
{
    int i;
    printf("\n## Queries\n\n");
    printf("| device | graph | index | d | kind | queries | runs | M q/s | M q/s device | by labels | "
           "searched | positive | batches | levels | device ms | wall ms | CPU BFS M q/s | vs CPU BFS | "
           "checked |\n");
    printf("|---|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    qsort(g_qrows, (size_t)g_nqrows, sizeof *g_qrows, cmp_qrow);
    for (i = 0; i < g_nqrows; i++) {
        const qrow *w = &g_qrows[i];
        char a[32], bb[32], c[32], d[32], e[32], vs[32], all[48];
        double mq = mqps(w->nq, w->wall_ms);
        if (!strcmp(w->mode, "sweep")) continue;
        if (w->err[0]) {
            printf("| %s | %s | %s | %u | %s | %zu | 0 | n/a (%s) | | | | | | | | | | | |\n", w->device,
                   w->graph, w->index, w->d, w->kind, w->nq, w->err);
            continue;
        }
        fmt_mq(a, sizeof a, mq);
        fmt_mq(bb, sizeof bb, w->dev_ms > 0 ? mqps(w->nq, w->dev_ms) : -1);
        fmt_ms(c, sizeof c, w->dev_ms > 0 ? w->dev_ms : -1);
        fmt_ms(d, sizeof d, w->wall_ms);
        fmt_mq(e, sizeof e, w->cpu_qps * 1e-6);
        fmt_ratio(vs, sizeof vs, w->cpu_qps > 0 ? mq * 1e6 / w->cpu_qps : -1);
        if (w->checked_all) snprintf(all, sizeof all, "%zu all", w->checked_all);
        else snprintf(all, sizeof all, "reference");
        printf("| %s | %s | %s | %u | %s | %zu | %d | %s | %s | %.3f | %llu | %llu | %u | %u | %s | %s | "
               "%s (%zu) | %s | %zu cpu, %s |\n",
               w->device, w->graph, w->index, w->d, w->kind, w->nq, w->runs, a, bb,
               (double)w->by_labels / (double)w->nq, (unsigned long long)w->searched,
               (unsigned long long)w->positive, w->batches, w->levels, c, d, e, w->cpu_n,
               vs, w->checked_cpu, all);
    }
}

static void print_sweep_table(void)
{
    int i;
    printf("\n## Labels sweep\n\n");
    printf("| graph | d | host build ms | device build ms | queries | random: by labels | random: "
           "searched | random M q/s | positive: by labels | positive: searched | positive M q/s |\n");
    printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (i = 0; i < g_nsrows; i++) {
        const srow *w = &g_srows[i];
        char a[32], bb[32], c[32], d[32];
        fmt_ms(a, sizeof a, w->host_ms);
        fmt_ms(bb, sizeof bb, w->dev_ok ? w->dev_ms : -1);
        fmt_mq(c, sizeof c, w->mq[0]);
        fmt_mq(d, sizeof d, w->mq[1]);
        printf("| %s | %u | %s | %s | %zu | %.4f | %llu | %s | %.4f | %llu | %s |\n", w->graph, w->d, a, bb,
               w->nq, w->frac[0], (unsigned long long)w->searched[0], c, w->frac[1],
               (unsigned long long)w->searched[1], d);
    }
}

static void print_dyn_table(void)
{
    int i;
    printf("\n## Dynamic scenario\n\n");
    printf("| device | graph | k | change | update ms | dg_reach ms | of which build ms | M q/s | "
           "static M q/s | filter-only | index built | by labels | searched | batches | levels | "
           "device ms | checked |\n");
    printf("|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    for (i = 0; i < g_ndrows_r; i++) {
        const drow *w = &g_drows_r[i];
        char a[32], bb[32], c[32], d[32], e[32], f[32];
        fmt_ms(a, sizeof a, w->update_ms); fmt_ms(bb, sizeof bb, w->reach_ms);
        fmt_ms(c, sizeof c, w->build_ms); fmt_mq(d, sizeof d, w->mq); fmt_mq(e, sizeof e, w->static_mq);
        fmt_ms(f, sizeof f, w->dev_ms > 0 ? w->dev_ms : -1);
        printf("| %s | %s | %ld | %s | %s | %s | %s | %s | %s | %d | %d | %.3f | %llu | %u | %u | %s | "
               "%zu cpu, %zu all |\n", w->device, w->graph, w->k, w->op, a, bb, c, d, e, w->filter_only,
               w->index_built, (double)w->by_labels / (double)w->nq, (unsigned long long)w->searched,
               w->batches, w->levels, f, w->checked_cpu, w->checked_all);
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Main                                                                                        */
/* ------------------------------------------------------------------------------------------ */

static void usage(void)
{
    fprintf(stderr,
        "usage: " BENCH_NAME " [options]\n"
        "  --graphs LIST        grail,cit,dag,citation,cyclic (default all)\n"
        "  --grail DIR          GRAIL datasets, every *.gra in DIR (default: the first of\n"
        "                       ../shared/datasets/grail, shared/datasets/grail,\n"
        "                       /work/shared/datasets/grail, test/data/grail)\n"
        "  --cit FILE           the SNAP citation fragment (default: cit-HepPh_partial.txt in\n"
        "                       the snap directory beside the GRAIL one, else test/data/snap)\n"
        "  --dag-vertices LIST  vertices of the generated graphs (default 1000000,10000000;\n"
        "                       20000 with --quick)\n"
        "  --dag-degree D       out-edges per vertex of the generated graphs (default 4)\n"
        "  --block B            cyclic: blocks (cycles) of 1..B vertices (default 32)\n"
        "  --labels D           labels (intervals) per component, 1..8 (default: the library's,\n"
        "                       DG_REACH_LABELS)\n"
        "  --labels-sweep       also d = 1..5: build times, labels-only fractions, throughput\n"
        "  --sweep LIST         the d values of the sweep (implies --labels-sweep)\n"
        "  --queries LIST       query set sizes (default 100000,1000000; 1000,10000 with --quick);\n"
        "                       each size: random pairs and known-positive pairs\n"
        "  --runs R             timed runs per query set, median reported (default 5; 3 --quick)\n"
        "  --build-runs R       index builds per path, median reported (default 3; 2 --quick)\n"
        "  --budget S           a measurement stops adding runs once S seconds are spent (at\n"
        "                       least one run; default 60, 10 with --quick)\n"
        "  --time-limit S       start no new graph or measurement after S seconds: the tables\n"
        "                       hold what was measured (default: none)\n"
        "  --baseline N         CPU BFS sample per query kind (default 1000)\n"
        "  --baseline-seconds S time cap of that sample per kind (default 10; 2 with --quick)\n"
        "  --dynamic LIST       k of the dynamic scenario (default 1,1000); --no-dynamic: skip it\n"
        "  --dyn-reps R         repetitions per k, medians reported (default 3; 1 with --quick)\n"
        "  --dyn-check N        CPU BFS sample after each deletion batch (default 200)\n"
        "  --device STR         dg_desc.device: gpu, cpu, or text matched against the device name\n"
        "  --page P             dg_desc.page_size (default 0: the library's default)\n"
        "  --csv FILE           also write the query rows as CSV, and the dynamic rows to FILE\n"
        "                       with .csv replaced by _dynamic.csv\n"
        "  --seed N             generator and query seed (default 1)\n"
        "  --keep-going         a wrong answer prints a FAIL line instead of stopping\n"
        "  --quick              smoke test: 20000-vertex generated graphs, 1000 and 10000 queries,\n"
        "                       fewer runs, no cit (its 9.9M vertex ids are slow on PoCL) unless\n"
        "                       --graphs names it\n");
}

static int is_dir(const char *p)
{
    struct stat sb;
    return stat(p, &sb) == 0 && S_ISDIR(sb.st_mode);
}

static int is_file(const char *p)
{
    struct stat sb;
    return stat(p, &sb) == 0 && S_ISREG(sb.st_mode);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The *.gra files of dir, sorted; returns how many. */
static int list_gra(const char *dir, char **out, int max)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    int n = 0;
    if (!d) { perror(dir); exit(1); }
    while ((de = readdir(d)) != NULL) {
        size_t L = strlen(de->d_name);
        if (L > 4 && !strcmp(de->d_name + L - 4, ".gra") && n < max) {
            out[n] = (char *)xmalloc(strlen(dir) + L + 2);
            sprintf(out[n], "%s/%s", dir, de->d_name);
            n++;
        }
    }
    closedir(d);
    qsort(out, (size_t)n, sizeof *out, cmp_str);
    return n;
}

int main(int argc, char **argv)
{
    options o;
    int i, j, ngra = 0, gidx = 0, dag_given = 0, q_given = 0, runs_given = 0, brun_given = 0,
        budget_given = 0, bs_given = 0, reps_given = 0, no_dyn = 0, dyn_given = 0, graphs_given = 0;
    char *gra[RB_MAX_FILES], cit[1100], cpu[256];
    const char *dev_name = NULL;
    static const char *const grail_dirs[] = { "../shared/datasets/grail", "shared/datasets/grail",
                                              "/work/shared/datasets/grail", "test/data/grail" };

    memset(&o, 0, sizeof o);
    for (i = 0; i < RK_N; i++) o.graphs[i] = 1;
    o.degree = 4;
    o.block = 32;
    o.runs = 5; o.build_runs = 3;
    o.baseline = 1000; o.baseline_s = 10;
    o.dyn_reps = 3; o.dyn_check = 200;
    o.budget_s = 60;
    o.seed = 1;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i], *v = (i + 1 < argc) ? argv[i + 1] : NULL;
        if (!strcmp(a, "--graphs") || !strcmp(a, "--graph")) { parse_names(v, a, RK_NAMES, RK_N, o.graphs); graphs_given = 1; i++; }
        else if (!strcmp(a, "--grail")) {
            if (!v) { fprintf(stderr, BENCH_NAME ": --grail needs a directory\n"); return 2; }
            o.grail_dir = v; i++;
        }
        else if (!strcmp(a, "--cit")) {
            if (!v) { fprintf(stderr, BENCH_NAME ": --cit needs a file\n"); return 2; }
            o.cit_file = v; i++;
        }
        else if (!strcmp(a, "--dag-vertices")) { o.ndag = parse_list(v, a, o.dag_n, RB_MAX_LIST, 2, 1000000000L); dag_given = 1; i++; }
        else if (!strcmp(a, "--dag-degree")) { o.degree = (int)parse_long(v, a, 1, 1000); i++; }
        else if (!strcmp(a, "--block")) { o.block = (int)parse_long(v, a, 1, 1000000); i++; }
        else if (!strcmp(a, "--labels")) { o.labels = (uint32_t)parse_long(v, a, 1, 8); i++; }
        else if (!strcmp(a, "--labels-sweep")) {
            if (!o.nsweep) for (o.nsweep = 0; o.nsweep < 5; o.nsweep++) o.sweep[o.nsweep] = o.nsweep + 1;
        }
        else if (!strcmp(a, "--sweep")) { o.nsweep = parse_list(v, a, o.sweep, RB_MAX_LIST, 1, 8); i++; }
        else if (!strcmp(a, "--queries")) { o.nqueries = parse_list(v, a, o.queries, RB_MAX_LIST, 1, 1000000000L); q_given = 1; i++; }
        else if (!strcmp(a, "--runs")) { o.runs = (int)parse_long(v, a, 1, RB_MAX_RUNS); runs_given = 1; i++; }
        else if (!strcmp(a, "--build-runs")) { o.build_runs = (int)parse_long(v, a, 1, RB_MAX_RUNS); brun_given = 1; i++; }
        else if (!strcmp(a, "--budget")) { o.budget_s = parse_double(v, a); budget_given = 1; i++; }
        else if (!strcmp(a, "--time-limit")) { o.time_limit = parse_double(v, a); i++; }
        else if (!strcmp(a, "--baseline")) { o.baseline = parse_long(v, a, 1, 100000000L); i++; }
        else if (!strcmp(a, "--baseline-seconds")) { o.baseline_s = parse_double(v, a); bs_given = 1; i++; }
        else if (!strcmp(a, "--dynamic")) { o.ndyn = parse_list(v, a, o.dyn_k, RB_MAX_LIST, 1, 100000000L); dyn_given = 1; i++; }
        else if (!strcmp(a, "--no-dynamic")) no_dyn = 1;
        else if (!strcmp(a, "--dyn-reps")) { o.dyn_reps = (int)parse_long(v, a, 1, RB_MAX_RUNS); reps_given = 1; i++; }
        else if (!strcmp(a, "--dyn-check")) { o.dyn_check = parse_long(v, a, 0, 100000000L); i++; }
        else if (!strcmp(a, "--device")) {
            if (!v) { fprintf(stderr, BENCH_NAME ": --device needs a value\n"); return 2; }
            o.device = v; i++;
        }
        else if (!strcmp(a, "--page")) { o.page_size = (uint32_t)parse_long(v, a, 0, 65536); i++; }
        else if (!strcmp(a, "--csv")) {
            if (!v) { fprintf(stderr, BENCH_NAME ": --csv needs a file name\n"); return 2; }
            o.csv_path = v; i++;
        }
        else if (!strcmp(a, "--seed")) { o.seed = (uint64_t)parse_long(v, a, 0, 0x7fffffffL); i++; }
        else if (!strcmp(a, "--keep-going")) o.keep_going = 1;
        else if (!strcmp(a, "--quick")) o.quick = 1;
        else if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage(); return 0; }
        else { fprintf(stderr, BENCH_NAME ": unknown option %s\n", a); usage(); return 2; }
    }
    /* explicit options win over --quick, whatever their order */
    if (!dag_given) {
        if (o.quick) { o.dag_n[0] = 20000; o.ndag = 1; }
        else { o.dag_n[0] = 1000000; o.dag_n[1] = 10000000; o.ndag = 2; }
    }
    if (!q_given) {
        o.queries[0] = o.quick ? 1000 : 100000;
        o.queries[1] = o.quick ? 10000 : 1000000;
        o.nqueries = 2;
    }
    if (!runs_given && o.quick) o.runs = 3;
    if (!brun_given && o.quick) o.build_runs = 2;
    if (!budget_given && o.quick) o.budget_s = 10;
    if (!bs_given && o.quick) o.baseline_s = 2;
    if (!reps_given && o.quick) o.dyn_reps = 1;
    if (!dyn_given) { o.dyn_k[0] = 1; o.dyn_k[1] = 1000; o.ndyn = 2; }
    if (no_dyn) o.ndyn = 0;
    if (!graphs_given && o.quick) o.graphs[RK_CIT] = 0;   /* 9.9M vertex ids: slow on PoCL */

    /* the files */
    if (o.graphs[RK_GRAIL] || (o.graphs[RK_CIT] && !o.cit_file)) {
        const char *gd = o.grail_dir;
        for (i = 0; !gd && i < (int)(sizeof grail_dirs / sizeof *grail_dirs); i++)
            if (is_dir(grail_dirs[i])) gd = grail_dirs[i];
        if (!gd) die("no GRAIL directory found: give --grail DIR");
        o.grail_dir = gd;
        if (o.graphs[RK_GRAIL]) {
            ngra = list_gra(gd, gra, RB_MAX_FILES);
            if (ngra == 0) { fprintf(stderr, BENCH_NAME ": no *.gra file in %s\n", gd); return 1; }
        }
    }
    if (o.graphs[RK_CIT]) {
        if (o.cit_file) snprintf(cit, sizeof cit, "%s", o.cit_file);
        else {
            snprintf(cit, sizeof cit, "%s/../snap/cit-HepPh_partial.txt", o.grail_dir);
            if (!is_file(cit)) snprintf(cit, sizeof cit, "test/data/snap/cit-HepPh_partial.txt");
        }
        if (!is_file(cit)) { fprintf(stderr, BENCH_NAME ": %s: no such file (give --cit FILE)\n", cit); return 1; }
    }

    if (o.csv_path) {
        csv_open(o.csv_path, o.ndyn > 0, &rb_csv, &rb_dcsv);
        print_q_csv_header(rb_csv);
        if (rb_dcsv) print_d_csv_header(rb_dcsv);
    }

    if (o.time_limit > 0) g_deadline = now_s() + o.time_limit;
    for (i = 0; i < ngra; i++) if (!time_up()) run_graph(&o, RK_GRAIL, gidx++, gra[i], 0);
    if (o.graphs[RK_CIT] && !time_up()) run_graph(&o, RK_CIT, gidx++, cit, 0);
    for (j = RK_DAG; j <= RK_CYCLIC; j++)
        if (o.graphs[j])
            for (i = 0; i < o.ndag; i++)
                if (!time_up()) run_graph(&o, j, gidx++, NULL, (size_t)o.dag_n[i]);
    if (g_skipped) note("--time-limit %.0f s: %d graphs or measurements were skipped", o.time_limit, g_skipped);
    for (i = 0; i < ngra; i++) free(gra[i]);
    if (g_nirows) dev_name = g_irows[0].device;

    cpu_model(cpu, sizeof cpu);
    printf("# dyngraph reachability benchmark (bench/bench_reach.c)\n\n");
    printf("- device: %s; host CPU: %s (the benchmark's host code and the CPU BFS are "
           "single-threaded)\n", dev_name ? dev_name : "(none used)", cpu);
#ifdef __VERSION__
    printf("- compiler: %s; dyngraph %s\n", __VERSION__, DYNGRAPH_VERSION_STRING);
#endif
    printf("- graphs, loaded directed and unweighted: GRAIL datasets from %s, %s, generated graphs "
           "(ids randomly permuted, D = %d out-edges per vertex, seed %llu): dag (each vertex to D "
           "vertices uniform among the later ones of a random order), citation (each vertex cites "
           "D earlier ones at distance (p-1)*u^4), cyclic (dag whose order is cut into blocks of "
           "1..%d vertices, each closed into a cycle: one component per block)\n",
           o.grail_dir ? o.grail_dir : "(none)", o.graphs[RK_CIT] ? cit : "(no citation file)",
           o.degree, (unsigned long long)o.seed, o.block);
    printf("- queries, drawn among the vertices with an edge: random = s, t uniform; positive = t "
           "at the end of a random walk of 1..32 steps from s (s with an out-edge); the smaller "
           "sets are prefixes of the largest\n");
    printf("- index: dg_reach_ex with opt.rebuild = 1 and one query (v -> v), opt.build = HOST and "
           "DEVICE; build ms = dg_reach_stats.build_ms (SCC ms = scc_ms), median of up to %d runs; "
           "n/a: the call failed (its message); AUTO builds on: where opt.build = AUTO (the "
           "default) built the index the query rows use\n", o.build_runs);
    printf("- queries: on the index opt.build = AUTO builds (index \"auto: host\" or \"auto: "
           "device\"), and for the largest sets also on the other path's index; one warm-up call, "
           "then up to %d timed calls (fewer after %.0f s), medians; "
           "M q/s = queries / median wall time of the dg_reach_ex call (queries uploaded, answers "
           "read back); M q/s device = queries / dg_reach_stats.device_ms; by labels = "
           "stats.by_labels / queries; searched, batches, levels as in dg_reach_stats\n",
           o.runs, o.budget_s);
    printf("- CPU BFS: per query a BFS from s over a snapshot of the out-lists (CSR), stopping "
           "when t is discovered; timed on the first up to %ld queries of each kind (at most %.0f "
           "s; the count is in parentheses), queries/s extrapolated; its answers are the reference\n",
           o.baseline, o.baseline_s);
    printf("- checks: the answers of the CPU BFS sample; every known-positive query is 1; every "
           "random result equals the first one (AUTO's index, largest set); after "
           "deletions every 1 was a 1 before, and %ld queries against a CPU BFS of the changed "
           "graph; stats consistent (queries, positive, no rebuild without a change, components = "
           "Tarjan on the snapshot)\n\n", o.dyn_check);
    print_index_table();
    print_query_table();
    if (g_nsrows) print_sweep_table();
    if (g_ndrows_r) {
        print_dyn_table();
        printf("\nDynamic: per k and repetition, k random edges removed with one dg_remove_edges, "
               "then the largest random query set (the index is kept: filter-only mode, every "
               "label-undecided query searched); then the same k edges added back with one "
               "dg_add_edges, then the queries again (the index is rebuilt inside the call: "
               "build ms). update = the dg_remove_edges / dg_add_edges call; dg_reach ms = the "
               "whole call (sync included); medians of %d repetitions; static M q/s = the same "
               "queries on the unchanged graph.\n", o.dyn_reps);
    }
    if (rb_csv) fclose(rb_csv);
    if (rb_dcsv) fclose(rb_dcsv);
    free(g_irows); free(g_qrows); free(g_srows); free(g_drows_r);
    i = report_end();
    if (g_fails) printf("\ncheck: FAILED (%ld FAIL lines)\n", g_fails);
    else printf("\ncheck: ok (%zu answers compared with the CPU BFS, %zu with other results)\n",
                g_checked_cpu, g_checked_all);
    fprintf(stderr, BENCH_NAME ": check: %s\n", g_fails ? "FAILED" : "ok");
    return i;
}
