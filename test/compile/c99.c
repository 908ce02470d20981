/* c99.c - dyngraph.h must compile as strict C99 (built by test/run.sh with gcc and clang,
   -std=c99 -Wall -Wextra -Werror -pedantic, and once more with -DDYNGRAPH_STATIC), and link.

   The header is included twice, first for the API alone (as another header of the program
   would), then with DYNGRAPH_IMPLEMENTATION. Every public function is named in the table
   below: the link then fails if one is declared but not defined, and -DDYNGRAPH_STATIC does
   not warn that a static function is unused. ADD EVERY NEW PUBLIC FUNCTION TO THE TABLE.
   The program is compiled and linked, not run. */
#include "dyngraph.h"
#define DYNGRAPH_IMPLEMENTATION
#include "dyngraph.h"

#include <stdio.h>

typedef void (*any_fn)(void); /* any function pointer converts to this and back (C99 6.3.2.3) */
#define FN(f) (any_fn)(f)

static const any_fn api[] = {
    FN(dg_status_string),  FN(dg_error_message),
    FN(dg_create),         FN(dg_destroy),         FN(dg_query_desc),
    FN(dg_add_vertex),     FN(dg_add_vertices),    FN(dg_remove_vertex),
    FN(dg_add_edge),       FN(dg_remove_edge),     FN(dg_edit_edge),     FN(dg_set_weight),
    FN(dg_add_edges),      FN(dg_remove_edges),    FN(dg_compact),
    FN(dg_vertex_count),   FN(dg_vertex_id_bound), FN(dg_edge_count),
    FN(dg_has_vertex),     FN(dg_has_edge),        FN(dg_degree),        FN(dg_in_degree),
    FN(dg_edge_weight),    FN(dg_neighbors),       FN(dg_in_neighbors),
    FN(dg_get_stats),      FN(dg_validate),
    FN(dg_load),           FN(dg_kernel_source),
    FN(dg_sync),           FN(dg_cl_context),      FN(dg_cl_queue),      FN(dg_cl_device),
    FN(dg_device_name),    FN(dg_validate_device), FN(dg_cache_clear),
    FN(dg_add_edges_cl),   FN(dg_remove_edges_cl),
    FN(dg_frontier_create), FN(dg_frontier_destroy), FN(dg_frontier_set), FN(dg_frontier_get),
    FN(dg_frontier_buffer), FN(dg_program_create),   FN(dg_program_destroy),
    FN(dg_advance),        FN(dg_filter),          FN(dg_compute),       FN(dg_scan),
    FN(dg_advance_ex),     FN(dg_filter_ex),       FN(dg_compute_ex),    FN(dg_reduce),
    FN(dg_bfs),
    FN(dg_sssp),
    FN(dg_reach),
    FN(dg_reach_ex),
    FN(dg_load_ex),        FN(dg_save),            FN(dg_export_csr),
    FN(dg_components),     FN(dg_scc),             FN(dg_triangles),     FN(dg_pagerank),
    FN(dg_sort_pairs),     FN(dg_load_memory),     FN(dg_frontier_all),
    FN(dg_result_create),  FN(dg_result_destroy),  FN(dg_result_update),
};

int main(void)
{
    dg_graph *g = NULL;
    dg_vertex first = 0;
    dg_edge batch[] = { { 0, 1, 1.0f }, { 1, 2, 2.0f } };
    size_t i, added = 0;
    /* C99 as users will write it: a compound literal with a designated initializer. */
    dg_status s = dg_create(&(dg_desc){ .undirected = 1, .weighted = 1 }, &g);
    for (i = 0; i < sizeof api / sizeof api[0]; i++)
        if (!api[i]) return 1;
    if (s != DG_OK) {
        printf("%s\n", dg_status_string(s));
        return 1;
    }
    dg_add_vertices(g, 3, &first);
    dg_add_edges(g, batch, sizeof batch / sizeof batch[0], &added);
    printf("%s %zu vertices, %zu edges\n", DYNGRAPH_VERSION_STRING,
           dg_vertex_count(g), dg_edge_count(g));
    dg_destroy(g);
    return 0;
}
