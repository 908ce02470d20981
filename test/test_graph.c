/* test_graph.c - whole-graph algorithms: dg_components, dg_scc, dg_triangles, dg_pagerank,
   against simple references written here (union-find; SCC as mutual reachability by BFS on the
   host; triangles by checking every pair of a vertex's neighbours in an adjacency matrix or a
   sorted-list lookup; PageRank by the power iteration in double).

   Cases (DG_TESTS=test_graph:NAME, see tt.h):
   - small: hand-made graphs with known answers (two triangles sharing an edge, a directed
     cycle with a tail, isolated and removed vertices, self-loops, a star's dangling mass);
   - random: random graphs of every kind ({directed, undirected} x page size {64, 1024}, with
     hubs over several pages, self-loops, removed ids), then random mutation rounds (edges and
     vertices added and removed, reused ids), each algorithm compared after every round;
   - cycles: reuse_ids over 2,000,000 remove / add cycles on 1,000 vertices: the id bound stays
     1,000, dg_validate passes, every algorithm still matches its reference;
   - datasets: Karate (78 edges, 45 triangles, 1 component) and CA-GrQc (compacted ids:
     355 components, 48,260 triangles) from the data directory;
   - bad: NULL graph, bad PageRank options, empty graphs. */
#define DYNGRAPH_IMPLEMENTATION
/* results read back through the pinned staging buffer in pieces of 4 KB (dg__read_out's
   large-read path, which the GPU takes for reads of 1 MB and more) */
#define DG__READ_PINNED_MIN 4
#define DG__READ_PINNED_PIECE 4096
#include "dyngraph.h"
#include "tt.h"
#include "trand.h"
#include "tdata.h"
#include <math.h>
#include <time.h>

/* ---- the reference: the graph read back through the public API ---- */
typedef struct ref {
    size_t n;
    uint8_t *alive;
    int64_t *off;                 /* out-arcs, CSR (dg_export_csr) */
    dg_vertex *t;
    int64_t *uoff;                /* the underlying undirected simple graph, sorted lists */
    dg_vertex *ut;
} ref;

static int cmp_v(const void *a, const void *b) { dg_vertex x = *(const dg_vertex *)a, y = *(const dg_vertex *)b; return (x > y) - (x < y); }

static void ref_take(dg_graph *g, ref *r)
{
    size_t v, i, m, k = 0;
    int64_t *cnt;
    r->n = dg_vertex_id_bound(g);
    r->alive = (uint8_t *)xmalloc(r->n + 1);
    for (v = 0; v < r->n; v++) r->alive[v] = (uint8_t)dg_has_vertex(g, (dg_vertex)v);
    r->off = (int64_t *)xmalloc((r->n + 1) * sizeof(int64_t));
    CHECK(dg_export_csr(g, r->off, NULL, NULL) == DG_OK);
    m = (size_t)r->off[r->n];
    r->t = (dg_vertex *)xmalloc((m + 1) * sizeof(dg_vertex));
    CHECK(dg_export_csr(g, r->off, r->t, NULL) == DG_OK);
    /* undirected: every arc both ways, then sort, drop self-loops and repeats */
    cnt = (int64_t *)xcalloc(r->n + 1, sizeof(int64_t));
    for (v = 0; v < r->n; v++)
        for (i = (size_t)r->off[v]; i < (size_t)r->off[v + 1]; i++) { cnt[v]++; cnt[r->t[i]]++; }
    r->uoff = (int64_t *)xmalloc((r->n + 1) * sizeof(int64_t));
    r->uoff[0] = 0;
    for (v = 0; v < r->n; v++) r->uoff[v + 1] = r->uoff[v] + cnt[v];
    r->ut = (dg_vertex *)xmalloc(((size_t)r->uoff[r->n] + 1) * sizeof(dg_vertex));
    for (v = 0; v < r->n; v++) cnt[v] = r->uoff[v];
    for (v = 0; v < r->n; v++)
        for (i = (size_t)r->off[v]; i < (size_t)r->off[v + 1]; i++) {
            r->ut[cnt[v]++] = r->t[i];
            r->ut[cnt[r->t[i]]++] = (dg_vertex)v;
        }
    for (v = 0; v < r->n; v++) {          /* sort, dedup, no self-loops; compact in place */
        size_t b = (size_t)r->uoff[v], e = (size_t)r->uoff[v + 1], s = k;
        qsort(r->ut + b, e - b, sizeof(dg_vertex), cmp_v);
        for (i = b; i < e; i++)
            if (r->ut[i] != (dg_vertex)v && (k == s || r->ut[k - 1] != r->ut[i])) r->ut[k++] = r->ut[i];
        r->uoff[v] = (int64_t)s;
    }
    r->uoff[r->n] = (int64_t)k;
    free(cnt);
}
static void ref_free(ref *r) { free(r->alive); free(r->off); free(r->t); free(r->uoff); free(r->ut); }

