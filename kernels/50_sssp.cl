/* kernels/50_sssp.cl - single-source shortest paths: Bellman-Ford, frontier Bellman-Ford and
   near-far, plus the weight check and the shortest-path tree.

   Distances are floats kept as their bit patterns in uint: for non-negative floats (and
   +INFINITY, 0x7f800000) the order of the bit patterns is the order of the values, so
   atomic_min on the bits is a float minimum (the Gunrock trick). The negative-weight
   Bellman-Ford compares floats in a compare-and-swap loop instead. `wpool` is NULL for an
   unweighted graph: every weight is 1. */

#define DG_W(wpool, x) ((wpool) ? (wpool)[x] : 1.0f)

/* Walks the edges of edge chunk c (chunks of mec edges in the order of the scan `off` of the
   out-degrees; sv[c] is the vertex owning the chunk's first edge). For every edge, the macro
   EDGE(v, dv, u, x) runs with v (the source vertex), dv (its distance bits), u (the head) and x
   (the pool index of the entry); OpenCL C has no variadic macros, so the edge code is a named
   macro. Vertices whose distance is INFINITY are skipped when skip_inf. */
#define DG_FOR_CHUNK_EDGES(c, skip_inf, EDGE) do { \
    uint e_ = (c) * mec, end_ = min(e_ + mec, total); \
    int v = sv[c]; \
    while (e_ < end_) { \
        const uint vend_ = off[v + 1], stop_ = min(vend_, end_); \
        const uint dv = (skip_inf) ? dist[v] : 0u; \
        if (!(skip_inf) || dv != DG_INF_BITS) { \
            uint deg_, k_; \
            const uint base_ = dg_row(DG_ADJ, v, &deg_); \
            for (k_ = e_ - off[v]; k_ < stop_ - off[v]; k_++) { \
                const uint x = dg_entry(DG_ADJ, base_, k_); \
                const int u = pool[x]; \
                EDGE(v, dv, u, x) \
            } \
        } \
        e_ = stop_; \
        v++; \
        while (e_ < end_ && off[v + 1] <= e_) v++; \
    } \
} while (0)

#define DG_CHUNK_ARGS __global const float *wpool, __global const uint *off, __global const int *sv, \
                      const uint nchunks, const uint mec, const uint total


/* ---- the weight check: part[0] = the smallest vertex with a negative out-weight (it starts at
   0xffffffff); part[1 + 2g], part[2 + 2g] = sum (float bits) and count of the other finite
   weights of work-group g (for the automatic delta). */
__kernel void dg_sssp_weights(DG_ADJ_ARGS, DG_CHUNK_ARGS, __global uint *part)
{
    __local float l_s[DG_WG];
    __local uint l_c[DG_WG];
    const uint lid = get_local_id(0);
    __global const uint *dist = 0;   /* DG_FOR_CHUNK_EDGES reads it only when skip_inf */
    float s = 0.0f;
    uint cnt = 0, c, k;
    for (c = get_global_id(0); c < nchunks; c += get_global_size(0)) {
#define DG_WCHECK_EDGE(v, dv, u, x) { \
            const float w_ = DG_W(wpool, x); \
            if (w_ < 0.0f) atomic_min(&part[0], (uint)(v)); \
            else if (w_ < INFINITY) { s += w_; cnt++; } \
        }
        DG_FOR_CHUNK_EDGES(c, 0, DG_WCHECK_EDGE);
    }
    l_s[lid] = s; l_c[lid] = cnt;
    for (k = DG_WG >> 1; k > 0; k >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < k) { l_s[lid] += l_s[lid + k]; l_c[lid] += l_c[lid + k]; }
    }
    if (lid == 0) { part[1 + 2 * get_group_id(0)] = as_uint(l_s[0]); part[2 + 2 * get_group_id(0)] = l_c[0]; }
}

