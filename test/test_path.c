/* test_path.c - pathfinding with dg_bfs and dg_sssp: several sources, early exit at targets,
   and the path to a target, against plain C references.

   The references are independent of the library: the graphs are kept in tgraph.h's model and
   searched by a multi-source FIFO BFS and a multi-source binary-heap Dijkstra (integer weights
   1..9, so float sums are exact). Each search is compared in full:
   - dist: a search without targets (or a strategy that does not stop early) gives every entry
     exactly; one that stops early gives every vertex no farther than the farthest target its
     exact distance, and every other vertex its exact distance or -1 (BFS) / INFINITY (SSSP);
   - parent / pred: the sources are their own parents; every other reached vertex's parent is an
     in-neighbour one hop closer (BFS) or a tight one (SSSP: dist[p] + w == dist[v]);
   - the path to targets[0]: its length (BFS: hops + 1; SSSP: the weights along it sum to the
     distance), path[0] a source, consecutive vertices joined by arcs, the last one the target;
     only path_capacity entries written (sentinels after them stay), and the full length
     reported when the path is longer;
   - stats.vertices_reached = the entries >= 0 (BFS) / finite (SSSP).
   Early exit is also checked to happen: on a path of 300 vertices a target 10 hops away must
   leave the far end unreached, for TOP_DOWN, DIRECTION_OPT and NEAR_FAR (delta 4).

   Graphs: a 40 x 30 grid with walls (removed vertices), a random directed graph of 2000
   vertices with hubs spanning pages (page size 64), two undirected components, a path of 300;
   each search picks 1-5 sources (repeats, source -1), 0-3 targets (a source among them at
   times, unreachable ones at times) and a strategy in turn.
   Bad input: no source, removed or negative sources and targets, a count without an array, a
   path without a target.

   Usage: test_path [seed]
   Results without waiting (case outputs): dist into dg_host_alloc memory and into a caller's
   cl_mem (dist_buffer) equal the plain result; bad buffers are refused.
   Cases (DG_TESTS=test_path:NAME): bad, early, graphs, outputs. */
#define DYNGRAPH_IMPLEMENTATION
/* results read back through the pinned staging buffer in pieces of 4 KB (dg__read_out's
   large-read path, which the GPU takes for reads of 1 MB and more) */
#define DG__READ_PINNED_MIN 4
#define DG__READ_PINNED_PIECE 4096
#include "dyngraph.h"
#include "tt.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <math.h>
#include <limits.h>

#include "trand.h"
#include "tgraph.h"

static uint64_t seed;
static long runs;
static long kernel_turn[2];       /* BFS's [0] and SSSP's [1] searches: which kernels run them */

/* ================================ references ================================ */
/* hops from the nearest of src[0..ns), -1 where unreached or removed */
static void ref_bfs(const model *m, const int32_t *src, int ns, int32_t *dist)
{
    int32_t *q = (int32_t *)xmalloc(((size_t)m->bound + 1) * sizeof(int32_t)), head = 0, tail = 0, v;
    int i;
    for (v = 0; v < m->bound; v++) dist[v] = -1;
    for (i = 0; i < ns; i++)
        if (dist[src[i]] < 0) { dist[src[i]] = 0; q[tail++] = src[i]; }
    while (head < tail) {
        int32_t u = q[head++];
        size_t k;
        for (k = 0; k < m->out[u].n; k++) {
            int32_t w = m->out[u].a[k].v;
            if (dist[w] < 0) { dist[w] = dist[u] + 1; q[tail++] = w; }
        }
    }
    free(q);
}

typedef struct { float d; int32_t v; } hnode;
static void h_push(hnode *h, size_t *n, float d, int32_t v)
{
    size_t i = (*n)++;
    while (i > 0 && h[(i - 1) / 2].d > d) { h[i] = h[(i - 1) / 2]; i = (i - 1) / 2; }
    h[i].d = d; h[i].v = v;
}
static hnode h_pop(hnode *h, size_t *n)
{
    hnode top = h[0], last = h[--*n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= *n) break;
        if (c + 1 < *n && h[c + 1].d < h[c].d) c++;
        if (h[c].d >= last.d) break;
        h[i] = h[c]; i = c;
    }
    if (*n) h[i] = last;
    return top;
}
/* weight of a shortest path from the nearest of src[0..ns), INFINITY where unreached */
static void ref_dijkstra(const model *m, const int32_t *src, int ns, float *d)
{
    size_t cap = 1 + (size_t)ns, n = 0, k;
    int32_t v;
    hnode *h;
    int i;
    for (v = 0; v < m->bound; v++) cap += m->out[v].n;
    h = (hnode *)xmalloc(cap * sizeof *h);
    for (v = 0; v < m->bound; v++) d[v] = INFINITY;
    for (i = 0; i < ns; i++) if (d[src[i]] != 0.0f) { d[src[i]] = 0.0f; h_push(h, &n, 0.0f, src[i]); }
    while (n) {
        hnode x = h_pop(h, &n);
        if (x.d > d[x.v]) continue;
        for (k = 0; k < m->out[x.v].n; k++) {
            float nd = x.d + m->out[x.v].a[k].w;
            int32_t u = m->out[x.v].a[k].v;
            if (nd < d[u]) { d[u] = nd; h_push(h, &n, nd, u); }
        }
    }
    free(h);
}

