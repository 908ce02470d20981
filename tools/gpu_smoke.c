/* gpu_smoke.c - quick check of every BFS strategy on a large random / Kronecker-ish graph. */
#define _POSIX_C_SOURCE 200809L
#define DYNGRAPH_IMPLEMENTATION
#include "dyngraph.h"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e3 + t.tv_nsec * 1e-6; }
static uint64_t rs = 88172645463325252ULL;
static uint64_t rnd(void) { rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17; return rs; }
static void cpu_bfs(dg_graph *g, int src, int *dist) {
    size_t n = dg_vertex_id_bound(g), h = 0, t = 0;
    int *q = malloc(n * 4); dg_vertex *nb = malloc(n * 4);
    for (size_t i = 0; i < n; i++) dist[i] = -1;
    dist[src] = 0; q[t++] = src;
    while (h < t) { int v = q[h++]; size_t c; dg_neighbors(g, v, nb, NULL, n, &c);
        for (size_t k = 0; k < c; k++) if (dist[nb[k]] < 0) { dist[nb[k]] = dist[v] + 1; q[t++] = nb[k]; } }
    free(q); free(nb);
}
int main(int argc, char **argv) {
    int scale = argc > 1 ? atoi(argv[1]) : 20, grid = argc > 2 ? atoi(argv[2]) : 0;
    long n = 1L << scale, m = n * 16;
    dg_graph *g; dg_desc desc = {0}; desc.undirected = 1;
    if (dg_create(&desc, &g)) return 1;
    dg_add_vertices(g, n, NULL);
    dg_edge *e = malloc(sizeof *e * m);
    long side = 1; while (side * side < n) side++;
    for (long i = 0; i < m; i++) {
        if (grid) { long v = i / 2 % n; e[i].src = v; e[i].dst = (i & 1) ? (v + 1) % n : (v + side) % n; }
        else { /* Kronecker A=.57 B=.19 C=.19 */
            long u = 0, v = 0;
            for (int b = 0; b < scale; b++) { double r = (rnd() >> 11) * (1.0 / 9007199254740992.0);
                int ub = r > 0.57 + 0.19, vb = (r > 0.57 && r <= 0.76) || r > 0.95; u |= (long)ub << b; v |= (long)vb << b; }
            e[i].src = u; e[i].dst = v; }
        e[i].weight = 1;
    }
    double t0 = now(); dg_add_edges(g, e, m, NULL); double t1 = now();
    dg_status s = dg_sync(g); double t2 = now();
    dg_stats gs; dg_get_stats(g, &gs);
    printf("build %.0f ms, first sync %.0f ms (%s) %zu bytes, dev=%s arcs=%zu\n", t1 - t0, t2 - t1, dg_status_string(s), gs.last_sync_bytes, dg_device_name(g), gs.arcs);
    if (s) { printf("%s\n", dg_error_message(g)); return 1; }
    int *ref = malloc(n * 4), *got = malloc(n * 4);
    int src = 0; while (dg_degree(g, src, &(size_t){0}), 0) {}
    { size_t dd = 0; for (src = 0; ; src++) { dg_degree(g, src, &dd); if (dd > 2) break; } }
    cpu_bfs(g, src, ref);
    for (int strat = 1; strat <= 5; strat++) for (int csr = 0; csr < 2; csr++) {
        if (csr && strat == 2) continue;
        dg_bfs_stats st = {0}; dg_bfs_options o = {0}; o.strategy = strat; o.stats = &st; o.csr_copy = csr;
        double best = 1e9, wall = 1e9;
        for (int r = 0; r < 4; r++) { double a = now(); s = dg_bfs(g, src, got, &o); double b = now(); if (r && st.device_ms < best) best = st.device_ms; if (r && b - a < wall) wall = b - a; }
        long bad = 0; for (long i = 0; i < n; i++) bad += got[i] != ref[i];
        printf("strategy %d csr %d: %s %s bad=%ld levels=%u bu=%u rt=%u reached=%llu dev=%.3fms wall=%.3fms GTEPS(dev, arcs/2)=%.2f\n", strat, csr, dg_status_string(s), s ? dg_error_message(g) : "", bad, st.levels, st.bottom_up_levels, st.host_round_trips, (unsigned long long)st.vertices_reached, best, wall, gs.arcs / 2.0 / best / 1e6);
    }
    for (int k = 1; k <= 100000; k *= 10) {
        for (int i = 0; i < k; i++) { dg_vertex u = rnd() % n, v = rnd() % n; if (dg_add_edge(g, u, v, 1)) {} }
        double a = now(); dg_sync(g); double b = now(); dg_get_stats(g, &gs);
        printf("k=%d: sync %.3f ms, %zu pages, %zu bytes\n", k, b - a, gs.last_sync_pages, gs.last_sync_bytes);
    }
    s = dg_validate_device(g); printf("validate_device %s\n", dg_status_string(s));
    dg_destroy(g); free(e); free(ref); free(got);
    return 0;
}
