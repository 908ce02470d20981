/* bench_bfs.c - breadth-first search benchmark of dyngraph on its OpenCL device.

   For each scale and each graph (Graph500 Kronecker, a uniform random graph of the same size, a
   2-D grid), loaded UNDIRECTED with one dg_add_edges:
     1. a sequential queue BFS over a sorted, deduplicated CSR built here ("cpu-seq"): the
        baseline, and the reference every device result is checked against;
     2. each dg_bfs strategy (MASK, QUEUE, EDGE_CHUNK, TOP_DOWN, DIRECTION_OPT, and TOP_DOWN /
        DIRECTION_OPT with csr_copy = 1), from the same random roots (degree > 0, Graph500
        style), after one warm-up run: device time (dg_bfs_stats.device_ms) and wall time of the
        dg_bfs call (dist read back included); TEPS per root = input edge tuples in the
        component reached / time, harmonic mean over the roots (Graph500);
        every root's dist is compared with the CPU BFS, and the BFS tree (opt.parent) is
        validated Graph500-style on the first roots (all for small graphs);
     3. the dynamic scenario: batches of k random edge changes (half dg_add_edges of new edges,
        half dg_remove_edges of existing ones), then dg_sync and a BFS, against rebuilding a
        CSR on the host from the current edge set and uploading it to the device.

   Build:  make bench   (or: cc -O2 -march=native -I. bench/bench_bfs.c -o build/bench_bfs -lOpenCL -lm)
   Run:    build/bench_bfs --quick      smoke test (scale 12, every check)
           build/bench_bfs [--scale 16,18,20,22] [--graphs kron,uniform,grid] [--device gpu] [--csv F]
   The Markdown tables go to stdout, progress to stderr; build/bench_bfs --help lists the options.
   The exit status is 1 when any check failed (every failure also prints a FAIL line). */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE     /* and madvise: the library offers its large arrays huge pages */
#define DYNGRAPH_IMPLEMENTATION
#include "dyngraph.h"

#define BENCH_NAME "bench_bfs"
#include "bench_common.h"   /* utilities, random numbers, graph generators, common options */

/* ------------------------------------------------------------------------------------------ */
/* Options                                                                                     */
/* ------------------------------------------------------------------------------------------ */

typedef struct strat_info {
    const char *name;
    int cpu;                      /* 1: the sequential CPU BFS, not dg_bfs */
    dg_bfs_strategy strategy;
    int csr_copy;
} strat_info;

static const strat_info STRATS[] = {
    { "cpu-seq",      1, DG_BFS_AUTO,          0 },
    { "mask",         0, DG_BFS_MASK,          0 },
    { "queue",        0, DG_BFS_QUEUE,         0 },
    { "edge-chunk",   0, DG_BFS_EDGE_CHUNK,    0 },
    { "top-down",     0, DG_BFS_TOP_DOWN,      0 },
    { "dir-opt",      0, DG_BFS_DIRECTION_OPT, 0 },
    { "top-down-csr", 0, DG_BFS_TOP_DOWN,      1 },
    { "dir-opt-csr",  0, DG_BFS_DIRECTION_OPT, 1 },
};
#define NSTRATS ((int)(sizeof STRATS / sizeof STRATS[0]))

typedef struct options {
    bench_opts c;                 /* scales, graphs, strategies, roots (BFS roots per graph), ... */
    int check_trees;              /* parent trees validated on the first N roots; -1: auto */
    int with_parent;              /* timed runs ask for opt.parent too */
    int large;                    /* --large: scale 24 added to the default scales */
    const char *file;             /* --file: an edge list benched after the generated graphs */
    int pinned;                   /* --pinned: dist in dg_host_alloc memory */
    float alpha, beta;
    uint32_t chunk;
} options;

/* ------------------------------------------------------------------------------------------ */
/* CSR of the undirected graph (host): validation, the CPU baseline, the static alternative     */
/* ------------------------------------------------------------------------------------------ */

typedef struct csr {
    size_t n, arcs;
    uint32_t *off;                /* n + 1 row offsets */
    int32_t *col;                 /* arcs neighbour ids */
    uint8_t *loop;                /* per vertex: 1 if it has a self-loop (sorted CSR only) */
} csr;

static void csr_free(csr *c)
{
    free(c->off); free(c->col); free(c->loop);
    memset(c, 0, sizeof *c);
}

static size_t arcs_of(const dg_edge *e, size_t m)
{
    size_t k, a = 0;
    for (k = 0; k < m; k++) a += e[k].src == e[k].dst ? 1 : 2;
    return a;
}

/* The graph as dyngraph stores it: each tuple {u,v} is u->v and v->u (a self-loop one arc u->u),
   repeats dropped. Lists sorted ascending (two counting-sort passes: by target, then stably by
   source), so that an edge is found by binary search. */
static void csr_build_sorted(csr *c, size_t n, const dg_edge *e, size_t m)
{
    size_t arcs = arcs_of(e, m), k, d, u, w;
    uint32_t *dstart, *pos;
    int32_t *tsrc;
    if (arcs >= 0xffffffffull) die("graph too large for 32-bit CSR offsets");
    memset(c, 0, sizeof *c);
    c->n = n;
    dstart = (uint32_t *)calloc(n + 1, sizeof *dstart);
    pos = (uint32_t *)xmalloc((n + 1) * sizeof *pos);
    tsrc = (int32_t *)xmalloc(arcs * sizeof *tsrc);
    if (!dstart) die("out of memory");
    /* pass 1: arcs bucketed by target; tsrc holds their sources */
    for (k = 0; k < m; k++) {
        dstart[e[k].dst + 1]++;
        if (e[k].src != e[k].dst) dstart[e[k].src + 1]++;
    }
    for (d = 0; d < n; d++) dstart[d + 1] += dstart[d];
    memcpy(pos, dstart, (n + 1) * sizeof *pos);
    for (k = 0; k < m; k++) {
        tsrc[pos[e[k].dst]++] = e[k].src;
        if (e[k].src != e[k].dst) tsrc[pos[e[k].src]++] = e[k].dst;
    }
    /* pass 2: by source, visiting targets in ascending order: every list comes out sorted */
    c->off = (uint32_t *)calloc(n + 1, sizeof *c->off);
    if (!c->off) die("out of memory");
    for (k = 0; k < arcs; k++) c->off[tsrc[k] + 1]++;
    for (u = 0; u < n; u++) c->off[u + 1] += c->off[u];
    memcpy(pos, c->off, (n + 1) * sizeof *pos);
    c->col = (int32_t *)xmalloc(arcs * sizeof *c->col);
    for (d = 0; d < n; d++)
        for (k = dstart[d]; k < dstart[d + 1]; k++) c->col[pos[tsrc[k]]++] = (int32_t)d;
    free(tsrc); free(pos); free(dstart);
    /* drop repeats; note self-loops */
    c->loop = (uint8_t *)calloc(n ? n : 1, 1);
    if (!c->loop) die("out of memory");
    w = 0;
    for (u = 0; u < n; u++) {
        size_t a = c->off[u], b = c->off[u + 1];
        int32_t prev = -1;
        c->off[u] = (uint32_t)w;
        for (k = a; k < b; k++) {
            if (c->col[k] == prev) continue;
            prev = c->col[k];
            if ((size_t)prev == u) c->loop[u] = 1;
            c->col[w++] = prev;
        }
    }
    c->off[n] = (uint32_t)w;
    c->arcs = w;
    c->col = (int32_t *)xrealloc(c->col, (w ? w : 1) * sizeof *c->col);
}

