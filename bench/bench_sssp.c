/* bench_sssp.c - single-source shortest paths benchmark of dyngraph on its OpenCL device.

   For each scale and each graph (Graph500 Kronecker, a uniform random graph of the same size, a
   2-D grid), loaded UNDIRECTED and WEIGHTED with one dg_add_edges, and for a file (--file):
     1. a sequential Dijkstra (binary heap, float d[u] + w) over a CSR built here
        ("cpu-dijkstra"): the reference the device results are checked against, timed;
     2. each dg_sssp strategy (BELLMAN_FORD, FRONTIER, NEAR_FAR; NEAR_FAR also with a given
        bucket width, or swept around the automatic one), from the same random roots (out-degree
        > 0), after one untimed warm-up run that also asks for the shortest-path tree (checked):
        device time (dg_sssp_stats.device_ms) and wall time of the dg_sssp call (dist read back
        included), medians over the roots; relaxations / s and graph arcs / s; speed-ups over
        FRONTIER and BELLMAN_FORD on the roots both ran; every result is checked, against the
        CPU Dijkstra on the first root (every root with --check-all), else against the first
        device result for that root;
     3. the dynamic scenario: batches of k random changes (half dg_add_edges of new weighted
        edges, half dg_remove_edges, plus k/10 dg_set_weight), then dg_sssp (which syncs), against
        rebuilding a weighted CSR on the host and uploading it to the device.

   Weights: integers uniform in [1, 255] (GAP's choice; default) or, with --weights real, uniform
   in [0, 1) (Graph500 kernel 3); a hash of the unordered pair, so repeated tuples agree.

   Build:  make bench   (or: cc -O2 -march=native -I. bench/bench_sssp.c -o build/bench_sssp -lOpenCL -lm)
   Run:    build/bench_sssp --quick      smoke test (scale 12, every check)
           build/bench_sssp [--scale 22] [--graphs kron,uniform,grid] [--device gpu] [--csv F]
           build/bench_sssp --file road.gr [--strategies frontier,near-far] [--delta-sweep]
   The Markdown tables go to stdout, progress to stderr; build/bench_sssp --help lists the options.
   The exit status is 1 when any check failed (every failure also prints a FAIL line). */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE     /* and madvise: the library offers its large arrays huge pages */
#define DYNGRAPH_IMPLEMENTATION
#include "dyngraph.h"

#define BENCH_NAME "bench_sssp"
#include "bench_common.h"   /* utilities, FAIL lines, random numbers, generators, weights, upload,
                               common options */

#include <math.h>

/* ------------------------------------------------------------------------------------------ */
/* Options                                                                                     */
/* ------------------------------------------------------------------------------------------ */

#define MAX_CONFIGS 16

enum { S_BF = 0, S_FRONTIER = 1, S_NEAR_FAR = 2, NSTRATS = 3 };
static const char *const STRAT_NAMES[NSTRATS] = { "bellman-ford", "frontier", "near-far" };
static const dg_sssp_strategy STRAT_IDS[NSTRATS] = { DG_SSSP_BELLMAN_FORD, DG_SSSP_FRONTIER,
                                                     DG_SSSP_NEAR_FAR };

enum { G_FILE = NGRAPHS };       /* after G_KRON, G_UNIFORM, G_GRID (bench_common.h): --file */

/* --delta-sweep: NEAR_FAR at the automatic delta times these */
#define NSWEEP 7
static const double SWEEP[NSWEEP] = { 0.125, 0.25, 0.5, 1, 2, 4, 8 };
static const char *const SWEEP_NAMES[NSWEEP] = { "1/8", "1/4", "1/2", "1", "2", "4", "8" };

typedef struct options {
    bench_opts c;                 /* scales, generated graphs, strategies, roots (sources per graph), ... */
    const char *file;             /* --file: a graph file (dg_load) */
    int file_undirected;          /* load it undirected */
    int bf_roots;                 /* sources BELLMAN_FORD runs from (the first ones) */
    int check_all;                /* CPU Dijkstra for every root (else the first only) */
    int real_weights;             /* 1: [0, 1); 0: integers [1, 255] */
    float delta;                  /* NEAR_FAR bucket width, 0: automatic */
    int delta_sweep;
} options;

/* ------------------------------------------------------------------------------------------ */
/* Weighted CSR (host): the CPU reference, and the static alternative                         */
/* ------------------------------------------------------------------------------------------ */

typedef struct wcsr {
    size_t n, arcs;
    uint32_t *off;                /* n + 1 row offsets */
    int32_t *col;                 /* arcs targets */
    float *w;                     /* arcs weights */
} wcsr;

static void wcsr_alloc(wcsr *c, size_t n, size_t arcs_cap)
{
    if (arcs_cap >= 0xffffffffull) die("graph too large for 32-bit CSR offsets");
    memset(c, 0, sizeof *c);
    c->off = (uint32_t *)xmalloc((n + 1) * sizeof *c->off);
    c->col = (int32_t *)xmalloc(arcs_cap * sizeof *c->col);
    c->w = (float *)xmalloc(arcs_cap * sizeof *c->w);
}

static void wcsr_free(wcsr *c)
{
    free(c->off); free(c->col); free(c->w);
    memset(c, 0, sizeof *c);
}

/* Arcs of the tuples: one per tuple, two for a tuple u != v of an undirected graph. */
static size_t count_arcs(const dg_edge *e, size_t m, int undirected)
{
    size_t k, a = 0;
    for (k = 0; k < m; k++) a += (undirected && e[k].src != e[k].dst) ? 2 : 1;
    return a;
}

/* A CSR of n vertices holding the tuples (repeats kept: harmless for shortest paths when they
   share a weight, as generated weights do). */
static void wcsr_build(wcsr *c, size_t n, const dg_edge *e, size_t m, int undirected)
{
    wcsr_alloc(c, n, count_arcs(e, m, undirected));
    c->n = n;
    c->arcs = csr_fill(n, e, m, undirected, c->off, c->col, c->w);
}

/* The edges as the graph holds them, read back with dg_neighbors: every arc of a directed graph,
   each undirected edge once (u <= v), with its weight. Room for `extra` more. */
static dg_edge *graph_edges(dg_graph *g, int undirected, size_t extra, size_t *m_out)
{
    size_t nb = dg_vertex_id_bound(g), cap = dg_edge_count(g) + extra, m = 0, u, deg, k, bcap = 0;
    dg_edge *e = (dg_edge *)xmalloc(cap * sizeof *e);
    dg_vertex *nbr = NULL;
    float *wt = NULL;
    for (u = 0; u < nb; u++) {
        if (!dg_has_vertex(g, (dg_vertex)u)) continue;
        CK(g, dg_degree(g, (dg_vertex)u, &deg));
        if (deg > bcap) {
            bcap = deg;
            nbr = (dg_vertex *)xrealloc(nbr, bcap * sizeof *nbr);
            wt = (float *)xrealloc(wt, bcap * sizeof *wt);
        }
        CK(g, dg_neighbors(g, (dg_vertex)u, nbr, wt, bcap, &deg));
        for (k = 0; k < deg; k++) {
            if (undirected && (size_t)nbr[k] < u) continue;
            if (m == cap) die("the adjacency lists hold more edges than dg_edge_count says");
            e[m].src = (dg_vertex)u; e[m].dst = nbr[k]; e[m].weight = wt[k];
            m++;
        }
    }
    free(nbr); free(wt);
    *m_out = m;
    return e;
}

/* ------------------------------------------------------------------------------------------ */
/* The CPU reference: Dijkstra with an indexed binary heap                                      */
/* ------------------------------------------------------------------------------------------ */

/* heap[0..hn-1] ordered by dist; pos[v] is v's slot. */
static void heap_up(int32_t *heap, int32_t *pos, const float *dist, size_t i)
{
    int32_t v = heap[i];
    float d = dist[v];
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (dist[heap[p]] <= d) break;
        heap[i] = heap[p]; pos[heap[i]] = (int32_t)i;
        i = p;
    }
    heap[i] = v; pos[v] = (int32_t)i;
}

