/* test_random.c - differential test of dyngraph's host-side store against a plain reference model.

   The model below is written independently of the library: per vertex an alive flag, a dynamic
   array of (neighbour, weight) out-arcs and a dynamic array of in-arc sources, all searched
   linearly. Long seeded random sequences of every mutation are applied to both; after every
   step the return codes, counts, dg_validate and the lists of the touched vertices (plus a
   random sample, and every vertex every FULL_EVERY steps) are compared.

   Usage: test_random [seed]       (the seed is printed; DG_TRACE=1 in the environment logs
                                    every operation to stderr, for cutting down a failure)

   First API edge cases (bad descs, NULL arguments, status strings, short neighbour buffers, the
   id limit, undirected specifics). Then 12 configurations, {directed, undirected} x {weighted,
   unweighted} x page size {64, 128, 1024}, of STEPS_PER_CONFIG steps each: every mutation kind,
   bad arguments (negative, removed and never-created ids, NaN weights), batches of 0..2000
   edges with repeats, present edges and now and then one bad edge. Three hub vertices take
   most batch edges in "grow" phases (degrees of ~1000-1500: large lists over 20+ pages at page
   size 64, and past one page at 1024) and lose them again in "shrink" phases, when hubs are
   also removed whole. dg_validate runs after every step; it is the main cost (O(E log E) under
   ASan), which is why the background edge count is kept near EDGE_TARGET. Last, a "bulk load
   then mutate" phase: one dg_add_edges of ~200k edges over 20k vertices into an empty graph,
   everything compared, then BULK_STEPS single mutations (dg_validate every BULK_VALIDATE_EVERY
   steps there: it costs ~0.15 s at that size), and a smaller undirected one at page size 128.

   A failing configuration stops at its first failing step and names it; rerun the seed with
   DG_TRACE=2 to get every call (and every batch) on stderr.
   Then "growth": a skewed (R-MAT) graph of 16,384 vertices, page size 1024, built by 64 or 512 host batches, or
   by single dg_add_edge calls, its lists against the edge list sorted here, and its pages against
   one batch's: the fill stays above 0.6 (dg__auto_compact).
   Then "shards": two configurations of 500 steps with the store sharded by vertex range (dg__shard_set; issue 20's
   several devices), new cuts half-way, every page's vertices of one shard (dg_validate).
   Cases (DG_TESTS=test_random:NAME, see tt.h): api, undirected, configs, bulk, growth, shards. They draw
   from one random stream in turn: a case run alone sees other draws than in a whole run. */
#ifndef TR_NAME
#define TR_NAME "test_random"   /* test_random_lh.c includes this file under another name */
#endif
#define DYNGRAPH_IMPLEMENTATION
#include "dyngraph.h"
#include "tt.h"
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>

/* ---- sizes, tuned so the whole program stays well under a minute under ASan+UBSan ---- */
#ifndef STEPS_PER_CONFIG
#define STEPS_PER_CONFIG 1000
#endif
#ifndef START_VERTICES
#define START_VERTICES 800      /* each configuration starts with this many vertices */
#endif
#ifndef FULL_EVERY
#define FULL_EVERY 50           /* compare every vertex every this many steps */
#endif
#ifndef EDGE_TARGET
#define EDGE_TARGET 2000        /* batches lean towards removal above this many edges */
#endif
#ifndef VALIDATE_EVERY
#define VALIDATE_EVERY 1        /* dg_validate after every step */
#endif
#ifndef BULK_VERTICES
#define BULK_VERTICES 20000
#endif
#ifndef BULK_EDGES
#define BULK_EDGES 200000
#endif
#ifndef BULK_STEPS
#define BULK_STEPS 3000
#endif
#ifndef BULK_VALIDATE_EVERY
#define BULK_VALIDATE_EVERY 250 /* dg_validate costs ~0.15 s at 200k edges under ASan */
#endif

/* ================================ random numbers ================================ */
#include "trand.h"

static int trace;
#define TRACE(...) do { if (trace) { fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } while (0)

/* ================================ reference model ================================ */
typedef struct { int32_t v; float w; } marc;
typedef struct { marc *a; size_t n, cap; } mlist;
typedef struct { int32_t *a; size_t n, cap; } ilist;

typedef struct {
    int undirected, weighted;
    int32_t bound;              /* ids 0..bound-1 were created */
    size_t cap;
    unsigned char *alive;
    mlist *out;                 /* out-arcs; undirected: both directions, self-loop once */
    ilist *in;                  /* sources of the arcs into each vertex */
    int32_t *alive_list, *alive_pos; size_t nalive;
    int32_t *dead_list; size_t ndead;
    size_t nedges, narcs;
} model;

static void m_init(model *m, int undirected, int weighted)
{
    memset(m, 0, sizeof *m);
    m->undirected = undirected; m->weighted = weighted;
}
static void m_free(model *m)
{
    size_t i;
    for (i = 0; i < (size_t)m->bound; i++) { free(m->out[i].a); free(m->in[i].a); }
    free(m->alive); free(m->out); free(m->in); free(m->alive_list); free(m->alive_pos); free(m->dead_list);
    memset(m, 0, sizeof *m);
}
static int32_t m_add_vertex(model *m)
{
    int32_t v = m->bound;
    if ((size_t)m->bound == m->cap) {
        size_t nc = m->cap ? m->cap * 2 : 64;
        m->alive = (unsigned char *)xrealloc(m->alive, nc);
        m->out = (mlist *)xrealloc(m->out, nc * sizeof *m->out);
        m->in = (ilist *)xrealloc(m->in, nc * sizeof *m->in);
        m->alive_list = (int32_t *)xrealloc(m->alive_list, nc * sizeof(int32_t));
        m->alive_pos = (int32_t *)xrealloc(m->alive_pos, nc * sizeof(int32_t));
        m->dead_list = (int32_t *)xrealloc(m->dead_list, nc * sizeof(int32_t));
        m->cap = nc;
    }
    m->alive[v] = 1;
    memset(&m->out[v], 0, sizeof m->out[v]);
    memset(&m->in[v], 0, sizeof m->in[v]);
    m->alive_pos[v] = (int32_t)m->nalive;
    m->alive_list[m->nalive++] = v;
    m->bound++;
    return v;
}
/* reuse_ids: the removed id v lives again, without edges */
static void m_revive(model *m, int32_t v)
{
    size_t i;
    for (i = 0; i < m->ndead && m->dead_list[i] != v; i++) {}
    if (i < m->ndead) m->dead_list[i] = m->dead_list[--m->ndead];
    m->alive[v] = 1;
    m->out[v].n = 0;
    m->in[v].n = 0;
    m->alive_pos[v] = (int32_t)m->nalive;
    m->alive_list[m->nalive++] = v;
}
static int m_valid(const model *m, int32_t v) { return v >= 0 && v < m->bound && m->alive[v]; }
static long m_find(const model *m, int32_t u, int32_t v)
{
    size_t i;
    const mlist *l = &m->out[u];
    for (i = 0; i < l->n; i++) if (l->a[i].v == v) return (long)i;
    return -1;
}
static int m_has(const model *m, int32_t u, int32_t v)
{
    return m_valid(m, u) && m_valid(m, v) && m_find(m, u, v) >= 0;
}
static float m_weight(const model *m, int32_t u, int32_t v) { return m->out[u].a[m_find(m, u, v)].w; }
static void m_arc_add(model *m, int32_t u, int32_t v, float w)
{
    mlist *l = &m->out[u];
    ilist *r = &m->in[v];
    if (l->n == l->cap) { l->cap = l->cap ? l->cap * 2 : 4; l->a = (marc *)xrealloc(l->a, l->cap * sizeof *l->a); }
    l->a[l->n].v = v; l->a[l->n].w = w; l->n++;
    if (r->n == r->cap) { r->cap = r->cap ? r->cap * 2 : 4; r->a = (int32_t *)xrealloc(r->a, r->cap * sizeof *r->a); }
    r->a[r->n++] = u;
    m->narcs++;
}
static void m_arc_del(model *m, int32_t u, int32_t v)
{
    mlist *l = &m->out[u];
    ilist *r = &m->in[v];
    long i = m_find(m, u, v);
    size_t j;
    if (i < 0) { fprintf(stderr, "model bug: arc %d->%d absent\n", u, v); exit(3); }
    l->a[i] = l->a[--l->n];
    for (j = 0; j < r->n; j++) if (r->a[j] == u) break;
    if (j == r->n) { fprintf(stderr, "model bug: in-arc %d->%d absent\n", u, v); exit(3); }
    r->a[j] = r->a[--r->n];
    m->narcs--;
}
static void m_edge_add(model *m, int32_t u, int32_t v, float w)
{
    if (!m->weighted) w = 1.0f;
    m_arc_add(m, u, v, w);
    if (m->undirected && u != v) m_arc_add(m, v, u, w);
    m->nedges++;
}
static void m_edge_del(model *m, int32_t u, int32_t v)
{
    m_arc_del(m, u, v);
    if (m->undirected && u != v) m_arc_del(m, v, u);
    m->nedges--;
}
static void m_set_weight(model *m, int32_t u, int32_t v, float w)
{
    if (!m->weighted) return;
    m->out[u].a[m_find(m, u, v)].w = w;
    if (m->undirected) m->out[v].a[m_find(m, v, u)].w = w;
}
static void m_remove_vertex(model *m, int32_t v)
{
    int32_t last;
    while (m->out[v].n) m_edge_del(m, v, m->out[v].a[m->out[v].n - 1].v);
    while (m->in[v].n) m_edge_del(m, m->in[v].a[m->in[v].n - 1], v);
    m->alive[v] = 0;
    last = m->alive_list[--m->nalive];
    m->alive_list[m->alive_pos[v]] = last;
    m->alive_pos[last] = m->alive_pos[v];
    m->dead_list[m->ndead++] = v;
}

/* ================================ scratch buffers ================================ */
static dg_vertex *sv; static float *sw; static size_t scap;
static void scratch(size_t n)
{
    if (n + 2 <= scap) return;
    scap = (n + 2) * 2;
    sv = (dg_vertex *)xrealloc(sv, scap * sizeof *sv);
    sw = (float *)xrealloc(sw, scap * sizeof *sw);
}
/* marks for set comparisons: mark[x] == stamp means "in the model's list", stamp + 1 "seen" */
static uint32_t *mark, stamp = 2; static float *markw; static size_t markcap;
static void stamp_next(size_t bound)
{
    if (bound > markcap) {
        size_t nc = bound * 2, i;
        mark = (uint32_t *)xrealloc(mark, nc * sizeof *mark);
        markw = (float *)xrealloc(markw, nc * sizeof *markw);
        for (i = markcap; i < nc; i++) { mark[i] = 0; markw[i] = 0.0f; }
        markcap = nc;
    }
    stamp += 2;
}
static int same_weight(float a, float b) { return a == b || (isnan(a) && isnan(b)); }

