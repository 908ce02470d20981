/* test_user.c - what user functions get: dg_args (several buffers, ints and floats), the
   graph in device code (degrees, neighbours, weights, liveness), float atomics, reductions
   (dg_reduce: sum, min, max, float and exact integer) and in == NULL (every live vertex).

   Each graph is random (directed or undirected, weighted or not, page 64 or 1024, hubs longer
   than a page, some vertices removed) and is mutated between rounds (edges added and removed,
   vertices removed and added), so the cached every-vertex frontier must follow it. Every
   device result is compared with the same quantity computed on the host from dg_neighbors /
   dg_in_neighbors (the reference), exactly where the arithmetic is exact (integers, min/max,
   sums of small integer weights) and within a relative 1e-5 where float sums depend on order.

   Usage: test_user [seed] */
#define DYNGRAPH_IMPLEMENTATION
#include "dyngraph.h"
#include "tt.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>
#include "trand.h"

static uint64_t seed;

/* The user functions. Buffers: 0 out-degree, 1 in-degree, 2 sum of out-weights (float),
   3 sum of out-neighbour ids (int, wrapping), 4 in-arrivals counted by the advance, 5 the
   in-weight sum by float atomics, 6 in-weight min, 7 in-weight max. Scalars: ints[0] the
   filter's degree threshold, ints[3] and floats[5] for the scalar check. */
static const char *src =
    "void facts(int v, const dg_args *a) {\n"
    "    int k, d = dg_out_degree(a, v), s = 0;\n"
    "    float w = 0.0f;\n"
    "    dg_ints(a, 0)[v] = d;\n"
    "    dg_ints(a, 1)[v] = dg_in_degree(a, v);\n"
    "    for (k = 0; k < d; k++) { s += dg_out_neighbor(a, v, k); w += dg_out_weight(a, v, k); }\n"
    "    dg_floats(a, 2)[v] = w;\n"
    "    dg_ints(a, 3)[v] = s;\n"
    "}\n"
    "void in_sum(int v, const dg_args *a) {  /* the in-neighbour ids, into buffer 3 */\n"
    "    int k, d = dg_in_degree(a, v), s = 0;\n"
    "    for (k = 0; k < d; k++) s += dg_in_neighbor(a, v, k);\n"
    "    dg_ints(a, 3)[v] = s;\n"
    "}\n"
    "void scalars(int v, const dg_args *a) {\n"
    "    dg_floats(a, 2)[v] = (float)(a->ints[3] * v) + a->floats[5];\n"
    "    dg_ints(a, 0)[v] = dg_is_vertex(a, v) + 2 * (dg_vertex_bound(a) > v);\n"
    "}\n"
    "int arrive(int src, int dst, float w, const dg_args *a) {\n"
    "    atomic_inc(dg_ints(a, 4) + dst);\n"
    "    dg_atomic_add_float(dg_floats(a, 5) + dst, w);\n"
    "    dg_atomic_min_float(dg_floats(a, 6) + dst, w);\n"
    "    dg_atomic_max_float(dg_floats(a, 7) + dst, w);\n"
    "    return src < dst;\n"
    "}\n"
    "int heavy(int v, const dg_args *a) { return dg_out_degree(a, v) > a->ints[0]; }\n"
    "float deg_f(int v, const dg_args *a) { return (float)dg_out_degree(a, v); }\n"
    "int deg_i(int v, const dg_args *a) { return dg_out_degree(a, v) - a->ints[1]; }\n"
    "float wsum(int v, const dg_args *a) { return dg_floats(a, 2)[v]; }\n"
    "int old_style(int v, __global int *data) { return data[v] > 2; }\n";
enum { OP_FACTS, OP_IN_SUM, OP_SCALARS, OP_ARRIVE, OP_HEAVY, OP_DEG_F, OP_DEG_I, OP_WSUM, OP_OLD, NOPS };
static const dg_op ops[NOPS] = {
    { DG_OP_COMPUTE_ARGS, "facts", 0 },  { DG_OP_COMPUTE_ARGS, "in_sum", 0 }, { DG_OP_COMPUTE_ARGS, "scalars", 0 },
    { DG_OP_ADVANCE_ARGS, "arrive", 0 }, { DG_OP_FILTER_ARGS, "heavy", 0 },   { DG_OP_REDUCE, "deg_f", 0 },
    { DG_OP_REDUCE_INT, "deg_i", 0 },    { DG_OP_REDUCE, "wsum", 0 },         { DG_OP_FILTER, "old_style", 0 },
};

