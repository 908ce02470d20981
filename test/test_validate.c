/* test_validate.c - dg_validate must catch broken invariants: each case builds a graph, breaks
   one invariant by writing into the implementation's structures, and expects DG_ERR_CORRUPT.
   Cases (DG_TESTS=test_validate:NAME, see tt.h): directed, directed_weighted, undirected,
   undirected_weighted. */
#define DYNGRAPH_IMPLEMENTATION
#include "dyngraph.h"
#include "tt.h"

static dg_graph *build(int undirected, int weighted, uint32_t page_size) {
    dg_graph *g = NULL;
    dg_desc d;
    dg_vertex v;
    memset(&d, 0, sizeof d);
    d.undirected = undirected; d.weighted = weighted; d.page_size = page_size;
    if (dg_create(&d, &g) != DG_OK) return NULL;
    dg_add_vertices(g, 200, NULL);
    for (v = 0; v < 200; v++) {
        dg_add_edge(g, v, (v * 7 + 3) % 200, (float)v);
        dg_add_edge(g, v, (v * 13 + 5) % 200, (float)v + 0.5f);
    }
    for (v = 1; v < 150; v++) dg_add_edge(g, 0, v, 2.0f);     /* vertex 0: a large list at 64 */
    return g;
}

/* one corruption per case */
static void corrupt(dg_graph *g, int which) {
    dg__store *s = &g->st[0];
    int32_t p = s->dir[s->ds * 10], off = s->dir[s->ds * 10 + 1], *pg = DG__PAGE(g, s, p);
    switch (which) {
    case 0: pg[off] += 1; break;                                         /* a degree */
    case 1: s->dir[s->ds * 10 + 1] += 1; break;                          /* the directory */
    case 2: pg[g->P - 1 - 2 * (pg[0] - 1)] = 199; break;                 /* slot order / id */
    case 3: pg[pg[1]] = 5; break;                                        /* a free entry not -1 */
    case 4: pg[off + 1] = (pg[off + 1] + 1) % 200; break;                /* a neighbour (reverse lost) */
    case 5: g->nedges++; break;                                          /* the edge count */
    case 6: {                                                            /* the LA table */
        int32_t p0 = s->dir[0];
        s->latab[s->idx[p0].la_tab + 2] = p0;
        break; }
    case 7: s->idx[p].first = -5; break;                                 /* the page index */
    case 8: if (s->wpool) s->wpool[(size_t)p * g->P + off + 1] += 1.0f; else g->narcs++; break; /* a weight */
    case 9: s->ph[p].fill++; break;                                      /* host page record */
    }
}

/* the graph of build() with every corruption in turn, each caught */
static void corruptions(int und, int w)
{
    int which;
    dg_graph *g = build(und, w, 64);
    CHECK(g && dg_validate(g) == DG_OK);
    CHECK(g && g->st[0].large_lists > 0);
    dg_destroy(g);
    for (which = 0; which < 10; which++) {
        dg_status s;
        if (which == 8 && !(und && w)) continue;   /* weight symmetry: undirected weighted */
        g = build(und, w, 64);
        if (!g) { CHECK(0); continue; }
        corrupt(g, which);
        s = dg_validate(g);
        CHECK_MSG(s == DG_ERR_CORRUPT, "case %d (undirected %d, weighted %d): %s", which, und, w,
                  dg_status_string(s));
        CHECK(s != DG_ERR_CORRUPT || strlen(dg_error_message(g)) > 0);
        dg_destroy(g);
    }
}
static void case_directed(void) { corruptions(0, 0); }
static void case_directed_weighted(void) { corruptions(0, 1); }
static void case_undirected(void) { corruptions(1, 0); }
static void case_undirected_weighted(void) { corruptions(1, 1); }
static const tt_case cases[] = {
    { "directed", case_directed }, { "directed_weighted", case_directed_weighted },
    { "undirected", case_undirected }, { "undirected_weighted", case_undirected_weighted },
};

int main(void) {
    TT_RUN("test_validate", cases);
    return TT_SUMMARY("test_validate");
}
