/* kernels/40_bfs.cl - breadth-first search: four strategies and their helpers.

   Distances are int (-1: not reached). Level counters live on the device in a ring of
   `ring` uint4 slots, slot L % ring for level L: (.x vertices in the level's frontier, .y sum of
   their out-degrees, .z adjacency entries inspected while expanding it, .w unused). The
   kernel of level L appends to slot L+1 and clears slot L+2, so several levels can be queued
   without reading anything back. */

#define DG_LV(lv, ring, L) ((lv) + 4 * (size_t)((uint)(L) % (ring)))

/* The source: distance 0, its own parent, visited, alone in queue 0; slots 0..2 set. */
__kernel void dg_bfs_init(__global int *dist, __global int *parent, __global uint *vis,
                          __global int *q, __global uint *lv, const uint ring, const int src,
                          const uint m0)
{
    if (get_global_id(0) != 0) return;
    dist[src] = 0;
    if (parent) parent[src] = src;
    if (vis) vis[(uint)src >> 5] |= 1u << ((uint)src & 31u);
    if (q) q[0] = src;
    lv[0] = 1; lv[1] = m0; lv[2] = 0; lv[3] = 0;
    lv[4] = lv[5] = lv[6] = lv[7] = 0;
    lv[8] = lv[9] = lv[10] = lv[11] = 0;
}

/* ---- DG_BFS_TOP_DOWN / the top-down steps of DG_BFS_DIRECTION_OPT ----
   Persistent work-groups take DG_WG frontier vertices at a time; the group scans their degrees
   in local memory and expands all their edges together, one edge per work-item per round
   (owner found by binary search in local memory), so small lists share rounds. Vertices of
   degree > hub go to the level's hub list instead (count in slot .w), and dg_bfs_td_hubs
   spreads their edges over all work-groups in pieces of 4*DG_WG: no work-group is left
   holding a 100000-edge list alone (per 003: cooperation instead of nested launches).
   A neighbour is claimed in the visited bitmap (test, then atomic_or); winners are gathered
   in local memory and appended with one global atomic per round. */

/* Claims u for the next level (parent p); a winner is put in the local list (and its degree
   counted when want_m: direction-optimizing needs it). */
inline void dg_td_visit(DG_ADJ_ARGS, const int u, const int p, const int level,
                        __global int *dist, __global int *parent, __global uint *vis,
                        __local int *l_q, __local uint *l_n, __local uint *l_m, const uint want_m)
{
    if (dg_claim(vis, u)) {
        dist[u] = level + 1;
        if (parent) parent[u] = p;
        l_q[atomic_inc(l_n)] = u;
        if (want_m) atomic_add(l_m, dg_degree(DG_ADJ, u));
    }
}
/* After a round: once the local list might not take another round (or at the end: last),
   appends it to the next queue with one global atomic and empties it. Run by the whole
   work-group (a macro: it holds barriers; PoCL wants them in the kernel itself). */
#define DG_TD_FLUSH(last) do { \
    barrier(CLK_LOCAL_MEM_FENCE); \
    if ((last) || l_n > DG_TDQ - DG_WG) { \
        uint f_; \
        if (lid == 0 && l_n) { l_out = atomic_add(&nx[0], l_n); atomic_add(&nx[1], l_m); } \
        barrier(CLK_LOCAL_MEM_FENCE); \
        for (f_ = lid; f_ < l_n; f_ += DG_WG) q_out[l_out + f_] = l_q[f_]; \
        barrier(CLK_LOCAL_MEM_FENCE); \
        if (lid == 0) { l_n = 0; l_m = 0; } \
        barrier(CLK_LOCAL_MEM_FENCE); \
    } \
} while (0)
#define DG_TDQ (4 * DG_WG)   /* local list of new vertices, flushed when nearly full */

