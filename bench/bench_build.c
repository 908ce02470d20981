/* bench_build.c - host-store benchmark of dyngraph (single-threaded, no OpenCL device used).

   For each graph (Graph500 Kronecker and a uniform random graph of the same size) and each page
   size, with the graph loaded as DIRECTED (out- and in-stores), it measures:
     1. build: dg_add_vertices(n) + one dg_add_edges of all generated edge tuples (median of R runs)
     2. memory: dg_get_stats host_bytes, bytes per stored edge, fill ratio, pages, large lists,
        and the ratio to a plain CSR holding the same out- and in-edges
     3. K single dg_add_edge calls of random new edges, then K single dg_remove_edge calls of
        existing edges (the ones just inserted, shuffled)
     4. one dg_add_edges of K new random edges into the non-empty graph

   Build:  cc -O2 -march=native -I. bench/bench_build.c -o build/bench_build -lOpenCL -lm
   Run:    build/bench_build [--quick] [--scale S] [--pages 256,512,...] [--runs R] [--ops K]
                             [--graph kron|uniform|both] [--csv FILE] [--seed N]
   The Markdown table goes to stdout, progress to stderr. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE     /* and madvise: the library offers its large arrays huge pages */
#define DYNGRAPH_IMPLEMENTATION
#include "dyngraph.h"

#define BENCH_NAME "bench_build"
#include "bench_common.h"   /* utilities, random numbers, graph generators */

/* ------------------------------------------------------------------------------------------ */
/* One configuration                                                                           */
/* ------------------------------------------------------------------------------------------ */

typedef struct row {
    const char *graph;
    size_t n, tuples, m;                /* vertices, input tuples, stored edges after the build */
    uint32_t page_size;
    double build_s, build_vert_s;       /* median build time (vertices + edges), of which vertices */
    dg_stats st_build;                  /* after the build */
    size_t csr_bytes;
    size_t ins_ops, ins_ok, ins_exists; double ins_s;
    dg_stats st_ins;                    /* after the single insertions */
    size_t rem_ops; double rem_s;
    size_t batch_ops, batch_added; double batch_s;
    dg_stats st_batch;                  /* after the batch insertion */
    double cpu_s, wall_s;               /* process CPU time and wall time of all timed sections */
} row;

static size_t csr_bytes_of(size_t n, size_t m)
{
    size_t off = (m < ((size_t)1 << 31)) ? 4 : 8;    /* int32 offsets when they fit */
    return 2 * ((n + 1) * off + m * 4);               /* out-CSR + in-CSR, int32 neighbour ids */
}

