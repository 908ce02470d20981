/* test_modules.c - the header's architecture as users see it: programs per module and the
   process-wide program cache (a second graph builds nothing), messages that name the user's
   source, dg_create's logger, query messages, the modules' device state. Runs on PoCL. */
#define DYNGRAPH_IMPLEMENTATION
#include "dyngraph.h"
#include "tt.h"
#include <string.h>
#include <stdlib.h>

/* A logger that keeps the longest message and the number of calls. */
typedef struct tlog { char *last; size_t len, calls; } tlog;
static void tlog_fn(dg_log_level level, const char *msg, void *ud) {
    tlog *l = (tlog *)ud;
    size_t n = strlen(msg);
    if (level != DG_LOG_ERROR) return;
    l->calls++;
    free(l->last);
    l->last = (char *)malloc(n + 1);
    if (l->last) memcpy(l->last, msg, n + 1);
    l->len = n;
}

static dg_graph *path_graph(const dg_desc *desc, int n) {
    dg_graph *g = NULL;
    dg_vertex first;
    int i;
    if (dg_create(desc, &g) != DG_OK) return NULL;
    dg_add_vertices(g, (size_t)n, &first);
    for (i = 0; i + 1 < n; i++) dg_add_edge(g, i, i + 1, 1.0f);
    return g;
}
static size_t built(dg_graph *g) {
    dg_stats s;
    memset(&s, 0, sizeof s);
    dg_get_stats(g, &s);
    return s.programs_built;
}

/* Fix 4: a second graph with the same desc builds nothing; the cache outlives the graphs. */
static void test_cache(void) {
    dg_desc desc;
    dg_graph *a, *b, *c;
    int32_t dist[8];
    float fd[8];
    memset(&desc, 0, sizeof desc);
    desc.page_size = 128;
    a = path_graph(&desc, 8);
    b = path_graph(&desc, 8);
    CHECK(a && b);
    if (!a || !b) return;
    CHECK(built(a) == 0);                       /* nothing before the first device use */
    CHECK(dg_bfs(a, 0, dist, NULL) == DG_OK && dist[7] == 7);
    CHECK_MSG(built(a) >= 2, "first graph built %zu programs (core and BFS expected)", built(a));
    CHECK(dg_bfs(b, 0, dist, NULL) == DG_OK && dist[7] == 7);
    CHECK_MSG(built(b) == 0, "second graph built %zu programs", built(b));
    CHECK(dg_cl_context(a) == dg_cl_context(b));   /* one library context per device */
    CHECK(dg_sssp(b, 0, fd, NULL) == DG_OK && fd[7] == 7.0f);
    CHECK(built(b) == 1);                       /* the SSSP module's program, once */
    CHECK(dg_sssp(a, 0, fd, NULL) == DG_OK && fd[7] == 7.0f);
    CHECK(built(a) == 2);                       /* ... which the first graph then reuses */
    dg_destroy(a);
    dg_destroy(b);
    c = path_graph(&desc, 8);                   /* after both are gone: still cached */
    CHECK(c && dg_bfs(c, 0, dist, NULL) == DG_OK && dist[7] == 7);
    CHECK_MSG(c && built(c) == 0, "a later graph built %zu programs", c ? built(c) : 0);
    dg_destroy(c);
    desc.page_size = 256;                       /* other build options: built again */
    c = path_graph(&desc, 8);
    CHECK(c && dg_bfs(c, 0, dist, NULL) == DG_OK && dist[7] == 7);
    CHECK(c && built(c) >= 2);
    dg_destroy(c);
    dg_cache_clear();                           /* released: the next graph builds */
    desc.page_size = 128;
    c = path_graph(&desc, 8);
    CHECK(c && dg_bfs(c, 0, dist, NULL) == DG_OK && dist[7] == 7);
    CHECK(c && built(c) >= 2);
    dg_destroy(c);
}

/* A caller's context: graphs on it share programs; after the last one, the context's
   reference count is back where it started (the cache let go of it). */
