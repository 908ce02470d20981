/* kernels/50_sssp.cl - single-source shortest paths: Bellman-Ford, frontier Bellman-Ford and
   near-far, plus the weight check and the shortest-path tree.

   Distances are floats kept as their bit patterns in uint: for non-negative floats (and
   +INFINITY, DG_INF_BITS) the order of the bit patterns is the order of the values, so
   atomic_min on the bits is a float minimum (the Gunrock trick). The negative-weight
   Bellman-Ford compares floats in a compare-and-swap loop instead. `wpool` is NULL for an
   unweighted graph: every weight is 1. */

/* The weight of pool entry x. */
inline float dg_weight(__global const float *wpool, const dg_pos x)
{
    return wpool ? wpool[x] : 1.0f;
}

/* Lowers dist[u] to the float nd with a compare-and-swap loop (negative weights: the order of
   the bits is not the order of the values); returns 1 if this call lowered it. (With
   non-negative weights the kernels lower with atomic_min after a plain read: most relaxations
   lose, and then cost no atomic.) */
inline int dg_lower_cas(__global uint *dist, const int u, const float nd)
{
    uint old = dist[u];
    while (nd < as_float(old)) {
        const uint seen = atomic_cmpxchg(&dist[u], old, as_uint(nd));
        if (seen == old) return 1;
        old = seen;
    }
    return 0;
}

/* Control blocks: ring slot L % ring of DG_CTL_WORDS words (00_shared.h names the words). */
inline __global uint *dg_slot(__global uint *ctl, const uint ring, const uint L)
{
    return ctl + DG_CTL_WORDS * (size_t)(L % ring);
}

/* Clears control block z. */
inline void dg_ctl_clear(__global uint *z)
{
    uint i;
    for (i = 0; i < DG_CTL_WORDS; i++) z[i] = 0;
}

/* Slot L of a Bellman-Ford pass; work-item 0 clears slot L + 2 for a later one. */
inline __global uint *dg_slot_step(__global uint *ctl, const uint ring, const uint L)
{
    if (get_global_id(0) == 0) dg_ctl_clear(dg_slot(ctl, ring, L + 2));
    return dg_slot(ctl, ring, L);
}

/* Sums DG_WG values of each of the local arrays a and b, into a[0] and b[0], one barrier a
   step; work-item 0 reads the sums. A macro: barriers, which PoCL wants in the kernel body. */
#define DG_LOCAL_SUM2(a, b, lid) do { \
    uint s_; \
    for (s_ = DG_WG >> 1; s_ > 0; s_ >>= 1) { \
        barrier(CLK_LOCAL_MEM_FENCE); \
        if ((lid) < s_) { (a)[lid] += (a)[(lid) + s_]; (b)[lid] += (b)[(lid) + s_]; } \
    } \
} while (0)

/* Adds the work-group's counts n (.x edges relaxed, .y distances lowered) to *to_e and *to_u,
   one atomic each; l_e and l_u are local arrays of DG_WG uints (or of wider integers: near-far
   lends its l_base, dg_pos), lid a variable (calls of get_local_id in the sum's loop slow PoCL
   down). A macro: DG_LOCAL_SUM2. */
#define DG_ADD_COUNTS(lid, l_e, l_u, n, to_e, to_u) do { \
    (l_e)[lid] = (n).x; (l_u)[lid] = (n).y; \
    DG_LOCAL_SUM2(l_e, l_u, lid); \
    if ((lid) == 0 && (l_e)[0]) atomic_add((to_e), (uint)(l_e)[0]); \
    if ((lid) == 0 && (l_u)[0]) atomic_add((to_u), (uint)(l_u)[0]); \
} while (0)

/* ---- edge chunks ----
   The edge-parallel kernels take the edges in chunks of mec, in the order of the scan `off`
   of the out-degrees: chunk c is edges [c*mec, min(c*mec + mec, total)), and sv[c] is the
   vertex owning its first edge. A work-item walks one chunk with a dg_chunk cursor. */
/* (Macros as DG_ADJ_ARGS and DG_ADJ are: a parameter list and the names that pass it on.) */
#define DG_CHUNK_ARGS __global const float *wpool, __global const dg_pos *off, __global const int *sv, \
                      const uint nchunks, const uint mec, const ulong total
#define DG_CHUNK wpool, off, sv, nchunks, mec, total

typedef struct {
    dg_pos e, end;   /* the chunk's edges left: [e, end) */
    int v;           /* the vertex owning edge e */
    dg_pos stop;     /* the end of v's edges in the chunk */
    uint k, kend;    /* those edges: entries [k, kend) of v's list */
    dg_pos base;     /* v's row (dg_row) */
    uint dv;         /* v's distance bits (0 when the walk reads no distances) */
} dg_chunk;

/* The walk of chunk c, the same loop in every kernel:
       for (dg_chunk_first(&ch, c, mec, total, sv); ch.e < ch.end; dg_chunk_next(&ch, off))
           if (dg_chunk_open(&ch, DG_ADJ, off, dist, skip_inf))
               for (; ch.k < ch.kend; ch.k++) { edge ch.k of ch.v's list, from row ch.base }
   (A cursor by vertex, with the edge loop inside: on PoCL a cursor by edge runs a sixth
   slower.) */
inline void dg_chunk_first(dg_chunk *ch, const uint c, const uint mec, const ulong total,
                           __global const int *sv)
{
    ch->e = dg_ec_first(c, mec);         /* < total: c is a chunk */
    ch->end = total - ch->e < mec ? (dg_pos)total : ch->e + mec;   /* no 32-bit wrap for a huge mec */
    ch->v = sv[c];
}

/* Opens v's edges in the chunk; returns 0 when there is nothing to walk: skip_inf (a
   constant) and v at INFINITY (dist is read only when skip_inf). */
