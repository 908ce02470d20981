/* kernels/30_primitives.cl - the frontier primitives: scan, compact, advance, filter, compute.

   The operators of [Martinho 2021], in the Gunrock style: a frontier is an array of vertex
   ids. User functions are OpenCL C source compiled with this file; the host instantiates one
   kernel per user function with the DG_DEFINE_* macros at the end. */

/* ---- exclusive scan, any length: per block of 4*DG_WG values, then the block sums ---- */
#define DG_SCAN_BLOCK (DG_SCAN_ITEMS * DG_WG)

/* The scan of positions (dg_pos, 64-bit under DG_POS64): the edge chunks' offsets, a scan of
   the degrees whose total passes 2^32 on a graph of that many arcs. The work-group's scan is
   Hillis-Steele (log2(DG_WG) steps): one such scan a graph version. */
inline dg_pos dg_local_scan_pos(__local dg_pos *x, const uint lid)
{
    const dg_pos v = x[lid];
    dg_pos s = v, t, total;
    uint d;
    for (d = 1; d < DG_WG; d <<= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        t = lid >= d ? x[lid - d] : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        s += t;
        x[lid] = s;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    total = x[DG_WG - 1];
    barrier(CLK_LOCAL_MEM_FENCE);
    x[lid] = s - v;
    barrier(CLK_LOCAL_MEM_FENCE);
    return total;
}

/* The two kernels of a scan of values of type T (uint: dg_scan_*; dg_pos: dg_scan_pos_*),
   LOCAL_SCAN the work-group's exclusive scan of T, and BLOCKS_one, one block's scan added to
   `carry` (its total returned; dg_scan_small goes through several):
   BLOCKS: out[i] = in[0] + ... + in[i-1] within each block of DG_SCAN_BLOCK values; sums[block]
   = the block's total. With one block, *total also gets it. in may equal out.
   ADD: adds the scanned block sums to every block. */
#define DG_DEFINE_SCAN(BLOCKS, ADD, T, LOCAL_SCAN) \
inline T BLOCKS##_one(__global const T *in, __global T *out, const uint n, const size_t first, \
                      __local T *x, const uint lid, const T carry) \
{ \
    T v[DG_SCAN_ITEMS], s = 0, t; \
    uint j; \
    for (j = 0; j < DG_SCAN_ITEMS; j++) { \
        v[j] = first + j < n ? in[first + j] : 0; \
        s += v[j]; \
    } \
    x[lid] = s; \
    t = LOCAL_SCAN(x, lid); \
    s = carry + x[lid]; \
    for (j = 0; j < DG_SCAN_ITEMS; j++) { \
        if (first + j < n) out[first + j] = s; \
        s += v[j]; \
    } \
    return t; \
} \
__kernel void BLOCKS(__global const T *in, __global T *out, __global T *sums, const uint n, __global T *total) \
{ \
    __local T x[DG_WG]; \
    const uint lid = get_local_id(0); \
    const T t = BLOCKS##_one(in, out, n, (size_t)get_group_id(0) * DG_SCAN_BLOCK + (size_t)lid * DG_SCAN_ITEMS, \
                             x, lid, 0); \
    if (lid == 0) { \
        sums[get_group_id(0)] = t; \
        if (get_num_groups(0) == 1 && total) *total = t; \
    } \
} \
__kernel void ADD(__global T *out, __global const T *sums, const uint n) \
{ \
    const size_t i = get_global_id(0); \
    if (i < n) out[i] += sums[i / DG_SCAN_BLOCK]; \
}
DG_DEFINE_SCAN(dg_scan_blocks, dg_scan_add, uint, dg_local_scan)
DG_DEFINE_SCAN(dg_scan_pos_blocks, dg_scan_pos_add, dg_pos, dg_local_scan_pos)

/* The scan of a few blocks of uint values by one work-group, block after block with the sum
   so far (one launch instead of three; in may equal out); *total (if any) gets the sum. */
__kernel void dg_scan_small(__global const uint *in, __global uint *out, const uint n, __global uint *total)
{
    __local uint x[DG_WG];
    const uint lid = get_local_id(0);
    uint b, carry = 0;
    for (b = 0; b < n; b += DG_SCAN_BLOCK)   /* (the local scan begins and ends with a barrier) */
        carry += dg_scan_blocks_one(in, out, n, (size_t)b + (size_t)lid * DG_SCAN_ITEMS, x, lid, carry);
    if (lid == 0 && total) *total = carry;
}

