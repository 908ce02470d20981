/* test_shard.c - a graph over several devices (dg_desc.devices, >>shard in dyngraph.h): the
   host store sharded by vertex range, each device's mirror holding its shard's pages under its
   own page numbers, and dg_bfs across the devices with the frontier exchanged each level.
   CI has no two GPUs: main asks PoCL for its CPU device three times (POCL_DEVICES="pthread
   pthread pthread", unless the caller set it), so 2 and 3 devices run in `make test`; on a
   machine whose OpenCL has fewer devices than a case wants, the case reports a skip.

   Cases (DG_TESTS=test_shard:NAME, see tt.h):
   - mirror: random sequences (directed weighted, undirected; page sizes 64 and 128; 2 and 3
     devices) of vertex and edge insertions and removals, host batches, hubs whose lists span
     pages and dg_compact, against the reference model; after each step dg_validate and, now and then, dg_validate_device, which
     compares every device's pages, index entries, LA segments and directory with the host's
     through that device's page numbers (a page on the wrong device, a page number not
     translated, a foreign id not -1: each fails it). The ids grow past twice the first plan's:
     the cuts are planned again and everything is sent again.
   - bfs: dg_bfs TOP_DOWN and DIRECTION_OPT (alpha and beta at their extremes too: every level
     top-down, or bottom-up from the second) from several sources, one or many, against a
     reference BFS on the model after each step of a random sequence; parents checked as a BFS
     tree (or none asked: the found ids may travel as bitmaps); the exchange's choices drawn at
     random (dg__bfs_xprefix, dg__bfs_xbits); paths to targets; stats summed over the devices;
     and ids that end inside a device's range (a partial last bitmap word).
   - refused: what a graph over several devices does not do returns DG_ERR_UNSUPPORTED with the
     graph unchanged (dg_sssp, dg_components, dg_frontier_create, other BFS strategies, ...);
     dg_create's refusals (devices with a context or reuse_ids, out of range); more devices
     wanted than there are: DG_ERR_NO_DEVICE. */
#define _POSIX_C_SOURCE 200809L
#define DYNGRAPH_IMPLEMENTATION
#include "dyngraph.h"
#include "tt.h"
#include "trand.h"
#include "tgraph.h"

static float w_kind(int kind) { return kind ? (float)(1 + rnd(9)) : 1.0f; }

/* The OpenCL devices PoCL offers here ("cpu"). */
static int cpu_devices(void)
{
    cl_platform_id plats[16];
    cl_uint np = 0, i, n = 0;
    if (clGetPlatformIDs(16, plats, &np) != CL_SUCCESS) return 0;
    for (i = 0; i < np && i < 16; i++) {
        cl_uint k = 0;
        if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_CPU, 0, NULL, &k) == CL_SUCCESS && k > n) n = k;
    }
    return (int)n;
}

static int shard_pair(pair *p, uint32_t page_size, int undirected, int kind, int devices)
{
    dg_desc d;
    memset(&d, 0, sizeof d);
    d.binary_cache = -1;
    d.page_size = page_size;
    d.undirected = undirected;
    d.weighted = kind != 0;
    d.devices = devices;
    d.device = "cpu";
    return pair_create_desc(p, &d, kind);
}

static int check_device(pair *p, const char *label)
{
    dg_status s = dg_validate(p->g);
    CHECK_MSG(s == DG_OK, "[%s] dg_validate: %s", label, dg_error_message(p->g));
    if (s != DG_OK) return 0;
    s = dg_validate_device(p->g);
    CHECK_MSG(s == DG_OK, "[%s] dg_validate_device: %s: %s", label, dg_status_string(s), dg_error_message(p->g));
    return s == DG_OK;
}