static void test_user_context(void) {
    cl_platform_id plat;
    cl_device_id dev;
    cl_context ctx;
    cl_command_queue q;
    cl_int e;
    cl_uint rc0 = 0, rc1 = 0;
    dg_desc desc;
    dg_graph *a, *b;
    int32_t dist[6];
    if (clGetPlatformIDs(1, &plat, NULL) != CL_SUCCESS ||
        clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS) { CHECK(0); return; }
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
    CHECK(e == CL_SUCCESS);
    if (e != CL_SUCCESS) return;
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
    q = clCreateCommandQueue(ctx, dev, 0, &e);
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
    CHECK(e == CL_SUCCESS);
    clGetContextInfo(ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof rc0, &rc0, NULL);
    memset(&desc, 0, sizeof desc);
    desc.context = ctx;
    desc.queue = q;
    a = path_graph(&desc, 6);
    b = path_graph(&desc, 6);
    CHECK(a && b && dg_bfs(a, 0, dist, NULL) == DG_OK && dist[5] == 5);
    CHECK(a && b && dg_bfs(b, 0, dist, NULL) == DG_OK && dist[5] == 5);
    CHECK(b && built(b) == 0);
    dg_destroy(a);
    dg_destroy(b);
    clGetContextInfo(ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof rc1, &rc1, NULL);
    CHECK_MSG(rc1 == rc0, "context references %u after the graphs, %u before", rc1, rc0);
    a = path_graph(&desc, 6);                   /* its programs went with the last graph */
    CHECK(a && dg_bfs(a, 0, dist, NULL) == DG_OK && dist[5] == 5);
    CHECK(a && built(a) >= 2);
    dg_destroy(a);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
}

/* Fix 1: a compile error in a user program names the user's source and line; fix 2: the
   whole build log reaches the logger, the message keeps what fits. */
static void test_user_errors(void) {
    static const char *src =
        "int keep(int v, __global int *data)\n"
        "{\n"
        "    (void)data;\n"
        "    int x = v;\n"
        "    return x + undeclared_thing;\n"
        "}\n";
    dg_op op = { DG_OP_FILTER, "keep", 0 };
    tlog log;
    dg_desc desc;
    dg_graph *g;
    dg_program *p = NULL;
    char *big;
    size_t i, n = 400;
    memset(&log, 0, sizeof log);
    memset(&desc, 0, sizeof desc);
    desc.logger.func = tlog_fn;
    desc.logger.user_data = &log;
    g = path_graph(&desc, 4);
    CHECK(g != NULL);
    if (!g) return;
    CHECK(dg_program_create(g, src, &op, 1, &p) == DG_ERR_OPENCL && p == NULL);
    CHECK_MSG(strstr(dg_error_message(g), "user:5:") != NULL, "message: %.300s", dg_error_message(g));
    CHECK_MSG(strstr(dg_error_message(g), "kernels/") == NULL, "message names a library file: %.300s",
              dg_error_message(g));
    /* a log longer than the message buffer: 400 lines with an error each */
    big = (char *)malloc(n * 64 + 64);
    CHECK(big != NULL);
    if (big) {
        big[0] = 0;
        for (i = 0; i < n; i++) sprintf(big + strlen(big), "int f%zu(void) { return missing_%zu; }\n", i, i);
        strcat(big, "int keep(int v, __global int *d) { (void)d; return v; }\n");
        CHECK(dg_program_create(g, big, &op, 1, &p) == DG_ERR_OPENCL);
        CHECK(strlen(dg_error_message(g)) < 4096);
        CHECK_MSG(log.len > 4096 && log.last && strstr(log.last, "missing_399"),
                  "the logger got %zu bytes", log.len);
        free(big);
    }
    /* a good program still builds after the failures */
    CHECK(dg_program_create(g, "int keep(int v, __global int *d) { (void)d; return v & 1; }\n", &op, 1, &p) == DG_OK);
    dg_program_destroy(p);
    dg_destroy(g);
    free(log.last);
}