inline int dg_chunk_open(dg_chunk *ch, DG_ADJ_ARGS, __global const dg_pos *off,
                         __global const uint *dist, const int skip_inf)
{
    uint deg;
    ch->stop = min(off[ch->v + 1], ch->end);
    ch->dv = skip_inf ? dist[ch->v] : 0u;
    if (skip_inf && ch->dv == DG_INF_BITS) return 0;
    ch->base = dg_row(DG_ADJ, ch->v, &deg);
    ch->k = (uint)(ch->e - off[ch->v]);
    ch->kend = (uint)(ch->stop - off[ch->v]);
    return 1;
}

/* Moves on to the next vertex with edges in the chunk (those without are passed over). */
inline void dg_chunk_next(dg_chunk *ch, __global const dg_pos *off)
{
    ch->e = ch->stop;
    ch->v++;
    while (ch->e < ch->end && off[ch->v + 1] <= ch->e) ch->v++;
}


/* ---- the weight check: part[0] = the smallest vertex with a negative out-weight (it starts at
   0xffffffff); part[1 + 2g], part[2 + 2g] = sum (float bits) and count of the other finite
   weights of work-group g (for the automatic delta). */
__kernel __attribute__((reqd_work_group_size(DG_WG, 1, 1)))
void dg_sssp_weights(DG_ADJ_ARGS, DG_CHUNK_ARGS, __global uint *part)
{
    __local float l_s[DG_WG];
    __local uint l_c[DG_WG];
    const uint lid = get_local_id(0);
    float s = 0.0f;
    uint cnt = 0, c;
    for (c = get_global_id(0); c < nchunks; c += get_global_size(0)) {
        dg_chunk ch;
        for (dg_chunk_first(&ch, c, mec, total, sv); ch.e < ch.end; dg_chunk_next(&ch, off))
            if (dg_chunk_open(&ch, DG_ADJ, off, 0, 0))
                for (; ch.k < ch.kend; ch.k++) {
                    const float w = dg_weight(wpool, dg_entry(DG_ADJ, ch.base, ch.k));
                    if (w < 0.0f) atomic_min(&part[0], (uint)ch.v);
                    else if (w < INFINITY) { s += w; cnt++; }
                }
    }
    l_s[lid] = s; l_c[lid] = cnt;
    DG_LOCAL_SUM2(l_s, l_c, lid);
    if (lid == 0) { part[1 + 2 * get_group_id(0)] = as_uint(l_s[0]); part[2 + 2 * get_group_id(0)] = l_c[0]; }
}

/* The sources seeds[0..ns): distance 0 (bits 0, at dist[doff + s]), their own predecessors;
   the rest is set by the host (INFINITY fills). One work-item per source. */
__kernel void dg_sssp_source(__global uint *dist, const uint doff, __global int *pred,
                             __global const int *seeds, const uint ns)
{
    const size_t i = get_global_id(0);
    if (i >= ns) return;
    if (dist) dist[doff + seeds[i]] = 0u;
    if (pred) pred[seeds[i]] = seeds[i];
}

/* After an early exit (near-far, targets settled): distances at or past the threshold cut are
   not final; they become INFINITY, so every finite distance is exact. */
__kernel void dg_sssp_cut(__global uint *dist, const uint n, const uint cut)
{
    const size_t v = get_global_id(0);
    if (v < n && dist[v] >= cut) dist[v] = DG_INF_BITS;
}

/* ---- DG_SSSP_BELLMAN_FORD: one pass relaxes every edge (edge chunks, 001's layout). Pass p
   counts its edges relaxed and distances lowered in ring slot p (DG_BF_*) and clears slot
   p+2, so several passes run without a read-back; a pass without updates ends the search. */

/* Relaxes the edges of this work-item's chunk (if any) from the vertices at a finite distance;
   returns (edges relaxed, distances lowered). neg (a constant): negative weights: the float
   compare-and-swap; the winner records itself as the predecessor (racy: the host only looks
   for cycles in it, then rebuilds the tree), and a distance at -INFINITY is flagged in
   cur[DG_BF_NEG_INF]. */
inline uint2 dg_bf_chunk(DG_ADJ_ARGS, DG_CHUNK_ARGS, __global uint *dist, __global uint *cur,
                         __global int *pred, const int neg)
{
    const uint c = get_global_id(0);
    uint ne = 0, nu = 0;
    dg_chunk ch;
    if (c >= nchunks) return (uint2)(0u, 0u);
    for (dg_chunk_first(&ch, c, mec, total, sv); ch.e < ch.end; dg_chunk_next(&ch, off))
        if (dg_chunk_open(&ch, DG_ADJ, off, dist, 1))
            for (; ch.k < ch.kend; ch.k++) {
                const dg_pos x = dg_entry(DG_ADJ, ch.base, ch.k);
                const int u = pool[x];
                const float nd = as_float(ch.dv) + dg_weight(wpool, x);
                const uint nb = as_uint(nd);
                ne++;
                if (!neg) {
                    if (nb < dist[u] && nb < atomic_min(&dist[u], nb)) nu++;
                } else if (dg_lower_cas(dist, u, nd)) {
                    nu++;
                    pred[u] = ch.v;
                    if (nd == -INFINITY) cur[DG_BF_NEG_INF] = 1;
                }
            }
    return (uint2)(ne, nu);
}

__kernel __attribute__((reqd_work_group_size(DG_WG, 1, 1)))
void dg_sssp_bf(DG_ADJ_ARGS, DG_CHUNK_ARGS, __global uint *dist, __global uint *ctl,
                const uint ring, const uint pass)
{
    __local uint l_e[DG_WG], l_u[DG_WG];
    const uint lid = get_local_id(0);
    __global uint *cur = dg_slot_step(ctl, ring, pass);
    const uint2 n = dg_bf_chunk(DG_ADJ, DG_CHUNK, dist, cur, 0, 0);
    DG_ADD_COUNTS(lid, l_e, l_u, n, &cur[DG_BF_RELAXED], &cur[DG_BF_UPDATES]);
    if (lid == 0 && l_u[0]) cur[DG_BF_LOWERED] = 1u;
}

