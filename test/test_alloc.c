/* test_alloc.c - allocation-failure injection: every mutation is all-or-nothing.

   A counting allocator (dg_desc.allocator) fails exactly the k-th allocation and keeps count of
   the live blocks. For k = 1, 2, 3, ... a fixed, deterministic scenario of calls is run: the
   graph is created (dg_create may fail: then *out must be NULL and nothing may leak), then
   mutations of every kind at page size 64 (bulk vertices, batches into an empty and a non-empty
   graph, single edges that split pages and grow large lists, edits, weights, removals, vertex
   removal, dg_load of small files). Before the call that the reference run says will meet the
   k-th allocation, the whole graph is snapshotted (id bound, alive flags, counts, every vertex's
   sorted out-list with weights and sorted in-list). A call that returns DG_ERR_OUT_OF_MEMORY
   must leave the graph exactly equal to the snapshot and dg_validate happy; the allocator is
   then disarmed, the call is repeated, and every result from there on must equal the reference
   run's, down to the end state. Any other result must equal the reference run's result. After
   dg_destroy no block may be left.

   k runs over every value up to EVERY_K_UP_TO, then every K_STRIDE-th value (plus the last few
   allocations of the scenario), so that the whole program stays well under a minute under
   ASan+UBSan; `test_alloc all` tries every k. (Today the scenarios make only ~75-155
   allocations each, pools grow by doubling, so every k is tried anyway.) The loop ends at the
   first k the scenario completes without meeting.

   Snapshots are taken only before the call that the reference run's allocation counts say will
   meet the k-th allocation (the allocation sequence is deterministic; if a run's count ever
   departs from the reference, every later call is snapshotted instead). Allocations made while
   the test itself inspects the graph (snapshots, dg_validate) are not counted and never fail.
   DG_VERBOSE=1 lists the reference run's calls and results on stderr.
   Cases (DG_TESTS=test_alloc:NAME, see tt.h): scenario1, scenario2 (each directed, then
   undirected). */
#define DYNGRAPH_IMPLEMENTATION
#include "dyngraph.h"
#include "tt.h"
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>

#ifndef EVERY_K_UP_TO
#define EVERY_K_UP_TO 400
#endif
#ifndef K_STRIDE
#define K_STRIDE 7
#endif

/* ================================ the counting allocator ================================ */
typedef struct {
    long count;                 /* allocations counted so far */
    long fail_at;               /* fail the allocation with this count; 0: never */
    int paused;                 /* while set, allocations are neither counted nor failed */
    int fired;                  /* the failure happened */
    long live;                  /* blocks allocated and not yet freed */
} counting_alloc;

static void *ca_alloc(size_t size, void *user_data)
{
    counting_alloc *a = (counting_alloc *)user_data;
    void *p;
    if (!a->paused) {
        a->count++;
        if (a->fail_at && a->count == a->fail_at) { a->fired = 1; return NULL; }
    }
    p = malloc(size ? size : 1);
    if (p) a->live++;
    return p;
}
static void ca_free(void *ptr, void *user_data)
{
    counting_alloc *a = (counting_alloc *)user_data;
    if (!ptr) return;
    a->live--;
    free(ptr);
}

/* ================================ snapshots ================================ */
typedef struct { int32_t v; float w; } sarc;
typedef struct {
    size_t bound, vcount, ecount;
    unsigned char *alive;
    size_t *out_off, *in_off;   /* bound + 1 offsets each */
    sarc *out;
    int32_t *in;
} snapshot;

static int cmp_sarc(const void *a, const void *b)
{
    const sarc *x = (const sarc *)a, *y = (const sarc *)b;
    return x->v < y->v ? -1 : x->v > y->v;
}

static void snap_free(snapshot *s)
{
    free(s->alive); free(s->out_off); free(s->in_off); free(s->out); free(s->in);
    memset(s, 0, sizeof *s);
}

