/* test_result.c - results that follow the graph (dg_result_*): after every round of random
   changes, each result brought up to date must equal a fresh run (dg_bfs, dg_sssp,
   dg_components exactly; dg_pagerank within its tolerance) and simple references written here
   (BFS and Dijkstra in float on the exported CSR, union-find), and must have taken the
   incremental path wherever section 18 of the manual says it does.

   Cases (DG_TESTS=test_result:NAME, see tt.h):
   - random: {directed, undirected} x {weighted (integer weights), unweighted, weighted
     (fractional)} x {host batches, device batches} x {reuse_ids 0, 1}, page sizes 64 and 1024,
     hubs over several pages; rounds of insert-only batches, mixed batches (half removals),
     single edge calls (add, remove, set_weight up and down, edit), vertex removals and
     additions, dg_add_edges_cl / dg_remove_edges_cl; results for a BFS, an SSSP, components
     and PageRank compared after every round;
   - source: the source removed (DG_ERR_NOT_FOUND, as dg_bfs), then its id handed out again
     (a full run, then incremental again);
   - fallbacks: a negative weight (DG_ERR_INVALID_ARGUMENT, as dg_sssp; then full runs), a
     batch past the size limit, a file loaded, an error then recovery, many results at once,
     results outliving their graph;
   - bad: NULL arguments, unknown kinds, missing sources. */
#define DYNGRAPH_IMPLEMENTATION
#include "dyngraph.h"
#include "tt.h"
#include "trand.h"
#include <math.h>
#include <time.h>

/* ---- references on the exported CSR ---- */
typedef struct csr { size_t n; int64_t *off; dg_vertex *t; float *w; uint8_t *alive; } csr;
static void csr_take(dg_graph *g, csr *c)
{
    size_t v, m;
    c->n = dg_vertex_id_bound(g);
    c->off = (int64_t *)xmalloc((c->n + 1) * sizeof(int64_t));
    CHECK(dg_export_csr(g, c->off, NULL, NULL) == DG_OK);
    m = (size_t)c->off[c->n];
    c->t = (dg_vertex *)xmalloc((m + 1) * sizeof(dg_vertex));
    c->w = (float *)xmalloc((m + 1) * sizeof(float));
    CHECK(dg_export_csr(g, c->off, c->t, c->w) == DG_OK);
    c->alive = (uint8_t *)xmalloc(c->n + 1);
    for (v = 0; v < c->n; v++) c->alive[v] = (uint8_t)dg_has_vertex(g, (dg_vertex)v);
}
static void csr_free(csr *c) { free(c->off); free(c->t); free(c->w); free(c->alive); }

/* Dijkstra in float (unit: every weight 1), a binary heap of (distance, vertex). */
static void ref_dist(const csr *c, dg_vertex s, int unit, float *d)
{
    size_t n = c->n, hn = 0, v;
    float *hk = (float *)xmalloc((size_t)(c->off[n] + 2) * sizeof(float));
    dg_vertex *hv = (dg_vertex *)xmalloc((size_t)(c->off[n] + 2) * sizeof(dg_vertex));
    for (v = 0; v < n; v++) d[v] = INFINITY;
    d[s] = 0.0f;
    hk[0] = 0.0f; hv[0] = s; hn = 1;
    while (hn) {
        float k = hk[0];
        dg_vertex u = hv[0];
        size_t i = 0;
        int64_t e;
        hn--;
        hk[0] = hk[hn]; hv[0] = hv[hn];
        for (;;) {                                    /* sift down */
            size_t l = 2 * i + 1, r = l + 1, m = i;
            if (l < hn && hk[l] < hk[m]) m = l;
            if (r < hn && hk[r] < hk[m]) m = r;
            if (m == i) break;
            { float tk = hk[i]; dg_vertex tv = hv[i]; hk[i] = hk[m]; hv[i] = hv[m]; hk[m] = tk; hv[m] = tv; }
            i = m;
        }
        if (k > d[u]) continue;
        for (e = c->off[u]; e < c->off[u + 1]; e++) {
            dg_vertex x = c->t[e];
            float nd = k + (unit ? 1.0f : c->w[e]);
            if (nd < d[x]) {
                size_t j = hn++;
                d[x] = nd;
                hk[j] = nd; hv[j] = x;
                while (j && hk[(j - 1) / 2] > hk[j]) {   /* sift up */
                    size_t p = (j - 1) / 2;
                    float tk = hk[p]; dg_vertex tv = hv[p];
                    hk[p] = hk[j]; hv[p] = hv[j]; hk[j] = tk; hv[j] = tv;
                    j = p;
                }
            }
        }
    }
    free(hk); free(hv);
}
static dg_vertex uf_find(dg_vertex *p, dg_vertex x) { while (p[x] != x) x = p[x] = p[p[x]]; return x; }
/* Weakly connected components labelled by their smallest id (-1 removed). */
static void ref_cc(const csr *c, dg_vertex *lab)
{
    size_t v;
    int64_t e;
    for (v = 0; v < c->n; v++) lab[v] = (dg_vertex)v;
    for (v = 0; v < c->n; v++)
        for (e = c->off[v]; e < c->off[v + 1]; e++) {
            dg_vertex a = uf_find(lab, (dg_vertex)v), b = uf_find(lab, c->t[e]);
            if (a < b) lab[b] = a; else lab[a] = b;
        }
    for (v = 0; v < c->n; v++) lab[v] = c->alive[v] ? uf_find(lab, (dg_vertex)v) : -1;
}

