/* test_reach.c - dg_reach / dg_reach_ex (batched reachability with the GRAIL index) against a
   plain host BFS per query, on hand-made and random graphs, on the GRAIL datasets and the
   citation fragment, and along long random mutation sequences.

   The reference is independent of the library: graphs are kept by the test as plain adjacency
   lists (tgraph.h's model: out-lists and an alive flag per id) or read from the dataset files
   by tdata.h's reader (not by dg_load, which only has to agree on the counts),
   snapshotted into a CSR and searched with a FIFO-queue BFS from each distinct source of a batch.
   Every answer of every batch is compared (reachable is prefilled with a sentinel, so each entry
   must be written, 0 or 1). Strongly connected components are counted by Kosaraju's algorithm on
   the same snapshot and compared with stats.components after every build.

   Stats, on every call that asks for them: queries == n, by_labels + searched == queries,
   positive == the number of 1s; batches and levels 0 without a search, >= 1 with one, and no
   more than 8192 queries a batch (manual section 15); times >= 0, build_ms == scc_ms == 0
   without a build; index_built as the test's own bookkeeping
   predicts (1 on the first call, after an insertion, new labels / seed / build options, or
   rebuild; 0 on a repeat call with nothing changed, after removals only, after a weight change);
   filter_only 1 exactly when something was removed since the build in use; labels, built_on
   (HOST or DEVICE as asked; AUTO may pick either) and components those of that build; with
   n == 0 only the counters (the call may return at once, stats zeroed). In filter-only mode the labels only say "no", so every
   answer 1 other than s == t comes from a search (searched >= those); in exact mode s == t is a
   labels answer (by_labels >= those), and on an undirected graph the condensed graph has no arcs
   (every component is isolated: disjoint intervals), so the labels decide every query
   (searched == 0). Where the manual leaves a case open (labels 0 or seed 0 after a build with
   other values: "0 = default" could rebuild or keep; a refused or no-op mutation; a refused
   dg_reach, which may have synced and built before it saw the bad query), the bookkeeping
   accepts either and learns from the stats.

   Query mixes: uniform random pairs, known positives (t drawn from a BFS of s, the deepest vertex
   reached a quarter of the time), reversed positives (mostly no, and hard for the labels), s ==
   t; batches of 0, 1, hundreds, 12000 with more undecided queries than one search batch holds,
   and 2^22 + 5000 queries (more than one device chunk of queries; also refused with a bad query
   in either chunk).

   Parts: the comparison itself (a wrong answer must be seen); bad input (NULL arrays with n > 0,
   labels 9 and more, an unknown build, removed, never-created and negative vertices as source or
   destination anywhere in a batch: the status, the message naming the query, reachable and the
   stats untouched; n == 0 with NULL arrays is fine); the index bookkeeping step by step; labels
   1..8, seeds (a host build with the same seed is deterministic), host and device builds; random
   graphs (DAGs with edges from lower to higher position of a random permutation, random cyclic
   graphs sparse and dense-ish, big SCCs, chains of SCCs, self-loops, a long path, hubs whose
   lists span pages, no edges, one vertex, no vertex, undirected graphs, holes left by removed
   vertices) each with host and device builds; a random DAG whose random pairs the signatures
   decide in part (host and device builds); every *.gra file under $DG_DATA (loaded with
   DG_FORMAT_GRAIL and DG_FORMAT_AUTO in turn), two of them then changed (removals: filter-only;
   insertions closing cycles: a rebuild with fewer components); snap/cit-HepPh_partial.txt (id
   bound 9.9 million, 2100 queries, a third of them positives; then 300 arcs removed); runs of
   removals only; random mutation sequences (single and batched edge insertions and removals,
   edits, vertex removals and additions, runs of removals) with a query batch after every step,
   options drawn at random and the changes reaching the device through dg_sync or through
   dg_reach's own sync.

   PAGE SIZES: each (page size, directedness) is an OpenCL program of its own: directed graphs at
   64 and 1024 (the default, used for the datasets), undirected at 128.

   Every dg_reach that is checked runs under a watchdog (SIGALRM): one that does not return within
   WATCHDOG_S seconds is reported as a failure naming the call, and the program ends with its
   summary line.

   Usage: test_reach [seed]   (default a fixed seed: the run is deterministic; a failure message
                               names the graph, the step and the first wrong query).
   Cases (DG_TESTS=test_reach:NAME,..., see tt.h; they replace TEST_REACH_ONLY): compare, bad,
   bookkeeping, labels, graphs, removals, chunks, memory, hubs, grail, citations, sequences. Each
   starts from its own fixed random state (reseed), so a case run alone does what it does in a
   whole run. */
#define _POSIX_C_SOURCE 200809L
#define DYNGRAPH_IMPLEMENTATION
#include "dyngraph.h"
#include "tt.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "trand.h"
#include "tdata.h"         /* the datasets: reading them independently of dg_load, listing, loading */
#include "tgraph.h"        /* the reference model and CSR */
#include "twatch.h"        /* now_s, the watchdog */

#define DEFAULT_SEED 20240702ull
#define WATCHDOG_S 300            /* one dg_reach, including a cold kernel build */
#define SENTINEL 0xA5             /* reachable is filled with it before each call */
#define MAX_QUERY_CHUNK ((size_t)1 << 22)   /* queries the library sends to the device at a time */
#define MAX_BATCH 32768           /* queries per search batch at most (32 x W, W <= 1024) */

static uint64_t seed;
static long reach_calls;
static double queries_checked;

/* each part starts from its own fixed state, so that parts reproduce alone */
static void reseed(unsigned part) { rng_state = seed ^ (0x9E3779B97F4A7C15ull * (part + 1)); }

/* mode 0: dg_reach; else dg_reach_ex(opt) */
static dg_status reach_guarded(dg_graph *g, const dg_vertex *s, const dg_vertex *t, size_t n,
                               uint8_t *res, int mode, const dg_reach_options *opt, const char *where)
{
    dg_status st;
    tw_arm(mode == 0 ? "dg_reach" : "dg_reach_ex", where, WATCHDOG_S);
    st = mode == 0 ? dg_reach(g, s, t, n, res) : dg_reach_ex(g, s, t, n, res, opt);
    tw_disarm();
    reach_calls++;
    return st;
}

/* ================================ reference model ================================ */
/* (the model is tgraph.h's, unweighted: w = 1 on every arc) */
/* a random present arc u->v (u = -1 if the graph has none found in 200 tries) */
static void m_random_arc(const model *m, int32_t *u, int32_t *v)
{
    int tries;
    *u = *v = -1;
    for (tries = 0; tries < 200; tries++) {
        int32_t x = m_random_live(m);
        if (x >= 0 && m->out[x].n) { *u = x; *v = m->out[x].a[rnd((uint32_t)m->out[x].n)].v; return; }
    }
}

/* ================================ reference CSR, BFS, SCC count ================================ */
/* (the CSR is tgraph.h's: csr_from_arcs, csr_from_model, the latter unsorted here: the lists
   in the model's order, which the queries drawn from a BFS depend on) */

/* the live ids of r (free it); *n their number */
static int32_t *csr_live(const csr *r, size_t *n)
{
    int32_t *l = (int32_t *)xmalloc(((size_t)r->n + 1) * sizeof(int32_t)), v;
    *n = 0;
    for (v = 0; v < r->n; v++) if (r->alive[v]) l[(*n)++] = v;
    return l;
}

static uint32_t *bfs_mark, bfs_epoch;
static int32_t *bfs_queue;
static size_t bfs_cap;
static void bfs_release(void) { free(bfs_mark); free(bfs_queue); bfs_mark = NULL; bfs_queue = NULL; bfs_cap = 0; }

/* FIFO BFS from s over the out-arcs: the vertices reached (s first, by levels) in
   bfs_queue[0 .. return value), each marked bfs_mark[v] == bfs_epoch */
static size_t ref_bfs(const csr *r, int32_t s)
{
    size_t head = 0, tail = 0;
    if (bfs_cap < (size_t)r->n + 1) {
        bfs_release();
        bfs_cap = (size_t)r->n + 1;
        bfs_mark = (uint32_t *)xcalloc(bfs_cap, sizeof(uint32_t));
        bfs_queue = (int32_t *)xmalloc(bfs_cap * sizeof(int32_t));
        bfs_epoch = 0;
    }
    if (++bfs_epoch == 0) { memset(bfs_mark, 0, bfs_cap * sizeof(uint32_t)); bfs_epoch = 1; }
    bfs_mark[s] = bfs_epoch;
    bfs_queue[tail++] = s;
    while (head < tail) {
        int32_t u = bfs_queue[head++];
        uint32_t k;
        for (k = r->off[u]; k < r->off[u + 1]; k++) {
            int32_t w = r->adj[k];
            if (bfs_mark[w] != bfs_epoch) { bfs_mark[w] = bfs_epoch; bfs_queue[tail++] = w; }
        }
    }
    return tail;
}

/* want[i] = 1 if dst[i] is reached by a BFS from src[i]: one BFS per distinct source (the
   queries bucketed by source) */
static void ref_answers(const csr *r, const int32_t *src, const int32_t *dst, size_t n, uint8_t *want)
{
    uint32_t *at = (uint32_t *)xcalloc((size_t)r->n + 2, sizeof(uint32_t));
    uint32_t *idx = (uint32_t *)xmalloc(n * sizeof(uint32_t)), start = 0, j;
    size_t i;
    int32_t v;
    for (i = 0; i < n; i++) at[src[i] + 1]++;
    for (v = 0; v < r->n; v++) at[v + 1] += at[v];
    for (i = 0; i < n; i++) idx[at[src[i]]++] = (uint32_t)i;   /* at[v]: now the end of v's queries */
    for (v = 0; v < r->n; v++) {
        if (at[v] == start) continue;
        ref_bfs(r, v);
        for (j = start; j < at[v]; j++) want[idx[j]] = bfs_mark[dst[idx[j]]] == bfs_epoch;
        start = at[v];
    }
    free(at);
    free(idx);
}

/* strongly connected components of the live vertices (Kosaraju: the finish order of a DFS
   over the arcs, then DFS over the reversed arcs in reverse finish order) */
static size_t ref_scc_count(const csr *r)
{
    size_t n = (size_t)r->n, no = 0, count = 0, ns, i;
    uint32_t *roff = (uint32_t *)xcalloc(n + 2, sizeof(uint32_t)), *it = (uint32_t *)xmalloc((n + 1) * sizeof(uint32_t)), *pos;
    int32_t *radj = (int32_t *)xmalloc((r->narcs + 1) * sizeof(int32_t));
    int32_t *order = (int32_t *)xmalloc((n + 1) * sizeof(int32_t)), *stack = (int32_t *)xmalloc((n + 1) * sizeof(int32_t));
    unsigned char *seen = (unsigned char *)xcalloc(n + 1, 1);
    int32_t v;
    for (i = 0; i < r->off[n]; i++) roff[r->adj[i] + 1]++;
    for (i = 0; i < n; i++) roff[i + 1] += roff[i];
    pos = (uint32_t *)xmalloc((n + 1) * sizeof(uint32_t));
    memcpy(pos, roff, (n + 1) * sizeof(uint32_t));
    for (v = 0; v < r->n; v++)
        for (i = r->off[v]; i < r->off[v + 1]; i++) radj[pos[r->adj[i]]++] = v;
    free(pos);
    for (v = 0; v < r->n; v++) {
        if (!r->alive[v] || seen[v]) continue;
        seen[v] = 1; stack[0] = v; it[v] = r->off[v]; ns = 1;
        while (ns) {
            int32_t x = stack[ns - 1];
            if (it[x] < r->off[x + 1]) {
                int32_t y = r->adj[it[x]++];
                if (!seen[y]) { seen[y] = 1; it[y] = r->off[y]; stack[ns++] = y; }
            } else {
                order[no++] = x;
                ns--;
            }
        }
    }
    memset(seen, 0, n + 1);
    for (i = no; i > 0; i--) {
        int32_t s = order[i - 1];
        if (seen[s]) continue;
        count++;
        seen[s] = 1; stack[0] = s; ns = 1;
        while (ns) {
            int32_t x = stack[--ns];
            uint32_t k;
            for (k = roff[x]; k < roff[x + 1]; k++)
                if (!seen[radj[k]]) { seen[radj[k]] = 1; stack[ns++] = radj[k]; }
        }
    }
    free(roff); free(it); free(radj); free(order); free(stack); free(seen);
    return count;
}

/* ================================ queries ================================ */
typedef struct { int32_t *s, *t; size_t n, cap; } qset;

