/* test_sssp.c - dg_sssp against a CPU Dijkstra (binary heap) and a CPU Bellman-Ford, every
   strategy, on hand-made and random graphs, on the weighted datasets and along random mutation
   sequences.

   The references are independent of the library: graphs are kept as plain weighted adjacency
   lists (random graphs, mutations; the dataset files are read by tdata.h's reader and only
   cross-checked against dg_load), and searched with a lazy binary-heap Dijkstra (weights
   >= 0) or a queue Bellman-Ford with negative-cycle detection (negative weights). Distances
   are accumulated in float exactly as d[u] + w, so integer weights compare exactly; real
   weights compare with |got - want| <= 1e-5 * max(1, |want|). Removed and unreached vertices
   must be INFINITY.

   Each dg_sssp result is compared in full: every entry of dist (prefilled with a sentinel, so
   each must be written); the pred array as a shortest-path tree (pred[source] == source, -1
   exactly where unreached, pred[v] -> v an edge of the graph with dist[pred[v]] + w == dist[v]
   in float, and no cycle: following pred from any reached vertex ends at the source); the stats
   (the strategy that ran, AUTO -> NEAR_FAR or BELLMAN_FORD with negative weights; vertices
   reached; relaxations >= the out-arcs of the reached vertices; updates >= reached - 1;
   relaxations >= updates; iterations > 0; NEAR_FAR's delta, the one given or > 0; times >= 0).

   Variants: AUTO (options zeroed, and opt NULL), BELLMAN_FORD, FRONTIER, NEAR_FAR (automatic
   delta, 0.5, 3 and 1e9, scaled for graphs with large weights), AUTO with an explicit delta.
   Each run uses one of four output modes in turn: dist, dist + pred, pred only, stats only.

   Parts: bad input; tiny graphs (one vertex, a source without out-edges, -0.0 weights); random
   graphs directed and undirected, unweighted (== dg_bfs hop counts), integer weights 1..255,
   real weights in [0,1) with exact zeros, weights 0..2 (zero-weight cycles: ties for pred),
   hubs whose lists span several pages, isolated and removed vertices, at page sizes 64, 128
   and 1024; weights changed only (dg_set_weight on every edge between two searches); negative
   weights (refused by default with the edge named; negative_weights = 1 with AUTO and
   BELLMAN_FORD against the CPU Bellman-Ford; reachable negative cycles, small and far from the
   source in 2000 vertices, where only ~n passes can find it; unreachable ones; FRONTIER and
   NEAR_FAR refuse the option); the
   datasets rome99.gr (weighted, unweighted, undirected) and bips98_606.mtx (negative weights,
   then |w|, then unweighted); random mutation sequences (edges added, removed, re-added with a
   new weight, weights raised and lowered, vertices removed and added) with a search after each
   round, reaching the device through the search's own sync or an explicit dg_sync.

   PAGE SIZES: each (page size, directed or not) is an OpenCL program of its own (several
   seconds to a minute of compilation each with a cold PoCL cache): directed graphs at 64 and
   1024, undirected at 128 and 1024, four programs in all.

   Every search that is checked runs under a watchdog (SIGALRM): one that does not return within
   WATCHDOG_S seconds is reported as a failure naming the run, and the program ends with its
   summary line. Refused calls (bad input) return at once and run without it.

   Usage: test_sssp [seed]   (default a fixed seed: the run is deterministic; a failure message
                              names graph, variant, mode and source). TEST_SSSP_SLOW=S prints every
                              search slower than S seconds to stderr; the summary lists the time
                              spent per variant.
   Cases (DG_TESTS=test_sssp:NAME, see tt.h): bad, tiny, graphs, weights, negative, rome, bips,
   mutations. Each starts from its own fixed random state (reseed), so a case run alone does
   what it does in a whole run. */
#define _POSIX_C_SOURCE 200809L
#define DYNGRAPH_IMPLEMENTATION
#include "dyngraph.h"
#include "tt.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>
#include <ctype.h>

#include "trand.h"
#include "tdata.h"         /* the datasets: reading them independently of dg_load, loading */
#include "tgraph.h"        /* the reference model, graph pairs, mutation steps */
#include "twatch.h"        /* now_s, the watchdog */

#define DEFAULT_SEED 20240611ull
#define WATCHDOG_S 300            /* one dg_sssp, including a cold kernel build */

static uint64_t seed;
static long sssp_runs;
static double slow_s;             /* TEST_SSSP_SLOW: report searches slower than this (seconds) */

/* each part starts from its own fixed state, so that parts reproduce alone */
static void reseed(unsigned part) { rng_state = seed ^ (0x9E3779B97F4A7C15ull * (part + 1)); }

static long nf_runs[2];            /* NEAR_FAR runs with the GPU's kernel [0] and the flat one [1] */
static int nf_force = -1;          /* >= 0: near-far's kernel for every run (case optimised) */
static dg_status sssp_guarded(dg_graph *g, dg_vertex src, float *dist, const dg_sssp_options *opt,
                              const char *where)
{
    dg_status s;
    const int nf = !opt || (opt->strategy == DG_SSSP_AUTO && !opt->negative_weights) || opt->strategy == DG_SSSP_NEAR_FAR;
    /* near-far's kernels in turn: the flat one (a CPU device's: the default on PoCL) and the
       GPU's (with its deep launches) */
    const unsigned long before[2] = { dg__sssp_nf_searches[0], dg__sssp_nf_searches[1] };
    dg__sssp_flat = nf_force >= 0 ? nf_force : (int)(sssp_runs & 1);
    tw_arm("dg_sssp", where, WATCHDOG_S);
    s = dg_sssp(g, src, dist, opt);
    tw_disarm();
    if (nf && s == DG_OK && dg__sssp_nf_searches[dg__sssp_flat] != before[dg__sssp_flat])
        nf_runs[dg__sssp_flat]++;         /* (that kernel ran the search; the other did not) */
    CHECK_MSG(dg__sssp_nf_searches[!dg__sssp_flat] == before[!dg__sssp_flat], "%s: near-far's other kernel ran", where);
    dg__sssp_flat = -1;
    sssp_runs++;
    return s;
}

/* ================================ weights ================================ */
enum { W_UNIT = 0, W_INT, W_REAL, W_TIES };
static const char *KIND_NAMES[] = { "unweighted", "weights 1..255", "real weights [0,1)", "weights 0..2" };
/* [0,1) in multiples of 2^-24 (exact floats), 5% exact zeros */
static float rreal(void)
{
    if (chance(5)) return 0.0f;
    return (float)(rnext() >> 40) * (1.0f / 16777216.0f);
}
static float rweight(int kind)
{
    switch (kind) {
    case W_INT: return (float)(1 + rnd(255));
    case W_REAL: return rreal();
    case W_TIES: return (float)rnd(3);
    default: return 1.0f;
    }
}
static int kind_exact(int kind) { return kind != W_REAL; }
/* explicit NEAR_FAR deltas (0.5, 3, 1e9) are multiplied by this: with weights 1..255 they become
   16, 96 and 3.2e10, still narrower than most edges (many buckets) but not hundreds of times */
static float kind_delta_scale(int kind) { return kind == W_INT ? 32.0f : 1.0f; }

/* ================================ reference model ================================ */
/* (the model and its basic steps are tgraph.h's; the rest this test alone needs) */
static void m_set_weight(model *m, int32_t u, int32_t v, float w)
{
    long i = m_find(m, u, v);
    if (!m->weighted) w = 1.0f;
    if (i >= 0) m->out[u].a[i].w = w;
    if (m->undirected && u != v) { i = m_find(m, v, u); if (i >= 0) m->out[v].a[i].w = w; }
}
static int32_t m_max_degree(const model *m)
{
    int32_t v, best = -1;
    for (v = 0; v < m->bound; v++)
        if (m->alive[v] && (best < 0 || m->out[v].n > m->out[best].n)) best = v;
    return best;
}
static int32_t m_random_source(const model *m, int want_edges)
{
    int tries;
    for (tries = 0; tries < 10000; tries++) {
        int32_t v = (int32_t)rnd((uint32_t)m->bound);
        if (m->alive[v] && (!want_edges || m->out[v].n)) return v;
    }
    return m_random_live(m);
}
/* the graph as the library holds it (datasets whose reference is what was loaded) */
static void m_from_graph(model *m, const dg_graph *g, int undirected, int weighted)
{
    size_t bound = dg_vertex_id_bound(g), v, cap = 1024, n, i;
    dg_vertex *nb = (dg_vertex *)xmalloc(cap * sizeof(dg_vertex));
    float *wb = (float *)xmalloc(cap * sizeof(float));
    m_init(m, undirected, weighted);
    for (v = 0; v < bound; v++) {
        m_add_vertex(m);
        if (!dg_has_vertex(g, (dg_vertex)v)) { m->alive[v] = 0; m->nalive--; }
    }
    for (v = 0; v < bound; v++) {
        if (!m->alive[v]) continue;
        if (dg_neighbors(g, (dg_vertex)v, NULL, NULL, 0, &n) != DG_OK) { CHECK(0); continue; }
        if (n > cap) {
            cap = n;
            nb = (dg_vertex *)xrealloc(nb, cap * sizeof(dg_vertex));
            wb = (float *)xrealloc(wb, cap * sizeof(float));
        }
        CHECK(dg_neighbors(g, (dg_vertex)v, nb, wb, cap, &n) == DG_OK);
        for (i = 0; i < n; i++) arc_push(m, (int32_t)v, nb[i], wb[i]);
    }
    m->nedges = dg_edge_count(g);
    free(nb);
    free(wb);
}

/* ================================ references ================================ */
typedef struct { float d; int32_t v; } hnode;
typedef struct { hnode *a; size_t n, cap; } heap;
static void h_push(heap *h, float d, int32_t v)
{
    size_t i;
    if (h->n == h->cap) { h->cap = h->cap ? h->cap * 2 : 256; h->a = (hnode *)xrealloc(h->a, h->cap * sizeof(hnode)); }
    i = h->n++;
    while (i > 0 && h->a[(i - 1) / 2].d > d) { h->a[i] = h->a[(i - 1) / 2]; i = (i - 1) / 2; }
    h->a[i].d = d;
    h->a[i].v = v;
}
static hnode h_pop(heap *h)
{
    hnode top = h->a[0], last = h->a[--h->n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->n) break;
        if (c + 1 < h->n && h->a[c + 1].d < h->a[c].d) c++;
        if (h->a[c].d >= last.d) break;
        h->a[i] = h->a[c];
        i = c;
    }
    if (h->n) h->a[i] = last;
    return top;
}

/* Dijkstra with a lazy binary heap, weights >= 0. d: bound entries. Returns the vertices reached. */
static size_t ref_dijkstra(const model *m, int32_t src, float *d)
{
    heap h = { NULL, 0, 0 };
    unsigned char *done = (unsigned char *)calloc((size_t)m->bound + 1, 1);
    size_t reached = 0, k;
    int32_t v;
    for (v = 0; v < m->bound; v++) d[v] = INFINITY;
    if (!m_live(m, src)) { free(done); return 0; }
    d[src] = 0.0f;
    h_push(&h, 0.0f, src);
    while (h.n) {
        hnode t = h_pop(&h);
        int32_t u = t.v;
        if (done[u] || t.d != d[u]) continue;
        done[u] = 1;
        reached++;
        for (k = 0; k < m->out[u].n; k++) {
            int32_t x = m->out[u].a[k].v;
            float nd = d[u] + m->out[u].a[k].w;
            if (nd < d[x]) { d[x] = nd; h_push(&h, nd, x); }
        }
    }
    free(h.a);
    free(done);
    return reached;
}

/* Bellman-Ford with a FIFO queue (any weights). Returns the vertices reached, or -1 when a
   negative cycle is reachable (a shortest path would need >= nalive arcs). */
static long ref_bellman_ford(const model *m, int32_t src, float *d)
{
    int32_t n = m->bound, v, *queue, *len;
    unsigned char *inq;
    size_t head = 0, count = 0, qcap = (size_t)n + 1, k;
    long reached = 0;
    for (v = 0; v < n; v++) d[v] = INFINITY;
    if (!m_live(m, src)) return 0;
    queue = (int32_t *)xmalloc(qcap * sizeof(int32_t));
    len = (int32_t *)calloc((size_t)n + 1, sizeof(int32_t));
    inq = (unsigned char *)calloc((size_t)n + 1, 1);
    d[src] = 0.0f;
    queue[0] = src;
    count = 1;
    inq[src] = 1;
    while (count) {
        int32_t u = queue[head];
        head = (head + 1) % qcap;
        count--;
        inq[u] = 0;
        for (k = 0; k < m->out[u].n; k++) {
            int32_t x = m->out[u].a[k].v;
            float nd = d[u] + m->out[u].a[k].w;
            if (nd < d[x]) {
                d[x] = nd;
                len[x] = len[u] + 1;
                if ((size_t)len[x] >= m->nalive) { reached = -1; goto out; }
                if (!inq[x]) { inq[x] = 1; queue[(head + count) % qcap] = x; count++; }
            }
        }
    }
    for (v = 0; v < n; v++) if (d[v] != INFINITY) reached++;
out:
    free(queue);
    free(len);
    free(inq);
    return reached;
}