/* One random step of the sequence (host calls only). */
static void step(pair *p, int32_t hub, int *ok)
{
    model *m = &p->m;
    int r = (int)rnd(100);
    if (r < 30) {
        size_t n = 1 + rnd(chance(20) ? 400 : 40);
        dg_edge *e = random_batch(p, hub, n, w_kind);
        if (!pair_add_batch(p, e, n)) *ok = 0;
        free(e);
    } else if (r < 45) {
        int32_t u = m_random_live(m);
        if (u >= 0 && m->out[u].n) mutate_remove_edge(p, u, m->out[u].a[rnd((uint32_t)m->out[u].n)].v, ok);
    } else if (r < 55) {
        int32_t u = m_random_live(m), v = m_random_live(m);
        if (u >= 0 && v >= 0) mutate_add_edge(p, u, v, w_kind(p->kind), ok);
    } else if (r < 62) {
        int32_t u = m_random_live(m);
        if (u >= 0 && m->nalive > 50) mutate_remove_vertex(p, u, hub, ok);
    } else if (r < 75) {
        mutate_add_vertex(p, w_kind, ok);
    } else if (r < 80) {
        size_t k = 1 + rnd(chance(10) ? 300 : 20);
        pair_add_vertices(p, k);
    } else if (r < 90) {   /* a batch of removals: present edges and absent ones */
        size_t n = 1 + rnd(60), i, rem = 0;
        dg_edge *e = random_batch(p, hub, n, w_kind);
        for (i = 0; i < n; i++) {
            int32_t u = e[i].src;
            if (m->out[u].n && chance(70)) e[i].dst = m->out[u].a[rnd((uint32_t)m->out[u].n)].v;
        }
        {
            dg_status s = dg_remove_edges(p->g, e, n, &rem);
            size_t want = 0;
            CHECK_MSG(s == DG_OK, "dg_remove_edges: %s", dg_error_message(p->g));
            for (i = 0; i < n; i++) want += (size_t)m_remove_edge(m, e[i].src, e[i].dst);
            CHECK_MSG(rem == want, "dg_remove_edges removed %zu, the model %zu", rem, want);
            if (s != DG_OK || rem != want) *ok = 0;
        }
        free(e);
    } else if (r < 93) {
        dg_status s = dg_compact(p->g, NULL);
        CHECK_MSG(s == DG_OK, "dg_compact: %s", dg_error_message(p->g));
    } else {
        maybe_sync(p, "step");
    }
}

static void run_mirror(uint32_t P, int undirected, int kind, int devices, int steps)
{
    pair p;
    int ok = 1, i;
    char label[96];
    const int32_t hub = 7;
    if (!shard_pair(&p, P, undirected, kind, devices)) return;
    snprintf(label, sizeof label, "P %u %s %s, %d devices", (unsigned)P, undirected ? "undirected" : "directed",
             kind ? "weighted" : "unweighted", devices);
    pair_mutation_start(&p, hub, 3, w_kind);
    if (!check_device(&p, label)) ok = 0;
    CHECK_MSG(p.g->ndev == devices && p.g->ncut == devices, "[%s] %d devices, %d shards", label, p.g->ndev, p.g->ncut);
    for (i = 0; i < steps && ok; i++) {
        if (i == steps / 2) {   /* the ids more than double: the cuts planned again, all sent again */
            size_t syncs0;
            dg_stats st;
            int32_t cut1 = p.g->cut[1];
            pair_add_vertices(&p, 2 * (size_t)p.m.bound + 100);
            dg_get_stats(p.g, &st);
            syncs0 = st.syncs;
            if (!check_device(&p, label)) ok = 0;
            dg_get_stats(p.g, &st);
            CHECK_MSG(p.g->cut[1] != cut1 && st.syncs == syncs0 + 1 && st.last_sync_pages >= st.pages,
                      "[%s] planned again: cut %d -> %d, %zu pages sent of %zu", label, (int)cut1, (int)p.g->cut[1],
                      st.last_sync_pages, st.pages);
        }
        step(&p, hub, &ok);
        if (!pair_counts_ok(&p, label)) ok = 0;
        if (ok && (chance(25) || i == steps - 1) && !check_device(&p, label)) ok = 0;
    }
    pair_free(&p);
}