/* ---- one configuration: a graph, its four results, rounds of changes ---- */
typedef struct cfg { int undirected, weights, device_batches, reuse; uint32_t page; } cfg;   /* weights: 0 none, 1 integers, 2 fractions */
enum { R_BFS, R_SSSP, R_CC, R_PR, NR };
static long incremental[NR], full_runs[NR];
static uint64_t pr_warm_iters, pr_fresh_iters;

static float rweight(const cfg *c) { return c->weights == 2 ? 0.25f + (float)rnd(1000) / 97.0f : (float)(1 + rnd(20)); }
static dg_vertex rlive(dg_graph *g)
{
    size_t n = dg_vertex_id_bound(g);
    for (;;) { dg_vertex v = (dg_vertex)rnd((uint32_t)n); if (dg_has_vertex(g, v)) return v; }
}
static dg_edge redge(dg_graph *g, const cfg *c, dg_vertex hub)
{
    dg_edge e;
    e.src = chance(10) ? hub : rlive(g);
    e.dst = chance(10) ? hub : rlive(g);
    e.weight = rweight(c);
    return e;
}
/* k existing edges (from the CSR), for removal. */
static size_t existing(const csr *c, dg_edge *out, size_t k)
{
    size_t m = (size_t)c->off[c->n], i, v;
    if (!m) return 0;
    for (i = 0; i < k; i++) {
        size_t a = rnd((uint32_t)m);
        for (v = 0; c->off[v + 1] <= (int64_t)a; v++) {}
        out[i].src = (dg_vertex)v; out[i].dst = c->t[a]; out[i].weight = 1.0f;
    }
    return k;
}

/* The results against fresh runs and the references; expect_inc[k]: the update of result k
   must not have run from nothing. */