/* The same with negative weights (predecessors in pred). */
__kernel __attribute__((reqd_work_group_size(DG_WG, 1, 1)))
void dg_sssp_bf_neg(DG_ADJ_ARGS, DG_CHUNK_ARGS, __global uint *dist, __global uint *ctl,
                    const uint ring, const uint pass, __global int *pred)
{
    __local uint l_e[DG_WG], l_u[DG_WG];
    const uint lid = get_local_id(0);
    __global uint *cur = dg_slot_step(ctl, ring, pass);
    const uint2 n = dg_bf_chunk(DG_ADJ, DG_CHUNK, dist, cur, pred, 1);
    DG_ADD_COUNTS(lid, l_e, l_u, n, &cur[DG_BF_RELAXED], &cur[DG_BF_UPDATES]);
    if (lid == 0 && l_u[0]) cur[DG_BF_LOWERED] = 1u;
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
    dg_chunk ch;
    if (c >= nchunks) return;
    for (dg_chunk_first(&ch, c, mec, total, sv); ch.e < ch.end; dg_chunk_next(&ch, off))
        if (dg_chunk_open(&ch, DG_ADJ, off, dist, 1))
            for (; ch.k < ch.kend; ch.k++) {
                const dg_pos x = dg_entry(DG_ADJ, ch.base, ch.k);
                const int u = pool[x], v = ch.v;
                const float dv = as_float(ch.dv), nd = dv + dg_weight(wpool, x), du = as_float(dist[u]);
                if (nd == du && du < INFINITY) {
                    if (mode == 0) {
                        if (dv < du) pred[u] = v;
                    } else if (pred[u] == -1 && pred[v] != -1 && atomic_cmpxchg(&pred[u], -1, v) == -1) {
                        claimed = 1;
                    }
                }
            }
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
   Slot L (the DG_NF_* words of 00_shared.h): DG_NF_NEAR is appended by L-1; DG_NF_THR,
   DG_NF_FAR_BUF, DG_NF_FAR_START, DG_NF_FAR_MIN, DG_NF_MODE and DG_NF_SPLIT_THR are written by
   work-item 0 of launch L, the counters by all; launch L clears slot L+2. */

/* A relax launch's state: what relaxing an edge and expanding lists read and append to. A
   few pointers and values: the inline functions take it by pointer; it stays in registers. */
typedef struct {
    __global const float *wpool;
    __global uint *dist, *stamp, *ff;
    __global uint *cur;              /* slot L */
    __global int *far;               /* the active far buffer: this launch appends from far[F] */
    uint F, L;
    int deep;                        /* a deep launch: see dg_nf_ldu */
    float thr;                       /* the threshold */
    __local int *l_q;                /* the work-group's near list (DG_LOCAL_LIST entries) */
    __local uint *l_n, *l_out;       /* its length, its place in q_out (DG_LIST_FLUSH) */
    __global uint *out_n;            /* the next near queue: length (slot L+1) and entries */
    __global int *q_out;
    __local uint *l_off;             /* the lists being expanded: scan of their lengths, */
    __local dg_pos *l_base;          /* rows */
    __local float *l_du;             /* and the distances they are relaxed from */
} dg_nf;

/* A list a work-item brings to DG_NF_EXPAND: row, length (0: none) and distance. */
typedef struct {
    dg_pos base;
    uint deg;
    float du;
} dg_nf_list;

/* Loads of what other work-groups wrote earlier in the launch (queues, far piles, distances to
   expand from): in a deep launch past the compute unit's cache (volatile: a cached line may be
   a turn old), else plain, cached loads: an ordinary launch's 270k work-items reading the
   ring's words past the cache made each launch twice as slow on the 2048 x 2048 grid (the
   same dozen words of L2, bench/NOTES.md, issue 16). deep is the same for the whole launch. */
inline uint dg_nf_ldu(__global const uint *p, const int deep)
{
    return deep ? *(volatile __global const uint *)p : *p;
}
inline int dg_nf_ldi(__global const int *p, const int deep)
{
    return deep ? *(volatile __global const int *)p : *p;
}

/* 1 the first time v is queued for launch L+1. */
inline int dg_nf_first(dg_nf *s, const int v)
{
    return atomic_xchg(&s->stamp[v], s->L + 1) != s->L + 1;
}

/* Puts v in the next near queue. */
inline void dg_nf_queue(dg_nf *s, const int v)
{
    s->q_out[atomic_inc(s->out_n)] = v;
}

/* Relaxes entry k of the list at row base from distance du: a lowered head goes to the
   work-group's near list if below the threshold (once per launch), else to the far pile
   (once). 1 if it lowered the head's distance. (The work-item's counts are the caller's: PoCL
   kept a counter in this struct once per work-group, not per work-item.) */
inline uint dg_nf_relax(dg_nf *s, DG_ADJ_ARGS, const float du, const dg_pos base, const uint k)
{
    const dg_pos x = dg_entry(DG_ADJ, base, k);
    const int u = pool[x];
    const float nd = du + dg_weight(s->wpool, x);
    const uint nb = as_uint(nd);
    if (nb < s->dist[u] && nb < atomic_min(&s->dist[u], nb)) {
        if (nd < s->thr) {
            if (dg_nf_first(s, u)) s->l_q[atomic_inc(s->l_n)] = u;
        } else {
            atomic_min(&s->cur[DG_NF_ADDED_MIN], nb);
            if (atomic_xchg(&s->ff[u], 1u) == 0u) s->far[s->F + atomic_inc(&s->cur[DG_NF_FAR_ADDED])] = u;
        }
        return 1u;
    }
    return 0u;
}

/* Edge e of the work-group's lists (DG_NF_EXPAND): its list found in the scan. */
inline uint dg_nf_expand_edge(dg_nf *s, DG_ADJ_ARGS, const uint e)
{
    const uint j = dg_local_owner(s->l_off, DG_WG, e);
    return dg_nf_relax(s, DG_ADJ, s->l_du[j], s->l_base[j], e - s->l_off[j]);
}

/* Each work-item brings one list t (dg_nf_list); the work-group relaxes all their edges
   together, DG_WG at a time, balanced by a scan, and flushes its near list after each round;
   cnt (a uint2) counts the edges relaxed and the distances lowered. A macro: its loop holds
   DG_LIST_FLUSH's barriers. ADJ is DG_ADJ. */
#define DG_NF_EXPAND(s, ADJ, lid, t, cnt) do { \
    uint tot_, e0_; \
    (s).l_base[lid] = (t).base; (s).l_du[lid] = (t).du; (s).l_off[lid] = (t).deg; \
    tot_ = dg_local_scan((s).l_off, lid); \
    for (e0_ = 0; e0_ < tot_; e0_ += DG_WG) { \
        if (e0_ + (lid) < tot_) { (cnt).x++; (cnt).y += dg_nf_expand_edge(&(s), ADJ, e0_ + (lid)); } \
        DG_LIST_FLUSH(0, lid, (s).l_q, *(s).l_n, *(s).l_out, (s).out_n, (s).q_out); \
    } \
} while (0)

