/* crowd.c - a crowd leaving a map whose walls move every frame.

   The map is a W x H grid; each open cell is a vertex joined to its open neighbours (4 of them)
   by undirected edges. The graph is made with dg_desc.reuse_ids = 1: a wall that opens becomes
   a new vertex with a recycled id, so the id bound stays near the number of open cells however
   long the game runs (the example keeps cell -> id and id -> cell maps, as an engine does).
   Each frame:
     1. walls move: a few open cells close (dg_remove_vertex, which also drops their edges) and
        a few walls open (dg_add_vertex, and edges to their open neighbours);
     2. one dg_bfs from all the exits at once (dg_bfs_options.sources) gives the distance field:
        every cell's number of steps to the nearest exit;
     3. every agent steps to a free neighbouring cell closer to an exit; an agent on an exit
        leaves and its slot is reused by a newcomer at a random open cell.
   One line per frame gives the time of each step; small maps are drawn (# wall, E exit,
   o agent, digits: the last digit of the distance to an exit, blank: no way out).
   At the end it checks the field against a plain breadth-first search on the host.

   Usage:  ./crowd [WxH [FRAMES [AGENTS [SEED]]]] [--draw] [--path]
             WxH     map size (default 64x24; one number N means N x N)
             FRAMES  frames (default 30); AGENTS (default W*H/16); SEED (default 1)
             --draw  print the map every frame (maps up to 100 wide print the last one anyway)
             --path  also ask, each frame, for the path of agent 0 to the nearest exit
                     (dg_bfs_options.targets, path: the search stops there)
   Try:    ./crowd 60x20 10 40 --draw
   Build:  cc -O2 -I. examples/crowd.c -o crowd -lOpenCL -lm      (or: make examples) */
#define DYNGRAPH_IMPLEMENTATION
#include "dyngraph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int W = 64, H = 24, FRAMES = 30, AGENTS = 0, DRAW = 0, PATH = 0;
static dg_graph *g;
static int32_t *cell_id;        /* cell -> vertex id, -1 for a wall */
static int32_t *id_cell;        /* vertex id -> cell (grows with the id bound) */
static size_t id_cap;
static unsigned char *exit_cell, *occupied;
static int *agent;              /* agent -> cell */
static int32_t *dist;           /* vertex id -> steps to the nearest exit */
static dg_vertex *exits;
static int nexits;
static unsigned long long rng = 1;

static unsigned rnd(unsigned n)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (unsigned)(rng >> 33) % n;
}
static double now_ms(void)   /* wall time where C11 has it, else processor time */
{
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && defined(TIME_UTC)
    struct timespec ts;
    if (timespec_get(&ts, TIME_UTC) == TIME_UTC) return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
#endif
    return 1000.0 * (double)clock() / CLOCKS_PER_SEC;
}

static void check(dg_status s, const char *what)
{
    if (s != DG_OK) {
        fprintf(stderr, "crowd: %s: %s (%s)\n", what, dg_status_string(s), dg_error_message(g));
        exit(1);
    }
}

/* the open neighbours of cell c, as vertex ids */
static int neighbours(int c, int32_t *out)
{
    int x = c % W, y = c / W, k = 0;
    if (x > 0 && cell_id[c - 1] >= 0) out[k++] = cell_id[c - 1];
    if (x + 1 < W && cell_id[c + 1] >= 0) out[k++] = cell_id[c + 1];
    if (y > 0 && cell_id[c - W] >= 0) out[k++] = cell_id[c - W];
    if (y + 1 < H && cell_id[c + W] >= 0) out[k++] = cell_id[c + W];
    return k;
}

static void open_cell(int c)
{
    dg_vertex v;
    int32_t nb[4];
    int k, i;
    check(dg_add_vertex(g, &v), "dg_add_vertex");
    if ((size_t)v >= id_cap) {
        id_cap = (size_t)v * 2 + 16;
        id_cell = (int32_t *)realloc(id_cell, id_cap * sizeof *id_cell);
        if (!id_cell) { fprintf(stderr, "crowd: out of memory\n"); exit(1); }
    }
    id_cell[v] = c;
    k = neighbours(c, nb);
    cell_id[c] = v;
    for (i = 0; i < k; i++) check(dg_add_edge(g, v, nb[i], 1.0f), "dg_add_edge");
}
static void close_cell(int c)
{
    check(dg_remove_vertex(g, cell_id[c]), "dg_remove_vertex");
    cell_id[c] = -1;
}