static void qs_push(qset *q, int32_t s, int32_t t)
{
    if (q->n == q->cap) {
        q->cap = q->cap ? q->cap * 2 : 1024;
        q->s = (int32_t *)xrealloc(q->s, q->cap * sizeof(int32_t));
        q->t = (int32_t *)xrealloc(q->t, q->cap * sizeof(int32_t));
    }
    q->s[q->n] = s;
    q->t[q->n] = t;
    q->n++;
}
static void qs_free(qset *q) { free(q->s); free(q->t); memset(q, 0, sizeof *q); }

/* n queries added to q over the vertices pool[0..np): pos% known positives (t reached by a BFS
   from s: the deepest vertex reached a quarter of the time, else a random one), rev% reversed
   positives (t -> s for such a pair), self% s == t, the rest uniform random pairs */
static void gen_queries(qset *q, const csr *r, const int32_t *pool, size_t np, size_t n, int pos, int rev,
                        int self)
{
    size_t i;
    if (!np) return;
    for (i = 0; i < n; i++) {
        int kind = (int)rnd(100);
        int32_t s = pool[rnd((uint32_t)np)];
        if (kind < pos + rev) {
            size_t cnt = ref_bfs(r, s);
            int32_t t = chance(25) ? bfs_queue[cnt - 1] : bfs_queue[rnd((uint32_t)cnt)];
            if (kind < pos) qs_push(q, s, t); else qs_push(q, t, s);
        } else if (kind < pos + rev + self) {
            qs_push(q, s, s);
        } else {
            qs_push(q, s, pool[rnd((uint32_t)np)]);
        }
    }
}

/* ================================ the graph under test and what the test knows of its index ================================ */
typedef struct {
    dg_graph *g;
    model m;
    const char *name;
    int ok;                       /* 0 once a mutation's status differed from the model's */
    int have_index;               /* 1: a call has built an index; -1: perhaps (a refused call) */
    int known;                    /* d, on and comps below are those of the index in use */
    int seed_known;               /* seed below is the one of the index in use */
    uint32_t dmask;               /* bit d set: the index in use may have d labels (a call without
                                     stats may have built one, with the labels it asked for or
                                     with "0 = default") */
    uint32_t d;
    uint64_t seed;
    dg_reach_build on;
    size_t comps;
    int ins, del;                 /* since the build in use: 1 surely inserted / removed,
                                     -1 perhaps (a refused or no-op call), 0 nothing */
} tg;

static int tg_create(tg *t, const char *name, int undirected, uint32_t page_size, int weighted)
{
    dg_desc d;
    dg_status s;
    memset(t, 0, sizeof *t);
    memset(&d, 0, sizeof d);
    d.binary_cache = -1;
    d.page_size = page_size;
    d.undirected = undirected;
    d.weighted = weighted;
    t->name = name;
    t->ok = 1;
    s = dg_create(&d, &t->g);
    CHECK_MSG(s == DG_OK, "[%s] dg_create: %s", name, dg_status_string(s));
    m_init(&t->m, undirected, 0);
    if (s != DG_OK) t->ok = 0;
    return s == DG_OK;
}
static void tg_free(tg *t) { dg_destroy(t->g); m_free(&t->m); t->g = NULL; }
static void note_ins(tg *t, int sure) { if (sure) t->ins = 1; else if (!t->ins) t->ins = -1; }
static void note_del(tg *t, int sure) { if (sure) t->del = 1; else if (!t->del) t->del = -1; }

static void tg_add_vertices(tg *t, size_t k)
{
    dg_vertex first = -1;
    size_t i;
    dg_status s = dg_add_vertices(t->g, k, &first);
    CHECK_MSG(s == DG_OK && first == t->m.bound, "[%s] dg_add_vertices(%zu): %s", t->name, k, dg_status_string(s));
    if (s != DG_OK || first != t->m.bound) { t->ok = 0; return; }
    for (i = 0; i < k; i++) m_add_vertex(&t->m);
    note_ins(t, k > 0);
}
static void tg_add_edge(tg *t, int32_t u, int32_t v)
{
    dg_status want = m_has(&t->m, u, v) ? DG_ERR_EXISTS : DG_OK;
    dg_status s = dg_add_edge(t->g, u, v, 1.0f);
    CHECK_MSG(s == want, "[%s] dg_add_edge(%d, %d): %s, expected %s", t->name, (int)u, (int)v,
              dg_status_string(s), dg_status_string(want));
    if (s != want) { t->ok = 0; return; }
    if (s == DG_OK) m_add_edge(&t->m, u, v, 1.0f);
    note_ins(t, s == DG_OK);
}
static void tg_remove_edge(tg *t, int32_t u, int32_t v)
{
    dg_status want = m_has(&t->m, u, v) ? DG_OK : DG_ERR_NOT_FOUND;
    dg_status s = dg_remove_edge(t->g, u, v);
    CHECK_MSG(s == want, "[%s] dg_remove_edge(%d, %d): %s, expected %s", t->name, (int)u, (int)v,
              dg_status_string(s), dg_status_string(want));
    if (s != want) { t->ok = 0; return; }
    if (s == DG_OK) m_remove_edge(&t->m, u, v);
    note_del(t, s == DG_OK);
}
static void tg_remove_vertex(tg *t, int32_t v)
{
    dg_status s = dg_remove_vertex(t->g, v);
    CHECK_MSG(s == DG_OK, "[%s] dg_remove_vertex(%d): %s", t->name, (int)v, dg_status_string(s));
    if (s != DG_OK) { t->ok = 0; return; }
    m_remove_vertex(&t->m, v);
    note_del(t, 1);
}
/* DG_OK, or the status a batch naming a vertex that does not exist gets (nothing applied) */
static dg_status batch_status(const model *m, const dg_edge *e, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (e[i].src < 0 || e[i].dst < 0) return DG_ERR_INVALID_ARGUMENT;
    for (i = 0; i < n; i++)
        if (!m_live(m, e[i].src) || !m_live(m, e[i].dst)) return DG_ERR_NOT_FOUND;
    return DG_OK;
}
static void tg_add_edges(tg *t, const dg_edge *e, size_t n)
{
    size_t i, want = 0, added = (size_t)-1;
    dg_status s, ws = batch_status(&t->m, e, n);
    if (ws != DG_OK) {
        s = dg_add_edges(t->g, e, n, &added);
        CHECK_MSG(s == ws, "[%s] dg_add_edges(%zu) naming a missing vertex: %s, expected %s", t->name, n,
                  dg_status_string(s), dg_status_string(ws));
        if (s != ws) t->ok = 0;
        note_ins(t, 0);
        return;
    }
    for (i = 0; i < n; i++) want += (size_t)m_add_edge(&t->m, e[i].src, e[i].dst, 1.0f);
    s = dg_add_edges(t->g, e, n, &added);
    CHECK_MSG(s == DG_OK && added == want, "[%s] dg_add_edges(%zu): %s, added %zu, expected %zu: %s", t->name,
              n, dg_status_string(s), added, want, dg_error_message(t->g));
    if (s != DG_OK || added != want) { t->ok = 0; return; }
    note_ins(t, want > 0);
}
static void tg_remove_edges(tg *t, const dg_edge *e, size_t n)
{
    size_t i, want = 0, removed = (size_t)-1;
    dg_status s, ws = batch_status(&t->m, e, n);
    if (ws != DG_OK) {
        s = dg_remove_edges(t->g, e, n, &removed);
        CHECK_MSG(s == ws, "[%s] dg_remove_edges(%zu) naming a missing vertex: %s, expected %s", t->name, n,
                  dg_status_string(s), dg_status_string(ws));
        if (s != ws) t->ok = 0;
        note_del(t, 0);
        return;
    }
    for (i = 0; i < n; i++) want += (size_t)m_remove_edge(&t->m, e[i].src, e[i].dst);
    s = dg_remove_edges(t->g, e, n, &removed);
    CHECK_MSG(s == DG_OK && removed == want, "[%s] dg_remove_edges(%zu): %s, removed %zu, expected %zu: %s",
              t->name, n, dg_status_string(s), removed, want, dg_error_message(t->g));
    if (s != DG_OK || removed != want) { t->ok = 0; return; }
    note_del(t, want > 0);
}
/* the present edge u->old becomes u->nv */
static void tg_edit_edge(tg *t, int32_t u, int32_t old, int32_t nv)
{
    dg_status want = old != nv && m_has(&t->m, u, nv) ? DG_ERR_EXISTS : DG_OK;
    dg_status s = dg_edit_edge(t->g, u, old, nv);
    CHECK_MSG(s == want, "[%s] dg_edit_edge(%d, %d, %d): %s, expected %s", t->name, (int)u, (int)old, (int)nv,
              dg_status_string(s), dg_status_string(want));
    if (s != want) { t->ok = 0; return; }
    if (s == DG_OK && old != nv) { m_remove_edge(&t->m, u, old); m_add_edge(&t->m, u, nv, 1.0f); }
    note_ins(t, s == DG_OK && old != nv);
    note_del(t, s == DG_OK && old != nv);
}
static int tg_counts_ok(tg *t, const char *label)
{
    int ok = dg_vertex_count(t->g) == t->m.nalive && dg_edge_count(t->g) == t->m.nedges &&
             dg_vertex_id_bound(t->g) == (size_t)t->m.bound;
    CHECK_MSG(ok, "[%s %s] library has %zu vertices, %zu edges, bound %zu; model %zu, %zu, %d", t->name, label,
              dg_vertex_count(t->g), dg_edge_count(t->g), dg_vertex_id_bound(t->g), t->m.nalive, t->m.nedges,
              (int)t->m.bound);
    if (!ok) t->ok = 0;
    return ok;
}
/* n random arcs into a new array (free it): kind 0 uniform pairs of live vertices, with
   repeats inside the batch now and then */
static dg_edge *random_edges(const model *m, size_t n)
{
    dg_edge *e = (dg_edge *)xmalloc(n * sizeof(dg_edge));
    size_t i;
    for (i = 0; i < n; i++) {
        e[i].src = m_random_live(m);
        e[i].dst = m_random_live(m);
        e[i].weight = 1.0f;
        if (i && chance(4)) e[i] = e[rnd((uint32_t)i)];
    }
    return e;
}

/* after a refused dg_reach: it may have synced and built an index before it saw a bad query */
static void tg_uncertain(tg *t)
{
    if (!t->have_index) t->have_index = -1;
    if (t->ins) t->ins = -1;
    if (t->del) t->del = -1;
    t->known = t->seed_known = 0;
    t->dmask = 0x1fe;             /* any of 1..8 */
}

/* What dg_reach_ex(o) (o NULL: dg_reach) should do with the index: 1 build, 0 keep, -1 either. */
static int expect_build(const tg *t, const dg_reach_options *o)
{
    if (!t->have_index || t->ins == 1 || (o && o->rebuild)) return 1;
    if (t->have_index < 0) return -1;
    if (o && o->labels && o->labels <= 8 && !(t->dmask & (1u << o->labels))) return 1;
    if (t->known && o && o->build != DG_REACH_BUILD_AUTO && o->build != t->on) return 1;
    if (t->seed_known && o && o->seed && o->seed != t->seed) return 1;
    if (t->ins || !t->known || !t->seed_known) return -1;
    /* 0 means "the default" for labels and seed: after other values, rebuilding or keeping */
    if ((!o || !o->labels) && t->d != DG_REACH_LABELS) return -1;
    if ((!o || !o->seed) && t->seed != 0) return -1;
    return 0;
}

/* ================================ the comparison ================================ */
/* wrong answers (got not exactly want: a sentinel left counts); *first the first one */
static size_t compare_answers(const uint8_t *got, const uint8_t *want, size_t n, size_t *first)
{
    size_t i, bad = 0;
    *first = (size_t)-1;
    for (i = 0; i < n; i++)
        if (got[i] != want[i]) { if (!bad) *first = i; bad++; }
    return bad;
}

/* One checked call. mode 0: dg_reach; 1: dg_reach_ex(opt) without stats; 2: with stats (opt's
   stats field is replaced; *out gets them when out is not NULL). The answers are checked
   against the reference r, the stats as described at the top, and the test's picture of the
   index is brought up to date. Returns 1 if all was right. */