/* ================================ the test context ================================ */
typedef struct {
    dg_graph *g;
    model m;
    const char *name;
    long step;
    int failed_here;            /* a check failed in this configuration: stop it */
    dg_vertex hubs[3];
    int32_t *touched; size_t ntouched, ctouched;
    size_t max_large_lists, max_free_pages;
} ctx;

static void touch(ctx *c, int32_t v)
{
    if (c->ntouched == c->ctouched) {
        c->ctouched = c->ctouched ? c->ctouched * 2 : 256;
        c->touched = (int32_t *)xrealloc(c->touched, c->ctouched * sizeof *c->touched);
    }
    c->touched[c->ntouched++] = v;
}

#define FAILCTX c->name, c->step

/* Compare everything the library says about vertex id v (which may be bad) with the model. */
static void check_vertex(ctx *c, dg_vertex v)
{
    const model *m = &c->m;
    dg_graph *g = c->g;
    size_t d = 777777, k, n;
    dg_status s;
    float w;
    if (v < 0) {
        CHECK_MSG(!dg_has_vertex(g, v), "[%s step %ld] has_vertex(%d)", FAILCTX, v);
        s = dg_degree(g, v, &d);
        CHECK_MSG(s == DG_ERR_INVALID_ARGUMENT, "[%s step %ld] degree(%d) = %d", FAILCTX, v, s);
        s = dg_in_degree(g, v, &d);
        CHECK_MSG(s == DG_ERR_INVALID_ARGUMENT, "[%s step %ld] in_degree(%d) = %d", FAILCTX, v, s);
        s = dg_neighbors(g, v, NULL, NULL, 0, &d);
        CHECK_MSG(s == DG_ERR_INVALID_ARGUMENT, "[%s step %ld] neighbors(%d) = %d", FAILCTX, v, s);
        s = dg_in_neighbors(g, v, NULL, 0, &d);
        CHECK_MSG(s == DG_ERR_INVALID_ARGUMENT, "[%s step %ld] in_neighbors(%d) = %d", FAILCTX, v, s);
        return;
    }
    if (!m_valid(m, v)) {
        CHECK_MSG(!dg_has_vertex(g, v), "[%s step %ld] has_vertex(%d) of a %s vertex", FAILCTX, v,
                  v < m->bound ? "removed" : "never created");
        s = dg_degree(g, v, &d);
        CHECK_MSG(s == DG_ERR_NOT_FOUND, "[%s step %ld] degree(missing %d) = %d", FAILCTX, v, s);
        s = dg_in_degree(g, v, &d);
        CHECK_MSG(s == DG_ERR_NOT_FOUND, "[%s step %ld] in_degree(missing %d) = %d", FAILCTX, v, s);
        s = dg_neighbors(g, v, NULL, NULL, 0, &d);
        CHECK_MSG(s == DG_ERR_NOT_FOUND, "[%s step %ld] neighbors(missing %d) = %d", FAILCTX, v, s);
        s = dg_in_neighbors(g, v, NULL, 0, &d);
        CHECK_MSG(s == DG_ERR_NOT_FOUND, "[%s step %ld] in_neighbors(missing %d) = %d", FAILCTX, v, s);
        CHECK_MSG(!dg_has_edge(g, v, v), "[%s step %ld] has_edge(missing %d, itself)", FAILCTX, v);
        s = dg_edge_weight(g, v, v, &w);
        CHECK_MSG(s == DG_ERR_NOT_FOUND, "[%s step %ld] edge_weight(missing %d,%d) = %d", FAILCTX, v, v, s);
        return;
    }
    CHECK_MSG(dg_has_vertex(g, v), "[%s step %ld] has_vertex(%d) of a live vertex", FAILCTX, v);
    /* out-list */
    n = m->out[v].n;
    scratch(n > m->in[v].n ? n : m->in[v].n);
    s = dg_degree(g, v, &d);
    CHECK_MSG(s == DG_OK && d == n, "[%s step %ld] degree(%d) = %d, %zu; model %zu", FAILCTX, v, s, d, n);
    for (k = 0; k < n + 1; k++) { sv[k] = -12345; sw[k] = -12345.0f; }
    d = 777777;
    s = dg_neighbors(g, v, sv, sw, n + 1, &d);
    CHECK_MSG(s == DG_OK && d == n, "[%s step %ld] neighbors(%d) = %d, count %zu; model %zu", FAILCTX, v, s, d, n);
    if (s == DG_OK && d == n) {
        /* set comparison without sorting: mark the model's arcs, then tick off the library's */
        const char *bad = NULL;
        stamp_next(m->bound);
        for (k = 0; k < n; k++) { mark[m->out[v].a[k].v] = stamp; markw[m->out[v].a[k].v] = m->out[v].a[k].w; }
        for (k = 0; k < n && !bad; k++) {
            dg_vertex x = sv[k];
            if (x < 0 || x >= m->bound || mark[x] < stamp) bad = "a neighbour the model does not have";
            else if (mark[x] == stamp + 1) bad = "a repeated neighbour";
            else if (!same_weight(sw[k], markw[x])) bad = "a wrong weight";
            else mark[x] = stamp + 1;
        }
        CHECK_MSG(!bad, "[%s step %ld] out-list of %d (degree %zu): entry %zu (%d, %g) is %s (model weight %g)",
                  FAILCTX, v, n, k - 1, sv[k - 1], sw[k - 1], bad ? bad : "",
                  sv[k - 1] >= 0 && sv[k - 1] < m->bound ? markw[sv[k - 1]] : 0.0f);
        CHECK_MSG(sv[n] == -12345 && sw[n] == -12345.0f, "[%s step %ld] neighbors(%d) wrote past the degree", FAILCTX, v);
    }
    if (n > 1 && chance(20)) {      /* a buffer shorter than the list: a prefix of distinct, true entries */
        size_t cap = rnd((uint32_t)n);
        const char *bad = NULL;
        for (k = 0; k < n + 1; k++) { sv[k] = -12345; sw[k] = -12345.0f; }
        d = 777777;
        s = dg_neighbors(g, v, sv, chance(50) ? sw : NULL, cap, &d);
        CHECK_MSG(s == DG_OK && d == n, "[%s step %ld] neighbors(%d, capacity %zu) = %d, count %zu; degree %zu", FAILCTX,
                  v, cap, s, d, n);
        stamp_next(m->bound);
        for (k = 0; k < n; k++) { mark[m->out[v].a[k].v] = stamp; markw[m->out[v].a[k].v] = m->out[v].a[k].w; }
        for (k = 0; k < cap && !bad; k++) {
            dg_vertex x = sv[k];
            if (x < 0 || x >= m->bound || mark[x] < stamp) bad = "not a neighbour";
            else if (mark[x] == stamp + 1) bad = "repeated";
            else if (sw[k] != -12345.0f && !same_weight(sw[k], markw[x])) bad = "a wrong weight";
            else mark[x] = stamp + 1;
        }
        for (k = cap; k < n + 1 && !bad; k++) if (sv[k] != -12345 || sw[k] != -12345.0f) bad = "written past the capacity";
        CHECK_MSG(!bad, "[%s step %ld] neighbors(%d, capacity %zu < degree %zu): entry %zu %s", FAILCTX, v, cap, n, k - 1,
                  bad ? bad : "");
    }
    /* in-list */
    n = m->in[v].n;
    s = dg_in_degree(g, v, &d);
    CHECK_MSG(s == DG_OK && d == n, "[%s step %ld] in_degree(%d) = %d, %zu; model %zu", FAILCTX, v, s, d, n);
    d = 777777;
    for (k = 0; k < n + 1; k++) sv[k] = -12345;
    s = dg_in_neighbors(g, v, sv, n + 1, &d);
    CHECK_MSG(s == DG_OK && d == n, "[%s step %ld] in_neighbors(%d) = %d, count %zu; model %zu", FAILCTX, v, s, d, n);
    if (s == DG_OK && d == n) {
        const char *bad = NULL;
        stamp_next(m->bound);
        for (k = 0; k < n; k++) mark[m->in[v].a[k]] = stamp;
        for (k = 0; k < n && !bad; k++) {
            dg_vertex x = sv[k];
            if (x < 0 || x >= m->bound || mark[x] < stamp) bad = "an in-neighbour the model does not have";
            else if (mark[x] == stamp + 1) bad = "a repeated in-neighbour";
            else mark[x] = stamp + 1;
        }
        CHECK_MSG(!bad, "[%s step %ld] in-list of %d (in-degree %zu): entry %zu (%d) is %s", FAILCTX, v, n, k - 1,
                  sv[k - 1], bad ? bad : "");
        CHECK_MSG(sv[n] == -12345, "[%s step %ld] in_neighbors(%d) wrote past the degree", FAILCTX, v);
    }
    if (n > 1 && chance(20)) {
        size_t cap = rnd((uint32_t)n);
        const char *bad = NULL;
        for (k = 0; k < n + 1; k++) sv[k] = -12345;
        d = 777777;
        s = dg_in_neighbors(g, v, sv, cap, &d);
        CHECK_MSG(s == DG_OK && d == n, "[%s step %ld] in_neighbors(%d, capacity %zu) = %d, count %zu; in-degree %zu",
                  FAILCTX, v, cap, s, d, n);
        stamp_next(m->bound);
        for (k = 0; k < n; k++) mark[m->in[v].a[k]] = stamp;
        for (k = 0; k < cap && !bad; k++) {
            dg_vertex x = sv[k];
            if (x < 0 || x >= m->bound || mark[x] < stamp) bad = "not an in-neighbour";
            else if (mark[x] == stamp + 1) bad = "repeated";
            else mark[x] = stamp + 1;
        }
        for (k = cap; k < n + 1 && !bad; k++) if (sv[k] != -12345) bad = "written past the capacity";
        CHECK_MSG(!bad, "[%s step %ld] in_neighbors(%d, capacity %zu < in-degree %zu): entry %zu %s", FAILCTX, v, cap,
                  n, k - 1, bad ? bad : "");
    }
}

