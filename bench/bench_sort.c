/* bench_sort.c - dg_sort_pairs: the device radix sort (32-bit keys, 32-bit values, 8 passes of
   4 bits), against the host's single-threaded LSD radix sort of the same pairs (11-bit digits,
   3 passes: the fastest simple CPU sort of 32-bit keys) and qsort.

   Usage: bench_sort [--sizes LIST] [--reps R] [--csv FILE] [--device TEXT] [--csr-scale S]
   --csr-scale S: also sort the arcs of an undirected Kronecker graph of scale S (16 tuples a
   vertex, both directions) by source, values the destinations: the sort that dominates
   rebuilding a CSR on the GPU from an edge list kept there (the static alternative to a
   dynamic graph; bench_update's host-path figures are the dynamic side).
   Prints a Markdown table (device, n, median ms, M pairs/s, GB/s of the 8 passes' reads and
   writes) and CSV. Checks every sorted result against the host sort (keys and values equal:
   both sorts are stable). */
#define DYNGRAPH_IMPLEMENTATION
#include "dyngraph.h"
#define BENCH_NAME "bench_sort"
#include "bench_common.h"

typedef struct pair32 { uint32_t k, v; } pair32;
static int cmp_pair(const void *a, const void *b)
{
    const pair32 *x = (const pair32 *)a, *y = (const pair32 *)b;
    if (x->k != y->k) return x->k < y->k ? -1 : 1;
    return x->v < y->v ? -1 : x->v > y->v;
}
/* stable LSD radix sort by k, 3 passes of 11 bits */
static pair32 *host_radix(pair32 *a, pair32 *t, size_t n)
{
    size_t cnt[2048], i, d;
    int pass;
    for (pass = 0; pass < 3; pass++) {
        unsigned shift = 11u * (unsigned)pass;
        size_t sum = 0;
        pair32 *x;
        memset(cnt, 0, sizeof cnt);
        for (i = 0; i < n; i++) cnt[(a[i].k >> shift) & 2047]++;
        for (d = 0; d < 2048; d++) { size_t c = cnt[d]; cnt[d] = sum; sum += c; }
        for (i = 0; i < n; i++) t[cnt[(a[i].k >> shift) & 2047]++] = a[i];
        x = a; a = t; t = x;
    }
    return a;
}

/* Median ms of `reps` dg_sort_pairs calls on n pairs after a warm-up call, the pairs (k, v)
   uploaded into mk, mv before each (not timed), clFinish timed. */
static double time_device_sort(dg_graph *g, cl_mem mk, cl_mem mv, const uint32_t *k, const uint32_t *v, size_t n,
                               int reps)
{
    double tm[100];
    int r;
    for (r = 0; r <= reps; r++) {          /* run 0: warm-up (program build, scratch) */
        double t0;
        cl_check(clEnqueueWriteBuffer(dg_cl_queue(g), mk, CL_TRUE, 0, n * 4, k, 0, NULL, NULL), "write");
        cl_check(clEnqueueWriteBuffer(dg_cl_queue(g), mv, CL_TRUE, 0, n * 4, v, 0, NULL, NULL), "write");
        t0 = now_s();
        if (dg_sort_pairs(g, mk, mv, n) != DG_OK) die_dg(g, "dg_sort_pairs", DG_ERR_OPENCL, __LINE__);
        cl_check(clFinish(dg_cl_queue(g)), "clFinish");
        if (r) tm[r - 1] = now_s() - t0;
    }
    return 1e3 * median(tm, reps);
}

