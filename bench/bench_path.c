/* bench_path.c - pathfinding on a grid map: a point-to-point query (early exit at the target,
   the path returned) against a full search, and a distance field from many exits, on the
   device; beside them the same queries by plain single-threaded C on the host (what a game
   would otherwise run: a queue BFS and a binary-heap Dijkstra that stop at the target).

   The map: a side x side grid, 4 neighbours, undirected; unit weights for BFS, integer weights
   uniform in [1, 9] for SSSP. A is the centre, B is `--apart` steps away (half right, half
   down). Each row is the median of --reps runs, wall time of the call (the graph is synced
   before; the first run of each row is a warm-up and not counted):
     full            dg_bfs / dg_sssp from A, every distance read back
     full, no read   the same with dist = NULL (the search alone)
     to B            targets = {B}, path returned, every distance read back
     to B, path only targets = {B}, dist = NULL: only the path comes back
     field           --exits sources spread along the border (a distance field to the exits)
   The host rows run the same queries on a CSR of the same graph. The check: the path's length
   (BFS: Manhattan distance + 1) and, for SSSP, the path's weight against the host's distance.

   Usage: bench_path [--side N] [--apart K] [--exits E] [--reps R] [--delta D] [--rounds R] [--csv FILE] [--el PREFIX]
                     [--no-deep]  (levels one launch each, no dg_bfs_deep: the figures before it)
   --delta sets dg_sssp_options.delta of the SSSP queries to B (default 0: automatic);
   --rounds sets dg_sssp_options.local_rounds of every SSSP search (default 0: the library's).
   --el writes the grid for GAP (-s symmetrizes): PREFIX.el ("u v", each edge once) and
   PREFIX.wel ("u v w", the SSSP weights).
   DYNGRAPH_DEVICE picks the device as everywhere. */
#define DYNGRAPH_IMPLEMENTATION
#include "dyngraph.h"
#define BENCH_NAME "bench_path"
#include "bench_common.h"

typedef struct { float d; int32_t v; } hn;
static void hpush(hn *h, size_t *n, float d, int32_t v)
{
    size_t i = (*n)++;
    while (i > 0 && h[(i - 1) / 2].d > d) { h[i] = h[(i - 1) / 2]; i = (i - 1) / 2; }
    h[i].d = d; h[i].v = v;
}
static hn hpop(hn *h, size_t *n)
{
    hn top = h[0], last = h[--*n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= *n) break;
        if (c + 1 < *n && h[c + 1].d < h[c].d) c++;
        if (h[c].d >= last.d) break;
        h[i] = h[c]; i = c;
    }
    if (*n) h[i] = last;
    return top;
}

/* host BFS from src (t >= 0: stop when t is taken off the queue); returns dist[t] or levels */
static int32_t host_bfs(const uint32_t *off, const int32_t *col, const float *w, size_t n, int32_t src,
                        int32_t t, int32_t *dist, int32_t *q)
{
    size_t head = 0, tail = 0, k;
    (void)w;
    memset(dist, 0xff, n * 4);
    dist[src] = 0; q[tail++] = src;
    while (head < tail) {
        int32_t u = q[head++];
        if (u == t) return dist[u];
        for (k = off[u]; k < off[u + 1]; k++)
            if (dist[col[k]] < 0) { dist[col[k]] = dist[u] + 1; q[tail++] = col[k]; }
    }
    return t >= 0 ? -1 : dist[q[tail - 1]];
}
static float host_dijkstra(const uint32_t *off, const int32_t *col, const float *w, size_t n, int32_t src,
                           int32_t t, float *d, hn *h)
{
    size_t hnum = 0, k, i;
    for (i = 0; i < n; i++) d[i] = INFINITY;
    d[src] = 0; hpush(h, &hnum, 0, src);
    while (hnum) {
        hn x = hpop(h, &hnum);
        if (x.d > d[x.v]) continue;
        if (x.v == t) return x.d;
        for (k = off[x.v]; k < off[x.v + 1]; k++) {
            float nd = x.d + w[k];
            if (nd < d[col[k]]) { d[col[k]] = nd; hpush(h, &hnum, nd, col[k]); }
        }
    }
    return t >= 0 ? INFINITY : 0;
}

