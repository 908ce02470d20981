/* bench_large.c - graphs as large as the GPU (issue "Graphs as large as the GPU"): a Kronecker
   graph generated on the device chunk by chunk and loaded with dg_add_edges_cl (no edge list on
   the host), then searched (BFS, direction-optimizing) and updated (device batches).

   Build:  make bench   (or: cc -O2 -I. bench/bench_large.c -o build/bench_large -lOpenCL -lm)
   Run:    build/bench_large [--scales 24,24w,24d2,27] [--roots R] [--chunk LOG2] [--update K]
                             [--csv FILE] [--seed N]

   A scale S gives 2^S vertices and 16 x 2^S tuples (undirected), drawn as Graph500's
   Kronecker generator draws them (A, B, C = 0.57, 0.19, 0.19) but counter-based, so that a
   work-item makes tuple i alone: one 16-bit draw a bit level (the quadrant), four levels from
   one 64-bit hash (SplitMix64) of (seed, i, level / 4); the ids then relabelled by a bijection
   of [0, 2^S) (an odd multiplier and an offset). Not Graph500's exact graph: a graph of its
   kind that a GPU makes in milliseconds, the same at every scale.
   "24d2" runs scale 24 on a graph over 2 devices (dg_desc.devices, sharded by vertex range):
   loaded by host batches (each chunk read back from the first device), searched across both
   (the BFS's time is then the search's wall time: the devices run together; one device's is
   its device time), updated by host batches; the edge-chunk algorithms are left out (one
   device only).
   "24w" runs scale 24 with every kernel's pool positions 64-bit (DG_POS64, forced through the
   test hook dg__pos32_max): what the wide positions cost where they are not needed. A graph
   whose pool passes 2^32 entries (scale 27) is 64-bit by itself.

   Per scale: the load (chunks of 2^LOG2 tuples, default 2^26), the host and device bytes per
   stored edge, BFS from R roots (device time, GTEPS counted by the stored edges, all of them:
   the same rule at every scale, so the scales compare), a batch of K new uniform edges added
   and removed on the device (dg_add_edges_cl / dg_remove_edges_cl, timed until applied; a
   drawn pair that was an edge goes too, and is counted), a BFS after it, and a check of every
   BFS before it: 2^20 tuples drawn at random and regenerated on the host, each with
   |dist[u] - dist[v]| <= 1 and both ends reached or neither, the source at 0. Then the
   algorithms that cut the arcs into edge chunks (64-bit offsets on a graph of 2^32 arcs or
   more), from root 0 on the graph the update left, each checked against that BFS: components
   (the root's component is exactly what the BFS reached), the edge-chunk BFS (the same
   levels) and Bellman-Ford (unweighted: the levels as distances), each run twice (the first
   builds its module's program), the second reported: components as wall time with the labels
   read back, the searches as device time. */
#define DYNGRAPH_IMPLEMENTATION
#include "../dyngraph.h"
#define BENCH_NAME "bench_large"
#include "bench_common.h"

#define LG_MAX 8
static const char *LG_KERNEL =
    "inline ulong lg_mix(ulong z) {\n"
    "    z += 0x9E3779B97F4A7C15UL; z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9UL;\n"
    "    z = (z ^ (z >> 27)) * 0x94D049BB133111EBUL; return z ^ (z >> 31);\n"
    "}\n"
    "__kernel void lg_kron(__global int *e, const ulong first, const uint n, const uint scale,\n"
    "                      const ulong seed, const uint mul, const uint add) {\n"
    "    const uint i = (uint)get_global_id(0), mask = scale >= 32u ? 0xffffffffu : (1u << scale) - 1u;\n"
    "    uint u = 0, v = 0, b;\n"
    "    ulong r = 0;\n"
    "    if (i >= n) return;\n"
    "    for (b = 0; b < scale; b++) {\n"
    "        uint x;\n"
    "        if ((b & 3u) == 0u) r = lg_mix(seed ^ lg_mix((first + i) * 8u + (b >> 2)));\n"
    "        x = (uint)(r & 0xffffu); r >>= 16;\n"
    "        if (x >= 37356u) { if (x < 49807u) v |= 1u << b; else if (x < 62259u) u |= 1u << b; else { u |= 1u << b; v |= 1u << b; } }\n"
    "    }\n"
    "    e[3 * (size_t)i] = (int)((u * mul + add) & mask);\n"
    "    e[3 * (size_t)i + 1] = (int)((v * mul + add) & mask);\n"
    "    e[3 * (size_t)i + 2] = as_int(1.0f);\n"
    "}\n";

