/* test_pos64.c - 64-bit pool positions (DG_POS64, >>mirror): the kernels' positions are 64-bit
   once a pool buffer holds more than 2^32 entries. CI cannot hold such a pool, so the limit is
   lowered through the test hook dg__pos32_max: the kernels then run with 64-bit positions on
   small graphs, and a graph crosses the limit while its programs (the library's and a user's)
   are in use. What this finds: a kernel that does not compile with 64-bit positions, the host
   and the kernels disagreeing on a width, the programs not built again on a crossing. What it
   cannot find is a position cut to 32 bits inside a kernel (every position here is small):
   tools/check_kernels.sh compiles the kernels with DG_POS64 and -Wshorten-64-to-32 for that.

   Cases (DG_TESTS=test_pos64:NAME, see tt.h):
   - wide: every position 64-bit from the first sync; {undirected, directed} x weighted, page
     size 64, 2,600 ids (the edge chunks' 64-bit scan over several blocks), a hub over several
     pages; host and device batches (adds and removals, checked
     against the model), dg_validate_device, then every BFS and SSSP strategy, components,
     triangles, reachability and a user program against references on the model;
   - crossing: the limit at 4096 entries; a small graph searched (32-bit programs), then grown
     past the limit by host batches: the library's programs and a user program built again with
     64-bit positions (the program generation moves; every program's recorded build options are
     checked), the answers still right; then a graph grown past it by one device batch.
   Every program's build options are read back (clGetProgramBuildInfo), and dg__kernel asserts
   that the width matches the pools (a grown pool without dg__pos_width fails there); the
   searches run with both kernel families (the flat ones PoCL gets by default, and the GPU's). */
#define DYNGRAPH_IMPLEMENTATION
#include "dyngraph.h"
#include "tt.h"
#include "trand.h"
#include "tgraph.h"

static float w_int(int kind) { (void)kind; return (float)(1 + rnd(9)); }

/* BFS levels on the reference CSR */
static void ref_bfs(const csr *r, int32_t s, int32_t *dist) { ref_bfs_from(r, &s, 1, dist); }
/* Dijkstra on the model, O(n^2) (small graphs) */
static void ref_sssp(const model *m, int32_t s, float *d)
{
    unsigned char *done = (unsigned char *)xmalloc((size_t)m->bound + 1);
    int32_t v;
    for (v = 0; v < m->bound; v++) { d[v] = INFINITY; done[v] = 0; }
    d[s] = 0.0f;
    for (;;) {
        int32_t u = -1;
        size_t k;
        for (v = 0; v < m->bound; v++) if (!done[v] && d[v] < INFINITY && (u < 0 || d[v] < d[u])) u = v;
        if (u < 0) break;
        done[u] = 1;
        for (k = 0; k < m->out[u].n; k++) {
            float nd = d[u] + m->out[u].a[k].w;
            if (nd < d[m->out[u].a[k].v]) d[m->out[u].a[k].v] = nd;
        }
    }
    free(done);
}
static int32_t uf_find(int32_t *p, int32_t x) { while (p[x] != x) x = p[x] = p[p[x]]; return x; }

/* Whether program prog was built with -DDG_POS64 (its build options as OpenCL recorded them). */
static int built_wide(cl_program prog, cl_device_id dev)
{
    char opts[1024] = "";
    CHECK(clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_OPTIONS, sizeof opts - 1, opts, NULL) == CL_SUCCESS);
    return strstr(opts, "-DDG_POS64") != NULL;
}
/* Every program the graph holds (the library's and user program u, if any) is built wide or
   not, as want says; returns how many were looked at. */
static int check_programs(dg_graph *g, dg_program *u, int want, const char *label)
{
    int v, m, n = 0, bad = 0;
    for (v = 0; v < DG__VARIANTS; v++)
        for (m = 0; m < DG__MOD_COUNT; m++)
            if (g->dev->prog[v][m]) { n++; bad += built_wide(g->dev->prog[v][m], g->dev->device) != want; }
    if (u && u->prog) { n++; bad += built_wide(u->prog, g->dev->device) != want; }
    CHECK_MSG(bad == 0 && n > 0, "%s: %d of %d programs not built %s", label, bad, n, want ? "wide" : "narrow");
    return n;
}

/* The edges of a batch applied to the model (add = 1: as dg_add_edges, else dg_remove_edges);
   returns the count the library must report. */