/* a random open cell that is not an exit and holds no agent (-1 if none found quickly) */
static int free_cell(void)
{
    int tries;
    for (tries = 0; tries < 1000; tries++) {
        int c = (int)rnd((unsigned)(W * H));
        if (cell_id[c] >= 0 && !exit_cell[c] && !occupied[c]) return c;
    }
    return -1;
}

static void draw(void)
{
    int x, y;
    for (y = 0; y < H; y++) {
        for (x = 0; x < W; x++) {
            int c = y * W + x;
            char ch = '#';
            if (exit_cell[c]) ch = 'E';
            else if (occupied[c]) ch = 'o';
            else if (cell_id[c] >= 0) ch = dist[cell_id[c]] < 0 ? ' ' : (char)('0' + dist[cell_id[c]] % 10);
            putchar(ch);
        }
        putchar('\n');
    }
}

/* the field against a host BFS from the exits over the cells */
static int field_ok(void)
{
    int *q = (int *)malloc((size_t)W * H * sizeof *q), *d = (int *)malloc((size_t)W * H * sizeof *d);
    int head = 0, tail = 0, c, i, bad = 0;
    if (!q || !d) { fprintf(stderr, "crowd: out of memory\n"); exit(1); }
    for (c = 0; c < W * H; c++) d[c] = -1;
    for (i = 0; i < nexits; i++) { c = id_cell[exits[i]]; d[c] = 0; q[tail++] = c; }
    while (head < tail) {
        int u = q[head++], x = u % W, y = u / W, nb[4], k = 0;
        if (x > 0) nb[k++] = u - 1;
        if (x + 1 < W) nb[k++] = u + 1;
        if (y > 0) nb[k++] = u - W;
        if (y + 1 < H) nb[k++] = u + W;
        for (i = 0; i < k; i++)
            if (cell_id[nb[i]] >= 0 && d[nb[i]] < 0) { d[nb[i]] = d[u] + 1; q[tail++] = nb[i]; }
    }
    for (c = 0; c < W * H; c++) bad += cell_id[c] >= 0 && dist[cell_id[c]] != d[c];
    free(q); free(d);
    return bad == 0;
}

