/* test_bfs.c - dg_bfs against a plain C queue BFS, every strategy, on random graphs, on every
   dataset and along long random mutation sequences.

   The reference is written independently of the library: graphs are kept as plain adjacency
   lists (random graphs, mutations) or read from the dataset files by tdata.h's reader (not by
   dg_load), snapshotted into a sorted CSR and searched with a FIFO queue. Each dg_bfs
   result is compared in full: dist of every id (removed vertices -1), the parent array as a
   BFS tree (parent[source] == source, -1 exactly where unreached, parent[v] -> v an edge of the
   reference one level up), and the stats (levels, vertices reached, strategy, bottom-up levels
   for direction-optimising runs forced to switch early or never).

   Variants: AUTO, MASK, QUEUE, EDGE_CHUNK (default, 16, 3, 1, 1000 edges per chunk), TOP_DOWN,
   DIRECTION_OPT (default, alpha/beta forcing bottom-up at once, oscillating, never, moderate),
   and csr_copy = 1 with several of them (csr_copy with QUEUE may be refused with
   DG_ERR_INVALID_ARGUMENT). Each run uses one of four output modes in turn: dist, dist + parent,
   parent only (dist NULL), stats only.

   Parts: bad input; hand-made and random graphs from 1 vertex to 20k vertices (self-loops,
   isolated vertices, holes from removed vertices, paths of 400 levels, stars, hubs with lists
   over several pages at page size 64 and 1024), directed and undirected (see PAGE SIZES for
   which page sizes); every dataset of $DG_DATA (directed, a few also undirected) from vertex 0,
   a random vertex and the largest hub; random mutation sequences (every mutation kind, hubs
   growing into lists of several pages, removed sources) with a BFS after each round, the
   changes reaching the device through the BFS's own sync or an explicit dg_sync.

   Usage: test_bfs [seed]      (the seed is printed; a failure message names graph, variant and
                                source, so that `test_bfs SEED` reproduces it)
   Cases (DG_TESTS=test_bfs:NAME, see tt.h): bad, graphs, datasets, mutations, deep (searches of
   thousands of levels through the deep kernel, see test_deep), optimised (a graph searched with
   the kernels built by PoCL's optimiser), timing. The cases draw
   from one random stream in turn: a case run alone sees other draws than in a whole run (the
   seed of a whole run reproduces a whole run). */
#define _POSIX_C_SOURCE 200112L   /* setenv (case optimised) */
#define DYNGRAPH_IMPLEMENTATION
#include "dyngraph.h"
#include "tt.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <ctype.h>

#include "trand.h"
#include "tdata.h"         /* the datasets: reading them independently of dg_load, loading */
#include "tgraph.h"        /* the reference model and CSR, graph pairs, mutation steps */

/* ================================ reference BFS ================================ */
/* (the CSR is tgraph.h's: csr_from_arcs, csr_from_model) */
static int csr_has(const csr *r, int32_t u, int32_t v)
{
    size_t lo, hi;
    if (u < 0 || u >= r->n) return 0;
    lo = r->off[u]; hi = r->off[u + 1];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r->adj[mid] < v) lo = mid + 1; else hi = mid;
    }
    return lo < r->off[u + 1] && r->adj[lo] == v;
}

typedef struct { int32_t levels; size_t reached; } ref_result;

/* FIFO-queue BFS from src over out-arcs. dist: n entries. */
static ref_result ref_bfs(const csr *r, int32_t src, int32_t *dist)
{
    ref_result res = { 0, 0 };
    int32_t *queue, head = 0, tail = 0, v;
    for (v = 0; v < r->n; v++) dist[v] = -1;
    if (src < 0 || src >= r->n || !r->alive[src]) return res;
    queue = (int32_t *)xmalloc(((size_t)r->n + 1) * sizeof(int32_t));
    dist[src] = 0;
    queue[tail++] = src;
    while (head < tail) {
        int32_t u = queue[head++];
        size_t k;
        if (dist[u] + 1 > res.levels) res.levels = dist[u] + 1;
        for (k = r->off[u]; k < r->off[u + 1]; k++) {
            int32_t w = r->adj[k];
            if (dist[w] < 0) { dist[w] = dist[u] + 1; queue[tail++] = w; }
        }
    }
    res.reached = (size_t)tail;
    free(queue);
    return res;
}

/* ================================ variants ================================ */
typedef struct {
    const char *name;
    dg_bfs_strategy strategy;
    uint32_t max_edge_count;
    float alpha, beta;
    int csr_copy;
    int bu;                       /* 1: bottom-up must run when levels >= 3; -1: never; 0: either */
    int may_refuse;               /* DG_ERR_INVALID_ARGUMENT is an acceptable answer (see below) */
    int host_dirs;                /* 1: the host decides every level's direction (dg__bfs_dctl = 0),
                                     and a second run, the device deciding, must decide the same */
} variant;

static const variant VARIANTS[] = {
    { "AUTO", DG_BFS_AUTO, 0, 0, 0, 0, 0, 0, 0 },
    { "MASK", DG_BFS_MASK, 0, 0, 0, 0, -1, 0, 0 },
    { "QUEUE", DG_BFS_QUEUE, 0, 0, 0, 0, -1, 0, 0 },
    { "EDGE_CHUNK(default)", DG_BFS_EDGE_CHUNK, 0, 0, 0, 0, -1, 0, 0 },
    { "EDGE_CHUNK(16)", DG_BFS_EDGE_CHUNK, 16, 0, 0, 0, -1, 0, 0 },
    { "EDGE_CHUNK(3)", DG_BFS_EDGE_CHUNK, 3, 0, 0, 0, -1, 0, 0 },
    { "EDGE_CHUNK(1)", DG_BFS_EDGE_CHUNK, 1, 0, 0, 0, -1, 0, 0 },
    { "EDGE_CHUNK(1000)", DG_BFS_EDGE_CHUNK, 1000, 0, 0, 0, -1, 0, 0 },
    { "TOP_DOWN", DG_BFS_TOP_DOWN, 0, 0, 0, 0, -1, 0, 0 },
    { "DIRECTION_OPT", DG_BFS_DIRECTION_OPT, 0, 0, 0, 0, 0, 0, 0 },
    { "DIRECTION_OPT(bottom-up at once: alpha 1e9, beta 1e9)", DG_BFS_DIRECTION_OPT, 0, 1e9f, 1e9f, 0, 1, 0, 0 },
    { "DIRECTION_OPT(oscillate: alpha 1e9, beta 1e-9)", DG_BFS_DIRECTION_OPT, 0, 1e9f, 1e-9f, 0, 0, 0, 0 },
    { "DIRECTION_OPT(never bottom-up: alpha 1e-9)", DG_BFS_DIRECTION_OPT, 0, 1e-9f, 0, 0, -1, 0, 0 },
    { "DIRECTION_OPT(alpha 2, beta 2)", DG_BFS_DIRECTION_OPT, 0, 2.0f, 2.0f, 0, 0, 0, 0 },
    { "DIRECTION_OPT(oscillate, host decides)", DG_BFS_DIRECTION_OPT, 0, 1e9f, 1e-9f, 0, 0, 0, 1 },
    { "csr_copy AUTO", DG_BFS_AUTO, 0, 0, 0, 1, 0, 0, 0 },
    { "csr_copy MASK", DG_BFS_MASK, 0, 0, 0, 1, -1, 0, 0 },
    /* QUEUE runs on the public primitives, over the pages: the library refuses csr_copy there
       (DG_ERR_INVALID_ARGUMENT, "csr_copy does not apply to DG_BFS_QUEUE"); either that or a
       right answer is accepted */
    { "csr_copy QUEUE", DG_BFS_QUEUE, 0, 0, 0, 1, -1, 1, 0 },
    { "csr_copy EDGE_CHUNK(3)", DG_BFS_EDGE_CHUNK, 3, 0, 0, 1, -1, 0, 0 },
    { "csr_copy TOP_DOWN", DG_BFS_TOP_DOWN, 0, 0, 0, 1, -1, 0, 0 },
    { "csr_copy DIRECTION_OPT(bottom-up at once)", DG_BFS_DIRECTION_OPT, 0, 1e9f, 1e9f, 1, 1, 0, 0 },
};
#define NVARIANTS ((int)(sizeof VARIANTS / sizeof VARIANTS[0]))
static int variant_counts[NVARIANTS];

