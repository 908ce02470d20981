/* test_update.c - batches applied on the device (module UPDATE, >>update; manual section 5,
   BATCHES, and section 11, ownership), against a reference model (a dense weight matrix)
   after every step.

   Cases (DG_TESTS=test_update:NAME, see tt.h):
   - random: {directed, undirected} x {unweighted, weighted} x page size {64, 1024} x
     {reuse_ids off, on}: rounds of random batches (absent and present edges, repeats with
     other weights, self-loops, hubs past a page: large lists) applied on the device (the
     device_batches = 1 graph's dg_add_edges / dg_remove_edges, and dg_add_edges_cl /
     dg_remove_edges_cl) and on the host (device_batches = -1 twin ... and the _cl calls of
     the device_batches = -1 graph; host batches between device batches on one graph, with
     hash indexes on lists of 16 entries that device batches must drop), mixed with single-edge changes, vertex changes and
     queries of single lists right after a device batch (the pages read back lazily); the
     `added` / `removed` counts, dg_edge_count, every list and weight (dg_export_csr),
     dg_validate and dg_validate_device after each round; that insertions made room on the
     device (pages laid out again) and removals shrank large lists (pages released);
     dg_compact every fourth round (pages released, the content and the mirror unchanged);
   - errors: a NaN weight, a negative id, an id never created, a removed vertex: the host's
     status, nothing applied; a NULL or short buffer for the _cl calls; once more (three
     times over) with the kernels built by PoCL's optimiser (the other cases run
     -cl-opt-disable, as test/run.sh sets it): the lookup ran before the batch's check was
     read and read outside the directory for such edges, which crashed 3 runs in 8 there;
   - moved_index: a list a device batch moved keeps its hash index while the host's directory
     entry still names its old page; the next device batch changes it: its index must go;
   - faults: every device allocation of a device batch fails in turn
     (dg_debug_fail_device_alloc): DG_ERR_DEVICE_MEMORY or DG_ERR_OPENCL, the graph unchanged
     (then the batch succeeds). */
#define _POSIX_C_SOURCE 200112L       /* setenv (errors) */
#define DYNGRAPH_FAULT_INJECTION      /* dg_debug_fail_device_alloc (faults) */
#define DG__FRESH_RUNS 2   /* past two runs, stale pages are gathered on the device (dg__fresh_read) */
#define DG__FRESH_BLOCK_RUNS 1   /* and directory blocks past one (dg__fresh_blocks) */
#define DG__UP_SPEC 8      /* a batch reads its changed pages with its counts only up to 8 */
#define DG__UP_HSPEC 2     /* and up to 2 large lists a removal shrank */
#define DG__LH_MIN 16      /* hash indexes on lists of 16 entries (and down to 8) that host */
#define DG__LH_SCANS 1     /* batches touch, at once: device batches must drop those they change */
#define DYNGRAPH_IMPLEMENTATION
#include "dyngraph.h"
#include "tt.h"
#include "trand.h"
#include <math.h>

#define NMAX 400

/* ---- the reference: present[u*n+v], weight w[u*n+v] ---- */
typedef struct model {
    size_t n;
    int directed, weighted;
    uint8_t *alive, *present;
    float *w;
    size_t edges;
} model;

static void model_init(model *m, size_t n, int directed, int weighted)
{
    m->n = n; m->directed = directed; m->weighted = weighted;
    m->alive = (uint8_t *)xcalloc(n, 1);
    m->present = (uint8_t *)xcalloc(n * n, 1);
    m->w = (float *)xcalloc(n * n, sizeof(float));
    m->edges = 0;
}
static void model_free(model *m) { free(m->alive); free(m->present); free(m->w); }
static int model_add(model *m, dg_vertex u, dg_vertex v, float w)
{
    size_t a = (size_t)u * m->n + (size_t)v, b = (size_t)v * m->n + (size_t)u;
    if (m->present[a]) return 0;
    m->present[a] = 1; m->w[a] = m->weighted ? w : 1.0f;
    if (!m->directed) { m->present[b] = 1; m->w[b] = m->weighted ? w : 1.0f; }
    m->edges++;
    return 1;
}
static int model_remove(model *m, dg_vertex u, dg_vertex v)
{
    size_t a = (size_t)u * m->n + (size_t)v, b = (size_t)v * m->n + (size_t)u;
    if (!m->present[a]) return 0;
    m->present[a] = 0;
    if (!m->directed) m->present[b] = 0;
    m->edges--;
    return 1;
}
static void model_drop_vertex(model *m, dg_vertex v)
{
    size_t x;
    for (x = 0; x < m->n; x++) {
        if (m->present[(size_t)v * m->n + x]) model_remove(m, v, (dg_vertex)x);
        if (m->present[x * m->n + (size_t)v]) model_remove(m, (dg_vertex)x, v);
    }
    m->alive[v] = 0;
}

