/* kernels/75_triangles.cl - triangle counting and segmented intersection (module TRI, >>graph
   in dyngraph.h).

   The host hands over the underlying simple undirected graph oriented by (degree, id): for each
   vertex w, low[lrow[w] .. lrow[w + 1]) lists, ascending, the neighbours v below w (smaller
   degree, or the same degree and a smaller id). A triangle a < b < c (in that order) is then
   found exactly once: at the arc b -> c (b in c's list), as the vertex a in both b's and c's
   lists. Each work-item takes one arc and intersects the two lists by binary search of the
   shorter one's entries in the longer (orientation keeps every list below sqrt(2m)); an arc
   whose shorter list is long (two hubs) goes to a work-group instead. 64-bit atomics count
   (cl_khr_int64_base_atomics: NVIDIA and PoCL have it). */
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable

/* The vertex whose list holds arc e: the largest w with lrow[w] <= e. */
inline uint dg_tc_owner(__global const uint *lrow, const uint n, const uint e)
{
    uint lo = 0, hi = n;                 /* lrow[lo] <= e < lrow[hi] */
    while (hi - lo > 1) {
        const uint mid = (lo + hi) >> 1;
        if (lrow[mid] <= e) lo = mid; else hi = mid;
    }
    return lo;
}

/* The first place in a[lo, hi) (ascending) whose entry is >= x (hi: none). */
inline uint dg_tc_lower(__global const int *a, uint lo, uint hi, const int x)
{
    while (lo < hi) {
        const uint mid = (lo + hi) >> 1;
        if (a[mid] < x) lo = mid + 1; else hi = mid;
    }
    return lo;
}

/* The work-group's sum of x into *total (64-bit atomic), by work-item 0. */
#define DG_TC_GROUP_ADD(s, lid, x, total) do { \
    uint d_; \
    (s)[lid] = (x); \
    for (d_ = DG_WG >> 1; d_ > 0; d_ >>= 1) { \
        barrier(CLK_LOCAL_MEM_FENCE); \
        if ((lid) < d_) (s)[lid] += (s)[(lid) + d_]; \
    } \
    if ((lid) == 0 && (s)[0]) atom_add((total), (s)[0]); \
} while (0)

/* The lists of arc e (b -> c): [*sb, *eb) the shorter, [*sc, *ec) the longer. */
inline void dg_tc_lists(__global const uint *lrow, __global const int *low, const uint n, const uint e,
                        int *b, int *c, uint *sb, uint *eb, uint *sc, uint *ec)
{
    *c = (int)dg_tc_owner(lrow, n, e);
    *b = low[e];
    *sb = lrow[*b]; *eb = lrow[*b + 1]; *sc = lrow[*c]; *ec = lrow[*c + 1];
    if (*eb - *sb > *ec - *sc) {
        uint t = *sb; *sb = *sc; *sc = t;
        t = *eb; *eb = *ec; *ec = t;
    }
}

/* The triangles of arc b -> c found by the entries sb, sb + step, ... < eb of the shorter list
   (searched in the longer, [sc, ec)): counted per vertex when want_per_vertex; returns them.
   The entries ascend, so each search starts where the last one ended. With sampled (samp: a
   work-group's DG_WG samples of the longer list, samp[i] = its entry i * len / DG_WG), a
   search first finds its sample interval in local memory, then searches len / DG_WG entries.
   (A flag, not a null test: a __local array may sit at address 0.) */
inline ulong dg_tc_common(__global const int *low, const int b, const int c, uint sb, const uint eb,
                          const uint step, uint sc, const uint ec, __global ulong *per_vertex,
                          const int want_per_vertex, __local const int *samp, const int sampled)
{
    const uint len = ec - sc, s0 = sc;
    ulong found = 0;
    for (; sb < eb && sc < ec; sb += step) {
        const int a = low[sb];
        uint hi = ec;
        if (sampled) {                   /* the sample interval [i, i + 1) holding a */
            uint lo = 0, up = DG_WG, i;
            while (lo < up) {
                const uint mid = (lo + up) >> 1;
                if (samp[mid] <= a) lo = mid + 1; else up = mid;
            }
            i = lo;                      /* samples 0 .. i - 1 are <= a */
            if (i > 0) { const uint p = s0 + (uint)(((ulong)(i - 1) * len) / DG_WG); if (p > sc) sc = p; }
            if (i < DG_WG) hi = s0 + (uint)(((ulong)i * len) / DG_WG) + 1;
            if (hi > ec) hi = ec;
        }
        sc = dg_tc_lower(low, sc, hi, a);
        if (sc < ec && low[sc] == a) {
            found++;
            if (want_per_vertex) atom_inc(&per_vertex[a]);
        }
    }
    if (found && want_per_vertex) {
        atom_add(&per_vertex[b], found);
        atom_add(&per_vertex[c], found);
    }
    return found;
}

