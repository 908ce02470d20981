/* kernels/40_bfs.cl - breadth-first search: four strategies and their helpers.

   Distances are int (-1: not reached). Level counters live on the device in a ring of `ring`
   slots of DG_LV_WORDS uints, slot L % ring for level L; the words are named DG_LV_* in
   00_shared.h (vertices in the level's frontier, sum of their out-degrees, adjacency entries
   inspected while expanding it, hub lists handed to dg_bfs_td_hubs). The kernel of level L
   appends to slot L+1 and clears slot L+2, so several levels can be queued without reading
   anything back. */

/* Index of level L's slot in the ring lv. */
inline size_t dg_lv_at(const uint ring, const int level)
{
    return DG_LV_WORDS * (size_t)((uint)level % ring);
}
/* Level L's slot. */
inline __global uint *dg_lv(__global uint *lv, const uint ring, const int level)
{
    return lv + dg_lv_at(ring, level);
}
inline void dg_lv_clear(__global uint *slot)
{
    uint i;
    for (i = 0; i < DG_LV_WORDS; i++) slot[i] = 0;
}

/* Sets bit v of a bitmap (atomically: other work-items set bits of the same word). */
inline void dg_bfs_mark(__global uint *bm, const int v)
{
    atomic_or(&bm[(uint)v >> 5], 1u << ((uint)v & 31u));
}

/* The start of a search: seeds[0..ns) are the sources (distinct), seeds[ns..ns+nt) the targets
   (distinct, none a source). A source gets distance 0 (at dist[doff + s]), is its own parent,
   visited (vis, or the masks of DG_BFS_MASK), and queue 0 lists them; a target gets
   DG_BFS_TARGET. Slots 0..2 set: ns vertices of degree sum m0 at level 0; nt targets to find
   (stop 1: there were targets and all are sources, at distance 0). One work-item per seed. */
__kernel void dg_bfs_init(__global int *dist, const uint doff, __global int *parent,
                          __global uint *vis, __global int *q, __global uchar *fmask,
                          __global uchar *vmask, __global uint *lv, const uint ring,
                          __global const int *seeds, const uint ns, const uint nt,
                          const uint m0, const uint stop)
{
    const size_t i = get_global_id(0);
    if (i < ns) {
        const int s = seeds[i];
        dist[doff + s] = 0;
        if (parent) parent[s] = s;
        if (vis) dg_bfs_mark(vis, s);
        if (q) q[i] = s;
        if (fmask) { fmask[s] = 1; vmask[s] = 1; }
    } else if (i < (size_t)ns + nt) {
        dist[doff + seeds[i]] = DG_BFS_TARGET;
    }
    if (i == 0 && lv) {
        __global uint *s0 = dg_lv(lv, ring, 0);
        dg_lv_clear(s0);
        s0[DG_LV_VERTICES] = ns;
        s0[DG_LV_DEGREES] = m0;
        dg_lv_clear(dg_lv(lv, ring, 1));
        dg_lv_clear(dg_lv(lv, ring, 2));
        lv[DG_LV_TARGETS] = nt;
        lv[DG_LV_STOP] = stop;
    }
}

/* After an early-exit search: targets never reached get -1 again. */
__kernel void dg_bfs_unmark(__global int *dist, __global const int *seeds, const uint ns, const uint nt)
{
    const size_t i = get_global_id(0);
    if (i < nt && dist[seeds[ns + i]] == DG_BFS_TARGET) dist[seeds[ns + i]] = -1;
}

/* Whether the kernel of `level` has nothing to do: every target is reached, at distances
   below level + 1 (stop: the level's DG_LV_STOP word). dg_bfs_stopped reads it once per
   work-group, so that all of its work-items take the same path through the barriers. */
inline int dg_bfs_past_stop(const uint stop, const int level)
{
    return stop != 0u && (uint)level + 1u >= stop;
}
inline int dg_bfs_stopped(__global const uint *lv, const int level, __local uint *l_stop)
{
    if (get_local_id(0) == 0) *l_stop = lv[DG_LV_STOP];
    barrier(CLK_LOCAL_MEM_FENCE);
    return dg_bfs_past_stop(*l_stop, level);
}

/* The vertices a work-group finds for the next level: their distance and parent, and the
   group's local list of them (l_q, its length *l_n, the sum of their out-degrees *l_m), which
   DG_LIST_FLUSH appends to the next queue. */
typedef struct dg_bfs_found {
    __global int *dist, *parent;   /* parent: NULL when not recorded */
    __global uint *vis;            /* the visited bitmap */
    __local int *l_q;
    __local uint *l_n, *l_m;
    __global uint *lv;             /* the level buffer: its DG_LV_TARGETS and DG_LV_STOP words */
    int level;                     /* the next level: their distance */
    uint want_m;                   /* top-down: sum their degrees (direction-optimizing) */
} dg_bfs_found;

/* u, reached from p, gets distance `level` (and its parent): the last target reached says stop
   after this level. (Every kernel's way of recording a found vertex starts here.) */
inline void dg_bfs_reach(__global int *dist, __global int *parent, __global uint *lv, const int level,
                         const int u, const int p)
{
    if (dist[u] == DG_BFS_TARGET && atomic_dec(&lv[DG_LV_TARGETS]) == 1u)
        lv[DG_LV_STOP] = (uint)level + 1u;
    dist[u] = level;
    if (parent) parent[u] = p;
}

/* Records u, reached from p, of out-degree m, as found (the last target found says stop). */
inline void dg_bfs_found_add(const dg_bfs_found f, const int u, const int p, const uint m)
{
    dg_bfs_reach(f.dist, f.parent, f.lv, f.level, u, p);
    f.l_q[atomic_inc(f.l_n)] = u;
    if (m) atomic_add(f.l_m, m);
}