int main(int argc, char **argv)
{
    dg_desc desc;
    int a, pos = 0, c, i, f, escaped = 0;
    for (a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--draw")) DRAW = 1;
        else if (!strcmp(argv[a], "--path")) PATH = 1;
        else if (pos == 0 && (sscanf(argv[a], "%dx%d", &W, &H) == 2 || (sscanf(argv[a], "%d", &W) == 1 && (H = W)))) pos++;
        else if (pos == 1 && sscanf(argv[a], "%d", &FRAMES) == 1) pos++;
        else if (pos == 2 && sscanf(argv[a], "%d", &AGENTS) == 1) pos++;
        else if (pos == 3 && sscanf(argv[a], "%llu", &rng) == 1) pos++;
        else { fprintf(stderr, "usage: crowd [WxH [FRAMES [AGENTS [SEED]]]] [--draw] [--path]\n"); return 2; }
    }
    if (W < 8 || H < 8 || W > 8192 || H > 8192 || FRAMES < 1 || AGENTS < 0) {
        fprintf(stderr, "crowd: the map is 8x8 to 8192x8192, FRAMES >= 1, AGENTS >= 0\n");
        return 2;
    }
    if (!AGENTS) AGENTS = W * H / 16;
    memset(&desc, 0, sizeof desc);
    desc.undirected = 1;
    desc.reuse_ids = 1;                          /* walls that open get recycled ids */
    check(dg_create(&desc, &g), "dg_create");
    cell_id = (int32_t *)malloc((size_t)W * H * sizeof *cell_id);
    exit_cell = (unsigned char *)calloc((size_t)W * H, 1);
    occupied = (unsigned char *)calloc((size_t)W * H, 1);
    agent = (int *)malloc((size_t)AGENTS * sizeof *agent);
    exits = (dg_vertex *)malloc(8 * sizeof *exits);
    if (!cell_id || !exit_cell || !occupied || !agent || !exits) { fprintf(stderr, "crowd: out of memory\n"); return 1; }
    /* the map: walls on a tenth of the cells, an exit in the middle of each side */
    for (c = 0; c < W * H; c++) cell_id[c] = -1;
    {
        int ex[4];
        ex[0] = W / 2; ex[1] = (H - 1) * W + W / 2; ex[2] = (H / 2) * W; ex[3] = (H / 2) * W + W - 1;
        for (i = 0; i < 4; i++) exit_cell[ex[i]] = 1;
    }
    for (c = 0; c < W * H; c++)
        if (exit_cell[c] || rnd(10) != 0) open_cell(c);
    for (c = 0; c < W * H; c++)
        if (exit_cell[c]) exits[nexits++] = cell_id[c];
    for (i = 0; i < AGENTS; i++) {
        agent[i] = free_cell();
        if (agent[i] >= 0) occupied[agent[i]] = 1;
    }
    printf("crowd: %dx%d map, %d agents, 4 exits\n", W, H, AGENTS);
    printf("frame | walls moved | id bound | open cells | change ms | field ms | move ms | escaped%s\n",
           PATH ? " | path of agent 0" : "");
    for (f = 0; f < FRAMES; f++) {
        double t0 = now_ms(), t1, t2, t3;
        int moved = 0, opened = W * H / 200 + 1;
        dg_bfs_options o;
        char pathinfo[64] = "";
        size_t bound;
        /* 1. walls move (never on an exit or an agent) */
        for (i = 0; i < opened; i++) {
            c = (int)rnd((unsigned)(W * H));
            if (cell_id[c] < 0) { open_cell(c); moved++; }
            c = free_cell();
            if (c >= 0) { close_cell(c); moved++; }
        }
        t1 = now_ms();
        /* 2. the distance field from all exits, in one search */
        bound = dg_vertex_id_bound(g);
        dist = (int32_t *)realloc(dist, bound * sizeof *dist);
        if (!dist) { fprintf(stderr, "crowd: out of memory\n"); return 1; }
        memset(&o, 0, sizeof o);
        o.sources = exits; o.source_count = (size_t)nexits;
        check(dg_bfs(g, -1, dist, &o), "dg_bfs (field)");
        if (PATH && agent[0] >= 0) {   /* agent 0 alone: stop at it, get the path back */
            dg_vertex path[4096], target = cell_id[agent[0]];
            size_t len = 0;
            memset(&o, 0, sizeof o);
            o.sources = exits; o.source_count = (size_t)nexits;
            o.targets = &target; o.target_count = 1;
            o.path = path; o.path_capacity = 4096; o.path_length = &len;
            check(dg_bfs(g, -1, NULL, &o), "dg_bfs (path)");
            snprintf(pathinfo, sizeof pathinfo, " | %zu cells", len);
        }
        t2 = now_ms();
        /* 3. agents step down the field */
        for (i = 0; i < AGENTS; i++) {
            int32_t nb[4], best = -1, k, j;
            if (agent[i] < 0) continue;
            if (exit_cell[agent[i]]) {           /* out: the slot gets a newcomer */
                occupied[agent[i]] = 0;
                escaped++;
                agent[i] = free_cell();
                if (agent[i] >= 0) occupied[agent[i]] = 1;
                continue;
            }
            k = neighbours(agent[i], nb);
            for (j = 0; j < k; j++) {
                int32_t here = dist[cell_id[agent[i]]], there = dist[nb[j]];
                if (there >= 0 && (here < 0 || there < here) && !occupied[id_cell[nb[j]]] &&
                    (best < 0 || there < dist[best]))
                    best = nb[j];
            }
            if (best >= 0) { occupied[agent[i]] = 0; agent[i] = id_cell[best]; occupied[agent[i]] = 1; }
        }
        t3 = now_ms();
        printf("%5d | %11d | %8zu | %10zu | %9.2f | %8.2f | %7.2f | %7d%s\n", f, moved, bound, dg_vertex_count(g),
               t1 - t0, t2 - t1, t3 - t2, escaped, pathinfo);
        if (DRAW) draw();
    }
    if (!DRAW && W <= 100 && H <= 60) draw();
    if (!field_ok()) { fprintf(stderr, "crowd: the distance field differs from the host's BFS\n"); return 1; }
    printf("crowd: the last field matches a host BFS; id bound %zu for %d cells; device %s\n",
           dg_vertex_id_bound(g), W * H, dg_device_name(g));
    dg_destroy(g);
    free(cell_id); free(id_cell); free(exit_cell); free(occupied); free(agent); free(dist); free(exits);
    return 0;
}