static int32_t uf_find(int32_t *p, int32_t x) { while (p[x] != x) x = p[x] = p[p[x]]; return x; }
/* components: union-find over the arcs; label = smallest id */
static size_t ref_components(const ref *r, dg_vertex *label)
{
    int32_t *p = (int32_t *)xmalloc((r->n + 1) * sizeof(int32_t));
    size_t v, i, c = 0;
    for (v = 0; v < r->n; v++) p[v] = (int32_t)v;
    for (v = 0; v < r->n; v++)
        for (i = (size_t)r->off[v]; i < (size_t)r->off[v + 1]; i++) {
            int32_t a = uf_find(p, (int32_t)v), b = uf_find(p, r->t[i]);
            if (a != b) p[a > b ? a : b] = a < b ? a : b;
        }
    for (v = 0; v < r->n; v++) {
        label[v] = r->alive[v] ? uf_find(p, (int32_t)v) : -1;
        c += r->alive[v] && label[v] == (dg_vertex)v;
    }
    free(p);
    return c;
}
/* reachability from s by BFS over out-arcs (fwd) or in-arcs (computed as reverse scan) */
static void ref_reach(const ref *r, size_t s, uint8_t *seen, size_t *queue, const int64_t *off, const dg_vertex *t)
{
    size_t h = 0, q = 0, i;
    memset(seen, 0, r->n);
    seen[s] = 1; queue[q++] = s;
    while (h < q) {
        size_t u = queue[h++];
        for (i = (size_t)off[u]; i < (size_t)off[u + 1]; i++)
            if (!seen[t[i]]) { seen[t[i]] = 1; queue[q++] = (size_t)t[i]; }
    }
}
/* SCC: v and w strongly connected iff each reaches the other; label = smallest such id.
   O(n (n + m)): small graphs only. */
static size_t ref_scc(const ref *r, dg_vertex *label)
{
    size_t v, w, c = 0, m = (size_t)r->off[r->n], i;
    uint8_t *fw = (uint8_t *)xmalloc(r->n + 1), *bw = (uint8_t *)xmalloc(r->n + 1);
    size_t *queue = (size_t *)xmalloc((r->n + 1) * sizeof(size_t));
    int64_t *roff = (int64_t *)xcalloc(r->n + 1, sizeof(int64_t));
    dg_vertex *rt = (dg_vertex *)xmalloc((m + 1) * sizeof(dg_vertex));
    int64_t *pos = (int64_t *)xmalloc((r->n + 1) * sizeof(int64_t));
    for (v = 0; v < r->n; v++) for (i = (size_t)r->off[v]; i < (size_t)r->off[v + 1]; i++) roff[r->t[i] + 1]++;
    for (v = 0; v < r->n; v++) roff[v + 1] += roff[v];
    for (v = 0; v < r->n; v++) pos[v] = roff[v];
    for (v = 0; v < r->n; v++) for (i = (size_t)r->off[v]; i < (size_t)r->off[v + 1]; i++) rt[pos[r->t[i]]++] = (dg_vertex)v;
    for (v = 0; v < r->n; v++) label[v] = -1;
    for (v = 0; v < r->n; v++) {
        if (!r->alive[v] || label[v] >= 0) continue;
        ref_reach(r, v, fw, queue, r->off, r->t);
        ref_reach(r, v, bw, queue, roff, rt);
        for (w = v; w < r->n; w++) if (fw[w] && bw[w]) label[w] = (dg_vertex)v;
        c++;
    }
    free(fw); free(bw); free(queue); free(roff); free(rt); free(pos);
    return c;
}
static int ref_adjacent(const ref *r, dg_vertex a, dg_vertex b)
{
    return bsearch(&b, r->ut + r->uoff[a], (size_t)(r->uoff[a + 1] - r->uoff[a]), sizeof(dg_vertex), cmp_v) != NULL;
}
/* triangles: every pair of neighbours b < c of a, with a < b, that are adjacent */
static uint64_t ref_triangles(const ref *r, uint64_t *pv)
{
    size_t a, i, j;
    uint64_t t = 0;
    memset(pv, 0, r->n * sizeof(uint64_t));
    for (a = 0; a < r->n; a++)
        for (i = (size_t)r->uoff[a]; i < (size_t)r->uoff[a + 1]; i++) {
            dg_vertex b = r->ut[i];
            if (b <= (dg_vertex)a) continue;
            for (j = i + 1; j < (size_t)r->uoff[a + 1]; j++) {
                dg_vertex c = r->ut[j];
                if (ref_adjacent(r, b, c)) { t++; pv[a]++; pv[b]++; pv[c]++; }
            }
        }
    return t;
}
/* PageRank in double: the power iteration of the definition, to convergence */
static void ref_pagerank(const ref *r, double d, double *rank)
{
    size_t v, i, it, nl = 0;
    double *next = (double *)xmalloc((r->n + 1) * sizeof(double));
    for (v = 0; v < r->n; v++) nl += r->alive[v];
    for (v = 0; v < r->n; v++) rank[v] = r->alive[v] ? 1.0 / (double)nl : 0.0;
    for (it = 0; it < 1000; it++) {
        double dang = 0, change = 0;
        for (v = 0; v < r->n; v++) next[v] = 0;
        for (v = 0; v < r->n; v++) {
            size_t deg = (size_t)(r->off[v + 1] - r->off[v]);
            if (!r->alive[v]) continue;
            if (!deg) dang += rank[v];
            for (i = (size_t)r->off[v]; i < (size_t)r->off[v + 1]; i++) next[r->t[i]] += rank[v] / (double)deg;
        }
        for (v = 0; v < r->n; v++) {
            double x = r->alive[v] ? (1 - d) / (double)nl + d * (next[v] + dang / (double)nl) : 0.0;
            change += fabs(x - rank[v]);
            rank[v] = x;
        }
        if (change < 1e-12) break;
    }
    free(next);
}

/* ---- comparing ---- */
/* dg_intersect on pairs of live vertices (random ones, both ends of an arc, the longest lists
   with each other and with themselves, (v, v)) against counts made with a mark array. */