__kernel void dg_bfs_td(DG_ADJ_ARGS, __global const int *q_in, __global int *q_out,
                        __global uint *lv, const uint ring, const int level,
                        __global int *dist, __global int *parent, __global uint *vis,
                        __global int *hubs, const uint hub, const uint want_m)
{
    __local uint l_off[DG_WG], l_base[DG_WG];
    __local int l_v[DG_WG], l_q[DG_TDQ];
    __local uint l_n, l_m, l_out;
    const uint lid = get_local_id(0);
    __global uint *cur = DG_LV(lv, ring, level);
    const uint n_in = cur[0];
    __global uint *nx = DG_LV(lv, ring, level + 1);
    uint chunk, seen = 0;
    if (get_global_id(0) == 0) {
        __global uint *z = DG_LV(lv, ring, level + 2);
        z[0] = z[1] = z[2] = z[3] = 0;
    }
    if (lid == 0) { l_n = 0; l_m = 0; }
    for (chunk = get_group_id(0); (size_t)chunk * DG_WG < n_in; chunk += get_num_groups(0)) {
        const uint i = chunk * DG_WG + lid;
        uint deg = 0, base = 0, total, e0;
        int v = -1;
        if (i < n_in) {
            v = q_in[i];
            base = dg_row(DG_ADJ, v, &deg);
            if (deg > hub) { hubs[atomic_inc(&cur[3])] = v; deg = 0; }
        }
        l_v[lid] = v; l_base[lid] = base; l_off[lid] = deg;
        total = dg_local_scan(l_off, lid);
        seen += total;
        for (e0 = 0; e0 < total; e0 += DG_WG) {
            const uint e = e0 + lid;
            if (e < total) {
                const uint j = dg_local_owner(l_off, DG_WG, e);
                dg_td_visit(DG_ADJ, pool[dg_entry(DG_ADJ, l_base[j], e - l_off[j])], l_v[j], level,
                            dist, parent, vis, l_q, &l_n, &l_m, want_m);
            }
            DG_TD_FLUSH(0);
        }
    }
    DG_TD_FLUSH(1);
    if (lid == 0 && seen) atomic_add(&cur[2], seen);
}

/* The hub lists of the level: piece k (DG_PIECE edges) of all of them goes to work-group
   k % groups. The hubs are read DG_WG at a time by the whole group, their piece counts
   scanned in local memory, and each owned piece's hub found by binary search. */
__kernel void dg_bfs_td_hubs(DG_ADJ_ARGS, __global const int *hubs, __global int *q_out,
                             __global uint *lv, const uint ring, const int level,
                             __global int *dist, __global int *parent, __global uint *vis,
                             const uint want_m)
{
    __local int l_q[DG_TDQ], l_v[DG_WG];
    __local uint l_off[DG_WG], l_base[DG_WG], l_deg[DG_WG];
    __local uint l_n, l_m, l_out;
    const uint lid = get_local_id(0), grp = get_group_id(0), ngrp = get_num_groups(0);
    __global uint *cur = DG_LV(lv, ring, level);
    const uint nh = cur[3];
    __global uint *nx = DG_LV(lv, ring, level + 1);
    uint h0, k = 0, seen = 0;
    if (lid == 0) { l_n = 0; l_m = 0; }
    for (h0 = 0; h0 < nh; h0 += DG_WG) {
        uint deg = 0, base = 0, tot, j;
        int v = -1;
        if (h0 + lid < nh) { v = hubs[h0 + lid]; base = dg_row(DG_ADJ, v, &deg); }
        l_v[lid] = v; l_base[lid] = base; l_deg[lid] = deg;
        l_off[lid] = (deg + DG_PIECE - 1) / DG_PIECE;
        tot = dg_local_scan(l_off, lid);
        for (j = (grp + ngrp - k % ngrp) % ngrp; j < tot; j += ngrp) {
            const uint o = dg_local_owner(l_off, DG_WG, j), lo = (j - l_off[o]) * DG_PIECE;
            const uint hi = min(l_deg[o], lo + DG_PIECE);
            uint e0;
            for (e0 = lo; e0 < hi; e0 += DG_WG) {
                const uint e = e0 + lid;
                if (e < hi)
                    dg_td_visit(DG_ADJ, pool[dg_entry(DG_ADJ, l_base[o], e)], l_v[o], level, dist, parent,
                                vis, l_q, &l_n, &l_m, want_m);
                DG_TD_FLUSH(0);
            }
            seen += hi - lo;
        }
        k += tot;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    DG_TD_FLUSH(1);
    if (lid == 0 && seen) atomic_add(&cur[2], seen);
}

/* Reached vertices and the sum of their degrees (edges a level-synchronous search expands),
   into lv[0] and lv[1], for the strategies without level counters. */
__kernel void dg_bfs_count(DG_ADJ_ARGS, __global const int *dist, const uint dist_off,
                           const uint n, __global uint *lv)
{
    __local uint l_r, l_e;
    const uint lid = get_local_id(0);
    size_t v;
    uint r = 0, e = 0;
    if (lid == 0) { l_r = 0; l_e = 0; }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (v = get_global_id(0); v < n; v += get_global_size(0))
        if (dist[dist_off + v] >= 0) { r++; e += dg_degree(DG_ADJ, (int)v); }
    if (r) { atomic_add(&l_r, r); atomic_add(&l_e, e); }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0 && l_r) { atomic_add(&lv[0], l_r); atomic_add(&lv[1], l_e); }
}