/* ================================ graphs ================================ */
static float wint(int kind) { return kind ? (float)(1 + rnd(9)) : 1.0f; }

/* a W x H grid, 4 neighbours, about `walls` percent of the cells removed */
static void build_grid(pair *p, int32_t W, int32_t H, int walls)
{
    int32_t x, y;
    pair_add_vertices(p, (size_t)W * (size_t)H);
    for (y = 0; y < H; y++)
        for (x = 0; x < W; x++) {
            int32_t v = y * W + x;
            if (x + 1 < W) pair_add_edge(p, v, v + 1, wint(p->kind));
            if (y + 1 < H) pair_add_edge(p, v, v + W, wint(p->kind));
            if (!p->m.undirected) {
                if (x + 1 < W) pair_add_edge(p, v + 1, v, wint(p->kind));
                if (y + 1 < H) pair_add_edge(p, v + W, v, wint(p->kind));
            }
        }
    for (x = 0; x < W * H * walls / 100; x++) {
        int32_t v = (int32_t)rnd((uint32_t)(W * H));
        if (m_live(&p->m, v)) pair_remove_vertex(p, v);
    }
}
/* n vertices, e random arcs, `hubs` vertices with 300 more out- and in-arcs */
static void build_random(pair *p, int32_t n, int32_t e, int hubs, int halves)
{
    edge_list el = { NULL, 0, 0 };
    int32_t i, h;
    pair_add_vertices(p, (size_t)n);
    for (i = 0; i < e; i++) {
        int32_t a = (int32_t)rnd((uint32_t)n), b = (int32_t)rnd((uint32_t)n);
        if (halves) { a = a / 2 * 2 + (b & 1); }   /* same parity: two components */
        el_add(&el, a, b)->weight = wint(p->kind);
    }
    for (h = 0; h < hubs; h++) {
        int32_t hub = (int32_t)rnd((uint32_t)n);
        for (i = 0; i < 300; i++) {
            el_add(&el, hub, (int32_t)rnd((uint32_t)n))->weight = wint(p->kind);
            el_add(&el, (int32_t)rnd((uint32_t)n), hub)->weight = wint(p->kind);
        }
    }
    pair_add_in_batches(p, el.e, el.n);
    free(el.e);
}
static void build_path(pair *p, int32_t n)
{
    int32_t v;
    pair_add_vertices(p, (size_t)n);
    for (v = 0; v + 1 < n; v++) pair_add_edge(p, v, v + 1, 1.0f);
}

/* ================================ checks ================================ */
#define SENT 0x5eed
static const dg_bfs_strategy BFS_STRATS[] = { DG_BFS_AUTO, DG_BFS_TOP_DOWN, DG_BFS_DIRECTION_OPT,
    DG_BFS_DIRECTION_OPT /* forced bottom-up */, DG_BFS_MASK, DG_BFS_QUEUE, DG_BFS_EDGE_CHUNK };
#define NBFS ((int)(sizeof BFS_STRATS / sizeof BFS_STRATS[0]))
static const dg_sssp_strategy SSSP_STRATS[] = { DG_SSSP_AUTO, DG_SSSP_NEAR_FAR, DG_SSSP_NEAR_FAR /* delta 2 */,
    DG_SSSP_BELLMAN_FORD, DG_SSSP_FRONTIER };
#define NSSSP ((int)(sizeof SSSP_STRATS / sizeof SSSP_STRATS[0]))

/* one search's seeds */
typedef struct {
    dg_vertex source;             /* -1 or a source */
    int32_t more[5]; int nmore;   /* opt.sources */
    int32_t all[6]; int nall;     /* every source (for the reference) */
    int32_t tgt[3]; int nt;
} seeds;

