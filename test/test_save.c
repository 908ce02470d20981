/* test_save.c - dg_save, dg_export_csr, snapshots and dg_load_ex (compact ids).

   Cases (DG_TESTS=test_save:NAME, see tt.h):
   - roundtrip: random graphs in 8 kinds ({directed, undirected} x {weighted, unweighted} x page
     size {64, 1024}), with hubs (lists over several pages), self-loops, removed vertices and
     weights with many digits, saved in every format that can hold them and loaded into an empty
     graph of the same kind: every live vertex, edge and weight comes back exactly (text formats:
     removed ids come back as isolated vertices; snapshots: as removed); a saved file equals the
     file saved from the loaded graph (text: byte for byte);
   - export: dg_export_csr equals the sorted dg_neighbors lists, offsets-only calls, removed ids;
   - refusals: METIS of a directed graph or with a self-loop, GRAIL of a weighted graph, an
     infinite weight in text (fine in a snapshot), bad arguments, a snapshot into a non-empty
     graph or a graph of another kind, damaged snapshots (every byte flipped in turn, cut at
     every length): DG_ERR_PARSE and the graph unchanged; a failed save leaves an existing file
     as it was;
   - compact: dg_load_ex with compact_ids on a file of sparse ids (into an empty graph and into
     one with vertices), id_map, every format; SNAP CA-GrQc has 5,242 vertices compacted;
   - image: snapshots as store images into graphs of the same kind, another page size, the
     other reuse_ids, one with a device mirror, one that a failed load left with pages;
     mutations after the load against the original, dg_validate, BFS on both; images with a
     right hash but a damaged store (a target, a directory entry, a page header, a page table,
     a degree, the free-page count, the arc count, an arc without its reverse, an entry twice,
     a cycle in the page order): DG_ERR_PARSE, the graph left empty. */
#define _POSIX_C_SOURCE 200809L
#define DYNGRAPH_IMPLEMENTATION
#include "dyngraph.h"
#include "tt.h"
#include "trand.h"
#include "tdata.h"
#include <math.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmpdir[256];
static const char *tmp_file(char *buf, size_t size, const char *name)
{
    snprintf(buf, size, "%s/%s", tmpdir, name);
    return buf;
}

static dg_graph *make(int undirected, int weighted, uint32_t page)
{
    dg_graph *g = NULL;
    dg_desc d;
    memset(&d, 0, sizeof d);
    d.undirected = undirected;
    d.weighted = weighted;
    d.page_size = page;
    CHECK(dg_create(&d, &g) == DG_OK);
    return g;
}

/* A random graph: n ids, some removed, m random edges plus two hubs and self-loops. */
static dg_graph *random_graph(int undirected, int weighted, uint32_t page, int n, int m)
{
    dg_graph *g = make(undirected, weighted, page);
    dg_edge *e = (dg_edge *)xmalloc((size_t)(m + 2 * 300 + 10) * sizeof(dg_edge));
    int i, k = 0, h;
    if (!g) { free(e); return NULL; }
    CHECK(dg_add_vertices(g, (size_t)n, NULL) == DG_OK);
    for (i = 0; i < m; i++) {
        e[k].src = (dg_vertex)rnd((uint32_t)n); e[k].dst = (dg_vertex)rnd((uint32_t)n);
        e[k].weight = (float)((double)rnd(1000000) / 7.0 - 20000.0);   /* many digits, negative too */
        k++;
    }
    for (h = 0; h < 2; h++)
        for (i = 0; i < 300; i++) {
            e[k].src = (dg_vertex)(3 + h); e[k].dst = (dg_vertex)rnd((uint32_t)n);
            e[k].weight = 1e-7f * (float)(i + 1); k++;
        }
    for (i = 0; i < 10; i++) { e[k].src = e[k].dst = (dg_vertex)rnd((uint32_t)n); e[k].weight = 3.25f; k++; }
    CHECK(dg_add_edges(g, e, (size_t)k, NULL) == DG_OK);
    for (i = 0; i < n / 20; i++) {
        dg_vertex v = (dg_vertex)(10 + rnd((uint32_t)(n - 10)));
        if (dg_has_vertex(g, v)) CHECK(dg_remove_vertex(g, v) == DG_OK);
    }
    CHECK(dg_remove_vertex(g, (dg_vertex)(n - 1)) == DG_OK || !dg_has_vertex(g, (dg_vertex)(n - 1)));  /* the last id */
    free(e);
    return g;
}