/* A work-group's counts, once after its last flush (by one work-item): the degrees of the
   vertices it found into the next level's slot nx, the entries it inspected into the level's
   slot cur. */
inline void dg_bfs_counts(__global uint *cur, __global uint *nx, const uint m, const uint seen)
{
    if (m) atomic_add(&nx[DG_LV_DEGREES], m);
    if (seen) atomic_add(&cur[DG_LV_INSPECTED], seen);
}

/* ---- DG_BFS_TOP_DOWN / the top-down steps of DG_BFS_DIRECTION_OPT ----
   Persistent work-groups take DG_WG frontier vertices at a time; the group scans their degrees
   in local memory and expands all their edges together, one edge per work-item per round
   (owner found by binary search in local memory), so small lists share rounds. Vertices of
   degree > hub go to the level's hub list instead (count in DG_LV_HUBS), and dg_bfs_td_hubs
   spreads their edges over all work-groups in pieces of DG_PIECE: no work-group is left
   holding a 100000-edge list alone (per 003: cooperation instead of nested launches).
   A neighbour is claimed in the visited bitmap (test, then atomic_or); winners are gathered
   in the local list (DG_LOCAL_LIST) and appended with one global atomic per flush.
   Kernels with local arrays sized by DG_WG require that work-group size (the host launches
   them with local = d->wg, the DG_WG it compiled with). */

/* Work-item lid's list of a group of DG_WG: vertex in[i] (-1 past n) and the pool index of its
   neighbour 0, into l_v[lid] and l_base[lid]; returns its degree (0 past n). */
inline uint dg_td_list(DG_ADJ_ARGS, __global const int *in, const uint i, const uint n,
                       __local int *l_v, __local dg_pos *l_base, const uint lid)
{
    uint deg = 0;
    dg_pos base = 0;
    int v = -1;
    if (i < n) { v = in[i]; base = dg_row(DG_ADJ, v, &deg); }
    l_v[lid] = v; l_base[lid] = base;
    return deg;
}

/* Claims u (a neighbour of p) for the next level; the winner is recorded as found. */
inline void dg_td_visit(DG_ADJ_ARGS, const dg_bfs_found f, const int u, const int p)
{
    if (dg_claim(f.vis, u)) dg_bfs_found_add(f, u, p, f.want_m ? dg_degree(DG_ADJ, u) : 0u);
}

/* ---- directions decided on the device (DG_BFS_DIRECTION_OPT, levels queued) ----
   The host queues several levels, each a launch of dg_bfs_td, dg_bfs_td_hubs and dg_bfs_bu,
   and reads the counters back once for all of them. Each of those kernels decides the level's
   direction itself, from the counters the levels before left (the same rule as the host's,
   [Beamer 2012]): top-down turns bottom-up when the frontier's out-degrees x alpha pass the
   out-degrees not yet reached and the frontier grew; bottom-up turns top-down when the
   frontier is under n / beta and shrank. Level0's direction and its count of out-degrees not
   yet reached (mu0) come from the host. The kernel of the other direction returns at once
   (on a CPU device the GPU kernels pass their barriers with no work instead: see dg_bfs_td);
   work-item 0 writes the decision into the level's slot for the next level and the host.
   Bitmaps: a bottom-up level L finds its frontier in bm[L % 3] (or, after a top-down level,
   as dist == L), sets the next one's in bm[(L + 1) % 3], and either direction clears
   bm[(L + 2) % 3] for the level after. mode0 = 0: the host decides (one level a read-back)
   and none of this happens. *prev_mode: the direction of the level before (level0: mode0). */
inline uint dg_bfs_mode(__global uint *lv, const uint ring, const int level, const int level0,
                        const uint mode0, const ulong mu0, const float alpha, const float nbeta,
                        uint *prev_mode)
{
    __global uint *cur = dg_lv(lv, ring, level);
    uint mode = mode0;
    ulong mu = mu0;
    *prev_mode = mode0;
    if (level != level0) {
        __global const uint *pv = dg_lv(lv, ring, level - 1);
        const uint nf = cur[DG_LV_VERTICES], prev = pv[DG_LV_VERTICES];
        const ulong mf = cur[DG_LV_DEGREES], pmu = pv[DG_LV_MU] | (ulong)pv[DG_LV_MU + 1] << 32;
        mu = pmu > mf ? pmu - mf : 0;
        mode = *prev_mode = pv[DG_LV_MODE];
        if (mode == DG_BFS_MODE_TD) {
            if ((float)mf * alpha > (float)mu && nf > prev) mode = DG_BFS_MODE_BU;
        } else if ((float)nf < nbeta && nf < prev) {
            mode = DG_BFS_MODE_TD;
        }
    }
    if (get_global_id(0) == 0) {
        cur[DG_LV_MODE] = mode;
        cur[DG_LV_MU] = (uint)mu;
        cur[DG_LV_MU + 1] = (uint)(mu >> 32);
    }
    return mode;
}
/* Clears words [0, n) of bm, the whole launch together. */
inline void dg_bfs_zero(__global uint *bm, const uint n)
{
    size_t i;
    for (i = get_global_id(0); i < n; i += get_global_size(0)) bm[i] = 0;
}

/* The parameters of the top-down and bottom-up kernels, the GPU's and the CPU device's
   (dg_bfs_*_flat) alike: the host sets the same arguments on either (dg__bfs_td_args,
   dg__bfs_bu_args). */