static void snap_take(dg_graph *g, snapshot *s)
{
    size_t v, nout = 0, nin = 0, cap_out = 1024, cap_in = 1024, d, k;
    dg_vertex *vb;
    float *wb;
    size_t vbcap = 1024;
    memset(s, 0, sizeof *s);
    s->bound = dg_vertex_id_bound(g);
    s->vcount = dg_vertex_count(g);
    s->ecount = dg_edge_count(g);
    s->alive = (unsigned char *)xmalloc(s->bound);
    s->out_off = (size_t *)xmalloc((s->bound + 1) * sizeof(size_t));
    s->in_off = (size_t *)xmalloc((s->bound + 1) * sizeof(size_t));
    s->out = (sarc *)xmalloc(cap_out * sizeof *s->out);
    s->in = (int32_t *)xmalloc(cap_in * sizeof *s->in);
    vb = (dg_vertex *)xmalloc(vbcap * sizeof *vb);
    wb = (float *)xmalloc(vbcap * sizeof *wb);
    for (v = 0; v < s->bound; v++) {
        s->out_off[v] = nout;
        s->in_off[v] = nin;
        s->alive[v] = (unsigned char)dg_has_vertex(g, (dg_vertex)v);
        if (!s->alive[v]) continue;
        for (;;) {
            d = 0;
            if (dg_neighbors(g, (dg_vertex)v, vb, wb, vbcap, &d) != DG_OK) { CHECK_MSG(0, "snapshot: neighbors(%zu)", v); d = 0; }
            if (d <= vbcap) break;
            vbcap = d * 2;
            vb = (dg_vertex *)realloc(vb, vbcap * sizeof *vb);
            wb = (float *)realloc(wb, vbcap * sizeof *wb);
            if (!vb || !wb) exit(2);
        }
        while (nout + d > cap_out) { cap_out *= 2; s->out = (sarc *)realloc(s->out, cap_out * sizeof *s->out); if (!s->out) exit(2); }
        for (k = 0; k < d; k++) { s->out[nout + k].v = vb[k]; s->out[nout + k].w = wb[k]; }
        qsort(s->out + nout, d, sizeof *s->out, cmp_sarc);
        nout += d;
        for (;;) {
            d = 0;
            if (dg_in_neighbors(g, (dg_vertex)v, vb, vbcap, &d) != DG_OK) { CHECK_MSG(0, "snapshot: in_neighbors(%zu)", v); d = 0; }
            if (d <= vbcap) break;
            vbcap = d * 2;
            vb = (dg_vertex *)realloc(vb, vbcap * sizeof *vb);
            wb = (float *)realloc(wb, vbcap * sizeof *wb);
            if (!vb || !wb) exit(2);
        }
        while (nin + d > cap_in) { cap_in *= 2; s->in = (int32_t *)realloc(s->in, cap_in * sizeof *s->in); if (!s->in) exit(2); }
        memcpy(s->in + nin, vb, d * sizeof *vb);
        qsort(s->in + nin, d, sizeof *s->in, cmp_i32);
        nin += d;
    }
    s->out_off[s->bound] = nout;
    s->in_off[s->bound] = nin;
    free(vb); free(wb);
}

/* 1 if equal; else prints the first difference (what, with context) and returns 0 */
static int snap_equal(const snapshot *a, const snapshot *b, const char *what)
{
    size_t v, k;
    if (a->bound != b->bound || a->vcount != b->vcount || a->ecount != b->ecount) {
        fprintf(stderr, "  %s: bound/vertices/edges %zu/%zu/%zu vs %zu/%zu/%zu\n", what, a->bound, a->vcount,
                a->ecount, b->bound, b->vcount, b->ecount);
        return 0;
    }
    for (v = 0; v < a->bound; v++) {
        size_t na = a->out_off[v + 1] - a->out_off[v], nb = b->out_off[v + 1] - b->out_off[v];
        if (a->alive[v] != b->alive[v]) { fprintf(stderr, "  %s: vertex %zu alive %d vs %d\n", what, v, a->alive[v], b->alive[v]); return 0; }
        if (na != nb) { fprintf(stderr, "  %s: vertex %zu out-degree %zu vs %zu\n", what, v, na, nb); return 0; }
        for (k = 0; k < na; k++) {
            const sarc *x = &a->out[a->out_off[v] + k], *y = &b->out[b->out_off[v] + k];
            if (x->v != y->v || !(x->w == y->w || (isnan(x->w) && isnan(y->w)))) {
                fprintf(stderr, "  %s: vertex %zu out entry %zu (%d, %g) vs (%d, %g)\n", what, v, k, x->v, x->w, y->v, y->w);
                return 0;
            }
        }
        na = a->in_off[v + 1] - a->in_off[v]; nb = b->in_off[v + 1] - b->in_off[v];
        if (na != nb) { fprintf(stderr, "  %s: vertex %zu in-degree %zu vs %zu\n", what, v, na, nb); return 0; }
        for (k = 0; k < na; k++)
            if (a->in[a->in_off[v] + k] != b->in[b->in_off[v] + k]) {
                fprintf(stderr, "  %s: vertex %zu in entry %zu %d vs %d\n", what, v, k, a->in[a->in_off[v] + k],
                        b->in[b->in_off[v] + k]);
                return 0;
            }
    }
    return 1;
}

/* ================================ the scenario ================================ */
enum { S_ADD_VERTEX, S_ADD_VERTICES, S_REMOVE_VERTEX, S_ADD_EDGE, S_REMOVE_EDGE, S_EDIT_EDGE, S_SET_WEIGHT,
       S_ADD_EDGES, S_REMOVE_EDGES, S_LOAD };
static const char *s_names[] = { "add_vertex", "add_vertices", "remove_vertex", "add_edge", "remove_edge",
    "edit_edge", "set_weight", "add_edges", "remove_edges", "load" };

typedef struct {
    int type;
    int32_t a, b, c;            /* vertex arguments, or the count for S_ADD_VERTICES */
    float w;
    const dg_edge *batch;       /* S_ADD_EDGES / S_REMOVE_EDGES */
    size_t n;
    const char *path;           /* S_LOAD */
} sop;

