/* kernels/10_adjacency.cl - reading the slotted pages on the device.

   tools/gen_kernels.sh turns the .cl files of kernels/ (in name order) into
   dyngraph_kernels.cl.h;
   run `make kernels` after editing and commit both (`make test` fails while it is stale).
   OpenCL C 1.2. The host compiles the program with:
     DG_LOG_P  log2 of the page size P (entries per page)
     DG_DS     directory stride in int32 entries (2 per store: 2 or 4)
     DG_WG     work-group size of the load-balanced kernels (a power of two, <= 256)
     DG_CPU    (on a CPU device) kernels with barriers never return before them (PoCL)
     DG_CSR    (optional) the same kernels over a plain CSR: `dir` holds the row offsets
               (n+1 uint) and `pool` the column indices; used to measure the pages' cost.
     DG_POS64  (when a pool holds more than 2^32 entries) 64-bit pool positions (dg_pos)

   The layout (see the manual in dyngraph.h): vertex v's list in a store starts at the
   directory pair (page, offset) = dir[DG_DS*v + dso], dso = 0 (out-store) or 2 (in-store);
   pool[page*P + offset] is the degree, the neighbours follow. A large list (degree > P-6)
   keeps neighbours 0..P-7 on its first page and the rest on continuation pages of P-3
   neighbours each, whose page numbers are in the LA table: latab[idx[first page].w + 1 + j]
   is page j of the list. So neighbour k is found in O(1): no search, unlike [Martinho 2021]. */

#define DG_P   (1u << DG_LOG_P)
#define DG_C0  DG_LARGE_FIRST(DG_P)   /* neighbours on the first page of a large list */
#define DG_CN  DG_LARGE_CONT(DG_P)    /* neighbours on each continuation page */

/* A position in the pool (an index into pool / wpool): 32 bits while every pool holds at most
   2^32 entries, 64 under DG_POS64 (the host turns it on when a pool grows past that; >>mirror).
   Whatever holds a position is a dg_pos; what counts within one list (k, deg, runs) stays a
   uint. DG_PAGE_POS(p) is the position of page p's entry 0 (widened before the shift). */
#ifdef DG_POS64
typedef ulong dg_pos;
#else
typedef uint dg_pos;
#endif
#define DG_PAGE_POS(p) ((dg_pos)(uint)(p) << DG_LOG_P)

/* The arguments that describe one store, passed to every kernel that reads adjacency. */
#define DG_ADJ_ARGS __global const int *dir, const uint dso, __global const int *pool, \
                    __global const int4 *idx, __global const int *latab
#define DG_ADJ dir, dso, pool, idx, latab

/* Pool index of neighbour 0 of v's list (and its degree in *deg); *deg = 0 for a removed
   vertex. */
inline dg_pos dg_row(DG_ADJ_ARGS, const int v, uint *deg)
{
#ifdef DG_CSR
    const dg_pos b = (uint)dir[v];
    *deg = (uint)dir[v + 1] - (uint)dir[v];
    return b;
#else
    const int page = dir[DG_DS * (size_t)v + dso];
    if (page < 0) { *deg = 0; return 0; }
    {
        const dg_pos b = DG_PAGE_POS(page) + (uint)dir[DG_DS * (size_t)v + dso + 1];
        *deg = (uint)pool[b];
        return b + 1;
    }
#endif
}

/* Degree of v (0 if removed). */
inline uint dg_degree(DG_ADJ_ARGS, const int v)
{
    uint d;
    dg_row(DG_ADJ, v, &d);
    return d;
}

/* Pool index of neighbour k of the list whose neighbour 0 is at `base` (from dg_row). */
inline dg_pos dg_entry(DG_ADJ_ARGS, const dg_pos base, uint k)
{
#ifndef DG_CSR
    if (k >= DG_C0) {                    /* only large lists get here: base = first page + 4 */
        const int tab = idx[base >> DG_LOG_P].w;
        uint j;
        k -= DG_C0;
        j = 1u + k / DG_CN;
        return DG_PAGE_POS(latab[tab + 1 + (int)j]) + 3u + k % DG_CN;
    }
#endif
    return base + k;
}