static void check_pair(ctx *c, dg_vertex u, dg_vertex v)
{
    const model *m = &c->m;
    float w = -999.0f;
    int has = m_has(m, u, v);
    dg_status s = dg_edge_weight(c->g, u, v, &w);
    CHECK_MSG(dg_has_edge(c->g, u, v) == has, "[%s step %ld] has_edge(%d,%d) != %d", FAILCTX, u, v, has);
    if (has) {
        float mw = m_weight(m, u, v);
        CHECK_MSG(s == DG_OK && same_weight(w, mw), "[%s step %ld] edge_weight(%d,%d) = %d, %g; model %g",
                  FAILCTX, u, v, s, w, mw);
        if (!m->weighted) CHECK(w == 1.0f);
    } else if ((u < 0 && (v < 0 || m_valid(m, v))) || (v < 0 && m_valid(m, u))) {
        CHECK_MSG(s == DG_ERR_INVALID_ARGUMENT, "[%s step %ld] edge_weight(%d,%d) = %d", FAILCTX, u, v, s);
    } else if (u < 0 || v < 0) {    /* one negative, the other missing: either check may come first */
        CHECK_MSG(s == DG_ERR_INVALID_ARGUMENT || s == DG_ERR_NOT_FOUND, "[%s step %ld] edge_weight(%d,%d) = %d",
                  FAILCTX, u, v, s);
    } else {
        CHECK_MSG(s == DG_ERR_NOT_FOUND, "[%s step %ld] edge_weight(%d,%d) = %d, absent edge", FAILCTX, u, v, s);
    }
}

static int32_t pick_alive(ctx *c)
{
    const model *m = &c->m;
    if (!m->nalive) return 0;
    return m->alive_list[rnd((uint32_t)m->nalive)];
}
/* a live vertex with at least one out-arc, if one is found quickly */
static int32_t pick_with_edges(ctx *c)
{
    int t;
    for (t = 0; t < 20; t++) {
        int32_t v = t < 3 && chance(30) ? c->hubs[rnd(3)] : pick_alive(c);
        if (m_valid(&c->m, v) && c->m.out[v].n) return v;
    }
    return pick_alive(c);
}
/* an id that is valid as an argument (>= 0) but names no live vertex */
static int32_t pick_missing(ctx *c)
{
    const model *m = &c->m;
    if (m->ndead && chance(60)) return m->dead_list[rnd((uint32_t)m->ndead)];
    switch (rnd(3)) {
    case 0: return m->bound;
    case 1: return m->bound + 1 + (int32_t)rnd(100);
    default: return INT32_MAX;
    }
}
static int32_t pick_negative(void)
{
    switch (rnd(3)) { case 0: return -1; case 1: return -2 - (int32_t)rnd(1000); default: return INT32_MIN; }
}
static float rand_weight(void)
{
    uint32_t r = rnd(100);
    if (r < 70) return (float)((int)rnd(4001) - 2000) / 8.0f;
    if (r < 80) return 0.0f;
    if (r < 85) return 1.0e30f;
    if (r < 90) return -1.0e-30f;
    if (r < 92) return r & 1 ? INFINITY : -INFINITY;
    return (float)rnext() / 1.0e12f;
}

/* Global consistency checks that are O(1) in the library. */
static void check_counts(ctx *c)
{
    const model *m = &c->m;
    dg_stats st;
    dg_status s;
    CHECK_MSG(dg_vertex_count(c->g) == m->nalive, "[%s step %ld] vertex_count %zu, model %zu", FAILCTX,
              dg_vertex_count(c->g), m->nalive);
    CHECK_MSG(dg_vertex_id_bound(c->g) == (size_t)m->bound, "[%s step %ld] vertex_id_bound %zu, model %d", FAILCTX,
              dg_vertex_id_bound(c->g), m->bound);
    CHECK_MSG(dg_edge_count(c->g) == m->nedges, "[%s step %ld] edge_count %zu, model %zu", FAILCTX,
              dg_edge_count(c->g), m->nedges);
    memset(&st, 0, sizeof st);
    s = dg_get_stats(c->g, &st);
    CHECK_MSG(s == DG_OK, "[%s step %ld] get_stats = %d", FAILCTX, s);
    CHECK_MSG(st.vertices == m->nalive && st.edges == m->nedges && st.arcs == m->narcs,
              "[%s step %ld] stats vertices %zu edges %zu arcs %zu; model %zu %zu %zu", FAILCTX,
              st.vertices, st.edges, st.arcs, m->nalive, m->nedges, m->narcs);
    if (m->nalive) CHECK_MSG(st.pages > 0, "[%s step %ld] stats: %zu vertices in 0 pages", FAILCTX, m->nalive);
    if (st.pages) CHECK_MSG(st.fill_ratio > 0.0 && st.fill_ratio <= 1.0, "[%s step %ld] fill_ratio %g", FAILCTX,
                            st.fill_ratio);
    CHECK_MSG(st.entries_used <= st.entries_allocated, "[%s step %ld] stats entries used %zu > allocated %zu",
              FAILCTX, st.entries_used, st.entries_allocated);
    CHECK_MSG(st.large_pages >= 2 * st.large_lists, "[%s step %ld] stats: %zu large lists in %zu pages",
              FAILCTX, st.large_lists, st.large_pages);
    if (st.large_lists > c->max_large_lists) c->max_large_lists = st.large_lists;
    if (st.free_pages > c->max_free_pages) c->max_free_pages = st.free_pages;
}

static void check_validate(ctx *c)
{
    dg_status s = dg_validate(c->g);
    CHECK_MSG(s == DG_OK, "[%s step %ld] dg_validate = %d: %s", FAILCTX, s, dg_error_message(c->g));
}

/* The checks after a step: touched vertices, a sample, random pairs; everything when full. */
static void check_step(ctx *c, int full, int validate)
{
    const model *m = &c->m;
    size_t i;
    long f0 = tt_failed;
    if (validate) check_validate(c);
    check_counts(c);
    if (full) {
        int32_t v;
        for (v = -2; v < m->bound + 2; v++) check_vertex(c, v);
    } else {
        qsort(c->touched, c->ntouched, sizeof *c->touched, cmp_i32);
        for (i = 0; i < c->ntouched; i++)
            if (i == 0 || c->touched[i] != c->touched[i - 1]) check_vertex(c, c->touched[i]);
        for (i = 0; i < 20; i++) check_vertex(c, chance(90) ? pick_alive(c) : (int32_t)rnd((uint32_t)m->bound + 3));
        check_vertex(c, pick_missing(c));
        for (i = 0; i < 3; i++) check_vertex(c, c->hubs[i]);
    }
    for (i = 0; i < 20; i++) {      /* pairs that exist */
        int32_t u = pick_with_edges(c);
        if (m_valid(m, u) && m->out[u].n) {
            int32_t v = m->out[u].a[rnd((uint32_t)m->out[u].n)].v;
            check_pair(c, u, v);
            check_pair(c, v, u);
        }
    }
    for (i = 0; i < 20; i++) {      /* random pairs, mostly absent */
        int32_t u = chance(95) ? pick_alive(c) : chance(50) ? pick_missing(c) : pick_negative();
        int32_t v = chance(95) ? pick_alive(c) : chance(50) ? pick_missing(c) : pick_negative();
        check_pair(c, u, v);
    }
    c->ntouched = 0;
    if (tt_failed != f0) c->failed_here = 1;
}

/* ================================ the operations ================================ */
enum { OP_ADD_VERTEX, OP_ADD_VERTICES, OP_REMOVE_VERTEX, OP_ADD_EDGE, OP_REMOVE_EDGE, OP_EDIT_EDGE,
       OP_SET_WEIGHT, OP_ADD_EDGES, OP_REMOVE_EDGES, OP_COUNT };
static const char *op_names[OP_COUNT] = { "add_vertex", "add_vertices", "remove_vertex", "add_edge",
    "remove_edge", "edit_edge", "set_weight", "add_edges", "remove_edges" };

#define EXPECT(cond, ...) CHECK_MSG(cond, __VA_ARGS__)

/* Fills args[0..n) with live vertices, then maybe replaces one of them by a bad id. Returns
   the status that bad id predicts (DG_OK if none): a negative id -> INVALID_ARGUMENT, a removed
   or never-created one -> NOT_FOUND. Only one argument is ever bad, so the order in which the
   library checks its arguments does not matter. */
static dg_status pick_args(ctx *c, int32_t *args, int n, int bad_percent)
{
    int i;
    for (i = 0; i < n; i++) args[i] = pick_alive(c);
    if (chance(bad_percent) || !c->m.nalive) {
        i = (int)rnd((uint32_t)n);
        if (chance(40)) { args[i] = pick_negative(); return DG_ERR_INVALID_ARGUMENT; }
        args[i] = pick_missing(c);
        return DG_ERR_NOT_FOUND;
    }
    return DG_OK;
}

static int reuse_ids;           /* configurations with dg_desc.reuse_ids */
static int shards;              /* configurations sharded by vertex range (dg__shard_set): 3 shards
                                   from the start, 4 others from half-way (pages split then) */
static void op_add_vertex(ctx *c)
{
    dg_vertex id = -5;
    int reuse = reuse_ids && c->m.ndead > 0;
    int use_null = !reuse && chance(10);
    dg_status s = dg_add_vertex(c->g, use_null ? NULL : &id);
    int32_t mid;
    TRACE("add_vertex -> %d (%d)", s, id);
    EXPECT(s == DG_OK, "[%s step %ld] add_vertex = %d", FAILCTX, s);
    if (s != DG_OK) return;
    if (reuse) {                   /* any removed id, and the id bound stays */
        EXPECT(id >= 0 && id < c->m.bound && !c->m.alive[id], "[%s step %ld] add_vertex with reuse_ids gave %d, "
               "not a removed id", FAILCTX, id);
        if (id < 0 || id >= c->m.bound || c->m.alive[id]) return;
        m_revive(&c->m, id);
        touch(c, id);
        return;
    }
    mid = m_add_vertex(&c->m);
    if (!use_null) EXPECT(id == mid, "[%s step %ld] add_vertex id %d, model %d", FAILCTX, id, mid);
    touch(c, mid);
}

static void op_add_vertices(ctx *c, size_t count)
{
    dg_vertex first = -5;
    dg_status s = dg_add_vertices(c->g, count, &first);
    size_t i;
    TRACE("add_vertices %zu -> %d, first %d", count, s, first);
    EXPECT(s == DG_OK, "[%s step %ld] add_vertices(%zu) = %d", FAILCTX, count, s);
    if (s != DG_OK) return;
    if (count) EXPECT(first == c->m.bound, "[%s step %ld] add_vertices first %d, model %d", FAILCTX, first, c->m.bound);
    for (i = 0; i < count; i++) {
        int32_t v = m_add_vertex(&c->m);
        if (i < 3 || i + 1 == count) touch(c, v);
    }
}