/* Every list and weight of g equals the model's. */
static void compare(dg_graph *g, const model *m, const char *what)
{
    size_t n = dg_vertex_id_bound(g), v, i, bad = 0;
    int64_t *off = (int64_t *)xmalloc((n + 1) * sizeof(int64_t));
    dg_vertex *t;
    float *w;
    CHECK(n <= m->n);
    CHECK(dg_export_csr(g, off, NULL, NULL) == DG_OK);
    t = (dg_vertex *)xmalloc(((size_t)off[n] + 1) * sizeof(dg_vertex));
    w = (float *)xmalloc(((size_t)off[n] + 1) * sizeof(float));
    CHECK(dg_export_csr(g, off, t, w) == DG_OK);
    CHECK_MSG(dg_edge_count(g) == m->edges, "%s: %zu edges, model %zu", what, dg_edge_count(g), m->edges);
    for (v = 0; v < n && bad < 5; v++) {
        size_t cnt = 0, x;
        CHECK(dg_has_vertex(g, (dg_vertex)v) == m->alive[v]);
        for (x = 0; x < m->n; x++) cnt += m->present[v * m->n + x];
        if ((size_t)(off[v + 1] - off[v]) != cnt) {
            bad++;
            CHECK_MSG(0, "%s: vertex %zu has %lld entries, model %zu", what, v, (long long)(off[v + 1] - off[v]), cnt);
            continue;
        }
        for (i = (size_t)off[v]; i < (size_t)off[v + 1]; i++) {
            size_t a = v * m->n + (size_t)t[i];
            if (!m->present[a] || w[i] != m->w[a]) {
                bad++;
                CHECK_MSG(0, "%s: arc %zu->%d (weight %g) not in the model (%d, %g)", what, v, (int)t[i], w[i],
                          m->present[a], m->w[a]);
                break;
            }
        }
    }
    CHECK(bad == 0);
    free(off); free(t); free(w);
}

/* One list, read right after a batch (its pages read back alone). */
static void compare_list(dg_graph *g, const model *m, dg_vertex v)
{
    dg_vertex buf[NMAX];
    float wb[NMAX];
    size_t cnt = 0, x, i, want = 0, ok = 1;
    if (!m->alive[v]) return;
    CHECK(dg_neighbors(g, v, buf, wb, NMAX, &cnt) == DG_OK);
    for (x = 0; x < m->n; x++) want += m->present[(size_t)v * m->n + x];
    CHECK_MSG(cnt == want, "list of %d: %zu entries, model %zu", (int)v, cnt, want);
    for (i = 0; i < cnt && i < NMAX && ok; i++)
        ok = buf[i] >= 0 && (size_t)buf[i] < m->n && m->present[(size_t)v * m->n + (size_t)buf[i]] &&
             wb[i] == m->w[(size_t)v * m->n + (size_t)buf[i]];
    CHECK_MSG(ok, "list of %d: entry %zu is %d", (int)v, i - 1, (int)buf[i - 1]);
}

/* A random batch of k edges: hub-heavy, with present edges, repeats, self-loops. */
static void make_batch(const model *m, dg_edge *e, size_t k, int hubs)
{
    size_t i;
    static const float ws[] = { 0.5f, 1.0f, 2.0f, 3.25f, -1.0f };
    for (i = 0; i < k; i++) {
        dg_vertex u, v;
        if (i > 0 && chance(10)) { e[i] = e[rnd((uint32_t)i)]; e[i].weight = ws[rnd(5)]; continue; }
        do {
            u = (dg_vertex)(hubs && chance(40) ? rnd(3) : rnd((uint32_t)m->n));
            v = chance(3) ? u : (dg_vertex)rnd((uint32_t)m->n);
        } while (!m->alive[u] || !m->alive[v]);
        e[i].src = u; e[i].dst = v; e[i].weight = ws[rnd(5)];
    }
}

/* Applies a batch to the model as dg_add_edges / dg_remove_edges define it. */
static size_t model_batch(model *m, const dg_edge *e, size_t k, int add)
{
    size_t i, c = 0;
    for (i = 0; i < k; i++) c += add ? model_add(m, e[i].src, e[i].dst, e[i].weight) : model_remove(m, e[i].src, e[i].dst);
    return c;
}

/* The batch through a device buffer. */
static dg_status batch_cl(dg_graph *g, const dg_edge *e, size_t k, int add, size_t *changed)
{
    cl_int err;
    dg_status st;
    cl_mem b = clCreateBuffer(dg_cl_context(g), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, (k ? k : 1) * sizeof(dg_edge),
                              (void *)(size_t)e, &err);
    if (err != CL_SUCCESS) return DG_ERR_OPENCL;
    st = add ? dg_add_edges_cl(g, b, k, changed) : dg_remove_edges_cl(g, b, k, changed);
    clReleaseMemObject(b);
    return st;
}

static size_t compacted;   /* pages dg_compact released */
static size_t host_batches;   /* host batches on a device_batches = 1 graph (test_random) */
static size_t arcs_device, room_pages, room_host, shrinks;   /* device batches: arcs written, pages laid out
                                                   again to make room (of which by the host), removals
                                                   that left large lists with fewer pages */
static size_t room_dev, dir_blocks, dir_read;   /* device batches with room made on the device; the directory
                                                   blocks they left to the device, and those read back */