enum { MODE_DIST = 0, MODE_DIST_PARENT = 1, MODE_PARENT = 2, MODE_STATS = 3 };
static const char *MODE_NAMES[] = { "dist", "dist+parent", "parent only", "stats only" };

static uint64_t seed;
static long bfs_runs, bfs_flat_runs;   /* BFS runs; of them with the flat kernels forced */
static size_t bfs_queues;   /* queues of levels whose direction the device decided */

static size_t dg_graph_dev_queues(const dg_graph *g) { return g->dev ? g->dev->bfs_queues : 0; }

/* 1 if a live vertex that the search does not reach has an out-edge */
static int unreached_with_edges(const csr *r, const int32_t *ref_dist)
{
    int32_t v;
    for (v = 0; v < r->n; v++)
        if (r->alive[v] && ref_dist[v] < 0 && r->off[v + 1] > r->off[v]) return 1;
    return 0;
}

/* One dg_bfs compared in full with the reference. ref_dist/ref: the reference result from src.
   Returns 1 if everything matched. */
static int check_bfs(dg_graph *g, const csr *r, const int32_t *ref_dist, ref_result ref,
                     dg_vertex src, int vi, int mode, const char *label)
{
    const variant *va = &VARIANTS[vi];
    size_t bound = dg_vertex_id_bound(g), v;
    int32_t *dist = NULL, *parent = NULL;
    dg_bfs_options opt;
    dg_bfs_stats st;
    dg_status s;
    int ok = 1;
    size_t queues0;
    char where[512];

    snprintf(where, sizeof where, "[%s] source %d, %s, %s (seed %llu)", label, (int)src, va->name,
             MODE_NAMES[mode], (unsigned long long)seed);
    bfs_runs++;
    variant_counts[vi]++;
    CHECK_MSG(bound == (size_t)r->n, "%s: id bound %zu, reference %d", where, bound, (int)r->n);
    if (bound != (size_t)r->n) return 0;

    if (mode == MODE_DIST || mode == MODE_DIST_PARENT) {
        dist = (int32_t *)xmalloc(bound * sizeof(int32_t));
        for (v = 0; v < bound; v++) dist[v] = -7;      /* every entry must be written */
    }
    if (mode == MODE_DIST_PARENT || mode == MODE_PARENT) {
        parent = (int32_t *)xmalloc(bound * sizeof(int32_t));
        for (v = 0; v < bound; v++) parent[v] = -7;
    }
    memset(&opt, 0, sizeof opt);
    memset(&st, 0xa5, sizeof st);                       /* every field checked must be written */
    opt.strategy = va->strategy;
    opt.max_edge_count = va->max_edge_count;
    opt.alpha = va->alpha;
    opt.beta = va->beta;
    opt.csr_copy = va->csr_copy;
    opt.parent = parent;
    opt.stats = &st;

    /* the device decides the directions on every other run (on a CPU device, the default -1
       lets the host decide), the host on the variants that compare the two */
    dg__bfs_dctl = va->host_dirs ? 0 : (bfs_runs & 1) ? 1 : -1;
    /* the flat kernels (a CPU device's: the default on PoCL) every other pair of runs, the
       GPU's on the others */
    dg__bfs_flat = (bfs_runs >> 1) & 1 ? 0 : 1;
    bfs_flat_runs += dg__bfs_flat;
    queues0 = dg_graph_dev_queues(g);
    s = dg_bfs(g, src, dist, &opt);
    bfs_queues += dg_graph_dev_queues(g) - queues0;
    if (s == DG_OK && va->host_dirs) {   /* the device's directions: the same levels and turns */
        dg_bfs_options o2 = opt;
        dg_bfs_stats st2;
        dg_status s2;
        o2.parent = NULL;
        o2.stats = &st2;
        dg__bfs_dctl = 1;
        s2 = dg_bfs(g, src, NULL, &o2);
        CHECK_MSG(s2 == DG_OK && st2.levels == st.levels && st2.bottom_up_levels == st.bottom_up_levels,
                  "%s: the device decided %u bottom-up levels of %u (%s), the host %u of %u", where,
                  (unsigned)st2.bottom_up_levels, (unsigned)st2.levels, dg_status_string(s2),
                  (unsigned)st.bottom_up_levels, (unsigned)st.levels);
        if (s2 != DG_OK || st2.levels != st.levels || st2.bottom_up_levels != st.bottom_up_levels) ok = 0;
    }
    dg__bfs_dctl = -1;
    dg__bfs_flat = -1;
    if (va->may_refuse && s == DG_ERR_INVALID_ARGUMENT) {
        CHECK_MSG(dg_error_message(g)[0] != '\0', "%s: refused without a message", where);
        free(dist); free(parent);
        return 1;
    }
    CHECK_MSG(s == DG_OK, "%s: dg_bfs: %s: %s", where, dg_status_string(s), dg_error_message(g));
    if (s != DG_OK) { free(dist); free(parent); return 0; }

    if (dist) {
        size_t bad = 0, first = 0, dead_bad = 0;
        for (v = 0; v < bound; v++) {
            if (dist[v] != ref_dist[v]) { if (!bad++) first = v; }
            if (!r->alive[v] && dist[v] != -1) dead_bad++;
        }
        CHECK_MSG(bad == 0, "%s: %zu wrong distances; first: dist[%zu] = %d, expected %d", where, bad,
                  first, (int)dist[first], (int)ref_dist[first]);
        CHECK_MSG(dead_bad == 0, "%s: %zu removed vertices with dist != -1", where, dead_bad);
        if (bad || dead_bad) ok = 0;
    }
    if (parent) {
        size_t bad = 0, first = 0;
        const char *why = "";
        for (v = 0; v < bound; v++) {
            int32_t p = parent[v];
            const char *w = NULL;
            if (ref_dist[v] < 0) { if (p != -1) w = "unreached vertex with a parent"; }
            else if ((dg_vertex)v == src) { if (p != src) w = "parent[source] != source"; }
            else if (p < 0 || (size_t)p >= bound) w = "reached vertex without a valid parent";
            else if (ref_dist[p] != ref_dist[v] - 1) w = "parent not one level up";
            else if (!csr_has(r, p, (int32_t)v)) w = "parent -> v is not an edge";
            if (w) { if (!bad++) { first = v; why = w; } }
        }
        CHECK_MSG(bad == 0, "%s: %zu bad parents; first: parent[%zu] = %d (%s; dist %d)", where, bad,
                  first, bad ? (int)parent[first] : 0, why, bad ? (int)ref_dist[first] : 0);
        if (bad) ok = 0;
    }
    /* stats */
    {
        dg_bfs_strategy want = va->strategy == DG_BFS_AUTO ? DG_BFS_DIRECTION_OPT : va->strategy;
        CHECK_MSG(st.levels == (uint32_t)ref.levels, "%s: stats.levels %u, expected %d", where,
                  (unsigned)st.levels, (int)ref.levels);
        CHECK_MSG(st.vertices_reached == (uint64_t)ref.reached, "%s: stats.vertices_reached %llu, expected %zu",
                  where, (unsigned long long)st.vertices_reached, ref.reached);
        CHECK_MSG(st.strategy == want, "%s: stats.strategy %d, expected %d", where, (int)st.strategy, (int)want);
        CHECK_MSG(st.bottom_up_levels <= st.levels, "%s: stats.bottom_up_levels %u > levels %u", where,
                  (unsigned)st.bottom_up_levels, (unsigned)st.levels);
        /* "bottom-up when frontier edges > unvisited edges / alpha": with alpha 1e-9 that cannot
           happen while some vertex never reached has out-edges (unvisited edges >= 1 throughout);
           the other strategies never run bottom-up */
        if (va->bu < 0 && (va->strategy != DG_BFS_DIRECTION_OPT || unreached_with_edges(r, ref_dist)))
            CHECK_MSG(st.bottom_up_levels == 0, "%s: stats.bottom_up_levels %u, expected 0", where,
                      (unsigned)st.bottom_up_levels);
        if (va->bu > 0 && ref.levels >= 3)
            CHECK_MSG(st.bottom_up_levels >= 1, "%s: stats.bottom_up_levels 0 with alpha 1e9 (levels %d)",
                      where, (int)ref.levels);
        CHECK_MSG(ref.reached <= 1 || st.edges_inspected >= 1, "%s: stats.edges_inspected %llu", where,
                  (unsigned long long)st.edges_inspected);
        if (va->strategy == DG_BFS_TOP_DOWN) {   /* every reached list read once: the level counters
                                                    are right (a kernel that added them once a
                                                    work-item instead of once a group was not).
                                                    (dg_bfs_deep counts up to one entry a level too
                                                    many: a known small excess, allowed) */
            uint64_t sum = 0;
            int32_t v;
            for (v = 0; v < r->n; v++) if (ref_dist[v] >= 0) sum += (uint64_t)(r->off[v + 1] - r->off[v]);
            CHECK_MSG(st.edges_inspected >= sum && st.edges_inspected <= sum + st.levels,
                      "%s: stats.edges_inspected %llu, the reached lists hold %llu", where,
                      (unsigned long long)st.edges_inspected, (unsigned long long)sum);
        }
        CHECK_MSG(st.device_ms >= 0 && st.device_ms < 1e7, "%s: stats.device_ms %g", where, st.device_ms);
        CHECK_MSG(st.sync_ms >= 0 && st.sync_ms < 1e7, "%s: stats.sync_ms %g", where, st.sync_ms);
        if (st.levels != (uint32_t)ref.levels || st.vertices_reached != (uint64_t)ref.reached ||
            st.strategy != want) ok = 0;
    }
    free(dist);
    free(parent);
    return ok;
}

