/* bfs.c - breadth-first search on a graph that keeps changing.

   The graph lives on the host in slotted pages; the OpenCL device keeps a mirror of them.
   Each step applies a batch of random changes on the host, then runs dg_bfs, which first
   syncs the mirror: only the pages the batch touched travel to the device. The table shows
   both sides: what was uploaded, and what the search found.

   Usage:  ./bfs [FILE [SOURCE]]   FILE: any format dg_load reads (edge list, .mtx, .gr,
                                   .graph, .gra), loaded as a directed graph; without it, an
                                   undirected 316 x 316 grid of roads plus random shortcuts.
                                   SOURCE: where the searches start (default: vertex 0 of
                                   the grid, the vertex of largest out-degree of a file).
   Build:  cc -O2 -I. examples/bfs.c -o bfs -lOpenCL -lm       (or: make demo)
   The device: the first GPU, else any; DYNGRAPH_DEVICE=cpu|gpu|<name> chooses. */
#define DYNGRAPH_IMPLEMENTATION
#include "dyngraph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static dg_graph *g;

/* Every call returns a status; when it is not DG_OK the graph says what went wrong. */
static void check(dg_status s, const char *what)
{
    if (s == DG_OK)
        return;
    fprintf(stderr, "%s: %s: %s\n", what, dg_status_string(s), dg_error_message(g));
    dg_destroy(g);
    exit(1);
}

/* A live vertex at random (xorshift64: the same stream on every run). */
static dg_vertex random_vertex(void)
{
    static uint64_t x = 88172645463325252u;
    dg_vertex v;
    do {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        v = (dg_vertex)(x % dg_vertex_id_bound(g));
    } while (!dg_has_vertex(g, v));
    return v;
}

static void set_edge(dg_edge *e, dg_vertex u, dg_vertex v)
{
    e->src = u, e->dst = v, e->weight = 1.0f;
}

/* side x side crossings, each joined to its right and lower neighbour, plus n/100 shortcuts. */
static void make_grid(int side)
{
    size_t n = (size_t)side * side, m = 0;
    dg_edge *e = (dg_edge *)malloc((2 * n + n / 100) * sizeof *e);
    if (!e)
        check(DG_ERR_OUT_OF_MEMORY, "malloc");
    check(dg_add_vertices(g, n, NULL), "dg_add_vertices");
    for (dg_vertex v = 0; v < (dg_vertex)n; v++) {
        if (v % side + 1 < side) set_edge(&e[m++], v, v + 1);      /* east */
        if (v / side + 1 < side) set_edge(&e[m++], v, v + side);   /* south */
    }
    for (size_t i = 0; i < n / 100; i++)
        set_edge(&e[m++], random_vertex(), random_vertex());
    check(dg_add_edges(g, e, m, NULL), "dg_add_edges");          /* one sorted batch */
    free(e);
}

int main(int argc, char **argv)
{
    static const size_t batch_sizes[] = {0, 10, 100, 1000, 10000, 100000};
    dg_desc desc;
    memset(&desc, 0, sizeof desc);            /* zero means defaults */
    desc.undirected = argc < 2;               /* the grid's roads go both ways */
    dg_vertex source = 0;
    check(dg_create(&desc, &g), "dg_create");

    /* Set the device up now, while the graph is empty, so that choosing it and building the
       kernels (or loading them from the disk cache) stays out of the times below. */
    if (!dg_cl_device(g)) {
        fprintf(stderr, "no device: %s\n", dg_error_message(g));
        dg_destroy(g);
        return 1;
    }
    printf("device: %s\n", dg_device_name(g));
    if (argc > 1)
        check(dg_load(g, argv[1], DG_FORMAT_AUTO), argv[1]);
    else
        make_grid(316);
    size_t degree, best = 0;                  /* a file: start at the largest out-degree */
    for (dg_vertex v = 0; argc == 2 && v < (dg_vertex)dg_vertex_id_bound(g); v++)
        if (dg_degree(g, v, &degree) == DG_OK && degree > best)
            best = degree, source = v;
    if (argc > 2)
        source = (dg_vertex)atol(argv[2]);
    printf("%s: %zu vertices, %zu edges, BFS from vertex %d\n\n", argc > 1 ? argv[1] : "grid",
           dg_vertex_count(g), dg_edge_count(g), (int)source);
    printf("batch  +edges  -edges  -vtx | pages up  KiB up | levels  reached  sync ms   bfs ms\n");

    /* Vertices are never added below, so one distance array serves every search. */
    int32_t *dist = (int32_t *)malloc(dg_vertex_id_bound(g) * sizeof *dist);
    dg_edge *batch = (dg_edge *)malloc(batch_sizes[5] / 2 * sizeof *batch);
    if (!dist || !batch)
        check(DG_ERR_OUT_OF_MEMORY, "malloc");

    for (int b = 0; b < 6; b++) {
        /* 1. Change the graph on the host: half the batch adds random edges, half removes
              existing ones (a random neighbour of a random vertex), and one vertex goes
              (with all its edges). Batch 0 changes nothing: its search uploads everything. */
        size_t half = batch_sizes[b] / 2, added = 0, removed = 0, gone = 0;
        for (size_t i = 0; i < half; i++)
            set_edge(&batch[i], random_vertex(), random_vertex());
        check(dg_add_edges(g, batch, half, &added), "dg_add_edges");  /* skips present ones */
        for (size_t i = 0; i < half; i++) {
            dg_vertex u = random_vertex(), nb[8];                /* its first 8 neighbours */
            check(dg_neighbors(g, u, nb, NULL, 8, &degree), "dg_neighbors");
            set_edge(&batch[i], u, degree ? nb[i % (degree < 8 ? degree : 8)] : u);
        }
        check(dg_remove_edges(g, batch, half, &removed), "dg_remove_edges");
        if (b > 0) {
            dg_vertex v = random_vertex();
            if (v != source) {
                check(dg_remove_vertex(g, v), "dg_remove_vertex");
                gone = 1;
            }
        }

        /* 2. Search. dg_bfs syncs the device mirror first, then runs on the device. */
        dg_bfs_stats bs;
        dg_bfs_options opt;
        memset(&opt, 0, sizeof opt);          /* zero means defaults (DG_BFS_AUTO) ... */
        opt.stats = &bs;                      /* ... and ask for the stats */
        check(dg_bfs(g, source, dist, &opt), "dg_bfs");
        dg_stats st;
        check(dg_get_stats(g, &st), "dg_get_stats");

        printf("%5d %7zu %7zu %5zu | %8zu %7.0f | %6u %8llu %8.2f %8.2f\n", b, added, removed,
               gone, st.last_sync_pages, st.last_sync_bytes / 1024.0, bs.levels,
               (unsigned long long)bs.vertices_reached, bs.sync_ms, bs.device_ms);
    }

    printf("\npages up, KiB up: what the sync before the search sent to the device\n"
           "sync ms: host time of that sync; bfs ms: device time of the search\n");

    /* dist[] holds the hops from the source after the last batch (-1: not reached). */
    int32_t far = 0;
    for (size_t v = 0; v < dg_vertex_id_bound(g); v++)
        far = dist[v] > dist[far] ? (int32_t)v : far;
    printf("farthest vertex from %d: %d, %d hops\n", (int)source, (int)far, (int)dist[far]);

    free(batch);
    free(dist);
    dg_destroy(g);
    return 0;
}
