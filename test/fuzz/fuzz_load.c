/* fuzz_load.c - libFuzzer target for one loader, snapshots included: the format is the
   environment's FUZZ_FORMAT, a dg_format number (test/run.sh builds this target once and runs
   it once per format; a build with -DFUZZ_FORMAT=DG_FORMAT_... makes that the default). Each
   input is loaded from memory (dg_load_memory; odd inputs also through a temporary file with
   dg_load, which must give the same status), alternately into an empty graph and into a graph
   with content and a removed vertex.
   Checked after every input (any failure aborts, which libFuzzer reports as a crash):
   - success: dg_validate passes, and a second load of the same bytes adds nothing new (a
     snapshot: is refused, the graph no longer being empty);
   - failure: the graph is exactly as before (vertex bound, counts, every list), and the message
     holds no control byte (file bytes are escaped);
   - sanitizers: no memory error, no undefined behaviour, no leak;
   - host memory is capped at 64 MiB through dg_desc.allocator (huge headers: out of memory).
   Corpus: test/fuzz/corpus/load_<format>/ (seeds from test/good and test/bad).
   Build and run by hand: clang -g -O1 -fsanitize=fuzzer,address,undefined -I. \
       test/fuzz/fuzz_load.c -lOpenCL -lm && FUZZ_FORMAT=4 ./a.out test/fuzz/corpus/load_metis */
#define _POSIX_C_SOURCE 200809L
#define DYNGRAPH_IMPLEMENTATION
#include "dyngraph.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef FUZZ_FORMAT
#define FUZZ_FORMAT DG_FORMAT_AUTO
#endif

/* the format of this run: FUZZ_FORMAT from the environment, read at the first input */
static dg_format fuzz_format(void) {
    static int format = -1;
    if (format < 0) {
        const char *e = getenv("FUZZ_FORMAT");
        char *end = NULL;
        long n = e && *e ? strtol(e, &end, 10) : (long)FUZZ_FORMAT;
        if ((end && *end) || n < (long)DG_FORMAT_AUTO || n > (long)DG_FORMAT_SNAPSHOT) {
            fprintf(stderr, "fuzz_load: FUZZ_FORMAT=%s is no dg_format (0..%d)\n", e, (int)DG_FORMAT_SNAPSHOT);
            abort();
        }
        format = (int)n;
    }
    return (dg_format)format;
}

#define FUZZ_CHECK(c) do { if (!(c)) { fprintf(stderr, "fuzz_load: check failed: %s (line %d): %s\n", \
                                                #c, __LINE__, dg_error_message(g)); abort(); } } while (0)

/* Host allocations are capped (FUZZ_HEAP bytes live), so that a header declaring two billion
   vertices ends in DG_ERR_OUT_OF_MEMORY (graph unchanged) instead of exhausting the machine. */
#define FUZZ_HEAP ((size_t)64 << 20)
static size_t fuzz_live;
static void *fuzz_alloc(size_t size, void *user) {
    size_t *p;
    (void)user;
    if (size > FUZZ_HEAP - fuzz_live || !(p = (size_t *)malloc(size + 16))) return NULL;
    fuzz_live += size;
    p[0] = size;
    return (char *)p + 16;
}
static void fuzz_free(void *ptr, void *user) {
    size_t *p;
    (void)user;
    if (!ptr) return;
    p = (size_t *)(void *)((char *)ptr - 16);
    fuzz_live -= p[0];
    free(p);
}