/* ================================ one search, checked ================================ */
typedef struct {
    const char *name;
    dg_sssp_strategy strategy;
    float delta;                  /* multiplied by the graph's delta scale */
    int opt_null;                 /* call with opt = NULL */
} variant;
static const variant VARIANTS[] = {
    { "AUTO", DG_SSSP_AUTO, 0, 0 },
    { "AUTO(opt NULL)", DG_SSSP_AUTO, 0, 1 },
    { "BELLMAN_FORD", DG_SSSP_BELLMAN_FORD, 0, 0 },
    { "FRONTIER", DG_SSSP_FRONTIER, 0, 0 },
    { "NEAR_FAR", DG_SSSP_NEAR_FAR, 0, 0 },
    { "NEAR_FAR(delta 0.5)", DG_SSSP_NEAR_FAR, 0.5f, 0 },
    { "NEAR_FAR(delta 3)", DG_SSSP_NEAR_FAR, 3.0f, 0 },
    { "NEAR_FAR(delta 1e9)", DG_SSSP_NEAR_FAR, 1e9f, 0 },
    { "AUTO(delta 3)", DG_SSSP_AUTO, 3.0f, 0 },
};
#define NVARIANTS ((int)(sizeof VARIANTS / sizeof VARIANTS[0]))
static int variant_counts[NVARIANTS];
static double variant_secs[NVARIANTS];
/* the variants that accept negative_weights = 1 */
static const int NEG_VARIANTS[] = { 0, 2 };

enum { MODE_DIST = 0, MODE_DIST_PRED = 1, MODE_PRED = 2, MODE_STATS = 3 };
static const char *MODE_NAMES[] = { "dist", "dist+pred", "pred only", "stats only" };

typedef struct {
    const model *m;
    float *ref;                   /* reference distances, m->bound entries */
    size_t reached;               /* finite entries of ref */
    uint64_t arcs_reached;        /* out-arcs of the reached vertices */
    int32_t src;
    int exact;                    /* integer weights: distances compare exactly */
    int negative;                 /* search with negative_weights = 1 (reference: Bellman-Ford) */
    int neg_cycle;                /* the reference found a reachable negative cycle */
    float delta_scale;            /* explicit deltas are multiplied by this */
} refinfo;

static void ref_compute(refinfo *ri, const model *m, int32_t src, int exact, int negative, float delta_scale)
{
    int32_t v;
    memset(ri, 0, sizeof *ri);
    ri->m = m;
    ri->src = src;
    ri->exact = exact;
    ri->negative = negative;
    ri->delta_scale = delta_scale;
    ri->ref = (float *)xmalloc(((size_t)m->bound + 1) * sizeof(float));
    if (negative) {
        long r = ref_bellman_ford(m, src, ri->ref);
        ri->neg_cycle = r < 0;
        ri->reached = r < 0 ? 0 : (size_t)r;
    } else {
        ri->reached = ref_dijkstra(m, src, ri->ref);
    }
    for (v = 0; v < m->bound; v++)
        if (m->alive[v] && ri->ref[v] != INFINITY) ri->arcs_reached += m->out[v].n;
}
static void ref_release(refinfo *ri) { free(ri->ref); ri->ref = NULL; }

static int close_enough(float got, float want, int exact)
{
    if (got != got) return 0;                               /* NaN */
    if (isinf(want) || isinf(got) || exact) return got == want;
    return fabs((double)got - (double)want) <= 1e-5 * fmax(1.0, fabs((double)want));
}

/* The pred array as a shortest-path tree. d: distances it must agree with (the library's own
   when it returned them: float equality; else the reference, compared as distances are). */
static int check_pred(dg_graph *g, const refinfo *ri, const int32_t *pred, const float *d, int d_exact,
                      const char *where)
{
    const model *m = ri->m;
    size_t bound = (size_t)m->bound, v, bad = 0, first = 0;
    const char *why = "";
    unsigned char *state;
    int ok = 1;
    for (v = 0; v < bound; v++) {
        int32_t p = pred[v];
        const char *w = NULL;
        int reached = ri->ref[v] != INFINITY;
        if (!reached) { if (p != -1) w = "unreached (or removed) vertex with pred != -1"; }
        else if ((int32_t)v == ri->src) { if (p != ri->src) w = "pred[source] != source"; }
        else if (p < 0 || (size_t)p >= bound) w = "reached vertex without a valid pred";
        else if (!m->alive[p] || ri->ref[p] == INFINITY) w = "pred is removed or unreached";
        else if (!m_has(m, p, (int32_t)v)) w = "pred -> v is not an edge of the graph";
        else {
            float wt = NAN;
            dg_status s = dg_edge_weight(g, p, (int32_t)v, &wt);
            if (s != DG_OK) w = "dg_edge_weight(pred, v) fails";
            else {
                float sum = d[p] + wt;
                if (d_exact ? sum != d[v] : !close_enough(sum, d[v], 0))
                    w = "dist[pred] + w(pred, v) != dist[v]";
            }
        }
        if (w) { if (!bad++) { first = v; why = w; } }
    }
    if (bad) {
        int32_t p = pred[first];
        float wt = NAN;
        if (p >= 0 && (size_t)p < bound) dg_edge_weight(g, p, (int32_t)first, &wt);
        CHECK_MSG(bad == 0, "%s: %zu bad preds; first: pred[%zu] = %d (%s; dist[v] %.9g, dist[pred] %.9g, "
                  "w %.9g, reference dist[v] %.9g)", where, bad, first, (int)p, why, (double)d[first],
                  p >= 0 && (size_t)p < bound ? (double)d[p] : 0.0, (double)wt, (double)ri->ref[first]);
        return 0;
    }
    /* no cycle: following pred from every reached vertex ends at the source.
       state 0 unknown, 1 on the walk in progress, 2 leads to the source */
    state = (unsigned char *)calloc(bound + 1, 1);
    if ((size_t)ri->src < bound) state[ri->src] = 2;
    for (v = 0; v < bound && ok; v++) {
        int32_t x = (int32_t)v;
        if (ri->ref[v] == INFINITY || state[v]) continue;
        while (state[x] == 0) { state[x] = 1; x = pred[x]; }
        if (state[x] == 1) {
            CHECK_MSG(0, "%s: the pred walk from %zu runs into a cycle through %d", where, v, (int)x);
            ok = 0;
        }
        for (x = (int32_t)v; state[x] == 1; x = pred[x]) state[x] = 2;
    }
    if (ok) CHECK(1);
    free(state);
    return ok;
}

static void describe(char *buf, size_t cap, const char *label, const refinfo *ri, int vi, int mode)
{
    const variant *va = &VARIANTS[vi];
    char dl[64] = "";
    if (va->delta > 0 && ri->delta_scale != 1.0f)
        snprintf(dl, sizeof dl, " = delta %g", (double)(va->delta * ri->delta_scale));
    snprintf(buf, cap, "[%s] source %d, %s%s%s, %s (seed %llu)", label, (int)ri->src, va->name, dl,
             ri->negative ? ", negative_weights" : "", MODE_NAMES[mode], (unsigned long long)seed);
}

/* One dg_sssp compared in full with the reference. Returns 1 if everything matched. */
static int check_sssp(dg_graph *g, const refinfo *ri, int vi, int mode, const char *label)
{
    const variant *va = &VARIANTS[vi];
    const model *m = ri->m;
    size_t bound = dg_vertex_id_bound(g), v;
    float *dist = NULL;
    int32_t *pred = NULL;
    dg_sssp_options opt;
    dg_sssp_stats st;
    dg_status s;
    int ok = 1;
    char where[600];

    if (va->opt_null) mode = MODE_DIST;
    describe(where, sizeof where, label, ri, vi, mode);
    variant_counts[vi]++;
    CHECK_MSG(bound == (size_t)m->bound, "%s: id bound %zu, reference %d", where, bound, (int)m->bound);
    if (bound != (size_t)m->bound) return 0;

    if (mode == MODE_DIST || mode == MODE_DIST_PRED) {
        dist = (float *)xmalloc((bound + 1) * sizeof(float));
        for (v = 0; v < bound; v++) dist[v] = -7.0f;    /* every entry must be written */
    }
    if (mode == MODE_DIST_PRED || mode == MODE_PRED) {
        pred = (int32_t *)xmalloc((bound + 1) * sizeof(int32_t));
        for (v = 0; v < bound; v++) pred[v] = -7;
    }
    memset(&opt, 0, sizeof opt);
    memset(&st, 0xa5, sizeof st);                       /* every field checked must be written */
    opt.strategy = va->strategy;
    opt.delta = va->delta * ri->delta_scale;
    opt.pred = pred;
    opt.negative_weights = ri->negative;
    opt.stats = mode == MODE_DIST ? NULL : &st;

    {
        double t0 = now_s();
        s = sssp_guarded(g, ri->src, dist, va->opt_null ? NULL : &opt, where);
        variant_secs[vi] += now_s() - t0;
        if (slow_s > 0 && now_s() - t0 > slow_s) fprintf(stderr, "test_sssp: %.2f s: %s\n", now_s() - t0, where);
    }
    if (ri->neg_cycle) {
        CHECK_MSG(s == DG_ERR_NEGATIVE_CYCLE, "%s: %s (%s), expected DG_ERR_NEGATIVE_CYCLE", where,
                  dg_status_string(s), dg_error_message(g));
        free(dist);
        free(pred);
        return s == DG_ERR_NEGATIVE_CYCLE;
    }
    CHECK_MSG(s == DG_OK, "%s: dg_sssp: %s: %s", where, dg_status_string(s), dg_error_message(g));
    if (s != DG_OK) { free(dist); free(pred); return 0; }

    if (dist) {
        size_t bad = 0, first = 0, dead_bad = 0, dead_first = 0;
        for (v = 0; v < bound; v++) {
            if (!close_enough(dist[v], ri->ref[v], ri->exact)) { if (!bad++) first = v; }
            if (!m->alive[v] && !(isinf(dist[v]) && dist[v] > 0)) { if (!dead_bad++) dead_first = v; }
        }
        CHECK_MSG(bad == 0, "%s: %zu wrong distances; first: dist[%zu] = %.9g, expected %.9g", where, bad,
                  first, bad ? (double)dist[first] : 0.0, bad ? (double)ri->ref[first] : 0.0);
        CHECK_MSG(dead_bad == 0, "%s: %zu removed vertices with dist != INFINITY; first: dist[%zu] = %.9g",
                  where, dead_bad, dead_first, dead_bad ? (double)dist[dead_first] : 0.0);
        if (bad || dead_bad) ok = 0;
    }
    if (pred && !check_pred(g, ri, pred, dist ? dist : ri->ref, dist != NULL || ri->exact, where)) ok = 0;
    if (opt.stats) {
        dg_sssp_strategy want = va->strategy;
        uint64_t reached = (uint64_t)ri->reached;
        if (want == DG_SSSP_AUTO) want = ri->negative ? DG_SSSP_BELLMAN_FORD : DG_SSSP_NEAR_FAR;
        CHECK_MSG(st.strategy == want, "%s: stats.strategy %d, expected %d", where, (int)st.strategy, (int)want);
        CHECK_MSG(st.vertices_reached == reached, "%s: stats.vertices_reached %llu, expected %llu", where,
                  (unsigned long long)st.vertices_reached, (unsigned long long)reached);
        CHECK_MSG(st.relaxations >= st.updates, "%s: stats.relaxations %llu < updates %llu", where,
                  (unsigned long long)st.relaxations, (unsigned long long)st.updates);
        /* every reached vertex but the source had its distance lowered from INFINITY at least
           once; every out-arc of a reached vertex was compared at least once */
        CHECK_MSG(st.updates + 1 >= reached, "%s: stats.updates %llu < vertices reached - 1 (%llu)", where,
                  (unsigned long long)st.updates, (unsigned long long)(reached - 1));
        CHECK_MSG(st.relaxations >= ri->arcs_reached, "%s: stats.relaxations %llu < %llu out-arcs of the "
                  "reached vertices", where, (unsigned long long)st.relaxations,
                  (unsigned long long)ri->arcs_reached);
        if (ri->arcs_reached)
            CHECK_MSG(st.iterations > 0 && st.iterations < 100000000u, "%s: stats.iterations %u", where,
                      (unsigned)st.iterations);
        if (want == DG_SSSP_NEAR_FAR) {
            if (opt.delta > 0)
                CHECK_MSG(st.delta == opt.delta, "%s: stats.delta %g, the delta given %g", where,
                          (double)st.delta, (double)opt.delta);
            else
                CHECK_MSG(st.delta > 0 && isfinite(st.delta), "%s: stats.delta %g (automatic)", where,
                          (double)st.delta);
        }
        CHECK_MSG(st.device_ms >= 0 && st.device_ms < 1e7, "%s: stats.device_ms %g", where, st.device_ms);
        CHECK_MSG(st.sync_ms >= 0 && st.sync_ms < 1e7, "%s: stats.sync_ms %g", where, st.sync_ms);
        if (st.strategy != want || st.vertices_reached != reached) ok = 0;
    }
    free(dist);
    free(pred);
    return ok;
}