static void heap_down(int32_t *heap, int32_t *pos, const float *dist, size_t hn, size_t i)
{
    int32_t v = heap[i];
    float d = dist[v];
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= hn) break;
        if (c + 1 < hn && dist[heap[c + 1]] < dist[heap[c]]) c++;
        if (dist[heap[c]] >= d) break;
        heap[i] = heap[c]; pos[heap[i]] = (int32_t)i;
        i = c;
    }
    heap[i] = v; pos[v] = (int32_t)i;
}

/* Sequential Dijkstra, distances summed in float as d[u] + w (as the device does). heap and pos
   have n entries; pos[v]: -1 never queued, -2 settled, else the heap slot. Returns the vertices
   reached; *relax receives the arcs scanned, *upd the distances lowered. */
static size_t cpu_dijkstra(const wcsr *c, dg_vertex src, float *dist, int32_t *heap, int32_t *pos,
                           uint64_t *relax, uint64_t *upd)
{
    size_t n = c->n, hn = 0, reached = 0, v;
    uint64_t nrel = 0, nupd = 0;
    for (v = 0; v < n; v++) { dist[v] = INFINITY; pos[v] = -1; }
    dist[src] = 0.0f;
    heap[hn++] = src; pos[src] = 0;
    while (hn > 0) {
        int32_t u = heap[0];
        float du = dist[u];
        uint32_t k, end = c->off[u + 1];
        heap[0] = heap[--hn];
        if (hn > 0) heap_down(heap, pos, dist, hn, 0);
        pos[u] = -2;
        reached++;
        for (k = c->off[u]; k < end; k++) {
            int32_t x = c->col[k];
            float nd = du + c->w[k];
            nrel++;
            if (nd < dist[x]) {           /* never a settled x: weights are >= 0 */
                dist[x] = nd;
                nupd++;
                if (pos[x] < 0) { pos[x] = (int32_t)hn; heap[hn++] = x; }
                heap_up(heap, pos, dist, (size_t)pos[x]);
            }
        }
    }
    *relax = nrel;
    *upd = nupd;
    return reached;
}

/* ------------------------------------------------------------------------------------------ */
/* Checks                                                                                      */
/* ------------------------------------------------------------------------------------------ */

/* Integer weights: sums below 2^24 are exact in float, so distances must agree exactly; else a
   relative tolerance of 1e-5 (the same path summed in another order, or an equally short one). */
static int same_dist(float got, float want, int int_weights)
{
    if (got == want) return 1;                      /* INFINITY included */
    if (isinf(want) || !isfinite(got)) return 0;
    if (int_weights && want <= 16777216.0f) return 0;
    return fabs((double)got - (double)want) <= 1e-5 * fabs((double)want);
}

/* dist against a reference; the number of differences (the first few printed as FAIL lines). */
static size_t check_dist(const char *what, const char *against, dg_vertex root, const float *got,
                         const float *want, size_t n, int int_weights)
{
    size_t v, bad = 0;
    for (v = 0; v < n; v++) {
        if (same_dist(got[v], want[v], int_weights)) continue;
        if (bad < 3)
            fail("%s root %d: dist[%zu] = %.9g, %s says %.9g", what, (int)root, v,
                 (double)got[v], against, (double)want[v]);
        bad++;
    }
    if (bad > 3) fail("%s root %d: %zu dist entries differ from %s", what, (int)root, bad, against);
    return bad;
}

/* Weight of an arc u->v with dist[u] + w == dist[v] (within the tolerance), found in the CSR:
   1 if there is one. Undirected graphs look in v's list (the reverse arc has the same weight:
   short lists for the many leaves of a hub), directed ones in u's. */
static int tight_arc(const wcsr *c, int undirected, int32_t u, int32_t v, const float *dist, int int_w)
{
    int32_t row = undirected ? v : u, other = undirected ? u : v;
    uint32_t k;
    for (k = c->off[row]; k < c->off[row + 1]; k++)
        if (c->col[k] == other && same_dist(dist[u] + c->w[k], dist[v], int_w)) return 1;
    return 0;
}

/* A shortest-path tree: pred[root] == root; unreached iff pred -1; a reached v != root has a
   reached pred p and an arc p->v with dist[p] + w == dist[v]. dist must already be known to be
   right. Returns the number of bad vertices. */
static size_t check_pred(const char *what, const wcsr *c, int undirected, int int_w, dg_vertex root,
                         const float *dist, const int32_t *pred)
{
    size_t v, bad = 0, n = c->n;
    for (v = 0; v < n; v++) {
        int32_t p = pred[v];
        const char *why = NULL;
        if ((dg_vertex)v == root) { if (p != root) why = "pred[root] is not the root"; }
        else if (isinf(dist[v])) { if (p != -1) why = "unreached vertex with a pred"; }
        else if (p < 0 || (size_t)p >= n || isinf(dist[p])) why = "reached vertex without a reached pred";
        else if (!tight_arc(c, undirected, p, (int32_t)v, dist, int_w))
            why = "no arc pred->v with dist[pred] + w == dist[v]";
        if (why) {
            if (bad < 3) fail("%s root %d: vertex %zu (dist %.9g), pred %d: %s", what, (int)root, v,
                              (double)dist[v], (int)p, why);
            bad++;
        }
    }
    if (bad > 3) fail("%s root %d: %zu vertices break the shortest-path tree", what, (int)root, bad);
    return bad;
}

static size_t count_reached(const float *dist, size_t n)
{
    size_t v, r = 0;
    for (v = 0; v < n; v++) r += !isinf(dist[v]);
    return r;
}

/* ------------------------------------------------------------------------------------------ */
/* Samples and result rows                                                                     */
/* ------------------------------------------------------------------------------------------ */

/* ncol columns of nrep samples each, in one block; median of each column into med[]. */
static double *samples_new(double **col, int ncol, int nrep)
{
    double *block = (double *)xmalloc((size_t)ncol * (size_t)(nrep > 0 ? nrep : 1) * sizeof *block);
    int c;
    for (c = 0; c < ncol; c++) col[c] = block + (size_t)c * (size_t)(nrep > 0 ? nrep : 1);
    return block;
}

static void medians(double **col, int ncol, int nrep, double *med)
{
    int c;
    for (c = 0; c < ncol; c++) med[c] = median(col[c], nrep);
}

/* Per-root samples of a strategy row (medians go to the table) */
enum { R_DEV, R_WALL, R_SYNC, R_ITER, R_PHASES, R_TRIPS, R_RELAX, R_UPD, R_REACHED, R_DELTA, NRCOL };
static const char *const RCOL_NAMES[NRCOL] = { "device_ms", "wall_ms", "sync_ms", "iterations",
    "phases", "host_round_trips", "relaxations", "updates", "vertices_reached", "delta" };

typedef struct sssp_row {
    char device[256], graph[64], strategy[32];
    int scale;
    size_t n, arcs;               /* vertex id bound, stored arcs (dg_stats.arcs) */
    int si;                       /* strategy index, -1 for cpu-dijkstra */
    int roots;                    /* roots run */
    double med[NRCOL];            /* medians over the roots */
    double wall_min, wall_max;
    double grelax, gteps;         /* median relaxations / median device s; arcs / median device s */
    double vs_frontier, vs_bf;    /* speed-ups on the roots both ran (0: not available) */
    double work;                  /* relaxations / CPU Dijkstra's on the CPU-checked roots */
    double *t_root, *relax_root;  /* per root (of the graph): device ms, relaxations; -1: not run */
    int cpu_checked, cross_checked, preds_checked;
    long fails;
} sssp_row;

/* Per-batch samples of the dynamic scenario */
enum { D_ADD, D_REM, D_SET, D_UPDATE, D_SYNC, D_SYNC_KB, D_SYNC_PAGES, D_DEV, D_WALL, D_TOTAL,
       D_REBUILD, D_UPLOAD, D_UPLOAD_PINNED, D_UPLOAD_MB, D_STATIC, D_STATIC_PINNED, D_INC, D_INC_TOTAL,
       D_INC_FULL, NDCOL };
static const char *const DCOL_NAMES[NDCOL] = { "add_ms", "remove_ms", "set_weight_ms", "update_ms",
    "sync_ms", "sync_kb", "sync_pages", "sssp_device_ms", "sssp_wall_ms", "dynamic_total_ms",
    "csr_rebuild_ms", "upload_ms", "upload_pinned_ms", "upload_mb", "static_total_ms",
    "static_total_pinned_ms", "incremental_ms", "incremental_total_ms", "incremental_full" };