/* The source: distance 0 (bits 0), the rest is set by the host (INFINITY fills). */
__kernel void dg_sssp_source(__global uint *dist, __global int *pred, const int src)
{
    if (get_global_id(0) != 0) return;
    if (dist) dist[src] = 0u;
    if (pred) pred[src] = src;
}

/* ---- DG_SSSP_BELLMAN_FORD: one pass relaxes every edge (edge chunks, 001's layout). Pass p
   counts its edges relaxed and distances lowered in ring slot p (16 uints: [0] updates,
   [1] edges relaxed, [2] a distance reached -INFINITY) and clears slot p+2, so several passes
   run without a read-back; a pass without updates ends the search. */
#define DG_SLOT(ctl, ring, L) ((ctl) + 16 * (size_t)((uint)(L) % (ring)))

#define DG_BF_PROLOGUE \
    __local uint l_e[DG_WG], l_u[DG_WG]; \
    const uint lid = get_local_id(0), c = get_global_id(0); \
    __global uint *cur = DG_SLOT(ctl, ring, pass); \
    uint ne = 0, nu = 0; \
    if (c == 0) { \
        __global uint *z = DG_SLOT(ctl, ring, pass + 2); \
        uint i_; \
        for (i_ = 0; i_ < 16; i_++) z[i_] = 0; \
    }
#define DG_BF_EPILOGUE \
    l_e[lid] = ne; l_u[lid] = nu; \
    DG_LOCAL_SUM(l_e, lid); \
    if (lid == 0 && l_e[0]) atomic_add(&cur[1], l_e[0]); \
    DG_LOCAL_SUM(l_u, lid); \
    if (lid == 0 && l_u[0]) atomic_add(&cur[0], l_u[0]);

__kernel void dg_sssp_bf(DG_ADJ_ARGS, DG_CHUNK_ARGS, __global uint *dist, __global uint *ctl,
                         const uint ring, const uint pass)
{
    DG_BF_PROLOGUE
    if (c < nchunks) {
#define DG_BF_EDGE(v, dv, u, x) { \
            const uint nb_ = as_uint(as_float(dv) + DG_W(wpool, x)); \
            ne++; \
            if (nb_ < dist[u] && nb_ < atomic_min(&dist[u], nb_)) nu++; \
        }
        DG_FOR_CHUNK_EDGES(c, 1, DG_BF_EDGE);
    }
    DG_BF_EPILOGUE
}

/* The same with negative weights: a float compare-and-swap loop; the winner records itself as
   the predecessor (racy: the host only looks for cycles in it, then rebuilds the tree). */
__kernel void dg_sssp_bf_neg(DG_ADJ_ARGS, DG_CHUNK_ARGS, __global uint *dist, __global uint *ctl,
                             const uint ring, const uint pass, __global int *pred)
{
    DG_BF_PROLOGUE
    if (c < nchunks) {
#define DG_BF_NEG_EDGE(v, dv, u, x) { \
            const float nd_ = as_float(dv) + DG_W(wpool, x); \
            uint old_ = dist[u]; \
            ne++; \
            while (nd_ < as_float(old_)) { \
                const uint seen_ = atomic_cmpxchg(&dist[u], old_, as_uint(nd_)); \
                if (seen_ == old_) { \
                    nu++; \
                    pred[u] = (v); \
                    if (nd_ == -INFINITY) cur[2] = 1; \
                    break; \
                } \
                old_ = seen_; \
            } \
        }
        DG_FOR_CHUNK_EDGES(c, 1, DG_BF_NEG_EDGE);
    }
    DG_BF_EPILOGUE
}

/* ---- the shortest-path tree, from the final distances (all strategies) ----
   An edge v->u is tight when dist[v] + w == dist[u] (the same float addition that set
   dist[u]). mode 0: pred[u] = v for a tight edge with dist[v] < dist[u] (strictly shorter,
   so these never form a cycle). mode 1: u without a predecessor takes a tight v that has one
   (claimed once, by compare-and-swap): every claim points to a vertex that had its
   predecessor earlier, so there are no cycles either; repeated until nothing changes, it
   covers the ties (zero weights, or weights lost to rounding) and, with negative weights,
   builds the whole tree from the source. flag[0] = 1 when a pass claimed something. */
