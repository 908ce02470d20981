/* fuzz_mutate.c - libFuzzer target: the input is a sequence of mutations applied to a graph and
   to a reference model written here (a weight matrix), compared after every step.
   Byte 0 picks the configuration (directed or undirected, weighted or not, page size 64 or
   128, batches always on the host or automatic); then each operation takes an opcode byte and
   its operands (ids modulo the id bound + 2, so that removed and never-created ids come up;
   0xFF as an id is -1). After each step: the call succeeded exactly when the model says it
   must, its count (added / removed) is right, and the graph equals the model (live vertices,
   edge count, every out-list with its weights, in-degrees); dg_validate every 8 steps and at the
   end. Any difference aborts, which libFuzzer reports as a crash.
   Corpus: test/fuzz/corpus/mutate/. */
#define DYNGRAPH_IMPLEMENTATION
#include "dyngraph.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXV 96                      /* lists past one page of 64 entries */
#define ABSENT (-1.0f)               /* model weights are >= 0 */

typedef struct model {
    int undirected, weighted;
    int bound, alive[MAXV];
    float w[MAXV][MAXV];             /* w[u][v] >= 0: edge u->v with that weight */
} model;

typedef struct input { const uint8_t *p; size_t n; } input;
static int next_byte(input *in) { if (!in->n) return -1; in->n--; return *in->p++; }

#define FUZZ_CHECK(c, step) do { if (!(c)) { fprintf(stderr, "fuzz_mutate: step %d: check failed: %s (line %d): %s\n", \
                                                (step), #c, __LINE__, dg_error_message(g)); abort(); } } while (0)

static int m_live(const model *m, int v) { return v >= 0 && v < m->bound && m->alive[v]; }
static int m_has(const model *m, int u, int v) { return m_live(m, u) && m_live(m, v) && m->w[u][v] >= 0; }
static void m_set(model *m, int u, int v, float w) {
    m->w[u][v] = w;
    if (m->undirected) m->w[v][u] = w;
}
static size_t m_edges(const model *m) {
    size_t n = 0;
    int u, v;
    for (u = 0; u < m->bound; u++)
        for (v = m->undirected ? u : 0; v < m->bound; v++) n += m->w[u][v] >= 0;
    return n;
}
static dg_vertex id_of(input *in, const model *m) {
    int b = next_byte(in);
    if (b < 0) b = 0;
    if (b == 0xFF) return -1;
    return (dg_vertex)(b % (m->bound + 2));
}
static float weight_of(input *in) {
    int b = next_byte(in);
    if (b == 0xFE) return NAN;
    return (float)(b < 0 ? 0 : b) * 0.5f;
}