static int check_reach(tg *t, const csr *r, const qset *q, int mode, const dg_reach_options *opt,
                       const char *where, dg_reach_stats *out)
{
    dg_reach_options o;
    dg_reach_stats st;
    uint8_t *res = (uint8_t *)xmalloc(q->n), *want = (uint8_t *)xmalloc(q->n);
    size_t i, bad, first, npos = 0, nself = 0, npos_other = 0;
    int expect = expect_build(t, mode ? opt : NULL), ok = 1;
    char label[700];
    dg_status s;
    snprintf(label, sizeof label, "[%s] %s (%s, %zu queries)", t->name, where,
             mode == 0 ? "dg_reach" : mode == 1 ? "dg_reach_ex, no stats" : "dg_reach_ex", q->n);
    memset(&o, 0, sizeof o);
    if (opt) o = *opt;
    o.stats = mode == 2 ? &st : NULL;
    memset(&st, SENTINEL, sizeof st);
    memset(res, SENTINEL, q->n);
    s = reach_guarded(t->g, q->s, q->t, q->n, res, mode, &o, label);
    CHECK_MSG(s == DG_OK, "%s: %s: %s", label, dg_status_string(s), dg_error_message(t->g));
    if (s != DG_OK) { free(res); free(want); tg_uncertain(t); return 0; }
    ref_answers(r, q->s, q->t, q->n, want);
    queries_checked += (double)q->n;
    bad = compare_answers(res, want, q->n, &first);
    CHECK_MSG(bad == 0, "%s: %zu of %zu answers wrong; first: query %zu, %d -> %d: got %d, expected %d", label,
              bad, q->n, first, bad ? (int)q->s[first] : 0, bad ? (int)q->t[first] : 0, bad ? (int)res[first] : 0,
              bad ? (int)want[first] : 0);
    if (bad) ok = 0;
    for (i = 0; i < q->n; i++) {
        npos += want[i];
        nself += q->s[i] == q->t[i];
        npos_other += want[i] && q->s[i] != q->t[i];
    }
    if (mode == 2) {
        int want_filter = st.index_built ? 0 : t->del > 0 ? 1 : t->del == 0 ? 0 : -1;
        /* AUTO: the device, or the host for a deep DAG (manual section 15): either */
        int want_on = o.build == DG_REACH_BUILD_AUTO ? -1 : (int)o.build;
#define SCHECK(c, ...) do { CHECK_MSG(c, __VA_ARGS__); if (!(c)) ok = 0; } while (0)
        if (q->n == 0 && !st.index_built) {
            /* nothing to answer: the library may return at once (stats zeroed, no build) */
            SCHECK(st.queries == 0 && st.by_labels == 0 && st.searched == 0 && st.positive == 0 && st.batches == 0 &&
                   st.levels == 0 && st.index_built == 0,
                   "%s: no queries: stats queries %llu, by_labels %llu, searched %llu, positive %llu, batches %u",
                   label, (unsigned long long)st.queries, (unsigned long long)st.by_labels,
                   (unsigned long long)st.searched, (unsigned long long)st.positive, (unsigned)st.batches);
            free(res);
            free(want);
            if (out) *out = st;
            return ok;
        }
        SCHECK(st.queries == q->n && st.by_labels + st.searched == st.queries && st.positive == npos,
               "%s: stats queries %llu, by_labels %llu + searched %llu, positive %llu; expected %zu queries, %zu positive",
               label, (unsigned long long)st.queries, (unsigned long long)st.by_labels,
               (unsigned long long)st.searched, (unsigned long long)st.positive, q->n, npos);
        SCHECK(st.searched ? st.batches >= 1 && st.levels >= 1 && st.batches <= st.searched &&
                             (uint64_t)st.batches * MAX_BATCH >= st.searched
                           : st.batches == 0 && st.levels == 0,
               "%s: %llu searched in %u batches, %u levels", label, (unsigned long long)st.searched,
               (unsigned)st.batches, (unsigned)st.levels);
        SCHECK(st.by_hubs + st.by_signatures <= st.by_labels,
               "%s: %llu decided by hubs, %llu by signatures, %llu by labels", label,
               (unsigned long long)st.by_hubs, (unsigned long long)st.by_signatures,
               (unsigned long long)st.by_labels);
        SCHECK(st.searched ? st.visited >= st.batches : st.visited == 0,
               "%s: %llu visited in %u batches (%llu searched)", label, (unsigned long long)st.visited,
               (unsigned)st.batches, (unsigned long long)st.searched);
        SCHECK((st.index_built == 0 || st.index_built == 1) && (st.filter_only == 0 || st.filter_only == 1) &&
               (st.built_on == DG_REACH_BUILD_HOST || st.built_on == DG_REACH_BUILD_DEVICE) &&
               st.labels >= 1 && st.labels <= 8 && st.components <= (size_t)r->n,
               "%s: stats index_built %d, filter_only %d, built_on %d, labels %u, components %zu", label,
               st.index_built, st.filter_only, (int)st.built_on, (unsigned)st.labels, st.components);
        SCHECK(st.total_ms >= 0 && st.build_ms >= 0 && st.scc_ms >= 0 && st.scc_ms <= st.build_ms + 1e-6 &&
               (st.index_built || (st.build_ms == 0 && st.scc_ms == 0)) && (st.device_ms >= 0 || st.device_ms == -1),
               "%s: times: total %g, build %g, scc %g, device %g ms (index_built %d)", label, st.total_ms,
               st.build_ms, st.scc_ms, st.device_ms, st.index_built);
        if (expect >= 0)
            SCHECK(st.index_built == expect, "%s: index_built %d, expected %d (inserted %d, removed %d)", label,
                   st.index_built, expect, t->ins, t->del);
        if (want_filter >= 0)
            SCHECK(st.filter_only == want_filter, "%s: filter_only %d, expected %d (index_built %d, removed %d)",
                   label, st.filter_only, want_filter, st.index_built, t->del);
        if (st.index_built) {
            size_t comps = ref_scc_count(r);
            SCHECK((want_on < 0 || (int)st.built_on == want_on) && st.components == comps &&
                   (o.labels ? st.labels == o.labels : st.labels == DG_REACH_LABELS || (t->dmask & (1u << st.labels))),
                   "%s: new index: built_on %d, components %zu, labels %u; expected built_on %d, %zu components, labels %u",
                   label, (int)st.built_on, st.components, (unsigned)st.labels, (int)want_on, comps,
                   (unsigned)(o.labels ? o.labels : DG_REACH_LABELS));
        } else if (t->known) {
            SCHECK(st.labels == t->d && st.built_on == t->on && st.components == t->comps,
                   "%s: index kept: labels %u, built_on %d, components %zu; the build had %u, %d, %zu", label,
                   (unsigned)st.labels, (int)st.built_on, st.components, (unsigned)t->d, (int)t->on, t->comps);
        } else {
            SCHECK(t->dmask & (1u << st.labels), "%s: index kept: labels %u, not one the test asked for (mask %#x)",
                   label, (unsigned)st.labels, (unsigned)t->dmask);
        }
        if (st.filter_only)
            SCHECK(st.searched >= npos_other, "%s: filter-only: %llu searched, but %zu answers 1 with s != t", label,
                   (unsigned long long)st.searched, npos_other);
        else {
            SCHECK(st.by_labels >= nself, "%s: exact: %llu by labels, but %zu queries s == t", label,
                   (unsigned long long)st.by_labels, nself);
            if (t->m.undirected)
                SCHECK(st.searched == 0, "%s: undirected, exact: %llu queries searched", label,
                       (unsigned long long)st.searched);
        }
#undef SCHECK
        /* what the index in use is now */
        if (st.index_built) {
            t->seed = o.seed;
            t->seed_known = 1;
            t->ins = t->del = 0;
        } else {
            if (t->ins < 0) t->ins = 0;            /* the "perhaps" did not count */
            if (t->del < 0) t->del = st.filter_only;
        }
        t->have_index = 1;
        t->known = 1;
        t->d = st.labels;
        t->dmask = 1u << st.labels;
        t->on = st.built_on;
        t->comps = st.components;
        if (out) *out = st;
    } else if (expect == 1) {
        uint32_t dl = mode && o.labels ? o.labels : 0;
        t->dmask = dl ? 1u << dl : t->dmask | 1u << DG_REACH_LABELS;
        t->have_index = 1;
        t->ins = t->del = 0;
        t->known = 0;
        t->seed = mode ? o.seed : 0;
        t->seed_known = 1;
    } else if (expect < 0) {
        t->dmask |= 1u << (mode && o.labels ? o.labels : DG_REACH_LABELS);
        t->known = t->seed_known = 0;
        if (t->ins) t->ins = -1;
        if (t->del) t->del = -1;
    }
    free(res);
    free(want);
    return ok;
}

/* queries on t's graph as the model has it now, checked (the reference snapshot made here) */
static int check_now(tg *t, size_t nq, int pos, int rev, int self, int mode, const dg_reach_options *o,
                     const char *where, dg_reach_stats *out)
{
    csr r;
    qset q;
    size_t np;
    int32_t *pool;
    int ok;
    memset(&q, 0, sizeof q);
    csr_from_model(&r, &t->m, 0);
    pool = csr_live(&r, &np);
    gen_queries(&q, &r, pool, np, nq, pos, rev, self);
    ok = check_reach(t, &r, &q, mode, o, where, out);
    free(pool);
    qs_free(&q);
    csr_free(&r);
    return ok;
}
static dg_reach_options opts(uint32_t labels, dg_reach_build build, uint64_t sd, int rebuild)
{
    dg_reach_options o;
    memset(&o, 0, sizeof o);
    o.labels = labels;
    o.build = build;
    o.seed = sd;
    o.rebuild = rebuild;
    return o;
}

/* ================================ the comparison can fail ================================ */
static void test_compare(void)
{
    static const uint8_t want[6] = { 0, 1, 1, 0, 1, 0 };
    uint8_t got[6];
    size_t first;
    memcpy(got, want, sizeof got);
    CHECK(compare_answers(got, want, 6, &first) == 0);
    got[2] = 0;
    CHECK(compare_answers(got, want, 6, &first) == 1 && first == 2);
    memcpy(got, want, sizeof got);
    got[3] = SENTINEL;                /* an entry never written */
    got[5] = 1;
    CHECK(compare_answers(got, want, 6, &first) == 2 && first == 3);
    /* and the reference itself: 0 -> 1 -> 2 -> 0, 3 -> 0, 4 alone */
    {
        static const int32_t as[5] = { 0, 1, 2, 3, 4 }, ad[5] = { 1, 2, 0, 0, 4 };
        static const int32_t qs[6] = { 0, 2, 3, 0, 4, 1 }, qd[6] = { 2, 1, 1, 3, 4, 4 };
        static const uint8_t exp[6] = { 1, 1, 1, 0, 1, 0 };
        csr r;
        uint8_t w[6];
        csr_from_arcs(&r, 5, as, ad, 5);
        ref_answers(&r, qs, qd, 6, w);
        CHECK(memcmp(w, exp, 6) == 0);
        CHECK(ref_scc_count(&r) == 3);
        csr_free(&r);
    }
}

/* ================================ bad input ================================ */
/* a call that must fail with want: reachable and the stats are not written; the message names
   the query `query` (if >= 0) */
static void expect_refused(tg *tg_, const dg_vertex *s, const dg_vertex *t, size_t n, uint8_t *res,
                           const dg_reach_options *o, int mode, dg_status want, long query, const char *what)
{
    dg_graph *g = tg_->g;
    dg_reach_options oo;
    dg_reach_stats st, st0;
    size_t i, touched = 0;
    dg_status got;
    memset(&oo, 0, sizeof oo);
    if (o) oo = *o;
    oo.stats = &st;
    memset(&st, SENTINEL, sizeof st);
    memcpy(&st0, &st, sizeof st);
    if (res) memset(res, SENTINEL, n);
    got = reach_guarded(g, s, t, n, res, mode, &oo, what);
    CHECK_MSG(got == want, "bad input, %s: %s, expected %s (%s)", what, dg_status_string(got),
              dg_status_string(want), dg_error_message(g));
    if (res) for (i = 0; i < n; i++) touched += res[i] != SENTINEL;
    CHECK_MSG(touched == 0, "bad input, %s: %zu entries of reachable written", what, touched);
    if (mode) CHECK_MSG(memcmp(&st, &st0, sizeof st) == 0, "bad input, %s: stats written", what);
    CHECK_MSG(dg_error_message(g)[0] != '\0', "bad input, %s: no message", what);
    tg_uncertain(tg_);
    if (query >= 0) {
        char num[40];
        snprintf(num, sizeof num, "%ld", query);
        CHECK_MSG(strstr(dg_error_message(g), num) != NULL, "bad input, %s: the message \"%s\" does not name query %ld",
                  what, dg_error_message(g), query);
    }
}