/* every out-list, as (count, ids, weights) per vertex, into one flat array of floats */
static float *fuzz_snapshot(dg_graph *g, size_t *len) {
    size_t bound = dg_vertex_id_bound(g), v, n = 0, cap = 16 + 3 * bound, d, i;
    float *s = (float *)malloc(cap * sizeof(float));
    dg_vertex ids[256];
    float w[256];
    if (!s) abort();
    s[n++] = (float)bound;
    s[n++] = (float)dg_edge_count(g);
    for (v = 0; v < bound; v++) {
        if (!dg_has_vertex(g, (dg_vertex)v)) { s[n++] = -1; continue; }
        if (dg_neighbors(g, (dg_vertex)v, ids, w, 256, &d) != DG_OK) abort();
        if (d > 256) d = 256;   /* the base graph's lists are short */
        if (n + 1 + 2 * d > cap) {
            cap = 2 * (n + 1 + 2 * d);
            if (!(s = (float *)realloc(s, cap * sizeof(float)))) abort();
        }
        s[n++] = (float)d;
        for (i = 0; i < d; i++) { s[n++] = (float)ids[i]; s[n++] = w[i]; }
    }
    *len = n;
    return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static unsigned long calls;
    static const char *ext[] = { "txt", "txt", "mtx", "gr", "graph", "gra", "dgs" };
    char path[512];
    const char *tmp = getenv("TMPDIR");
    FILE *f;
    dg_graph *g = NULL;
    dg_desc d;
    dg_status s;
    size_t before_len, after_len, i;
    float *before, *after;
    const char *msg;
    int content;
    const dg_format format = fuzz_format();
    snprintf(path, sizeof path, "%s/dg_fuzz_load_%ld.%s", tmp && *tmp ? tmp : "/tmp", (long)getpid(),
             ext[(int)format]);
    if (!(f = fopen(path, "wb"))) return 0;
    if (size && fwrite(data, 1, size, f) != size) { fclose(f); remove(path); return 0; }
    fclose(f);
    memset(&d, 0, sizeof d);
    d.weighted = 1;
    d.page_size = 64;
    d.allocator.alloc_fn = fuzz_alloc;
    d.allocator.free_fn = fuzz_free;
    if (dg_create(&d, &g) != DG_OK) abort();
    content = (int)(calls & 1);
    calls++;
    if (content) {                 /* content and a removed vertex (id 2) */
        FUZZ_CHECK(dg_add_vertices(g, 6, NULL) == DG_OK);
        FUZZ_CHECK(dg_add_edge(g, 0, 1, 2.0f) == DG_OK && dg_add_edge(g, 1, 2, 3.0f) == DG_OK);
        FUZZ_CHECK(dg_add_edge(g, 5, 4, 0.5f) == DG_OK && dg_add_edge(g, 3, 3, 1.0f) == DG_OK);
        FUZZ_CHECK(dg_remove_vertex(g, 2) == DG_OK);
    }
    before = fuzz_snapshot(g, &before_len);
    {
        dg_load_options o;
        memset(&o, 0, sizeof o);
        o.format = format;
        s = dg_load_memory(g, data, size, path, &o);
    }
    if (calls & 2) {                  /* the same bytes from the file: the same answer */
        /* (both graphs share the 64 MiB heap: h may not even be made where g took it all, and
           one load may run out where the other did not) */
        dg_graph *h = NULL;
        int ready = dg_create(&d, &h) == DG_OK;
        if (ready && content)
            ready = dg_add_vertices(h, 6, NULL) == DG_OK && dg_add_edge(h, 0, 1, 2.0f) == DG_OK &&
                    dg_add_edge(h, 1, 2, 3.0f) == DG_OK && dg_add_edge(h, 5, 4, 0.5f) == DG_OK &&
                    dg_add_edge(h, 3, 3, 1.0f) == DG_OK && dg_remove_vertex(h, 2) == DG_OK;
        if (ready) {
            dg_status t = dg_load(h, path, format);
            FUZZ_CHECK(t == s || t == DG_ERR_OUT_OF_MEMORY || s == DG_ERR_OUT_OF_MEMORY);
        }
        dg_destroy(h);
    }
    if (s == DG_OK) {
        size_t edges = dg_edge_count(g);
        dg_status again;
        FUZZ_CHECK(dg_validate(g) == DG_OK);
        again = dg_load(g, path, format);
        FUZZ_CHECK(format == DG_FORMAT_SNAPSHOT ? again == DG_ERR_INVALID_ARGUMENT || dg_vertex_id_bound(g) == 0
                                                     : again == DG_OK);
        FUZZ_CHECK(dg_edge_count(g) == edges);
    } else {
        msg = dg_error_message(g);
        FUZZ_CHECK(msg[0] != '\0');
        for (i = 0; msg[i]; i++) FUZZ_CHECK((unsigned char)msg[i] >= 0x20 && (unsigned char)msg[i] != 0x7f);
        after = fuzz_snapshot(g, &after_len);
        FUZZ_CHECK(after_len == before_len && memcmp(before, after, before_len * sizeof(float)) == 0);
        FUZZ_CHECK(dg_validate(g) == DG_OK);
        free(after);
    }
    free(before);
    dg_destroy(g);
    remove(path);
    return 0;
}