typedef struct {
    sop *ops; size_t n, cap;
    dg_edge **batches; size_t nbatches;
} scenario;

static uint64_t lcg = 12345;
static uint32_t lrand(uint32_t n)
{
    lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)((lcg >> 33) % n);
}
static float lweight(void) { return (float)lrand(1000) / 4.0f + 0.25f; }

/* vertices removed so far while the scenario is being built: later batches avoid them */
#define MAX_SCENARIO_IDS 8192
static unsigned char removed_now[MAX_SCENARIO_IDS];
static int32_t pick_in(int32_t lo, int32_t hi)
{
    int32_t v;
    do v = lo + (int32_t)lrand((uint32_t)(hi - lo)); while (removed_now[v]);
    return v;
}

static sop *push(scenario *sc, int type)
{
    sop *o;
    if (sc->n == sc->cap) {
        sc->cap = sc->cap ? sc->cap * 2 : 256;
        sc->ops = (sop *)realloc(sc->ops, sc->cap * sizeof *sc->ops);
        if (!sc->ops) exit(2);
    }
    o = &sc->ops[sc->n++];
    memset(o, 0, sizeof *o);
    o->type = type;
    return o;
}
static void push_v(scenario *sc, int type, int32_t a, int32_t b, int32_t c, float w)
{
    sop *o = push(sc, type);
    o->a = a; o->b = b; o->c = c; o->w = w;
    if (type == S_REMOVE_VERTEX && a >= 0 && a < MAX_SCENARIO_IDS) removed_now[a] = 1;
}
static dg_edge *new_batch(scenario *sc, size_t n)
{
    dg_edge *e = (dg_edge *)xmalloc(n * sizeof *e);
    sc->batches = (dg_edge **)realloc(sc->batches, (sc->nbatches + 1) * sizeof *sc->batches);
    if (!sc->batches) exit(2);
    sc->batches[sc->nbatches++] = e;
    return e;
}
/* a batch of n edges among vertices [lo, hi): random, with repeats and some self-loops */
static void push_batch(scenario *sc, int type, size_t n, int32_t lo, int32_t hi, int32_t hub, int32_t bad)
{
    dg_edge *e = new_batch(sc, n);
    size_t i;
    sop *o;
    for (i = 0; i < n; i++) {
        uint32_t r = lrand(100);
        e[i].weight = lweight();
        if (r < 10 && i) { e[i] = e[lrand((uint32_t)i)]; e[i].weight = lweight(); }
        else if (r < 13) { e[i].src = e[i].dst = pick_in(lo, hi); }
        else if (r < 40 && hub >= 0) { e[i].src = hub; e[i].dst = pick_in(lo, hi); }
        else if (r < 55 && hub >= 0) { e[i].src = pick_in(lo, hi); e[i].dst = hub; }
        else { e[i].src = pick_in(lo, hi); e[i].dst = pick_in(lo, hi); }
    }
    if (bad >= 0 && n) e[n / 2].dst = bad;
    o = push(sc, type);
    o->batch = e; o->n = n;
}

static char path_a[256], path_b[256], path_c[256], path_mtx[256], path_gr[256], path_metis[256], path_gra[256];

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f) { fprintf(stderr, "test_alloc: cannot write %s\n", path); exit(2); }
    fputs(text, f);
    fclose(f);
}
/* the vertices build_scenario removes before the loads */
static int removed_by_scenario(int v) { return v == 5 || v == 7 || (v >= 20 && v <= 101 && (v - 20) % 9 == 0); }