/* Undirected edges (self-loops count once) of a sorted CSR. */
static size_t csr_edges(const csr *c)
{
    size_t u, loops = 0;
    for (u = 0; u < c->n; u++) loops += c->loop[u];
    return (c->arcs + loops) / 2;
}

/* The static alternative: a plain CSR (lists unsorted) rebuilt from a list of unique undirected
   edges into c->off / c->col, which must have room (n + 1 and arcs entries): csr_fill. */
static void csr_rebuild(csr *c, size_t n, const dg_edge *e, size_t m)
{
    c->n = n;
    c->arcs = csr_fill(n, e, m, 1, c->off, c->col, NULL);
}

/* A good sequential BFS: one queue array, dist doubling as the visited flag. Returns the number
   of levels (largest distance + 1); *reached the vertices reached. The queue ends holding every
   reached vertex in BFS order. */
static uint32_t cpu_bfs(const csr *c, dg_vertex root, int32_t *dist, int32_t *queue, size_t *reached)
{
    const uint32_t *off = c->off;
    const int32_t *col = c->col;
    size_t head = 0, tail = 0;
    memset(dist, 0xff, c->n * sizeof *dist);
    dist[root] = 0;
    queue[tail++] = root;
    while (head < tail) {
        int32_t u = queue[head++], du = dist[u] + 1;
        uint32_t k, end = off[u + 1];
        for (k = off[u]; k < end; k++) {
            int32_t v = col[k];
            if (dist[v] < 0) { dist[v] = du; queue[tail++] = v; }
        }
    }
    *reached = tail;
    return (uint32_t)dist[queue[tail - 1]] + 1;
}

static int csr_has_arc(const csr *c, int32_t u, int32_t v)
{
    size_t lo, hi;
    if (c->off[u + 1] - c->off[u] > c->off[v + 1] - c->off[v]) { int32_t t = u; u = v; v = t; }
    lo = c->off[u]; hi = c->off[u + 1];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c->col[mid] < v) lo = mid + 1; else hi = mid;
    }
    return lo < c->off[u + 1] && c->col[lo] == v;
}

/* ------------------------------------------------------------------------------------------ */
/* Checks                                                                                      */
/* ------------------------------------------------------------------------------------------ */

/* dist against the CPU BFS; 0 if equal, else the number of differences (the first few printed). */
static size_t check_dist(const char *what, dg_vertex root, const int32_t *got, const int32_t *want, size_t n)
{
    size_t v, bad = 0;
    if (memcmp(got, want, n * sizeof *got) == 0) return 0;
    for (v = 0; v < n; v++) {
        if (got[v] == want[v]) continue;
        if (bad < 3)
            fail("%s root %d: dist[%zu] = %d, the CPU BFS says %d", what, (int)root, v,
                 (int)got[v], (int)want[v]);
        bad++;
    }
    if (bad > 3) fail("%s root %d: %zu dist entries differ from the CPU BFS", what, (int)root, bad);
    return bad;
}

/* Graph500-style validation of a BFS tree: parent[root] == root; a reached v != root has a
   parent p with dist[p] == dist[v] - 1 and an edge p-v in the graph; unreached iff parent -1.
   dist must already be known to be right. Returns the number of bad vertices. */
static size_t check_tree(const char *what, const csr *c, dg_vertex root, const int32_t *dist,
                         const int32_t *parent)
{
    size_t v, bad = 0, n = c->n;
    if (parent[root] != root) {
        fail("%s root %d: parent[root] = %d, not the root", what, (int)root, (int)parent[root]);
        bad++;
    }
    for (v = 0; v < n; v++) {
        int32_t p = parent[v];
        const char *why = NULL;
        if ((dg_vertex)v == root) continue;
        if (dist[v] < 0) { if (p != -1) why = "unreached vertex with a parent"; }
        else if (p < 0 || (size_t)p >= n) why = "reached vertex without a valid parent";
        else if (dist[p] != dist[v] - 1) why = "dist[parent] != dist[v] - 1";
        else if (!csr_has_arc(c, p, (int32_t)v)) why = "no edge parent-v in the graph";
        if (why) {
            if (bad < 3)
                fail("%s root %d: vertex %zu (dist %d), parent %d (dist %d): %s", what, (int)root,
                     v, (int)dist[v], (int)p, (p >= 0 && (size_t)p < n) ? (int)dist[p] : -9, why);
            bad++;
        }
    }
    if (bad > 3) fail("%s root %d: %zu vertices break the BFS tree", what, (int)root, bad);
    return bad;
}

/* ------------------------------------------------------------------------------------------ */
/* Result rows                                                                                 */
/* ------------------------------------------------------------------------------------------ */

typedef struct bfs_row {
    char device[256], graph[16];
    int scale;
    size_t n, tuples, m;          /* vertices, input tuples, stored edges (dg_edge_count) */
    const char *strategy;
    int roots;
    double edges_mean, uedges_mean;   /* per root: input tuples / unique edges in the component */
    double gteps_dev, gteps_wall;     /* harmonic means over the roots, input tuples */
    double ugteps_dev, ugteps_wall;   /* the same counting unique edges */
    double dev_ms, wall_ms, wall_min_ms, wall_max_ms, sync_ms;   /* medians (and extremes) */
    double levels, bu_levels, round_trips, inspected;            /* medians over the roots */
    double vs_cpu;                    /* gteps_wall / cpu-seq GTEPS (0 if cpu-seq not run) */
    double cpu_wall;                  /* process CPU time / wall time over the timed calls */
    int dist_checked, trees_checked;
    long fails;
} bfs_row;

typedef struct dyn_row {
    char device[256], graph[16];
    int scale;
    size_t n, m;                  /* vertices, edges before the scenario's batches of this k */
    long k;
    int reps;
    size_t nadd, nrem;            /* of the last batch */
    double add_ms, rem_ms, update_ms, sync_ms, sync_kb, sync_pages;
    double bfs_dev_ms, bfs_wall_ms, bfs_sync_ms, dyn_total_ms;
    double rebuild_ms, upload_ms, upload_pinned_ms, upload_mb, static_bfs_dev_ms;
    double static_total_ms, static_total_pinned_ms;
    double inc_ms, inc_total_ms, inc_full;   /* the result that follows the graph (dg_result_update) */
    long fails;
} dyn_row;

static bfs_row *g_rows; static int g_nrows, g_caprows;
static dyn_row *g_drows; static int g_ndrows, g_capdrows;
static bfs_row *new_row(void) { return PUSH_ZEROED(g_rows, g_nrows, g_caprows); }
static dyn_row *new_drow(void) { return PUSH_ZEROED(g_drows, g_ndrows, g_capdrows); }

static void print_bfs_header(FILE *f)
{
    md_header(f, "device|graph|n:|m:|strategy|GTEPS device:|GTEPS wall:|median device ms:|"
                 "median wall ms:|levels:|bottom-up levels:|wall vs cpu-seq:|checks");
}

static void print_bfs_row(FILE *f, const bfs_row *w)
{
    char checks[64];
    if (w->fails) snprintf(checks, sizeof checks, "**FAIL (%ld)**", w->fails);
    else snprintf(checks, sizeof checks, "ok: %d dist, %d trees", w->dist_checked, w->trees_checked);
    fprintf(f, "| %s | %s | %zu | %zu | %s | %.4f | %.4f | %.3f | %.3f | %.0f | %.0f | %.2f | %s |\n",
            w->device, w->graph, w->n, w->m, w->strategy, w->gteps_dev, w->gteps_wall, w->dev_ms,
            w->wall_ms, w->levels, w->bu_levels, w->vs_cpu, checks);
}