/* One work-item per arc whose shorter list has at most heavy_min entries (DG_TC_HEAVY on a GPU;
   a CPU device takes every arc this way: its work-groups' barriers cost more than they save);
   the others (arcs
   between two long lists, Kronecker's hub-to-hub arcs) go to heavy[0 .. *nheavy) for
   dg_tc_count_heavy, which spreads each over a work-group. */
__kernel __attribute__((reqd_work_group_size(DG_WG, 1, 1)))
void dg_tc_count(__global const uint *lrow, __global const int *low, const uint n, const uint m,
                 __global ulong *total, __global ulong *per_vertex, const int want_per_vertex,
                 __global uint *heavy, __global uint *nheavy, const uint heavy_min)
{
    __local ulong s[DG_WG];
    const size_t e = get_global_id(0);
    const uint lid = (uint)get_local_id(0);
    ulong found = 0;
    if (e < m) {
        int b, c;
        uint sb, eb, sc, ec;
        dg_tc_lists(lrow, low, n, (uint)e, &b, &c, &sb, &eb, &sc, &ec);
        if (eb - sb > heavy_min) {
            heavy[atomic_inc(nheavy)] = (uint)e;
            eb = sb;                         /* nothing here */
        }
        found = dg_tc_common(low, b, c, sb, eb, 1, sc, ec, per_vertex, want_per_vertex, 0, 0);
    }
    DG_TC_GROUP_ADD(s, lid, found, total);
}

/* The heavy arcs: each work-group takes arcs heavy[g], heavy[g + groups], ...; its work-items
   split the shorter list's entries and search each in the longer. */
__kernel __attribute__((reqd_work_group_size(DG_WG, 1, 1)))
void dg_tc_count_heavy(__global const uint *lrow, __global const int *low, const uint n,
                       __global ulong *total, __global ulong *per_vertex, const int want_per_vertex,
                       __global const uint *heavy, __global const uint *nheavy)
{
    __local ulong s[DG_WG];
    __local int samp[DG_WG];
    const uint lid = (uint)get_local_id(0), nh = *nheavy;
    ulong sum = 0;
    uint h;
    for (h = (uint)get_group_id(0); h < nh; h += (uint)get_num_groups(0)) {
        int b, c;
        uint sb, eb, sc, ec;
        dg_tc_lists(lrow, low, n, heavy[h], &b, &c, &sb, &eb, &sc, &ec);
        barrier(CLK_LOCAL_MEM_FENCE);    /* the last arc's samples are no longer read */
        samp[lid] = low[sc + (uint)(((ulong)lid * (ec - sc)) / DG_WG)];
        barrier(CLK_LOCAL_MEM_FENCE);
        sum += dg_tc_common(low, b, c, sb + lid, eb, DG_WG, sc, ec, per_vertex, want_per_vertex, samp, 1);
    }
    DG_TC_GROUP_ADD(s, lid, sum, total);
}

/* ---- segmented intersection (dg_intersect): counts[i] = the entries the lists of u and v
   have in common, for the pair (u, v) = (pairs[2i], pairs[2i + 1]), on the sorted copy of
   the out-lists (row, col: every list ascending, made as the orientation below with full =
   1). A pair with a bad id (negative, past bound, removed: dir, the out-store's directory)
   sets ctl[1] to the smallest such i. As the triangles' arcs: a pair whose shorter list has
   at most heavy_min entries is searched by one work-item, the others by a work-group. */