/* PAGE SIZES. Every page size and kind of graph (directed or not) is an OpenCL program of its
   own, and csr_copy another; with a cold PoCL kernel cache (after any change to kernels/) each
   costs ~40 s of compilation on a 2-core machine. So: directed graphs at page sizes 64 and 1024,
   undirected ones at 1024, csr_copy variants at 1024 only (lists over several pages at both
   sizes); five programs in all. And no binary cache (dg_desc.binary_cache = -1; test_device
   tests it): on PoCL, asking for a program's binary makes it compile every kernel once more,
   which doubles the cold cost, while PoCL's own cache already makes later builds fast. */
static int csr_ok(const dg_graph *g) { return dg_query_desc(g).page_size == 1024; }

/* Every variant (or `count` random ones when count > 0) from src; returns failures. */
static int check_sources(dg_graph *g, const csr *r, const dg_vertex *srcs, int nsrc, int count,
                         const char *label)
{
    int32_t *ref_dist = (int32_t *)xmalloc(((size_t)r->n + 1) * sizeof(int32_t));
    int i, vi, fails = 0, with_csr = csr_ok(g);
    for (i = 0; i < nsrc; i++) {
        ref_result ref = ref_bfs(r, srcs[i], ref_dist);
        if (count <= 0) {
            for (vi = 0; vi < NVARIANTS; vi++)
                if (with_csr || !VARIANTS[vi].csr_copy)
                    if (!check_bfs(g, r, ref_dist, ref, srcs[i], vi, (vi + i) % 4, label)) fails++;
        } else {
            int k;
            for (k = 0; k < count; k++) {
                do vi = (int)rnd(NVARIANTS); while (!with_csr && VARIANTS[vi].csr_copy);
                if (!check_bfs(g, r, ref_dist, ref, srcs[i], vi, (int)rnd(4), label)) fails++;
            }
        }
    }
    free(ref_dist);
    return fails;
}

/* ================================ weights ================================ */
/* any weight: dg_bfs reads none (graphs with kind 1 are created weighted) */
static float rweight(int kind) { (void)kind; return (float)(1 + rnd(100)) * 0.25f; }
static float unit_weight(int kind) { (void)kind; return 1.0f; }