/* The list of near-queue vertex v (v < 0: none). One longer than hub is cut into pieces for
   launch L+1 instead, appended to pout (past piece_cap, which the host sizes so that it
   cannot happen, the list is relaxed here as well: pieces only ever relax edges again). */
inline dg_nf_list dg_nf_queued(dg_nf *s, DG_ADJ_ARGS, const int v, __global int2 *pout,
                               const uint piece_cap, const uint hub)
{
    dg_nf_list t = { 0u, 0u, 0.0f };
    if (v >= 0) {
        t.base = dg_row(DG_ADJ, v, &t.deg);
        t.du = as_float(dg_nf_ldu(&s->dist[v], s->deep));
        if (t.deg > hub) {
            const uint np = (t.deg + DG_PIECE - 1) / DG_PIECE;
            const uint at = atomic_add(&s->cur[DG_NF_PIECES], np);
            uint k;
            for (k = 0; k < np && at + k < piece_cap; k++) pout[at + k] = (int2)(v, (int)(k * DG_PIECE));
            if (at + np <= piece_cap) t.deg = 0;
        }
    }
    return t;
}

/* The list of vertex v (v < 0: none) for a local round of work-item lid: listed in
   lx[*l_out + lid] with the distance it is expanded with in ex[v]; one longer than hub goes
   to the next near queue instead. */
inline dg_nf_list dg_nf_local(dg_nf *s, DG_ADJ_ARGS, const int v, const uint lid, const uint hub,
                              __global int *lx, __global uint *ex)
{
    dg_nf_list t = { 0u, 0u, 0.0f };
    if (v >= 0) {
        t.base = dg_row(DG_ADJ, v, &t.deg);
        if (t.deg > hub) {
            dg_nf_queue(s, v);
            lx[*s->l_out + lid] = -1;
            t.deg = 0;
        } else {
            lx[*s->l_out + lid] = v;
            t.du = as_float(dg_nf_ldu(&s->dist[v], s->deep));
            ex[v] = as_uint(t.du);
        }
    }
    return t;
}

/* Splits the far pile (F entries) at the new threshold thrn: entries below thr are dropped
   (relaxed since), those below thrn go to the next near queue, the rest to far_oth. */
inline void dg_nf_split(dg_nf *s, const float thrn, __global int *far_oth)
{
    uint i;
    for (i = get_global_id(0); i < s->F; i += get_global_size(0)) {
        const int v = dg_nf_ldi(&s->far[i], s->deep);
        const float d = as_float(dg_nf_ldu(&s->dist[v], s->deep));
        if (d < s->thr) s->ff[v] = 0u;
        else if (d < thrn) {
            s->ff[v] = 0u;
            if (dg_nf_first(s, v)) dg_nf_queue(s, v);
        } else {
            far_oth[atomic_inc(&s->cur[DG_NF_FAR_ADDED])] = v;
            atomic_min(&s->cur[DG_NF_ADDED_MIN], as_uint(d));
        }
    }
}

/* What launch L does and from what, decided alike by every work-item from slot L-1 (prev) and
   the near queue's length in slot L (cur): idle stays idle; with targets (nt of them), the
   launch after a split that found them all below its threshold (settled: the near queue was
   empty) idles too. */
