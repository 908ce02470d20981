/* sssp_probe.c - quick timing of dg_sssp strategies (development aid; bench/bench_sssp.c is the benchmark). */
#define DYNGRAPH_IMPLEMENTATION
#include "dyngraph.h"
#define BENCH_NAME "sssp_probe"
#include "bench/bench_common.h"
#include <math.h>
static void run(dg_graph *g, const char *name, int nsrc, const char *strats, float delta) {
    size_t n = dg_vertex_id_bound(g);
    float *d = (float *)xmalloc(n * 4);
    int s, k;
    for (s = 1; s <= 3; s++) {
        double t[16]; int nt = 0; dg_sssp_stats st; memset(&st, 0, sizeof st);
        if (!strchr(strats, '0' + s)) continue;
        for (k = 0; k < nsrc; k++) {
            dg_sssp_options o; memset(&o, 0, sizeof o);
            size_t deg = 0; dg_vertex src = (dg_vertex)((k * 2654435761u) % n);
            dg_degree(g, src, &deg); if (!deg) continue;
            o.strategy = (dg_sssp_strategy)s; o.stats = &st; o.delta = delta;
            CK(g, dg_sssp(g, src, d, &o));
            t[nt++] = st.device_ms;
        }
        printf("%-8s strat %d: median %.3f ms (n=%d) iters %u phases %u rt %u relax %llu upd %llu reached %llu delta %g\n",
               name, s, median(t, nt), nt, st.iterations, st.phases, st.host_round_trips,
               (unsigned long long)st.relaxations, (unsigned long long)st.updates, (unsigned long long)st.vertices_reached, st.delta);
        fflush(stdout);
    }
    free(d);
}
int main(int argc, char **argv) {
    int scale = argc > 1 ? atoi(argv[1]) : 16;
    const char *strats = argc > 2 ? argv[2] : "123";
    const char *which = argc > 3 ? argv[3] : "kg";
    float delta = argc > 4 ? (float)atof(argv[4]) : 0;
    int nsrc = argc > 5 ? atoi(argv[5]) : 4;
    dg_desc desc; dg_graph *g; dg_vertex f; size_t m, added;
    dg_edge *e;
    memset(&desc, 0, sizeof desc); desc.weighted = 1; desc.undirected = 1;
    if (strchr(which, 'k')) {
        m = (size_t)16 << scale;
        e = gen_kronecker(scale, m, 1); set_weights(e, m, 7, 0);
        CK(NULL, dg_create(&desc, &g)); CK(g, dg_add_vertices(g, (size_t)1 << scale, &f));
        CK(g, dg_add_edges(g, e, m, &added)); free(e);
        CK(g, dg_sync(g));
        printf("device %s\n", dg_device_name(g));
        run(g, "kron", nsrc, strats, delta); dg_destroy(g);
    }
    if (strchr(which, 'g')) {
        size_t side = (size_t)1 << (scale / 2);
        e = gen_grid(side, &m); set_weights(e, m, 7, 0);
        CK(NULL, dg_create(&desc, &g)); CK(g, dg_add_vertices(g, side * side, &f));
        CK(g, dg_add_edges(g, e, m, &added)); free(e);
        CK(g, dg_sync(g));
        run(g, "grid", nsrc, strats, delta); dg_destroy(g);
    }
    return 0;
}