/* How many neighbours from k on (k < deg) lie one after another in the pool from dg_entry's
   index: the rest of the list, or of its page. A loop over runs (dg_walk) walks a list
   without dg_entry's division per neighbour. */
inline uint dg_run(const uint k, const uint deg)
{
#ifndef DG_CSR
    if (deg > DG_C0) {
        const uint left = k < DG_C0 ? DG_C0 - k : DG_CN - (k - DG_C0) % DG_CN;
        return min(left, deg - k);
    }
#endif
    return deg - k;
}

/* A walk over a list, neighbour k = 0, 1, ... deg-1 in turn: the pool index of neighbour k,
   dg_entry only where a run starts (*e, *r: the walk's place and what is left of its run, both
   0 before neighbour 0). */
inline dg_pos dg_walk(DG_ADJ_ARGS, const dg_pos base, const uint k, const uint deg, dg_pos *e, uint *r)
{
    if (*r == 0) { *e = dg_entry(DG_ADJ, base, k); *r = dg_run(k, deg); }
    (*r)--;
    return (*e)++;
}

inline int dg_neighbor(DG_ADJ_ARGS, const dg_pos base, const uint k)
{
    return pool[dg_entry(DG_ADJ, base, k)];
}

/* ---- edge chunks: the arcs of the out-lists, in vertex order, cut into chunks of mec arcs
   (off: the exclusive scan of the degrees, positions in that numbering, so 64-bit under
   DG_POS64 like the pool's; sv[c]: the vertex owning chunk c's first arc; total: the arcs,
   a ulong in every build) ---- */
/* A walk over one chunk, a vertex at a time: dg_ec_next gives the chunk's neighbours k0..k1-1
   of vertex v (off[v] <= e < off[v + 1] while e < end: the chunk's next edge). */
typedef struct dg_ec_walk {
    dg_pos e, end; /* the chunk's next edge and its end */
    int v;         /* the vertex owning edge e */
    uint k0, k1;   /* the run dg_ec_next gave (within one list) */
} dg_ec_walk;

/* Edge c*mec, the first of chunk c (c < the chunks, fewer than 2^32: the host checks). */
inline dg_pos dg_ec_first(const uint c, const uint mec) { return (dg_pos)c * mec; }

inline dg_ec_walk dg_ec_start(__global const int *sv, const uint c, const uint mec,
                              const ulong total)
{
    dg_ec_walk w;
    w.e = dg_ec_first(c, mec);           /* < total: c is a chunk */
    w.end = total - w.e < mec ? (dg_pos)total : w.e + mec;   /* no 32-bit wrap for a huge mec */
    w.v = sv[c];
    w.k0 = w.k1 = 0;
    return w;
}
/* The next vertex with edges in the chunk (skipping those of degree 0) and its run; 0 at the
   chunk's end. */
inline int dg_ec_next(__global const dg_pos *off, dg_ec_walk *w)
{
    dg_pos first;
    if (w->e >= w->end) return 0;
    while (off[w->v + 1] <= w->e) w->v++;
    first = off[w->v];
    w->k0 = (uint)(w->e - first);
    w->e = min(off[w->v + 1], w->end);
    w->k1 = (uint)(w->e - first);
    return 1;
}

/* ---- bitmaps of vertices (32 per word) ---- */
inline int dg_bit(__global const uint *bm, const int v) { return (bm[(uint)v >> 5] >> ((uint)v & 31u)) & 1u; }
/* Sets bit v; returns 1 if this call set it (it was clear). */
inline int dg_claim(__global uint *bm, const int v)
{
    const uint m = 1u << ((uint)v & 31u);
    if (bm[(uint)v >> 5] & m) return 0;
    return (atomic_or(&bm[(uint)v >> 5], m) & m) == 0u;
}