static void compare(dg_graph *g, dg_result **res, dg_vertex src, const cfg *c, const int *expect_inc, const char *what)
{
    size_t n = dg_vertex_id_bound(g), v, bad = 0, cnt = 0, cnt2 = 0;
    int32_t *lv = (int32_t *)xmalloc(n * 4), *lv2 = (int32_t *)xmalloc(n * 4);
    float *d = (float *)xmalloc(n * 4), *d2 = (float *)xmalloc(n * 4), *dr = (float *)xmalloc(n * 4);
    float *dref = (float *)xmalloc(n * 4);
    dg_vertex *lab = (dg_vertex *)xmalloc(n * 4), *lab2 = (dg_vertex *)xmalloc(n * 4);
    dg_result_stats st[NR];
    dg_pagerank_stats ps;
    dg_pagerank_options po;
    double l1 = 0.0, sum = 0.0;
    csr C;
    int k;
    csr_take(g, &C);
    memset(st, 0, sizeof st);
    CHECK_MSG(dg_result_update(res[R_BFS], lv, &st[R_BFS]) == DG_OK, "%s: %s", what, dg_error_message(g));
    CHECK_MSG(dg_result_update(res[R_SSSP], d, &st[R_SSSP]) == DG_OK, "%s: %s", what, dg_error_message(g));
    CHECK_MSG(dg_result_update(res[R_CC], lab, &st[R_CC]) == DG_OK, "%s: %s", what, dg_error_message(g));
    CHECK_MSG(dg_result_update(res[R_PR], dr, &st[R_PR]) == DG_OK, "%s: %s", what, dg_error_message(g));
    for (k = 0; k < NR; k++) {
        if (st[k].full) full_runs[k]++; else incremental[k]++;
        CHECK_MSG(!expect_inc[k] || !st[k].full, "%s: result %d ran from nothing: %s", what, k, st[k].reason);
        CHECK(st[k].full == (st[k].reason[0] != 0));
    }
    /* BFS */
    CHECK(dg_bfs(g, src, lv2, NULL) == DG_OK);
    ref_dist(&C, src, 1, d2);
    for (v = 0; v < n; v++) {
        int32_t want = d2[v] == INFINITY ? -1 : (int32_t)d2[v];
        bad += lv[v] != lv2[v] || lv[v] != want;
    }
    CHECK_MSG(bad == 0, "%s: BFS: %zu distances differ (%zu invalidated, %u rounds)", what, bad, st[R_BFS].invalidated,
              (unsigned)st[R_BFS].rounds);
    /* SSSP: exactly the fresh run's floats; the reference too where weights are integers */
    CHECK(dg_sssp(g, src, d2, NULL) == DG_OK);
    ref_dist(&C, src, c->weights == 0, dref);
    for (bad = 0, v = 0; v < n; v++) {
        bad += memcmp(&d[v], &d2[v], 4) != 0;
        if (c->weights != 2) bad += d[v] != dref[v];
    }
    CHECK_MSG(bad == 0, "%s: SSSP: %zu distances differ (%zu invalidated)", what, bad, st[R_SSSP].invalidated);
    /* components */
    CHECK(dg_components(g, lab2, &cnt) == DG_OK);
    for (bad = 0, v = 0; v < n; v++) bad += lab[v] != lab2[v];
    ref_cc(&C, lab2);
    for (v = 0; v < n; v++) { bad += lab[v] != lab2[v]; cnt2 += lab2[v] == (dg_vertex)v; }
    CHECK_MSG(bad == 0 && st[R_CC].components == cnt && cnt == cnt2, "%s: components: %zu labels differ, %zu/%zu/%zu",
              what, bad, st[R_CC].components, cnt, cnt2);
    /* PageRank: within the tolerance of a fresh run */
    memset(&po, 0, sizeof po);
    po.stats = &ps;
    CHECK(dg_pagerank(g, d2, &po) == DG_OK);
    for (v = 0; v < n; v++) { l1 += fabs((double)dr[v] - d2[v]); sum += dr[v]; bad += !C.alive[v] && dr[v] != 0.0f; }
    CHECK_MSG(l1 < 1e-4 && fabs(sum - 1.0) < 1e-3 && bad == 0, "%s: PageRank: L1 %g from a fresh run, sum %g", what, l1, sum);
    if (!st[R_PR].full) { pr_warm_iters += st[R_PR].rounds; pr_fresh_iters += ps.iterations; }
    csr_free(&C);
    free(lv); free(lv2); free(d); free(d2); free(dr); free(dref); free(lab); free(lab2);
}

static dg_graph *make_graph(const cfg *c, size_t n, dg_vertex *hub)
{
    dg_graph *g;
    dg_desc desc;
    dg_edge *e;
    size_t m = c->reuse ? n / 2 : n * 3, i;       /* sparse: many components */
    dg_vertex first;
    memset(&desc, 0, sizeof desc);
    desc.undirected = c->undirected;
    desc.weighted = c->weights != 0;
    desc.page_size = c->page;
    desc.device_batches = c->device_batches;
    desc.reuse_ids = c->reuse;
    if (dg_create(&desc, &g) != DG_OK) return NULL;
    CHECK(dg_add_vertices(g, n, &first) == DG_OK);
    *hub = (dg_vertex)rnd((uint32_t)n);
    e = (dg_edge *)xmalloc((m + 400) * sizeof *e);
    for (i = 0; i < m; i++) e[i] = redge(g, c, *hub);
    for (i = 0; i < 400; i++) { e[m + i].src = *hub; e[m + i].dst = rlive(g); e[m + i].weight = rweight(c); }   /* a hub over pages */
    CHECK(dg_add_edges(g, e, m + 400, NULL) == DG_OK);
    free(e);
    return g;
}

static void make_results(dg_graph *g, dg_vertex src, dg_result **res)
{
    dg_result_desc rd;
    int k;
    for (k = 0; k < NR; k++) {
        memset(&rd, 0, sizeof rd);
        rd.kind = k == R_BFS ? DG_RESULT_BFS : k == R_SSSP ? DG_RESULT_SSSP : k == R_CC ? DG_RESULT_COMPONENTS : DG_RESULT_PAGERANK;
        rd.source = src;
        rd.budget = -1.0f;                        /* no giving up on time: repeatable paths */
        CHECK_MSG(dg_result_create(g, &rd, &res[k]) == DG_OK, "%s", dg_error_message(g));
    }
}