typedef struct {
    uint mode, fa, F, fmin, n_q, np_in, n_in;   /* fa: the active far buffer, F: its entries */
    float thr;
} dg_nf_turn;
inline dg_nf_turn dg_nf_decide(__global const uint *prev, __global const uint *cur, const int deep,
                               const uint nt, const uint piece_cap)
{
    dg_nf_turn t;
    const int split = dg_nf_ldu(&prev[DG_NF_MODE], deep) == DG_NF_MODE_SPLIT;
    const int stop = dg_nf_ldu(&prev[DG_NF_MODE], deep) == DG_NF_MODE_IDLE ||
                     (split && nt > 0 && dg_nf_ldu(&prev[DG_NF_UNSETTLED], deep) == 0);
    t.fa = split ? 1u - dg_nf_ldu(&prev[DG_NF_FAR_BUF], deep) : dg_nf_ldu(&prev[DG_NF_FAR_BUF], deep);
    t.F = split ? dg_nf_ldu(&prev[DG_NF_FAR_ADDED], deep)
                : dg_nf_ldu(&prev[DG_NF_FAR_START], deep) + dg_nf_ldu(&prev[DG_NF_FAR_ADDED], deep);
    t.thr = as_float(split ? dg_nf_ldu(&prev[DG_NF_SPLIT_THR], deep) : dg_nf_ldu(&prev[DG_NF_THR], deep));
    t.fmin = split ? dg_nf_ldu(&prev[DG_NF_ADDED_MIN], deep)
                   : min(dg_nf_ldu(&prev[DG_NF_FAR_MIN], deep), dg_nf_ldu(&prev[DG_NF_ADDED_MIN], deep));
    t.n_q = dg_nf_ldu(&cur[DG_NF_NEAR], deep);
    t.np_in = min(dg_nf_ldu(&prev[DG_NF_PIECES], deep), piece_cap);
    t.n_in = t.n_q + dg_nf_ldu(&prev[DG_NF_LOCAL], deep);
    t.mode = stop ? DG_NF_MODE_IDLE : (t.n_in > 0 || t.np_in > 0) ? DG_NF_MODE_RELAX
           : t.F > 0 ? DG_NF_MODE_SPLIT : DG_NF_MODE_IDLE;
    return t;
}

/* Work-item 0 of launch L: clears slot L + 2 (for launch L + 2) and records L's state in slot L. */
inline void dg_nf_record(__global uint *ctl, const uint ring, const uint L, const dg_nf_turn *t)
{
    __global uint *z = dg_slot(ctl, ring, L + 2), *cur = dg_slot(ctl, ring, L);
    dg_ctl_clear(z);
    z[DG_NF_ADDED_MIN] = DG_INF_BITS;
    cur[DG_NF_THR] = as_uint(t->thr); cur[DG_NF_FAR_BUF] = t->fa; cur[DG_NF_FAR_START] = t->F;
    cur[DG_NF_FAR_MIN] = t->fmin; cur[DG_NF_MODE] = t->mode;
}

/* dg_nf_split for the flat kernel: the same lists, each work-item's appends and far minimum
   gathered privately (one atomic per DG_FLAT_LIST entries, one minimum). */
inline void dg_nf_split_flat(dg_nf *s, const float thrn, __global int *far_oth)
{
    int nq[DG_FLAT_LIST], fq[DG_FLAT_LIST];
    uint i, nn = 0, nf = 0, fmin = DG_INF_BITS;
    for (i = get_global_id(0); i < s->F; i += get_global_size(0)) {
        const int v = s->far[i];
        const float d = as_float(s->dist[v]);
        if (d < s->thr) s->ff[v] = 0u;
        else if (d < thrn) {
            s->ff[v] = 0u;
            if (dg_nf_first(s, v)) {
                nq[nn++] = v;
                if (nn == DG_FLAT_LIST) nn = dg_flat_append(nq, nn, s->out_n, s->q_out);
            }
        } else {
            fq[nf++] = v;
            if (nf == DG_FLAT_LIST) nf = dg_flat_append(fq, nf, &s->cur[DG_NF_FAR_ADDED], far_oth);
            fmin = min(fmin, as_uint(d));
        }
    }
    dg_flat_append(nq, nn, s->out_n, s->q_out);
    dg_flat_append(fq, nf, &s->cur[DG_NF_FAR_ADDED], far_oth);
    if (fmin != DG_INF_BITS) atomic_min(&s->cur[DG_NF_ADDED_MIN], fmin);
}

/* A split launch (t->mode == DG_NF_MODE_SPLIT): the new threshold past the far minimum (also
   where delta is lost to rounding), recorded, and the targets (nt at tg) not yet below the old
   one counted; returns it for the far pile's split (dg_nf_split, dg_nf_split_flat). */
inline float dg_nf_split_turn(dg_nf *s, const dg_nf_turn *t, const float delta, __global const int *tg,
                              const uint nt)
{
    const float thrn = max(max(t->thr, as_float(t->fmin)) + delta, nextafter(as_float(t->fmin), INFINITY));
    uint j;
    if (get_global_id(0) == 0) s->cur[DG_NF_SPLIT_THR] = as_uint(thrn);
    for (j = get_global_id(0); j < nt; j += get_global_size(0))
        if (dg_nf_ldu(&s->dist[tg[j]], s->deep) >= as_uint(t->thr)) atomic_inc(&s->cur[DG_NF_UNSETTLED]);
    return thrn;
}

/* Near-far launch L: each decides alike, from the ring, whether to relax, split the far pile
   or idle (see above). The near queues alternate: q[L & 1] in, q[(L + 1) & 1] out.
   With dctl (deep near-far, issues 16 and 17) launches L0, L0 + 1, ... run as turns of a loop
   in one launch of G work-groups that all run at once (one per compute unit, as dg_bfs_deep),
   meeting at a device-wide barrier (dg_deep_arrive on dctl) after each turn. After it every
   group reads the same slots and decides alike: go on, or leave when the search is over
   (idle), when the next turn's near queue or far pile outgrows what G groups should take (the
   ordinary launches with all groups go on from there), or after max_turns. Group 0 keeps the
   counts (DG_NFD_* in 00_shared.h). A barrier that aborts (the groups were not all running)
   leaves a turn half done: the host then runs the search again from the start without deep
   launches. Without dctl: launch L0 alone. Two kernels from one text (DG_NF_KERNEL, a template as
   DG_ADVANCE_KERNEL): dg_sssp_nf, the ordinary launch, without the deep code (one kernel with
   both ran ordinary launches twice as slow on the 2048 x 2048 grid: bench/NOTES.md, issue 16),
   and dg_sssp_nf_deep. vmax: the most vertices a turn's near queue may
   hold (the host's DG__NFD_VERTICES a group). rgroups: the work-groups of an ordinary launch (the
   local rounds' rule below counts them, so that a deep turn does the rounds a launch would). */