/* Every variant (count <= 0) or `count` random ones from each source; returns failing runs. */
static int check_sources(dg_graph *g, const model *m, const int32_t *srcs, int nsrc, int count, int exact,
                         float delta_scale, const char *label)
{
    int i, vi, k, fails = 0;
    for (i = 0; i < nsrc; i++) {
        refinfo ri;
        ref_compute(&ri, m, srcs[i], exact, 0, delta_scale);
        if (count <= 0) {
            for (vi = 0; vi < NVARIANTS; vi++)
                if (!check_sssp(g, &ri, vi, (vi + i) % 4, label)) fails++;
        } else {
            for (k = 0; k < count; k++)
                if (!check_sssp(g, &ri, (int)rnd(NVARIANTS), (int)rnd(4), label)) fails++;
        }
        ref_release(&ri);
    }
    return fails;
}

/* ================================ graph pairs (library + model) ================================ */
/* (tgraph.h; the pair's kind is its W_ weight kind) */
static void pair_set_weight(pair *p, int32_t u, int32_t v, float w)
{
    dg_status s = dg_set_weight(p->g, u, v, w);
    CHECK_MSG(s == DG_OK, "dg_set_weight(%d, %d, %g): %s: %s", (int)u, (int)v, (double)w, dg_status_string(s),
              dg_error_message(p->g));
    if (s == DG_OK) m_set_weight(&p->m, u, v, w);
}
/* counts, and every list with its weights, as the model says */
static int pair_matches(pair *p, const char *label)
{
    const model *m = &p->m;
    size_t cap = 64, n, i, bad = 0;
    dg_vertex *nb = (dg_vertex *)xmalloc(cap * sizeof(dg_vertex));
    float *wb = (float *)xmalloc(cap * sizeof(float));
    int32_t v, firstv = -1;
    int ok = pair_counts_ok(p, label);
    for (v = 0; v < m->bound && ok; v++) {
        if (!m->alive[v]) { if (dg_has_vertex(p->g, v)) { bad++; if (firstv < 0) firstv = v; } continue; }
        if (dg_neighbors(p->g, v, NULL, NULL, 0, &n) != DG_OK) { bad++; continue; }
        if (n > cap) { cap = n; nb = (dg_vertex *)xrealloc(nb, cap * sizeof(dg_vertex)); wb = (float *)xrealloc(wb, cap * sizeof(float)); }
        dg_neighbors(p->g, v, nb, wb, cap, &n);
        if (n != m->out[v].n) { bad++; if (firstv < 0) firstv = v; continue; }
        for (i = 0; i < n; i++) {
            float w = m_weight(m, v, nb[i]);
            if (!(w == wb[i])) { bad++; if (firstv < 0) firstv = v; break; }
        }
    }
    CHECK_MSG(bad == 0, "[%s] %zu vertices whose list differs from the model; first %d", label, bad, (int)firstv);
    free(nb);
    free(wb);
    return ok && bad == 0;
}

/* ================================ bad input, tiny graphs ================================ */
static int msg_names_edge(const char *msg, int32_t u, int32_t v)
{
    char want[64];
    snprintf(want, sizeof want, "%d->%d", (int)u, (int)v);
    return strstr(msg, want) != NULL;
}

static void test_bad_input(void)
{
    pair p;
    float dist[8];
    int32_t pred[8];
    dg_sssp_options opt;
    dg_sssp_stats st;
    dg_status s;
    int i;

    reseed(1);
    CHECK(dg_sssp(NULL, 0, dist, NULL) == DG_ERR_INVALID_ARGUMENT);
    if (!pair_create(&p, 64, 0, W_INT)) return;
    pair_add_vertices(&p, 5);
    pair_add_edge(&p, 0, 1, 2.0f);
    pair_add_edge(&p, 1, 2, 3.0f);
    pair_add_edge(&p, 2, 0, 4.0f);
    pair_add_edge(&p, 0, 2, 9.0f);
    pair_add_edge(&p, 3, 3, 1.0f);

    s = dg_sssp(p.g, -1, dist, NULL);
    CHECK_MSG(s == DG_ERR_INVALID_ARGUMENT, "source -1: %s", dg_status_string(s));
    CHECK(dg_error_message(p.g)[0] != '\0');
    s = dg_sssp(p.g, -12345, dist, NULL);
    CHECK_MSG(s == DG_ERR_INVALID_ARGUMENT, "source -12345: %s", dg_status_string(s));
    s = dg_sssp(p.g, 5, dist, NULL);                    /* == id bound */
    CHECK_MSG(s == DG_ERR_NOT_FOUND, "source = bound: %s", dg_status_string(s));
    CHECK(dg_error_message(p.g)[0] != '\0');
    s = dg_sssp(p.g, 0x7fffffff, dist, NULL);
    CHECK_MSG(s == DG_ERR_NOT_FOUND, "source INT32_MAX: %s", dg_status_string(s));

    memset(&opt, 0, sizeof opt);
    opt.strategy = (dg_sssp_strategy)99;
    s = dg_sssp(p.g, 0, dist, &opt);
    CHECK_MSG(s == DG_ERR_INVALID_ARGUMENT, "strategy 99: %s", dg_status_string(s));
    CHECK(dg_error_message(p.g)[0] != '\0');
    opt.strategy = (dg_sssp_strategy)(DG_SSSP_NEAR_FAR + 1);
    s = dg_sssp(p.g, 0, dist, &opt);
    CHECK_MSG(s == DG_ERR_INVALID_ARGUMENT, "strategy NEAR_FAR+1: %s", dg_status_string(s));
    opt.strategy = (dg_sssp_strategy)-1;
    s = dg_sssp(p.g, 0, dist, &opt);
    CHECK_MSG(s == DG_ERR_INVALID_ARGUMENT, "strategy -1: %s", dg_status_string(s));

    /* bad deltas, for NEAR_FAR and AUTO (which runs NEAR_FAR) */
    {
        static const dg_sssp_strategy strs[] = { DG_SSSP_NEAR_FAR, DG_SSSP_AUTO };
        const float bad_deltas[] = { -1.0f, -1e-30f, -INFINITY, NAN };
        size_t a, b;
        for (a = 0; a < 2; a++)
            for (b = 0; b < sizeof bad_deltas / sizeof bad_deltas[0]; b++) {
                memset(&opt, 0, sizeof opt);
                opt.strategy = strs[a];
                opt.delta = bad_deltas[b];
                s = dg_sssp(p.g, 0, dist, &opt);
                CHECK_MSG(s == DG_ERR_INVALID_ARGUMENT, "strategy %d, delta %g: %s", (int)strs[a],
                          (double)bad_deltas[b], dg_status_string(s));
                CHECK(dg_error_message(p.g)[0] != '\0');
            }
    }
    /* negative_weights with the strategies that cannot take them (no negative weight here) */
    memset(&opt, 0, sizeof opt);
    opt.negative_weights = 1;
    opt.strategy = DG_SSSP_FRONTIER;
    s = dg_sssp(p.g, 0, dist, &opt);
    CHECK_MSG(s == DG_ERR_INVALID_ARGUMENT, "FRONTIER with negative_weights: %s", dg_status_string(s));
    CHECK(dg_error_message(p.g)[0] != '\0');
    opt.strategy = DG_SSSP_NEAR_FAR;
    s = dg_sssp(p.g, 0, dist, &opt);
    CHECK_MSG(s == DG_ERR_INVALID_ARGUMENT, "NEAR_FAR with negative_weights: %s", dg_status_string(s));

    /* the graph still works after the failures; opt NULL; dist only */
    for (i = 0; i < 8; i++) dist[i] = -7.0f;
    s = dg_sssp(p.g, 0, dist, NULL);
    CHECK_MSG(s == DG_OK, "dg_sssp after errors: %s: %s", dg_status_string(s), dg_error_message(p.g));
    CHECK_MSG(dist[0] == 0 && dist[1] == 2 && dist[2] == 5 && isinf(dist[3]) && isinf(dist[4]),
              "dist %g %g %g %g %g", (double)dist[0], (double)dist[1], (double)dist[2], (double)dist[3],
              (double)dist[4]);
    s = dg_sssp(p.g, 3, dist, NULL);                    /* a self-loop only */
    CHECK(s == DG_OK && dist[3] == 0 && isinf(dist[0]) && isinf(dist[1]) && isinf(dist[2]) && isinf(dist[4]));

    /* dist NULL with pred; dist NULL with stats only */
    memset(&opt, 0, sizeof opt);
    for (i = 0; i < 8; i++) pred[i] = -7;
    opt.pred = pred;
    opt.stats = &st;
    s = dg_sssp(p.g, 1, NULL, &opt);
    CHECK_MSG(s == DG_OK, "dist NULL, pred given: %s: %s", dg_status_string(s), dg_error_message(p.g));
    CHECK_MSG(pred[1] == 1 && pred[2] == 1 && pred[0] == 2 && pred[3] == -1 && pred[4] == -1,
              "pred %d %d %d %d %d", (int)pred[0], (int)pred[1], (int)pred[2], (int)pred[3], (int)pred[4]);
    CHECK(st.vertices_reached == 3 && st.strategy == DG_SSSP_NEAR_FAR);
    opt.pred = NULL;
    memset(&st, 0, sizeof st);
    s = dg_sssp(p.g, 4, NULL, &opt);
    CHECK_MSG(s == DG_OK, "dist NULL, stats only: %s: %s", dg_status_string(s), dg_error_message(p.g));
    CHECK(st.vertices_reached == 1 && st.strategy == DG_SSSP_NEAR_FAR);
    memset(&st, 0, sizeof st);
    opt.strategy = DG_SSSP_BELLMAN_FORD;
    s = dg_sssp(p.g, 0, NULL, &opt);
    CHECK_MSG(s == DG_OK, "dist NULL, stats only (BELLMAN_FORD): %s", dg_status_string(s));
    CHECK(st.vertices_reached == 3 && st.strategy == DG_SSSP_BELLMAN_FORD && st.updates >= 2 &&
          st.relaxations >= st.updates && st.iterations > 0);
    /* nothing at all asked for: still a valid call */
    s = dg_sssp(p.g, 0, NULL, NULL);
    CHECK_MSG(s == DG_OK, "dist NULL, opt NULL: %s", dg_status_string(s));

    /* removed source, every strategy */
    pair_remove_vertex(&p, 1);
    for (i = 0; i <= (int)DG_SSSP_NEAR_FAR; i++) {
        memset(&opt, 0, sizeof opt);
        opt.strategy = (dg_sssp_strategy)i;
        s = dg_sssp(p.g, 1, dist, &opt);
        CHECK_MSG(s == DG_ERR_NOT_FOUND, "removed source (strategy %d): %s", i, dg_status_string(s));
    }
    for (i = 0; i < 8; i++) dist[i] = -7.0f;
    s = dg_sssp(p.g, 2, dist, NULL);
    CHECK(s == DG_OK && dist[2] == 0 && dist[0] == 4 && isinf(dist[1]) && isinf(dist[3]) && isinf(dist[4]));
    pair_free(&p);

    /* an empty graph: no source exists */
    if (!pair_create(&p, 0, 1, W_INT)) return;
    s = dg_sssp(p.g, 0, dist, NULL);
    CHECK_MSG(s == DG_ERR_NOT_FOUND, "empty graph, source 0: %s", dg_status_string(s));
    s = dg_sssp(p.g, 0, NULL, NULL);
    CHECK_MSG(s == DG_ERR_NOT_FOUND, "empty graph, source 0, dist NULL: %s", dg_status_string(s));
    pair_free(&p);
}