typedef struct { const char *algo, *query, *where; double ms; double extra; } row;
static row rows[64];
static int nrows;
static void add_row(const char *algo, const char *query, const char *where, double *t, int reps, double extra)
{
    row *r = &rows[nrows++];
    r->algo = algo; r->query = query; r->where = where; r->ms = median(t, reps) * 1e3; r->extra = extra;
}

/* One more dg_sssp(g, A, NULL, o) with stats, and what it did as a note. */
static void sssp_note(dg_graph *g, dg_vertex A, dg_sssp_options *o, const char *what)
{
    dg_sssp_stats ss;
    memset(&ss, 0, sizeof ss);
    o->stats = &ss;
    CK(g, dg_sssp(g, A, NULL, o));
    o->stats = NULL;
    note("%s: delta %g, %u relax launches, %u phases, %u read-backs, %llu relaxations, %llu vertices reached, "
         "device %.3f ms", what, (double)ss.delta, ss.iterations, ss.phases, ss.host_round_trips,
         (unsigned long long)ss.relaxations, (unsigned long long)ss.vertices_reached, ss.device_ms);
}

int main(int argc, char **argv)
{
    long side = 2048, apart = 100, exits = 64, reps = 10;
    double qdelta = 0;
    long qrounds = 0;
    const char *csv = NULL, *el = NULL;
    size_t n, m, i, plen = 0;
    dg_edge *e;
    dg_graph *gb = NULL, *gs = NULL;
    dg_desc d;
    int32_t A, B, *ibuf, *q, *path;
    float *fbuf, *wcol;
    uint32_t *off;
    int32_t *col;
    dg_vertex *ex;
    hn *heap;
    double *t;
    char devname[256] = "";
    int a, rep, k;
    for (a = 1; a < argc; a++) {
        const char *v = a + 1 < argc ? argv[a + 1] : NULL;
        if (!strcmp(argv[a], "--side") && v) { side = parse_long(v, "--side", 16, 20000); a++; }
        else if (!strcmp(argv[a], "--apart") && v) { apart = parse_long(v, "--apart", 2, 1000000); a++; }
        else if (!strcmp(argv[a], "--exits") && v) { exits = parse_long(v, "--exits", 1, 100000); a++; }
        else if (!strcmp(argv[a], "--reps") && v) { reps = parse_long(v, "--reps", 1, 1000); a++; }
        else if (!strcmp(argv[a], "--csv") && v) { csv = v; a++; }
        else if (!strcmp(argv[a], "--delta") && v) { qdelta = parse_double(v, "--delta"); a++; }
        else if (!strcmp(argv[a], "--rounds") && v) { qrounds = parse_long(v, "--rounds", -1, 1 << 20); a++; }
        else if (!strcmp(argv[a], "--el") && v) { el = v; a++; }
        else if (!strcmp(argv[a], "--no-deep")) dg__bfs_deep_groups = -1;   /* before/after */
        else { fprintf(stderr, "usage: bench_path [--side N] [--apart K] [--exits E] [--reps R] [--delta D] [--rounds R] [--csv FILE] [--el FILE] [--no-deep]\n"); return 2; }
    }
    if (apart > side - 2) apart = side - 2;
    n = (size_t)side * (size_t)side;
    e = gen_grid((size_t)side, &m);
    A = (int32_t)((side / 2) * side + side / 2 - apart / 4);
    B = A + (int32_t)(apart / 2) + (int32_t)((apart - apart / 2) * side);
    memset(&d, 0, sizeof d);
    d.undirected = 1;
    CK(NULL, dg_create(&d, &gb));
    CK(gb, dg_add_vertices(gb, n, NULL));
    CK(gb, dg_add_edges(gb, e, m, NULL));
    {
        uint64_t sx = 20261125;
        for (i = 0; i < m; i++) e[i].weight = (float)(1 + splitmix64(&sx) % 9);
    }
    if (el) {
        char fn[1024];
        FILE *f1, *f2;
        snprintf(fn, sizeof fn, "%s.el", el);
        f1 = fopen(fn, "w");
        snprintf(fn, sizeof fn, "%s.wel", el);
        f2 = fopen(fn, "w");
        if (!f1 || !f2) die("cannot write the edge lists");
        for (i = 0; i < m; i++) {
            fprintf(f1, "%d %d\n", (int)e[i].src, (int)e[i].dst);
            fprintf(f2, "%d %d %d\n", (int)e[i].src, (int)e[i].dst, (int)e[i].weight);
        }
        fclose(f1); fclose(f2);
    }
    d.weighted = 1;
    CK(NULL, dg_create(&d, &gs));
    CK(gs, dg_add_vertices(gs, n, NULL));
    CK(gs, dg_add_edges(gs, e, m, NULL));
    CK(gb, dg_sync(gb));
    CK(gs, dg_sync(gs));
    snprintf(devname, sizeof devname, "%s", dg_device_name(gb));
    /* the host's CSR (both directions) with the same weights */
    off = (uint32_t *)xmalloc((n + 1) * 4);
    col = (int32_t *)xmalloc(2 * m * 4);
    wcol = (float *)xmalloc(2 * m * 4);
    memset(off, 0, (n + 1) * 4);
    for (i = 0; i < m; i++) { off[e[i].src + 1]++; off[e[i].dst + 1]++; }
    for (i = 0; i < n; i++) off[i + 1] += off[i];
    {
        uint32_t *pos = (uint32_t *)xmalloc(n * 4);
        memcpy(pos, off, n * 4);
        for (i = 0; i < m; i++) {
            col[pos[e[i].src]] = e[i].dst; wcol[pos[e[i].src]++] = e[i].weight;
            col[pos[e[i].dst]] = e[i].src; wcol[pos[e[i].dst]++] = e[i].weight;
        }
        free(pos);
    }
    ibuf = (int32_t *)xmalloc(n * 4); q = (int32_t *)xmalloc(n * 4); fbuf = (float *)xmalloc(n * 4);
    heap = (hn *)xmalloc((2 * m + 1) * sizeof *heap);
    path = (int32_t *)xmalloc(n * 4);
    t = (double *)xmalloc((size_t)(reps + 1) * sizeof *t);
    ex = (dg_vertex *)xmalloc((size_t)exits * sizeof *ex);
    for (k = 0; k < exits; k++) {   /* spread along the four sides */
        long s = (long)k * 4 * (side - 1) / exits, sidei = s / (side - 1), pos = s % (side - 1);
        ex[k] = (dg_vertex)(sidei == 0 ? pos : sidei == 1 ? pos * side + side - 1
                            : sidei == 2 ? (side - 1) * side + side - 1 - pos : (side - 1 - pos) * side);
    }

#define TIME(expr) do { for (rep = 0; rep <= reps; rep++) { double t0_ = now_s(); expr; \
        if (rep) t[rep - 1] = now_s() - t0_; } } while (0)
    {   /* BFS */
        dg_bfs_options o;
        memset(&o, 0, sizeof o);
        TIME(CK(gb, dg_bfs(gb, A, ibuf, NULL)));
        add_row("bfs", "full", "device", t, (int)reps, 0);
        TIME(CK(gb, dg_bfs(gb, A, NULL, NULL)));
        add_row("bfs", "full, no read-back", "device", t, (int)reps, 0);
        o.targets = &B; o.target_count = 1; o.path = path; o.path_capacity = n; o.path_length = &plen;
        TIME(CK(gb, dg_bfs(gb, A, ibuf, &o)));
        add_row("bfs", "to B, dist + path", "device", t, (int)reps, (double)plen);
        TIME(CK(gb, dg_bfs(gb, A, NULL, &o)));
        add_row("bfs", "to B, path only", "device", t, (int)reps, (double)plen);
        if (plen != (size_t)apart + 1) fail("bfs path of %zu vertices, want %ld", plen, apart + 1);
        memset(&o, 0, sizeof o);
        o.sources = ex; o.source_count = (size_t)exits;
        TIME(CK(gb, dg_bfs(gb, -1, ibuf, &o)));
        add_row("bfs", "field from the exits", "device", t, (int)reps, 0);
        TIME((void)host_bfs(off, col, wcol, n, A, -1, ibuf, q));
        add_row("bfs", "full", "host C", t, (int)reps, 0);
        TIME((void)host_bfs(off, col, wcol, n, A, B, ibuf, q));
        add_row("bfs", "to B", "host C", t, (int)reps, (double)host_bfs(off, col, wcol, n, A, B, ibuf, q) + 1);
    }
    {   /* SSSP */
        dg_sssp_options o;
        float hd = 0;
        double pw = 0;
        memset(&o, 0, sizeof o);
        o.local_rounds = (int)qrounds;
        TIME(CK(gs, dg_sssp(gs, A, fbuf, &o)));
        add_row("sssp", "full", "device", t, (int)reps, 0);
        TIME(CK(gs, dg_sssp(gs, A, NULL, &o)));
        add_row("sssp", "full, no read-back", "device", t, (int)reps, 0);
        sssp_note(gs, A, &o, "sssp full");
        o.targets = &B; o.target_count = 1; o.path = path; o.path_capacity = n; o.path_length = &plen;
        o.delta = (float)qdelta;
        TIME(CK(gs, dg_sssp(gs, A, fbuf, &o)));
        add_row("sssp", "to B, dist + path", "device", t, (int)reps, (double)plen);
        TIME(CK(gs, dg_sssp(gs, A, NULL, &o)));
        add_row("sssp", "to B, path only", "device", t, (int)reps, (double)plen);
        sssp_note(gs, A, &o, "sssp to B, path only");
        memset(&o, 0, sizeof o);
        o.local_rounds = (int)qrounds;
        o.sources = ex; o.source_count = (size_t)exits;
        TIME(CK(gs, dg_sssp(gs, -1, fbuf, &o)));
        add_row("sssp", "field from the exits", "device", t, (int)reps, 0);
        TIME((void)host_dijkstra(off, col, wcol, n, A, -1, fbuf, heap));
        add_row("sssp", "full", "host C", t, (int)reps, 0);
        TIME(hd = host_dijkstra(off, col, wcol, n, A, B, fbuf, heap));
        add_row("sssp", "to B", "host C", t, (int)reps, (double)hd);
        for (i = 0; i + 1 < plen; i++) {   /* the device's path weighs the host's distance */
            uint32_t kk;
            for (kk = off[path[i]]; kk < off[path[i] + 1] && col[kk] != path[i + 1]; kk++) {}
            if (kk == off[path[i] + 1]) { fail("sssp path step %d -> %d is no edge", (int)path[i], (int)path[i + 1]); break; }
            pw += wcol[kk];
        }
        if (path[0] != A || path[plen - 1] != B || pw != (double)hd)
            fail("sssp path weighs %g, host distance %g", pw, (double)hd);
    }