static void pick_seeds(const model *m, seeds *s)
{
    int i;
    memset(s, 0, sizeof *s);
    s->nmore = (int)rnd(5);
    s->source = (s->nmore > 0 && chance(30)) ? -1 : m_random_live(m);
    if (s->source >= 0) s->all[s->nall++] = s->source;
    for (i = 0; i < s->nmore; i++) {
        s->more[i] = (i > 0 && chance(20)) ? s->more[i - 1] : m_random_live(m);
        s->all[s->nall++] = s->more[i];
    }
    s->nt = (int)rnd(4);
    for (i = 0; i < s->nt; i++)
        s->tgt[i] = chance(15) ? s->all[rnd((uint32_t)s->nall)] : m_random_live(m);
}

static int is_source(const seeds *s, int32_t v)
{
    int i;
    for (i = 0; i < s->nall; i++) if (s->all[i] == v) return 1;
    return 0;
}

/* the path (n vertices, cap of them written into path[], path_len reported) checked: a source
   first, arcs between neighbours, the target last; SSSP: the weights sum to want_w */
static void check_path(const model *m, const seeds *s, const int32_t *path, size_t cap, size_t len,
                       size_t want_len, float want_w, int sssp, const char *label)
{
    size_t i, k = len < cap ? len : cap;
    float sum = 0;
    if (!sssp) CHECK_MSG(len == want_len, "[%s] path length %zu, want %zu", label, len, want_len);
    else CHECK_MSG((len == 0) == (want_len == 0), "[%s] path length %zu, target %s", label, len, want_len ? "reached" : "unreached");
    for (i = k; i < cap + 2; i++) CHECK_MSG(path[i] == SENT, "[%s] path[%zu] written past min(cap %zu, len %zu)", label, i, cap, len);
    if (k == 0) return;
    CHECK_MSG(is_source(s, path[0]), "[%s] path starts at %d, not a source", label, (int)path[0]);
    for (i = 0; i + 1 < k; i++) {
        long at = m_find(m, path[i], path[i + 1]);
        CHECK_MSG(at >= 0, "[%s] path step %d -> %d is no arc", label, (int)path[i], (int)path[i + 1]);
        if (at >= 0) sum += m->out[path[i]].a[at].w;
    }
    if (k == len) {
        CHECK_MSG(path[len - 1] == s->tgt[0], "[%s] path ends at %d, target %d", label, (int)path[len - 1], (int)s->tgt[0]);
        if (sssp) CHECK_MSG(sum == want_w, "[%s] path weighs %g, distance %g", label, (double)sum, (double)want_w);
    }
}

