/* components.c - connected components by label propagation, written with the primitives.

   Every vertex starts with its own id as its label. Each round, every vertex of the frontier
   offers its label to its neighbours (dg_advance, with atomic_min in a user function); a
   neighbour whose label dropped joins the next frontier, and dg_filter drops the repeats.
   When the frontier is empty, every vertex holds the smallest id of its component. A
   union-find on the host checks the result.

   The library has the same algorithm built in, faster (dg_components: hooking and pointer
   jumping over edge chunks); this example shows how one is written with the primitives, and
   compares its answer with dg_components too.

   Usage:  ./components [FILE]   FILE: any format dg_load reads, loaded as an undirected graph;
                                 without it, 100000 random vertices in 8 islands, each a random
                                 graph of 2 edges per vertex (so each island falls apart into
                                 its giant part and a few hundred small pieces: about 1,900
                                 components in all).
   Build:  cc -O2 -I. examples/components.c -o components -lOpenCL -lm   (or: make examples) */
#define DYNGRAPH_IMPLEMENTATION
#include "dyngraph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The user functions, in OpenCL C: compiled at run time with the library's kernels. `d` is our
   buffer, two ints per vertex: d[2v] is the label of v, d[2v+1] is 1 while v is queued. */
static const char *user_source =
    "int cc_offer(int src, int dst, float weight, __global int *d) {  /* per edge */\n"
    "    int label = d[2 * src];\n"
    "    (void)weight;\n"
    "    if (atomic_min(&d[2 * dst], label) <= label) return 0;  /* no better label */\n"
    "    d[2 * dst + 1] = 1;                                      /* queue dst */\n"
    "    return 1;                               /* into the output (maybe twice) */\n"
    "}\n"
    "int cc_first(int v, __global int *d) {  /* the first copy of v unqueues it and stays */\n"
    "    return atomic_xchg(&d[2 * v + 1], 0);\n"
    "}\n";

static dg_graph *g;

static void die(const char *what, const char *why)
{
    fprintf(stderr, "%s: %s\n", what, why);
    dg_destroy(g);
    exit(1);
}
static void check(dg_status s, const char *what)   /* a dyngraph call */
{
    if (s != DG_OK) {
        fprintf(stderr, "%s: %s: %s\n", what, dg_status_string(s), dg_error_message(g));
        dg_destroy(g);
        exit(1);
    }
}
static void cl_check(cl_int err, const char *what)   /* an OpenCL call */
{
    char code[32];
    if (err != CL_SUCCESS) {
        sprintf(code, "OpenCL error %d", (int)err);
        die(what, code);
    }
}

static uint32_t rnd(void)   /* xorshift32: the same graph on every run */
{
    static uint32_t x = 2463534242u;
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    return x;
}

static dg_vertex find(dg_vertex *up, dg_vertex v)   /* union-find root, halving the path */
{
    while (up[v] != v)
        v = up[v] = up[up[v]];
    return v;
}

