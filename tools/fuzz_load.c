/* fuzz_load.c - libFuzzer entry point for dg_load: each input is written to a temporary file
   and loaded in every format (AUTO included) into a fresh graph, directed or undirected,
   weighted or not, some with content and a removed vertex; dg_validate must then pass, and a
   failed load must leave the graph's counts as they were. Not built by make test.
   Build: clang -g -O1 -fsanitize=fuzzer,address,undefined -I. tools/fuzz_load.c -o build/fuzz_load -lOpenCL -lm && build/fuzz_load test/bad test/good */
#define _POSIX_C_SOURCE 200809L
#define DYNGRAPH_IMPLEMENTATION
#include "dyngraph.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* An allocator with a ceiling, so that a file naming vertex 2,000,000,000 gives
   DG_ERR_OUT_OF_MEMORY instead of exhausting the fuzzer's memory. */
#define FUZZ_HEAP_LIMIT ((size_t)64 << 20)
static size_t fuzz_live;

static void *fuzz_alloc(size_t size, void *user_data)
{
    size_t *p;
    (void)user_data;
    if (size > FUZZ_HEAP_LIMIT - fuzz_live) return NULL;
    p = (size_t *)malloc(size + 16);
    if (!p) return NULL;
    *p = size;
    fuzz_live += size;
    return (char *)p + 16;
}

static void fuzz_free(void *ptr, void *user_data)
{
    size_t *p;
    (void)user_data;
    if (!ptr) return;
    p = (size_t *)(void *)((char *)ptr - 16);
    fuzz_live -= *p;
    free(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[256];
    const char *tmp = getenv("TMPDIR");
    FILE *f;
    int format;
    snprintf(path, sizeof path, "%s/dg_fuzz_load_%ld", tmp && *tmp ? tmp : "/tmp", (long)getpid());
    f = fopen(path, "wb");
    if (!f) return 0;
    if (size) fwrite(data, 1, size, f);
    fclose(f);
    for (format = DG_FORMAT_AUTO; format <= DG_FORMAT_GRAIL; format++) {
        dg_graph *g = NULL;
        dg_desc desc;
        size_t bound, edges;
        dg_status s;
        memset(&desc, 0, sizeof desc);
        desc.weighted = format & 1;
        desc.undirected = (format >> 1) & 1;
        desc.allocator.alloc_fn = fuzz_alloc;
        desc.allocator.free_fn = fuzz_free;
        if (dg_create(&desc, &g) != DG_OK) continue;
        if (format >= DG_FORMAT_DIMACS) {   /* content, and a removed vertex the file may name */
            dg_vertex first;
            if (dg_add_vertices(g, 4, &first) == DG_OK) {
                dg_add_edge(g, 0, 1, 2.0f);
                dg_add_edge(g, 3, 0, 1.0f);
                dg_remove_vertex(g, 2);
            }
        }
        bound = dg_vertex_id_bound(g);
        edges = dg_edge_count(g);
        s = dg_load(g, path, (dg_format)format);
        if (dg_validate(g) != DG_OK) {
            fprintf(stderr, "dg_validate after dg_load (format %d): %s\n", format, dg_error_message(g));
            abort();
        }
        if (s != DG_OK && (dg_vertex_id_bound(g) != bound || dg_edge_count(g) != edges)) {
            fprintf(stderr, "failed dg_load (format %d, %s) changed the graph\n", format,
                    dg_status_string(s));
            abort();
        }
        dg_destroy(g);
    }
    remove(path);
    return 0;
}
