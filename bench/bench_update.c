/* bench_update.c - how fast the graph changes: batches of k edge insertions, removals and mixes
   applied with dg_add_edges / dg_remove_edges (issue "Updates at GPU speed").

   Build:  make bench   (or: cc -O2 -I. bench/bench_update.c -o build/bench_update -lOpenCL -lm)
   Run:    build/bench_update [--scale S] [--graphs kron,uniform] [--ks 1,10,...] [--reps R]
                              [--csv FILE] [--svg FILE] [--seed N]

   The graph (undirected, Graph500 Kronecker or uniform, 16 tuples per vertex) is loaded once;
   then, for each k, R repetitions of each scenario, every one leaving the graph as it found it:
   - delete: k present edges drawn from the input tuples (so hubs are hit), one dg_remove_edges;
   - reinsert: the same k edges added back, one dg_add_edges (they are absent again: new edges);
   - insert: k uniform random new edges (absent), one dg_add_edges (removed again, untimed);
   - mixed: k/2 removals of present edges, then k/2 insertions of absent ones, one call each.
   Times are host wall clock of the calls (the graph's host store; the device is not touched),
   medians over the repetitions; rates are edges per second. After every scenario the edge count
   is checked against the model, and dg_validate runs on the graph at the end of each k.

   Output: a Markdown table, CSV (--csv), and an SVG plot of edges/s against k, log-log
   (--svg, default build/bench_update.svg).
   --path device: the batches through dg_add_edges_cl / dg_remove_edges_cl, one after another as
   an application would make them: the pages a batch writes stay the device's (stale on the
   host) until a host call needs them (the next batch's room, dg_has_edge while drawing absent
   edges, dg_validate at the end of each k). --fresh instead reads every such page back after
   each timed batch, untimed (dg_get_stats; what this benchmark did before 2026-11-28: it hid
   the read-backs a steady stream of batches pays), and only then notes the pages a device batch
   laid out again to make room (dg_stats.batch_room_pages, averaged). --no-validate skips the
   dg_validate after each k (it sorts every arc on the host: tens of seconds at scale 22).
   --compact PERCENT (with --churn): dg_compact after a round whose fill ratio is below PERCENT / 100.
   --churn R instead: R rounds of 10% of the edges removed and 10% new ones added, and after
   each the device memory of the mirror against a CSR of the same graph. */
#define DYNGRAPH_IMPLEMENTATION
#include "../dyngraph.h"
#define BENCH_NAME "bench_update"
#include "bench_common.h"

#define MAX_KS 16
#define NSCEN 4
static const char *const SCEN[NSCEN] = { "delete", "reinsert", "insert", "mixed" };

typedef struct row { int gi; long k; int sc; double ms, rate; } row;

static row g_rows[2 * MAX_KS * NSCEN];
static int g_nrows;

/* k distinct present edges drawn from the input tuples e[0..m) (self-loops skipped). */
static size_t draw_present(rng *r, const dg_edge *e, size_t m, size_t k, uint64_t *set, size_t cap,
                           dg_edge *out)
{
    size_t n = 0, tries = 0;
    while (n < k && tries < 50 * k + 1000) {
        const dg_edge *x = &e[rng_below(r, m)];
        dg_vertex a = x->src < x->dst ? x->src : x->dst, b = x->src < x->dst ? x->dst : x->src;
        tries++;
        if (a == b || !set_insert(set, cap, ekey(a, b))) continue;
        out[n].src = x->src; out[n].dst = x->dst; out[n].weight = 1.0f;
        n++;
    }
    return n;
}

/* The input's edges as sorted keys ekey(lo, hi) (self-loops and repeats out): the graph's edges
   whenever a scenario begins (each leaves the graph as it found it). */
static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}
static uint64_t *input_keys(const dg_edge *e, size_t m, size_t *nk)
{
    uint64_t *k = (uint64_t *)xmalloc((m + 1) * sizeof *k);
    size_t i, n = 0, u = 0;
    for (i = 0; i < m; i++)
        if (e[i].src != e[i].dst)
            k[n++] = e[i].src < e[i].dst ? ekey(e[i].src, e[i].dst) : ekey(e[i].dst, e[i].src);
    qsort(k, n, sizeof *k, cmp_u64);
    for (i = 0; i < n; i++) if (i == 0 || k[i] != k[i - 1]) k[u++] = k[i];
    *nk = u;
    return k;
}
static int has_key(const uint64_t *k, size_t n, uint64_t x)
{
    size_t lo = 0, hi = n;
    while (lo < hi) { size_t mid = lo + (hi - lo) / 2; if (k[mid] < x) lo = mid + 1; else hi = mid; }
    return lo < n && k[lo] == x;
}

