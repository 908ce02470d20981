/* kernels/60_reach.cl - reachability queries with the GRAIL index (002).

   The index (built on the host, or on the device by dg_reach_peel / dg_reach_forest below):
   comp[v], v's strongly connected component (-1: removed vertex); per component c, 2d + 1
   pairs lab[c*(2d+1) + k]: for k < d an interval (lo, hi) of the k-th randomized traversal
   of the DAG of components (hi: c's rank, lo: the smallest rank among c's descendants); for
   d <= k < 2d the same on the reverse DAG (ancestors); k = 2d the levels (depth, height),
   the longest paths from a root and to a sink. If c reaches c', every descendant interval
   of c' lies in c's, every ancestor interval of c in c''s, and c' is no shallower and no
   higher than c: one failed containment is an exact "no".
   tree[c] = (lo, rank): c's subtree in the spanning forest of traversal 0 holds exactly the
   ranks lo..rank (a post-order numbers subtrees contiguously): c' with its rank in there is
   a descendant, an exact "yes".
   Removing edges leaves every path of the new graph in the old one, so the intervals stay a
   valid filter; the "yes" shortcuts (same component, tree interval) do not: `exact` is 0
   then. */

/* Component s may reach component t: t's descendant intervals lie in s's, s's ancestor
   intervals in t's, t's levels in s's. */
inline int dg_reach_contains(__global const int2 *lab, const uint d, const int s, const int t)
{
    __global const int2 *ls = lab + (size_t)s * (2 * d + 1), *lt = lab + (size_t)t * (2 * d + 1);
    uint k;
    for (k = 0; k < d; k++)
        if (lt[k].x < ls[k].x || lt[k].y > ls[k].y) return 0;
    for (; k < 2 * d; k++)
        if (ls[k].x < lt[k].x || ls[k].y > lt[k].y) return 0;
    return lt[k].x >= ls[k].x && lt[k].y <= ls[k].y;
}

/* Query i: res[i] = 1 or 0 where the labels decide; else res[i] = 0 and i goes to und.
   A query naming no live vertex (id outside 0..nv-1, or removed: no page in the directory)
   puts the smallest such i in cnt[2]. */
__kernel void dg_reach_labels(const uint nq, __global const int *qs, __global const int *qt,
                              __global const int *comp, __global const int2 *lab,
                              __global const int2 *tree, const uint d, const uint exact,
                              __global uchar *res, __global uint *und, __global uint *cnt,
                              __global const int *dir, const uint nv)
{
    const uint i = get_global_id(0);
    int s, t, cs, ct, r;
    if (i >= nq) return;
    s = qs[i]; t = qt[i];
    if ((uint)s >= nv || (uint)t >= nv || dir[DG_DS * (size_t)s] < 0 || dir[DG_DS * (size_t)t] < 0) {
        atomic_min(&cnt[2], i);
        return;
    }
    cs = comp[s]; ct = comp[t];
    if (s == t || (exact && cs == ct)) r = 1;
    else if (!dg_reach_contains(lab, d, cs, ct)) r = 0;
    else if (exact && tree[ct].y >= tree[cs].x && tree[ct].y <= tree[cs].y) r = 1;
    else r = 2;
    res[i] = (uchar)(r == 1);
    if (r == 2) und[atomic_inc(&cnt[0])] = i;
    if (r == 1) atomic_inc(&cnt[1]);
}

/* ---- The undecided queries: bit-parallel searches pruned by the labels ----
   A batch of 32*W queries, query j = bit j%32 of word j/32 of each vertex's W words: vis
   (reached or ruled out), front (to expand at this level), next (at the next one). A queue
   entry is v*W + w: word w of vertex v has bits in front. Level counters: cnt[L % ring]
   entries of level L (the kernel of level L appends to slot L+1 and clears slot L+2, so the
   host queues several levels per read-back). cnt[ring]: words of vis made non-zero, listed in
   touched (dg_reach_clear zeroes them after the batch: no pass over all of vis). front and
   next clear themselves (an entry's word is zeroed when it is expanded). done[w]: queries of
   word w answered (found). */
#define DG_REACH_TOUCH(e, old) do { if ((old) == 0u) touched[atomic_inc(&cnt[ring])] = (e); } while (0)

/* Batch slot j: its source reached, queued. */
__kernel void dg_reach_init(const uint nb, __global const uint *und, const uint off,
                            __global const int *qs, __global const int *qt, __global int *bt,
                            const uint W, __global uint *vis, __global uint *front,
                            __global uint *q, __global uint *cnt, const uint ring,
                            __global uint *touched)
{
    const uint j = get_global_id(0);
    uint e, bit, qi;
    if (j >= nb) return;
    qi = und[off + j];
    bt[j] = qt[qi];
    e = (uint)qs[qi] * W + (j >> 5);
    bit = 1u << (j & 31u);
    DG_REACH_TOUCH(e, atomic_or(&vis[e], bit));
    if (atomic_or(&front[e], bit) == 0u) q[atomic_inc(&cnt[0])] = e;
}

/* Level L: every queued (v, w) passes its bits on to v's out-neighbours u, minus those already
   at u and those whose target u cannot reach by the labels (both are added to vis[u], so a
   bit is tested at most once per vertex). Reaching the target answers the query. */
