// cxx.cc - dyngraph.h must compile as C++11 (built by test/run.sh with g++ and clang++,
// -std=c++11 -Wall -Wextra -Werror -pedantic), implementation included, and link.
// The header is included twice: first for the API alone, then with DYNGRAPH_IMPLEMENTATION.
// The program is compiled and linked, not run.
#include "dyngraph.h"
#define DYNGRAPH_IMPLEMENTATION
#include "dyngraph.h"

#include <cstdio>
#include <vector>

int main()
{
    dg_desc desc = {};          // value-initialised: all defaults
    desc.weighted = 1;
    dg_graph *g = nullptr;
    dg_status s = dg_create(&desc, &g);
    if (s != DG_OK) {
        std::printf("%s\n", dg_status_string(s));
        return 1;
    }
    dg_vertex first = 0;
    dg_add_vertices(g, 4, &first);
    std::vector<dg_edge> batch = { { 0, 1, 0.5f }, { 1, 2, 1.5f }, { 2, 3, 2.5f } };
    size_t added = 0;
    dg_add_edges(g, batch.data(), batch.size(), &added);
    std::vector<dg_vertex> out(4);
    size_t degree = 0;
    dg_neighbors(g, 1, out.data(), nullptr, out.size(), &degree);
    dg_stats st;
    dg_get_stats(g, &st);
    std::printf("%zu vertices, %zu edges, degree(1) = %zu, %zu pages\n",
                dg_vertex_count(g), dg_edge_count(g), degree, st.pages);
    dg_destroy(g);
    return 0;
}
