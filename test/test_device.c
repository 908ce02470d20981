/* test_device.c - the device mirror, incremental sync, OpenCL object lifetime, device choice,
   the binary cache and the primitives (frontiers, user programs, advance/filter/compute, scan).

   Parts:
   - binary cache: DYNGRAPH_CACHE_DIR at fresh directories; the first graph writes a file, a
     user program another, a second graph works from the cache; binary_cache = -1 and
     DYNGRAPH_CACHE=0 write nothing, binary_cache = 1 writes despite DYNGRAPH_CACHE=0; an
     unusable cache directory is not an error; last of all (a driver given a damaged binary
     may crash), graphs still work after the files are overwritten with garbage or truncated;
     the default directory is private (default_cache);
   - device choice: dg_device_name, DYNGRAPH_DEVICE matching nothing (DG_ERR_NO_DEVICE with a
     message naming it, for every kind of first device operation; the same graph works once the
     variable is gone), desc.device overriding it, "cpu", "gpu" where there is no GPU, a
     case-insensitive device name;
   - the mirror: random mutation sequences (every kind, hubs growing into large lists and
     shrinking, vertex removal, weights) in 8 configurations, dg_validate_device after every
     step (a byte-for-byte read-back), dg_sync at random points;
   - O(k) sync: 50k vertices / 400k edges, then k = 1, 10, 100 single-edge changes: pages sent
     <= 4k + 8, bytes a small part of the first full sync, a sync without change sends nothing;
   - OpenCL objects: a caller's context and queue get back their reference counts after a
     graph used with every BFS strategy and every primitive is destroyed; half a pair is
     DG_ERR_INVALID_ARGUMENT; two graphs share a context;
   - a failed user program build: DG_ERR_OPENCL, the compiler log in dg_error_message and in
     the logger;
   - primitives: BFS and k-hop written with advance + filter + compute equal a CPU BFS (out- and
     in-edges); advance gives every edge exactly once with the right source, destination and
     weight (lists over several pages, frontiers with repeats, an output frontier that must
     grow); filter keeps exactly the elements whose predicate holds, in order; compute runs
     once per element; empty frontiers; frontier set/get round trips; the primitives after the
     graph has grown threefold (a frontier made before, used after); scan equals a CPU
     exclusive scan for many lengths, in place and out of place, untouched past n; bad op
     indices and kinds, NULLs and out == in give DG_ERR_INVALID_ARGUMENT.
   One user program (USER_SOURCE, USER_OPS) serves every part: OpenCL compiles it once per page
   size and kind of graph (PoCL: ~40 s each with a cold kernel cache).

   Usage: test_device [seed]   (the seed is printed)
   Cases (DG_TESTS=test_device:NAME, see tt.h): binary_cache, device_choice, failed_build,
   cl_objects, mirror, sync_cost, primitives, scan, cache_damage, cl_batches, cl_options,
   frontier_all (every live vertex, ascending, past the frontier's capacity),
   cache_io (dg_desc.cache_io: kernels kept in the application's memory, read back by a second
   graph, damaged entries rebuilt; dg_desc.cache_dir over DYNGRAPH_CACHE_DIR),
   sort (dg_sort_pairs against a stable qsort reference: sizes around the tile, few distinct
   keys, equal, sorted, reversed keys, keys alone, bad arguments),
   device_faults (every device allocation of a sync, a growing sync, each BFS and SSSP strategy,
   reach, a frontier and dg_add_edges_cl fails in turn: DG_ERR_DEVICE_MEMORY, graph unchanged,
   the same call then succeeds with the same answer), default_cache (HOME and XDG_CACHE_HOME in the temporary directory: the default cache
   directory is made 0700; one others can write is not used),
   devices (dg_desc.devices = 2 opens two devices, each with its own context, queue and
   state, on PoCL the two pthread devices main asks for through POCL_DEVICES; a BFS over both
   is right (test_shard tests the sharded graph itself); 3 wanted of 2 is
   DG_ERR_NO_DEVICE with nothing left open). They draw from one random
   stream in turn: a case run alone sees other draws than in a whole run. */
#define _POSIX_C_SOURCE 200809L
#define DYNGRAPH_IMPLEMENTATION
#define DYNGRAPH_FAULT_INJECTION      /* dg_debug_fail_device_alloc (device_faults) */
#include "dyngraph.h"
#include "tt.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <ctype.h>
#include <sys/types.h>
#include <sys/stat.h>
#include <dirent.h>
#include <unistd.h>

/* ================================ random numbers ================================ */
#include "trand.h"
static uint64_t seed;

/* ================================ logger ================================ */
typedef struct {
    int calls, errors;
    char text[16384];             /* the messages, concatenated (truncated) */
} log_record;
static void log_fn(dg_log_level level, const char *message, void *user)
{
    log_record *r = (log_record *)user;
    size_t have = strlen(r->text);
    r->calls++;
    if (level == DG_LOG_ERROR) r->errors++;
    if (message && have + 2 < sizeof r->text) {
        snprintf(r->text + have, sizeof r->text - have, "%s\n", message);
    }
}

/* ================================ helpers ================================ */
static dg_graph *new_graph(uint32_t page_size, int undirected, int weighted)
{
    dg_graph *g = NULL;
    dg_desc d;
    dg_status s;
    memset(&d, 0, sizeof d);
    d.page_size = page_size;
    d.undirected = undirected;
    d.weighted = weighted;
    s = dg_create(&d, &g);
    CHECK_MSG(s == DG_OK, "dg_create: %s", dg_status_string(s));
    return s == DG_OK ? g : NULL;
}

static int contains_ci(const char *hay, const char *needle)
{
    size_t n = strlen(needle), i;
    for (; *hay; hay++) {
        for (i = 0; i < n && hay[i] && tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]); i++) {}
        if (i == n) return 1;
    }
    return n == 0;
}

static int32_t random_live(dg_graph *g)
{
    size_t bound = dg_vertex_id_bound(g);
    int tries;
    if (!dg_vertex_count(g)) return -1;
    for (tries = 0; tries < 2000; tries++) {
        int32_t v = (int32_t)rnd((uint32_t)bound);
        if (dg_has_vertex(g, v)) return v;
    }
    for (tries = 0; (size_t)tries < bound; tries++) if (dg_has_vertex(g, tries)) return tries;
    return -1;
}

/* a random out-neighbour of u, or -1 */
static int32_t random_neighbor(dg_graph *g, int32_t u)
{
    size_t d = 0, got = 0;
    int32_t *ids, r;
    if (dg_degree(g, u, &d) != DG_OK || d == 0) return -1;
    ids = (int32_t *)xmalloc(d * sizeof(int32_t));
    dg_neighbors(g, u, ids, NULL, d, &got);
    r = got ? ids[rnd((uint32_t)(got < d ? got : d))] : -1;
    free(ids);
    return r;
}

/* ---- reference CSR built from the library's host queries (out- or in-lists), or from arcs ---- */
typedef struct {
    int32_t n;
    unsigned char *alive;
    size_t *off;
    int32_t *adj;
    float *w;
} csr;
static void csr_free(csr *r) { free(r->alive); free(r->off); free(r->adj); free(r->w); memset(r, 0, sizeof *r); }
static void csr_of_graph(csr *r, dg_graph *g, int in_edges)
{
    size_t n = dg_vertex_id_bound(g), v, total = 0;
    r->n = (int32_t)n;
    r->alive = (unsigned char *)xcalloc(n + 1, 1);
    r->off = (size_t *)xcalloc(n + 1, sizeof(size_t));
    for (v = 0; v < n; v++) {
        size_t d = 0;
        r->alive[v] = (unsigned char)dg_has_vertex(g, (dg_vertex)v);
        if (r->alive[v]) {
            if (in_edges) dg_in_degree(g, (dg_vertex)v, &d); else dg_degree(g, (dg_vertex)v, &d);
        }
        r->off[v] = total;
        total += d;
    }
    r->off[n] = total;
    r->adj = (int32_t *)xmalloc((total + 1) * sizeof(int32_t));
    r->w = (float *)xmalloc((total + 1) * sizeof(float));
    for (v = 0; v < n; v++) {
        size_t d = r->off[v + 1] - r->off[v], got = 0, k;
        if (!d) continue;
        if (in_edges) {
            dg_in_neighbors(g, (dg_vertex)v, r->adj + r->off[v], d, &got);
            for (k = 0; k < d; k++) dg_edge_weight(g, r->adj[r->off[v] + k], (dg_vertex)v, &r->w[r->off[v] + k]);
        } else {
            dg_neighbors(g, (dg_vertex)v, r->adj + r->off[v], r->w + r->off[v], d, &got);
        }
    }
}

static int32_t max_deg_of(const csr *r)
{
    int32_t v, best = 0;
    size_t bd = 0;
    for (v = 0; v < r->n; v++)
        if (r->alive[v] && r->off[v + 1] - r->off[v] >= bd) { best = v; bd = r->off[v + 1] - r->off[v]; }
    return best;
}

/* BFS over r from src where vertices for which `stop` holds (other than src) are reached but
   not expanded; levels limited to max_level (-1: none). */
static size_t ref_bfs(const csr *r, int32_t src, int32_t *dist, int stop_mod5, int max_level)
{
    int32_t *q = (int32_t *)xmalloc(((size_t)r->n + 1) * sizeof(int32_t));
    size_t head = 0, tail = 0, k;
    int32_t v;
    for (v = 0; v < r->n; v++) dist[v] = -1;
    dist[src] = 0;
    q[tail++] = src;
    while (head < tail) {
        int32_t u = q[head++];
        if (u != src && stop_mod5 && u % 5 == 0) continue;
        if (max_level >= 0 && dist[u] >= max_level) continue;
        for (k = r->off[u]; k < r->off[u + 1]; k++) {
            int32_t w = r->adj[k];
            if (dist[w] < 0) { dist[w] = dist[u] + 1; q[tail++] = w; }
        }
    }
    free(q);
    return tail;
}

/* ---- device buffers of the graph's context ---- */
static cl_mem buf_new(dg_graph *g, size_t bytes)
{
    cl_int e = CL_SUCCESS;
    cl_context ctx = dg_cl_context(g);
    cl_mem m;
    if (!ctx) return NULL;
    m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes ? bytes : 4, NULL, &e);
    CHECK_MSG(e == CL_SUCCESS && m, "clCreateBuffer(%zu): %d", bytes, (int)e);
    return e == CL_SUCCESS ? m : NULL;
}
static int buf_write(dg_graph *g, cl_mem m, const void *p, size_t bytes)
{
    cl_int e;
    if (!bytes) return 1;
    e = clEnqueueWriteBuffer(dg_cl_queue(g), m, CL_TRUE, 0, bytes, p, 0, NULL, NULL);
    CHECK_MSG(e == CL_SUCCESS, "clEnqueueWriteBuffer: %d", (int)e);
    return e == CL_SUCCESS;
}
static int buf_read(dg_graph *g, cl_mem m, void *p, size_t bytes)
{
    cl_int e;
    if (!bytes) return 1;
    e = clEnqueueReadBuffer(dg_cl_queue(g), m, CL_TRUE, 0, bytes, p, 0, NULL, NULL);
    CHECK_MSG(e == CL_SUCCESS, "clEnqueueReadBuffer: %d", (int)e);
    return e == CL_SUCCESS;
}

/* A random graph: n vertices, m random edges, hubs with out- and in-lists of hub_degree. */
static void fill_random(dg_graph *g, int32_t n, size_t m, int hubs, int32_t hub_degree, int32_t *hub_ids)
{
    size_t cap = m + (size_t)hubs * (size_t)hub_degree * 2 + 1, ne = 0, i;
    dg_edge *e = (dg_edge *)xmalloc(cap * sizeof(dg_edge));
    dg_vertex first;
    int h;
    dg_status s = dg_add_vertices(g, (size_t)n, &first);
    CHECK(s == DG_OK);
    if (s != DG_OK) { free(e); return; }
    /* ids first .. first + n - 1 */
    for (i = 0; i < m; i++) {
        e[ne].src = first + (int32_t)rnd((uint32_t)n); e[ne].dst = first + (int32_t)rnd((uint32_t)n);
        e[ne].weight = (float)(1 + rnd(9)); ne++;
    }
    for (h = 0; h < hubs; h++) {
        int32_t hub = first + (int32_t)rnd((uint32_t)n), k;
        if (hub_ids) hub_ids[h] = hub;
        for (k = 0; k < hub_degree; k++) {
            e[ne].src = hub; e[ne].dst = first + (int32_t)rnd((uint32_t)n); e[ne].weight = (float)(1 + rnd(9)); ne++;
            e[ne].src = first + (int32_t)rnd((uint32_t)n); e[ne].dst = hub; e[ne].weight = (float)(1 + rnd(9)); ne++;
        }
    }
    s = dg_add_edges(g, e, ne, NULL);
    CHECK_MSG(s == DG_OK, "dg_add_edges: %s", dg_status_string(s));
    free(e);
}

/* ================================ temporary directories ================================ */
static char tmp_root[256];

static int make_dir(char *out, size_t size, const char *name)
{
    snprintf(out, size, "%s/%s", tmp_root, name);
    return mkdir(out, 0700) == 0;
}

/* regular files under dir (recursively); *bytes gets their total size */
static int count_files(const char *dir, size_t *bytes)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    if (!d) return 0;
    while ((e = readdir(d)) != NULL) {
        char p[1024];
        struct stat st;
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        if (lstat(p, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) n += count_files(p, bytes);
        else if (S_ISREG(st.st_mode)) { n++; if (bytes) *bytes += (size_t)st.st_size; }
    }
    closedir(d);
    return n;
}

/* how: 1 overwrite bytes at the start, the middle and the end with garbage; 2 truncate to 7 bytes */
static int corrupt_files(const char *dir, int how)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    if (!d) return 0;
    while ((e = readdir(d)) != NULL) {
        char p[1024];
        struct stat st;
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        if (lstat(p, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) { n += corrupt_files(p, how); continue; }
        if (!S_ISREG(st.st_mode)) continue;
        if (how == 2) {
            if (truncate(p, 7) == 0) n++;
        } else {
            FILE *f = fopen(p, "r+b");
            long size = (long)st.st_size, at[3];
            int k, j;
            if (!f) continue;
            at[0] = size > 64 ? 40 : 0; at[1] = size / 2; at[2] = size > 300 ? size - 300 : 0;
            for (k = 0; k < 3; k++) {
                fseek(f, at[k], SEEK_SET);
                for (j = 0; j < 200 && at[k] + j < size; j++) fputc((int)(0x5a ^ (j * 37)), f);
            }
            fclose(f);
            n++;
        }
    }
    closedir(d);
    return n;
}

static void remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    if (!d) return;
    while ((e = readdir(d)) != NULL) {
        char p[1024];
        struct stat st;
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        if (lstat(p, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) remove_tree(p); else unlink(p);
    }
    closedir(d);
    rmdir(dir);
}

/* ================================ a small end-to-end check ================================ */
/* One user program for the whole test (same source and ops everywhere, so that OpenCL compiles
   it once per graph kind). Data layouts: visit: data[v] = distance; bfs_visit/expand/tally:
   [0] tally, [1] source, [2 + v] distance; count_edge: [0] n, [1 + v] count, [1 + n + v] sum of
   sources + 1, [1 + 2n + v] sum of weights; odd/bump: data[v]. */