#define DG_BFS_TD_ARGS DG_ADJ_ARGS, __global const int *q_in, __global int *q_out, \
    __global uint *lv, const uint ring, const int level, \
    __global int *dist, __global int *parent, __global uint *vis, \
    __global int *hubs, const uint hub, const uint want_m, \
    __global uint *zero, const uint words, const int level0, const uint mode0, \
    const ulong mu0, const float alpha, const float nbeta
#define DG_BFS_BU_ARGS DG_ADJ_ARGS, __global const int *odir, __global const int *opool, \
    __global const uint *front, __global uint *next, __global uint *vis, \
    __global int *dist, __global int *parent, __global int *q_out, \
    __global uint *lv, const uint ring, const int level, const uint n, \
    __global uint *zero, const uint words, const int level0, const uint mode0, \
    const ulong mu0, const float alpha, const float nbeta, const uint dist0, const uint lo

__kernel __attribute__((reqd_work_group_size(DG_WG, 1, 1)))
void dg_bfs_td(DG_BFS_TD_ARGS)
{
    __local uint l_off[DG_WG];
    __local dg_pos l_base[DG_WG];
    __local int l_v[DG_WG], l_q[DG_LOCAL_LIST];
    __local uint l_n, l_m, l_out, l_stop;
    const uint lid = get_local_id(0);
    __global uint *cur = dg_lv(lv, ring, level), *nx = dg_lv(lv, ring, level + 1);
    const uint n_in = dg_bfs_stopped(lv, level, &l_stop) ? 0u : cur[DG_LV_VERTICES];
    const dg_bfs_found f = { dist, parent, vis, l_q, &l_n, &l_m, lv, level + 1, want_m };
    uint chunk, seen = 0, prev;
    if (get_global_id(0) == 0) dg_lv_clear(dg_lv(lv, ring, level + 2));
    /* The other direction's level: a GPU leaves at once. A CPU device (DG_CPU) runs through it
       with no work instead: PoCL's optimised build ran what follows a kernel's barriers after an
       early return for every work-item, lid == 0 tests included. (Running through on a GPU cost
       an H200 20-40% of a Kronecker search, 0.63 -> 0.81-0.91 ms: bench/NOTES.md, issue 17.) */
    const uint other = mode0 && dg_bfs_mode(lv, ring, level, level0, mode0, mu0, alpha, nbeta, &prev) != DG_BFS_MODE_TD;
#ifndef DG_CPU
    if (other) return;
#endif
    if (zero && n_in && !other) dg_bfs_zero(zero, words);
    if (lid == 0) { l_n = 0; l_m = 0; }
    for (chunk = get_group_id(0); !other && (size_t)chunk * DG_WG < n_in; chunk += get_num_groups(0)) {
        uint deg = dg_td_list(DG_ADJ, q_in, chunk * DG_WG + lid, n_in, l_v, l_base, lid), total, e0;
        if (deg > hub) { hubs[atomic_inc(&cur[DG_LV_HUBS])] = l_v[lid]; deg = 0; }
        l_off[lid] = deg;
        total = dg_local_scan(l_off, lid);
        seen += total;
        for (e0 = 0; e0 < total; e0 += DG_WG) {
            const uint e = e0 + lid;
            if (e < total) {
                const uint j = dg_local_owner(l_off, DG_WG, e);
                dg_td_visit(DG_ADJ, f, dg_neighbor(DG_ADJ, l_base[j], e - l_off[j]), l_v[j]);
            }
            DG_LIST_FLUSH(0, lid, l_q, l_n, l_out, nx + DG_LV_VERTICES, q_out);
        }
    }
    DG_LIST_FLUSH(1, lid, l_q, l_n, l_out, nx + DG_LV_VERTICES, q_out);
    if (lid == 0) dg_bfs_counts(cur, nx, l_m, seen);
}

/* dg_bfs_td for a CPU device (PoCL): the same results and counters without local memory or
   barriers (see dg_bfs_bu_flat): each work-item expands whole frontier lists itself, one after
   another, DG_FLAT_BATCH at a time (the batches spread over the work-groups first,
   dg_flat_first, so that a short frontier and a group's hubs are spread), sums the found
   vertices' degrees together (dg_flat_degrees), and appends them DG_FLAT_LIST at a time with
   one atomic (dg_flat_append). `hubs` and `hub` are not used: a CPU thread walks a long list
   as fast as pieces of it. */
__kernel void dg_bfs_td_flat(DG_BFS_TD_ARGS)
{
    __global uint *cur = dg_lv(lv, ring, level), *nx = dg_lv(lv, ring, level + 1);
    const uint n_in = dg_bfs_past_stop(lv[DG_LV_STOP], level) ? 0u : cur[DG_LV_VERTICES];
    const size_t gsize = get_global_size(0);
    uint seen = 0, m = 0, nf = 0, prev, k;
    int found[DG_FLAT_LIST];
    size_t x;
    (void)hubs; (void)hub;
    if (get_global_id(0) == 0) dg_lv_clear(dg_lv(lv, ring, level + 2));
    if (mode0 && dg_bfs_mode(lv, ring, level, level0, mode0, mu0, alpha, nbeta, &prev) != DG_BFS_MODE_TD) return;
    if (zero && n_in) dg_bfs_zero(zero, words);
    for (x = (size_t)dg_flat_first() * DG_FLAT_BATCH; x < n_in; x += gsize * DG_FLAT_BATCH) {
        const uint nb = n_in - x < DG_FLAT_BATCH ? (uint)(n_in - x) : DG_FLAT_BATCH;
        dg_pos rows[DG_FLAT_BATCH];
        uint degs[DG_FLAT_BATCH], j;
        for (j = 0; j < nb; j++) rows[j] = dg_row(DG_ADJ, q_in[x + j], &degs[j]);   /* (DG_FLAT_BATCH) */
        for (j = 0; j < nb; j++) {
            const int v = q_in[x + j];
            const dg_pos base = rows[j];
            const uint deg = degs[j];
            dg_pos e = 0;
            uint r = 0;
            seen += deg;
            for (k = 0; k < deg; k++) {
                const int u = pool[dg_walk(DG_ADJ, base, k, deg, &e, &r)];
                if (!dg_claim(vis, u)) continue;
                dg_bfs_reach(dist, parent, lv, level + 1, u, v);
                found[nf++] = u;
                if (nf < DG_FLAT_LIST) continue;
                if (want_m) m += dg_flat_degrees(DG_ADJ, found, nf);
                nf = dg_flat_append(found, nf, &nx[DG_LV_VERTICES], q_out);
            }
        }
    }
    if (want_m) m += dg_flat_degrees(DG_ADJ, found, nf);
    dg_flat_append(found, nf, &nx[DG_LV_VERTICES], q_out);
    dg_bfs_counts(cur, nx, m, seen);
}