/* ================================ bad input ================================ */
static void test_bad_input(void)
{
    pair p;
    int32_t dist[8], parent[8];
    dg_bfs_options opt;
    dg_bfs_stats st;
    dg_status s;
    int i;

    CHECK(dg_bfs(NULL, 0, dist, NULL) == DG_ERR_INVALID_ARGUMENT);
    if (!pair_create(&p, 64, 0, 0)) return;
    pair_add_vertices(&p, 5);
    pair_add_edge(&p, 0, 1, rweight(p.kind));
    pair_add_edge(&p, 1, 2, rweight(p.kind));
    pair_add_edge(&p, 2, 0, rweight(p.kind));
    pair_add_edge(&p, 3, 3, rweight(p.kind));

    s = dg_bfs(p.g, -1, dist, NULL);
    CHECK_MSG(s == DG_ERR_INVALID_ARGUMENT, "source -1: %s", dg_status_string(s));
    CHECK(dg_error_message(p.g)[0] != '\0');
    s = dg_bfs(p.g, 5, dist, NULL);                     /* == id bound */
    CHECK_MSG(s == DG_ERR_NOT_FOUND, "source = bound: %s", dg_status_string(s));
    CHECK(dg_error_message(p.g)[0] != '\0');
    s = dg_bfs(p.g, 0x7fffffff, dist, NULL);
    CHECK_MSG(s == DG_ERR_NOT_FOUND, "source INT32_MAX: %s", dg_status_string(s));
    s = dg_bfs(p.g, -12345, dist, NULL);
    CHECK_MSG(s == DG_ERR_INVALID_ARGUMENT, "source -12345: %s", dg_status_string(s));

    memset(&opt, 0, sizeof opt);
    opt.strategy = (dg_bfs_strategy)99;
    s = dg_bfs(p.g, 0, dist, &opt);
    CHECK_MSG(s == DG_ERR_INVALID_ARGUMENT, "strategy 99: %s", dg_status_string(s));
    opt.strategy = (dg_bfs_strategy)(DG_BFS_DIRECTION_OPT + 1);
    s = dg_bfs(p.g, 0, dist, &opt);
    CHECK_MSG(s == DG_ERR_INVALID_ARGUMENT, "strategy DIRECTION_OPT+1: %s", dg_status_string(s));
    opt.strategy = (dg_bfs_strategy)-1;
    s = dg_bfs(p.g, 0, dist, &opt);
    CHECK_MSG(s == DG_ERR_INVALID_ARGUMENT, "strategy -1: %s", dg_status_string(s));
    CHECK(dg_error_message(p.g)[0] != '\0');

    /* the graph still works after the failures; opt NULL; dist only */
    for (i = 0; i < 8; i++) dist[i] = -7;
    s = dg_bfs(p.g, 0, dist, NULL);
    CHECK_MSG(s == DG_OK, "dg_bfs after errors: %s: %s", dg_status_string(s), dg_error_message(p.g));
    CHECK(dist[0] == 0 && dist[1] == 1 && dist[2] == 2 && dist[3] == -1 && dist[4] == -1);
    s = dg_bfs(p.g, 3, dist, NULL);                     /* self-loop only */
    CHECK(s == DG_OK && dist[3] == 0 && dist[0] == -1 && dist[1] == -1 && dist[2] == -1 && dist[4] == -1);

    /* dist NULL with only parent; dist NULL with only stats */
    memset(&opt, 0, sizeof opt);
    for (i = 0; i < 8; i++) parent[i] = -7;
    opt.parent = parent;
    opt.stats = &st;
    s = dg_bfs(p.g, 1, NULL, &opt);
    CHECK_MSG(s == DG_OK, "dist NULL, parent given: %s: %s", dg_status_string(s), dg_error_message(p.g));
    CHECK(parent[1] == 1 && parent[2] == 1 && parent[0] == 2 && parent[3] == -1 && parent[4] == -1);
    CHECK(st.levels == 3 && st.vertices_reached == 3);
    opt.parent = NULL;
    memset(&st, 0, sizeof st);
    s = dg_bfs(p.g, 4, NULL, &opt);
    CHECK_MSG(s == DG_OK, "dist NULL, stats only: %s", dg_status_string(s));
    CHECK(st.levels == 1 && st.vertices_reached == 1 && st.strategy == DG_BFS_DIRECTION_OPT);

    /* removed source */
    pair_remove_vertex(&p, 1);
    s = dg_bfs(p.g, 1, dist, NULL);
    CHECK_MSG(s == DG_ERR_NOT_FOUND, "removed source: %s", dg_status_string(s));
    opt.strategy = DG_BFS_MASK;
    s = dg_bfs(p.g, 1, dist, &opt);
    CHECK_MSG(s == DG_ERR_NOT_FOUND, "removed source (MASK): %s", dg_status_string(s));
    for (i = 0; i < 8; i++) dist[i] = -7;
    s = dg_bfs(p.g, 2, dist, NULL);
    CHECK(s == DG_OK && dist[2] == 0 && dist[0] == 1 && dist[1] == -1 && dist[3] == -1 && dist[4] == -1);
    pair_free(&p);

    /* an empty graph: no source exists */
    if (!pair_create(&p, 0, 1, 0)) return;
    s = dg_bfs(p.g, 0, dist, NULL);
    CHECK_MSG(s == DG_ERR_NOT_FOUND, "empty graph, source 0: %s", dg_status_string(s));
    pair_free(&p);
}

/* ================================ hand-made and random graphs ================================ */
typedef struct {
    const char *name;
    uint32_t page_size;
    int32_t vertices;
    size_t random_edges;
    int self_loops;               /* percent of random edges that are self-loops */
    int hubs;                     /* number of hub vertices */
    int32_t hub_degree;           /* out- and in-degree given to each hub */
    int shape;                    /* 0 random, 1 path, 2 out-star, 3 in-star, 4 binary tree, 5 two components */
    int32_t remove;               /* vertices removed at the end */
    int batch;                    /* 1: edges through dg_add_edges, 0: dg_add_edge */
} gspec;

static const gspec GRAPHS[] = {
    { "1 vertex, no edge", 64, 1, 0, 0, 0, 0, 0, 0, 0 },
    { "1 vertex, self-loop", 64, 1, 1, 100, 0, 0, 0, 0, 0 },
    { "2 isolated vertices", 1024, 2, 0, 0, 0, 0, 0, 0, 1 },
    { "tiny random with self-loops", 64, 9, 14, 20, 0, 0, 0, 0, 0 },
    { "small random", 1024, 60, 150, 3, 0, 0, 0, 0, 1 },
    { "path of 400", 64, 400, 0, 0, 0, 0, 1, 0, 0 },
    { "out-star of 3000 (p64)", 64, 3001, 0, 0, 0, 0, 2, 0, 1 },
    { "in-star of 800 (p64)", 64, 801, 0, 0, 0, 0, 3, 0, 0 },
    { "binary tree of 4095", 1024, 4095, 0, 0, 0, 0, 4, 0, 1 },
    { "two components", 64, 2000, 3000, 1, 0, 0, 5, 0, 1 },
    { "hubs p64 (degree 700 > 3 pages)", 64, 3000, 6000, 1, 3, 700, 0, 0, 1 },
    { "random 5k p64 with 600 removed", 64, 5000, 15000, 1, 2, 400, 0, 600, 0 },
    { "random 20k p1024, hubs of 5000", 1024, 20000, 60000, 0, 2, 5000, 0, 0, 1 },
    { "random 20k p64 sparse, a hub of 5000", 64, 20000, 24000, 1, 1, 5000, 0, 50, 1 },
};
#define NGRAPHS ((int)(sizeof GRAPHS / sizeof GRAPHS[0]))