static void op_remove_vertex(ctx *c, int32_t v, dg_status expect)
{
    dg_status s;
    size_t i;
    if (expect == DG_OK && !m_valid(&c->m, v)) expect = v < 0 ? DG_ERR_INVALID_ARGUMENT : DG_ERR_NOT_FOUND;
    s = dg_remove_vertex(c->g, v);
    TRACE("remove_vertex %d -> %d (expect %d)", v, s, expect);
    EXPECT(s == expect, "[%s step %ld] remove_vertex(%d) = %d, expected %d", FAILCTX, v, s, expect);
    touch(c, v);
    if (s != DG_OK || expect != DG_OK) return;
    for (i = 0; i < c->m.out[v].n; i++) touch(c, c->m.out[v].a[i].v);
    for (i = 0; i < c->m.in[v].n; i++) touch(c, c->m.in[v].a[i]);
    m_remove_vertex(&c->m, v);
}

static void op_add_edge(ctx *c)
{
    int32_t a[2];
    dg_status expect = pick_args(c, a, 2, 8), s;
    float w = rand_weight();
    int nan_case = 0;
    if (expect == DG_OK) {
        uint32_t r = rnd(100);
        if (r < 10) a[1] = a[0];                                    /* self-loop */
        else if (r < 25) { a[0] = pick_with_edges(c);               /* an existing edge */
            if (c->m.out[a[0]].n) a[1] = c->m.out[a[0]].a[rnd((uint32_t)c->m.out[a[0]].n)].v;
            if (c->m.undirected && chance(50)) { int32_t t = a[0]; a[0] = a[1]; a[1] = t; } }
        else if (r < 45) { if (chance(50)) a[0] = c->hubs[rnd(3)]; else a[1] = c->hubs[rnd(3)]; }
        if (!m_valid(&c->m, a[0]) || !m_valid(&c->m, a[1])) expect = DG_ERR_NOT_FOUND;
        else if (m_has(&c->m, a[0], a[1])) expect = DG_ERR_EXISTS;
        if (chance(4)) { w = NAN; nan_case = 1; }
    }
    s = dg_add_edge(c->g, a[0], a[1], w);
    TRACE("add_edge %d %d %.9g -> %d (expect %d)", a[0], a[1], w, s, expect);
    touch(c, a[0]); touch(c, a[1]);
    if (nan_case && expect == DG_OK) {
        if (c->m.weighted) EXPECT(s == DG_ERR_INVALID_ARGUMENT, "[%s step %ld] add_edge(%d,%d,NaN) = %d",
                                  FAILCTX, a[0], a[1], s);
        else EXPECT(s == DG_ERR_INVALID_ARGUMENT || s == DG_OK,    /* unweighted: NaN ignored or rejected */
                    "[%s step %ld] add_edge(%d,%d,NaN) unweighted = %d", FAILCTX, a[0], a[1], s);
    } else if (nan_case && expect == DG_ERR_EXISTS) {
        EXPECT(s == DG_ERR_INVALID_ARGUMENT || s == DG_ERR_EXISTS,
               "[%s step %ld] add_edge(existing %d,%d,NaN) = %d", FAILCTX, a[0], a[1], s);
    } else {
        EXPECT(s == expect, "[%s step %ld] add_edge(%d,%d,%g) = %d, expected %d", FAILCTX, a[0], a[1], w, s, expect);
    }
    if (s == DG_OK && expect == DG_OK) m_edge_add(&c->m, a[0], a[1], w);
}

static void op_remove_edge(ctx *c)
{
    int32_t a[2];
    dg_status expect = pick_args(c, a, 2, 8), s;
    if (expect == DG_OK) {
        if (chance(70)) {
            a[0] = pick_with_edges(c);
            if (c->m.out[a[0]].n) a[1] = c->m.out[a[0]].a[rnd((uint32_t)c->m.out[a[0]].n)].v;
            if (c->m.undirected && chance(50)) { int32_t t = a[0]; a[0] = a[1]; a[1] = t; }
        }
        if (!m_has(&c->m, a[0], a[1])) expect = DG_ERR_NOT_FOUND;
    }
    s = dg_remove_edge(c->g, a[0], a[1]);
    TRACE("remove_edge %d %d -> %d (expect %d)", a[0], a[1], s, expect);
    EXPECT(s == expect, "[%s step %ld] remove_edge(%d,%d) = %d, expected %d", FAILCTX, a[0], a[1], s, expect);
    touch(c, a[0]); touch(c, a[1]);
    if (s == DG_OK && expect == DG_OK) m_edge_del(&c->m, a[0], a[1]);
}

static void op_edit_edge(ctx *c)
{
    int32_t a[3];
    dg_status expect = pick_args(c, a, 3, 8), s;
    int either = 0;                  /* old absent and new present: NOT_FOUND or EXISTS */
    const model *m = &c->m;
    if (expect == DG_OK) {
        uint32_t r;
        if (chance(80)) a[0] = pick_with_edges(c);
        if (chance(75) && m->out[a[0]].n) a[1] = m->out[a[0]].a[rnd((uint32_t)m->out[a[0]].n)].v;
        r = rnd(100);
        if (r < 15 && m->out[a[0]].n) a[2] = m->out[a[0]].a[rnd((uint32_t)m->out[a[0]].n)].v;
        else if (r < 25) a[2] = a[1];
        else if (r < 35) a[2] = a[0];
        else if (r < 45) a[2] = c->hubs[rnd(3)];
        if (!m_valid(m, a[0]) || !m_valid(m, a[1]) || !m_valid(m, a[2])) expect = DG_ERR_NOT_FOUND;
        else if (!m_has(m, a[0], a[1])) { expect = DG_ERR_NOT_FOUND; either = a[1] != a[2] && m_has(m, a[0], a[2]); }
        else if (a[1] != a[2] && m_has(m, a[0], a[2])) expect = DG_ERR_EXISTS;
    }
    s = dg_edit_edge(c->g, a[0], a[1], a[2]);
    TRACE("edit_edge %d %d %d -> %d (expect %d)", a[0], a[1], a[2], s, expect);
    if (either) EXPECT(s == DG_ERR_NOT_FOUND || s == DG_ERR_EXISTS, "[%s step %ld] edit_edge(%d,%d,%d) = %d",
                       FAILCTX, a[0], a[1], a[2], s);
    else EXPECT(s == expect, "[%s step %ld] edit_edge(%d,%d,%d) = %d, expected %d", FAILCTX, a[0], a[1], a[2], s, expect);
    touch(c, a[0]); touch(c, a[1]); touch(c, a[2]);
    if (s == DG_OK && expect == DG_OK && a[1] != a[2]) {
        float w = m_weight(&c->m, a[0], a[1]);
        m_edge_del(&c->m, a[0], a[1]);
        m_edge_add(&c->m, a[0], a[2], w);
    }
}

static void op_set_weight(ctx *c)
{
    int32_t a[2];
    dg_status expect = pick_args(c, a, 2, 8), s;
    float w = rand_weight();
    int nan_case = 0;
    if (expect == DG_OK) {
        if (chance(75)) {
            a[0] = pick_with_edges(c);
            if (c->m.out[a[0]].n) a[1] = c->m.out[a[0]].a[rnd((uint32_t)c->m.out[a[0]].n)].v;
            if (c->m.undirected && chance(50)) { int32_t t = a[0]; a[0] = a[1]; a[1] = t; }
        }
        if (!m_has(&c->m, a[0], a[1])) expect = DG_ERR_NOT_FOUND;
        else if (chance(4)) { w = NAN; nan_case = 1; }
    }
    s = dg_set_weight(c->g, a[0], a[1], w);
    TRACE("set_weight %d %d %.9g -> %d (expect %d)", a[0], a[1], w, s, expect);
    touch(c, a[0]); touch(c, a[1]);
    if (nan_case && c->m.weighted) expect = DG_ERR_INVALID_ARGUMENT;
    if (!c->m.weighted)   /* unweighted: a successful no-op, or refused as a bad argument */
        EXPECT(s == expect || s == DG_ERR_INVALID_ARGUMENT, "[%s step %ld] set_weight(%d,%d) unweighted = %d, expected %d",
               FAILCTX, a[0], a[1], s, expect);
    else
        EXPECT(s == expect, "[%s step %ld] set_weight(%d,%d,%g) = %d, expected %d", FAILCTX, a[0], a[1], w, s, expect);
    if (s == DG_OK && expect == DG_OK) m_set_weight(&c->m, a[0], a[1], w);
}

static size_t batch_size(void)
{
    uint32_t r = rnd(100);
    if (r < 5) return 0;
    if (r < 35) return 1 + rnd(10);
    if (r < 75) return 10 + rnd(190);
    if (r < 92) return 200 + rnd(800);
    return 1000 + rnd(1001);
}

static dg_edge *batch; static size_t batch_cap;
static void batch_reserve(size_t n)
{
    if (n <= batch_cap) return;
    batch_cap = n * 2;
    batch = (dg_edge *)xrealloc(batch, batch_cap * sizeof *batch);
}

/* one random edge of the model (or of a random vertex) into e */
static int random_existing(ctx *c, dg_edge *e)
{
    int32_t u = pick_with_edges(c);
    if (!m_valid(&c->m, u) || !c->m.out[u].n) return 0;
    e->src = u;
    e->dst = c->m.out[u].a[rnd((uint32_t)c->m.out[u].n)].v;
    if (c->m.undirected && chance(50)) { int32_t t = e->src; e->src = e->dst; e->dst = t; }
    return 1;
}

/* Injects at most one bad element into the batch; returns the status it predicts. */
static dg_status inject_bad(ctx *c, dg_edge *e, size_t n, int allow_nan)
{
    size_t i;
    uint32_t r;
    if (!n || !chance(10)) return DG_OK;
    i = rnd((uint32_t)n);
    r = rnd(100);
    if (r < 50) { if (chance(50)) e[i].src = pick_missing(c); else e[i].dst = pick_missing(c); return DG_ERR_NOT_FOUND; }
    if (r < 80 || !allow_nan || !c->m.weighted) {
        if (chance(50)) e[i].src = pick_negative(); else e[i].dst = pick_negative();
        return DG_ERR_INVALID_ARGUMENT;
    }
    {   /* NaN on the first occurrence of a new edge */
        int t;
        for (t = 0; t < 20; t++) {
            int32_t u = pick_alive(c), v = pick_alive(c);
            size_t j;
            int dup = m_has(&c->m, u, v);
            for (j = 0; j < i && !dup; j++)
                if ((e[j].src == u && e[j].dst == v) || (c->m.undirected && e[j].src == v && e[j].dst == u)) dup = 1;
            if (!dup) { e[i].src = u; e[i].dst = v; e[i].weight = NAN; return DG_ERR_INVALID_ARGUMENT; }
        }
    }
    return DG_OK;
}