typedef struct world {
    dg_graph *g;
    dg_program *p;
    cl_mem b[8];
    size_t cap;                   /* vertices the buffers hold */
    int weighted, undirected;
    const char *name;
} world;

static int ok(dg_graph *g, dg_status s, const char *what)
{
    CHECK_MSG(s == DG_OK, "%s: %s: %s", what, dg_status_string(s), dg_error_message(g));
    return s == DG_OK;
}

/* Buffers for cap vertices, each filled with the bytes of `fill` (ints: -7). */
static int make_buffers(world *w, size_t cap)
{
    cl_int e;
    size_t i;
    for (i = 0; i < 8; i++) {
        if (w->b[i]) clReleaseMemObject(w->b[i]);
        w->b[i] = clCreateBuffer(dg_cl_context(w->g), CL_MEM_READ_WRITE, cap * 4, NULL, &e);
        CHECK_MSG(e == CL_SUCCESS, "clCreateBuffer: %d", (int)e);
        if (e != CL_SUCCESS) return 0;
    }
    w->cap = cap;
    return 1;
}
static void fill(world *w, int i, const void *pattern, size_t n)
{
    cl_int e = clEnqueueFillBuffer(dg_cl_queue(w->g), w->b[i], pattern, 4, 0, n * 4, 0, NULL, NULL);
    CHECK_MSG(e == CL_SUCCESS, "clEnqueueFillBuffer: %d", (int)e);
}
static void *get(world *w, int i, size_t n)
{
    void *h = xmalloc(n * 4);
    cl_int e = clEnqueueReadBuffer(dg_cl_queue(w->g), w->b[i], CL_TRUE, 0, n * 4, h, 0, NULL, NULL);
    CHECK_MSG(e == CL_SUCCESS, "clEnqueueReadBuffer: %d", (int)e);
    return h;
}
static dg_args args_of(world *w)
{
    dg_args a;
    int i;
    memset(&a, 0, sizeof a);
    for (i = 0; i < 8; i++) a.buffers[i] = w->b[i];
    return a;
}

/* The host's view of vertex v: its out- or in-list. */
static size_t list(dg_graph *g, dg_vertex v, int in, dg_vertex *nb, float *wt, size_t cap)
{
    size_t d = 0;
    dg_status s = in ? dg_in_neighbors(g, v, nb, cap, &d) : dg_neighbors(g, v, nb, wt, cap, &d);
    CHECK_MSG(s == DG_OK, "neighbors of %d: %s", (int)v, dg_status_string(s));
    return d;
}

static int close_to(double a, double b) { return fabs(a - b) <= 1e-5 * (fabs(b) > 1 ? fabs(b) : 1); }