static int check_intersect(dg_graph *g, const ref *r, const char *what)
{
    size_t np = 0, cap, i, v, *live = (size_t *)xmalloc((r->n + 1) * sizeof(size_t)), nl = 0, hub[8], nh = 0;
    dg_vertex *pairs;
    uint32_t *got, *want;
    uint8_t *mark = (uint8_t *)xcalloc(r->n + 1, 1);
    cl_context ctx = dg_cl_context(g);
    cl_command_queue q = dg_cl_queue(g);
    cl_mem bp = NULL, bc = NULL;
    cl_int e = CL_SUCCESS;
    int ok = 1;
    for (v = 0; v < r->n; v++) if (r->alive[v]) live[nl++] = v;
    if (!nl || !ctx || !q) { free(live); free(mark); return 1; }
    for (v = 0; v < r->n; v++) {          /* the 8 longest lists, longest first */
        size_t x = v, j;
        if (!r->alive[v]) continue;
        for (j = 0; j < nh && x != (size_t)-1; j++)
            if (r->off[x + 1] - r->off[x] > r->off[hub[j] + 1] - r->off[hub[j]]) { size_t t = hub[j]; hub[j] = x; x = t; }
        if (nh < 8 && x != (size_t)-1) hub[nh++] = x;
    }
    cap = 3000 + 64;
    pairs = (dg_vertex *)xmalloc(2 * cap * sizeof(dg_vertex));
    got = (uint32_t *)xmalloc(cap * sizeof(uint32_t)); want = (uint32_t *)xmalloc(cap * sizeof(uint32_t));
    for (i = 0; i < nh; i++) {
        size_t j;
        for (j = 0; j < nh; j++) { pairs[2 * np] = (dg_vertex)hub[i]; pairs[2 * np + 1] = (dg_vertex)hub[j]; np++; }
    }
    while (np < cap) {
        size_t u = live[rnd((uint32_t)nl)], w = live[rnd((uint32_t)nl)];
        if (np % 3 == 1 && r->off[u + 1] > r->off[u]) w = (size_t)r->t[r->off[u] + rnd((uint32_t)(r->off[u + 1] - r->off[u]))];
        if (np % 7 == 2) w = u;
        if (!r->alive[w]) w = u;
        pairs[2 * np] = (dg_vertex)u; pairs[2 * np + 1] = (dg_vertex)w; np++;
    }
    for (i = 0; i < np; i++) {
        size_t u = (size_t)pairs[2 * i], w = (size_t)pairs[2 * i + 1], k;
        uint32_t c = 0;
        for (k = (size_t)r->off[u]; k < (size_t)r->off[u + 1]; k++) mark[r->t[k]] = 1;
        for (k = (size_t)r->off[w]; k < (size_t)r->off[w + 1]; k++) c += mark[r->t[k]];
        for (k = (size_t)r->off[u]; k < (size_t)r->off[u + 1]; k++) mark[r->t[k]] = 0;
        want[i] = c;
    }
    bp = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, np * 8, pairs, &e);
    if (e == CL_SUCCESS) bc = clCreateBuffer(ctx, CL_MEM_READ_WRITE, np * 4, NULL, &e);
    CHECK_MSG(e == CL_SUCCESS, "%s: buffers for dg_intersect", what);
    if (e == CL_SUCCESS) {
        dg_status st = dg_intersect(g, bp, np, bc);
        CHECK_MSG(st == DG_OK, "%s: dg_intersect: %s", what, dg_error_message(g));
        CHECK(clEnqueueReadBuffer(q, bc, CL_TRUE, 0, np * 4, got, 0, NULL, NULL) == CL_SUCCESS);
        for (i = 0; i < np && st == DG_OK; i++)
            if (got[i] != want[i]) {
                CHECK_MSG(0, "%s: dg_intersect pair %zu (%d, %d): %u, reference %u", what, i, (int)pairs[2 * i],
                          (int)pairs[2 * i + 1], (unsigned)got[i], (unsigned)want[i]);
                ok = 0;
                break;
            }
        ok &= st == DG_OK;
    }
    if (bp) clReleaseMemObject(bp);
    if (bc) clReleaseMemObject(bc);
    free(live); free(mark); free(pairs); free(got); free(want);
    return ok;
}