/* Exclusive scan of DG_WG values in local memory (x[lid] in, result back in x); returns the
   total. Every work-item of the group calls it. On NVIDIA: each warp scans its 32 values in
   registers (PTX shfl.sync, five steps), the warps' totals go through x[0 .. DG_WG/32): 5
   local barriers where the tree below takes 18 (a deep search pays them every level).
   Elsewhere: work-efficient up-sweep / down-sweep (Blelloch), as in [Martinho 2021]. */
#if defined(DG_NV_PTX) && DG_WG >= 32
inline uint dg_shfl_up(const uint x, const uint d)
{
    uint r;
    asm volatile("shfl.sync.up.b32 %0, %1, %2, 0, 0xffffffff;" : "=r"(r) : "r"(x), "r"(d));
    return r;
}
inline uint dg_local_scan(__local uint *x, const uint lid)
{
    const uint lane = lid & 31u, w = lid >> 5;
    uint v, s, d, i, pre = 0, total = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    v = x[lid];
    s = v;
    for (d = 1; d < 32u; d <<= 1) {
        const uint t = dg_shfl_up(s, d);
        if (lane >= d) s += t;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lane == 31u) x[w] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (i = 0; i < DG_WG / 32u; i++) {
        const uint y = x[i];
        if (i < w) pre += y;
        total += y;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    x[lid] = pre + s - v;
    barrier(CLK_LOCAL_MEM_FENCE);
    return total;
}
#else
inline uint dg_local_scan(__local uint *x, const uint lid)
{
    uint d, off = 1, total;
    for (d = DG_WG >> 1; d > 0; d >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < d) {
            const uint ai = off * (2 * lid + 1) - 1, bi = off * (2 * lid + 2) - 1;
            x[bi] += x[ai];
        }
        off <<= 1;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    total = x[DG_WG - 1];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) x[DG_WG - 1] = 0;
    for (d = 1; d < DG_WG; d <<= 1) {
        off >>= 1;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < d) {
            const uint ai = off * (2 * lid + 1) - 1, bi = off * (2 * lid + 2) - 1;
            const uint t = x[ai];
            x[ai] = x[bi];
            x[bi] += t;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    return total;
}
#endif

/* Largest j in [0, n) with x[j] <= e (x ascending, x[0] <= e): the owner of output element e
   in an exclusive scan. One body for local and global memory (OpenCL 1.2 has no generic
   address space). */
#define DG_DEFINE_OWNER(NAME, SPACE) \
inline uint NAME(SPACE const uint *x, const uint n, const uint e) \
{ \
    uint lo = 0, hi = n; \
    while (hi - lo > 1) { \
        const uint mid = (lo + hi) >> 1; \
        if (x[mid] <= e) lo = mid; else hi = mid; \
    } \
    return lo; \
}
DG_DEFINE_OWNER(dg_local_owner, __local)
DG_DEFINE_OWNER(dg_global_owner, __global)

/* Sums the DG_WG values of local memory x into x[0]. A macro because it holds barriers, which
   PoCL wants in the kernel body itself. */
#define DG_LOCAL_SUM(x, lid) do { \
    uint s_; \
    for (s_ = DG_WG >> 1; s_ > 0; s_ >>= 1) { \
        barrier(CLK_LOCAL_MEM_FENCE); \
        if ((lid) < s_) (x)[lid] += (x)[(lid) + s_]; \
    } \
    barrier(CLK_LOCAL_MEM_FENCE); \
} while (0)

/* Work-group sizes in local memory: hub pieces and local output lists. */
#define DG_PIECE (DG_PIECE_WGS * DG_WG)
#define DG_LOCAL_LIST (DG_LOCAL_LISTS * DG_WG)