/* Every dg_bfs that a graph over several devices runs, against the reference. */
static int check_bfs(pair *p, const char *label)
{
    const model *m = &p->m;
    size_t n = (size_t)m->bound, i, ns = chance(30) ? 1 + rnd(5) : 1, len = 0;
    int32_t *want = (int32_t *)xmalloc(n * 4 + 4), *dist = (int32_t *)xmalloc(n * 4 + 4);
    int32_t *par = (int32_t *)xmalloc(n * 4 + 4), *path = (int32_t *)xmalloc(n * 4 + 4), src[8], tgt;
    int variant, ok = 1;
    csr r;
    csr_from_model(&r, m, 0);
    for (i = 0; i < ns; i++) src[i] = m_random_live(m);
    tgt = m_random_live(m);
    ref_bfs_from(&r, src, ns, want);
    for (variant = 0; variant < 4 && ok; variant++) {
        dg_bfs_options o;
        dg_bfs_stats stats;
        dg_status s;
        size_t v, reached = 0;
        memset(&o, 0, sizeof o);
        o.strategy = variant == 0 ? DG_BFS_TOP_DOWN : DG_BFS_DIRECTION_OPT;
        if (variant == 2) { o.alpha = 1e6f; o.beta = 1e6f; }        /* bottom-up from the second level on */
        if (variant == 3) { o.alpha = 1e6f; o.beta = 1e-6f; }       /* back and forth */
        o.sources = src; o.source_count = ns;
        o.parent = chance(50) ? par : NULL; o.stats = &stats;
        dg__bfs_xprefix = chance(50) ? 16384 : rnd(4);   /* (outboxes read after their counts) */
        dg__bfs_xbits = (int)rnd(3) - 1;                 /* (without parents: bitmaps, pairs, either) */
        if (chance(40)) { o.targets = &tgt; o.target_count = 1; o.path = path; o.path_capacity = n; o.path_length = &len; }
        s = dg_bfs(p->g, -1, dist, &o);
        CHECK_MSG(s == DG_OK, "[%s] dg_bfs variant %d: %s: %s", label, variant, dg_status_string(s), dg_error_message(p->g));
        if (s != DG_OK) { ok = 0; break; }
        for (v = 0; v < n && ok; v++) {
            CHECK_MSG(dist[v] == want[v], "[%s] dg_bfs variant %d: dist[%zu] = %d, not %d", label, variant, v, (int)dist[v], (int)want[v]);
            if (dist[v] != want[v]) ok = 0;
            else if (dist[v] > 0 && o.parent) {   /* a parent one level up, with an edge to v */
                int32_t u = par[v];
                int good = u >= 0 && (size_t)u < n && want[u] == dist[v] - 1 && m_has(m, u, (int32_t)v);
                CHECK_MSG(good, "[%s] dg_bfs variant %d: parent of %zu is %d", label, variant, v, (int)u);
                if (!good) ok = 0;
            } else if (dist[v] == 0 && o.parent) {
                CHECK_MSG(par[v] == (int32_t)v || par[v] == -1, "[%s] parent of source %zu: %d", label, v, (int)par[v]);
            }
            reached += dist[v] >= 0;
        }
        CHECK_MSG(!ok || stats.vertices_reached == reached, "[%s] dg_bfs variant %d: stats count %llu reached, not %zu", label,
                  variant, (unsigned long long)stats.vertices_reached, reached);
        if (ok && variant == 2 && reached > 64) CHECK_MSG(stats.bottom_up_levels > 0, "[%s] no bottom-up level", label);
        if (ok && o.targets) {
            size_t k;
            CHECK_MSG(len == (want[tgt] >= 0 ? (size_t)want[tgt] + 1 : 0), "[%s] path length %zu, dist %d", label, len, (int)want[tgt]);
            for (k = 0; k < len && k + 1 < len; k++) CHECK(m_has(m, path[k], path[k + 1]));
            if (len) CHECK(path[len - 1] == tgt && want[path[0]] == 0);
        }
    }
    csr_free(&r);
    free(want); free(dist); free(par); free(path);
    return ok;
}