static const char *USER_SOURCE =
    "int visit(int s, int d, float w, __global int *data) {\n"
    "    return atomic_cmpxchg(&data[d], -1, data[s] + 1) == -1;\n"
    "}\n"
    "int bfs_visit(int s, int d, float w, __global int *data) {\n"
    "    return atomic_cmpxchg(&data[2 + d], -1, data[2 + s] + 1) == -1;\n"
    "}\n"
    "int expand(int v, __global int *data) { return v % 5 != 0 || v == data[1]; }\n"
    "void tally(int v, __global int *data) { atomic_inc(&data[0]); }\n"
    "int count_edge(int s, int d, float w, __global int *data) {\n"
    "    const int nb = data[0];\n"
    "    atomic_inc(&data[1 + d]);\n"
    "    atomic_add(&data[1 + nb + d], s + 1);\n"
    "    atomic_add(&data[1 + 2 * nb + d], (int)w);\n"
    "    return 1;\n"
    "}\n"
    "int odd(int v, __global int *data) { return data[v] & 1; }\n"
    "void bump(int v, __global int *data) { atomic_add(&data[v], 3); }\n";

enum { OP_VISIT, OP_BFS_VISIT, OP_BFS_VISIT_IN, OP_EXPAND, OP_TALLY, OP_COUNT, OP_COUNT_IN, OP_ODD, OP_BUMP,
       OP_COUNT_OPS };
static const dg_op USER_OPS[OP_COUNT_OPS] = {
    { DG_OP_ADVANCE, "visit", 0 },
    { DG_OP_ADVANCE, "bfs_visit", 0 },
    { DG_OP_ADVANCE, "bfs_visit", 1 },
    { DG_OP_FILTER, "expand", 0 },
    { DG_OP_COMPUTE, "tally", 0 },
    { DG_OP_ADVANCE, "count_edge", 0 },
    { DG_OP_ADVANCE, "count_edge", 1 },
    { DG_OP_FILTER, "odd", 0 },
    { DG_OP_COMPUTE, "bump", 0 },
};
static dg_status user_program(dg_graph *g, dg_program **out)
{
    return dg_program_create(g, USER_SOURCE, USER_OPS, OP_COUNT_OPS, out);
}

/* BFS with the default strategy and with the user program above on a 5-vertex path graph
   plus extras; returns 1 if all ran and were right. */
static int small_works(dg_graph *g, const char *label)
{
    int32_t dist[6];
    dg_status s;
    int ok = 1, i;
    dg_program *p = NULL;
    if (dg_vertex_id_bound(g) == 0) {
        dg_vertex f;
        dg_add_vertices(g, 6, &f);
        for (i = 0; i < 4; i++) dg_add_edge(g, i, i + 1, 1.0f);
    }
    s = dg_sync(g);
    CHECK_MSG(s == DG_OK, "[%s] dg_sync: %s: %s", label, dg_status_string(s), dg_error_message(g));
    if (s != DG_OK) return 0;
    s = dg_bfs(g, 0, dist, NULL);
    CHECK_MSG(s == DG_OK && dist[0] == 0 && dist[4] == 4 && dist[5] == -1, "[%s] dg_bfs: %s: %s", label,
              dg_status_string(s), dg_error_message(g));
    if (s != DG_OK) ok = 0;
    s = dg_validate_device(g);
    CHECK_MSG(s == DG_OK, "[%s] dg_validate_device: %s", label, dg_error_message(g));
    if (s != DG_OK) ok = 0;
    /* the user program: one advance level from 0 */
    s = user_program(g, &p);
    CHECK_MSG(s == DG_OK, "[%s] dg_program_create: %s: %s", label, dg_status_string(s), dg_error_message(g));
    if (s == DG_OK) {
        dg_frontier *fin = NULL, *fout = NULL;
        cl_mem data = buf_new(g, 6 * sizeof(int32_t));
        int32_t d[6] = { 0, -1, -1, -1, -1, -1 }, ids[6];
        dg_vertex zero = 0;
        size_t n = 0;
        CHECK(dg_frontier_create(g, 4, &fin) == DG_OK);
        CHECK(dg_frontier_create(g, 4, &fout) == DG_OK);
        if (fin && fout && data && buf_write(g, data, d, sizeof d)) {
            CHECK(dg_frontier_set(fin, &zero, 1) == DG_OK);
            s = dg_advance(p, OP_VISIT, fin, fout, data);
            CHECK_MSG(s == DG_OK, "[%s] dg_advance: %s: %s", label, dg_status_string(s), dg_error_message(g));
            CHECK(dg_frontier_get(fout, ids, 6, &n) == DG_OK && n == 1 && ids[0] == 1);
            CHECK(buf_read(g, data, d, sizeof d) && d[1] == 1 && d[2] == -1);
            if (!(n == 1 && d[1] == 1)) ok = 0;
        } else ok = 0;
        if (data) clReleaseMemObject(data);
        dg_frontier_destroy(fin);
        dg_frontier_destroy(fout);
        dg_program_destroy(p);
    } else ok = 0;
    return ok;
}

/* ================================ binary cache ================================ */
static void test_binary_cache(void)
{
    char a[512], b[512], c[512];
    dg_graph *g;
    dg_desc d;
    dg_status s;
    int n1, n2, n3;

    setenv("DYNGRAPH_CACHE", "1", 1);   /* on, also on PoCL */
    if (!make_dir(a, sizeof a, "cache_a") || !make_dir(b, sizeof b, "cache_b") || !make_dir(c, sizeof c, "cache_c")) {
        CHECK_MSG(0, "cannot make the cache directories under %s", tmp_root);
        return;
    }
    setenv("DYNGRAPH_CACHE_DIR", a, 1);

    /* 1: builds from source and writes the cache */
    dg_cache_clear();   /* programs kept in memory would not touch the disk cache */
    g = new_graph(0, 0, 0);
    if (!g) return;
    s = dg_sync(g);
    CHECK_MSG(s == DG_OK, "cache: first sync: %s: %s", dg_status_string(s), dg_error_message(g));
    n1 = count_files(a, NULL);
    CHECK_MSG(n1 >= 1, "no cache file under %s after the first set-up", a);
    /* a user program is cached too: one more file */
    CHECK(small_works(g, "cache: first graph"));
    n2 = count_files(a, NULL);
    CHECK_MSG(n2 > n1, "a user program wrote no cache file (%d files before, %d after)", n1, n2);
    dg_destroy(g);

    /* 2: works from the cache, writes nothing new */
    dg_cache_clear();   /* programs kept in memory would not touch the disk cache */
    g = new_graph(0, 0, 0);
    if (!g) return;
    CHECK(small_works(g, "cache: second graph"));
    n3 = count_files(a, NULL);
    CHECK_MSG(n3 == n2, "the second graph changed the cache: %d files, then %d", n2, n3);
    dg_destroy(g);

    /* (damaged files: test_cache_damage, last) */
    /* binary_cache = -1 writes nothing */
    setenv("DYNGRAPH_CACHE_DIR", b, 1);
    memset(&d, 0, sizeof d);
    d.binary_cache = -1;
    g = NULL;
    dg_cache_clear();
    CHECK(dg_create(&d, &g) == DG_OK);
    if (g) {
        CHECK(small_works(g, "cache: binary_cache -1"));
        CHECK_MSG(count_files(b, NULL) == 0, "binary_cache = -1 wrote %d files", count_files(b, NULL));
        dg_destroy(g);
    }
    /* DYNGRAPH_CACHE=0: nothing with binary_cache 0, written with binary_cache 1 */
    setenv("DYNGRAPH_CACHE_DIR", c, 1);
    setenv("DYNGRAPH_CACHE", "0", 1);
    dg_cache_clear();   /* programs kept in memory would not touch the disk cache */
    g = new_graph(0, 0, 0);
    if (g) {
        CHECK(small_works(g, "cache: DYNGRAPH_CACHE=0"));
        CHECK_MSG(count_files(c, NULL) == 0, "DYNGRAPH_CACHE=0 wrote %d files", count_files(c, NULL));
        dg_destroy(g);
    }
    memset(&d, 0, sizeof d);
    d.binary_cache = 1;
    g = NULL;
    dg_cache_clear();
    CHECK(dg_create(&d, &g) == DG_OK);
    if (g) {
        CHECK(small_works(g, "cache: binary_cache 1, DYNGRAPH_CACHE=0"));
        CHECK_MSG(count_files(c, NULL) >= 1, "binary_cache = 1 wrote nothing");
        dg_destroy(g);
    }
    setenv("DYNGRAPH_CACHE", "1", 1);   /* on, also on PoCL */

    /* a cache directory that cannot exist: not an error */
    setenv("DYNGRAPH_CACHE_DIR", "/dev/null/dyngraph-cache", 1);
    dg_cache_clear();   /* programs kept in memory would not touch the disk cache */
    g = new_graph(0, 0, 0);
    if (g) {
        CHECK(small_works(g, "cache: unusable directory"));
        dg_destroy(g);
    }
}

/* dg_desc.cache_io: the kernels kept by the application (here in memory) and no file written;
   a second graph reads them back and writes nothing; damaged entries are ignored (the kernels
   are built again and the entries rewritten); half a cache_io is refused. dg_desc.cache_dir
   wins over DYNGRAPH_CACHE_DIR. */
#define MEMC_MAX 32
static struct { char key[64]; unsigned char *data; size_t size; } memc[MEMC_MAX];
static int memc_n, memc_reads, memc_writes;
static size_t memc_read(const char *key, void *buf, size_t cap, void *user)
{
    int i;
    CHECK(user == (void *)memc);
    for (i = 0; i < memc_n; i++)
        if (!strcmp(memc[i].key, key)) {
            if (buf && cap >= memc[i].size) { memcpy(buf, memc[i].data, memc[i].size); memc_reads++; }
            return memc[i].size;
        }
    return 0;
}
static void memc_write(const char *key, const void *data, size_t size, void *user)
{
    int i;
    CHECK(user == (void *)memc && strncmp(key, "dyngraph-", 9) == 0 && strlen(key) == 25);
    for (i = 0; i < memc_n && strcmp(memc[i].key, key); i++) {}
    if (i == MEMC_MAX) return;
    if (i == memc_n) { memc_n++; snprintf(memc[i].key, sizeof memc[i].key, "%s", key); memc[i].data = NULL; }
    free(memc[i].data);
    memc[i].data = (unsigned char *)xmalloc(size);
    memcpy(memc[i].data, data, size);
    memc[i].size = size;
    memc_writes++;
}
static dg_graph *memc_graph(void)
{
    dg_graph *g = NULL;
    dg_desc d;
    memset(&d, 0, sizeof d);
    d.cache_io.read = memc_read; d.cache_io.write = memc_write; d.cache_io.user_data = memc;
    CHECK(dg_create(&d, &g) == DG_OK);
    return g;
}
static void test_cache_io(void)
{
    char a[512], b[512];
    dg_graph *g;
    dg_desc d;
    int i, w1;
    unsetenv("DYNGRAPH_CACHE");
    if (!make_dir(a, sizeof a, "cache_io_env") || !make_dir(b, sizeof b, "cache_io_desc")) { CHECK_MSG(0, "cannot make %s", a); return; }
    setenv("DYNGRAPH_CACHE_DIR", a, 1);
    dg_cache_clear();   /* programs kept in memory would not touch the cache */
    if (!(g = memc_graph())) return;
    CHECK(small_works(g, "cache_io: first graph"));
    dg_destroy(g);
    w1 = memc_writes;
    CHECK_MSG(memc_n >= 2 && w1 == memc_n && memc_reads == 0, "cache_io: %d entries, %d writes, %d reads", memc_n, w1, memc_reads);
    CHECK_MSG(count_files(a, NULL) == 0, "cache_io wrote %d files", count_files(a, NULL));
    dg_cache_clear();
    if (!(g = memc_graph())) return;
    CHECK(small_works(g, "cache_io: second graph"));
    dg_destroy(g);
    CHECK_MSG(memc_writes == w1 && memc_reads >= memc_n, "cache_io, second graph: %d writes, %d reads", memc_writes - w1, memc_reads);
    for (i = 0; i < memc_n; i++) memc[i].data[memc[i].size / 2] ^= 0x5a;   /* damaged entries */
    dg_cache_clear();
    if (!(g = memc_graph())) return;
    CHECK(small_works(g, "cache_io: damaged entries"));
    dg_destroy(g);
    CHECK_MSG(memc_writes >= w1 + memc_n, "cache_io: damaged entries not rewritten (%d writes)", memc_writes - w1);
    memset(&d, 0, sizeof d);
    g = NULL;
    d.cache_io.read = memc_read;
    CHECK(dg_create(&d, &g) == DG_ERR_INVALID_ARGUMENT && g == NULL);
    for (i = 0; i < memc_n; i++) free(memc[i].data);
    memc_n = 0;
    /* cache_dir over DYNGRAPH_CACHE_DIR (on PoCL the files need binary_cache = 1) */
    memset(&d, 0, sizeof d);
    d.cache_dir = b;
    d.binary_cache = 1;
    dg_cache_clear();
    CHECK(dg_create(&d, &g) == DG_OK);
    if (g) {
        CHECK(small_works(g, "cache_dir"));
        dg_destroy(g);
    }
    CHECK_MSG(count_files(b, NULL) >= 2 && count_files(a, NULL) == 0, "cache_dir: %d files there, %d in DYNGRAPH_CACHE_DIR",
              count_files(b, NULL), count_files(a, NULL));
}

/* The default cache directory ($HOME/.cache/dyngraph, $XDG_CACHE_HOME/dyngraph) is made
   private (0700) and not used once another user could write it. HOME and XDG_CACHE_HOME point
   into the test's temporary directory. */