static void run_config(row *rw, const char *graph, size_t n, const dg_edge *edges, size_t m_in,
                       uint32_t page_size, int runs, const dg_edge *ins, size_t k_ins,
                       const dg_edge *batch, size_t k_batch, int validate, uint64_t seed)
{
    double *times = (double *)xmalloc((size_t)runs * sizeof *times);
    double *vtimes = (double *)xmalloc((size_t)runs * sizeof *vtimes);
    dg_graph *g = NULL;
    dg_desc desc;
    size_t *ok_idx, k, nok, added = 0, m0;
    dg_edge *rem;
    double t0, t1, c0;
    int run;
    rng r;

    memset(rw, 0, sizeof *rw);
    rw->graph = graph;
    rw->n = n;
    rw->tuples = m_in;
    rw->page_size = page_size;

    memset(&desc, 0, sizeof desc);
    desc.page_size = page_size;
    desc.undirected = 0;
    desc.weighted = 0;

    /* 1. build, R runs; the graph of the last run is kept for the following steps */
    for (run = 0; run < runs; run++) {
        dg_vertex first = -1;
        g = NULL;
        CK(g, dg_create(&desc, &g));
        c0 = cpu_now_s();
        t0 = now_s();
        CK(g, dg_add_vertices(g, n, &first));
        t1 = now_s();
        CK(g, dg_add_edges(g, edges, m_in, &added));
        times[run] = now_s() - t0;
        rw->cpu_s += cpu_now_s() - c0;
        rw->wall_s += times[run];
        vtimes[run] = t1 - t0;
        if (first != 0) die("dg_add_vertices: first id is not 0");
        if (dg_vertex_count(g) != n) die("dg_vertex_count != n after the build");
        if (added != dg_edge_count(g)) die("dg_add_edges: *added != dg_edge_count");
        if (run > 0 && dg_edge_count(g) != rw->m) die("the stored edge count differs between runs");
        rw->m = dg_edge_count(g);
        if (validate) CK(g, dg_validate(g));
        fprintf(stderr, "  %s page %u build run %d: %.3f s (%.2f M tuples/s)\n", graph,
                (unsigned)page_size, run + 1, times[run], m_in / times[run] * 1e-6);
        if (run + 1 < runs) { dg_destroy(g); g = NULL; }
    }
    rw->build_s = median(times, runs);
    rw->build_vert_s = median(vtimes, runs);
    free(times);
    free(vtimes);

    /* 2. memory */
    CK(g, dg_get_stats(g, &rw->st_build));
    rw->csr_bytes = csr_bytes_of(n, rw->m);
    m0 = rw->m;

    /* 3a. single insertions */
    ok_idx = (size_t *)xmalloc(k_ins * sizeof *ok_idx);
    nok = 0;
    rw->ins_ops = k_ins;
    c0 = cpu_now_s();
    t0 = now_s();
    for (k = 0; k < k_ins; k++) {
        dg_status s = dg_add_edge(g, ins[k].src, ins[k].dst, 1.0f);
        if (s == DG_OK) ok_idx[nok++] = k;
        else if (s == DG_ERR_EXISTS) rw->ins_exists++;
        else die_dg(g, "dg_add_edge", s, __LINE__);
    }
    rw->ins_s = now_s() - t0;
    rw->cpu_s += cpu_now_s() - c0;
    rw->wall_s += rw->ins_s;
    rw->ins_ok = nok;
    if (dg_edge_count(g) != m0 + nok) die("dg_edge_count wrong after the single insertions");
    CK(g, dg_get_stats(g, &rw->st_ins));

    /* 3b. single removals of existing edges: the inserted ones, shuffled (chosen before timing) */
    rem = (dg_edge *)xmalloc((nok ? nok : 1) * sizeof *rem);
    for (k = 0; k < nok; k++) rem[k] = ins[ok_idx[k]];
    rng_seed(&r, seed ^ 0x5EEDull);
    shuffle_edges(&r, rem, nok);
    rw->rem_ops = nok;
    c0 = cpu_now_s();
    t0 = now_s();
    for (k = 0; k < nok; k++) {
        dg_status s = dg_remove_edge(g, rem[k].src, rem[k].dst);
        if (s != DG_OK) die_dg(g, "dg_remove_edge", s, __LINE__);
    }
    rw->rem_s = now_s() - t0;
    rw->cpu_s += cpu_now_s() - c0;
    rw->wall_s += rw->rem_s;
    if (dg_edge_count(g) != m0) die("dg_edge_count wrong after the single removals");
    free(rem);
    free(ok_idx);

    /* 4. batch insertion into the non-empty graph */
    rw->batch_ops = k_batch;
    c0 = cpu_now_s();
    t0 = now_s();
    CK(g, dg_add_edges(g, batch, k_batch, &added));
    rw->batch_s = now_s() - t0;
    rw->cpu_s += cpu_now_s() - c0;
    rw->wall_s += rw->batch_s;
    rw->batch_added = added;
    if (dg_edge_count(g) != m0 + added) die("dg_edge_count wrong after the batch insertion");
    CK(g, dg_get_stats(g, &rw->st_batch));

    dg_destroy(g);
}

/* ------------------------------------------------------------------------------------------ */
/* Output                                                                                      */
/* ------------------------------------------------------------------------------------------ */

static double mops(size_t ops, double s) { return s > 0 ? (double)ops / s * 1e-6 : 0.0; }
static double ratio(double a, double b) { return b > 0 ? a / b : 0.0; }