/* The host's twin of lg_kron: tuple k of the graph. */
static uint64_t lg_mix(uint64_t z)
{
    z += 0x9E3779B97F4A7C15ull; z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull; return z ^ (z >> 31);
}
static void lg_tuple(uint64_t k, unsigned scale, uint64_t seed, uint32_t mul, uint32_t add, dg_vertex *su, dg_vertex *sv)
{
    uint32_t u = 0, v = 0, b, mask = scale >= 32 ? 0xffffffffu : (1u << scale) - 1u;
    uint64_t r = 0;
    for (b = 0; b < scale; b++) {
        uint32_t x;
        if ((b & 3u) == 0) r = lg_mix(seed ^ lg_mix(k * 8u + (b >> 2)));
        x = (uint32_t)(r & 0xffffu); r >>= 16;
        if (x >= 37356u) { if (x < 49807u) v |= 1u << b; else if (x < 62259u) u |= 1u << b; else { u |= 1u << b; v |= 1u << b; } }
    }
    *su = (dg_vertex)((u * mul + add) & mask);
    *sv = (dg_vertex)((v * mul + add) & mask);
}

#define CL_CK(x) do { cl_int e_ = (x); if (e_ != CL_SUCCESS) { fprintf(stderr, "%s: OpenCL error %d\n", #x, (int)e_); exit(1); } } while (0)

typedef struct lg_row {
    int scale, wide, pos64, roots, ndev;
    size_t n, m;
    double load_s, load_rate, host_bpe, dev_bpe, bfs_ms, gteps, ins_ms, rm_ms, bfs2_ms;
    double cc_ms, ec_ms, bf_ms;   /* the edge-chunk algorithms: components (wall), BFS, Bellman-Ford (device) */
    size_t k, ncomp;
} lg_row;