static void write_files(void)
{
    FILE *f;
    int i;
    unsigned long tag = (unsigned long)time(NULL) ^ ((unsigned long)clock() << 16);
    sprintf(path_a, "/tmp/dg_test_alloc_%lx_a.txt", tag);
    sprintf(path_b, "/tmp/dg_test_alloc_%lx_b.txt", tag);
    sprintf(path_c, "/tmp/dg_test_alloc_%lx_c.txt", tag);
    /* a: an edge list naming vertices up to 199 (creating new ones), with repeats and comments */
    f = fopen(path_a, "w");
    if (!f) { fprintf(stderr, "test_alloc: cannot write %s\n", path_a); exit(2); }
    fprintf(f, "# an edge list for test_alloc\n%% another comment\n");
    for (i = 0; i < 400; i++) {
        int u = (i * 37) % 200, v = (i * 91 + 7) % 200;
        if (removed_by_scenario(u) || removed_by_scenario(v)) continue;
        if (i % 3) fprintf(f, "%d %d %d.5\n", u, v, i % 17);
        else fprintf(f, "%d\t%d\n", u, v);
        if (i % 50 == 0) fprintf(f, "%d %d 0.25\n", u, v);       /* a repeat */
    }
    fprintf(f, "150 150 3\n199 0 1\n");
    fclose(f);
    /* Matrix Market, symmetric, 1-based: vertices up to 3299 (new ones in scenario 1) */
    sprintf(path_mtx, "/tmp/dg_test_alloc_%lx.mtx", tag);
    f = fopen(path_mtx, "w");
    if (!f) exit(2);
    fprintf(f, "%%%%MatrixMarket matrix coordinate real symmetric\n%% a comment\n3300 3300 300\n");
    for (i = 0; i < 300; i++) fprintf(f, "%d %d %d.25\n", 3201 + (i * 7) % 100, 3201 + (i * 13 + 5) % 100, i % 9);
    fclose(f);
    /* DIMACS .gr, 1-based: vertices up to 3399 */
    sprintf(path_gr, "/tmp/dg_test_alloc_%lx.gr", tag);
    f = fopen(path_gr, "w");
    if (!f) exit(2);
    fprintf(f, "c a DIMACS shortest-path file\np sp 3400 250\n");
    for (i = 0; i < 250; i++) fprintf(f, "a %d %d %d\n", 3301 + (i * 11) % 100, 3301 + (i * 17 + 3) % 100, 1 + i % 40);
    fclose(f);
    /* METIS with edge weights (fmt 1): 60 vertices, a ring plus chords i - i+7 */
    sprintf(path_metis, "/tmp/dg_test_alloc_%lx.graph", tag);
    f = fopen(path_metis, "w");
    if (!f) exit(2);
    fprintf(f, "%% METIS\n60 120 1\n");
    for (i = 0; i < 60; i++)       /* neighbours of vertex i (0-based), written 1-based with weights */
        fprintf(f, "%d %d %d %d %d %d %d %d\n", (i + 1) % 60 + 1, 1 + i % 5, (i + 59) % 60 + 1, 1 + (i + 59) % 60 % 5,
                (i + 7) % 60 + 1, 2 + i % 3, (i + 53) % 60 + 1, 2 + (i + 53) % 60 % 3);
    fclose(f);
    /* GRAIL .gra: 50 vertices, a DAG */
    sprintf(path_gra, "/tmp/dg_test_alloc_%lx.gra", tag);
    f = fopen(path_gra, "w");
    if (!f) exit(2);
    fprintf(f, "graph_for_greach\n50\n");
    for (i = 0; i < 50; i++) {
        fprintf(f, "%d:", i);
        if (i + 1 < 50) fprintf(f, " %d", i + 1);
        if (i + 5 < 50) fprintf(f, " %d", i + 5);
        if (i % 4 == 0 && i + 13 < 50) fprintf(f, " %d", i + 13);
        fprintf(f, " #\n");
    }
    fclose(f);
    /* b: names vertex 5, removed by then: DG_ERR_NOT_FOUND in both runs */
    write_file(path_b, "1 2 1\n3 5 2\n");
    /* c: malformed */
    write_file(path_c, "1 2 1\n3 x 2\n");
}

