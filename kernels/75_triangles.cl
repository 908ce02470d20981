/* kernels/75_triangles.cl - triangle counting (module TRI, >>graph in dyngraph.h).

   The host hands over the underlying simple undirected graph oriented by (degree, id): for each
   vertex w, low[lrow[w] .. lrow[w + 1]) lists, ascending, the neighbours v below w (smaller
   degree, or the same degree and a smaller id). A triangle a < b < c (in that order) is then
   found exactly once: at the arc b -> c (b in c's list), as the vertex a in both b's and c's
   lists. Each work-item takes one arc and intersects the two lists by binary search of the
   shorter one's entries in the longer (orientation keeps every list below sqrt(2m)). 64-bit
   atomics count (cl_khr_int64_base_atomics: NVIDIA and PoCL have it). */
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

inline int dg_tc_has(__global const int *a, uint lo, uint hi, const int x)
{
    while (lo < hi) {
        const uint mid = (lo + hi) >> 1;
        const int y = a[mid];
        if (y == x) return 1;
        if (y < x) lo = mid + 1; else hi = mid;
    }
    return 0;
}

__kernel __attribute__((reqd_work_group_size(DG_WG, 1, 1)))
void dg_tc_count(__global const uint *lrow, __global const int *low, const uint n, const uint m,
                 __global ulong *total, __global ulong *per_vertex, const int want_per_vertex)
{
    __local ulong s[DG_WG];
    const size_t e = get_global_id(0);
    const uint lid = (uint)get_local_id(0);
    ulong found = 0;
    uint d;
    if (e < m) {
        const uint c = dg_tc_owner(lrow, n, (uint)e);
        const int b = low[e];
        uint sb = lrow[b], eb = lrow[b + 1], sc = lrow[c], ec = lrow[c + 1], i;
        if (eb - sb > ec - sc) {             /* search the shorter list's entries in the longer */
            uint t = sb; sb = sc; sc = t;
            t = eb; eb = ec; ec = t;
        }
        for (i = sb; i < eb; i++) {
            const int a = low[i];
            if (dg_tc_has(low, sc, ec, a)) {
                found++;
                if (want_per_vertex) atom_inc(&per_vertex[a]);
            }
        }
        if (found && want_per_vertex) {
            atom_add(&per_vertex[b], found);
            atom_add(&per_vertex[c], found);
        }
    }
    s[lid] = found;
    for (d = DG_WG >> 1; d > 0; d >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < d) s[lid] += s[lid + d];
    }
    if (lid == 0 && s[0]) atom_add(total, s[0]);
}

/* ---- the orientation on the device (undirected graphs) ----
   Over the edge chunks of the lists (off: the scan of the list degrees, as 10_adjacency.cl's
   edge chunks), in three passes of dg_tc_orient:
     0: selfc[v] = 1 where v's list holds v (a self-loop: at most one);
     1: cnt[w] = how many neighbours v of w lie below w (one atomic per run of a chunk);
     2: the pair (v, w) of each such arc at lrow[w] + atomic_inc(&cnt[w]) (cnt cleared again;
        lrow: the scan of pass 1's counts), v into lv, w into lw.
   The host then sorts the pairs by v and, stably, by w: each w's list comes out ascending. */
inline uint dg_tc_sdeg(__global const uint *off, __global const uint *selfc, const int v)
{
    return off[v + 1] - off[v] - selfc[v];
}
inline int dg_tc_below(__global const uint *off, __global const uint *selfc, const int a, const int b)
{
    const uint da = dg_tc_sdeg(off, selfc, a), db = dg_tc_sdeg(off, selfc, b);
    return da < db || (da == db && a < b);
}
__kernel void dg_tc_orient(DG_ADJ_ARGS, __global const uint *off, __global const int *sv,
                           const uint nchunks, const uint mec, const uint total,
                           __global uint *selfc, __global uint *cnt, __global const uint *lrow,
                           __global int *lv, __global int *lw, const int pass)
{
    const size_t c = get_global_id(0);
    dg_ec_walk w;
    if (c >= nchunks) return;
    w = dg_ec_start(sv, (uint)c, mec, total);
    while (dg_ec_next(off, &w)) {
        uint deg, k, below = 0;
        const uint base = dg_row(DG_ADJ, w.v, &deg);
        for (k = w.k0; k < w.k1; k++) {
            const int v = dg_neighbor(DG_ADJ, base, k);
            if (pass == 0) {
                if (v == w.v) selfc[v] = 1;
            } else if (v != w.v && dg_tc_below(off, selfc, v, w.v)) {
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
