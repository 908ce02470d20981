/* demo.c - a first look at dyngraph: build a small graph, change it, print what it holds.
   Uses only the public API of dyngraph.h, and no device: it is built host-only
   (DYNGRAPH_NO_OPENCL), so it needs neither the OpenCL headers nor -lOpenCL.

   Build and run:  cc -O2 -I. examples/demo.c -o demo -lm && ./demo
             or:   make demo */
#define DYNGRAPH_NO_OPENCL
#define DYNGRAPH_IMPLEMENTATION
#include "dyngraph.h"

#include <stdio.h>
#include <string.h>

int main(void)
{
    dg_graph *g = NULL;
    dg_desc desc;
    memset(&desc, 0, sizeof desc);     /* zero means defaults */
    desc.undirected = 1;
    dg_status s = dg_create(&desc, &g);
    if (s != DG_OK) {
        fprintf(stderr, "dg_create: %s\n", dg_status_string(s));
        return 1;
    }

    /* Six vertices (ids 0..5) on a ring, plus one chord. */
    dg_vertex first;
    s = dg_add_vertices(g, 6, &first);
    for (dg_vertex v = 0; s == DG_OK && v < 6; v++)
        s = dg_add_edge(g, v, (v + 1) % 6, 1.0f);
    if (s == DG_OK)
        s = dg_add_edge(g, 0, 3, 1.0f);
    if (s != DG_OK) {
        fprintf(stderr, "building the ring: %s: %s\n", dg_status_string(s), dg_error_message(g));
        dg_destroy(g);
        return 1;
    }
    printf("dyngraph %s: %zu vertices, %zu edges\n", DYNGRAPH_VERSION_STRING,
           dg_vertex_count(g), dg_edge_count(g));

    /* Errors are values, with the detail kept on the graph. */
    s = dg_add_edge(g, 1, 9, 1.0f);
    printf("adding 1-9: %s (%s)\n", dg_status_string(s), dg_error_message(g));

    /* Change the graph: drop an edge and a vertex (with its edges). */
    dg_remove_edge(g, 0, 1);
    dg_remove_vertex(g, 4);
    printf("after removing edge 0-1 and vertex 4: %zu vertices, %zu edges\n",
           dg_vertex_count(g), dg_edge_count(g));

    for (dg_vertex v = 0; v < 6; v++) {
        dg_vertex nb[6];
        size_t degree = 0;
        if (!dg_has_vertex(g, v))
            continue;
        dg_neighbors(g, v, nb, NULL, 6, &degree);
        printf("  %d:", (int)v);
        for (size_t i = 0; i < degree && i < 6; i++)
            printf(" %d", (int)nb[i]);
        printf("\n");
    }

    dg_destroy(g);
    return 0;
}