typedef struct dyn_row {
    char device[256], graph[64];
    int scale;
    size_t n, m;                  /* vertices, edges before the batches of this k */
    long k;
    int reps, checked;
    size_t nadd, nrem, nset;      /* of the last batch */
    double med[NDCOL];
    long fails;
} dyn_row;

static sssp_row *g_rows; static int g_nrows, g_caprows;
static dyn_row *g_drows; static int g_ndrows, g_capdrows;
static sssp_row *new_row(void) { return PUSH_ZEROED(g_rows, g_nrows, g_caprows); }
static dyn_row *new_drow(void) { return PUSH_ZEROED(g_drows, g_ndrows, g_capdrows); }

static void fmt_ratio(char *buf, size_t cap, double x)
{
    if (x > 0) snprintf(buf, cap, "%.2fx", x);
    else snprintf(buf, cap, "-");
}

static void print_sssp_header(FILE *f)
{
    md_header(f, "device|graph|n:|arcs:|strategy|delta:|roots:|median device ms:|"
                 "median wall ms:|G relax/s:|G arcs/s:|iterations:|phases:|round trips:|"
                 "relaxations:|updates:|work vs Dijkstra:|vs frontier:|vs bellman-ford:|checks");
}

static void print_sssp_row(FILE *f, const sssp_row *w)
{
    char checks[96], delta[32], work[32], vf[32], vb[32];
    if (w->fails) snprintf(checks, sizeof checks, "**FAIL (%ld)**", w->fails);
    else if (w->si < 0) snprintf(checks, sizeof checks, "reference (%d roots)", w->cpu_checked);
    else snprintf(checks, sizeof checks, "ok: %d vs CPU, %d cross, %d trees", w->cpu_checked,
                  w->cross_checked, w->preds_checked);
    if (w->si == S_NEAR_FAR) snprintf(delta, sizeof delta, "%.4g", w->med[R_DELTA]);
    else snprintf(delta, sizeof delta, "-");
    if (w->work > 0) snprintf(work, sizeof work, "%.2f", w->work); else snprintf(work, sizeof work, "-");
    fmt_ratio(vf, sizeof vf, w->vs_frontier);
    fmt_ratio(vb, sizeof vb, w->vs_bf);
    fprintf(f, "| %s | %s | %zu | %zu | %s | %s | %d | %.3f | %.3f | %.3f | %.3f | %.0f | %.0f | %.0f "
               "| %.0f | %.0f | %s | %s | %s | %s |\n",
            w->device, w->graph, w->n, w->arcs, w->strategy, delta, w->roots, w->med[R_DEV],
            w->med[R_WALL], w->grelax, w->gteps, w->med[R_ITER], w->med[R_PHASES], w->med[R_TRIPS],
            w->med[R_RELAX], w->med[R_UPD], work, vf, vb, checks);
}

static void print_sssp_csv_header(FILE *f)
{
    int c;
    fprintf(f, "device,graph,scale,n,arcs,strategy,roots");
    for (c = 0; c < NRCOL; c++) fprintf(f, ",%s_median", RCOL_NAMES[c]);
    fprintf(f, ",wall_ms_min,wall_ms_max,grelax_per_s,garcs_per_s,work_vs_dijkstra,vs_frontier,"
               "vs_bellman_ford,cpu_checked,cross_checked,preds_checked,fails\n");
}

static void print_sssp_csv_row(FILE *f, const sssp_row *w)
{
    int c;
    csv_str(f, w->device);
    fprintf(f, ",%s,%d,%zu,%zu,%s,%d", w->graph, w->scale, w->n, w->arcs, w->strategy, w->roots);
    for (c = 0; c < NRCOL; c++) fprintf(f, ",%.6g", w->med[c]);
    fprintf(f, ",%.6f,%.6f,%.6f,%.6f,%.4f,%.4f,%.4f,%d,%d,%d,%ld\n", w->wall_min, w->wall_max,
            w->grelax, w->gteps, w->work, w->vs_frontier, w->vs_bf, w->cpu_checked,
            w->cross_checked, w->preds_checked, w->fails);
}

static void print_dyn_header(FILE *f)
{
    md_header(f, "device|graph|n:|m:|k:|adds / removes / weights:|update ms:|sync ms:|"
                 "sync KB:|SSSP device ms:|SSSP wall ms:|dynamic total ms:|incremental ms:|"
                 "incremental total ms:|CSR rebuild ms:|"
                 "upload ms (pageable / pinned):|static total ms:|static / dynamic:|checks");
}

static void print_dyn_row(FILE *f, const dyn_row *w)
{
    const double *d = w->med;
    fprintf(f, "| %s | %s | %zu | %zu | %ld | %zu / %zu / %zu | %.3f | %.3f | %.1f | %.3f | %.3f | "
               "%.3f | %.3f%s | %.3f | %.3f | %.3f / %.3f | %.3f | %.1f | %s |\n",
            w->device, w->graph, w->n, w->m, w->k, w->nadd, w->nrem, w->nset, d[D_UPDATE],
            d[D_SYNC], d[D_SYNC_KB], d[D_DEV], d[D_WALL], d[D_TOTAL], d[D_INC], d[D_INC_FULL] > 0 ? " (full)" : "",
            d[D_INC_TOTAL], d[D_REBUILD], d[D_UPLOAD],
            d[D_UPLOAD_PINNED], d[D_STATIC_PINNED],
            d[D_TOTAL] > 0 ? d[D_STATIC_PINNED] / d[D_TOTAL] : 0.0,
            w->fails ? "**FAIL**" : w->checked ? "ok" : "ok (counts)");
}

static void print_dyn_csv_header(FILE *f)
{
    int c;
    fprintf(f, "device,graph,scale,n,m,k,reps,adds,removes,set_weights");
    for (c = 0; c < NDCOL; c++) fprintf(f, ",%s", DCOL_NAMES[c]);
    fprintf(f, ",dijkstra_checked,fails\n");
}

static void print_dyn_csv_row(FILE *f, const dyn_row *w)
{
    int c;
    csv_str(f, w->device);
    fprintf(f, ",%s,%d,%zu,%zu,%ld,%d,%zu,%zu,%zu", w->graph, w->scale, w->n, w->m, w->k, w->reps,
            w->nadd, w->nrem, w->nset);
    for (c = 0; c < NDCOL; c++) fprintf(f, ",%.6f", w->med[c]);
    fprintf(f, ",%d,%ld\n", w->checked, w->fails);
}

/* ------------------------------------------------------------------------------------------ */
/* One graph                                                                                   */
/* ------------------------------------------------------------------------------------------ */

typedef struct bench_graph {
    const options *o;
    char name[64];
    char title[96];               /* "kron scale 20", or the file's name: for notes and FAIL lines */
    int scale;                    /* 0 for a file */
    int kind;                     /* G_KRON ... G_FILE */
    int undirected;
    size_t n, m, arcs;            /* id bound, dg_edge_count, dg_stats.arcs */
    dg_graph *g;
    char device[256];
    wcsr c;                       /* the reference CSR */
    int int_weights;              /* every weight an integer: exact comparisons */
    dg_vertex *roots; int nroots;
    float **ref;                  /* per root: reference distances, or NULL */
    const char **ref_by;          /* per root: "CPU Dijkstra", or the label of the configuration
                                     that gave them (run_graph's config array) */
    double *cpu_relax;            /* per root: CPU Dijkstra's relaxations, -1 if not run */
    int row0;                     /* the graph's first row in g_rows */
} bench_graph;

/* One timed configuration: a strategy, and for NEAR_FAR a bucket width (0: automatic). */
typedef struct config {
    char label[32];
    int si;
    float delta;
} config;