/* BFS: strategy index si */
static void run_bfs(pair *p, const seeds *s, int si, const char *glabel)
{
    const model *m = &p->m;
    size_t n = (size_t)m->bound, i, reached = 0, plen = 12345, cap;
    int32_t *ref = (int32_t *)xmalloc(n * 4), *dist = (int32_t *)xmalloc(n * 4), *par = (int32_t *)xmalloc(n * 4);
    int32_t *path = (int32_t *)xmalloc((n + 3) * 4), D = INT_MAX;
    dg_bfs_options o;
    dg_bfs_stats st;
    dg_status r;
    char label[300];
    int early, k;
    ref_bfs(m, s->all, s->nall, ref);
    if (s->nt) for (k = 0, D = 0; k < s->nt; k++) D = ref[s->tgt[k]] < 0 ? INT_MAX : (ref[s->tgt[k]] > D ? ref[s->tgt[k]] : D);
    cap = s->nt && ref[s->tgt[0]] >= 0 ? rnd((uint32_t)ref[s->tgt[0]] + 3) : rnd(3);
    memset(&o, 0, sizeof o);
    o.strategy = BFS_STRATS[si];
    if (si == 3) { o.alpha = 1e9f; o.beta = 1e9f; }
    o.parent = par; o.stats = &st;
    o.sources = s->nmore ? (const dg_vertex *)s->more : NULL; o.source_count = (size_t)s->nmore;
    o.targets = s->nt ? (const dg_vertex *)s->tgt : NULL; o.target_count = (size_t)s->nt;
    if (s->nt) { o.path = path; o.path_capacity = cap; o.path_length = &plen; }
    for (i = 0; i < n; i++) dist[i] = par[i] = SENT;
    for (i = 0; i < n + 3; i++) path[i] = SENT;
    early = s->nt > 0 && si < 4;
    snprintf(label, sizeof label, "%s, bfs strategy %d, %d sources (source %d), %d targets, cap %zu, seed %llu",
             glabel, si, s->nall, (int)s->source, s->nt, cap, (unsigned long long)seed);
    dg__bfs_flat = (int)(kernel_turn[0]++ & 1);   /* BFS's GPU kernels and the CPU device's flat
                                                     ones in turn (the default on PoCL: the flat ones
                                                     only), targets and stops included */
    r = dg_bfs(p->g, s->source, dist, &o);
    dg__bfs_flat = -1;
    runs++;
    CHECK_MSG(r == DG_OK, "[%s] dg_bfs: %s %s", label, dg_status_string(r), dg_error_message(p->g));
    if (r != DG_OK) goto out;
    for (i = 0; i < n; i++) {
        int32_t d = dist[i], want = ref[i];
        int ok = (want >= 0 && want <= D) || !early ? d == want : (d == -1 || d == want);
        CHECK_MSG(ok, "[%s] dist[%zu] = %d, reference %d (farthest target %d)", label, i, (int)d, (int)want, (int)D);
        if (!ok) break;
        reached += d >= 0;
        if (d == 0) CHECK_MSG(par[i] == (int32_t)i && is_source(s, (int32_t)i), "[%s] %zu at 0: parent %d", label, i, (int)par[i]);
        else if (d > 0) {
            int32_t q = par[i];
            int good = q >= 0 && (size_t)q < n && dist[q] == d - 1 && m_has(m, q, (int32_t)i);
            CHECK_MSG(good, "[%s] parent of %zu (dist %d) is %d", label, i, (int)d, (int)q);
            if (!good) break;
        } else CHECK_MSG(par[i] == -1, "[%s] unreached %zu has parent %d", label, i, (int)par[i]);
    }
    CHECK_MSG(st.vertices_reached == reached, "[%s] stats say %llu reached, dist %zu", label,
              (unsigned long long)st.vertices_reached, reached);
    CHECK_MSG(st.device_ms <= 0 || (st.kernel_ms > 0 && st.kernel_ms <= st.device_ms * 1.0001 + 1e-6),
              "[%s] stats: kernels %g ms of a %g ms span", label, st.kernel_ms, st.device_ms);
    if (s->nt)
        check_path(m, s, path, cap, plen, ref[s->tgt[0]] >= 0 ? (size_t)ref[s->tgt[0]] + 1 : 0, 0, 0, label);
out:
    free(ref); free(dist); free(par); free(path);
}

static void run_sssp(pair *p, const seeds *s, int si, const char *glabel)
{
    const model *m = &p->m;
    size_t n = (size_t)m->bound, i, reached = 0, plen = 12345, cap;
    float *ref = (float *)xmalloc(n * 4), *dist = (float *)xmalloc(n * 4), D = INFINITY;
    int32_t *pred = (int32_t *)xmalloc(n * 4), *path = (int32_t *)xmalloc((n + 3) * 4);
    dg_sssp_options o;
    dg_sssp_stats st;
    dg_status r;
    char label[300];
    int early, k;
    ref_dijkstra(m, s->all, s->nall, ref);
    if (s->nt) for (k = 0, D = 0; k < s->nt; k++) D = ref[s->tgt[k]] > D ? ref[s->tgt[k]] : D;
    cap = s->nt && ref[s->tgt[0]] < INFINITY ? rnd((uint32_t)n / 8 + 3) : rnd(3);
    memset(&o, 0, sizeof o);
    o.strategy = SSSP_STRATS[si];
    if (si == 2) o.delta = 2.0f;
    o.pred = pred; o.stats = &st;
    o.sources = s->nmore ? (const dg_vertex *)s->more : NULL; o.source_count = (size_t)s->nmore;
    o.targets = s->nt ? (const dg_vertex *)s->tgt : NULL; o.target_count = (size_t)s->nt;
    if (s->nt) { o.path = path; o.path_capacity = cap; o.path_length = &plen; }
    for (i = 0; i < n; i++) { dist[i] = -7.0f; pred[i] = SENT; }
    for (i = 0; i < n + 3; i++) path[i] = SENT;
    early = s->nt > 0 && si < 3;
    snprintf(label, sizeof label, "%s, sssp strategy %d, %d sources (source %d), %d targets, cap %zu, seed %llu",
             glabel, si, s->nall, (int)s->source, s->nt, cap, (unsigned long long)seed);
    dg__sssp_flat = (int)(kernel_turn[1]++ & 1);   /* near-far's GPU kernel and the CPU device's flat
                                                      one in turn (the default on PoCL: the flat one only),
                                                      targets included */
    r = dg_sssp(p->g, s->source, dist, &o);
    dg__sssp_flat = -1;
    runs++;
    CHECK_MSG(r == DG_OK, "[%s] dg_sssp: %s %s", label, dg_status_string(r), dg_error_message(p->g));
    if (r != DG_OK) goto out;
    for (i = 0; i < n; i++) {
        float d = dist[i], want = ref[i];
        int ok = want <= D || !early ? d == want : (d == INFINITY || d == want);
        CHECK_MSG(ok, "[%s] dist[%zu] = %g, reference %g (farthest target %g)", label, i, (double)d, (double)want, (double)D);
        if (!ok) break;
        reached += d < INFINITY;
        if (d == 0) CHECK_MSG(pred[i] == (int32_t)i && is_source(s, (int32_t)i), "[%s] %zu at 0: pred %d", label, i, (int)pred[i]);
        else if (d < INFINITY) {
            int32_t q = pred[i];
            long at = q >= 0 && (size_t)q < n ? m_find(m, q, (int32_t)i) : -1;
            int good = at >= 0 && dist[q] < d && dist[q] + m->out[q].a[at].w == d;
            CHECK_MSG(good, "[%s] pred of %zu (dist %g) is %d", label, i, (double)d, (int)q);
            if (!good) break;
        } else CHECK_MSG(pred[i] == -1, "[%s] unreached %zu has pred %d", label, i, (int)pred[i]);
    }
    CHECK_MSG(st.vertices_reached == reached, "[%s] stats say %llu reached, dist %zu", label,
              (unsigned long long)st.vertices_reached, reached);
    CHECK_MSG(st.device_ms <= 0 || (st.kernel_ms > 0 && st.kernel_ms <= st.device_ms * 1.0001 + 1e-6),
              "[%s] stats: kernels %g ms of a %g ms span", label, st.kernel_ms, st.device_ms);
    if (s->nt) check_path(m, s, path, cap, plen, ref[s->tgt[0]] < INFINITY, ref[s->tgt[0]], 1, label);
out:
    free(ref); free(dist); free(pred); free(path);
}