/* The parameters of every near-far launch kernel (the host sets them alike for each). */
#define DG_NF_ARGS DG_ADJ_ARGS, __global const float *wpool, \
                   __global int *q0, __global int *q1, \
                   __global int *far0, __global int *far1, \
                   __global int2 *pieces, const uint piece_cap, const uint hub, \
                   __global uint *ctl, const uint ring, const uint L0, const float delta, \
                   __global uint *dist, __global uint *stamp, __global uint *ff, \
                   __global int *lx0, __global int *lx1, __global uint *ex, const uint rounds, \
                   __global const int *seeds, const uint ns, const uint nt, \
                   __global uint *dctl, const uint max_turns, const uint spin_max, const uint rgroups, \
                   const uint vmax
#define DG_NF_KERNEL(NAME, DEEP) \
__kernel __attribute__((reqd_work_group_size(DG_WG, 1, 1))) \
void NAME(DG_NF_ARGS) \
{ \
    __local uint l_off[DG_WG]; \
    __local dg_pos l_base[DG_WG]; \
    __local float l_du[DG_WG]; \
    __local int l_q[DG_LOCAL_LIST]; \
    __local uint l_n, l_out, l_chunk, l_go, l_L; \
    const uint lid = get_local_id(0), gid = get_global_id(0); \
    const uint grp = get_group_id(0), ngrp = get_num_groups(0); \
    const uint fmax = ngrp * DG_NFD_FAR * DG_WG; \
    volatile __global const uint *vctl = ctl; \
    const int deep = (DEEP) && dctl != 0; \
    if (lid == 0) { l_L = L0; l_go = 1u; } \
    barrier(CLK_LOCAL_MEM_FENCE); \
    for (;;) {   /* (one exit, at the top: PoCL wants it so) */ \
        const uint L = l_L; \
        if (!l_go) break; \
        __global const int *q_in = (L & 1) ? q1 : q0; \
        __global int *q_out = (__global int *)((L & 1) ? q0 : q1); \
        __global uint *prev = dg_slot(ctl, ring, L + ring - 1); \
        __global uint *cur = dg_slot(ctl, ring, L); \
        __global uint *nx = dg_slot(ctl, ring, L + 1); \
        /* this launch's state, from the previous launch's slot */ \
        const dg_nf_turn T = dg_nf_decide(prev, cur, deep, nt, piece_cap); \
        const uint fa = T.fa, F = T.F, n_q = T.n_q, np_in = T.np_in, n_in = T.n_in, mode = T.mode; \
        const float thr = T.thr; \
        __global const int *lx_in = (L & 1) ? lx0 : lx1; \
        __global int *lx_out = (L & 1) ? lx1 : lx0; \
        uint2 cnt = (uint2)(0u, 0u);   /* this work-item's edges relaxed, distances lowered */ \
        dg_nf nf = { \
            .wpool = wpool, .dist = dist, .stamp = stamp, .ff = ff, .cur = cur, \
            .far = fa ? far1 : far0, .F = F, .L = L, .thr = thr, .deep = deep, \
            .l_q = l_q, .l_n = &l_n, .l_out = &l_out, .out_n = (__global uint *)&nx[DG_NF_NEAR], .q_out = q_out, \
            .l_off = l_off, .l_base = l_base, .l_du = l_du \
        }; \
        if (gid == 0) dg_nf_record(ctl, ring, L, &T); \
        if (mode == DG_NF_MODE_SPLIT) dg_nf_split(&nf, dg_nf_split_turn(&nf, &T, delta, seeds + ns, nt), fa ? far0 : far1); \
        if (mode == DG_NF_MODE_RELAX) { \
            if (lid == 0) l_n = 0; \
            barrier(CLK_LOCAL_MEM_FENCE); \
            /* the hub pieces the previous launch left: piece j to work-group j % ngrp */ \
            { \
                __global const int *pin = (__global const int *)(pieces + (size_t)((L + 1) & 1) * piece_cap); \
                uint j; \
                for (j = grp; j < np_in; j += ngrp) { \
                    const int2 pc = (int2)(dg_nf_ldi(&pin[2 * j], deep), dg_nf_ldi(&pin[2 * j + 1], deep)); \
                    uint deg, e0; \
                    const dg_pos base = dg_row(DG_ADJ, pc.x, &deg); \
                    const float du = as_float(dg_nf_ldu(&dist[pc.x], deep)); \
                    const uint hi = min(deg, (uint)pc.y + DG_PIECE); \
                    for (e0 = (uint)pc.y; e0 < hi; e0 += DG_WG) { \
                        if (e0 + lid < hi) { cnt.x++; cnt.y += dg_nf_relax(&nf, DG_ADJ, du, base, e0 + lid); } \
                        DG_LIST_FLUSH(0, lid, l_q, l_n, l_out, &nx[DG_NF_NEAR], q_out); \
                    } \
                } \
            } \
            /* the near queue: cs <= DG_WG vertices at a time, their edges expanded together; a small \
               queue is spread over all work-groups (a few vertices each: one round of edges, not \
               several rounds in a few work-groups) */ \
            { \
                __global int2 *pout = pieces + (size_t)(L & 1) * piece_cap; \
                const uint cs = n_in >= ngrp * DG_WG ? DG_WG : max(1u, (n_in + ngrp - 1) / ngrp); \
                /* chunks taken from a counter: a work-group slowed by long lists takes fewer. (The \
                   loops with barriers have their exit test at the top only: PoCL needs that.) */ \
                if (lid == 0) l_chunk = atomic_inc(&cur[DG_NF_CHUNK]); \
                barrier(CLK_LOCAL_MEM_FENCE); \
                while ((size_t)l_chunk * cs < n_in) { \
                    const uint i = lid < cs ? l_chunk * cs + lid : 0xffffffffu; \
                    int v = -1; \
                    dg_nf_list t; \
                    if (i < n_q) v = dg_nf_ldi(&q_in[i], deep); \
                    else if (i < n_in) {   /* expanded locally by launch L-1: again if lowered since */ \
                        v = dg_nf_ldi(&lx_in[i - n_q], deep); \
                        if (v >= 0 && dg_nf_ldu(&dist[v], deep) == dg_nf_ldu(&ex[v], deep)) v = -1; \
                    } \
                    t = dg_nf_queued(&nf, DG_ADJ, v, pout, piece_cap, hub); \
                    DG_NF_EXPAND(nf, DG_ADJ, lid, t, cnt); \
                    barrier(CLK_LOCAL_MEM_FENCE); \
                    if (lid == 0) l_chunk = atomic_inc(&cur[DG_NF_CHUNK]); \
                    barrier(CLK_LOCAL_MEM_FENCE); \
                } \
            } \
            /* local rounds: while the vertices this work-group put in the next near queue fit one \
               chunk, expand them now instead (a high-diameter graph advances `rounds` hops per launch \
               instead of one). Each is listed in lx_out with the distance it was expanded with in \
               ex[v]; a vertex lowered again afterwards (by anyone: its stamp already says "queued") \
               is expanded again by the next launch. Lists longer than hub go to the queue. Only while \
               the queue is small (under an eighth of an ordinary launch's work-items, rgroups x \
               DG_WG, also in a deep turn, which has fewer): on a large one (Kronecker) \
               early expansions only add work. */ \
            { \
                uint r = n_in * 8 <= rgroups * DG_WG ? 0 : rounds, nh; \
                barrier(CLK_LOCAL_MEM_FENCE); \
                nh = l_n; \
                barrier(CLK_LOCAL_MEM_FENCE); \
                while (r < rounds && nh > 0 && nh <= DG_WG) { \
                    const int v = lid < nh ? l_q[lid] : -1; \
                    dg_nf_list t; \
                    r++; \
                    if (lid == 0) { l_n = 0; l_out = atomic_add(&cur[DG_NF_LOCAL], nh); } \
                    barrier(CLK_LOCAL_MEM_FENCE); \
                    t = dg_nf_local(&nf, DG_ADJ, v, lid, hub, lx_out, ex); \
                    DG_NF_EXPAND(nf, DG_ADJ, lid, t, cnt); \
                    barrier(CLK_LOCAL_MEM_FENCE); \
                    nh = l_n; \
                    barrier(CLK_LOCAL_MEM_FENCE); \
                } \
            } \
            DG_LIST_FLUSH(1, lid, l_q, l_n, l_out, &nx[DG_NF_NEAR], q_out); \
            /* (l_off and l_base are free again: the counts are summed in them) */ \
            DG_ADD_COUNTS(lid, l_off, l_base, cnt, &cur[DG_NF_RELAXED], &cur[DG_NF_LOWERED]); \
        } \
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);   /* (lid 0's fence below covers \
                                                the group's writes, as in dg_bfs_deep) */ \
        if (lid == 0) {   /* (the turn's counts live in dctl, not in registers: an ordinary \
                             launch, which shares this code, needs them not) */ \
            l_go = 0; \
            if (deep) { \
                DG_DEVICE_FENCE(); \
                if (!dg_deep_arrive(dctl, L - L0 + 1u, ngrp, spin_max)) { \
                    if (grp == 0) dctl[DG_NFD_ABORTED] = 1u; \
                } else { \
                    /* turn L is done: its slot and the next turn's inputs are final (the \
                       fence: what other groups wrote is read after the barrier, as in \
                       dg_bfs_deep; on NVIDIA the barrier's poll was an acquire) */ \
                    DG_ACQUIRE_FENCE(); \
                    volatile __global const uint *c = vctl + DG_CTL_WORDS * (size_t)(L % ring); \
                    volatile __global const uint *n1 = vctl + DG_CTL_WORDS * (size_t)((L + 1) % ring); \
                    const uint m = c[DG_NF_MODE]; \
                    if (grp == 0) {   /* every group knows the same: group 0 writes it */ \
                        dctl[DG_NFD_NEXT] = L + 1u; \
                        dctl[DG_NFD_IDLE] = m == DG_NF_MODE_IDLE; \
                        if (m == DG_NF_MODE_SPLIT) dctl[DG_NFD_PHASES]++; \
                        if (m == DG_NF_MODE_RELAX) { \
                            dg_deep_put64(dctl + DG_NFD_RELAXED, (dctl[DG_NFD_RELAXED] | (ulong)dctl[DG_NFD_RELAXED + 1] << 32) + c[DG_NF_RELAXED]); \
                            dg_deep_put64(dctl + DG_NFD_LOWERED, (dctl[DG_NFD_LOWERED] | (ulong)dctl[DG_NFD_LOWERED + 1] << 32) + c[DG_NF_LOWERED]); \
                        } \
                    } \
                    l_L = L + 1; \
                    l_go = m != DG_NF_MODE_IDLE && L + 1u - L0 < max_turns && n1[DG_NF_NEAR] + c[DG_NF_LOCAL] <= vmax && \
                           c[DG_NF_PIECES] <= ngrp && c[DG_NF_FAR_START] + c[DG_NF_FAR_ADDED] <= fmax && \
                           c[DG_NF_FAR_ADDED] <= fmax; \
                } \
            } \
        } \
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE); \
    } \
    if (deep && lid == 0) atomic_inc(&dctl[DG_NFD_RAN]); \
}
DG_NF_KERNEL(dg_sssp_nf, 0)
DG_NF_KERNEL(dg_sssp_nf_deep, 1)