/* ---- the bottom-up steps of DG_BFS_DIRECTION_OPT ----
   Every unvisited vertex looks through its in-neighbours (DG_ADJ is the in-store) for one in
   the current frontier bitmap and stops at the first. Found vertices go into the next bitmap
   and the queue too, so that switching back to top-down costs nothing. The degree for the
   level counters comes from the out-store (odir, opool). */
__kernel void dg_bfs_bu(DG_ADJ_ARGS, __global const int *odir, __global const int *opool,
                        __global const uint *front, __global uint *next, __global uint *vis,
                        __global int *dist, __global int *parent, __global int *q_out,
                        __global uint *lv, const uint ring, const int level, const uint n)
{
    __local int l_q[DG_WG];
    __local uint l_n, l_m, l_out, l_e;
    const uint lid = get_local_id(0);
    const size_t gsize = get_global_size(0);
    const size_t rounds = (n + gsize - 1) / gsize;
    __global uint *nx = DG_LV(lv, ring, level + 1);
    size_t r;
    uint seen = 0;
    if (get_global_id(0) == 0) {
        __global uint *z = DG_LV(lv, ring, level + 2);
        z[0] = z[1] = z[2] = z[3] = 0;
    }
    if (lid == 0) l_e = 0;
    for (r = 0; r < rounds; r++) {
        const size_t v = r * gsize + get_global_id(0);
        if (lid == 0) { l_n = 0; l_m = 0; }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (v < n && !dg_bit(vis, (int)v)) {
            uint deg, k;
            const uint base = dg_row(DG_ADJ, (int)v, &deg);
            for (k = 0; k < deg; k++) {
                const int u = pool[dg_entry(DG_ADJ, base, k)];
                if (dg_bit(front, u)) {
                    const uint m = 1u << ((uint)v & 31u);
                    uint od;
                    dist[v] = level + 1;
                    if (parent) parent[v] = u;
                    atomic_or(&vis[v >> 5], m);
                    atomic_or(&next[v >> 5], m);
                    l_q[atomic_inc(&l_n)] = (int)v;
                    dg_row(odir, 0, opool, idx, latab, (int)v, &od);
                    atomic_add(&l_m, od);
                    k++;
                    break;
                }
            }
            seen += k;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid == 0 && l_n) { l_out = atomic_add(&nx[0], l_n); atomic_add(&nx[1], l_m); }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < l_n) q_out[l_out + lid] = l_q[lid];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (seen) atomic_add(&l_e, seen);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0 && l_e) atomic_add(&DG_LV(lv, ring, level)[2], l_e);
}

/* Sets the bits of the level's queue in a (cleared) bitmap: top-down to bottom-up. */
__kernel void dg_bfs_queue_to_bitmap(__global const int *q, __global const uint *lv, const uint ring,
                                     const int level, __global uint *bm)
{
    const uint n = DG_LV(lv, ring, level)[0];
    size_t i;
    for (i = get_global_id(0); i < n; i += get_global_size(0)) {
        const int v = q[i];
        atomic_or(&bm[(uint)v >> 5], 1u << ((uint)v & 31u));
    }
}

/* ---- DG_BFS_MASK: Harish & Narayanan, "mark, then visit" (004) ----
   Kernel 1 expands the frontier mask into an update mask; kernel 2 visits the updated
   vertices: distance, visited, next frontier, and a flag (flag[level & 1]) saying it did. */