/* one vertex; a source without out-edges; -0.0 weights; every variant and mode */
static void test_tiny(void)
{
    pair p;
    int32_t srcs[2];
    int fails = 0;
    reseed(2);
    /* a single vertex, then with a self-loop */
    if (!pair_create(&p, 64, 0, W_INT)) return;
    pair_add_vertices(&p, 1);
    srcs[0] = 0;
    fails += check_sources(p.g, &p.m, srcs, 1, 0, 1, 1.0f, "1 vertex");
    pair_add_edge(&p, 0, 0, 5.0f);
    fails += check_sources(p.g, &p.m, srcs, 1, 0, 1, 1.0f, "1 vertex, self-loop");
    pair_free(&p);

    /* a source without out-edges in a graph with edges (an in-star), directed and undirected */
    if (!pair_create(&p, 64, 0, W_INT)) return;
    pair_add_vertices(&p, 40);
    {
        int32_t v;
        for (v = 1; v < 40; v++) pair_add_edge(&p, v, 0, (float)v);
        for (v = 1; v + 1 < 40; v++) pair_add_edge(&p, v, v + 1, 1.0f);
    }
    srcs[0] = 0;
    srcs[1] = 39;          /* out-edge to 0 only */
    fails += check_sources(p.g, &p.m, srcs, 2, 0, 1, 1.0f, "in-star, source without out-edges");
    {   /* explicitly: dist[source] = 0, the rest INFINITY, pred only the source */
        float dist[40];
        int32_t pred[40], v;
        dg_sssp_options opt;
        dg_sssp_stats st;
        dg_status s;
        int i;
        for (i = 0; i <= (int)DG_SSSP_NEAR_FAR; i++) {
            int bad = 0;
            memset(&opt, 0, sizeof opt);
            opt.strategy = (dg_sssp_strategy)i;
            opt.pred = pred;
            opt.stats = &st;
            s = sssp_guarded(p.g, 0, dist, &opt, "in-star centre");
            CHECK_MSG(s == DG_OK, "in-star centre, strategy %d: %s", i, dg_status_string(s));
            for (v = 0; v < 40; v++)
                if (v == 0 ? (dist[v] != 0 || pred[v] != 0) : (!isinf(dist[v]) || pred[v] != -1)) bad++;
            CHECK_MSG(bad == 0 && st.vertices_reached == 1, "in-star centre, strategy %d: %d wrong entries, "
                      "%llu reached", i, bad, (unsigned long long)st.vertices_reached);
        }
    }
    pair_free(&p);

    /* -0.0 is not a negative weight: accepted, and a zero on the path */
    if (!pair_create(&p, 64, 0, W_REAL)) return;
    pair_add_vertices(&p, 4);
    pair_add_edge(&p, 0, 1, -0.0f);
    pair_add_edge(&p, 1, 2, 0.5f);
    pair_add_edge(&p, 2, 3, -0.0f);
    srcs[0] = 0;
    fails += check_sources(p.g, &p.m, srcs, 1, 0, 1, 1.0f, "weights -0.0");
    pair_free(&p);
    if (fails) fprintf(stderr, "test_sssp: [tiny graphs] %d failing runs\n", fails);
}

/* ================================ random graphs ================================ */
typedef struct {
    const char *name;
    uint32_t page_size;
    int undirected;
    int kind;
    int32_t vertices;
    int32_t isolated;             /* the last `isolated` vertices get no edge */
    size_t random_edges;
    int hubs;
    int32_t hub_degree;           /* out-edges of each hub (and as many random in-edges) */
    int shape;                    /* 0 random, 1 path, 2 grid, 3 two components, 4 zero cycles */
    int32_t remove;               /* vertices removed at the end */
    int batch;                    /* edges through dg_add_edges (else dg_add_edge) */
} gspec;

/* page sizes: directed 64 and 1024, undirected 128 and 1024 (see PAGE SIZES above) */
static const gspec GRAPHS[] = {
    { "tiny random", 64, 0, W_INT, 9, 0, 14, 0, 0, 0, 0, 0 },
    { "small random", 128, 1, W_REAL, 60, 5, 200, 0, 0, 0, 0, 1 },
    { "path of 200", 64, 0, W_INT, 200, 0, 0, 0, 0, 1, 0, 0 },
    { "random 4000, hub of 5000 out-edges (p64)", 64, 0, W_INT, 4000, 50, 8000, 1, 5000, 0, 100, 1 },
    { "random 2000 real, hub of 3000 (p64)", 64, 0, W_REAL, 2000, 20, 5000, 1, 3000, 0, 40, 1 },
    { "random 1500 unweighted, hubs (p64)", 64, 0, W_UNIT, 1500, 30, 3000, 2, 1500, 0, 30, 1 },
    { "random 1500 undirected real, hub (p128)", 128, 1, W_REAL, 1500, 40, 3000, 1, 2000, 0, 60, 1 },
    { "random 1000 undirected unweighted (p128)", 128, 1, W_UNIT, 1000, 10, 2500, 1, 800, 0, 10, 0 },
    { "zero-weight ties 800 (p64)", 64, 0, W_TIES, 800, 10, 3000, 0, 0, 4, 20, 1 },
    { "zero-weight ties 600 undirected (p1024)", 1024, 1, W_TIES, 600, 10, 2000, 1, 600, 4, 0, 1 },
    { "grid 40x40 real (p1024)", 1024, 1, W_REAL, 1600, 0, 0, 0, 0, 2, 0, 1 },
    { "two components (p1024)", 1024, 0, W_INT, 1200, 0, 3000, 0, 0, 3, 0, 1 },
    { "random 3000 real, hubs of 2500 (p1024)", 1024, 0, W_REAL, 3000, 100, 6000, 2, 2500, 0, 50, 1 },
    { "random 2000 undirected int, hub (p1024)", 1024, 1, W_INT, 2000, 30, 4000, 1, 2500, 0, 30, 0 },
};
#define NGRAPHS ((int)(sizeof GRAPHS / sizeof GRAPHS[0]))

static void build_graph(pair *p, const gspec *gs)
{
    edge_list el = { NULL, 0, 0 };
    size_t i;
    int32_t v, n = gs->vertices, live = gs->vertices - gs->isolated;
    int h;
#define PUSH(a, b) do { dg_edge *e_ = el_add(&el, (a), (b)); e_->weight = rweight(p->kind); } while (0)
    pair_add_vertices(p, (size_t)n);
    switch (gs->shape) {
    case 1: for (v = 0; v + 1 < live; v++) PUSH(v, v + 1); break;
    case 2: {
        int32_t side = 1;
        while ((side + 1) * (side + 1) <= live) side++;
        for (v = 0; v < side * side; v++) {
            if ((v + 1) % side) PUSH(v, v + 1);
            if (v + side < side * side) PUSH(v, v + side);
        }
        break;
    }
    case 4: /* zero-weight cycles of 2..5 vertices hung off random vertices */
        for (v = 0; v + 5 < live; v += 6) {
            int32_t k, len = 2 + (int32_t)rnd(4);
            for (k = 0; k < len; k++) {
                PUSH(v + k, v + (k + 1) % len);
                el.e[el.n - 1].weight = 0.0f;
            }
        }
        break;
    default: break;
    }
    for (i = 0; i < gs->random_edges; i++) {
        int32_t a = (int32_t)rnd((uint32_t)live), b = (int32_t)rnd((uint32_t)live);
        if (gs->shape == 3) {           /* halves that never meet */
            int32_t half = live / 2;
            a = (int32_t)rnd((uint32_t)half);
            b = (int32_t)rnd((uint32_t)half);
            if (chance(50)) { a += half; b += half; }
        }
        if (chance(1)) b = a;           /* self-loops */
        PUSH(a, b);
    }
    for (h = 0; h < gs->hubs; h++) {
        int32_t hub = (int32_t)rnd((uint32_t)live), k;
        for (k = 0; k < gs->hub_degree; k++) {
            PUSH(hub, (int32_t)rnd((uint32_t)live));
            if (k % 4 == 0) PUSH((int32_t)rnd((uint32_t)live), hub);
        }
    }
#undef PUSH
    if (gs->batch) {
        pair_add_in_batches(p, el.e, el.n);
    } else {
        for (i = 0; i < el.n; i++)
            if (!m_has(&p->m, el.e[i].src, el.e[i].dst))
                pair_add_edge(p, el.e[i].src, el.e[i].dst, el.e[i].weight);
    }
    free(el.e);
    check_hub_pages(p, gs->hubs, gs->hub_degree, gs->name);
    pair_remove_random(p, gs->remove);
}

/* unweighted graphs: dg_sssp equals dg_bfs's hop counts */
static void check_equals_bfs(dg_graph *g, const model *m, int32_t src, const char *label)
{
    size_t bound = (size_t)m->bound, v, bad = 0, first = 0;
    int32_t *hops = (int32_t *)xmalloc((bound + 1) * sizeof(int32_t));
    float *dist = (float *)xmalloc((bound + 1) * sizeof(float));
    dg_status s1 = dg_bfs(g, src, hops, NULL), s2;
    char where[400];
    snprintf(where, sizeof where, "[%s] source %d, AUTO vs dg_bfs", label, (int)src);
    s2 = sssp_guarded(g, src, dist, NULL, where);
    CHECK_MSG(s1 == DG_OK && s2 == DG_OK, "%s: %s, %s", where, dg_status_string(s1), dg_status_string(s2));
    if (s1 == DG_OK && s2 == DG_OK) {
        for (v = 0; v < bound; v++) {
            float want = hops[v] < 0 ? INFINITY : (float)hops[v];
            if (dist[v] != want) { if (!bad++) first = v; }
        }
        CHECK_MSG(bad == 0, "%s: %zu differences; first: dist[%zu] = %g, hops %d", where, bad, first,
                  bad ? (double)dist[first] : 0.0, bad ? (int)hops[first] : 0);
    }
    free(hops);
    free(dist);
}

static void test_graphs(void)
{
    int gi;
    reseed(3);
    for (gi = 0; gi < NGRAPHS; gi++) {
        const gspec *gs = &GRAPHS[gi];
        pair p;
        int32_t srcs[4];
        int nsrc = 0, fails;
        char label[256];
        double t0 = now_s();
        snprintf(label, sizeof label, "%s, %s, %s", gs->name, gs->undirected ? "undirected" : "directed",
                 KIND_NAMES[gs->kind]);
        if (!pair_create(&p, gs->page_size, gs->undirected, gs->kind)) continue;
        build_graph(&p, gs);
        if (!pair_matches(&p, label)) { pair_free(&p); continue; }
        srcs[nsrc++] = m_random_source(&p.m, 1);
        srcs[nsrc++] = m_max_degree(&p.m);
        if (p.m.bound > 2) srcs[nsrc++] = m_random_source(&p.m, 0);
        if (gs->isolated) srcs[nsrc++] = gs->vertices - 1;     /* isolated (or removed: then skipped) */
        if (!p.m.alive[srcs[nsrc - 1]]) nsrc--;
        /* every variant from the first source, three random ones from the others; the path
           with unscaled deltas (a bucket per vertex) */
        {
            float sc = gs->shape == 1 ? 1.0f : kind_delta_scale(gs->kind);
            fails = check_sources(p.g, &p.m, srcs, 1, 0, kind_exact(gs->kind), sc, label);
            fails += check_sources(p.g, &p.m, srcs + 1, nsrc - 1, 3, kind_exact(gs->kind), sc, label);
        }
        if (gs->kind == W_UNIT) check_equals_bfs(p.g, &p.m, srcs[0], label);
        if (fails) fprintf(stderr, "test_sssp: [%s] %d failing runs\n", label, fails);
        printf("test_sssp: [%s] %.1f s\n", label, now_s() - t0);
        pair_free(&p);
    }
}

/* ================================ weights changed only ================================ */
/* new weights for every edge (one dg_set_weight per edge), then a search */
static void reweight_all(pair *p)
{
    int32_t u;
    size_t k;
    for (u = 0; u < p->m.bound; u++) {
        if (!p->m.alive[u]) continue;
        for (k = 0; k < p->m.out[u].n; k++) {
            int32_t v = p->m.out[u].a[k].v;
            float w;
            if (p->m.undirected && v < u) continue;       /* once per undirected edge */
            w = rweight(p->kind);
            if (chance(30)) w = p->kind == W_REAL ? w * 0.01f : (float)(1 + rnd(3));  /* lower, often */
            pair_set_weight(p, u, v, w);
        }
    }
}

