/* bench_result.c - results that follow the graph (dg_result_*, issue 19): after each batch of k
   changes, the time to bring a BFS, an SSSP, a components and a PageRank result up to date,
   beside a fresh run of the same algorithm on the same graph after the same batch.

   Usage: bench_result [--scale LIST] [--graphs kron,uniform,grid] [--ks LIST] [--reps R]
                       [--kinds bfs,sssp,cc,pr] [--modes insert,mixed] [--csv FILE] [--seed S]
                       [--device TEXT] [--quick]
   Graphs: generated as bench_bfs's (undirected, integer weights 1..255 as GAP's sssp); the
   source of BFS and SSSP is a random vertex with an edge. Batches: `insert` adds k absent edges,
   `mixed` removes k/2 present edges and adds k/2 absent ones (one dg_add_edges, one
   dg_remove_edges), then dg_sync. On the grid the additions are diagonals {u, u + side +- 1}
   (a map's local changes; random long edges would turn it into a small-world graph). Then, per kind: the result's update with the answer left on
   the device (values NULL: the figure to compare with a fresh run's device time), its read-back
   (a second update with nothing to do, values given), and the fresh run with its answer read
   back (dg_bfs, dg_sssp, dg_components, dg_pagerank with the result's options); every
   incremental answer is checked against the fresh one (BFS, SSSP, components exactly; PageRank
   within 1e-4 in L1). One untimed warm-up batch first (kernels built). Medians of R batches.
   Output: a Markdown table and --csv FILE. */
#define DYNGRAPH_IMPLEMENTATION
#include "dyngraph.h"
#define BENCH_NAME "bench_result"
#include "bench_common.h"

enum { K_BFS, K_SSSP, K_CC, K_PR, NK };
static const char *const KIND_NAMES[NK] = { "bfs", "sssp", "cc", "pr" };
static const char *const MODE_NAMES[2] = { "insert", "mixed" };

typedef struct sample {
    double inc, rb, fresh, fresh_dev;   /* ms: update (on the device), read-back, fresh (read back), fresh device */
    double full, rounds, inval, edges_inc, edges_fresh;
} sample;

/* Batches alternate: even ones update without stats (what a caller that asks for none waits:
   the "incremental" column), odd ones with stats (profiling events, ~7 us a launch on NVIDIA's
   host: "with stats"; full, rounds, invalidated and edges come from them). A single batch
   (the warm-up, --reps 1) runs with stats, and both columns show it. */
#define MED(arr, n, field) med_field(arr, n, offsetof(sample, field), -1)
#define MED_OF(arr, n, field, parity) med_field(arr, n, offsetof(sample, field), parity)
static double med_field(const sample *s, int n, size_t off, int parity)
{
    double v[256];
    int i, m = 0;
    for (i = 0; i < n && i < 256; i++)
        if (parity < 0 || i % 2 == parity || n == 1) v[m++] = *(const double *)((const char *)&s[i] + off);
    return median(v, m);
}

/* A grid's additions stay local (a map's changes: doors, bridges): nadd absent diagonal edges
   {u, u + side +- 1}, drawn after pick_batch chose the removals (set: the batch's keys). */
static void grid_adds(rng *r, dg_graph *g, size_t n, dg_edge *adds, size_t nadd, uint64_t *set, size_t setcap)
{
    size_t side = (size_t)floor(sqrt((double)n) + 1e-9), j;
    memset(set, 0, setcap * sizeof *set);
    for (j = 0; j < nadd; j++) {
        dg_vertex a, b;
        do {
            size_t row = (size_t)rng_below(r, side - 1), c = 1 + (size_t)rng_below(r, side - 2);
            a = (dg_vertex)(row * side + c);
            b = (dg_vertex)((size_t)a + side + (rng_below(r, 2) ? 1 : (size_t)-1));
        } while (dg_has_edge(g, a, b) || !set_insert(set, setcap, ekey(a, b)));
        adds[j].src = a; adds[j].dst = b; adds[j].weight = 1.0f;
    }
}