typedef struct csr { size_t bound; int64_t *off; dg_vertex *t; float *w; uint8_t *alive; } csr;
static void csr_take(dg_graph *g, csr *c)
{
    size_t v;
    c->bound = dg_vertex_id_bound(g);
    c->off = (int64_t *)xmalloc((c->bound + 1) * sizeof(int64_t));
    CHECK(dg_export_csr(g, c->off, NULL, NULL) == DG_OK);
    c->t = (dg_vertex *)xmalloc((size_t)c->off[c->bound] * sizeof(dg_vertex) + 4);
    c->w = (float *)xmalloc((size_t)c->off[c->bound] * sizeof(float) + 4);
    CHECK(dg_export_csr(g, c->off, c->t, c->w) == DG_OK);
    c->alive = (uint8_t *)xmalloc(c->bound + 1);
    for (v = 0; v < c->bound; v++) c->alive[v] = (uint8_t)dg_has_vertex(g, (dg_vertex)v);
}
static void csr_free(csr *c) { free(c->off); free(c->t); free(c->w); free(c->alive); }
/* same lists and weights; alive equal too unless text (then removed ids may be alive, isolated) */
static int csr_equal(const csr *a, const csr *b, int text)
{
    size_t v;
    if (a->bound != b->bound) return 0;
    if (memcmp(a->off, b->off, (a->bound + 1) * sizeof(int64_t)) != 0) return 0;
    if (memcmp(a->t, b->t, (size_t)a->off[a->bound] * sizeof(dg_vertex)) != 0) return 0;
    if (memcmp(a->w, b->w, (size_t)a->off[a->bound] * sizeof(float)) != 0) return 0;
    for (v = 0; v < a->bound; v++)
        if (text ? a->alive[v] && !b->alive[v] : a->alive[v] != b->alive[v]) return 0;
    return 1;
}

static int file_equal(const char *a, const char *b)
{
    FILE *f = fopen(a, "rb"), *h = fopen(b, "rb");
    int x, y, same = f && h;
    while (same) {
        x = fgetc(f); y = fgetc(h);
        if (x != y) same = 0;
        if (x == EOF) break;
    }
    if (f) fclose(f);
    if (h) fclose(h);
    return same;
}

static const char *fmt_name(dg_format f)
{
    static const char *n[] = { "auto", "edge list", "Matrix Market", "DIMACS", "METIS", "GRAIL", "snapshot" };
    return n[f];
}