static void run_config(int directed, int weighted, uint32_t P, int reuse, int where)
{
    dg_desc d;
    dg_graph *g = NULL;
    model m;
    size_t n = 120 + rnd(200), round, i, share = dg__lh_share;
    dg_edge *e = (dg_edge *)xmalloc(4000 * sizeof(dg_edge));
    char what[160];
    memset(&d, 0, sizeof d);
    d.undirected = !directed; d.weighted = weighted; d.page_size = P; d.reuse_ids = reuse;
    d.device_batches = where;
    CHECK(dg_create(&d, &g) == DG_OK);
    if (!g) { free(e); return; }
    model_init(&m, NMAX, directed, weighted);
    CHECK(dg_add_vertices(g, n, NULL) == DG_OK);
    for (i = 0; i < n; i++) m.alive[i] = 1;
    for (round = 0; round < 12; round++) {
        int step;
        dg_stats before;
        memset(&before, 0, sizeof before);
        snprintf(what, sizeof what, "%s %s P=%u reuse=%d where=%d round %zu", directed ? "directed" : "undirected",
                 weighted ? "weighted" : "unweighted", (unsigned)P, reuse, where, round);
        for (step = 0; step < 6; step++) {
            size_t k = 1 + rnd(round < 3 ? 2000 : 600), got = 99, want;
            int add = chance(60), cl = chance(50), host = where > 0 && step % 3 != 0 && chance(30);
            dg_status st;
            make_batch(&m, e, k, chance(50));
            if (!add && chance(50))           /* mostly present edges */
                for (i = 0; i < k; i++) {
                    size_t a = rnd((uint32_t)(m.n * m.n));
                    if (m.present[a]) { e[i].src = (dg_vertex)(a / m.n); e[i].dst = (dg_vertex)(a % m.n); }
                }
            want = model_batch(&m, e, k, add);
            if (where >= 0 && step % 3 == 0) CHECK(dg_get_stats(g, &before) == DG_OK);
            /* the indexes a device batch changed: looked up, or all of them dropped */
            dg__lh_share = chance(50) ? 0 : (size_t)1 << 20;
            dg__stale_from = (int)rnd(3);     /* the pages it wrote: from the list or the bits */
            dg__fresh_block_runs = rnd(2);    /* directory blocks read back: gathered past 0 or 1 runs */
            dg__up_small = chance(30) ? DG_UP_SMALL : 0;   /* sorted in one work-group, or by the radix sorts */
            if (host) g->desc.device_batches = -1;   /* a host batch between device batches: it reads
                                                        back what it needs, makes hash indexes */
            st = cl ? batch_cl(g, e, k, add, &got) : add ? dg_add_edges(g, e, k, &got) : dg_remove_edges(g, e, k, &got);
            g->desc.device_batches = where;
            host_batches += host;
            CHECK_MSG(st == DG_OK, "%s: %s", what, dg_error_message(g));
            CHECK_MSG(got == want, "%s: batch of %zu (%s%s) changed %zu, model %zu", what, k, add ? "add" : "remove",
                      cl ? ", _cl" : "", got, want);
            if (dg__bscr_keep == 0)   /* a host batch's arc arrays went with it */
                CHECK(!g->bscr[0] && !g->bscr[1] && !g->bscr[2] && !g->bscr_cap[0]);
            if (where >= 0 && step % 3 == 0) {  /* both ways of the device path ran (read back all) */
                dg_stats sts;
                CHECK(dg_get_stats(g, &sts) == DG_OK);
                arcs_device += sts.batch_arcs_device;
                room_pages += sts.batch_room_pages;
                room_host += g->dev->batch_room_host;
                dir_blocks += g->dev->batch_dir_blocks;
                room_dev += sts.batch_room_pages > g->dev->batch_room_host;
                shrinks += !add && sts.large_pages < before.large_pages;
                CHECK(sts.batch_arcs_host == 0);
                if (dg__up_keep == 0 && where > 0)   /* the batch's scratch went with it */
                    CHECK(dg__module_bytes(g->dev, DG__MOD_UPDATE) + dg__module_bytes(g->dev, DG__MOD_SORT) == 0);
            }
            /* single lists right away (read back alone), then single edges on top */
            for (i = 0; i < 4; i++) compare_list(g, &m, (dg_vertex)(i < 2 ? i : rnd((uint32_t)n)));
            for (i = 0; i < 20; i++) {
                dg_vertex u = (dg_vertex)rnd((uint32_t)n), v = (dg_vertex)rnd((uint32_t)n);
                if (!m.alive[u] || !m.alive[v]) continue;
                CHECK(dg_has_edge(g, u, v) == m.present[(size_t)u * m.n + (size_t)v]);
                if (chance(50)) {
                    float w = (float)rnd(7);
                    dg_status s1 = dg_add_edge(g, u, v, w);
                    CHECK(s1 == (model_add(&m, u, v, w) ? DG_OK : DG_ERR_EXISTS));
                } else {
                    dg_status s1 = dg_remove_edge(g, u, v);
                    CHECK(s1 == (model_remove(&m, u, v) ? DG_OK : DG_ERR_NOT_FOUND));
                }
            }
        }
        if (round % 3 == 2) {                 /* vertices come and go */
            dg_vertex v = (dg_vertex)(3 + rnd((uint32_t)n - 3)), nv = -1;
            if (m.alive[v]) {
                CHECK(dg_remove_vertex(g, v) == DG_OK);
                model_drop_vertex(&m, v);
            }
            CHECK(dg_add_vertex(g, &nv) == DG_OK);
            if (nv >= 0 && (size_t)nv < m.n) { m.alive[nv] = 1; if ((size_t)nv >= n) n = (size_t)nv + 1; }
        }
        if (round % 4 == 3) {                 /* compaction: fewer pages, the same content */
            dg_stats a, b;
            size_t rel = 0;
            CHECK(dg_get_stats(g, &a) == DG_OK);
            CHECK_MSG(dg_compact(g, &rel) == DG_OK, "%s: dg_compact: %s", what, dg_error_message(g));
            CHECK(dg_get_stats(g, &b) == DG_OK);
            CHECK_MSG(b.pages + rel == a.pages && b.free_pages == a.free_pages + rel && b.edges == a.edges,
                      "%s: dg_compact released %zu: pages %zu -> %zu, free %zu -> %zu", what, rel, a.pages, b.pages,
                      a.free_pages, b.free_pages);
            compacted += rel;
        }
        compare(g, &m, what);
        CHECK_MSG(dg_validate(g) == DG_OK, "%s: %s", what, dg_error_message(g));
        CHECK_MSG(dg_validate_device(g) == DG_OK, "%s: %s", what, dg_error_message(g));
    }
    if (g->dev) dir_read += g->dev->dir_blocks_read;
    dg__lh_share = share;
    dg__stale_from = 0;
    dg__fresh_block_runs = DG__FRESH_BLOCK_RUNS;
    dg__up_small = (size_t)-1;
    dg_destroy(g);
    model_free(&m);
    free(e);
}