static size_t model_apply(model *m, const dg_edge *e, size_t n, int add)
{
    size_t i, c = 0;
    for (i = 0; i < n; i++) c += (size_t)(add ? m_add_edge(m, e[i].src, e[i].dst, e[i].weight) : m_remove_edge(m, e[i].src, e[i].dst));
    return c;
}
/* A batch through device memory (dg_add_edges_cl / dg_remove_edges_cl), checked on the model. */
static void device_batch(pair *p, const dg_edge *e, size_t n, int add)
{
    cl_int err;
    cl_mem b = clCreateBuffer(dg_cl_context(p->g), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(dg_edge),
                              (void *)(size_t)e, &err);
    size_t got = (size_t)-1, want = model_apply(&p->m, e, n, add);
    dg_status s;
    CHECK(err == CL_SUCCESS);
    if (err != CL_SUCCESS) return;
    s = add ? dg_add_edges_cl(p->g, b, n, &got) : dg_remove_edges_cl(p->g, b, n, &got);
    CHECK_MSG(s == DG_OK && got == want, "%s_cl: %s, %zu (want %zu): %s", add ? "dg_add_edges" : "dg_remove_edges",
              dg_status_string(s), got, want, dg_error_message(p->g));
    clReleaseMemObject(b);
}
/* Present edges of the model, drawn at random (n at most) */
static size_t present_edges(const model *m, dg_edge *out, size_t n)
{
    size_t k = 0, tries;
    for (tries = 0; k < n && tries < 20 * n; tries++) {
        int32_t u = m_random_live(m);
        if (u >= 0 && m->out[u].n) {
            const arc *a = &m->out[u].a[rnd((uint32_t)m->out[u].n)];
            out[k].src = u; out[k].dst = a->v; out[k].weight = a->w; k++;
        }
    }
    return k;
}

/* The sum over live vertices of their out-neighbours' ids, by a user program (dg_out_neighbor
   reads positions: dg__store_entry). */
static const char *usrc =
    "int nsum(int v, const dg_args *a) { int k, s = 0; for (k = 0; k < dg_out_degree(a, v); k++) s += dg_out_neighbor(a, v, k); return s; }\n";
static void check_user(pair *p, dg_program *prog, const char *label)
{
    double got = -1, want = 0;
    int32_t v;
    size_t k;
    for (v = 0; v < p->m.bound; v++)
        if (p->m.alive[v]) for (k = 0; k < p->m.out[v].n; k++) want += p->m.out[v].a[k].v;
    CHECK_MSG(dg_reduce(prog, 0, NULL, NULL, DG_REDUCE_SUM, &got) == DG_OK && got == want,
              "%s: user program's neighbour sum %.0f, want %.0f: %s", label, got, want, dg_error_message(p->g));
    CHECK_MSG(prog->built == p->g->dev->prog_gen, "%s: the user program was not built again", label);
}