static void test_weights_only(void)
{
    static const struct { uint32_t page_size; int undirected, kind; int32_t n; size_t edges; const char *name; } CASES[] = {
        { 64, 0, W_INT, 1500, 5000, "reweight, directed, weights 1..255, hub (p64)" },
        { 128, 1, W_REAL, 1200, 3500, "reweight, undirected, real weights, hub (p128)" },
    };
    size_t ci;
    reseed(4);
    for (ci = 0; ci < sizeof CASES / sizeof CASES[0]; ci++) {
        pair p;
        dg_edge *e;
        size_t i, ne = CASES[ci].edges + 1200;
        int round, fails = 0;
        int32_t src;
        float *prev = NULL;
        double t0 = now_s();
        const char *label = CASES[ci].name;
        if (!pair_create(&p, CASES[ci].page_size, CASES[ci].undirected, CASES[ci].kind)) continue;
        pair_add_vertices(&p, (size_t)CASES[ci].n);
        e = (dg_edge *)xmalloc(ne * sizeof(dg_edge));
        for (i = 0; i < ne; i++) {
            e[i].src = i < 1200 ? 3 : (int32_t)rnd((uint32_t)CASES[ci].n);   /* vertex 3: a hub */
            e[i].dst = (int32_t)rnd((uint32_t)CASES[ci].n);
            e[i].weight = rweight(p.kind);
        }
        pair_add_batch(&p, e, ne);
        free(e);
        src = 3;
        for (round = 0; round < 6; round++) {
            /* round 0: before any change; then every strategy once after new weights */
            static const int VI[] = { 0, 2, 3, 4, 6, 0 };
            refinfo ri;
            char lab[300];
            int vi = VI[round];
            if (round) {
                reweight_all(&p);
                if (round % 2 == 0) {
                    dg_status s = dg_sync(p.g);
                    CHECK_MSG(s == DG_OK, "[%s] dg_sync: %s", label, dg_status_string(s));
                }
            }
            snprintf(lab, sizeof lab, "%s, round %d", label, round);
            ref_compute(&ri, &p.m, src, kind_exact(p.kind), 0, kind_delta_scale(p.kind));
            if (prev) {   /* the new weights matter: some distance changed */
                int32_t v;
                int changed = 0;
                for (v = 0; v < p.m.bound; v++) if (prev[v] != ri.ref[v]) changed = 1;
                CHECK_MSG(changed, "[%s] test setup: the new weights change no distance", lab);
            } else {
                prev = (float *)xmalloc(((size_t)p.m.bound + 1) * sizeof(float));
            }
            memcpy(prev, ri.ref, (size_t)p.m.bound * sizeof(float));
            if (!check_sssp(p.g, &ri, vi, MODE_DIST_PRED, lab)) fails++;
            ref_release(&ri);
        }
        pair_matches(&p, label);
        free(prev);
        if (fails) fprintf(stderr, "test_sssp: [%s] %d failing runs\n", label, fails);
        printf("test_sssp: [%s] %.1f s\n", label, now_s() - t0);
        pair_free(&p);
    }

    {   /* by hand: a shortcut made cheap, then dear, in a hub's last continuation page */
        pair p;
        float dist[400];
        int32_t v, last = -1;
        dg_status s;
        int strat;
        if (!pair_create(&p, 64, 0, W_INT)) return;
        pair_add_vertices(&p, 400);
        for (v = 1; v < 400; v++) pair_add_edge(&p, v - 1, v, 1.0f);       /* a path: dist[v] = v */
        for (v = 2; v < 400; v++) pair_add_edge(&p, 0, v, 5000.0f);        /* hub 0 (7 pages), too dear */
        last = 399;
        for (strat = 0; strat <= (int)DG_SSSP_NEAR_FAR; strat++) {
            dg_sssp_options opt;
            memset(&opt, 0, sizeof opt);
            opt.strategy = (dg_sssp_strategy)strat;
            pair_set_weight(&p, 0, last, (float)(1 + strat));            /* a shortcut to the end */
            s = sssp_guarded(p.g, 0, dist, &opt, "hub shortcut");
            CHECK_MSG(s == DG_OK && dist[last] == (float)(1 + strat) && dist[last - 1] == (float)(last - 1),
                      "hub shortcut, strategy %d: %s, dist[%d] = %g, expected %d", strat, dg_status_string(s),
                      (int)last, (double)dist[last], 1 + strat);
            pair_set_weight(&p, 0, last, 5000.0f);                        /* and gone again */
            s = sssp_guarded(p.g, 0, dist, &opt, "hub shortcut removed");
            CHECK_MSG(s == DG_OK && dist[last] == (float)last, "hub shortcut gone, strategy %d: %s, dist[%d] = %g, "
                      "expected %d", strat, dg_status_string(s), (int)last, (double)dist[last], (int)last);
        }
        pair_free(&p);
    }
}

/* ================================ negative weights ================================ */
/* The edge named in a message "... u->v ...": 1 if found */
static int msg_edge(const char *msg, int32_t *u, int32_t *v)
{
    const char *a = strstr(msg, "->");
    const char *b;
    long x, y;
    char *end;
    if (!a) return 0;
    b = a;
    while (b > msg && isdigit((unsigned char)b[-1])) b--;
    if (b == a) return 0;
    x = strtol(b, NULL, 10);
    y = strtol(a + 2, &end, 10);
    if (end == a + 2) return 0;
    *u = (int32_t)x;
    *v = (int32_t)y;
    return 1;
}

/* Every strategy with default options refuses the negative weight of u->v, naming it */
static void expect_refused(pair *p, int32_t src, int32_t u, int32_t v, const char *label)
{
    int i;
    for (i = 0; i <= (int)DG_SSSP_NEAR_FAR + 1; i++) {
        float *dist = (float *)xmalloc(((size_t)p->m.bound + 1) * sizeof(float));
        dg_sssp_options opt;
        dg_status s;
        char where[400];
        memset(&opt, 0, sizeof opt);
        opt.strategy = i <= (int)DG_SSSP_NEAR_FAR ? (dg_sssp_strategy)i : DG_SSSP_AUTO;
        snprintf(where, sizeof where, "[%s] source %d, strategy %d%s", label, (int)src, (int)opt.strategy,
                 i > (int)DG_SSSP_NEAR_FAR ? " (opt NULL)" : "");
        s = sssp_guarded(p->g, src, dist, i > (int)DG_SSSP_NEAR_FAR ? NULL : &opt, where);
        CHECK_MSG(s == DG_ERR_INVALID_ARGUMENT, "%s: %s, expected DG_ERR_INVALID_ARGUMENT (negative weight on "
                  "%d->%d)", where, dg_status_string(s), (int)u, (int)v);
        if (s == DG_ERR_INVALID_ARGUMENT)
            CHECK_MSG(msg_names_edge(dg_error_message(p->g), u, v), "%s: message \"%s\" does not name %d->%d",
                      where, dg_error_message(p->g), (int)u, (int)v);
        free(dist);
    }
}

/* random integer potentials: w(u,v) = base + p[u] - p[v] with base >= 0 has no negative cycle */
static float pot_weight(const int32_t *pot, int32_t u, int32_t v, int32_t base)
{
    return (float)(base + pot[u] - pot[v]);
}

/* the variants that take negative_weights, every mode, from src; returns failing runs */
static int check_negative(dg_graph *g, const model *m, int32_t src, const char *label)
{
    refinfo ri;
    size_t k;
    int mode, fails = 0;
    ref_compute(&ri, m, src, 1, 1, 1.0f);
    for (k = 0; k < sizeof NEG_VARIANTS / sizeof NEG_VARIANTS[0]; k++)
        for (mode = 0; mode < 4; mode++)
            if (!check_sssp(g, &ri, NEG_VARIANTS[k], mode, label)) fails++;
    ref_release(&ri);
    return fails;
}