static void compare(dg_graph *g, const model *m, int step) {
    int u, v, i;
    dg_vertex ids[MAXV];
    float ws[MAXV];
    size_t d, din;
    FUZZ_CHECK(dg_vertex_id_bound(g) == (size_t)m->bound, step);
    FUZZ_CHECK(dg_edge_count(g) == m_edges(m), step);
    for (u = 0; u < m->bound; u++) {
        FUZZ_CHECK(dg_has_vertex(g, u) == m->alive[u], step);
        if (!m->alive[u]) continue;
        FUZZ_CHECK(dg_neighbors(g, u, ids, ws, MAXV, &d) == DG_OK, step);
        for (v = 0, i = 0; v < m->bound; v++) i += m->w[u][v] >= 0;
        FUZZ_CHECK((size_t)i == d, step);
        for (i = 0; i < (int)d; i++) {
            FUZZ_CHECK(ids[i] >= 0 && ids[i] < m->bound && m->w[u][ids[i]] >= 0, step);
            FUZZ_CHECK(ws[i] == (m->weighted ? m->w[u][ids[i]] : 1.0f), step);
        }
        FUZZ_CHECK(dg_in_degree(g, u, &din) == DG_OK, step);
        for (v = 0, i = 0; v < m->bound; v++) i += m->w[v][u] >= 0;
        FUZZ_CHECK((size_t)i == din, step);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static model m;
    input in;
    dg_graph *g = NULL;
    dg_desc d;
    int step, cfg, u, v, i;
    in.p = data;
    in.n = size;
    if ((cfg = next_byte(&in)) < 0) return 0;
    memset(&m, 0, sizeof m);
    for (u = 0; u < MAXV; u++)
        for (v = 0; v < MAXV; v++) m.w[u][v] = ABSENT;
    memset(&d, 0, sizeof d);
    m.undirected = d.undirected = cfg & 1;
    m.weighted = d.weighted = (cfg >> 1) & 1;
    d.page_size = (cfg >> 2) & 1 ? 128 : 64;
    d.device_batches = (cfg >> 3) & 1 ? 0 : -1;
    if (dg_create(&d, &g) != DG_OK) abort();
    for (step = 0; in.n > 0; step++) {
        int op = next_byte(&in) % 8, want, n;
        dg_status s = DG_OK;
        dg_edge e[16];
        size_t count = 0, expect = 0;
        float w;
        dg_vertex a, b, c;
        switch (op) {
        case 0:                                        /* add vertices (1..4) */
            n = 1 + next_byte(&in) % 4;
            if (n < 1) n = 1;
            if (m.bound + n > MAXV) break;
            s = dg_add_vertices(g, (size_t)n, &a);
            FUZZ_CHECK(s == DG_OK && a == m.bound, step);
            for (i = 0; i < n; i++) m.alive[m.bound++] = 1;
            break;
        case 1:                                        /* remove a vertex */
            a = id_of(&in, &m);
            want = m_live(&m, a);
            s = dg_remove_vertex(g, a);
            FUZZ_CHECK((s == DG_OK) == want, step);
            if (want) {
                m.alive[a] = 0;
                for (v = 0; v < m.bound; v++) m.w[a][v] = m.w[v][a] = ABSENT;
            }
            break;
        case 2:                                        /* add an edge */
            a = id_of(&in, &m); b = id_of(&in, &m); w = weight_of(&in);
            want = m_live(&m, a) && m_live(&m, b) && !m_has(&m, a, b) && !isnan(w);
            s = dg_add_edge(g, a, b, w);
            FUZZ_CHECK((s == DG_OK) == want, step);
            if (want) m_set(&m, a, b, m.weighted ? w : 1.0f);
            break;
        case 3:                                        /* remove an edge */
            a = id_of(&in, &m); b = id_of(&in, &m);
            want = m_has(&m, a, b);
            s = dg_remove_edge(g, a, b);
            FUZZ_CHECK((s == DG_OK) == want, step);
            if (want) m_set(&m, a, b, ABSENT);
            break;
        case 4:                                        /* set a weight */
            a = id_of(&in, &m); b = id_of(&in, &m); w = weight_of(&in);
            want = m_has(&m, a, b) && !isnan(w);
            s = dg_set_weight(g, a, b, w);
            FUZZ_CHECK((s == DG_OK) == want, step);
            if (want) m_set(&m, a, b, m.weighted ? w : 1.0f);
            break;
        case 5:                                        /* edit an edge: a->b becomes a->c */
            a = id_of(&in, &m); b = id_of(&in, &m); c = id_of(&in, &m);
            want = m_has(&m, a, b) && m_live(&m, c) && (b == c || !m_has(&m, a, c));
            s = dg_edit_edge(g, a, b, c);
            FUZZ_CHECK((s == DG_OK) == want, step);
            if (want && b != c) {
                w = m.w[a][b];
                m_set(&m, a, b, ABSENT);
                m_set(&m, a, c, w);
            }
            break;
        case 6:                                        /* batch insertion, 0..15 edges */
        case 7:                                        /* batch removal */
            n = next_byte(&in);
            n = n < 0 ? 0 : n % 16;
            want = 1;
            for (i = 0; i < n; i++) {
                e[i].src = id_of(&in, &m);
                e[i].dst = id_of(&in, &m);
                e[i].weight = op == 6 ? weight_of(&in) : 1.0f;
                if (!m_live(&m, e[i].src) || !m_live(&m, e[i].dst) || isnan(e[i].weight)) want = 0;
            }
            s = op == 6 ? dg_add_edges(g, e, (size_t)n, &count) : dg_remove_edges(g, e, (size_t)n, &count);
            FUZZ_CHECK((s == DG_OK) == want, step);
            if (!want) break;
            for (i = 0; i < n; i++) {
                if (op == 6 && !m_has(&m, e[i].src, e[i].dst)) {
                    m_set(&m, e[i].src, e[i].dst, m.weighted ? e[i].weight : 1.0f);
                    expect++;
                } else if (op == 7 && m_has(&m, e[i].src, e[i].dst)) {
                    m_set(&m, e[i].src, e[i].dst, ABSENT);
                    expect++;
                }
            }
            FUZZ_CHECK(count == expect, step);
            break;
        }
        if (s != DG_OK) FUZZ_CHECK(dg_error_message(g)[0] != '\0', step);
        compare(g, &m, step);
        if ((step & 7) == 7) FUZZ_CHECK(dg_validate(g) == DG_OK, step);
    }
    FUZZ_CHECK(dg_validate(g) == DG_OK, step);
    dg_destroy(g);
    return 0;
}