static void build_graph(pair *p, const gspec *gs)
{
    edge_list el = { NULL, 0, 0 };
    size_t i;
    int32_t v, n = gs->vertices;
    int h;
#define PUSH(a, b) do { dg_edge *e_ = el_add(&el, (a), (b)); e_->weight = rweight(p->kind); } while (0)
    pair_add_vertices(p, (size_t)n);
    switch (gs->shape) {
    case 1: for (v = 0; v + 1 < n; v++) PUSH(v, v + 1); break;
    case 2: for (v = 1; v < n; v++) PUSH(0, v); break;
    case 3: for (v = 1; v < n; v++) PUSH(v, 0); break;
    case 4: for (v = 1; v < n; v++) PUSH((v - 1) / 2, v); break;
    default: break;
    }
    for (i = 0; i < gs->random_edges; i++) {
        int32_t a = (int32_t)rnd((uint32_t)n), b;
        if (chance(gs->self_loops)) b = a;
        else if (gs->shape == 5) { /* halves that never meet */
            int32_t half = n / 2;
            a = (int32_t)rnd((uint32_t)half);
            b = (int32_t)rnd((uint32_t)half);
            if (chance(50)) { a += half; b += half; }
        } else b = (int32_t)rnd((uint32_t)n);
        PUSH(a, b);
    }
    for (h = 0; h < gs->hubs; h++) {
        int32_t hub = (int32_t)rnd((uint32_t)n), k;
        for (k = 0; k < gs->hub_degree; k++) {
            PUSH(hub, (int32_t)rnd((uint32_t)n));
            PUSH((int32_t)rnd((uint32_t)n), hub);
        }
    }
#undef PUSH
    if (gs->batch) pair_add_in_batches(p, el.e, el.n);
    else for (i = 0; i < el.n; i++) pair_add_edge(p, el.e[i].src, el.e[i].dst, rweight(p->kind));
    free(el.e);
    check_hub_pages(p, gs->hubs, gs->hub_degree, gs->name);
    pair_remove_random(p, gs->remove);
}

static int32_t max_degree_vertex(const csr *r)
{
    int32_t v, best = -1;
    size_t bd = 0;
    for (v = 0; v < r->n; v++)
        if (r->alive[v] && (best < 0 || r->off[v + 1] - r->off[v] > bd)) { best = v; bd = r->off[v + 1] - r->off[v]; }
    return best;
}
static int32_t random_source(const csr *r, int want_edges)
{
    int tries;
    for (tries = 0; tries < 10000; tries++) {
        int32_t v = (int32_t)rnd((uint32_t)r->n);
        if (r->alive[v] && (!want_edges || r->off[v + 1] > r->off[v])) return v;
    }
    for (tries = 0; tries < r->n; tries++) if (r->alive[tries]) return tries;
    return 0;
}

static void test_graphs(void)
{
    int gi, und, w = 0;
    for (gi = 0; gi < NGRAPHS; gi++) {
        for (und = 0; und <= 1; und++) {
            const gspec *gs = &GRAPHS[gi];
            pair p;
            csr r;
            dg_vertex srcs[4];
            int nsrc = 0, fails;
            char label[256];
            snprintf(label, sizeof label, "%s, %s", gs->name, und ? "undirected" : "directed");
            /* undirected graphs at page size 1024 only (see PAGE SIZES above) */
            if (!pair_create(&p, und ? 1024 : gs->page_size, und, (w++) & 1)) continue;
            build_graph(&p, gs);
            pair_counts_ok(&p, label);

            csr_from_model(&r, &p.m, 1);
            srcs[nsrc++] = random_source(&r, 0);
            if (r.n > 1) {
                srcs[nsrc++] = random_source(&r, 1);
                srcs[nsrc++] = max_degree_vertex(&r);
            }
            if (gs->shape == 3 && r.alive[0]) srcs[nsrc++] = 0;   /* in-star centre: nothing out */
            fails = check_sources(p.g, &r, srcs, nsrc, 0, label);
            if (fails) fprintf(stderr, "test_bfs: [%s] %d failing runs\n", label, fails);
            csr_free(&r);
            pair_free(&p);
        }
    }
}

/* ================================ datasets ================================ */
typedef struct {
    const char *file;
    int undirected_too;           /* also loaded into an undirected graph */
    int heavy;                    /* 1: id bound of a million, 2: ten million: fewer variants */
} dataset;

static const dataset DATASETS[] = {
    { "snap/facebook_combined.txt", 1, 0 },
    { "snap/CA-GrQc.txt", 1, 0 },
    { "snap/CA-HepTh.txt", 0, 0 },
    { "snap/CA-HepPh.txt", 0, 0 },
    { "snap/BlogCatalog3.txt", 0, 0 },
    { "snap/power.txt", 1, 0 },
    { "snap/jazz.txt", 0, 0 },
    { "snap/Karate.txt", 1, 0 },
    { "snap/cit-HepPh_partial.txt", 0, 2 },
    { "snap/roadNet-PA_prefix.txt", 1, 1 },
    { "dimacs9/rome99.gr", 1, 0 },
    { "dimacs10/delaunay_n15.graph", 0, 0 },
    { "metis/4elt.graph", 1, 0 },
    { "suitesparse/bips98_606.mtx", 1, 0 },
    { "grail/agrocyc_dag_uniq.gra", 0, 0 },
    { "grail/amaze_dag_uniq.gra", 0, 0 },
    { "grail/anthra_dag_uniq.gra", 0, 0 },
    { "grail/ecoo_dag_uniq.gra", 0, 0 },
    { "grail/human_dag_uniq.gra", 1, 0 },
    { "grail/kegg_dag_uniq.gra", 0, 0 },
    { "grail/mtbrv_dag_uniq.gra", 0, 0 },
    { "grail/nasa_dag_uniq.gra", 0, 0 },
    { "grail/vchocyc_dag_uniq.gra", 0, 0 },
    { "grail/xmark_dag_uniq.gra", 0, 0 },
};
#define NDATASETS ((int)(sizeof DATASETS / sizeof DATASETS[0]))