__kernel void dg_sssp_pred(DG_ADJ_ARGS, DG_CHUNK_ARGS, __global const uint *dist,
                           __global int *pred, const uint mode, __global uint *flag)
{
    const uint c = get_global_id(0);
    uint claimed = 0;
    if (c >= nchunks) return;
#define DG_PRED_EDGE(v, dv, u, x) { \
        const float nd_ = as_float(dv) + DG_W(wpool, x), du_ = as_float(dist[u]); \
        if (nd_ == du_ && du_ < INFINITY) { \
            if (mode == 0) { \
                if (as_float(dv) < du_) pred[u] = (v); \
            } else if (pred[u] == -1 && pred[v] != -1 && atomic_cmpxchg(&pred[u], -1, (v)) == -1) { \
                claimed = 1; \
            } \
        } \
    }
    DG_FOR_CHUNK_EDGES(c, 1, DG_PRED_EDGE);
    if (claimed) flag[0] = 1;
}

/* ---- DG_SSSP_FRONTIER: the public advance + filter with these functions ----
   data = [n, dist bits[0..n), claimed[0..n)]. The advance keeps the heads whose distance it
   lowered; the filter keeps the first copy of each; a compute clears their claims. */
inline int dg_sssp_frontier_relax(int s, int d, float w, __global int *data)
{
    __global uint *dist = (__global uint *)(data + 1);
    const uint nb = as_uint(as_float(dist[s]) + w);
    if (nb >= dist[d]) return 0;
    return nb < atomic_min(&dist[d], nb);
}
inline int dg_sssp_frontier_first(int v, __global int *data)
{
    return atomic_xchg(&data[1 + data[0] + v], 1) == 0;
}
inline void dg_sssp_frontier_unclaim(int v, __global int *data)
{
    data[1 + data[0] + v] = 0;
}
DG_DEFINE_ADVANCE(dg_sssp_frontier_advance, dg_sssp_frontier_relax)
DG_DEFINE_FILTER(dg_sssp_frontier_filter, dg_sssp_frontier_first)
DG_DEFINE_COMPUTE(dg_sssp_frontier_reset, dg_sssp_frontier_unclaim)

/* ---- DG_SSSP_NEAR_FAR ----
   Davidson et al.'s near-far delta-stepping with all control on the device. Each launch is
   one iteration L and does one of three things, decided alike by every work-item from ring
   slots that earlier launches finished:
   - relax: the near queue of L (vertices whose distance fell below the threshold thr) has
     work: expand the out-edges of its vertices; a lowered distance nd goes to the next near
     queue if nd < thr (once per iteration: stamp[v] = L + 1), else to the far pile (once:
     ff[v]). Lists longer than `hub` are cut into pieces of DG_PIECE edges that the NEXT
     launch spreads over all work-groups (label-correcting: relaxing them one launch later
     is still correct).
   - split: the near queue is empty, the far pile is not: thr' = max(thr, min far) + delta;
     far vertices now below thr are dropped (they were relaxed since), those below thr' go
     to the near queue, the rest to the other far buffer.
   - idle: both are empty: done. The host queues launches in batches and reads the ring.
   Slot L (16 uints): [0] near count of L (appended by L-1), [1] thr bits, [2] active far
   buffer, [3] far entries at the start of L, [4] far minimum bits, [5] mode (0 relax, 1 split,
   2 idle), [6] far entries appended (relax) or kept (split), [7] minimum of those (bits),
   [8] split: new threshold, [9] edges relaxed, [10] distances lowered, [11] hub pieces
   appended for L+1, [12] vertices expanded in local rounds (listed in lx for L+1), [13] next
   chunk of the near queue to take. [1]-[5] and [8] are written by work-item 0 of launch L; launch L clears
   slot L+2. */