static void test_bad_input(void)
{
    tg t;
    dg_vertex s[8], d[8], *bs, *bd;
    uint8_t res[8], *bres;
    dg_reach_options o;
    dg_reach_stats st;
    size_t i, nb = 6000;
    dg_status r;
    static const uint32_t bad_labels[3] = { 9, 100, 0xffffffffu };
    reseed(1);
    if (!tg_create(&t, "bad input", 0, 1024, 0)) return;
    tg_add_vertices(&t, 10);
    for (i = 0; i < 9; i++) tg_add_edge(&t, (int32_t)i, (int32_t)i + 1);
    tg_add_edge(&t, 9, 0);
    tg_add_edge(&t, 3, 3);
    tg_remove_vertex(&t, 7);     /* 7: removed; 10 and above: never created */
    for (i = 0; i < 8; i++) { s[i] = (dg_vertex)(i % 5); d[i] = (dg_vertex)((i * 3) % 7); }
    memset(&o, 0, sizeof o);

    /* the first calls fail before any index exists */
    r = dg_reach(NULL, s, d, 8, res);
    CHECK_MSG(r == DG_ERR_INVALID_ARGUMENT, "dg_reach(NULL graph): %s", dg_status_string(r));
    r = dg_reach_ex(NULL, s, d, 8, res, &o);
    CHECK_MSG(r == DG_ERR_INVALID_ARGUMENT, "dg_reach_ex(NULL graph): %s", dg_status_string(r));
    expect_refused(&t, NULL, d, 8, res, NULL, 0, DG_ERR_INVALID_ARGUMENT, -1, "dg_reach, src NULL");
    expect_refused(&t, s, NULL, 8, res, NULL, 0, DG_ERR_INVALID_ARGUMENT, -1, "dg_reach, dst NULL");
    expect_refused(&t, s, d, 8, NULL, NULL, 0, DG_ERR_INVALID_ARGUMENT, -1, "dg_reach, reachable NULL");
    expect_refused(&t, NULL, d, 1, res, &o, 1, DG_ERR_INVALID_ARGUMENT, -1, "dg_reach_ex, src NULL");
    expect_refused(&t, s, NULL, 1, res, &o, 1, DG_ERR_INVALID_ARGUMENT, -1, "dg_reach_ex, dst NULL");
    expect_refused(&t, s, d, 1, NULL, &o, 1, DG_ERR_INVALID_ARGUMENT, -1, "dg_reach_ex, reachable NULL");
    for (i = 0; i < 3; i++) {
        char what[80];
        o = opts(bad_labels[i], DG_REACH_BUILD_AUTO, 0, 0);
        snprintf(what, sizeof what, "labels %u", (unsigned)bad_labels[i]);
        expect_refused(&t, s, d, 8, res, &o, 1, DG_ERR_INVALID_ARGUMENT, -1, what);
    }
    o = opts(0, (dg_reach_build)3, 0, 0);
    expect_refused(&t, s, d, 8, res, &o, 1, DG_ERR_INVALID_ARGUMENT, -1, "build 3");
    o = opts(0, (dg_reach_build)-1, 0, 0);
    expect_refused(&t, s, d, 8, res, &o, 1, DG_ERR_INVALID_ARGUMENT, -1, "build -1");
    memset(&o, 0, sizeof o);
    s[5] = 7;
    expect_refused(&t, s, d, 8, res, &o, 1, DG_ERR_NOT_FOUND, 5, "removed source");
    s[5] = 1;
    CHECK(t.ok);

    /* n == 0: nothing to answer, NULL arrays allowed (whether this builds is left open) */
    o.stats = &st;
    memset(&st, SENTINEL, sizeof st);
    r = reach_guarded(t.g, NULL, NULL, 0, NULL, 1, &o, "n == 0, NULL arrays");
    CHECK_MSG(r == DG_OK && st.queries == 0 && st.by_labels == 0 && st.searched == 0 && st.positive == 0 &&
              st.batches == 0, "n == 0: %s, %llu queries", dg_status_string(r), (unsigned long long)st.queries);
    r = reach_guarded(t.g, NULL, NULL, 0, NULL, 0, NULL, "n == 0, dg_reach");
    CHECK_MSG(r == DG_OK, "n == 0 (dg_reach): %s", dg_status_string(r));
    tg_uncertain(&t);
    memset(&o, 0, sizeof o);

    /* vertices that do not exist, as source or destination, first, inside or last */
    {
        static const struct { int which, at; dg_vertex v; dg_status want; const char *what; } B[] = {
            { 0, 0, 7, DG_ERR_NOT_FOUND, "removed source, first" },
            { 1, 7, 7, DG_ERR_NOT_FOUND, "removed destination, last" },
            { 0, 3, 10, DG_ERR_NOT_FOUND, "never-created source (id bound)" },
            { 1, 4, 1000000, DG_ERR_NOT_FOUND, "never-created destination" },
            { 1, 2, 0x7fffffff, DG_ERR_NOT_FOUND, "destination INT32_MAX" },
            { 0, 6, -1, DG_ERR_INVALID_ARGUMENT, "source -1" },
            { 1, 1, -5, DG_ERR_INVALID_ARGUMENT, "destination -5" },
            { 0, 7, (dg_vertex)(-2147483647 - 1), DG_ERR_INVALID_ARGUMENT, "source INT32_MIN" },
        };
        size_t k;
        for (k = 0; k < sizeof B / sizeof B[0]; k++) {
            dg_vertex keep;
            dg_vertex *arr = B[k].which ? d : s;
            keep = arr[B[k].at];
            arr[B[k].at] = B[k].v;
            expect_refused(&t, s, d, 8, res, &o, 1, B[k].want, B[k].at, B[k].what);
            expect_refused(&t, s, d, 8, res, NULL, 0, B[k].want, B[k].at, B[k].what);
            arr[B[k].at] = keep;
        }
    }
    /* a long batch with only its last query bad: nothing is written */
    bs = (dg_vertex *)xmalloc(nb * sizeof(dg_vertex));
    bd = (dg_vertex *)xmalloc(nb * sizeof(dg_vertex));
    bres = (uint8_t *)xmalloc(nb);
    for (i = 0; i < nb; i++) { bs[i] = (dg_vertex)rnd(7); bd[i] = (dg_vertex)rnd(7); }
    bd[nb - 1] = 7;
    expect_refused(&t, bs, bd, nb, bres, &o, 1, DG_ERR_NOT_FOUND, (long)nb - 1, "6000 queries, the last removed");
    bd[nb - 1] = 3;
    bs[nb - 1] = 12;
    expect_refused(&t, bs, bd, nb, bres, NULL, 0, DG_ERR_NOT_FOUND, (long)nb - 1, "6000 queries, the last unknown");
    free(bs); free(bd); free(bres);

    /* the graph still answers, correctly, after all that */
    o = opts(0, DG_REACH_BUILD_AUTO, 0, 0);
    check_now(&t, 200, 30, 10, 10, 2, &o, "after refused calls", NULL);
    o = opts(0, DG_REACH_BUILD_AUTO, 0, 0);
    check_now(&t, 200, 30, 10, 10, 2, &o, "after refused calls, repeated", NULL);
    /* a refused call after an index exists leaves it in use */
    s[0] = 7;
    expect_refused(&t, s, d, 8, res, &o, 1, DG_ERR_NOT_FOUND, 0, "removed source, index present");
    s[0] = 0;
    check_now(&t, 50, 30, 10, 10, 2, &o, "after a refused call with an index", NULL);
    tg_free(&t);
}

/* ================================ index bookkeeping ================================ */
/* one call with stats and its index_built / filter_only / labels / built_on compared with the
   values given (-1: not checked here; check_reach checks them against its own bookkeeping too) */
static void step(tg *t, const dg_reach_options *o, int built, int filter, int labels, int on, const char *where)
{
    dg_reach_stats st;
    memset(&st, 0, sizeof st);
    if (!check_now(t, 150, 30, 10, 10, 2, o, where, &st)) return;
    CHECK_MSG((built < 0 || st.index_built == built) && (filter < 0 || st.filter_only == filter) &&
              (labels < 0 || st.labels == (uint32_t)labels) && (on < 0 || (int)st.built_on == on),
              "[%s] %s: index_built %d filter_only %d labels %u built_on %d; expected %d %d %d %d", t->name, where,
              st.index_built, st.filter_only, (unsigned)st.labels, (int)st.built_on, built, filter, labels, on);
}

static void test_bookkeeping(void)
{
    tg t;
    dg_reach_options o, dflt;
    dg_reach_stats st;
    dg_edge e[3];
    int32_t u, v;
    int H = DG_REACH_BUILD_HOST, D = DG_REACH_BUILD_DEVICE, A = -1;   /* AUTO: either */
    reseed(2);
    if (!tg_create(&t, "bookkeeping", 0, 1024, 1)) return;
    tg_add_vertices(&t, 60);
    {
        dg_edge *r = random_edges(&t.m, 120);
        tg_add_edges(&t, r, 120);
        free(r);
    }
    dflt = opts(0, DG_REACH_BUILD_AUTO, 0, 0);
    step(&t, &dflt, 1, 0, DG_REACH_LABELS, A, "first call");
    step(&t, &dflt, 0, 0, DG_REACH_LABELS, A, "repeat");
    m_random_arc(&t.m, &u, &v);
    CHECK(dg_set_weight(t.g, u, v, 7.5f) == DG_OK);
    step(&t, &dflt, 0, 0, -1, -1, "after dg_set_weight");
    CHECK(dg_sync(t.g) == DG_OK);
    step(&t, &dflt, 0, 0, -1, -1, "after dg_sync");
    do { u = m_random_live(&t.m); v = m_random_live(&t.m); } while (m_has(&t.m, u, v));
    tg_add_edge(&t, u, v);
    step(&t, &dflt, 1, 0, -1, -1, "after dg_add_edge");
    m_random_arc(&t.m, &u, &v);
    tg_remove_edge(&t, u, v);
    step(&t, &dflt, 0, 1, -1, -1, "after dg_remove_edge");
    step(&t, &dflt, 0, 1, -1, -1, "after dg_remove_edge, repeat");
    o = dflt; o.stats = &st;
    memset(&st, SENTINEL, sizeof st);
    CHECK(reach_guarded(t.g, NULL, NULL, 0, NULL, 1, &o, "n == 0, filter-only") == DG_OK && st.queries == 0 &&
          st.index_built == 0 && st.searched == 0);
    step(&t, &dflt, 0, 1, -1, -1, "after n == 0, still filter-only");
    o = opts(0, DG_REACH_BUILD_AUTO, 0, 1);
    step(&t, &o, 1, 0, -1, A, "rebuild");
    step(&t, &dflt, 0, 0, -1, -1, "after the rebuild");
    tg_remove_vertex(&t, m_random_live(&t.m));
    step(&t, &dflt, 0, 1, -1, -1, "after dg_remove_vertex");
    tg_add_vertices(&t, 1);
    step(&t, &dflt, 1, 0, -1, -1, "after dg_add_vertex");
    m_random_arc(&t.m, &u, &v);
    tg_remove_edge(&t, u, v);
    e[0].src = m_random_live(&t.m); e[0].dst = m_random_live(&t.m); e[0].weight = 2;
    e[1].src = m_random_live(&t.m); e[1].dst = m_random_live(&t.m); e[1].weight = 2;
    e[2] = e[0];
    tg_add_edges(&t, e, 3);
    step(&t, &dflt, t.ins == 1 ? 1 : -1, t.ins == 1 ? 0 : 1, -1, -1, "after a removal and dg_add_edges");
    m_random_arc(&t.m, &u, &v);
    e[0].src = u; e[0].dst = v;
    e[1] = e[0];
    tg_remove_edges(&t, e, 2);
    step(&t, &dflt, 0, 1, -1, -1, "after dg_remove_edges");
    {
        int32_t nv;
        m_random_arc(&t.m, &u, &v);
        do nv = m_random_live(&t.m); while (nv == v || m_has(&t.m, u, nv));
        tg_edit_edge(&t, u, v, nv);
    }
    step(&t, &dflt, 1, 0, -1, -1, "after dg_edit_edge");

    /* options */
    o = opts(5, DG_REACH_BUILD_AUTO, 0, 0);
    step(&t, &o, 1, 0, 5, A, "labels 5");
    step(&t, &o, 0, 0, 5, A, "labels 5 again");
    o = opts(0, DG_REACH_BUILD_AUTO, 0, 0);
    memset(&st, 0, sizeof st);
    check_now(&t, 100, 30, 10, 10, 2, &o, "labels 0 after labels 5", &st);
    printf("test_reach: labels 0 after an index with 5 labels: index_built %d, labels %u\n", st.index_built,
           (unsigned)st.labels);
    o = opts(4, DG_REACH_BUILD_HOST, 7, 0);
    step(&t, &o, 1, 0, 4, H, "labels 4, seed 7, host");
    step(&t, &o, 0, 0, 4, H, "labels 4, seed 7, host again");
    o.seed = 8;
    step(&t, &o, 1, 0, 4, H, "seed 8");
    o = opts(4, DG_REACH_BUILD_DEVICE, 8, 0);
    step(&t, &o, 1, 0, 4, D, "build on the device");
    step(&t, &o, 0, 0, 4, D, "build on the device again");
    o = opts(4, DG_REACH_BUILD_AUTO, 8, 0);
    step(&t, &o, 0, 0, 4, D, "AUTO keeps the device's index");
    m_random_arc(&t.m, &u, &v);
    tg_remove_edge(&t, u, v);
    step(&t, &o, 0, 1, 4, D, "device index, filter-only");
    o = opts(4, DG_REACH_BUILD_HOST, 8, 0);
    step(&t, &o, 1, 0, 4, H, "HOST after DEVICE");
    o = opts(4, DG_REACH_BUILD_AUTO, 8, 0);
    step(&t, &o, 0, 0, 4, H, "AUTO keeps the host's index");
    tg_add_vertices(&t, 2);
    step(&t, &o, 1, 0, 4, A, "AUTO after an insertion");
    /* calls without stats, then with */
    check_now(&t, 100, 30, 10, 10, 0, NULL, "dg_reach", NULL);
    check_now(&t, 100, 30, 10, 10, 1, &o, "dg_reach_ex without stats", NULL);
    step(&t, &o, -1, 0, 4, -1, "stats again");
    /* calls that change nothing: a refused insertion, a batch of present edges, a missed removal */
    m_random_arc(&t.m, &u, &v);
    tg_add_edge(&t, u, v);
    e[0].src = u; e[0].dst = v;
    tg_add_edges(&t, e, 1);
    memset(&st, 0, sizeof st);
    check_now(&t, 100, 30, 10, 10, 2, &o, "after no-op insertions", &st);
    printf("test_reach: after a refused dg_add_edge and a batch of present edges: index_built %d\n", st.index_built);
    do { u = m_random_live(&t.m); v = m_random_live(&t.m); } while (m_has(&t.m, u, v));
    tg_remove_edge(&t, u, v);
    memset(&st, 0, sizeof st);
    check_now(&t, 100, 30, 10, 10, 2, &o, "after a missed removal", &st);
    printf("test_reach: after a dg_remove_edge of an absent edge: filter_only %d\n", st.filter_only);
    CHECK(t.ok);
    tg_free(&t);
}