/* The hub lists of the level: piece k (DG_PIECE edges) of all of them goes to work-group
   k % groups. The hubs are read DG_WG at a time by the whole group, their piece counts
   scanned in local memory, and each owned piece's hub found by binary search. */
__kernel __attribute__((reqd_work_group_size(DG_WG, 1, 1)))
void dg_bfs_td_hubs(DG_ADJ_ARGS, __global const int *hubs, __global int *q_out,
                    __global uint *lv, const uint ring, const int level,
                    __global int *dist, __global int *parent, __global uint *vis,
                    const uint want_m)
{
    __local int l_q[DG_LOCAL_LIST], l_v[DG_WG];
    __local uint l_off[DG_WG], l_deg[DG_WG];
    __local dg_pos l_base[DG_WG];
    __local uint l_n, l_m, l_out, l_stop;
    const uint lid = get_local_id(0), grp = get_group_id(0), ngrp = get_num_groups(0);
    __global uint *cur = dg_lv(lv, ring, level), *nx = dg_lv(lv, ring, level + 1);
    const uint nh = dg_bfs_stopped(lv, level, &l_stop) ? 0u : cur[DG_LV_HUBS];
    const dg_bfs_found f = { dist, parent, vis, l_q, &l_n, &l_m, lv, level + 1, want_m };
    uint h0, k = 0, seen = 0;
    if (lid == 0) { l_n = 0; l_m = 0; }
    for (h0 = 0; h0 < nh; h0 += DG_WG) {
        const uint deg = dg_td_list(DG_ADJ, hubs, h0 + lid, nh, l_v, l_base, lid);
        uint tot, j;
        l_deg[lid] = deg;
        l_off[lid] = (deg + DG_PIECE - 1) / DG_PIECE;
        tot = dg_local_scan(l_off, lid);
        for (j = (grp + ngrp - k % ngrp) % ngrp; j < tot; j += ngrp) {
            const uint o = dg_local_owner(l_off, DG_WG, j), lo = (j - l_off[o]) * DG_PIECE;
            const uint hi = min(l_deg[o], lo + DG_PIECE);
            uint e0;
            for (e0 = lo; e0 < hi; e0 += DG_WG) {
                const uint e = e0 + lid;
                if (e < hi) dg_td_visit(DG_ADJ, f, dg_neighbor(DG_ADJ, l_base[o], e), l_v[o]);
                DG_LIST_FLUSH(0, lid, l_q, l_n, l_out, nx + DG_LV_VERTICES, q_out);
            }
            seen += hi - lo;
        }
        k += tot;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    DG_LIST_FLUSH(1, lid, l_q, l_n, l_out, nx + DG_LV_VERTICES, q_out);
    if (lid == 0) dg_bfs_counts(cur, nx, l_m, seen);
}

/* ---- deep searches: many top-down levels in one launch (DG_DEEP_* in 00_shared.h) ----
   A grid or a road network has thousands of levels of a few thousand vertices: a launch and a
   read-back a level (~20 us) cost more than the level's work. dg_bfs_deep runs level after
   level with G work-groups that must all be resident at once (the host launches at most one
   per compute unit), meeting at a device-wide barrier after each level: one atomic arrival
   counter, and a generation word the last arrival moves on. Data that other groups wrote
   during the launch (the queue, the level counters) is read through volatile pointers, past
   the compute unit's cache. A group that waits more than spin_max polls at a barrier swaps
   the generation to DG_DEEP_ABORT | k (a compare-and-swap, so either every group passes the
   barrier or none does): the groups were not all resident, the level before that barrier is
   incomplete, and the host redoes it with the one-launch-a-level kernels (which append to the
   partial next queue: claims already made stay made). The loop leaves, the same way in every
   group (every group reads the same counters after the barrier), when a level finds nothing,
   the targets are found, the frontier outgrows vmax vertices or emax degrees (the ordinary
   kernels with all groups and the hub kernel take over), or, with bottom_up, when the
   direction-optimizing rule would switch (degrees x alpha > mu, the degrees of the unreached
   part, while the frontier grows). The frontier of a level is cut into G even pieces. */

/* The counters lid 0 reads after a barrier, for the next level: its vertices, their degrees,
   the largest, the stop word; and the entries the level just done read. */
typedef struct dg_deep_next { uint n, m, maxd, stop, seen; } dg_deep_next;
inline dg_deep_next dg_deep_read(volatile __global const uint *lv, const uint ring, const int level)
{
    dg_deep_next x;
    const size_t c = dg_lv_at(ring, level), nx = dg_lv_at(ring, level + 1);
    x.n = lv[nx + DG_LV_VERTICES];
    x.m = lv[nx + DG_LV_DEGREES];
    x.maxd = lv[nx + DG_LV_MAXDEG];
    x.stop = lv[DG_LV_STOP];
    x.seen = lv[c + DG_LV_INSPECTED];
    return x;
}

__kernel __attribute__((reqd_work_group_size(DG_WG, 1, 1)))
void dg_bfs_deep(DG_ADJ_ARGS, __global int *qa, __global int *qb, __global uint *lv, const uint ring, const int level0, const uint max_levels,
                 __global int *dist, __global int *parent, __global uint *vis,
                 const uint bottom_up, const float alpha, const ulong mu0, const uint prev0,
                 const uint spin_max)
{
    __local uint l_off[DG_WG];
    __local dg_pos l_base[DG_WG];
    __local int l_v[DG_WG], l_q[DG_LOCAL_LIST];
    __local uint l_n, l_m, l_out, l_in, l_maxd, l_go, l_got, l_end, l_t;
    __local int l_level;
    volatile __global uint *vlv = lv;
    __global uint *ctl = lv + DG_LV_DEEP;
    const uint lid = get_local_id(0), grp = get_group_id(0), G = get_num_groups(0);
    const uint vmax = G * DG_DEEP_VERTICES * DG_WG, emax = G * DG_DEEP_EDGES * DG_WG;
    /* lid 0's own: what the loop has done (the same in every group), and the next level's
       counters as read after the last barrier (level0's: from the ring, the largest degree
       vouched for by the host) */
    ulong mu = mu0, reached = 0, inspected = 0, degrees = 0;
    uint k = 0, levels = 0, prev = prev0, finished = 0, took_part = 0;
    dg_deep_next nxt;
    nxt.n = nxt.m = nxt.maxd = nxt.stop = nxt.seen = 0;
    if (lid == 0) {
        l_t = 0; l_level = level0;
        l_end = (*(volatile __global uint *)(ctl + DG_DEEP_GEN) & DG_DEEP_ABORT) != 0u;   /* started
                                 after an abort (at barrier 1, the only one it can miss): no part */
        took_part = !l_end;
        nxt.n = vlv[dg_lv_at(ring, level0) + DG_LV_VERTICES];
        nxt.m = vlv[dg_lv_at(ring, level0) + DG_LV_DEGREES];
        nxt.stop = vlv[DG_LV_STOP];
    }
    barrier(CLK_LOCAL_MEM_FENCE);                /* l_level before anyone reads it */
    /* One exit, at the top (PoCL wants a loop with barriers to leave from one place): lid 0
       decides whether this level runs, from what the last barrier left. */
    for (;;) {
        const int level = l_level;               /* read before the barrier below: stable */
        if (lid == 0) {
            l_go = 0;
            if (!l_end && l_t < max_levels) {
                /* stop: the last target is no farther than this level (a group already in
                   this level may be setting it now, to level + 2 or more: no stop yet) */
                if ((nxt.stop != 0u && (uint)level + 1u >= nxt.stop) || nxt.n == 0u) finished = 1;
                else if (nxt.n <= vmax && nxt.m <= emax && nxt.maxd <= DG_BFS_HUB &&
                         !(bottom_up && (float)nxt.m * alpha > (float)mu && nxt.n > prev)) {
                    l_go = 1; l_in = nxt.n; prev = nxt.n;
                }
            }
            l_n = 0; l_m = 0; l_got = 0; l_maxd = 0;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (!l_go) break;
        {
            __global const int *q_in = (level & 1) ? qb : qa;
            volatile __global const int *vq_in = q_in;
            __global int *q_out = (level & 1) ? qa : qb;
            __global uint *cur = lv + dg_lv_at(ring, level), *nx = lv + dg_lv_at(ring, level + 1);
            const dg_bfs_found f = { dist, parent, vis, l_q, &l_n, &l_m, lv, level + 1, 1u };
            const uint n_in = l_in, per = min((n_in + G - 1) / G, (uint)DG_WG);
            uint chunk;
            if (grp == 0 && lid == 0) dg_lv_clear(dg_lv(lv, ring, level + 2));
            for (chunk = grp; chunk * per < n_in; chunk += G) {
                const uint i = chunk * per + lid;
                uint deg = 0, total, e0;
                dg_pos base = 0;
                int v = -1;
                if (lid < per && i < n_in) { v = vq_in[i]; base = dg_row(DG_ADJ, v, &deg); }
                l_v[lid] = v; l_base[lid] = base; l_off[lid] = deg;
                total = dg_local_scan(l_off, lid);
                if (lid == 0) l_got += total;
                for (e0 = 0; e0 < total; e0 += DG_WG) {
                    const uint e = e0 + lid;
                    if (e < total) {
                        const uint j = dg_local_owner(l_off, DG_WG, e);
                        const int u = dg_neighbor(DG_ADJ, l_base[j], e - l_off[j]);
                        const uint m = dg_degree(DG_ADJ, u);   /* read beside the claim's test */
                        if (dg_claim(vis, u)) {
                            dg_bfs_found_add(f, u, l_v[j], m);
                            atomic_max(&l_maxd, m);
                        }
                    }
                    DG_LIST_FLUSH(0, lid, l_q, l_n, l_out, nx + DG_LV_VERTICES, q_out);
                }
            }
            DG_LIST_FLUSH(1, lid, l_q, l_n, l_out, nx + DG_LV_VERTICES, q_out);
            /* the device-wide barrier: the group's counts, then lid 0's device-scope fence
               (after the work-group barrier it covers every work-item's writes: fences are
               cumulative, the pattern of CUDA's grid barrier; one fence a group instead of one
               a work-item), the group arrives, and lid 0 reads the counters for the next level */
            barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
            if (lid == 0) {
                dg_bfs_counts(cur, nx, l_m, l_got);
                if (l_maxd) atomic_max(&nx[DG_LV_MAXDEG], l_maxd);
                DG_DEVICE_FENCE();
                k++;
                if (!dg_deep_arrive(ctl, k, G, spin_max)) {
                    l_end = 1;                   /* this level is incomplete: the host redoes it */
                } else {
                    DG_ACQUIRE_FENCE();          /* (none on NVIDIA: the poll was an acquire) */
                    nxt = dg_deep_read(vlv, ring, level);
                    inspected += nxt.seen;
                    l_t++; l_level = level + 1;
                    if (nxt.n == 0u) { finished = 1; l_end = 1; }
                    else { levels++; reached += nxt.n; degrees += nxt.m; mu = mu > nxt.m ? mu - nxt.m : 0; }
                }
            }
            barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        }
    }
    if (lid == 0 && took_part) {   /* every group that took part knows the same: all write it */
        ctl[DG_DEEP_DONE] = l_t;
        ctl[DG_DEEP_FINISHED] = finished;
        ctl[DG_DEEP_LEVELS] = levels;
        dg_deep_put64(ctl + DG_DEEP_REACHED, reached);
        dg_deep_put64(ctl + DG_DEEP_INSPECTED, inspected);
        dg_deep_put64(ctl + DG_DEEP_DEGREES, degrees);
        atomic_inc(&ctl[DG_DEEP_RAN]);
    }
}

/* Reached vertices and the sum of their degrees (edges a level-synchronous search expands),
   into slot 0 of lv, for the strategies without level counters. */
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
    if (lid == 0 && l_r) {
        atomic_add(&lv[DG_LV_VERTICES], l_r);
        atomic_add(&lv[DG_LV_DEGREES], l_e);
    }
}

/* ---- the bottom-up steps of DG_BFS_DIRECTION_OPT ----
   They look at the vertices [lo, n) (lo: 0, or a device's first id, a multiple of 32, on a
   graph over several devices: each looks at its own; see dg_bfs_outbox).
   Every unvisited vertex looks through its in-neighbours (DG_ADJ is the in-store) for one in
   the current frontier bitmap and stops at the first. Found vertices go into the next bitmap
   and the queue too, so that switching back to top-down costs nothing. The degree for the
   level counters comes from the out-store (odir, opool). */

/* Unvisited v: its first in-neighbour in the frontier (if any) makes it found (*found = 1;
   the caller sets its bits). The frontier: the bitmap `front`, or (front NULL) the vertices at
   distance f.level - 1. Returns the entries it read. */
inline uint dg_bu_visit(DG_ADJ_ARGS, __global const int *odir, __global const int *opool,
                        __global const uint *front, const dg_bfs_found f, const int v, int *found)
{
    uint deg, k;
    const dg_pos base = dg_row(DG_ADJ, v, &deg);
    for (k = 0; k < deg; k++) {
        const int u = dg_neighbor(DG_ADJ, base, k);
        if (front ? dg_bit(front, u) : f.dist[u] == f.level - 1) {
            dg_bfs_found_add(f, v, u, dg_degree(odir, 0, opool, idx, latab, v));
            *found = 1;
            return k + 1;
        }
    }
    return deg;
}

__kernel __attribute__((reqd_work_group_size(DG_WG, 1, 1)))
void dg_bfs_bu(DG_BFS_BU_ARGS)
{
    __local int l_q[DG_WG];   /* flushed every round (last = 1): one vertex per work-item */
    __local uint l_n, l_m, l_out, l_e, l_stop;
#if DG_WG >= 32
    __local uint l_bits[DG_WG / 32];   /* the round's found vertices: the group's words of the bitmaps */
#endif
    const uint lid = get_local_id(0);
    const size_t gsize = get_global_size(0);
    size_t rounds = dg_bfs_stopped(lv, level, &l_stop) || n <= lo ? 0 : (n - lo + gsize - 1) / gsize;
    __global uint *nx = dg_lv(lv, ring, level + 1);
    const dg_bfs_found f = { dist, parent, vis, l_q, &l_n, &l_m, lv, level + 1, 1 };
    size_t r;
    uint seen = 0, prev;
    if (get_global_id(0) == 0) dg_lv_clear(dg_lv(lv, ring, level + 2));
    if (mode0) {   /* (an empty frontier: the search ended in an earlier level of the queue;
                      a GPU leaves, a CPU device runs through with no work: see dg_bfs_td) */
        if (dg_bfs_mode(lv, ring, level, level0, mode0, mu0, alpha, nbeta, &prev) != DG_BFS_MODE_BU ||
            dg_lv(lv, ring, level)[DG_LV_VERTICES] == 0u) {
#ifndef DG_CPU
            return;
#endif
            rounds = 0;
        } else {
            if (level == level0 ? dist0 != 0u : prev != DG_BFS_MODE_BU) front = NULL;   /* after top-down */
            if (zero) dg_bfs_zero(zero, words);
        }
    }
    if (lid == 0) { l_n = 0; l_m = 0; l_e = 0; }
    barrier(CLK_LOCAL_MEM_FENCE);
    /* A round's vertices are consecutive, so a word of 32 of them belongs to one work-group:
       the found ones are gathered in local memory and the group writes its words of vis and
       next itself, with no global atomics (32 work-items of a warp would set bits of the same
       word). */
    for (r = 0; r < rounds; r++) {
        const size_t v = lo + r * gsize + get_global_id(0);
        int found = 0;
#if DG_WG >= 32
        if (lid < DG_WG / 32) l_bits[lid] = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
#endif
        if (v < n && !dg_bit(vis, (int)v))
            seen += dg_bu_visit(DG_ADJ, odir, opool, front, f, (int)v, &found);
#if DG_WG >= 32
        if (found) atomic_or(&l_bits[lid >> 5], 1u << (lid & 31u));
#else
        if (found) { dg_bfs_mark(vis, (int)v); dg_bfs_mark(next, (int)v); }
#endif
        DG_LIST_FLUSH(1, lid, l_q, l_n, l_out, nx + DG_LV_VERTICES, q_out);
#if DG_WG >= 32
        if (lid < DG_WG / 32 && l_bits[lid]) {
            const size_t w = (lo + r * gsize + (size_t)get_group_id(0) * DG_WG) / 32 + lid;
            vis[w] |= l_bits[lid];
            next[w] |= l_bits[lid];
        }
#endif
    }
    if (seen) atomic_add(&l_e, seen);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) dg_bfs_counts(dg_lv(lv, ring, level), nx, l_m, l_e);
}