int main(int argc, char **argv)
{
    long scales[8] = { 22 }, ks[16] = { 1, 1000, 100000 };
    int nscales = 1, nks = 3, graphs[NGRAPHS] = { 1, 0, 1 }, kinds[NK] = { 1, 1, 1, 1 }, modes[2] = { 1, 1 };
    int reps = 5, a, gi, si, quick = 0, scale_given = 0, ks_given = 0;
    uint64_t seed = 1;
    const char *csv_path = NULL, *device = NULL;
    FILE *csv = NULL;
    for (a = 1; a < argc; a++) {
        const char *v = a + 1 < argc ? argv[a + 1] : NULL;
        if (!strcmp(argv[a], "--scale") && v) { nscales = parse_list(v, "--scale", scales, 8, 4, 28); scale_given = 1; a++; }
        else if (!strcmp(argv[a], "--ks") && v) { nks = parse_list(v, "--ks", ks, 16, 1, 100000000L); ks_given = 1; a++; }
        else if (!strcmp(argv[a], "--graphs") && v) { parse_names(v, "--graphs", GRAPH_NAMES, NGRAPHS, graphs); a++; }
        else if (!strcmp(argv[a], "--kinds") && v) { parse_names(v, "--kinds", KIND_NAMES, NK, kinds); a++; }
        else if (!strcmp(argv[a], "--modes") && v) { parse_names(v, "--modes", MODE_NAMES, 2, modes); a++; }
        else if (!strcmp(argv[a], "--reps") && v) { reps = (int)parse_long(v, "--reps", 1, 255); a++; }
        else if (!strcmp(argv[a], "--csv") && v) { csv_path = v; a++; }
        else if (!strcmp(argv[a], "--seed") && v) { seed = (uint64_t)parse_long(v, "--seed", 0, 1L << 40); a++; }
        else if (!strcmp(argv[a], "--device") && v) { device = v; a++; }
        else if (!strcmp(argv[a], "--quick")) quick = 1;
        else {
            fprintf(stderr, "usage: bench_result [--scale LIST] [--graphs kron,uniform,grid] [--ks LIST] [--reps R] "
                            "[--kinds bfs,sssp,cc,pr] [--modes insert,mixed] [--csv FILE] [--seed S] [--device TEXT] [--quick]\n");
            return 2;
        }
    }
    if (quick && !scale_given) scales[0] = 12;
    if (quick && !ks_given) { ks[0] = 1; ks[1] = 100; nks = 2; }
    if (csv_path) {
        if (!(csv = fopen(csv_path, "w"))) { perror(csv_path); return 1; }
        fprintf(csv, "device,graph,scale,vertices,edges,mode,k,kind,update_sync_ms,incremental_ms,with_stats_ms,readback_ms,"
                     "fresh_ms,fresh_device_ms,speedup_device,speedup_host,full_runs,rounds,invalidated,"
                     "edges_incremental,edges_fresh\n");
    }
    for (si = 0; si < nscales; si++)
        for (gi = 0; gi < NGRAPHS; gi++) {
            int scale = (int)scales[si], ki, mi, kk, rep;
            size_t n, m, ncur = 0, u, maxk = 0, setcap = 16, arcs;
            dg_edge *e, *cur, *adds, *rems;
            uint64_t *set;
            int64_t *off;
            dg_vertex *col, src;
            dg_graph *g = NULL;
            dg_desc d;
            dg_result *res[NK];
            dg_result_desc rd;
            int32_t *lv[2];
            float *fd[2];
            dg_vertex *lab[2];
            char dev[256];
            rng r;
            if (!graphs[gi]) continue;
            e = gen_graph(gi, scale, graph_seed(seed, gi, scale), &n, &m);
            set_weights(e, m, graph_seed(seed, gi, scale), 0);
            memset(&d, 0, sizeof d);
            d.undirected = 1;
            d.weighted = 1;
            d.device = device;
            CK(NULL, dg_create(&d, &g));
            CK(g, dg_add_vertices(g, n, NULL));
            CK(g, dg_add_edges(g, e, m, NULL));
            free(e);
            CK(g, dg_sync(g));
            snprintf(dev, sizeof dev, "%s", dg_device_name(g));
            if (si == 0 && gi == (graphs[0] ? 0 : graphs[1] ? 1 : 2)) {
                report_begin("results that follow the graph", dev, "a fresh run after the same batch");
                printf("\n");
                md_header(stdout, "graph|scale:|edges:|batch|k:|result|update+sync ms:|incremental ms:|with stats ms:|read-back ms:|"
                                  "fresh ms:|fresh device ms:|x (device):|x (host):|full:|rounds:|invalidated:|"
                                  "edges inc.:|edges fresh:");
            }
            /* the current edge set (u <= v) and a source, from the exported CSR */
            off = (int64_t *)xmalloc((n + 1) * sizeof *off);
            CK(g, dg_export_csr(g, off, NULL, NULL));
            arcs = (size_t)off[n];
            col = (dg_vertex *)xmalloc((arcs + 1) * sizeof *col);
            CK(g, dg_export_csr(g, off, col, NULL));
            for (ki = 0; ki < nks; ki++) if ((size_t)ks[ki] > maxk) maxk = (size_t)ks[ki];
            cur = (dg_edge *)xmalloc((arcs / 2 + 16 + (size_t)(reps + 2) * maxk * 2 * (size_t)nks) * sizeof *cur);
            for (u = 0; u < n; u++) {
                int64_t k;
                for (k = off[u]; k < off[u + 1]; k++)
                    if ((size_t)col[k] >= u) { cur[ncur].src = (dg_vertex)u; cur[ncur].dst = col[k]; cur[ncur].weight = 1.0f; ncur++; }
            }
            rng_seed(&r, graph_seed(seed, gi, scale) ^ 0x5E5E17ull);
            do src = (dg_vertex)rng_below(&r, n); while (off[src + 1] == off[src]);
            free(off); free(col);
            adds = (dg_edge *)xmalloc((maxk + 2) * sizeof *adds);
            rems = (dg_edge *)xmalloc((maxk + 2) * sizeof *rems);
            while (setcap < 2 * (maxk + 2)) setcap *= 2;
            set = (uint64_t *)xmalloc(setcap * sizeof *set);
            for (kk = 0; kk < 2; kk++) {
                lv[kk] = (int32_t *)xmalloc((n + 16) * sizeof(int32_t));
                fd[kk] = (float *)xmalloc((n + 16) * sizeof(float));
                lab[kk] = (dg_vertex *)xmalloc((n + 16) * sizeof(dg_vertex));
            }
            /* the results, first computed (from nothing) untimed */
            for (kk = 0; kk < NK; kk++) {
                memset(&rd, 0, sizeof rd);
                rd.kind = kk == K_BFS ? DG_RESULT_BFS : kk == K_SSSP ? DG_RESULT_SSSP : kk == K_CC ? DG_RESULT_COMPONENTS : DG_RESULT_PAGERANK;
                rd.source = src;
                CK(g, dg_result_create(g, &rd, &res[kk]));
                CK(g, dg_result_update(res[kk], NULL, NULL));
            }
            for (mi = 0; mi < 2; mi++) {
                if (!modes[mi]) continue;
                for (ki = -1; ki < nks; ki++) {
                    long k = ki < 0 ? (ks[0] < 1000 ? ks[0] : 1000) : ks[ki];
                    int nrep = ki < 0 ? 1 : reps;
                    sample S[NK][256];
                    double upd[256];
                    memset(S, 0, sizeof S);
                    for (rep = 0; rep < nrep; rep++) {
                        size_t nadd = mi == 0 ? (size_t)k : (size_t)k - (size_t)k / 2, nrem = mi == 0 ? 0 : (size_t)k / 2, j;
                        double t0;
                        if (nrem > ncur) nrem = ncur;
                        pick_batch(&r, g, 1, cur, &ncur, rems, nrem, adds, gi == G_GRID ? 0 : nadd, set, setcap);
                        if (gi == G_GRID) grid_adds(&r, g, n, adds, nadd, set, setcap);
                        for (j = 0; j < nadd; j++) adds[j].weight = edge_weight(seed, adds[j].src, adds[j].dst, 0);
                        t0 = now_s();
                        CK(g, dg_add_edges(g, adds, nadd, NULL));
                        CK(g, dg_remove_edges(g, rems, nrem, NULL));
                        CK(g, dg_sync(g));
                        upd[rep] = (now_s() - t0) * 1e3;
                        for (j = 0; j < nadd; j++) cur[ncur++] = adds[j];
                        for (kk = 0; kk < NK; kk++) {
                            sample *s = &S[kk][rep];
                            dg_result_stats st;
                            void *vals = kk == K_BFS ? (void *)lv[0] : kk == K_SSSP ? (void *)fd[0] : kk == K_CC ? (void *)lab[0] : (void *)fd[0];
                            size_t nb = dg_vertex_id_bound(g), v, bad = 0;
                            char what[160];
                            if (!kinds[kk]) continue;
                            snprintf(what, sizeof what, "%s s%d %s k=%ld %s rep %d", GRAPH_NAMES[gi], scale, MODE_NAMES[mi], k,
                                     KIND_NAMES[kk], rep);
                            memset(&st, 0, sizeof st);
                            t0 = now_s();
                            CK(g, dg_result_update(res[kk], NULL, rep % 2 || nrep == 1 ? &st : NULL));   /* (one batch: with) */
                            s->inc = (now_s() - t0) * 1e3;
                            s->full = st.full; s->rounds = st.rounds; s->inval = (double)st.invalidated;
                            s->edges_inc = (double)st.edges;
                            t0 = now_s();
                            CK(g, dg_result_update(res[kk], vals, NULL));
                            s->rb = (now_s() - t0) * 1e3;
                            if (kk == K_BFS) {
                                dg_bfs_options o; dg_bfs_stats bs;
                                memset(&o, 0, sizeof o); o.stats = &bs;
                                t0 = now_s();
                                CK(g, dg_bfs(g, src, lv[1], &o));
                                s->fresh = (now_s() - t0) * 1e3;
                                s->fresh_dev = bs.device_ms; s->edges_fresh = (double)bs.edges_inspected;
                                for (v = 0; v < nb; v++) bad += lv[0][v] != lv[1][v];
                            } else if (kk == K_SSSP) {
                                dg_sssp_options o; dg_sssp_stats ss;
                                memset(&o, 0, sizeof o); o.stats = &ss;
                                t0 = now_s();
                                CK(g, dg_sssp(g, src, fd[1], &o));
                                s->fresh = (now_s() - t0) * 1e3;
                                s->fresh_dev = ss.device_ms; s->edges_fresh = (double)ss.relaxations;
                                bad = (size_t)(memcmp(fd[0], fd[1], nb * sizeof(float)) != 0);
                            } else if (kk == K_CC) {
                                size_t c1 = 0, c2 = 0;
                                t0 = now_s();
                                CK(g, dg_components(g, NULL, &c1));
                                s->fresh_dev = (now_s() - t0) * 1e3;        /* counted on the device */
                                t0 = now_s();
                                CK(g, dg_components(g, lab[1], &c2));
                                s->fresh = (now_s() - t0) * 1e3;
                                for (v = 0; v < nb; v++) bad += lab[0][v] != lab[1][v];
                                bad += c1 != c2 || (rep % 2 && c1 != st.components);   /* (counted with stats) */
                            } else {
                                dg_pagerank_stats ps;
                                dg_pagerank_options o;
                                double l1 = 0;
                                memset(&o, 0, sizeof o); o.stats = &ps;
                                t0 = now_s();
                                CK(g, dg_pagerank(g, fd[1], &o));
                                s->fresh = (now_s() - t0) * 1e3;
                                s->fresh_dev = s->fresh;                      /* (no device-only figure) */
                                s->edges_fresh = (double)ps.iterations * 2.0 * (double)dg_edge_count(g);
                                for (v = 0; v < nb; v++) l1 += fabs((double)fd[0][v] - (double)fd[1][v]);
                                bad = l1 > 1e-4;
                                if (bad) fail("%s: PageRank %g from a fresh run (L1)", what, l1);
                            }
                            if (bad) fail("%s: %zu values differ from a fresh run", what, bad);
                        }
                    }
                    if (ki < 0) continue;
                    for (kk = 0; kk < NK; kk++) {
                        double mu = median(upd, nrep), inc = MED_OF(S[kk], nrep, inc, 0), incs = MED_OF(S[kk], nrep, inc, 1);
                        double rb = MED(S[kk], nrep, rb), fr = MED(S[kk], nrep, fresh), frd = MED(S[kk], nrep, fresh_dev), full = 0;
                        double xd, xh;
                        int ns = 0;
                        if (!kinds[kk]) continue;
                        for (rep = 0; rep < nrep; rep++)
                            if (rep % 2 || nrep == 1) { full += S[kk][rep].full; ns++; }
                        xd = frd / inc;
                        xh = fr / (inc + rb);
                        printf("| %s | %d | %zu | %s | %ld | %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.1f | %.1f | %.0f/%d | %.0f | %.0f | %.3g | %.3g |\n",
                               GRAPH_NAMES[gi], scale, dg_edge_count(g), MODE_NAMES[mi], k, KIND_NAMES[kk], mu, inc, incs, rb, fr, frd, xd, xh,
                               full, ns, MED_OF(S[kk], nrep, rounds, 1), MED_OF(S[kk], nrep, inval, 1), MED_OF(S[kk], nrep, edges_inc, 1),
                               MED(S[kk], nrep, edges_fresh));
                        if (csv) fprintf(csv, "\"%s\",%s,%d,%zu,%zu,%s,%ld,%s,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.2f,%.2f,%.0f,%.0f,%.0f,%.0f,%.0f\n",
                                         dev, GRAPH_NAMES[gi], scale, n, dg_edge_count(g), MODE_NAMES[mi], k, KIND_NAMES[kk], mu, inc, incs, rb,
                                         fr, frd, xd, xh, full, MED_OF(S[kk], nrep, rounds, 1), MED_OF(S[kk], nrep, inval, 1),
                                         MED_OF(S[kk], nrep, edges_inc, 1), MED(S[kk], nrep, edges_fresh));
                        fflush(stdout);
                    }
                }
            }
            for (kk = 0; kk < NK; kk++) dg_result_destroy(res[kk]);
            for (kk = 0; kk < 2; kk++) { free(lv[kk]); free(fd[kk]); free(lab[kk]); }
            free(cur); free(adds); free(rems); free(set);
            dg_destroy(g);
        }
    note("update+sync: the batch applied (dg_add_edges, dg_remove_edges) and dg_sync, not part of either column after it");
    note("incremental: dg_result_update(r, NULL, NULL), the answer left on the device (wall, clFinish included), even batches; "
         "with stats: the same with &stats (profiling events), odd batches; read-back: one more update with nothing to do "
         "and the values given (n words to the host)");
    note("fresh: dg_bfs / dg_sssp / dg_components / dg_pagerank from nothing, answer read back (wall); fresh device: the "
         "search's device time (bfs, sssp stats), dg_components counted on the device (wall), pagerank: its wall time "
         "with the read-back (dg_pagerank keeps nothing on the device)");
    note("x (device) = fresh device / incremental; x (host) = fresh / (incremental + read-back)");
    note("full: updates with stats that ran from nothing (dg_result_stats.full); rounds, invalidated, edges: their "
         "dg_result_stats medians (pagerank edges: iterations x arcs, inc. and fresh)");
    if (csv) fclose(csv);
    return report_end();
}