static int check_all(dg_graph *g, const char *what, int scc_too)
{
    ref r;
    size_t n, v, c1 = 0, c2 = 0;
    dg_vertex *l1, *l2;
    uint64_t *p1, *p2, t1 = 0, t2 = 0;
    float *pr;
    double *rr, l1sum = 0, sum = 0;
    dg_pagerank_stats ps;
    dg_pagerank_options po;
    dg_status s;
    int ok = 1;
    ref_take(g, &r);
    n = r.n;
    l1 = (dg_vertex *)xmalloc((n + 1) * sizeof(dg_vertex)); l2 = (dg_vertex *)xmalloc((n + 1) * sizeof(dg_vertex));
    p1 = (uint64_t *)xmalloc((n + 1) * sizeof(uint64_t)); p2 = (uint64_t *)xmalloc((n + 1) * sizeof(uint64_t));
    pr = (float *)xmalloc((n + 1) * sizeof(float)); rr = (double *)xmalloc((n + 1) * sizeof(double));
    s = dg_components(g, l1, &c1);
    c2 = ref_components(&r, l2);
    CHECK_MSG(s == DG_OK, "%s: dg_components: %s", what, dg_error_message(g));
    CHECK_MSG(c1 == c2 && !memcmp(l1, l2, n * sizeof(dg_vertex)), "%s: components: %zu, reference %zu", what, c1, c2);
    c1 = 0;                       /* counted on the device, no labels read back */
    CHECK_MSG(dg_components(g, NULL, &c1) == DG_OK && c1 == c2, "%s: components counted alone: %zu, reference %zu",
              what, c1, c2);
    ok &= s == DG_OK && c1 == c2 && !memcmp(l1, l2, n * sizeof(dg_vertex));
    if (scc_too) {
        c2 = ref_scc(&r, l2);
        c1 = 0;
        dg__scc_cpu_device = 0;           /* a CPU device: the host's Tarjan */
        CHECK_MSG(dg_scc(g, NULL, &c1) == DG_OK && c1 == c2, "%s: scc counted alone: %zu, reference %zu", what, c1, c2);
        s = dg_scc(g, l1, &c1);
        CHECK_MSG(s == DG_OK && c1 == c2 && !memcmp(l1, l2, n * sizeof(dg_vertex)), "%s: scc (default): %zu, reference %zu",
                  what, c1, c2);
        dg__scc_cpu_device = 1;           /* the device's rounds, whatever the device */
        s = dg_scc(g, l1, &c1);
        dg__scc_cpu_device = 0;
        CHECK_MSG(s == DG_OK && c1 == c2 && !memcmp(l1, l2, n * sizeof(dg_vertex)), "%s: scc: %zu, reference %zu", what, c1, c2);
        ok &= s == DG_OK && c1 == c2;
    }
    ok &= check_intersect(g, &r, what);
    s = dg_triangles(g, &t1, p1);
    t2 = ref_triangles(&r, p2);
    CHECK_MSG(s == DG_OK && t1 == t2 && !memcmp(p1, p2, n * sizeof(uint64_t)), "%s: triangles %llu, reference %llu", what,
              (unsigned long long)t1, (unsigned long long)t2);
    ok &= s == DG_OK && t1 == t2;
    memset(&po, 0, sizeof po);
    po.tolerance = 1e-7f;
    po.max_iterations = 1000;
    po.stats = &ps;
    s = dg_pagerank(g, pr, &po);
    ref_pagerank(&r, 0.85, rr);
    CHECK_MSG(s == DG_OK, "%s: dg_pagerank: %s", what, dg_error_message(g));
    for (v = 0; v < n; v++) { l1sum += fabs((double)pr[v] - rr[v]); sum += pr[v]; }
    CHECK_MSG(s == DG_OK && l1sum < 1e-4 + 1e-6 * (double)n && (dg_vertex_count(g) == 0 || fabs(sum - 1.0) < 1e-3),
              "%s: pagerank: L1 distance %g to the reference, sum %g (%u iterations)", what, l1sum, sum, ps.iterations);
    for (v = 0; v < n; v++) if (!r.alive[v]) CHECK(pr[v] == 0.0f);
    ok &= s == DG_OK && l1sum < 1e-4 + 1e-6 * (double)n;
    free(l1); free(l2); free(p1); free(p2); free(pr); free(rr);
    ref_free(&r);
    return ok;
}

static dg_graph *make(int undirected, uint32_t page, int reuse)
{
    dg_graph *g = NULL;
    dg_desc d;
    memset(&d, 0, sizeof d);
    d.undirected = undirected;
    d.page_size = page;
    d.reuse_ids = reuse;
    CHECK(dg_create(&d, &g) == DG_OK);
    return g;
}

static void test_small(void)
{
    dg_graph *g = make(1, 64, 0);
    dg_vertex lab[8];
    uint64_t t = 0, pv[8];
    size_t c = 0;
    float pr[8];
    if (!g) return;
    /* two triangles sharing 1-2, an isolated 4, a pair 5-6, a removed 7, a self-loop on 0 */
    CHECK(dg_add_vertices(g, 8, NULL) == DG_OK);
    CHECK(dg_add_edge(g, 0, 1, 1) == DG_OK && dg_add_edge(g, 1, 2, 1) == DG_OK && dg_add_edge(g, 2, 0, 1) == DG_OK);
    CHECK(dg_add_edge(g, 1, 3, 1) == DG_OK && dg_add_edge(g, 3, 2, 1) == DG_OK && dg_add_edge(g, 0, 0, 1) == DG_OK);
    CHECK(dg_add_edge(g, 5, 6, 1) == DG_OK && dg_add_edge(g, 6, 7, 1) == DG_OK && dg_remove_vertex(g, 7) == DG_OK);
    CHECK(dg_triangles(g, &t, pv) == DG_OK && t == 2 && pv[0] == 1 && pv[1] == 2 && pv[2] == 2 && pv[3] == 1 && pv[4] == 0);
    CHECK(dg_components(g, lab, &c) == DG_OK && c == 3);
    CHECK(lab[0] == 0 && lab[3] == 0 && lab[4] == 4 && lab[5] == 5 && lab[6] == 5 && lab[7] == -1);
    CHECK(dg_components(g, NULL, &c) == DG_OK && c == 3);
    CHECK(dg_components(g, lab, NULL) == DG_OK);
    CHECK(dg_scc(g, lab, &c) == DG_OK && c == 3 && lab[3] == 0);
    CHECK(dg_triangles(g, NULL, NULL) == DG_OK);
    CHECK(dg_pagerank(g, pr, NULL) == DG_OK && pr[7] == 0.0f && fabsf(pr[5] - pr[6]) < 1e-6f);
    CHECK(check_all(g, "small undirected", 1));
    dg_destroy(g);
    /* directed: a cycle 0->1->2->0 with a tail 2->3->4, and 5 alone: SCCs {0,1,2}, {3}, {4}, {5} */
    g = make(0, 64, 0);
    if (!g) return;
    CHECK(dg_add_vertices(g, 6, NULL) == DG_OK);
    CHECK(dg_add_edge(g, 0, 1, 1) == DG_OK && dg_add_edge(g, 1, 2, 1) == DG_OK && dg_add_edge(g, 2, 0, 1) == DG_OK);
    CHECK(dg_add_edge(g, 2, 3, 1) == DG_OK && dg_add_edge(g, 3, 4, 1) == DG_OK && dg_add_edge(g, 1, 0, 1) == DG_OK);
    CHECK(dg_scc(g, lab, &c) == DG_OK && c == 4 && lab[0] == 0 && lab[1] == 0 && lab[2] == 0 && lab[3] == 3 && lab[4] == 4);
    CHECK(dg_components(g, lab, &c) == DG_OK && c == 2 && lab[4] == 0 && lab[5] == 5);
    CHECK(dg_triangles(g, &t, NULL) == DG_OK && t == 1);   /* 0-1-2, though 0->1 and 1->0 both exist */
    CHECK(check_all(g, "small directed", 1));
    dg_destroy(g);
}