static void op_add_edges(ctx *c, int grow)
{
    size_t n = batch_size(), i, added = 99999, madded = 0;
    dg_status expect, s;
    int use_null = chance(10);
    int hubpct = grow ? 65 : 10;
    batch_reserve(n + 1);
    for (i = 0; i < n; i++) {
        dg_edge *e = &batch[i];
        uint32_t r = rnd(100);
        e->weight = rand_weight();
        if (r < (uint32_t)hubpct) {
            int32_t h = c->hubs[chance(65) ? 0 : rnd(3)];   /* hub 0 gets the most */
            if (!m_valid(&c->m, h)) h = pick_alive(c);
            if (chance(50)) { e->src = h; e->dst = pick_alive(c); } else { e->src = pick_alive(c); e->dst = h; }
        } else if (r < (uint32_t)hubpct + 10 && i > 0) {      /* a repeat, maybe reversed, other weight */
            *e = batch[rnd((uint32_t)i)];
            e->weight = rand_weight();
            if (c->m.undirected && chance(50)) { int32_t t = e->src; e->src = e->dst; e->dst = t; }
        } else if (r < (uint32_t)hubpct + 20) {
            if (!random_existing(c, e)) { e->src = pick_alive(c); e->dst = pick_alive(c); }
        } else if (r < (uint32_t)hubpct + 23) {
            e->src = e->dst = pick_alive(c);
        } else {
            e->src = pick_alive(c); e->dst = pick_alive(c);
        }
    }
    expect = inject_bad(c, batch, n, 1);
    s = dg_add_edges(c->g, batch, n, use_null ? NULL : &added);
    TRACE("add_edges n=%zu -> %d (expect %d), added %zu", n, s, expect, added);
    if (trace >= 2) for (i = 0; i < n; i++) TRACE("  %d %d %.9g", batch[i].src, batch[i].dst, batch[i].weight);
    EXPECT(s == expect, "[%s step %ld] add_edges(n=%zu) = %d, expected %d", FAILCTX, n, s, expect);
    for (i = 0; i < n; i++) { touch(c, batch[i].src); touch(c, batch[i].dst); }
    if (s != DG_OK || expect != DG_OK) return;
    for (i = 0; i < n; i++)
        if (!m_has(&c->m, batch[i].src, batch[i].dst)) { m_edge_add(&c->m, batch[i].src, batch[i].dst, batch[i].weight); madded++; }
    if (!use_null) EXPECT(added == madded, "[%s step %ld] add_edges(n=%zu) added %zu, model %zu", FAILCTX, n, added, madded);
}

static void op_remove_edges(ctx *c, int shrink)
{
    size_t n = batch_size(), i, removed = 99999, mremoved = 0;
    dg_status expect, s;
    batch_reserve(n + 1);
    i = 0;
    if (shrink && n) {                  /* a slice of a hub's out- or in-list */
        int32_t h = c->hubs[rnd(3)];
        if (m_valid(&c->m, h)) {
            int in = !c->m.undirected && chance(50);
            size_t len = in ? c->m.in[h].n : c->m.out[h].n, start = rnd((uint32_t)len + 1), k;
            for (k = start; k < len && i < n * 3 / 4; k++, i++) {
                if (in) { batch[i].src = c->m.in[h].a[k]; batch[i].dst = h; }
                else { batch[i].src = h; batch[i].dst = c->m.out[h].a[k].v; }
                if (c->m.undirected && chance(30)) { int32_t t = batch[i].src; batch[i].src = batch[i].dst; batch[i].dst = t; }
                batch[i].weight = rand_weight();
            }
        }
    }
    for (; i < n; i++) {
        dg_edge *e = &batch[i];
        uint32_t r = rnd(100);
        e->weight = chance(5) ? NAN : rand_weight();      /* the weight field is ignored */
        if (r < 55) { if (!random_existing(c, e)) { e->src = pick_alive(c); e->dst = pick_alive(c); } }
        else if (r < 70 && i > 0) { *e = batch[rnd((uint32_t)i)]; if (c->m.undirected && chance(50)) { int32_t t = e->src; e->src = e->dst; e->dst = t; } }
        else { e->src = pick_alive(c); e->dst = pick_alive(c); }
    }
    /* shuffle a little so hub slices and the rest interleave */
    for (i = 0; n > 1 && i < n / 4; i++) {
        size_t x = rnd((uint32_t)n), y = rnd((uint32_t)n);
        dg_edge t = batch[x]; batch[x] = batch[y]; batch[y] = t;
    }
    expect = inject_bad(c, batch, n, 0);
    s = dg_remove_edges(c->g, batch, n, &removed);
    TRACE("remove_edges n=%zu -> %d (expect %d), removed %zu", n, s, expect, removed);
    if (trace >= 2) for (i = 0; i < n; i++) TRACE("  %d %d", batch[i].src, batch[i].dst);
    EXPECT(s == expect, "[%s step %ld] remove_edges(n=%zu) = %d, expected %d", FAILCTX, n, s, expect);
    for (i = 0; i < n; i++) { touch(c, batch[i].src); touch(c, batch[i].dst); }
    if (s != DG_OK || expect != DG_OK) return;
    for (i = 0; i < n; i++)
        if (m_has(&c->m, batch[i].src, batch[i].dst)) { m_edge_del(&c->m, batch[i].src, batch[i].dst); mremoved++; }
    EXPECT(removed == mremoved, "[%s step %ld] remove_edges(n=%zu) removed %zu, model %zu", FAILCTX, n, removed, mremoved);
}

/* ================================ configurations ================================ */
static void new_hub(ctx *c, int i)
{
    c->hubs[i] = pick_alive(c);
}

static int create_graph(ctx *c, int undirected, int weighted, uint32_t page_size)
{
    dg_desc d;
    dg_status s;
    memset(&d, 0, sizeof d);
    d.undirected = undirected; d.weighted = weighted; d.page_size = page_size;
    d.reuse_ids = reuse_ids;
    c->g = NULL;
    s = dg_create(&d, &c->g);
    CHECK_MSG(s == DG_OK && c->g, "dg_create(undirected %d, weighted %d, page %u) = %d", undirected, weighted, page_size, s);
    if (s != DG_OK || !c->g) return 0;
    {
        dg_desc q = dg_query_desc(c->g);
        CHECK(q.page_size == page_size && !!q.undirected == !!undirected && !!q.weighted == !!weighted);
    }
    m_init(&c->m, undirected, weighted);
    if (shards) {
        static const int32_t b[2] = { 230, 560 };
        s = dg__shard_set(c->g, b, 3);
        CHECK_MSG(s == DG_OK, "dg__shard_set = %d", s);
    }
    return 1;
}

static void run_config(int undirected, int weighted, uint32_t page_size, long steps)
{
    ctx cx, *c = &cx;
    char name[64];
    long opcount[OP_COUNT];
    clock_t t0 = clock();
    int i;
    size_t max_deg = 0;
    memset(c, 0, sizeof *c);
    memset(opcount, 0, sizeof opcount);
    sprintf(name, "%s %s p%u%s", undirected ? "undirected" : "directed", weighted ? "weighted" : "unweighted", page_size, reuse_ids ? " reuse_ids" : "");
    c->name = name;
    if (!create_graph(c, undirected, weighted, page_size)) return;
    TRACE("=== config %s", name);
    check_step(c, 1, 1);                            /* the empty graph */
    while (c->m.nalive < START_VERTICES && !c->failed_here) { /* a population to start with */
        op_add_vertices(c, 50);
        c->step++;
        check_step(c, 0, 1);
    }
    for (i = 0; i < 3; i++) new_hub(c, i);
    for (; c->step < steps && !c->failed_here; c->step++) {
        int grow = (c->step / 150) % 2 == 0;         /* phases: hubs grow, then shrink */
        uint32_t r = rnd(1000);
        int op;
        size_t e = c->m.nedges;
        if (r < 40) op = OP_ADD_VERTEX;
        else if (r < 70) op = OP_ADD_VERTICES;
        else if (r < 110) op = OP_REMOVE_VERTEX;
        else if (r < 370) op = OP_ADD_EDGE;
        else if (r < 500) op = OP_REMOVE_EDGE;
        else if (r < 620) op = OP_EDIT_EDGE;
        else if (r < 700) op = OP_SET_WEIGHT;
        else {          /* batches: lean towards the phase, and against growing past the target */
            size_t hub_arcs = 0, bg;
            int add;
            for (i = 0; i < 3; i++) hub_arcs += c->m.out[c->hubs[i]].n + (c->m.undirected ? 0 : c->m.in[c->hubs[i]].n);
            bg = e > hub_arcs ? e - hub_arcs : 0;      /* edges away from the hubs, roughly */
            add = grow ? chance(75) : chance(20);
            if (bg > EDGE_TARGET) add = chance(bg > 2 * EDGE_TARGET ? 5 : grow ? 40 : 10);
            if (e < EDGE_TARGET / 4) add = 1;
            op = add ? OP_ADD_EDGES : OP_REMOVE_EDGES;
        }
        if (c->m.nalive < 100 && op == OP_REMOVE_VERTEX) op = OP_ADD_VERTICES;
        if (shards && c->step == steps / 2) {        /* other cuts: the pages they fall in split */
            static const int32_t b[3] = { 101, 347, 702 };
            dg_stats before, after;
            dg_get_stats(c->g, &before);
            CHECK_MSG(dg__shard_set(c->g, b, 4) == DG_OK, "[%s] dg__shard_set half-way", name);
            dg_get_stats(c->g, &after);
            CHECK_MSG(after.pages > before.pages, "[%s] no page split at the new cuts (%zu pages)", name, after.pages);
            TRACE("shards: %zu -> %zu pages", before.pages, after.pages);
        }
        opcount[op]++;
        switch (op) {
        case OP_ADD_VERTEX: op_add_vertex(c); break;
        case OP_ADD_VERTICES: op_add_vertices(c, rnd(51)); break;
        case OP_REMOVE_VERTEX: {
            int32_t a[1];
            dg_status ex = pick_args(c, a, 1, 20);
            if (!grow && ex == DG_OK && chance(10)) {     /* now and then a hub goes, with all its edges */
                int h = (int)rnd(3);
                a[0] = c->hubs[h];
                op_remove_vertex(c, a[0], DG_OK);
                new_hub(c, h);
            } else op_remove_vertex(c, a[0], ex);
            break; }
        case OP_ADD_EDGE: op_add_edge(c); break;
        case OP_REMOVE_EDGE: op_remove_edge(c); break;
        case OP_EDIT_EDGE: op_edit_edge(c); break;
        case OP_SET_WEIGHT: op_set_weight(c); break;
        case OP_ADD_EDGES: op_add_edges(c, grow); break;
        case OP_REMOVE_EDGES: op_remove_edges(c, !grow); break;
        }
        for (i = 0; i < 3; i++) {
            if (!m_valid(&c->m, c->hubs[i])) new_hub(c, i);
            if (c->m.out[c->hubs[i]].n > max_deg) max_deg = c->m.out[c->hubs[i]].n;
            if (c->m.in[c->hubs[i]].n > max_deg) max_deg = c->m.in[c->hubs[i]].n;
        }
        check_step(c, (c->step + 1) % FULL_EVERY == 0, (c->step + 1) % VALIDATE_EVERY == 0);
        if (c->failed_here)
            fprintf(stderr, "test_random: [%s] stopped at step %ld (op %s); rerun with the same seed and DG_TRACE=1\n",
                    name, c->step, op_names[op]);
    }
    if (!c->failed_here) check_step(c, 1, 1);
    if (page_size == 64 && !c->failed_here) {
        CHECK_MSG(c->max_large_lists > 0, "[%s] no large adjacency list ever seen in dg_get_stats", name);
        CHECK_MSG(c->max_free_pages > 0, "[%s] no page ever released (dg_get_stats free_pages)", name);
    }
    printf("  %-27s %5ld steps, max degree %4zu, max large lists %zu, max free pages %zu, at the end %4zu vertices %4zu edges, %.1f s\n",
           name, c->step, max_deg, c->max_large_lists, c->max_free_pages, c->m.nalive, c->m.nedges, (double)(clock() - t0) / CLOCKS_PER_SEC);
    if (trace) {
        for (i = 0; i < OP_COUNT; i++) fprintf(stderr, "%s %ld, ", op_names[i], opcount[i]);
        fputc('\n', stderr);
    }
    dg_destroy(c->g);
    m_free(&c->m);
    free(c->touched);
}