static char *saved_env(const char *name)
{
    const char *v = getenv(name);
    return v ? strcpy((char *)xmalloc(strlen(v) + 1), v) : NULL;
}
static void restore_env(const char *name, char *v)
{
    if (v) setenv(name, v, 1);
    else unsetenv(name);
    free(v);
}
static int cache_files_after_sync(const char *dir, const char *label)
{
    dg_graph *g;
    dg_status s;
    dg_cache_clear();   /* programs kept in memory would not touch the disk cache */
    g = new_graph(0, 0, 0);
    if (!g) return -1;
    s = dg_sync(g);
    CHECK_MSG(s == DG_OK, "%s: sync: %s: %s", label, dg_status_string(s), dg_error_message(g));
    dg_destroy(g);
    return count_files(dir, NULL);
}
static void test_default_cache(void)
{
    char *home = saved_env("HOME"), *xdg = saved_env("XDG_CACHE_HOME"), *dir = saved_env("DYNGRAPH_CACHE_DIR");
    char h[512], cache[600], sub[640], x[512], xsub[600];
    struct stat st;
    int n;
    setenv("DYNGRAPH_CACHE", "1", 1);   /* on, also on PoCL */
    unsetenv("DYNGRAPH_CACHE_DIR");
    unsetenv("XDG_CACHE_HOME");
    if (!make_dir(h, sizeof h, "home") || !make_dir(x, sizeof x, "xdg")) {
        CHECK_MSG(0, "cannot make the home directories under %s", tmp_root);
        goto out;
    }
    setenv("HOME", h, 1);
    snprintf(cache, sizeof cache, "%s/.cache", h);
    snprintf(sub, sizeof sub, "%s/dyngraph", cache);
    /* $HOME/.cache is made too, both private */
    n = cache_files_after_sync(sub, "default cache");
    CHECK_MSG(n >= 1, "no cache file under %s (%d)", sub, n);
    CHECK(stat(cache, &st) == 0 && (st.st_mode & 0777) == 0700);
    CHECK_MSG(stat(sub, &st) == 0 && S_ISDIR(st.st_mode) && (st.st_mode & 0777) == 0700,
              "%s: mode %o, want 0700", sub, (unsigned)(st.st_mode & 0777));
    /* writable by others: not used (nothing read, nothing written) */
    remove_tree(sub);
    CHECK(mkdir(sub, 0700) == 0 && chmod(sub, 0777) == 0);
    n = cache_files_after_sync(sub, "shared cache directory");
    CHECK_MSG(n == 0, "a cache directory others can write got %d files", n);
    /* group-writable only: not used either */
    CHECK(chmod(sub, 0770) == 0);
    n = cache_files_after_sync(sub, "group-writable cache directory");
    CHECK_MSG(n == 0, "a group-writable cache directory got %d files", n);
    /* XDG_CACHE_HOME wins over HOME: its dyngraph subdirectory, private */
    setenv("XDG_CACHE_HOME", x, 1);
    snprintf(xsub, sizeof xsub, "%s/dyngraph", x);
    n = cache_files_after_sync(xsub, "XDG cache");
    CHECK_MSG(n >= 1, "no cache file under %s (%d)", xsub, n);
    CHECK(stat(xsub, &st) == 0 && (st.st_mode & 0777) == 0700);
out:
    restore_env("HOME", home);
    restore_env("XDG_CACHE_HOME", xdg);
    restore_env("DYNGRAPH_CACHE_DIR", dir);
    dg_cache_clear();
}

/* Damaged cache files must be ignored (the program is built from source again). Run last: a
   driver handed a damaged binary may crash the process. */
static void test_cache_damage(void)
{
    char a[512];
    dg_graph *g;
    int how;
    setenv("DYNGRAPH_CACHE", "1", 1);   /* on, also on PoCL */
    if (!make_dir(a, sizeof a, "cache_damage")) { CHECK_MSG(0, "cannot make %s", a); return; }
    setenv("DYNGRAPH_CACHE_DIR", a, 1);
    dg_cache_clear();   /* programs kept in memory would not touch the disk cache */
    g = new_graph(0, 0, 0);
    if (!g) return;
    CHECK(small_works(g, "cache damage: writing the cache"));
    dg_destroy(g);
    CHECK_MSG(count_files(a, NULL) >= 2, "cache damage: %d files written", count_files(a, NULL));
    for (how = 1; how <= 2; how++) {
        /* 1: garbage bytes at the start, middle and end of every file; 2: every file cut to 7 bytes */
        CHECK(corrupt_files(a, how) >= 1);
        printf("test_device: cache files %s\n", how == 1 ? "overwritten with garbage" : "truncated");
        dg_cache_clear();   /* programs kept in memory would not touch the disk cache */
    g = new_graph(0, 0, 0);
        if (!g) return;
        CHECK_MSG(small_works(g, how == 1 ? "cache: overwritten files" : "cache: truncated files"),
                  "damaged cache (%d)", how);
        dg_destroy(g);
        dg_cache_clear();   /* programs kept in memory would not touch the disk cache */
    g = new_graph(0, 0, 0);             /* and once more, after whatever that rewrote */
        if (!g) return;
        CHECK(small_works(g, "cache: after the rewrite"));
        dg_destroy(g);
    }
}

/* ================================ device faults ================================ */
/* Each device allocation that an operation makes fails in turn (dg_debug_fail_device_alloc,
   fault k = 0, 1, ... until the operation makes fewer than k + 1 allocations), each time on a
   fresh graph with the same edges, synced first unless the operation is the first sync: the call
   returns DG_ERR_DEVICE_MEMORY, the host graph is unchanged and valid, and without the fault the
   same call succeeds with the answer of a graph that never saw a fault. */
enum { FOP_SYNC, FOP_GROW, FOP_BFS, FOP_SSSP = FOP_BFS + 5, FOP_REACH = FOP_SSSP + 3, FOP_FRONTIER,
       FOP_BATCH_CL, FOP_COUNT };
#define FAULT_N 600
#define FAULT_Q 64
typedef struct fault_ctx {
    dg_edge *e, *more;            /* the graph's edges; more edges for FOP_GROW and FOP_BATCH_CL */
    size_t ne, nmore;
    int32_t dist[FAULT_N];
    float fdist[FAULT_N];
    dg_vertex qs[FAULT_Q], qd[FAULT_Q];
    uint8_t reach[FAULT_Q];
} fault_ctx;

static const char *fop_name(int op)
{
    static const char *names[FOP_COUNT] = { "first sync", "growing sync", "bfs mask", "bfs queue",
        "bfs edge-chunk", "bfs top-down", "bfs direction-opt", "sssp bellman-ford", "sssp frontier",
        "sssp near-far", "reach", "frontier", "dg_add_edges_cl" };
    return names[op];
}

/* Runs op on g; out receives its answer (for comparison). */
static dg_status fault_run(dg_graph *g, int op, fault_ctx *c, fault_ctx *out)
{
    dg_status s;
    if (op == FOP_SYNC) return dg_sync(g);
    if (op == FOP_GROW) {
        if ((s = dg_add_edges(g, c->more, c->nmore, NULL)) != DG_OK) return s;
        return dg_sync(g);
    }
    if (op < FOP_SSSP) {
        dg_bfs_options o;
        memset(&o, 0, sizeof o);
        o.strategy = (dg_bfs_strategy)(DG_BFS_MASK + (op - FOP_BFS));
        return dg_bfs(g, 0, out->dist, &o);
    }
    if (op < FOP_REACH) {
        dg_sssp_options o;
        memset(&o, 0, sizeof o);
        o.strategy = (dg_sssp_strategy)(DG_SSSP_BELLMAN_FORD + (op - FOP_SSSP));
        return dg_sssp(g, 0, out->fdist, &o);
    }
    if (op == FOP_REACH) return dg_reach(g, c->qs, c->qd, FAULT_Q, out->reach);
    if (op == FOP_FRONTIER) {
        dg_frontier *f = NULL;
        dg_vertex ids[3] = { 1, 2, 3 };
        if ((s = dg_frontier_create(g, 1000, &f)) == DG_OK) s = dg_frontier_set(f, ids, 3);
        dg_frontier_destroy(f);
        return s;
    }
    {   /* FOP_BATCH_CL */
        cl_mem m = buf_new(g, c->nmore * sizeof(dg_edge));
        size_t added = 0;
        if (!m) return DG_ERR_OPENCL;
        s = buf_write(g, m, c->more, c->nmore * sizeof(dg_edge)) ? dg_add_edges_cl(g, m, c->nmore, &added)
                                                                 : DG_ERR_OPENCL;
        clReleaseMemObject(m);
        return s;
    }
}

static dg_graph *fault_graph(const fault_ctx *c)
{
    dg_graph *g = new_graph(64, 0, 1);
    if (!g) return NULL;
    CHECK(dg_add_vertices(g, FAULT_N, NULL) == DG_OK);
    CHECK(dg_add_edges(g, c->e, c->ne, NULL) == DG_OK);
    return g;
}

static void test_device_faults(void)
{
    fault_ctx *c = (fault_ctx *)xmalloc(sizeof *c), *want = (fault_ctx *)xmalloc(sizeof *want),
              *got = (fault_ctx *)xmalloc(sizeof *got);
    size_t i;
    int op, k, total = 0;
    c->ne = 3000;
    c->nmore = 6000;          /* grows the page pool past its first capacity */
    c->e = (dg_edge *)xmalloc(c->ne * sizeof(dg_edge));
    c->more = (dg_edge *)xmalloc(c->nmore * sizeof(dg_edge));
    for (i = 0; i < c->ne; i++) {
        c->e[i].src = (dg_vertex)(i < 400 ? 7 : rnd(FAULT_N));   /* a hub: a large list */
        c->e[i].dst = (dg_vertex)rnd(FAULT_N);
        c->e[i].weight = (float)(1 + rnd(9));
    }
    for (i = 0; i < c->nmore; i++) {
        c->more[i].src = (dg_vertex)rnd(FAULT_N);
        c->more[i].dst = (dg_vertex)rnd(FAULT_N);
        c->more[i].weight = (float)(1 + rnd(9));
    }
    for (i = 0; i < FAULT_Q; i++) { c->qs[i] = (dg_vertex)rnd(FAULT_N); c->qd[i] = (dg_vertex)rnd(FAULT_N); }
    for (op = 0; op < FOP_COUNT; op++) {
        dg_graph *g = fault_graph(c);
        dg_status s;
        if (!g) break;
        if (op != FOP_SYNC) CHECK(dg_sync(g) == DG_OK);
        s = fault_run(g, op, c, want);
        CHECK_MSG(s == DG_OK, "faults: %s without a fault: %s: %s", fop_name(op), dg_status_string(s), dg_error_message(g));
        dg_destroy(g);
        for (k = 0; k < 200; k++) {
            size_t edges, bound;
            long made;
            g = fault_graph(c);
            if (!g) break;
            if (op != FOP_SYNC) CHECK(dg_sync(g) == DG_OK);
            edges = dg_edge_count(g);
            bound = dg_vertex_id_bound(g);
            dg_debug_fail_device_alloc(k);
            s = fault_run(g, op, c, got);
            made = dg_debug_device_allocs();
            dg_debug_fail_device_alloc(-1);
            if (made <= k) {       /* the operation made k allocations or fewer: every one failed once */
                CHECK_MSG(s == DG_OK, "faults: %s: %s: %s", fop_name(op), dg_status_string(s), dg_error_message(g));
                CHECK_MSG(op == FOP_SYNC || op == FOP_GROW || op == FOP_BATCH_CL || k > 0,
                          "faults: %s made no device allocation on a synced graph", fop_name(op));
                dg_destroy(g);
                break;
            }
            total++;
            CHECK_MSG(s == DG_ERR_DEVICE_MEMORY, "faults: %s, allocation %d failing: %s (%s)", fop_name(op), k,
                      dg_status_string(s), dg_error_message(g));
            CHECK_MSG(op == FOP_GROW || op == FOP_BATCH_CL ? 1 : dg_edge_count(g) == edges,
                      "faults: %s, allocation %d: the edge count changed", fop_name(op), k);
            CHECK(dg_vertex_id_bound(g) == bound);
            CHECK_MSG(dg_validate(g) == DG_OK, "faults: %s, allocation %d: %s", fop_name(op), k, dg_error_message(g));
            /* without the fault: the same call (the batch of FOP_GROW may have landed: a sync
               failed after it, and adding it again adds nothing) */
            s = fault_run(g, op, c, got);
            CHECK_MSG(s == DG_OK, "faults: %s after allocation %d failed: %s: %s", fop_name(op), k,
                      dg_status_string(s), dg_error_message(g));
            if (s == DG_OK) {
                s = dg_validate_device(g);
                CHECK_MSG(s == DG_OK, "faults: %s after allocation %d failed: the mirror: %s", fop_name(op), k,
                          dg_error_message(g));
                if (op >= FOP_BFS && op < FOP_SSSP)
                    CHECK_MSG(memcmp(got->dist, want->dist, sizeof got->dist) == 0, "faults: %s: other distances", fop_name(op));
                if (op >= FOP_SSSP && op < FOP_REACH)
                    CHECK_MSG(memcmp(got->fdist, want->fdist, sizeof got->fdist) == 0, "faults: %s: other distances", fop_name(op));
                if (op == FOP_REACH)
                    CHECK_MSG(memcmp(got->reach, want->reach, sizeof got->reach) == 0, "faults: reach: other answers");
            }
            dg_destroy(g);
        }
        CHECK_MSG(k < 200, "faults: %s: still failing after 200 allocations", fop_name(op));
    }
    printf("test_device: %d device allocations failed in turn\n", total);
    free(c->e);
    free(c->more);
    free(c);
    free(want);
    free(got);
}

/* ================================ sort ================================ */
/* dg_sort_pairs against qsort of (key, index): sorted, stable (values = original index, so equal
   keys must keep ascending values), a permutation; sizes around the tile size, keys with few
   distinct values, all equal, already sorted and reversed; keys alone; bad arguments. Each size
   past one tile both ways: tiles placed by a look-back (half of them with only tile 0's
   inclusive counts published, so that look-backs add windows of counts), and by counts and a
   scan. */
typedef struct kv { uint32_t k, v; } kv;
static int kv_cmp(const void *a, const void *b)
{
    const kv *x = (const kv *)a, *y = (const kv *)b;
    if (x->k != y->k) return x->k < y->k ? -1 : 1;
    return x->v < y->v ? -1 : x->v > y->v;
}
static void test_sort(void)
{
    static const size_t sizes[] = { 0, 1, 2, 3, 255, 1000, 2047, 2048, 2049, 4097, 100000, 1000003 };
    dg_graph *g = new_graph(64, 0, 0);
    size_t si, sweep_tiles = dg__sort_sweep_tiles;
    int kind;
    if (!g) return;
    for (si = 0; si < 2 * sizeof sizes / sizeof sizes[0]; si++)
        for (kind = 0; kind < 6; kind++) {
            size_t n = sizes[si / 2], i, bad = 0;
            uint32_t *k = (uint32_t *)xmalloc((n + 1) * 4), *v = (uint32_t *)xmalloc((n + 1) * 4);
            kv *ref = (kv *)xmalloc((n + 1) * sizeof(kv));
            cl_mem mk, mv;
            dg_status s;
            if ((n > 5000 && kind > 2 && kind != 5) || (n > 500000 && kind > 1)) {   /* (make test's time) */
                free(k); free(v); free(ref);
                continue;
            }
            for (i = 0; i < n; i++) {
                uint32_t x = (uint32_t)rnd(0xffffffffu) ^ ((uint32_t)rnd(2) << 31);
                k[i] = kind == 0 ? x : kind == 1 ? x % 7 : kind == 2 ? x & 0xf0f0f0f0u : kind == 3 ? 42u
                       : kind == 4 ? (uint32_t)i : (uint32_t)(n - i);
                v[i] = (uint32_t)i;
                ref[i].k = k[i]; ref[i].v = (uint32_t)i;
            }
            qsort(ref, n, sizeof(kv), kv_cmp);
            mk = buf_new(g, n * 4);
            mv = buf_new(g, n * 4);
            if (!mk || !mv || !buf_write(g, mk, k, n * 4) || !buf_write(g, mv, v, n * 4)) break;
            dg__sort_sweep_tiles = si % 2 ? (size_t)-1 : 0;
            dg__sort_incl = kind % 2;   /* (0: every look-back adds windows back to tile 0) */
            s = dg_sort_pairs(g, mk, kind == 5 ? NULL : mv, n);
            dg__sort_sweep_tiles = sweep_tiles;
            dg__sort_incl = 1;
            CHECK_MSG(s == DG_OK, "sort n %zu kind %d: %s: %s", n, kind, dg_status_string(s), dg_error_message(g));
            if (buf_read(g, mk, k, n * 4) && buf_read(g, mv, v, n * 4))
                for (i = 0; i < n; i++)
                    if (k[i] != ref[i].k || (kind != 5 && v[i] != ref[i].v)) bad++;
            CHECK_MSG(bad == 0, "sort n %zu kind %d (%s): %zu places differ from the stable reference", n, kind,
                      si % 2 ? "look-back" : "counts and scan", bad);
            clReleaseMemObject(mk);
            clReleaseMemObject(mv);
            free(k); free(v); free(ref);
        }
    {   /* bad arguments */
        cl_mem m = buf_new(g, 16), m2 = buf_new(g, 16);
        CHECK(dg_sort_pairs(NULL, m, m2, 4) == DG_ERR_INVALID_ARGUMENT);
        CHECK(dg_sort_pairs(g, NULL, m2, 4) == DG_ERR_INVALID_ARGUMENT);
        CHECK(dg_sort_pairs(g, m, m2, 5) == DG_ERR_INVALID_ARGUMENT);     /* 20 bytes > 16 */
        CHECK(dg_sort_pairs(g, m, m, 4) == DG_ERR_INVALID_ARGUMENT);
        CHECK(dg_sort_pairs(g, m, m2, (size_t)1 << 31) == DG_ERR_LIMIT);
        CHECK(dg_sort_pairs(g, m, NULL, 4) == DG_OK);
        if (m) clReleaseMemObject(m);
        if (m2) clReleaseMemObject(m2);
    }
    dg_destroy(g);
}

