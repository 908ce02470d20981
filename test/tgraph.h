/* tgraph.h - what the search tests (test_bfs, test_sssp, test_reach) share: a plain reference
   model of a graph, its snapshot as a CSR, a library graph and its model changed together
   (return codes and counts checked), and the random graph and mutation steps test_bfs and
   test_sssp both take.
   Include it after dyngraph.h, tt.h and trand.h.

   The model is independent of the library: per vertex an alive flag and a list of out-arcs
   (target, weight), searched linearly. An undirected edge {u,v} is the two arcs u->v and v->u
   with the same weight (a self-loop one arc). An unweighted model keeps w = 1 (test_bfs and
   test_reach read no weight). The random steps draw from trand.h in a fixed order: a seed gives
   the same runs. Everything is static inline: a test uses what it needs, without
   -Wunused-function warnings for the rest. */
#ifndef TGRAPH_H
#define TGRAPH_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

/* ================================ reference model ================================ */
typedef struct { int32_t v; float w; } arc;
typedef struct { arc *a; size_t n, cap; } alist;

/* out[u] holds (v, w) for every arc u->v */
typedef struct {
    int undirected, weighted;
    int32_t bound;
    size_t cap;
    unsigned char *alive;
    alist *out;
    size_t nedges, nalive;
} model;

static inline void m_init(model *m, int undirected, int weighted)
{
    memset(m, 0, sizeof *m);
    m->undirected = undirected;
    m->weighted = weighted;
}
static inline void m_free(model *m)
{
    int32_t i;
    for (i = 0; i < m->bound; i++) free(m->out[i].a);
    free(m->out);
    free(m->alive);
    memset(m, 0, sizeof *m);
}
static inline int32_t m_add_vertex(model *m)
{
    if ((size_t)m->bound == m->cap) {
        size_t nc = m->cap ? m->cap * 2 : 64;
        m->alive = (unsigned char *)xrealloc(m->alive, nc);
        m->out = (alist *)xrealloc(m->out, nc * sizeof(alist));
        m->cap = nc;
    }
    m->alive[m->bound] = 1;
    memset(&m->out[m->bound], 0, sizeof(alist));
    m->nalive++;
    return m->bound++;
}
static inline int m_live(const model *m, int32_t v) { return v >= 0 && v < m->bound && m->alive[v]; }
/* the index of v in u's list, -1 if absent */
static inline long m_find(const model *m, int32_t u, int32_t v)
{
    size_t i;
    if (!m_live(m, u)) return -1;
    for (i = 0; i < m->out[u].n; i++) if (m->out[u].a[i].v == v) return (long)i;
    return -1;
}
static inline int m_has(const model *m, int32_t u, int32_t v) { return m_find(m, u, v) >= 0; }
static inline void arc_push(model *m, int32_t u, int32_t v, float w)
{
    alist *l = &m->out[u];
    if (l->n == l->cap) { l->cap = l->cap ? l->cap * 2 : 4; l->a = (arc *)xrealloc(l->a, l->cap * sizeof(arc)); }
    l->a[l->n].v = v;
    l->a[l->n].w = w;
    l->n++;
}
/* the arc u->v replaced by the list's last one: 1 if it was there */
static inline int arc_del(model *m, int32_t u, int32_t v)
{
    long i = m_find(m, u, v);
    if (i < 0) return 0;
    m->out[u].a[i] = m->out[u].a[--m->out[u].n];
    return 1;
}
/* 1 if added, 0 if present (the first weight stays) */
static inline int m_add_edge(model *m, int32_t u, int32_t v, float w)
{
    if (!m->weighted) w = 1.0f;
    if (m_has(m, u, v)) return 0;
    arc_push(m, u, v, w);
    if (m->undirected && u != v) arc_push(m, v, u, w);
    m->nedges++;
    return 1;
}
static inline int m_remove_edge(model *m, int32_t u, int32_t v)
{
    if (!arc_del(m, u, v)) return 0;
    if (m->undirected && u != v) arc_del(m, v, u);
    m->nedges--;
    return 1;
}
static inline float m_weight(const model *m, int32_t u, int32_t v)
{
    long i = m_find(m, u, v);
    return i < 0 ? NAN : m->out[u].a[i].w;
}
static inline void m_remove_vertex(model *m, int32_t x)
{
    int32_t u;
    size_t lost = m->out[x].n;
    for (u = 0; u < m->bound; u++)
        if (u != x && m->alive[u] && arc_del(m, u, x) && !m->undirected) lost++;
    m->nedges -= lost;
    m->out[x].n = 0;
    m->alive[x] = 0;
    m->nalive--;
}
static inline int32_t m_random_live(const model *m)
{
    int tries;
    int32_t v;
    if (!m->nalive) return -1;
    for (tries = 0; tries < 1000; tries++) {
        v = (int32_t)rnd((uint32_t)m->bound);
        if (m->alive[v]) return v;
    }
    for (v = 0; v < m->bound; v++) if (m->alive[v]) return v;
    return -1;
}
/* a removed id (50 random tries), -1 if none was found */
static inline int32_t m_random_removed(const model *m)
{
    int32_t dead = -1, t;
    for (t = 0; t < 50 && dead < 0; t++) {
        int32_t x = (int32_t)rnd((uint32_t)m->bound);
        if (!m->alive[x]) dead = x;
    }
    return dead;
}

