/* tdata.h - the datasets of the tests: where they are, which files there are, a reader of every
   dataset format that is independent of dg_load, and dg_load into a graph with its status
   checked.

   The datasets lie under $DG_DATA (default test/data; `make test` sets it), in the formats that
   test/data/README.md describes. ds_read reads one into plain arcs, following that README and
   sharing no code with dyngraph, so that what dg_load makes of a file can be checked against it:
   - .mtx   Matrix Market coordinate: 1-based; "symmetric" in the banner gives both directions
            of each off-diagonal entry; the bound is max(rows, cols); weight: the value (1 for
            pattern files);
   - .gr    DIMACS shortest path: "p sp n m", "a u v w", 1-based; the bound is at least n;
   - .graph METIS (format 0, the datasets' only one): "n m", then a line of 1-based neighbours
            per vertex, each giving both directions (so every undirected edge twice, once per
            end); the bound is at least n;
   - .gra   GRAIL: "graph_for_greach", n, then "i: j k ... #" (0-based); the bound is at least n;
   - anything else an edge list: "u v" per line, 0-based, # or % comments, spaces or tabs,
            CRLF line ends.
   Arcs are kept in file order, repeats included (a reference drops or merges them as it needs);
   the bound is one past the largest id seen (or the header's n when larger).

   Include it after dyngraph.h and tt.h. Everything is static inline: a test uses what it needs. */
#ifndef TDATA_H
#define TDATA_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <dirent.h>
#include <sys/stat.h>

/* $DG_DATA, or test/data */
static inline const char *ds_dir(void)
{
    const char *d = getenv("DG_DATA");
    return d && *d ? d : "test/data";
}
/* "$DG_DATA/file" in buf */
static inline char *ds_path(char *buf, size_t size, const char *file)
{
    snprintf(buf, size, "%s/%s", ds_dir(), file);
    return buf;
}
static inline int ds_ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* ================================ reading ================================ */
typedef struct {
    int32_t *src, *dst;           /* arc i: src[i] -> dst[i], weight w[i] */
    float *w;
    size_t n, cap;
    int64_t bound;                /* ids 0..bound-1 */
} ds_arcs;

static inline void ds_push(ds_arcs *a, int64_t u, int64_t v, float w)
{
    if (a->n == a->cap) {
        a->cap = a->cap ? a->cap * 2 : 1024;
        a->src = (int32_t *)xrealloc(a->src, a->cap * sizeof(int32_t));
        a->dst = (int32_t *)xrealloc(a->dst, a->cap * sizeof(int32_t));
        a->w = (float *)xrealloc(a->w, a->cap * sizeof(float));
    }
    a->src[a->n] = (int32_t)u;
    a->dst[a->n] = (int32_t)v;
    a->w[a->n] = w;
    a->n++;
    if (u + 1 > a->bound) a->bound = u + 1;
    if (v + 1 > a->bound) a->bound = v + 1;
}
static inline void ds_free(ds_arcs *a) { free(a->src); free(a->dst); free(a->w); memset(a, 0, sizeof *a); }

/* the number at s (strtod), or dflt where there is none */
static inline float ds_weight(const char *s, float dflt)
{
    char *end;
    double w = strtod(s, &end);
    return end == s ? dflt : (float)w;
}