/* ================================ device choice ================================ */
static int any_gpu(void)
{
    cl_platform_id ps[16];
    cl_uint np = 0, i, nd;
    if (clGetPlatformIDs(16, ps, &np) != CL_SUCCESS) return 0;
    for (i = 0; i < np && i < 16; i++)
        if (clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_GPU, 0, NULL, &nd) == CL_SUCCESS && nd > 0) return 1;
    return 0;
}

static void test_device_choice(void)
{
    dg_graph *g;
    dg_desc d;
    dg_status s;
    char devname[512] = "", upper[512];
    const char *old = getenv("DYNGRAPH_DEVICE");
    char *saved = old ? strcpy((char *)xmalloc(strlen(old) + 1), old) : NULL;
    cl_device_type type = 0;
    size_t i;
    int32_t dist[4];

    unsetenv("DYNGRAPH_DEVICE");
    /* the default */
    g = new_graph(0, 0, 0);
    if (!g) { free(saved); return; }
    CHECK_MSG(dg_device_name(g) && dg_device_name(g)[0] == '\0', "dg_device_name before set-up: '%s'",
              dg_device_name(g) ? dg_device_name(g) : "(null)");
    s = dg_sync(g);
    CHECK_MSG(s == DG_OK, "default device: %s: %s", dg_status_string(s), dg_error_message(g));
    if (s == DG_OK) {
        cl_device_id dev = dg_cl_device(g);
        const char *name = dg_device_name(g);
        CHECK(dev != NULL && dg_cl_context(g) != NULL && dg_cl_queue(g) != NULL);
        CHECK_MSG(name && name[0] && strstr(name, ": "), "dg_device_name: '%s'", name ? name : "(null)");
        if (dev && clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof devname, devname, NULL) == CL_SUCCESS) {
            CHECK_MSG(strstr(name, devname) != NULL, "dg_device_name '%s' does not name '%s'", name, devname);
            clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, NULL);
        }
        printf("test_device: device %s\n", name);
    }
    dg_destroy(g);

    /* DYNGRAPH_DEVICE matching nothing: every kind of first device operation */
    setenv("DYNGRAPH_DEVICE", "no-such-device-zq9", 1);
    for (i = 0; i < 5; i++) {
        dg_vertex f;
        dg_frontier *fr = NULL;
        g = new_graph(0, 0, 0);
        if (!g) break;
        CHECK(dg_add_vertices(g, 3, &f) == DG_OK && dg_add_edge(g, 0, 1, 1.0f) == DG_OK);
        switch (i) {
        case 0: s = dg_sync(g); break;
        case 1: s = dg_bfs(g, 0, dist, NULL); break;
        case 2: s = dg_validate_device(g); break;
        case 3: s = dg_frontier_create(g, 8, &fr); CHECK(fr == NULL); break;
        default: CHECK(dg_cl_context(g) == NULL && dg_cl_queue(g) == NULL && dg_cl_device(g) == NULL);
                 s = DG_ERR_NO_DEVICE; break;
        }
        CHECK_MSG(s == DG_ERR_NO_DEVICE, "DYNGRAPH_DEVICE matching nothing, operation %zu: %s", i, dg_status_string(s));
        CHECK_MSG(contains_ci(dg_error_message(g), "no-such-device-zq9"),
                  "the message does not name the device asked for: '%s'", dg_error_message(g));
        /* a second try fails the same way, the host side is untouched */
        CHECK(dg_sync(g) == DG_ERR_NO_DEVICE);
        CHECK(dg_has_edge(g, 0, 1) && dg_add_edge(g, 1, 2, 1.0f) == DG_OK && dg_validate(g) == DG_OK);
        CHECK(dg_device_name(g) != NULL && dg_device_name(g)[0] == '\0');
        if (i == 1) {
            /* the failed set-up left nothing behind: with a usable choice the same graph works */
            unsetenv("DYNGRAPH_DEVICE");
            s = dg_bfs(g, 0, dist, NULL);
            CHECK_MSG(s == DG_OK && dist[0] == 0 && dist[1] == 1 && dist[2] == 2,
                      "retry after DG_ERR_NO_DEVICE: %s: %s", dg_status_string(s), dg_error_message(g));
            CHECK(dg_validate_device(g) == DG_OK && dg_device_name(g)[0] != '\0');
            setenv("DYNGRAPH_DEVICE", "no-such-device-zq9", 1);
        }
        dg_destroy(g);
    }
    /* desc.device wins over the environment */
    if (devname[0]) {
        memset(&d, 0, sizeof d);
        for (i = 0; devname[i] && i + 1 < sizeof upper; i++) upper[i] = (char)toupper((unsigned char)devname[i]);
        upper[i] = '\0';
        d.device = upper;               /* the device's own name, in capitals */
        g = NULL;
        CHECK(dg_create(&d, &g) == DG_OK);
        if (g) {
            s = dg_sync(g);
            CHECK_MSG(s == DG_OK, "desc.device '%s': %s: %s", upper, dg_status_string(s), dg_error_message(g));
            if (s == DG_OK) {
                char got[512] = "";
                clGetDeviceInfo(dg_cl_device(g), CL_DEVICE_NAME, sizeof got, got, NULL);
                CHECK_MSG(strcmp(got, devname) == 0, "desc.device '%s' chose '%s'", upper, got);
            }
            dg_destroy(g);
        }
    }
    if (type & CL_DEVICE_TYPE_CPU) {
        memset(&d, 0, sizeof d);
        d.device = "cpu";
        g = NULL;
        CHECK(dg_create(&d, &g) == DG_OK);
        if (g) {
            CHECK_MSG(small_works(g, "desc.device cpu"), "desc.device = cpu");
            if (dg_cl_device(g)) {
                cl_device_type t = 0;
                clGetDeviceInfo(dg_cl_device(g), CL_DEVICE_TYPE, sizeof t, &t, NULL);
                CHECK(t & CL_DEVICE_TYPE_CPU);
            }
            dg_destroy(g);
        }
    }
    unsetenv("DYNGRAPH_DEVICE");
    /* desc.device matching nothing */
    memset(&d, 0, sizeof d);
    d.device = "no-such-device-zq9";
    g = NULL;
    CHECK(dg_create(&d, &g) == DG_OK);
    if (g) {
        s = dg_sync(g);
        CHECK_MSG(s == DG_ERR_NO_DEVICE, "desc.device matching nothing: %s", dg_status_string(s));
        CHECK(dg_error_message(g)[0] != '\0');
        dg_destroy(g);
    }
    if (!any_gpu()) {
        memset(&d, 0, sizeof d);
        d.device = "gpu";
        g = NULL;
        CHECK(dg_create(&d, &g) == DG_OK);
        if (g) {
            s = dg_sync(g);
            CHECK_MSG(s == DG_ERR_NO_DEVICE, "desc.device = gpu without a GPU: %s", dg_status_string(s));
            dg_destroy(g);
        }
    }
    if (saved) setenv("DYNGRAPH_DEVICE", saved, 1);
    free(saved);
}

/* ================================ the mirror ================================ */
/* One random mutation; the library's return code must be one the call may give. */
static void mirror_step(dg_graph *g, int weighted, int32_t *hub, int phase)
{
    int op = (int)rnd(100);
    dg_status s;
    int32_t u = random_live(g), v = random_live(g);
    if (u < 0 || dg_vertex_count(g) < 8) op = 95;
    if (op < 25) {
        if (chance(30) && dg_has_vertex(g, *hub)) u = *hub;
        s = dg_add_edge(g, u, v, (float)rnd(50) * 0.5f);
        CHECK_MSG(s == DG_OK || s == DG_ERR_EXISTS, "dg_add_edge: %s", dg_status_string(s));
    } else if (op < 40) {
        int32_t w = random_neighbor(g, u);
        if (w < 0) return;
        s = dg_remove_edge(g, u, w);
        CHECK_MSG(s == DG_OK, "dg_remove_edge(%d, %d): %s", (int)u, (int)w, dg_status_string(s));
    } else if (op < 48) {
        int32_t w = random_neighbor(g, u);
        if (w < 0) return;
        s = dg_edit_edge(g, u, w, v);
        CHECK_MSG(s == DG_OK || s == DG_ERR_EXISTS, "dg_edit_edge: %s", dg_status_string(s));
    } else if (op < 56) {
        int32_t w = random_neighbor(g, u);
        if (w < 0) return;
        s = dg_set_weight(g, u, w, (float)rnd(1000) * 0.125f);
        CHECK_MSG(s == DG_OK, "dg_set_weight: %s", dg_status_string(s));
        (void)weighted;
    } else if (op < 72) {
        /* batch add: a hub grows in phase 0 */
        size_t n = 1 + rnd(phase == 0 ? 400 : 80), i;
        dg_edge *e = (dg_edge *)xmalloc(n * sizeof(dg_edge));
        int hubby = dg_has_vertex(g, *hub) && (phase == 0 ? chance(70) : chance(15));
        for (i = 0; i < n; i++) {
            e[i].src = random_live(g); e[i].dst = random_live(g);
            if (hubby && chance(85)) { if (chance(50)) e[i].src = *hub; else e[i].dst = *hub; }
            e[i].weight = (float)rnd(100);
        }
        s = dg_add_edges(g, e, n, NULL);
        CHECK_MSG(s == DG_OK, "dg_add_edges: %s", dg_status_string(s));
        free(e);
    } else if (op < 84) {
        /* batch removal: the hub shrinks in phase 1 */
        size_t n = 1 + rnd(phase == 1 ? 300 : 60), i;
        dg_edge *e = (dg_edge *)xmalloc(n * sizeof(dg_edge));
        for (i = 0; i < n; i++) {
            int32_t a = (phase == 1 && dg_has_vertex(g, *hub) && chance(70)) ? *hub : random_live(g);
            int32_t b = random_neighbor(g, a);
            e[i].src = a; e[i].dst = b >= 0 && chance(80) ? b : random_live(g); e[i].weight = 0;
        }
        s = dg_remove_edges(g, e, n, NULL);
        CHECK_MSG(s == DG_OK, "dg_remove_edges: %s", dg_status_string(s));
        free(e);
    } else if (op < 90) {
        if (u == *hub && phase != 1) return;
        s = dg_remove_vertex(g, u);
        CHECK_MSG(s == DG_OK, "dg_remove_vertex: %s", dg_status_string(s));
        if (u == *hub) *hub = random_live(g);
    } else {
        dg_vertex f;
        size_t n = chance(20) ? 1 + rnd(200) : 1;
        s = dg_add_vertices(g, n, &f);
        CHECK_MSG(s == DG_OK, "dg_add_vertices: %s", dg_status_string(s));
        if (s == DG_OK && chance(60) && u >= 0) {
            s = dg_add_edge(g, f, u, 1.0f);
            CHECK(s == DG_OK);
        }
    }
}

static void run_mirror(int undirected, int weighted, uint32_t page_size, int steps)
{
    dg_graph *g = new_graph(page_size, undirected, weighted);
    char label[128];
    int step, fails = 0;
    int32_t hub;
    dg_status s;
    if (!g) return;
    snprintf(label, sizeof label, "mirror %s %s page %u", undirected ? "undirected" : "directed",
             weighted ? "weighted" : "unweighted", (unsigned)page_size);
    /* empty, then vertices without edges */
    s = dg_validate_device(g);
    CHECK_MSG(s == DG_OK, "[%s] empty graph: %s: %s", label, dg_status_string(s), dg_error_message(g));
    fill_random(g, 300, 0, 0, 0, NULL);
    s = dg_validate_device(g);
    CHECK_MSG(s == DG_OK, "[%s] no edges: %s: %s", label, dg_status_string(s), dg_error_message(g));
    fill_random(g, 100, 600, 1, page_size == 64 ? 300 : 50, &hub);
    for (step = 0; step < steps && fails < 3; step++) {
        int phase = (step / 40) % 3;       /* 0 grow the hub, 1 shrink it, 2 mixed */
        mirror_step(g, weighted, &hub, phase);
        if (chance(25)) {
            s = dg_sync(g);
            CHECK_MSG(s == DG_OK, "[%s] step %d: dg_sync: %s: %s", label, step, dg_status_string(s), dg_error_message(g));
        }
        if (chance(5)) {
            int32_t src = random_live(g);
            int32_t *dist = (int32_t *)xmalloc((dg_vertex_id_bound(g) + 1) * sizeof(int32_t));
            s = src >= 0 ? dg_bfs(g, src, dist, NULL) : DG_OK;
            CHECK_MSG(s == DG_OK, "[%s] step %d: dg_bfs: %s: %s", label, step, dg_status_string(s), dg_error_message(g));
            free(dist);
        }
        s = dg_validate_device(g);
        CHECK_MSG(s == DG_OK, "[%s] step %d (seed %llu): dg_validate_device: %s: %s", label, step,
                  (unsigned long long)seed, dg_status_string(s), dg_error_message(g));
        if (s != DG_OK) fails++;
        if (step % 50 == 49) {
            dg_stats st;
            s = dg_validate(g);
            CHECK_MSG(s == DG_OK, "[%s] step %d: dg_validate: %s", label, step, dg_error_message(g));
            CHECK(dg_get_stats(g, &st) == DG_OK && st.pages_changed == 0 && st.syncs >= 1 && st.device_bytes > 0);
        }
    }
    {
        dg_stats st;
        CHECK(dg_get_stats(g, &st) == DG_OK);
        printf("test_device: [%s] %d steps, %zu vertices, %zu edges, %zu large lists, %zu syncs\n", label, step,
               st.vertices, st.edges, st.large_lists, st.syncs);
    }
    dg_destroy(g);
}