/* ================================ reference CSR ================================ */
typedef struct {
    int32_t n;                    /* ids 0..n-1 */
    unsigned char *alive;
    size_t *off;                  /* the out-arcs of v: adj[off[v] .. off[v+1]) */
    int32_t *adj;
    size_t narcs;                 /* off[n] */
} csr;

static inline void csr_free(csr *r) { free(r->alive); free(r->off); free(r->adj); memset(r, 0, sizeof *r); }

/* from the arcs src[i] -> dst[i], every id < n alive; lists sorted, repeats dropped */
static inline void csr_from_arcs(csr *r, int32_t n, const int32_t *src, const int32_t *dst, size_t narcs)
{
    size_t i, *pos, w = 0, start = 0;
    int32_t v;
    r->n = n;
    r->alive = (unsigned char *)xmalloc((size_t)n + 1);
    memset(r->alive, 1, (size_t)n + 1);
    r->off = (size_t *)xcalloc((size_t)n + 2, sizeof(size_t));
    r->adj = (int32_t *)xmalloc((narcs + 1) * sizeof(int32_t));
    for (i = 0; i < narcs; i++) r->off[src[i] + 1]++;
    for (v = 0; v < n; v++) r->off[v + 1] += r->off[v];
    pos = (size_t *)xmalloc(((size_t)n + 1) * sizeof(size_t));
    memcpy(pos, r->off, ((size_t)n + 1) * sizeof(size_t));
    for (i = 0; i < narcs; i++) r->adj[pos[src[i]]++] = dst[i];
    free(pos);
    for (v = 0; v < n; v++) {            /* sort and unique each list, compacting */
        size_t end = r->off[v + 1], k, begin = w;
        if (end - start > 1) qsort(r->adj + start, end - start, sizeof(int32_t), cmp_i32);
        for (k = start; k < end; k++)
            if (w == begin || r->adj[w - 1] != r->adj[k]) r->adj[w++] = r->adj[k];
        r->off[v] = begin;
        start = end;
    }
    r->off[n] = w;
    r->narcs = w;
}

/* a snapshot of the model: its ids, alive flags and out-lists, each list sorted or in the
   model's order */
static inline void csr_from_model(csr *r, const model *m, int sorted)
{
    size_t total = 0, w = 0;
    int32_t v;
    for (v = 0; v < m->bound; v++) total += m->out[v].n;
    r->n = m->bound;
    r->alive = (unsigned char *)xmalloc((size_t)m->bound + 1);
    r->off = (size_t *)xmalloc(((size_t)m->bound + 1) * sizeof(size_t));
    r->adj = (int32_t *)xmalloc((total + 1) * sizeof(int32_t));
    for (v = 0; v < m->bound; v++) {
        size_t k;
        r->alive[v] = m->alive[v];
        r->off[v] = w;
        for (k = 0; k < m->out[v].n; k++) r->adj[w + k] = m->out[v].a[k].v;
        if (sorted) qsort(r->adj + w, m->out[v].n, sizeof(int32_t), cmp_i32);
        w += m->out[v].n;
    }
    r->off[m->bound] = w;
    r->narcs = w;
}