int main(int argc, char **argv)
{
    dg_desc desc;
    memset(&desc, 0, sizeof desc);            /* zero means defaults ... */
    desc.undirected = 1;                      /* ... but every edge goes both ways */
    check(dg_create(&desc, &g), "dg_create");
    if (argc > 1) {
        check(dg_load(g, argv[1], DG_FORMAT_AUTO), argv[1]);
    } else {   /* islands of 50000, 25000, ... vertices, each with 2 random edges per vertex */
        size_t n = 100000, m = 0;
        dg_edge *e = (dg_edge *)malloc(2 * n * sizeof *e);
        if (!e)
            die("malloc", "out of memory");
        check(dg_add_vertices(g, n, NULL), "dg_add_vertices");
        for (size_t start = 0, i = 0; i < 8; i++) {
            size_t size = i < 7 ? (n - start) / 2 : n - start;
            for (size_t k = 0; k < 2 * size; k++, m++) {
                e[m].src = (dg_vertex)(start + rnd() % size);
                e[m].dst = (dg_vertex)(start + rnd() % size);
                e[m].weight = 1.0f;
            }
            start += size;
        }
        check(dg_add_edges(g, e, m, NULL), "dg_add_edges");
        free(e);
    }
    size_t bound = dg_vertex_id_bound(g), n = 0;
    printf("%s: %zu vertices, %zu edges\n", argc > 1 ? argv[1] : "random islands",
           dg_vertex_count(g), dg_edge_count(g));

    /* 1. Our buffer, on the graph's context: labels d[2v] = v, nothing queued. */
    cl_context ctx = dg_cl_context(g);        /* sets up the device on first use */
    cl_command_queue queue = dg_cl_queue(g);
    if (!ctx || !queue)
        die("dg_cl_context", dg_error_message(g));
    printf("device: %s\n", dg_device_name(g));
    cl_int *d = (cl_int *)malloc(2 * bound * sizeof *d);
    dg_vertex *ids = (dg_vertex *)malloc(bound * sizeof *ids);
    if (!d || !ids)
        die("malloc", "out of memory");
    for (size_t v = 0; v < bound; v++) {
        d[2 * v] = (cl_int)v, d[2 * v + 1] = 0;
        if (dg_has_vertex(g, (dg_vertex)v))
            ids[n++] = (dg_vertex)v;          /* the first frontier: every vertex */
    }
    cl_int err;
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 2 * bound * sizeof *d, NULL, &err);
    cl_check(err, "clCreateBuffer");
    cl_check(clEnqueueWriteBuffer(queue, buf, CL_TRUE, 0, 2 * bound * sizeof *d, d, 0, NULL,
                                  NULL), "clEnqueueWriteBuffer");

    /* 2. One kernel per op; two frontiers: the advance fills `next`, the filter `front`. */
    dg_op ops[2] = {{DG_OP_ADVANCE, "cc_offer", 0}, {DG_OP_FILTER, "cc_first", 0}};
    dg_program *prog;
    dg_frontier *front, *next;
    check(dg_program_create(g, user_source, ops, 2, &prog), "dg_program_create");
    check(dg_frontier_create(g, n, &front), "dg_frontier_create");
    check(dg_frontier_create(g, n, &next), "dg_frontier_create");
    check(dg_frontier_set(front, ids, n), "dg_frontier_set");

    /* 3. Propagate until no label drops: advance (labels offered along every edge of the
          frontier), then filter (one copy of each vertex whose label dropped). */
    size_t rounds = 0, drops = 0;
    for (; n > 0; rounds++, drops += n) {
        check(dg_advance(prog, 0, front, next, buf), "dg_advance");
        check(dg_filter(prog, 1, next, front, buf), "dg_filter");
        check(dg_frontier_get(front, NULL, 0, &n), "dg_frontier_get");   /* its length */
    }
    printf("label propagation: %zu rounds, %zu labels dropped\n", rounds, drops);
    cl_check(clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, 2 * bound * sizeof *d, d, 0, NULL,
                                 NULL), "clEnqueueReadBuffer");

    /* 4. The check: a union-find whose roots are the smallest ids, so root == label. */
    dg_vertex *up = ids, *nb = NULL;          /* ids is free again: the union-find's parents */
    size_t cap = 0, degree, components = 0, largest = 0;
    size_t *size = (size_t *)calloc(bound, sizeof *size);   /* vertices per label */
    if (!size)
        die("calloc", "out of memory");
    for (size_t v = 0; v < bound; v++)
        up[v] = (dg_vertex)v;
    for (dg_vertex v = 0; v < (dg_vertex)bound; v++) {
        if (!dg_has_vertex(g, v))
            continue;
        check(dg_neighbors(g, v, NULL, NULL, 0, &degree), "dg_neighbors");
        if (degree > cap && !(nb = (dg_vertex *)realloc(nb, (cap = degree) * sizeof *nb)))
            die("realloc", "out of memory");
        check(dg_neighbors(g, v, nb, NULL, cap, &degree), "dg_neighbors");
        for (size_t i = 0; i < degree; i++) {
            dg_vertex a = find(up, v), b = find(up, nb[i]);
            if (a < b) up[b] = a; else up[a] = b;
        }
    }
    for (dg_vertex v = 0; v < (dg_vertex)bound; v++) {
        if (!dg_has_vertex(g, v))
            continue;
        if (d[2 * v] != find(up, v)) {
            fprintf(stderr, "MISMATCH: vertex %d has label %d, union-find says %d\n", (int)v,
                    (int)d[2 * v], (int)find(up, v));
            return 1;
        }
        components += d[2 * v] == v;
        if (++size[d[2 * v]] > largest)
            largest = size[d[2 * v]];
    }
    printf("%zu component%s, the largest has %zu vertices (checked with a union-find)\n",
           components, components == 1 ? "" : "s", largest);
    {   /* the built-in: the same labels */
        dg_vertex *lab = (dg_vertex *)malloc(bound * sizeof *lab);
        size_t count = 0;
        if (!lab)
            die("malloc", "out of memory");
        check(dg_components(g, lab, &count), "dg_components");
        for (dg_vertex v = 0; v < (dg_vertex)bound; v++)
            if (dg_has_vertex(g, v) && lab[v] != d[2 * v]) {
                fprintf(stderr, "MISMATCH: dg_components labels vertex %d with %d, label propagation with %d\n",
                        (int)v, (int)lab[v], (int)d[2 * v]);
                return 1;
            }
        printf("dg_components agrees: %zu components\n", count);
        free(lab);
    }

    free(size), free(nb), free(ids), free(d);
    clReleaseMemObject(buf);
    dg_frontier_destroy(front), dg_frontier_destroy(next);
    dg_program_destroy(prog);
    dg_destroy(g);
    return 0;
}