static void build_scenario(scenario *sc)
{
    int32_t i;
    memset(sc, 0, sizeof *sc);
    memset(removed_now, 0, sizeof removed_now);
    lcg = 12345;
    push_v(sc, S_ADD_VERTICES, 120, 0, 0, 0);
    push_batch(sc, S_ADD_EDGES, 600, 0, 120, 9, -1);         /* into a graph without edges */
    push_v(sc, S_ADD_VERTEX, 0, 0, 0, 0);
    push_v(sc, S_ADD_VERTEX, 0, 0, 0, 0);
    push_v(sc, S_ADD_VERTEX, 0, 0, 0, 0);
    for (i = 0; i < 122; i++) push_v(sc, S_ADD_EDGE, 5, i, 0, lweight());      /* a large out-list */
    for (i = 0; i < 122; i += 2) push_v(sc, S_ADD_EDGE, i, 7, 0, lweight());  /* a large in-list */
    for (i = 0; i < 200; i++)                                                  /* page splits everywhere */
        push_v(sc, S_ADD_EDGE, (int32_t)lrand(123), (int32_t)lrand(123), 0, lweight());
    push_v(sc, S_ADD_EDGE, 3, 3, 0, 1.5f);
    push_v(sc, S_ADD_EDGE, 3, 500, 0, 1.5f);                  /* NOT_FOUND */
    push_v(sc, S_ADD_EDGE, -1, 3, 0, 1.5f);                   /* INVALID_ARGUMENT */
    push_batch(sc, S_ADD_EDGES, 400, 0, 123, 11, -1);         /* into a non-empty graph */
    push_batch(sc, S_ADD_EDGES, 50, 0, 123, 11, 400);         /* names a missing vertex */
    push_batch(sc, S_ADD_EDGES, 1500, 0, 123, 12, -1);        /* big: repacking */
    for (i = 0; i < 30; i++) push_v(sc, S_EDIT_EDGE, 5, i, 122 - i, 0);
    for (i = 0; i < 30; i++) push_v(sc, S_EDIT_EDGE, (int32_t)lrand(123), (int32_t)lrand(123), (int32_t)lrand(123), 0);
    for (i = 0; i < 30; i++) push_v(sc, S_SET_WEIGHT, 5, (int32_t)lrand(123), 0, lweight());
    for (i = 0; i < 30; i++) push_v(sc, S_SET_WEIGHT, (int32_t)lrand(123), (int32_t)lrand(123), 0, lweight());
    push_batch(sc, S_REMOVE_EDGES, 300, 0, 123, 5, -1);
    push_batch(sc, S_REMOVE_EDGES, 20, 0, 123, 5, 1000);     /* names a missing vertex */
    for (i = 0; i < 60; i++) push_v(sc, S_REMOVE_EDGE, (int32_t)lrand(123), (int32_t)lrand(123), 0, 0);
    for (i = 0; i < 40; i++) push_v(sc, S_REMOVE_EDGE, 5, (int32_t)lrand(123), 0, 0);
    push_v(sc, S_REMOVE_VERTEX, 5, 0, 0, 0);
    push_v(sc, S_REMOVE_VERTEX, 7, 0, 0, 0);
    push_v(sc, S_REMOVE_VERTEX, 7, 0, 0, 0);                  /* NOT_FOUND */
    for (i = 0; i < 10; i++) push_v(sc, S_REMOVE_VERTEX, 20 + 9 * i, 0, 0, 0);
    push_v(sc, S_ADD_VERTICES, 40, 0, 0, 0);
    push_batch(sc, S_ADD_EDGES, 800, 123, 163, 150, -1);      /* into the new vertices */
    push_v(sc, S_ADD_VERTICES, 0, 0, 0, 0);
    { sop *o = push(sc, S_LOAD); o->path = path_a; }
    { sop *o = push(sc, S_LOAD); o->path = path_b; }
    { sop *o = push(sc, S_LOAD); o->path = path_c; }
    { sop *o = push(sc, S_LOAD); o->path = path_a; }          /* everything already there */
    push_batch(sc, S_REMOVE_EDGES, 1200, 0, 200, 150, -1);
    for (i = 0; i < 50; i++) push_v(sc, S_ADD_EDGE, 150, 120 + i, 0, lweight());
    for (i = 0; i < 60; i++) push_v(sc, S_REMOVE_EDGE, 150, 120 + i, 0, 0);
    push_v(sc, S_REMOVE_VERTEX, 150, 0, 0, 0);
    /* many vertices at once, a batch with a hub of degree ~1500 (large lists of ~25 pages) */
    push_v(sc, S_ADD_VERTICES, 3000, 0, 0, 0);
    push_batch(sc, S_ADD_EDGES, 5000, 200, 3200, 250, -1);
    for (i = 0; i < 40; i++) push_v(sc, S_ADD_EDGE, 250, 2000 + i, 0, lweight());
    { sop *o = push(sc, S_LOAD); o->path = path_mtx; }
    { sop *o = push(sc, S_LOAD); o->path = path_gr; }
    push_batch(sc, S_REMOVE_EDGES, 2500, 200, 3200, 250, -1);
    push_v(sc, S_REMOVE_VERTEX, 250, 0, 0, 0);
    push_v(sc, S_REMOVE_VERTEX, 3250, 0, 0, 0);
    /* a large list grown one edge at a time past 4, 8 and 16 pages (its page table is copied each
       time), cut down by a batch, grown again (released table segments get compacted), then a
       second one beside it */
    for (i = 0; i < 1100; i++) push_v(sc, S_ADD_EDGE, 260, 300 + i, 0, lweight());
    {
        dg_edge *e = new_batch(sc, 1000);
        sop *o;
        for (i = 0; i < 1000; i++) { e[i].src = 260; e[i].dst = 300 + i; e[i].weight = 0.0f; }
        o = push(sc, S_REMOVE_EDGES); o->batch = e; o->n = 1000;
    }
    for (i = 0; i < 700; i++) push_v(sc, S_ADD_EDGE, 260, 1500 + i, 0, lweight());
    for (i = 0; i < 400; i++) push_v(sc, S_ADD_EDGE, 261, 1500 + i, 0, lweight());
    for (i = 0; i < 300; i++) push_v(sc, S_REMOVE_EDGE, 260, 1500 + 2 * i, 0, 0);
    for (i = 0; i < 300; i++) push_v(sc, S_ADD_EDGE, 262, 300 + i, 0, lweight());
    push_v(sc, S_REMOVE_VERTEX, 261, 0, 0, 0);
}