/* ================================ labels, seeds, builds ================================ */
enum { G_NONE, G_DAG, G_RANDOM, G_BIGSCC, G_SCC_CHAIN, G_PATH, G_HUB };
static void build_graph(tg *t, int kind, int32_t n, size_t m, int selfloop_pct);

static void test_labels_seeds(void)
{
    static const struct { const char *name; int dag; int32_t n; size_t m; } G[] = {
        { "labels/DAG 1500", 1, 1500, 4000 },
        { "labels/cyclic 1500", 0, 1500, 2200 },
    };
    size_t gi;
    reseed(3);
    for (gi = 0; gi < 2; gi++) {
        tg t;
        csr r;
        qset q;
        size_t np, i;
        int32_t *pool;
        uint32_t d;
        dg_reach_options o;
        dg_reach_stats a, b;
        if (!tg_create(&t, G[gi].name, 0, 1024, 0)) continue;
        tg_add_vertices(&t, (size_t)G[gi].n);
        build_graph(&t, G[gi].dag ? G_DAG : G_RANDOM, G[gi].n, G[gi].m, 0);
        memset(&q, 0, sizeof q);
        csr_from_model(&r, &t.m, 0);
        pool = csr_live(&r, &np);
        gen_queries(&q, &r, pool, np, 800, 35, 15, 5);
        for (d = 1; d <= 8; d++) {
            char where[80];
            o = opts(d, DG_REACH_BUILD_HOST, 1000 + d, 0);
            snprintf(where, sizeof where, "labels %u, host", (unsigned)d);
            memset(&a, 0, sizeof a);
            check_reach(&t, &r, &q, 2, &o, where, &a);
            CHECK_MSG(a.labels == d && a.index_built == 1 && a.built_on == DG_REACH_BUILD_HOST, "[%s] %s: labels %u",
                      t.name, where, (unsigned)a.labels);
            o.build = DG_REACH_BUILD_DEVICE;
            snprintf(where, sizeof where, "labels %u, device", (unsigned)d);
            memset(&a, 0, sizeof a);
            check_reach(&t, &r, &q, 2, &o, where, &a);
            CHECK_MSG(a.labels == d && a.index_built == 1 && a.built_on == DG_REACH_BUILD_DEVICE, "[%s] %s: labels %u",
                      t.name, where, (unsigned)a.labels);
        }
        /* seeds: every seed answers right; the same seed on the host builds the same index */
        for (i = 0; i < 6; i++) {
            uint64_t sd = i == 0 ? 1 : i == 1 ? 0xffffffffffffffffull : rnext();
            char where[80];
            o = opts(3, DG_REACH_BUILD_HOST, sd, 1);
            snprintf(where, sizeof where, "seed %llu", (unsigned long long)sd);
            memset(&a, 0, sizeof a);
            memset(&b, 0, sizeof b);
            check_reach(&t, &r, &q, 2, &o, where, &a);
            check_reach(&t, &r, &q, 2, &o, where, &b);
            CHECK_MSG(a.by_labels == b.by_labels && a.searched == b.searched && b.index_built == 1,
                      "[%s] seed %llu twice: %llu / %llu by labels", t.name, (unsigned long long)sd,
                      (unsigned long long)a.by_labels, (unsigned long long)b.by_labels);
            o.build = DG_REACH_BUILD_DEVICE;
            check_reach(&t, &r, &q, 2, &o, where, NULL);
        }
        free(pool);
        qs_free(&q);
        csr_free(&r);
        CHECK(t.ok);
        tg_free(&t);
    }
}

/* ================================ random graphs ================================ */
static const char *GKIND[] = { "no edges", "DAG", "random", "big SCC", "chain of SCCs", "path", "hub" };

/* the edges of a graph of this kind on the live vertices 0..n-1 of t (added in 1..3 batches) */
static void build_graph(tg *t, int kind, int32_t n, size_t m, int selfloop_pct)
{
    int32_t *perm = (int32_t *)xmalloc(((size_t)n + 1) * sizeof(int32_t));
    size_t cap = m + 2 * (size_t)n + 16, ne = 0, i, done;
    dg_edge *e = (dg_edge *)xmalloc(cap * sizeof(dg_edge));
    int32_t k;
#define ADD(a, b) do { if (ne < cap) { e[ne].src = (a); e[ne].dst = (b); e[ne].weight = 1; ne++; } } while (0)
    for (k = 0; k < n; k++) perm[k] = k;
    for (k = n; k > 1; k--) { int32_t j = (int32_t)rnd((uint32_t)k), x = perm[k - 1]; perm[k - 1] = perm[j]; perm[j] = x; }
    if (n > 0) switch (kind) {
    case G_DAG:                 /* from lower to higher position in perm */
        for (i = 0; i < m && n > 1; i++) {
            uint32_t x = rnd((uint32_t)n), y = rnd((uint32_t)n);
            if (x == y) continue;
            if (x > y) { uint32_t z = x; x = y; y = z; }
            ADD(perm[x], perm[y]);
        }
        break;
    case G_RANDOM:
        for (i = 0; i < m; i++) ADD((int32_t)rnd((uint32_t)n), (int32_t)rnd((uint32_t)n));
        break;
    case G_BIGSCC: {            /* a cycle through 70% of perm, DAG arcs by perm position elsewhere */
        int32_t c = n * 7 / 10;
        for (k = 0; k + 1 < c; k++) ADD(perm[k], perm[k + 1]);
        if (c > 1) ADD(perm[c - 1], perm[0]);
        for (i = 0; i < m; i++) {
            uint32_t x = rnd((uint32_t)n), y = rnd((uint32_t)n);
            if (x > y) { uint32_t z = x; x = y; y = z; }
            if (x != y) ADD(perm[x], perm[y]);
        }
        break;
    }
    case G_SCC_CHAIN: {         /* cycles of 2..9 vertices along perm, DAG arcs between them */
        int32_t start = 0;
        while (start < n) {
            int32_t len = 2 + (int32_t)rnd(8);
            if (start + len > n) len = n - start;
            for (k = 0; k + 1 < len; k++) ADD(perm[start + k], perm[start + k + 1]);
            if (len > 1) ADD(perm[start + len - 1], perm[start]);
            start += len;
        }
        for (i = 0; i < m; i++) {
            uint32_t x = rnd((uint32_t)n), y = rnd((uint32_t)n);
            if (x > y) { uint32_t z = x; x = y; y = z; }
            if (x != y) ADD(perm[x], perm[y]);
        }
        break;
    }
    case G_PATH:
        for (k = 0; k + 1 < n; k++) ADD(perm[k], perm[k + 1]);
        break;
    case G_HUB:                 /* perm[0] to 40% of the vertices, 10% into it, random arcs */
        for (k = 1; k < n; k++) {
            if (chance(40)) ADD(perm[0], perm[k]);
            if (chance(10)) ADD(perm[k], perm[0]);
        }
        for (i = 0; i < m; i++) ADD((int32_t)rnd((uint32_t)n), (int32_t)rnd((uint32_t)n));
        break;
    default:
        break;
    }
    if (selfloop_pct)
        for (k = 0; k < n; k++) if (chance(selfloop_pct)) ADD(k, k);
#undef ADD
    for (i = ne; i > 1; i--) { size_t j = rnd((uint32_t)i); dg_edge x = e[i - 1]; e[i - 1] = e[j]; e[j] = x; }
    done = 0;
    while (done < ne) {
        size_t b = ne - done > 10 && chance(60) ? (ne - done) / 2 + 1 : ne - done;
        tg_add_edges(t, e + done, b);
        done += b;
    }
    free(e);
    free(perm);
}

/* every vertex removed, then one added */
static void test_emptied(void)
{
    tg t;
    int32_t v;
    dg_reach_options o = opts(0, DG_REACH_BUILD_AUTO, 0, 0);
    if (!tg_create(&t, "emptied", 0, 1024, 0)) return;
    tg_add_vertices(&t, 30);
    build_graph(&t, G_RANDOM, 30, 60, 10);
    check_now(&t, 50, 35, 15, 5, 2, &o, "30 vertices", NULL);
    for (v = 0; v < 30; v++) tg_remove_vertex(&t, v);
    check_now(&t, 0, 0, 0, 0, 2, &o, "no vertex left, n == 0", NULL);
    tg_add_vertices(&t, 2);
    tg_add_edge(&t, 30, 31);
    check_now(&t, 20, 35, 15, 5, 2, &o, "two vertices added", NULL);
    tg_counts_ok(&t, "emptied");
    CHECK(t.ok);
    tg_free(&t);
}

