/* pagerank.c - PageRank written with the primitives, checked against the built-in dg_pagerank.

   A user algorithm on the device in about forty lines: four OpenCL C functions that read the
   graph through dg_args (out-degrees, in-neighbours), three float buffers of our own (rank,
   contribution, next rank), two scalars, and dg_reduce for the dangling mass and the L1
   change of each iteration. Every call runs over every live vertex (frontier NULL).

     rank'[v] = (1 - d) / n + d * (sum over in-edges u->v of rank[u] / outdeg(u)
                                   + (rank held by vertices without out-edges) / n)

   Usage:  ./pagerank [FILE]   FILE: any format dg_load reads, loaded as a directed graph;
                               without it, a random directed graph of 200000 vertices with
                               a few hubs and some vertices without out-edges.
   Build:  cc -O2 -I. examples/pagerank.c -o pagerank -lOpenCL -lm   (or: make examples) */
#define DYNGRAPH_IMPLEMENTATION
#include "dyngraph.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Buffers: 0 rank, 1 contribution, 2 next rank. Scalars: floats[0] the base term of the
   iteration, floats[1] the damping, floats[2] the first rank (1/n). */
static const char *user_source =
    "void pr_init(int v, const dg_args *a) { dg_floats(a, 0)[v] = a->floats[2]; }\n"
    "void pr_contrib(int v, const dg_args *a) {\n"
    "    int d = dg_out_degree(a, v);\n"
    "    dg_floats(a, 1)[v] = d ? dg_floats(a, 0)[v] / d : 0.0f;\n"
    "}\n"
    "float pr_dangling(int v, const dg_args *a) { return dg_out_degree(a, v) ? 0.0f : dg_floats(a, 0)[v]; }\n"
    "void pr_pull(int v, const dg_args *a) {\n"
    "    int k, d = dg_in_degree(a, v);\n"
    "    float s = 0.0f;\n"
    "    for (k = 0; k < d; k++) s += dg_floats(a, 1)[dg_in_neighbor(a, v, k)];\n"
    "    dg_floats(a, 2)[v] = a->floats[0] + a->floats[1] * s;\n"
    "}\n"
    "float pr_change(int v, const dg_args *a) {  /* |next - rank|, and next becomes rank */\n"
    "    float x = dg_floats(a, 2)[v], c = fabs(x - dg_floats(a, 0)[v]);\n"
    "    dg_floats(a, 0)[v] = x;\n"
    "    return c;\n"
    "}\n";
enum { INIT, CONTRIB, DANGLING, PULL, CHANGE };
static const dg_op ops[] = { {DG_OP_COMPUTE_ARGS, "pr_init", 0}, {DG_OP_COMPUTE_ARGS, "pr_contrib", 0},
                             {DG_OP_REDUCE, "pr_dangling", 0}, {DG_OP_COMPUTE_ARGS, "pr_pull", 0},
                             {DG_OP_REDUCE, "pr_change", 0} };

static dg_graph *g;

static void check(dg_status s, const char *what)   /* a dyngraph call */
{
    if (s != DG_OK) {
        fprintf(stderr, "%s: %s: %s\n", what, dg_status_string(s), dg_error_message(g));
        dg_destroy(g);
        exit(1);
    }
}

static uint32_t rnd(void)   /* xorshift32: the same graph on every run */
{
    static uint32_t x = 2463534242u;
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    return x;
}