/* ================================ bulk load, then mutate ================================ */
static void run_bulk(int undirected, uint32_t page_size, size_t nv, size_t ne, long steps)
{
    ctx cx, *c = &cx;
    char name[64];
    size_t i, added = 0, madded = 0;
    dg_status s;
    dg_vertex first = -1;
    dg_edge *e;
    clock_t t0 = clock(), t1;
    memset(c, 0, sizeof *c);
    sprintf(name, "bulk %s p%u", undirected ? "undirected" : "directed", page_size);
    c->name = name;
    if (!create_graph(c, undirected, 1, page_size)) return;
    TRACE("=== config %s", name);
    s = dg_add_vertices(c->g, nv, &first);
    TRACE("add_vertices %zu -> %d, first %d", nv, s, first);
    CHECK_MSG(s == DG_OK && first == 0, "[%s] add_vertices(%zu) = %d, first %d", name, nv, s, first);
    for (i = 0; i < nv; i++) m_add_vertex(&c->m);
    for (i = 0; i < 3; i++) c->hubs[i] = (dg_vertex)i;
    e = (dg_edge *)xcalloc(ne, sizeof *e);
    for (i = 0; i < ne; i++) {
        uint32_t r = rnd(1000);
        e[i].weight = rand_weight();
        if (r < 25) { e[i].src = 0; e[i].dst = (int32_t)rnd((uint32_t)nv); }          /* hub out */
        else if (r < 50) { e[i].src = (int32_t)rnd((uint32_t)nv); e[i].dst = 1; }     /* hub in */
        else if (r < 60 && i) { e[i] = e[rnd((uint32_t)i)]; e[i].weight = rand_weight(); } /* repeat */
        else if (r < 63) { e[i].src = e[i].dst = (int32_t)rnd((uint32_t)nv); }        /* self-loop */
        else { e[i].src = (int32_t)rnd((uint32_t)nv); e[i].dst = (int32_t)rnd((uint32_t)nv); }
    }
    s = dg_add_edges(c->g, e, ne, &added);
    t1 = clock();
    TRACE("add_edges n=%zu -> %d (expect 0), added %zu", ne, s, added);
    if (trace >= 2) for (i = 0; i < ne; i++) TRACE("  %d %d %.9g", e[i].src, e[i].dst, e[i].weight);
    for (i = 0; i < ne; i++)
        if (!m_has(&c->m, e[i].src, e[i].dst)) { m_edge_add(&c->m, e[i].src, e[i].dst, e[i].weight); madded++; }
    free(e);
    CHECK_MSG(s == DG_OK && added == madded, "[%s] bulk add_edges(%zu) = %d, added %zu, model %zu", name, ne, s, added, madded);
    check_step(c, 1, 1);
    {
        dg_stats st;
        if (dg_get_stats(c->g, &st) == DG_OK)
            printf("  %-27s loaded %zu edges in %.2f s: %zu pages, fill %.2f, %zu large lists\n", name,
                   madded, (double)(t1 - t0) / CLOCKS_PER_SEC, st.pages, st.fill_ratio, st.large_lists);
    }
    for (c->step = 1; c->step <= steps && !c->failed_here; c->step++) {
        uint32_t r = rnd(100);
        int op = r < 3 ? OP_ADD_VERTEX : r < 6 ? OP_REMOVE_VERTEX : r < 46 ? OP_ADD_EDGE : r < 71 ? OP_REMOVE_EDGE
               : r < 88 ? OP_EDIT_EDGE : OP_SET_WEIGHT;
        if (c->step == steps / 2 || c->step == steps / 2 + 1) op = OP_REMOVE_VERTEX;
        switch (op) {
        case OP_ADD_VERTEX: op_add_vertex(c); break;
        case OP_REMOVE_VERTEX: {
            int32_t a[1];
            dg_status ex = pick_args(c, a, 1, 20);
            if (c->step == steps / 2) { a[0] = 0; ex = DG_OK; }     /* the hubs go halfway */
            if (c->step == steps / 2 + 1) { a[0] = 1; ex = DG_OK; }
            op_remove_vertex(c, a[0], ex);
            break; }
        case OP_ADD_EDGE: op_add_edge(c); break;
        case OP_REMOVE_EDGE: op_remove_edge(c); break;
        case OP_EDIT_EDGE: op_edit_edge(c); break;
        default: op_set_weight(c); break;
        }
        for (i = 0; i < 3; i++) if (!m_valid(&c->m, c->hubs[i])) new_hub(c, (int)i);
        check_step(c, c->step % 1000 == 0, c->step % BULK_VALIDATE_EVERY == 0);
        if (c->failed_here)
            fprintf(stderr, "test_random: [%s] stopped at step %ld (op %s)\n", name, c->step, op_names[op]);
    }
    if (!c->failed_here) check_step(c, 1, 1);
    printf("  %-27s %ld single mutations after the load, %.1f s in all\n", name, c->step - 1,
           (double)(clock() - t0) / CLOCKS_PER_SEC);
    dg_destroy(c->g);
    m_free(&c->m);
    free(c->touched);
}

/* ================================ API edge cases ================================ */
static void *my_alloc(size_t sz, void *ud) { (void)ud; return malloc(sz); }
static void my_free(void *p, void *ud) { (void)ud; free(p); }