static void test_graphs(void)
{
    static const struct {
        int undirected; uint32_t page; int kind; int32_t n; size_t m; int selfloops, holes; size_t nq;
    } G[] = {
        { 0, 1024, G_NONE, 0, 0, 0, 0, 0 },
        { 0, 1024, G_NONE, 1, 0, 0, 0, 20 },
        { 0, 64, G_RANDOM, 1, 1, 100, 0, 20 },
        { 0, 1024, G_NONE, 200, 0, 0, 10, 300 },
        { 0, 1024, G_DAG, 2, 1, 0, 0, 30 },
        { 0, 1024, G_DAG, 500, 500, 0, 0, 600 },
        { 0, 64, G_DAG, 3000, 6000, 0, 10, 1200 },
        { 0, 1024, G_DAG, 2000, 16000, 0, 0, 1000 },
        { 0, 1024, G_RANDOM, 500, 550, 0, 0, 600 },
        { 0, 64, G_RANDOM, 1500, 1800, 5, 10, 800 },
        { 0, 1024, G_RANDOM, 2000, 10000, 0, 5, 1000 },
        { 0, 1024, G_RANDOM, 800, 800, 30, 0, 600 },
        { 0, 64, G_BIGSCC, 2000, 3000, 2, 10, 1000 },
        { 0, 1024, G_SCC_CHAIN, 2500, 1500, 0, 10, 1000 },
        { 0, 64, G_PATH, 700, 0, 0, 0, 300 },
        { 0, 64, G_HUB, 1500, 1500, 0, 10, 800 },
        { 1, 128, G_NONE, 100, 0, 0, 0, 200 },
        { 1, 128, G_RANDOM, 1000, 900, 5, 10, 800 },
        { 1, 128, G_RANDOM, 2000, 3000, 0, 10, 800 },
        { 1, 128, G_HUB, 1200, 800, 3, 0, 600 },
        { 1, 128, G_PATH, 400, 0, 0, 0, 200 },
    };
    size_t gi;
    reseed(4);
    for (gi = 0; gi < sizeof G / sizeof G[0]; gi++) {
        tg t;
        char name[160];
        dg_reach_options o;
        uint32_t d = 1 + rnd(8);
        snprintf(name, sizeof name, "%s %s n=%d m=%zu%s%s, page %u", G[gi].undirected ? "undirected" : "directed",
                 GKIND[G[gi].kind], (int)G[gi].n, G[gi].m, G[gi].selfloops ? ", self-loops" : "",
                 G[gi].holes ? ", holes" : "", (unsigned)G[gi].page);
        if (!tg_create(&t, name, G[gi].undirected, G[gi].page, 0)) continue;
        if (G[gi].n) tg_add_vertices(&t, (size_t)G[gi].n);
        build_graph(&t, G[gi].kind, G[gi].n, G[gi].m, G[gi].selfloops);
        tg_counts_ok(&t, "built");
        o = opts(0, DG_REACH_BUILD_HOST, 0, 0);
        check_now(&t, G[gi].nq, 35, 15, 5, 2, &o, "host, default labels", NULL);
        check_now(&t, G[gi].nq, 35, 15, 5, 2, &o, "host, repeat", NULL);
        check_now(&t, G[gi].nq, 35, 15, 5, 0, NULL, "dg_reach", NULL);
        o = opts(d, DG_REACH_BUILD_DEVICE, 1 + rnext() % 1000, 0);
        check_now(&t, G[gi].nq, 35, 15, 5, 2, &o, "device", NULL);
        o = opts(0, DG_REACH_BUILD_AUTO, 0, 1);
        check_now(&t, G[gi].nq / 2, 35, 15, 5, 2, &o, "AUTO, rebuilt", NULL);
        dg__reach_scc_device = 1;             /* the condensation from dg_scc (a GPU's way) */
        o = opts(d, DG_REACH_BUILD_HOST, 0, 1);
        check_now(&t, G[gi].nq / 2, 35, 15, 5, 2, &o, "components by dg_scc, labels on the host", NULL);
        o = opts(d, DG_REACH_BUILD_DEVICE, 0, 1);
        check_now(&t, G[gi].nq / 2, 35, 15, 5, 2, &o, "components by dg_scc, labels on the device", NULL);
        dg__reach_scc_device = 0;
        o = opts(0, DG_REACH_BUILD_AUTO, 0, 1);
        if (G[gi].holes && t.m.nalive > 2) {
            int32_t k, nh = (int32_t)(t.m.nalive * (size_t)G[gi].holes / 100);
            for (k = 0; k < nh; k++) tg_remove_vertex(&t, m_random_live(&t.m));
            tg_counts_ok(&t, "holes");
            check_now(&t, G[gi].nq, 35, 15, 5, 2, &o, "holes, filter-only (device labels)", NULL);
            o = opts(d, DG_REACH_BUILD_HOST, 0, 1);
            check_now(&t, G[gi].nq, 35, 15, 5, 2, &o, "holes, rebuilt on the host", NULL);
            o = opts(d, DG_REACH_BUILD_DEVICE, 0, 0);
            check_now(&t, G[gi].nq, 35, 15, 5, 2, &o, "holes, rebuilt on the device", NULL);
        }
        CHECK(t.ok);
        tg_free(&t);
    }
    test_emptied();
}

/* ================================ runs of removals; many undecided queries ================================ */
static void test_removals(void)
{
    int pass;
    reseed(5);
    for (pass = 0; pass < 2; pass++) {
        tg t;
        int k, sure;
        dg_reach_options o;
        dg_reach_stats st;
        const char *name = pass ? "removals (device labels)" : "removals (host labels)";
        dg_reach_build b = pass ? DG_REACH_BUILD_DEVICE : DG_REACH_BUILD_HOST;
        if (!tg_create(&t, name, 0, 64, 0)) continue;
        tg_add_vertices(&t, 900);
        build_graph(&t, G_BIGSCC, 900, 1800, 1);
        build_graph(&t, G_RANDOM, 900, 400, 0);
        o = opts(2 + (uint32_t)pass * 3, b, 11, 0);
        check_now(&t, 300, 35, 15, 5, 2, &o, "start", NULL);
        for (k = 0; k < 30 && t.ok; k++) {
            char where[80];
            int32_t u, v;
            int what = (int)rnd(10);
            if (what < 5) {
                m_random_arc(&t.m, &u, &v);
                if (u >= 0) tg_remove_edge(&t, u, v);
            } else if (what < 8) {
                size_t n = 2 + rnd(40), i;
                dg_edge *e = (dg_edge *)xmalloc(n * sizeof(dg_edge));
                for (i = 0; i < n; i++) {
                    m_random_arc(&t.m, &u, &v);
                    if (u < 0 || chance(15)) { u = m_random_live(&t.m); v = m_random_live(&t.m); }
                    e[i].src = u; e[i].dst = v; e[i].weight = 1;
                }
                tg_remove_edges(&t, e, n);
                free(e);
            } else {
                tg_remove_vertex(&t, m_random_live(&t.m));
            }
            if (chance(30)) CHECK(dg_sync(t.g) == DG_OK);
            snprintf(where, sizeof where, "removal %d", k);
            memset(&st, 0, sizeof st);
            sure = t.del == 1;
            check_now(&t, 300, 35, 15, 5, 2, &o, where, &st);
            if (sure) CHECK_MSG(st.index_built == 0 && st.filter_only == 1, "[%s] %s: index_built %d, filter_only %d", name,
                      where, st.index_built, st.filter_only);
        }
        /* more undecided queries than one search batch holds (search_mb 1: 48 words of 32
           queries per id for these 900 ids): filter-only, the positives other than s == t all
           need a search */
        memset(&st, 0, sizeof st);
        o.search_mb = 1;
        check_now(&t, 12000, 90, 5, 0, 2, &o, "12000 queries, filter-only", &st);
        o.search_mb = 0;
        CHECK_MSG(st.searched > 1536 && st.batches >= (st.searched + 1535) / 1536,
                  "[%s] 12000 queries: %llu searched in %u batches", name, (unsigned long long)st.searched,
                  (unsigned)st.batches);
        printf("test_reach: %s: 12000 queries, %llu searched in %u batches, %u levels\n", name,
               (unsigned long long)st.searched, (unsigned)st.batches, (unsigned)st.levels);
        o.rebuild = 1;
        check_now(&t, 400, 35, 15, 5, 2, &o, "rebuilt", NULL);
        o.rebuild = 0;
        check_now(&t, 12000, 90, 5, 0, 2, &o, "12000 queries, exact", NULL);
        {
            dg_edge *e = random_edges(&t.m, 60);
            int32_t x;
            for (x = 0; x < t.m.bound && t.m.alive[x]; x++) {}
            if (x < t.m.bound) { e[59].src = x; tg_add_edges(&t, e + 50, 10); }   /* refused: nothing added */
            tg_add_edges(&t, e, 50);
            free(e);
        }
        check_now(&t, 400, 35, 15, 5, 2, &o, "after insertions", NULL);
        CHECK(t.ok);
        tg_free(&t);
    }
}

/* ================================ more than one device chunk of queries ================================ */
static void test_two_chunks(void)
{
    tg t;
    csr r;
    qset q;
    int32_t k;
    size_t i, n = MAX_QUERY_CHUNK + 5000;
    dg_reach_options o;
    dg_reach_stats st;
    double t0 = now_s();
    reseed(6);
    if (!tg_create(&t, "two chunks", 1, 128, 0)) return;
    tg_add_vertices(&t, 3000);
    for (k = 0; k < 3000; k += 5) {       /* 600 components: paths of 5 */
        tg_add_edge(&t, k, k + 1); tg_add_edge(&t, k + 1, k + 2); tg_add_edge(&t, k + 2, k + 3);
        tg_add_edge(&t, k + 3, k + 4);
    }
    memset(&q, 0, sizeof q);
    q.cap = n;
    q.s = (int32_t *)xmalloc(n * sizeof(int32_t));
    q.t = (int32_t *)xmalloc(n * sizeof(int32_t));
    for (i = 0; i < n; i++) {
        int32_t s = (int32_t)rnd(3000);
        q.s[i] = s;
        q.t[i] = i >= n - 3000 || i < 3000 ? s - s % 5 + (int32_t)rnd(5) : (int32_t)rnd(3000);
    }
    q.n = n;
    o = opts(2, DG_REACH_BUILD_HOST, 0, 0);
    csr_from_model(&r, &t.m, 0);
    memset(&st, 0, sizeof st);
    check_reach(&t, &r, &q, 2, &o, "2^22 + 5000 queries, exact", &st);
    csr_free(&r);
    tg_remove_edge(&t, 2, 3);                /* splits a component: filter-only */
    tg_remove_edge(&t, 2996, 2997);
    csr_from_model(&r, &t.m, 0);
    memset(&st, 0, sizeof st);
    check_reach(&t, &r, &q, 2, &o, "2^22 + 5000 queries, filter-only", &st);
    printf("test_reach: 2^22 + 5000 queries, filter-only: %llu searched in %u batches (%.1f s)\n",
           (unsigned long long)st.searched, (unsigned)st.batches, now_s() - t0);
    {   /* batch sizes around the search batch (32 x W, W <= 256): queries inside the components,
           s != t, all undecided in filter-only mode; then one query 3000 times, one source to
           3000 targets */
        static const size_t SZ[] = { 1, 31, 32, 33, 8191, 8192, 8193, 32767, 32768, 32769, 65537 };
        size_t k;
        qset b;
        memset(&b, 0, sizeof b);
        for (k = 0; k < sizeof SZ / sizeof SZ[0]; k++) {
            char where[80];
            b.n = 0;
            for (i = 0; i < SZ[k]; i++) {
                int32_t s0 = (int32_t)rnd(3000), t0_ = s0 - s0 % 5 + (int32_t)rnd(5);
                if (t0_ == s0) t0_ = s0 - s0 % 5 + (s0 % 5 + 1) % 5;
                qs_push(&b, s0, t0_);
            }
            snprintf(where, sizeof where, "%zu undecided queries", SZ[k]);
            memset(&st, 0, sizeof st);
            check_reach(&t, &r, &b, 2, &o, where, &st);
            CHECK_MSG(st.filter_only == 1, "[two chunks] %s: filter_only %d, %llu searched in %u batches", where,
                      st.filter_only, (unsigned long long)st.searched, (unsigned)st.batches);
        }
        b.n = 0;
        for (i = 0; i < 3000; i++) qs_push(&b, 10, 13);
        check_reach(&t, &r, &b, 2, &o, "one query 3000 times", NULL);
        b.n = 0;
        for (i = 0; i < 3000; i++) qs_push(&b, 12, (int32_t)rnd(3000));
        for (i = 0; i < 300; i++) b.t[rnd(3000)] = 10 + (int32_t)rnd(5);
        check_reach(&t, &r, &b, 2, &o, "one source, 3000 targets", NULL);
        qs_free(&b);
    }
    {   /* a bad query past the first 2^22, or in them: refused, nothing written */
        uint8_t *res = (uint8_t *)xmalloc(n);
        int32_t keep;
        tg_add_vertices(&t, 1);               /* 3000, named by no query, then removed */
        tg_remove_vertex(&t, 3000);
        keep = q.t[n - 7]; q.t[n - 7] = 3000;
        expect_refused(&t, q.s, q.t, n, res, &o, 1, DG_ERR_NOT_FOUND, (long)(n - 7), "2^22 + 5000 queries, a removed vertex near the end");
        q.t[n - 7] = keep;
        keep = q.s[MAX_QUERY_CHUNK - 1]; q.s[MAX_QUERY_CHUNK - 1] = -3;
        expect_refused(&t, q.s, q.t, n, res, NULL, 0, DG_ERR_INVALID_ARGUMENT, (long)(MAX_QUERY_CHUNK - 1),
                       "2^22 + 5000 queries, a negative vertex at 2^22 - 1");
        q.s[MAX_QUERY_CHUNK - 1] = keep;
        keep = q.s[MAX_QUERY_CHUNK]; q.s[MAX_QUERY_CHUNK] = 3001;
        expect_refused(&t, q.s, q.t, n, res, &o, 1, DG_ERR_NOT_FOUND, (long)MAX_QUERY_CHUNK,
                       "2^22 + 5000 queries, a never-created vertex at 2^22");
        q.s[MAX_QUERY_CHUNK] = keep;
        free(res);
    }
    csr_free(&r);
    qs_free(&q);
    CHECK(t.ok);
    tg_free(&t);
}

