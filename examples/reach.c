/* reach.c - "does X still depend on Y?" in a build graph that keeps changing.

   The modules of a program are vertices; "X depends on Y" is an edge X -> Y, and X depends
   on Y, directly or not, when Y is reachable from X. Each step changes the graph the way a
   code base changes (a dependency dropped, one added, a module removed or created) and then
   asks every ordered pair of modules at once with ONE dg_reach call. dg_reach keeps an index
   (the graph's strongly connected components and GRAIL interval labels): removals keep it
   (it still rules pairs out: "filter-only"), insertions make the call rebuild it.

   Usage:  ./reach [DEVICE]     DEVICE: "gpu", "cpu" or part of a device name (default: the
                                variable DYNGRAPH_DEVICE, else the first GPU, else any device)
   Build:  cc -O2 -I. examples/reach.c -o reach -lOpenCL -lm      (or: make examples) */
#define DYNGRAPH_IMPLEMENTATION
#include "dyngraph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXMOD 32

static dg_graph *g;
static const char *name[MAXMOD] = {
    "core", "alloc", "strings", "log", "json", "xml", "config", "legacy", "zlib", "compress",
    "png", "jpeg", "image", "font", "render", "ui", "crypto", "net", "tls", "http", "sql",
    "cache", "db", "script", "plugin", "audio", "app", "tests"};
static int nmod = 28;                       /* modules created; "metrics" comes later */
static uint8_t was[MAXMOD][MAXMOD];         /* the answers of the previous step */

/* Every call returns a status; when it is not DG_OK the graph says what went wrong. */
static void check(dg_status s, const char *what)
{
    if (s == DG_OK)
        return;
    fprintf(stderr, "%s: %s: %s\n", what, dg_status_string(s), dg_error_message(g));
    dg_destroy(g);
    exit(1);
}

static dg_vertex id(const char *module)     /* vertex ids are the positions in name[] */
{
    for (int i = 0; i < nmod; i++)
        if (strcmp(name[i], module) == 0)
            return i;
    fprintf(stderr, "no module %s\n", module);
    exit(1);
}

/* "a b c": a depends on b and on c (added = 1), or no longer (added = 0). */
static void depends(const char *line, int added)
{
    char buf[128], *tok;
    snprintf(buf, sizeof buf, "%s", line);
    dg_vertex from = id(strtok(buf, " "));
    while ((tok = strtok(NULL, " ")) != NULL) {
        if (added)
            check(dg_add_edge(g, from, id(tok), 1.0f), "dg_add_edge");
        else
            check(dg_remove_edge(g, from, id(tok)), "dg_remove_edge");
    }
}

/* The host's own answer, for the check: a depth-first search over dg_neighbors. */
static int host_reaches(dg_vertex s, dg_vertex t)
{
    dg_vertex stack[MAXMOD * MAXMOD], nb[MAXMOD];
    uint8_t seen[MAXMOD] = {0};
    size_t top = 0, deg;
    stack[top++] = s, seen[s] = 1;
    while (top > 0) {
        dg_vertex v = stack[--top];
        if (v == t)
            return 1;
        check(dg_neighbors(g, v, nb, NULL, MAXMOD, &deg), "dg_neighbors");
        for (size_t i = 0; i < deg; i++)
            if (!seen[nb[i]])
                seen[nb[i]] = 1, stack[top++] = nb[i];
    }
    return 0;
}

/* Every ordered pair of live modules in one dg_reach call; prints the questions asked for this
   step ("x y, x y, ..."), the pairs whose answer changed, the index's stats; checks every
   answer on the host. */