static void print_table_header(FILE *f)
{
    fprintf(f, "| graph | n | m stored | page | build M edges/s | build M stored/s | "
               "insert M ops/s | remove M ops/s | batch insert M edges/s | bytes/edge | "
               "CSR ratio | fill | pages | large lists | fill after ins | pages after ins | cpu/wall |\n");
    fprintf(f, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
}

static void print_table_row(FILE *f, const row *w)
{
    fprintf(f, "| %s | %zu | %zu | %u | %.2f | %.2f | %.3f | %.3f | %.2f | %.2f | %.2f | %.3f | "
               "%zu | %zu | %.3f | %zu | %.2f |\n",
            w->graph, w->n, w->m, (unsigned)w->page_size,
            mops(w->tuples, w->build_s), mops(w->m, w->build_s),
            mops(w->ins_ops, w->ins_s), mops(w->rem_ops, w->rem_s),
            mops(w->batch_ops, w->batch_s),
            ratio((double)w->st_build.host_bytes, (double)w->m),
            ratio((double)w->st_build.host_bytes, (double)w->csr_bytes),
            w->st_build.fill_ratio, w->st_build.pages, w->st_build.large_lists,
            w->st_ins.fill_ratio, w->st_ins.pages, ratio(w->cpu_s, w->wall_s));
}

static void print_csv_header(FILE *f)
{
    fprintf(f, "graph,n,tuples,m_stored,page_size,build_s,build_vertices_s,build_M_edges_per_s,"
               "build_M_stored_per_s,host_bytes,bytes_per_edge,csr_bytes,csr_ratio,fill,pages,"
               "free_pages,large_lists,large_pages,insert_ops,insert_ok,insert_exists,insert_s,"
               "insert_M_ops_per_s,fill_after_ins,pages_after_ins,large_lists_after_ins,"
               "host_bytes_after_ins,remove_ops,remove_s,remove_M_ops_per_s,batch_ops,"
               "batch_added,batch_s,batch_M_edges_per_s,fill_after_batch,pages_after_batch,"
               "host_bytes_after_batch,cpu_s,wall_s\n");
}

static void print_csv_row(FILE *f, const row *w)
{
    fprintf(f, "%s,%zu,%zu,%zu,%u,%.6f,%.9f,%.4f,%.4f,%zu,%.4f,%zu,%.4f,%.5f,%zu,%zu,%zu,%zu,"
               "%zu,%zu,%zu,%.6f,%.4f,%.5f,%zu,%zu,%zu,%zu,%.6f,%.4f,%zu,%zu,%.6f,%.4f,%.5f,%zu,%zu,%.4f,%.4f\n",
            w->graph, w->n, w->tuples, w->m, (unsigned)w->page_size, w->build_s, w->build_vert_s,
            mops(w->tuples, w->build_s), mops(w->m, w->build_s),
            w->st_build.host_bytes, ratio((double)w->st_build.host_bytes, (double)w->m),
            w->csr_bytes, ratio((double)w->st_build.host_bytes, (double)w->csr_bytes),
            w->st_build.fill_ratio, w->st_build.pages, w->st_build.free_pages,
            w->st_build.large_lists, w->st_build.large_pages,
            w->ins_ops, w->ins_ok, w->ins_exists, w->ins_s, mops(w->ins_ops, w->ins_s),
            w->st_ins.fill_ratio, w->st_ins.pages, w->st_ins.large_lists, w->st_ins.host_bytes,
            w->rem_ops, w->rem_s, mops(w->rem_ops, w->rem_s),
            w->batch_ops, w->batch_added, w->batch_s, mops(w->batch_ops, w->batch_s),
            w->st_batch.fill_ratio, w->st_batch.pages, w->st_batch.host_bytes, w->cpu_s, w->wall_s);
}

/* ------------------------------------------------------------------------------------------ */
/* Main                                                                                        */
/* ------------------------------------------------------------------------------------------ */

static void usage(void)
{
    fprintf(stderr,
        "usage: bench_build [options]\n"
        "  --scale S        log2 of the vertex count (default 20); edges = 16 * 2^S tuples\n"
        "  --pages LIST     page sizes, comma-separated (default 256,512,1024,2048,4096)\n"
        "  --runs R         build runs, the median is reported (default 3)\n"
        "  --ops K          single insertions / removals and batch-insertion size (default 1000000)\n"
        "  --graph G        kron, uniform or both (default both)\n"
        "  --csv FILE       also write the rows as CSV\n"
        "  --seed N         generator seed (default 1)\n"
        "  --quick          smoke test: scale 16, 100000 ops, dg_validate on every built graph\n");
}

int main(int argc, char **argv)
{
    int scale = -1, runs = -1, quick = 0, do_kron = 1, do_uniform = 1;
    long ops = -1;
    uint32_t pages[32];
    int npages = 0, i, gi, pi;
    const char *csv_path = NULL;
    uint64_t seed = 1;
    FILE *csv = NULL;
    row *rows;
    int nrows = 0;
    size_t n, m;
    char cpu[256];

    for (i = 1; i < argc; i++) {
        const char *a = argv[i], *v = (i + 1 < argc) ? argv[i + 1] : NULL;
        if (!strcmp(a, "--scale")) { scale = (int)parse_long(v, a, 1, 30); i++; }
        else if (!strcmp(a, "--runs")) { runs = (int)parse_long(v, a, 1, 1000); i++; }
        else if (!strcmp(a, "--ops")) { ops = parse_long(v, a, 0, 1000000000L); i++; }
        else if (!strcmp(a, "--seed")) { seed = (uint64_t)parse_long(v, a, 0, 0x7fffffffL); i++; }
        else if (!strcmp(a, "--csv")) {
            if (!v) { fprintf(stderr, "bench_build: --csv needs a file name\n"); return 2; }
            csv_path = v; i++;
        }
        else if (!strcmp(a, "--graph")) {
            if (v && !strcmp(v, "kron")) { do_kron = 1; do_uniform = 0; }
            else if (v && !strcmp(v, "uniform")) { do_kron = 0; do_uniform = 1; }
            else if (v && !strcmp(v, "both")) { do_kron = 1; do_uniform = 1; }
            else { fprintf(stderr, "bench_build: --graph takes kron, uniform or both\n"); return 2; }
            i++;
        }
        else if (!strcmp(a, "--pages")) {
            char buf[512], *tok;
            if (!v || strlen(v) >= sizeof buf) { fprintf(stderr, "bench_build: bad --pages\n"); return 2; }
            strcpy(buf, v);
            npages = 0;
            for (tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
                long p = parse_long(tok, a, 64, 65536);
                if (p & (p - 1)) { fprintf(stderr, "bench_build: page size %ld is not a power of two\n", p); return 2; }
                if (npages == 32) { fprintf(stderr, "bench_build: at most 32 page sizes\n"); return 2; }
                pages[npages++] = (uint32_t)p;
            }
            if (npages == 0) { fprintf(stderr, "bench_build: empty --pages\n"); return 2; }
            i++;
        }
        else if (!strcmp(a, "--quick")) quick = 1;
        else if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage(); return 0; }
        else { fprintf(stderr, "bench_build: unknown option %s\n", a); usage(); return 2; }
    }
    /* explicit options win over --quick, whatever their order */
    if (scale < 0) scale = quick ? 16 : 20;
    if (ops < 0) ops = quick ? 100000 : 1000000;
    if (runs < 0) runs = 3;
    if (npages == 0) {
        static const uint32_t def[5] = { 256, 512, 1024, 2048, 4096 };
        for (npages = 0; npages < 5; npages++) pages[npages] = def[npages];
    }
    n = (size_t)1 << scale;
    m = 16 * n;

    cpu_model(cpu, sizeof cpu);
    printf("# dyngraph host-store benchmark (bench/bench_build.c)\n\n");
    printf("- CPU: %s (single-threaded)\n", cpu);
#ifdef __VERSION__
    printf("- compiler: %s\n", __VERSION__);
#endif
    printf("- dyngraph %s; graphs loaded as directed (out- and in-store), unweighted\n",
           DYNGRAPH_VERSION_STRING);
    printf("- scale %d: n = %zu vertices, %zu edge tuples (edge factor 16); seed %llu%s\n",
           scale, n, m, (unsigned long long)seed, quick ? "; --quick (dg_validate on each build)" : "");
    printf("- build: median of %d runs of dg_add_vertices(n) + one dg_add_edges(all tuples); "
           "M edges/s counts input tuples, M stored/s counts dg_edge_count\n", runs);
    printf("- insert / remove: %ld single dg_add_edge calls of random u->v (u != v; calls "
           "returning DG_ERR_EXISTS count as ops), then single dg_remove_edge of the edges "
           "inserted (shuffled); batch insert: one dg_add_edges of %ld random u->v\n", ops, ops);
    printf("- memory columns are taken after the build: bytes/edge = host_bytes / m stored; "
           "CSR ratio = host_bytes / csr_bytes with csr_bytes = 2 * ((n+1)*4 + m*4) "
           "(out- and in-CSR, int32 offsets and ids; int64 offsets if m >= 2^31); "
           "fill = dg_stats.fill_ratio; pages and large lists over both stores\n");
    printf("- cpu/wall: process CPU time / wall time over the timed sections of the row; below "
           "about 0.95 other processes competed for the core and the rates are pessimistic\n\n");
    fflush(stdout);

    if (csv_path) {
        csv = fopen(csv_path, "w");
        if (!csv) { perror(csv_path); return 1; }
        print_csv_header(csv);
        fflush(csv);
    }

    rows = (row *)xmalloc((size_t)(2 * npages) * sizeof *rows);
    for (gi = 0; gi < 2; gi++) {
        const char *name = gi == 0 ? "kron" : "uniform";
        uint64_t gseed = seed * 1000003ull + (uint64_t)gi;
        dg_edge *edges, *ins, *batch;
        double t0;
        if ((gi == 0 && !do_kron) || (gi == 1 && !do_uniform)) continue;
        t0 = now_s();
        edges = gi == 0 ? gen_kronecker(scale, m, gseed) : gen_uniform(n, m, gseed, 0);
        ins = gen_uniform(n, (size_t)ops, gseed ^ 0xA5A5A5A5ull, 1);
        batch = gen_uniform(n, (size_t)ops, gseed ^ 0x5A5A5A5Aull, 1);
        fprintf(stderr, "%s: generated %zu tuples (%zu self-loops) in %.2f s\n", name, m,
                count_self_loops(edges, m), now_s() - t0);
        for (pi = 0; pi < npages; pi++) {
            row *w = &rows[nrows++];
            run_config(w, name, n, edges, m, pages[pi], runs, ins, (size_t)ops, batch, (size_t)ops,
                       quick, gseed);
            fprintf(stderr, "  %s page %u: m %zu, build %.2f M edges/s, insert %.3f M ops/s, "
                    "remove %.3f M ops/s, batch %.2f M edges/s, %.2f bytes/edge, fill %.3f, cpu/wall %.2f\n",
                    name, (unsigned)w->page_size, w->m, mops(w->tuples, w->build_s),
                    mops(w->ins_ops, w->ins_s), mops(w->rem_ops, w->rem_s),
                    mops(w->batch_ops, w->batch_s),
                    ratio((double)w->st_build.host_bytes, (double)w->m), w->st_build.fill_ratio,
                    ratio(w->cpu_s, w->wall_s));
            if (csv) { print_csv_row(csv, w); fflush(csv); }
        }
        free(edges);
        free(ins);
        free(batch);
    }

    print_table_header(stdout);
    for (i = 0; i < nrows; i++) print_table_row(stdout, &rows[i]);
    printf("\ninsert / remove / batch counts per row (ok + exists = ops; batch added of ops):\n\n");
    for (i = 0; i < nrows; i++)
        printf("- %s page %u: insert %zu ok + %zu exists; remove %zu; batch added %zu of %zu; "
               "host MB %.1f (CSR %.1f)\n",
               rows[i].graph, (unsigned)rows[i].page_size, rows[i].ins_ok, rows[i].ins_exists,
               rows[i].rem_ops, rows[i].batch_added, rows[i].batch_ops,
               rows[i].st_build.host_bytes / 1048576.0, rows[i].csr_bytes / 1048576.0);
    if (csv) fclose(csv);
    free(rows);
    return 0;
}