static void add_random(dg_graph *g, size_t n, size_t m, int hubs)
{
    dg_edge *e = (dg_edge *)xmalloc((m + (size_t)hubs * 700 + 10) * sizeof(dg_edge));
    size_t k = 0, i;
    int h;
    for (i = 0; i < m; i++) { e[k].src = (dg_vertex)rnd((uint32_t)n); e[k].dst = (dg_vertex)rnd((uint32_t)n); e[k].weight = 1; k++; }
    for (h = 0; h < hubs; h++)
        for (i = 0; i < 700; i++) {
            e[k].src = (dg_vertex)(h * 7); e[k].dst = (dg_vertex)rnd((uint32_t)n); e[k].weight = 1;
            if (chance(50)) { dg_vertex x = e[k].src; e[k].src = e[k].dst; e[k].dst = x; }
            k++;
        }
    {   /* edges naming removed ids become self-loops of a live vertex */
        dg_vertex live = 0;
        while ((size_t)live < n && !dg_has_vertex(g, live)) live++;
        for (i = 0; i < k; i++)
            if (!dg_has_vertex(g, e[i].src) || !dg_has_vertex(g, e[i].dst)) e[i].src = e[i].dst = live;
    }
    CHECK_MSG(dg_add_edges(g, e, k, NULL) == DG_OK, "%s", dg_error_message(g));
    free(e);
}

static void test_random(void)
{
    int u, p, reuse;
    for (reuse = 0; reuse <= 1; reuse++)
        for (u = 0; u <= 1; u++)
            for (p = 0; p < 2; p++) {
                uint32_t page = p ? 1024 : 64;
                size_t n = 300 + rnd(300), round;
                dg_graph *g = make(u, page, reuse);
                char what[128];
                if (!g) continue;
                CHECK(dg_add_vertices(g, n, NULL) == DG_OK);
                add_random(g, n, n + rnd((uint32_t)(2 * n)), 2);     /* sparse: many components */
                for (round = 0; round < 6; round++) {
                    size_t i;
                    snprintf(what, sizeof what, "%s page %u%s round %zu", u ? "undirected" : "directed", page,
                             reuse ? " reuse_ids" : "", round);
                    if (!check_all(g, what, n < 700)) break;
                    for (i = 0; i < 10; i++) {          /* vertices go and come (ids reused or new) */
                        dg_vertex v = (dg_vertex)(1 + rnd((uint32_t)n - 1));
                        if (dg_has_vertex(g, v)) CHECK(dg_remove_vertex(g, v) == DG_OK);
                        CHECK(dg_add_vertex(g, NULL) == DG_OK);
                    }
                    n = dg_vertex_id_bound(g);
                    add_random(g, n, 100 + rnd(200), round & 1);
                    {   /* and edges go */
                        dg_edge e[64];
                        size_t k;
                        for (k = 0; k < 64; k++) { e[k].src = (dg_vertex)rnd((uint32_t)n); e[k].dst = (dg_vertex)rnd((uint32_t)n); e[k].weight = 0; }
                        for (k = 0; k < 64; k++) if (!dg_has_vertex(g, e[k].src) || !dg_has_vertex(g, e[k].dst)) e[k] = e[0];
                        if (!dg_has_vertex(g, e[0].src) || !dg_has_vertex(g, e[0].dst)) k = 0; else k = 64;
                        CHECK(dg_remove_edges(g, e, k, NULL) == DG_OK);
                    }
                }
                if (reuse) CHECK(dg_vertex_id_bound(g) < n + 70);
                dg_destroy(g);
            }
}

/* Dense graphs: oriented lists longer than DG_TC_HEAVY, so arcs between two of them are
   counted by work-groups (dg_tc_count_heavy, sampled searches); checked that there were. */
static void test_dense(void)
{
    int u;
    dg__tc_heavy = DG_TC_HEAVY;           /* the work-group path, also on a CPU device */
    for (u = 0; u <= 1; u++) {
        size_t n = 500 + rnd(100), i, j;
        dg_graph *g = make(u, u ? 1024 : 64, 0);
        dg_edge *e = (dg_edge *)xmalloc(n * n * sizeof(dg_edge));
        size_t k = 0;
        uint32_t heavy = 0;
        char what[64];
        if (!g) { free(e); continue; }
        CHECK(dg_add_vertices(g, n, NULL) == DG_OK);
        for (i = 0; i < n; i++)
            for (j = u ? i + 1 : 0; j < n; j++)
                if (j != i && rnd(100) < 55) { e[k].src = (dg_vertex)i; e[k].dst = (dg_vertex)j; e[k].weight = 1; k++; }
        CHECK(dg_add_edges(g, e, k, NULL) == DG_OK);
        {   /* two hubs of 2,500 of 3,000 new vertices: long pairs for dg_intersect */
            dg_vertex first = 0;
            size_t h;
            CHECK(dg_add_vertices(g, 3002, &first) == DG_OK);
            for (k = 0, h = 0; h < 2; h++)
                for (i = 0; i < 3000; i++)
                    if (rnd(6) < 5) {
                        e[k].src = first + 3000 + (dg_vertex)h; e[k].dst = first + (dg_vertex)i; e[k].weight = 1; k++;
                    }
            CHECK(dg_add_edges(g, e, k, NULL) == DG_OK);
        }
        for (i = 0; i < 5; i++) CHECK(dg_remove_vertex(g, (dg_vertex)(7 * i + 3)) == DG_OK);
        snprintf(what, sizeof what, "dense %s, %zu vertices", u ? "undirected" : "directed", n);
        CHECK(check_all(g, what, 0));
        {
            const dg__tri_state *ts = (const dg__tri_state *)g->dev->mod[DG__MOD_TRI].state;
            CHECK(ts && clEnqueueReadBuffer(g->dev->queue, ts->b.cnt.m, CL_TRUE, 0, 4, &heavy, 0, NULL, NULL) == CL_SUCCESS);
            CHECK_MSG(heavy > 100, "%s: %u arcs between long lists (the work-group path)", what, (unsigned)heavy);
        }
        free(e);
        dg_destroy(g);
    }
    dg__tc_heavy = 0;
}