static void test_random(void)
{
    int directed, weighted, ps, reuse;
    for (directed = 0; directed < 2; directed++)
        for (weighted = 0; weighted < 2; weighted++)
            for (ps = 0; ps < 2; ps++)
                for (reuse = 0; reuse < 2; reuse++)
                {
                    size_t keep = dg__up_keep, bkeep = dg__bscr_keep;
                    if (reuse) dg__up_keep = dg__bscr_keep = 0;   /* half the configurations: no scratch kept */
                    run_config(directed, weighted, ps ? 1024 : 64, reuse, (directed + weighted + ps + reuse) % 3 == 2 ? -1 : 1);
                    dg__up_keep = keep;
                    dg__bscr_keep = bkeep;
                }
    printf("device batches: %zu arcs written, %zu pages laid out again for room (%zu by the host), %zu removals that "
           "shrank large lists\n", arcs_device, room_pages, room_host, shrinks);
    CHECK(arcs_device > 1000 && room_pages > 100 && shrinks > 5);
    CHECK(room_host > 10 && room_pages - room_host > 100);   /* both ways of making room ran */
    printf("device batches with room made on the device: %zu; directory blocks they left to the device: %zu, "
           "read back: %zu\n", room_dev, dir_blocks, dir_read);
    CHECK(room_dev > 10 && dir_blocks > 10 && dir_read > 10);   /* the host read back what the device wrote */
    printf("dg_compact released %zu pages; %zu host batches between device batches\n", compacted, host_batches);
    CHECK(compacted > 20 && host_batches > 20);
}

/* The graph's content, to see that a failed batch changed nothing. */
static char *fingerprint(dg_graph *g, size_t *len)
{
    size_t n = dg_vertex_id_bound(g);
    int64_t *off = (int64_t *)xmalloc((n + 1) * sizeof(int64_t));
    char *buf;
    dg_export_csr(g, off, NULL, NULL);
    *len = (n + 1) * sizeof(int64_t) + (size_t)off[n] * (sizeof(dg_vertex) + sizeof(float));
    buf = (char *)xrealloc(off, *len);
    dg_export_csr(g, (int64_t *)(void *)buf, (dg_vertex *)(void *)(buf + (n + 1) * sizeof(int64_t)),
                  (float *)(void *)(buf + (n + 1) * sizeof(int64_t) + (size_t)((int64_t *)(void *)buf)[n] * sizeof(dg_vertex)));
    return buf;
}

static dg_graph *small_graph(int directed)
{
    dg_desc d;
    dg_graph *g = NULL;
    dg_edge e[300];
    size_t i;
    memset(&d, 0, sizeof d);
    d.undirected = !directed; d.weighted = 1; d.page_size = 64; d.device_batches = 1;
    CHECK(dg_create(&d, &g) == DG_OK);
    if (!g) return NULL;
    CHECK(dg_add_vertices(g, 50, NULL) == DG_OK);
    for (i = 0; i < 300; i++) { e[i].src = (dg_vertex)(i % 7); e[i].dst = (dg_vertex)((i * 13) % 50); e[i].weight = (float)i; }
    CHECK(dg_add_edges(g, e, 300, NULL) == DG_OK);
    CHECK(dg_remove_vertex(g, 40) == DG_OK);
    return g;
}