__kernel void dg_bfs_mask_expand(DG_ADJ_ARGS, __global uchar *fmask, __global uchar *umask,
                                 __global const uchar *vis, const uint n)
{
    const size_t v = get_global_id(0);
    uint deg, k, base;
    if (v >= n || !fmask[v]) return;
    fmask[v] = 0;
    base = dg_row(DG_ADJ, (int)v, &deg);
    for (k = 0; k < deg; k++) {
        const int u = pool[dg_entry(DG_ADJ, base, k)];
        if (!vis[u]) umask[u] = 1;
    }
}
__kernel void dg_bfs_mask_visit(__global uchar *fmask, __global uchar *umask, __global uchar *vis,
                                __global int *dist, const int level, const uint n, __global uint *flag)
{
    const size_t v = get_global_id(0);
    if (v == 0) flag[(level + 1) & 1] = 0;
    if (v >= n || !umask[v]) return;
    dist[v] = level + 1;
    vis[v] = 1; fmask[v] = 1; umask[v] = 0;
    flag[level & 1] = 1;
}

/* ---- DG_BFS_EDGE_CHUNK: edge chunks of the 001 paper ----
   off = exclusive scan of all degrees (n + 1 entries); chunk c covers edges
   [c*mec, (c+1)*mec) of that numbering and sv[c] is the vertex owning edge c*mec (algorithm 4).
   Each level, one work-item per chunk walks its edges and expands those of vertices at the
   current level (algorithm 3): a hub is shared by many work-items, and one work-item serves
   several small vertices. Rebuilt only when the graph changed. */
__kernel void dg_ec_level(DG_ADJ_ARGS, __global const uint *off, __global const int *sv,
                          const uint nchunks, const uint mec, const uint total,
                          __global int *dist, const int level, __global uint *flag)
{
    const size_t c = get_global_id(0);
    uint e, end;
    int v, found = 0;
    if (c == 0) flag[(level + 1) & 1] = 0;
    if (c >= nchunks) return;
    e = (uint)c * mec;
    end = min(e + mec, total);
    v = sv[c];
    while (e < end) {
        const uint vend = off[v + 1], stop = min(vend, end);
        if (dist[v] == level) {
            uint deg, k;
            const uint base = dg_row(DG_ADJ, v, &deg);
            for (k = e - off[v]; k < stop - off[v]; k++) {
                const int u = pool[dg_entry(DG_ADJ, base, k)];
                if (dist[u] == -1) { dist[u] = level + 1; found = 1; }
            }
        }
        e = stop;
        v++;
        while (e < end && off[v + 1] <= e) v++;
    }
    if (found) flag[level & 1] = 1;
}

/* ---- DG_BFS_QUEUE: the public advance + filter, with these two functions ----
   data = [n, dist[0..n), claimed[0..n)]. The advance keeps unvisited neighbours and sets
   their distance (every writer writes the same level); the filter keeps the first copy. */
inline int dg_bfs_queue_visit(int s, int d, float w, __global int *data)
{
    __global int *dist = data + 1;
    (void)w;
    if (dist[d] != -1) return 0;
    dist[d] = dist[s] + 1;
    return 1;
}
inline int dg_bfs_queue_first(int v, __global int *data)
{
    return atomic_xchg(&data[1 + data[0] + v], 1) == 0;
}
DG_DEFINE_ADVANCE(dg_bfs_queue_advance, dg_bfs_queue_visit)
DG_DEFINE_FILTER(dg_bfs_queue_filter, dg_bfs_queue_first)

/* ---- parents from distances (strategies that do not record them): any in-neighbour one
   level closer. DG_ADJ is the in-store. */
__kernel void dg_bfs_parents(DG_ADJ_ARGS, __global const int *dist, const uint dist_off,
                             __global int *parent, const uint n)
{
    const size_t v = get_global_id(0);
    uint deg, k, base;
    int d, p = -1;
    if (v >= n) return;
    d = dist[dist_off + v];
    if (d == 0) p = (int)v;
    else if (d > 0) {
        base = dg_row(DG_ADJ, (int)v, &deg);
        for (k = 0; k < deg; k++) {
            const int u = pool[dg_entry(DG_ADJ, base, k)];
            if (dist[dist_off + u] == d - 1) { p = u; break; }
        }
    }
    parent[v] = p;
}
