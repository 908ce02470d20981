/* bench_graph.c - whole-graph algorithms: dg_components, dg_pagerank, dg_triangles (device; the
   triangles' orientation on the host) and dg_scc (beside a host Tarjan), on generated graphs (Graph500 Kronecker, uniform random, 2-D
   grid; undirected, as GAP's cc / pr / tc take them with -g / -u; scc on the directed tuples).

   Usage: bench_graph [--scale LIST] [--graphs kron,uniform,grid] [--reps R] [--csv FILE]
                      [--no-tc] [--seed S] [--device TEXT] [--scc-cyclic N]
   --scc-cyclic N adds dg_scc and its peer on bench_reach's `cyclic` graph of N vertices (a
   deep random DAG of small cycles: ~N/16 components; --graphs none runs it alone).
   Prints a Markdown table (device, graph, sizes, medians, rates) and the rows as CSV. Checks:
   the component count equals a union-find over the tuples; PageRank sums to 1 (within 1e-3)
   and matches one host power iteration step (residual below the tolerance x 10). GAP's cc, pr
   and tc are the peers: run them in the same command (bench/README.md shows how); their
   PageRank stops at the same L1 tolerance (1e-4) and 20 iterations, as here. */
#define DYNGRAPH_IMPLEMENTATION
#include "dyngraph.h"
#define BENCH_NAME "bench_graph"
#include "bench_common.h"

static int32_t uf_find(int32_t *p, int32_t x) { while (p[x] != x) x = p[x] = p[p[x]]; return x; }
static size_t uf_count(const dg_edge *e, size_t m, size_t n)
{
    int32_t *p = (int32_t *)xmalloc(n * sizeof(int32_t));
    size_t i, c = 0;
    for (i = 0; i < n; i++) p[i] = (int32_t)i;
    for (i = 0; i < m; i++) {
        int32_t a = uf_find(p, e[i].src), b = uf_find(p, e[i].dst);
        if (a != b) p[a > b ? a : b] = a < b ? a : b;
    }
    for (i = 0; i < n; i++) c += uf_find(p, (int32_t)i) == (int32_t)i;
    free(p);
    return c;
}

/* The peer of dg_scc: Tarjan's algorithm, iterative, one thread, on a CSR of the tuples (what
   dg_scc ran on the host before it ran on the device); returns the components. Self-loops
   and repeats do not matter. */
static size_t tarjan_count(const dg_edge *e, size_t m, size_t n)
{
    uint32_t *row = (uint32_t *)xmalloc((n + 1) * sizeof *row), *it = (uint32_t *)xmalloc((n + 1) * sizeof *it);
    int32_t *col = (int32_t *)xmalloc((m + 1) * sizeof *col), *idx = (int32_t *)xmalloc(n * sizeof *idx);
    int32_t *low = (int32_t *)xmalloc(n * sizeof *low), *stk = (int32_t *)xmalloc(n * sizeof *stk);
    int32_t *call = (int32_t *)xmalloc(n * sizeof *call);
    char *on = (char *)xmalloc(n + 1);
    size_t i, ns = 0, nc = 0, c = 0;
    int32_t counter = 0, r;
    memset(row, 0, (n + 1) * sizeof *row);
    memset(on, 0, n + 1);
    for (i = 0; i < m; i++) row[e[i].src + 1]++;
    for (i = 0; i < n; i++) row[i + 1] += row[i];
    memcpy(it, row, (n + 1) * sizeof *it);
    for (i = 0; i < m; i++) col[it[e[i].src]++] = e[i].dst;
    for (i = 0; i < n; i++) idx[i] = -1;
    for (r = 0; (size_t)r < n; r++) {
        if (idx[r] >= 0) continue;
        call[c++] = r; idx[r] = low[r] = counter++; stk[ns++] = r; on[r] = 1; it[r] = row[r];
        while (c) {
            int32_t v = call[c - 1];
            if (it[v] < row[v + 1]) {
                int32_t w = col[it[v]++];
                if (idx[w] < 0) { call[c++] = w; idx[w] = low[w] = counter++; stk[ns++] = w; on[w] = 1; it[w] = row[w]; }
                else if (on[w] && idx[w] < low[v]) low[v] = idx[w];
            } else {
                c--;
                if (c && low[v] < low[call[c - 1]]) low[call[c - 1]] = low[v];
                if (low[v] == idx[v]) { int32_t w; do { w = stk[--ns]; on[w] = 0; } while (w != v); nc++; }
            }
        }
    }
    free(row); free(it); free(col); free(idx); free(low); free(stk); free(call); free(on);
    return nc;
}