/* k distinct uniform random edges absent from graph g: checked against keys[0..nkeys) (the
   graph's edges, so that drawing reads nothing back from the device) or, keys NULL, with
   dg_has_edge. */
static size_t draw_absent(rng *r, dg_graph *g, const uint64_t *keys, size_t nkeys, size_t nv, size_t k, uint64_t *set,
                          size_t cap, dg_edge *out)
{
    size_t n = 0;
    while (n < k) {
        dg_vertex a = (dg_vertex)rng_below(r, nv), b = (dg_vertex)rng_below(r, nv), lo, hi;
        lo = a < b ? a : b; hi = a < b ? b : a;
        if (a == b || (keys ? has_key(keys, nkeys, ekey(lo, hi)) : dg_has_edge(g, a, b)) ||
            !set_insert(set, cap, ekey(lo, hi)))
            continue;
        out[n].src = a; out[n].dst = b; out[n].weight = 1.0f;
        n++;
    }
    return n;
}

static int g_device;                 /* --path device: the batches go through dg_*_edges_cl */
static int g_no_validate;            /* --no-validate: no dg_validate after each k (it sorts every arc
                                        on the host: tens of seconds at scale 22) */
static int g_fresh;                  /* --fresh: dg_get_stats after each timed device batch (untimed),
                                        which reads every page the batch wrote back to the host */
static double g_room_sum;            /* device path: pages laid out again to make room, summed */
static int g_room_n;                 /* over this many batches */

/* The batch e[0..n) in a new device buffer, written there before it returns. (A buffer made
   with CL_MEM_COPY_HOST_PTR is not: NVIDIA's driver sends its bytes at the first kernel that
   reads it, which timed the upload of the batch as part of the call, ~1.6 ms for 1M edges.) */
static cl_mem device_batch(dg_graph *g, const dg_edge *e, size_t n)
{
    cl_int err;
    cl_mem b = clCreateBuffer(dg_cl_context(g), CL_MEM_READ_ONLY, (n ? n : 1) * sizeof(dg_edge), NULL, &err);
    if (err != CL_SUCCESS) die("clCreateBuffer");
    if (n && clEnqueueWriteBuffer(dg_cl_queue(g), b, CL_TRUE, 0, n * sizeof(dg_edge), e, 0, NULL, NULL) != CL_SUCCESS)
        die("clEnqueueWriteBuffer");
    clFinish(dg_cl_queue(g));
    return b;
}

/* A batch: dg_add_edges / dg_remove_edges on the host; on the device, the edges are first put
   in a device buffer (untimed: "a batch already on the device"), then dg_add_edges_cl /
   dg_remove_edges_cl, which return once the graph is updated and synced. */
static dg_status batch_call(dg_graph *g, int add, const dg_edge *e, size_t n, size_t *changed)
{
    cl_mem b;
    dg_status st;
    if (!g_device) return add ? dg_add_edges(g, e, n, changed) : dg_remove_edges(g, e, n, changed);
    b = device_batch(g, e, n);
    st = add ? dg_add_edges_cl(g, b, n, changed) : dg_remove_edges_cl(g, b, n, changed);
    clReleaseMemObject(b);
    return st;
}
/* One dg_add_edges (add = 1) or dg_remove_edges call over e[0..n), timed (ms); it must change
   exactly `want` edges. */
static double timed_call(dg_graph *g, int add, const dg_edge *e, size_t n, size_t want)
{
    size_t changed = 0;
    double t0;
    cl_mem b = NULL;
    if (g_device) {
        b = device_batch(g, e, n);
    }
    t0 = now_s();
    if (g_device) CK(g, add ? dg_add_edges_cl(g, b, n, &changed) : dg_remove_edges_cl(g, b, n, &changed));
    else CK(g, add ? dg_add_edges(g, e, n, &changed) : dg_remove_edges(g, e, n, &changed));
    t0 = now_s() - t0;
    if (b) {
        dg_stats s;
        clReleaseMemObject(b);
        if (g_fresh && dg_get_stats(g, &s) == DG_OK && s.batch_arcs_device) {
            g_room_n++;
            g_room_sum += (double)s.batch_room_pages;
        }
    }
    if (changed != want) fail("%s changed %zu of %zu edges", add ? "dg_add_edges" : "dg_remove_edges", changed, want);
    return t0 * 1e3;
}