static void print_bfs_csv_header(FILE *f)
{
    fprintf(f, "device,graph,scale,n,tuples,m,strategy,roots,edges_in_component_mean,"
               "unique_edges_in_component_mean,gteps_device_hmean,gteps_wall_hmean,"
               "gteps_device_unique_hmean,gteps_wall_unique_hmean,device_ms_median,wall_ms_median,"
               "wall_ms_min,wall_ms_max,sync_ms_median,levels_median,bottom_up_levels_median,"
               "host_round_trips_median,edges_inspected_median,wall_vs_cpu_seq,cpu_per_wall,dist_checked,"
               "trees_checked,fails\n");
}

static void print_bfs_csv_row(FILE *f, const bfs_row *w)
{
    csv_str(f, w->device);
    fprintf(f, ",%s,%d,%zu,%zu,%zu,%s,%d,%.1f,%.1f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,"
               "%.1f,%.1f,%.1f,%.0f,%.4f,%.3f,%d,%d,%ld\n",
            w->graph, w->scale, w->n, w->tuples, w->m, w->strategy, w->roots, w->edges_mean,
            w->uedges_mean, w->gteps_dev, w->gteps_wall, w->ugteps_dev, w->ugteps_wall, w->dev_ms,
            w->wall_ms, w->wall_min_ms, w->wall_max_ms, w->sync_ms, w->levels, w->bu_levels,
            w->round_trips, w->inspected, w->vs_cpu, w->cpu_wall, w->dist_checked, w->trees_checked,
            w->fails);
}

static void print_dyn_header(FILE *f)
{
    md_header(f, "device|graph|n:|m:|k:|update ms:|dg_sync ms:|sync KB:|sync pages:|"
                 "BFS device ms:|BFS wall ms:|dynamic total ms:|incremental ms:|incremental total ms:|"
                 "CSR rebuild ms:|upload ms "
                 "(pageable / pinned):|CSR BFS device ms:|static total ms:|static / dynamic:|checks");
}

static void print_dyn_row(FILE *f, const dyn_row *w)
{
    fprintf(f, "| %s | %s | %zu | %zu | %ld | %.3f | %.3f | %.1f | %.0f | %.3f | %.3f | %.3f | %.3f%s | %.3f | %.3f | "
               "%.3f / %.3f | %.3f | %.3f | %.1f | %s |\n",
            w->device, w->graph, w->n, w->m, w->k, w->update_ms, w->sync_ms, w->sync_kb,
            w->sync_pages, w->bfs_dev_ms, w->bfs_wall_ms, w->dyn_total_ms, w->inc_ms,
            w->inc_full > 0 ? " (full)" : "", w->inc_total_ms, w->rebuild_ms,
            w->upload_ms, w->upload_pinned_ms, w->static_bfs_dev_ms, w->static_total_pinned_ms,
            w->dyn_total_ms > 0 ? w->static_total_pinned_ms / w->dyn_total_ms : 0.0,
            w->fails ? "**FAIL**" : "ok");
}

static void print_dyn_csv_header(FILE *f)
{
    fprintf(f, "device,graph,scale,n,m,k,reps,adds,removes,add_ms,remove_ms,update_ms,sync_ms,"
               "sync_kb,sync_pages,bfs_device_ms,bfs_wall_ms,bfs_sync_ms,dynamic_total_ms,"
               "csr_rebuild_ms,upload_ms,upload_pinned_ms,upload_mb,csr_bfs_device_ms,"
               "static_total_ms,static_total_pinned_ms,incremental_ms,incremental_total_ms,incremental_full,fails\n");
}

static void print_dyn_csv_row(FILE *f, const dyn_row *w)
{
    csv_str(f, w->device);
    fprintf(f, ",%s,%d,%zu,%zu,%ld,%d,%zu,%zu,%.6f,%.6f,%.6f,%.6f,%.3f,%.1f,%.6f,%.6f,%.6f,%.6f,"
               "%.6f,%.6f,%.6f,%.3f,%.6f,%.6f,%.6f,%.6f,%.6f,%.0f,%ld\n",
            w->graph, w->scale, w->n, w->m, w->k, w->reps, w->nadd, w->nrem, w->add_ms,
            w->rem_ms, w->update_ms, w->sync_ms, w->sync_kb, w->sync_pages, w->bfs_dev_ms,
            w->bfs_wall_ms, w->bfs_sync_ms, w->dyn_total_ms, w->rebuild_ms, w->upload_ms,
            w->upload_pinned_ms, w->upload_mb, w->static_bfs_dev_ms, w->static_total_ms,
            w->static_total_pinned_ms, w->inc_ms, w->inc_total_ms, w->inc_full, w->fails);
}

/* ------------------------------------------------------------------------------------------ */
/* One graph                                                                                   */
/* ------------------------------------------------------------------------------------------ */

typedef struct bench_graph {
    const options *o;
    const char *name;
    int scale;
    size_t n, tuples_n, m;
    dg_edge *tuples;              /* the generated input (freed after the CPU BFS) */
    dg_graph *g;
    char device[256];
    csr c;                        /* sorted, deduplicated */
    dg_vertex *roots; int nroots;
    int32_t **cpu_dist;           /* per root */
    uint32_t *cpu_levels;
    size_t *cpu_reached;
    double *edges;                /* per root: input tuples in the component (Graph500) */
    double *uedges;               /* per root: unique undirected edges in the component */
    double cpu_gteps_wall;
} bench_graph;

static double hmean_teps(const double *edges, const double *t_s, int n)
{
    double s = 0;
    int i;
    for (i = 0; i < n; i++) s += t_s[i] / edges[i];
    return s > 0 ? n / s : 0.0;
}

static int trees_to_check(const bench_graph *b)
{
    if (b->o->check_trees >= 0) return b->o->check_trees < b->nroots ? b->o->check_trees : b->nroots;
    return b->n <= ((size_t)1 << 20) ? b->nroots : (b->nroots < 4 ? b->nroots : 4);
}