static void row_init(sssp_row *w, const bench_graph *b, const char *device, const char *label, int si)
{
    int i;
    snprintf(w->device, sizeof w->device, "%s", device);
    snprintf(w->graph, sizeof w->graph, "%s", b->name);
    snprintf(w->strategy, sizeof w->strategy, "%s", label);
    w->scale = b->scale; w->n = b->n; w->arcs = b->arcs;
    w->si = si;
    w->t_root = (double *)xmalloc((size_t)b->nroots * sizeof *w->t_root);
    w->relax_root = (double *)xmalloc((size_t)b->nroots * sizeof *w->relax_root);
    for (i = 0; i < b->nroots; i++) w->t_root[i] = w->relax_root[i] = -1;
}

/* The row's rates and medians from the per-root samples col[][0..nr-1]. */
static void row_finish(sssp_row *w, double **col, int nr)
{
    int i;
    w->roots = nr;
    w->wall_min = w->wall_max = col[R_WALL][0];
    for (i = 1; i < nr; i++) {
        if (col[R_WALL][i] < w->wall_min) w->wall_min = col[R_WALL][i];
        if (col[R_WALL][i] > w->wall_max) w->wall_max = col[R_WALL][i];
    }
    medians(col, NRCOL, nr, w->med);
    w->grelax = w->med[R_DEV] > 0 ? w->med[R_RELAX] / (w->med[R_DEV] * 1e-3) * 1e-9 : 0.0;
    w->gteps = w->med[R_DEV] > 0 ? (double)w->arcs / (w->med[R_DEV] * 1e-3) * 1e-9 : 0.0;
}

/* sum a[i] / sum b[i] over the i where both are known (>= 0); 0 if there are none. */
static double ratio_common(const double *a, const double *b, int n)
{
    double sa = 0, sb = 0;
    int i;
    for (i = 0; i < n; i++)
        if (a[i] >= 0 && b[i] >= 0) { sa += a[i]; sb += b[i]; }
    return sa > 0 && sb > 0 ? sa / sb : 0.0;
}

/* The CPU Dijkstra from the roots to check (the first, or all with --check-all): timed, and its
   distances kept as the reference. Reported as the row "cpu-dijkstra". */
static void run_cpu(bench_graph *b)
{
    int i, nr = b->o->check_all ? b->nroots : 1;
    int32_t *heap = (int32_t *)xmalloc(b->n * sizeof *heap), *pos = (int32_t *)xmalloc(b->n * sizeof *pos);
    double *col[NRCOL], *block = samples_new(col, NRCOL, nr);
    sssp_row *w = new_row();
    char cpu[192], dev[256];
    cpu_model(cpu, sizeof cpu);
    snprintf(dev, sizeof dev, "CPU: %s", cpu);
    row_init(w, b, dev, "cpu-dijkstra", -1);
    for (i = 0; i < nr; i++) {
        uint64_t relax, upd;
        size_t reached;
        double t0;
        b->ref[i] = (float *)xmalloc(b->n * sizeof(float));
        b->ref_by[i] = "CPU Dijkstra";
        t0 = now_s();
        reached = cpu_dijkstra(&b->c, b->roots[i], b->ref[i], heap, pos, &relax, &upd);
        col[R_DEV][i] = col[R_WALL][i] = (now_s() - t0) * 1e3;
        col[R_SYNC][i] = col[R_ITER][i] = col[R_PHASES][i] = col[R_TRIPS][i] = col[R_DELTA][i] = 0;
        col[R_RELAX][i] = b->cpu_relax[i] = (double)relax;
        col[R_UPD][i] = (double)upd;
        col[R_REACHED][i] = (double)reached;
        w->t_root[i] = col[R_DEV][i];
        w->relax_root[i] = (double)relax;
    }
    row_finish(w, col, nr);
    w->cpu_checked = nr;
    w->work = 1.0;
    fprintf(stderr, "  %-16s %.3f ms (median of %d), %.0f vertices reached, %.0f relaxations\n",
            w->strategy, w->med[R_WALL], nr, w->med[R_REACHED], w->med[R_RELAX]);
    free(heap); free(pos); free(block);
}

/* Checks a device result of root i against the root's reference; the first device result of a
   root without one becomes its reference (a cross-check of the strategies). `by` names the
   configuration and must live as long as the graph. */
static void check_root(bench_graph *b, sssp_row *w, const char *what, const char *by, int i,
                       const float *dist)
{
    if (!b->ref[i]) {
        b->ref[i] = (float *)xmalloc(b->n * sizeof(float));
        memcpy(b->ref[i], dist, b->n * sizeof(float));
        b->ref_by[i] = by;
        return;
    }
    check_dist(what, b->ref_by[i], b->roots[i], dist, b->ref[i], b->n, b->int_weights);
    if (!strcmp(b->ref_by[i], "CPU Dijkstra")) w->cpu_checked++; else w->cross_checked++;
}

/* dg_sssp_stats against what the call returned and the documented meaning of the fields. */
static void check_stats(const char *what, dg_vertex root, const config *cf, const dg_sssp_stats *st,
                        const float *dist, size_t n, double wall_s)
{
    size_t reached = count_reached(dist, n);
    if (st->strategy != STRAT_IDS[cf->si])
        fail("%s root %d: stats.strategy = %d, asked for %d", what, (int)root, (int)st->strategy,
             (int)STRAT_IDS[cf->si]);
    if (st->vertices_reached != reached)
        fail("%s root %d: stats.vertices_reached = %llu, dist has %zu finite entries", what,
             (int)root, (unsigned long long)st->vertices_reached, reached);
    if (st->updates + 1 < reached || st->relaxations < st->updates)
        fail("%s root %d: %llu relaxations, %llu updates for %zu vertices reached", what, (int)root,
             (unsigned long long)st->relaxations, (unsigned long long)st->updates, reached);
    if (st->device_ms <= 0 || st->device_ms * 1e-3 > wall_s * 1.05 + 1e-4)
        fail("%s root %d: stats.device_ms = %.6f, wall time %.6f ms", what, (int)root,
             st->device_ms, wall_s * 1e3);
    if (cf->si == S_NEAR_FAR && (!(st->delta > 0) ||
        (cf->delta > 0 && fabs((double)st->delta - (double)cf->delta) > 1e-6 * (double)cf->delta)))
        fail("%s root %d: stats.delta = %g, asked for %g (0: automatic)", what, (int)root,
             (double)st->delta, (double)cf->delta);
}

static void run_config(bench_graph *b, const config *cf)
{
    const options *o = b->o;
    int i, nr = cf->si == S_BF && o->bf_roots < b->nroots ? o->bf_roots : b->nroots;
    double *col[NRCOL], *block;
    float *dist;
    int32_t *pred;
    dg_sssp_stats st;
    dg_sssp_options opt;
    sssp_row *w;
    long fails0 = g_fails;
    char what[128];

    if (nr <= 0) {
        note("%s: %s skipped (--bf-roots 0)", b->title, cf->label);
        return;
    }
    block = samples_new(col, NRCOL, nr);
    dist = (float *)xmalloc(b->n * sizeof *dist);
    pred = (int32_t *)xmalloc(b->n * sizeof *pred);
    w = new_row();
    row_init(w, b, b->device, cf->label, cf->si);
    snprintf(what, sizeof what, "%.60s %.60s", b->title, cf->label);
    memset(&opt, 0, sizeof opt);
    opt.strategy = STRAT_IDS[cf->si];
    opt.delta = cf->delta;
    opt.stats = &st;

    /* warm-up, untimed: root 0 (always checked against the CPU) with the shortest-path tree */
    opt.pred = pred;
    memset(pred, 0x5a, b->n * sizeof *pred);
    memset(dist, 0xff, b->n * sizeof *dist);            /* NaN: no stale result can pass */
    CK(b->g, dg_sssp(b->g, b->roots[0], dist, &opt));
    if (check_dist(what, b->ref_by[0], b->roots[0], dist, b->ref[0], b->n, b->int_weights) == 0) {
        check_pred(what, &b->c, b->undirected, b->int_weights, b->roots[0], dist, pred);
        w->preds_checked = 1;
    }
    opt.pred = NULL;

    for (i = 0; i < nr; i++) {
        dg_vertex root = b->roots[i];
        double t0, wall;
        memset(&st, 0, sizeof st);
        memset(dist, 0xff, b->n * sizeof *dist);
        t0 = now_s();
        CK(b->g, dg_sssp(b->g, root, dist, &opt));
        wall = now_s() - t0;
        col[R_DEV][i] = st.device_ms;
        col[R_WALL][i] = wall * 1e3;
        col[R_SYNC][i] = st.sync_ms;
        col[R_ITER][i] = st.iterations;
        col[R_PHASES][i] = st.phases;
        col[R_TRIPS][i] = st.host_round_trips;
        col[R_RELAX][i] = (double)st.relaxations;
        col[R_UPD][i] = (double)st.updates;
        col[R_REACHED][i] = (double)st.vertices_reached;
        col[R_DELTA][i] = st.delta;
        w->t_root[i] = st.device_ms;
        w->relax_root[i] = (double)st.relaxations;
        check_stats(what, root, cf, &st, dist, b->n, wall);
        check_root(b, w, what, cf->label, i, dist);
    }
    row_finish(w, col, nr);
    w->work = ratio_common(w->relax_root, b->cpu_relax, b->nroots);
    w->fails = g_fails - fails0;
    fprintf(stderr, "  %-16s device %.3f ms, wall %.3f ms (medians of %d), %.0f iterations, "
            "%.0f phases, %.0f round trips, delta %g, %.3f G relax/s%s\n", w->strategy,
            w->med[R_DEV], w->med[R_WALL], nr, w->med[R_ITER], w->med[R_PHASES], w->med[R_TRIPS],
            w->med[R_DELTA], w->grelax, w->fails ? "  FAILED" : "");
    free(block); free(dist); free(pred);
}