/* Relaxes edge x (head u) from a vertex at distance du. */
#define DG_NF_RELAX(du, u, x) do { \
    const float nd_ = (du) + DG_W(wpool, x); \
    const uint nb_ = as_uint(nd_); \
    ne++; \
    if (nb_ < dist[u] && nb_ < atomic_min(&dist[u], nb_)) { \
        nu++; \
        if (nd_ < thr) { \
            if (atomic_xchg(&stamp[u], L + 1) != L + 1) l_q[atomic_inc(&l_n)] = (u); \
        } else { \
            atomic_min(&cur[7], nb_); \
            if (atomic_xchg(&ff[u], 1u) == 0u) far_cur[F + atomic_inc(&cur[6])] = (u); \
        } \
    } \
} while (0)

/* Appends the local near list to the next queue once it might not take another round of
   DG_WG (or at the end: last). The whole work-group runs it. */
#define DG_NF_FLUSH(last) do { \
    barrier(CLK_LOCAL_MEM_FENCE); \
    if ((last) || l_n > DG_NFQ - DG_WG) { \
        uint f_; \
        if (lid == 0 && l_n) l_out = atomic_add(&nx[0], l_n); \
        barrier(CLK_LOCAL_MEM_FENCE); \
        for (f_ = lid; f_ < l_n; f_ += DG_WG) q_out[l_out + f_] = l_q[f_]; \
        barrier(CLK_LOCAL_MEM_FENCE); \
        if (lid == 0) l_n = 0; \
        barrier(CLK_LOCAL_MEM_FENCE); \
    } \
} while (0)
#define DG_NFQ (4 * DG_WG)

/* Each work-item brings one list (row base, distance, length; length 0: none); the
   work-group relaxes all their edges together, DG_WG at a time, balanced by a scan. */
#define DG_NF_EXPAND(base, du, deg) do { \
    uint tot_, e0_; \
    l_base[lid] = (base); l_du[lid] = (du); l_off[lid] = (deg); \
    tot_ = dg_local_scan(l_off, lid); \
    for (e0_ = 0; e0_ < tot_; e0_ += DG_WG) { \
        const uint e_ = e0_ + lid; \
        if (e_ < tot_) { \
            const uint j_ = dg_local_owner(l_off, DG_WG, e_); \
            const uint x_ = dg_entry(DG_ADJ, l_base[j_], e_ - l_off[j_]); \
            const int u_ = pool[x_]; \
            DG_NF_RELAX(l_du[j_], u_, x_); \
        } \
        DG_NF_FLUSH(0); \
    } \
} while (0)