/* The CPU baseline: timed, and its distances kept as the reference. */
static void run_cpu(bench_graph *b, int report)
{
    int i, nr = b->nroots;
    int32_t *queue = (int32_t *)xmalloc(b->n * sizeof *queue);
    double *t = (double *)xmalloc((size_t)nr * sizeof *t), *tcopy = (double *)xmalloc((size_t)nr * sizeof *t);
    double *lv = (double *)xmalloc((size_t)nr * sizeof *lv);
    size_t reached, k;
    double cpu_s = 0, wall_s = 0;
    if (nr <= 0) die("no roots");
    b->cpu_dist = (int32_t **)xmalloc((size_t)nr * sizeof *b->cpu_dist);
    b->cpu_levels = (uint32_t *)xmalloc((size_t)nr * sizeof *b->cpu_levels);
    b->cpu_reached = (size_t *)xmalloc((size_t)nr * sizeof *b->cpu_reached);
    b->edges = (double *)xmalloc((size_t)nr * sizeof *b->edges);
    b->uedges = (double *)xmalloc((size_t)nr * sizeof *b->uedges);
    for (i = 0; i < nr; i++) b->cpu_dist[i] = (int32_t *)xmalloc(b->n * sizeof(int32_t));
    cpu_bfs(&b->c, b->roots[0], b->cpu_dist[0], queue, &reached);      /* warm-up */
    for (i = 0; i < nr; i++) {
        const int32_t *d = b->cpu_dist[i];
        double c0 = cpu_now_s(), t0 = now_s(), cnt = 0, sumdeg = 0, loops = 0;
        b->cpu_levels[i] = cpu_bfs(&b->c, b->roots[i], b->cpu_dist[i], queue, &reached);
        t[i] = now_s() - t0;
        cpu_s += cpu_now_s() - c0;
        wall_s += t[i];
        b->cpu_reached[i] = reached;
        /* Graph500 counting: input tuples whose endpoints were both reached */
        for (k = 0; k < b->tuples_n; k++)
            cnt += d[b->tuples[k].src] >= 0 && d[b->tuples[k].dst] >= 0;
        for (k = 0; k < reached; k++) {
            int32_t u = queue[k];
            sumdeg += b->c.off[u + 1] - b->c.off[u];
            loops += b->c.loop[u];
        }
        b->edges[i] = cnt;
        b->uedges[i] = (sumdeg + loops) / 2;
        lv[i] = b->cpu_levels[i];
    }
    {
        bfs_row *w = report ? new_row() : NULL;
        double em = 0, uem = 0, cpu_gteps;
        for (i = 0; i < nr; i++) { em += b->edges[i]; uem += b->uedges[i]; }
        cpu_gteps = hmean_teps(b->edges, t, nr) * 1e-9;
        b->cpu_gteps_wall = cpu_gteps;
        if (w) {
            char cpu[128];
            cpu_model(cpu, sizeof cpu);
            snprintf(w->device, sizeof w->device, "CPU: %s", cpu);
            snprintf(w->graph, sizeof w->graph, "%s", b->name);
            w->scale = b->scale; w->n = b->n; w->tuples = b->tuples_n; w->m = b->m;
            w->strategy = "cpu-seq";
            w->roots = nr;
            w->edges_mean = em / nr; w->uedges_mean = uem / nr;
            w->gteps_dev = w->gteps_wall = cpu_gteps;
            w->ugteps_dev = w->ugteps_wall = hmean_teps(b->uedges, t, nr) * 1e-9;
            for (i = 0; i < nr; i++) tcopy[i] = t[i] * 1e3;
            w->dev_ms = w->wall_ms = median(tcopy, nr);
            w->wall_min_ms = tcopy[0]; w->wall_max_ms = tcopy[nr - 1];
            w->levels = median(lv, nr);
            w->vs_cpu = 1.0;
            w->cpu_wall = wall_s > 0 ? cpu_s / wall_s : 0.0;
            w->dist_checked = nr;         /* the reference itself */
            w->trees_checked = 0;
            fprintf(stderr, "  %-12s GTEPS %.4f (median %.3f ms, %.0f levels, cpu/wall %.2f)\n",
                    w->strategy, w->gteps_wall, w->wall_ms, w->levels, w->cpu_wall);
            if (g_csv) { print_bfs_csv_row(g_csv, w); fflush(g_csv); }
            note("%s scale %d: cpu-seq cpu/wall %.2f (process CPU time / wall time of its timed "
                 "runs; below about 0.95 other processes competed for the core and the cpu-seq "
                 "figures are pessimistic)", b->name, b->scale, w->cpu_wall);
        }
    }
    free(queue); free(t); free(tcopy); free(lv);
}

static void run_strategy(bench_graph *b, const strat_info *si)
{
    const options *o = b->o;
    int i, nr = b->nroots, ntrees = o->with_parent ? nr : trees_to_check(b);
    double *tdev = (double *)xmalloc((size_t)nr * sizeof(double));
    double *twall = (double *)xmalloc((size_t)nr * sizeof(double));
    double *tmp = (double *)xmalloc((size_t)nr * sizeof(double));
    double *lv = (double *)xmalloc((size_t)nr * sizeof(double));
    double *bu = (double *)xmalloc((size_t)nr * sizeof(double));
    double *rt = (double *)xmalloc((size_t)nr * sizeof(double));
    double *ins = (double *)xmalloc((size_t)nr * sizeof(double));
    double *sy = (double *)xmalloc((size_t)nr * sizeof(double));
    double *rd = (double *)xmalloc((size_t)nr * sizeof(double));
    double *kt = (double *)xmalloc((size_t)nr * sizeof(double));
    int32_t *dist = o->pinned ? (int32_t *)dg_host_alloc(b->g, b->n * sizeof *dist) : (int32_t *)xmalloc(b->n * sizeof *dist);
    int32_t *dist2 = (int32_t *)xmalloc(b->n * sizeof *dist2);
    int32_t *parent = (int32_t *)xmalloc(b->n * sizeof *parent);
    dg_bfs_stats st;
    dg_bfs_options opt;
    bfs_row *w = new_row();
    long fails0 = g_fails;
    char what[96];
    double em = 0, uem = 0, cpu_s = 0, wall_s = 0;

    snprintf(what, sizeof what, "%s s%d %s", b->name, b->scale, si->name);
    memset(&opt, 0, sizeof opt);
    opt.strategy = si->strategy;
    opt.csr_copy = si->csr_copy;
    opt.alpha = o->alpha;
    opt.beta = o->beta;
    opt.max_edge_count = o->chunk;
    opt.stats = &st;
    opt.parent = o->with_parent ? parent : NULL;

    CK(b->g, dg_bfs(b->g, b->roots[0], dist, &opt));                   /* warm-up */
    for (i = 0; i < nr; i++) {
        double t0, c0;
        dg_vertex root = b->roots[i];
        memset(&st, 0, sizeof st);
        memset(dist, 0x5a, b->n * sizeof *dist);       /* no stale result can pass the check */
        c0 = cpu_now_s();
        t0 = now_s();
        CK(b->g, dg_bfs(b->g, root, dist, &opt));
        twall[i] = now_s() - t0;
        cpu_s += cpu_now_s() - c0;
        wall_s += twall[i];
        tdev[i] = st.device_ms * 1e-3;
        lv[i] = st.levels; bu[i] = st.bottom_up_levels; rt[i] = st.host_round_trips;
        ins[i] = (double)st.edges_inspected; sy[i] = st.sync_ms; rd[i] = st.read_ms; kt[i] = st.kernel_ms;
        if (st.strategy != si->strategy)
            fail("%s root %d: stats.strategy = %d, asked for %d", what, (int)root,
                 (int)st.strategy, (int)si->strategy);
        if (st.levels != b->cpu_levels[i] || st.vertices_reached != b->cpu_reached[i])
            fail("%s root %d: stats say %u levels and %llu vertices reached, the CPU BFS %u and %zu",
                 what, (int)root, (unsigned)st.levels, (unsigned long long)st.vertices_reached,
                 (unsigned)b->cpu_levels[i], b->cpu_reached[i]);
        if (st.device_ms <= 0 || st.device_ms * 1e-3 > twall[i] * 1.05 + 1e-4)
            fail("%s root %d: stats.device_ms = %.6f, wall time %.6f ms", what, (int)root,
                 st.device_ms, twall[i] * 1e3);
        check_dist(what, root, dist, b->cpu_dist[i], b->n);
        if (i < ntrees) {
            if (o->with_parent) {
                check_tree(what, &b->c, root, dist, parent);
            } else {                  /* an untimed run asking for the tree too */
                dg_bfs_options o2 = opt;
                o2.parent = parent;
                o2.stats = NULL;
                memset(parent, 0x5a, b->n * sizeof *parent);
                CK(b->g, dg_bfs(b->g, root, dist2, &o2));
                if (check_dist(what, root, dist2, b->cpu_dist[i], b->n) == 0)
                    check_tree(what, &b->c, root, dist2, parent);
            }
        }
    }
    snprintf(w->device, sizeof w->device, "%s", b->device);
    snprintf(w->graph, sizeof w->graph, "%s", b->name);
    w->scale = b->scale; w->n = b->n; w->tuples = b->tuples_n; w->m = b->m;
    w->strategy = si->name;
    w->roots = nr;
    for (i = 0; i < nr; i++) { em += b->edges[i]; uem += b->uedges[i]; }
    w->edges_mean = em / nr; w->uedges_mean = uem / nr;
    w->gteps_dev = hmean_teps(b->edges, tdev, nr) * 1e-9;
    w->gteps_wall = hmean_teps(b->edges, twall, nr) * 1e-9;
    w->ugteps_dev = hmean_teps(b->uedges, tdev, nr) * 1e-9;
    w->ugteps_wall = hmean_teps(b->uedges, twall, nr) * 1e-9;
    for (i = 0; i < nr; i++) tmp[i] = tdev[i] * 1e3;
    w->dev_ms = median(tmp, nr);
    for (i = 0; i < nr; i++) tmp[i] = twall[i] * 1e3;
    w->wall_ms = median(tmp, nr);
    w->wall_min_ms = tmp[0]; w->wall_max_ms = tmp[nr - 1];
    w->sync_ms = median(sy, nr);
    w->levels = median(lv, nr);
    w->bu_levels = median(bu, nr);
    w->round_trips = median(rt, nr);
    w->inspected = median(ins, nr);
    w->vs_cpu = b->cpu_gteps_wall > 0 ? w->gteps_wall / b->cpu_gteps_wall : 0.0;
    w->cpu_wall = wall_s > 0 ? cpu_s / wall_s : 0.0;
    w->dist_checked = nr;
    w->trees_checked = ntrees;
    w->fails = g_fails - fails0;
    fprintf(stderr, "  %-12s GTEPS device %.4f wall %.4f (median %.3f / %.3f ms, %.0f levels, "
            "%.0f bottom-up)%s\n", si->name, w->gteps_dev, w->gteps_wall, w->dev_ms, w->wall_ms,
            w->levels, w->bu_levels, w->fails ? "  FAILED" : "");
    {
        double r = median(rd, nr), bytes = (double)b->n * 4.0, kms = median(kt, nr);
        note("%s %s: the kernels' own times summed (stats.kernel_ms) %.3f ms median, of %.3f ms "
             "device time (first kernel's start to last kernel's end): %.3f ms of gaps (launches, "
             "read-backs)", b->name, si->name, kms, w->dev_ms, w->dev_ms - kms);
        note("%s %s: dist (%.1f MB) read back in %.3f ms median (stats.read_ms: %.1f GB/s), into %s "
             "memory; wall - device %.3f ms; the issue-17 bound device + bytes / 20 GB/s + 0.1 ms = %.3f ms "
             "against the wall's %.3f ms", b->name, si->name, bytes / 1e6, r, r > 0 ? bytes / r * 1e-6 : 0.0,
             o->pinned ? "pinned (dg_host_alloc)" : "pageable (malloc)", w->wall_ms - w->dev_ms,
             w->dev_ms + bytes / 20e9 * 1e3 + 0.1, w->wall_ms);
    }
    if (g_csv) { print_bfs_csv_row(g_csv, w); fflush(g_csv); }
    free(tdev); free(twall); free(tmp); free(lv); free(bu); free(rt); free(ins); free(sy); free(rd); free(kt);
    if (o->pinned) dg_host_free(b->g, dist); else free(dist);
    free(dist2); free(parent);
}