/* reuse_ids over many spawn / despawn cycles: the id bound stays at the peak of live vertices,
   the store stays valid, and the algorithms answer right on reused ids */
static void test_cycles(void)
{
    dg_graph *g = make(1, 64, 1);
    size_t i, live = 1000, cycles = 2000000;
    if (!g) return;
    CHECK(dg_add_vertices(g, live, NULL) == DG_OK);
    add_random(g, live, 1500, 1);
    for (i = 0; i < cycles; i++) {
        dg_vertex v = (dg_vertex)rnd((uint32_t)live), w;
        if (!dg_has_vertex(g, v)) continue;
        if (dg_remove_vertex(g, v) != DG_OK || dg_add_vertex(g, &w) != DG_OK || w != v) {
            CHECK_MSG(0, "cycle %zu: removing and adding %d gave %d", i, (int)v, (int)w);
            break;
        }
        if (i % 64 == 0) CHECK(dg_add_edge(g, w, (dg_vertex)rnd((uint32_t)live), 1.0f) != DG_ERR_NOT_FOUND);
    }
    CHECK_MSG(dg_vertex_id_bound(g) == live && dg_vertex_count(g) == live, "after %zu cycles: id bound %zu, %zu vertices",
              cycles, dg_vertex_id_bound(g), dg_vertex_count(g));
    CHECK(dg_validate(g) == DG_OK);
    CHECK(check_all(g, "after the cycles", 1));
    dg_destroy(g);
}

/* Directed graphs built for dg_scc's phases: blocks (cycles of 1..bmax vertices, ids
   shuffled) joined by arcs that go forward in a random order of the blocks, so the
   condensation is a DAG: `chain` joins each block to the next one (a long chain of small
   components), else `extra` arcs join random
   earlier blocks to later ones (a wide DAG: few rounds); `giant` adds one big cycle through
   a third of the vertices (the forward-backward search's component). bmax < 0: every block
   has -bmax vertices; shuffle 0 keeps ids ascending along the blocks (then a chain gives up
   one component per colouring round; signatures split it into its blocks in one round).
   Some vertices are removed at the end, except from a single block. on_device: the device
   must finish the search (1), the host's Tarjan must (-1), either (0). */