/* BFS levels from the sources src[0..ns) on the reference CSR (-1: not reached) */
static inline void ref_bfs_from(const csr *r, const int32_t *src, size_t ns, int32_t *dist)
{
    int32_t *q = (int32_t *)xmalloc(((size_t)r->n + 1) * sizeof(int32_t)), h = 0, t = 0, v;
    size_t i;
    for (v = 0; v < r->n; v++) dist[v] = -1;
    for (i = 0; i < ns; i++) if (dist[src[i]] < 0) { dist[src[i]] = 0; q[t++] = src[i]; }
    while (h < t) {
        int32_t u = q[h++];
        size_t k;
        for (k = r->off[u]; k < r->off[u + 1]; k++)
            if (dist[r->adj[k]] < 0) { dist[r->adj[k]] = dist[u] + 1; q[t++] = r->adj[k]; }
    }
    free(q);
}

/* ================================ graph pairs (library + model) ================================ */
typedef struct {
    dg_graph *g;
    model m;
    int kind;                     /* 0: unweighted; else weighted (test_sssp: its weight kind) */
} pair;

/* the weight of a new edge, drawn for a graph of this kind */
typedef float (*weight_fn)(int kind);

/* reuse: dg_desc.reuse_ids, removed ids handed out again; mutate_add_vertex then accepts any
   removed id and revives it in the model */
/* a pair of the given description (weighted when kind != 0) */
static inline int pair_create_desc(pair *p, const dg_desc *d, int kind)
{
    dg_status s;
    p->g = NULL;
    p->kind = kind;
    s = dg_create(d, &p->g);
    CHECK_MSG(s == DG_OK, "dg_create: %s", dg_status_string(s));
    m_init(&p->m, d->undirected, kind != 0);
    return s == DG_OK;
}
static inline int pair_create_ex(pair *p, uint32_t page_size, int undirected, int kind, int reuse)
{
    dg_desc d;
    memset(&d, 0, sizeof d);
    d.binary_cache = -1;           /* see PAGE SIZES in test_bfs.c */
    d.page_size = page_size;
    d.undirected = undirected;
    d.weighted = kind != 0;
    d.reuse_ids = reuse;
    return pair_create_desc(p, &d, kind);
}
static inline int pair_create(pair *p, uint32_t page_size, int undirected, int kind)
{
    return pair_create_ex(p, page_size, undirected, kind, 0);
}
static inline void pair_free(pair *p) { dg_destroy(p->g); m_free(&p->m); p->g = NULL; }
static inline void pair_add_vertices(pair *p, size_t n)
{
    dg_vertex first = -1;
    size_t i;
    dg_status s = dg_add_vertices(p->g, n, &first);
    CHECK_MSG(s == DG_OK && first == p->m.bound, "dg_add_vertices: %s", dg_status_string(s));
    for (i = 0; i < n; i++) m_add_vertex(&p->m);
}
/* a growing array of edges */
typedef struct { dg_edge *e; size_t n, cap; } edge_list;
/* a new edge src->dst at the end of l, weight 0 (the caller sets it) */
static inline dg_edge *el_add(edge_list *l, int32_t src, int32_t dst)
{
    dg_edge *e;
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 256;
        l->e = (dg_edge *)xrealloc(l->e, l->cap * sizeof(dg_edge));
    }
    e = &l->e[l->n++];
    e->src = src;
    e->dst = dst;
    e->weight = 0;
    return e;
}
/* one dg_add_edges; the model predicts the count added (first occurrence wins) */
static inline int pair_add_batch(pair *p, const dg_edge *e, size_t n)
{
    size_t i, want = 0, added = (size_t)-1;
    dg_status s;
    for (i = 0; i < n; i++) want += (size_t)m_add_edge(&p->m, e[i].src, e[i].dst, e[i].weight);
    s = dg_add_edges(p->g, e, n, &added);
    CHECK_MSG(s == DG_OK && added == want, "dg_add_edges(%zu): %s, added %zu, expected %zu: %s", n,
              dg_status_string(s), added, want, dg_error_message(p->g));
    return s == DG_OK && added == want;
}
/* e[0..ne-1] in a few batches, so that later ones go into a graph with content */
static inline void pair_add_in_batches(pair *p, const dg_edge *e, size_t ne)
{
    size_t done = 0;
    while (done < ne) {
        size_t k = ne - done > 1 ? 1 + rnd((uint32_t)(ne - done)) : 1;
        if (ne - done > 50 && k < (ne - done) / 3) k = (ne - done) / 3 + 1;
        if (!pair_add_batch(p, e + done, k)) break;
        done += k;
    }
}
/* one dg_add_edge: DG_OK for a new edge, DG_ERR_EXISTS for a present one; 1 if added */
static inline int pair_add_edge(pair *p, int32_t u, int32_t v, float w)
{
    int want_new = !m_has(&p->m, u, v);
    dg_status s = dg_add_edge(p->g, u, v, w);
    CHECK_MSG(s == (want_new ? DG_OK : DG_ERR_EXISTS), "dg_add_edge(%d, %d, %g): %s", (int)u, (int)v,
              (double)w, dg_status_string(s));
    if (s == DG_OK) m_add_edge(&p->m, u, v, w);
    return s == DG_OK;
}
static inline void pair_remove_vertex(pair *p, int32_t v)
{
    dg_status s = dg_remove_vertex(p->g, v);
    CHECK_MSG(s == DG_OK, "dg_remove_vertex(%d): %s", (int)v, dg_status_string(s));
    if (s == DG_OK) m_remove_vertex(&p->m, v);
}
/* `count` random live vertices removed */
static inline void pair_remove_random(pair *p, int32_t count)
{
    int32_t v;
    for (v = 0; v < count; v++) {
        int32_t x = m_random_live(&p->m);
        if (x >= 0) pair_remove_vertex(p, x);
    }
}
/* vertex count, edge count and id bound as the model says */
static inline int pair_counts_ok(pair *p, const char *label)
{
    int ok = dg_vertex_count(p->g) == p->m.nalive && dg_edge_count(p->g) == p->m.nedges &&
             dg_vertex_id_bound(p->g) == (size_t)p->m.bound;
    CHECK_MSG(ok, "[%s] library has %zu vertices, %zu edges, bound %zu; model %zu, %zu, %d", label,
              dg_vertex_count(p->g), dg_edge_count(p->g), dg_vertex_id_bound(p->g), p->m.nalive,
              p->m.nedges, (int)p->m.bound);
    return ok;
}
/* a graph built with hubs of more than 3 pages: their lists do span several pages (what such a
   graph is for) */