static void test_errors(void)
{
    int directed, opt, sm;
    size_t rel = 7;
    const char *was = getenv("DYNGRAPH_CL_OPTIONS");
    char *keep = was ? (char *)xmalloc(strlen(was) + 1) : NULL;
    if (keep) strcpy(keep, was);
    CHECK(dg_compact(NULL, &rel) == DG_ERR_INVALID_ARGUMENT && rel == 0);
    for (opt = 0; opt < 2; opt++)
    for (directed = 0; directed < 2; directed++) {
        dg_graph *g;
        dg_edge e[3];
        size_t l0, l1, c = 5;
        char *f0, *f1;
        int which;
        if (opt) setenv("DYNGRAPH_CL_OPTIONS", "", 1);   /* (the optimiser: read as each program is built, here by small_graph's batch) */
        g = small_graph(directed);
        if (keep) setenv("DYNGRAPH_CL_OPTIONS", keep, 1); else unsetenv("DYNGRAPH_CL_OPTIONS");
        if (!g) continue;
        f0 = fingerprint(g, &l0);
        for (which = 0; which < (opt ? 12 : 4); which++) {
            const int w = which % 4;
            dg_status want = w == 1 || w == 0 ? DG_ERR_INVALID_ARGUMENT : DG_ERR_NOT_FOUND;
            e[0].src = 1; e[0].dst = 2; e[0].weight = 1.0f;
            e[1].src = 3; e[1].dst = 4; e[1].weight = 1.0f;
            e[2].src = 5; e[2].dst = 6; e[2].weight = 1.0f;
            if (w == 0) e[1].weight = NAN;
            if (w == 1) e[2].src = -3;
            if (w == 2) e[1].dst = 50;
            if (w == 3) e[2].dst = 40;
            CHECK_MSG(dg_add_edges(g, e, 3, &c) == want, "case %d (optimised: %d): %s", w, opt, dg_error_message(g));
            CHECK(c == 0);
            if (w != 0) CHECK(dg_remove_edges(g, e, 3, &c) == want);
            for (sm = 0; sm < 2; sm++) {   /* the arcs sorted in one work-group, or by the radix sorts */
                dg__up_small = sm ? DG_UP_SMALL : 0;
                CHECK(batch_cl(g, e, 3, 1, &c) == want);
                if (w != 0) CHECK(batch_cl(g, e, 3, 0, &c) == want);
            }
            dg__up_small = (size_t)-1;
            f1 = fingerprint(g, &l1);
            CHECK(l0 == l1 && memcmp(f0, f1, l0) == 0);
            free(f1);
            /* and the device's copy (a batch into an undirected graph reads its check after
               the kernels that would write: they must have written nothing) */
            CHECK_MSG(dg_validate_device(g) == DG_OK, "case %d (optimised: %d): %s", w, opt, dg_error_message(g));
        }
        CHECK(dg_add_edges_cl(g, NULL, 3, &c) == DG_ERR_INVALID_ARGUMENT);
        {
            cl_int err;
            cl_mem b = clCreateBuffer(dg_cl_context(g), CL_MEM_READ_WRITE, 8, NULL, &err);
            CHECK(dg_remove_edges_cl(g, b, 3, &c) == DG_ERR_INVALID_ARGUMENT);
            clReleaseMemObject(b);
        }
        CHECK(dg_validate(g) == DG_OK);
        free(f0);
        dg_destroy(g);
    }
    free(keep);
}

static void test_faults(void)
{
    int directed, add;
    for (directed = 0; directed < 2; directed++)
        for (add = 0; add < 2; add++) {
            dg_graph *g = small_graph(directed);
            dg_edge e[3000];
            size_t i, l0, l1, c;
            long k, allocs;
            char *f0, *f1;
            if (!g) continue;
            for (i = 0; i < 3000; i++) { e[i].src = (dg_vertex)(i % 9); e[i].dst = (dg_vertex)((i * 7) % 40); e[i].weight = 2.0f; }
            CHECK(dg_sync(g) == DG_OK);
            f0 = fingerprint(g, &l0);
            dg_debug_fail_device_alloc(-1);
            /* how many allocations the batch makes on a fresh graph */
            {
                dg_graph *h = small_graph(directed);
                CHECK(dg_sync(h) == DG_OK);
                dg_debug_fail_device_alloc(-1);
                CHECK(add ? dg_add_edges(h, e, 3000, &c) == DG_OK : dg_remove_edges(h, e, 3000, &c) == DG_OK);
                allocs = dg_debug_device_allocs();
                dg_destroy(h);
            }
            CHECK(allocs > 0);
            for (k = 0; k < allocs; k++) {
                dg_status st;
                dg_debug_fail_device_alloc(k);
                st = add ? dg_add_edges(g, e, 3000, &c) : dg_remove_edges(g, e, 3000, &c);
                dg_debug_fail_device_alloc(-1);
                if (st == DG_OK) break;   /* the buffers of earlier tries were kept */
                CHECK_MSG(st == DG_ERR_DEVICE_MEMORY || st == DG_ERR_OPENCL, "allocation %ld: %s", k, dg_status_string(st));
                f1 = fingerprint(g, &l1);
                CHECK_MSG(l0 == l1 && memcmp(f0, f1, l0) == 0, "allocation %ld failed: the graph changed", k);
                free(f1);
                CHECK(dg_validate(g) == DG_OK);
            }
            CHECK(dg_validate(g) == DG_OK);
            CHECK(dg_validate_device(g) == DG_OK);
            free(f0);
            dg_destroy(g);
        }
}

/* A batch that lays pages out on the device and leaves the pages of growing hubs to the host,
   whose lists share directory blocks with lists the device moved (the host reads those blocks
   back after the device's writes): each device allocation, then each host allocation, fails in
   turn on a fresh graph; the graph must be as before and valid (a failure after the writes
   began would leave it half changed). */