static void scc_shape(const char *what, size_t nblocks, int bmax, int chain, size_t extra, int giant, int shuffle,
                      int on_device, int want_pivot)
{
    dg_graph *g = make(0, 64, 0);
    size_t n = 0, i, b, *first, *size;
    dg_vertex *perm;
    char label[128];
    if (!g) return;
    first = (size_t *)xmalloc((nblocks + 1) * sizeof *first);
    size = (size_t *)xmalloc((nblocks + 1) * sizeof *size);
    for (b = 0; b < nblocks; b++) { first[b] = n; size[b] = bmax > 0 ? 1 + rnd((uint32_t)bmax) : (size_t)-bmax; n += size[b]; }
    perm = (dg_vertex *)xmalloc((n + 1) * sizeof *perm);
    for (i = 0; i < n; i++) perm[i] = (dg_vertex)i;
    for (i = n; shuffle && i > 1; i--) { size_t j = rnd((uint32_t)i); dg_vertex t = perm[i - 1]; perm[i - 1] = perm[j]; perm[j] = t; }
    CHECK(dg_add_vertices(g, n, NULL) == DG_OK);
    for (b = 0; b < nblocks; b++) {
        for (i = 0; i + 1 < size[b] || (size[b] > 1 && i + 1 == size[b]); i++)   /* the block's cycle */
            dg_add_edge(g, perm[first[b] + i], perm[first[b] + (i + 1) % size[b]], 1.0f);
        if (chain && b + 1 < nblocks)
            dg_add_edge(g, perm[first[b] + rnd((uint32_t)size[b])], perm[first[b + 1] + rnd((uint32_t)size[b + 1])], 1.0f);
    }
    for (i = 0; i < extra; i++) {
        size_t x = rnd((uint32_t)nblocks), y = rnd((uint32_t)nblocks);
        if (x == y) continue;
        if (x > y) { size_t t = x; x = y; y = t; }
        dg_add_edge(g, perm[first[x] + rnd((uint32_t)size[x])], perm[first[y] + rnd((uint32_t)size[y])], 1.0f);
    }
    if (giant)                            /* a cycle through every third vertex */
        for (i = 0; 3 * i < n; i++) dg_add_edge(g, perm[3 * i], perm[3 * i + 3 < n ? 3 * i + 3 : 0], 1.0f);
    if (giant == 2)                       /* ... with 10 more arcs each inside it: a pivot's search ends */
        for (i = 0; 3 * i < n; i++) {
            int k;
            for (k = 0; k < 10; k++) dg_add_edge(g, perm[3 * i], perm[3 * rnd((uint32_t)((n + 2) / 3))], 1.0f);
        }
    if (giant == 3)                       /* ... with a hub on it: a pivot, whose search is dropped */
        for (i = 0; i < 10; i++) {
            dg_add_edge(g, perm[0], perm[3 * rnd((uint32_t)((n + 2) / 3))], 1.0f);
            dg_add_edge(g, perm[3 * rnd((uint32_t)((n + 2) / 3))], perm[0], 1.0f);
        }
    for (i = 0; nblocks > 1 && i < n / 100; i++) {   /* (the hub stays, with its degrees: some
                                                        seeds removed it, or enough of its ends
                                                        for min(out, in) to fall below the pivot's
                                                        threshold, and no pivot was chosen) */
        dg_vertex v = (dg_vertex)rnd((uint32_t)n);
        if (giant == 3 && (v == perm[0] || dg_has_edge(g, perm[0], v) || dg_has_edge(g, v, perm[0]))) continue;
        dg_remove_vertex(g, v);
    }
    snprintf(label, sizeof label, "scc shape %s (%zu vertices)", what, n);
    CHECK(check_all(g, label, 1));
    if (on_device || want_pivot >= 0) {   /* the last dg_scc of check_all: who finished it, its pivot */
        const dg__scc_state *ss = (const dg__scc_state *)g->dev->mod[DG__MOD_SCC].state;
        CHECK_MSG(ss && (!on_device || ss->slow == (on_device < 0)),
                  "%s: finished on the %s (%zu rounds, %zu sweeps), expected the %s", label,
                  ss && ss->slow ? "host" : "device", ss ? ss->rounds : 0, ss ? ss->sweeps : 0,
                  on_device > 0 ? "device" : "host");
        CHECK_MSG(ss && (want_pivot < 0 || ss->pivot == want_pivot), "%s: pivot's search %d, expected %d", label,
                  ss ? ss->pivot : -1, want_pivot);
    }
    free(first); free(size); free(perm);
    dg_destroy(g);
}
static void test_scc_shapes(void)
{
    scc_shape("wide DAG of small cycles", 3000, 6, 0, 6000, 0, 1, 1, 0);
    scc_shape("wide DAG of small cycles and a long cycle", 3000, 6, 0, 6000, 1, 1, 0, 0);
    scc_shape("wide DAG of small cycles and a dense giant", 3000, 6, 0, 6000, 2, 1, 1, 1);
    scc_shape("wide DAG of small cycles and a hub on a long cycle", 3000, 6, 0, 6000, 3, 1, 0, 2);
    scc_shape("deep DAG of small cycles", 1500, 16, 0, 7500, 0, 1, 1, -1);
    scc_shape("chain of 400 small cycles", 400, 5, 1, 0, 0, 1, 0, -1);
    scc_shape("chain of 8000 small cycles", 8000, 3, 1, 0, 0, 1, 0, -1);
    scc_shape("chain of 100 cycles and a dense giant", 100, 8, 1, 50, 2, 1, 0, 1);
    scc_shape("singletons", 2000, 1, 0, 4000, 0, 1, 1, 0);
    /* ids ascending along the chain: signatures split it into its blocks at once */
    scc_shape("chain of 150 2-cycles, ids ascending", 150, -2, 1, 0, 0, 0, 1, 0);
    scc_shape("one long cycle", 1, -6000, 0, 0, 0, 1, 0, 0);
    dg__scc_passes = 1;                   /* a budget of one pass: the host's Tarjan finishes */
    scc_shape("wide DAG of small cycles, budget of one pass", 3000, 6, 0, 6000, 0, 1, -1, 0);
    dg__scc_passes = 0;
    /* as a graph of 2^32 arcs or more: every sweep on the pages' edge chunks, no arc list */
    dg__scc_list_max = 0;
    dg__scc_passes = 100000;              /* (every sweep walks every arc: a larger budget) */
    scc_shape("wide DAG of small cycles, on the pages", 3000, 6, 0, 6000, 2, 1, 1, 1);
    scc_shape("deep DAG of small cycles, on the pages", 1500, 16, 0, 7500, 0, 1, 1, -1);
    dg__scc_passes = 0;
    {   /* ... where the host would have to finish: DG_ERR_LIMIT, labels untouched */
        dg_graph *g = make(0, 64, 0);
        dg_vertex lab[64];
        size_t i, c = 7;
        if (g) {
            CHECK(dg_add_vertices(g, 64, NULL) == DG_OK);
            for (i = 0; i < 64; i++) CHECK(dg_add_edge(g, (dg_vertex)i, (dg_vertex)((i + 1) % 64), 1.0f) == DG_OK);
            for (i = 0; i < 64; i++) lab[i] = -5;
            dg__scc_passes = 1;
            dg__scc_cpu_device = 1;
            CHECK_MSG(dg_scc(g, lab, &c) == DG_ERR_LIMIT, "dg_scc on the pages with a host part: %s", dg_error_message(g));
            for (i = 0; i < 64 && lab[i] == -5; i++) {}
            CHECK(i == 64);
            dg__scc_passes = 0;
            dg__scc_cpu_device = 0;
            dg_destroy(g);
        }
    }
    dg__scc_list_max = 0xffffffffu;
}