/* ================================ cases ================================ */
static int make_pair(pair *p, uint32_t page, int und, int kind)
{
    return pair_create(p, page, und, kind);
}

static void case_bad(void)
{
    pair p;
    dg_bfs_options b;
    dg_sssp_options o;
    dg_vertex removed = 3, neg = -5, two[2] = { 1, 2 }, path[4];
    size_t len;
    int32_t dist[10];
    if (!make_pair(&p, 64, 0, 1)) return;
    build_path(&p, 10);
    pair_remove_vertex(&p, removed);
    memset(&b, 0, sizeof b);
    CHECK(dg_bfs(p.g, -1, dist, &b) == DG_ERR_INVALID_ARGUMENT);        /* no source at all */
    CHECK(dg_bfs(p.g, -2, dist, NULL) == DG_ERR_INVALID_ARGUMENT);
    b.source_count = 2;                                                    /* count, no array */
    CHECK(dg_bfs(p.g, 0, dist, &b) == DG_ERR_INVALID_ARGUMENT);
    b.sources = &removed; b.source_count = 1;
    CHECK(dg_bfs(p.g, 0, dist, &b) == DG_ERR_NOT_FOUND);
    CHECK(strstr(dg_error_message(p.g), "3") != NULL);
    b.sources = &neg;
    CHECK(dg_bfs(p.g, 0, dist, &b) == DG_ERR_INVALID_ARGUMENT);
    memset(&b, 0, sizeof b);
    b.targets = &removed; b.target_count = 1;
    CHECK(dg_bfs(p.g, 0, dist, &b) == DG_ERR_NOT_FOUND);
    b.target_count = 0; b.path = path; b.path_capacity = 4;               /* a path without a target */
    CHECK(dg_bfs(p.g, 0, dist, &b) == DG_ERR_INVALID_ARGUMENT);
    b.path = NULL; b.path_length = &len;
    CHECK(dg_bfs(p.g, 0, dist, &b) == DG_ERR_INVALID_ARGUMENT);
    memset(&b, 0, sizeof b);                                               /* source -1 with sources */
    b.sources = two; b.source_count = 2;
    CHECK(dg_bfs(p.g, -1, dist, &b) == DG_OK);
    CHECK(dist[0] == -1 && dist[1] == 0 && dist[2] == 0 && dist[3] == -1);

    memset(&o, 0, sizeof o);
    CHECK(dg_sssp(p.g, -1, NULL, &o) == DG_ERR_INVALID_ARGUMENT);
    o.sources = &removed; o.source_count = 1;
    CHECK(dg_sssp(p.g, 0, NULL, &o) == DG_ERR_NOT_FOUND);
    memset(&o, 0, sizeof o);
    o.targets = NULL; o.target_count = 1;
    CHECK(dg_sssp(p.g, 0, NULL, &o) == DG_ERR_INVALID_ARGUMENT);
    o.targets = &neg;
    CHECK(dg_sssp(p.g, 0, NULL, &o) == DG_ERR_INVALID_ARGUMENT);
    memset(&o, 0, sizeof o);
    o.path_length = &len;
    CHECK(dg_sssp(p.g, 0, NULL, &o) == DG_ERR_INVALID_ARGUMENT);
    pair_free(&p);
}