static long room_host_left = -1, room_host_allocs;   /* host allocations: fail when this reaches 0 */
static void *room_alloc(size_t n, void *u) {
    (void)u;
    room_host_allocs++;
    if (room_host_left >= 0 && room_host_left-- == 0) return NULL;
    return malloc(n);
}
static void room_free(void *p, void *u) { (void)u; free(p); }
#define ROOM_NV 2000
static dg_graph *room_graph(void)
{
    dg_desc d;
    dg_graph *g = NULL;
    memset(&d, 0, sizeof d);
    d.weighted = 1; d.page_size = 64; d.device_batches = 1;
    d.allocator.alloc_fn = room_alloc; d.allocator.free_fn = room_free;
    CHECK(dg_create(&d, &g) == DG_OK);
    if (g && (dg_add_vertices(g, ROOM_NV, NULL) != DG_OK || dg_sync(g) != DG_OK)) { dg_destroy(g); g = NULL; }
    return g;
}
/* A list a device batch only moved keeps its hash index, and the host's directory entry of it
   stays old until its block is read back: W and U (indexed, one page, two directory blocks)
   on the host; a device batch grows W, which lays the page out again and moves U; a query of
   W reads the old page back, not U's block; a second device batch changes U, whose index must
   go (looked up: the device lists U). Then host batches and queries of U must see its new
   edges. (It caught a walk over the indexes, since removed, that trusted the old entry.) */
static void test_moved_index(void)
{
    dg_desc d;
    dg_graph *g = NULL;
    dg_edge *e = (dg_edge *)xmalloc(1000 * sizeof(dg_edge));
    const dg_vertex W = 0, U = 250;
    size_t k = 0, i, got = 0, deg = 0, share = dg__lh_share;
    memset(&d, 0, sizeof d);
    d.page_size = 1024; d.device_batches = -1;
    CHECK(dg_create(&d, &g) == DG_OK);
    if (!g) { free(e); return; }
    CHECK(dg_add_vertices(g, 400, NULL) == DG_OK);
    for (i = 0; i < 20; i++) { e[k].src = W; e[k].dst = (dg_vertex)(200 + i); e[k].weight = 1; k++; }
    for (i = 0; i < 20; i++) { e[k].src = U; e[k].dst = (dg_vertex)(200 + i); e[k].weight = 1; k++; }
    {   /* and an arc from more than DG__IN_PLACE_MAX other lists of W's page and of U's: the
           batch lays the two (consecutive) pages out again, W and U on one (a page that takes
           fewer arcs takes them one by one) */
        const int32_t pw = g->st[0].dir[g->st[0].ds * (size_t)W], pu = g->st[0].dir[g->st[0].ds * (size_t)U];
        size_t nw = 0, nu = 0;
        for (i = 1; i < 399; i++) {
            int32_t p = g->st[0].dir[g->st[0].ds * i];
            if (i == (size_t)U || (p == pw ? nw++ : p == pu ? nu++ : DG__IN_PLACE_MAX) >= DG__IN_PLACE_MAX) continue;
            e[k].src = (dg_vertex)i; e[k].dst = 399; e[k].weight = 1; k++;
        }
        CHECK(nw >= DG__IN_PLACE_MAX && nu >= DG__IN_PLACE_MAX);
    }
    CHECK(dg_add_edges(g, e, k, &got) == DG_OK && got == k);
    CHECK(dg__lh_of(&g->st[0], W) && dg__lh_of(&g->st[0], U));
    CHECK(g->st[0].dir[g->st[0].ds * (size_t)W] == g->st[0].dir[g->st[0].ds * (size_t)U]);
    CHECK(W / DG__DIR_BLOCK != U / DG__DIR_BLOCK);
    CHECK(dg_sync(g) == DG_OK);
    g->desc.device_batches = 1;
    dg__lh_share = 0;   /* the lookup, whatever the counts (all dropped, U would keep none) */
    for (k = 0; k < 300; k++) { e[k].src = W; e[k].dst = (dg_vertex)(k < 180 ? 220 + k : k - 180 + 1); e[k].weight = 1; }
    CHECK(dg_add_edges(g, e, k, &got) == DG_OK && got == k);
    /* the scenario: U moved by the device to another page, its index kept, its block the
       device's (the host's entry still names the old page) */
    {
        int32_t de[2] = { -1, -1 };
        CHECK(clEnqueueReadBuffer(g->dev->queue, g->dev->dir.m, CL_TRUE, g->st[0].ds * (size_t)U * 4, 8, de, 0, NULL, NULL) == CL_SUCCESS);
        CHECK_MSG(g->dd.dev[U / DG__DIR_BLOCK] && dg__lh_of(&g->st[0], U) != NULL && de[0] != g->st[0].dir[g->st[0].ds * (size_t)U],
                  "U's block device-owned %d, U indexed %d, U's page %d on the device, %d on the host",
                  (int)g->dd.dev[U / DG__DIR_BLOCK], dg__lh_of(&g->st[0], U) != NULL, (int)de[0], (int)g->st[0].dir[g->st[0].ds * (size_t)U]);
    }
    CHECK(dg_degree(g, W, &deg) == DG_OK && deg == 320);
    for (k = 0; k < 5; k++) { e[k].src = U; e[k].dst = (dg_vertex)(300 + k); e[k].weight = 1; }
    CHECK(dg_add_edges(g, e, k, &got) == DG_OK && got == k);
    dg__lh_share = share;
    CHECK_MSG(dg_validate(g) == DG_OK, "%s", dg_error_message(g));
    for (k = 0; k < 5; k++) CHECK(dg_has_edge(g, U, (dg_vertex)(300 + k)));
    g->desc.device_batches = -1;   /* a host batch must see U's new edges as present */
    CHECK(dg_add_edges(g, e, 5, &got) == DG_OK && got == 0);
    CHECK(dg_degree(g, U, &deg) == DG_OK && deg == 25);
    dg_destroy(g);
    free(e);
}