/* One round of changes of kind `kind`; returns which results must stay incremental. */
static void change_round(dg_graph *g, const cfg *c, dg_vertex hub, dg_vertex src, int kind, int *inc)
{
    dg_edge e[256];
    size_t k = 1 + rnd(120), i;
    csr C;
    int j;
    for (j = 0; j < NR; j++) inc[j] = 1;
    switch (kind) {
    case 0:                                          /* insert-only batch */
        for (i = 0; i < k; i++) e[i] = redge(g, c, hub);
        CHECK(dg_add_edges(g, e, k, NULL) == DG_OK);
        break;
    case 1:                                          /* mixed batch: half removals */
        csr_take(g, &C);
        existing(&C, e, k / 2 + 1);
        csr_free(&C);
        CHECK(dg_remove_edges(g, e, k / 2 + 1, NULL) == DG_OK);
        for (i = 0; i < k / 2 + 1; i++) e[i] = redge(g, c, hub);
        CHECK(dg_add_edges(g, e, k / 2 + 1, NULL) == DG_OK);
        break;
    case 2:                                          /* single edge calls */
        csr_take(g, &C);
        for (i = 0; i < 12; i++) {
            dg_edge x = redge(g, c, hub), y;
            existing(&C, &y, 1);
            switch (rnd(4)) {
            case 0: dg_add_edge(g, x.src, x.dst, x.weight); break;
            case 1: dg_remove_edge(g, y.src, y.dst); break;
            case 2: dg_set_weight(g, y.src, y.dst, rweight(c)); break;
            default: dg_edit_edge(g, y.src, y.dst, x.dst); break;
            }
        }
        csr_free(&C);
        break;
    case 3:                                          /* vertices removed (not the source), added */
        for (i = 0; i < 3; i++) {
            dg_vertex v = rlive(g), w;
            if (v != src && v != hub) CHECK(dg_remove_vertex(g, v) == DG_OK);
            CHECK(dg_add_vertex(g, &w) == DG_OK);
            dg_add_edge(g, w, rlive(g), rweight(c));
            dg_add_edge(g, rlive(g), w, rweight(c));
        }
        break;
    case 4: {                                        /* edges inserted and removed again unseen */
        dg_edge x[8];
        for (i = 0; i < 8; i++) x[i] = redge(g, c, hub);
        for (i = 0; i < 8; i++) dg_add_edge(g, x[i].src, x[i].dst, x[i].weight);
        dg_remove_edges(g, x, 8, NULL);
        dg_add_edge(g, x[0].src, x[0].dst, x[0].weight);   /* and one of them back */
        break;
    }
    default: {                                       /* batches given on the device */
        cl_mem m;
        cl_int err;
        for (i = 0; i < k; i++) e[i] = redge(g, c, hub);
        m = clCreateBuffer(dg_cl_context(g), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, k * sizeof(dg_edge), e, &err);
        CHECK(err == CL_SUCCESS);
        CHECK(dg_add_edges_cl(g, m, k, NULL) == DG_OK);
        csr_take(g, &C);
        existing(&C, e, k / 3 + 1);
        csr_free(&C);
        CHECK(clEnqueueWriteBuffer(dg_cl_queue(g), m, CL_TRUE, 0, (k / 3 + 1) * sizeof(dg_edge), e, 0, NULL, NULL) == CL_SUCCESS);
        CHECK(dg_remove_edges_cl(g, m, k / 3 + 1, NULL) == DG_OK);
        clReleaseMemObject(m);
        break;
    }
    }
}