/* ================================ O(k) sync ================================ */
static void run_sync_cost(int undirected, int weighted)
{
    dg_graph *g = new_graph(1024, undirected, weighted);
    dg_stats st0, st;
    dg_status s;
    size_t full;
    uint64_t up;
    size_t syncs;
    int ki;
    const int ks[3] = { 1, 10, 100 };
    char label[64];
    if (!g) return;
    snprintf(label, sizeof label, "sync cost %s %s", undirected ? "undirected" : "directed",
             weighted ? "weighted" : "unweighted");
    fill_random(g, 50000, undirected ? 200000 : 400000, 0, 0, NULL);
    s = dg_sync(g);
    CHECK_MSG(s == DG_OK, "[%s] first sync: %s: %s", label, dg_status_string(s), dg_error_message(g));
    if (s != DG_OK) { dg_destroy(g); return; }
    CHECK(dg_get_stats(g, &st0) == DG_OK);
    full = st0.last_sync_bytes;
    printf("test_device: [%s] %zu edges, %zu pages; first sync %zu bytes, %zu pages; device %zu bytes\n", label,
           st0.edges, st0.pages, full, st0.last_sync_pages, st0.device_bytes);
    CHECK_MSG(st0.syncs == 1 && st0.upload_bytes == (uint64_t)full && st0.pages_changed == 0,
              "[%s] after the first sync: syncs %zu, upload %llu, last %zu, pages_changed %zu", label, st0.syncs,
              (unsigned long long)st0.upload_bytes, full, st0.pages_changed);
    /* the whole graph went: every live page */
    CHECK_MSG(st0.last_sync_pages >= st0.pages && full > 0,
              "[%s] first sync: %zu pages, %zu bytes for %zu live pages", label, st0.last_sync_pages, full, st0.pages);
    CHECK(st0.device_bytes >= full);
    /* nothing changed: nothing sent */
    s = dg_sync(g);
    CHECK(s == DG_OK && dg_get_stats(g, &st) == DG_OK);
    CHECK_MSG(st.upload_bytes == st0.upload_bytes && st.syncs == st0.syncs,
              "[%s] a sync without change sent %llu bytes", label,
              (unsigned long long)(st.upload_bytes - st0.upload_bytes));
    /* nor does a BFS (it syncs first) */
    {
        int32_t *dist = (int32_t *)xmalloc(50000 * sizeof(int32_t));
        s = dg_bfs(g, 0, dist, NULL);
        CHECK(s == DG_OK && dg_get_stats(g, &st) == DG_OK);
        CHECK_MSG(st.upload_bytes == st0.upload_bytes, "[%s] a BFS without change sent %llu bytes", label,
                  (unsigned long long)(st.upload_bytes - st0.upload_bytes));
        free(dist);
    }
    for (ki = 0; ki < 3; ki++) {
        int k = ks[ki], i;
        size_t limit_pages = 4 * (size_t)k + 8;
        up = st.upload_bytes;
        syncs = st.syncs;
        for (i = 0; i < k; i++) {
            int32_t u = (int32_t)rnd(50000), w;
            int what = (int)rnd(weighted ? 3 : 2);
            if (what == 0) {
                do { w = (int32_t)rnd(50000); } while (dg_has_edge(g, u, w));
                s = dg_add_edge(g, u, w, 2.0f);
            } else {
                while ((w = random_neighbor(g, u)) < 0) u = (int32_t)rnd(50000);
                s = what == 1 ? dg_remove_edge(g, u, w) : dg_set_weight(g, u, w, 3.5f);
            }
            CHECK_MSG(s == DG_OK, "[%s] change %d: %s", label, i, dg_status_string(s));
        }
        CHECK(dg_get_stats(g, &st) == DG_OK);
        CHECK_MSG(st.pages_changed >= 1 && st.pages_changed <= limit_pages, "[%s] k = %d: %zu pages changed", label, k,
                  st.pages_changed);
        s = dg_sync(g);
        CHECK(s == DG_OK && dg_get_stats(g, &st) == DG_OK);
        printf("test_device: [%s] k = %d: %zu pages, %zu bytes (%.2f%% of the first sync)\n", label, k,
               st.last_sync_pages, st.last_sync_bytes, 100.0 * (double)st.last_sync_bytes / (double)full);
        CHECK_MSG(st.last_sync_pages >= 1 && st.last_sync_pages <= limit_pages, "[%s] k = %d: sync sent %zu pages (limit %zu)",
                  label, k, st.last_sync_pages, limit_pages);
        CHECK_MSG(st.upload_bytes - up == (uint64_t)st.last_sync_bytes && st.syncs == syncs + 1,
                  "[%s] k = %d: upload_bytes grew by %llu, last_sync_bytes %zu, syncs %zu -> %zu", label, k,
                  (unsigned long long)(st.upload_bytes - up), st.last_sync_bytes, syncs, st.syncs);
        if (k <= 10)
            CHECK_MSG(st.last_sync_bytes * 10 < full, "[%s] k = %d: %zu bytes, the first sync %zu", label, k,
                      st.last_sync_bytes, full);
        else
            CHECK_MSG(st.last_sync_bytes * 3 < full, "[%s] k = %d: %zu bytes, the first sync %zu", label, k,
                      st.last_sync_bytes, full);
        CHECK_MSG(st.last_sync_bytes <= st.last_sync_pages * 1024 * 4 * 2 + 4096 * (size_t)k + 64 * 1024,
                  "[%s] k = %d: %zu bytes for %zu pages", label, k, st.last_sync_bytes, st.last_sync_pages);
        CHECK(st.pages_changed == 0);
    }
    s = dg_validate_device(g);
    CHECK_MSG(s == DG_OK, "[%s] dg_validate_device: %s", label, dg_error_message(g));
    dg_destroy(g);
}

/* ================================ OpenCL object lifetime ================================ */
static cl_uint ctx_refs(cl_context c)
{
    cl_uint n = 0;
    clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof n, &n, NULL);
    return n;
}
static cl_uint queue_refs(cl_command_queue q)
{
    cl_uint n = 0;
    clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof n, &n, NULL);
    return n;
}

/* Uses g's device side as much as possible: every BFS strategy, frontiers, a program with each
   kind of op, a failed build, scan. */
static void exercise(dg_graph *g, const char *label)
{
    static const dg_bfs_strategy strategies[] = { DG_BFS_AUTO, DG_BFS_MASK, DG_BFS_QUEUE, DG_BFS_EDGE_CHUNK,
                                                  DG_BFS_TOP_DOWN, DG_BFS_DIRECTION_OPT };
    size_t bound = dg_vertex_id_bound(g), i;
    int32_t *dist = (int32_t *)xmalloc((bound + 1) * sizeof(int32_t));
    int32_t *parent = (int32_t *)xmalloc((bound + 1) * sizeof(int32_t));
    dg_bfs_options opt;
    dg_bfs_stats st;
    dg_status s;
    dg_program *p = NULL;
    for (i = 0; i < sizeof strategies / sizeof strategies[0]; i++) {
        int c;
        /* csr_copy at page size 1024 only: one more OpenCL program to compile per page size */
        for (c = 0; c <= (dg_query_desc(g).page_size == 1024); c++) {
            memset(&opt, 0, sizeof opt);
            opt.strategy = strategies[i];
            opt.csr_copy = c;
            opt.parent = parent;
            opt.stats = &st;
            s = dg_bfs(g, 0, dist, &opt);
            if (c && strategies[i] == DG_BFS_QUEUE && s == DG_ERR_INVALID_ARGUMENT) continue;  /* refused: fine */
            CHECK_MSG(s == DG_OK, "[%s] dg_bfs strategy %d csr %d: %s: %s", label, (int)strategies[i], c,
                      dg_status_string(s), dg_error_message(g));
        }
    }
    s = user_program(g, &p);
    CHECK_MSG(s == DG_OK, "[%s] dg_program_create: %s: %s", label, dg_status_string(s), dg_error_message(g));
    if (s == DG_OK) {
        dg_frontier *a = NULL, *b = NULL;
        cl_mem data = buf_new(g, bound * sizeof(int32_t)), in = buf_new(g, 1000 * 4), out = buf_new(g, 1000 * 4);
        uint32_t total = 0, *vals = (uint32_t *)xmalloc(1000 * 4);
        dg_vertex zero = 0;
        size_t n = 0;
        for (i = 0; i < bound; i++) dist[i] = -1;
        for (i = 0; i < 1000; i++) vals[i] = (uint32_t)i;
        CHECK(dg_frontier_create(g, 16, &a) == DG_OK && dg_frontier_create(g, 16, &b) == DG_OK);
        if (a && b && data && in && out) {
            buf_write(g, data, dist, bound * sizeof(int32_t));
            buf_write(g, in, vals, 1000 * 4);
            CHECK(dg_frontier_set(a, &zero, 1) == DG_OK);
            dist[0] = 0;
            buf_write(g, data, dist, bound * sizeof(int32_t));
            CHECK(dg_advance(p, OP_VISIT, a, b, data) == DG_OK);
            CHECK(dg_filter(p, OP_ODD, b, a, data) == DG_OK);
            CHECK(dg_compute(p, OP_BUMP, a, data) == DG_OK);
            CHECK(dg_frontier_get(a, NULL, 0, &n) == DG_OK);
            CHECK(dg_scan(g, in, out, 1000, &total) == DG_OK && total == 999 * 1000 / 2);
            CHECK(dg_scan(g, in, in, 1000, NULL) == DG_OK);
        }
        if (data) clReleaseMemObject(data);
        if (in) clReleaseMemObject(in);
        if (out) clReleaseMemObject(out);
        free(vals);
        dg_frontier_destroy(a);
        dg_frontier_destroy(b);
        dg_program_destroy(p);
    }
    /* a failed build */
    p = NULL;
    s = dg_program_create(g, "int visit(int s, int d, float w, __global int *data) { return nope_zz + 1; }\n",
                          USER_OPS, 1, &p);
    CHECK_MSG(s == DG_ERR_OPENCL && p == NULL, "[%s] a failed build: %s", label, dg_status_string(s));
    dg_program_destroy(p);
    CHECK(dg_validate_device(g) == DG_OK);
    free(dist);
    free(parent);
}

static void test_cl_objects(void)
{
    cl_platform_id ps[16];
    cl_uint np = 0, pi;
    cl_device_id dev = NULL;
    cl_context ctx;
    cl_command_queue q;
    cl_int e;
    cl_uint c0, q0, c1, q1;
    dg_desc d;
    dg_graph *g = NULL, *g2 = NULL;
    dg_status s;
    int32_t hubs[2];

    CHECK(clGetPlatformIDs(16, ps, &np) == CL_SUCCESS && np > 0);
    for (pi = 0; pi < np && pi < 16 && !dev; pi++)
        if (clGetDeviceIDs(ps[pi], CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS) dev = NULL;
    CHECK(dev != NULL);
    if (!dev) return;
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
    CHECK(e == CL_SUCCESS);
    if (e != CL_SUCCESS) return;
    q = clCreateCommandQueue(ctx, dev, 0, &e);
    CHECK(e == CL_SUCCESS);
    if (e != CL_SUCCESS) { clReleaseContext(ctx); return; }
    c0 = ctx_refs(ctx);
    q0 = queue_refs(q);

    /* half a pair */
    memset(&d, 0, sizeof d);
    d.context = ctx;
    g = NULL;
    s = dg_create(&d, &g);
    if (s == DG_OK) { s = dg_sync(g); dg_destroy(g); g = NULL; }
    CHECK_MSG(s == DG_ERR_INVALID_ARGUMENT, "context without queue: %s", dg_status_string(s));
    memset(&d, 0, sizeof d);
    d.queue = q;
    s = dg_create(&d, &g);
    if (s == DG_OK) { s = dg_sync(g); dg_destroy(g); g = NULL; }
    CHECK_MSG(s == DG_ERR_INVALID_ARGUMENT, "queue without context: %s", dg_status_string(s));
    CHECK(ctx_refs(ctx) == c0 && queue_refs(q) == q0);

    /* a graph on the caller's objects, used in every way, then destroyed */
    memset(&d, 0, sizeof d);
    d.context = ctx;
    d.queue = q;
    d.page_size = 64;
    s = dg_create(&d, &g);
    CHECK(s == DG_OK);
    if (s == DG_OK) {
        fill_random(g, 2000, 6000, 2, 300, hubs);
        s = dg_sync(g);
        CHECK_MSG(s == DG_OK, "caller's context: dg_sync: %s: %s", dg_status_string(s), dg_error_message(g));
        CHECK(dg_cl_context(g) == ctx && dg_cl_queue(g) == q && dg_cl_device(g) == dev);
        CHECK(dg_query_desc(g).context == ctx && dg_query_desc(g).queue == q);
        exercise(g, "caller's context");
        /* a second graph on the same objects, alive together */
        d.undirected = 1;
        d.page_size = 0;
        s = dg_create(&d, &g2);
        CHECK(s == DG_OK);
        if (s == DG_OK) {
            fill_random(g2, 500, 2000, 1, 100, NULL);
            exercise(g2, "caller's context, second graph");
        }
        c1 = ctx_refs(ctx);
        q1 = queue_refs(q);
        CHECK_MSG(c1 >= c0 && q1 >= q0, "reference counts went down while in use: context %u -> %u, queue %u -> %u",
                  c0, c1, q0, q1);
        dg_destroy(g);
        /* the other graph still works */
        if (g2) {
            exercise(g2, "second graph after the first is destroyed");
            dg_destroy(g2);
        }
    }
    c1 = ctx_refs(ctx);
    q1 = queue_refs(q);
    CHECK_MSG(c1 == c0, "context reference count %u before the graphs, %u after", c0, c1);
    CHECK_MSG(q1 == q0, "queue reference count %u before the graphs, %u after", q0, q1);
    /* the caller's objects still work */
    {
        cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &e);
        int x[16] = { 0 };
        CHECK(e == CL_SUCCESS && clEnqueueWriteBuffer(q, m, CL_TRUE, 0, sizeof x, x, 0, NULL, NULL) == CL_SUCCESS);
        if (m) clReleaseMemObject(m);
    }
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
}