static void test_api(void)
{
    dg_graph *g = NULL;
    dg_desc d;
    dg_status s;
    uint32_t bad_sizes[] = { 1, 32, 63, 65, 100, 1000, 131072, 0x80000000u };
    uint32_t good_sizes[] = { 64, 128, 4096, 65536 };
    size_t i, j, cnt;
    dg_vertex first, vbuf[16];
    float wbuf[16];
    dg_edge e[4];

    /* page sizes */
    for (i = 0; i < sizeof bad_sizes / sizeof *bad_sizes; i++) {
        memset(&d, 0, sizeof d);
        d.page_size = bad_sizes[i];
        g = (dg_graph *)&d;          /* must come back NULL */
        s = dg_create(&d, &g);
        CHECK_MSG(s == DG_ERR_INVALID_ARGUMENT && g == NULL, "dg_create(page_size %u) = %d", bad_sizes[i], s);
        if (s == DG_OK && g && g != (dg_graph *)&d) dg_destroy(g);
    }
    for (i = 0; i < sizeof good_sizes / sizeof *good_sizes; i++) {
        memset(&d, 0, sizeof d);
        d.page_size = good_sizes[i];
        d.weighted = 1;
        g = NULL;
        s = dg_create(&d, &g);
        CHECK_MSG(s == DG_OK && g, "dg_create(page_size %u) = %d", good_sizes[i], s);
        if (s != DG_OK || !g) continue;
        CHECK(dg_query_desc(g).page_size == good_sizes[i]);
        CHECK(dg_add_vertices(g, 300, &first) == DG_OK && first == 0);
        for (j = 0; j < 300; j++) CHECK(dg_add_edge(g, 7, (dg_vertex)j, (float)j) == DG_OK);
        CHECK(dg_add_edge(g, 299, 7, 2.5f) == DG_OK);
        CHECK(dg_edge_count(g) == 301);
        CHECK(dg_degree(g, 7, &cnt) == DG_OK && cnt == 300);
        CHECK(dg_validate(g) == DG_OK);
        CHECK(dg_remove_vertex(g, 7) == DG_OK);
        CHECK(dg_edge_count(g) == 0 && dg_vertex_count(g) == 299 && dg_vertex_id_bound(g) == 300);
        CHECK(dg_validate(g) == DG_OK);
        dg_destroy(g);
    }
    /* defaults */
    g = NULL;
    s = dg_create(NULL, &g);
    CHECK(s == DG_OK && g);
    if (g) {
        dg_desc q = dg_query_desc(g);
        dg_stats st;
        CHECK(q.page_size == 1024 && q.undirected == 0 && q.weighted == 0);
        CHECK(dg_vertex_count(g) == 0 && dg_edge_count(g) == 0 && dg_vertex_id_bound(g) == 0);
        CHECK(dg_get_stats(g, &st) == DG_OK && st.vertices == 0 && st.edges == 0 && st.page_size == 1024);
        CHECK(dg_validate(g) == DG_OK);
        CHECK(dg_error_message(g) != NULL);
        dg_destroy(g);
    }
    memset(&d, 0, sizeof d);
    g = NULL;
    CHECK(dg_create(&d, &g) == DG_OK && g && dg_query_desc(g).page_size == 1024);
    dg_destroy(g);
    /* half an allocator */
    memset(&d, 0, sizeof d);
    d.allocator.alloc_fn = my_alloc;
    g = (dg_graph *)&d;
    CHECK(dg_create(&d, &g) == DG_ERR_INVALID_ARGUMENT && g == NULL);
    memset(&d, 0, sizeof d);
    d.allocator.free_fn = my_free;
    g = (dg_graph *)&d;
    CHECK(dg_create(&d, &g) == DG_ERR_INVALID_ARGUMENT && g == NULL);
    memset(&d, 0, sizeof d);
    d.allocator.alloc_fn = my_alloc; d.allocator.free_fn = my_free;
    g = NULL;
    CHECK(dg_create(&d, &g) == DG_OK && g);
    dg_destroy(g);
    /* NULL arguments */
    CHECK(dg_create(NULL, NULL) == DG_ERR_INVALID_ARGUMENT);
    memset(&d, 0, sizeof d);
    CHECK(dg_create(&d, NULL) == DG_ERR_INVALID_ARGUMENT);
    dg_destroy(NULL);
    CHECK(dg_error_message(NULL) != NULL && dg_error_message(NULL)[0] == '\0');
    CHECK(dg_add_vertex(NULL, &first) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_add_vertices(NULL, 3, &first) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_remove_vertex(NULL, 0) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_add_edge(NULL, 0, 0, 1.0f) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_remove_edge(NULL, 0, 0) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_edit_edge(NULL, 0, 0, 0) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_set_weight(NULL, 0, 0, 1.0f) == DG_ERR_INVALID_ARGUMENT);
    e[0].src = 0; e[0].dst = 0; e[0].weight = 1.0f;
    CHECK(dg_add_edges(NULL, e, 1, &cnt) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_remove_edges(NULL, e, 1, &cnt) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_degree(NULL, 0, &cnt) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_in_degree(NULL, 0, &cnt) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_neighbors(NULL, 0, vbuf, wbuf, 16, &cnt) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_in_neighbors(NULL, 0, vbuf, 16, &cnt) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_edge_weight(NULL, 0, 0, wbuf) == DG_ERR_INVALID_ARGUMENT);
    {
        dg_stats st;
        CHECK(dg_get_stats(NULL, &st) == DG_ERR_INVALID_ARGUMENT);
    }
    CHECK(dg_validate(NULL) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_load(NULL, "/nonexistent", DG_FORMAT_AUTO) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_vertex_count(NULL) == 0 && dg_vertex_id_bound(NULL) == 0 && dg_edge_count(NULL) == 0);
    CHECK(dg_has_vertex(NULL, 0) == 0 && dg_has_edge(NULL, 0, 0) == 0);

    memset(&d, 0, sizeof d);
    d.weighted = 1;
    g = NULL;
    if (dg_create(&d, &g) != DG_OK || !g) { CHECK(0); return; }
    CHECK(dg_add_vertex(g, NULL) == DG_OK);                     /* out_id may be NULL */
    CHECK(dg_add_vertices(g, 9, &first) == DG_OK && first == 1);
    CHECK(dg_add_vertices(g, 0, &first) == DG_OK && dg_vertex_id_bound(g) == 10);
    /* past the id limit (2^31 - 2 ids): DG_ERR_LIMIT, nothing created */
    s = dg_add_vertices(g, (size_t)INT32_MAX, &first);
    CHECK_MSG(s == DG_ERR_LIMIT, "add_vertices(INT32_MAX) = %d", s);
    s = dg_add_vertices(g, (size_t)-1, &first);
    CHECK_MSG(s == DG_ERR_LIMIT, "add_vertices(SIZE_MAX) = %d", s);
    CHECK(dg_vertex_id_bound(g) == 10 && dg_vertex_count(g) == 10);
    CHECK(dg_add_edges(g, NULL, 3, &cnt) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_remove_edges(g, NULL, 3, &cnt) == DG_ERR_INVALID_ARGUMENT);
    cnt = 5;
    s = dg_add_edges(g, NULL, 0, &cnt);                         /* nothing to add: either is fair */
    CHECK(s == DG_ERR_INVALID_ARGUMENT || (s == DG_OK && cnt == 0));
    CHECK(dg_degree(g, 0, NULL) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_in_degree(g, 0, NULL) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_edge_weight(g, 0, 0, NULL) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_get_stats(g, NULL) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_load(g, NULL, DG_FORMAT_AUTO) == DG_ERR_INVALID_ARGUMENT);
    /* a batch with added == NULL */
    for (i = 0; i < 4; i++) { e[i].src = 3; e[i].dst = (dg_vertex)(i % 3); e[i].weight = (float)i + 0.5f; }
    CHECK(dg_add_edges(g, e, 4, NULL) == DG_OK);                /* (3,0) (3,1) (3,2) (3,0): 3 edges */
    CHECK(dg_edge_count(g) == 3);
    CHECK(dg_edge_weight(g, 3, 0, wbuf) == DG_OK && wbuf[0] == 0.5f);   /* first occurrence wins */
    /* neighbours into a buffer shorter than the degree */
    for (i = 4; i < 10; i++) CHECK(dg_add_edge(g, 3, (dg_vertex)i, (float)i * 10.0f + 0.5f) == DG_OK);
    CHECK(dg_add_edge(g, 3, 3, 33.5f) == DG_OK);                /* degree 10 */
    for (i = 0; i < 16; i++) { vbuf[i] = -7; wbuf[i] = -7.0f; }
    cnt = 0;
    s = dg_neighbors(g, 3, vbuf, wbuf, 4, &cnt);
    CHECK_MSG(s == DG_OK && cnt == 10, "neighbors with capacity 4 < degree 10: %d, count %zu", s, cnt);
    for (i = 0; i < 4; i++) {
        float w = -1.0f;
        CHECK(vbuf[i] >= 0 && vbuf[i] < 10 && dg_edge_weight(g, 3, vbuf[i], &w) == DG_OK && w == wbuf[i]);
        for (j = 0; j < i; j++) CHECK(vbuf[j] != vbuf[i]);
    }
    for (i = 4; i < 16; i++) CHECK(vbuf[i] == -7 && wbuf[i] == -7.0f);
    cnt = 0;
    CHECK(dg_neighbors(g, 3, NULL, NULL, 0, &cnt) == DG_OK && cnt == 10);
    for (i = 0; i < 16; i++) { vbuf[i] = -7; wbuf[i] = -7.0f; }
    cnt = 0;
    CHECK(dg_neighbors(g, 3, vbuf, wbuf, 0, &cnt) == DG_OK && cnt == 10 && vbuf[0] == -7 && wbuf[0] == -7.0f);
    for (i = 0; i < 16; i++) vbuf[i] = -7;
    cnt = 0;
    CHECK(dg_neighbors(g, 3, vbuf, NULL, 16, &cnt) == DG_OK && cnt == 10);   /* ids only */
    {
        int32_t sorted[10];
        memcpy(sorted, vbuf, sizeof sorted);
        qsort(sorted, 10, sizeof *sorted, cmp_i32);
        for (i = 0; i < 10; i++) CHECK(sorted[i] == (int32_t)i);
        CHECK(vbuf[10] == -7);
    }
    for (i = 0; i < 16; i++) vbuf[i] = -7;
    cnt = 0;
    CHECK(dg_in_neighbors(g, 0, vbuf, 0, &cnt) == DG_OK && cnt == 1 && vbuf[0] == -7);
    CHECK(dg_in_neighbors(g, 3, vbuf, 16, &cnt) == DG_OK && cnt == 1 && vbuf[0] == 3);
    CHECK(dg_validate(g) == DG_OK);
    dg_destroy(g);

    /* status strings: every code named, distinct, never NULL */
    {
        const char *names[12];
        int k, l;
        for (k = 0; k < 12; k++) {
            names[k] = dg_status_string((dg_status)-k);
            CHECK_MSG(names[k] != NULL && names[k][0], "dg_status_string(%d)", -k);
            if (!names[k]) names[k] = "";
        }
        for (k = 0; k < 12; k++)
            for (l = 0; l < k; l++) CHECK_MSG(strcmp(names[k], names[l]) != 0, "status %d and %d share the name %s", -k, -l, names[k]);
        CHECK(strcmp(dg_status_string(DG_OK), "DG_OK") == 0);
        CHECK(strcmp(dg_status_string(DG_ERR_NOT_FOUND), "DG_ERR_NOT_FOUND") == 0);
        CHECK(dg_status_string((dg_status)-1000) != NULL);
        CHECK(dg_status_string((dg_status)5) != NULL);
    }
}

/* Undirected specifics that the random driver hits only by chance. */
static void test_undirected_basics(void)
{
    dg_graph *g = NULL;
    dg_desc d;
    size_t cnt, removed = 9, added = 9;
    dg_vertex first = -1;
    float w;
    dg_edge e[3];
    memset(&d, 0, sizeof d);
    d.undirected = 1; d.weighted = 1; d.page_size = 64;
    if (dg_create(&d, &g) != DG_OK || !g) { CHECK(0); return; }
    CHECK(dg_add_vertices(g, 4, &first) == DG_OK && first == 0);
    if (dg_vertex_count(g) != 4) { dg_destroy(g); return; }
    CHECK(dg_add_edge(g, 0, 1, 2.0f) == DG_OK);
    CHECK(dg_add_edge(g, 1, 0, 3.0f) == DG_ERR_EXISTS);
    CHECK(dg_has_edge(g, 1, 0) && dg_edge_weight(g, 1, 0, &w) == DG_OK && w == 2.0f);
    CHECK(dg_edge_count(g) == 1);
    CHECK(dg_add_edge(g, 2, 2, 5.0f) == DG_OK);                 /* self-loop stored once */
    CHECK(dg_degree(g, 2, &cnt) == DG_OK && cnt == 1);
    CHECK(dg_in_degree(g, 2, &cnt) == DG_OK && cnt == 1);
    CHECK(dg_edge_count(g) == 2);
    CHECK(dg_set_weight(g, 1, 0, 7.0f) == DG_OK);
    CHECK(dg_edge_weight(g, 0, 1, &w) == DG_OK && w == 7.0f);
    CHECK(dg_edit_edge(g, 1, 0, 3) == DG_OK);                   /* {1,0} becomes {1,3}, weight kept */
    CHECK(!dg_has_edge(g, 0, 1) && dg_has_edge(g, 3, 1) && dg_edge_weight(g, 3, 1, &w) == DG_OK && w == 7.0f);
    CHECK(dg_edit_edge(g, 1, 3, 3) == DG_OK && dg_edge_count(g) == 2);
    CHECK(dg_remove_edge(g, 3, 1) == DG_OK && !dg_has_edge(g, 1, 3) && dg_edge_count(g) == 1);
    e[0].src = 0; e[0].dst = 3; e[0].weight = 1.0f;
    e[1].src = 3; e[1].dst = 0; e[1].weight = 2.0f;             /* the same undirected edge */
    e[2].src = 2; e[2].dst = 2; e[2].weight = 3.0f;             /* already there */
    CHECK(dg_add_edges(g, e, 3, &added) == DG_OK && added == 1 && dg_edge_count(g) == 2);
    CHECK(dg_edge_weight(g, 3, 0, &w) == DG_OK && w == 1.0f);
    CHECK(dg_remove_edges(g, e, 3, &removed) == DG_OK && removed == 2 && dg_edge_count(g) == 0);
    CHECK(dg_validate(g) == DG_OK);
    dg_destroy(g);
}