/* scenario 2: loads of every format into a fresh graph, then mutations */
static void build_scenario2(scenario *sc)
{
    int32_t i;
    memset(sc, 0, sizeof *sc);
    memset(removed_now, 0, sizeof removed_now);
    lcg = 777;
    { sop *o = push(sc, S_LOAD); o->path = path_metis; }      /* into an empty graph */
    { sop *o = push(sc, S_LOAD); o->path = path_gra; }
    { sop *o = push(sc, S_LOAD); o->path = path_a; }
    { sop *o = push(sc, S_LOAD); o->path = path_mtx; }
    { sop *o = push(sc, S_LOAD); o->path = path_gr; }
    push_batch(sc, S_ADD_EDGES, 700, 0, 200, 33, -1);
    for (i = 0; i < 60; i++) push_v(sc, S_ADD_EDGE, 33, 3200 + i, 0, lweight());
    for (i = 0; i < 20; i++) push_v(sc, S_EDIT_EDGE, 33, 3200 + i, 3300 + i, 0);
    push_v(sc, S_REMOVE_VERTEX, 3, 0, 0, 0);
    push_v(sc, S_REMOVE_VERTEX, 33, 0, 0, 0);
    push_batch(sc, S_REMOVE_EDGES, 600, 0, 200, 10, -1);
    push_batch(sc, S_ADD_EDGES, 300, 0, 3400, 11, -1);
    { sop *o = push(sc, S_LOAD); o->path = path_gra; }       /* names removed vertex 3: NOT_FOUND */
}

static void free_scenario(scenario *sc)
{
    size_t i;
    for (i = 0; i < sc->nbatches; i++) free(sc->batches[i]);
    free(sc->batches); free(sc->ops);
    memset(sc, 0, sizeof *sc);
}

/* the result of one call: its status and its output value (id, first id, added, removed) */
typedef struct { dg_status s; long out; } result;

static result run_op(dg_graph *g, const sop *o)
{
    result r;
    dg_vertex id = -77;
    size_t cnt = 77777;
    r.out = 0;
    switch (o->type) {
    case S_ADD_VERTEX: r.s = dg_add_vertex(g, &id); r.out = r.s == DG_OK ? id : 0; break;
    case S_ADD_VERTICES: r.s = dg_add_vertices(g, (size_t)o->a, &id); r.out = r.s == DG_OK && o->a ? id : 0; break;
    case S_REMOVE_VERTEX: r.s = dg_remove_vertex(g, o->a); break;
    case S_ADD_EDGE: r.s = dg_add_edge(g, o->a, o->b, o->w); break;
    case S_REMOVE_EDGE: r.s = dg_remove_edge(g, o->a, o->b); break;
    case S_EDIT_EDGE: r.s = dg_edit_edge(g, o->a, o->b, o->c); break;
    case S_SET_WEIGHT: r.s = dg_set_weight(g, o->a, o->b, o->w); break;
    case S_ADD_EDGES: r.s = dg_add_edges(g, o->batch, o->n, &cnt); r.out = r.s == DG_OK ? (long)cnt : 0; break;
    case S_REMOVE_EDGES: r.s = dg_remove_edges(g, o->batch, o->n, &cnt); r.out = r.s == DG_OK ? (long)cnt : 0; break;
    case S_LOAD: r.s = dg_load(g, o->path, DG_FORMAT_AUTO); break;      /* by extension */
    default: r.s = DG_ERR_INVALID_ARGUMENT; break;
    }
    return r;
}

/* ================================ the runs ================================ */
typedef struct {
    result *res;                /* per op */
    long *count_before;         /* allocation count before each op; [n] = at the end */
    long create_count;          /* allocations made by dg_create */
    snapshot final;
    size_t large_lists_seen;
} reference;

static dg_desc make_desc(int undirected, counting_alloc *ca)
{
    dg_desc d;
    memset(&d, 0, sizeof d);
    d.page_size = 64;
    d.undirected = undirected;
    d.weighted = 1;
    d.allocator.alloc_fn = ca_alloc;
    d.allocator.free_fn = ca_free;
    d.allocator.user_data = ca;
    return d;
}

static int reference_run(const scenario *sc, int undirected, reference *ref)
{
    counting_alloc ca;
    dg_desc d = make_desc(undirected, &ca);
    dg_graph *g = NULL;
    dg_status s;
    size_t i;
    dg_stats st;
    memset(&ca, 0, sizeof ca);
    memset(ref, 0, sizeof *ref);
    ref->res = (result *)xmalloc(sc->n * sizeof *ref->res);
    ref->count_before = (long *)xmalloc((sc->n + 1) * sizeof(long));
    s = dg_create(&d, &g);
    CHECK_MSG(s == DG_OK && g, "reference dg_create = %d", s);
    if (s != DG_OK || !g) return 0;
    ref->create_count = ca.count;
    for (i = 0; i < sc->n; i++) {
        ref->count_before[i] = ca.count;
        ref->res[i] = run_op(g, &sc->ops[i]);
        ca.paused = 1;
        if (ref->res[i].s != DG_OK && getenv("DG_VERBOSE"))
            fprintf(stderr, "reference op %zu (%s): %s: %s\n", i, s_names[sc->ops[i].type],
                    dg_status_string(ref->res[i].s), dg_error_message(g));
        if (dg_get_stats(g, &st) == DG_OK && st.large_lists > ref->large_lists_seen) ref->large_lists_seen = st.large_lists;
        if (i % 16 == 0 || i + 1 == sc->n) {
            s = dg_validate(g);
            CHECK_MSG(s == DG_OK, "reference run (%s): dg_validate after op %zu (%s) = %d: %s",
                      undirected ? "undirected" : "directed", i, s_names[sc->ops[i].type], s, dg_error_message(g));
        }
        ca.paused = 0;
    }
    ref->count_before[sc->n] = ca.count;
    ca.paused = 1;
    snap_take(g, &ref->final);
    dg_destroy(g);
    CHECK_MSG(ca.live == 0, "reference run leaked %ld blocks", ca.live);
    return 1;
}