static void test_datasets(void)
{
    int di, und;
    char path[1024];
    for (di = 0; di < NDATASETS; di++) {
        const dataset *ds = &DATASETS[di];
        ds_arcs a;
        CHECK_MSG(ds_read(ds_path(path, sizeof path, ds->file), &a), "%s: cannot read", path);
        if (!a.src && !a.bound) continue;
        for (und = 0; und <= ds->undirected_too; und++) {
            dg_graph *g;
            csr r;
            dg_vertex srcs[3];
            int nsrc = 0, fails;
            char label[256];
            time_t t0 = time(NULL);
            snprintf(label, sizeof label, "%s, %s", ds->file, und ? "undirected" : "directed");
            if ((g = ds_load(ds->file, und, 0, label)) == NULL) continue;
            if (und) {
                /* both directions of every arc */
                int32_t *bsrc = (int32_t *)xmalloc((2 * a.n + 1) * sizeof(int32_t));
                int32_t *bdst = (int32_t *)xmalloc((2 * a.n + 1) * sizeof(int32_t));
                size_t i;
                for (i = 0; i < a.n; i++) {
                    bsrc[2 * i] = a.src[i]; bdst[2 * i] = a.dst[i];
                    bsrc[2 * i + 1] = a.dst[i]; bdst[2 * i + 1] = a.src[i];
                }
                csr_from_arcs(&r, (int32_t)a.bound, bsrc, bdst, 2 * a.n);
                free(bsrc); free(bdst);
            } else {
                csr_from_arcs(&r, (int32_t)a.bound, a.src, a.dst, a.n);
            }
            CHECK_MSG(dg_vertex_id_bound(g) == (size_t)r.n, "%s: bound %zu, reference %d", label,
                      dg_vertex_id_bound(g), (int)r.n);
            if (!und)
                CHECK_MSG(dg_edge_count(g) == r.off[r.n], "%s: %zu edges, reference %zu arcs", label,
                          dg_edge_count(g), r.off[r.n]);
            if (dg_vertex_id_bound(g) != (size_t)r.n) { csr_free(&r); dg_destroy(g); continue; }
            srcs[nsrc++] = 0;
            srcs[nsrc++] = random_source(&r, 1);
            if (!ds->heavy) srcs[nsrc++] = max_degree_vertex(&r);
            if (ds->heavy > 1) {
                /* ~10 million ids: the variants that sweep every id (edge chunks, bottom-up at
                   once), each a few seconds under ASan; check_sources adds one more */
                static const int few[] = { 5, 10 };
                int32_t *ref_dist = (int32_t *)xmalloc(((size_t)r.n + 1) * sizeof(int32_t));
                ref_result ref = ref_bfs(&r, srcs[1], ref_dist);
                size_t k;
                fails = 0;
                for (k = 0; k < sizeof few / sizeof few[0]; k++)
                    if (!check_bfs(g, &r, ref_dist, ref, srcs[1], few[k], (int)(k % 4), label)) fails++;
                free(ref_dist);
                fails += check_sources(g, &r, srcs, 1, 1, label);
            } else if (ds->heavy) {
                /* a million ids: 5 variants drawn from one source (the graphs case runs every
                   variant; a deep graph's edge-chunk runs cost seconds; 8 directed cost make
                   test ~10 s more) */
                fails = check_sources(g, &r, srcs + 1, 1, 5, label);
            } else if (und || ds->file[0] == 'g') {
                /* undirected loads and the small DAGs: all variants from one source, a few from the rest */
                fails = check_sources(g, &r, srcs + 1, 1, 0, label);
                fails += check_sources(g, &r, srcs, 1, 4, label);
                fails += check_sources(g, &r, srcs + 2, 1, 4, label);
            } else {
                fails = check_sources(g, &r, srcs, nsrc, 0, label);
            }
            if (fails) fprintf(stderr, "test_bfs: [%s] %d failing runs\n", label, fails);
            printf("test_bfs: [%s] %ld s\n", label, (long)(time(NULL) - t0));
            csr_free(&r);
            dg_destroy(g);
        }
        ds_free(&a);
    }
}

/* ================================ mutate, then BFS ================================ */
/* Random mutations of every kind on both the library and the model; *ok cleared on a mismatch
   of return codes (the sequence then stops: the model no longer describes the graph). */
static void mutate_once(pair *p, int32_t hub, int *ok)
{
    model *m = &p->m;
    int op = (int)rnd(100);
    dg_status s;
    int32_t u = m_random_live(m), v = m_random_live(m);
    if (u < 0 || m->nalive < 4) op = 90;                      /* add vertices */
    if (op < 30) {                                             /* add_edge */
        if (chance(30) && m_live(m, hub)) { if (chance(50)) u = hub; else v = hub; }
        mutate_add_edge(p, u, v, rweight(p->kind), ok);
    } else if (op < 50) {                                      /* remove_edge: mostly present ones */
        if (m->out[u].n && chance(85)) v = m->out[u].a[rnd((uint32_t)m->out[u].n)].v;
        mutate_remove_edge(p, u, v, ok);
    } else if (op < 60) {                                      /* edit_edge */
        if (!m->out[u].n) return;
        mutate_edit_edge(p, u, m->out[u].a[rnd((uint32_t)m->out[u].n)].v, v, ok);
    } else if (op < 72) {                                      /* add_edges batch, hub-heavy now and then */
        size_t n = 1 + rnd(chance(20) ? 600 : 60), i, want_added = 0, added = (size_t)-1;
        dg_edge *e = random_batch(p, hub, n, rweight);
        s = dg_add_edges(p->g, e, n, &added);
        if (s == DG_OK)
            for (i = 0; i < n; i++) want_added += (size_t)m_add_edge(m, e[i].src, e[i].dst, e[i].weight);
        CHECK_MSG(s == DG_OK && added == want_added, "dg_add_edges(%zu): %s, added %zu, expected %zu", n,
                  dg_status_string(s), added, want_added);
        free(e);
        if (s != DG_OK || added != want_added) { *ok = 0; return; }
    } else if (op < 82) {                                      /* remove_edges batch: present and absent */
        size_t n = 1 + rnd(chance(20) ? 400 : 40), i, want_removed = 0, removed = (size_t)-1;
        dg_edge *e = (dg_edge *)xmalloc(n * sizeof(dg_edge));
        int hubby = chance(40) && m_live(m, hub) && m->out[hub].n;
        for (i = 0; i < n; i++) {
            int32_t a = hubby && chance(70) ? hub : m_random_live(m);
            e[i].src = a;
            e[i].dst = m->out[a].n && chance(70) ? m->out[a].a[rnd((uint32_t)m->out[a].n)].v : m_random_live(m);
            e[i].weight = 0;
        }
        s = dg_remove_edges(p->g, e, n, &removed);
        if (s == DG_OK) for (i = 0; i < n; i++) want_removed += (size_t)m_remove_edge(m, e[i].src, e[i].dst);
        CHECK_MSG(s == DG_OK && removed == want_removed, "dg_remove_edges(%zu): %s, removed %zu, expected %zu",
                  n, dg_status_string(s), removed, want_removed);
        free(e);
        if (s != DG_OK || removed != want_removed) { *ok = 0; return; }
    } else if (op < 88) {                                      /* remove_vertex (the hub rarely) */
        mutate_remove_vertex(p, u, hub, ok);
    } else {                                                   /* add_vertex, often with edges */
        mutate_add_vertex(p, unit_weight, ok);
    }
}