/* Every search against the references, from a few sources. */
static void check_all(pair *p, const char *label)
{
    static const dg_bfs_strategy bs[] = { DG_BFS_MASK, DG_BFS_QUEUE, DG_BFS_EDGE_CHUNK, DG_BFS_TOP_DOWN,
                                          DG_BFS_DIRECTION_OPT };
    static const dg_sssp_strategy ss[] = { DG_SSSP_BELLMAN_FORD, DG_SSSP_FRONTIER, DG_SSSP_NEAR_FAR };
    size_t n = (size_t)p->m.bound, i, r;
    csr c;
    int32_t *rd = (int32_t *)xmalloc(n * sizeof(int32_t)), *dd = (int32_t *)xmalloc(n * sizeof(int32_t));
    float *rf = (float *)xmalloc(n * sizeof(float)), *df = (float *)xmalloc(n * sizeof(float));
    dg_vertex *lab = (dg_vertex *)xmalloc(n * sizeof(dg_vertex));
    int32_t *uf = (int32_t *)xmalloc(n * sizeof(int32_t));
    csr_from_model(&c, &p->m, 0);
    CHECK_MSG(dg_validate(p->g) == DG_OK && dg_validate_device(p->g) == DG_OK, "%s: validate: %s", label,
              dg_error_message(p->g));
    for (r = 0; r < 4; r++) {
        int32_t s = m_random_live(&p->m);
        /* both kernel families: on PoCL the flat ones run by default, the GPU's (local position
           arrays, DG_ADD_COUNTS in near-far) only when asked */
        dg__bfs_flat = dg__sssp_flat = r & 1 ? 0 : -1;
        ref_bfs(&c, s, rd);
        ref_sssp(&p->m, s, rf);
        for (i = 0; i < sizeof bs / sizeof bs[0]; i++) {
            dg_bfs_options o;
            memset(&o, 0, sizeof o);
            o.strategy = bs[i];
            CHECK_MSG(dg_bfs(p->g, s, dd, &o) == DG_OK && !memcmp(dd, rd, n * sizeof(int32_t)),
                      "%s: BFS strategy %d from %d differs: %s", label, (int)bs[i], (int)s, dg_error_message(p->g));
        }
        for (i = 0; i < sizeof ss / sizeof ss[0]; i++) {
            dg_sssp_options o;
            size_t v, bad = 0;
            memset(&o, 0, sizeof o);
            o.strategy = ss[i];
            CHECK_MSG(dg_sssp(p->g, s, df, &o) == DG_OK, "%s: SSSP: %s", label, dg_error_message(p->g));
            for (v = 0; v < n; v++) bad += p->m.alive[v] && df[v] != rf[v];
            CHECK_MSG(bad == 0, "%s: SSSP strategy %d from %d: %zu distances differ", label, (int)ss[i], (int)s, bad);
        }
        {   /* reachability: every vertex from s, as the BFS says */
            dg_vertex *src = (dg_vertex *)xmalloc(n * sizeof(dg_vertex)), *dst = (dg_vertex *)xmalloc(n * sizeof(dg_vertex));
            uint8_t *ans = (uint8_t *)xmalloc(n);
            size_t q = 0, bad = 0;
            for (i = 0; i < n; i++) if (p->m.alive[i]) { src[q] = s; dst[q++] = (dg_vertex)i; }
            CHECK_MSG(dg_reach(p->g, src, dst, q, ans) == DG_OK, "%s: dg_reach: %s", label, dg_error_message(p->g));
            for (i = 0; i < q; i++) bad += ans[i] != (rd[dst[i]] >= 0);
            CHECK_MSG(bad == 0, "%s: %zu reachability answers differ", label, bad);
            free(src); free(dst); free(ans);
        }
    }
    dg__bfs_flat = dg__sssp_flat = -1;
    if (p->m.undirected) {
        size_t count = 0, v, bad = 0;
        uint64_t tri = 0, want = 0;
        int32_t u;
        for (v = 0; v < n; v++) uf[v] = (int32_t)v;
        for (u = 0; u < (int32_t)n; u++)
            for (i = c.off[u]; i < c.off[u + 1]; i++) uf[uf_find(uf, u)] = uf_find(uf, c.adj[i]);
        CHECK_MSG(dg_components(p->g, lab, &count) == DG_OK, "%s: components: %s", label, dg_error_message(p->g));
        for (v = 0; v < n; v++)
            for (u = 0; p->m.alive[v] && u < (int32_t)v; u++)
                if (p->m.alive[u]) bad += (lab[u] == lab[v]) != (uf_find(uf, u) == uf_find(uf, (int32_t)v));
        CHECK_MSG(bad == 0, "%s: %zu component pairs differ", label, bad);
        /* triangles: u < v < w, each pair adjacent (the model, no self-loops counted) */
        for (u = 0; u < (int32_t)n; u++)
            for (i = c.off[u]; i < c.off[u + 1]; i++) {
                int32_t v2 = c.adj[i];
                size_t j;
                if (v2 <= u) continue;
                for (j = c.off[v2]; j < c.off[v2 + 1]; j++)
                    if (c.adj[j] > v2 && m_has(&p->m, u, c.adj[j])) want++;
            }
        CHECK_MSG(dg_triangles(p->g, &tri, NULL) == DG_OK && tri == want, "%s: %llu triangles, want %llu: %s", label,
                  (unsigned long long)tri, (unsigned long long)want, dg_error_message(p->g));
    }
    csr_free(&c);
    free(rd); free(dd); free(rf); free(df); free(lab); free(uf);
}

static void test_wide(void)
{
    int und;
    dg__pos32_max = 0;
    for (und = 1; und >= 0; und--) {
        pair p;
        dg_program *prog = NULL;
        dg_op op;
        dg_edge *e, pe[200];
        size_t i, k;
        const char *label = und ? "wide, undirected" : "wide, directed";
        if (!pair_create(&p, 64, und, 1)) return;
        pair_add_vertices(&p, 2600);                /* > 2 scan blocks of 4 x 256: a wide scan's second level */
        for (i = 0; i < 3; i++) {                   /* host batches, a hub at 0 */
            e = random_batch(&p, 0, 1500, w_int);
            pair_add_batch(&p, e, 1500);
            free(e);
        }
        {
            dg_stats st;
            CHECK_MSG(dg_sync(p.g) == DG_OK && dg_get_stats(p.g, &st) == DG_OK && st.wide_positions == 1,
                      "%s: not 64-bit after the sync", label);
        }
        for (i = 0; i < 3; i++) {                   /* device batches: adds, then removals */
            e = random_batch(&p, 0, 800, w_int);
            for (k = 0; k < 200; k++) e[k].src = 0;                 /* the hub grows (a large list) */
            for (k = 200; k < 300; k++) e[k].src = (dg_vertex)(1 + i);   /* a list outgrows its page */
            device_batch(&p, e, 800, 1);
            free(e);
            k = present_edges(&p.m, pe, 200);
            device_batch(&p, pe, k, 0);
        }
        k = present_edges(&p.m, pe, 100);           /* and host removals */
        {
            size_t got = 0, want = model_apply(&p.m, pe, k, 0);
            CHECK(dg_remove_edges(p.g, pe, k, &got) == DG_OK && got == want);
        }
        check_all(&p, label);
        memset(&op, 0, sizeof op);
        op.kind = DG_OP_REDUCE_INT; op.function = "nsum";
        CHECK_MSG(dg_program_create(p.g, usrc, &op, 1, &prog) == DG_OK, "%s: %s", label, dg_error_message(p.g));
        if (prog) check_user(&p, prog, label);
        check_programs(p.g, prog, 1, label);
        dg_program_destroy(prog);
        pair_free(&p);
    }
    dg__pos32_max = (uint64_t)1 << 32;
}