static void test_faults_room(void)
{
    static dg_edge e[ROOM_NV * 6 + 8 * 150];
    static const int hubs[8] = { 5, 260, 520, 780, 1040, 1300, 1560, 1900 };
    size_t n = 0, v, k, c, l0, l1;
    long allocs[2], f;
    int host;
    char *f0;
    dg_graph *g;
    for (v = 0; v < ROOM_NV; v++)
        for (k = 0; k < 6; k++) { e[n].src = (dg_vertex)v; e[n].dst = (dg_vertex)((v * 7 + k * 13 + 1) % ROOM_NV); e[n].weight = 1.0f + (float)k; n++; }
    for (v = 0; v < 8; v++)
        for (k = 0; k < 150; k++) { e[n].src = hubs[v]; e[n].dst = (dg_vertex)((k * 11 + 3) % ROOM_NV); e[n].weight = 2.0f; n++; }
    if (!(g = room_graph())) return;
    f0 = fingerprint(g, &l0);
    dg_debug_fail_device_alloc(-1);
    room_host_allocs = 0;
    CHECK(dg_add_edges(g, e, n, &c) == DG_OK);
    allocs[0] = dg_debug_device_allocs();
    allocs[1] = room_host_allocs;
    CHECK_MSG(g->dev->batch_room > g->dev->batch_room_host && g->dev->batch_room_host > 0 && g->dev->batch_dir_blocks > 4,
              "the batch laid out %zu pages (%zu by the host), left %zu blocks to the device", g->dev->batch_room,
              g->dev->batch_room_host, g->dev->batch_dir_blocks);
    CHECK(dg_validate(g) == DG_OK && dg_validate_device(g) == DG_OK);
    dg_destroy(g);
    for (host = 0; host < 2; host++)
        for (f = 0; f < allocs[host]; f++) {
            dg_status st;
            char *f1;
            if (!(g = room_graph())) return;
            if (host) { room_host_allocs = 0; room_host_left = f; } else dg_debug_fail_device_alloc(f);
            st = dg_add_edges(g, e, n, &c);
            dg_debug_fail_device_alloc(-1);
            room_host_left = -1;
            if (st != DG_OK) {
                CHECK_MSG(st == (host ? DG_ERR_OUT_OF_MEMORY : DG_ERR_DEVICE_MEMORY), "%s allocation %ld: %s",
                          host ? "host" : "device", f, dg_status_string(st));
                f1 = fingerprint(g, &l1);
                CHECK_MSG(l0 == l1 && memcmp(f0, f1, l0) == 0, "%s allocation %ld failed: the graph changed",
                          host ? "host" : "device", f);
                free(f1);
                CHECK_MSG(dg_validate(g) == DG_OK, "%s allocation %ld: %s", host ? "host" : "device", f, dg_error_message(g));
            }
            dg_destroy(g);
        }
    free(f0);
}

/* Pages a device batch frees send nothing to the device (their entries are read by no one, the
   device wrote their index entries): a large list cut on the device from ~24 pages to one
   (round 0) or to 4 (round 1);
   then its pages taken again by a host batch (laid out on the host), or by a device batch (a
   large list's new continuation pages, set up by the device: dg_up_la_init), the host and
   device copies checked after each (dg_validate_device skips free pages only). */
static void test_released_pages(void)
{
    dg_desc d;
    dg_graph *g = NULL;
    dg_stats st;
    dg_edge *e = (dg_edge *)xmalloc(6000 * sizeof(dg_edge));
    size_t k, got = 0, deg = 0, i;
    int round;
    memset(&d, 0, sizeof d);
    d.page_size = 256; d.device_batches = -1;
    CHECK(dg_create(&d, &g) == DG_OK);
    if (!g) { free(e); return; }
    CHECK(dg_add_vertices(g, 6100, NULL) == DG_OK);
    for (k = 0; k < 6000; k++) { e[k].src = 0; e[k].dst = (dg_vertex)(k + 1); e[k].weight = 1; }
    CHECK(dg_add_edges(g, e, 6000, &got) == DG_OK && got == 6000);
    CHECK(dg_sync(g) == DG_OK);
    for (round = 0; round < 2; round++) {
        size_t live, freed;
        size_t keep;
        memset(&st, 0, sizeof st);
        g->desc.device_batches = 1;
        live = g->st[0].live_pages;
        keep = round ? 1000 : 50;
        CHECK(dg_remove_edges(g, e + keep, 6000 - keep, &got) == DG_OK && got == 6000 - keep);
        freed = live - g->st[0].live_pages;
        CHECK(dg_get_stats(g, &st) == DG_OK);
        CHECK_MSG(freed >= 15 && st.last_sync_bytes == 0,   /* (the device wrote their index entries: dg_up_rm_shrink) */
                  "round %d: %zu pages freed, the sync after the batch sent %zu bytes", round, freed, st.last_sync_bytes);
        CHECK_MSG(dg_validate(g) == DG_OK && dg_validate_device(g) == DG_OK, "round %d: %s", round, dg_error_message(g));
        /* the freed pages taken again: by a host batch, then by a device batch */
        g->desc.device_batches = round ? 1 : -1;
        CHECK(dg_add_edges(g, e + keep, 6000 - keep, &got) == DG_OK && got == 6000 - keep);
        CHECK_MSG(dg_validate(g) == DG_OK && dg_validate_device(g) == DG_OK, "round %d: %s", round, dg_error_message(g));
        CHECK(dg_degree(g, 0, &deg) == DG_OK && deg == 6000);
        for (i = 0; i < 6000; i += 97) CHECK(dg_has_edge(g, 0, (dg_vertex)(i + 1)) && !dg_has_edge(g, (dg_vertex)(i + 1), 0));
    }
    {   /* the pages the device took in round 1 (never written on the host) freed again: a
           snapshot writes free pages as -1 */
        char path[512];
        const char *t = getenv("TMPDIR");
        size_t bad = 0;
        int32_t q;
        snprintf(path, sizeof path, "%s/dg_test_update_released.dgs", t && *t ? t : "/tmp");
        g->desc.device_batches = 1;
        CHECK(dg_remove_edges(g, e + 1000, 5000, &got) == DG_OK && got == 5000);
        CHECK(dg_save(g, path, DG_FORMAT_SNAPSHOT) == DG_OK);
        remove(path);
        for (q = g->st[0].free_head; q >= 0; q = g->st[0].ph[q].next)
            for (i = 0; i < g->P; i++) bad += g->st[0].pool[(size_t)q * g->P + i] != -1;
        CHECK_MSG(g->st[0].nfree >= 15 && bad == 0, "%u free pages, %zu entries of them not -1 after a snapshot",
                  (unsigned)g->st[0].nfree, bad);
    }
    dg_destroy(g);
    free(e);
}

