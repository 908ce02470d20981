/* test_load.c - dg_load: every dataset file, small good files, malformed files, failures.

   Datasets are read from $DG_DATA (default test/data, a copy of the shared datasets); the small
   fixtures from test/good and test/bad (run from the repository root). For every dataset the
   vertex id bound, the edge count and the number of vertices with an edge (nonzero out- or
   in-degree) are checked against counts computed independently of dyngraph (see DATASETS
   below); every malformed file must give DG_ERR_PARSE naming "file:line:" with the right line
   and leave a graph with content exactly as it was.
   Cases (DG_TESTS=test_load:NAME, see tt.h): datasets, weights, good, existing, bad, failures,
   long_lines, exact_weights (random decimals and every weight of bips98_606.mtx equal strtof),
   memory (dg_load_memory gives what dg_load gives, names in messages; progress reports). */
#define DYNGRAPH_IMPLEMENTATION
#include "dyngraph.h"
#include "tt.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include "tdata.h"         /* ds_path: $DG_DATA/file */

static dg_graph *make_graph(int undirected, int weighted)
{
    dg_graph *g = NULL;
    dg_desc d;
    memset(&d, 0, sizeof d);
    d.undirected = undirected;
    d.weighted = weighted;
    if (dg_create(&d, &g) != DG_OK) {
        fprintf(stderr, "dg_create failed\n");
        exit(1);
    }
    return g;
}

/* ================================ snapshots ================================ */
typedef struct { dg_vertex v; float w; } nb;
typedef struct {
    size_t bound, vertices, edges;
    char *alive;
    size_t *start;                /* neighbours of v: list[start[v] .. start[v+1]) */
    nb *list;
} snapshot;

static int nb_cmp(const void *a, const void *b)
{
    const nb *x = (const nb *)a, *y = (const nb *)b;
    return x->v < y->v ? -1 : x->v > y->v;
}

static void snap_take(const dg_graph *g, snapshot *s)
{
    size_t v, total = 0;
    s->bound = dg_vertex_id_bound(g);
    s->vertices = dg_vertex_count(g);
    s->edges = dg_edge_count(g);
    s->alive = (char *)calloc(s->bound + 1, 1);
    s->start = (size_t *)calloc(s->bound + 1, sizeof(size_t));
    for (v = 0; v < s->bound; v++) {
        size_t d = 0;
        s->alive[v] = (char)dg_has_vertex(g, (dg_vertex)v);
        if (s->alive[v]) dg_degree(g, (dg_vertex)v, &d);
        s->start[v] = total;
        total += d;
    }
    s->start[s->bound] = total;
    s->list = (nb *)calloc(total + 1, sizeof(nb));
    for (v = 0; v < s->bound; v++) {
        size_t d = s->start[v + 1] - s->start[v], i, got = 0;
        dg_vertex *ids = (dg_vertex *)calloc(d + 1, sizeof(dg_vertex));
        float *ws = (float *)calloc(d + 1, sizeof(float));
        if (s->alive[v]) dg_neighbors(g, (dg_vertex)v, ids, ws, d, &got);
        for (i = 0; i < d; i++) { s->list[s->start[v] + i].v = ids[i]; s->list[s->start[v] + i].w = ws[i]; }
        qsort(s->list + s->start[v], d, sizeof(nb), nb_cmp);
        free(ids);
        free(ws);
    }
}

static void snap_free(snapshot *s)
{
    free(s->alive);
    free(s->start);
    free(s->list);
}

static int snap_equal(const snapshot *a, const snapshot *b)
{
    if (a->bound != b->bound || a->vertices != b->vertices || a->edges != b->edges) return 0;
    if (memcmp(a->alive, b->alive, a->bound) != 0) return 0;
    if (memcmp(a->start, b->start, (a->bound + 1) * sizeof(size_t)) != 0) return 0;
    return memcmp(a->list, b->list, a->start[a->bound] * sizeof(nb)) == 0;
}

/* A weighted directed graph with content: 6 vertices, 5 edges. */
static dg_graph *make_base(int removed)
{
    dg_graph *g = make_graph(0, 1);
    dg_vertex first;
    CHECK(dg_add_vertices(g, 6, &first) == DG_OK && first == 0);
    CHECK(dg_add_edge(g, 0, 1, 2.0f) == DG_OK);
    CHECK(dg_add_edge(g, 1, 2, 3.0f) == DG_OK);
    CHECK(dg_add_edge(g, 2, 0, 4.0f) == DG_OK);
    CHECK(dg_add_edge(g, 3, 3, 1.0f) == DG_OK);
    CHECK(dg_add_edge(g, 5, 4, 0.5f) == DG_OK);
    if (removed >= 0) CHECK(dg_remove_vertex(g, removed) == DG_OK);
    return g;
}

/* ================================ datasets ================================ */
/* Reference counts, computed from the files with a Python script and cross-checked with awk
   (both independent of dyngraph), following the format rules of the datasets' README:
   - bound: edge lists max id + 1; formats with a header: max(header n, max id + 1), ids shifted
     to 0-based (Matrix Market: max(rows, cols));
   - arcs: distinct (u, v) pairs, ids 0-based; METIS: distinct arcs of the entries and their
     reverses (= 2m), rome99.gr 8,859 (8,870 arc lines, 11 repeats), bips98_606.mtx 34,738;
   - touched: distinct ids that occur in some edge (= vertices with nonzero out- or in-degree);
   - undirected: distinct unordered pairs {u, v} (a self-loop counts once); 0 = not loaded
     undirected. E.g. for an edge list:
       awk '/^[#%]/{next} NF==0{next} {sub(/\r$/,""); u=$1+0; v=$2+0;
            if(!((u,v) in E)){E[u,v]=1;ne++} a=(u<v)?u:v; b=(u<v)?v:u;
            if(!((a,b) in U)){U[a,b]=1;nu++} ...}'
   Note: roadNet-PA_prefix.txt has 6,239 distinct ids (the README's 11,736 is 5,497 distinct
   sources + 6,239 distinct destinations). */