static void test_roundtrip(void)
{
    int und, w, p;
    char path[512], path2[512];
    static const char *ext[] = { "", "txt", "mtx", "gr", "graph", "gra", "dgs" };
    for (und = 0; und <= 1; und++)
        for (w = 0; w <= 1; w++)
            for (p = 0; p < 2; p++) {
                uint32_t page = p ? 1024 : 64;
                dg_graph *g = random_graph(und, w, page, 1500, 6000);
                csr a;
                int f;
                if (!g) continue;
                csr_take(g, &a);
                for (f = DG_FORMAT_EDGE_LIST; f <= DG_FORMAT_SNAPSHOT; f++) {
                    dg_graph *h;
                    dg_status s;
                    csr b;
                    char name[64];
                    if (f == DG_FORMAT_METIS || (f == DG_FORMAT_GRAIL && w)) continue;   /* refusals below */
                    snprintf(name, sizeof name, "rt_%d%d%d.%s", und, w, p, ext[f]);
                    s = dg_save(g, tmp_file(path, sizeof path, name), (dg_format)f);
                    CHECK_MSG(s == DG_OK, "save %s: %s", fmt_name((dg_format)f), dg_error_message(g));
                    h = make(und, w, page);
                    if (!h) continue;
                    s = dg_load(h, path, DG_FORMAT_AUTO);    /* found by extension or by content */
                    CHECK_MSG(s == DG_OK, "load %s (%d%d%d): %s", fmt_name((dg_format)f), und, w, p, dg_error_message(h));
                    csr_take(h, &b);
                    CHECK_MSG(csr_equal(&a, &b, f != DG_FORMAT_SNAPSHOT), "%s (undirected %d, weighted %d, page %u): "
                              "the graph did not come back", fmt_name((dg_format)f), und, w, page);
                    CHECK(dg_edge_count(h) == dg_edge_count(g));
                    if (f == DG_FORMAT_SNAPSHOT) CHECK(dg_vertex_count(h) == dg_vertex_count(g));
                    else CHECK(dg_vertex_count(h) == dg_vertex_id_bound(g));
                    CHECK(dg_validate(h) == DG_OK);
                    /* saved again from the loaded graph: the same file (snapshot: the same
                       graph, and text formats byte for byte) */
                    snprintf(name, sizeof name, "rt2_%d%d%d.%s", und, w, p, ext[f]);
                    CHECK(dg_save(h, tmp_file(path2, sizeof path2, name), (dg_format)f) == DG_OK);
                    CHECK_MSG(file_equal(path, path2), "%s: saving the loaded graph gives another file", fmt_name((dg_format)f));
                    csr_free(&b);
                    dg_destroy(h);
                    remove(path);
                    remove(path2);
                }
                if (und) {   /* METIS: undirected without self-loops */
                    dg_graph *h = make(und, w, page);
                    size_t v;
                    csr b, c;
                    for (v = 0; v < dg_vertex_id_bound(g); v++)
                        if (dg_has_edge(g, (dg_vertex)v, (dg_vertex)v)) CHECK(dg_remove_edge(g, (dg_vertex)v, (dg_vertex)v) == DG_OK);
                    csr_take(g, &c);
                    CHECK_MSG(dg_save(g, tmp_file(path, sizeof path, "rt.graph"), DG_FORMAT_METIS) == DG_OK, "%s", dg_error_message(g));
                    CHECK_MSG(h && dg_load(h, path, DG_FORMAT_AUTO) == DG_OK, "%s", h ? dg_error_message(h) : "");
                    if (h) {
                        csr_take(h, &b);
                        CHECK_MSG(csr_equal(&c, &b, 1), "METIS (weighted %d, page %u): the graph did not come back", w, page);
                        csr_free(&b);
                        dg_destroy(h);
                    }
                    csr_free(&c);
                    remove(path);
                }
                csr_free(&a);
                dg_destroy(g);
            }
}

static void test_export(void)
{
    dg_graph *g = random_graph(0, 1, 64, 800, 4000);
    size_t bound, v, i, d;
    int64_t *off;
    dg_vertex *t, ids[1000];
    float *w, ws[1000];
    if (!g) return;
    bound = dg_vertex_id_bound(g);
    off = (int64_t *)xmalloc((bound + 1) * sizeof(int64_t));
    CHECK(dg_export_csr(g, off, NULL, NULL) == DG_OK);
    CHECK((size_t)off[bound] >= dg_edge_count(g) - 10 && off[0] == 0);
    t = (dg_vertex *)xmalloc((size_t)off[bound] * sizeof(dg_vertex));
    w = (float *)xmalloc((size_t)off[bound] * sizeof(float));
    CHECK(dg_export_csr(g, off, t, NULL) == DG_OK);   /* weights may be NULL */
    CHECK(dg_export_csr(g, off, t, w) == DG_OK);
    for (v = 0; v < bound; v++) {
        if (!dg_has_vertex(g, (dg_vertex)v)) { CHECK(off[v + 1] == off[v]); continue; }
        CHECK(dg_neighbors(g, (dg_vertex)v, ids, ws, 1000, &d) == DG_OK && d <= 1000);
        CHECK_MSG((size_t)(off[v + 1] - off[v]) == d, "vertex %zu: %lld arcs exported, degree %zu", v,
                  (long long)(off[v + 1] - off[v]), d);
        for (i = 0; i < d && i < 1000; i++) {
            size_t j;
            int found = 0;
            for (j = (size_t)off[v]; j < (size_t)off[v + 1]; j++)
                if (t[j] == ids[i]) { found = 1; CHECK(w[j] == ws[i]); }
            CHECK(found);
        }
        for (i = (size_t)off[v] + 1; i < (size_t)off[v + 1]; i++) CHECK(t[i - 1] < t[i]);
    }
    CHECK(dg_export_csr(g, NULL, t, w) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_export_csr(NULL, off, t, w) == DG_ERR_INVALID_ARGUMENT);
    free(off); free(t); free(w);
    dg_destroy(g);
    /* undirected: two arcs an edge, one a self-loop */
    g = make(1, 0, 64);
    if (g) {
        int64_t o[4];
        dg_vertex tt[8];
        CHECK(dg_add_vertices(g, 3, NULL) == DG_OK);
        CHECK(dg_add_edge(g, 0, 2, 1) == DG_OK && dg_add_edge(g, 1, 1, 1) == DG_OK);
        CHECK(dg_export_csr(g, o, tt, NULL) == DG_OK);
        CHECK(o[0] == 0 && o[1] == 1 && o[2] == 2 && o[3] == 3 && tt[0] == 2 && tt[1] == 1 && tt[2] == 0);
        dg_destroy(g);
    }
}