/* Appends the work-group's local list l_q (l_n entries, __local) to the global list q_out
   whose length is *out_n, once it might not take another DG_WG entries (always when last),
   and empties it; l_out is a __local uint for the list's place. The whole work-group runs
   it. A macro because it holds barriers, which PoCL wants in the kernel body itself. */
#define DG_LIST_FLUSH(last, lid, l_q, l_n, l_out, out_n, q_out) do { \
    barrier(CLK_LOCAL_MEM_FENCE); \
    if ((last) || (l_n) > DG_LOCAL_LIST - DG_WG) { \
        uint f_; \
        if ((lid) == 0 && (l_n)) (l_out) = atomic_add((out_n), (l_n)); \
        barrier(CLK_LOCAL_MEM_FENCE); \
        for (f_ = (lid); f_ < (l_n); f_ += DG_WG) (q_out)[(l_out) + f_] = (l_q)[f_]; \
        barrier(CLK_LOCAL_MEM_FENCE); \
        if ((lid) == 0) (l_n) = 0; \
        barrier(CLK_LOCAL_MEM_FENCE); \
    } \
} while (0)

/* The flat kernels' lists (for CPU devices: no local memory, no barriers): a work-item keeps
   what it appends in a private buffer of DG_FLAT_LIST entries and writes it to the global list
   out (its length *out_n) with one atomic when full and at its end. dg_flat_append returns 0, the
   buffer's new length. */
#define DG_FLAT_LIST 64
/* The degrees of a flat kernel's vertices v[0..n) summed, read together (after the vertices
   were found, not one by one as each is: the misses overlap). */
inline uint dg_flat_degrees(DG_ADJ_ARGS, const int *v, const uint n)
{
    uint i, m = 0;
    for (i = 0; i < n; i++) m += dg_degree(DG_ADJ, v[i]);
    return m;
}
/* A flat kernel reads the rows (dg_row: the directory entry, then the list's first page) of
   DG_FLAT_BATCH vertices before it walks their lists: a CPU core then waits for those misses
   together, not one after another (PoCL, scale 20: SSSP 19-22% faster; bench/NOTES.md). */
#define DG_FLAT_BATCH 8
/* A flat kernel's first batch: batch b goes to work-group b mod groups (a CPU core each), so
   that a short queue is spread over all of them; a work-item then steps by the global size. */
inline uint dg_flat_first(void)
{
    return (uint)(get_local_id(0) * get_num_groups(0) + get_group_id(0));
}
inline uint dg_flat_append(const int *buf, const uint nb, __global uint *out_n, __global int *out)
{
    uint i, at;
    if (!nb) return 0;
    at = atomic_add(out_n, nb);
    for (i = 0; i < nb; i++) out[at + i] = buf[i];
    return 0;
}

/* ---- device-wide barriers (dg_bfs_deep, dg_sssp_nf_deep): the DG_DEEP_ARRIVE and DG_DEEP_GEN
   words of a control buffer; see kernels/40_bfs.cl, "deep searches" ---- */
/* A fence that makes a work-item's global writes visible to the other work-groups of the
   launch before what it does next. OpenCL 1.2's mem_fence(CLK_GLOBAL_MEM_FENCE) compiles to a
   work-group-scope fence on NVIDIA (membar.cta in its PTX: read in the driver's output, and
   seen as stale queue entries across groups), so there it is PTX's device-scope membar.gl. */
#ifdef DG_NV_PTX
#define DG_DEVICE_FENCE() asm volatile("membar.gl;" : : : "memory")
#else
#define DG_DEVICE_FENCE() mem_fence(CLK_GLOBAL_MEM_FENCE)
#endif

/* The poll of a device-wide barrier: a load with acquire semantics at device scope (what other
   groups wrote before they arrived is seen by the loads after it), so no fence is needed after
   the barrier. NVIDIA from compute capability 7 (Volta; the host passes DG_NV_SM70): PTX
   ld.acquire.gpu (measured 0.34 us a barrier less than a volatile poll and membar.gl,
   bench/barrier.c); elsewhere a volatile load and DG_ACQUIRE_FENCE. */