static void run_bfs(uint32_t P, int undirected, int devices, int steps)
{
    pair p;
    int ok = 1, i;
    char label[96];
    const int32_t hub = 3;
    if (!shard_pair(&p, P, undirected, 0, devices)) return;
    snprintf(label, sizeof label, "bfs P %u %s, %d devices", (unsigned)P, undirected ? "undirected" : "directed", devices);
    pair_mutation_start(&p, hub, 2, w_kind);
    for (i = 0; i < steps && ok; i++) {
        step(&p, hub, &ok);
        if (ok && chance(30) && !check_bfs(&p, label)) ok = 0;
    }
    if (ok) ok = check_device(&p, label);
    pair_free(&p);
}

static int want_devices(int n);
/* What a graph over several devices refuses, with the graph unchanged; dg_create's refusals. */
static void test_refused(void)
{
    pair p;
    dg_desc d;
    dg_graph *g = NULL;
    dg_status s;
    float *fd;
    dg_vertex *lab;
    size_t cnt = 0, edges;
    int32_t *dist;
    dg_frontier *f = NULL;
    dg_bfs_options o;
    memset(&d, 0, sizeof d);
    d.devices = -1;
    CHECK(dg_create(&d, &g) == DG_ERR_INVALID_ARGUMENT && g == NULL);
    d.devices = DG_MAX_DEVICES + 1;
    CHECK(dg_create(&d, &g) == DG_ERR_INVALID_ARGUMENT && g == NULL);
    d.devices = 2; d.reuse_ids = 1;
    CHECK(dg_create(&d, &g) == DG_ERR_INVALID_ARGUMENT && g == NULL);
    if (!want_devices(2) || !shard_pair(&p, 64, 1, 1, 2)) return;
    pair_mutation_start(&p, 5, 3, w_kind);
    edges = dg_edge_count(p.g);
    fd = (float *)xmalloc((size_t)p.m.bound * 4);
    lab = (dg_vertex *)xmalloc((size_t)p.m.bound * 4);
    dist = (int32_t *)xmalloc((size_t)p.m.bound * 4);
    s = dg_sssp(p.g, 0, fd, NULL);
    CHECK_MSG(s == DG_ERR_UNSUPPORTED && strstr(dg_error_message(p.g), "2 devices"), "dg_sssp: %s: %s", dg_status_string(s),
              dg_error_message(p.g));
    CHECK(dg_components(p.g, lab, &cnt) == DG_ERR_UNSUPPORTED);
    CHECK(dg_frontier_create(p.g, 16, &f) == DG_ERR_UNSUPPORTED && f == NULL);
    memset(&o, 0, sizeof o);
    o.strategy = DG_BFS_MASK;
    CHECK(dg_bfs(p.g, 0, dist, &o) == DG_ERR_UNSUPPORTED);
    o.strategy = DG_BFS_DIRECTION_OPT; o.csr_copy = 1;
    CHECK(dg_bfs(p.g, 0, dist, &o) == DG_ERR_UNSUPPORTED);
    CHECK(dg_edge_count(p.g) == edges && check_device(&p, "refused"));
    CHECK_MSG(strcmp(dg_status_string(DG_ERR_UNSUPPORTED), "DG_ERR_UNSUPPORTED") == 0, "%s", dg_status_string(DG_ERR_UNSUPPORTED));
    free(fd); free(lab); free(dist);
    pair_free(&p);
    memset(&d, 0, sizeof d);   /* more devices than there are: nothing opened */
    d.devices = cpu_devices() + 1; d.device = "cpu";
    if (dg_create(&d, &g) == DG_OK) {
        s = dg_sync(g);
        CHECK_MSG(s == DG_ERR_NO_DEVICE && g->ndev == 0 && g->dev == NULL, "%d devices of %d: %s", d.devices,
                  cpu_devices(), dg_status_string(s));
        dg_destroy(g);
    }
}