/* the searches do stop: a target 10 hops along a path of 300 leaves the far end unreached */
static void case_early(void)
{
    pair p;
    int32_t *dist;
    float *fd;
    dg_vertex t = 10, path[16];
    size_t len = 0;
    int si;
    if (!make_pair(&p, 64, 0, 0)) return;
    build_path(&p, 300);
    dist = (int32_t *)xmalloc(300 * 4);
    fd = (float *)xmalloc(300 * 4);
    for (si = 0; si < 3; si++) {
        dg_bfs_options o;
        dg_bfs_stats st;
        memset(&o, 0, sizeof o);
        o.strategy = si == 0 ? DG_BFS_TOP_DOWN : DG_BFS_DIRECTION_OPT;
        if (si == 2) { o.alpha = 1e9f; o.beta = 1e9f; }   /* bottom-up levels */
        o.targets = &t; o.target_count = 1; o.stats = &st;
        o.path = path; o.path_capacity = 16; o.path_length = &len;
        CHECK_MSG(dg_bfs(p.g, 0, dist, &o) == DG_OK, "bfs %d: %s", si, dg_error_message(p.g));
        CHECK_MSG(dist[10] == 10 && dist[9] == 9 && dist[200] == -1 && dist[299] == -1 && st.levels <= 13,
                  "bfs %d: dist[10] %d, dist[200] %d, %u levels", si, (int)dist[10], (int)dist[200], (unsigned)st.levels);
        CHECK(len == 11 && path[0] == 0 && path[10] == 10 && path[5] == 5);
    }
    {
        dg_sssp_options o;
        memset(&o, 0, sizeof o);
        o.delta = 4.0f;
        o.targets = &t; o.target_count = 1;
        o.path = path; o.path_capacity = 16; o.path_length = &len;
        CHECK(dg_sssp(p.g, 0, fd, &o) == DG_OK);
        CHECK_MSG(fd[10] == 10.0f && fd[0] == 0.0f && fd[100] == INFINITY && fd[299] == INFINITY,
                  "sssp: dist[10] %g, dist[100] %g", (double)fd[10], (double)fd[100]);
        CHECK(len == 11 && path[0] == 0 && path[10] == 10);
        o.path_capacity = 4;                 /* a short buffer: the start of the path, its length */
        path[4] = -9;
        CHECK(dg_sssp(p.g, 0, fd, &o) == DG_OK);
        CHECK(len == 11 && path[0] == 0 && path[3] == 3 && path[4] == -9);
    }
    {   /* a target that is a source: nothing else is searched */
        dg_bfs_options o;
        memset(&o, 0, sizeof o);
        t = 0;
        o.strategy = DG_BFS_TOP_DOWN;
        o.targets = &t; o.target_count = 1; o.path = path; o.path_capacity = 16; o.path_length = &len;
        CHECK(dg_bfs(p.g, 0, dist, &o) == DG_OK);
        CHECK(dist[0] == 0 && dist[1] == -1 && len == 1 && path[0] == 0);
    }
    free(dist); free(fd);
    pair_free(&p);
    {   /* more targets than a launch has work-items (a few thousand on a CPU device): none is
           forgotten, the farthest one included */
        int32_t nt = 5000, i, n = 6000, bad = 0;
        dg_vertex *tg = (dg_vertex *)xmalloc((size_t)nt * sizeof *tg);
        dg_sssp_options o;
        dg_bfs_options b;
        if (!make_pair(&p, 1024, 0, 0)) { free(tg); return; }
        build_path(&p, n);
        for (i = 0; i < nt - 1; i++) tg[i] = 1 + i;
        tg[nt - 1] = n - 1;
        fd = (float *)xmalloc((size_t)n * 4);
        dist = (int32_t *)xmalloc((size_t)n * 4);
        memset(&o, 0, sizeof o);
        o.delta = 64.0f;
        o.targets = tg; o.target_count = (size_t)nt;
        CHECK_MSG(dg_sssp(p.g, 0, fd, &o) == DG_OK, "%s", dg_error_message(p.g));
        for (i = 0; i < n; i++) bad += fd[i] != (float)i;
        CHECK_MSG(bad == 0, "sssp, %d targets: %d distances wrong (dist[%d] = %g)", (int)nt, bad, (int)(n - 1), (double)fd[n - 1]);
        memset(&b, 0, sizeof b);
        b.strategy = DG_BFS_TOP_DOWN;
        b.targets = tg; b.target_count = (size_t)nt;
        CHECK_MSG(dg_bfs(p.g, 0, dist, &b) == DG_OK, "%s", dg_error_message(p.g));
        for (i = 0, bad = 0; i < n; i++) bad += dist[i] != i;
        CHECK_MSG(bad == 0, "bfs, %d targets: %d distances wrong", (int)nt, bad);
        free(tg); free(fd); free(dist);
        pair_free(&p);
    }
}