/* ------------------------------------------------------------------------------------------ */
/* The dynamic scenario                                                                        */
/* ------------------------------------------------------------------------------------------ */

/* The static alternative's upload (bench_common.h): row offsets and columns. Seconds. */
static double upload_csr(dg_graph *g, const uint32_t *off, const int32_t *col, size_t n, size_t arcs)
{
    const void *ptr[2];
    size_t bytes[2];
    ptr[0] = off; bytes[0] = (n + 1) * sizeof *off;
    ptr[1] = col; bytes[1] = (arcs ? arcs : 1) * sizeof *col;
    return upload_arrays(g, 2, ptr, bytes);
}

static void run_dynamic(bench_graph *b)
{
    const options *o = b->o;
    dg_graph *g = b->g;
    size_t n = b->n, ncur = 0, capcur, u, maxadd, maxk, arcs_cap;
    dg_edge *cur;
    batch_bufs bb;
    csr sc;                        /* the static alternative's CSR (preallocated) */
    pinned poff, pcol;
    int32_t *cpu_dist, *queue, *dist, *dist2, *dist3;
    dg_result *res;
    int ki, rep, nreps = o->c.dyn_reps;
    rng r;
    char what[96];

    batch_bufs_alloc(&bb, &o->c, &maxadd, &maxk);
    /* the current edge set: unique undirected edges u <= v, taken from the sorted CSR */
    capcur = csr_edges(&b->c) + maxadd + 16;
    cur = (dg_edge *)xmalloc(capcur * sizeof *cur);
    for (u = 0; u < n; u++) {
        uint32_t k;
        for (k = b->c.off[u]; k < b->c.off[u + 1]; k++)
            if ((size_t)b->c.col[k] >= u) {
                cur[ncur].src = (dg_vertex)u; cur[ncur].dst = b->c.col[k]; cur[ncur].weight = 1.0f;
                ncur++;
            }
    }
    if (ncur != dg_edge_count(g))
        fail("%s s%d dynamic: %zu edges in the CSR, dg_edge_count says %zu", b->name, b->scale,
             ncur, dg_edge_count(g));
    /* preallocated (and touched) buffers of the static rebuild, pageable and pinned */
    arcs_cap = 2 * capcur;
    memset(&sc, 0, sizeof sc);
    sc.off = (uint32_t *)xmalloc((n + 1) * sizeof *sc.off);
    sc.col = (int32_t *)xmalloc(arcs_cap * sizeof *sc.col);
    memset(sc.off, 0, (n + 1) * sizeof *sc.off);
    memset(sc.col, 0, arcs_cap * sizeof *sc.col);
    pinned_alloc(g, &poff, (n + 1) * sizeof(uint32_t));
    pinned_alloc(g, &pcol, arcs_cap * sizeof(int32_t));
    cpu_dist = (int32_t *)xmalloc(n * sizeof *cpu_dist);
    queue = (int32_t *)xmalloc(n * sizeof *queue);
    dist = (int32_t *)xmalloc(n * sizeof *dist);
    dist2 = (int32_t *)xmalloc(n * sizeof *dist2);
    dist3 = (int32_t *)xmalloc(n * sizeof *dist3);
    res = dyn_result_follow(g, DG_RESULT_BFS, b->roots[0]);   /* the result that follows the graph */
    dyn_rng_seed(&r, &o->c, b->scale, b->name);

    for (ki = -1; ki < o->c.ndyn; ki++) {
        /* ki = -1: one untimed warm-up batch of up to 1000 changes (the sync and scatter kernels) */
        long k = dyn_k_of(&o->c, ki, maxk);
        int reps = ki < 0 ? 1 : nreps;
        double *a_ms = (double *)xmalloc((size_t)reps * sizeof(double) * 20), *col_[20];
        int c;
        dyn_row *w = ki < 0 ? NULL : new_drow();
        long fails0 = g_fails;
        size_t m_before = ncur;
        for (c = 0; c < 20; c++) col_[c] = a_ms + (size_t)c * (size_t)reps;
        snprintf(what, sizeof what, "%s s%d dynamic k=%ld", b->name, b->scale, k);
        for (rep = 0; rep < reps; rep++) {
            size_t nadd, nrem;
            double t_add, t_rem, t3, t4, t5, t6;
            dg_stats gs;
            dg_bfs_stats st, st2;
            dg_bfs_options opt, opt2;
            dg_vertex root = b->roots[0];           /* one source: the result follows it */
            dg_result_stats rs;
            batch_split(k, rep, &nadd, &nrem);
            if (nrem > ncur) nrem = ncur;
            /* the batch, chosen before the timing: removals among the current edges, additions
               of absent edges u != v (absent from the graph and from the batch) */
            pick_batch(&r, g, 1, cur, &ncur, bb.rems, nrem, bb.adds, nadd, bb.set, bb.setcap);
            /* (1) update */
            batch_apply(g, &bb, nadd, nrem, cur, &ncur, what, &t_add, &t_rem);
            /* (2) sync */
            t3 = now_s();
            CK(g, dg_sync(g));
            t4 = now_s();
            CK(g, dg_get_stats(g, &gs));
            /* (3) BFS, default strategy */
            memset(&opt, 0, sizeof opt);
            memset(&st, 0, sizeof st);
            opt.stats = &st;
            t5 = now_s();
            CK(g, dg_bfs(g, root, dist, &opt));
            t6 = now_s();
            /* the result that follows the graph: brought up to date with the answer left on the
               device, then read and compared with the fresh search */
            {
                double i0 = now_s();
                CK(g, dg_result_update(res, NULL, &rs));
                col_[17][rep] = (now_s() - i0) * 1e3;
                col_[19][rep] = rs.full;
                CK(g, dg_result_update(res, dist3, NULL));
                if (memcmp(dist3, dist, n * sizeof *dist) != 0)
                    fail("%s: the incremental result differs from the fresh search", what);
            }
            /* the static alternative: rebuild a CSR from the edge set, upload it */
            {
                double r0 = now_s(), r1, up, upp;
                sc.n = n;
                csr_rebuild(&sc, n, cur, ncur);
                r1 = now_s();
                if (sc.arcs > arcs_cap) die("static CSR buffer too small");
                up = upload_csr(g, sc.off, sc.col, n, sc.arcs);
                memcpy(poff.ptr, sc.off, (n + 1) * sizeof *sc.off);     /* untimed: staging */
                memcpy(pcol.ptr, sc.col, sc.arcs * sizeof *sc.col);
                upp = upload_csr(g, (const uint32_t *)poff.ptr, (const int32_t *)pcol.ptr, n, sc.arcs);
                col_[9][rep] = (r1 - r0) * 1e3;
                col_[10][rep] = up * 1e3;
                col_[11][rep] = upp * 1e3;
                col_[12][rep] = (double)((n + 1) * 4 + sc.arcs * 4) / 1048576.0;
            }
            /* the BFS a static system would run: the same search on a plain CSR copy */
            memset(&opt2, 0, sizeof opt2);
            memset(&st2, 0, sizeof st2);
            opt2.csr_copy = 1;
            opt2.stats = &st2;
            CK(g, dg_bfs(g, root, dist2, &opt2));
            col_[0][rep] = t_add * 1e3;
            col_[1][rep] = t_rem * 1e3;
            col_[2][rep] = (t_add + t_rem) * 1e3;
            col_[3][rep] = (t4 - t3) * 1e3;
            col_[4][rep] = (double)gs.last_sync_bytes / 1024.0;
            col_[5][rep] = (double)gs.last_sync_pages;
            col_[6][rep] = st.device_ms;
            col_[7][rep] = (t6 - t5) * 1e3;
            col_[8][rep] = st.sync_ms;
            col_[13][rep] = st2.device_ms;
            col_[14][rep] = col_[2][rep] + col_[3][rep] + col_[6][rep];                    /* dynamic */
            col_[15][rep] = col_[9][rep] + col_[11][rep] + col_[13][rep];                  /* static, pinned */
            col_[16][rep] = col_[9][rep] + col_[10][rep] + col_[13][rep];                  /* static, pageable */
            col_[18][rep] = col_[2][rep] + col_[3][rep] + col_[17][rep];                   /* incremental */
            /* check both searches against a CPU BFS on the rebuilt CSR */
            {
                size_t reached;
                cpu_bfs(&sc, root, cpu_dist, queue, &reached);
                check_dist(what, root, dist, cpu_dist, n);
                check_dist(what, root, dist2, cpu_dist, n);
                (void)reached;
            }
            if (w) { w->nadd = nadd; w->nrem = nrem; }
            if (ki >= 0 && (nreps <= 5 || rep == 0))
                fprintf(stderr, "  dynamic k=%ld rep %d: update %.3f ms, sync %.3f ms (%zu bytes, "
                        "%zu pages), BFS %.3f ms device / %.3f ms wall; rebuild %.3f ms + upload "
                        "%.3f ms (pinned %.3f ms)\n", k, rep + 1, col_[2][rep], col_[3][rep],
                        gs.last_sync_bytes, gs.last_sync_pages, col_[6][rep], col_[7][rep],
                        col_[9][rep], col_[10][rep], col_[11][rep]);
        }
        if (w) {
            snprintf(w->device, sizeof w->device, "%s", b->device);
            snprintf(w->graph, sizeof w->graph, "%s", b->name);
            w->scale = b->scale; w->n = n; w->m = m_before; w->k = k; w->reps = reps;
            w->add_ms = median(col_[0], reps);
            w->rem_ms = median(col_[1], reps);
            w->update_ms = median(col_[2], reps);
            w->sync_ms = median(col_[3], reps);
            w->sync_kb = median(col_[4], reps);
            w->sync_pages = median(col_[5], reps);
            w->bfs_dev_ms = median(col_[6], reps);
            w->bfs_wall_ms = median(col_[7], reps);
            w->bfs_sync_ms = median(col_[8], reps);
            w->rebuild_ms = median(col_[9], reps);
            w->upload_ms = median(col_[10], reps);
            w->upload_pinned_ms = median(col_[11], reps);
            w->upload_mb = median(col_[12], reps);
            w->static_bfs_dev_ms = median(col_[13], reps);
            w->dyn_total_ms = median(col_[14], reps);
            w->static_total_pinned_ms = median(col_[15], reps);
            w->static_total_ms = median(col_[16], reps);
            w->inc_ms = median(col_[17], reps);
            w->inc_total_ms = median(col_[18], reps);
            w->inc_full = median(col_[19], reps);
            w->fails = g_fails - fails0;
            fprintf(stderr, "  dynamic k=%ld: update %.3f + sync %.3f + BFS %.3f = %.3f ms; static: "
                    "rebuild %.3f + upload %.3f (pageable %.3f) + CSR BFS %.3f = %.3f ms\n", k,
                    w->update_ms, w->sync_ms, w->bfs_dev_ms, w->dyn_total_ms, w->rebuild_ms,
                    w->upload_pinned_ms, w->upload_ms, w->static_bfs_dev_ms, w->static_total_pinned_ms);
            if (g_dcsv) { print_dyn_csv_row(g_dcsv, w); fflush(g_dcsv); }
        }
        free(a_ms);
    }
    pinned_free(g, &poff);
    pinned_free(g, &pcol);
    free(sc.off); free(sc.col);
    free(cur);
    batch_bufs_free(&bb);
    dg_result_destroy(res);
    free(cpu_dist); free(queue); free(dist); free(dist2); free(dist3);
}