inline int dg_isect_bad(__global const int *dir, const uint bound, const int v)
{
    return v < 0 || (uint)v >= bound || dir[DG_DS * (size_t)v] < 0;
}
inline void dg_isect_lists(__global const uint *row, __global const int *pairs, const uint i, uint *sa, uint *ea,
                           uint *sb, uint *eb)
{
    const int u = pairs[2 * i], v = pairs[2 * i + 1];
    *sa = row[u]; *ea = row[u + 1]; *sb = row[v]; *eb = row[v + 1];
    if (*ea - *sa > *eb - *sb) {
        uint t = *sa; *sa = *sb; *sb = t;
        t = *ea; *ea = *eb; *eb = t;
    }
}
__kernel void dg_isect_light(__global const uint *row, __global const int *col, __global const int *dir,
                             __global const int *pairs, const uint n, const uint bound, __global uint *counts,
                             __global uint *heavy, __global uint *ctl, const uint heavy_min)
{
    const size_t i = get_global_id(0);
    uint sa, ea, sb, eb;
    if (i >= n) return;
    if (dg_isect_bad(dir, bound, pairs[2 * i]) || dg_isect_bad(dir, bound, pairs[2 * i + 1])) {
        atomic_min(&ctl[1], (uint)i);
        counts[i] = 0;
        return;
    }
    dg_isect_lists(row, pairs, (uint)i, &sa, &ea, &sb, &eb);
    if (ea - sa > heavy_min) { heavy[atomic_inc(&ctl[0])] = (uint)i; return; }
    counts[i] = (uint)dg_tc_common(col, 0, 0, sa, ea, 1, sb, eb, 0, 0, 0, 0);
}
__kernel __attribute__((reqd_work_group_size(DG_WG, 1, 1)))
void dg_isect_heavy(__global const uint *row, __global const int *col, __global const int *pairs,
                    __global uint *counts, __global const uint *heavy, __global const uint *ctl)
{
    __local int samp[DG_WG];
    __local uint s[DG_WG];
    const uint lid = (uint)get_local_id(0), nh = ctl[0];
    uint h, d;
    for (h = (uint)get_group_id(0); h < nh; h += (uint)get_num_groups(0)) {
        const uint i = heavy[h];
        uint sa, ea, sb, eb;
        dg_isect_lists(row, pairs, i, &sa, &ea, &sb, &eb);
        barrier(CLK_LOCAL_MEM_FENCE);    /* the last pair's samples and sums are read */
        samp[lid] = col[sb + (uint)(((ulong)lid * (eb - sb)) / DG_WG)];
        barrier(CLK_LOCAL_MEM_FENCE);
        s[lid] = (uint)dg_tc_common(col, 0, 0, sa + lid, ea, DG_WG, sb, eb, 0, 0, samp, 1);
        for (d = DG_WG >> 1; d > 0; d >>= 1) {
            barrier(CLK_LOCAL_MEM_FENCE);
            if (lid < d) s[lid] += s[lid + d];
        }
        if (lid == 0) counts[i] = s[0];
    }
}

/* ---- the orientation on the device (undirected graphs) ----
   Over the edge chunks of the lists (off: the scan of the list degrees, as 10_adjacency.cl's
   edge chunks), in three passes of dg_tc_orient:
     0: selfc[v] = 1 where v's list holds v (a self-loop: at most one);
     1: cnt[w] = how many neighbours v of w lie below w (one atomic per run of a chunk);
     2: the pair (v, w) of each such arc at lrow[w] + atomic_inc(&cnt[w]) (cnt cleared again;
        lrow: the scan of pass 1's counts), v into lv, w into lw.
   The host then sorts the pairs by v and, stably, by w: each w's list comes out ascending.
   With full = 1 every arc is kept (self-loops too): the sorted copy of the out-lists that
   dg_intersect searches. */
inline uint dg_tc_sdeg(__global const dg_pos *off, __global const uint *selfc, const int v)
{
    return (uint)(off[v + 1] - off[v]) - selfc[v];
}
inline int dg_tc_below(__global const dg_pos *off, __global const uint *selfc, const int a, const int b)
{
    const uint da = dg_tc_sdeg(off, selfc, a), db = dg_tc_sdeg(off, selfc, b);
    return da < db || (da == db && a < b);
}
__kernel void dg_tc_orient(DG_ADJ_ARGS, __global const dg_pos *off, __global const int *sv,
                           const uint nchunks, const uint mec, const ulong total,
                           __global uint *selfc, __global uint *cnt, __global const uint *lrow,
                           __global int *lv, __global int *lw, const int pass, const int full)
{
    const size_t c = get_global_id(0);
    dg_ec_walk w;
    if (c >= nchunks) return;
    w = dg_ec_start(sv, (uint)c, mec, total);
    while (dg_ec_next(off, &w)) {
        uint deg, k, below = 0;
        const dg_pos base = dg_row(DG_ADJ, w.v, &deg);
        for (k = w.k0; k < w.k1; k++) {
            const int v = dg_neighbor(DG_ADJ, base, k);
            if (pass == 0) {
                if (v == w.v) selfc[v] = 1;
            } else if (full || (v != w.v && dg_tc_below(off, selfc, v, w.v))) {
                if (pass == 1) {
                    below++;
                } else {
                    const uint p = lrow[w.v] + atomic_inc(&cnt[w.v]);
                    lv[p] = v;
                    lw[p] = w.v;
                }
            }
        }
        if (below) atomic_add(&cnt[w.v], below);
    }
}
