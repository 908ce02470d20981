/* components.c - connected components by label propagation, written with the primitives.

   Every vertex starts with its own id as its label. Each round, every vertex of the frontier
   offers its label to its neighbours (dg_advance_ex, with atomic_min in a user function); a
   neighbour whose label dropped joins the next frontier, once. When the frontier is empty,
   every vertex holds the smallest id of its component. The labels live in a buffer of our own
   on dg_cl_context(g); the first round starts from every vertex (frontier NULL), and dg_reduce
   counts the components (the vertices that are their own label). A union-find on the host
   checks the result, and the built-in dg_components must agree.

   The library has a faster algorithm built in (dg_components: hooking and pointer jumping
   over edge chunks); this example shows how short one of your own is: four user functions of
   one line or two, and a loop of three calls.

   Usage:  ./components [FILE]   FILE: any format dg_load reads, loaded as an undirected graph;
                                 without it, 100000 random vertices in 8 islands of random
                                 graphs with 2 edges per vertex: each island falls apart into
                                 its giant part and many small pieces (isolated vertices
                                 among them), so expect about 1,900 components, not 8.
   Build:  cc -O2 -I. examples/components.c -o components -lOpenCL -lm   (or: make examples) */
#define DYNGRAPH_IMPLEMENTATION
#include "dyngraph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The user functions, in OpenCL C: compiled at run time with the library's kernels. Buffer 0
   holds the labels, buffer 1 a flag per vertex: queued for the next round. */
static const char *user_source =
    "void cc_init(int v, const dg_args *a) { dg_ints(a, 0)[v] = v; dg_ints(a, 1)[v] = 0; }\n"
    "int cc_offer(int src, int dst, float w, const dg_args *a) {  /* per edge */\n"
    "    __global int *label = dg_ints(a, 0), *queued = dg_ints(a, 1);\n"
    "    int l = label[src];\n"
    "    if (atomic_min(&label[dst], l) <= l) return 0;    /* no better label */\n"
    "    return atomic_xchg(&queued[dst], 1) == 0;         /* dst goes out once */\n"
    "}\n"
    "void cc_unqueue(int v, const dg_args *a) { dg_ints(a, 1)[v] = 0; }\n"
    "int cc_root(int v, const dg_args *a) { return dg_ints(a, 0)[v] == v; }\n";
enum { INIT, OFFER, UNQUEUE, ROOT };
static const dg_op ops[] = { {DG_OP_COMPUTE_ARGS, "cc_init", 0}, {DG_OP_ADVANCE_ARGS, "cc_offer", 0},
                             {DG_OP_COMPUTE_ARGS, "cc_unqueue", 0}, {DG_OP_REDUCE_INT, "cc_root", 0} };

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

    /* 1. Our buffers, on the graph's context: labels and queued flags. */
    cl_context ctx = dg_cl_context(g);        /* sets up the device on first use */
    if (!ctx)
        die("dg_cl_context", dg_error_message(g));
    printf("device: %s\n", dg_device_name(g));
    cl_int err;
    dg_args args;
    memset(&args, 0, sizeof args);            /* no buffers yet, scalars 0 */
    for (int i = 0; i < 2; i++) {
        args.buffers[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, (bound ? bound : 1) * sizeof(cl_int), NULL, &err);
        cl_check(err, "clCreateBuffer");
    }

    /* 2. One kernel per op; two frontiers that swap each round. */
    dg_program *prog;
    dg_frontier *front, *next;
    check(dg_program_create(g, user_source, ops, 4, &prog), "dg_program_create");
    check(dg_frontier_create(g, 1, &front), "dg_frontier_create");
    check(dg_frontier_create(g, 1, &next), "dg_frontier_create");

    /* 3. Labels = ids; then offer labels along every edge of the frontier (every vertex in
          round 0: NULL) until no label drops. */
    check(dg_compute_ex(prog, INIT, NULL, &args), "dg_compute_ex");
    size_t rounds = 0, drops = 0;
    for (n = 1; n > 0; rounds++, drops += n) {
        check(dg_advance_ex(prog, OFFER, rounds ? front : NULL, next, &args), "dg_advance_ex");
        check(dg_compute_ex(prog, UNQUEUE, next, &args), "dg_compute_ex");
        check(dg_frontier_get(next, NULL, 0, &n), "dg_frontier_get");    /* its length */
        dg_frontier *t = front;
        front = next, next = t;
    }
    double roots;
    check(dg_reduce(prog, ROOT, NULL, &args, DG_REDUCE_SUM, &roots), "dg_reduce");
    printf("label propagation: %zu rounds, %zu labels dropped, %.0f components\n", rounds, drops, roots);
    cl_int *d = (cl_int *)malloc((bound ? bound : 1) * sizeof *d);
    dg_vertex *ids = (dg_vertex *)malloc((bound ? bound : 1) * sizeof *ids);
    if (!d || !ids)
        die("malloc", "out of memory");
    cl_check(clEnqueueReadBuffer(dg_cl_queue(g), args.buffers[0], CL_TRUE, 0, bound * sizeof *d, d, 0, NULL,
                                 NULL), "clEnqueueReadBuffer");

    /* 4. The check: a union-find whose roots are the smallest ids, so root == label. */
    dg_vertex *up = ids, *nb = NULL;          /* the union-find's parents */
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
        if (d[v] != find(up, v)) {
            fprintf(stderr, "MISMATCH: vertex %d has label %d, union-find says %d\n", (int)v,
                    (int)d[v], (int)find(up, v));
            return 1;
        }
        components += d[v] == v;
        if (++size[d[v]] > largest)
            largest = size[d[v]];
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
            if (dg_has_vertex(g, v) && lab[v] != d[v]) {
                fprintf(stderr, "MISMATCH: dg_components labels vertex %d with %d, label propagation with %d\n",
                        (int)v, (int)lab[v], (int)d[v]);
                return 1;
            }
        if (count != components || (double)count != roots) {
            fprintf(stderr, "MISMATCH: %zu components by dg_components, %zu by the union-find, %.0f by dg_reduce\n",
                    count, components, roots);
            return 1;
        }
        printf("dg_components agrees: %zu components\n", count);
        free(lab);
    }

    free(size), free(nb), free(ids), free(d);
    clReleaseMemObject(args.buffers[0]), clReleaseMemObject(args.buffers[1]);
    dg_frontier_destroy(front), dg_frontier_destroy(next);
    dg_program_destroy(prog);
    dg_destroy(g);
    return 0;
}