/* ================================ a failed user build ================================ */
static void test_failed_build(void)
{
    dg_graph *g = NULL;
    dg_desc d;
    log_record rec;
    dg_program *p = (dg_program *)&rec;     /* must be set to NULL on failure */
    dg_op op;
    dg_status s;
    memset(&rec, 0, sizeof rec);
    memset(&d, 0, sizeof d);
    d.logger.func = log_fn;
    d.logger.user_data = &rec;
    if (dg_create(&d, &g) != DG_OK) { CHECK(0); return; }
    CHECK(small_works(g, "failed build: before"));
    memset(&rec, 0, sizeof rec);
    memset(&op, 0, sizeof op);
    op.kind = DG_OP_FILTER;
    op.function = "pick";
    s = dg_program_create(g, "int pick(int v, __global int *data) { return v + undeclared_thing_q7; }\n", &op, 1, &p);
    CHECK_MSG(s == DG_ERR_OPENCL, "a broken user program: %s", dg_status_string(s));
    CHECK(p == NULL);
    CHECK_MSG(strstr(dg_error_message(g), "undeclared_thing_q7") != NULL,
              "the message has no compiler log naming the identifier: '%.400s'", dg_error_message(g));
    CHECK_MSG(rec.calls >= 1 && rec.errors >= 1, "logger: %d calls, %d errors", rec.calls, rec.errors);
    CHECK_MSG(strstr(rec.text, "undeclared_thing_q7") != NULL, "the logger did not get the log: '%.400s'", rec.text);
    /* a syntax error */
    p = NULL;
    s = dg_program_create(g, "int pick(int v, __global int *data) { return v +; }\n", &op, 1, &p);
    CHECK_MSG(s == DG_ERR_OPENCL && p == NULL, "a syntax error: %s", dg_status_string(s));
    /* an op naming a function the source lacks */
    op.function = "absent_fn_q8";
    p = NULL;
    s = dg_program_create(g, "int pick(int v, __global int *data) { return v; }\n", &op, 1, &p);
    CHECK_MSG(s != DG_OK && p == NULL, "an op naming no function of the source: %s", dg_status_string(s));
    if (s == DG_OK) dg_program_destroy(p);
    /* bad arguments */
    op.function = "pick";
    p = NULL;
    CHECK(dg_program_create(NULL, "int pick(int v, __global int *data) { return v; }", &op, 1, &p) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_program_create(g, NULL, &op, 1, &p) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_program_create(g, "int pick(int v, __global int *data) { return v; }", NULL, 1, &p) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_program_create(g, "int pick(int v, __global int *data) { return v; }", &op, 1, NULL) == DG_ERR_INVALID_ARGUMENT);
    op.kind = (dg_op_kind)7;
    CHECK(dg_program_create(g, "int pick(int v, __global int *data) { return v; }", &op, 1, &p) == DG_ERR_INVALID_ARGUMENT);
    op.kind = DG_OP_FILTER;
    op.function = NULL;
    CHECK(dg_program_create(g, "int pick(int v, __global int *data) { return v; }", &op, 1, &p) == DG_ERR_INVALID_ARGUMENT);
    CHECK(p == NULL);
    /* the graph still works */
    CHECK(small_works(g, "failed build: after"));
    dg_destroy(g);
}

/* ================================ primitives ================================ */
typedef struct {
    dg_graph *g;
    dg_program *p;
    csr out, in;
    int weighted, undirected;
} prim_graph;


static int prim_setup(prim_graph *pg, uint32_t page_size, int undirected, int weighted, int32_t n, size_t m,
                      int hubs, int32_t hub_degree)
{
    dg_status s;
    memset(pg, 0, sizeof *pg);
    pg->g = new_graph(page_size, undirected, weighted);
    if (!pg->g) return 0;
    pg->weighted = weighted;
    pg->undirected = undirected;
    fill_random(pg->g, n, m, hubs, hub_degree, NULL);
    s = user_program(pg->g, &pg->p);
    CHECK_MSG(s == DG_OK, "dg_program_create: %s: %s", dg_status_string(s), dg_error_message(pg->g));
    if (s != DG_OK) { dg_destroy(pg->g); pg->g = NULL; return 0; }
    csr_of_graph(&pg->out, pg->g, 0);
    csr_of_graph(&pg->in, pg->g, 1);
    return 1;
}
static void prim_free(prim_graph *pg)
{
    dg_program_destroy(pg->p);
    dg_destroy(pg->g);
    csr_free(&pg->out);
    csr_free(&pg->in);
}

/* BFS (or k-hop) with the primitives: advance `visit`, compute `tally` on the new level, then
   (with use_filter) filter `expand` before the next level. */
static void prim_bfs(prim_graph *pg, int32_t src, int in_edges, int use_filter, int max_level, const char *label)
{
    dg_graph *g = pg->g;
    int32_t n = pg->out.n, level = 0;
    int32_t *host = (int32_t *)xmalloc(((size_t)n + 2) * sizeof(int32_t));
    int32_t *ref = (int32_t *)xmalloc(((size_t)n + 1) * sizeof(int32_t));
    size_t reached, len = 1, bad = 0, first = 0, v;
    cl_mem data = buf_new(g, ((size_t)n + 2) * sizeof(int32_t));
    dg_frontier *a = NULL, *b = NULL;
    dg_status s;
    int ok = 1;
    if (!data) { free(host); free(ref); return; }
    host[0] = 0; host[1] = src;
    for (v = 0; v < (size_t)n; v++) host[2 + v] = -1;
    host[2 + src] = 0;
    buf_write(g, data, host, ((size_t)n + 2) * sizeof(int32_t));
    CHECK(dg_frontier_create(g, 1, &a) == DG_OK && dg_frontier_create(g, 1, &b) == DG_OK);
    if (!a || !b) ok = 0;
    if (ok) CHECK(dg_frontier_set(a, &src, 1) == DG_OK);
    while (ok && len > 0 && (max_level < 0 || level < max_level)) {
        s = dg_advance(pg->p, in_edges ? OP_BFS_VISIT_IN : OP_BFS_VISIT, a, b, data);
        CHECK_MSG(s == DG_OK, "[%s] dg_advance: %s: %s", label, dg_status_string(s), dg_error_message(g));
        if (s != DG_OK) { ok = 0; break; }
        s = dg_compute(pg->p, OP_TALLY, b, data);
        CHECK_MSG(s == DG_OK, "[%s] dg_compute: %s: %s", label, dg_status_string(s), dg_error_message(g));
        if (s != DG_OK) { ok = 0; break; }
        if (use_filter) {
            s = dg_filter(pg->p, OP_EXPAND, b, a, data);
            CHECK_MSG(s == DG_OK, "[%s] dg_filter: %s: %s", label, dg_status_string(s), dg_error_message(g));
            if (s != DG_OK) { ok = 0; break; }
        } else {
            dg_frontier *t = a; a = b; b = t;
        }
        CHECK(dg_frontier_get(a, NULL, 0, &len) == DG_OK);
        level++;
        if (level > n + 1) { CHECK_MSG(0, "[%s] more levels than vertices", label); ok = 0; }
    }
    if (ok && buf_read(g, data, host, ((size_t)n + 2) * sizeof(int32_t))) {
        reached = ref_bfs(in_edges ? &pg->in : &pg->out, src, ref, use_filter, max_level);
        for (v = 0; v < (size_t)n; v++) if (host[2 + v] != ref[v]) { if (!bad++) first = v; }
        CHECK_MSG(bad == 0, "[%s] source %d (seed %llu): %zu wrong distances; dist[%zu] = %d, expected %d", label,
                  (int)src, (unsigned long long)seed, bad, first, (int)host[2 + first], (int)ref[first]);
        CHECK_MSG((size_t)host[0] == reached - 1, "[%s] source %d: tally %d, expected %zu", label, (int)src,
                  (int)host[0], reached - 1);
    }
    dg_frontier_destroy(a);
    dg_frontier_destroy(b);
    clReleaseMemObject(data);
    free(host);
    free(ref);
}

/* Advance `count_edge` from a frontier (with repeats): every edge of every element exactly once. */
static void prim_advance_count(prim_graph *pg, const int32_t *front, size_t nf, int in_edges, size_t out_cap,
                               const char *label)
{
    dg_graph *g = pg->g;
    const csr *r = in_edges ? &pg->in : &pg->out;
    int32_t n = r->n;
    size_t total = 0, i, k, len = (size_t)-1, bad = 0, words = 3 * (size_t)n + 1;
    int32_t *host = (int32_t *)xcalloc(words, sizeof(int32_t));     /* the layout of count_edge */
    int32_t *want = (int32_t *)xcalloc(words, sizeof(int32_t));
    int32_t *got_ids, *want_ids;
    cl_mem data = buf_new(g, words * sizeof(int32_t));
    dg_frontier *a = NULL, *b = NULL;
    dg_status s;
    host[0] = want[0] = n;
    for (i = 0; i < nf; i++) {
        int32_t u = front[i];
        for (k = r->off[u]; k < r->off[u + 1]; k++) {
            int32_t d = r->adj[k];
            want[1 + d]++;
            want[1 + n + d] += u + 1;
            /* the weight of the edge; in-edges (manual, 12) and unweighted graphs: 1 */
            want[1 + 2 * n + d] += in_edges || !pg->weighted ? 1 : (int)r->w[k];
            total++;
        }
    }
    got_ids = (int32_t *)xmalloc((total + 1) * sizeof(int32_t));
    want_ids = (int32_t *)xmalloc((total + 1) * sizeof(int32_t));
    if (!data) goto done;
    buf_write(g, data, host, words * sizeof(int32_t));
    CHECK(dg_frontier_create(g, nf ? nf : 1, &a) == DG_OK && dg_frontier_create(g, out_cap, &b) == DG_OK);
    if (!a || !b) goto done;
    CHECK(dg_frontier_set(a, front, nf) == DG_OK);
    s = dg_advance(pg->p, in_edges ? OP_COUNT_IN : OP_COUNT, a, b, data);
    CHECK_MSG(s == DG_OK, "[%s] dg_advance: %s: %s", label, dg_status_string(s), dg_error_message(g));
    if (s != DG_OK) goto done;
    for (i = 0; i < total; i++) got_ids[i] = -7;
    CHECK(dg_frontier_get(b, got_ids, total, &len) == DG_OK);
    CHECK_MSG(len == total, "[%s] advance output %zu ids, expected %zu", label, len, total);
    if (len == total) {
        k = 0;
        for (i = 0; i < nf; i++) {
            int32_t u = front[i];
            size_t j;
            for (j = r->off[u]; j < r->off[u + 1]; j++) want_ids[k++] = r->adj[j];
        }
        qsort(got_ids, total, sizeof(int32_t), cmp_i32);
        qsort(want_ids, total, sizeof(int32_t), cmp_i32);
        CHECK_MSG(memcmp(got_ids, want_ids, total * sizeof(int32_t)) == 0, "[%s] advance output is not the neighbours", label);
    }
    if (buf_read(g, data, host, words * sizeof(int32_t))) {
        size_t first = 0;
        for (i = 0; i < words; i++) if (host[i] != want[i]) { if (!bad++) first = i; }
        CHECK_MSG(bad == 0, "[%s] (seed %llu) %zu wrong counters; first: %s of %d = %d, expected %d", label,
                  (unsigned long long)seed, bad,
                  first == 0 ? "n" : first <= (size_t)n ? "count" : first <= 2 * (size_t)n ? "sum of sources" : "sum of weights",
                  first ? (int)((first - 1) % (size_t)n) : 0, (int)host[first], (int)want[first]);
    }
done:
    if (data) clReleaseMemObject(data);
    dg_frontier_destroy(a);
    dg_frontier_destroy(b);
    free(host); free(want); free(got_ids); free(want_ids);
}

/* filter `odd` and compute `bump` on a frontier of nf random ids */
static void prim_filter_compute(prim_graph *pg, size_t nf, const char *label)
{
    dg_graph *g = pg->g;
    int32_t n = pg->out.n;
    int32_t *front = (int32_t *)xmalloc((nf + 1) * sizeof(int32_t));
    int32_t *vals = (int32_t *)xmalloc((size_t)n * sizeof(int32_t));
    int32_t *want = (int32_t *)xmalloc((nf + 1) * sizeof(int32_t));
    int32_t *got = (int32_t *)xmalloc((nf + 2) * sizeof(int32_t));
    int32_t *after = (int32_t *)xmalloc((size_t)n * sizeof(int32_t));
    size_t i, nw = 0, len = (size_t)-1;
    cl_mem data = buf_new(g, (size_t)n * sizeof(int32_t));
    dg_frontier *a = NULL, *b = NULL;
    dg_status s;
    for (i = 0; i < (size_t)n; i++) vals[i] = (int32_t)rnd(1000);
    for (i = 0; i < nf; i++) {
        front[i] = (int32_t)rnd((uint32_t)n);
        if (vals[front[i]] & 1) want[nw++] = front[i];
    }
    if (!data) goto done;
    buf_write(g, data, vals, (size_t)n * sizeof(int32_t));
    CHECK(dg_frontier_create(g, nf ? nf : 1, &a) == DG_OK && dg_frontier_create(g, 1, &b) == DG_OK);
    if (!a || !b) goto done;
    CHECK(dg_frontier_set(a, front, nf) == DG_OK);
    s = dg_filter(pg->p, OP_ODD, a, b, data);
    CHECK_MSG(s == DG_OK, "[%s] dg_filter(%zu): %s: %s", label, nf, dg_status_string(s), dg_error_message(g));
    for (i = 0; i < nf + 2; i++) got[i] = -7;
    CHECK(dg_frontier_get(b, got, nf + 2, &len) == DG_OK);
    CHECK_MSG(len == nw && (nw == 0 || memcmp(got, want, nw * sizeof(int32_t)) == 0) && got[nw] == -7,
              "[%s] dg_filter(%zu): %zu kept, expected %zu, or not in order", label, nf, len, nw);
    /* the input is unchanged */
    CHECK(dg_frontier_get(a, got, nf + 2, &len) == DG_OK && len == nf && (nf == 0 || memcmp(got, front, nf * 4) == 0));
    /* compute: += 3 per occurrence */
    s = dg_compute(pg->p, OP_BUMP, a, data);
    CHECK_MSG(s == DG_OK, "[%s] dg_compute(%zu): %s: %s", label, nf, dg_status_string(s), dg_error_message(g));
    for (i = 0; i < nf; i++) vals[front[i]] += 3;
    if (buf_read(g, data, after, (size_t)n * sizeof(int32_t)))
        CHECK_MSG(memcmp(after, vals, (size_t)n * sizeof(int32_t)) == 0, "[%s] dg_compute(%zu): wrong values", label, nf);
done:
    if (data) clReleaseMemObject(data);
    dg_frontier_destroy(a);
    dg_frontier_destroy(b);
    free(front); free(vals); free(want); free(got); free(after);
}

static void prim_frontier_roundtrip(dg_graph *g)
{
    static const size_t sizes[] = { 0, 1, 2, 1000, 70000 };
    size_t si;
    for (si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        size_t n = sizes[si], i, len = (size_t)-1, cap = n + 1;
        int32_t *ids = (int32_t *)xmalloc((n + 1) * sizeof(int32_t));
        int32_t *got = (int32_t *)xmalloc((n + 4) * sizeof(int32_t));
        dg_frontier *f = NULL;
        for (i = 0; i < n; i++) {   /* live vertices: dg_frontier_set rejects any other id */
            do ids[i] = (int32_t)rnd((uint32_t)dg_vertex_id_bound(g)); while (!dg_has_vertex(g, ids[i]));
        }
        CHECK(dg_frontier_create(g, cap, &f) == DG_OK);
        if (f) {
            CHECK(dg_frontier_buffer(f) != NULL);
            CHECK(dg_frontier_set(f, ids, n) == DG_OK);
            CHECK(dg_frontier_get(f, NULL, 0, &len) == DG_OK && len == n);
            for (i = 0; i < n + 4; i++) got[i] = -7;
            CHECK(dg_frontier_get(f, got, n + 4, &len) == DG_OK && len == n);
            CHECK_MSG((n == 0 || memcmp(got, ids, n * sizeof(int32_t)) == 0) && got[n] == -7,
                      "frontier round trip of %zu ids", n);
            if (n >= 2) {               /* a short read: the count in full, capacity ids only */
                for (i = 0; i < n + 4; i++) got[i] = -7;
                CHECK(dg_frontier_get(f, got, n / 2, &len) == DG_OK && len == n);
                CHECK(memcmp(got, ids, (n / 2) * sizeof(int32_t)) == 0 && got[n / 2] == -7);
            }
            /* set again, shorter */
            CHECK(dg_frontier_set(f, ids, n / 3) == DG_OK && dg_frontier_get(f, NULL, 0, &len) == DG_OK && len == n / 3);
        }
        dg_frontier_destroy(f);
        free(ids);
        free(got);
    }
}