static void searches(pair *p, const char *label, int tries)
{
    int i;
    for (i = 0; i < tries; i++) {
        seeds s;
        pick_seeds(&p->m, &s);
        run_bfs(p, &s, i % NBFS, label);
        run_sssp(p, &s, i % NSSSP, label);
    }
}

static void case_graphs(void)
{
    pair p;
    if (make_pair(&p, 1024, 1, 1)) {
        build_grid(&p, 40, 30, 12);
        searches(&p, "grid 40x30 undirected, weighted", 35);
        pair_free(&p);
    }
    if (make_pair(&p, 64, 0, 1)) {
        build_grid(&p, 30, 20, 20);
        searches(&p, "grid 30x20 directed, weighted", 21);
        pair_free(&p);
    }
    if (make_pair(&p, 64, 0, 1)) {
        build_random(&p, 2000, 5000, 3, 0);
        pair_remove_random(&p, 40);
        searches(&p, "random 2000 directed, hubs", 35);
        pair_free(&p);
    }
    if (make_pair(&p, 1024, 1, 0)) {
        build_random(&p, 3000, 6000, 0, 1);
        searches(&p, "two components undirected, unweighted", 21);
        pair_free(&p);
    }
    if (make_pair(&p, 64, 0, 0)) {
        build_path(&p, 300);
        searches(&p, "path of 300", 14);
        pair_free(&p);
    }
}

/* Results without waiting: dist into pinned host memory from dg_host_alloc (the read that
   skips the staging buffer), dist copied into a caller's cl_mem (dist_buffer) with or without
   a host copy, stats.read_ms, and bad buffers refused before anything runs. */