/* Hubs: 200 sources -> h -> 200 sinks. The spanning forests put h under one source and one
   sink, so the tree "yes" misses most pairs; h, the best hub, answers them: every pair by
   labels, most by the hubs (a build without hubs fails this). */
static void test_hubs(void)
{
    tg t;
    csr r;
    qset q;
    int32_t k, j;
    dg_reach_options o;
    dg_reach_stats st;
    reseed(12);
    if (!tg_create(&t, "hubs", 0, 128, 0)) return;
    tg_add_vertices(&t, 401);
    for (k = 0; k < 200; k++) { tg_add_edge(&t, k, 400); tg_add_edge(&t, 400, 200 + k); }
    memset(&q, 0, sizeof q);
    for (k = 0; k < 200; k++)
        for (j = 0; j < 200; j += 4) qs_push(&q, k, 200 + j);
    csr_from_model(&r, &t.m, 0);
    for (k = 0; k < 2; k++) {
        o = opts(2, k ? DG_REACH_BUILD_DEVICE : DG_REACH_BUILD_HOST, 0, 1);
        memset(&st, 0, sizeof st);
        check_reach(&t, &r, &q, 2, &o, k ? "sources -> hub -> sinks, device" : "sources -> hub -> sinks, host", &st);
        CHECK_MSG(st.searched == 0 && st.by_hubs * 2 >= st.queries,
                  "[hubs] %s build: %llu queries, %llu by hubs, %llu searched", k ? "device" : "host",
                  (unsigned long long)st.queries, (unsigned long long)st.by_hubs, (unsigned long long)st.searched);
    }
    csr_free(&r);
    qs_free(&q);
    CHECK(t.ok);
    tg_free(&t);
}

/* Signatures: a random DAG of 6000 vertices and 4 arcs each from lower to higher positions of
   a permutation (bench_reach's "dag"), random pairs and known positives. The signatures decide
   a share of the random pairs (no) that the intervals leave open, with both builds; every
   answer is checked, so a signature that lacks a descendant's bit fails the comparison. A
   build without signatures (or with signatures that never differ) fails the count. Then the
   search with and without its signature test, on the DAG and, after removals, on the pages. */
static void test_signatures(void)
{
    tg t;
    csr r;
    qset q;
    int32_t *live;
    size_t nl;
    int k;
    dg_reach_options o;
    dg_reach_stats st;
    reseed(13);
    if (!tg_create(&t, "signatures", 0, 64, 0)) return;
    tg_add_vertices(&t, 6000);
    build_graph(&t, G_DAG, 6000, 24000, 0);
    csr_from_model(&r, &t.m, 0);
    live = csr_live(&r, &nl);
    memset(&q, 0, sizeof q);
    gen_queries(&q, &r, live, nl, 3000, 10, 0, 0);
    for (k = 0; k < 2; k++) {
        o = opts(3, k ? DG_REACH_BUILD_DEVICE : DG_REACH_BUILD_HOST, 0, 1);
        memset(&st, 0, sizeof st);
        check_reach(&t, &r, &q, 2, &o, k ? "random DAG, signatures, device" : "random DAG, signatures, host", &st);
        CHECK_MSG(st.by_signatures * 20 >= st.queries,
                  "[signatures] %s build: %llu queries, %llu by signatures, %llu by labels, %llu searched",
                  k ? "device" : "host", (unsigned long long)st.queries,
                  (unsigned long long)st.by_signatures, (unsigned long long)st.by_labels,
                  (unsigned long long)st.searched);
        printf("test_reach: signatures, %s build: %llu of %llu queries by signatures, %llu by labels, %llu searched\n",
               k ? "device" : "host", (unsigned long long)st.by_signatures, (unsigned long long)st.queries,
               (unsigned long long)st.by_labels, (unsigned long long)st.searched);
    }
    /* every search kernel, on the DAG of components and (after removals: filter-only) on the
       pages, with the signature test forced on and off (dg__reach_sig_search): the same answers */
    for (k = 0; k < 2; k++) {
        int force, j;
        if (k == 1) {
            for (j = 0; j < 400; j++) {
                int32_t u, v;
                m_random_arc(&t.m, &u, &v);
                if (u >= 0) tg_remove_edge(&t, u, v);
            }
            csr_free(&r);
            csr_from_model(&r, &t.m, 0);
            qs_free(&q);
            gen_queries(&q, &r, live, nl, 2000, 10, 0, 0);
        }
        for (force = 1; force >= -1; force -= 2) {
            char label[96];
            snprintf(label, sizeof label, "random DAG, signature search %s, %s", force > 0 ? "on" : "off",
                     k ? "after removals (pages)" : "exact (DAG)");
            dg__reach_sig_search = force;
            o = opts(3, DG_REACH_BUILD_HOST, 0, 0);
            memset(&st, 0, sizeof st);
            check_reach(&t, &r, &q, 2, &o, label, &st);
            CHECK_MSG(st.searched > 0 && st.filter_only == k, "[signatures] %s: %llu searched, filter_only %d",
                      label, (unsigned long long)st.searched, st.filter_only);
        }
    }
    dg__reach_sig_search = 0;
    free(live);
    csr_free(&r);
    qs_free(&q);
    CHECK(t.ok);
    tg_free(&t);
}

/* opt.search_mb: a small budget gives small batches, same answers; one too small for the graph
   is refused with DG_ERR_LIMIT before anything is written, and the next call works. */
static void test_search_memory(void)
{
    tg t;
    csr r;
    qset q;
    int32_t k;
    size_t i;
    dg_reach_options o;
    dg_reach_stats st;
    uint8_t *res;
    unsigned b2;
    reseed(11);
    if (!tg_create(&t, "search memory", 0, 128, 0)) return;
    tg_add_vertices(&t, 60000);
    for (k = 0; k < 3000; k += 5) {           /* cycles of 5: one component each */
        int32_t j;
        for (j = 0; j < 5; j++) tg_add_edge(&t, k + j, k + (j + 1) % 5);
    }
    for (k = 3000; k + 1 < 60000; k += 2) tg_add_edge(&t, k, k + 1);
    memset(&q, 0, sizeof q);
    for (i = 0; i < 3000; i++) {
        int32_t s0 = (int32_t)rnd(3000), t0 = s0 - s0 % 5 + (int32_t)rnd(5);
        qs_push(&q, s0, i % 7 ? t0 : (int32_t)rnd(60000));
    }
    o = opts(2, DG_REACH_BUILD_HOST, 0, 0);
    csr_from_model(&r, &t.m, 0);
    check_reach(&t, &r, &q, 2, &o, "exact", NULL);
    csr_free(&r);
    tg_remove_edge(&t, 7, 8);                 /* filter-only: searched on the pages, 60000 ids */
    csr_from_model(&r, &t.m, 0);
    o.search_mb = 2;                          /* 2 MiB / 6 arrays / (60000 x 4 bytes): 1 word */
    memset(&st, 0, sizeof st);
    check_reach(&t, &r, &q, 2, &o, "filter-only, search_mb 2", &st);
    b2 = st.batches;
    CHECK_MSG(st.filter_only == 1 && st.searched > 0 && st.batches >= (st.searched + 31) / 32,
              "[search memory] search_mb 2: filter_only %d, %llu searched in %u batches (32 per batch expected)",
              st.filter_only, (unsigned long long)st.searched, (unsigned)st.batches);
    res = (uint8_t *)xmalloc(q.n);
    o.search_mb = 1;                          /* less than a word per id: refused */
    expect_refused(&t, q.s, q.t, q.n, res, &o, 1, DG_ERR_LIMIT, -1, "search_mb 1, 60000 vertex ids");
    CHECK_MSG(strstr(dg_error_message(t.g), "search memory") != NULL, "[search memory] message: %s",
              dg_error_message(t.g));
    free(res);
    o.search_mb = 0;
    memset(&st, 0, sizeof st);
    check_reach(&t, &r, &q, 2, &o, "filter-only, default search memory", &st);
    CHECK_MSG(st.batches >= 1 && st.batches * 4 <= b2, "[search memory] default: %llu searched in %u batches, "
              "with search_mb 2 in %u", (unsigned long long)st.searched, (unsigned)st.batches, b2);
    csr_free(&r);
    qs_free(&q);
    CHECK(t.ok);
    tg_free(&t);
}

/* ================================ datasets ================================ */
/* dg_load of $DG_DATA/file into t (directed, page size 1024) and its arcs read by ds_read;
   the counts must agree. Returns 0 after a failed check. */
static int load_pair(tg *t, const char *file, dg_format fmt, ds_arcs *a, csr *r)
{
    char path[1200];
    memset(r, 0, sizeof *r);
    if (!ds_read(ds_path(path, sizeof path, file), a)) { CHECK_MSG(0, "[%s] cannot read %s", file, path); return 0; }
    if (!tg_create(t, file, 0, 1024, 0)) { ds_free(a); return 0; }
    if (!ds_load_into(t->g, file, fmt, file)) { tg_free(t); ds_free(a); return 0; }
    csr_from_arcs(r, (int32_t)a->bound, a->src, a->dst, a->n);
    CHECK_MSG(dg_vertex_id_bound(t->g) == (size_t)a->bound && dg_edge_count(t->g) == r->narcs,
              "[%s] loaded: bound %zu, %zu edges; the file: bound %lld, %zu distinct arcs", file,
              dg_vertex_id_bound(t->g), dg_edge_count(t->g), (long long)a->bound, r->narcs);
    t->ins = 1;
    return 1;
}

/* the vertices with an arc (free it) */
static int32_t *touched_vertices(const csr *r, size_t *n)
{
    unsigned char *f = (unsigned char *)xcalloc((size_t)r->n + 1, 1);
    int32_t *l, v;
    size_t i;
    for (i = 0; i < r->narcs; i++) f[r->adj[i]] = 1;
    for (v = 0; v < r->n; v++) if (r->off[v + 1] > r->off[v]) f[v] = 1;
    l = (int32_t *)xmalloc(((size_t)r->n + 1) * sizeof(int32_t));
    *n = 0;
    for (v = 0; v < r->n; v++) if (f[v]) l[(*n)++] = v;
    free(f);
    return l;
}

static void test_grail(void)
{
    size_t nf, fi;
    char **files = ds_list(".gra", &nf);
    int changed = 0;
    reseed(7);
    CHECK_MSG(nf >= 1, "no .gra file under %s", ds_dir());
    printf("test_reach: %zu .gra files under %s\n", nf, ds_dir());
    for (fi = 0; fi < nf; fi++) {
        tg t;
        ds_arcs a;
        csr r;
        qset q;
        size_t np, nt;
        int32_t *pool, *touched;
        dg_reach_options o;
        dg_reach_stats st;
        uint32_t d = 1 + (uint32_t)(fi % 8);
        if (!load_pair(&t, files[fi], fi % 2 ? DG_FORMAT_GRAIL : DG_FORMAT_AUTO, &a, &r)) continue;
        memset(&q, 0, sizeof q);
        pool = csr_live(&r, &np);
        touched = touched_vertices(&r, &nt);
        gen_queries(&q, &r, pool, np, 800, 20, 10, 5);
        gen_queries(&q, &r, touched, nt, 1600, 40, 15, 3);
        o = opts(0, DG_REACH_BUILD_AUTO, 0, 0);
        memset(&st, 0, sizeof st);
        check_reach(&t, &r, &q, 2, &o, "host", &st);
        CHECK_MSG(st.components == (size_t)r.n, "[%s] a DAG: %zu components for %d vertices", files[fi],
                  st.components, (int)r.n);
        o = opts(d, DG_REACH_BUILD_DEVICE, 77 + fi, 0);
        check_reach(&t, &r, &q, 2, &o, "device", NULL);
        o = opts(0, DG_REACH_BUILD_AUTO, 0, 0);
        check_reach(&t, &r, &q, 0, NULL, "dg_reach, device index", NULL);
        /* the smallest and the largest files are changed: removals, then cycles */
        if ((strstr(files[fi], "kegg") || strstr(files[fi], "human")) && changed < 2) {
            size_t i;
            dg_edge *e;
            changed++;
            while (t.m.bound < (int32_t)a.bound) m_add_vertex(&t.m);
            for (i = 0; i < a.n; i++) m_add_edge(&t.m, a.src[i], a.dst[i], 1.0f);
            tg_counts_ok(&t, "model of the file");
            e = (dg_edge *)xmalloc(400 * sizeof(dg_edge));
            for (i = 0; i < 400; i++) {
                m_random_arc(&t.m, &e[i].src, &e[i].dst);
                if (e[i].src < 0) e[i].src = e[i].dst = 0;
                e[i].weight = 1;
            }
            tg_remove_edges(&t, e, 400);
            for (i = 0; i < 30; i++) tg_remove_vertex(&t, m_random_live(&t.m));
            o = opts(d, DG_REACH_BUILD_AUTO, 0, 0);
            check_now(&t, 2000, 40, 15, 5, 2, &o, "400 edges and 30 vertices removed", &st);
            CHECK_MSG(st.filter_only == 1 && st.index_built == 0, "[%s] after removals: filter_only %d, index_built %d",
                      files[fi], st.filter_only, st.index_built);
            for (i = 0; i < 400; i++) {     /* arcs back from reached vertices: cycles */
                int32_t s = m_random_live(&t.m), x;
                csr rr;
                size_t cnt;
                if (i % 50 == 0 || !t.m.out[s].n) {
                    e[i].src = s; e[i].dst = m_random_live(&t.m); e[i].weight = 1;
                } else {
                    csr_from_model(&rr, &t.m, 0);
                    cnt = ref_bfs(&rr, s);
                    x = bfs_queue[cnt - 1];
                    csr_free(&rr);
                    e[i].src = x; e[i].dst = s; e[i].weight = 1;
                }
                if (i % 20 == 19) tg_add_edges(&t, e + i - 19, 20);
            }
            o = opts(d, DG_REACH_BUILD_HOST, 0, 0);
            check_now(&t, 2000, 40, 15, 5, 2, &o, "cycles added", &st);
            CHECK_MSG(st.index_built == 1 && st.components < t.m.nalive, "[%s] after cycles: index_built %d, %zu components for %zu vertices",
                      files[fi], st.index_built, st.components, t.m.nalive);
            o = opts(d, DG_REACH_BUILD_DEVICE, 0, 0);
            check_now(&t, 2000, 40, 15, 5, 2, &o, "cycles added, device", NULL);
            free(e);
        }
        CHECK(t.ok);
        free(pool); free(touched);
        qs_free(&q);
        csr_free(&r);
        ds_free(&a);
        tg_free(&t);
    }
    ds_list_free(files, nf);
}