/* One round of every check on the graph as it is now. */
static void round_checks(world *w, int round)
{
    dg_graph *g = w->g;
    size_t bound = dg_vertex_id_bound(g), v, i, n, maxd = dg_edge_count(g) + 1;
    dg_vertex *nb = (dg_vertex *)xmalloc(maxd * sizeof *nb);
    float *wt = (float *)xmalloc(maxd * sizeof *wt);
    dg_args a;
    int32_t minus7 = -7, zero = 0;
    float inf = INFINITY, ninf = -INFINITY, fzero = 0.0f;
    char label[160];
    int *deg, *ideg, *nsum, *arr, *flag_ids, thr;
    float *wsum, *fin, *fmin, *fmax;
    double r;
    int64_t isum = 0, imin = INT64_MAX, imax = INT64_MIN;
    double fsum = 0, wtotal = 0;
    size_t live = 0;
    dg_frontier *f1 = NULL, *f2 = NULL;
    snprintf(label, sizeof label, "%s, round %d, seed %llu", w->name, round, (unsigned long long)seed);
    if (bound > w->cap && !make_buffers(w, bound + 64)) goto out;
    a = args_of(w);

    /* facts over every vertex (in NULL): removed ids keep -7 */
    for (i = 0; i < 4; i++) fill(w, (int)i, &minus7, bound);
    if (!ok(g, dg_compute_ex(w->p, OP_FACTS, NULL, &a), "dg_compute_ex facts")) goto out;
    deg = (int *)get(w, 0, bound); ideg = (int *)get(w, 1, bound);
    wsum = (float *)get(w, 2, bound); nsum = (int *)get(w, 3, bound);
    for (v = 0; v < bound; v++) {
        if (!dg_has_vertex(g, (dg_vertex)v)) {
            CHECK_MSG(deg[v] == -7 && ideg[v] == -7 && nsum[v] == -7, "[%s] removed %zu was touched", label, v);
            continue;
        }
        {
            size_t d = list(g, (dg_vertex)v, 0, nb, wt, maxd), di;
            uint32_t s = 0;
            double ws = 0;
            dg_in_degree(g, (dg_vertex)v, &di);
            for (i = 0; i < d; i++) { s += (uint32_t)nb[i]; ws += wt[i]; }
            CHECK_MSG(deg[v] == (int)d && ideg[v] == (int)di, "[%s] vertex %zu: degrees %d/%d, want %zu/%zu",
                      label, v, deg[v], ideg[v], d, di);
            CHECK_MSG((uint32_t)nsum[v] == s, "[%s] vertex %zu: neighbour sum %u, want %u", label, v,
                      (unsigned)nsum[v], (unsigned)s);
            CHECK_MSG(close_to(wsum[v], ws), "[%s] vertex %zu: weight sum %g, want %g", label, v, wsum[v], ws);
            live++;
            isum += (int64_t)d - 3;
            if ((int64_t)d - 3 < imin) imin = (int64_t)d - 3;
            if ((int64_t)d - 3 > imax) imax = (int64_t)d - 3;
            fsum += (double)d;
            wtotal += wsum[v];
        }
    }
    CHECK(live == dg_vertex_count(g));
    free(ideg); free(nsum);

    /* in-neighbours */
    fill(w, 3, &minus7, bound);
    if (ok(g, dg_compute_ex(w->p, OP_IN_SUM, NULL, &a), "dg_compute_ex in_sum")) {
        nsum = (int *)get(w, 3, bound);
        for (v = 0; v < bound; v++) {
            uint32_t s = 0;
            size_t d;
            if (!dg_has_vertex(g, (dg_vertex)v)) continue;
            d = list(g, (dg_vertex)v, 1, nb, NULL, maxd);
            for (i = 0; i < d; i++) s += (uint32_t)nb[i];
            CHECK_MSG((uint32_t)nsum[v] == s, "[%s] vertex %zu: in-neighbour sum %u, want %u", label, v,
                      (unsigned)nsum[v], (unsigned)s);
        }
        free(nsum);
    }

    /* reductions over every vertex, then over a frontier */
    a.ints[1] = 3;
    if (ok(g, dg_reduce(w->p, OP_DEG_F, NULL, &a, DG_REDUCE_SUM, &r), "dg_reduce sum")) CHECK_MSG(r == fsum, "[%s] sum %g, want %g", label, r, fsum);
    if (ok(g, dg_reduce(w->p, OP_DEG_I, NULL, &a, DG_REDUCE_SUM, &r), "dg_reduce int sum"))
        CHECK_MSG(r == (double)isum, "[%s] int sum %g, want %lld", label, r, (long long)isum);
    if (ok(g, dg_reduce(w->p, OP_DEG_I, NULL, &a, DG_REDUCE_MIN, &r), "dg_reduce int min"))
        CHECK_MSG(r == (live ? (double)imin : HUGE_VAL), "[%s] int min %g, want %lld", label, r, (long long)imin);
    if (ok(g, dg_reduce(w->p, OP_DEG_I, NULL, &a, DG_REDUCE_MAX, &r), "dg_reduce int max"))
        CHECK_MSG(r == (live ? (double)imax : -HUGE_VAL), "[%s] int max %g, want %lld", label, r, (long long)imax);
    if (ok(g, dg_reduce(w->p, OP_DEG_F, NULL, &a, DG_REDUCE_MIN, &r), "dg_reduce min"))
        CHECK_MSG(r == (live ? (double)imin + 3 : HUGE_VAL), "[%s] min %g", label, r);
    if (ok(g, dg_reduce(w->p, OP_DEG_F, NULL, &a, DG_REDUCE_MAX, &r), "dg_reduce max"))
        CHECK_MSG(r == (live ? (double)imax + 3 : -HUGE_VAL), "[%s] max %g", label, r);
    if (ok(g, dg_reduce(w->p, OP_WSUM, NULL, &a, DG_REDUCE_SUM, &r), "dg_reduce weights"))
        CHECK_MSG(close_to(r, wtotal), "[%s] weight total %.9g, want %.9g", label, r, wtotal);
    if (ok(g, dg_frontier_create(g, 16, &f1), "dg_frontier_create") &&
        ok(g, dg_frontier_create(g, 16, &f2), "dg_frontier_create")) {
        /* a frontier of some live vertices, with repeats */
        dg_vertex *ids = (dg_vertex *)xmalloc((bound + 1) * 2 * sizeof *ids);
        size_t k = 0;
        int64_t s = 0, mn = INT64_MAX;
        for (v = 0; v < bound; v++)
            if (dg_has_vertex(g, (dg_vertex)v) && chance(30)) {
                int rep = chance(20) ? 2 : 1;
                while (rep--) { ids[k++] = (dg_vertex)v; s += deg[v] - 3; if (deg[v] - 3 < mn) mn = deg[v] - 3; }
            }
        if (ok(g, dg_frontier_set(f1, ids, k), "dg_frontier_set")) {
            if (ok(g, dg_reduce(w->p, OP_DEG_I, f1, &a, DG_REDUCE_SUM, &r), "dg_reduce frontier"))
                CHECK_MSG(r == (double)s, "[%s] frontier int sum %g, want %lld", label, r, (long long)s);
            if (ok(g, dg_reduce(w->p, OP_DEG_I, f1, &a, DG_REDUCE_MIN, &r), "dg_reduce frontier min"))
                CHECK_MSG(r == (k ? (double)mn : HUGE_VAL), "[%s] frontier min %g", label, r);
        }
        if (ok(g, dg_frontier_set(f1, ids, 0), "dg_frontier_set empty")) {
            if (ok(g, dg_reduce(w->p, OP_DEG_F, f1, &a, DG_REDUCE_SUM, &r), "dg_reduce empty")) CHECK(r == 0.0);
            if (ok(g, dg_reduce(w->p, OP_DEG_F, f1, &a, DG_REDUCE_MAX, &r), "dg_reduce empty max")) CHECK(r == -HUGE_VAL);
            if (ok(g, dg_reduce(w->p, OP_DEG_I, f1, &a, DG_REDUCE_MIN, &r), "dg_reduce empty min")) CHECK(r == HUGE_VAL);
        }

        /* the filter over every vertex: ascending live vertices of degree > thr */
        thr = (int)rnd(6);
        a.ints[0] = thr;
        if (ok(g, dg_filter_ex(w->p, OP_HEAVY, NULL, f2, &a), "dg_filter_ex")) {
            size_t got = 0, wantn = 0;
            ok(g, dg_frontier_get(f2, ids, bound + 1, &got), "dg_frontier_get");
            flag_ids = (int *)ids;
            for (v = 0; v < bound; v++)
                if (dg_has_vertex(g, (dg_vertex)v) && deg[v] > thr) {
                    CHECK_MSG(wantn < got && flag_ids[wantn] == (int)v, "[%s] filter: element %zu is %d, want %zu",
                              label, wantn, wantn < got ? flag_ids[wantn] : -1, v);
                    wantn++;
                }
            CHECK_MSG(got == wantn, "[%s] filter kept %zu, want %zu", label, got, wantn);
        }
        /* dg_frontier_all: every live vertex, ascending */
        if (ok(g, dg_frontier_all(f2), "dg_frontier_all")) {
            size_t got = 0, j = 0;
            ok(g, dg_frontier_get(f2, ids, bound + 1, &got), "dg_frontier_get");
            CHECK(got == live);
            for (v = 0; v < bound && j < got; v++)
                if (dg_has_vertex(g, (dg_vertex)v)) CHECK_MSG(ids[j++] == (dg_vertex)v, "[%s] frontier_all", label);
        }
        /* the old style on the new path: data is buffer 0 (the out-degrees) */
        if (ok(g, dg_filter(w->p, OP_OLD, NULL, f2, w->b[0]), "dg_filter old style")) {
            size_t got = 0, wantn = 0;
            ok(g, dg_frontier_get(f2, NULL, 0, &got), "dg_frontier_get");
            for (v = 0; v < bound; v++) wantn += dg_has_vertex(g, (dg_vertex)v) && deg[v] > 2;
            CHECK_MSG(got == wantn, "[%s] old-style filter kept %zu, want %zu", label, got, wantn);
        }

        /* the advance over every vertex's out-edges: per destination, arrivals and in-weights */
        fill(w, 4, &zero, bound); fill(w, 5, &fzero, bound); fill(w, 6, &inf, bound); fill(w, 7, &ninf, bound);
        if (ok(g, dg_advance_ex(w->p, OP_ARRIVE, NULL, f2, &a), "dg_advance_ex")) {
            size_t got = 0, wantn = 0;
            int *cnt = (int *)get(w, 4, bound);
            fin = (float *)get(w, 5, bound); fmin = (float *)get(w, 6, bound); fmax = (float *)get(w, 7, bound);
            arr = (int *)xcalloc(bound, sizeof *arr);
            {
                double *ws = (double *)xcalloc(bound, sizeof *ws);
                float *mn2 = (float *)xmalloc(bound * sizeof *mn2), *mx2 = (float *)xmalloc(bound * sizeof *mx2);
                for (v = 0; v < bound; v++) { mn2[v] = INFINITY; mx2[v] = -INFINITY; }
                for (v = 0; v < bound; v++) {
                    size_t d;
                    if (!dg_has_vertex(g, (dg_vertex)v)) continue;
                    d = list(g, (dg_vertex)v, 0, nb, wt, maxd);
                    for (i = 0; i < d; i++) {
                        dg_vertex u = nb[i];
                        arr[u]++; ws[u] += wt[i];
                        if (wt[i] < mn2[u]) mn2[u] = wt[i];
                        if (wt[i] > mx2[u]) mx2[u] = wt[i];
                        wantn += (dg_vertex)v < u;
                    }
                }
                for (v = 0; v < bound; v++) {
                    CHECK_MSG(cnt[v] == arr[v], "[%s] vertex %zu: %d arrivals, want %d", label, v, cnt[v], arr[v]);
                    CHECK_MSG(close_to(fin[v], ws[v]), "[%s] vertex %zu: in-weight %g, want %g", label, v, fin[v], ws[v]);
                    CHECK_MSG(fmin[v] == mn2[v] && fmax[v] == mx2[v], "[%s] vertex %zu: min/max %g/%g, want %g/%g",
                              label, v, fmin[v], fmax[v], mn2[v], mx2[v]);
                }
                free(ws); free(mn2); free(mx2);
            }
            ok(g, dg_frontier_get(f2, NULL, 0, &got), "dg_frontier_get");
            CHECK_MSG(got == wantn, "[%s] advance kept %zu, want %zu", label, got, wantn);
            free(cnt); free(fin); free(fmin); free(fmax); free(arr);
        }
        free(ids);
    }

    /* scalars and the vertex tests, on every id below the bound through a frontier of all ids
       (removed ones included: a user may list any id) */
    a.ints[3] = 3 + round; a.floats[5] = 0.25f;
    n = bound;
    {
        dg_vertex *all = (dg_vertex *)xmalloc((n + 1) * sizeof *all);
        size_t k = 0;
        for (v = 0; v < n; v++) if (dg_has_vertex(g, (dg_vertex)v)) all[k++] = (dg_vertex)v;
        if (ok(g, dg_frontier_set(f1, all, k), "dg_frontier_set") &&
            ok(g, dg_compute_ex(w->p, OP_SCALARS, f1, &a), "dg_compute_ex scalars")) {
            float *fs = (float *)get(w, 2, n);
            int *vt = (int *)get(w, 0, n);
            for (i = 0; i < k; i++) {
                v = (size_t)all[i];
                CHECK_MSG(fs[v] == (float)((3 + round) * (int)v) + 0.25f, "[%s] scalars at %zu: %g", label, v, fs[v]);
                CHECK_MSG(vt[v] == 3, "[%s] vertex tests at %zu: %d", label, v, vt[v]);
            }
            free(fs); free(vt);
        }
        free(all);
    }
    (void)wsum;
    free(wsum);
    free(deg);
out:
    dg_frontier_destroy(f1);
    dg_frontier_destroy(f2);
    free(nb); free(wt);
}