/* tf[1] = 1 where the exclusive scan out[0..n) of uint values wrapped past 2^32 (tf[0]: its
   total): a wrap shows as a step down, out[i + 1] < out[i], or as the total below out[n - 1]. */
__kernel void dg_scan_wrapped(__global const uint *out, const uint n, __global uint *tf)
{
    const size_t i = get_global_id(0);
    if (i + 1 < n) { if (out[i + 1] < out[i]) tf[1] = 1u; }
    else if (i + 1 == n && tf[0] < out[i]) tf[1] = 1u;
}

/* ---- helpers of the primitives ---- */
/* deg[i] = degree of frontier element i, for i < n; 0 for an id that is no live vertex
   (negative, bound or beyond, removed: user kernels may write any id), so nothing reads past
   the directory. */
__kernel void dg_frontier_degrees(DG_ADJ_ARGS, __global const int *in, const uint n, const uint bound,
                                  __global uint *deg)
{
    const size_t i = get_global_id(0);
    if (i < n) {
        const int v = in[i];
        deg[i] = v >= 0 && (uint)v < bound ? dg_degree(DG_ADJ, v) : 0;   /* removed: 0 too */
    }
}

/* flag[v] = 1 for a live vertex v < n (it has an out-list), else 0. */
__kernel void dg_live_flags(__global const int *dir, const uint n, __global uint *flag)
{
    const size_t v = get_global_id(0);
    if (v < n) flag[v] = dir[DG_DS * v] >= 0;
}
/* out[pos[v]] = v where flag[v]; pos is the exclusive scan of flag. */
__kernel void dg_live_ids(__global const uint *flag, __global const uint *pos, const uint n, __global int *out)
{
    const size_t v = get_global_id(0);
    if (v < n && flag[v]) out[pos[v]] = (int)v;
}

/* out[pos[i]] = in[i] where flag[i]; pos is the exclusive scan of flag. */
__kernel void dg_compact(__global const int *in, __global const uint *flag, __global const uint *pos,
                         const uint n, __global int *out)
{
    const size_t i = get_global_id(0);
    if (i < n && flag[i]) out[pos[i]] = in[i];
}

/* ---- edge chunks (DG_BFS_EDGE_CHUNK, Bellman-Ford) ----
   deg[v] = out-degree of v for v < n, deg[n] = 0 (then scanned into off, n + 1 entries);
   sv[c] = the vertex owning edge c*mec of that numbering (Chernoskutov's algorithm 4). */
__kernel void dg_degrees(DG_ADJ_ARGS, __global dg_pos *deg, const uint n)
{
    const size_t v = get_global_id(0);
    if (v < n) deg[v] = dg_degree(DG_ADJ, (int)v);
    else if (v == n) deg[v] = 0;
}
__kernel void dg_ec_fill(__global const dg_pos *off, __global int *sv, const uint n, const uint mec)
{
    const size_t i = get_global_id(0);
    dg_pos first, last;
    uint c;
    ulong cur;                           /* 64 bits: c * mec and cur + mec pass 2^32 for a huge mec */
    if (i >= n) return;
    first = off[i]; last = off[i + 1];
    c = (uint)(first / mec) + (first % mec != 0);   /* fewer than 2^32 chunks (the host checks) */
    for (cur = (ulong)c * mec; cur < last; cur += mec, c++) sv[c] = (int)i;
}

/* ---- paths ----
   The path to t in a tree of parents (parent[root] = root, -1: outside the tree): out[0] = its
   vertex count m (0: t is outside), out[1..1+min(m, cap)) = root ... t. One work-item walks
   the tree twice (count, then write); more than n steps (a tree with a cycle) gives n + 1. */
__kernel void dg_path_walk(__global const int *parent, const int t, const uint n,
                           __global int *out, const uint cap)
{
    uint m, k;
    int v = t;
    if (get_global_id(0) != 0) return;
    if (parent[t] < 0) { out[0] = 0; return; }
    for (m = 1; parent[v] != v && m <= n; m++) v = parent[v];
    out[0] = (int)m;
    if (m > n) return;
    for (v = t, k = m; k-- > 0; v = parent[v])
        if (k < cap) out[1 + k] = v;
}