/* Fix 2: dg_create says why it failed through the logger. */
static void test_create_logger(void) {
    tlog log;
    dg_desc desc;
    dg_graph *g = (dg_graph *)&log;
    memset(&log, 0, sizeof log);
    memset(&desc, 0, sizeof desc);
    desc.logger.func = tlog_fn;
    desc.logger.user_data = &log;
    desc.page_size = 1000;
    CHECK(dg_create(&desc, &g) == DG_ERR_INVALID_ARGUMENT && g == NULL);
    CHECK(log.calls == 1 && log.last && strstr(log.last, "page_size 1000"));
    desc.page_size = 0;
    desc.allocator.free_fn = NULL;
    desc.context = (cl_context)&log;   /* a context without a queue */
    CHECK(dg_create(&desc, &g) == DG_ERR_INVALID_ARGUMENT);
    CHECK(log.calls == 2 && log.last && strstr(log.last, "queue"));
    free(log.last);
}

/* Fix 3: a failing query sets its own message. */
static void test_query_messages(void) {
    dg_graph *g = path_graph(NULL, 4);
    size_t deg = 0, cnt = 0;
    float w;
    CHECK(g != NULL);
    if (!g) return;
    CHECK(dg_add_edge(g, 0, 99, 1.0f) == DG_ERR_NOT_FOUND);     /* an earlier failure */
    CHECK(dg_degree(g, 4321, &deg) == DG_ERR_NOT_FOUND);
    CHECK_MSG(strstr(dg_error_message(g), "dg_degree") && strstr(dg_error_message(g), "4321"),
              "message: %s", dg_error_message(g));
    CHECK(dg_in_degree(g, -3, &deg) == DG_ERR_INVALID_ARGUMENT);
    CHECK(strstr(dg_error_message(g), "-3") != NULL);
    CHECK(dg_edge_weight(g, 0, 2, &w) == DG_ERR_NOT_FOUND);
    CHECK(strstr(dg_error_message(g), "0 -> 2") != NULL);
    CHECK(dg_neighbors(g, 1, NULL, NULL, 0, NULL) == DG_ERR_INVALID_ARGUMENT);
    CHECK(strstr(dg_error_message(g), "NULL") != NULL);
    CHECK(dg_neighbors(g, 77, NULL, NULL, 0, &cnt) == DG_ERR_NOT_FOUND);
    CHECK(strstr(dg_error_message(g), "77") != NULL);
    CHECK(dg_degree(g, 1, &deg) == DG_OK && deg == 1);
    dg_destroy(g);
}

/* The modules' device state: made on first use, counted in dg_stats.module_bytes. */
static void test_module_state(void) {
    dg_graph *g = path_graph(NULL, 64);
    dg_stats s0, s1, s2;
    int32_t dist[64];
    float fd[64];
    CHECK(g != NULL);
    if (!g) return;
    CHECK(dg_sync(g) == DG_OK);
    dg_get_stats(g, &s0);
    CHECK(dg_bfs(g, 0, dist, NULL) == DG_OK && dist[63] == 63);
    dg_get_stats(g, &s1);
    CHECK(s1.module_bytes > s0.module_bytes);
    CHECK(s1.device_bytes >= s1.module_bytes);
    CHECK(dg_sssp(g, 0, fd, NULL) == DG_OK && fd[63] == 63.0f);
    dg_get_stats(g, &s2);
    CHECK(s2.module_bytes > s1.module_bytes);
    CHECK(s2.device_bytes - s2.module_bytes == s1.device_bytes - s1.module_bytes);
    dg_destroy(g);
}

/* Issue "Hardening": a frontier id that is no live vertex, a huge edge-chunk size, the stored
   minimum weight after failed calls. Each check fails without its fix. */