/* The mixed scenario: nr removals, then na insertions, one call each, timed together (on the
   device, both batches put in device buffers first, as for the other scenarios; until
   2026-11-28 their uploads were timed here: ~3 ms of a 1M-edge mix on the H200 machine). */
static double timed_mixed(dg_graph *g, const dg_edge *rm, size_t nr, const dg_edge *ad, size_t na)
{
    cl_mem b0 = NULL, b1 = NULL;
    size_t removed = 0, added = 0;
    double t0;
    if (g_device) { b0 = device_batch(g, rm, nr); b1 = device_batch(g, ad, na); }
    t0 = now_s();
    if (g_device) { CK(g, dg_remove_edges_cl(g, b0, nr, &removed)); CK(g, dg_add_edges_cl(g, b1, na, &added)); }
    else { CK(g, dg_remove_edges(g, rm, nr, &removed)); CK(g, dg_add_edges(g, ad, na, &added)); }
    t0 = now_s() - t0;
    if (b0) clReleaseMemObject(b0);
    if (b1) clReleaseMemObject(b1);
    if (removed != nr || added != na) fail("mixed: %zu of %zu edges removed, %zu of %zu added", removed, nr, added, na);
    return t0 * 1e3;
}

static void svg_write(const char *path, const char *title)
{
    FILE *f = fopen(path, "w");
    const int W = 760, H = 480, L = 80, R = 170, T = 40, B = 60;
    static const char *const colors[NSCEN] = { "#d62728", "#1f77b4", "#2ca02c", "#9467bd" };
    double xmin = 1e300, xmax = 0, ymin = 1e300, ymax = 0;
    int i, gi, sc, d;
    if (!f) { note("cannot write %s", path); return; }
    for (i = 0; i < g_nrows; i++) {
        double x = (double)g_rows[i].k, y = g_rows[i].rate;
        if (y <= 0) continue;
        if (x < xmin) xmin = x;
        if (x > xmax) xmax = x;
        if (y < ymin) ymin = y;
        if (y > ymax) ymax = y;
    }
    if (xmax <= 0) { fclose(f); return; }
    xmin = floor(log10(xmin)); xmax = ceil(log10(xmax)); if (xmax <= xmin) xmax = xmin + 1;
    ymin = floor(log10(ymin)); ymax = ceil(log10(ymax)); if (ymax <= ymin) ymax = ymin + 1;
    fprintf(f, "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' font-family='sans-serif' font-size='12'>\n", W, H);
    fprintf(f, "<rect width='100%%' height='100%%' fill='white'/>\n");
    fprintf(f, "<text x='%d' y='22' font-size='14'>%s</text>\n", L, title);
    for (d = (int)xmin; d <= (int)xmax; d++) {
        double x = L + (d - xmin) / (xmax - xmin) * (W - L - R);
        fprintf(f, "<line x1='%.1f' y1='%d' x2='%.1f' y2='%d' stroke='#ddd'/><text x='%.1f' y='%d' text-anchor='middle'>1e%d</text>\n",
                x, T, x, H - B, x, H - B + 18, d);
    }
    for (d = (int)ymin; d <= (int)ymax; d++) {
        double y = H - B - (d - ymin) / (ymax - ymin) * (H - T - B);
        fprintf(f, "<line x1='%d' y1='%.1f' x2='%d' y2='%.1f' stroke='#ddd'/><text x='%d' y='%.1f' text-anchor='end'>1e%d</text>\n",
                L, y, W - R, y, L - 6, y + 4, d);
    }
    fprintf(f, "<text x='%d' y='%d' text-anchor='middle'>k (edges per batch)</text>\n", (L + W - R) / 2, H - 18);
    fprintf(f, "<text x='18' y='%d' transform='rotate(-90 18 %d)' text-anchor='middle'>edges/s</text>\n", (T + H - B) / 2, (T + H - B) / 2);
    for (gi = 0; gi < 2; gi++)
        for (sc = 0; sc < NSCEN; sc++) {
            int first = 1, any = 0;
            for (i = 0; i < g_nrows; i++) {
                double x, y;
                if (g_rows[i].gi != gi || g_rows[i].sc != sc || g_rows[i].rate <= 0) continue;
                x = L + (log10((double)g_rows[i].k) - xmin) / (xmax - xmin) * (W - L - R);
                y = H - B - (log10(g_rows[i].rate) - ymin) / (ymax - ymin) * (H - T - B);
                if (first) fprintf(f, "<polyline fill='none' stroke='%s' stroke-width='2'%s points='", colors[sc],
                                   gi ? " stroke-dasharray='6 4'" : "");
                fprintf(f, "%.1f,%.1f ", x, y);
                first = 0; any = 1;
            }
            if (any) {
                int ly = T + 10 + (gi * NSCEN + sc) * 18;
                fprintf(f, "'/>\n<line x1='%d' y1='%d' x2='%d' y2='%d' stroke='%s' stroke-width='2'%s/>"
                        "<text x='%d' y='%d'>%s %s</text>\n", W - R + 10, ly, W - R + 40, ly, colors[sc],
                        gi ? " stroke-dasharray='6 4'" : "", W - R + 46, ly + 4, GRAPH_NAMES[gi], SCEN[sc]);
            }
        }
    fprintf(f, "</svg>\n");
    fclose(f);
}