static long file_size(const char *path)
{
    FILE *f = fopen(path, "rb");
    long n;
    if (!f) return -1;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fclose(f);
    return n;
}

static void test_refusals(void)
{
    char path[512], bad[512];
    dg_graph *g = make(0, 1, 64), *h;
    unsigned char *bytes;
    long n, i;
    FILE *f;
    if (!g) return;
    CHECK(dg_add_vertices(g, 4, NULL) == DG_OK);
    CHECK(dg_add_edge(g, 0, 1, 2.5f) == DG_OK && dg_add_edge(g, 2, 3, 0.1f) == DG_OK);
    tmp_file(path, sizeof path, "ref.txt");
    CHECK(dg_save(g, path, DG_FORMAT_METIS) == DG_ERR_INVALID_ARGUMENT);
    CHECK(strstr(dg_error_message(g), "METIS") != NULL);
    CHECK(dg_save(g, path, DG_FORMAT_GRAIL) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_save(g, path, (dg_format)99) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_save(g, NULL, DG_FORMAT_EDGE_LIST) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_save(NULL, path, DG_FORMAT_EDGE_LIST) == DG_ERR_INVALID_ARGUMENT);
    /* an infinite weight: text formats refuse it, a snapshot keeps it */
    CHECK(dg_set_weight(g, 2, 3, INFINITY) == DG_OK);
    CHECK(dg_save(g, path, DG_FORMAT_EDGE_LIST) == DG_ERR_INVALID_ARGUMENT);
    CHECK(strstr(dg_error_message(g), "infinite") != NULL);
    CHECK(dg_save(g, tmp_file(path, sizeof path, "ref.dgs"), DG_FORMAT_AUTO) == DG_OK);   /* AUTO: snapshot */
    h = make(0, 1, 64);
    if (h) {
        float x = 0;
        CHECK(dg_load(h, path, DG_FORMAT_AUTO) == DG_OK);
        CHECK(dg_edge_weight(h, 2, 3, &x) == DG_OK && isinf(x));
        /* into a non-empty graph: refused, unchanged */
        CHECK(dg_load(h, path, DG_FORMAT_SNAPSHOT) == DG_ERR_INVALID_ARGUMENT);
        CHECK(dg_vertex_id_bound(h) == 4 && dg_edge_count(h) == 2);
        dg_destroy(h);
    }
    h = make(1, 1, 64);     /* another kind */
    if (h) { CHECK(dg_load(h, path, DG_FORMAT_AUTO) == DG_ERR_INVALID_ARGUMENT); dg_destroy(h); }
    h = make(0, 0, 64);
    if (h) { CHECK(dg_load(h, path, DG_FORMAT_AUTO) == DG_ERR_INVALID_ARGUMENT); dg_destroy(h); }
    /* damaged snapshots: every byte flipped, every length cut: DG_ERR_PARSE, graph empty */
    n = file_size(path);
    CHECK(n > 40);
    bytes = (unsigned char *)xmalloc((size_t)n + 1);
    f = fopen(path, "rb");
    CHECK(f && fread(bytes, 1, (size_t)n, f) == (size_t)n);
    if (f) fclose(f);
    tmp_file(bad, sizeof bad, "bad.dgs");
    for (i = 0; i < 2 * n + 1; i++) {
        dg_status s;
        long len = i < n ? n : i - n;       /* first flips, then cuts (and one byte too many) */
        if (i < n) bytes[i] ^= 0x5a;
        f = fopen(bad, "wb");
        if (!f) break;
        fwrite(bytes, 1, (size_t)(i == 2 * n ? n : len), f);
        if (i == 2 * n) fputc(0, f);
        fclose(f);
        if (i < n) bytes[i] ^= 0x5a;
        h = make(0, 1, 64);
        if (!h) break;
        s = dg_load(h, bad, DG_FORMAT_SNAPSHOT);
        if (i >= n && i < 2 * n && len == n) s = DG_ERR_PARSE;   /* (len n is the whole file) */
        CHECK_MSG(s == DG_ERR_PARSE || (i < 8 && s != DG_OK), "damaged snapshot %ld: %s: %s", i,
                  dg_status_string(s), dg_error_message(h));
        CHECK(dg_vertex_id_bound(h) == 0 && dg_edge_count(h) == 0);
        dg_destroy(h);
    }
    free(bytes);
    /* a failed save leaves the old file: a directory where path.tmp would go */
    {
        char dir[512], tmp[600];
        tmp_file(dir, sizeof dir, "keep.txt");
        f = fopen(dir, "w");
        if (f) { fputs("0 1\n", f); fclose(f); }
        snprintf(tmp, sizeof tmp, "%s.tmp", dir);
        CHECK(mkdir(tmp, 0700) == 0);
        CHECK(dg_save(g, dir, DG_FORMAT_SNAPSHOT) == DG_ERR_IO);
        CHECK(file_size(dir) == 4);
        remove(tmp);
        CHECK(dg_save(g, "/nonexistent-dir/x.txt", DG_FORMAT_SNAPSHOT) == DG_ERR_IO);
    }
    dg_destroy(g);
}