__kernel void dg_sssp_nf(DG_ADJ_ARGS, __global const float *wpool,
                         __global const int *q_in, __global int *q_out,
                         __global int *far0, __global int *far1,
                         __global int2 *pieces, const uint piece_cap, const uint hub,
                         __global uint *ctl, const uint ring, const uint L, const float delta,
                         __global uint *dist, __global uint *stamp, __global uint *ff,
                         __global int *lx0, __global int *lx1, __global uint *ex, const uint rounds)
{
    __local uint l_off[DG_WG], l_base[DG_WG], l_e[DG_WG];
    __local float l_du[DG_WG];
    __local int l_q[DG_NFQ];
    __local uint l_n, l_out, l_chunk;
    const uint lid = get_local_id(0), gid = get_global_id(0);
    const uint grp = get_group_id(0), ngrp = get_num_groups(0);
    __global uint *prev = DG_SLOT(ctl, ring, L + ring - 1);
    __global uint *cur = DG_SLOT(ctl, ring, L);
    __global uint *nx = DG_SLOT(ctl, ring, L + 1);
    const uint pmode = prev[5];
    /* this launch's state, from the previous launch's slot */
    const uint fa = pmode == 1 ? 1u - prev[2] : prev[2];
    const uint F = pmode == 1 ? prev[6] : prev[3] + prev[6];
    const float thr = as_float(pmode == 1 ? prev[8] : prev[1]);
    const uint fmin = pmode == 1 ? prev[7] : min(prev[4], prev[7]);
    const uint n_q = cur[0], np_in = min(prev[11], piece_cap), n_in = n_q + prev[12];
    const uint mode = (n_in > 0 || np_in > 0) ? 0u : F > 0 ? 1u : 2u;
    __global const int *lx_in = (L & 1) ? lx0 : lx1;
    __global int *lx_out = (L & 1) ? lx1 : lx0;
    __global int *far_cur = fa ? far1 : far0;
    __global int *far_oth = fa ? far0 : far1;
    uint ne = 0, nu = 0;
    if (gid == 0) {
        __global uint *z = DG_SLOT(ctl, ring, L + 2);
        uint i;
        for (i = 0; i < 16; i++) z[i] = 0;
        z[7] = DG_INF_BITS;
        cur[1] = as_uint(thr); cur[2] = fa; cur[3] = F; cur[4] = fmin; cur[5] = mode;
    }
    if (mode == 2) return;
    if (mode == 1) {   /* split the far pile */
        /* (at least past the far minimum, also where delta is lost to rounding) */
        const float thrn = max(max(thr, as_float(fmin)) + delta, nextafter(as_float(fmin), INFINITY));
        uint i;
        if (gid == 0) cur[8] = as_uint(thrn);
        for (i = gid; i < F; i += get_global_size(0)) {
            const int v = far_cur[i];
            const float d = as_float(dist[v]);
            if (d < thr) ff[v] = 0u;
            else if (d < thrn) {
                ff[v] = 0u;
                if (atomic_xchg(&stamp[v], L + 1) != L + 1) q_out[atomic_inc(&nx[0])] = v;
            } else {
                far_oth[atomic_inc(&cur[6])] = v;
                atomic_min(&cur[7], as_uint(d));
            }
        }
        return;
    }
    if (lid == 0) l_n = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    /* the hub pieces the previous launch left: piece j to work-group j % ngrp */
    {
        __global const int2 *pin = pieces + (size_t)((L + 1) & 1) * piece_cap;
        uint j;
        for (j = grp; j < np_in; j += ngrp) {
            const int2 pc = pin[j];
            uint deg, e0;
            const uint base = dg_row(DG_ADJ, pc.x, &deg);
            const float du = as_float(dist[pc.x]);
            const uint hi = min(deg, (uint)pc.y + DG_PIECE);
            for (e0 = (uint)pc.y; e0 < hi; e0 += DG_WG) {
                const uint e = e0 + lid;
                if (e < hi) {
                    const uint x = dg_entry(DG_ADJ, base, e);
                    const int u = pool[x];
                    DG_NF_RELAX(du, u, x);
                }
                DG_NF_FLUSH(0);
            }
        }
    }
    /* the near queue: cs <= DG_WG vertices at a time, their edges expanded together; a small
       queue is spread over all work-groups (a few vertices each: one round of edges, not
       several rounds in a few work-groups) */
    {
        __global int2 *pout = pieces + (size_t)(L & 1) * piece_cap;
        const uint cs = n_in >= ngrp * DG_WG ? DG_WG : max(1u, (n_in + ngrp - 1) / ngrp);
        /* chunks taken from a counter: a work-group slowed by long lists takes fewer. (The
           loops with barriers have their exit test at the top only: PoCL needs that.) */
        if (lid == 0) l_chunk = atomic_inc(&cur[13]);
        barrier(CLK_LOCAL_MEM_FENCE);
        while ((size_t)l_chunk * cs < n_in) {
            const uint i = lid < cs ? l_chunk * cs + lid : 0xffffffffu;
            uint deg = 0, base = 0;
            float du = 0.0f;
            int v = -1;
            if (i < n_q) v = q_in[i];
            else if (i < n_in) {   /* expanded locally by launch L-1: again if lowered since */
                v = lx_in[i - n_q];
                if (v >= 0 && dist[v] == ex[v]) v = -1;
            }
            if (v >= 0) {
                base = dg_row(DG_ADJ, v, &deg);
                du = as_float(dist[v]);
                if (deg > hub) {   /* (past piece_cap, which the host sizes so that it cannot
                                      happen, the list is relaxed here as well: pieces only
                                      ever relax edges again) */
                    const uint np = (deg + DG_PIECE - 1) / DG_PIECE;
                    const uint at = atomic_add(&cur[11], np);
                    uint k;
                    for (k = 0; k < np && at + k < piece_cap; k++) pout[at + k] = (int2)(v, (int)(k * DG_PIECE));
                    if (at + np <= piece_cap) deg = 0;
                }
            }
            DG_NF_EXPAND(base, du, deg);
            barrier(CLK_LOCAL_MEM_FENCE);
            if (lid == 0) l_chunk = atomic_inc(&cur[13]);
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }
    /* local rounds: while the vertices this work-group put in the next near queue fit one
       chunk, expand them now instead (a high-diameter graph advances `rounds` hops per launch
       instead of one). Each is listed in lx_out with the distance it was expanded with in
       ex[v]; a vertex lowered again afterwards (by anyone: its stamp already says "queued")
       is expanded again by the next launch. Lists longer than hub go to the queue. Only while
       the queue is small (under an eighth of the work-items): on a large one (Kronecker)
       early expansions only add work. */
    {
        uint r = n_in * 8 <= ngrp * DG_WG ? 0 : rounds, nh;
        barrier(CLK_LOCAL_MEM_FENCE);
        nh = l_n;
        barrier(CLK_LOCAL_MEM_FENCE);
        while (r < rounds && nh > 0 && nh <= DG_WG) {
            uint deg = 0, base = 0;
            float du = 0.0f;
            int v = -1;
            r++;
            if (lid < nh) v = l_q[lid];
            if (lid == 0) { l_n = 0; l_out = atomic_add(&cur[12], nh); }
            barrier(CLK_LOCAL_MEM_FENCE);
            if (v >= 0) {
                base = dg_row(DG_ADJ, v, &deg);
                if (deg > hub) {
                    q_out[atomic_inc(&nx[0])] = v;
                    lx_out[l_out + lid] = -1;
                    deg = 0;
                } else {
                    lx_out[l_out + lid] = v;
                    du = as_float(dist[v]);
                    ex[v] = as_uint(du);
                }
            }
            DG_NF_EXPAND(base, du, deg);
            barrier(CLK_LOCAL_MEM_FENCE);
            nh = l_n;
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }
    DG_NF_FLUSH(1);
    l_e[lid] = ne;
    DG_LOCAL_SUM(l_e, lid);
    if (lid == 0 && l_e[0]) atomic_add(&cur[9], l_e[0]);
    barrier(CLK_LOCAL_MEM_FENCE);
    l_e[lid] = nu;
    DG_LOCAL_SUM(l_e, lid);
    if (lid == 0 && l_e[0]) atomic_add(&cur[10], l_e[0]);
}

/* Slot ring-1 and slots 0, 1 before the first launch: the source alone in the near queue,
   threshold thr0, no far entries. */
__kernel void dg_sssp_nf_init(__global uint *ctl, const uint ring, const float thr0)
{
    const size_t i = get_global_id(0);
    if (i >= 16 * (size_t)ring) return;
    ctl[i] = (i % 16 == 7 || i % 16 == 4) ? DG_INF_BITS : 0u;
    if (i == 0) ctl[0] = 1u;
    if (i == 16 * (size_t)(ring - 1) + 1) ctl[i] = as_uint(thr0);
}