int main(int argc, char **argv)
{
    dg_desc desc;
    memset(&desc, 0, sizeof desc);            /* directed, unweighted */
    check(dg_create(&desc, &g), "dg_create");
    if (argc > 1) {
        check(dg_load(g, argv[1], DG_FORMAT_AUTO), argv[1]);
    } else {   /* 200000 vertices, ~4 out-edges each, a tenth to 16 hubs; 1 in 20 has none */
        size_t n = 200000, m = 0;
        dg_edge *e = (dg_edge *)malloc(4 * n * sizeof *e);
        if (!e) {
            fprintf(stderr, "out of memory\n");
            return 1;
        }
        check(dg_add_vertices(g, n, NULL), "dg_add_vertices");
        for (size_t v = 0; v < n; v++)
            for (int k = v % 20 ? 4 : 0; k > 0; k--, m++) {
                e[m].src = (dg_vertex)v;
                e[m].dst = (dg_vertex)(rnd() % 10 ? rnd() % n : rnd() % 16);
                e[m].weight = 1.0f;
            }
        check(dg_add_edges(g, e, m, NULL), "dg_add_edges");
        free(e);
    }
    size_t bound = dg_vertex_id_bound(g), n = dg_vertex_count(g);
    printf("%s: %zu vertices, %zu edges\n", argc > 1 ? argv[1] : "random graph", n, dg_edge_count(g));
    cl_context ctx = dg_cl_context(g);
    if (!ctx || n == 0)
        check(ctx ? DG_ERR_INVALID_ARGUMENT : DG_ERR_NO_DEVICE, n ? "dg_cl_context" : "an empty graph");
    printf("device: %s\n", dg_device_name(g));

    /* our buffers and scalars */
    dg_args a;
    memset(&a, 0, sizeof a);
    for (int i = 0; i < 3; i++) {
        cl_int err;
        a.buffers[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, (bound ? bound : 1) * sizeof(float), NULL, &err);
        if (err != CL_SUCCESS) {
            fprintf(stderr, "clCreateBuffer: OpenCL error %d\n", (int)err);
            return 1;
        }
    }
    const float damping = 0.85f, tolerance = 1e-6f;
    a.floats[1] = damping;
    a.floats[2] = 1.0f / (float)n;

    /* the algorithm */
    dg_program *p;
    check(dg_program_create(g, user_source, ops, sizeof ops / sizeof ops[0], &p), "dg_program_create");
    check(dg_compute_ex(p, INIT, NULL, &a), "init");
    double dangling, change = 1;
    int it;
    for (it = 0; it < 100 && change >= tolerance; it++) {
        check(dg_compute_ex(p, CONTRIB, NULL, &a), "contributions");
        check(dg_reduce(p, DANGLING, NULL, &a, DG_REDUCE_SUM, &dangling), "dangling mass");
        a.floats[0] = (float)((1.0 - damping) / (double)n + damping * dangling / (double)n);
        check(dg_compute_ex(p, PULL, NULL, &a), "pull");
        check(dg_reduce(p, CHANGE, NULL, &a, DG_REDUCE_SUM, &change), "L1 change");
    }
    printf("pagerank by the primitives: %d iterations, last L1 change %.3g\n", it, change);

    /* the check: the built-in, with the same parameters */
    float *mine = (float *)malloc((bound ? bound : 1) * sizeof *mine);
    float *ref = (float *)malloc((bound ? bound : 1) * sizeof *ref);
    if (!mine || !ref) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    if (clEnqueueReadBuffer(dg_cl_queue(g), a.buffers[0], CL_TRUE, 0, bound * sizeof *mine, mine, 0, NULL, NULL)) {
        fprintf(stderr, "clEnqueueReadBuffer failed\n");
        return 1;
    }
    dg_pagerank_options po;
    memset(&po, 0, sizeof po);
    po.damping = damping;
    po.tolerance = tolerance;
    check(dg_pagerank(g, ref, &po), "dg_pagerank");
    double diff = 0, sum = 0;
    size_t top = 0;
    for (size_t v = 0; v < bound; v++) {
        if (!dg_has_vertex(g, (dg_vertex)v))
            continue;
        diff += fabs((double)mine[v] - ref[v]);
        sum += mine[v];
        if (mine[v] > mine[top] || !dg_has_vertex(g, (dg_vertex)top))
            top = v;
    }
    printf("ranks sum to %.6f; highest: vertex %zu (%.3g); L1 distance to dg_pagerank: %.2g\n", sum, top,
           mine[top], diff);
    int bad = diff > 1e-4 || fabs(sum - 1) > 1e-3;
    if (bad)
        fprintf(stderr, "MISMATCH: the primitives' ranks differ from dg_pagerank's\n");
    free(mine), free(ref);
    for (int i = 0; i < 3; i++)
        clReleaseMemObject(a.buffers[i]);
    dg_program_destroy(p);
    dg_destroy(g);
    return bad;
}