/* a file with sparse ids: 7, 1000000, 42, 7 again; 1-based formats shift by one */
static void test_compact(void)
{
    static const struct { const char *name, *text; dg_format f; } files[] = {
        { "c.txt", "# sparse\n7 1000000 1.5\n42 7 2\n1000000 1000000 3\n", DG_FORMAT_EDGE_LIST },
        { "c.mtx", "%%MatrixMarket matrix coordinate real general\n1000001 1000001 3\n8 1000001 1.5\n43 8 2\n1000001 1000001 3\n", DG_FORMAT_MATRIX_MARKET },
        { "c.gr", "p sp 1000001 3\na 8 1000001 1.5\na 43 8 2\na 1000001 1000001 3\n", DG_FORMAT_DIMACS },
    };
    char path[512];
    size_t i;
    for (i = 0; i < sizeof files / sizeof files[0]; i++) {
        dg_graph *g = make(0, 1, 64);
        dg_load_options o;
        int64_t map[8];
        FILE *f = fopen(tmp_file(path, sizeof path, files[i].name), "w");
        float x = 0;
        if (!g || !f) { if (f) fclose(f); dg_destroy(g); continue; }
        fputs(files[i].text, f);
        fclose(f);
        memset(&o, 0, sizeof o);
        o.format = files[i].f;
        o.compact_ids = 1;
        o.id_map = map;
        o.id_map_capacity = 8;
        memset(map, 0xff, sizeof map);
        CHECK_MSG(dg_load_ex(g, path, &o) == DG_OK, "%s: %s", files[i].name, dg_error_message(g));
        /* ids 7 -> 0, 42 -> 1, 1000000 -> 2 */
        CHECK(dg_vertex_id_bound(g) == 3 && dg_edge_count(g) == 3);
        CHECK(map[0] == 7 && map[1] == 42 && map[2] == 1000000 && map[3] == -1);
        CHECK(dg_edge_weight(g, 0, 2, &x) == DG_OK && x == 1.5f);
        CHECK(dg_edge_weight(g, 1, 0, &x) == DG_OK && x == 2.0f);
        CHECK(dg_has_edge(g, 2, 2));
        /* once more into the same graph: new ids 3..5 */
        memset(map, 0xff, sizeof map);
        CHECK(dg_load_ex(g, path, &o) == DG_OK);
        CHECK(dg_vertex_id_bound(g) == 6 && dg_edge_count(g) == 6 && dg_has_edge(g, 3, 5));
        CHECK(map[0] == -1 && map[3] == 7 && map[4] == 42 && map[5] == 1000000);
        /* without compact_ids: the ids as they are */
        CHECK(dg_load(g, path, files[i].f) == DG_OK && dg_vertex_id_bound(g) == 1000001);
        /* id_map without compact_ids, compact into a snapshot: refused */
        o.compact_ids = 0;
        CHECK(dg_load_ex(g, path, &o) == DG_ERR_INVALID_ARGUMENT);
        dg_destroy(g);
        remove(path);
    }
    {   /* the edge list's "# vertices N" sets the id bound */
        dg_graph *g = make(0, 0, 64);
        FILE *f = fopen(tmp_file(path, sizeof path, "v.txt"), "w");
        if (f) { fputs("# vertices 10\n0 1\n# vertices of the graph: not a count\n", f); fclose(f); }
        CHECK(g && dg_load(g, path, DG_FORMAT_AUTO) == DG_OK && dg_vertex_id_bound(g) == 10 && dg_edge_count(g) == 1);
        dg_destroy(g);
        remove(path);
    }
    {   /* SNAP CA-GrQc: 5,242 vertices (ids up to 26,196 in the file) */
        dg_graph *g = make(1, 0, 1024);
        dg_load_options o;
        char p[1024];
        memset(&o, 0, sizeof o);
        o.compact_ids = 1;
        if (g && dg_load_ex(g, ds_path(p, sizeof p, "snap/CA-GrQc.txt"), &o) == DG_OK) {
            CHECK_MSG(dg_vertex_count(g) == 5242 && dg_vertex_id_bound(g) == 5242, "CA-GrQc: %zu vertices",
                      dg_vertex_count(g));
            CHECK(dg_edge_count(g) == 14496);
        } else {
            CHECK_MSG(0, "CA-GrQc: %s", g ? dg_error_message(g) : "no graph");
        }
        dg_destroy(g);
    }
}