/* One device removal that shrinks many large lists (more than dg_up_rm_shrink's 1,024
   work-groups: its grid-stride) and one longer than a work-group has work-items (a hub of ~300
   pages of 64 entries cut to one): every list's degree and first entries, and the host's and
   device's index entries (dg_validate_device), after it; directed and undirected. */
static void test_shrink_many(void)
{
    const size_t nl = 1100, per = 130, hub = 18000, nv = 20000;
    int directed;
    for (directed = 0; directed < 2; directed++) {
        dg_desc d;
        dg_graph *g = NULL;
        size_t m = 0, k = 0, i, j, got = 0, deg = 0, bad = 0;
        dg_edge *e = (dg_edge *)xmalloc((nl * per + hub) * sizeof(dg_edge));
        dg_vertex nb[4];
        memset(&d, 0, sizeof d);
        d.page_size = 64; d.undirected = !directed; d.device_batches = -1;
        CHECK(dg_create(&d, &g) == DG_OK);
        if (!g) { free(e); continue; }
        CHECK(dg_add_vertices(g, nv, NULL) == DG_OK);
        for (i = 0; i < nl; i++)              /* lists 0..nl-1: 130 entries (3 pages); targets past nl */
            for (j = 0; j < per; j++) { e[m].src = (dg_vertex)i; e[m].dst = (dg_vertex)(nl + (i * 7 + j * 13) % (nv - nl - 1)); e[m].weight = 1; m++; }
        for (j = 0; j < hub; j++) { e[m].src = (dg_vertex)(nv - 1); e[m].dst = (dg_vertex)(nl + j % (nv - nl - 1)); e[m].weight = 1; m++; }
        CHECK(dg_add_edges(g, e, m, &got) == DG_OK);
        CHECK(dg_sync(g) == DG_OK);
        for (i = 0; i < m; i++) {            /* keep the first 2 of each list, 3 of the hub */
            size_t at = i < nl * per ? i % per : i - nl * per;
            if (at >= (i < nl * per ? 2u : 3u)) e[k++] = e[i];
        }
        g->desc.device_batches = 1;
        CHECK_MSG(dg_remove_edges(g, e, k, &got) == DG_OK && got == k, "%s: removed %zu of %zu: %s",
                  directed ? "directed" : "undirected", got, k, dg_error_message(g));
        CHECK_MSG(dg_validate_device(g) == DG_OK, "%s: %s", directed ? "directed" : "undirected", dg_error_message(g));
        for (i = 0; i <= nl; i++) {             /* (in no particular order) */
            dg_vertex u = i < nl ? (dg_vertex)i : (dg_vertex)(nv - 1);
            size_t want = i < nl ? 2 : 3, n = 0, hit = 0, x, y;
            if (dg_degree(g, u, &deg) != DG_OK || deg != want || dg_neighbors(g, u, nb, NULL, 4, &n) != DG_OK || n != want) {
                bad++;
                continue;
            }
            for (x = 0; x < want; x++)
                for (y = 0; y < want; y++)
                    hit += nb[x] == (dg_vertex)(i < nl ? nl + (i * 7 + y * 13) % (nv - nl - 1) : nl + y);
            bad += hit != want;
        }
        CHECK_MSG(bad == 0, "%s: %zu lists wrong after the removal", directed ? "directed" : "undirected", bad);
        CHECK_MSG(dg_validate(g) == DG_OK, "%s: %s", directed ? "directed" : "undirected", dg_error_message(g));
        dg_destroy(g);
        free(e);
    }
}

static const tt_case cases[] = {
    { "random", test_random }, { "errors", test_errors }, { "faults", test_faults }, { "faults_room", test_faults_room },
    { "moved_index", test_moved_index }, { "released_pages", test_released_pages }, { "shrink_many", test_shrink_many },
};

int main(int argc, char **argv)
{
    trand_seed(argc, argv, 20261124, "test_update");
    TT_RUN("test_update", cases);
    return TT_SUMMARY("test_update");
}