typedef struct {
    const char *file;
    dg_format format;
    size_t bound, arcs, touched, undirected;
} dataset;

static const dataset DATASETS[] = {
    { "snap/facebook_combined.txt", DG_FORMAT_EDGE_LIST, 4039, 88234, 4039, 88234 },
    { "snap/CA-GrQc.txt", DG_FORMAT_EDGE_LIST, 26197, 14496, 5242, 14496 },
    { "snap/CA-HepTh.txt", DG_FORMAT_EDGE_LIST, 68746, 25998, 9877, 25998 },
    { "snap/CA-HepPh.txt", DG_FORMAT_EDGE_LIST, 89209, 118521, 12008, 118521 },
    { "snap/BlogCatalog3.txt", DG_FORMAT_EDGE_LIST, 10313, 333983, 10312, 333983 },
    { "snap/power.txt", DG_FORMAT_EDGE_LIST, 4941, 6594, 4941, 6594 },
    { "snap/jazz.txt", DG_FORMAT_EDGE_LIST, 199, 2742, 198, 2742 },
    { "snap/Karate.txt", DG_FORMAT_EDGE_LIST, 35, 78, 34, 78 },
    { "snap/cit-HepPh_partial.txt", DG_FORMAT_EDGE_LIST, 9912554, 201300, 21550, 201099 },
    { "snap/roadNet-PA_prefix.txt", DG_FORMAT_EDGE_LIST, 1090142, 16230, 6239, 8567 },
    { "dimacs9/rome99.gr", DG_FORMAT_DIMACS, 3353, 8859, 3353, 0 },
    { "dimacs10/delaunay_n15.graph", DG_FORMAT_METIS, 32768, 196548, 32768, 98274 },
    { "metis/4elt.graph", DG_FORMAT_METIS, 7434, 86062, 7434, 43031 },
    { "suitesparse/bips98_606.mtx", DG_FORMAT_MATRIX_MARKET, 7135, 34738, 7135, 0 },
    { "grail/agrocyc_dag_uniq.gra", DG_FORMAT_GRAIL, 12684, 13408, 12684, 0 },
    { "grail/amaze_dag_uniq.gra", DG_FORMAT_GRAIL, 3710, 3600, 3342, 0 },
    { "grail/anthra_dag_uniq.gra", DG_FORMAT_GRAIL, 12499, 13104, 12495, 0 },
    { "grail/ecoo_dag_uniq.gra", DG_FORMAT_GRAIL, 12620, 13350, 12620, 0 },
    { "grail/human_dag_uniq.gra", DG_FORMAT_GRAIL, 38811, 39576, 38811, 0 },
    { "grail/kegg_dag_uniq.gra", DG_FORMAT_GRAIL, 3617, 3908, 3615, 0 },
    { "grail/mtbrv_dag_uniq.gra", DG_FORMAT_GRAIL, 9602, 10245, 9602, 0 },
    { "grail/nasa_dag_uniq.gra", DG_FORMAT_GRAIL, 5605, 6537, 5605, 0 },
    { "grail/vchocyc_dag_uniq.gra", DG_FORMAT_GRAIL, 9491, 10143, 9491, 0 },
    { "grail/xmark_dag_uniq.gra", DG_FORMAT_GRAIL, 6080, 7025, 6080, 0 },
};

static size_t count_touched(const dg_graph *g)
{
    size_t v, n = dg_vertex_id_bound(g), touched = 0;
    for (v = 0; v < n; v++) {
        size_t out = 0, in = 0;
        if (dg_degree(g, (dg_vertex)v, &out) != DG_OK) continue;
        if (dg_in_degree(g, (dg_vertex)v, &in) != DG_OK) continue;
        if (out || in) touched++;
    }
    return touched;
}

static void test_datasets(void)
{
    size_t i;
    char path[1024];
    for (i = 0; i < sizeof DATASETS / sizeof DATASETS[0]; i++) {
        const dataset *d = &DATASETS[i];
        dg_graph *g = make_graph(0, 0);
        dg_status s;
        ds_path(path, sizeof path, d->file);
        s = dg_load(g, path, d->format);
        CHECK_MSG(s == DG_OK, "%s: %s: %s", d->file, dg_status_string(s), dg_error_message(g));
        CHECK_MSG(dg_vertex_id_bound(g) == d->bound, "%s: bound %zu, expected %zu", d->file,
                  dg_vertex_id_bound(g), d->bound);
        CHECK_MSG(dg_edge_count(g) == d->arcs, "%s: %zu edges, expected %zu", d->file,
                  dg_edge_count(g), d->arcs);
        CHECK_MSG(count_touched(g) == d->touched, "%s: %zu vertices with edges, expected %zu",
                  d->file, count_touched(g), d->touched);
        CHECK_MSG(dg_validate(g) == DG_OK, "%s: %s", d->file, dg_error_message(g));
        dg_destroy(g);

        /* AUTO must pick the same format: undirected where a count is known, else directed */
        g = make_graph(d->undirected != 0, 0);
        s = dg_load(g, path, DG_FORMAT_AUTO);
        CHECK_MSG(s == DG_OK, "%s (AUTO): %s: %s", d->file, dg_status_string(s), dg_error_message(g));
        CHECK_MSG(dg_vertex_id_bound(g) == d->bound, "%s (AUTO): bound %zu", d->file,
                  dg_vertex_id_bound(g));
        CHECK_MSG(dg_edge_count(g) == (d->undirected ? d->undirected : d->arcs),
                  "%s (AUTO%s): %zu edges", d->file, d->undirected ? ", undirected" : "",
                  dg_edge_count(g));
        CHECK_MSG(dg_validate(g) == DG_OK, "%s (AUTO): %s", d->file, dg_error_message(g));
        dg_destroy(g);
    }
}