static void ask(int step, const char *what, const char *questions)
{
    static dg_vertex src[MAXMOD * MAXMOD], dst[MAXMOD * MAXMOD];
    static uint8_t yes[MAXMOD * MAXMOD];
    size_t n = 0, changed = 0;
    dg_reach_stats st;
    dg_reach_options opt;
    memset(&opt, 0, sizeof opt);            /* zero means defaults ... */
    opt.stats = &st;                        /* ... plus the stats */
    for (int s = 0; s < nmod; s++)
        for (int t = 0; t < nmod; t++)
            if (s != t && dg_has_vertex(g, s) && dg_has_vertex(g, t))
                src[n] = s, dst[n] = t, n++;
    check(dg_reach_ex(g, src, dst, n, yes, &opt), "dg_reach");

    printf("\nstep %d: %s\n", step, what);
    char buf[256], *tok;
    snprintf(buf, sizeof buf, "%s", questions);
    for (tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        char x[32], y[32];
        if (sscanf(tok, "%31s %31s", x, y) != 2)
            continue;
        dg_vertex a = id(x), b = id(y);
        for (size_t i = 0; i < n; i++)
            if (src[i] == a && dst[i] == b)
                printf("  does %-7s depend on %-8s? %s%s\n", x, y, yes[i] ? "yes" : "no",
                       step == 0 || yes[i] == was[a][b] ? "" : yes[i] ? " (new)" : " (no longer)");
    }
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        total += yes[i];
        if (step > 0 && yes[i] != was[src[i]][dst[i]] && changed++ < 4)
            printf("  changed: %s %s %s\n", name[src[i]], yes[i] ? "now depends on" : "no longer depends on",
                   name[dst[i]]);
        was[src[i]][dst[i]] = yes[i];
        if (yes[i] != host_reaches(src[i], dst[i])) {
            fprintf(stderr, "wrong answer for %s -> %s\n", name[src[i]], name[dst[i]]);
            dg_destroy(g);
            exit(1);
        }
    }
    if (changed > 4)
        printf("  ... %zu answers changed in all\n", changed);
    printf("  %zu pairs asked, %zu dependencies; ", n, total);
    if (st.index_built)
        printf("index rebuilt: %zu components, %u labels, %.2f ms\n", st.components, st.labels,
               st.build_ms);
    else
        printf("index kept%s\n", st.filter_only ? ", filter-only (something was removed)" : "");
    printf("  %llu answered by the labels alone, %llu by a search on the device (%u levels); "
           "%.2f ms\n", (unsigned long long)st.by_labels, (unsigned long long)st.searched,
           st.levels, st.total_ms);
}

int main(int argc, char **argv)
{
    dg_desc desc;
    memset(&desc, 0, sizeof desc);          /* zero means defaults: directed, unweighted */
    if (argc > 2) {
        fprintf(stderr, "usage: %s [DEVICE]\n", argv[0]);
        return 1;
    }
    desc.device = argc > 1 ? argv[1] : NULL;
    check(dg_create(&desc, &g), "dg_create");
    if (!dg_cl_device(g)) {                 /* choose the device and build the kernels now */
        fprintf(stderr, "no device: %s\n", dg_error_message(g));
        dg_destroy(g);
        return 1;
    }
    printf("device: %s\n", dg_device_name(g));

    check(dg_add_vertices(g, (size_t)nmod, NULL), "dg_add_vertices");   /* ids 0..27 */
    static const char *const deps[] = {
        "alloc core", "strings alloc", "log strings alloc", "json strings", "xml strings legacy",
        "config json xml log", "legacy core", "zlib alloc", "compress zlib", "png zlib",
        "jpeg alloc", "image png jpeg", "font compress strings", "render image alloc",
        "ui render font image config", "crypto alloc", "net log alloc", "tls crypto net",
        "http tls net compress json", "sql strings", "cache alloc log", "db sql cache log",
        "script strings json legacy", "plugin script config legacy", "audio alloc log",
        "app ui http db script plugin audio config", "tests app json"};
    for (size_t i = 0; i < sizeof deps / sizeof deps[0]; i++)
        depends(deps[i], 1);
    printf("%d modules, %zu dependencies\n", nmod, dg_edge_count(g));

    ask(0, "the first build graph", "app zlib, app legacy, tests core, net log, log net");

    depends("http compress", 0);
    ask(1, "http drops compression (http -/-> compress)", "app zlib, http zlib, ui zlib");

    depends("png zlib", 0);
    depends("font compress", 0);
    ask(2, "png and font inline their own inflate", "app zlib, ui zlib, app compress");

    depends("log net", 1);                  /* net depends on log: now a cycle */
    ask(3, "the logger gets a network sink (log -> net: a cycle with net -> log)",
        "log net, net log, db net, json net");

    check(dg_remove_vertex(g, id("legacy")), "dg_remove_vertex");   /* and its 4 edges */
    ask(4, "the legacy module is dropped", "app core, xml core, plugin core");

    name[nmod] = "metrics";
    check(dg_add_vertex(g, NULL), "dg_add_vertex");                  /* id 28 */
    nmod++;
    depends("metrics log", 1);
    depends("http metrics", 1);
    depends("db metrics", 1);
    ask(5, "a new module, metrics, used by http and db", "app metrics, metrics net, tests metrics");

    depends("log net", 0);
    ask(6, "the network sink is reverted", "log net, metrics net, db tls");

    printf("\nevery answer of every step confirmed by a search on the host\n");
    dg_destroy(g);
    return 0;
}