/* The same random mutations on two graphs (edges added and removed, vertices removed and
   added): after a snapshot load the store's free lists, LA table and page links must carry on
   exactly as the original's do. */
static void mutate_both(dg_graph *a, dg_graph *b, int rounds)
{
    int r, i;
    size_t n = dg_vertex_id_bound(a);
    dg_edge e[64];
    for (r = 0; r < rounds; r++) {
        for (i = 0; i < 64; i++) {
            e[i].src = (dg_vertex)rnd((uint32_t)n); e[i].dst = (dg_vertex)(i < 32 ? 3 : rnd((uint32_t)n));
            e[i].weight = (float)rnd(100);
            if (!dg_has_vertex(a, e[i].src)) e[i].src = 3;
            if (!dg_has_vertex(a, e[i].dst)) e[i].dst = 4;
        }
        if (r & 1) {
            size_t x, y;
            CHECK(dg_remove_edges(a, e, 64, &x) == DG_OK && dg_remove_edges(b, e, 64, &y) == DG_OK && x == y);
        } else {
            size_t x, y;
            CHECK(dg_add_edges(a, e, 64, &x) == DG_OK && dg_add_edges(b, e, 64, &y) == DG_OK && x == y);
        }
        {
            dg_vertex v = (dg_vertex)(10 + rnd((uint32_t)(n - 10))), va = -1, vb = -1;
            if (dg_has_vertex(a, v)) CHECK(dg_remove_vertex(a, v) == DG_OK && dg_remove_vertex(b, v) == DG_OK);
            CHECK(dg_add_vertex(a, &va) == DG_OK && dg_add_vertex(b, &vb) == DG_OK && va == vb);
            n = dg_vertex_id_bound(a);
        }
    }
}

/* Snapshots are store images (read straight into the store): round trips into graphs of the
   same kind, of another page size and of the other reuse_ids setting (through the batch path),
   into a graph whose device mirror exists (the first sync after it sends everything), then the
   same mutations on original and copy, checked against each other and by dg_validate; BFS
   the same on both. */