/* dg_bfs_bu for a CPU device (PoCL): the same work, results and counters, without local
   memory or barriers. A CPU device runs a work-group's work-items one after another in a loop,
   and every barrier cuts that loop in two (dg_bfs_bu has four a round); here each work-item
   takes whole words of 32 vertices, so that it owns their bits of vis and next, and appends
   what it found with one atomic a word. The host picks it where the device is a CPU
   (dg__bfs_flat). */
__kernel void dg_bfs_bu_flat(DG_BFS_BU_ARGS)
{
    const size_t gsize = get_global_size(0), nw = ((size_t)n + 31) / 32;
    __global uint *nx = dg_lv(lv, ring, level + 1);
    const uint stop = lv[DG_LV_STOP];
    uint seen = 0, m = 0, prev;
    int found[32];
    size_t w;
    if (get_global_id(0) == 0) dg_lv_clear(dg_lv(lv, ring, level + 2));
    if (mode0) {   /* (as dg_bfs_bu) */
        if (dg_bfs_mode(lv, ring, level, level0, mode0, mu0, alpha, nbeta, &prev) != DG_BFS_MODE_BU ||
            dg_lv(lv, ring, level)[DG_LV_VERTICES] == 0u) return;
        if (level == level0 ? dist0 != 0u : prev != DG_BFS_MODE_BU) front = NULL;
        if (zero) dg_bfs_zero(zero, words);
    }
    if (dg_bfs_past_stop(stop, level)) return;
    const size_t wlo = lo / 32, per = (nw - min(wlo, nw) + gsize - 1) / gsize;
    const size_t w0 = wlo + get_global_id(0) * per, w1 = w0 + per < nw ? w0 + per : nw;
    for (w = w0; w < w1; w++) {
        const uint had = vis[w];
        uint bits = 0, nf = 0, b;
        for (b = 0; b < 32; b++) {
            const size_t v = w * 32 + b;
            uint deg, k;
            dg_pos base;
            if (v >= n || ((had >> b) & 1u)) continue;
            base = dg_row(DG_ADJ, (int)v, &deg);
            for (k = 0; k < deg; k++) {   /* its first in-neighbour in the frontier (dg_bu_visit) */
                const int u = dg_neighbor(DG_ADJ, base, k);
                if (front ? dg_bit(front, u) : dist[u] == level) {
                    dg_bfs_reach(dist, parent, lv, level + 1, (int)v, u);
                    found[nf++] = (int)v;
                    bits |= 1u << b;
                    break;
                }
            }
            seen += k < deg ? k + 1 : deg;
        }
        if (bits) {
            vis[w] = had | bits;
            next[w] |= bits;
            m += dg_flat_degrees(odir, 0, opool, idx, latab, found, nf);
            dg_flat_append(found, nf, &nx[DG_LV_VERTICES], q_out);
        }
    }
    dg_bfs_counts(dg_lv(lv, ring, level), nx, m, seen);
}