static int near(float got, double want)
{
    return fabs((double)got - want) <= 1e-6 * fabs(want) + 1e-30;
}

static void test_dataset_weights(void)
{
    char path[1024];
    dg_graph *g = make_graph(0, 1);
    float w = 0;
    /* rome99.gr, 0-based: arcs from the last lines ("a 3353 1540 128", "a 1545 1540 119",
       "a 1374 3353 211") and repeated arcs: 744->745 is listed with 54 then 53,
       2956->2941 with 3975 then 3177, 147->148 with 8 then 67: the smallest stays. */
    CHECK(dg_load(g, ds_path(path, sizeof path, "dimacs9/rome99.gr"), DG_FORMAT_DIMACS) == DG_OK);
    CHECK(dg_edge_count(g) == 8859);
    CHECK(dg_edge_weight(g, 3352, 1539, &w) == DG_OK && w == 128.0f);
    CHECK(dg_edge_weight(g, 1544, 1539, &w) == DG_OK && w == 119.0f);
    CHECK(dg_edge_weight(g, 1373, 3352, &w) == DG_OK && w == 211.0f);
    CHECK(dg_edge_weight(g, 743, 744, &w) == DG_OK && w == 53.0f);
    CHECK(dg_edge_weight(g, 744, 743, &w) == DG_OK && w == 53.0f);
    CHECK(dg_edge_weight(g, 2955, 2940, &w) == DG_OK && w == 3177.0f);
    CHECK(dg_edge_weight(g, 146, 147, &w) == DG_OK && w == 8.0f);
    CHECK(dg_validate(g) == DG_OK);
    dg_destroy(g);

    /* bips98_606.mtx: "1 1 -20.517522447233073", "3 1 .9874643346913337",
       "7134 7135 -289.8573522807216", "7135 7135 -859.17456112515" */
    g = make_graph(0, 1);
    CHECK(dg_load(g, ds_path(path, sizeof path, "suitesparse/bips98_606.mtx"),
                  DG_FORMAT_MATRIX_MARKET) == DG_OK);
    CHECK(dg_edge_weight(g, 0, 0, &w) == DG_OK && near(w, -20.517522447233073));
    CHECK(dg_edge_weight(g, 2, 0, &w) == DG_OK && near(w, 0.9874643346913337));
    CHECK(dg_edge_weight(g, 7133, 7134, &w) == DG_OK && near(w, -289.8573522807216));
    CHECK(dg_edge_weight(g, 7134, 7134, &w) == DG_OK && near(w, -859.17456112515));
    CHECK(dg_has_edge(g, 0, 10) && !dg_has_edge(g, 10, 0)); /* general: "1 11" has no "11 1" */
    CHECK(dg_validate(g) == DG_OK);
    dg_destroy(g);

    /* 4elt.graph (fmt 0): the first vertex line is " 59 742 6773 ...": weights are 1 */
    g = make_graph(0, 1);
    CHECK(dg_load(g, ds_path(path, sizeof path, "metis/4elt.graph"), DG_FORMAT_METIS) == DG_OK);
    CHECK(dg_edge_weight(g, 0, 58, &w) == DG_OK && w == 1.0f);
    CHECK(dg_edge_weight(g, 58, 0, &w) == DG_OK && w == 1.0f);
    CHECK(dg_edge_weight(g, 0, 741, &w) == DG_OK);
    CHECK(dg_validate(g) == DG_OK);
    dg_destroy(g);
}