/* --churn R: R rounds of 10% of the edges removed (drawn among the present ones) and as many
   new ones added, one batch call each (the device path with --path device); after each round
   the mirror's device bytes (device_bytes less the modules' scratch) against a CSR of the same
   graph: 4 (n + 1) + 4 x arcs bytes (issue 14: <= 1.5x). */
static double g_compact;             /* --compact F: dg_compact after a churn round whose fill is below F */
static void churn(dg_graph *g, size_t nv, int rounds, rng *r, const char *name)
{
    int64_t *off = (int64_t *)xmalloc((nv + 1) * sizeof *off);
    int round;
    md_header(stdout, "graph|round|edges|pages|free pages|fill|mirror MB|modules MB|CSR MB|mirror / CSR|all / CSR|"
                      "compact ms|released");
    for (round = 0; round <= rounds; round++) {
        dg_stats st;
        double csr, mir, cms;
        size_t rel;
        if (round > 0) {
            size_t m = 0, k, i, v, cap = 1, na;
            dg_vertex *t;
            dg_edge *rm, *add;
            uint64_t *set;
            CK(g, dg_export_csr(g, off, NULL, NULL));
            t = (dg_vertex *)xmalloc(((size_t)off[nv] + 1) * sizeof *t);
            CK(g, dg_export_csr(g, off, t, NULL));
            rm = (dg_edge *)xmalloc(((size_t)off[nv] / 2 + 1) * sizeof *rm);
            for (v = 0; v < nv; v++)                 /* each edge once */
                for (i = (size_t)off[v]; i < (size_t)off[v + 1]; i++)
                    if ((dg_vertex)v < t[i]) { rm[m].src = (dg_vertex)v; rm[m].dst = t[i]; rm[m].weight = 1.0f; m++; }
            k = m / 10;
            for (i = 0; i < k; i++) { size_t j = i + (size_t)rng_below(r, m - i); dg_edge x = rm[i]; rm[i] = rm[j]; rm[j] = x; }
            CK(g, batch_call(g, 0, rm, k, NULL));
            while (cap < 4 * k + 16) cap <<= 1;
            set = (uint64_t *)xmalloc(cap * sizeof *set);
            memset(set, 0, cap * sizeof *set);
            add = (dg_edge *)xmalloc((k + 1) * sizeof *add);
            na = draw_absent(r, g, NULL, 0, nv, k, set, cap, add);
            CK(g, batch_call(g, 1, add, na, NULL));
            free(t); free(rm); free(add); free(set);
        }
        CK(g, dg_get_stats(g, &st));
        cms = -1; rel = 0;
        if (round > 0 && st.fill_ratio < g_compact) {
            cms = now_s();
            CK(g, dg_compact(g, &rel));
            CK(g, dg_sync(g));
            cms = (now_s() - cms) * 1e3;
        }
        CK(g, dg_sync(g));
        CK(g, dg_get_stats(g, &st));
        csr = 4.0 * (double)(nv + 1) + 4.0 * (double)st.arcs;
        mir = (double)(st.device_bytes - st.module_bytes);
        printf("| %s | %d | %zu | %zu | %zu | %.3f | %.1f | %.1f | %.1f | %.2f | %.2f | %.1f | %zu |\n", name, round, st.edges,
               st.pages, st.free_pages, st.fill_ratio, mir / 1e6, (double)st.module_bytes / 1e6, csr / 1e6, mir / csr,
               (double)st.device_bytes / csr, cms, rel);
        fflush(stdout);
    }
    if (dg_validate(g) != DG_OK) fail("dg_validate after the churn: %s", dg_error_message(g));
    free(off);
}