int main(int argc, char **argv)
{
    long scales[LG_MAX];
    int wide[LG_MAX], ndevs[LG_MAX], nsc = 0, roots = 8, chunk_log = 26, si, i;
    long kup = 1000000;
    uint64_t seed = 1;
    const char *csv = NULL;
    lg_row rows[LG_MAX];
    for (i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--scales") && v) {
            char buf[256], *t;
            snprintf(buf, sizeof buf, "%s", v);
            for (t = strtok(buf, ","); t && nsc < LG_MAX; t = strtok(NULL, ",")) {
                char *wch = strchr(t, 'w'), *dch = strchr(t, 'd');
                ndevs[nsc] = dch ? (int)parse_long(dch + 1, a, 1, 64) : 1;
                if (dch) *dch = 0;
                wide[nsc] = wch != NULL;
                if (wch) *wch = 0;
                scales[nsc++] = parse_long(t, a, 10, 30);
            }
            i++;
        }
        else if (!strcmp(a, "--roots")) { roots = (int)parse_long(v, a, 1, 64); i++; }
        else if (!strcmp(a, "--chunk")) { chunk_log = (int)parse_long(v, a, 10, 30); i++; }
        else if (!strcmp(a, "--update")) { kup = parse_long(v, a, 1, 100000000L); i++; }
        else if (!strcmp(a, "--seed")) { seed = (uint64_t)parse_long(v, a, 0, 0x7fffffffL); i++; }
        else if (!strcmp(a, "--csv")) { csv = v; i++; }
        else {
            fprintf(stderr, "usage: bench_large [--scales 24,24w,27] [--roots R] [--chunk LOG2] [--update K]\n"
                            "                   [--csv FILE] [--seed N]\n");
            return 2;
        }
    }
    if (nsc == 0) { scales[0] = 20; wide[0] = 0; scales[1] = 20; wide[1] = 1; ndevs[0] = ndevs[1] = 1; nsc = 2; }
    report_begin("large graphs", NULL, "the same code at a smaller scale");
    for (si = 0; si < nsc; si++) {
        const int S = (int)scales[si];
        const size_t n = (size_t)1 << S, m = 16 * n, chunk = (size_t)1 << chunk_log;
        const uint32_t mul = (uint32_t)(lg_mix(seed * 31u + (uint64_t)S) | 1u), add = (uint32_t)lg_mix(seed + (uint64_t)S);
        const uint64_t gseed = lg_mix(seed ^ ((uint64_t)S << 40));
        lg_row *w = &rows[si];
        dg_desc d;
        dg_graph *g;
        dg_stats st;
        cl_context ctx;
        cl_command_queue q;
        cl_device_id dev;
        cl_program prog;
        cl_kernel kern;
        cl_mem buf;
        cl_int err;
        size_t first, added, total = 0, cchk;
        double t0, *bms;
        int32_t *dist;
        dg_vertex *rv;
        int r, nr = 0;
        memset(w, 0, sizeof *w);
        w->scale = S; w->wide = wide[si]; w->n = n;
        dg__pos32_max = wide[si] ? 0 : (uint64_t)1 << 32;
        memset(&d, 0, sizeof d);
        d.undirected = 1;
        d.device_batches = 1;
        d.devices = ndevs[si];   /* (several: host batches, read back from the first device) */
        w->ndev = ndevs[si];
        CK(NULL, dg_create(&d, &g));
        CK(g, dg_add_vertices(g, n, NULL));
        CK(g, dg_sync(g));
        if (si == 0) note("device: %s", dg_device_name(g));
        ctx = dg_cl_context(g); q = dg_cl_queue(g); dev = dg_cl_device(g);
        prog = clCreateProgramWithSource(ctx, 1, &LG_KERNEL, NULL, &err);
        CL_CK(err);
        CL_CK(clBuildProgram(prog, 1, &dev, "-cl-std=CL1.2", NULL, NULL));
        kern = clCreateKernel(prog, "lg_kron", &err);
        CL_CK(err);
        buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, chunk * sizeof(dg_edge), NULL, &err);
        CL_CK(err);
        t0 = now_s();
        for (first = 0; first < m; first += chunk) {
            cl_ulong f = first, sd = gseed;
            cl_uint cn = (cl_uint)(m - first < chunk ? m - first : chunk), sc = (cl_uint)S, cm = mul, ca = add;
            size_t gws = ((size_t)cn + 255) / 256 * 256;
            CL_CK(clSetKernelArg(kern, 0, sizeof buf, &buf));
            CL_CK(clSetKernelArg(kern, 1, sizeof f, &f));
            CL_CK(clSetKernelArg(kern, 2, sizeof cn, &cn));
            CL_CK(clSetKernelArg(kern, 3, sizeof sc, &sc));
            CL_CK(clSetKernelArg(kern, 4, sizeof sd, &sd));
            CL_CK(clSetKernelArg(kern, 5, sizeof cm, &cm));
            CL_CK(clSetKernelArg(kern, 6, sizeof ca, &ca));
            CL_CK(clEnqueueNDRangeKernel(q, kern, 1, NULL, &gws, NULL, 0, NULL, NULL));
            CK(g, dg_add_edges_cl(g, buf, cn, &added));
            total += added;
        }
        CK(g, dg_sync(g));
        CL_CK(clFinish(q));
        w->load_s = now_s() - t0;
        w->m = dg_edge_count(g);
        w->load_rate = (double)m / w->load_s;
        if (w->m != total) fail("scale %d: %zu edges counted, %zu added", S, w->m, total);
        CK(g, dg_get_stats(g, &st));
        w->pos64 = st.wide_positions;
        w->host_bpe = (double)st.host_bytes / (double)w->m;
        w->dev_bpe = (double)st.device_bytes / (double)w->m;
        note("scale %d%s: %zu vertices, %zu tuples, %zu edges stored, loaded in %.1f s (%.0f M tuples/s); pool "
             "positions %d-bit; host %.1f GB, device %.1f GB; pages in use %zu of %zu entries (%.2f GB), fill %.3f, "
             "%zu free pages, %zu large lists on %zu pages", S,
             wide[si] ? " (wide)" : "", n, m, w->m, w->load_s, w->load_rate / 1e6, w->pos64 ? 64 : 32,
             st.host_bytes / 1e9, st.device_bytes / 1e9, st.pages, (size_t)g->P,
             (double)st.pages * g->P * 4 / 1e9, st.fill_ratio, st.free_pages, st.large_lists, st.large_pages);
        /* roots: vertices with an edge */
        rv = (dg_vertex *)xmalloc((size_t)roots * sizeof *rv);
        {
            rng rr;
            int tries;
            rng_seed(&rr, seed * 977u + (uint64_t)S);
            for (tries = 0; nr < roots && tries < 100000; tries++) {
                dg_vertex v = (dg_vertex)rng_below(&rr, n);
                size_t deg = 0;
                CK(g, dg_degree(g, v, &deg));
                if (deg) rv[nr++] = v;
            }
        }
        w->roots = nr;
        dist = (int32_t *)xmalloc(n * sizeof *dist);
        bms = (double *)xmalloc((size_t)nr * sizeof *bms);
        /* the check's tuples: a chunk's worth drawn at random positions, regenerated on the host */
        cchk = m < ((size_t)1 << 20) ? m : (size_t)1 << 20;
        for (r = 0; r < nr + 1; r++) {
            dg_bfs_options o;
            dg_bfs_stats bs;
            size_t c, bad = 0;
            rng rc;
            if (r == nr) {                /* after the update: the batch added, then removed */
                dg_edge *hb = (dg_edge *)xmalloc((size_t)kup * sizeof *hb);
                cl_mem ub;
                rng ru;
                size_t a2 = 0, r2 = 0;
                long k;
                rng_seed(&ru, seed * 131u + (uint64_t)S);
                for (k = 0; k < kup; k++) {
                    hb[k].src = (dg_vertex)rng_below(&ru, n); hb[k].dst = (dg_vertex)rng_below(&ru, n); hb[k].weight = 1.0f;
                }
                ub = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, (size_t)kup * sizeof *hb, hb, &err);
                CL_CK(err);
                CL_CK(clFinish(q));
                t0 = now_s();
                CK(g, dg_add_edges_cl(g, ub, (size_t)kup, &a2));
                CL_CK(clFinish(q));
                w->ins_ms = (now_s() - t0) * 1e3;
                t0 = now_s();
                CK(g, dg_remove_edges_cl(g, ub, (size_t)kup, &r2));
                CL_CK(clFinish(q));
                w->rm_ms = (now_s() - t0) * 1e3;
                w->k = a2;   /* (a drawn pair may be an edge of the graph: then removed too, r2 > a2) */
                if (r2 < a2 || dg_edge_count(g) != w->m - (r2 - a2))
                    fail("scale %d: the update added %zu, removed %zu, %zu edges left", S, a2, r2, dg_edge_count(g));
                clReleaseMemObject(ub);
                free(hb);
            }
            memset(&o, 0, sizeof o);
            memset(&bs, 0, sizeof bs);
            o.strategy = DG_BFS_DIRECTION_OPT;
            o.stats = &bs;
            CK(g, dg_bfs(g, rv[r < nr ? r : 0], dist, &o));
            if (r < nr) bms[r] = bs.device_ms; else w->bfs2_ms = bs.device_ms;
            if (r == nr) {                /* the same search once more: a first-call cost? */
                double first = bs.device_ms;
                CK(g, dg_bfs(g, rv[0], dist, &o));
                note("scale %d%s: BFS from root 0: %.3f ms before the update, %.3f and %.3f ms after it "
                     "(%u levels, %u bottom-up)", S, wide[si] ? " (wide)" : "", bms[0], first, bs.device_ms,
                     bs.levels, bs.bottom_up_levels);
            }
            if (dist[rv[r < nr ? r : 0]] != 0) bad++;
            rng_seed(&rc, seed + 17u * (uint64_t)r);
            for (c = 0; r < nr && c < cchk; c++) {   /* (after the update a tuple may be gone) */
                dg_vertex u, v;
                lg_tuple(rng_below(&rc, m), (unsigned)S, gseed, mul, add, &u, &v);
                if ((dist[u] < 0) != (dist[v] < 0) || (dist[u] >= 0 && abs(dist[u] - dist[v]) > 1)) bad++;
            }
            if (bad) fail("scale %d: BFS %d: %zu of %zu sampled tuples break the distances", S, r, bad, cchk);
        }
        /* the algorithms that walk edge chunks (64-bit offsets past 2^32 arcs), from root 0 on the
           graph as the update left it, each checked against that last BFS's dist (one device) */
        if (ndevs[si] == 1) {
            dg_vertex *lab = (dg_vertex *)xmalloc(n * sizeof *lab);
            int32_t *d2 = (int32_t *)xmalloc(n * sizeof *d2);
            float *fd = (float *)xmalloc(n * sizeof *fd);
            dg_bfs_options o;
            dg_bfs_stats bs;
            dg_sssp_options so;
            dg_sssp_stats ss;
            size_t v, bad = 0, reached = 0, inroot = 0;
            const dg_vertex s0 = rv[0];
            double first[3] = { 0, 0, 0 };
            int rep;
            memset(&o, 0, sizeof o); memset(&bs, 0, sizeof bs);
            o.strategy = DG_BFS_EDGE_CHUNK;
            o.stats = &bs;
            memset(&so, 0, sizeof so); memset(&ss, 0, sizeof ss);
            so.strategy = DG_SSSP_BELLMAN_FORD;
            so.stats = &ss;
            for (rep = 0; rep < 2; rep++) {   /* the first calls build the modules' programs */
                CL_CK(clFinish(q));
                t0 = now_s();
                CK(g, dg_components(g, lab, &w->ncomp));
                w->cc_ms = (now_s() - t0) * 1e3;
                CK(g, dg_bfs(g, s0, d2, &o));
                w->ec_ms = bs.device_ms;
                CK(g, dg_sssp(g, s0, fd, &so));
                w->bf_ms = ss.device_ms;
                if (rep == 0) { first[0] = w->cc_ms; first[1] = w->ec_ms; first[2] = w->bf_ms; }
            }
            for (v = 0; v < n; v++) {
                reached += dist[v] >= 0;
                inroot += lab[v] == lab[s0];
                bad += (dist[v] >= 0) != (lab[v] == lab[s0]);
            }
            if (bad || reached != inroot)
                fail("scale %d: components: %zu vertices disagree with the BFS (%zu reached, %zu in the root's component)",
                     S, bad, reached, inroot);
            if (memcmp(d2, dist, n * sizeof *dist)) fail("scale %d: the edge-chunk BFS differs from the direction-optimizing one", S);
            for (v = 0, bad = 0; v < n; v++) bad += dist[v] >= 0 ? fd[v] != (float)dist[v] : fd[v] != INFINITY;
            if (bad) fail("scale %d: Bellman-Ford: %zu distances differ from the BFS levels", S, bad);
            note("scale %d%s: components %zu (%.1f ms wall, labels read back), edge-chunk BFS %.3f ms, Bellman-Ford "
                 "%.3f ms device (%u passes), all agreeing with the BFS from root 0; the first calls (programs built): "
                 "%.1f, %.3f, %.3f ms", S, wide[si] ? " (wide)" : "", w->ncomp, w->cc_ms, w->ec_ms, w->bf_ms,
                 ss.iterations, first[0], first[1], first[2]);
            free(lab); free(d2); free(fd);
        }
        {
            double lo = bms[0], hi = bms[0];
            for (r = 1; r < nr; r++) { if (bms[r] < lo) lo = bms[r]; if (bms[r] > hi) hi = bms[r]; }
            note("scale %d%s: BFS device ms over %d roots: %.3f .. %.3f", S, wide[si] ? " (wide)" : "", nr, lo, hi);
        }
        w->bfs_ms = median(bms, nr);
        w->gteps = (double)w->m / (w->bfs_ms * 1e-3) / 1e9;
        free(bms); free(dist); free(rv);
        clReleaseMemObject(buf); clReleaseKernel(kern); clReleaseProgram(prog);
        dg_destroy(g);
    }
    md_header(stdout, "scale|devices:|positions|n:|edges stored:|load s:|load M tuples/s:|host B/edge:|device B/edge:|"
                      "BFS ms:|GTEPS:|vs first row:|k:|add ms:|remove ms:|BFS after ms:|components ms:|"
                      "edge-chunk BFS ms:|Bellman-Ford ms:");
    for (si = 0; si < nsc; si++) {
        const lg_row *w = &rows[si];
        printf("| %d%s | %d | %d-bit | %zu | %zu | %.1f | %.1f | %.1f | %.1f | %.3f | %.2f | %.2f | %zu | %.2f | %.2f | %.3f "
               "| %.1f | %.2f | %.2f |\n",
               w->scale, w->wide ? "w" : "", w->ndev, w->pos64 ? 64 : 32, w->n, w->m, w->load_s, w->load_rate / 1e6, w->host_bpe,
               w->dev_bpe, w->bfs_ms, w->gteps, w->gteps / rows[0].gteps, w->k, w->ins_ms, w->rm_ms, w->bfs2_ms,
               w->cc_ms, w->ec_ms, w->bf_ms);
    }
    if (csv) {
        FILE *f = fopen(csv, "w");
        if (!f) die("cannot open the CSV file");
        fprintf(f, "scale,wide,devices,pos64,n,edges,load_s,host_bytes_per_edge,device_bytes_per_edge,bfs_ms,gteps,k,add_ms,remove_ms,"
                   "bfs_after_ms,components,components_ms,ec_bfs_ms,bellman_ford_ms\n");
        for (si = 0; si < nsc; si++) {
            const lg_row *w = &rows[si];
            fprintf(f, "%d,%d,%d,%d,%zu,%zu,%.3f,%.2f,%.2f,%.4f,%.3f,%zu,%.3f,%.3f,%.4f,%zu,%.3f,%.4f,%.4f\n", w->scale, w->wide,
                    w->ndev, w->pos64, w->n, w->m, w->load_s, w->host_bpe, w->dev_bpe, w->bfs_ms, w->gteps, w->k, w->ins_ms, w->rm_ms,
                    w->bfs2_ms, w->ncomp, w->cc_ms, w->ec_ms, w->bf_ms);
        }
        fclose(f);
    }
    return report_end();
}