static inline void check_hub_pages(pair *p, int hubs, int32_t hub_degree, const char *name)
{
    if (hubs && hub_degree > 3 * (int32_t)dg_query_desc(p->g).page_size) {
        dg_stats st;
        CHECK(dg_get_stats(p->g, &st) == DG_OK);
        CHECK_MSG(st.large_lists >= 1 && st.large_pages >= 4, "[%s] %zu large lists, %zu pages", name,
                  st.large_lists, st.large_pages);
    }
}

/* ================================ mutation steps ================================ */
/* The start of a mutation sequence: 600 vertices, 3000 random edges of which the first 1200 go
   out of (i % every != 0) or into the hub. */
static inline void pair_mutation_start(pair *p, int32_t hub, size_t every, weight_fn weight)
{
    dg_edge e[3000];
    size_t i;
    pair_add_vertices(p, 600);
    for (i = 0; i < 3000; i++) {
        e[i].src = (int32_t)rnd(600);
        e[i].dst = (int32_t)rnd(600);
        if (i < 1200) { if (i % every) e[i].src = hub; else e[i].dst = hub; }
        e[i].weight = weight(p->kind);
    }
    pair_add_batch(p, e, 3000);
}
/* n random edges between live vertices, hub-heavy now and then, with repeats (free it) */
static inline dg_edge *random_batch(const pair *p, int32_t hub, size_t n, weight_fn weight)
{
    const model *m = &p->m;
    size_t i;
    dg_edge *e = (dg_edge *)xmalloc(n * sizeof(dg_edge));
    int hubby = chance(40) && m_live(m, hub);
    for (i = 0; i < n; i++) {
        e[i].src = m_random_live(m);
        e[i].dst = m_random_live(m);
        if (hubby && chance(80)) { if (chance(50)) e[i].src = hub; else e[i].dst = hub; }
        if (i && chance(5)) e[i] = e[rnd((uint32_t)i)];   /* repeats within the batch */
        e[i].weight = weight(p->kind);
    }
    return e;
}
/* The steps below change the library and the model alike; each checks the status the model
   predicts and clears *ok when it differs (the model then no longer describes the graph: the
   sequence stops). */
