/* kernels/30_primitives.cl - the frontier primitives: scan, compact, advance, filter, compute.

   The thesis's operators (ch. 3.4), in the Gunrock style: a frontier is an array of vertex
   ids. User functions are OpenCL C source compiled with this file; the host instantiates one
   kernel per user function with the DG_DEFINE_* macros at the end. */

/* ---- exclusive scan, any length: per block of 4*DG_WG values, then the block sums ---- */
#define DG_SCAN_ITEMS 4
#define DG_SCAN_BLOCK (DG_SCAN_ITEMS * DG_WG)

/* out[i] = in[0] + ... + in[i-1] within each block of DG_SCAN_BLOCK values; sums[block] = the
   block's total. With one block, *total also gets it. in may equal out. */
__kernel void dg_scan_blocks(__global const uint *in, __global uint *out, __global uint *sums,
                             const uint n, __global uint *total)
{
    __local uint x[DG_WG];
    const uint lid = get_local_id(0);
    const size_t first = (size_t)get_group_id(0) * DG_SCAN_BLOCK + (size_t)lid * DG_SCAN_ITEMS;
    uint v[DG_SCAN_ITEMS], s = 0, t, j;
    for (j = 0; j < DG_SCAN_ITEMS; j++) {
        v[j] = first + j < n ? in[first + j] : 0u;
        s += v[j];
    }
    x[lid] = s;
    t = dg_local_scan(x, lid);
    s = x[lid];
    for (j = 0; j < DG_SCAN_ITEMS; j++) {
        if (first + j < n) out[first + j] = s;
        s += v[j];
    }
    if (lid == 0) {
        sums[get_group_id(0)] = t;
        if (get_num_groups(0) == 1 && total) *total = t;
    }
}

/* Adds the scanned block sums to every block. */
__kernel void dg_scan_add(__global uint *out, __global const uint *sums, const uint n)
{
    const size_t i = get_global_id(0);
    if (i < n) out[i] += sums[i / DG_SCAN_BLOCK];
}

/* ---- helpers of the primitives ---- */
/* deg[i] = degree of frontier element i, for i < n. */
__kernel void dg_frontier_degrees(DG_ADJ_ARGS, __global const int *in, const uint n, __global uint *deg)
{
    const size_t i = get_global_id(0);
    if (i < n) deg[i] = dg_degree(DG_ADJ, in[i]);
}

/* out[pos[i]] = in[i] where flag[i]; pos is the exclusive scan of flag. */
__kernel void dg_compact(__global const int *in, __global const uint *flag, __global const uint *pos,
                         const uint n, __global int *out)
{
    const size_t i = get_global_id(0);
    if (i < n && flag[i]) out[pos[i]] = in[i];
}

/* ---- the templates: one kernel per user function ----
   ADVANCE: one work-item per output edge e < total; the owner of e is found by binary search
   in the exclusive scan `off` of the frontier's degrees (listings 8-10), then neighbour
   e - off[owner] is read in O(1) (large lists included). Kept neighbours are gathered in
   local memory and appended with one global atomic per work-group. */
#define DG_DEFINE_ADVANCE(NAME, FN) \
__kernel void NAME(DG_ADJ_ARGS, __global const float *wpool, __global const int *in, \
                   __global const uint *off, const uint n_in, const uint total, \
                   __global int *out, __global uint *out_n, __global int *data) \
{ \
    __local uint l_n, l_base; \
    const uint e = (uint)get_global_id(0), lid = (uint)get_local_id(0); \
    uint pos = 0; int keep = 0, u = 0; \
    if (lid == 0) l_n = 0; \
    barrier(CLK_LOCAL_MEM_FENCE); \
    if (e < total) { \
        const uint i = dg_global_owner(off, n_in, e); \
        const int v = in[i]; \
        uint deg; \
        const uint x = dg_entry(DG_ADJ, dg_row(DG_ADJ, v, &deg), e - off[i]); \
        u = pool[x]; \
        keep = FN(v, u, wpool ? wpool[x] : 1.0f, data) != 0; \
        if (keep) pos = atomic_inc(&l_n); \
    } \
    barrier(CLK_LOCAL_MEM_FENCE); \
    if (lid == 0 && l_n) l_base = atomic_add(out_n, l_n); \
    barrier(CLK_LOCAL_MEM_FENCE); \
    if (keep) out[l_base + pos] = u; \
}

/* FILTER: flag[i] = predicate of element i (then scan and dg_compact keep the order). */
#define DG_DEFINE_FILTER(NAME, FN) \
__kernel void NAME(__global const int *in, const uint n, __global uint *flag, __global int *data) \
{ \
    const size_t i = get_global_id(0); \
    if (i < n) flag[i] = FN(in[i], data) != 0; \
}

/* COMPUTE: the function on every element. */
#define DG_DEFINE_COMPUTE(NAME, FN) \
__kernel void NAME(__global const int *in, const uint n, __global int *data) \
{ \
    const size_t i = get_global_id(0); \
    if (i < n) FN(in[i], data); \
}