static void test_citations(void)
{
    const char *file = "snap/cit-HepPh_partial.txt";
    tg t;
    ds_arcs a;
    csr r;
    qset q;
    size_t np, nt;
    int32_t *pool, *touched;
    dg_reach_options o;
    dg_reach_stats st;
    double t0 = now_s();
    reseed(8);
    if (!load_pair(&t, file, DG_FORMAT_AUTO, &a, &r)) return;
    memset(&q, 0, sizeof q);
    pool = csr_live(&r, &np);
    touched = touched_vertices(&r, &nt);
    gen_queries(&q, &r, pool, np, 300, 0, 0, 3);          /* mostly isolated ids */
    gen_queries(&q, &r, touched, nt, 1800, 40, 15, 3);
    /* one label: the index of 9.9 million components takes 8 x (2d + 2) bytes each, and its
       build is most of this part's time */
    o = opts(1, DG_REACH_BUILD_AUTO, 0, 0);
    memset(&st, 0, sizeof st);
    check_reach(&t, &r, &q, 2, &o, "AUTO, 1 label", &st);
    printf("test_reach: %s: %zu queries, %llu positive, %llu searched, %zu components (%.1f s)\n", file, q.n,
           (unsigned long long)st.positive, (unsigned long long)st.searched, st.components, now_s() - t0);
    /* (one build only: on an id bound of 9.9 million it is the longest call of the test; both
       builds are checked on every other graph) */
    {   /* filter-only: 300 arcs removed (the reference rebuilt from the remaining arcs) */
        dg_edge *e = (dg_edge *)xmalloc(300 * sizeof(dg_edge));
        size_t i, removed = 0;
        unsigned char *gone = (unsigned char *)xcalloc(a.n, 1);
        for (i = 0; i < 300; i++) {
            size_t k = rnext() % a.n;
            e[i].src = a.src[k]; e[i].dst = a.dst[k]; e[i].weight = 1;
        }
        for (i = 0; i < a.n; i++) {     /* every copy of a removed arc goes */
            size_t j;
            for (j = 0; j < 300; j++) if (a.src[i] == e[j].src && a.dst[i] == e[j].dst) { gone[i] = 1; break; }
        }
        {
            dg_status s = dg_remove_edges(t.g, e, 300, &removed);
            CHECK_MSG(s == DG_OK, "[%s] dg_remove_edges: %s", file, dg_status_string(s));
        }
        for (i = 0; i < a.n; i++) if (gone[i]) { a.src[i] = a.src[a.n - 1]; a.dst[i] = a.dst[a.n - 1]; gone[i] = gone[a.n - 1]; a.n--; i--; }
        csr_free(&r);
        csr_from_arcs(&r, (int32_t)a.bound, a.src, a.dst, a.n);
        CHECK_MSG(dg_edge_count(t.g) == r.narcs, "[%s] %zu edges after removing %zu, reference %zu", file,
                  dg_edge_count(t.g), removed, r.narcs);
        t.del = 1;
        o = opts(1, DG_REACH_BUILD_AUTO, 0, 0);
        memset(&st, 0, sizeof st);
        check_reach(&t, &r, &q, 2, &o, "filter-only", &st);
        printf("test_reach: %s: filter-only: %llu searched in %u batches (%.1f s)\n", file,
               (unsigned long long)st.searched, (unsigned)st.batches, now_s() - t0);
        free(e); free(gone);
    }
    free(pool); free(touched);
    qs_free(&q);
    csr_free(&r);
    ds_free(&a);
    tg_free(&t);
}

/* ================================ random mutation sequences ================================ */
static void random_opts(tg *t, int *mode, dg_reach_options *o)
{
    int x = (int)rnd(100);
    memset(o, 0, sizeof *o);
    *mode = x < 8 ? 0 : x < 14 ? 1 : 2;
    if (!*mode) return;
    x = (int)rnd(100);
    o->labels = x < 60 ? (t->known ? t->d : DG_REACH_LABELS) : x < 85 ? 1 + rnd(8) : 0;
    x = (int)rnd(100);
    o->build = x < 45 ? DG_REACH_BUILD_AUTO : x < 75 ? DG_REACH_BUILD_HOST : DG_REACH_BUILD_DEVICE;
    o->seed = chance(20) ? 1 + rnext() % 100000 : t->seed_known ? t->seed : 0;
    o->rebuild = chance(5);
}

static void run_sequence(unsigned part, const char *name, int undirected, uint32_t page, int32_t nv, size_t ne,
                         int steps, size_t nq)
{
    tg t;
    int k, mode = 2;
    dg_reach_options o;
    static const char *KINDS[] = { "add edge", "remove edge", "remove vertex", "add vertex", "add batch",
                                   "remove batch", "edit edge", "removal run", "nothing" };
    reseed(part);
    if (!tg_create(&t, name, undirected, page, 0)) return;
    tg_add_vertices(&t, (size_t)nv);
    build_graph(&t, undirected ? G_RANDOM : G_SCC_CHAIN, nv, ne, 1);
    if (!undirected) build_graph(&t, G_HUB, nv, ne / 4, 0);
    o = opts(0, DG_REACH_BUILD_AUTO, 0, 0);
    check_now(&t, nq, 35, 15, 5, 2, &o, "start", NULL);
    for (k = 0; k < steps && t.ok; k++) {
        int x = (int)rnd(100), kind, runs = 1, j;
        char where[120];
        int32_t u, v;
        kind = x < 18 ? 0 : x < 34 ? 1 : x < 42 ? 2 : x < 50 ? 3 : x < 62 ? 4 : x < 74 ? 5 : x < 80 ? 6 : x < 94 ? 7 : 8;
        if (kind == 7) { runs = 3 + (int)rnd(5); o.rebuild = 0; }
        else random_opts(&t, &mode, &o);
        for (j = 0; j < runs && t.ok; j++) {
            int kk = kind == 7 ? (int)(chance(50) ? 1 : chance(60) ? 5 : 2) : kind;
            switch (kk) {
            case 0:
                u = m_random_live(&t.m); v = chance(3) ? u : m_random_live(&t.m);
                if (u >= 0) tg_add_edge(&t, u, v);
                break;
            case 1:
                m_random_arc(&t.m, &u, &v);
                if (u >= 0) tg_remove_edge(&t, u, v);
                break;
            case 2:
                if (t.m.nalive > 20) tg_remove_vertex(&t, m_random_live(&t.m));
                break;
            case 3: {
                int e, ne2 = (int)rnd(4);
                tg_add_vertices(&t, 1 + (chance(20) ? rnd(5) : 0));
                for (e = 0; e < ne2; e++) {
                    u = t.m.bound - 1; v = m_random_live(&t.m);
                    if (chance(50)) tg_add_edge(&t, u, v); else tg_add_edge(&t, v, u);
                }
                break;
            }
            case 4: {
                size_t n = 1 + rnd(chance(20) ? 400 : 60);
                dg_edge *e = random_edges(&t.m, n);
                tg_add_edges(&t, e, n);
                free(e);
                break;
            }
            case 5: {
                size_t n = 1 + rnd(60), i;
                dg_edge *e = (dg_edge *)xmalloc(n * sizeof(dg_edge));
                for (i = 0; i < n; i++) {
                    m_random_arc(&t.m, &u, &v);
                    if (u < 0 || chance(20)) { u = m_random_live(&t.m); v = m_random_live(&t.m); }
                    e[i].src = u; e[i].dst = v; e[i].weight = 1;
                    if (i && chance(5)) e[i] = e[rnd((uint32_t)i)];
                }
                tg_remove_edges(&t, e, n);
                free(e);
                break;
            }
            case 6:
                m_random_arc(&t.m, &u, &v);
                if (u >= 0) tg_edit_edge(&t, u, v, m_random_live(&t.m));
                break;
            default:
                break;
            }
            if (chance(30)) {
                dg_status s = dg_sync(t.g);
                CHECK_MSG(s == DG_OK, "[%s] dg_sync: %s", name, dg_status_string(s));
            }
            snprintf(where, sizeof where, "step %d.%d (%s)", k, j, KINDS[kind == 7 ? kk : kind]);
            check_now(&t, nq + rnd((uint32_t)nq), 30 + (int)rnd(30), (int)rnd(20), (int)rnd(6), mode, &o, where, NULL);
        }
        if (k % 10 == 9) tg_counts_ok(&t, "sequence");
    }
    tg_counts_ok(&t, "end");
    CHECK(t.ok);
    tg_free(&t);
}

static double w0;                 /* the start, for the progress lines */
static void done(const char *part) { printf("test_reach: %s done (%.1f s)\n", part, now_s() - w0); }

static void case_bad(void) { test_bad_input(); done("bad"); }
static void case_bookkeeping(void) { test_bookkeeping(); done("bookkeeping"); }
static void case_labels(void) { test_labels_seeds(); done("labels"); }
static void case_graphs(void) { test_graphs(); done("graphs"); }
static void case_removals(void) { test_removals(); done("removals"); }
static void case_chunks(void) { test_two_chunks(); done("chunks"); }
static void case_memory(void) { test_search_memory(); done("memory"); }
static void case_hubs(void) { test_hubs(); done("hubs"); }
static void case_signatures(void) { test_signatures(); done("signatures"); }
static void case_grail(void) { test_grail(); done("grail"); }
static void case_citations(void) { test_citations(); done("citations"); }
static void case_sequences(void)
{
    run_sequence(20, "sequence directed, page 64", 0, 64, 500, 900, 120, 150);
    run_sequence(21, "sequence undirected, page 128", 1, 128, 400, 500, 60, 150);
    run_sequence(22, "sequence directed, page 1024", 0, 1024, 1500, 3000, 40, 300);
    done("sequences");
}
static const tt_case cases[] = {
    { "compare", test_compare }, { "bad", case_bad }, { "bookkeeping", case_bookkeeping }, { "labels", case_labels },
    { "graphs", case_graphs }, { "removals", case_removals }, { "chunks", case_chunks }, { "memory", case_memory },
    { "hubs", case_hubs }, { "signatures", case_signatures }, { "grail", case_grail }, { "citations", case_citations }, { "sequences", case_sequences },
};

int main(int argc, char **argv)
{
    clock_t c0 = clock();
    w0 = now_s();
    setvbuf(stdout, NULL, _IOLBF, 0);
    seed = trand_seed(argc, argv, DEFAULT_SEED, "test_reach");   /* each case reseeds from it */

    TT_RUN("test_reach", cases);
    bfs_release();
    printf("test_reach: %ld dg_reach calls, %.0f queries checked, %.1f s CPU, %.1f s (seed %llu)\n", reach_calls,
           queries_checked, (double)(clock() - c0) / CLOCKS_PER_SEC, now_s() - w0, (unsigned long long)seed);
    return TT_SUMMARY("test_reach");
}