#if defined(DG_NV_PTX) && defined(DG_NV_SM70)
inline uint dg_ld_acquire(volatile __global const uint *p)
{
    uint v;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}
#define DG_ACQUIRE_FENCE()
#else
inline uint dg_ld_acquire(volatile __global const uint *p) { return *p; }
#define DG_ACQUIRE_FENCE() DG_DEVICE_FENCE()
#endif

/* lid 0's side of barrier k (1, 2, ...): arrive, then wait. 1: all G arrived; 0: aborted.
   An abort at barrier a leaves DG_DEEP_ABORT | a: a group still waiting at barrier a - 1
   (it had not seen it pass yet) sees that a - 1 passed. */
inline uint dg_deep_arrive(__global uint *ctl, const uint k, const uint G, const uint spin_max)
{
    volatile __global uint *gen = ctl + DG_DEEP_GEN;
    uint spins = 0;
    if (atomic_inc(&ctl[DG_DEEP_ARRIVE]) + 1u == G * k)
        atomic_cmpxchg(&ctl[DG_DEEP_GEN], k - 1u, k);
    for (;;) {
        const uint v = dg_ld_acquire(gen);
        if (v & DG_DEEP_ABORT) return k < (v & ~DG_DEEP_ABORT);
        if (v >= k) return 1u;
        if (++spins > spin_max && atomic_cmpxchg(&ctl[DG_DEEP_GEN], k - 1u, DG_DEEP_ABORT | k) == k - 1u)
            return 0u;
    }
}

/* A 64-bit count into two words (low, high) of a control buffer. */
inline void dg_deep_put64(__global uint *w, const ulong x)
{
    w[0] = (uint)x;
    w[1] = (uint)(x >> 32);
}

/* ---- the templates: one kernel per user function ----
   ADVANCE: one work-item per output edge e < total; the owner of e is found by binary search
   in the exclusive scan `off` of the frontier's degrees (listings 8-10), then neighbour
   e - off[owner] is read in O(1) (large lists included). Kept neighbours are gathered in
   local memory and appended with one global atomic per work-group. The kernel's last
   parameters are LAST_PARAMS; PRELUDE (statements) runs first; FN's last argument is LAST
   (kernels/15_user.cl instantiates it with dg_args). */
#define DG_ADVANCE_KERNEL(NAME, FN, LAST_PARAMS, PRELUDE, LAST) \
__kernel void NAME(DG_ADJ_ARGS, __global const float *wpool, __global const int *in, \
                   __global const uint *off, const uint n_in, const uint total, \
                   __global int *out, __global uint *out_n, LAST_PARAMS) \
{ \
    __local uint l_n, l_base; \
    const uint e = (uint)get_global_id(0), lid = (uint)get_local_id(0); \
    uint pos = 0; int keep = 0, u = 0; \
    PRELUDE \
    if (lid == 0) l_n = 0; \
    barrier(CLK_LOCAL_MEM_FENCE); \
    if (e < total) { \
        const uint i = dg_global_owner(off, n_in, e); \
        const int v = in[i]; \
        uint deg; \
        const dg_pos x = dg_entry(DG_ADJ, dg_row(DG_ADJ, v, &deg), e - off[i]); \
        u = pool[x]; \
        keep = FN(v, u, wpool ? wpool[x] : 1.0f, LAST) != 0; \
        if (keep) pos = atomic_inc(&l_n); \
    } \
    barrier(CLK_LOCAL_MEM_FENCE); \
    if (lid == 0 && l_n) l_base = atomic_add(out_n, l_n); \
    barrier(CLK_LOCAL_MEM_FENCE); \
    if (keep) out[l_base + pos] = u; \
}
#define DG_DEFINE_ADVANCE(NAME, FN) DG_ADVANCE_KERNEL(NAME, FN, __global int *data, , data)

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