static void test_negative(void)
{
    pair p;
    int fails = 0;
    int32_t v;
    reseed(5);

    /* one negative edge, reachable; then fixed, then negative again (the check is not stale) */
    if (pair_create(&p, 64, 0, W_INT)) {
        const int32_t U = 1234, V = 567;
        float dist[1500];
        dg_status s;
        pair_add_vertices(&p, 1500);
        for (v = 1; v < 1500; v++) pair_add_edge(&p, (int32_t)rnd((uint32_t)v), v, rweight(W_INT));
        {
            int32_t src = 0;
            s = sssp_guarded(p.g, src, dist, NULL, "one negative edge: before");
            CHECK_MSG(s == DG_OK, "one negative edge: first search: %s", dg_status_string(s));
            if (!m_has(&p.m, U, V)) pair_add_edge(&p, U, V, -3.0f);
            else pair_set_weight(&p, U, V, -3.0f);
            expect_refused(&p, src, U, V, "one negative edge, reachable");
            expect_refused(&p, 1499, U, V, "one negative edge, not reachable from the source (a leaf)");
            fails += check_negative(p.g, &p.m, src, "one negative edge, negative_weights");
            /* negative_weights with FRONTIER / NEAR_FAR: refused */
            {
                dg_sssp_options opt;
                memset(&opt, 0, sizeof opt);
                opt.negative_weights = 1;
                opt.strategy = DG_SSSP_FRONTIER;
                s = dg_sssp(p.g, src, dist, &opt);
                CHECK_MSG(s == DG_ERR_INVALID_ARGUMENT, "negative_weights with FRONTIER: %s", dg_status_string(s));
                opt.strategy = DG_SSSP_NEAR_FAR;
                s = dg_sssp(p.g, src, dist, &opt);
                CHECK_MSG(s == DG_ERR_INVALID_ARGUMENT, "negative_weights with NEAR_FAR: %s", dg_status_string(s));
                opt.delta = 2.0f;
                s = dg_sssp(p.g, src, dist, &opt);
                CHECK_MSG(s == DG_ERR_INVALID_ARGUMENT, "negative_weights with NEAR_FAR, delta 2: %s",
                          dg_status_string(s));
            }
            pair_set_weight(&p, U, V, 4.0f);
            fails += check_sources(p.g, &p.m, &src, 1, 0, 1, 32.0f, "negative edge made positive");
            pair_set_weight(&p, U, V, -1.0f);
            expect_refused(&p, src, U, V, "negative again after a successful search");
            s = dg_remove_edge(p.g, U, V);
            CHECK(s == DG_OK);
            if (s == DG_OK) m_remove_edge(&p.m, U, V);
            fails += check_sources(p.g, &p.m, &src, 1, 3, 1, 32.0f, "negative edge removed");
            /* a negative edge added to a hub's continuation page */
            for (v = 2; v < 600; v++) if (!m_has(&p.m, 1, v)) pair_add_edge(&p, 1, v, 100.0f);
            s = sssp_guarded(p.g, src, dist, NULL, "hub, before its negative edge");
            CHECK(s == DG_OK);
            if (!m_has(&p.m, 1, 1400)) pair_add_edge(&p, 1, 1400, -0.5f);
            else pair_set_weight(&p, 1, 1400, -0.5f);
            expect_refused(&p, src, 1, 1400, "negative edge at the end of a hub's list");
            fails += check_negative(p.g, &p.m, src, "hub with a negative edge, negative_weights");
        }
        pair_free(&p);
    }

    /* random graphs with negative weights and no negative cycle: potentials (cycles of every
       kind, zero-weight ones included), and a DAG with any weights */
    {
        static const struct { uint32_t page_size; int32_t n; size_t edges; int dag; const char *name; } CASES[] = {
            { 64, 800, 3000, 0, "negative weights by potentials, 800 (p64)" },
            { 1024, 1500, 5000, 0, "negative weights by potentials, 1500, hub (p1024)" },
            { 64, 1000, 4000, 1, "DAG with weights -50..50, 1000 (p64)" },
        };
        size_t ci, i;
        for (ci = 0; ci < sizeof CASES / sizeof CASES[0]; ci++) {
            int32_t n = CASES[ci].n, *pot = (int32_t *)xmalloc((size_t)n * sizeof(int32_t));
            dg_edge *e = (dg_edge *)xmalloc((CASES[ci].edges + 2000) * sizeof(dg_edge));
            size_t ne = 0;
            int32_t srcs[3];
            int k;
            double t0 = now_s();
            if (!pair_create(&p, CASES[ci].page_size, 0, W_INT)) { free(pot); free(e); continue; }
            pair_add_vertices(&p, (size_t)n);
            for (v = 0; v < n; v++) pot[v] = (int32_t)rnd(61);
            for (i = 0; i < CASES[ci].edges; i++) {
                int32_t a = (int32_t)rnd((uint32_t)n), b = (int32_t)rnd((uint32_t)n);
                if (CASES[ci].dag) {
                    if (a == b) continue;
                    if (a > b) { int32_t t = a; a = b; b = t; }
                    e[ne].weight = (float)((int32_t)rnd(101) - 50);
                } else {
                    e[ne].weight = pot_weight(pot, a, b, chance(10) ? 0 : (int32_t)rnd(21));
                }
                e[ne].src = a;
                e[ne].dst = b;
                ne++;
            }
            if (CASES[ci].page_size == 1024 && !CASES[ci].dag)
                for (i = 0; i < 2000; i++) {                   /* a hub, vertex 5 */
                    int32_t b = (int32_t)rnd((uint32_t)n);
                    e[ne].src = 5; e[ne].dst = b; e[ne].weight = pot_weight(pot, 5, b, (int32_t)rnd(21)); ne++;
                }
            pair_add_batch(&p, e, ne);
            pair_matches(&p, CASES[ci].name);
            srcs[0] = CASES[ci].dag ? 0 : m_random_source(&p.m, 1);
            srcs[1] = m_max_degree(&p.m);
            srcs[2] = m_random_source(&p.m, 1);
            for (k = 0; k < 3; k++) {
                refinfo ri;
                ref_compute(&ri, &p.m, srcs[k], 1, 1, 1.0f);
                CHECK_MSG(!ri.neg_cycle, "[%s] test setup: a negative cycle", CASES[ci].name);
                ref_release(&ri);
                fails += check_negative(p.g, &p.m, srcs[k], CASES[ci].name);
            }
            {   /* and by default: refused, naming a negative edge */
                float *dist = (float *)xmalloc(((size_t)n + 1) * sizeof(float));
                int32_t a = -1, b = -1;
                dg_status s = sssp_guarded(p.g, srcs[0], dist, NULL, CASES[ci].name);
                CHECK_MSG(s == DG_ERR_INVALID_ARGUMENT, "[%s] default options: %s", CASES[ci].name,
                          dg_status_string(s));
                CHECK_MSG(msg_edge(dg_error_message(p.g), &a, &b) && m_has(&p.m, a, b) && m_weight(&p.m, a, b) < 0,
                          "[%s] the message \"%s\" names no negative edge", CASES[ci].name, dg_error_message(p.g));
                free(dist);
            }
            printf("test_sssp: [%s] %.1f s\n", CASES[ci].name, now_s() - t0);
            pair_free(&p);
            free(pot);
            free(e);
        }
    }

    /* small reachable negative cycles: a 3-cycle, a negative self-loop, an undirected negative
       edge (u->v->u); then the cycle broken */
    if (pair_create(&p, 64, 0, W_INT)) {
        int32_t src = 0;
        pair_add_vertices(&p, 10);
        pair_add_edge(&p, 0, 1, 2.0f);
        pair_add_edge(&p, 1, 2, 1.0f);
        pair_add_edge(&p, 2, 3, -2.0f);
        pair_add_edge(&p, 3, 1, 0.0f);      /* 1 -> 2 -> 3 -> 1: -1 */
        pair_add_edge(&p, 3, 4, 7.0f);
        pair_add_edge(&p, 5, 6, 1.0f);
        fails += check_negative(p.g, &p.m, src, "3-cycle of weight -1");
        pair_set_weight(&p, 3, 1, 1.0f);    /* weight 0: no longer negative */
        fails += check_negative(p.g, &p.m, src, "3-cycle of weight 0");
        pair_add_edge(&p, 4, 4, -0.5f);
        fails += check_negative(p.g, &p.m, src, "negative self-loop");
        fails += check_negative(p.g, &p.m, 5, "negative self-loop, not reachable");
        pair_free(&p);
    }
    if (pair_create(&p, 128, 1, W_INT)) {
        pair_add_vertices(&p, 6);
        pair_add_edge(&p, 0, 1, 2.0f);
        pair_add_edge(&p, 1, 2, 3.0f);
        pair_add_edge(&p, 3, 4, -1.0f);
        pair_add_edge(&p, 4, 5, 1.0f);
        expect_refused(&p, 0, 3, 4, "undirected, a negative edge not reachable");
        fails += check_negative(p.g, &p.m, 0, "undirected, a negative edge not reachable, negative_weights");
        fails += check_negative(p.g, &p.m, 5, "undirected, a negative edge reachable (u->v->u is a negative cycle)");
        pair_free(&p);
    }

    /* 2000 vertices: a negative cycle 1500 arcs from the source (a path 1499 -> 1498 -> ... -> 0,
       descending ids so that a pass in id order advances one arc, with arcs back up the path
       only; a cloud 1500..1989 entered from the path and never left; the cycle 1990..1999
       entered from 0): found within ~n passes, promptly. Then the only arc into the cycle
       removed: DG_OK, the cycle unreachable. */
    if (pair_create(&p, 64, 0, W_INT)) {
        const int32_t n = 2000, c0 = 1990;
        int32_t *pot = (int32_t *)xmalloc((size_t)n * sizeof(int32_t));
        dg_edge *e = (dg_edge *)xmalloc(8000 * sizeof(dg_edge));
        size_t ne = 0, i;
        int k;
        pair_add_vertices(&p, (size_t)n);
        for (v = 0; v < n; v++) pot[v] = (int32_t)rnd(61);
        for (v = 1; v < 1500; v++) { e[ne].src = v; e[ne].dst = v - 1; e[ne].weight = pot_weight(pot, v, v - 1, 1); ne++; }
        for (i = 0; i < 5000; i++) {
            int32_t a, b;
            if (i < 3000) {                          /* back up the path */
                b = 1 + (int32_t)rnd(1499);
                a = (int32_t)rnd((uint32_t)b);
            } else if (i < 4500) {                   /* inside the cloud */
                a = 1500 + (int32_t)rnd((uint32_t)(c0 - 1500));
                b = 1500 + (int32_t)rnd((uint32_t)(c0 - 1500));
            } else {                                 /* path -> cloud */
                a = (int32_t)rnd(1500);
                b = 1500 + (int32_t)rnd((uint32_t)(c0 - 1500));
            }
            e[ne].src = a; e[ne].dst = b; e[ne].weight = pot_weight(pot, a, b, (int32_t)rnd(20)); ne++;
        }
        pair_add_batch(&p, e, ne);
        ne = 0;
        for (v = c0; v < n; v++) {          /* the cycle c0 .. n-1: weight 9 - 10 = -1 */
            e[ne].src = v; e[ne].dst = v + 1 < n ? v + 1 : c0; e[ne].weight = v + 1 < n ? 1.0f : -10.0f; ne++;
        }
        e[ne].src = 0; e[ne].dst = c0; e[ne].weight = 3.0f; ne++;
        pair_add_batch(&p, e, ne);
        for (k = 0; k < 2; k++) {
            refinfo ri;
            double t0;
            int vi = NEG_VARIANTS[k], ok;
            char lab[200];
            snprintf(lab, sizeof lab, "2000 vertices, a negative cycle 1500 arcs away");
            ref_compute(&ri, &p.m, 1499, 1, 1, 1.0f);
            CHECK_MSG(ri.neg_cycle, "[%s] test setup: no negative cycle found by the reference", lab);
            CHECK(dg_sync(p.g) == DG_OK);
            t0 = now_s();
            ok = check_sssp(p.g, &ri, vi, MODE_DIST_PRED, lab);
            t0 = now_s() - t0;
            printf("test_sssp: [%s] %s: %.2f s\n", lab, VARIANTS[vi].name, t0);
            CHECK_MSG(t0 < 20.0, "[%s] %s took %.1f s", lab, VARIANTS[vi].name, t0);
            if (!ok) fails++;
            ref_release(&ri);
        }
        {
            dg_status s = dg_remove_edge(p.g, 0, c0);
            CHECK(s == DG_OK);
            if (s == DG_OK) m_remove_edge(&p.m, 0, c0);
            fails += check_negative(p.g, &p.m, 1499, "2000 vertices, the negative cycle cut off");
        }
        free(pot);
        free(e);
        pair_free(&p);
    }
    if (fails) fprintf(stderr, "test_sssp: [negative weights] %d failing runs\n", fails);
}

/* ================================ datasets ================================ */
/* The reference of a dataset: its arcs as ds_read reads them (tdata.h, independent of dg_load),
   repeated arcs keeping the smallest weight (as dg_load documents). */
static void m_from_arcs(model *m, const ds_arcs *a)
{
    size_t k;
    m_init(m, 0, 1);
    while (m->bound < a->bound) m_add_vertex(m);
    for (k = 0; k < a->n; k++) {
        long i = m_find(m, a->src[k], a->dst[k]);
        if (i < 0) { arc_push(m, a->src[k], a->dst[k], a->w[k]); m->nedges++; }
        else if (a->w[k] < m->out[a->src[k]].a[i].w) m->out[a->src[k]].a[i].w = a->w[k];
    }
}

/* the loaded graph has exactly the arcs of the reference, weights within 1e-6 (dg_load parses
   decimals itself); then the reference takes the library's weights */
static void compare_loaded(dg_graph *g, model *m, const char *label)
{
    int32_t u;
    size_t k, missing = 0, wrong = 0;
    CHECK_MSG(dg_vertex_id_bound(g) == (size_t)m->bound && dg_edge_count(g) == m->nedges,
              "[%s] loaded %zu ids, %zu edges; reference %d, %zu", label, dg_vertex_id_bound(g),
              dg_edge_count(g), (int)m->bound, m->nedges);
    for (u = 0; u < m->bound; u++)
        for (k = 0; k < m->out[u].n; k++) {
            float w;
            if (dg_edge_weight(g, u, m->out[u].a[k].v, &w) != DG_OK) { missing++; continue; }
            if (!(fabs((double)w - (double)m->out[u].a[k].w) <= 1e-6 * fabs((double)m->out[u].a[k].w))) wrong++;
            m->out[u].a[k].w = w;
        }
    CHECK_MSG(missing == 0 && wrong == 0, "[%s] %zu arcs missing, %zu weights differ from the file", label,
              missing, wrong);
}

/* The reference of a dataset (m_from_arcs), checked to have the size the file has, and three
   sources: 0, a random vertex with out-edges and the one of the largest degree. 0 if it has
   fewer than 3 vertices (ref is then freed). */
static int read_reference(const char *file, int32_t bound, size_t arcs, model *ref, int32_t *srcs)
{
    char path[1024];
    ds_arcs a;
    CHECK_MSG(ds_read(ds_path(path, sizeof path, file), &a), "%s: cannot read", path);
    m_from_arcs(ref, &a);
    ds_free(&a);
    CHECK_MSG(ref->bound == bound && ref->nedges == arcs, "%s: %d vertices, %zu arcs", path, (int)ref->bound,
              ref->nedges);
    if (ref->bound < 3) { m_free(ref); return 0; }
    srcs[0] = 0;
    srcs[1] = m_random_source(ref, 1);
    srcs[2] = m_max_degree(ref);
    return 1;
}

/* The dataset loaded unweighted, against ref with unit weights: `count` random variants from
   each of srcs[0..nsrc-1], then dg_sssp == dg_bfs from bfs_src. Returns the failing runs. */
static int check_unweighted(const char *file, const model *ref, const int32_t *srcs, int nsrc, int count,
                            int32_t bfs_src, const char *name)
{
    char load_label[64], label[64];
    model unit;
    dg_graph *g;
    int32_t u;
    size_t k;
    int fails;
    snprintf(load_label, sizeof load_label, "%s unweighted", name);
    snprintf(label, sizeof label, "%s, unweighted", name);
    if ((g = ds_load(file, 0, 0, load_label)) == NULL) return 0;
    m_init(&unit, 0, 0);
    for (u = 0; u < ref->bound; u++) m_add_vertex(&unit);
    for (u = 0; u < ref->bound; u++)
        for (k = 0; k < ref->out[u].n; k++) m_add_edge(&unit, u, ref->out[u].a[k].v, 1.0f);
    compare_loaded(g, &unit, load_label);
    fails = check_sources(g, &unit, srcs, nsrc, count, 1, 1.0f, label);
    check_equals_bfs(g, &unit, bfs_src, label);
    m_free(&unit);
    dg_destroy(g);
    return fails;
}