/* ---- a graph over several devices (>>shard in dyngraph.h) ----
   Each device holds the lists of its ids [lo, hi) and reads the others' as empty. A top-down
   level claims every target in the device's own visited bitmap, its own ids and the others'
   alike; dg_bfs_outbox then copies the others' (with their parents) from the level's queue
   into an outbox, which the host hands to the other devices, and dg_bfs_inbox there claims
   each of its own ids among them: found, it joins that device's queue for the next level. The
   others' ids left in a queue expand to nothing (their lists read as empty). A device's claim
   of another's id means "sent": sent once a search. */
/* The others' ids among the level's found vertices q[0..count) (the count in the level slot
   of lv), with their parents (-1 without), appended to out as pairs, their number in the
   slot's DG_LV_SENT; and, with xbm (a cleared bitmap), their bits there: a large level travels
   as the others' words of it (dg_bfs_inbox_bits) when no parents are wanted. */
__kernel void dg_bfs_outbox(__global const int *q, __global uint *lv, const uint ring, const int level,
                            const int lo, const int hi, __global const int *parent,
                            __global int *out, __global uint *xbm)
{
    __global uint *slot = dg_lv(lv, ring, level);
    const uint n = slot[DG_LV_VERTICES];
    size_t i;
    for (i = get_global_id(0); i < n; i += get_global_size(0)) {
        const int u = q[i];
        if (u < lo || u >= hi) {
            const uint j = atomic_inc(&slot[DG_LV_SENT]);
            out[2 * (size_t)j] = u;
            out[2 * (size_t)j + 1] = parent ? parent[u] : -1;
            if (xbm) dg_bfs_mark(xbm, u);
        }
    }
}
/* dg_bfs_inbox for bitmaps: the device's words [w0, w1) of the nsrc other devices' bitmaps
   (slice s at in + s (w1 - w0)), without parents. Each word's new vertices are claimed by
   the one work-item that reads it, and counted with one atomic a word. */