#undef TIME
    printf("# bench_path: %s\n\ngrid %ld x %ld (%zu vertices, %zu edges, undirected), A = %d, B = %d (%ld steps), "
           "%ld exits, median of %ld runs; SSSP queries to B with delta %g (0: automatic)\n\n", devname, side, side,
           n, m, (int)A, (int)B, apart, exits, reps, qdelta);
    printf("| algorithm | query | where | ms | vs full (same where) | path / distance |\n|---|---|---|---:|---:|---:|\n");
    for (k = 0; k < nrows; k++) {
        double full = 0;
        int j;
        for (j = 0; j < nrows; j++)
            if (!strcmp(rows[j].algo, rows[k].algo) && !strcmp(rows[j].where, rows[k].where) && !strcmp(rows[j].query, "full"))
                full = rows[j].ms;
        char x[32] = "";
        if (rows[k].extra) snprintf(x, sizeof x, "%.0f", rows[k].extra);
        printf("| %s | %s | %s | %.3f | %.1f%% | %s |\n", rows[k].algo, rows[k].query, rows[k].where, rows[k].ms,
               full > 0 ? 100.0 * rows[k].ms / full : 0.0, x);
    }
    if (csv) {
        FILE *f = fopen(csv, "w");
        if (!f) die("cannot write the CSV");
        fprintf(f, "device,side,apart,exits,algorithm,query,where,ms\n");
        for (k = 0; k < nrows; k++)
            fprintf(f, "\"%s\",%ld,%ld,%ld,%s,\"%s\",%s,%.4f\n", devname, side, apart, exits, rows[k].algo,
                    rows[k].query, rows[k].where, rows[k].ms);
        fclose(f);
    }
    dg_destroy(gb); dg_destroy(gs);
    free(e); free(off); free(col); free(wcol); free(ibuf); free(q); free(fbuf); free(heap); free(path); free(t); free(ex);
    return report_end();
}