static void test_hardening(void) {
    static const char *src = "int all(int s, int d, float w, __global int *data) { (void)s; (void)d; (void)w; (void)data; return 1; }\n";
    dg_op op = { DG_OP_ADVANCE, "all", 0 };
    dg_desc desc;
    dg_graph *g;
    dg_program *p = NULL;
    dg_frontier *in = NULL, *out = NULL;
    dg_vertex ids[2] = { 0, 1000 }, got[16];
    size_t n = 0;
    int32_t dist[4] = { 7, 7, 7, 7 };
    dg_bfs_options bo;
    dg_edge bad[2];
    memset(&desc, 0, sizeof desc);
    desc.weighted = 1;
    g = path_graph(&desc, 4);   /* 0->1->2->3 */
    CHECK(g != NULL);
    if (!g) return;
    /* 1. ids checked by dg_frontier_set; ids written by a kernel are skipped by dg_advance */
    CHECK(dg_frontier_create(g, 16, &in) == DG_OK && dg_frontier_create(g, 16, &out) == DG_OK);
    CHECK(dg_program_create(g, src, &op, 1, &p) == DG_OK);
    if (in && out && p) {
        CHECK(dg_frontier_set(in, ids, 2) == DG_ERR_NOT_FOUND);
        CHECK(strstr(dg_error_message(g), "id 1 is 1000") != NULL);
        ids[1] = -1;
        CHECK(dg_frontier_set(in, ids, 2) == DG_ERR_INVALID_ARGUMENT);
        ids[1] = (dg_vertex)0x7fffffff;
        CHECK(dg_frontier_set(in, ids, 2) == DG_ERR_NOT_FOUND);
        ids[1] = 1;
        CHECK(dg_frontier_set(in, ids, 2) == DG_OK);
        {   /* a user kernel's bad ids: 1000, -1, INT32_MIN next to the live vertex 1 */
            cl_int bads[4] = { 1000, 1, -1, (cl_int)0x80000000u };
            CHECK(dg_frontier_set(in, ids, 2) == DG_OK);
            CHECK(clEnqueueWriteBuffer(dg_cl_queue(g), dg_frontier_buffer(in), CL_TRUE, 0, 2 * sizeof(cl_int),
                                       bads, 0, NULL, NULL) == CL_SUCCESS);
            CHECK(dg_advance(p, 0, in, out, NULL) == DG_OK);
            CHECK(dg_frontier_get(out, got, 16, &n) == DG_OK && n == 1 && got[0] == 2);
        }
        CHECK(dg_remove_vertex(g, 3) == DG_OK);
        ids[1] = 3;
        CHECK(dg_frontier_set(in, ids, 2) == DG_ERR_NOT_FOUND);
        CHECK(strstr(dg_error_message(g), "removed") != NULL);
    }
    dg_program_destroy(p);
    dg_frontier_destroy(in);
    dg_frontier_destroy(out);
    /* 2. max_edge_count near 2^32: the chunk count and chunk ends must not wrap */
    memset(&bo, 0, sizeof bo);
    bo.strategy = DG_BFS_EDGE_CHUNK;
    bo.max_edge_count = 0xffffffffu;
    CHECK(dg_bfs(g, 0, dist, &bo) == DG_OK);
    CHECK_MSG(dist[0] == 0 && dist[1] == 1 && dist[2] == 2, "dist %d %d %d", (int)dist[0], (int)dist[1], (int)dist[2]);
    bo.max_edge_count = 0x80000001u;
    CHECK(dg_bfs(g, 0, dist, &bo) == DG_OK && dist[2] == 2);
    /* 10. failed calls leave the minimum weight (dg_sssp's negative-weight check) alone */
    CHECK(g->wmin == 0.0f);
    CHECK(dg_add_edge(g, 0, 1, -5.0f) == DG_ERR_EXISTS && g->wmin == 0.0f);
    CHECK(dg_set_weight(g, 2, 0, -5.0f) == DG_ERR_NOT_FOUND && g->wmin == 0.0f);
    bad[0].src = 0; bad[0].dst = 2; bad[0].weight = -5.0f;
    bad[1].src = 0; bad[1].dst = 77; bad[1].weight = 1.0f;
    CHECK(dg_add_edges(g, bad, 2, NULL) == DG_ERR_NOT_FOUND && g->wmin == 0.0f);
    CHECK(dg_add_edges(g, bad, 1, NULL) == DG_OK && g->wmin == -5.0f);
    dg_destroy(g);
}

static const tt_case cases[] = {
    { "logger", test_create_logger },
    { "queries", test_query_messages },
    { "cache", test_cache },
    { "context", test_user_context },
    { "user_errors", test_user_errors },
    { "state", test_module_state },
    { "hardening", test_hardening },
};

int main(void) {
    TT_RUN("test_modules", cases);
    dg_cache_clear();
    return TT_SUMMARY("test_modules");
}