__kernel void dg_bfs_inbox_bits(DG_ADJ_ARGS, __global const uint *in, const uint nsrc, const uint w0,
                                const uint w1, __global uint *lv, const uint ring, const int level,
                                __global int *dist, __global uint *vis, __global int *q)
{
    __global uint *slot = dg_lv(lv, ring, level);
    const uint rw = w1 - w0;
    size_t w;
    for (w = w0 + get_global_id(0); w < w1; w += get_global_size(0)) {
        uint b = 0, s, at, m = 0;
        for (s = 0; s < nsrc; s++) b |= in[(size_t)s * rw + (w - w0)];
        b &= ~vis[w];
        if (!b) continue;
        vis[w] |= b;
        at = atomic_add(&slot[DG_LV_VERTICES], popcount(b));
        for (s = 0; b; s++, b >>= 1) {
            if (!(b & 1u)) continue;
            {
                const int u = (int)(w * 32 + s);
                dist[u] = level;
                q[at++] = u;
                m += dg_degree(DG_ADJ, u);
            }
        }
        if (m) atomic_add(&slot[DG_LV_DEGREES], m);
    }
}
/* The device's own ids among the n pairs (vertex, parent) of the other devices' outboxes:
   each one it had not visited is found at `level` and joins the queue (the level slot of lv
   counts it and its out-degree). */