static void reference_free(reference *ref)
{
    free(ref->res); free(ref->count_before); snap_free(&ref->final);
}

/* Returns 1 if the failure was met (so larger k must be tried), 0 if the run completed without. */
static int failing_run(const scenario *sc, int undirected, const reference *ref, long k, int *stop)
{
    counting_alloc ca;
    dg_desc d = make_desc(undirected, &ca);
    dg_graph *g;
    dg_status s;
    size_t i;
    long f0 = tt_failed;
    int sequence_ok = 1;        /* the allocation count so far agrees with the reference run */
    const char *dir = undirected ? "undirected" : "directed";
    memset(&ca, 0, sizeof ca);
    ca.fail_at = k;
    g = (dg_graph *)&ca;        /* must be overwritten */
    s = dg_create(&d, &g);
    if (s == DG_ERR_OUT_OF_MEMORY) {
        CHECK_MSG(ca.fired, "[%s k=%ld] dg_create returned OUT_OF_MEMORY without a failed allocation", dir, k);
        CHECK_MSG(g == NULL, "[%s k=%ld] dg_create failed but *out is not NULL", dir, k);
        CHECK_MSG(ca.live == 0, "[%s k=%ld] dg_create failed and leaked %ld blocks", dir, k, ca.live);
        return 1;
    }
    CHECK_MSG(s == DG_OK && g && g != (dg_graph *)&ca, "[%s k=%ld] dg_create = %d", dir, k, s);
    if (s != DG_OK || !g || g == (dg_graph *)&ca) { *stop = 1; return 0; }
    for (i = 0; i < sc->n; i++) {
        const sop *o = &sc->ops[i];
        snapshot before;
        int have_before = 0, fired_before = ca.fired;
        result r;
        memset(&before, 0, sizeof before);
        if (!ca.fired) {
            if (ca.count != ref->count_before[i]) {
                if (sequence_ok)
                    fprintf(stderr, "test_alloc: [%s k=%ld] allocation count %ld before op %zu, reference %ld: "
                            "not deterministic, snapshotting every call\n", dir, k, ca.count, i, ref->count_before[i]);
                sequence_ok = 0;
            }
            if (!sequence_ok || (k > ref->count_before[i] && k <= ref->count_before[i + 1])) {
                ca.paused = 1;
                snap_take(g, &before);
                ca.paused = 0;
                have_before = 1;
            }
        }
        r = run_op(g, o);
        if (r.s == DG_ERR_OUT_OF_MEMORY) {
            snapshot after;
            ca.paused = 1;
            CHECK_MSG(dg_error_message(g)[0] != '\0', "[%s k=%ld] op %zu (%s): OUT_OF_MEMORY with an empty dg_error_message",
                      dir, k, i, s_names[o->type]);
            CHECK_MSG(!fired_before && ca.fired, "[%s k=%ld] op %zu (%s) returned OUT_OF_MEMORY without a failed allocation",
                      dir, k, i, s_names[o->type]);
            s = dg_validate(g);
            CHECK_MSG(s == DG_OK, "[%s k=%ld] op %zu (%s) failed with OUT_OF_MEMORY, then dg_validate = %d: %s",
                      dir, k, i, s_names[o->type], s, dg_error_message(g));
            if (have_before) {
                snap_take(g, &after);
                CHECK_MSG(snap_equal(&before, &after, "after OUT_OF_MEMORY vs before"),
                          "[%s k=%ld] op %zu (%s a=%d b=%d c=%d n=%zu) failed with OUT_OF_MEMORY and changed the graph",
                          dir, k, i, s_names[o->type], o->a, o->b, o->c, o->n);
                snap_free(&after);
            } else {
                CHECK_MSG(0, "[%s k=%ld] op %zu (%s) failed with OUT_OF_MEMORY where no failure was due", dir, k, i,
                          s_names[o->type]);
            }
            ca.paused = 0;
            ca.fail_at = 0;                 /* disarm, and try the call again */
            r = run_op(g, o);
        } else if (!fired_before && ca.fired) {
            /* the failed allocation was absorbed (a fallback): the state must still be sound */
            ca.paused = 1;
            s = dg_validate(g);
            CHECK_MSG(s == DG_OK, "[%s k=%ld] op %zu (%s) absorbed a failed allocation, then dg_validate = %d: %s",
                      dir, k, i, s_names[o->type], s, dg_error_message(g));
            ca.paused = 0;
        }
        CHECK_MSG(r.s == ref->res[i].s && r.out == ref->res[i].out,
                  "[%s k=%ld] op %zu (%s a=%d b=%d c=%d n=%zu) = %d (%ld), reference %d (%ld)", dir, k, i,
                  s_names[o->type], o->a, o->b, o->c, o->n, r.s, r.out, ref->res[i].s, ref->res[i].out);
        if (have_before) snap_free(&before);
        if (tt_failed != f0) break;         /* one failure per k is enough */
    }
    if (tt_failed == f0) {
        snapshot end;
        ca.paused = 1;
        s = dg_validate(g);
        CHECK_MSG(s == DG_OK, "[%s k=%ld] dg_validate at the end = %d: %s", dir, k, s, dg_error_message(g));
        snap_take(g, &end);
        CHECK_MSG(snap_equal(&end, &ref->final, "end state vs reference"), "[%s k=%ld] end state differs from the reference run", dir, k);
        snap_free(&end);
    }
    dg_destroy(g);
    CHECK_MSG(ca.live == 0, "[%s k=%ld] %ld blocks leaked after dg_destroy", dir, k, ca.live);
    if (tt_failed - f0 > 0 && tt_failed > 40) *stop = 1;
    return ca.fired;
}