static void prim_errors(prim_graph *pg)
{
    dg_graph *g = pg->g;
    dg_frontier *a = NULL, *b = NULL, *nf = NULL;
    dg_vertex zero = 0;
    cl_mem data = buf_new(g, 3 * (size_t)pg->out.n * sizeof(int32_t) + 16);
    CHECK(dg_frontier_create(g, 4, &a) == DG_OK && dg_frontier_create(g, 4, &b) == DG_OK);
    if (!a || !b || !data) goto done;
    CHECK(dg_frontier_set(a, &zero, 1) == DG_OK);
    /* op index out of range */
    CHECK(dg_advance(pg->p, OP_COUNT_OPS, a, b, data) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_filter(pg->p, OP_COUNT_OPS + 5, a, b, data) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_compute(pg->p, (size_t)-1, a, data) == DG_ERR_INVALID_ARGUMENT);
    /* op of the wrong kind */
    CHECK(dg_advance(pg->p, OP_EXPAND, a, b, data) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_advance(pg->p, OP_TALLY, a, b, data) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_filter(pg->p, OP_VISIT, a, b, data) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_filter(pg->p, OP_BUMP, a, b, data) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_compute(pg->p, OP_COUNT, a, data) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_compute(pg->p, OP_ODD, a, data) == DG_ERR_INVALID_ARGUMENT);
    /* NULLs, out == in (in == NULL is every vertex: test_user) */
    CHECK(dg_advance(NULL, OP_VISIT, a, b, data) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_advance(pg->p, OP_VISIT, a, NULL, data) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_advance(pg->p, OP_VISIT, a, a, data) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_filter(NULL, OP_ODD, a, b, data) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_filter(pg->p, OP_ODD, a, NULL, data) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_compute(NULL, OP_BUMP, a, data) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_frontier_create(NULL, 4, &nf) == DG_ERR_INVALID_ARGUMENT && nf == NULL);
    CHECK(dg_frontier_create(g, 4, NULL) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_frontier_set(NULL, &zero, 1) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_frontier_get(NULL, NULL, 0, NULL) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_scan(NULL, data, data, 4, NULL) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_scan(g, NULL, data, 4, NULL) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_scan(g, data, NULL, 4, NULL) == DG_ERR_INVALID_ARGUMENT);
    dg_frontier_destroy(NULL);
    dg_program_destroy(NULL);
    /* a frontier whose edges pass 2^32 (its largest list, repeated): DG_ERR_LIMIT, not a wrapped
       count (the output would be 2^32 ids; it is never allocated) */
    {
        size_t v, deg = 0, best = 0, n, i;
        dg_vertex hub = 0, *rep;
        dg_frontier *big = NULL;
        for (v = 0; v < dg_vertex_id_bound(g); v++)
            if (dg_degree(g, (dg_vertex)v, &deg) == DG_OK && deg > best) { best = deg; hub = (dg_vertex)v; }
        if (best >= 64) {
            n = (size_t)(((uint64_t)1 << 32) / best) + 1;
            rep = (dg_vertex *)xmalloc(n * sizeof *rep);
            for (i = 0; i < n; i++) rep[i] = hub;
            CHECK(dg_frontier_create(g, n, &big) == DG_OK && dg_frontier_set(big, rep, n) == DG_OK);
            CHECK_MSG(big && dg_advance(pg->p, OP_VISIT, big, b, data) == DG_ERR_LIMIT,
                      "%zu copies of a list of %zu: %s", n, best, dg_error_message(g));
            dg_frontier_destroy(big);
            free(rep);
        }
    }
    /* still fine after all that: the frontier is as set */
    {
        size_t len = 0;
        int32_t id = -1;
        CHECK(dg_frontier_get(a, &id, 1, &len) == DG_OK && len == 1 && id == 0);
    }
done:
    if (data) clReleaseMemObject(data);
    dg_frontier_destroy(a);
    dg_frontier_destroy(b);
}

/* empty frontiers: every primitive, nothing happens */
static void prim_empty(prim_graph *pg)
{
    dg_graph *g = pg->g;
    dg_frontier *a = NULL, *b = NULL;
    size_t len = 99;
    cl_mem data = buf_new(g, 3 * (size_t)pg->out.n * sizeof(int32_t) + 16);
    CHECK(dg_frontier_create(g, 0, &a) == DG_OK || dg_frontier_create(g, 1, &a) == DG_OK);
    CHECK(dg_frontier_create(g, 1, &b) == DG_OK);
    if (a && b && data) {
        CHECK(dg_frontier_get(a, NULL, 0, &len) == DG_OK && len == 0);   /* a new frontier is empty */
        CHECK(dg_advance(pg->p, OP_COUNT, a, b, data) == DG_OK);
        CHECK(dg_frontier_get(b, NULL, 0, &len) == DG_OK && len == 0);
        CHECK(dg_filter(pg->p, OP_ODD, a, b, data) == DG_OK);
        CHECK(dg_frontier_get(b, NULL, 0, &len) == DG_OK && len == 0);
        CHECK(dg_compute(pg->p, OP_BUMP, a, data) == DG_OK);
        CHECK(dg_advance(pg->p, OP_COUNT, a, b, NULL) == DG_OK);   /* data may be NULL */
    }
    if (data) clReleaseMemObject(data);
    dg_frontier_destroy(a);
    dg_frontier_destroy(b);
}

/* After mutations the primitives see the new graph (they sync first). */
static void prim_after_mutation(prim_graph *pg, const char *label)
{
    dg_graph *g = pg->g;
    int32_t u = random_live(g), i, front[1], n0 = (int32_t)dg_vertex_id_bound(g);
    dg_edge e[300];
    size_t k;
    dg_frontier *old = NULL;
    /* a frontier made before the graph grows, used after */
    CHECK(dg_frontier_create(g, 4, &old) == DG_OK);
    if (old) CHECK(dg_frontier_set(old, &u, 1) == DG_OK);
    /* grow the graph to about 3 times its size: every device buffer must grow */
    fill_random(g, 2 * n0, 6 * (size_t)n0, 1, 200, NULL);
    for (k = 0; k < 2000; k++) {
        int32_t a = random_live(g), b = (int32_t)rnd((uint32_t)n0);
        if (dg_has_vertex(g, b) && !dg_has_edge(g, a, b)) CHECK(dg_add_edge(g, a, b, 2.0f) == DG_OK);
    }
    for (i = 0; i < 300; i++) { e[i].src = u; e[i].dst = random_live(g); e[i].weight = (float)(1 + rnd(5)); }
    CHECK(dg_add_edges(g, e, 300, NULL) == DG_OK);
    for (k = 0; k < 20; k++) {
        int32_t w = random_neighbor(g, u);
        if (w >= 0) CHECK(dg_remove_edge(g, u, w) == DG_OK);
    }
    {
        int32_t x = random_live(g);
        if (x != u && x >= 0) CHECK(dg_remove_vertex(g, x) == DG_OK);
    }
    csr_free(&pg->out);
    csr_free(&pg->in);
    csr_of_graph(&pg->out, g, 0);
    csr_of_graph(&pg->in, g, 1);
    front[0] = u;
    prim_advance_count(pg, front, 1, 0, 1, label);
    prim_bfs(pg, u, 0, 0, -1, label);
    if (old) {   /* the old frontier as input: one level from u, over the grown graph */
        dg_frontier *out = NULL;
        size_t len = 0, want = pg->out.off[u + 1] - pg->out.off[u];
        cl_mem data = buf_new(g, (3 * (size_t)pg->out.n + 1) * sizeof(int32_t));
        int32_t *host = (int32_t *)xcalloc(3 * (size_t)pg->out.n + 1, sizeof(int32_t));
        host[0] = pg->out.n;
        CHECK(dg_frontier_create(g, 1, &out) == DG_OK);
        if (data && out && buf_write(g, data, host, (3 * (size_t)pg->out.n + 1) * sizeof(int32_t))) {
            CHECK(dg_advance(pg->p, OP_COUNT, old, out, data) == DG_OK);
            CHECK_MSG(dg_frontier_get(out, NULL, 0, &len) == DG_OK && len == want,
                      "[%s] advance from a frontier made before growth: %zu, expected %zu", label, len, want);
        }
        if (data) clReleaseMemObject(data);
        free(host);
        dg_frontier_destroy(out);
        dg_frontier_destroy(old);
    }
    CHECK(dg_validate_device(g) == DG_OK);
}

static void test_primitives(void)
{
    static const struct { const char *name; uint32_t page; int und, w; int32_t n; size_t m; int hubs; int32_t hd; } cfg[] = {
        { "directed weighted p64 hubs", 64, 0, 1, 3000, 9000, 3, 700 },
        { "undirected p1024 hubs", 1024, 1, 0, 12000, 40000, 2, 4000 },
        { "directed unweighted p1024", 1024, 0, 0, 20000, 60000, 0, 0 },
        { "undirected weighted p1024 small", 1024, 1, 1, 40, 60, 1, 30 },
    };
    size_t ci;
    for (ci = 0; ci < sizeof cfg / sizeof cfg[0]; ci++) {
        prim_graph pg;
        char label[256];
        int t;
        size_t i;
        if (!prim_setup(&pg, cfg[ci].page, cfg[ci].und, cfg[ci].w, cfg[ci].n, cfg[ci].m, cfg[ci].hubs, cfg[ci].hd)) continue;
        /* BFS and k-hop through the primitives */
        for (t = 0; t < 3; t++) {
            int32_t src = t == 0 ? 0 : random_live(pg.g);
            snprintf(label, sizeof label, "%s: primitive BFS", cfg[ci].name);
            prim_bfs(&pg, src, 0, 0, -1, label);
            snprintf(label, sizeof label, "%s: primitive BFS with filter", cfg[ci].name);
            prim_bfs(&pg, src, 0, 1, -1, label);
            snprintf(label, sizeof label, "%s: 2-hop", cfg[ci].name);
            prim_bfs(&pg, src, 0, 0, 2, label);
            snprintf(label, sizeof label, "%s: reverse BFS (in-edges)", cfg[ci].name);
            prim_bfs(&pg, src, 1, 0, -1, label);
        }
        /* advance: every edge once, out and in, with hubs and repeats */
        for (t = 0; t < 4; t++) {
            size_t nf = t == 0 ? 1 : t == 1 ? 10 : t == 2 ? 300 : 3000, cap = t & 1 ? 1 : 100000;
            int32_t *front = (int32_t *)xmalloc(nf * sizeof(int32_t));
            int32_t hub = max_deg_of(&pg.out);
            for (i = 0; i < nf; i++) {
                front[i] = random_live(pg.g);
                if (chance(nf > 300 ? 1 : 10) || i == 0) front[i] = hub;   /* large lists, repeated */
                if (i && chance(5)) front[i] = front[rnd((uint32_t)i)];
            }
            snprintf(label, sizeof label, "%s: advance over %zu (out-edges)", cfg[ci].name, nf);
            prim_advance_count(&pg, front, nf, 0, cap, label);
            snprintf(label, sizeof label, "%s: advance over %zu (in-edges)", cfg[ci].name, nf);
            prim_advance_count(&pg, front, nf, 1, cap, label);
            free(front);
        }
        /* filter and compute */
        {
            static const size_t sizes[] = { 0, 1, 2, 777, 100000 };
            for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
                snprintf(label, sizeof label, "%s: filter/compute", cfg[ci].name);
                prim_filter_compute(&pg, sizes[i], label);
            }
        }
        prim_empty(&pg);
        prim_errors(&pg);
        snprintf(label, sizeof label, "%s: after mutation", cfg[ci].name);
        prim_after_mutation(&pg, label);
        if (ci == 0) prim_frontier_roundtrip(pg.g);
        prim_free(&pg);
    }
}

/* ================================ scan ================================ */
static void test_scan(void)
{
    static const size_t sizes[] = { 0, 1, 2, 255, 256, 257, 1023, 1024, 1025, 4095, 4096, 4097, 8191, 8192, 8193,
                                    100000, (1u << 20) + 3 };
    const size_t nsz = sizeof sizes / sizeof sizes[0];
    dg_graph *g = new_graph(0, 0, 0);
    size_t si;
    if (!g) return;
    for (si = 0; si < 2 * nsz; si++) {   /* (then the sizes again, each in blocks and their sums) */
        size_t n = sizes[si % nsz], i, pad = 16;
        dg__scan_small_blocks = si < nsz ? 8 : 0;
        int mode;
        uint32_t *vals = (uint32_t *)xmalloc((n + pad) * sizeof(uint32_t));
        uint32_t *want = (uint32_t *)xmalloc((n + pad) * sizeof(uint32_t));
        uint32_t *got = (uint32_t *)xmalloc((n + pad) * sizeof(uint32_t));
        uint32_t sum = 0;
        cl_mem in = buf_new(g, (n + pad) * sizeof(uint32_t)), out = buf_new(g, (n + pad) * sizeof(uint32_t));
        if (!in || !out) { free(vals); free(want); free(got); break; }
        for (mode = 0; mode < 3; mode++) {     /* 0 out of place, full range; 1 in place, small values; 2 out of place, total NULL */
            uint32_t total = 0xdeadbeefu, sentinel = 0xabcdef01u;
            dg_status s;
            size_t bad = 0, first = 0;
            for (i = 0; i < n + pad; i++) vals[i] = mode == 1 ? rnd(4) : (uint32_t)rnext();
            for (i = n; i < n + pad; i++) vals[i] = sentinel;
            sum = 0;
            for (i = 0; i < n; i++) { want[i] = sum; sum += vals[i]; }
            for (i = n; i < n + pad; i++) want[i] = sentinel;
            buf_write(g, in, vals, (n + pad) * sizeof(uint32_t));
            if (mode != 1) {
                for (i = 0; i < n + pad; i++) got[i] = sentinel;
                buf_write(g, out, got, (n + pad) * sizeof(uint32_t));
            }
            s = dg_scan(g, in, mode == 1 ? in : out, n, mode == 2 ? NULL : &total);
            CHECK_MSG(s == DG_OK, "dg_scan(%zu): %s: %s", n, dg_status_string(s), dg_error_message(g));
            if (s != DG_OK) continue;
            if (mode != 2) CHECK_MSG(total == sum, "dg_scan(%zu, mode %d): total %u, expected %u", n, mode, total, sum);
            buf_read(g, mode == 1 ? in : out, got, (n + pad) * sizeof(uint32_t));
            for (i = 0; i < n + pad; i++) if (got[i] != want[i]) { if (!bad++) first = i; }
            CHECK_MSG(bad == 0, "dg_scan(%zu, %s): %zu wrong; first [%zu] = %u, expected %u%s", n,
                      mode == 1 ? "in place" : "out of place", bad, first, got[first], want[first],
                      first >= n ? " (past n: must be untouched)" : "");
            if (mode != 1) {   /* the input is unchanged */
                buf_read(g, in, got, (n + pad) * sizeof(uint32_t));
                CHECK_MSG(memcmp(got, vals, (n + pad) * sizeof(uint32_t)) == 0, "dg_scan(%zu) changed its input", n);
            }
        }
        clReleaseMemObject(in);
        clReleaseMemObject(out);
        free(vals); free(want); free(got);
    }
    dg__scan_small_blocks = 8;
    dg_destroy(g);
}