/* The file at path read into a (see the top); 0 if it cannot be opened (a is then empty). */
static inline int ds_read(const char *path, ds_arcs *a)
{
    FILE *f = fopen(path, "rb");
    char *line = NULL;
    size_t cap = 1 << 16;
    int kind = ds_ends_with(path, ".mtx") ? 1 : ds_ends_with(path, ".gr") ? 2 : ds_ends_with(path, ".graph") ? 3 :
               ds_ends_with(path, ".gra") ? 4 : 0;
    int symmetric = 0, header_done = 0;
    int64_t metis_vertex = 0, header_n = 0;
    memset(a, 0, sizeof *a);
    if (!f) return 0;
    line = (char *)xmalloc(cap);
    for (;;) {
        size_t len = 0;
        int c;
        char *s, *end;
        /* read one line of any length */
        while ((c = fgetc(f)) != EOF && c != '\n') {
            if (len + 2 >= cap) { cap *= 2; line = (char *)xrealloc(line, cap); }
            line[len++] = (char)c;
        }
        if (c == EOF && len == 0) break;
        line[len] = '\0';
        if (len && line[len - 1] == '\r') line[--len] = '\0';
        s = line;
        switch (kind) {
        case 1: /* Matrix Market */
            if (s[0] == '%') {
                if (strncmp(s, "%%MatrixMarket", 14) == 0 && strstr(s, "symmetric")) symmetric = 1;
                continue;
            }
            if (!header_done) {
                long long rows = strtoll(s, &end, 10), cols = strtoll(end, &end, 10);
                if (end == s) continue;
                header_n = rows > cols ? rows : cols;
                header_done = 1;
            } else {
                long long i = strtoll(s, &end, 10), j;
                float w;
                if (end == s) continue;
                j = strtoll(end, &end, 10);
                w = ds_weight(end, 1.0f);
                ds_push(a, i - 1, j - 1, w);
                if (symmetric && i != j) ds_push(a, j - 1, i - 1, w);
            }
            break;
        case 2: /* DIMACS */
            if (s[0] == 'p') {
                char *q = s + 1;
                while (*q && !isdigit((unsigned char)*q)) q++;
                header_n = strtoll(q, &end, 10);
            } else if (s[0] == 'a') {
                long long u = strtoll(s + 1, &end, 10), v = strtoll(end, &end, 10);
                ds_push(a, u - 1, v - 1, ds_weight(end, 1.0f));
            }
            break;
        case 3: /* METIS (format 0 only: the datasets) */
            if (s[0] == '%') continue;
            if (!header_done) {
                header_n = strtoll(s, &end, 10);
                if (end == s) continue;
                header_done = 1;
            } else if (metis_vertex < header_n) {
                for (;;) {
                    long long v = strtoll(s, &end, 10);
                    if (end == s) break;
                    ds_push(a, metis_vertex, v - 1, 1.0f);
                    ds_push(a, v - 1, metis_vertex, 1.0f);
                    s = end;
                }
                metis_vertex++;
            }
            break;
        case 4: /* GRAIL */
            if (!header_done) {
                if (strstr(s, "graph_for_greach")) continue;
                header_n = strtoll(s, &end, 10);
                if (end == s) continue;
                header_done = 1;
            } else {
                long long u = strtoll(s, &end, 10);
                if (end == s) continue;
                s = strchr(end, ':');
                if (!s) continue;
                s++;
                for (;;) {
                    long long v = strtoll(s, &end, 10);
                    if (end == s) break;
                    ds_push(a, u, v, 1.0f);
                    s = end;
                }
                if (u + 1 > a->bound) a->bound = u + 1;
            }
            break;
        default: /* edge list */
            while (*s == ' ' || *s == '\t') s++;
            if (*s == '#' || *s == '%' || *s == '\0') continue;
            {
                long long u = strtoll(s, &end, 10), v;
                if (end == s) continue;
                s = end;
                v = strtoll(s, &end, 10);
                if (end == s) continue;
                ds_push(a, u, v, 1.0f);
            }
            break;
        }
    }
    if (header_n > a->bound) a->bound = header_n;
    free(line);
    fclose(f);
    return 1;
}

/* ================================ listing ================================ */
static inline int ds_cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }
static inline void ds_find(const char *rel, const char *suffix, char ***list, size_t *n, size_t *cap)
{
    char path[1024];
    DIR *d;
    struct dirent *e;
    snprintf(path, sizeof path, "%s%s%s", ds_dir(), *rel ? "/" : "", rel);
    if (!(d = opendir(path))) return;
    while ((e = readdir(d)) != NULL) {
        char sub[1024], full[2100];
        struct stat st;
        if (e->d_name[0] == '.') continue;
        snprintf(sub, sizeof sub, "%s%s%s", rel, *rel ? "/" : "", e->d_name);
        snprintf(full, sizeof full, "%s/%s", ds_dir(), sub);
        if (stat(full, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) ds_find(sub, suffix, list, n, cap);
        else if (S_ISREG(st.st_mode) && ds_ends_with(e->d_name, suffix)) {
            if (*n == *cap) { *cap = *cap ? *cap * 2 : 16; *list = (char **)xrealloc(*list, *cap * sizeof(char *)); }
            (*list)[*n] = (char *)xmalloc(strlen(sub) + 1);
            strcpy((*list)[(*n)++], sub);
        }
    }
    closedir(d);
}
/* every file under $DG_DATA whose name ends in suffix, as paths relative to it, sorted; *n of
   them (free the list with ds_list_free) */
static inline char **ds_list(const char *suffix, size_t *n)
{
    char **list = NULL;
    size_t cap = 0;
    *n = 0;
    ds_find("", suffix, &list, n, &cap);
    if (*n) qsort(list, *n, sizeof(char *), ds_cmp_str);
    return list;
}
static inline void ds_list_free(char **list, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) free(list[i]);
    free(list);
}

/* ================================ loading ================================ */
/* dg_load of $DG_DATA/file into g, checked (one check; the message starts "[label]"); 1 if it
   loaded */
static inline int ds_load_into(dg_graph *g, const char *file, dg_format format, const char *label)
{
    char path[1024];
    dg_status s = dg_load(g, ds_path(path, sizeof path, file), format);
    CHECK_MSG(s == DG_OK, "[%s] dg_load(%s, format %d): %s: %s", label, path, (int)format, dg_status_string(s),
              dg_error_message(g));
    return s == DG_OK;
}
/* a new graph (default page size, no binary cache: see PAGE SIZES in test_bfs.c) with
   $DG_DATA/file loaded by ds_load_into; NULL after a failed check */
static inline dg_graph *ds_load(const char *file, int undirected, int weighted, const char *label)
{
    dg_graph *g = NULL;
    dg_desc d;
    memset(&d, 0, sizeof d);
    d.binary_cache = -1;
    d.undirected = undirected;
    d.weighted = weighted;
    if (dg_create(&d, &g) != DG_OK) { CHECK(0); return NULL; }
    if (!ds_load_into(g, file, DG_FORMAT_AUTO, label)) { dg_destroy(g); return NULL; }
    return g;
}
#endif