/* Random changes: edges added and removed, a few vertices removed and added. */
static void mutate(world *w)
{
    dg_graph *g = w->g;
    size_t bound = dg_vertex_id_bound(g), i;
    for (i = 0; i < 200; i++) {
        dg_vertex u = (dg_vertex)rnd((uint32_t)bound), v = (dg_vertex)rnd((uint32_t)bound);
        if (!dg_has_vertex(g, u) || !dg_has_vertex(g, v)) continue;
        if (chance(60)) dg_add_edge(g, u, v, (float)(1 + rnd(9)));
        else dg_remove_edge(g, u, v);
    }
    for (i = 0; i < 5; i++) {
        dg_vertex v = (dg_vertex)rnd((uint32_t)bound);
        if (dg_has_vertex(g, v)) dg_remove_vertex(g, v);
    }
    for (i = 0; i < 3; i++) {
        dg_vertex v;
        if (dg_add_vertex(g, &v) == DG_OK && bound > 0) dg_add_edge(g, v, (dg_vertex)rnd((uint32_t)bound), 2.0f);
    }
}

static void run_world(const char *name, int undirected, int weighted, uint32_t page, size_t n, size_t m, int hubs)
{
    world w;
    dg_desc d;
    size_t i;
    int round;
    memset(&w, 0, sizeof w);
    memset(&d, 0, sizeof d);
    d.undirected = undirected;
    d.weighted = weighted;
    d.page_size = page;
    w.name = name;
    w.undirected = undirected;
    w.weighted = weighted;
    if (!ok(NULL, dg_create(&d, &w.g), "dg_create")) return;
    ok(w.g, dg_add_vertices(w.g, n, NULL), "dg_add_vertices");
    for (i = 0; i < m; i++) {
        dg_vertex u = (dg_vertex)(hubs && chance(20) ? rnd((uint32_t)hubs) : rnd((uint32_t)n));
        dg_add_edge(w.g, u, (dg_vertex)rnd((uint32_t)n), (float)(1 + rnd(9)));
    }
    for (i = 0; i < n / 50; i++) dg_remove_vertex(w.g, (dg_vertex)rnd((uint32_t)n));
    if (ok(w.g, dg_program_create(w.g, src, ops, NOPS, &w.p), "dg_program_create") &&
        make_buffers(&w, dg_vertex_id_bound(w.g) + 64)) {
        for (round = 0; round < 4; round++) {
            round_checks(&w, round);
            mutate(&w);
        }
    }
    for (i = 0; i < 8; i++) if (w.b[i]) clReleaseMemObject(w.b[i]);
    dg_program_destroy(w.p);
    dg_destroy(w.g);
    printf("test_user: [%s] done\n", name);
}

