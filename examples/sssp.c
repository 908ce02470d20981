/* sssp.c - shortest paths on a game map whose walls come and go.

   The map is a W x H grid. Each cell is a vertex (id y*W + x) joined to its 4 neighbours by
   an undirected edge whose weight is the mean of the two cells' terrain costs: grass 1,
   forest 3, mud 5, laid out by a fixed noise. A wall cell has no edges at all. Each frame,
   as in a game tick:
     1. the world changes, on the host: a few wall segments rise (the edges of their cells are
        removed; every other frame one falls across the current path), a few old ones fall
        (the edges come back with their terrain weights), and floods and clearings change
        the terrain of small patches (dg_set_weight);
     2. dg_sssp runs from the start S: it first syncs the device mirror, which sends only the
        pages this frame touched, then finds every distance and a shortest-path tree;
     3. the host walks the tree back from the goal G to get the path, and checks the answer.
   One line per frame says what changed, what the sync sent and what the search found.

   Usage:  ./sssp [WxH [FRAMES [SEED [DEVICE]]]] [--draw]
             WxH     map size (default 128x128; one number N means N x N)
             FRAMES  frames after the first (default 20); SEED  the world (default 1)
             DEVICE  "gpu", "cpu" or part of "<platform> <device>" (default: the variable
                     DYNGRAPH_DEVICE, else the first GPU, else any device)
             --draw  print the map every frame (maps up to 64 wide print the last one anyway)
   Try:    ./sssp 60x20 5 7 --draw
   Build:  cc -O2 -I. examples/sssp.c -o sssp -lOpenCL -lm      (or: make examples)
   The first run on a device compiles the kernels: on PoCL that can take minutes (frame 0);
   later runs find them in the cache. */
#define DYNGRAPH_IMPLEMENTATION
#include "dyngraph.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const float terrain_cost[3] = {1.0f, 3.0f, 5.0f};
static const char terrain_char[3] = {'.', 'f', 'm'};          /* grass, forest, mud */
static const char *const strategy_name[] = {"auto", "Bellman-Ford", "frontier", "near-far"};

static dg_graph *g;
static int W = 128, H = 128, S, G;       /* map size, start and goal cells */
static unsigned char *terrain;           /* per cell: 0 grass, 1 forest, 2 mud */
static unsigned short *wall;             /* per cell: wall segments covering it (0: free) */
static size_t edges_changed;             /* edges added, removed or re-weighted this frame */

/* Every call returns a status; when it is not DG_OK the graph says what went wrong. */
static void check(dg_status s, const char *what)
{
    if (s == DG_OK)
        return;
    fprintf(stderr, "%s: %s: %s\n", what, dg_status_string(s), dg_error_message(g));
    dg_destroy(g);
    exit(1);
}

static void *zalloc(size_t bytes)
{
    void *p = calloc(bytes, 1);
    if (!p)
        check(DG_ERR_OUT_OF_MEMORY, "calloc");
    return p;
}

/* Host wall-clock milliseconds: timespec_get (C11, C++17), else processor time (C99). */
static double now_ms(void)
{
#if ((defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L) || \
     (defined(__cplusplus) && __cplusplus >= 201703L)) && defined(TIME_UTC)
    struct timespec ts;
    if (timespec_get(&ts, TIME_UTC) == TIME_UTC)
        return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
#endif
    return (double)clock() * 1e3 / CLOCKS_PER_SEC;
}

static uint64_t rng = 88172645463325252u;
static int rnd(int n)                    /* 0..n-1, xorshift64: the same world for a seed */
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (int)((rng >> 33) % (uint64_t)n);
}