/* The automatic NEAR_FAR bucket width on this graph (stats.delta of an untimed run). */
static float auto_delta(bench_graph *b)
{
    dg_sssp_stats st;
    dg_sssp_options opt;
    memset(&opt, 0, sizeof opt);
    memset(&st, 0, sizeof st);
    opt.strategy = DG_SSSP_NEAR_FAR;
    opt.stats = &st;
    CK(b->g, dg_sssp(b->g, b->roots[0], NULL, &opt));
    if (!(st.delta > 0)) die("NEAR_FAR reported no positive automatic delta");
    return st.delta;
}

/* The chosen strategies, then the delta sweep. Returns how many. */
static int make_configs(bench_graph *b, config *cf)
{
    const options *o = b->o;
    int n = 0, si, i;
    for (si = 0; si < NSTRATS; si++) {
        if (!o->c.strats[si]) continue;
        cf[n].si = si;
        cf[n].delta = si == S_NEAR_FAR ? o->delta : 0.0f;
        if (si == S_NEAR_FAR && o->delta > 0)
            snprintf(cf[n].label, sizeof cf[n].label, "near-far d=%g", (double)o->delta);
        else
            snprintf(cf[n].label, sizeof cf[n].label, "%s", STRAT_NAMES[si]);
        n++;
    }
    if (o->delta_sweep) {
        float d0 = auto_delta(b);
        note("%s: automatic NEAR_FAR delta %g; the sweep runs it x1/8 .. x8", b->title, (double)d0);
        for (i = 0; i < NSWEEP; i++) {
            if (SWEEP[i] == 1 && o->c.strats[S_NEAR_FAR] && o->delta == 0) continue;   /* = near-far */
            cf[n].si = S_NEAR_FAR;
            cf[n].delta = (float)(d0 * SWEEP[i]);
            snprintf(cf[n].label, sizeof cf[n].label, "near-far x%s", SWEEP_NAMES[i]);
            n++;
        }
    }
    return n;
}

/* Speed-ups of every row of the graph over FRONTIER and BELLMAN_FORD (device time, on the roots
   both ran); a summary line for the best device row. Then the CSV rows. */
static void finish_graph_rows(bench_graph *b)
{
    sssp_row *fr = NULL, *bf = NULL, *best = NULL;
    int r;
    for (r = b->row0; r < g_nrows; r++) {
        if (g_rows[r].si == S_FRONTIER) fr = &g_rows[r];
        if (g_rows[r].si == S_BF) bf = &g_rows[r];
    }
    for (r = b->row0; r < g_nrows; r++) {
        sssp_row *w = &g_rows[r];
        if (fr) w->vs_frontier = ratio_common(fr->t_root, w->t_root, b->nroots);
        if (bf) w->vs_bf = ratio_common(bf->t_root, w->t_root, b->nroots);
        if (w->si >= 0 && (!best || w->med[R_DEV] < best->med[R_DEV])) best = w;
    }
    if (best) {
        char vf[32], vb[32];
        fmt_ratio(vf, sizeof vf, best->vs_frontier);
        fmt_ratio(vb, sizeof vb, best->vs_bf);
        note("%s: fastest on the device: %s, median %.3f ms (%.3f G arcs/s); %s the speed of "
             "frontier, %s that of bellman-ford (device time, roots both ran)%s", b->title,
             best->strategy, best->med[R_DEV], best->gteps, vf, vb,
             b->kind == G_KRON && b->scale == 22 ? "; target: >= 3x frontier" :
             b->kind == G_GRID && b->scale == 22 ? "; target: >= 10x bellman-ford" : "");
    }
    for (r = b->row0; r < g_nrows; r++) {
        if (g_csv) print_sssp_csv_row(g_csv, &g_rows[r]);
        free(g_rows[r].t_root); free(g_rows[r].relax_root);
        g_rows[r].t_root = g_rows[r].relax_root = NULL;
    }
    if (g_csv) fflush(g_csv);
}

/* ------------------------------------------------------------------------------------------ */
/* The dynamic scenario                                                                        */
/* ------------------------------------------------------------------------------------------ */

/* A weight for a new edge: as the generator draws them, or for a file one of a random edge. */
static float random_weight(const bench_graph *b, rng *r, const dg_edge *cur, size_t ncur)
{
    if (b->kind == G_FILE) return ncur ? cur[rng_below(r, ncur)].weight : 1.0f;
    if (b->o->real_weights) return (float)(rng_next(r) >> 40) * (1.0f / 16777216.0f);
    return (float)(1 + rng_below(r, 255));
}