__kernel void dg_reach_expand(DG_ADJ_ARGS, const uint W, __global const uint *qin,
                              __global uint *qout, __global uint *cnt, const uint ring,
                              const uint L, __global uint *front, __global uint *next,
                              __global uint *vis, __global uint *done, __global const int *bt,
                              __global uchar *found, __global const int *comp,
                              __global const int2 *lab, const uint d, __global uint *touched)
{
    const uint nin = cnt[L % ring];
    __global uint *nc = cnt + (L + 1) % ring;
    uint i;
    if (get_global_id(0) == 0) cnt[(L + 2) % ring] = 0u;
    for (i = get_global_id(0); i < nin; i += get_global_size(0)) {
        const uint e = qin[i], v = e / W, w = e - v * W;
        uint bits = front[e], deg, k, base;
        front[e] = 0u;
        bits &= ~done[w];
        if (!bits) continue;
        base = dg_row(DG_ADJ, (int)v, &deg);
        for (k = 0; k < deg; k++) {
            const int u = pool[dg_entry(DG_ADJ, base, k)];
            const uint eu = (uint)u * W + w;
            uint cand = bits & ~vis[eu], m, keep = 0u, old;
            if (!cand) continue;
            old = atomic_or(&vis[eu], cand);
            DG_REACH_TOUCH(eu, old);
            cand &= ~old;
            for (m = cand; m; m &= m - 1u) {
                const uint b = 31u - clz(m & (0u - m)), j = w * 32u + b;
                const int t = bt[j];
                if (t == u) { found[j] = 1; atomic_or(&done[w], 1u << b); }
                else if (dg_reach_contains(lab, d, comp[u], comp[t])) keep |= 1u << b;
            }
            if (keep && atomic_or(&next[eu], keep) == 0u) qout[atomic_inc(nc)] = eu;
        }
    }
}

/* After a batch: its answers into res (found cleared for the next batch), vis zeroed where
   the batch touched it. */
__kernel void dg_reach_finish(const uint nb, __global const uint *und, const uint off,
                              __global uchar *found, __global uchar *res,
                              __global uint *vis, __global const uint *touched,
                              __global const uint *cnt, const uint ring)
{
    const uint nt = cnt[ring];
    uint i;
    for (i = get_global_id(0); i < nt; i += get_global_size(0)) vis[touched[i]] = 0u;
    for (i = get_global_id(0); i < nb; i += get_global_size(0)) {
        res[und[off + i]] = found[i];
        found[i] = 0;
    }
}

/* ---- Building the labels on the device (DG_REACH_BUILD_DEVICE) ----
   The DAG of components (crow/ccol out-arcs, rrow/rcol in-arcs) comes with order[], its
   components level by level (longest path from a root, computed by the host), so every arc
   goes to a deeper level; the reverse DAG comes the same way (levels: longest path to a sink). Traversal k picks for every component one in-neighbour as its parent at
   random: a spanning forest. Subtree sizes bottom-up, then each component takes a range of
   ranks top-down from its parent's (a post-order of the forest: subtrees are contiguous),
   then (lo, hi) = the smallest and largest rank among the component's descendants, bottom
   up. Unlike a DFS order the ranks need not fall along the arcs, so hi is a maximum too; an
   interval that does not contain another is still an exact "no". */

inline uint dg_reach_hash(uint x, const uint k)
{
    x ^= k * 0x9e3779b9u;
    x ^= x >> 16; x *= 0x7feb352du;
    x ^= x >> 15; x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

/* phase 0: parent (a random in-neighbour), size 1; 1: add own size to the parent's
   (bottom-up); 2: a range of ranks from the parent's (top-down); 3: (lo, hi) (bottom-up). */
__kernel void dg_reach_forest(__global const uint *crow, __global const int *ccol,
                              __global const uint *rrow, __global const int *rcol,
                              __global const int *order, const uint lo, const uint hi,
                              const uint phase, const uint k, const uint d, const uint seed,
                              __global int *parent, __global uint *size, __global uint *base,
                              __global uint *alloc, __global uint *total,
                              __global int2 *lab, __global int2 *tree)
{
    const uint i = lo + get_global_id(0);
    int c;
    if (i >= hi) return;
    c = order[i];
    if (phase == 0) {
        const uint nin = rrow[c + 1] - rrow[c];
        parent[c] = nin ? rcol[rrow[c] + dg_reach_hash((uint)c, k + seed) % nin] : -1;
        size[c] = 1u;
        alloc[c] = 0u;
    } else if (phase == 1) {
        if (parent[c] >= 0) atomic_add(&size[parent[c]], size[c]);
    } else if (phase == 2) {
        const int p = parent[c];
        const uint start = p < 0 ? atomic_add(total, size[c]) : base[p] + atomic_add(&alloc[p], size[c]);
        const int r = (int)(start + size[c]);
        base[c] = start;
        lab[(size_t)c * d + k] = (int2)(r, r);
        if (k == 0) tree[c] = (int2)((int)start + 1, r);
    } else {
        int2 l = lab[(size_t)c * d + k];
        uint e;
        for (e = crow[c]; e < crow[c + 1]; e++) {
            const int2 m = lab[(size_t)ccol[e] * d + k];
            l.x = min(l.x, m.x);
            l.y = max(l.y, m.y);
        }
        lab[(size_t)c * d + k] = l;
    }
}