/* Value noise: random values on a lattice of `scale` cells, blended bilinearly. */
static float lattice(int x, int y, uint32_t seed)
{
    uint32_t h = (uint32_t)x * 0x8da6b343u ^ (uint32_t)y * 0xd8163841u ^ seed * 0xcb1ab31fu;
    h ^= h >> 15, h *= 0x2c1b3c6du, h ^= h >> 12, h *= 0x297a2d39u, h ^= h >> 15;
    return (float)(h >> 8) / 16777216.0f;
}
static float noise(int x, int y, int scale, uint32_t seed)
{
    int x0 = x / scale, y0 = y / scale;
    float fx = (float)(x % scale) / (float)scale, fy = (float)(y % scale) / (float)scale;
    float top = lattice(x0, y0, seed) * (1 - fx) + lattice(x0 + 1, y0, seed) * fx;
    float bottom = lattice(x0, y0 + 1, seed) * (1 - fx) + lattice(x0 + 1, y0 + 1, seed) * fx;
    return top * (1 - fy) + bottom * fy;
}

static float weight(int a, int b)        /* of the edge between cells a and b */
{
    return 0.5f * (terrain_cost[terrain[a]] + terrain_cost[terrain[b]]);
}

static int neighbours(int c, int nb[4])  /* the cells left, right, above and below c */
{
    int k = 0, x = c % W, y = c / W;
    if (x > 0) nb[k++] = c - 1;
    if (x + 1 < W) nb[k++] = c + 1;
    if (y > 0) nb[k++] = c - W;
    if (y + 1 < H) nb[k++] = c + W;
    return k;
}

/* One more segment (rise) or one fewer covers cell c. When c becomes a wall its edges go
   (those to free cells: a wall has none); when it is free again they come back, weighted by
   the terrain. Returns 1 when c changed between free and wall. */
static int cover(int c, int rise)
{
    int nb[4], k = neighbours(c, nb);
    wall[c] = (unsigned short)(rise ? wall[c] + 1 : wall[c] - 1);
    if (wall[c] != (rise ? 1 : 0))       /* segments may cross: still a wall */
        return 0;
    for (int i = 0; i < k; i++) {
        if (wall[nb[i]])
            continue;
        if (rise)
            check(dg_remove_edge(g, c, nb[i]), "dg_remove_edge");   /* both directions */
        else
            check(dg_add_edge(g, c, nb[i], weight(c, nb[i])), "dg_add_edge");
        edges_changed++;
    }
    return 1;
}

/* Wall segments: straight runs of cells, kept in a ring, oldest first. */
typedef struct segment { int x, y, dx, dy, len; } segment;
static segment *segs;
static int seg_first, seg_count, seg_cap;

static int segment_walls(const segment *s, int rise)   /* returns cells that changed state */
{
    int changed = 0;
    for (int i = 0; i < s->len; i++) {
        int x = s->x + i * s->dx, y = s->y + i * s->dy;
        if ((abs(x - S % W) > 1 || abs(y - S / W) > 1) &&   /* the start, the goal and */
            (abs(x - G % W) > 1 || abs(y - G / W) > 1))     /* their neighbours stay free */
            changed += cover(y * W + x, rise);
    }
    return changed;
}
static int add_segment(int through)     /* anywhere, or across cell `through` (>= 0) */
{
    if (seg_count == seg_cap)
        return 0;
    segment *s = &segs[(seg_first + seg_count++) % seg_cap];
    int longest = 3 + (W < H ? W : H) / 4;
    s->dx = rnd(2), s->dy = 1 - s->dx;   /* horizontal or vertical */
    s->x = rnd(W), s->y = rnd(H), s->len = 3 + rnd(longest - 2);
    if (through >= 0) {                  /* centred on `through` */
        s->x = through % W - s->dx * (s->len / 2), s->y = through / W - s->dy * (s->len / 2);
        s->x = s->x < 0 ? 0 : s->x, s->y = s->y < 0 ? 0 : s->y;
    }
    if (s->dx && s->x + s->len > W) s->len = W - s->x;       /* stop at the edge of the map */
    if (s->dy && s->y + s->len > H) s->len = H - s->y;
    return segment_walls(s, 1);
}
static int remove_oldest_segment(void)
{
    if (seg_count == 0)
        return 0;
    segment *s = &segs[seg_first];
    seg_first = (seg_first + 1) % seg_cap, seg_count--;
    return segment_walls(s, 0);
}