/* ------------------------------------------------------------------------------------------ */
/* One graph, start to end                                                                     */
/* ------------------------------------------------------------------------------------------ */

static void run_graph(const options *o, int gi, int scale)
{
    bench_graph B, *b = &B;
    uint64_t gseed = graph_seed(o->c.seed, gi, scale);
    dg_desc desc;
    dg_stats gs;
    dg_vertex first = -1;
    size_t added = 0, loops, ue;
    double t0, t_setup, t_build, t_sync, t_gen;
    int i, si, any_dev = 0;

    memset(b, 0, sizeof *b);
    b->o = o;
    b->name = gi == NGRAPHS ? (strrchr(o->file, '/') ? strrchr(o->file, '/') + 1 : o->file) : GRAPH_NAMES[gi];
    b->scale = gi == NGRAPHS ? 0 : scale;
    fprintf(stderr, "%s, scale %d:\n", b->name, scale);

    /* generate */
    t0 = now_s();
    b->tuples = gi == NGRAPHS ? read_edge_list(o->file, &b->n, &b->tuples_n)
                              : gen_graph(gi, scale, gseed, &b->n, &b->tuples_n);
    t_gen = now_s() - t0;
    loops = count_self_loops(b->tuples, b->tuples_n);

    /* the device first (empty graph: setup and kernel build), then the build, then the upload */
    memset(&desc, 0, sizeof desc);
    desc.undirected = 1;
    desc.page_size = o->c.page_size;
    desc.device_batches = o->c.device_batches;
    desc.device = o->c.device;
    CK(b->g, dg_create(&desc, &b->g));
    for (si = 1; si < NSTRATS; si++) any_dev |= o->c.strats[si];
    any_dev |= o->c.ndyn > 0;
    t0 = now_s();
    if (any_dev && !dg_cl_context(b->g)) die_dg(b->g, "dg_cl_context", DG_ERR_OPENCL, __LINE__);
    t_setup = now_s() - t0;
    snprintf(b->device, sizeof b->device, "%s", any_dev ? dg_device_name(b->g) : "(none)");
    t0 = now_s();
    CK(b->g, dg_add_vertices(b->g, b->n, &first));
    CK(b->g, dg_add_edges(b->g, b->tuples, b->tuples_n, &added));
    t_build = now_s() - t0;
    b->m = dg_edge_count(b->g);
    t0 = now_s();
    if (any_dev) CK(b->g, dg_sync(b->g));
    t_sync = now_s() - t0;
    CK(b->g, dg_get_stats(b->g, &gs));
    if (o->c.quick) CK(b->g, dg_validate(b->g));
    if (o->c.quick && any_dev) CK(b->g, dg_validate_device(b->g));

    /* the reference CSR */
    t0 = now_s();
    csr_build_sorted(&b->c, b->n, b->tuples, b->tuples_n);
    ue = csr_edges(&b->c);
    if (ue != b->m || added != b->m || first != 0)
        fail("%s s%d: the CSR has %zu unique edges, dg_edge_count %zu, dg_add_edges added %zu "
             "(first id %d)", b->name, scale, ue, b->m, added, (int)first);
    note("%s scale %d: n %zu, %zu tuples (%zu self-loops), %zu edges stored; generated in %.2f s, "
         "dg build %.2f s (%.2f M tuples/s), device setup %.2f s, first dg_sync %.3f s "
         "(%.1f MB, %zu pages), host %.1f MB, device %.1f MB (of it modules' scratch %.1f MB; a CSR "
         "of the graph: %.1f MB); CSR built in %.2f s",
         b->name, scale, b->n, b->tuples_n, loops, b->m, t_gen, t_build,
         b->tuples_n / t_build * 1e-6, t_setup, t_sync, gs.last_sync_bytes / 1048576.0,
         gs.last_sync_pages, gs.host_bytes / 1048576.0, gs.device_bytes / 1048576.0,
         gs.module_bytes / 1048576.0, (4.0 * (double)(b->n + 1) + 8.0 * (double)b->m) / 1048576.0, now_s() - t0);

    /* roots: distinct random vertices with an edge that is not a self-loop (Graph500) */
    b->roots = pick_roots(b->c.off, b->c.col, b->n, o->c.roots, gseed, &b->nroots);

    /* CPU baseline and reference distances; then the input tuples can go */
    run_cpu(b, o->c.strats[0]);
    free(b->tuples); b->tuples = NULL;
    {
        double em = 0, uem = 0, lv = 0, rv = 0;
        for (i = 0; i < b->nroots; i++) {
            em += b->edges[i]; uem += b->uedges[i]; lv += b->cpu_levels[i]; rv += (double)b->cpu_reached[i];
        }
        note("%s scale %d: %d roots; per root on average %.0f vertices reached, %.0f input tuples "
             "(Graph500 TEPS counting) and %.0f unique edges in the component, %.1f levels",
             b->name, scale, b->nroots, rv / b->nroots, em / b->nroots, uem / b->nroots, lv / b->nroots);
    }

    for (si = 1; si < NSTRATS; si++)
        if (o->c.strats[si]) run_strategy(b, &STRATS[si]);

    if (o->c.ndyn > 0) run_dynamic(b);

    CK(b->g, dg_get_stats(b->g, &gs));
    note("%s scale %d: at the end %zu syncs, %.1f MB uploaded in all, device %.1f MB", b->name,
         scale, gs.syncs, (double)gs.upload_bytes / 1048576.0, gs.device_bytes / 1048576.0);

    dg_destroy(b->g);
    csr_free(&b->c);
    for (i = 0; i < b->nroots; i++) free(b->cpu_dist[i]);
    free(b->cpu_dist); free(b->cpu_levels); free(b->cpu_reached); free(b->edges); free(b->uedges);
    free(b->roots);
}