/* ================================ small good files ================================ */
static void test_good_files(void)
{
    dg_graph *g;
    float w = 0;
    size_t d = 0;

    /* Matrix Market in a .txt file: AUTO looks at the content. Symmetric pattern: both
       directions, weight 1; triangle 0-1-2 plus the self-loop 3-3. */
    g = make_graph(0, 1);
    CHECK(dg_load(g, "test/good/mm_in.txt", DG_FORMAT_AUTO) == DG_OK);
    CHECK(dg_vertex_id_bound(g) == 4 && dg_edge_count(g) == 7);
    CHECK(dg_has_edge(g, 0, 1) && dg_has_edge(g, 1, 0) && dg_has_edge(g, 2, 1) && dg_has_edge(g, 3, 3));
    CHECK(dg_edge_weight(g, 1, 2, &w) == DG_OK && w == 1.0f);
    CHECK(dg_validate(g) == DG_OK);
    dg_destroy(g);
    g = make_graph(1, 0);
    CHECK(dg_load(g, "test/good/mm_in.txt", DG_FORMAT_AUTO) == DG_OK);
    CHECK(dg_vertex_id_bound(g) == 4 && dg_edge_count(g) == 4);
    CHECK(dg_validate(g) == DG_OK);
    dg_destroy(g);
    g = make_graph(0, 0);   /* read as an edge list, the banner is a comment: "2 1" ... */
    CHECK(dg_load(g, "test/good/mm_in.txt", DG_FORMAT_EDGE_LIST) == DG_OK);
    CHECK(dg_edge_count(g) == 4 && dg_has_edge(g, 4, 4) && dg_has_edge(g, 2, 1) && !dg_has_edge(g, 1, 2));
    dg_destroy(g);

    /* edge list: comments, blank line, tabs, CRLF, trailing comment, commas, repeats (the
       smallest weight stays), negative weight, self-loop, no final newline */
    g = make_graph(0, 1);
    CHECK(dg_load(g, "test/good/el_mixed.txt", DG_FORMAT_AUTO) == DG_OK);
    CHECK(dg_vertex_id_bound(g) == 7 && dg_edge_count(g) == 6);
    CHECK(dg_edge_weight(g, 0, 1, &w) == DG_OK && w == 1.5f);
    CHECK(dg_edge_weight(g, 0, 2, &w) == DG_OK && w == 1.0f);
    CHECK(dg_edge_weight(g, 1, 2, &w) == DG_OK && w == 0.75f);
    CHECK(dg_edge_weight(g, 3, 4, &w) == DG_OK && w == -2.0f);
    CHECK(dg_edge_weight(g, 5, 5, &w) == DG_OK && w == 1.0f);
    CHECK(dg_edge_weight(g, 6, 0, &w) == DG_OK && w == 0.5f);
    CHECK(dg_validate(g) == DG_OK);
    dg_destroy(g);
    g = make_graph(0, 0);   /* unweighted: weights parsed, then 1 */
    CHECK(dg_load(g, "test/good/el_mixed.txt", DG_FORMAT_EDGE_LIST) == DG_OK);
    CHECK(dg_edge_weight(g, 3, 4, &w) == DG_OK && w == 1.0f);
    dg_destroy(g);

    /* METIS fmt 11, ncon 2: vertex weights skipped, edge weights kept, both directions */
    g = make_graph(0, 1);
    CHECK(dg_load(g, "test/good/metis_fmt11.graph", DG_FORMAT_AUTO) == DG_OK);
    CHECK(dg_vertex_id_bound(g) == 4 && dg_edge_count(g) == 4);
    CHECK(dg_edge_weight(g, 0, 1, &w) == DG_OK && w == 7.0f);
    CHECK(dg_edge_weight(g, 1, 0, &w) == DG_OK && w == 7.0f);
    CHECK(dg_edge_weight(g, 2, 0, &w) == DG_OK && w == 4.0f);
    CHECK(dg_degree(g, 3, &d) == DG_OK && d == 0);
    CHECK(dg_validate(g) == DG_OK);
    dg_destroy(g);
    g = make_graph(1, 1);
    CHECK(dg_load(g, "test/good/metis_fmt11.graph", DG_FORMAT_METIS) == DG_OK);
    CHECK(dg_edge_count(g) == 2);
    CHECK(dg_validate(g) == DG_OK);
    dg_destroy(g);

    /* METIS: a blank line is a vertex without neighbours */
    g = make_graph(0, 0);
    CHECK(dg_load(g, "test/good/metis_blank.graph", DG_FORMAT_METIS) == DG_OK);
    CHECK(dg_vertex_id_bound(g) == 3 && dg_edge_count(g) == 2);
    CHECK(dg_has_edge(g, 1, 2) && dg_has_edge(g, 2, 1));
    CHECK(dg_degree(g, 0, &d) == DG_OK && d == 0);
    dg_destroy(g);

    /* GRAIL: "0:1", "1 : 3", an empty list, a blank line; vertex 3 named only as a target */
    g = make_graph(0, 0);
    CHECK(dg_load(g, "test/good/gra_forms.gra", DG_FORMAT_AUTO) == DG_OK);
    CHECK(dg_vertex_id_bound(g) == 5 && dg_edge_count(g) == 4);
    CHECK(dg_has_edge(g, 0, 1) && dg_has_edge(g, 0, 2) && dg_has_edge(g, 1, 3) && dg_has_edge(g, 4, 0));
    CHECK(dg_validate(g) == DG_OK);
    dg_destroy(g);

    /* DIMACS: n = 4 creates vertex 3 (no arcs); "a 1 2 7" then "a 1 2 3": 3 stays */
    g = make_graph(0, 1);
    CHECK(dg_load(g, "test/good/dimacs_small.gr", DG_FORMAT_AUTO) == DG_OK);
    CHECK(dg_vertex_id_bound(g) == 4 && dg_edge_count(g) == 2);
    CHECK(dg_edge_weight(g, 0, 1, &w) == DG_OK && w == 3.0f);
    CHECK(dg_edge_weight(g, 1, 2, &w) == DG_OK && w == 0.5f);
    dg_destroy(g);

    /* AUTO by content for unknown extensions */
    g = make_graph(0, 1);
    CHECK(dg_load(g, "test/good/sniff_dimacs.dat", DG_FORMAT_AUTO) == DG_OK);
    CHECK(dg_vertex_id_bound(g) == 2 && dg_edge_weight(g, 0, 1, &w) == DG_OK && w == 4.0f);
    dg_destroy(g);
    g = make_graph(0, 0);
    CHECK(dg_load(g, "test/good/sniff_grail.dat", DG_FORMAT_AUTO) == DG_OK);
    CHECK(dg_vertex_id_bound(g) == 2 && dg_edge_count(g) == 1 && dg_has_edge(g, 0, 1));
    dg_destroy(g);

    /* an empty file is an empty edge list */
    g = make_graph(0, 0);
    CHECK(dg_load(g, "test/bad/empty.mtx", DG_FORMAT_EDGE_LIST) == DG_OK);
    CHECK(dg_vertex_id_bound(g) == 0 && dg_edge_count(g) == 0);
    dg_destroy(g);
}