static void test_datasets(void)
{
    char path[1024];
    dg_graph *g = make(1, 1024, 0);
    dg_load_options o;
    uint64_t t = 0;
    size_t c = 0;
    if (g) {
        CHECK_MSG(dg_load(g, ds_path(path, sizeof path, "snap/Karate.txt"), DG_FORMAT_AUTO) == DG_OK, "%s", dg_error_message(g));
        CHECK(dg_triangles(g, &t, NULL) == DG_OK && t == 45);
        CHECK(dg_components(g, NULL, &c) == DG_OK);
        CHECK(check_all(g, "Karate", 1));
        dg_destroy(g);
    }
    g = make(1, 1024, 0);
    memset(&o, 0, sizeof o);
    o.compact_ids = 1;
    if (g && dg_load_ex(g, ds_path(path, sizeof path, "snap/CA-GrQc.txt"), &o) == DG_OK) {
        CHECK(dg_triangles(g, &t, NULL) == DG_OK);
        CHECK_MSG(t == 48260, "CA-GrQc: %llu triangles (SNAP: 48,260)", (unsigned long long)t);
        CHECK(dg_components(g, NULL, &c) == DG_OK);
        CHECK_MSG(c == 355, "CA-GrQc: %zu components (SNAP: largest of 4,158 nodes; 355 in all)", c);
        CHECK(check_all(g, "CA-GrQc", 0));
    } else CHECK_MSG(0, "CA-GrQc: %s", g ? dg_error_message(g) : "");
    dg_destroy(g);
}

static void test_bad(void)
{
    dg_graph *g = make(0, 64, 0);
    dg_pagerank_options o;
    float pr[4];
    size_t c = 9;
    uint64_t t = 9;
    CHECK(dg_components(NULL, NULL, NULL) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_scc(NULL, NULL, NULL) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_triangles(NULL, NULL, NULL) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_pagerank(NULL, pr, NULL) == DG_ERR_INVALID_ARGUMENT);
    if (!g) return;
    /* the empty graph */
    CHECK(dg_components(g, NULL, &c) == DG_OK && c == 0);
    CHECK(dg_scc(g, NULL, &c) == DG_OK && c == 0);
    CHECK(dg_triangles(g, &t, NULL) == DG_OK && t == 0);
    CHECK(dg_pagerank(g, pr, NULL) == DG_OK);
    CHECK(dg_add_vertices(g, 4, NULL) == DG_OK);
    CHECK(dg_pagerank(g, NULL, NULL) == DG_ERR_INVALID_ARGUMENT);
    memset(&o, 0, sizeof o);
    o.damping = 1.0f;
    CHECK(dg_pagerank(g, pr, &o) == DG_ERR_INVALID_ARGUMENT);
    o.damping = -0.5f;
    CHECK(dg_pagerank(g, pr, &o) == DG_ERR_INVALID_ARGUMENT);
    o.damping = NAN;
    CHECK(dg_pagerank(g, pr, &o) == DG_ERR_INVALID_ARGUMENT);
    o.damping = 0; o.tolerance = -1;
    CHECK(dg_pagerank(g, pr, &o) == DG_ERR_INVALID_ARGUMENT);
    /* no edges: every vertex dangling, 1/4 each */
    CHECK(dg_pagerank(g, pr, NULL) == DG_OK && fabsf(pr[0] - 0.25f) < 1e-6f && fabsf(pr[3] - 0.25f) < 1e-6f);
    CHECK(dg_components(g, NULL, &c) == DG_OK && c == 4);
    {   /* dg_intersect: NULL and short buffers, bad ids; none of them changes the graph */
        cl_context ctx = dg_cl_context(g);
        cl_int e = CL_SUCCESS;
        dg_vertex pr4[4] = { 0, 1, 2, 3 };
        cl_mem bp = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof pr4, pr4, &e);
        cl_mem bc = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 8, NULL, &e);
        CHECK(dg_intersect(NULL, bp, 2, bc) == DG_ERR_INVALID_ARGUMENT);
        CHECK(dg_intersect(g, NULL, 2, bc) == DG_ERR_INVALID_ARGUMENT);
        CHECK(dg_intersect(g, bp, 2, NULL) == DG_ERR_INVALID_ARGUMENT);
        CHECK(dg_intersect(g, bp, 3, bc) == DG_ERR_INVALID_ARGUMENT);      /* 3 pairs: 24 bytes of 16 */
        CHECK(dg_intersect(g, bp, 0, bc) == DG_OK);
        CHECK(dg_intersect(g, bp, 2, bc) == DG_OK);
        pr4[3] = -1;
        CHECK(clEnqueueWriteBuffer(dg_cl_queue(g), bp, CL_TRUE, 0, sizeof pr4, pr4, 0, NULL, NULL) == CL_SUCCESS);
        CHECK(dg_intersect(g, bp, 2, bc) == DG_ERR_INVALID_ARGUMENT && strstr(dg_error_message(g), "pair 1"));
        pr4[3] = 4;                                                        /* never created */
        CHECK(clEnqueueWriteBuffer(dg_cl_queue(g), bp, CL_TRUE, 0, sizeof pr4, pr4, 0, NULL, NULL) == CL_SUCCESS);
        CHECK(dg_intersect(g, bp, 2, bc) == DG_ERR_NOT_FOUND);
        pr4[3] = 3;
        CHECK(dg_remove_vertex(g, 0) == DG_OK);                            /* removed */
        CHECK(clEnqueueWriteBuffer(dg_cl_queue(g), bp, CL_TRUE, 0, sizeof pr4, pr4, 0, NULL, NULL) == CL_SUCCESS);
        CHECK(dg_intersect(g, bp, 2, bc) == DG_ERR_NOT_FOUND && strstr(dg_error_message(g), "pair 0"));
        CHECK(dg_validate(g) == DG_OK);
        clReleaseMemObject(bp);
        clReleaseMemObject(bc);
    }
    dg_destroy(g);
}

static const tt_case cases[] = {
    { "small", test_small }, { "random", test_random }, { "cycles", test_cycles }, { "datasets", test_datasets },
    { "bad", test_bad }, { "scc_shapes", test_scc_shapes }, { "dense", test_dense },
};

int main(int argc, char **argv)
{
    uint64_t seed = trand_seed(argc, argv, (uint64_t)time(NULL), "test_graph");
    (void)seed;
    TT_RUN("test_graph", cases);
    return TT_SUMMARY("test_graph");
}