static void case_graphs(void)
{
    run_world("directed weighted p64 hubs", 0, 1, 64, 1500, 6000, 3);
    run_world("undirected weighted p1024 hubs", 1, 1, 1024, 3000, 9000, 2);
    run_world("directed unweighted p1024", 0, 0, 1024, 2500, 5000, 0);
    run_world("undirected unweighted p64 tiny", 1, 0, 64, 20, 30, 1);
}

/* A reduction that meets more vertices than DG_REDUCE_GROUPS work-groups hold: partials of
   strided work-items; and integer sums past 2^24 (where float sums lose units). */
static void case_large(void)
{
    dg_graph *g = NULL;
    dg_program *p = NULL;
    dg_desc d;
    double r;
    size_t n = 600000;
    static const char *s2 = "int big(int v, const dg_args *a) { (void)a; return v; }\n"
                            "float one(int v, const dg_args *a) { (void)a; (void)v; return 1.0f; }\n";
    static const dg_op o2[2] = { { DG_OP_REDUCE_INT, "big", 0 }, { DG_OP_REDUCE, "one", 0 } };
    memset(&d, 0, sizeof d);
    if (!ok(NULL, dg_create(&d, &g), "dg_create")) return;
    ok(g, dg_add_vertices(g, n, NULL), "dg_add_vertices");
    dg_remove_vertex(g, 7);
    if (ok(g, dg_program_create(g, s2, o2, 2, &p), "dg_program_create")) {
        double want = (double)n * (double)(n - 1) / 2 - 7;
        if (ok(g, dg_reduce(p, 0, NULL, NULL, DG_REDUCE_SUM, &r), "dg_reduce big"))
            CHECK_MSG(r == want, "int sum %.0f, want %.0f", r, want);
        if (ok(g, dg_reduce(p, 1, NULL, NULL, DG_REDUCE_SUM, &r), "dg_reduce count"))
            CHECK_MSG(r == (double)(n - 1), "count %.0f, want %zu", r, n - 1);
    }
    dg_program_destroy(p);
    dg_destroy(g);
}