/* ================================ main ================================ */
static time_t w0;                 /* the start, for the progress lines */
static void done(const char *part) { printf("test_device: %s done (%lds)\n", part, (long)(time(NULL) - w0)); }

/* every case but those of the cache itself: a private cache of the program's own */
static void use_main_cache(void)
{
    static char dir[512];
    static int made = -1;
    if (made < 0) made = make_dir(dir, sizeof dir, "cache_main");
    if (made) setenv("DYNGRAPH_CACHE_DIR", dir, 1);
}
static void case_binary_cache(void) { test_binary_cache(); done("binary cache"); }
static void case_default_cache(void) { test_default_cache(); done("default cache"); }
static void case_device_faults(void) { use_main_cache(); test_device_faults(); done("device faults"); }
static void case_sort(void) { use_main_cache(); test_sort(); done("sort"); }
/* dg_frontier_all: every live vertex, ascending, and the frontier grows past its capacity */
static void case_frontier_all(void)
{
    dg_graph *g;
    dg_frontier *f = NULL;
    dg_vertex ids[3000];
    size_t n = 0, i, k = 0;
    int ok = 1;
    use_main_cache();
    g = new_graph(64, 0, 0);
    if (!g) return;
    CHECK(dg_add_vertices(g, 2500, NULL) == DG_OK);
    for (i = 0; i < 2500; i += 7) CHECK(dg_remove_vertex(g, (dg_vertex)i) == DG_OK);
    CHECK(dg_frontier_create(g, 4, &f) == DG_OK);
    CHECK(dg_frontier_all(f) == DG_OK);
    CHECK(dg_frontier_get(f, ids, 3000, &n) == DG_OK && n == dg_vertex_count(g));
    for (i = 0; i < 2500 && k < n; i++)
        if (dg_has_vertex(g, (dg_vertex)i)) ok &= ids[k++] == (dg_vertex)i;
    CHECK(ok && k == n);
    CHECK(dg_frontier_all(NULL) == DG_ERR_INVALID_ARGUMENT);
    dg_frontier_destroy(f);
    dg_destroy(g);
    done("frontier_all");
}
static void case_device_choice(void) { use_main_cache(); test_device_choice(); done("device choice"); }
static void case_failed_build(void) { use_main_cache(); test_failed_build(); done("failed build"); }
static void case_cl_objects(void) { use_main_cache(); test_cl_objects(); done("OpenCL objects"); }
static void case_mirror(void)
{
    int u, w, p;
    const uint32_t pages[2] = { 64, 1024 };
    use_main_cache();
    for (p = 0; p < 2; p++)
        for (u = 0; u <= 1; u++)
            for (w = 0; w <= 1; w++) run_mirror(u, w, pages[p], 250);
    done("mirror");
}
static void case_sync_cost(void)
{
    use_main_cache();
    run_sync_cost(0, 0);
    run_sync_cost(1, 1);
    done("sync cost");
}
static void case_primitives(void) { use_main_cache(); test_primitives(); done("primitives"); }
static void case_scan(void) { use_main_cache(); test_scan(); done("scan"); }
static void case_cache_damage(void) { test_cache_damage(); done("damaged cache"); }
static void case_cache_io(void) { test_cache_io(); done("cache_io"); }
/* ---- batches from device memory (dg_add_edges_cl / dg_remove_edges_cl), every device_batches ---- */
#define CLB_N 120
/* Compares g with the model w (w[u * CLB_N + v] = weight, or -1: no arc u->v). */
static void clb_compare(dg_graph *g, const float *w, int undirected, const char *what)
{
    int32_t u, v, nb[CLB_N];
    float wt[CLB_N];
    size_t arcs = 0, loops = 0, k, deg;
    for (u = 0; u < CLB_N; u++) {
        int ok = dg_neighbors(g, u, nb, wt, CLB_N, &deg) == DG_OK;
        size_t want = 0;
        for (v = 0; v < CLB_N; v++) want += w[u * CLB_N + v] >= 0;
        CHECK_MSG(ok && deg == want, "%s: vertex %d has %zu out-neighbours, model %zu", what, (int)u, deg, want);
        if (!ok || deg != want) return;
        for (k = 0; k < deg; k++)
            CHECK_MSG(w[u * CLB_N + nb[k]] == wt[k], "%s: arc %d->%d weight %g, model %g", what, (int)u,
                      (int)nb[k], wt[k], w[u * CLB_N + nb[k]]);
        arcs += want;
        loops += w[u * CLB_N + u] >= 0;
    }
    CHECK_MSG(dg_edge_count(g) == (undirected ? (arcs - loops) / 2 + loops : arcs), "%s: %zu edges", what,
              dg_edge_count(g));
}

static void case_cl_batches(void)
{
    int mode, undirected, step;
    dg_desc d;
    dg_graph *g = NULL;
    memset(&d, 0, sizeof d);
    d.device_batches = 2;
    CHECK(dg_create(&d, &g) == DG_ERR_INVALID_ARGUMENT && g == NULL);
    for (mode = -1; mode <= 1; mode++)
        for (undirected = 0; undirected < 2; undirected++) {
            float *w = (float *)xcalloc((size_t)CLB_N * CLB_N, sizeof(float));
            dg_edge e[300];
            cl_mem m;
            size_t done, want, i;
            char what[64];
            memset(&d, 0, sizeof d);
            d.page_size = 64;
            d.undirected = undirected;
            d.weighted = 1;
            d.device_batches = mode;
            snprintf(what, sizeof what, "device_batches %d, %s", mode, undirected ? "undirected" : "directed");
            CHECK(dg_create(&d, &g) == DG_OK);
            if (!g) { free(w); continue; }
            CHECK(dg_add_vertices(g, CLB_N, NULL) == DG_OK);
            for (i = 0; i < (size_t)CLB_N * CLB_N; i++) w[i] = -1;
            m = buf_new(g, sizeof e);
            for (step = 0; step < 24 && m; step++) {
                int add = step < 6 || chance(60);
                size_t n = 1 + rnd(300), j;
                want = 0;
                for (j = 0; j < n; j++) {   /* hubs 0..2 take a third of the edges: long lists */
                    e[j].src = chance(33) ? (int32_t)rnd(3) : (int32_t)rnd(CLB_N);
                    e[j].dst = (int32_t)rnd(CLB_N);
                    e[j].weight = (float)(1 + rnd(50));
                }
                CHECK(buf_write(g, m, e, n * sizeof *e));
                if (add) CHECK(dg_add_edges_cl(g, m, n, &done) == DG_OK);
                else CHECK(dg_remove_edges_cl(g, m, n, &done) == DG_OK);
                for (j = 0; j < n; j++) {   /* the model: first weight wins, repeats skipped */
                    int32_t a = e[j].src, b = e[j].dst;
                    if (add && w[a * CLB_N + b] < 0) {
                        w[a * CLB_N + b] = e[j].weight;
                        if (undirected) w[b * CLB_N + a] = e[j].weight;
                        want++;
                    } else if (!add && w[a * CLB_N + b] >= 0) {
                        w[a * CLB_N + b] = -1;
                        if (undirected) w[b * CLB_N + a] = -1;
                        want++;
                    }
                }
                CHECK_MSG(done == want, "%s step %d: %s %zu edges, model %zu", what, step,
                          add ? "added" : "removed", done, want);
                clb_compare(g, w, undirected, what);
            }
            if (m) {   /* bad batches change nothing */
                size_t before = dg_edge_count(g);
                e[0].src = 1; e[0].dst = 2; e[0].weight = 1;
                e[1].src = 3; e[1].dst = 4; e[1].weight = NAN;
                CHECK(buf_write(g, m, e, 2 * sizeof *e));
                CHECK(dg_add_edges_cl(g, m, 2, &done) == DG_ERR_INVALID_ARGUMENT && done == 0);
                e[1].src = 3; e[1].dst = CLB_N + 5; e[1].weight = 1;
                CHECK(buf_write(g, m, e, 2 * sizeof *e));
                CHECK(dg_add_edges_cl(g, m, 2, &done) == DG_ERR_NOT_FOUND && done == 0);
                CHECK(dg_remove_edges_cl(g, m, 2, &done) == DG_ERR_NOT_FOUND && done == 0);
                CHECK(dg_add_edges_cl(g, m, 301, &done) == DG_ERR_INVALID_ARGUMENT);   /* past the buffer */
                CHECK(strstr(dg_error_message(g), "bytes") != NULL);
                CHECK(dg_add_edges_cl(g, NULL, 2, &done) == DG_ERR_INVALID_ARGUMENT);
                CHECK(dg_add_edges_cl(g, NULL, 0, &done) == DG_ERR_INVALID_ARGUMENT);
                CHECK(dg_add_edges_cl(g, m, 0, &done) == DG_OK && done == 0);
                CHECK(dg_edge_count(g) == before);
                clb_compare(g, w, undirected, what);
                clReleaseMemObject(m);
            }
            CHECK(dg_validate(g) == DG_OK);
            CHECK(dg_validate_device(g) == DG_OK);
            dg_destroy(g);
            free(w);
        }
}

/* DYNGRAPH_CL_OPTIONS longer than the build options hold is an error, never silently cut. */
static void case_cl_options(void)
{
    const char *old = getenv("DYNGRAPH_CL_OPTIONS");
    char *keep = old ? strdup(old) : NULL, longopt[1200];
    dg_graph *g;
    size_t i;
    for (i = 0; i + 8 < sizeof longopt; i += 8) memcpy(longopt + i, "-DXX=11 ", 8);
    longopt[i] = '\0';
    dg_cache_clear();   /* programs kept in memory would not be built again */
    setenv("DYNGRAPH_CL_OPTIONS", longopt, 1);
    g = new_graph(64, 0, 0);
    if (g) {
        CHECK(dg_add_vertices(g, 3, NULL) == DG_OK);
        CHECK(dg_sync(g) == DG_ERR_INVALID_ARGUMENT);
        CHECK_MSG(strstr(dg_error_message(g), "DYNGRAPH_CL_OPTIONS is too long") != NULL, "%s", dg_error_message(g));
        dg_destroy(g);
    }
    if (keep) setenv("DYNGRAPH_CL_OPTIONS", keep, 1);
    else unsetenv("DYNGRAPH_CL_OPTIONS");
    free(keep);
    dg_cache_clear();
}

/* Several devices (dg_desc.devices; test_shard tests the sharded mirror and BFS): two opened,
   each with its own context, queue and staging. */
static void case_devices(void)
{
    dg_graph *g;
    dg_status s;
    int32_t dist[5];
    int i;
    dg_desc d;
    memset(&d, 0, sizeof d);
    d.page_size = 64; d.undirected = 1;
    d.device = "cpu";                      /* (PoCL's two, wherever there is a GPU too) */
    d.devices = 2;
    s = dg_create(&d, &g);
    CHECK_MSG(s == DG_OK, "dg_create: %s", dg_status_string(s));
    if (s != DG_OK) return;
    CHECK(dg_add_vertices(g, 5, NULL) == DG_OK);
    for (i = 0; i < 4; i++) CHECK(dg_add_edge(g, i, i + 1, 1.0f) == DG_OK);
    s = dg_sync(g);
    CHECK_MSG(s == DG_OK, "dg_sync on two devices: %s: %s", dg_status_string(s), dg_error_message(g));
    if (s == DG_OK) {
        CHECK(g->ndev == 2 && g->devs && g->devs[0] == g->dev);
        CHECK(g->devs[1] && g->devs[1] != g->dev && g->devs[1]->ctx && g->devs[1]->queue &&
              g->devs[1]->device != g->dev->device && g->devs[1]->pin_ptr != NULL);
        s = dg_bfs(g, 0, dist, NULL);
        CHECK_MSG(s == DG_OK, "dg_bfs on two devices: %s", dg_error_message(g));
        for (i = 0; s == DG_OK && i < 5; i++) CHECK_MSG(dist[i] == i, "dist[%d] = %d", i, (int)dist[i]);
    }
    dg_destroy(g);
    d.devices = 3;                         /* more than there are: nothing opened */
    g = NULL;
    if (dg_create(&d, &g) == DG_OK) {
        s = dg_sync(g);
        CHECK_MSG(s == DG_ERR_NO_DEVICE && g->dev == NULL && g->devs == NULL && g->ndev == 0,
                  "3 devices of 2: %s (%s)", dg_status_string(s), dg_error_message(g));
        CHECK_MSG(strstr(dg_error_message(g), "3 OpenCL devices wanted") != NULL, "message: %s", dg_error_message(g));
        dg_destroy(g);
    }
}

static const tt_case cases[] = {
    { "binary_cache", case_binary_cache }, { "device_choice", case_device_choice },
    { "failed_build", case_failed_build }, { "cl_objects", case_cl_objects }, { "mirror", case_mirror },
    { "sync_cost", case_sync_cost }, { "primitives", case_primitives }, { "scan", case_scan },
    { "cache_damage", case_cache_damage }, { "cl_batches", case_cl_batches },
    { "cl_options", case_cl_options }, { "default_cache", case_default_cache },
    { "device_faults", case_device_faults }, { "sort", case_sort }, { "frontier_all", case_frontier_all },
    { "cache_io", case_cache_io }, { "devices", case_devices },
};

int main(int argc, char **argv)
{
    char tmpl[] = "/tmp/dg_test_device_XXXXXX";
    w0 = time(NULL);
    setvbuf(stdout, NULL, _IOLBF, 0);
    seed = trand_seed(argc, argv, (uint64_t)time(NULL), "test_device");
    setenv("POCL_DEVICES", "pthread pthread", 0);   /* PoCL's CPU twice (case devices); before any
                                                       OpenCL call, and not over the caller's */
    if (!mkdtemp(tmpl)) {
        CHECK_MSG(0, "mkdtemp failed");
        return TT_SUMMARY("test_device");
    }
    snprintf(tmp_root, sizeof tmp_root, "%s", tmpl);

    TT_RUN("test_device", cases);
    remove_tree(tmp_root);
    printf("test_device: %ld s (seed %llu)\n", (long)(time(NULL) - w0), (unsigned long long)seed);
    return TT_SUMMARY("test_device");
}