int main(int argc, char **argv)
{
    long sizes[8] = { 1000000, 10000000, 100000000 };
    int nsizes = 3, reps = 5, a, si, r, csr_scale = 0;
    const char *csv_path = NULL, *device = NULL;
    FILE *csv = NULL;
    dg_graph *g = NULL;
    dg_desc d;
    for (a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--sizes") && a + 1 < argc) nsizes = parse_list(argv[++a], "--sizes", sizes, 8, 1, 500000000);
        else if (!strcmp(argv[a], "--reps") && a + 1 < argc) reps = (int)parse_long(argv[++a], "--reps", 1, 100);
        else if (!strcmp(argv[a], "--csv") && a + 1 < argc) csv_path = argv[++a];
        else if (!strcmp(argv[a], "--device") && a + 1 < argc) device = argv[++a];
        else if (!strcmp(argv[a], "--csr-scale") && a + 1 < argc) csr_scale = (int)parse_long(argv[++a], "--csr-scale", 4, 26);
        else { fprintf(stderr, "usage: bench_sort [--sizes LIST] [--reps R] [--csv FILE] [--device TEXT] [--csr-scale S]\n"); return 2; }
    }
    memset(&d, 0, sizeof d);
    d.device = device;
    if (dg_create(&d, &g) != DG_OK) die("dg_create");
    if (dg_sync(g) != DG_OK) die_dg(g, "dg_sync", DG_ERR_OPENCL, __LINE__);
    report_begin("device sort", dg_device_name(g), "the host radix sort and qsort");
    if (csv_path) {
        if (!(csv = fopen(csv_path, "w"))) { perror(csv_path); return 1; }
        fprintf(csv, "device,n,sort,median_ms,mpairs_s\n");
    }
    printf("\n");
    md_header(stdout, "n:|sort|median ms:|M pairs/s:|GB/s moved:");
    for (si = 0; si < nsizes; si++) {
        size_t n = (size_t)sizes[si], i, bad = 0;
        uint32_t *k = (uint32_t *)xmalloc(n * 4), *v = (uint32_t *)xmalloc(n * 4);
        pair32 *p = (pair32 *)xmalloc(n * sizeof(pair32)), *t = (pair32 *)xmalloc(n * sizeof(pair32)), *sorted = NULL;
        cl_mem mk, mv;
        cl_int e;
        double tm[100], ms_dev, ms_host, ms_q = 0;
        rng rg;
        rng_seed(&rg, 12345 + (uint64_t)n);
        for (i = 0; i < n; i++) { k[i] = (uint32_t)rng_next(&rg); v[i] = (uint32_t)i; }
        mk = clCreateBuffer(dg_cl_context(g), CL_MEM_READ_WRITE, n * 4, NULL, &e); cl_check(e, "clCreateBuffer");
        mv = clCreateBuffer(dg_cl_context(g), CL_MEM_READ_WRITE, n * 4, NULL, &e); cl_check(e, "clCreateBuffer");
        ms_dev = time_device_sort(g, mk, mv, k, v, n, reps);
        for (r = 0; r < 3 && r < reps; r++) {
            double t0;
            for (i = 0; i < n; i++) { p[i].k = k[i]; p[i].v = v[i]; }
            t0 = now_s();
            sorted = host_radix(p, t, n);
            tm[r] = now_s() - t0;
        }
        ms_host = 1e3 * median(tm, r);
        cl_check(clEnqueueReadBuffer(dg_cl_queue(g), mk, CL_TRUE, 0, n * 4, k, 0, NULL, NULL), "read");
        cl_check(clEnqueueReadBuffer(dg_cl_queue(g), mv, CL_TRUE, 0, n * 4, v, 0, NULL, NULL), "read");
        for (i = 0; i < n; i++) bad += k[i] != sorted[i].k || v[i] != sorted[i].v;
        if (bad) fail("n %zu: %zu pairs differ from the host sort", n, bad);
        if (n <= 10000000) {
            double t0;
            pair32 *q = sorted == p ? t : p;
            for (i = 0; i < n; i++) { q[i].k = (uint32_t)(i * 2654435761u); q[i].v = (uint32_t)i; }
            t0 = now_s();
            qsort(q, n, sizeof *q, cmp_pair);
            ms_q = 1e3 * (now_s() - t0);
        }
        printf("| %zu | dg_sort_pairs (device) | %.3f | %.1f | %.1f |\n", n, ms_dev, n / ms_dev / 1e3, 8.0 * 16.0 * n / ms_dev / 1e6);
        printf("| %zu | host radix, 1 thread | %.3f | %.1f | |\n", n, ms_host, n / ms_host / 1e3);
        if (ms_q > 0) printf("| %zu | host qsort, 1 thread | %.3f | %.1f | |\n", n, ms_q, n / ms_q / 1e3);
        if (csv) {
            fprintf(csv, "\"%s\",%zu,device,%.4f,%.2f\n", dg_device_name(g), n, ms_dev, n / ms_dev / 1e3);
            fprintf(csv, "\"%s\",%zu,host_radix,%.4f,%.2f\n", dg_device_name(g), n, ms_host, n / ms_host / 1e3);
            if (ms_q > 0) fprintf(csv, "\"%s\",%zu,qsort,%.4f,%.2f\n", dg_device_name(g), n, ms_q, n / ms_q / 1e3);
        }
        fflush(stdout);
        clReleaseMemObject(mk);
        clReleaseMemObject(mv);
        free(k); free(v); free(p); free(t);
    }
    if (csr_scale) {   /* the arcs of a Kronecker graph, sorted by source */
        size_t m, n = (size_t)1 << csr_scale, i, na;
        dg_edge *e = gen_kronecker(csr_scale, 16 * n, 777);
        uint32_t *k, *v;
        cl_mem mk, mv;
        cl_int err;
        double ms;
        m = 16 * n;
        na = 2 * m;
        k = (uint32_t *)xmalloc(na * 4);
        v = (uint32_t *)xmalloc(na * 4);
        for (i = 0; i < m; i++) {
            k[2 * i] = (uint32_t)e[i].src; v[2 * i] = (uint32_t)e[i].dst;
            k[2 * i + 1] = (uint32_t)e[i].dst; v[2 * i + 1] = (uint32_t)e[i].src;
        }
        free(e);
        mk = clCreateBuffer(dg_cl_context(g), CL_MEM_READ_WRITE, na * 4, NULL, &err); cl_check(err, "clCreateBuffer");
        mv = clCreateBuffer(dg_cl_context(g), CL_MEM_READ_WRITE, na * 4, NULL, &err); cl_check(err, "clCreateBuffer");
        ms = time_device_sort(g, mk, mv, k, v, na, reps);
        printf("| %zu | Kronecker scale %d arcs by source (GPU CSR rebuild's sort) | %.3f | %.1f | %.1f |\n", na, csr_scale,
               ms, na / ms / 1e3, 8.0 * 16.0 * na / ms / 1e6);
        if (csv) fprintf(csv, "\"%s\",%zu,kron%d_arcs,%.4f,%.2f\n", dg_device_name(g), na, csr_scale, ms, na / ms / 1e3);
        clReleaseMemObject(mk);
        clReleaseMemObject(mv);
        free(k); free(v);
    }
    note("device: median of %d calls after a warm-up, keys and values uploaded before each (not timed), clFinish after", reps);
    note("GB/s moved: 8 passes x (8 bytes read + 8 written) per pair over the median time (the counts and scans not counted)");
    note("keys: uniform random 32-bit; values: the index (both sorts are stable, so the results must be equal)");
    if (csv) fclose(csv);
    dg_destroy(g);
    return report_end();
}