/* ------------------------------------------------------------------------------------------ */
/* Main                                                                                        */
/* ------------------------------------------------------------------------------------------ */

static void usage(void)
{
    int i;
    fprintf(stderr,
        "usage: " BENCH_NAME " [options]\n"
        BENCH_USAGE_SCALE
        "                     floor(sqrt(2^S))^2 vertices\n"
        "  --large            add scale 24 to the default list (about 25 GB of host memory)\n"
        "  --graphs LIST      kron,uniform,grid (default all; none when --file is given alone)\n"
        "  --file PATH        also bench an edge list (\"u v\" lines, ids from 0), e.g. the\n"
        "                     Rodinia-style graph of ../shared/peers/rodinia_graph.c\n"
        "  --strategies LIST  default all of:");
    for (i = 0; i < NSTRATS; i++) fprintf(stderr, " %s", STRATS[i].name);
    fprintf(stderr, "\n"
        "  --roots R          BFS roots per graph (default 16)\n"
        "  --check-trees N    validate the BFS tree (opt.parent) on the first N roots, with an\n"
        "                     extra untimed run each (default: all roots when n <= 2^20, else 4)\n"
        "  --with-parent      timed runs ask for opt.parent too (and every tree is validated)\n"
        "  --no-deep          levels one launch each (no dg_bfs_deep): the figures before it\n"
        "  --host-dirs        the host decides each direction-optimizing level's direction, one\n"
        "                     read-back a level: the figures before device-decided levels;\n"
        "                     --device-dirs: the device decides them on a CPU device too\n"
        "  --pinned           dist in pinned memory from dg_host_alloc (read back by DMA)\n"
        BENCH_USAGE_DYNAMIC
        "  --alpha A --beta B --chunk C   dg_bfs_options alpha, beta, max_edge_count (0: default)\n"
        "  --csv FILE         also write the BFS rows as CSV, and the dynamic rows to\n"
        "                     FILE with .csv replaced by _dynamic.csv\n"
        BENCH_USAGE_SEED
        "  --quick            smoke test: scale 12, every tree checked, dg_validate and\n"
        "                     dg_validate_device after the build\n");
}