/* Loading into a graph with content: ids are kept, edges already present keep their weight. */
static void test_into_existing(void)
{
    dg_graph *g = make_base(-1);
    float w = 0;
    CHECK(dg_load(g, "test/good/el_mixed.txt", DG_FORMAT_EDGE_LIST) == DG_OK);
    CHECK(dg_vertex_id_bound(g) == 7);
    CHECK(dg_edge_count(g) == 5 + 4);                       /* 0->1 and 1->2 were there */
    CHECK(dg_edge_weight(g, 0, 1, &w) == DG_OK && w == 2.0f);
    CHECK(dg_edge_weight(g, 1, 2, &w) == DG_OK && w == 3.0f);
    CHECK(dg_edge_weight(g, 2, 0, &w) == DG_OK && w == 4.0f);
    CHECK(dg_edge_weight(g, 6, 0, &w) == DG_OK && w == 0.5f);
    CHECK(dg_validate(g) == DG_OK);
    dg_destroy(g);
}

/* ================================ failures ================================ */
typedef struct {
    const char *file;             /* under test/bad */
    dg_format format;
    unsigned line;                /* the line the message must name */
    const char *says;             /* a piece of the message, or NULL */
} bad_file;

static const bad_file BAD[] = {
    { "mm_truncated.mtx", DG_FORMAT_MATRIX_MARKET, 6, "missing value" },
    { "mm_wrong_nnz.mtx", DG_FORMAT_MATRIX_MARKET, 3, "5 entries" },
    { "mm_too_many.mtx", DG_FORMAT_MATRIX_MARKET, 5, "more entries" },
    { "mm_array.mtx", DG_FORMAT_MATRIX_MARKET, 1, "array" },
    { "mm_complex.mtx", DG_FORMAT_MATRIX_MARKET, 1, "complex" },
    { "mm_hermitian.mtx", DG_FORMAT_MATRIX_MARKET, 1, "hermitian" },
    { "mm_skew.mtx", DG_FORMAT_MATRIX_MARKET, 1, "skew-symmetric" },
    { "mm_bad_number.mtx", DG_FORMAT_MATRIX_MARKET, 4, "x3" },
    { "mm_row_range.mtx", DG_FORMAT_MATRIX_MARKET, 5, "out of range" },
    { "mm_nan.mtx", DG_FORMAT_MATRIX_MARKET, 4, "NaN" },
    { "mm_no_banner.mtx", DG_FORMAT_MATRIX_MARKET, 1, "MatrixMarket" },
    { "mm_no_size.mtx", DG_FORMAT_MATRIX_MARKET, 3, "size line" },
    { "mm_garbage.mtx", DG_FORMAT_MATRIX_MARKET, 3, "'7'" },
    { "empty.mtx", DG_FORMAT_MATRIX_MARKET, 1, NULL },
    { "empty.mtx", DG_FORMAT_DIMACS, 1, NULL },
    { "empty.mtx", DG_FORMAT_METIS, 1, NULL },
    { "empty.mtx", DG_FORMAT_GRAIL, 1, NULL },
    { "gr_id_range.gr", DG_FORMAT_DIMACS, 4, "out of range" },
    { "gr_arc_before_p.gr", DG_FORMAT_DIMACS, 2, "problem line" },
    { "gr_wrong_m.gr", DG_FORMAT_DIMACS, 1, "3 arcs" },
    { "gr_zero_id.gr", DG_FORMAT_DIMACS, 3, "0" },
    { "gr_missing_weight.gr", DG_FORMAT_DIMACS, 2, "missing" },
    { "gr_two_p.gr", DG_FORMAT_DIMACS, 2, "second" },
    { "gr_unknown_line.gr", DG_FORMAT_DIMACS, 2, "'x'" },
    { "gr_nan.gr", DG_FORMAT_DIMACS, 2, "NaN" },
    { "metis_id_range.graph", DG_FORMAT_METIS, 4, "out of range" },
    { "metis_wrong_m.graph", DG_FORMAT_METIS, 2, "3 edges" },
    { "metis_asymmetric.graph", DG_FORMAT_METIS, 2, "vertex 1 lists 2, but the line of vertex 2 does not list 1" },
    { "metis_asymmetric2.graph", DG_FORMAT_METIS, 5, "vertex 2 lists 4" },   /* after comment lines */
    { "metis_too_many_lines.graph", DG_FORMAT_METIS, 4, "more than" },
    { "metis_too_few_lines.graph", DG_FORMAT_METIS, 3, "2 of the 3" },
    { "metis_fmt100.graph", DG_FORMAT_METIS, 1, "not supported" },
    { "metis_missing_ewgt.graph", DG_FORMAT_METIS, 4, "missing edge weight" },
    { "metis_bad_fmt.graph", DG_FORMAT_METIS, 1, "fmt" },
    { "grail_header.gra", DG_FORMAT_GRAIL, 1, "graph_for_greach" },
    { "grail_id_range.gra", DG_FORMAT_GRAIL, 4, "out of range" },
    { "grail_no_hash.gra", DG_FORMAT_GRAIL, 4, "'#'" },
    { "grail_bad_n.gra", DG_FORMAT_GRAIL, 2, "three" },
    { "grail_after_hash.gra", DG_FORMAT_GRAIL, 3, "after" },
    { "el_nan.txt", DG_FORMAT_EDGE_LIST, 3, "NaN" },
    { "el_negative.txt", DG_FORMAT_EDGE_LIST, 2, "negative" },
    { "el_garbage.txt", DG_FORMAT_EDGE_LIST, 2, "extra" },
    { "el_missing.txt", DG_FORMAT_EDGE_LIST, 3, "missing" },
    { "el_big_id.txt", DG_FORMAT_EDGE_LIST, 1, "too large" },
    { "el_last_id_plus_one.txt", DG_FORMAT_EDGE_LIST, 2, "end at 2147483645" },   /* one past the last id */
    { "el_inf.txt", DG_FORMAT_EDGE_LIST, 2, "infinite" },
    { "el_overflow.txt", DG_FORMAT_EDGE_LIST, 1, "float" },
    { "el_crlf.txt", DG_FORMAT_EDGE_LIST, 3, "'x'" },
    { "el_float_id.txt", DG_FORMAT_EDGE_LIST, 2, "2.0" },
    { "el_gzip.txt.gz", DG_FORMAT_EDGE_LIST, 1, "gzip" },
};

