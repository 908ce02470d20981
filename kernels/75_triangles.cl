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