static void case_configs(void)
{
    int u, w;
    size_t p;
    const uint32_t pages[3] = { 64, 128, 1024 };
    for (p = 0; p < 3; p++)
        for (u = 0; u <= 1; u++)
            for (w = 0; w <= 1; w++)
                run_config(u, w, pages[p], STEPS_PER_CONFIG);
    reuse_ids = 1;                 /* removed ids handed out again (vertex ids out of order in pages) */
    run_config(0, 1, 64, STEPS_PER_CONFIG);
    run_config(1, 0, 128, STEPS_PER_CONFIG);
    reuse_ids = 0;
}
/* Pages that hold one shard's lists each (issue 20, several devices): every mutation keeps the
   shard of a page's vertices one, which dg_validate checks after every step. */
static void case_shards(void)
{
    dg_graph *g = NULL, *h = NULL;
    dg_desc d;
    int32_t b[200];
    char path[96];
    size_t i, deg = 0;
    shards = 1;                    /* (half the steps: make test's time) */
    run_config(0, 1, 64, STEPS_PER_CONFIG / 2);
    run_config(1, 0, 128, STEPS_PER_CONFIG / 2);
    shards = 0;
    /* many shards crossed by one dg_add_vertices: a page more each (its reserve counts them) */
    memset(&d, 0, sizeof d);
    d.page_size = 64;
    if (dg_create(&d, &g) != DG_OK) { CHECK(0); return; }
    for (i = 0; i < 200; i++) b[i] = (int32_t)(1600 + 5 * i);
    CHECK(dg__shard_set(g, b, 201) == DG_OK);
    CHECK(dg_add_vertices(g, 1600, NULL) == DG_OK);
    CHECK(dg_add_vertices(g, 1000, NULL) == DG_OK);
    CHECK_MSG(dg_validate(g) == DG_OK, "201 shards: %s", dg_error_message(g));
    /* a snapshot loaded into a sharded graph: its lists by a batch, not its pages as they are */
    for (i = 0; i + 1 < 40; i++) CHECK(dg_add_edge(g, (dg_vertex)i, (dg_vertex)(i + 1), 1.0f) == DG_OK);
    snprintf(path, sizeof path, "/tmp/%s_shards_%lu.snap", TR_NAME, (unsigned long)rng_state);
    CHECK(dg__shard_set(g, NULL, 0) == DG_OK);
    CHECK_MSG(dg_save(g, path, DG_FORMAT_SNAPSHOT) == DG_OK, "dg_save: %s", dg_error_message(g));
    if (dg_create(&d, &h) == DG_OK) {
        b[0] = 20;
        CHECK(dg__shard_set(h, b, 2) == DG_OK);
        CHECK_MSG(dg_load(h, path, DG_FORMAT_SNAPSHOT) == DG_OK, "a snapshot into a sharded graph: %s", dg_error_message(h));
        CHECK_MSG(dg_validate(h) == DG_OK, "after the snapshot: %s", dg_error_message(h));
        CHECK(dg_edge_count(h) == 39 && dg_vertex_count(h) == 2600 && dg_degree(h, 20, &deg) == DG_OK && deg == 1);
        dg_destroy(h);
    }
    remove(path);
    dg_destroy(g);
}
static void case_bulk(void)
{
    run_bulk(0, 1024, BULK_VERTICES, BULK_EDGES, BULK_STEPS);
    run_bulk(1, 128, BULK_VERTICES / 2, BULK_EDGES / 4, BULK_STEPS / 3);
}
/* ---- growth: a skewed graph built by many host batches keeps its pages filled ----
   Batches that grow lists leave pages behind (a list that outgrew its page moves on); the host
   batch compacts a store whose fill falls below 0.7 (dg__auto_compact). Reference: the edge list
   sorted and deduplicated here, against dg_export_csr with each list sorted. */
static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}
static void run_growth(int undirected, int nbatches, int single)
{
    const int S = 14;
    const size_t n = (size_t)1 << S, m = 16 * n, per = m / (size_t)nbatches;
    dg_desc d;
    dg_graph *g = NULL, *bulk = NULL;
    dg_edge *e = (dg_edge *)xmalloc(m * sizeof *e);
    uint64_t *key = (uint64_t *)xmalloc(2 * m * sizeof *key);
    int64_t *off = (int64_t *)xmalloc((n + 1) * sizeof *off);
    dg_vertex *adj;
    dg_stats sg, sb;
    size_t i, nk = 0, k, v, bad = 0;
    int b, l;
    char label[64];
    snprintf(label, sizeof label, "growth, %s, %d %s", undirected ? "undirected" : "directed", nbatches,
             single ? "rounds of single edges" : "batches");
    for (i = 0; i < m; i++) {                     /* R-MAT draws (0.57, 0.19, 0.19, 0.05): hubs */
        uint32_t u = 0, w = 0;
        for (l = 0; l < S; l++) {
            const uint32_t r = rnd(100), q = r < 57 ? 0u : r < 76 ? 1u : r < 95 ? 2u : 3u;
            u = (u << 1) | (q >> 1); w = (w << 1) | (q & 1u);
        }
        e[i].src = (dg_vertex)u; e[i].dst = (dg_vertex)w; e[i].weight = 1.0f;
    }
    memset(&d, 0, sizeof d);
    d.undirected = undirected; d.page_size = 1024;   /* (many lists a page: where growth leaves holes) */
    CHECK(dg_create(&d, &g) == DG_OK && dg_create(&d, &bulk) == DG_OK);
    if (!g || !bulk) goto done;
    CHECK(dg_add_vertices(g, n, NULL) == DG_OK && dg_add_vertices(bulk, n, NULL) == DG_OK);
    for (b = 0; b < nbatches; b++) {
        if (single) {                             /* one edge a call (present ones: DG_ERR_EXISTS) */
            for (i = (size_t)b * per; i < (size_t)(b + 1) * per; i++) {
                const dg_status r = dg_add_edge(g, e[i].src, e[i].dst, 1.0f);
                if (r != DG_OK && r != DG_ERR_EXISTS) { CHECK_MSG(0, "%s: dg_add_edge: %s", label, dg_error_message(g)); break; }
            }
        } else {
            CHECK_MSG(dg_add_edges(g, e + (size_t)b * per, per, NULL) == DG_OK, "%s: batch %d: %s", label, b,
                      dg_error_message(g));
        }
        if (b % 16 == 15) CHECK_MSG(dg_validate(g) == DG_OK, "%s: batch %d: %s", label, b, dg_error_message(g));
    }
    CHECK(dg_add_edges(bulk, e, per * (size_t)nbatches, NULL) == DG_OK);
    /* the reference: every arc (both ways when undirected), sorted, repeats dropped */
    for (i = 0; i < per * (size_t)nbatches; i++) {
        key[nk++] = (uint64_t)(uint32_t)e[i].src << 32 | (uint32_t)e[i].dst;
        if (undirected && e[i].src != e[i].dst) key[nk++] = (uint64_t)(uint32_t)e[i].dst << 32 | (uint32_t)e[i].src;
    }
    qsort(key, nk, sizeof *key, cmp_u64);
    for (i = 0, k = 0; i < nk; i++) if (k == 0 || key[i] != key[k - 1]) key[k++] = key[i];
    nk = k;
    CHECK(dg_export_csr(g, off, NULL, NULL) == DG_OK);
    CHECK_MSG((size_t)off[n] == nk, "%s: %lld arcs, reference %zu", label, (long long)off[n], nk);
    adj = (dg_vertex *)xmalloc(((size_t)off[n] + 1) * sizeof *adj);
    CHECK(dg_export_csr(g, off, adj, NULL) == DG_OK);
    for (v = 0, k = 0; v < n && (size_t)off[n] == nk; v++) {
        qsort(adj + off[v], (size_t)(off[v + 1] - off[v]), sizeof *adj, cmp_i32);
        for (i = (size_t)off[v]; i < (size_t)off[v + 1]; i++, k++)
            bad += key[k] != ((uint64_t)v << 32 | (uint32_t)adj[i]);
    }
    CHECK_MSG(bad == 0, "%s: %zu arcs differ from the reference", label, bad);
    free(adj);
    CHECK(dg_validate(g) == DG_OK);
    CHECK(dg_get_stats(g, &sg) == DG_OK && dg_get_stats(bulk, &sb) == DG_OK);
    printf("%s: %zu pages, fill %.3f (one batch: %zu pages, fill %.3f)\n", label, sg.pages, sg.fill_ratio, sb.pages,
           sb.fill_ratio);
    CHECK_MSG(sg.fill_ratio >= 0.6 && sg.pages * 4 <= sb.pages * 5, "%s: %zu pages, fill %.3f; one batch: %zu pages",
              label, sg.pages, sg.fill_ratio, sb.pages);
done:
    dg_destroy(g); dg_destroy(bulk);
    free(e); free(key); free(off);
}
static void case_growth(void)
{
    run_growth(1, 64, 0);
    run_growth(0, 64, 0);
    run_growth(1, 512, 0);
    run_growth(1, 16, 1);
    run_growth(0, 16, 1);
}
static const tt_case cases[] = {
    { "api", test_api }, { "undirected", test_undirected_basics }, { "configs", case_configs }, { "bulk", case_bulk },
    { "growth", case_growth }, { "shards", case_shards },
};

int main(int argc, char **argv)
{
    uint64_t seed;
    clock_t t0 = clock();
    const char *tr = getenv("DG_TRACE");
    trace = tr ? atoi(tr) : 0;
    setvbuf(stdout, NULL, _IOLBF, 0);
    seed = trand_seed(argc, argv, (uint64_t)time(NULL), TR_NAME);

    TT_RUN(TR_NAME, cases);
    printf(TR_NAME ": %.1f s (seed %llu)\n", (double)(clock() - t0) / CLOCKS_PER_SEC, (unsigned long long)seed);
    free(sv); free(sw); free(batch); free(mark); free(markw);
    return TT_SUMMARY(TR_NAME);
}