static void run_dynamic(bench_graph *b)
{
    const options *o = b->o;
    dg_graph *g = b->g;
    size_t n = b->n, ncur, maxadd, maxk, arcs_cap;
    dg_edge *cur, *sets;
    size_t *set_idx;
    batch_bufs bb;
    wcsr sc;                       /* the static alternative's CSR (preallocated) */
    pinned poff, pcol, pw;
    float *cpu_dist, *dist, *inc_dist;
    dg_result *res;
    int32_t *heap, *pos;
    int ki, rep, nreps = o->c.dyn_reps;
    rng r;
    char what[128];

    batch_bufs_alloc(&bb, &o->c, &maxadd, &maxk);
    /* the current edge set, as the graph holds it */
    cur = graph_edges(g, b->undirected, maxadd + 16, &ncur);
    if (ncur != dg_edge_count(g))
        fail("%s dynamic: the adjacency lists hold %zu edges, dg_edge_count says %zu", b->title,
             ncur, dg_edge_count(g));
    sets = (dg_edge *)xmalloc((maxk / 10 + 2) * sizeof *sets);
    set_idx = (size_t *)xmalloc((maxk / 10 + 2) * sizeof *set_idx);
    /* preallocated (and touched) buffers of the static rebuild, pageable and pinned */
    arcs_cap = (b->undirected ? 2 : 1) * (ncur + maxadd + 16);
    wcsr_alloc(&sc, n, arcs_cap);
    memset(sc.off, 0, (n + 1) * sizeof *sc.off);
    memset(sc.col, 0, arcs_cap * sizeof *sc.col);
    memset(sc.w, 0, arcs_cap * sizeof *sc.w);
    pinned_alloc(g, &poff, (n + 1) * sizeof(uint32_t));
    pinned_alloc(g, &pcol, arcs_cap * sizeof(int32_t));
    pinned_alloc(g, &pw, arcs_cap * sizeof(float));
    cpu_dist = (float *)xmalloc(n * sizeof *cpu_dist);
    dist = (float *)xmalloc(n * sizeof *dist);
    inc_dist = (float *)xmalloc(n * sizeof *inc_dist);
    res = dyn_result_follow(g, DG_RESULT_SSSP, b->roots[0]);   /* the result that follows the graph */
    heap = (int32_t *)xmalloc(n * sizeof *heap);
    pos = (int32_t *)xmalloc(n * sizeof *pos);
    dyn_rng_seed(&r, &o->c, b->scale, b->name);

    for (ki = -1; ki < o->c.ndyn; ki++) {
        /* ki = -1: one untimed warm-up batch of up to 1000 changes (the sync and scatter kernels) */
        long k = dyn_k_of(&o->c, ki, maxk);
        int reps = ki < 0 ? 1 : nreps;
        double *col[NDCOL], *block = samples_new(col, NDCOL, reps);
        dyn_row *w = ki < 0 ? NULL : new_drow();
        long fails0 = g_fails;
        size_t m_before = ncur;
        int checked = 0;
        snprintf(what, sizeof what, "%s dynamic k=%ld", b->title, k);
        for (rep = 0; rep < reps; rep++) {
            size_t nadd, nrem, nset = ((size_t)k + 9) / 10, j;
            double t_add, t_rem, t2, t3, t4, t5;
            dg_stats gs;
            dg_sssp_stats st;
            dg_sssp_options opt;
            dg_vertex root = b->roots[0];           /* one source: the result follows it */
            dg_result_stats rs;
            batch_split(k, rep, &nadd, &nrem);
            if (nrem > ncur) nrem = ncur;
            /* the batch, chosen before the timing: removals among the current edges, additions
               of absent edges u != v (absent from the graph and from the batch) with random
               weights, weight changes among the edges that stay */
            pick_batch(&r, g, b->undirected, cur, &ncur, bb.rems, nrem, bb.adds, nadd, bb.set, bb.setcap);
            for (j = 0; j < nadd; j++) bb.adds[j].weight = random_weight(b, &r, cur, ncur);
            if (ncur == 0) nset = 0;
            for (j = 0; j < nset; j++) {
                set_idx[j] = (size_t)rng_below(&r, ncur);
                sets[j] = cur[set_idx[j]];
                sets[j].weight = random_weight(b, &r, cur, ncur);
            }
            /* (1) update: additions, removals (the additions join cur), weight changes */
            batch_apply(g, &bb, nadd, nrem, cur, &ncur, what, &t_add, &t_rem);
            t2 = now_s();
            for (j = 0; j < nset; j++) CK(g, dg_set_weight(g, sets[j].src, sets[j].dst, sets[j].weight));
            t3 = now_s();
            for (j = 0; j < nset; j++) cur[set_idx[j]].weight = sets[j].weight;
            /* (2) sync + SSSP: dg_sssp syncs the changes first (stats.sync_ms) */
            memset(&opt, 0, sizeof opt);
            memset(&st, 0, sizeof st);
            opt.strategy = DG_SSSP_NEAR_FAR;
            opt.stats = &st;
            memset(dist, 0xff, n * sizeof *dist);
            t4 = now_s();
            CK(g, dg_sssp(g, root, dist, &opt));
            t5 = now_s();
            CK(g, dg_get_stats(g, &gs));
            col[D_ADD][rep] = t_add * 1e3;
            col[D_REM][rep] = t_rem * 1e3;
            col[D_SET][rep] = (t3 - t2) * 1e3;
            col[D_UPDATE][rep] = (t_add + t_rem + (t3 - t2)) * 1e3;
            col[D_SYNC][rep] = st.sync_ms;
            col[D_SYNC_KB][rep] = (double)gs.last_sync_bytes / 1024.0;
            col[D_SYNC_PAGES][rep] = (double)gs.last_sync_pages;
            col[D_DEV][rep] = st.device_ms;
            col[D_WALL][rep] = (t5 - t4) * 1e3;
            col[D_TOTAL][rep] = col[D_UPDATE][rep] + col[D_SYNC][rep] + col[D_DEV][rep];
            /* the result that follows the graph (synced by dg_sssp): brought up to date with the
               answer left on the device, then read and compared with the fresh search */
            {
                double i0 = now_s();
                CK(g, dg_result_update(res, NULL, &rs));
                col[D_INC][rep] = (now_s() - i0) * 1e3;
                col[D_INC_FULL][rep] = rs.full;
                col[D_INC_TOTAL][rep] = col[D_UPDATE][rep] + col[D_SYNC][rep] + col[D_INC][rep];
                CK(g, dg_result_update(res, inc_dist, NULL));
                if (memcmp(inc_dist, dist, n * sizeof *dist) != 0)
                    fail("%s: the incremental result differs from the fresh search", what);
            }
            /* the static alternative: rebuild a weighted CSR from the edge set, upload it (from
               pageable memory, and from pinned staging); its search is taken to cost the same */
            {
                const void *ptr[3];
                size_t bytes[3];
                double r0 = now_s(), r1;
                sc.n = n;
                sc.arcs = csr_fill(n, cur, ncur, b->undirected, sc.off, sc.col, sc.w);
                r1 = now_s();
                if (sc.arcs > arcs_cap) die("static CSR buffer too small");
                bytes[0] = (n + 1) * sizeof *sc.off;
                bytes[1] = sc.arcs * sizeof *sc.col;
                bytes[2] = sc.arcs * sizeof *sc.w;
                ptr[0] = sc.off; ptr[1] = sc.col; ptr[2] = sc.w;
                col[D_UPLOAD][rep] = upload_arrays(g, 3, ptr, bytes) * 1e3;
                memcpy(poff.ptr, sc.off, bytes[0]);          /* untimed: staging */
                memcpy(pcol.ptr, sc.col, bytes[1]);
                memcpy(pw.ptr, sc.w, bytes[2]);
                ptr[0] = poff.ptr; ptr[1] = pcol.ptr; ptr[2] = pw.ptr;
                col[D_UPLOAD_PINNED][rep] = upload_arrays(g, 3, ptr, bytes) * 1e3;
                col[D_REBUILD][rep] = (r1 - r0) * 1e3;
                col[D_UPLOAD_MB][rep] = (double)(bytes[0] + bytes[1] + bytes[2]) / 1048576.0;
                col[D_STATIC][rep] = col[D_REBUILD][rep] + col[D_UPLOAD][rep] + col[D_DEV][rep];
                col[D_STATIC_PINNED][rep] = col[D_REBUILD][rep] + col[D_UPLOAD_PINNED][rep] + col[D_DEV][rep];
            }
            /* the search against a CPU Dijkstra on the rebuilt CSR: the last batch of each k
               (every batch with --check-all) */
            if (ki >= 0 && (o->check_all || rep == reps - 1)) {
                uint64_t relax, upd;
                cpu_dijkstra(&sc, root, cpu_dist, heap, pos, &relax, &upd);
                check_dist(what, "CPU Dijkstra", root, dist, cpu_dist, n, b->int_weights);
                checked++;
            }
            if (w) { w->nadd = nadd; w->nrem = nrem; w->nset = nset; }
            if (ki >= 0 && (nreps <= 5 || rep == 0))
                fprintf(stderr, "  dynamic k=%ld rep %d: update %.3f ms, sync %.3f ms (%zu bytes, "
                        "%zu pages), SSSP %.3f ms device / %.3f ms wall; rebuild %.3f ms + upload "
                        "%.3f ms (pinned %.3f ms)\n", k, rep + 1, col[D_UPDATE][rep],
                        col[D_SYNC][rep], gs.last_sync_bytes, gs.last_sync_pages, col[D_DEV][rep],
                        col[D_WALL][rep], col[D_REBUILD][rep], col[D_UPLOAD][rep],
                        col[D_UPLOAD_PINNED][rep]);
        }
        if (w) {
            snprintf(w->device, sizeof w->device, "%s", b->device);
            snprintf(w->graph, sizeof w->graph, "%s", b->name);
            w->scale = b->scale; w->n = n; w->m = m_before; w->k = k; w->reps = reps;
            medians(col, NDCOL, reps, w->med);
            w->checked = checked;
            w->fails = g_fails - fails0;
            fprintf(stderr, "  dynamic k=%ld: update %.3f + sync %.3f + SSSP %.3f = %.3f ms; static: "
                    "rebuild %.3f + upload %.3f (pageable %.3f) + SSSP = %.3f ms\n", k,
                    w->med[D_UPDATE], w->med[D_SYNC], w->med[D_DEV], w->med[D_TOTAL],
                    w->med[D_REBUILD], w->med[D_UPLOAD_PINNED], w->med[D_UPLOAD],
                    w->med[D_STATIC_PINNED]);
            if (g_dcsv) { print_dyn_csv_row(g_dcsv, w); fflush(g_dcsv); }
        }
        free(block);
    }
    pinned_free(g, &poff);
    pinned_free(g, &pcol);
    pinned_free(g, &pw);
    wcsr_free(&sc);
    free(cur); free(sets); free(set_idx);
    batch_bufs_free(&bb);
    dg_result_destroy(res);
    free(cpu_dist); free(dist); free(inc_dist); free(heap); free(pos);
}