static void test_image(void)
{
    int und, wtd, pi;
    static const uint32_t pages[2] = { 64, 1024 };
    char path[512];
    for (und = 0; und <= 1; und++)
        for (wtd = 0; wtd <= 1; wtd++)
            for (pi = 0; pi < 2; pi++) {
                dg_graph *g = random_graph(und, wtd, pages[pi], 3000, 9000), *h[3];
                csr a, b;
                int k;
                if (!g) continue;
                CHECK(dg_save(g, tmp_file(path, sizeof path, "img.dgs"), DG_FORMAT_SNAPSHOT) == DG_OK);
                csr_take(g, &a);
                for (k = 0; k < 3; k++) {
                    dg_desc d = dg_query_desc(g);
                    dg_status st;
                    if (k == 1) d.page_size = pages[1 - pi];          /* another page size */
                    if (k == 2) d.reuse_ids = 1;                      /* another reuse_ids */
                    h[k] = NULL;
                    CHECK(dg_create(&d, &h[k]) == DG_OK);
                    if (!h[k]) continue;
                    if (k == 0) CHECK(dg_sync(h[k]) == DG_OK);       /* a mirror before the load */
                    st = dg_load(h[k], path, DG_FORMAT_AUTO);
                    CHECK_MSG(st == DG_OK, "image load (und %d, w %d, page %u, k %d): %s", und, wtd,
                              (unsigned)pages[pi], k, dg_error_message(h[k]));
                    csr_take(h[k], &b);
                    CHECK_MSG(csr_equal(&a, &b, 0), "image round trip (und %d, w %d, page %u, k %d)", und, wtd,
                              (unsigned)pages[pi], k);
                    CHECK_MSG(dg_validate(h[k]) == DG_OK, "after an image load: %s", dg_error_message(h[k]));
                    CHECK(dg_edge_count(h[k]) == dg_edge_count(g) && dg_vertex_count(h[k]) == dg_vertex_count(g));
                    csr_free(&b);
                }
                if (h[0]) {   /* the image's graph carries on as the original does */
                    int32_t *d0 = (int32_t *)xmalloc(dg_vertex_id_bound(g) * 2 * sizeof(int32_t) + 64);
                    int32_t *d1 = (int32_t *)xmalloc(dg_vertex_id_bound(g) * 2 * sizeof(int32_t) + 64);
                    CHECK(dg_bfs(h[0], 3, d1, NULL) == DG_OK && dg_bfs(g, 3, d0, NULL) == DG_OK);
                    CHECK(memcmp(d0, d1, dg_vertex_id_bound(g) * sizeof(int32_t)) == 0);
                    mutate_both(g, h[0], 40);
                    csr_free(&a);
                    csr_take(g, &a);
                    csr_take(h[0], &b);
                    CHECK_MSG(csr_equal(&a, &b, 0), "after mutations (und %d, w %d, page %u)", und, wtd, (unsigned)pages[pi]);
                    CHECK_MSG(dg_validate(h[0]) == DG_OK, "after mutations: %s", dg_error_message(h[0]));
                    CHECK(dg_bfs(h[0], 3, d1, NULL) == DG_OK && dg_bfs(g, 3, d0, NULL) == DG_OK);
                    CHECK(memcmp(d0, d1, dg_vertex_id_bound(g) * sizeof(int32_t)) == 0);
                    csr_free(&b);
                    free(d0); free(d1);
                }
                for (k = 0; k < 3; k++) if (h[k]) dg_destroy(h[k]);
                csr_free(&a);
                if (und && wtd && pi == 0) {   /* a graph that an edge list failed to load into
                                                  (vertices made, then undone: pages stay) */
                    char bad[512];
                    FILE *f = fopen(tmp_file(bad, sizeof bad, "bad.txt"), "w");
                    dg_graph *x = make(und, wtd, pages[pi]);
                    if (f) { fputs("0 1 2.5\n5 x\n", f); fclose(f); }
                    CHECK(dg_save(g, tmp_file(path, sizeof path, "img.dgs"), DG_FORMAT_SNAPSHOT) == DG_OK);
                    if (x) {
                        CHECK(dg_load(x, bad, DG_FORMAT_EDGE_LIST) == DG_ERR_PARSE && dg_vertex_id_bound(x) == 0);
                        CHECK_MSG(dg_load(x, tmp_file(path, sizeof path, "img.dgs"), DG_FORMAT_AUTO) == DG_OK, "%s",
                                  dg_error_message(x));
                        csr_take(g, &a); csr_take(x, &b);
                        CHECK_MSG(csr_equal(&a, &b, 0), "an image into a graph that had vertices");
                        CHECK(dg_validate(x) == DG_OK);
                        csr_free(&a); csr_free(&b);
                        dg_destroy(x);
                    }
                    remove(bad);
                }
                dg_destroy(g);
            }
    remove(tmp_file(path, sizeof path, "img.dgs"));
    {   /* a snapshot of the earlier form (a CSR, "DGSNAP1") still loads, to the same graph as
           its image */
        dg_graph *a1 = make(0, 1, 64), *a2 = make(0, 1, 1024);
        csr c1, c2;
        if (a1 && a2) {
            CHECK(dg_load(a1, "test/fuzz/corpus/load_snapshot/directed_weighted_hub.dgs", DG_FORMAT_AUTO) == DG_OK);
            CHECK(dg_load(a2, "test/fuzz/corpus/load_snapshot/image_directed_weighted_hub.dgs", DG_FORMAT_AUTO) == DG_OK);
            csr_take(a1, &c1); csr_take(a2, &c2);
            CHECK_MSG(c1.bound > 0 && csr_equal(&c1, &c2, 0), "a CSR snapshot and its image");
            csr_free(&c1); csr_free(&c2);
        }
        if (a1) dg_destroy(a1);
        if (a2) dg_destroy(a2);
    }
    {   /* images whose hash is right but whose store is not (written from a graph damaged on
           purpose): each refused with DG_ERR_PARSE, the graph left empty */
        int kind;
        for (kind = 0; kind < 10; kind++) {
            dg_graph *g = random_graph(0, 1, 64, 500, 1500), *x = make(0, 1, 64);
            dg__store *st0;
            int32_t p0, off;
            dg_status r;
            if (!g || !x) { if (g) dg_destroy(g); if (x) dg_destroy(x); continue; }
            st0 = &g->st[0];
            p0 = st0->dir[st0->ds * 3]; off = st0->dir[st0->ds * 3 + 1];   /* vertex 3: a hub (large list) */
            if (kind == 0) st0->pool[(size_t)st0->dir[st0->ds * 4] * g->P + (size_t)st0->dir[st0->ds * 4 + 1] + 1] = 100000;
            if (kind == 1) st0->dir[st0->ds * 5] = (int32_t)st0->page_hw + 7;          /* a page past the pool */
            if (kind == 2) st0->pool[(size_t)p0 * g->P + 1] = (int32_t)g->P + 5;       /* a page header */
            if (kind == 3) st0->latab[st0->idx[p0].la_tab + 2] = -4;                  /* a page table */
            if (kind == 4) st0->pool[(size_t)p0 * g->P + (size_t)off] = 1000000;      /* a degree */
            if (kind == 5) st0->nfree++;                                              /* a count */
            if (kind == 6) g->narcs += 2;
            if (kind == 7 || kind == 8) {   /* an arc without its reverse; an entry twice */
                size_t at = (size_t)st0->dir[st0->ds * 4] * g->P + (size_t)st0->dir[st0->ds * 4 + 1] + 1;
                st0->pool[at] = kind == 7 ? (st0->pool[at] == 5 ? 6 : 5) : st0->pool[at + 1];
            }
            if (kind == 9) st0->ph[st0->tail].next = st0->head;                       /* a cycle */
            CHECK(dg_save(g, tmp_file(path, sizeof path, "bad.dgs"), DG_FORMAT_SNAPSHOT) == DG_OK);
            r = dg_load(x, path, DG_FORMAT_SNAPSHOT);
            CHECK_MSG(r == DG_ERR_PARSE && dg_vertex_id_bound(x) == 0 && dg_edge_count(x) == 0,
                      "a damaged store (%d): %s: %s", kind, dg_status_string(r), dg_error_message(x));
            CHECK(dg_validate(x) == DG_OK);
            dg_destroy(x);
            dg_destroy(g);   /* (its store is damaged: destroying reads no list) */
        }
        remove(tmp_file(path, sizeof path, "bad.dgs"));
    }
}

static const tt_case cases[] = {
    { "roundtrip", test_roundtrip }, { "export", test_export }, { "refusals", test_refusals },
    { "compact", test_compact }, { "image", test_image },
};

int main(int argc, char **argv)
{
    char tmpl[] = "/tmp/dg_test_save_XXXXXX";
    uint64_t seed = trand_seed(argc, argv, (uint64_t)time(NULL), "test_save");
    (void)seed;
    if (!mkdtemp(tmpl)) { CHECK_MSG(0, "mkdtemp failed"); return TT_SUMMARY("test_save"); }
    snprintf(tmpdir, sizeof tmpdir, "%s", tmpl);
    TT_RUN("test_save", cases);
    rmdir(tmpdir);
    return TT_SUMMARY("test_save");
}