static void run_mutations(int undirected, uint32_t page_size, int rounds, int reuse)
{
    pair p;
    char label[256];
    int32_t hub;
    int round, ok = 1, fails = 0;
    int32_t *ref_dist;
    snprintf(label, sizeof label, "mutations, %s, page size %u%s", undirected ? "undirected" : "directed",
             (unsigned)page_size, reuse ? ", reuse_ids" : "");
    if (!pair_create_ex(&p, page_size, undirected, undirected, reuse)) return;
    hub = 7;
    pair_mutation_start(&p, hub, 2, rweight);      /* a start: random edges and a hub past 3 pages */
    for (round = 0; round < rounds && ok; round++) {
        int k, nmut = 1 + (int)rnd(chance(10) ? 40 : 8);
        csr r;
        dg_vertex src;
        char lab[300];
        for (k = 0; k < nmut && ok; k++) mutate_once(&p, hub, &ok);
        if (!ok) break;
        snprintf(lab, sizeof lab, "%s, round %d", label, round);
        if (!pair_counts_ok(&p, lab)) break;
        csr_from_model(&r, &p.m, 1);
        ref_dist = (int32_t *)xmalloc(((size_t)r.n + 1) * sizeof(int32_t));
        src = chance(20) && m_live(&p.m, hub) ? hub : m_random_live(&p.m);
        maybe_sync(&p, lab);
        if (round % 25 == 24) {
            fails += check_sources(p.g, &r, &src, 1, 0, lab);          /* every variant */
        } else {
            fails += check_sources(p.g, &r, &src, 1, 1, lab);          /* one random variant */
        }
        /* a removed source */
        if (chance(30)) {
            int32_t dead = m_random_removed(&p.m);
            if (dead >= 0) {
                dg_bfs_options opt;
                dg_status s;
                memset(&opt, 0, sizeof opt);
                opt.strategy = VARIANTS[rnd(NVARIANTS)].strategy;
                s = dg_bfs(p.g, dead, ref_dist, &opt);
                CHECK_MSG(s == DG_ERR_NOT_FOUND, "%s: removed source %d: %s", lab, (int)dead, dg_status_string(s));
            }
        }
        free(ref_dist);
        csr_free(&r);
        if (fails > 5) break;       /* the graph is known to be off: stop flooding */
    }
    if (fails) fprintf(stderr, "test_bfs: [%s] %d failing runs\n", label, fails);
    {   /* the host store is still sound */
        dg_status s = dg_validate(p.g);
        CHECK_MSG(s == DG_OK, "%s: dg_validate: %s", label, dg_error_message(p.g));
    }
    pair_free(&p);
}

/* ================================ deep searches ================================ */
/* Thousands of levels (a path, a long grid, a path through hubs of more than DG_BFS_HUB
   neighbours, which leave the deep kernel for the ordinary ones and come back), top-down and
   direction-optimizing, with the deep kernel (dg_bfs_deep) in one group (what PoCL runs),
   two and three groups (on PoCL they may or may not run at once: either way the answer must
   be right), three groups that give up waiting at once (the abort path: the level is redone by
   the ordinary kernels), and without it; early exit at a target far down the path. */
static void deep_graph(pair *p, int shape, int32_t n)
{
    edge_list el = { NULL, 0, 0 };
    int32_t v, w = 5;
    pair_add_vertices(p, (size_t)n);
    if (shape == 0) for (v = 0; v + 1 < n; v++) el_add(&el, v, v + 1);
    if (shape == 1) for (v = 0; v < n; v++) {   /* a 5-wide grid, n / 5 long */
        if (v % w + 1 < w) el_add(&el, v, v + 1);
        if (v + w < n) el_add(&el, v, v + w);
    }
    if (shape == 2) {                            /* a path of n - 9000 through two hubs */
        int32_t len = n - 9000, k;
        for (v = 0; v + 1 < len; v++) el_add(&el, v, v + 1);
        for (k = 0; k < 9000; k++) el_add(&el, k < 4500 ? len / 3 : 2 * len / 3, len + k);
        for (k = 0; k < 9000; k += 97) el_add(&el, len + k, len / 2);   /* shortcuts to the middle */
    }
    for (v = 0; v < (int32_t)el.n; v++) el.e[v].weight = 1.0f;
    pair_add_in_batches(p, el.e, el.n);
    free(el.e);
}

static void test_deep(void)
{
    /* every hook on graphs of a few thousand levels; the long path (tens of thousands of
       levels, slow on PoCL without kernel optimisation) once, with the default hook */
    static const struct { const char *name; int shape; int32_t n; int und, hooks; } G[] = {
        { "path of 2500", 0, 2500, 0, 5 }, { "path of 2000, undirected", 0, 2000, 1, 5 },
        { "grid 5 x 600, undirected", 1, 3000, 1, 5 }, { "path through two hubs of 4500", 2, 10000, 1, 5 },
        { "path of 25000", 0, 25000, 0, 1 },
    };
    static const struct { int groups; cl_uint spins; const char *name; } H[] = {
        { 0, 1u << 20, "deep, 1 group" }, { 2, 1u << 20, "deep, 2 groups" },
        { 3, 1u << 20, "deep, 3 groups" }, { 3, 0, "deep, 3 groups giving up" }, { -1, 0, "no deep kernel" },
    };
    const int vis[3] = { 8, 9, 13 };   /* TOP_DOWN, DIRECTION_OPT, DIRECTION_OPT(alpha 2, beta 2) */
    int gi, hi, k;
    for (gi = 0; gi < (int)(sizeof G / sizeof G[0]); gi++) {
        pair p;
        csr r;
        int32_t *ref_dist;
        ref_result ref;
        if (!pair_create(&p, 64, G[gi].und, 0)) continue;
        deep_graph(&p, G[gi].shape, G[gi].n);
        csr_from_model(&r, &p.m, 1);
        ref_dist = (int32_t *)xmalloc((size_t)r.n * sizeof(int32_t));
        ref = ref_bfs(&r, 0, ref_dist);
        for (hi = 0; hi < G[gi].hooks; hi++) {
            char label[256];
            dg__bfs_deep_groups = H[hi].groups;
            dg__bfs_deep_spins = H[hi].spins;
            snprintf(label, sizeof label, "%s, %s", G[gi].name, H[hi].name);
            for (k = 0; k < (G[gi].hooks > 1 ? 3 : 1); k++) {
                if (p.g->dev) p.g->dev->deep_off = 0;
                CHECK_MSG(check_bfs(p.g, &r, ref_dist, ref, 0, vis[k], k % 4, label), "%s: wrong", label);
            }
            {   /* early exit: the farthest vertex, and its path */
                int32_t t = 0, v;
                size_t len = 0;
                dg_vertex path[64];
                dg_bfs_options o;
                int32_t *dist = (int32_t *)xmalloc((size_t)r.n * sizeof(int32_t));
                for (v = 0; v < r.n; v++) if (ref_dist[v] > ref_dist[t]) t = v;
                if (p.g->dev) p.g->dev->deep_off = 0;
                memset(&o, 0, sizeof o);
                o.strategy = DG_BFS_TOP_DOWN;
                o.targets = &t; o.target_count = 1;
                o.path = path; o.path_capacity = 64; o.path_length = &len;
                CHECK_MSG(dg_bfs(p.g, 0, dist, &o) == DG_OK, "%s: dg_bfs to %d", label, (int)t);
                CHECK_MSG(dist[t] == ref_dist[t], "%s: target %d at %d, reference %d", label, (int)t,
                          (int)dist[t], (int)ref_dist[t]);
                CHECK_MSG(len == (size_t)ref_dist[t] + 1, "%s: path of %zu vertices to %d, expected %d", label,
                          len, (int)t, (int)ref_dist[t] + 1);
                for (v = 0; v < r.n; v++)   /* nearer vertices are all right, farther ones unreached */
                    if (ref_dist[v] >= 0 && ref_dist[v] < ref_dist[t] && dist[v] != ref_dist[v]) break;
                CHECK_MSG(v == r.n, "%s: early exit: vertex %d at %d, reference %d", label, (int)v,
                          v < r.n ? (int)dist[v] : 0, v < r.n ? (int)ref_dist[v] : 0);
                free(dist);
            }
        }
        dg__bfs_deep_groups = 0;
        dg__bfs_deep_spins = 1u << 20;
        free(ref_dist);
        csr_free(&r);
        pair_free(&p);
    }
}