/* ------------------------------------------------------------------------------------------ */
/* One graph, start to end                                                                     */
/* ------------------------------------------------------------------------------------------ */

/* Generates graph gi at this scale with its weights, loads it (one dg_add_edges) and builds the
   reference CSR from the generated tuples (independently of the library). */
static void load_generated(bench_graph *b, int gi, int scale)
{
    const options *o = b->o;
    uint64_t gseed = graph_seed(o->c.seed, gi, scale);
    dg_edge *e;
    size_t m, added = 0;
    dg_vertex first = -1;
    double t0 = now_s(), t_gen, t_build;
    e = gen_graph(gi, scale, gseed, &b->n, &m);
    set_weights(e, m, gseed ^ 0x5EEDull, o->real_weights);
    t_gen = now_s() - t0;
    t0 = now_s();
    CK(b->g, dg_add_vertices(b->g, b->n, &first));
    CK(b->g, dg_add_edges(b->g, e, m, &added));
    t_build = now_s() - t0;
    if (first != 0 || added != dg_edge_count(b->g))
        fail("%s: dg_add_edges added %zu, dg_edge_count %zu (first id %d)", b->title, added,
             dg_edge_count(b->g), (int)first);
    t0 = now_s();
    wcsr_build(&b->c, b->n, e, m, 1);
    note("%s: %zu tuples (%zu self-loops); generated with weights in %.2f s, dg build %.2f s "
         "(%.2f M tuples/s), reference CSR %.2f s", b->title, m,
         count_self_loops(e, m), t_gen, t_build, m / t_build * 1e-6, now_s() - t0);
    free(e);
}

/* Loads --file (dg_load) and reads the reference CSR back from the graph. */
static void load_file(bench_graph *b)
{
    dg_edge *e;
    size_t m;
    double t0 = now_s(), t_load;
    CK(b->g, dg_load(b->g, b->o->file, DG_FORMAT_AUTO));
    t_load = now_s() - t0;
    b->n = dg_vertex_id_bound(b->g);
    e = graph_edges(b->g, b->undirected, 0, &m);
    if (m != dg_edge_count(b->g))
        fail("%s: the adjacency lists hold %zu edges, dg_edge_count says %zu", b->name, m,
             dg_edge_count(b->g));
    wcsr_build(&b->c, b->n, e, m, b->undirected);
    note("%s: loaded %s in %.2f s (%s, weighted)", b->name, b->o->file, t_load,
         b->undirected ? "undirected" : "directed");
    free(e);
}

/* Weights: all >= 0 (else the benchmark stops), integers or not. */
static void classify_weights(bench_graph *b)
{
    size_t k;
    b->int_weights = 1;
    for (k = 0; k < b->c.arcs; k++) {
        float w = b->c.w[k];
        if (!(w >= 0)) die("negative (or NaN) edge weights: this benchmark runs the strategies "
                           "that need weights >= 0");
        if (w != floorf(w)) b->int_weights = 0;
    }
}

static void run_graph(const options *o, int gi, int scale)
{
    bench_graph B, *b = &B;
    dg_desc desc;
    dg_stats gs;
    config cf[MAX_CONFIGS];
    double t0, t_setup, t_sync;
    int i, ncf;

    memset(b, 0, sizeof *b);
    b->o = o;
    b->kind = gi;
    b->scale = gi == G_FILE ? 0 : scale;
    b->undirected = gi == G_FILE ? o->file_undirected : 1;
    if (gi == G_FILE) {
        const char *base = strrchr(o->file, '/');
        snprintf(b->name, sizeof b->name, "%s", base ? base + 1 : o->file);
        snprintf(b->title, sizeof b->title, "%.63s", b->name);
    } else {
        snprintf(b->name, sizeof b->name, "%s", GRAPH_NAMES[gi]);
        snprintf(b->title, sizeof b->title, "%.63s scale %d", b->name, scale);
    }
    fprintf(stderr, "%s:\n", b->title);

    /* the device first (empty graph: setup and kernel build), then the graph, then the upload */
    memset(&desc, 0, sizeof desc);
    desc.undirected = b->undirected;
    desc.weighted = 1;
    desc.page_size = o->c.page_size;
    desc.device_batches = o->c.device_batches;
    desc.device = o->c.device;
    CK(b->g, dg_create(&desc, &b->g));
    t0 = now_s();
    if (!dg_cl_context(b->g)) die_dg(b->g, "dg_cl_context", DG_ERR_OPENCL, __LINE__);
    t_setup = now_s() - t0;
    snprintf(b->device, sizeof b->device, "%s", dg_device_name(b->g));
    if (gi == G_FILE) load_file(b); else load_generated(b, gi, scale);
    b->m = dg_edge_count(b->g);
    t0 = now_s();
    CK(b->g, dg_sync(b->g));
    t_sync = now_s() - t0;
    CK(b->g, dg_get_stats(b->g, &gs));
    b->arcs = gs.arcs;
    if (o->c.quick) { CK(b->g, dg_validate(b->g)); CK(b->g, dg_validate_device(b->g)); }
    classify_weights(b);
    note("%s: n %zu, %zu edges stored (%zu arcs), %s weights; device setup %.2f s, first "
         "dg_sync %.3f s (%.1f MB), host %.1f MB, device %.1f MB", b->title, b->n, b->m,
         b->arcs, b->int_weights ? "integer" : "real", t_setup, t_sync,
         gs.last_sync_bytes / 1048576.0, gs.host_bytes / 1048576.0, gs.device_bytes / 1048576.0);

    /* roots: distinct random vertices with an arc to another vertex */
    b->roots = pick_roots(b->c.off, b->c.col, b->n, o->c.roots, graph_seed(o->c.seed, gi, scale),
                          &b->nroots);
    b->ref = (float **)calloc((size_t)b->nroots, sizeof *b->ref);
    b->ref_by = (const char **)calloc((size_t)b->nroots, sizeof *b->ref_by);
    b->cpu_relax = (double *)xmalloc((size_t)b->nroots * sizeof *b->cpu_relax);
    if (!b->ref || !b->ref_by) die("out of memory");
    for (i = 0; i < b->nroots; i++) b->cpu_relax[i] = -1;
    b->row0 = g_nrows;

    run_cpu(b);
    ncf = make_configs(b, cf);
    for (i = 0; i < ncf; i++) run_config(b, &cf[i]);
    finish_graph_rows(b);
    if (o->c.ndyn > 0) run_dynamic(b);

    CK(b->g, dg_get_stats(b->g, &gs));
    note("%s: at the end %zu syncs, %.1f MB uploaded in all, device %.1f MB", b->title, gs.syncs, (double)gs.upload_bytes / 1048576.0, gs.device_bytes / 1048576.0);
    dg_destroy(b->g);
    wcsr_free(&b->c);
    for (i = 0; i < b->nroots; i++) free(b->ref[i]);
    free(b->ref); free(b->ref_by); free(b->cpu_relax); free(b->roots);
}

/* ------------------------------------------------------------------------------------------ */
/* Main                                                                                        */
/* ------------------------------------------------------------------------------------------ */