static void test_crossing(void)
{
    pair p;
    dg_program *prog = NULL;
    dg_op op;
    dg_edge *e;
    int32_t dist[2000];
    uint32_t gen0;
    int i;
    dg__pos32_max = 4096;                           /* 64 pages of 64 entries */
    if (!pair_create(&p, 64, 1, 1)) return;
    pair_add_vertices(&p, 40);
    e = random_batch(&p, 0, 60, w_int);
    pair_add_batch(&p, e, 60);
    free(e);
    CHECK(dg_bfs(p.g, 0, dist, NULL) == DG_OK);
    CHECK_MSG(p.g->dev->pos64 == 0, "a %zu-entry pool is 64-bit already", p.g->dev->st[0].pool.cap / 4);
    gen0 = p.g->dev->prog_gen;
    memset(&op, 0, sizeof op);
    op.kind = DG_OP_REDUCE_INT; op.function = "nsum";
    CHECK(dg_program_create(p.g, usrc, &op, 1, &prog) == DG_OK);
    if (prog) check_user(&p, prog, "crossing, before");
    check_programs(p.g, prog, 0, "crossing, before");
    pair_add_vertices(&p, 1500);                    /* grows the pool well past 4096 entries */
    for (i = 0; i < 4; i++) {
        e = random_batch(&p, 0, 1500, w_int);
        pair_add_batch(&p, e, 1500);
        free(e);
    }
    CHECK(dg_sync(p.g) == DG_OK);
    CHECK_MSG(p.g->dev->pos64 == 1 && p.g->dev->prog_gen != gen0, "no crossing: pos64 %d, %zu entries",
              p.g->dev->pos64, p.g->dev->st[0].pool.cap / 4);
    if (prog) check_user(&p, prog, "crossing, after");
    e = random_batch(&p, 0, 500, w_int);            /* a device batch with the new programs */
    device_batch(&p, e, 500, 1);
    free(e);
    check_all(&p, "crossing");
    check_programs(p.g, prog, 1, "crossing, after");
    dg_program_destroy(prog);
    pair_free(&p);
    /* the same crossing made by a device batch alone (the pool grows inside dg__dev_batch:
       the kernels it runs after that are wide, or dg__kernel's assertion fires); 1000 short
       lists take ~8-10k entries, the batch's ~40k arcs take the pool past the limit of 16k */
    dg__pos32_max = 16384;
    if (!pair_create(&p, 64, 1, 1)) return;
    pair_add_vertices(&p, 1000);
    e = random_batch(&p, 0, 60, w_int);
    pair_add_batch(&p, e, 60);
    free(e);
    CHECK_MSG(dg_bfs(p.g, 0, dist, NULL) == DG_OK && p.g->dev->pos64 == 0, "wide before the batch: %zu entries",
              p.g->dev->st[0].pool.cap / 4);
    gen0 = p.g->dev->prog_gen;
    e = random_batch(&p, 0, 20000, w_int);
    device_batch(&p, e, 20000, 1);
    free(e);
    CHECK_MSG(p.g->dev->pos64 == 1 && p.g->dev->prog_gen != gen0, "a device batch did not cross: %zu entries",
              p.g->dev->st[0].pool.cap / 4);
    check_all(&p, "crossing by a device batch");
    check_programs(p.g, NULL, 1, "crossing by a device batch");
    pair_free(&p);
    dg__pos32_max = (uint64_t)1 << 32;
}

int main(int argc, char **argv)
{
    static const tt_case cases[] = { { "wide", test_wide }, { "crossing", test_crossing } };
    trand_seed(argc, argv, 0x64b175u, "test_pos64");
    TT_RUN("test_pos64", cases);
    return TT_SUMMARY("test_pos64");
}