/* Loads path with format into a graph with content; checks status, "path:line: " and that
   the graph did not change. */
static void expect_failure(const char *path, dg_format format, dg_status want, unsigned line,
                           const char *says, int removed)
{
    dg_graph *g = make_base(removed);
    snapshot before, after;
    char prefix[1100];
    const char *msg;
    dg_status s;
    snap_take(g, &before);
    s = dg_load(g, path, format);
    msg = dg_error_message(g);
    snprintf(prefix, sizeof prefix, "%s:%u: ", path, line);
    CHECK_MSG(s == want, "%s (format %d): got %s, want %s (%s)", path, (int)format,
              dg_status_string(s), dg_status_string(want), msg);
    CHECK_MSG(strncmp(msg, prefix, strlen(prefix)) == 0, "%s (format %d): message '%s' should start "
              "with '%s'", path, (int)format, msg, prefix);
    if (says) CHECK_MSG(strstr(msg, says) != NULL, "%s: message '%s' should say '%s'", path, msg, says);
    snap_take(g, &after);
    CHECK_MSG(snap_equal(&before, &after), "%s (format %d): the graph changed", path, (int)format);
    CHECK_MSG(dg_validate(g) == DG_OK, "%s: %s", path, dg_error_message(g));
    snap_free(&before);
    snap_free(&after);
    dg_destroy(g);
}

static void test_bad_files(void)
{
    size_t i;
    char path[1024];
    for (i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        const bad_file *b = &BAD[i];
        snprintf(path, sizeof path, "test/bad/%s", b->file);
        expect_failure(path, b->format, DG_ERR_PARSE, b->line, b->says, -1);
        /* AUTO reaches the same format by extension (.txt: by content, an edge list) */
        if (strcmp(b->file, "empty.mtx") != 0 || b->format == DG_FORMAT_MATRIX_MARKET)
            expect_failure(path, DG_FORMAT_AUTO, DG_ERR_PARSE, b->line, b->says, -1);
    }
}

static void test_other_failures(void)
{
    dg_graph *g = make_graph(0, 0);
    const char *missing = "test/bad/no_such_file.txt";
    CHECK(dg_load(g, missing, DG_FORMAT_AUTO) == DG_ERR_IO);
    CHECK(strstr(dg_error_message(g), missing) != NULL);
    CHECK(dg_load(g, missing, DG_FORMAT_EDGE_LIST) == DG_ERR_IO);
    CHECK(dg_load(g, NULL, DG_FORMAT_AUTO) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_load(g, "test/good/el_mixed.txt", (dg_format)99) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_load(NULL, "test/good/el_mixed.txt", DG_FORMAT_AUTO) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_vertex_id_bound(g) == 0 && dg_edge_count(g) == 0);
    dg_destroy(g);

    /* a file naming a removed vertex: DG_ERR_NOT_FOUND at its first mention, graph unchanged.
       el_mixed.txt first names 2 on line 5; dimacs_small.gr names 3 (0-based 2) on line 5. */
    expect_failure("test/good/el_mixed.txt", DG_FORMAT_EDGE_LIST, DG_ERR_NOT_FOUND, 5,
                   "vertex 2 was removed", 2);
    expect_failure("test/good/dimacs_small.gr", DG_FORMAT_DIMACS, DG_ERR_NOT_FOUND, 5,
                   "vertex 2 was removed", 2);
    expect_failure("test/good/el_mixed.txt", DG_FORMAT_EDGE_LIST, DG_ERR_NOT_FOUND, 9,
                   "vertex 3 was removed", 3);
    /* METIS: a vertex line with neighbours names its own vertex (metis_blank.graph: line 3 is
       vertex 2, 0-based 1, which lists 3) */
    expect_failure("test/good/metis_blank.graph", DG_FORMAT_METIS, DG_ERR_NOT_FOUND, 3,
                   "vertex 1 was removed (2 in this 1-based file)", 1);
    /* a parse error wins over a removed vertex named earlier */
    expect_failure("test/bad/el_crlf.txt", DG_FORMAT_EDGE_LIST, DG_ERR_PARSE, 3, NULL, 1);
}

/* ================================ long lines ================================ */
static const char *tmp_path(char *buf, size_t size, const char *name)
{
    const char *t = getenv("TMPDIR");
    snprintf(buf, size, "%s/dg_test_load_%s", t && *t ? t : "/tmp", name);
    return buf;
}