/* dg_add_edge(u, v, w); 1 if added */
static inline int mutate_add_edge(pair *p, int32_t u, int32_t v, float w, int *ok)
{
    dg_status want = m_has(&p->m, u, v) ? DG_ERR_EXISTS : DG_OK;
    dg_status s = dg_add_edge(p->g, u, v, w);
    CHECK_MSG(s == want, "dg_add_edge(%d, %d): %s, expected %s", (int)u, (int)v, dg_status_string(s),
              dg_status_string(want));
    if (s != want) { *ok = 0; return 0; }
    if (s == DG_OK) m_add_edge(&p->m, u, v, w);
    return s == DG_OK;
}
/* dg_remove_edge(u, v); 1 if removed */
static inline int mutate_remove_edge(pair *p, int32_t u, int32_t v, int *ok)
{
    dg_status want = m_has(&p->m, u, v) ? DG_OK : DG_ERR_NOT_FOUND;
    dg_status s = dg_remove_edge(p->g, u, v);
    CHECK_MSG(s == want, "dg_remove_edge(%d, %d): %s, expected %s", (int)u, (int)v, dg_status_string(s),
              dg_status_string(want));
    if (s != want) { *ok = 0; return 0; }
    if (s == DG_OK) m_remove_edge(&p->m, u, v);
    return s == DG_OK;
}
/* dg_edit_edge(u, old, nv) of the present edge u->old: it keeps its weight */
static inline void mutate_edit_edge(pair *p, int32_t u, int32_t old, int32_t nv, int *ok)
{
    model *m = &p->m;
    float w = m_weight(m, u, old);
    dg_status want = (old != nv && m_has(m, u, nv)) ? DG_ERR_EXISTS : DG_OK;
    dg_status s = dg_edit_edge(p->g, u, old, nv);
    CHECK_MSG(s == want, "dg_edit_edge(%d, %d, %d): %s, expected %s", (int)u, (int)old, (int)nv,
              dg_status_string(s), dg_status_string(want));
    if (s != want) { *ok = 0; return; }
    if (s == DG_OK && old != nv) { m_remove_edge(m, u, old); m_add_edge(m, u, nv, w); }
}
/* the live vertex u removed (the hub rarely) */
static inline void mutate_remove_vertex(pair *p, int32_t u, int32_t hub, int *ok)
{
    dg_status s;
    if (u == hub && !chance(10)) return;
    s = dg_remove_vertex(p->g, u);
    CHECK_MSG(s == DG_OK, "dg_remove_vertex(%d): %s", (int)u, dg_status_string(s));
    if (s != DG_OK) { *ok = 0; return; }
    m_remove_vertex(&p->m, u);
}
/* a vertex added, with 0..3 edges to or from live vertices */
static inline void mutate_add_vertex(pair *p, weight_fn weight, int *ok)
{
    model *m = &p->m;
    dg_vertex id = -1;
    int k, nk = (int)rnd(4);
    int reuse = dg_query_desc(p->g).reuse_ids && (size_t)m->bound > m->nalive;
    dg_status s = dg_add_vertex(p->g, &id), want;
    if (reuse) {                   /* a removed id comes back, without edges */
        CHECK_MSG(s == DG_OK && id >= 0 && id < m->bound && !m->alive[id], "dg_add_vertex (reuse_ids): %s, id %d",
                  dg_status_string(s), (int)id);
        if (s != DG_OK || id < 0 || id >= m->bound || m->alive[id]) { *ok = 0; return; }
        m->alive[id] = 1;
        m->out[id].n = 0;
        m->nalive++;
    } else {
        CHECK_MSG(s == DG_OK && id == m->bound, "dg_add_vertex: %s, id %d, expected %d", dg_status_string(s),
                  (int)id, (int)m->bound);
        if (s != DG_OK || id != m->bound) { *ok = 0; return; }
        m_add_vertex(m);
    }
    for (k = 0; k < nk; k++) {
        int32_t w = m_random_live(m);
        int32_t a = chance(50) ? id : w, b = a == id ? w : id;
        float wt = weight(p->kind);
        want = m_has(m, a, b) ? DG_ERR_EXISTS : DG_OK;
        s = dg_add_edge(p->g, a, b, wt);
        CHECK(s == want);
        if (s != want) { *ok = 0; return; }
        if (s == DG_OK) m_add_edge(m, a, b, wt);
    }
}
/* the changes reach the device before the search now and then (else the search syncs them) */
static inline void maybe_sync(pair *p, const char *label)
{
    if (chance(30)) {
        dg_status s = dg_sync(p->g);
        CHECK_MSG(s == DG_OK, "[%s] dg_sync: %s: %s", label, dg_status_string(s), dg_error_message(p->g));
    }
}

#endif