static void test_rome(void)
{
    const char *file = "dimacs9/rome99.gr";
    model ref;
    dg_graph *g;
    int32_t srcs[3];
    int fails = 0;
    double t0 = now_s();
    reseed(6);
    if (!read_reference(file, 3353, 8859, &ref, srcs)) return;

    /* weighted, directed: every variant, deltas scaled x400 (weights 1..12711, mean ~ 1000:
       200 and 1200 are still narrow buckets) */
    if ((g = ds_load(file, 0, 1, "rome99 weighted")) != NULL) {
        compare_loaded(g, &ref, "rome99 weighted");
        fails += check_sources(g, &ref, srcs, 1, 0, 1, 400.0f, "rome99, weighted");
        fails += check_sources(g, &ref, srcs + 1, 2, 4, 1, 400.0f, "rome99, weighted");
        dg_destroy(g);
    }
    printf("test_sssp: [rome99 weighted] %.1f s\n", now_s() - t0);
    /* unweighted: unit weights, == BFS */
    fails += check_unweighted(file, &ref, srcs, 2, 4, srcs[0], "rome99");
    /* undirected, weighted: the reference is the graph as loaded (the file's two directions of
       a road merge into one edge), checked to be symmetric */
    {
        if ((g = ds_load(file, 1, 1, "rome99 undirected")) != NULL) {
            model um;
            int32_t u;
            size_t k, asym = 0, missing = 0;
            m_from_graph(&um, g, 1, 1);
            for (u = 0; u < um.bound; u++)
                for (k = 0; k < um.out[u].n; k++) {
                    float w = m_weight(&um, um.out[u].a[k].v, u);
                    if (!(w == um.out[u].a[k].w)) asym++;
                }
            for (u = 0; u < ref.bound; u++)
                for (k = 0; k < ref.out[u].n; k++) if (!m_has(&um, u, ref.out[u].a[k].v)) missing++;
            CHECK_MSG(asym == 0 && missing == 0, "[rome99 undirected] %zu asymmetric arcs, %zu file arcs missing",
                      asym, missing);
            fails += check_sources(g, &um, srcs + 1, 1, 4, 1, 400.0f, "rome99, undirected");
            m_free(&um);
            dg_destroy(g);
        }
    }
    m_free(&ref);
    if (fails) fprintf(stderr, "test_sssp: [rome99] %d failing runs\n", fails);
    printf("test_sssp: [rome99] %.1f s\n", now_s() - t0);
}

static void test_mtx(void)
{
    const char *file = "suitesparse/bips98_606.mtx";
    model ref;
    dg_graph *g;
    int32_t srcs[3];
    int fails = 0, k;
    double t0 = now_s();
    reseed(7);
    if (!read_reference(file, 7135, 34738, &ref, srcs)) return;
    if ((g = ds_load(file, 0, 1, "bips98 weighted")) != NULL) {
        float *dist = (float *)xmalloc(((size_t)ref.bound + 1) * sizeof(float));
        dg_status s;
        int32_t a = -1, b = -1;
        compare_loaded(g, &ref, "bips98 weighted");
        /* negative weights: refused by default, naming a negative edge */
        s = sssp_guarded(g, srcs[0], dist, NULL, "bips98, default options");
        CHECK_MSG(s == DG_ERR_INVALID_ARGUMENT, "[bips98] default options: %s", dg_status_string(s));
        CHECK_MSG(msg_edge(dg_error_message(g), &a, &b) && m_has(&ref, a, b) && m_weight(&ref, a, b) < 0,
                  "[bips98] the message \"%s\" names no negative edge", dg_error_message(g));
        /* negative_weights: a negative cycle (negative diagonal entries) or correct distances */
        for (k = 0; k < 3; k++) {
            refinfo ri;
            ref_compute(&ri, &ref, srcs[k], 0, 1, 1.0f);
            printf("test_sssp: [bips98, negative_weights] source %d: %s\n", (int)srcs[k],
                   ri.neg_cycle ? "a negative cycle is reachable" : "no negative cycle reachable");
            if (!check_sssp(g, &ri, k == 1 ? 2 : 0, k == 2 ? MODE_DIST_PRED : MODE_DIST, "bips98, negative_weights"))
                fails++;
            ref_release(&ri);
        }
        /* |w|: every weight set, then every variant (deltas x4: 2, 12, 4e9) */
        {
            int32_t u;
            size_t j;
            for (u = 0; u < ref.bound; u++)
                for (j = 0; j < ref.out[u].n; j++) {
                    float w = fabsf(ref.out[u].a[j].w);
                    s = dg_set_weight(g, u, ref.out[u].a[j].v, w);
                    if (s != DG_OK) { CHECK_MSG(0, "[bips98] dg_set_weight(%d, %d): %s", (int)u,
                                                (int)ref.out[u].a[j].v, dg_status_string(s)); break; }
                    ref.out[u].a[j].w = w;
                }
            fails += check_sources(g, &ref, srcs, 1, 0, 0, 4.0f, "bips98, |w|");
            fails += check_sources(g, &ref, srcs + 1, 2, 3, 0, 4.0f, "bips98, |w|");
        }
        free(dist);
        dg_destroy(g);
    }
    printf("test_sssp: [bips98 weighted] %.1f s\n", now_s() - t0);
    fails += check_unweighted(file, &ref, srcs, 3, 3, srcs[2], "bips98");
    m_free(&ref);
    if (fails) fprintf(stderr, "test_sssp: [bips98] %d failing runs\n", fails);
    printf("test_sssp: [bips98] %.1f s\n", now_s() - t0);
}

/* ================================ mutations ================================ */
typedef struct { int32_t u, v; } removed_edge;

/* One random mutation on the library and the model; *ok cleared on a mismatch of return codes
   (the model then no longer describes the graph: the sequence stops). */
static void mutate_once(pair *p, int32_t hub, removed_edge *gone, size_t *ngone, int *ok)
{
    model *m = &p->m;
    int op = (int)rnd(100);
    dg_status s;
    int32_t u = m_random_live(m), v = m_random_live(m);
    if (u < 0 || m->nalive < 4) op = 70;                      /* add vertices */
    if (op < 22) {                                             /* add an edge with a weight */
        float w = rweight(p->kind);
        if (chance(30) && m_live(m, hub)) { if (chance(60)) u = hub; else v = hub; }
        mutate_add_edge(p, u, v, w, ok);
    } else if (op < 36) {                                      /* remove an edge, mostly present ones */
        if (m->out[u].n && chance(85)) v = m->out[u].a[rnd((uint32_t)m->out[u].n)].v;
        if (mutate_remove_edge(p, u, v, ok)) {
            if (*ngone < 64) { gone[*ngone].u = u; gone[*ngone].v = v; (*ngone)++; }
            else { size_t i = rnd(64); gone[i].u = u; gone[i].v = v; }
        }
    } else if (op < 58) {                                      /* set a weight: raise or lower */
        float w, old;
        if (chance(40) && m_live(m, hub) && m->out[hub].n) u = hub;
        if (!m->out[u].n || chance(5)) {                       /* an absent edge: NOT_FOUND */
            if (m_has(m, u, v)) return;
            s = dg_set_weight(p->g, u, v, 1.0f);
            CHECK_MSG(s == DG_ERR_NOT_FOUND, "dg_set_weight(%d, %d) on no edge: %s", (int)u, (int)v,
                      dg_status_string(s));
            if (s != DG_ERR_NOT_FOUND) *ok = 0;
            return;
        }
        v = m->out[u].a[rnd((uint32_t)m->out[u].n)].v;
        old = m_weight(m, u, v);
        if (p->kind == W_REAL) w = chance(50) ? old * rreal() : old + rreal();
        else if (p->kind == W_TIES) w = (float)rnd(3);
        else w = chance(50) ? (float)rnd((uint32_t)old + 1) : old + (float)(1 + rnd(200));
        s = dg_set_weight(p->g, u, v, w);
        CHECK_MSG(s == DG_OK, "dg_set_weight(%d, %d, %g): %s", (int)u, (int)v, (double)w, dg_status_string(s));
        if (s != DG_OK) { *ok = 0; return; }
        m_set_weight(m, u, v, w);
    } else if (op < 64) {                                      /* remove a vertex (the hub rarely) */
        mutate_remove_vertex(p, u, hub, ok);
    } else if (op < 74) {                                      /* add a vertex, often with edges */
        mutate_add_vertex(p, rweight, ok);
    } else if (op < 86) {                                      /* re-add a removed edge, a new weight */
        size_t i;
        float w = rweight(p->kind);
        if (!*ngone) return;
        i = rnd((uint32_t)*ngone);
        u = gone[i].u;
        v = gone[i].v;
        gone[i] = gone[--*ngone];
        if (!m_live(m, u) || !m_live(m, v)) return;
        mutate_add_edge(p, u, v, w, ok);
    } else if (op < 92) {                                      /* edit an edge (keeps the weight) */
        if (!m->out[u].n) return;
        mutate_edit_edge(p, u, m->out[u].a[rnd((uint32_t)m->out[u].n)].v, v, ok);
    } else {                                                   /* a batch of edges, hub-heavy at times */
        size_t n = 1 + rnd(chance(20) ? 400 : 40);
        dg_edge *e = random_batch(p, hub, n, rweight);
        if (!pair_add_batch(p, e, n)) *ok = 0;
        free(e);
    }
}

static void run_mutations(unsigned part, int undirected, uint32_t page_size, int kind, int rounds)
{
    pair p;
    char label[256];
    const int32_t hub = 7;
    int round, ok = 1, fails = 0;
    removed_edge gone[64];
    size_t ngone = 0;
    double t0 = now_s();
    reseed(part);
    snprintf(label, sizeof label, "mutations, %s, %s, page size %u", undirected ? "undirected" : "directed",
             KIND_NAMES[kind], (unsigned)page_size);
    if (!pair_create(&p, page_size, undirected, kind)) return;
    pair_mutation_start(&p, hub, 4, rweight);      /* a start: random edges and a hub of several pages */
    for (round = 0; round < rounds && ok; round++) {
        int k, nmut = 1 + (int)rnd(chance(10) ? 40 : 8);
        int32_t src;
        refinfo ri;
        char lab[300];
        for (k = 0; k < nmut && ok; k++) mutate_once(&p, hub, gone, &ngone, &ok);
        if (!ok) break;
        snprintf(lab, sizeof lab, "%s, round %d", label, round);
        if (round % 10 == 9 ? !pair_matches(&p, lab) :
            (dg_edge_count(p.g) != p.m.nedges || dg_vertex_count(p.g) != p.m.nalive)) {
            CHECK_MSG(0, "[%s] the model no longer matches the graph", lab);
            break;
        }
        src = chance(20) && m_live(&p.m, hub) ? hub : m_random_live(&p.m);
        maybe_sync(&p, lab);
        ref_compute(&ri, &p.m, src, kind_exact(kind), 0, kind_delta_scale(kind));
        if (round % 25 == 24) {
            int vi;
            for (vi = 0; vi < NVARIANTS; vi++) if (!check_sssp(p.g, &ri, vi, (vi + round) % 4, lab)) fails++;
        } else {
            if (!check_sssp(p.g, &ri, (int)rnd(NVARIANTS), (int)rnd(4), lab)) fails++;
        }
        /* a vertex reached just now removed: INFINITY at once */
        if (chance(25)) {
            int32_t x = -1;
            int t;
            for (t = 0; t < 50 && x < 0; t++) {
                int32_t y = m_random_live(&p.m);
                if (y != src && y != hub && ri.ref[y] != INFINITY) x = y;
            }
            ref_release(&ri);
            if (x >= 0) {
                char lab2[400];
                pair_remove_vertex(&p, x);
                snprintf(lab2, sizeof lab2, "%s, reached vertex %d removed", lab, (int)x);
                ref_compute(&ri, &p.m, src, kind_exact(kind), 0, kind_delta_scale(kind));
                if (!check_sssp(p.g, &ri, (int)rnd(NVARIANTS), (int)rnd(2), lab2)) fails++;
                ref_release(&ri);
            }
        } else {
            ref_release(&ri);
        }
        /* a removed source */
        if (chance(20)) {
            int32_t dead = m_random_removed(&p.m);
            if (dead >= 0) {
                float *d = (float *)xmalloc(((size_t)p.m.bound + 1) * sizeof(float));
                dg_sssp_options opt;
                dg_status s;
                memset(&opt, 0, sizeof opt);
                opt.strategy = (dg_sssp_strategy)rnd(4);
                s = sssp_guarded(p.g, dead, d, &opt, lab);
                CHECK_MSG(s == DG_ERR_NOT_FOUND, "[%s] removed source %d: %s", lab, (int)dead, dg_status_string(s));
                free(d);
            }
        }
        if (fails > 5) break;       /* the graph is known to be off: stop flooding */
    }
    pair_matches(&p, label);
    {
        dg_status s = dg_validate(p.g);
        CHECK_MSG(s == DG_OK, "[%s] dg_validate: %s", label, dg_error_message(p.g));
    }
    if (fails) fprintf(stderr, "test_sssp: [%s] %d failing runs\n", label, fails);
    printf("test_sssp: [%s] %d rounds, %.1f s\n", label, round, now_s() - t0);
    pair_free(&p);
}