/* bench_reach's `cyclic` graph: n vertices in a random order, each with D = 4 out-edges to
   uniform later ones (a deep random DAG), the order cut into blocks of 1..32 vertices, each
   closed into a directed cycle (one strongly connected component a block); ids permuted. */
static dg_edge *gen_cyclic(size_t n, uint64_t seed, size_t *m_out)
{
    rng r;
    size_t m = 0, p, i, k, len;
    dg_vertex *perm = (dg_vertex *)xmalloc((n ? n : 1) * sizeof *perm);
    dg_edge *e = (dg_edge *)xmalloc((5 * n + 1) * sizeof *e);
    rng_seed(&r, seed);
    for (i = 0; i < n; i++) perm[i] = (dg_vertex)i;
    for (i = n; i > 1; i--) { size_t j = (size_t)rng_below(&r, i); dg_vertex t = perm[i - 1]; perm[i - 1] = perm[j]; perm[j] = t; }
    for (p = 0; p + 1 < n; p++)
        for (i = 0; i < 4; i++) {
            e[m].src = perm[p]; e[m].dst = perm[p + 1 + (size_t)rng_below(&r, n - 1 - p)]; e[m].weight = 1.0f; m++;
        }
    for (p = 0; p < n; p += len) {
        len = 1 + (size_t)rng_below(&r, 32);
        if (len > n - p) len = n - p;
        for (k = 0; len > 1 && k < len; k++) { e[m].src = perm[p + k]; e[m].dst = perm[p + (k + 1) % len]; e[m].weight = 1.0f; m++; }
    }
    free(perm);
    *m_out = m;
    return e;
}

#define CHECK_DG(g, call) do { dg_status s_ = (call); if (s_ != DG_OK) die_dg((g), #call, s_, __LINE__); } while (0)

/* A graph of n vertices and the m tuples e on `device`, synced; dev receives the device name. */
static dg_graph *load_graph(const dg_edge *e, size_t n, size_t m, int undirected, const char *device, char dev[256])
{
    dg_graph *g = NULL;
    dg_desc d;
    memset(&d, 0, sizeof d);
    d.undirected = undirected;
    d.device = device;
    CHECK_DG(NULL, dg_create(&d, &g));
    CHECK_DG(g, dg_add_vertices(g, n, NULL));
    CHECK_DG(g, dg_add_edges(g, e, m, NULL));
    CHECK_DG(g, dg_sync(g));
    snprintf(dev, 256, "%s", dg_device_name(g));
    return g;
}

