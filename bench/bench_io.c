/* bench_io.c - saving and loading: how fast, and how much memory loading takes.

   A Kronecker graph (Graph500 generator, --scale S, 16 tuples per vertex) is built once,
   undirected and unweighted (--weighted: integer weights 1..255), and saved as an edge list
   and as a snapshot under --dir. Then, each --reps times (medians reported):
     save         dg_save in each format (edge list, snapshot)
     load         dg_load of that file into an empty graph (warm: the file was just written and
                  read, so it is in the page cache), MB/s of file bytes, M edges/s
   and, for each load, the peak memory during the call against the graph's host bytes at the
   end (dg_get_stats host_bytes), two ways: the library's own host allocations (through
   dg_desc.allocator, which sees every byte; the library then emulates realloc by allocating,
   copying and freeing, so a growing pool counts twice), and, on Linux, the process's resident
   set (its high-water mark reset before the load through /proc/self/clear_refs, less the
   resident set before it) in a second load with the C library's allocator, which grows the
   pools in place where it can. The loaded graph is checked to have the edges of the original.
   The peer: GAP's reader on the same edge list, and its own binary format (.sg, made by GAP's
   converter), measured in the same command by bench/io_peers.sh (GAP prints "Read Time").

   Usage: bench_io [--scale S] [--reps R] [--weighted] [--dir DIR] [--csv FILE]
   Host only: no device is used. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE     /* and madvise: the library offers its large arrays huge pages */
#define DYNGRAPH_IMPLEMENTATION
#include "dyngraph.h"
#define BENCH_NAME "bench_io"
#include "bench_common.h"
#include <sys/stat.h>

/* the counting allocator: a 16-byte header holds each block's size */
static size_t cur_bytes, peak_bytes;
static void *count_alloc(size_t n, void *u)
{
    unsigned char *p = (unsigned char *)malloc(n + 16);
    (void)u;
    if (!p) return NULL;
    memcpy(p, &n, sizeof n);
    cur_bytes += n;
    if (cur_bytes > peak_bytes) peak_bytes = cur_bytes;
    return p + 16;
}
static void count_free(void *q, void *u)
{
    size_t n;
    (void)u;
    if (!q) return;
    memcpy(&n, (unsigned char *)q - 16, sizeof n);
    cur_bytes -= n;
    free((unsigned char *)q - 16);
}

static dg_graph *new_graph(int weighted)
{
    dg_graph *g = NULL;
    dg_desc d;
    memset(&d, 0, sizeof d);
    d.undirected = 1;
    d.weighted = weighted;
    d.allocator.alloc_fn = count_alloc;
    d.allocator.free_fn = count_free;
    CK(NULL, dg_create(&d, &g));
    return g;
}
/* the process's resident set (VmRSS) or its high-water mark (VmHWM), MB; -1 where unknown */
static double proc_mb(const char *field)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    double v = -1;
    size_t k = strlen(field);
    if (!f) return -1;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, field, k) && line[k] == ':') { v = atof(line + k + 1) / 1000.0; break; }
    fclose(f);
    return v;
}
static int reset_hwm(void)
{
    FILE *f = fopen("/proc/self/clear_refs", "w");
    int ok = f && fputs("5", f) >= 0;
    if (f && fclose(f) != 0) ok = 0;
    return ok;
}
static double file_mb(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (double)st.st_size / 1e6 : 0;
}