static void test_random(void)
{
    int und, wt, db, reuse, round, k;
    char what[160];
    for (und = 0; und < 2; und++)
        for (wt = 0; wt < 3; wt++)
            for (db = 0; db < 2; db++)
                for (reuse = 0; reuse < 2; reuse++) {
                    cfg c;
                    dg_graph *g;
                    dg_result *res[NR];
                    dg_vertex hub, src;
                    int inc[NR] = { 0, 0, 0, 0 };
                    c.undirected = und; c.weights = wt; c.device_batches = db ? 1 : -1; c.reuse = reuse;
                    c.page = (und + wt + reuse) & 1 ? 64 : 1024;
                    /* propagation: in one work-group while the frontier is small (the default),
                       always queued (0), or switching between the two (8) */
                    dg__res_local_limit = db ? DG__RES_LOCAL_LIMIT : reuse ? 8 : 0;
                    dg__res_local_edges = wt == 2 ? 100 : DG__RES_LOCAL_EDGES;   /* the hub: queued */
                    dg__res_cc_local = und ? DG__RES_CC_LOCAL : 0;     /* components: hooking passes */
                    dg__res_cut_on = wt != 1;                               /* the search around removals */
                    if (!(g = make_graph(&c, 300 + rnd(700), &hub))) { CHECK(0); continue; }
                    src = chance(50) ? hub : rlive(g);
                    make_results(g, src, res);
                    snprintf(what, sizeof what, "und %d weights %d device %d reuse %d: first", und, wt, db, reuse);
                    compare(g, res, src, &c, inc, what);
                    for (round = 0; round < 10; round++) {
                        int kind = (int)rnd(6);
                        change_round(g, &c, hub, src, kind, inc);
                        snprintf(what, sizeof what, "und %d weights %d device %d reuse %d: round %d (kind %d)", und, wt, db,
                                 reuse, round, kind);
                        compare(g, res, src, &c, inc, what);
                    }
                    CHECK(dg_validate(g) == DG_OK);
                    for (k = 0; k < NR; k++) dg_result_destroy(res[k]);
                    dg_destroy(g);
                }
    /* the incremental paths ran (a test that cannot fail is a defect) */
    for (k = 0; k < NR; k++) CHECK_MSG(incremental[k] > full_runs[k], "result %d: %ld incremental, %ld full", k, incremental[k], full_runs[k]);
    CHECK_MSG(pr_warm_iters < pr_fresh_iters, "PageRank from the last ranks: %llu iterations, fresh %llu",
              (unsigned long long)pr_warm_iters, (unsigned long long)pr_fresh_iters);
}

static void test_source(void)
{
    cfg c = { 0, 1, -1, 1, 64 };
    dg_graph *g;
    dg_result *res[NR];
    dg_vertex hub, src, w;
    dg_result_stats st;
    int inc[NR] = { 0, 0, 0, 0 }, k;
    int32_t *lv;
    if (!(g = make_graph(&c, 500, &hub))) { CHECK(0); return; }
    src = hub == 7 ? 8 : 7;
    make_results(g, src, res);
    compare(g, res, src, &c, inc, "source: first");
    lv = (int32_t *)xmalloc(dg_vertex_id_bound(g) * 4);
    CHECK(dg_remove_vertex(g, src) == DG_OK);
    CHECK(dg_bfs(g, src, lv, NULL) == DG_ERR_NOT_FOUND);
    CHECK(dg_result_update(res[R_BFS], lv, &st) == DG_ERR_NOT_FOUND);
    CHECK(dg_result_update(res[R_SSSP], NULL, &st) == DG_ERR_NOT_FOUND);
    CHECK(dg_add_vertex(g, &w) == DG_OK && w == src);    /* reuse_ids: the id is back */
    CHECK(dg_add_edge(g, src, hub, 2.0f) == DG_OK);
    CHECK(dg_add_edge(g, hub, src, 3.0f) == DG_OK);
    for (k = 0; k < NR; k++) inc[k] = k == R_PR;
    compare(g, res, src, &c, inc, "source: back");
    for (k = 0; k < NR; k++) inc[k] = 1;
    dg_add_edge(g, src, rlive(g), 1.0f);
    compare(g, res, src, &c, inc, "source: after");
    free(lv);
    for (k = 0; k < NR; k++) dg_result_destroy(res[k]);
    dg_destroy(g);
}