int main(int argc, char **argv)
{
    long scales[8] = { 16 };
    int nscales = 1, graphs[3] = { 1, 1, 0 }, reps = 5, tc = 1, a, gi, si, r;
    size_t cyclic = 0;
    uint64_t seed = 1;
    const char *csv_path = NULL, *device = NULL;
    FILE *csv = NULL;
    for (a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--scale") && a + 1 < argc) nscales = parse_list(argv[++a], "--scale", scales, 8, 4, 30);
        else if (!strcmp(argv[a], "--graphs") && a + 1 < argc) {
            const char *v = argv[++a];
            graphs[0] = strstr(v, "kron") != NULL; graphs[1] = strstr(v, "uniform") != NULL; graphs[2] = strstr(v, "grid") != NULL;
        } else if (!strcmp(argv[a], "--reps") && a + 1 < argc) reps = (int)parse_long(argv[++a], "--reps", 1, 100);
        else if (!strcmp(argv[a], "--csv") && a + 1 < argc) csv_path = argv[++a];
        else if (!strcmp(argv[a], "--seed") && a + 1 < argc) seed = (uint64_t)parse_long(argv[++a], "--seed", 0, 1L << 40);
        else if (!strcmp(argv[a], "--device") && a + 1 < argc) device = argv[++a];
        else if (!strcmp(argv[a], "--no-tc")) tc = 0;
        else if (!strcmp(argv[a], "--scc-cyclic") && a + 1 < argc) cyclic = (size_t)parse_long(argv[++a], "--scc-cyclic", 2, 1L << 30);
        else { fprintf(stderr, "usage: bench_graph [--scale LIST] [--graphs kron,uniform,grid] [--reps R] [--csv FILE] [--no-tc] [--seed S] [--device TEXT] [--scc-cyclic N]\n"); return 2; }
    }
    {   /* every program built once, on a triangle: no build inside a timed call */
        dg_graph *w = NULL;
        dg_desc wd;
        dg_edge tri[3] = { { 0, 1, 1.0f }, { 1, 2, 1.0f }, { 2, 0, 1.0f } };
        float wr[3];
        uint64_t wt = 0;
        memset(&wd, 0, sizeof wd);
        wd.undirected = 1;
        wd.device = device;
        CHECK_DG(NULL, dg_create(&wd, &w));
        CHECK_DG(w, dg_add_vertices(w, 3, NULL));
        CHECK_DG(w, dg_add_edges(w, tri, 3, NULL));
        CHECK_DG(w, dg_components(w, NULL, NULL));
        CHECK_DG(w, dg_pagerank(w, wr, NULL));
        CHECK_DG(w, dg_triangles(w, &wt, NULL));
        if (wt != 1) die("a triangle has no triangle");
        dg_destroy(w);
    }
    if (csv_path) {
        if (!(csv = fopen(csv_path, "w"))) { perror(csv_path); return 1; }
        fprintf(csv, "device,graph,scale,vertices,edges,algorithm,median_ms,rate_medges_s,result,iterations\n");
    }
    for (si = 0; si < nscales; si++)
        for (gi = 0; gi < NGRAPHS; gi++) {
            size_t n, m, i, comps = 0, ref_comps, sccs = 0, ref_sccs;
            dg_edge *e;
            dg_graph *g = NULL, *gd = NULL;
            double t[100], ms_cc, ms_cc_labels, ms_pr, ms_tc = 0, ms_tc1 = 0, ms_scc, ms_tarjan, sum = 0, ms_is[2];
            size_t np_is[2];
            uint64_t tri = 0;
            float *rank;
            dg_pagerank_options po;
            dg_pagerank_stats ps;
            int scale = (int)scales[si];
            char dev[256];
            if (!graphs[gi]) continue;
            e = gen_graph(gi, scale, graph_seed(seed, gi, scale), &n, &m);
            g = load_graph(e, n, m, 1, device, dev);
            if (si == 0 && gi == 0) report_begin("whole-graph algorithms", dev, "the SCC peer (Tarjan)");
            if (si == 0 && gi == (graphs[0] ? 0 : graphs[1] ? 1 : 2)) {
                printf("\n");
                md_header(stdout, "graph|scale:|vertices:|edges:|algorithm|median ms:|M edges/s:|result:|iterations:");
            }
            ref_comps = uf_count(e, m, n);
            CHECK_DG(g, dg_components(g, NULL, &comps));           /* warm-up: programs built */
            for (r = 0; r < reps; r++) { double t0 = now_s(); CHECK_DG(g, dg_components(g, NULL, &comps)); t[r] = now_s() - t0; }
            ms_cc = 1e3 * median(t, reps);
            {   /* the same with the labels read back into the caller's array */
                dg_vertex *lab = (dg_vertex *)xmalloc(n * sizeof *lab);
                size_t c2 = 0;
                CHECK_DG(g, dg_components(g, lab, &c2));
                for (r = 0; r < reps; r++) { double t0 = now_s(); CHECK_DG(g, dg_components(g, lab, &c2)); t[r] = now_s() - t0; }
                ms_cc_labels = 1e3 * median(t, reps);
                if (c2 != comps) fail("%s s%d: %zu components with labels, %zu without", GRAPH_NAMES[gi], scale, c2, comps);
                free(lab);
            }
            if (comps != ref_comps) fail("%s s%d: %zu components, union-find %zu", GRAPH_NAMES[gi], scale, comps, ref_comps);
            rank = (float *)xmalloc(n * sizeof(float));
            memset(&po, 0, sizeof po);
            po.tolerance = 1e-4f;
            po.max_iterations = 20;
            po.stats = &ps;
            CHECK_DG(g, dg_pagerank(g, rank, &po));
            for (r = 0; r < reps; r++) { double t0 = now_s(); CHECK_DG(g, dg_pagerank(g, rank, &po)); t[r] = now_s() - t0; }
            ms_pr = 1e3 * median(t, reps);
            for (i = 0; i < n; i++) sum += rank[i];
            if (fabs(sum - 1.0) > 1e-3) fail("%s s%d: PageRank sums to %g", GRAPH_NAMES[gi], scale, sum);
            if (tc) {   /* the first call orients the graph (on the device); repeats reuse it */
                double t0 = now_s();
                uint64_t tri2 = 0;
                CHECK_DG(g, dg_triangles(g, &tri, NULL));
                ms_tc1 = 1e3 * (now_s() - t0);
                for (r = 0; r < reps; r++) { t0 = now_s(); CHECK_DG(g, dg_triangles(g, &tri2, NULL)); t[r] = now_s() - t0; }
                ms_tc = 1e3 * median(t, reps);
                if (tri2 != tri) fail("%s s%d: %llu triangles, then %llu", GRAPH_NAMES[gi], scale,
                                      (unsigned long long)tri, (unsigned long long)tri2);
            }
            {   /* dg_intersect: the tuples as pairs (every edge's two lists), then 1M random pairs */
                size_t np = m, pass;
                dg_vertex *pp = (dg_vertex *)xmalloc(2 * (m > 1000000 ? m : 1000000) * sizeof(dg_vertex));
                rng rr;
                rng_seed(&rr, seed + 77);
                for (pass = 0; pass < 2; pass++) {
                    cl_int ce = CL_SUCCESS;
                    cl_mem bp, bc;
                    double t0;
                    if (pass == 0) for (i = 0; i < m; i++) { pp[2 * i] = e[i].src; pp[2 * i + 1] = e[i].dst; }
                    else for (np = 1000000, i = 0; i < np; i++) { pp[2 * i] = (dg_vertex)rng_below(&rr, n); pp[2 * i + 1] = (dg_vertex)rng_below(&rr, n); }
                    bp = clCreateBuffer(dg_cl_context(g), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, np * 8, pp, &ce);
                    if (ce != CL_SUCCESS) die("intersect: no buffer");
                    bc = clCreateBuffer(dg_cl_context(g), CL_MEM_READ_WRITE, np * 4, NULL, &ce);
                    if (ce != CL_SUCCESS) die("intersect: no buffer");
                    CHECK_DG(g, dg_intersect(g, bp, np, bc));   /* warm-up */
                    for (r = 0; r < reps; r++) { t0 = now_s(); CHECK_DG(g, dg_intersect(g, bp, np, bc)); t[r] = now_s() - t0; }
                    ms_is[pass] = 1e3 * median(t, reps);
                    np_is[pass] = np;
                    clReleaseMemObject(bp);
                    clReleaseMemObject(bc);
                }
                free(pp);
            }
            /* SCC: the tuples as a directed graph */
            gd = load_graph(e, n, m, 0, device, dev);
            CHECK_DG(gd, dg_scc(gd, NULL, &sccs));                 /* warm-up: programs built */
            for (r = 0; r < reps; r++) { double t0 = now_s(); CHECK_DG(gd, dg_scc(gd, NULL, &sccs)); t[r] = now_s() - t0; }
            ms_scc = 1e3 * median(t, reps);
            {
                double t0 = now_s();
                ref_sccs = tarjan_count(e, m, n);
                ms_tarjan = 1e3 * (now_s() - t0);
            }
            if (sccs != ref_sccs) fail("%s s%d: %zu strongly connected components, Tarjan %zu", GRAPH_NAMES[gi], scale, sccs, ref_sccs);
            {
                const char *name = GRAPH_NAMES[gi];
                size_t und = dg_edge_count(g);
                struct { const char *alg; double ms; double result; unsigned it; } rows[9];
                int nr = 0, k;
                rows[nr].alg = "components (device, count only)"; rows[nr].ms = ms_cc; rows[nr].result = (double)comps; rows[nr++].it = 0;
                rows[nr].alg = "components (labels to the host)"; rows[nr].ms = ms_cc_labels; rows[nr].result = (double)comps; rows[nr++].it = 0;
                rows[nr].alg = "pagerank (device)"; rows[nr].ms = ms_pr; rows[nr].result = (double)ps.change; rows[nr++].it = ps.iterations;
                if (tc) {
                    rows[nr].alg = "triangles, first call (orientation)"; rows[nr].ms = ms_tc1; rows[nr].result = (double)tri; rows[nr++].it = 0;
                    rows[nr].alg = "triangles (device)"; rows[nr].ms = ms_tc; rows[nr].result = (double)tri; rows[nr++].it = 0;
                }
                rows[nr].alg = "intersect (device): every tuple's two lists"; rows[nr].ms = ms_is[0]; rows[nr].result = (double)np_is[0]; rows[nr++].it = 0;
                rows[nr].alg = "intersect (device): 1M random pairs"; rows[nr].ms = ms_is[1]; rows[nr].result = (double)np_is[1]; rows[nr++].it = 0;
                rows[nr].alg = "scc, directed (device)"; rows[nr].ms = ms_scc; rows[nr].result = (double)sccs; rows[nr++].it = 0;
                rows[nr].alg = "scc, directed: peer, host Tarjan 1 thread"; rows[nr].ms = ms_tarjan; rows[nr].result = (double)ref_sccs; rows[nr++].it = 0;
                for (k = 0; k < nr; k++) {
                    double rate = (double)und / (rows[k].ms * 1e-3) / 1e6;
                    printf("| %s | %d | %zu | %zu | %s | %.3f | %.1f | %.6g | %u |\n", name, scale, n, und, rows[k].alg,
                           rows[k].ms, rate, rows[k].result, rows[k].it);
                    if (csv) fprintf(csv, "\"%s\",%s,%d,%zu,%zu,\"%s\",%.4f,%.2f,%.8g,%u\n", dev, name, scale, n, und,
                                     rows[k].alg, rows[k].ms, rate, rows[k].result, rows[k].it);
                }
                fflush(stdout);
            }
            free(rank);
            free(e);
            dg_destroy(gd);
            dg_destroy(g);
        }
    if (cyclic) {   /* SCC alone on bench_reach's `cyclic` graph of n vertices (the hard case) */
        size_t m, sccs = 0, ref_sccs;
        double t[100], ms_scc, ms_tarjan, t0;
        dg_edge *e = gen_cyclic(cyclic, seed, &m);
        char dev[256];
        dg_graph *gd = load_graph(e, cyclic, m, 0, device, dev);
        if (!nscales || (!graphs[0] && !graphs[1] && !graphs[2])) report_begin("whole-graph algorithms", dev, "the SCC peer (Tarjan)");
        CHECK_DG(gd, dg_scc(gd, NULL, &sccs));                     /* warm-up: programs built */
        for (r = 0; r < reps; r++) { t0 = now_s(); CHECK_DG(gd, dg_scc(gd, NULL, &sccs)); t[r] = now_s() - t0; }
        ms_scc = 1e3 * median(t, reps);
        t0 = now_s();
        ref_sccs = tarjan_count(e, m, cyclic);
        ms_tarjan = 1e3 * (now_s() - t0);
        if (sccs != ref_sccs) fail("cyclic: %zu strongly connected components, Tarjan %zu", sccs, ref_sccs);
        printf("\n");
        md_header(stdout, "graph|vertices:|arcs:|algorithm|median ms:|components:|vs Tarjan:");
        printf("| cyclic | %zu | %zu | scc, directed (device) | %.3f | %zu | %.2fx |\n", cyclic, m, ms_scc, sccs, ms_tarjan / ms_scc);
        printf("| cyclic | %zu | %zu | scc: peer, host Tarjan 1 thread | %.3f | %zu | 1.0x |\n", cyclic, m, ms_tarjan, ref_sccs);
        if (csv) {
            fprintf(csv, "\"%s\",cyclic,0,%zu,%zu,\"scc, directed (device)\",%.4f,%.2f,%zu,0\n", dev, cyclic, m, ms_scc,
                    (double)m / (ms_scc * 1e-3) / 1e6, sccs);
            fprintf(csv, "\"%s\",cyclic,0,%zu,%zu,\"scc: peer, host Tarjan 1 thread\",%.4f,%.2f,%zu,0\n", dev, cyclic, m,
                    ms_tarjan, (double)m / (ms_tarjan * 1e-3) / 1e6, ref_sccs);
        }
        free(e);
        dg_destroy(gd);
    }
    note("components: count only = dg_components(g, NULL, &count) (counted on the device); labels to the host = with a "
         "label array of the caller (n ints read back)");
    note("components: median of %d runs after one warm-up (a run syncs nothing: the graph is synced); "
         "edge chunks of %d arcs per work-item, hooking + pointer jumping until no root changes", reps, DG_CC_CHUNK);
    note("pagerank: tolerance 1e-4 (L1), at most 20 iterations, as GAP's pr defaults; 'result' is the last L1 change");
    note("triangles: the first call orients the graph by (degree, id) on the device (undirected graphs: edge-chunk passes "
         "and two radix sorts), then the device intersects; the median row is of repeated calls on the unchanged graph "
         "(orientation kept)");
    note("intersect: dg_intersect over pairs in device memory (result = pairs), median of the runs after a warm-up; "
         "the first row takes every tuple (u, v) as a pair, the lists of an edge's ends, as triangle counting would");
    note("scc: on the directed tuples, median of the runs after a warm-up; its peer is an iterative Tarjan on one host "
         "thread over a CSR of the tuples (the algorithm dg_scc ran on the host before), which also checks the count");
    note("M edges/s: undirected edges of the graph over the median time");
    if (csv) fclose(csv);
    return report_end();
}