static void test_long_lines(void)
{
    char path[1024];
    FILE *f;
    long i, n = 40001;
    dg_graph *g;
    size_t d = 0;

    /* METIS star: vertex 1 lists 2..n on one line of ~240 KB */
    f = fopen(tmp_path(path, sizeof path, "star.graph"), "wb");
    CHECK(f != NULL);
    if (!f) return;
    fprintf(f, "%ld %ld\n", n, n - 1);
    for (i = 2; i <= n; i++) fprintf(f, "%ld ", i);
    fprintf(f, "\n");
    for (i = 2; i <= n; i++) fprintf(f, "1\n");
    fclose(f);
    g = make_graph(0, 0);
    CHECK(dg_load(g, path, DG_FORMAT_AUTO) == DG_OK);
    CHECK(dg_vertex_id_bound(g) == (size_t)n && dg_edge_count(g) == 2 * (size_t)(n - 1));
    CHECK(dg_degree(g, 0, &d) == DG_OK && d == (size_t)(n - 1));
    CHECK(dg_in_degree(g, 0, &d) == DG_OK && d == (size_t)(n - 1));
    CHECK(dg_validate(g) == DG_OK);
    dg_destroy(g);
    remove(path);

    /* GRAIL: a bad field at the end of a ~300 KB line 4 */
    f = fopen(tmp_path(path, sizeof path, "long_bad.gra"), "wb");
    CHECK(f != NULL);
    if (!f) return;
    fprintf(f, "graph_for_greach\n%ld\n0: #\n1:", n);
    for (i = 2; i < n; i++) fprintf(f, " %ld", i);
    fprintf(f, " 1x #\n");
    fclose(f);
    expect_failure(path, DG_FORMAT_AUTO, DG_ERR_PARSE, 4, "1x", -1);
    remove(path);

    /* control bytes of a file (a terminal escape) reach the message escaped, never raw */
    f = fopen(tmp_path(path, sizeof path, "escape.txt"), "wb");
    CHECK(f != NULL);
    if (!f) return;
    fprintf(f, "0 1\n\033[31mred\a 2\n");
    fclose(f);
    expect_failure(path, DG_FORMAT_EDGE_LIST, DG_ERR_PARSE, 2, "\\x1b[31mred\\x07", -1);
    {
        const char *m;
        g = make_graph(0, 0);
        CHECK(dg_load(g, path, DG_FORMAT_EDGE_LIST) == DG_ERR_PARSE);
        for (m = dg_error_message(g); *m; m++) CHECK_MSG((unsigned char)*m >= 0x20 && *m != 0x7f, "raw byte %d", *m);
        dg_destroy(g);
    }
    remove(path);
}

/* ================================ exact weights ================================ */
/* Every weight read from a file is the float nearest its decimal text, as strtof gives it:
   20000 random decimals (1-17 digits, a point anywhere, exponents -45..30, both signs). */
static void test_exact_weights(void)
{
    char path[1024], w[64];
    FILE *f = fopen(tmp_path(path, sizeof path, "exact.txt"), "w");
    dg_graph *g;
    float *want;
    char (*text)[32];
    long i, n = 20000, bad = 0;
    uint64_t x = 0x2545F4914F6CDD1DULL;
    CHECK(f != NULL);
    if (!f) return;
    want = (float *)xmalloc((size_t)n * sizeof(float));
    text = (char (*)[32])xmalloc((size_t)n * 32);
    for (i = 0; i < n; i++) {
        int digits, point, e, k, len = 0;
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        digits = 1 + (int)(x % 17);
        point = (int)((x >> 8) % (uint64_t)(digits + 1));
        e = (int)((x >> 16) % 76) - 45;
        if ((x >> 24) & 1) w[len++] = '-';
        for (k = 0; k < digits; k++) {
            if (k == point && k > 0) w[len++] = '.';
            w[len++] = (char)('0' + (k == 0 ? 1 + (x >> (28 + k)) % 9 : (x >> (20 + 2 * k)) % 10));
        }
        if (e + (point ? point : digits) > 37) e = 37 - (point ? point : digits);   /* below FLT_MAX */
        if ((x >> 40) & 1) len += sprintf(w + len, "e%d", e);
        w[len] = 0;
        want[i] = strtof(w, NULL);
        memcpy(text[i], w, (size_t)len + 1);
        fprintf(f, "%ld %ld %s\n", i, i + 1, w);
    }
    fclose(f);
    g = make_graph(0, 1);
    CHECK(dg_load(g, path, DG_FORMAT_EDGE_LIST) == DG_OK);
    for (i = 0; i < n; i++) {
        float got = 0;
        CHECK(dg_edge_weight(g, (dg_vertex)i, (dg_vertex)(i + 1), &got) == DG_OK);
        if (memcmp(&got, &want[i], sizeof got) != 0 && bad++ < 5)
            CHECK_MSG(0, "line %ld: '%s' read as %.9g, strtof gives %.9g", i + 1, text[i], (double)got, (double)want[i]);
    }
    CHECK_MSG(bad == 0, "%ld of %ld weights differ from strtof", bad, n);
    free(want);
    free(text);
    dg_destroy(g);
    remove(path);

    /* every weight of bips98_606.mtx (16-17 significant digits; 221 of them were an ulp or two
       off when read through a double) */
    g = make_graph(0, 1);
    f = fopen(ds_path(path, sizeof path, "suitesparse/bips98_606.mtx"), "r");
    CHECK(f != NULL && dg_load(g, path, DG_FORMAT_MATRIX_MARKET) == DG_OK);
    if (f) {
        char line[512];
        int header = 0;
        long seen = 0;
        bad = 0;
        while (fgets(line, sizeof line, f)) {
            long r, c;
            float got = 0, ref;
            if (line[0] == '%') continue;
            if (!header) { header = 1; continue; }
            if (sscanf(line, "%ld %ld %63s", &r, &c, w) != 3) continue;
            ref = strtof(w, NULL);
            seen++;
            if (dg_edge_weight(g, (dg_vertex)(r - 1), (dg_vertex)(c - 1), &got) != DG_OK || memcmp(&got, &ref, sizeof got) != 0)
                if (bad++ < 3) CHECK_MSG(0, "bips98_606: '%s' read as %.9g, strtof gives %.9g", w, (double)got, (double)ref);
        }
        fclose(f);
        CHECK_MSG(bad == 0 && seen == 34738, "bips98_606: %ld of %ld weights differ from strtof", bad, seen);
    }
    dg_destroy(g);
}