__kernel void dg_bfs_inbox(DG_ADJ_ARGS, __global const int *in, const uint n, const int lo, const int hi,
                           __global uint *lv, const uint ring, const int level,
                           __global int *dist, __global int *parent, __global uint *vis,
                           __global int *q)
{
    __global uint *slot = dg_lv(lv, ring, level);
    size_t i;
    for (i = get_global_id(0); i < n; i += get_global_size(0)) {
        const int u = in[2 * i];
        if (u >= lo && u < hi && dg_claim(vis, u)) {
            dist[u] = level;
            if (parent) parent[u] = in[2 * i + 1];
            q[atomic_inc(&slot[DG_LV_VERTICES])] = u;
            atomic_add(&slot[DG_LV_DEGREES], dg_degree(DG_ADJ, u));
        }
    }
}

/* vis |= bm over n words: the ids the other devices found, gathered into bm, marked visited
   (a top-down level then does not send them again). */
__kernel void dg_bfs_or_words(__global uint *vis, __global const uint *bm, const uint n)
{
    size_t i;
    for (i = get_global_id(0); i < n; i += get_global_size(0)) vis[i] |= bm[i];
}

/* Sets the bits of the level's queue in a (cleared) bitmap: top-down to bottom-up. */
__kernel void dg_bfs_queue_to_bitmap(__global const int *q, __global const uint *lv, const uint ring,
                                     const int level, __global uint *bm)
{
    const uint n = lv[dg_lv_at(ring, level) + DG_LV_VERTICES];
    size_t i;
    for (i = get_global_id(0); i < n; i += get_global_size(0)) dg_bfs_mark(bm, q[i]);
}

/* ---- DG_BFS_MASK: Harish & Narayanan, "mark, then visit" ([Harish 2007]) ----
   Kernel 1 expands the frontier mask into an update mask; kernel 2 visits the updated
   vertices: distance, visited, next frontier, and a flag (flag[level & 1]) saying it did. */
__kernel void dg_bfs_mask_expand(DG_ADJ_ARGS, __global uchar *fmask, __global uchar *umask,
                                 __global const uchar *vis, const uint n)
{
    const size_t v = get_global_id(0);
    uint deg, k;
    dg_pos base;
    if (v >= n || !fmask[v]) return;
    fmask[v] = 0;
    base = dg_row(DG_ADJ, (int)v, &deg);
    for (k = 0; k < deg; k++) {
        const int u = dg_neighbor(DG_ADJ, base, k);
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

/* Neighbours k0..k1-1 of v, top-down: unreached ones get level + 1; returns 1 if any did. */
inline int dg_ec_expand(DG_ADJ_ARGS, const int v, const uint k0, const uint k1,
                        __global int *dist, const int level)
{
    uint deg, k;
    const dg_pos base = dg_row(DG_ADJ, v, &deg);
    int found = 0;
    for (k = k0; k < k1; k++) {
        const int u = dg_neighbor(DG_ADJ, base, k);
        if (dist[u] == -1) { dist[u] = level + 1; found = 1; }
    }
    return found;
}

__kernel void dg_ec_level(DG_ADJ_ARGS, __global const dg_pos *off, __global const int *sv,
                          const uint nchunks, const uint mec, const ulong total,
                          __global int *dist, const int level, __global uint *flag)
{
    const size_t c = get_global_id(0);
    dg_ec_walk w;
    int found = 0;
    if (c == 0) flag[(level + 1) & 1] = 0;
    if (c >= nchunks) return;
    w = dg_ec_start(sv, (uint)c, mec, total);
    while (dg_ec_next(off, &w))
        if (dist[w.v] == level) found |= dg_ec_expand(DG_ADJ, w.v, w.k0, w.k1, dist, level);
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
    uint deg, k;
    dg_pos base;
    int d, p = -1;
    if (v >= n) return;
    d = dist[dist_off + v];
    if (d == 0) p = (int)v;
    else if (d > 0) {
        base = dg_row(DG_ADJ, (int)v, &deg);
        for (k = 0; k < deg; k++) {
            const int u = dg_neighbor(DG_ADJ, base, k);
            if (dist[dist_off + u] == d - 1) { p = u; break; }
        }
    }
    parent[v] = p;
}