int main(int argc, char **argv)
{
    long scale = 20, reps = 3;
    int weighted = 0, a, f, r;
    const char *dir = "build", *csv = NULL;
    static const dg_format fmts[] = { DG_FORMAT_EDGE_LIST, DG_FORMAT_SNAPSHOT };
    static const char *const fname[] = { "edge list", "snapshot" }, *const ext[] = { "el", "dgs" };
    char path[2][1024];
    size_t n, m, i;
    dg_edge *e;
    dg_graph *g;
    dg_stats s0;
    double *ts = NULL, *tl = NULL, res[2][6];
    for (a = 1; a < argc; a++) {
        const char *v = a + 1 < argc ? argv[a + 1] : NULL;
        if (!strcmp(argv[a], "--scale") && v) { scale = parse_long(v, "--scale", 8, 28); a++; }
        else if (!strcmp(argv[a], "--reps") && v) { reps = parse_long(v, "--reps", 1, 100); a++; }
        else if (!strcmp(argv[a], "--weighted")) weighted = 1;
        else if (!strcmp(argv[a], "--dir") && v) { dir = v; a++; }
        else if (!strcmp(argv[a], "--csv") && v) { csv = v; a++; }
        else { fprintf(stderr, "usage: bench_io [--scale S] [--reps R] [--weighted] [--dir DIR] [--csv FILE]\n"); return 2; }
    }
    ts = (double *)xmalloc((size_t)reps * sizeof *ts);
    tl = (double *)xmalloc((size_t)reps * sizeof *tl);
    n = (size_t)1 << scale;
    e = gen_kronecker((int)scale, 16 * n, 20261125);
    m = 16 * n;
    if (weighted) set_weights(e, m, 7, 0);
    g = new_graph(weighted);
    CK(g, dg_add_vertices(g, n, NULL));
    CK(g, dg_add_edges(g, e, m, NULL));
    free(e);
    CK(g, dg_get_stats(g, &s0));
    fprintf(stderr, "bench_io: built scale %ld: %zu vertices, %zu edges\n", scale, dg_vertex_count(g), dg_edge_count(g));
    for (f = 0; f < 2; f++) {
        snprintf(path[f], sizeof path[f], "%s/bench_io_s%ld%s.%s", dir, scale, weighted ? "w" : "", ext[f]);
        for (r = 0; r < reps; r++) {
            double t0 = now_s();
            CK(g, dg_save(g, path[f], fmts[f]));
            ts[r] = now_s() - t0;
        }
        res[f][0] = median(ts, (int)reps);
        res[f][1] = file_mb(path[f]);
        {   /* warm the page cache: read the file once */
            FILE *fp = fopen(path[f], "rb");
            static char buf[1 << 16];
            if (fp) { while (fread(buf, 1, sizeof buf, fp) == sizeof buf) {} fclose(fp); }
        }
        for (r = 0; r < reps; r++) {
            dg_graph *h = new_graph(weighted);
            dg_stats sh;
            size_t base = cur_bytes;
            double t0;
            peak_bytes = cur_bytes;
            t0 = now_s();
            CK(h, dg_load(h, path[f], fmts[f]));
            tl[r] = now_s() - t0;
            CK(h, dg_get_stats(h, &sh));
            if (dg_edge_count(h) != dg_edge_count(g) || dg_vertex_count(h) != dg_vertex_count(g))
                fail("%s: loaded %zu vertices, %zu edges; saved %zu, %zu", fname[f], dg_vertex_count(h), dg_edge_count(h),
                     dg_vertex_count(g), dg_edge_count(g));
            res[f][3] = (double)(peak_bytes - base) / 1e6;
            res[f][4] = (double)sh.host_bytes / 1e6;
            dg_destroy(h);
        }
        res[f][2] = median(tl, (int)reps);
        res[f][5] = -1;
        {   /* once more with the C library's allocator: the resident set's peak */
            dg_graph *h = NULL;
            dg_desc d;
            double before;
            memset(&d, 0, sizeof d);
            d.undirected = 1;
            d.weighted = weighted;
            CK(NULL, dg_create(&d, &h));
            before = proc_mb("VmRSS");
            if (before >= 0 && reset_hwm()) {
                CK(h, dg_load(h, path[f], fmts[f]));
                res[f][5] = proc_mb("VmHWM") - before;
            }
            dg_destroy(h);
        }
        remove(path[f]);
    }
    printf("# bench_io: Kronecker scale %ld, %zu vertices, %zu edges (undirected%s), median of %ld\n\n", scale,
           dg_vertex_count(g), dg_edge_count(g), weighted ? ", weighted" : "", reps);
    printf("| format | file MB | save s | save MB/s | load s | load MB/s | load M edges/s | final host MB | "
           "allocations' peak MB | / final | resident peak MB | / final |\n");
    printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (f = 0; f < 2; f++)
        printf("| %s | %.1f | %.3f | %.0f | %.3f | %.0f | %.1f | %.1f | %.1f | %.2f | %.1f | %.2f |\n", fname[f], res[f][1],
               res[f][0], res[f][1] / res[f][0], res[f][2], res[f][1] / res[f][2], (double)dg_edge_count(g) / res[f][2] / 1e6,
               res[f][4], res[f][3], res[f][3] / res[f][4], res[f][5], res[f][5] / res[f][4]);
    if (csv) {
        FILE *c = fopen(csv, "w");
        if (!c) die("cannot write the CSV");
        fprintf(c, "scale,weighted,format,file_mb,save_s,load_s,alloc_peak_mb,final_mb,rss_peak_mb\n");
        for (f = 0; f < 2; f++)
            fprintf(c, "%ld,%d,%s,%.2f,%.4f,%.4f,%.2f,%.2f,%.2f\n", scale, weighted, ext[f], res[f][1], res[f][0], res[f][2],
                    res[f][3], res[f][4], res[f][5]);
        fclose(c);
    }
    (void)s0; (void)i;
    dg_destroy(g);
    free(ts); free(tl);
    return report_end();
}