/* A flood (mud), a clearing (grass) or new trees (forest) over a 3x3 patch: the weights of
   the edges around it change in place. Returns the cells whose terrain changed. */
static int change_terrain(void)
{
    int cx = rnd(W), cy = rnd(H), t = rnd(3), changed = 0;
    for (int y = cy - 1; y <= cy + 1; y++)
        for (int x = cx - 1; x <= cx + 1; x++)
            if (x >= 0 && x < W && y >= 0 && y < H && terrain[y * W + x] != t)
                terrain[y * W + x] = (unsigned char)t, changed++;
    for (int y = cy - 1; y <= cy + 1; y++)
        for (int x = cx - 1; x <= cx + 1; x++) {
            int c = y * W + x, nb[4];
            if (x < 0 || x >= W || y < 0 || y >= H || wall[c])
                continue;
            for (int i = 0, k = neighbours(c, nb); i < k; i++) {
                float old;
                if (wall[nb[i]])
                    continue;                 /* no edge to a wall */
                check(dg_edge_weight(g, c, nb[i], &old), "dg_edge_weight");
                if (old != weight(c, nb[i])) {
                    check(dg_set_weight(g, c, nb[i], weight(c, nb[i])), "dg_set_weight");
                    edges_changed++;
                }
            }
        }
    return changed;
}

/* Walks the shortest-path tree back from the goal into path[] (goal first) and checks it:
   neighbouring cells, no walls, edges present, their weights summing to dist[G]. Then the
   certificate that every distance is the shortest: no edge u-v offers dist[u] + w < dist[v].
   Returns the cells on the path (0: the goal is unreachable), or -1 with *why set. */
static int walk_path(const float *dist, const int32_t *pred, int *path, const char **why)
{
    int n = 0;
    dg_vertex nb[4];
    float cost = 0, w[4];
    size_t degree;
    if (pred[S] != S || dist[S] != 0)
        return *why = "the start is not the root of the tree", -1;
    for (int c = G; dist[G] != INFINITY; c = pred[c]) {
        if (n == W * H)
            return *why = "the predecessors loop", -1;
        path[n++] = c;
        if (wall[c])
            return *why = "a wall on the path", -1;
        if (c == S)
            break;
        int p = pred[c], d = abs(p - c);
        if (p < 0 || p >= W * H || !(d == W || (d == 1 && p / W == c / W)))
            return *why = "a predecessor is not a neighbour", -1;
        if (dg_edge_weight(g, p, c, &w[0]) != DG_OK)
            return *why = "the path takes an edge that is not there", -1;
        cost += w[0];
    }
    if (dist[G] == INFINITY ? pred[G] != -1 : fabsf(cost - dist[G]) > 1e-4f * dist[G])
        return *why = "the path does not cost dist[goal]", -1;
    for (int c = 0; c < W * H; c++) {
        check(dg_neighbors(g, c, nb, w, 4, &degree), "dg_neighbors");
        for (size_t i = 0; i < degree; i++)
            if (dist[c] + w[i] < dist[nb[i]] - 1e-4f * dist[nb[i]])
                return *why = "an edge still shortens a distance", -1;
    }
    return n;
}

static void draw(const int *path, int n, char *pic)
{
    for (int c = 0; c < W * H; c++)
        pic[c] = wall[c] ? '#' : terrain_char[terrain[c]];
    for (int i = 0; i < n; i++)
        pic[path[i]] = '*';
    pic[S] = 'S', pic[G] = 'G';
    printf("\n");
    for (int y = 0; y < H; y++)
        printf("  %.*s\n", W, pic + y * W);
    printf("  (# wall, . grass 1, f forest 3, m mud 5, * the path)\n");
}

