/* no_opencl.c - the host-only build: with DYNGRAPH_NO_OPENCL, dyngraph.h compiles without the
   OpenCL headers (test/run.sh puts test/compile/no_cl first on the include path: its CL/cl.h
   stops the build) and links without -lOpenCL, under -std=c99 -Wall -Wextra -Werror
   -pedantic. run.sh also runs it: the store works (mutations, queries, dg_validate, dg_save and
   dg_load), and every device function returns DG_ERR_NO_DEVICE. Prints "ok" and exits 0. */
#define DYNGRAPH_NO_OPENCL
#define DYNGRAPH_IMPLEMENTATION
#include "dyngraph.h"
#include <stdio.h>
#include <string.h>

#define EXPECT(c) do { if (!(c)) { printf("no_opencl.c:%d: %s\n", __LINE__, #c); return 1; } } while (0)

int main(void)
{
    dg_graph *g = NULL, *h = NULL;
    dg_desc d;
    int32_t dist[4];
    float fd[4];
    dg_vertex src = 0;
    uint8_t r;
    dg_frontier *f = (dg_frontier *)1;
    const char *path = "build/test/no_opencl.dgs";
    memset(&d, 0, sizeof d);
    d.weighted = 1;
    EXPECT(dg_create(&d, &g) == DG_OK);
    EXPECT(dg_add_vertices(g, 4, NULL) == DG_OK);
    EXPECT(dg_add_edge(g, 0, 1, 2.5f) == DG_OK && dg_add_edge(g, 1, 2, 1.0f) == DG_OK);
    EXPECT(dg_remove_vertex(g, 3) == DG_OK && dg_validate(g) == DG_OK);
    EXPECT(dg_sync(g) == DG_ERR_NO_DEVICE && strstr(dg_error_message(g), "DYNGRAPH_NO_OPENCL") != NULL);
    EXPECT(dg_bfs(g, 0, dist, NULL) == DG_ERR_NO_DEVICE);
    EXPECT(dg_sssp(g, 0, fd, NULL) == DG_ERR_NO_DEVICE);
    EXPECT(dg_reach(g, &src, &src, 1, &r) == DG_ERR_NO_DEVICE);
    EXPECT(dg_frontier_create(g, 4, &f) == DG_ERR_NO_DEVICE && f == NULL);
    EXPECT(dg_validate_device(g) == DG_ERR_NO_DEVICE && dg_cl_context(g) == NULL);
    EXPECT(dg_save(g, path, DG_FORMAT_SNAPSHOT) == DG_OK);
    EXPECT(dg_create(&d, &h) == DG_OK && dg_load(h, path, DG_FORMAT_AUTO) == DG_OK);
    EXPECT(dg_edge_count(h) == 2 && dg_vertex_count(h) == 3 && !dg_has_vertex(h, 3));
    remove(path);
    dg_cache_clear();
    dg_destroy(h);
    dg_destroy(g);
    printf("ok\n");
    return 0;
}