/* ================================ from memory, progress ================================ */
static char *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    char *b = NULL;
    long n;
    *size = 0;
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        b = (char *)xmalloc((size_t)n + 1);
        *size = fread(b, 1, (size_t)n, f);
    }
    fclose(f);
    return b;
}
typedef struct prog { int calls, monotonic; double last; } prog;
static void on_progress(double x, void *user)
{
    prog *p = (prog *)user;
    if (x < p->last || x > 1.0) p->monotonic = 0;
    p->last = x;
    p->calls++;
}
/* dg_load_memory gives what dg_load gives for the same bytes (every good and bad file, a
   snapshot), with the name in messages; progress comes at least every 1% and ends at 1. */
static void test_memory(void)
{
    static const char *files[] = { "test/good/el_mixed.txt", "test/good/dimacs_small.gr", "test/good/metis_fmt11.graph",
                                   "test/good/gra_forms.gra", "test/good/sniff_dimacs.dat", "test/bad/mm_nan.mtx",
                                   "test/bad/metis_asymmetric2.graph", "test/bad/el_crlf.txt" };
    char path[1024];
    size_t i, size;
    for (i = 0; i < sizeof files / sizeof files[0]; i++) {
        char *b = read_all(files[i], &size);
        dg_graph *g1 = make_graph(0, 1), *g2 = make_graph(0, 1);
        snapshot s1, s2;
        dg_status a, c;
        CHECK_MSG(b != NULL, "cannot read %s", files[i]);
        if (!b) { dg_destroy(g1); dg_destroy(g2); continue; }
        a = dg_load(g1, files[i], DG_FORMAT_AUTO);
        c = dg_load_memory(g2, b, size, files[i], NULL);
        CHECK_MSG(a == c && !strcmp(dg_error_message(g1), dg_error_message(g2)), "%s: file %s '%s', memory %s '%s'",
                  files[i], dg_status_string(a), dg_error_message(g1), dg_status_string(c), dg_error_message(g2));
        snap_take(g1, &s1);
        snap_take(g2, &s2);
        CHECK_MSG(snap_equal(&s1, &s2), "%s: another graph from memory", files[i]);
        snap_free(&s1);
        snap_free(&s2);
        free(b);
        dg_destroy(g1);
        dg_destroy(g2);
    }
    {   /* a snapshot, and the bad arguments */
        dg_graph *g = make_graph(0, 1), *h = make_graph(0, 1);
        char *b;
        CHECK(dg_load(g, "test/good/el_mixed.txt", DG_FORMAT_AUTO) == DG_OK);
        CHECK(dg_save(g, tmp_path(path, sizeof path, "mem.dgs"), DG_FORMAT_SNAPSHOT) == DG_OK);
        b = read_all(path, &size);
        CHECK(b && dg_load_memory(h, b, size, NULL, NULL) == DG_OK && dg_edge_count(h) == dg_edge_count(g));
        {
            dg_graph *k = make_graph(0, 1);   /* one byte short: refused, k unchanged */
            CHECK(b && dg_load_memory(k, b, size - 1, NULL, NULL) == DG_ERR_PARSE && dg_vertex_id_bound(k) == 0);
            dg_destroy(k);
        }
        CHECK(dg_load_memory(h, NULL, 5, NULL, NULL) == DG_ERR_INVALID_ARGUMENT);
        CHECK(dg_load_memory(NULL, b, size, NULL, NULL) == DG_ERR_INVALID_ARGUMENT);
        free(b);
        remove(path);
        dg_destroy(g);
        dg_destroy(h);
        g = make_graph(0, 0);
        CHECK(dg_load_memory(g, NULL, 0, "empty.txt", NULL) == DG_OK && dg_vertex_id_bound(g) == 0);
        CHECK(dg_load_memory(g, "0 1\n1 2 x\n", 10, "inline.txt", NULL) == DG_ERR_PARSE);
        CHECK(strncmp(dg_error_message(g), "inline.txt:2: ", 14) == 0);
        dg_destroy(g);
    }
    {   /* progress: a 3 MB edge list, from memory and from its file */
        size_t cap = 4 << 20, n = 0;
        char *b = (char *)xmalloc(cap);
        long e;
        int from;
        for (e = 0; n + 40 < cap && n < (size_t)3 << 20; e++) n += (size_t)sprintf(b + n, "%ld %ld\n", e % 5000, (e * 7) % 5000);
        for (from = 0; from < 2; from++) {
            dg_graph *g = make_graph(0, 0);
            dg_load_options o;
            prog p = { 0, 1, 0.0 };
            FILE *f;
            memset(&o, 0, sizeof o);
            o.progress = on_progress;
            o.progress_user = &p;
            if (from == 0) {
                CHECK(dg_load_memory(g, b, n, "big.txt", &o) == DG_OK);
            } else {
                f = fopen(tmp_path(path, sizeof path, "big.txt"), "wb");
                CHECK(f && fwrite(b, 1, n, f) == n);
                if (f) fclose(f);
                CHECK(dg_load_ex(g, path, &o) == DG_OK);
                remove(path);
            }
            CHECK_MSG(p.calls >= 40 && p.monotonic && p.last == 1.0, "progress (%s): %d calls, monotonic %d, last %g",
                      from ? "file" : "memory", p.calls, p.monotonic, p.last);
            dg_destroy(g);
        }
        free(b);
    }
}

/* (test/run.sh lists these cases but datasets for the clang pass: a new case goes there too) */
static const tt_case cases[] = {
    { "datasets", test_datasets }, { "weights", test_dataset_weights }, { "good", test_good_files },
    { "existing", test_into_existing }, { "bad", test_bad_files }, { "failures", test_other_failures },
    { "long_lines", test_long_lines }, { "exact_weights", test_exact_weights },
    { "memory", test_memory },
};

int main(void)
{
    TT_RUN("test_load", cases);
    return TT_SUMMARY("test_load");
}