static void test_fallbacks(void)
{
    cfg c = { 1, 1, -1, 0, 1024 };
    dg_graph *g;
    dg_result *res[NR], *more[6];
    dg_vertex hub, src, msrc[6];
    dg_result_stats st;
    dg_result_desc rd;
    int inc[NR] = { 0, 0, 0, 0 }, k;
    dg_edge *e;
    size_t i, n;
    float *d;
    if (!(g = make_graph(&c, 2000, &hub))) { CHECK(0); return; }
    src = rlive(g);
    make_results(g, src, res);
    compare(g, res, src, &c, inc, "fallbacks: first");
    /* a batch past the limit (more than 4,096 changes and a sixteenth of the arcs) */
    e = (dg_edge *)xmalloc(6000 * sizeof *e);
    for (i = 0; i < 6000; i++) e[i] = redge(g, &c, hub);
    CHECK(dg_add_edges(g, e, 6000, NULL) == DG_OK);
    CHECK(dg_result_update(res[R_BFS], NULL, &st) == DG_OK && st.full && strstr(st.reason, "sixteenth"));
    for (k = 0; k < NR; k++) inc[k] = k == R_BFS;
    compare(g, res, src, &c, inc, "fallbacks: large batch");
    /* a file loaded: everything runs from nothing */
    {
        const char *txt = "0 1 1\n1 2 1\n";
        for (k = 0; k < NR; k++) CHECK(dg_result_update(res[k], NULL, NULL) == DG_OK);
        CHECK(dg_load_memory(g, txt, strlen(txt), "x.txt", NULL) == DG_OK);
        for (k = 0; k < NR; k++) {
            CHECK(dg_result_update(res[k], NULL, &st) == DG_OK && st.full && strstr(st.reason, "dropped"));
            inc[k] = 1;
        }
        compare(g, res, src, &c, inc, "fallbacks: after a load");
    }
    /* many results at once, some never updated: the log follows the oldest */
    memset(&rd, 0, sizeof rd);
    for (k = 0; k < 6; k++) {
        rd.kind = k & 1 ? DG_RESULT_BFS : DG_RESULT_SSSP;
        rd.source = msrc[k] = rlive(g);
        rd.budget = -1.0f;
        CHECK(dg_result_create(g, &rd, &more[k]) == DG_OK);
        if (k < 3) CHECK(dg_result_update(more[k], NULL, NULL) == DG_OK);
    }
    for (i = 0; i < 50; i++) e[i] = redge(g, &c, hub);
    CHECK(dg_add_edges(g, e, 50, NULL) == DG_OK);
    for (k = 0; k < 6; k++) {
        size_t nb = dg_vertex_id_bound(g);
        int32_t *lv = (int32_t *)xmalloc(nb * 4), *lv2 = (int32_t *)xmalloc(nb * 4);
        CHECK(dg_result_update(more[k], lv, &st) == DG_OK && st.full == (k >= 3));
        if (k & 1) CHECK(dg_bfs(g, msrc[k], lv2, NULL) == DG_OK);
        else CHECK(dg_sssp(g, msrc[k], (float *)lv2, NULL) == DG_OK);
        CHECK(memcmp(lv, lv2, nb * 4) == 0);
        free(lv); free(lv2);
    }
    for (k = 0; k < 6; k++) dg_result_destroy(more[k]);
    for (k = 0; k < NR; k++) CHECK(dg_result_update(res[k], NULL, NULL) == DG_OK);
    CHECK(g->clog.n == 0);                  /* every live result has seen everything */
    /* a negative weight: SSSP fails as dg_sssp does, then runs from nothing */
    CHECK(dg_add_edge(g, src, hub, -1.0f) == DG_OK || dg_set_weight(g, src, hub, -1.0f) == DG_OK);
    n = dg_vertex_id_bound(g);
    d = (float *)xmalloc(n * 4);
    CHECK(dg_sssp(g, src, d, NULL) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_result_update(res[R_SSSP], d, &st) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_set_weight(g, src, hub, 5.0f) == DG_OK);
    for (k = 0; k < NR; k++) inc[k] = k == R_BFS || k == R_PR;
    compare(g, res, src, &c, inc, "fallbacks: negative weight fixed");
    dg_add_edge(g, rlive(g), rlive(g), 2.0f);
    CHECK(dg_result_update(res[R_SSSP], d, &st) == DG_OK && st.full && strstr(st.reason, "negative"));
    /* components: a removal in a large component runs from nothing, one in a small one not */
    {
        dg_graph *h;
        dg_desc hd;
        dg_result *cr;
        dg_vertex f, *lab, *lab2;
        size_t nb = 6010;
        memset(&hd, 0, sizeof hd);
        hd.undirected = 1;
        CHECK(dg_create(&hd, &h) == DG_OK);
        CHECK(dg_add_vertices(h, nb, &f) == DG_OK);
        for (i = 0; i < 6000; i++) CHECK(dg_add_edge(h, (dg_vertex)i, (dg_vertex)((i + 1) % 6000), 1.0f) == DG_OK);
        for (i = 6000; i + 1 < nb; i++) CHECK(dg_add_edge(h, (dg_vertex)i, (dg_vertex)(i + 1), 1.0f) == DG_OK);
        memset(&rd, 0, sizeof rd);
        rd.kind = DG_RESULT_COMPONENTS;
        CHECK(dg_result_create(h, &rd, &cr) == DG_OK);
        lab = (dg_vertex *)xmalloc(nb * sizeof *lab);
        lab2 = (dg_vertex *)xmalloc(nb * sizeof *lab2);
        CHECK(dg_result_update(cr, lab, &st) == DG_OK && st.full && st.components == 2);
        CHECK(dg_remove_edge(h, 6004, 6005) == DG_OK);          /* the path splits */
        CHECK(dg_result_update(cr, lab, &st) == DG_OK && !st.full && st.components == 3 && st.invalidated == 10);
        CHECK(dg_components(h, lab2, NULL) == DG_OK && memcmp(lab, lab2, nb * sizeof *lab) == 0);
        CHECK(dg_remove_edge(h, 0, 1) == DG_OK);                /* the ring opens: 6,000 to hook */
        CHECK(dg_result_update(cr, lab, &st) == DG_OK && st.full && strstr(st.reason, "eighth") && st.components == 3);
        CHECK(dg_components(h, lab2, NULL) == DG_OK && memcmp(lab, lab2, nb * sizeof *lab) == 0);
        CHECK(dg_remove_edge(h, 3000, 3001) == DG_OK);          /* now it splits */
        CHECK(dg_result_update(cr, lab, &st) == DG_OK && st.full && st.components == 4);
        CHECK(dg_components(h, lab2, NULL) == DG_OK && memcmp(lab, lab2, nb * sizeof *lab) == 0);
        dg_result_destroy(cr);
        dg_destroy(h);
        free(lab); free(lab2);
    }
    /* components: removals whose ends still reach each other change nothing (the search
       around them), an end left alone makes the component hook again */
    {
        dg_graph *h;
        dg_desc hd;
        dg_result *cr;
        dg_vertex f, *lab, *lab2;
        size_t side = 30, nb = side * side, x, y;
        memset(&hd, 0, sizeof hd);
        hd.undirected = 1;
        CHECK(dg_create(&hd, &h) == DG_OK);
        CHECK(dg_add_vertices(h, nb, &f) == DG_OK);
        for (y = 0; y < side; y++)
            for (x = 0; x < side; x++) {
                if (x + 1 < side) CHECK(dg_add_edge(h, (dg_vertex)(y * side + x), (dg_vertex)(y * side + x + 1), 1.0f) == DG_OK);
                if (y + 1 < side) CHECK(dg_add_edge(h, (dg_vertex)(y * side + x), (dg_vertex)(y * side + x + side), 1.0f) == DG_OK);
            }
        memset(&rd, 0, sizeof rd);
        rd.kind = DG_RESULT_COMPONENTS;
        CHECK(dg_result_create(h, &rd, &cr) == DG_OK);
        lab = (dg_vertex *)xmalloc(nb * sizeof *lab);
        lab2 = (dg_vertex *)xmalloc(nb * sizeof *lab2);
        CHECK(dg_result_update(cr, lab, &st) == DG_OK && st.full && st.components == 1);
        CHECK(dg_remove_edge(h, 0, 1) == DG_OK);
        CHECK(dg_remove_edge(h, 400, 430) == DG_OK);
        CHECK(dg_result_update(cr, lab, &st) == DG_OK && !st.full && st.components == 1 && st.invalidated == 0 &&
              st.rounds <= 3);
        CHECK(dg_components(h, lab2, NULL) == DG_OK && memcmp(lab, lab2, nb * sizeof *lab) == 0);
        CHECK(dg_remove_edge(h, 0, 30) == DG_OK);                /* 0 is left alone */
        CHECK(dg_result_update(cr, lab, &st) == DG_OK && !st.full && st.components == 2 && st.invalidated == nb);
        CHECK(dg_components(h, lab2, NULL) == DG_OK && memcmp(lab, lab2, nb * sizeof *lab) == 0);
        dg_result_destroy(cr);
        dg_destroy(h);
        free(lab); free(lab2);
    }
    /* a BFS whose update runs past its budget (a shortcut on a long path: hundreds of
       rounds) gives up and runs from nothing; with no budget it does not */
    {
        dg_graph *h;
        dg_desc hd;
        dg_result *br[2];
        dg_vertex f;
        int32_t *l1, *l2, *l3;
        size_t nb = 3000;
        int b;
        memset(&hd, 0, sizeof hd);
        CHECK(dg_create(&hd, &h) == DG_OK);
        CHECK(dg_add_vertices(h, nb, &f) == DG_OK);
        for (i = 0; i + 1 < nb; i++) CHECK(dg_add_edge(h, (dg_vertex)i, (dg_vertex)(i + 1), 1.0f) == DG_OK);
        l1 = (int32_t *)xmalloc(nb * 4); l2 = (int32_t *)xmalloc(nb * 4); l3 = (int32_t *)xmalloc(nb * 4);
        for (b = 0; b < 2; b++) {
            memset(&rd, 0, sizeof rd);
            rd.kind = DG_RESULT_BFS;
            rd.source = 0;
            rd.budget = b ? -1.0f : 1e-6f;
            CHECK(dg_result_create(h, &rd, &br[b]) == DG_OK);
            CHECK(dg_result_update(br[b], NULL, &st) == DG_OK && st.full);
        }
        CHECK(dg_add_edge(h, 0, 1000, 1.0f) == DG_OK);
        CHECK(dg_result_update(br[0], l1, &st) == DG_OK && st.full && strstr(st.reason, "budget"));
        CHECK(dg_result_update(br[1], l2, &st) == DG_OK && !st.full && st.rounds > 1000);
        CHECK(dg_bfs(h, 0, l3, NULL) == DG_OK && memcmp(l1, l3, nb * 4) == 0 && memcmp(l2, l3, nb * 4) == 0);
        for (b = 0; b < 2; b++) dg_result_destroy(br[b]);
        dg_destroy(h);
        free(l1); free(l2); free(l3);
    }
    /* results outlive their graph: update refuses, destroy frees */
    dg_destroy(g);
    CHECK(dg_result_update(res[R_BFS], NULL, NULL) == DG_ERR_INVALID_ARGUMENT);
    for (k = 0; k < NR; k++) dg_result_destroy(res[k]);
    free(e); free(d);
}