/* Ids that end inside a device's range, not at a multiple of 32: with 3 devices and the weight
   on the first ids the cuts fall at 64 and 128 while the ids end at 100, so the second device's
   last bitmap word is partial (once lost by the bitmaps' exchange). */
static void run_bfs_skewed(void)
{
    pair p;
    dg_edge e[600];
    int i, ok = 1;
    if (!shard_pair(&p, 64, 0, 0, 3)) return;
    pair_add_vertices(&p, 100);
    for (i = 0; i < 560; i++) { e[i].src = 6 + (int32_t)rnd(58); e[i].dst = 6 + (int32_t)rnd(58); e[i].weight = 1.0f; }
    for (; i < 600; i++) { e[i].src = (int32_t)rnd(100); e[i].dst = 64 + (int32_t)rnd(36); e[i].weight = 1.0f; }
    e[0].src = 64; e[0].dst = 97; e[1].src = 97; e[1].dst = 5; e[2].src = 5; e[2].dst = 97;
    pair_add_batch(&p, e, 600);
    {           /* the first search's sync sent every device its pages, and the search's own
                   pinned blocks did not count as a sync that sent nothing */
        dg_stats st;
        int32_t *dist = (int32_t *)xmalloc(100 * sizeof *dist);
        CHECK(dg_bfs(p.g, 6, dist, NULL) == DG_OK);
        free(dist);
        CHECK(dg_get_stats(p.g, &st) == DG_OK);
        CHECK_MSG(p.g->devs[0]->last_sync_bytes > 0 && st.last_sync_bytes == p.g->devs[0]->last_sync_bytes +
                  p.g->devs[1]->last_sync_bytes + p.g->devs[2]->last_sync_bytes, "last sync: %zu bytes, device 0 %zu",
                  st.last_sync_bytes, p.g->devs[0]->last_sync_bytes);
    }
    for (i = 0; i < 24 && ok; i++) ok = check_bfs(&p, "bfs, ids ending inside a device's range");
    if (ok) CHECK_MSG(dg_sync(p.g) == DG_OK && p.g->ncut == 3 && p.g->cut[2] > 100 && p.g->devs[1]->hi == 100,
                      "cuts %d %d, device 1's ids end at %d", (int)p.g->cut[1], (int)p.g->cut[2], (int)p.g->devs[1]->hi);
    pair_free(&p);
}

static void test_bfs(void)
{
    if (!want_devices(2)) return;
    if (want_devices(3)) run_bfs_skewed();
    run_bfs(64, 1, 2, 60);
    run_bfs(128, 0, 2, 60);
    if (want_devices(3)) run_bfs(64, 0, 3, 40);
}

static int want_devices(int n)
{
    int have = cpu_devices();
    if (have >= n) return 1;
    printf("  (skipped: %d CPU devices wanted, %d found; POCL_DEVICES gives more)\n", n, have);
    return 0;
}

static void test_mirror(void)
{
    if (!want_devices(2)) return;
    run_mirror(64, 0, 1, 2, 300);
    run_mirror(128, 1, 0, 2, 300);
    if (want_devices(3)) run_mirror(64, 1, 1, 3, 200);
}

int main(int argc, char **argv)
{
    static const tt_case cases[] = { { "mirror", test_mirror }, { "bfs", test_bfs }, { "refused", test_refused } };
    setvbuf(stdout, NULL, _IOLBF, 0);
    setenv("POCL_DEVICES", "pthread pthread pthread", 0);   /* before any OpenCL call */
    trand_seed(argc, argv, 0x5a4dedu, "test_shard");
    TT_RUN("test_shard", cases);
    return TT_SUMMARY("test_shard");
}