/* The options of this benchmark alone (opts_parse takes the common ones) */
static int own_option(void *ctx, const char *a, const char *v)
{
    options *o = (options *)ctx;
    if (!strcmp(a, "--large")) { o->large = 1; return 1; }
    if (!strcmp(a, "--with-parent")) { o->with_parent = 1; return 1; }
    if (!strcmp(a, "--no-deep")) { dg__bfs_deep_groups = -1; return 1; }   /* before/after */
    if (!strcmp(a, "--host-dirs")) { dg__bfs_dctl = 0; return 1; }
    if (!strcmp(a, "--device-dirs")) { dg__bfs_dctl = 1; return 1; }
    if (!strcmp(a, "--pinned")) { o->pinned = 1; return 1; }
    if (!strcmp(a, "--file")) { if (!v) die("--file needs a path"); o->file = v; return 2; }
    if (!strcmp(a, "--check-trees")) o->check_trees = (int)parse_long(v, a, 0, 4096);
    else if (!strcmp(a, "--alpha")) o->alpha = (float)parse_double(v, a);
    else if (!strcmp(a, "--beta")) o->beta = (float)parse_double(v, a);
    else if (!strcmp(a, "--chunk")) o->chunk = (uint32_t)parse_long(v, a, 0, 1 << 20);
    else return 0;
    return 2;
}

int main(int argc, char **argv)
{
    options o;
    const char *strat_names[NSTRATS];
    int i, j;
    const char *dev_name = NULL;

    memset(&o, 0, sizeof o);
    o.check_trees = -1;
    for (i = 0; i < NSTRATS; i++) strat_names[i] = STRATS[i].name;
    opts_read(&o.c, strat_names, NSTRATS, 16, argc, argv, own_option, &o, usage);
    if (o.large && !o.c.scales_given && !o.c.quick) o.c.scales[o.c.nscales++] = 24;
    if (o.c.quick && o.check_trees < 0) o.check_trees = o.c.roots;
    if (o.file && !o.c.graphs_given) for (i = 0; i < NGRAPHS; i++) o.c.graphs[i] = 0;

    csv_start(o.c.csv_path, o.c.ndyn > 0, print_bfs_csv_header, print_dyn_csv_header);
    for (i = 0; i < o.c.nscales; i++)
        for (j = 0; j < NGRAPHS; j++)
            if (o.c.graphs[j]) run_graph(&o, j, o.c.scales[i]);
    if (o.file) run_graph(&o, NGRAPHS, 0);
    for (i = 0; i < g_nrows && !dev_name; i++)
        if (strncmp(g_rows[i].device, "CPU: ", 5)) dev_name = g_rows[i].device;
    for (i = 0; i < g_ndrows && !dev_name; i++) dev_name = g_drows[i].device;

    report_begin("BFS", dev_name, "cpu-seq");
    printf("- graphs loaded undirected with one dg_add_edges (repeats dropped, self-loops kept once); "
           "kron: Graph500 Kronecker (A=0.57, B=C=0.19, edge factor 16, ids permuted); uniform: "
           "same n and tuples, uniform endpoints; grid: 4-neighbour sqrt(n) x sqrt(n), row-major ids; "
           "m = dg_edge_count; seed %llu\n", (unsigned long long)o.c.seed);
    printf("- per strategy: one warm-up run, then %d random roots with an edge (the same for every "
           "strategy); GTEPS = harmonic mean over the roots of (input edge tuples with both ends "
           "reached) / time, Graph500 counting; device = dg_bfs_stats.device_ms, wall = the "
           "dg_bfs call with dist read back%s; median ms over the roots; levels and bottom-up "
           "levels: medians of dg_bfs_stats; wall vs cpu-seq = GTEPS wall / cpu-seq GTEPS\n",
           o.c.roots, o.with_parent ? " and parent read back" : "");
    printf("- cpu-seq: a sequential queue BFS over a sorted, deduplicated int32 CSR on the host "
           "(dist only, initialisation included); *-csr: dg_bfs with csr_copy = 1 (the same search on "
           "a plain CSR built and uploaded inside the call: that build counts in the wall time only)\n");
    {
        char trees[96];
        if (o.with_parent) snprintf(trees, sizeof trees, "every root (--with-parent)");
        else if (o.check_trees < 0) snprintf(trees, sizeof trees, "every root when n <= 2^20, else the first 4");
        else snprintf(trees, sizeof trees, "the first %d roots", o.check_trees);
        printf("- checks: every root's dist against cpu-seq; BFS trees (opt.parent) validated "
               "Graph500-style on %s (the trees column counts them); dg_bfs_stats levels and "
               "vertices reached against cpu-seq\n\n", trees);
    }
    print_bfs_header(stdout);
    for (i = 0; i < g_nrows; i++) print_bfs_row(stdout, &g_rows[i]);
    if (g_ndrows > 0) {
        printf("\n## Dynamic scenario\n\n");
        printf("- per k: %d batches (after one untimed warm-up batch), medians; each batch is k random "
               "changes on the current graph, half dg_add_edges of absent edges u != v, half "
               "dg_remove_edges of present edges (k = 1 alternates an addition and a removal)\n", o.c.dyn_reps);
        printf("- incremental: a dg_result (DG_RESULT_BFS) from the scenario's one source (roots[0]), "
               "brought up to date after each batch (dg_result_update, answer left on the device, wall "
               "ms; \"(full)\": most batches ran from nothing); incremental total = update + dg_sync + "
               "incremental; its answer is read and compared with the fresh search every batch\n");
        printf("- dynamic: update (the two calls) + dg_sync (stats.last_sync_bytes / pages) + BFS "
               "(default strategy, device ms; the wall time adds dist read-back); m = edges before the "
               "batches of that k\n");
        printf("- static: rebuild an int32 CSR on the host from the current edge list (counting sort, "
               "preallocated arrays) + upload it (clCreateBuffer x2, clEnqueueWriteBuffer x2, clFinish, "
               "from pageable memory / from pinned staging) + the BFS on a plain CSR (device ms of "
               "dg_bfs with csr_copy = 1); static total uses the pinned upload; static / dynamic = "
               "static total / dynamic total\n");
        printf("- checks: both BFS results against a CPU BFS on the rebuilt CSR; counts added / removed "
               "and dg_edge_count\n\n");
        print_dyn_header(stdout);
        for (i = 0; i < g_ndrows; i++) print_dyn_row(stdout, &g_drows[i]);
    }
    csv_close();
    free(g_rows); free(g_drows);
    return report_end();
}