static void test_bad(void)
{
    dg_graph *g;
    dg_desc desc;
    dg_result *r = (dg_result *)1;
    dg_result_desc rd;
    memset(&desc, 0, sizeof desc);
    memset(&rd, 0, sizeof rd);
    CHECK(dg_result_create(NULL, &rd, &r) == DG_ERR_INVALID_ARGUMENT && r == NULL);
    CHECK(dg_result_update(NULL, NULL, NULL) == DG_ERR_INVALID_ARGUMENT);
    dg_result_destroy(NULL);
    CHECK(dg_create(&desc, &g) == DG_OK);
    CHECK(dg_add_vertices(g, 3, NULL) == DG_OK);
    CHECK(dg_result_create(g, NULL, &r) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_result_create(g, &rd, NULL) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_result_create(g, &rd, &r) == DG_ERR_INVALID_ARGUMENT && strstr(dg_error_message(g), "kind"));
    rd.kind = (dg_result_kind)99;
    CHECK(dg_result_create(g, &rd, &r) == DG_ERR_INVALID_ARGUMENT);
    rd.kind = DG_RESULT_BFS; rd.source = 3;
    CHECK(dg_result_create(g, &rd, &r) == DG_ERR_NOT_FOUND && r == NULL);
    rd.source = -1;
    CHECK(dg_result_create(g, &rd, &r) == DG_ERR_NOT_FOUND);
    rd.kind = DG_RESULT_COMPONENTS;      /* no source needed */
    CHECK(dg_result_create(g, &rd, &r) == DG_OK);
    {
        dg_vertex lab[3];
        dg_result_stats st;
        CHECK(dg_result_update(r, lab, &st) == DG_OK && st.full && st.components == 3 && lab[2] == 2);
        CHECK(dg_add_edge(g, 2, 1, 1.0f) == DG_OK);
        CHECK(dg_result_update(r, lab, &st) == DG_OK && !st.full && st.components == 2 && lab[2] == 1);
    }
    rd.kind = DG_RESULT_PAGERANK;
    rd.pagerank.damping = 2.0f;
    {
        dg_result *p;
        CHECK(dg_result_create(g, &rd, &p) == DG_OK);
        CHECK(dg_result_update(p, NULL, NULL) == DG_ERR_INVALID_ARGUMENT);
        dg_result_destroy(p);
    }
    dg_result_destroy(r);
    dg_destroy(g);
}

static const tt_case cases[] = {
    { "bad", test_bad },
    { "source", test_source },
    { "fallbacks", test_fallbacks },
    { "random", test_random },
};

int main(int argc, char **argv)
{
    uint64_t seed = trand_seed(argc, argv, (uint64_t)time(NULL), "test_result");
    (void)seed;
    TT_RUN("test_result", cases);
    return TT_SUMMARY("test_result");
}