static void run_direction(const scenario *sc, const char *scname, int undirected, int every_k)
{
    reference ref;
    long k, total, tried = 0, met = 0;
    int stop = 0;
    clock_t t0 = clock();
    if (!reference_run(sc, undirected, &ref)) return;
    total = ref.count_before[sc->n];
    CHECK_MSG(ref.large_lists_seen > 0, "%s scenario never made a large list", undirected ? "undirected" : "directed");
    for (k = 1; !stop; ) {
        int fired = failing_run(sc, undirected, &ref, k, &stop);
        tried++;
        if (!fired) break;
        met++;
        if (every_k || k < EVERY_K_UP_TO || k >= total - 3) k++;
        else k = k + K_STRIDE < total - 3 ? k + K_STRIDE : total - 3;
    }
    CHECK_MSG(k > total, "%s: the loop stopped at k=%ld of %ld allocations", undirected ? "undirected" : "directed", k, total);
    {
        size_t i, by_status[16];
        memset(by_status, 0, sizeof by_status);
        for (i = 0; i < sc->n; i++) if (ref.res[i].s <= 0 && ref.res[i].s > -16) by_status[-ref.res[i].s]++;
        printf("  %s, %-10s %zu calls (%zu OK, %zu EXISTS, %zu NOT_FOUND, %zu INVALID_ARGUMENT, %zu PARSE), %ld allocations "
               "(%ld in dg_create), %ld failure points tried, %.1f s\n", scname, undirected ? "undirected" : "directed", sc->n,
               by_status[0], by_status[-DG_ERR_EXISTS], by_status[-DG_ERR_NOT_FOUND], by_status[-DG_ERR_INVALID_ARGUMENT],
               by_status[-DG_ERR_PARSE], total, ref.create_count, met, (double)(clock() - t0) / CLOCKS_PER_SEC);
        if (getenv("DG_VERBOSE"))
            for (i = 0; i < sc->n; i++)
                fprintf(stderr, "op %zu %s a=%d b=%d c=%d n=%zu -> %d (%ld), allocations before %ld\n", i,
                        s_names[sc->ops[i].type], sc->ops[i].a, sc->ops[i].b, sc->ops[i].c, sc->ops[i].n, ref.res[i].s,
                        ref.res[i].out, ref.count_before[i]);
    }
    (void)tried;
    reference_free(&ref);
}

static int every_k;               /* `test_alloc all`: every k */

static void case_scenario(void (*build)(scenario *), const char *name)
{
    scenario sc;
    build(&sc);
    run_direction(&sc, name, 0, every_k);
    run_direction(&sc, name, 1, every_k);
    free_scenario(&sc);
}
static void case_scenario1(void) { case_scenario(build_scenario, "scenario 1"); }
static void case_scenario2(void) { case_scenario(build_scenario2, "scenario 2"); }
static const tt_case cases[] = { { "scenario1", case_scenario1 }, { "scenario2", case_scenario2 } };

int main(int argc, char **argv)
{
    clock_t t0 = clock();
    every_k = argc > 1 && strcmp(argv[1], "all") == 0;
    write_files();
    setvbuf(stdout, NULL, _IOLBF, 0);
    TT_RUN("test_alloc", cases);
    remove(path_a); remove(path_b); remove(path_c);
    remove(path_mtx); remove(path_gr); remove(path_metis); remove(path_gra);
    printf("test_alloc: %.1f s\n", (double)(clock() - t0) / CLOCKS_PER_SEC);
    return TT_SUMMARY("test_alloc");
}