/* ================================ main ================================ */
static double w0;                 /* the start, for the progress lines */

/* ================================ deep near-far ================================ */
/* High-diameter graphs (a 5-wide grid, a long path, a path through hubs whose lists are cut
   into pieces) with near-far's deep launches (dg_sssp_nf's turns in one launch): one group
   (what PoCL runs), two and three groups (on PoCL they may or may not run at once: either way
   the answer must be right), three groups that give up waiting at once (a barrier aborts: the
   search starts again without deep launches), a deep launch cut after 5 turns (the ordinary
   launches go on from there), and none; then early exit at the farthest vertex, with its path.
   The default hook must finish the grid in the deep launch (few read-backs). */
static void deep_sssp_graph(pair *p, int shape, int32_t n)
{
    edge_list el = { NULL, 0, 0 };
    int32_t v, w = 5;
    size_t i;
    pair_add_vertices(p, (size_t)n);
    if (shape == 0) for (v = 0; v + 1 < n; v++) el_add(&el, v, v + 1);
    if (shape == 1) for (v = 0; v < n; v++) {
        if (v % w + 1 < w) el_add(&el, v, v + 1);
        if (v + w < n) el_add(&el, v, v + w);
    }
    if (shape == 2) {                            /* a path of n - 3000 through a hub of 3000 */
        int32_t len = n - 3000, k;
        for (v = 0; v + 1 < len; v++) el_add(&el, v, v + 1);
        for (k = 0; k < 3000; k++) el_add(&el, len / 3, len + k);
        for (k = 0; k < 3000; k += 37) el_add(&el, len + k, 2 * len / 3);
    }
    for (i = 0; i < el.n; i++) el.e[i].weight = (float)(1 + (el.e[i].src * 7 + el.e[i].dst * 3) % 9);
    pair_add_in_batches(p, el.e, el.n);
    free(el.e);
}

static void test_deep(void)
{
    static const struct { const char *name; int shape; int32_t n; int und; } G[] = {
        { "grid 5 x 600, undirected", 1, 3000, 1 }, { "path of 2000", 0, 2000, 0 },
        { "path of 3000 through a hub of 3000, undirected", 2, 6000, 1 },
    };
    static const struct { int groups; cl_uint spins, turns; const char *name; } H[] = {
        { 0, 1u << 20, 1u << 30, "deep, 1 group" }, { 2, 1u << 20, 1u << 30, "deep, 2 groups" },
        { 3, 1u << 20, 1u << 30, "deep, 3 groups" }, { 3, 0, 1u << 30, "deep, 3 groups giving up" },
        { 0, 1u << 20, 5, "deep for 5 turns" }, { -1, 0, 1u << 30, "no deep launch" },
    };
    int gi, hi;
    for (gi = 0; gi < (int)(sizeof G / sizeof G[0]); gi++) {
        pair p;
        refinfo ri;
        int32_t t = 0, v;
        if (!pair_create(&p, 64, G[gi].und, W_INT)) continue;
        deep_sssp_graph(&p, G[gi].shape, G[gi].n);
        ref_compute(&ri, &p.m, 0, 1, 0, 1.0f);
        for (v = 0; v < p.m.bound; v++) if (ri.ref[v] != INFINITY && ri.ref[v] > ri.ref[t]) t = v;
        for (hi = 0; hi < (int)(sizeof H / sizeof H[0]); hi++) {
            char label[256];
            float *dist = (float *)xmalloc((size_t)p.m.bound * sizeof(float));
            dg_vertex path[8192];
            size_t len = 0, bad = 0;
            dg_sssp_options o;
            dg_sssp_stats st;
            dg_status s;
            dg__bfs_deep_groups = H[hi].groups;
            dg__bfs_deep_spins = H[hi].spins;
            dg__sssp_deep_turns = H[hi].turns;
            dg__sssp_flat = 0;            /* (the deep launches are the GPU kernel's) */
            snprintf(label, sizeof label, "deep: %s, %s", G[gi].name, H[hi].name);
            if (p.g->dev) p.g->dev->deep_off = 0;
            if (getenv("TEST_SSSP_SLOW")) printf("  %s (%.1f s)\n", label, now_s() - w0);
            memset(&o, 0, sizeof o);
            o.stats = &st;
            s = dg_sssp(p.g, 0, dist, &o);
            CHECK_MSG(s == DG_OK, "%s: %s", label, dg_error_message(p.g));
            for (v = 0; s == DG_OK && v < p.m.bound; v++) bad += dist[v] != ri.ref[v];
            CHECK_MSG(s == DG_OK && bad == 0, "%s: %zu distances differ from Dijkstra's", label, bad);
            if (gi == 0 && hi == 0)   /* the grid's frontier stays small: the deep launch does it all */
                CHECK_MSG(s == DG_OK && st.host_round_trips <= 3 && st.iterations > 100,
                          "%s: %u read-backs, %u relax turns (the deep launch did not run the search?)", label,
                          st.host_round_trips, st.iterations);
            if (H[hi].spins == 0 && H[hi].groups > 1)   /* (PoCL may run 3 groups at once: either way) */
                CHECK_MSG(p.g->dev->deep_off == 1 || st.host_round_trips <= 3, "%s: no abort and no deep search", label);
            /* early exit at the farthest vertex, and its path */
            if (p.g->dev) p.g->dev->deep_off = 0;
            memset(&o, 0, sizeof o);
            o.targets = &t; o.target_count = 1;
            o.path = path; o.path_capacity = sizeof path / sizeof path[0]; o.path_length = &len;
            s = dg_sssp(p.g, 0, dist, &o);
            CHECK_MSG(s == DG_OK && dist[t] == ri.ref[t] && len > 1 && path[0] == 0 && path[len - 1] == t,
                      "%s: to %d: %s, %g (reference %g), path of %zu", label, (int)t, dg_status_string(s),
                      (double)dist[t], (double)ri.ref[t], len);
            for (bad = 0, v = 0; s == DG_OK && v < p.m.bound; v++)   /* nearer: exact; farther: exact or unreached */
                bad += ri.ref[v] < ri.ref[t] ? dist[v] != ri.ref[v] : (dist[v] != ri.ref[v] && dist[v] != INFINITY);
            CHECK_MSG(bad == 0, "%s: early exit: %zu distances wrong", label, bad);
            free(dist);
        }
        dg__bfs_deep_groups = 0;
        dg__bfs_deep_spins = 1u << 20;
        dg__sssp_deep_turns = 1u << 30;
        dg__sssp_flat = -1;
        ref_release(&ri);
        pair_free(&p);
    }
}

static void case_bad(void)
{
    test_bad_input();
    printf("test_sssp: bad input done (%.1f s)\n", now_s() - w0);
}
static void case_tiny(void)
{
    test_tiny();
    printf("test_sssp: tiny graphs done (%.1f s)\n", now_s() - w0);
}
static void case_graphs(void)
{
    test_graphs();
    printf("test_sssp: random graphs done (%.1f s, %ld searches)\n", now_s() - w0, sssp_runs);
}
static void case_weights(void)
{
    test_weights_only();
    printf("test_sssp: weights changed only done (%.1f s)\n", now_s() - w0);
}
static void case_negative(void)
{
    test_negative();
    printf("test_sssp: negative weights done (%.1f s, %ld searches)\n", now_s() - w0, sssp_runs);
}
static void case_rome(void)
{
    test_rome();
    printf("test_sssp: dataset rome99 done (%.1f s, %ld searches)\n", now_s() - w0, sssp_runs);
}
static void case_bips(void)
{
    test_mtx();
    printf("test_sssp: dataset bips98 done (%.1f s, %ld searches)\n", now_s() - w0, sssp_runs);
}
static void case_mutations(void)
{
    run_mutations(10, 0, 64, W_INT, 120);
    run_mutations(11, 1, 128, W_REAL, 100);
    run_mutations(12, 0, 1024, W_TIES, 80);
    printf("test_sssp: mutations done (%.1f s, %ld searches)\n", now_s() - w0, sssp_runs);
}
static void case_deep(void)
{
    test_deep();
    printf("test_sssp: deep near-far done (%.1f s)\n", now_s() - w0);
}
/* The flat near-far kernel (a CPU device's, so the default on PoCL) built by PoCL's optimiser
   (the other cases build with -cl-opt-disable; the default build is optimised, and only it
   showed dg_bfs's level counters wrong: test_bfs's case optimised), on one graph with a hub
   whose list spans continuation pages (the kernel walks a list by pages), against Dijkstra.
   The NEAR_FAR and AUTO variants only: PoCL's optimised build of the GPU kernels, with their
   barriers, takes minutes on a cold cache. */
static void case_optimised(void)
{
    const gspec *gs = &GRAPHS[3];
    const char *was = getenv("DYNGRAPH_CL_OPTIONS");
    char *keep = was ? (char *)malloc(strlen(was) + 1) : NULL;
    char label[256];
    int32_t srcs[2];
    int i, vi;
    pair p;
    if (keep) strcpy(keep, was);
    setenv("DYNGRAPH_CL_OPTIONS", "", 1);
    reseed(9);
    snprintf(label, sizeof label, "optimised flat kernel: %s", gs->name);
    nf_force = 1;
    if (pair_create(&p, gs->page_size, gs->undirected, gs->kind)) {
        build_graph(&p, gs);
        srcs[0] = m_max_degree(&p.m);
        srcs[1] = m_random_source(&p.m, 1);
        for (i = 0; i < 2; i++) {
            refinfo ri;
            ref_compute(&ri, &p.m, srcs[i], kind_exact(gs->kind), 0, kind_delta_scale(gs->kind));
            for (vi = 0; vi < NVARIANTS; vi++)
                if (VARIANTS[vi].strategy == DG_SSSP_NEAR_FAR || VARIANTS[vi].strategy == DG_SSSP_AUTO)
                    check_sssp(p.g, &ri, vi, (vi + i) % 4, label);
            ref_release(&ri);
        }
        pair_free(&p);
    }
    nf_force = -1;
    if (keep) setenv("DYNGRAPH_CL_OPTIONS", keep, 1); else unsetenv("DYNGRAPH_CL_OPTIONS");
    free(keep);
    printf("test_sssp: optimised done (%.1f s)\n", now_s() - w0);
}
static const tt_case cases[] = {
    { "deep", case_deep }, { "optimised", case_optimised }, { "bad", case_bad }, { "tiny", case_tiny }, { "graphs", case_graphs }, { "weights", case_weights },
    { "negative", case_negative }, { "rome", case_rome }, { "bips", case_bips }, { "mutations", case_mutations },
};

int main(int argc, char **argv)
{
    clock_t c0 = clock();
    int vi, all;
    w0 = now_s();
    if (getenv("TEST_SSSP_SLOW")) slow_s = atof(getenv("TEST_SSSP_SLOW"));
    setvbuf(stdout, NULL, _IOLBF, 0);
    seed = trand_seed(argc, argv, DEFAULT_SEED, "test_sssp");   /* each case reseeds from it */

    all = TT_RUN("test_sssp", cases);
    if (all) CHECK_MSG(nf_runs[0] > 10 && nf_runs[1] > 10, "near-far ran %ld times with the GPU's kernel, %ld with the flat one",
                       nf_runs[0], nf_runs[1]);   /* both kernels ran */
    for (vi = 0; vi < NVARIANTS; vi++) {
        if (all) CHECK_MSG(variant_counts[vi] > 0, "variant %s never ran", VARIANTS[vi].name);   /* every case ran */
        printf("test_sssp: %-22s %4d runs, %6.1f s\n", VARIANTS[vi].name, variant_counts[vi], variant_secs[vi]);
    }
    printf("test_sssp: %ld searches, %.1f s CPU, %.1f s (seed %llu)\n", sssp_runs,
           (double)(clock() - c0) / CLOCKS_PER_SEC, now_s() - w0, (unsigned long long)seed);
    return TT_SUMMARY("test_sssp");
}