/* dg_sssp_nf for a CPU device (PoCL; as dg_bfs_td_flat): the same launches, ring and
   distances without local memory or barriers. Each work-item expands whole lists of the near
   queue itself, DG_FLAT_BATCH at a time (as dg_bfs_td_flat), skipping a vertex that is
   already queued again for the next launch (that launch expands it from its lower distance),
   and appends to the next near queue and the far pile DG_FLAT_LIST at a time with one atomic;
   its far minimum and counts go out once. No hub pieces, local rounds or deep turns: piece_cap,
   hub, lx0, lx1, ex, rounds, dctl and the rest after it are not used. */
__kernel void dg_sssp_nf_flat(DG_NF_ARGS)
{
    const uint L = L0, gsize = (uint)get_global_size(0);
    __global uint *prev = dg_slot(ctl, ring, L + ring - 1), *cur = dg_slot(ctl, ring, L);
    __global uint *nx = dg_slot(ctl, ring, L + 1);
    const dg_nf_turn T = dg_nf_decide(prev, cur, 0, nt, piece_cap);
    __global const int *q_in = (L & 1) ? q1 : q0;
    dg_nf nf = {
        .wpool = wpool, .dist = dist, .stamp = stamp, .ff = ff, .cur = cur,
        .far = T.fa ? far1 : far0, .F = T.F, .L = L, .thr = T.thr, .deep = 0,
        .l_q = 0, .l_n = 0, .l_out = 0, .out_n = &nx[DG_NF_NEAR], .q_out = (L & 1) ? q0 : q1,
        .l_off = 0, .l_base = 0, .l_du = 0
    };
    (void)pieces; (void)hub; (void)lx0; (void)lx1; (void)ex; (void)rounds; (void)dctl;
    (void)max_turns; (void)spin_max; (void)rgroups; (void)vmax;
    if (get_global_id(0) == 0) dg_nf_record(ctl, ring, L, &T);
    if (T.mode == DG_NF_MODE_SPLIT) dg_nf_split_flat(&nf, dg_nf_split_turn(&nf, &T, delta, seeds + ns, nt), T.fa ? far0 : far1);
    if (T.mode == DG_NF_MODE_RELAX) {
        int nq[DG_FLAT_LIST], fq[DG_FLAT_LIST];
        uint nn = 0, nfar = 0, relaxed = 0, lowered = 0, amin = DG_INF_BITS, x0;
        for (x0 = dg_flat_first() * DG_FLAT_BATCH; x0 < T.n_q; x0 += gsize * DG_FLAT_BATCH) {
            dg_pos rows[DG_FLAT_BATCH];
            uint degs[DG_FLAT_BATCH], nb = 0, j, x;
            float dus[DG_FLAT_BATCH];
            for (x = x0; x < min(x0 + DG_FLAT_BATCH, T.n_q); x++) {   /* the rows first */
                const int v = q_in[x];
                if (stamp[v] == L + 1) continue;    /* queued again: expanded by L + 1 */
                rows[nb] = dg_row(DG_ADJ, v, &degs[nb]);
                dus[nb++] = as_float(dist[v]);
            }
            for (j = 0; j < nb; j++) {
                const dg_pos base = rows[j];
                const uint deg = degs[j];
                const float du = dus[j];
                dg_pos e = 0;
                uint k, r = 0;
                relaxed += deg;
                for (k = 0; k < deg; k++) {
                    const dg_pos ex = dg_walk(DG_ADJ, base, k, deg, &e, &r);
                    const int u = pool[ex];
                    const float nd = du + dg_weight(wpool, ex);
                    const uint bits = as_uint(nd);
                    if (bits >= dist[u] || bits >= atomic_min(&dist[u], bits)) continue;
                    lowered++;
                    if (nd < T.thr) {
                        if (!dg_nf_first(&nf, u)) continue;
                        nq[nn++] = u;
                        if (nn == DG_FLAT_LIST) nn = dg_flat_append(nq, nn, nf.out_n, nf.q_out);
                    } else {
                        amin = min(amin, bits);
                        if (ff[u] != 0u || atomic_xchg(&ff[u], 1u) != 0u) continue;   /* (already far) */
                        fq[nfar++] = u;
                        if (nfar == DG_FLAT_LIST) nfar = dg_flat_append(fq, nfar, &cur[DG_NF_FAR_ADDED], nf.far + T.F);
                    }
                }
            }
        }
        dg_flat_append(nq, nn, nf.out_n, nf.q_out);
        dg_flat_append(fq, nfar, &cur[DG_NF_FAR_ADDED], nf.far + T.F);
        if (amin != DG_INF_BITS) atomic_min(&cur[DG_NF_ADDED_MIN], amin);
        if (relaxed) atomic_add(&cur[DG_NF_RELAXED], relaxed);
        if (lowered) atomic_add(&cur[DG_NF_LOWERED], lowered);
    }
}

/* Slot ring-1 and slots 0, 1 before the first launch: the ns sources in the near queue
   (slot 0's DG_NF_NEAR), threshold thr0 (slot ring-1, which launch 0 reads as the previous
   one's), no far entries (their minima at INFINITY). */
__kernel void dg_sssp_nf_init(__global uint *ctl, const uint ring, const float thr0, const uint ns)
{
    const size_t i = get_global_id(0), w = i % DG_CTL_WORDS;
    if (i >= DG_CTL_WORDS * (size_t)ring) return;
    ctl[i] = (w == DG_NF_ADDED_MIN || w == DG_NF_FAR_MIN) ? DG_INF_BITS : 0u;
    if (i == DG_NF_NEAR) ctl[i] = ns;
    if (i == DG_CTL_WORDS * (size_t)(ring - 1) + DG_NF_THR) ctl[i] = as_uint(thr0);
}