static void usage(void)
{
    fprintf(stderr,
        "usage: " BENCH_NAME " [options]\n"
        BENCH_USAGE_SCALE
        "                     floor(sqrt(2^S))^2 vertices (S = 22: 2048 x 2048)\n"
        "  --graphs LIST      kron,uniform,grid (default all; none when --file is given alone)\n"
        "  --file PATH        also bench a graph file (dg_load: .gr, .mtx, .graph, edge list),\n"
        "                     loaded directed (arcs as listed) unless --file-undirected\n"
        "  --weights int|real weights of the generated graphs: integers in [1,255] (default) or\n"
        "                     uniform in [0,1)\n"
        "  --strategies LIST  default all of: bellman-ford frontier near-far\n"
        "  --delta X          NEAR_FAR bucket width (default: automatic)\n"
        "  --delta-sweep      also NEAR_FAR at the automatic delta x 1/8, 1/4, 1/2, 1, 2, 4, 8\n"
        "  --roots R          sources per graph (default 8)\n"
        "  --bf-roots N       sources bellman-ford runs from, the first N (default 2; 0: skip it)\n"
        "  --check-all        CPU Dijkstra for every root (default: the first root; the others are\n"
        "                     checked against the first device result for them)\n"
        BENCH_USAGE_DYNAMIC
        "  --csv FILE         also write the rows as CSV, and the dynamic rows to FILE with .csv\n"
        "                     replaced by _dynamic.csv\n"
        BENCH_USAGE_SEED
        "  --quick            smoke test: scale 12, --check-all, dg_validate and\n"
        "                     dg_validate_device after the build\n");
}

/* The options of this benchmark alone (opts_parse takes the common ones) */
static int own_option(void *ctx, const char *a, const char *v)
{
    options *o = (options *)ctx;
    if (!strcmp(a, "--file-undirected")) { o->file_undirected = 1; return 1; }
    if (!strcmp(a, "--delta-sweep")) { o->delta_sweep = 1; return 1; }
    if (!strcmp(a, "--check-all")) { o->check_all = 1; return 1; }
    if (!strcmp(a, "--file")) {
        if (!v) { fprintf(stderr, BENCH_NAME ": --file needs a path\n"); exit(2); }
        o->file = v;
    }
    else if (!strcmp(a, "--weights")) {
        if (!v || (strcmp(v, "int") && strcmp(v, "real"))) {
            fprintf(stderr, BENCH_NAME ": --weights takes int or real\n"); exit(2);
        }
        o->real_weights = !strcmp(v, "real");
    }
    else if (!strcmp(a, "--delta")) o->delta = (float)parse_double(v, a);
    else if (!strcmp(a, "--bf-roots")) o->bf_roots = (int)parse_long(v, a, 0, 4096);
    else return 0;
    return 2;
}

int main(int argc, char **argv)
{
    options o;
    int i, j;
    const char *dev_name = NULL;

    memset(&o, 0, sizeof o);
    o.bf_roots = 2;
    opts_read(&o.c, STRAT_NAMES, NSTRATS, 8, argc, argv, own_option, &o, usage);
    if (o.file && !o.c.graphs_given) for (i = 0; i < NGRAPHS; i++) o.c.graphs[i] = 0;
    if (o.c.quick) o.check_all = 1;
    for (i = j = 0; i < NSTRATS; i++) j += o.c.strats[i];
    if (j + (o.delta_sweep ? NSWEEP : 0) > MAX_CONFIGS) die("too many configurations");

    csv_start(o.c.csv_path, o.c.ndyn > 0, print_sssp_csv_header, print_dyn_csv_header);
    for (i = 0; i < o.c.nscales; i++)
        for (j = 0; j < NGRAPHS; j++)
            if (o.c.graphs[j]) run_graph(&o, j, o.c.scales[i]);
    if (o.file) run_graph(&o, G_FILE, 0);
    for (i = 0; i < g_nrows && !dev_name; i++)
        if (g_rows[i].si >= 0) dev_name = g_rows[i].device;
    for (i = 0; i < g_ndrows && !dev_name; i++) dev_name = g_drows[i].device;

    report_begin("SSSP", dev_name, "cpu-dijkstra");
    printf("- graphs loaded undirected and weighted with one dg_add_edges (repeats dropped, "
           "self-loops kept once); kron: Graph500 Kronecker (A=0.57, B=C=0.19, edge factor 16, ids "
           "permuted); uniform: same n and tuples, uniform endpoints; grid: 4-neighbour sqrt(n) x "
           "sqrt(n), row-major ids; weights %s, a hash of the unordered pair; a --file graph as "
           "dg_load reads it; arcs = dg_stats.arcs (2 per edge); seed %llu\n",
           o.real_weights ? "uniform in [0,1) (Graph500 kernel 3)" : "integers uniform in [1,255] (GAP)",
           (unsigned long long)o.c.seed);
    printf("- per strategy: one untimed warm-up run from the first root (asking for the "
           "shortest-path tree, which is checked), then %d random roots with an arc to another "
           "vertex (the same for every strategy; bellman-ford the first %d only); device = "
           "dg_sssp_stats.device_ms, wall = the dg_sssp call with dist read back, medians over "
           "the roots; G relax/s = median relaxations / median device time; G arcs/s = arcs / "
           "median device time (comparable to GTEPS); iterations, phases, round trips, "
           "relaxations, updates: medians of dg_sssp_stats; work vs Dijkstra = relaxations / the "
           "CPU Dijkstra's (arcs scanned) on the roots it ran; vs frontier, vs bellman-ford = sum "
           "of that strategy's device times / sum of this row's, on the roots both ran (the "
           "cpu-dijkstra row: its wall times)\n", o.c.roots, o.bf_roots);
    printf("- cpu-dijkstra: a sequential Dijkstra (indexed binary heap, float d[u] + w) over a "
           "CSR of the generated tuples (of the loaded edges for a file), initialisation "
           "included, from %s\n", o.check_all ? "every root" : "the first root");
    printf("- checks: dist against the CPU Dijkstra (exact for integer weights, relative 1e-5 "
           "otherwise) %s; the warm-up's shortest-path tree (pred[v] reached, an arc pred->v with "
           "dist[pred] + w == dist[v]); stats: strategy, vertices_reached = finite dist entries, "
           "relaxations >= updates >= reached - 1, 0 < device_ms <= wall, delta as asked\n\n",
           o.check_all ? "on every root" : "on the first root, the other roots against the first "
           "strategy that ran them (cross)");
    print_sssp_header(stdout);
    for (i = 0; i < g_nrows; i++) print_sssp_row(stdout, &g_rows[i]);
    if (g_ndrows > 0) {
        printf("\n## Dynamic scenario\n\n");
        printf("- per k: %d batches (after one untimed warm-up batch), medians; each batch is k "
               "random changes on the current graph, half dg_add_edges of absent edges u != v "
               "with random weights, half dg_remove_edges of present edges (k = 1 alternates an "
               "addition and a removal), plus ceil(k/10) dg_set_weight of present edges\n", o.c.dyn_reps);
        printf("- dynamic: update (the three kinds of calls) + sync (dg_sssp_stats.sync_ms: dg_sssp "
               "syncs the changes itself; sync KB = dg_stats.last_sync_bytes) + SSSP (NEAR_FAR, "
               "device ms; the wall time adds the sync and dist read-back); m = edges before the "
               "batches of that k\n");
        printf("- static: rebuild a weighted int32 CSR on the host from the current edge list "
               "(counting sort, preallocated arrays) + upload it (clCreateBuffer x3, "
               "clEnqueueWriteBuffer x3, clFinish; from pageable memory / from pinned staging) + "
               "the same SSSP device time (dg_sssp has no CSR mode: this favours the static side "
               "by whatever the pages cost); static total uses the pinned upload; static / "
               "dynamic = static total / dynamic total\n");
        printf("- incremental: a dg_result (DG_RESULT_SSSP) from the scenario's one source, brought up "
               "to date after each batch (dg_result_update, answer left on the device, wall ms; "
               "\"(full)\": most batches ran from nothing); incremental total = update + sync + "
               "incremental; its answer is read and compared with the fresh search every batch\n");
        printf("- checks: the SSSP result against a CPU Dijkstra on the rebuilt CSR on %s batch "
               "of each k; counts added / removed and dg_edge_count after every batch\n\n",
               o.check_all ? "every" : "the last");
        print_dyn_header(stdout);
        for (i = 0; i < g_ndrows; i++) print_dyn_row(stdout, &g_drows[i]);
    }
    csv_close();
    free(g_rows); free(g_drows);
    return report_end();
}