/* ================================ main ================================ */
static time_t w0;                 /* the start, for the progress lines */

static void case_bad(void)
{
    test_bad_input();
    printf("test_bfs: bad input done (%lds)\n", (long)(time(NULL) - w0));
}
static void case_graphs(void)
{
    size_t q0 = bfs_queues;
    test_graphs();
    CHECK_MSG(bfs_queues > q0, "no direction-optimizing search queued levels whose direction the device "
              "decides (%zu queues)", bfs_queues - q0);
    printf("test_bfs: graphs done (%lds, %ld BFS runs)\n", (long)(time(NULL) - w0), bfs_runs);
}
static void case_datasets(void)
{
    test_datasets();
    printf("test_bfs: datasets done (%lds, %ld BFS runs)\n", (long)(time(NULL) - w0), bfs_runs);
}
static void case_mutations(void)
{
    run_mutations(0, 64, 160, 0);
    run_mutations(0, 1024, 120, 0);
    run_mutations(1, 1024, 200, 0);
    run_mutations(0, 64, 120, 1);       /* removed ids handed out again */
    printf("test_bfs: mutations done (%lds, %ld BFS runs)\n", (long)(time(NULL) - w0), bfs_runs);
}
static void case_deep(void)
{
    test_deep();
    printf("test_bfs: deep done (%lds, %ld BFS runs)\n", (long)(time(NULL) - w0), bfs_runs);
}
/* The BFS kernels compiled with PoCL's optimiser (the other cases run -cl-opt-disable, as
   test/run.sh sets it): a kernel that returned early before its barriers had every work-item,
   not only work-item 0, add the level counters there (stats.edges_inspected 128x too large,
   and the direction rule misled), and only an optimised build shows it. */
static void case_optimised(void)
{
    static const int pick[] = { 6 };   /* the out-star (each build with the optimiser costs
                                          seconds on PoCL: one graph, undirected) */
    const char *was = getenv("DYNGRAPH_CL_OPTIONS");
    char *keep = was ? (char *)xmalloc(strlen(was) + 1) : NULL;
    int i, und;
    if (keep) strcpy(keep, was);
    setenv("DYNGRAPH_CL_OPTIONS", "", 1);
    for (i = 0; i < (int)(sizeof pick / sizeof pick[0]); i++)
        for (und = 1; und <= 1; und++) {
            const gspec *gs = &GRAPHS[pick[i]];
            pair p;
            csr r;
            dg_vertex srcs[2];
            char label[256];
            snprintf(label, sizeof label, "optimised kernels: %s, %s", gs->name, und ? "undirected" : "directed");
            if (!pair_create(&p, und ? 1024 : gs->page_size, und, 0)) continue;   /* (as test_graphs) */
            build_graph(&p, gs);
            csr_from_model(&r, &p.m, 1);
            srcs[0] = max_degree_vertex(&r);
            srcs[1] = random_source(&r, 1);
            check_sources(p.g, &r, srcs, 2, 0, label);
            csr_free(&r);
            pair_free(&p);
        }
    if (keep) setenv("DYNGRAPH_CL_OPTIONS", keep, 1); else unsetenv("DYNGRAPH_CL_OPTIONS");
    free(keep);
    printf("test_bfs: optimised done (%lds, %ld BFS runs)\n", (long)(time(NULL) - w0), bfs_runs);
}
/* Profiling events only in calls given stats (each costs a launch ~7 us on NVIDIA's host): a
   search without stats asks for none, one with stats reports its device time. */
static void case_timing(void)
{
    pair p;
    gspec gs = { "timing: random 3000", 1024, 3000, 12000, 1, 0, 0, 0, 0, 0 };
    dg_bfs_stats st;
    dg_bfs_options o;
    int32_t *dist;
    size_t e0;
    if (!pair_create(&p, 1024, 1, 0)) { CHECK_MSG(0, "timing: no graph"); return; }
    build_graph(&p, &gs);
    dist = (int32_t *)xmalloc(dg_vertex_id_bound(p.g) * sizeof(int32_t));
    memset(&o, 0, sizeof o);
    CHECK(dg_bfs(p.g, 0, dist, NULL) == DG_OK);           /* (the device set up, kernels built) */
    e0 = p.g->dev->events;
    CHECK(dg_bfs(p.g, 0, dist, NULL) == DG_OK);
    CHECK_MSG(p.g->dev->events == e0, "a search without stats asked for %zu events", p.g->dev->events - e0);
    o.stats = &st;
    CHECK(dg_bfs(p.g, 0, dist, &o) == DG_OK);
    CHECK_MSG(p.g->dev->events > e0, "a search with stats asked for no event");
    if (p.g->dev->profiling)
        CHECK_MSG(st.device_ms > 0 && st.kernel_ms > 0, "stats: device_ms %g, kernel_ms %g", st.device_ms, st.kernel_ms);
    free(dist);
    pair_free(&p);
}
static const tt_case cases[] = {
    { "bad", case_bad }, { "graphs", case_graphs }, { "datasets", case_datasets }, { "mutations", case_mutations },
    { "deep", case_deep }, { "optimised", case_optimised }, { "timing", case_timing },
};

int main(int argc, char **argv)
{
    clock_t t0 = clock();
    int vi;
    w0 = time(NULL);
    setvbuf(stdout, NULL, _IOLBF, 0);
    seed = trand_seed(argc, argv, (uint64_t)time(NULL), "test_bfs");

    if (TT_RUN("test_bfs", cases))   /* every case ran: each variant must have */
    {
        for (vi = 0; vi < NVARIANTS; vi++) CHECK_MSG(variant_counts[vi] > 0, "variant %s never ran", VARIANTS[vi].name);
        CHECK_MSG(bfs_flat_runs > 10 && bfs_runs - bfs_flat_runs > 10, "flat kernels in %ld of %ld BFS runs",
                  bfs_flat_runs, bfs_runs);   /* both kernel families ran */
    }
    printf("test_bfs: %ld BFS runs, %.1f s CPU, %ld s (seed %llu)\n", bfs_runs,
           (double)(clock() - t0) / CLOCKS_PER_SEC, (long)(time(NULL) - w0), (unsigned long long)seed);
    return TT_SUMMARY("test_bfs");
}
