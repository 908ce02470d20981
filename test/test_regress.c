/* test_regress.c - reproductions of bugs found in review, kept as tests (page size 64).
   Cases (DG_TESTS=test_regress:NAME, see tt.h): alone (alone_not_at_start), one_page
   (both_ends_one_page), wall_clock (the library's clock is wall time under -std=c99, where it
   once fell back to processor time). */
#define DYNGRAPH_IMPLEMENTATION
#include "dyngraph.h"
#include "tt.h"

/* A vertex left alone in its page with its list not at entry 3 (the vertices before it were
   removed) grows into a large list: the free entries before the list must not be counted as
   room after it. */
static void alone_not_at_start(int weighted) {
    dg_graph *g = NULL;
    dg_desc d;
    dg_vertex v;
    int k;
    memset(&d, 0, sizeof d);
    d.page_size = 64; d.weighted = weighted;
    CHECK(dg_create(&d, &g) == DG_OK);
    dg_add_vertices(g, 100, NULL);
    for (v = 0; v < 8; v++) if (v != 6) CHECK(dg_remove_vertex(g, v) == DG_OK);
    for (k = 0; k < 80; k++) {
        size_t deg = 0;
        float w = 0;
        CHECK(dg_add_edge(g, 6, 10 + k, (float)k) == DG_OK);
        CHECK(dg_degree(g, 6, &deg) == DG_OK && deg == (size_t)k + 1);
        CHECK_MSG(dg_validate(g) == DG_OK, "after %d edges: %s", k + 1, dg_error_message(g));
        CHECK(dg_edge_weight(g, 6, 10 + k, &w) == DG_OK && w == (weighted ? (float)k : 1.0f));
    }
    dg_destroy(g);
}

/* Undirected dg_add_edge(u, v) with u and v in one page that has a single free entry, when the
   pool has no spare page: the second append splits the page, which must have been reserved. */
static void both_ends_one_page(void) {
    dg_graph *g = NULL;
    dg_desc d;
    int a, b, n, i;
    memset(&d, 0, sizeof d);
    d.page_size = 64; d.undirected = 1;
    CHECK(dg_create(&d, &g) == DG_OK);
    for (i = 0; i < 16; i++) CHECK(dg_add_vertex(g, NULL) == DG_OK);   /* pages: 0..7, 8..15 */
    for (a = 0, n = 0; a < 8 && n < 18; a++) for (b = a + 1; b < 8 && n < 18; b++, n++) CHECK(dg_add_edge(g, a, b, 1) == DG_OK);
    for (a = 8, n = 0; a < 16 && n < 18; a++) for (b = a + 1; b < 16 && n < 18; b++, n++) CHECK(dg_add_edge(g, a, b, 1) == DG_OK);
    CHECK(dg_add_edge(g, 15, 15, 1) == DG_OK);
    /* use up the spare pages (before the fix this left none for the split below) */
    while (g->st[0].page_hw < g->st[0].page_cap - 1) CHECK(dg_add_vertex(g, NULL) == DG_OK);
    CHECK(dg_add_edge(g, 8, (dg_vertex)dg_vertex_id_bound(g) - 1, 1) == DG_OK);
    CHECK(g->P - g->st[0].ph[0].fill == 1);                             /* page 0: one free entry */
    CHECK(dg_add_edge(g, 6, 7, 1) == DG_OK);
    CHECK(dg_has_edge(g, 6, 7) && dg_has_edge(g, 7, 6));
    CHECK_MSG(dg_validate(g) == DG_OK, "%s", dg_error_message(g));
    dg_destroy(g);
}

/* The library's clock (timings in the stats, the update trace) is wall time even in a -std=c99
   build: a child process sleeping 300 ms costs this process no processor time, so clock() would
   see about nothing. (Where the shell has no sleep, the check is skipped.) */
static void wall_clock(void) {
#if defined(__unix__) || defined(__APPLE__)
    double t0 = dg__now_ms(), dt;
    if (system("sleep 0.3") != 0) return;
    dt = dg__now_ms() - t0;
    CHECK_MSG(dt >= 250.0 && dt < 30000.0, "dg__now_ms measured %.1f ms across a 300 ms sleep", dt);
#endif
}

static void case_alone_not_at_start(void)
{
    alone_not_at_start(0);
    alone_not_at_start(1);
}
static const tt_case cases[] = {
    { "alone", case_alone_not_at_start }, { "one_page", both_ends_one_page }, { "wall_clock", wall_clock },
};

int main(void) {
    TT_RUN("test_regress", cases);
    return TT_SUMMARY("test_regress");
}