int main(int argc, char **argv)
{
    int scale = 20, reps = 5, nks = 0, gi, ki, graphs[2] = { 1, 1 }, i, churn_rounds = 0;
    long ks[MAX_KS];
    uint64_t seed = 1;
    const char *csv = NULL, *svg = "build/bench_update.svg";
    FILE *cf = NULL;
    uint64_t *keys = NULL;   /* the input's edges (draw_absent) */
    size_t nkeys = 0;
    char title[256];
    for (i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--scale")) { scale = (int)parse_long(v, a, 4, 28); i++; }
        else if (!strcmp(a, "--reps")) { reps = (int)parse_long(v, a, 1, 1000); i++; }
        else if (!strcmp(a, "--seed")) { seed = (uint64_t)parse_long(v, a, 0, 0x7fffffffL); i++; }
        else if (!strcmp(a, "--ks")) { nks = parse_list(v, a, ks, MAX_KS, 1, 100000000L); i++; }
        else if (!strcmp(a, "--csv")) { csv = v; i++; }
        else if (!strcmp(a, "--svg")) { svg = v; i++; }
        else if (!strcmp(a, "--path")) { g_device = v && !strcmp(v, "device"); i++; }
        else if (!strcmp(a, "--churn")) { churn_rounds = (int)parse_long(v, a, 1, 1000); i++; }
        else if (!strcmp(a, "--fresh")) g_fresh = 1;
        else if (!strcmp(a, "--no-validate")) g_no_validate = 1;
        else if (!strcmp(a, "--compact")) { g_compact = (double)parse_long(v, a, 0, 100) / 100.0; i++; }
        else if (!strcmp(a, "--graphs")) {
            graphs[0] = v && strstr(v, "kron") != NULL;
            graphs[1] = v && strstr(v, "uniform") != NULL;
            i++;
        } else {
            fprintf(stderr, "usage: bench_update [--scale S] [--graphs kron,uniform] [--ks 1,10,...] [--reps R]\n"
                            "                    [--csv FILE] [--svg FILE] [--seed N] [--path host|device] [--fresh] [--no-validate] [--churn R]\n"
                            "                    [--compact PERCENT]\n");
            return 2;
        }
    }
    if (nks == 0) {
        long k = 1;
        for (; k <= 1000000 && nks < MAX_KS; k *= 10) ks[nks++] = k;
    }
    if (g_device) {                          /* the device's name for the header */
        dg_graph *g0;
        dg_desc d0;
        memset(&d0, 0, sizeof d0);
        CK(NULL, dg_create(&d0, &g0));
        if (!dg_cl_queue(g0)) die(dg_error_message(g0));
        snprintf(title, sizeof title, "%s", dg_device_name(g0));
        dg_destroy(g0);
    }
    report_begin("update", g_device ? title : NULL, "dyngraph");
    printf("- %s path: %s%s, undirected graphs, scale %d, 16 tuples per vertex; median of %d repetitions\n\n",
           g_device ? "device" : "host", g_device ? "dg_add_edges_cl / dg_remove_edges_cl, the batch already in device "
           "memory, timed until the graph is updated and synced" : "dg_add_edges / dg_remove_edges on the host store",
           !g_device ? "" : g_fresh ? "; every page a batch wrote read back after it, untimed (--fresh)"
                                    : "; batch after batch, the pages they wrote left to the device",
           scale, reps);
    if (csv && !(cf = fopen(csv, "w"))) die("cannot open the CSV file");
    if (cf) fprintf(cf, "graph,scale,n,m,k,scenario,path,median_ms,edges_per_s\n");
    md_header(stdout, "graph|n|m|k|scenario|path|median ms|M edges/s");
    for (gi = 0; gi < 2; gi++) {
        size_t nv, m, cap;
        dg_edge *e, *batch, *batch2;
        uint64_t *set;
        dg_graph *g;
        dg_desc desc;
        rng r;
        double t0;
        if (!graphs[gi]) continue;
        e = gen_graph(gi, scale, graph_seed(seed, gi, scale), &nv, &m);
        memset(&desc, 0, sizeof desc);
        desc.undirected = 1;
        CK(NULL, dg_create(&desc, &g));
        CK(g, dg_add_vertices(g, nv, NULL));
        t0 = now_s();
        CK(g, dg_add_edges(g, e, m, NULL));          /* on the host: no device yet */
        if (g_device) CK(g, dg_sync(g));
        note("%s scale %d: %zu vertices, %zu tuples, %zu edges stored, loaded in %.2f s", GRAPH_NAMES[gi], scale,
             nv, m, dg_edge_count(g), now_s() - t0);
        if (g_device) note("device path on %s", dg_device_name(g));
        rng_seed(&r, seed * 7919u + (uint64_t)gi);
        if (churn_rounds) {                       /* memory under churn, nothing else */
            churn(g, nv, churn_rounds, &r, GRAPH_NAMES[gi]);
            dg_destroy(g);
            free(e);
            continue;
        }
        keys = input_keys(e, m, &nkeys);
        for (ki = 0; ki < nks; ki++) {
            size_t k = (size_t)ks[ki], sc;
            double t[NSCEN][64];
            size_t m0 = dg_edge_count(g);
            int rep;
            if (k > m0 / 4) { note("k = %zu skipped (more than a quarter of the edges)", k); continue; }
            cap = 1;
            while (cap < 4 * k + 16) cap <<= 1;
            set = (uint64_t *)xmalloc(cap * sizeof *set);
            batch = (dg_edge *)xmalloc(k * sizeof *batch);
            batch2 = (dg_edge *)xmalloc(k * sizeof *batch2);
            for (rep = 0; rep < reps && rep < 64; rep++) {
                size_t np, na, h = k / 2;
                memset(set, 0, cap * sizeof *set);
                np = draw_present(&r, e, m, k, set, cap, batch);
                t[0][rep] = timed_call(g, 0, batch, np, np);
                t[1][rep] = timed_call(g, 1, batch, np, np);
                memset(set, 0, cap * sizeof *set);
                na = draw_absent(&r, g, keys, nkeys, nv, k, set, cap, batch2);
                t[2][rep] = timed_call(g, 1, batch2, na, na);
                timed_call(g, 0, batch2, na, na);
                /* mixed: half present removed, half absent added; then undone (untimed) */
                memset(set, 0, cap * sizeof *set);
                np = draw_present(&r, e, m, h ? h : 1, set, cap, batch);
                na = draw_absent(&r, g, keys, nkeys, nv, k - np ? k - np : 1, set, cap, batch2);
                t[3][rep] = timed_mixed(g, batch, np, batch2, na);
                CK(g, batch_call(g, 0, batch2, na, NULL));
                CK(g, batch_call(g, 1, batch, np, NULL));
                if (dg_edge_count(g) != m0) fail("%s k=%zu: %zu edges after the round, %zu before", GRAPH_NAMES[gi], k,
                                                 dg_edge_count(g), m0);
            }
            for (sc = 0; sc < NSCEN; sc++) {
                double ms = median(t[sc], reps < 64 ? reps : 64), rate = ms > 0 ? (double)k / (ms * 1e-3) : 0;
                row *w = &g_rows[g_nrows++];
                w->gi = gi; w->k = (long)k; w->sc = (int)sc; w->ms = ms; w->rate = rate;
                printf("| %s | %zu | %zu | %zu | %s | %s | %.4f | %.3f |\n", GRAPH_NAMES[gi], nv, m0, k, SCEN[sc],
                       g_device ? "device" : "host", ms, rate / 1e6);
                if (cf) fprintf(cf, "%s,%d,%zu,%zu,%zu,%s,%s,%.6f,%.1f\n", GRAPH_NAMES[gi], scale, nv, m0, k,
                                SCEN[sc], g_device ? "device" : "host", ms, rate);
            }
            if (g_room_n) {
                note("k = %zu: %.0f pages a device batch laid out again to make room", k, g_room_sum / g_room_n);
                g_room_n = 0; g_room_sum = 0;
            }
            fflush(stdout);
            if (!g_no_validate) {
                dg_status vs = dg_validate(g);
                if (vs != DG_OK) fail("dg_validate after k = %zu: %s", k, dg_error_message(g));
            }
            free(set); free(batch); free(batch2);
        }
        free(keys);
        dg_destroy(g);
        free(e);
    }
    if (cf) fclose(cf);
    snprintf(title, sizeof title, "dyngraph updates, %s path, scale %d (solid: kron, dashed: uniform)",
             g_device ? "device" : "host", scale);
    if (svg) { svg_write(svg, title); note("plot: %s", svg); }
    return report_end();
}