static void case_outputs(void)
{
    pair p;
    size_t n, i, k;
    int32_t *ref, *pin;
    float *fref;
    cl_mem buf = NULL, small = NULL, other = NULL;
    cl_context ctx, ctx2 = NULL;
    cl_device_id dev;
    cl_int e;
    double read_sum = 0;
    if (!make_pair(&p, 64, 1, 1)) return;
    build_grid(&p, 40, 30, 12);
    n = (size_t)p.m.bound;
    ref = (int32_t *)xmalloc(n * 4);
    fref = (float *)xmalloc(n * 4);
    CHECK(dg_host_alloc(p.g, 0) == NULL);
    pin = (int32_t *)dg_host_alloc(p.g, n * 4 + 64);
    CHECK(pin != NULL);
    ctx = dg_cl_context(p.g);
    dev = dg_cl_device(p.g);
    CHECK(ctx != NULL && dev != NULL);
    buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * 4, NULL, &e);
    CHECK(e == CL_SUCCESS);
    small = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * 4 - 4, NULL, &e);
    CHECK(e == CL_SUCCESS);
    ctx2 = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
    if (ctx2) other = clCreateBuffer(ctx2, CL_MEM_READ_WRITE, n * 4, NULL, &e);
    for (k = 0; k < 6 && pin && buf && small; k++) {
        dg_vertex src = (dg_vertex)((k * 397) % n);
        int sssp = k & 1;
        dg_bfs_options bo;
        dg_sssp_options so;
        dg_bfs_stats bst;
        dg_sssp_stats sst;
        int32_t *got = (int32_t *)xmalloc(n * 4);
        size_t direct0 = p.g->dev ? p.g->dev->reads_direct : 0;
        if (!p.m.alive[src]) { free(got); continue; }
        memset(&bo, 0, sizeof bo); memset(&so, 0, sizeof so);
        bo.stats = &bst; so.stats = &sst;
        if (k == 2) bo.strategy = DG_BFS_QUEUE;   /* (its dist lives at an offset in another buffer) */
        if (sssp) CHECK(dg_sssp(p.g, src, fref, NULL) == DG_OK);
        else CHECK(dg_bfs(p.g, src, ref, &bo) == DG_OK);
        /* into pinned memory (an odd offset in the block) */
        for (i = 0; i < n; i++) pin[i + 3] = SENT;
        if (sssp) CHECK(dg_sssp(p.g, src, (float *)(pin + 3), &so) == DG_OK && sst.read_ms >= 0.0);
        else CHECK(dg_bfs(p.g, src, pin + 3, &bo) == DG_OK && bst.read_ms >= 0.0);
        CHECK_MSG(!memcmp(pin + 3, sssp ? (void *)fref : (void *)ref, n * 4), "%s into dg_host_alloc memory differs",
                  sssp ? "dg_sssp" : "dg_bfs");
        CHECK_MSG(p.g->dev && p.g->dev->reads_direct > direct0, "%s did not read straight into dg_host_alloc memory", sssp ? "dg_sssp" : "dg_bfs");
        read_sum += sssp ? sst.read_ms : bst.read_ms;
        /* into the caller's buffer, with no host copy (BFS: nothing read back) */
        CHECK(clEnqueueFillBuffer(dg_cl_queue(p.g), buf, &(int32_t){SENT}, 4, 0, n * 4, 0, NULL, NULL) == CL_SUCCESS);
        bo.dist_buffer = so.dist_buffer = buf;
        for (i = 0; i < n; i++) got[i] = SENT;
        if (sssp) CHECK(dg_sssp(p.g, src, k == 3 ? (float *)(void *)got : NULL, &so) == DG_OK);
        else {
            CHECK(dg_bfs(p.g, src, k == 2 ? got : NULL, &bo) == DG_OK);
            if (k != 2) CHECK_MSG(bst.read_ms == 0.0, "dg_bfs read %g ms back with dist NULL", bst.read_ms);
        }
        if (k == 2 || k == 3)   /* dist to the host as well as to the buffer */
            CHECK_MSG(!memcmp(got, sssp ? (void *)fref : (void *)ref, n * 4), "%s's dist beside dist_buffer differs",
                      sssp ? "dg_sssp" : "dg_bfs");
        for (i = 0; i < n; i++) got[i] = SENT;
        CHECK(clEnqueueReadBuffer(dg_cl_queue(p.g), buf, CL_TRUE, 0, n * 4, got, 0, NULL, NULL) == CL_SUCCESS);
        CHECK_MSG(!memcmp(got, sssp ? (void *)fref : (void *)ref, n * 4), "%s's dist_buffer differs", sssp ? "dg_sssp" : "dg_bfs");
        /* refused: too small, another context */
        bo.dist_buffer = so.dist_buffer = small;
        CHECK((sssp ? dg_sssp(p.g, src, NULL, &so) : dg_bfs(p.g, src, NULL, &bo)) == DG_ERR_INVALID_ARGUMENT);
        CHECK(strstr(dg_error_message(p.g), "dist_buffer") != NULL);
        if (other) {
            bo.dist_buffer = so.dist_buffer = other;
            CHECK((sssp ? dg_sssp(p.g, src, NULL, &so) : dg_bfs(p.g, src, NULL, &bo)) == DG_ERR_INVALID_ARGUMENT);
        }
        free(got);
    }
    CHECK_MSG(read_sum > 0, "stats.read_ms summed to %g over the reads into pinned memory", read_sum);
    dg_host_free(p.g, pin);
    dg_host_free(p.g, NULL);
    CHECK(dg_host_alloc(p.g, 256) != NULL);     /* left for dg_destroy to free */
    if (buf) clReleaseMemObject(buf);
    if (small) clReleaseMemObject(small);
    if (other) clReleaseMemObject(other);
    if (ctx2) clReleaseContext(ctx2);
    free(ref); free(fref);
    pair_free(&p);
}

static const tt_case cases[] = { { "bad", case_bad }, { "early", case_early }, { "graphs", case_graphs },
                                 { "outputs", case_outputs } };

int main(int argc, char **argv)
{
    time_t w0 = time(NULL);
    setvbuf(stdout, NULL, _IOLBF, 0);
    seed = trand_seed(argc, argv, (uint64_t)time(NULL), "test_path");
    TT_RUN("test_path", cases);
    printf("test_path: %ld searches, %ld s (seed %llu)\n", runs, (long)(time(NULL) - w0), (unsigned long long)seed);
    return TT_SUMMARY("test_path");
}