int main(int argc, char **argv)
{
    int frames = 20, draw_all = 0, pos = 0;
    unsigned seed = 1;
    dg_desc desc;
    memset(&desc, 0, sizeof desc);       /* zero means defaults ... */
    desc.undirected = 1;                 /* ... but every edge goes both ways */
    desc.weighted = 1;                   /* ... and carries a weight */
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--draw") == 0) {
            draw_all = 1;
            continue;
        }
        char *end = NULL, tail = 0;
        int got;
        switch (pos++) {
        case 0:                                 /* "WxH", or "N": N x N; anything else: usage */
            got = sscanf(argv[i], "%dx%d%c", &W, &H, &tail);
            if (got == 1) H = W;
            else if (got != 2) W = 0;
            break;
        case 1:
            frames = (int)strtol(argv[i], &end, 10);
            if (end == argv[i] || *end) frames = -1;
            break;
        case 2:
            seed = (unsigned)strtoul(argv[i], &end, 10);
            if (end == argv[i] || *end) W = 0;
            break;
        case 3: desc.device = argv[i]; break;   /* NULL: DYNGRAPH_DEVICE, else the first GPU */
        default: W = 0;                         /* too many: print the usage */
        }
    }
    if (W < 4 || H < 4 || W > 20000 || H > 20000 || frames < 0) {
        fprintf(stderr, "usage: %s [WxH [FRAMES [SEED [DEVICE]]]] [--draw]  (4 <= W, H <= 20000)\n",
                argv[0]);
        return 1;
    }
    check(dg_create(&desc, &g), "dg_create");
    /* Choose the device and build the kernels now, while the graph is empty, so that this
       stays out of the frame times (PoCL still compiles each kernel at its first launch). */
    if (!dg_cl_device(g)) {
        fprintf(stderr, "no device: %s\n", dg_error_message(g));
        dg_destroy(g);
        return 1;
    }

    /* 1. The world: terrain from the noise, every edge of the grid (one batch), first walls. */
    size_t n = (size_t)W * H, m = 0;
    int scale = (W + H) / 16 > 3 ? (W + H) / 16 : 3;
    rng ^= (uint64_t)seed * 0x9e3779b97f4a7c15u;
    terrain = (unsigned char *)zalloc(n);
    wall = (unsigned short *)zalloc(n * sizeof *wall);
    for (int c = 0; c < (int)n; c++) {
        float v = 0.7f * noise(c % W, c / W, scale, seed) + 0.3f * noise(c % W, c / W, 3, seed + 1);
        terrain[c] = (unsigned char)(v < 0.45f ? 0 : v < 0.6f ? 1 : 2);
    }
    S = W + 1, G = (H - 2) * W + W - 2;  /* near two opposite corners */
    seg_cap = (int)(n / 256) + 8;        /* room for twice the first walls */
    segs = (segment *)zalloc((size_t)seg_cap * sizeof *segs);
    check(dg_add_vertices(g, n, NULL), "dg_add_vertices");   /* ids 0..n-1 */
    dg_edge *e = (dg_edge *)zalloc(2 * n * sizeof *e);
    for (int c = 0; c < (int)n; c++) {   /* every cell to its right and lower neighbour */
        if (c % W + 1 < W)
            e[m].src = c, e[m].dst = c + 1, e[m++].weight = weight(c, c + 1);
        if (c / W + 1 < H)
            e[m].src = c, e[m].dst = c + W, e[m++].weight = weight(c, c + W);
    }
    check(dg_add_edges(g, e, m, NULL), "dg_add_edges");       /* one batch: fast */
    free(e);
    for (int i = 0; i < seg_cap / 2; i++)
        add_segment(-1);                 /* the first walls (edge by edge) */
    printf("device: %s\n", dg_device_name(g));
    printf("map %dx%d: %zu cells, %zu edges, %d wall segments; path from (1,1) to (%d,%d)\n\n",
           W, H, n, dg_edge_count(g), seg_count, W - 2, H - 2);
    printf("frame  +wall  -wall terrain  edges | pages  KiB up | path cells     cost |"
           " sync ms  sssp ms\n");

    /* 2. The frames. Vertices are never added, so the arrays keep their size. */
    float *dist = (float *)zalloc(n * sizeof *dist);
    int32_t *pred = (int32_t *)zalloc(n * sizeof *pred);
    int *path = (int *)zalloc(n * sizeof *path), cells = 0;
    char *pic = (char *)zalloc(n);
    double sum_change = 0, sum_sync = 0, sum_device = 0, sum_call = 0;
    dg_sssp_stats ss;
    dg_sssp_options opt;
    memset(&opt, 0, sizeof opt);         /* zero means defaults: DG_SSSP_AUTO ... */
    opt.pred = pred;                     /* ... plus the shortest-path tree ... */
    opt.stats = &ss;                     /* ... and the stats */
    for (int f = 0; f <= frames; f++) {
        /* 2a. Change the world (frame 0 changes nothing: its sync uploads the whole graph). */
        double t0 = now_ms();
        int walled = 0, freed = 0, reterrained = 0;
        edges_changed = 0;
        for (int k = f ? 1 + rnd(3) : 0; k > 0; k--)
            freed += remove_oldest_segment();
        for (int k = f ? 1 + rnd(3) : 0; k > 0; k--) {  /* one may fall across the path */
            int across = k == 1 && cells > 3 && rnd(2) ? path[cells / 4 + rnd(cells / 2)] : -1;
            walled += add_segment(across);
        }
        for (int k = f ? 1 + rnd(3) : 0; k > 0; k--)
            reterrained += change_terrain();

        /* 2b. Search: dg_sssp syncs what changed, runs on the device, reads dist and pred. */
        double t1 = now_ms();
        check(dg_sssp(g, S, dist, &opt), "dg_sssp");
        double t2 = now_ms();
        dg_stats st;
        check(dg_get_stats(g, &st), "dg_get_stats");

        /* 2c. The path, walked back from the goal, and checked. */
        const char *why = "";
        cells = walk_path(dist, pred, path, &why);
        if (cells < 0) {
            fprintf(stderr, "frame %d: wrong answer: %s\n", f, why);
            dg_destroy(g);
            return 1;
        }
        printf("%5d %6d %6d %7d %6zu | %5zu %7.1f | %10d %8.1f | %7.2f %8.2f%s\n", f, walled,
               freed, reterrained, edges_changed, st.last_sync_pages, st.last_sync_bytes / 1024.0,
               cells, cells ? dist[G] : 0.0f, ss.sync_ms, ss.device_ms,
               cells ? "" : "  goal unreachable");
        if (draw_all)
            draw(path, cells, pic);
        if (f > 0)                       /* frame 0 is the full upload: not in the averages */
            sum_change += t1 - t0, sum_sync += ss.sync_ms, sum_device += ss.device_ms,
            sum_call += t2 - t1;
    }

    /* 3. The last map, and the summary. */
    if (!draw_all && W <= 64)
        draw(path, cells, pic);
    printf("\n+wall, -wall: cells that became walls, free; terrain: cells that changed terrain;"
           "\nedges: edges added, removed or re-weighted; pages, KiB up: what the sync sent;\n"
           "sync ms: host time of dg_sssp's sync and weight check; sssp ms: device time of "
           "the search\n\n");
    printf("last search: %s, %u relax kernels, %u buckets of width %.1f, %llu cells reached\n",
           strategy_name[ss.strategy], ss.iterations, ss.phases, ss.delta,
           (unsigned long long)ss.vertices_reached);
    if (frames > 0)
        printf("per frame (mean of %d): change %.3f ms (host) + dg_sssp %.3f ms = %.3f ms\n"
               "  dg_sssp: sync %.3f ms, search %.3f ms on the device, the rest launches and "
               "read-back\n", frames, sum_change / frames, sum_call / frames,
               (sum_change + sum_call) / frames, sum_sync / frames, sum_device / frames);
    printf("every frame: the path walked and priced, every distance confirmed (host)\n"
           "device: %s\n", dg_device_name(g));

    free(pic), free(path), free(pred), free(dist), free(segs), free(wall), free(terrain);
    dg_destroy(g);
    return 0;
}