/* Bad input: a clear error, nothing run. */
static void case_bad(void)
{
    dg_graph *g = NULL, *g2 = NULL;
    dg_program *p = NULL;
    dg_frontier *f = NULL, *f2 = NULL;
    dg_desc d;
    dg_op bad;
    double r = 42;
    memset(&d, 0, sizeof d);
    if (!ok(NULL, dg_create(&d, &g), "dg_create") || !ok(NULL, dg_create(&d, &g2), "dg_create")) goto out;
    dg_add_vertices(g, 10, NULL);
    dg_add_vertices(g2, 10, NULL);
    bad = ops[OP_DEG_F];
    bad.kind = (dg_op_kind)9;
    CHECK(dg_program_create(g, src, &bad, 1, &p) == DG_ERR_INVALID_ARGUMENT && !p);
    if (!ok(g, dg_program_create(g, src, ops, NOPS, &p), "dg_program_create")) goto out;
    CHECK(dg_reduce(p, OP_FACTS, NULL, NULL, DG_REDUCE_SUM, &r) == DG_ERR_INVALID_ARGUMENT && r == 42);
    CHECK(strstr(dg_error_message(g), "not a reduction") != NULL);
    CHECK(dg_reduce(p, OP_DEG_F, NULL, NULL, DG_REDUCE_SUM, NULL) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_reduce(p, OP_DEG_F, NULL, NULL, (dg_reduce_op)3, &r) == DG_ERR_INVALID_ARGUMENT && r == 42);
    CHECK(strstr(dg_error_message(g), "dg_reduce_op") != NULL);
    CHECK(dg_reduce(p, NOPS, NULL, NULL, DG_REDUCE_SUM, &r) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_compute_ex(p, OP_DEG_F, NULL, NULL) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_advance_ex(p, OP_ARRIVE, NULL, NULL, NULL) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_reduce(NULL, 0, NULL, NULL, DG_REDUCE_SUM, &r) == DG_ERR_INVALID_ARGUMENT);
    ok(g2, dg_frontier_create(g2, 4, &f2), "dg_frontier_create");
    ok(g, dg_frontier_create(g, 4, &f), "dg_frontier_create");
    CHECK(dg_reduce(p, OP_DEG_F, f2, NULL, DG_REDUCE_SUM, &r) == DG_ERR_INVALID_ARGUMENT);
    CHECK(dg_filter_ex(p, OP_HEAVY, NULL, f2, NULL) == DG_ERR_INVALID_ARGUMENT);
    /* args NULL: scalars 0, no buffers; still fine for functions that use none */
    CHECK(dg_filter_ex(p, OP_HEAVY, NULL, f, NULL) == DG_OK);
    CHECK(dg_reduce(p, OP_DEG_F, NULL, NULL, DG_REDUCE_SUM, &r) == DG_OK && r == 0.0);
out:
    dg_frontier_destroy(f);
    dg_frontier_destroy(f2);
    dg_program_destroy(p);
    dg_destroy(g);
    dg_destroy(g2);
}

static const tt_case cases[] = { { "bad", case_bad }, { "large", case_large }, { "graphs", case_graphs } };

int main(int argc, char **argv)
{
    time_t w0 = time(NULL);
    setvbuf(stdout, NULL, _IOLBF, 0);
    seed = trand_seed(argc, argv, (uint64_t)time(NULL), "test_user");
    TT_RUN("test_user", cases);
    printf("test_user: %ld s (seed %llu)\n", (long)(time(NULL) - w0), (unsigned long long)seed);
    return TT_SUMMARY("test_user");
}
