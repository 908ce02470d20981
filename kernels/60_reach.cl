/* kernels/60_reach.cl - reachability queries with the GRAIL index ([Yildirim 2010]).

   The index (built on the host, or on the device by dg_reach_peel / dg_reach_forest below):
   comp[v], v's strongly connected component (-1: removed vertex); per component c, 2d + 1
   pairs lab[c*(2d+1) + k]: for k < d an interval (lo, hi) of the k-th randomized traversal
   of the DAG of components (hi: c's rank, lo: the smallest rank among c's descendants); for
   d <= k < 2d the same on the reverse DAG (ancestors); k = 2d the levels (depth, height),
   the longest paths from a root and to a sink. If c reaches c', every descendant interval
   of c' lies in c's, every ancestor interval of c in c''s, and c' is no shallower and no
   higher than c: one failed containment is an exact "no".
   tree[c] = (lo, rank, alo, arank): c's subtree in the spanning forest of traversal 0 holds
   exactly the ranks lo..rank (a post-order numbers subtrees contiguously): c' with its rank
   in there is a descendant, an exact "yes"; alo..arank the same in the reverse DAG's forest
   (ancestors).
   hub[c] = (x, y): bit i of x set if hub component i reaches c, of y if c reaches hub i
   (64 hubs at most, chosen by the host): a hub that reaches s but not t, or one t reaches
   and s does not, is an exact "no"; a hub s reaches and that reaches t an exact "yes".
   DG_REACH_SIG(sig, c): c's signatures (00_shared.h), the bits of its descendants and of its
   ancestors: if s reaches t, t's descendants are s's and s's ancestors t's, so a bit of t's
   descendant signature missing from s's (or of s's ancestor signature from t's) is an exact
   "no" (as in BFL, [Su 2017]; the bits follow the depth-first order, as its do).
   Removing edges leaves every path of the new graph in the old one, so the intervals, the
   hubs' "no" and the signatures stay a valid filter; the "yes" shortcuts (same component,
   tree interval, hubs) do not: `exact` is 0 then. */

/* The hub bits of s and t rule out s -> t. */
inline int dg_reach_hub_no(const ulong2 hs, const ulong2 ht)
{
    return ((hs.x & ~ht.x) | (ht.y & ~hs.y)) != 0ul;
}

/* Component c's signatures: DG_REACH_SIG_WORDS words of descendants, then as many of
   ancestors. */
#define DG_REACH_SIG(sig, c) ((sig) + 2u * DG_REACH_SIG_WORDS * (size_t)(c))
/* The signatures rule out component s -> component t: a word at a time, stopping at the
   first that does (few registers: the search kernel's occupancy decides its speed). */
inline int dg_reach_sig_no(__global const uint *sig, const int s, const int t)
{
    __global const uint *ss = DG_REACH_SIG(sig, s), *st = DG_REACH_SIG(sig, t);
    uint w;
    for (w = 0; w < DG_REACH_SIG_WORDS; w++)
        if ((st[w] & ~ss[w]) | (ss[DG_REACH_SIG_WORDS + w] & ~st[DG_REACH_SIG_WORDS + w])) return 1;
    return 0;
}

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

/* a <= r <= b for i = (a, b) */
inline int dg_reach_in(const int r, const int2 i) { return r >= i.x && r <= i.y; }

/* Query i: res[i] = 1 or 0 where the labels decide (cnt[DG_RL_BY_HUBS] counts those the hubs
   decide, cnt[DG_RL_POSITIVE] the 1s); else res[i] = 0 and i goes to und (cnt[DG_RL_UNDECIDED]
   entries; cnt[DG_RL_BY_SIGS] counts those the signatures decide where the intervals cannot,
   which tells the host whether the search should test them too). A query naming no live
   vertex (id outside 0..nv-1, or removed: no page in the directory) puts the smallest such i
   in cnt[DG_RL_BAD]. */
__kernel void dg_reach_labels(const uint nq, __global const int *qs, __global const int *qt,
                              __global const int *comp, __global const int2 *lab,
                              __global const int4 *tree, const uint d, const uint exact,
                              __global uchar *res, __global uint *und, __global uint *cnt,
                              __global const int *dir, const uint nv, __global const ulong2 *hub,
                              __global const uint *sig)
{
    const uint i = get_global_id(0);
    int s, t, cs, ct, r;
    ulong2 hs, ht;
    if (i >= nq) return;
    s = qs[i]; t = qt[i];
    if ((uint)s >= nv || (uint)t >= nv || dir[DG_DS * (size_t)s] < 0 || dir[DG_DS * (size_t)t] < 0) {
        atomic_min(&cnt[DG_RL_BAD], i);
        return;
    }
    cs = comp[s]; ct = comp[t];
    hs = hub[cs]; ht = hub[ct];
    if (s == t || (exact && cs == ct)) r = 1;
    else if (dg_reach_hub_no(hs, ht)) { r = 0; atomic_inc(&cnt[DG_RL_BY_HUBS]); }
    else if (exact && (hs.y & ht.x) != 0ul) { r = 1; atomic_inc(&cnt[DG_RL_BY_HUBS]); }
    else if (!dg_reach_contains(lab, d, cs, ct)) r = 0;
    else if (dg_reach_sig_no(sig, cs, ct)) { r = 0; atomic_inc(&cnt[DG_RL_BY_SIGS]); }
    else if (exact && (dg_reach_in(tree[ct].y, tree[cs].xy) || dg_reach_in(tree[cs].w, tree[ct].zw))) r = 1;
    else r = 2;
    res[i] = (uchar)(r == 1);
    if (r == 2) und[atomic_inc(&cnt[DG_RL_UNDECIDED])] = i;
    if (r == 1) atomic_inc(&cnt[DG_RL_POSITIVE]);
}

/* ---- The undecided queries: bit-parallel searches pruned by the labels ----
   The search runs on the DAG of components (crow/ccol, dg_reach_expand_dag) while the index
   is exact, else on the graph's own pages (dg_reach_expand: after removals the components
   may have split). A batch of 32*W queries, query j = bit j%32 of word j/32 of each search
   vertex's W words: vis (reached or ruled out), front (to expand at this level), next (at
   the next one). bq[2j]: query j's target: on the pages (vertex, component, -, -), on the
   DAG (component, rank, alo, arank) of its tree intervals (see tree above); bq[2j + 1] its
   hub bits. A queue entry is x*W + w: word w of search vertex x has bits in front.
   Counters (cnt, ring = DG_REACH_RING slots, then those of 00_shared.h's DG_RC_*):
   dg_reach_level(cnt, ring, L) counts the entries of level L (the kernel of level L appends
   to level L+1's and clears level L+2's, so the host queues several levels per read-back);
   cnt[ring + DG_RC_TOUCHED]: words of vis made non-zero, listed in touched (dg_reach_finish
   zeroes them after the batch: no pass over all of vis). front and next clear themselves
   (an entry's word is zeroed when it is expanded). done[w]: queries of word w answered
   (found). */

/* Level L's entry counter. */
inline __global uint *dg_reach_level(__global uint *cnt, const uint ring, const uint L)
{
    return cnt + L % ring;
}

/* Word e of vis was `old` before this work-item set bits in it: list e in touched if it was
   zero. */
inline void dg_reach_touch(__global uint *cnt, const uint ring, __global uint *touched,
                           const uint e, const uint old)
{
    if (old == 0u) touched[atomic_inc(&cnt[ring + DG_RC_TOUCHED])] = e;
}

/* Batch slot j: its source reached, queued; bq[2j] its target (see above), bq[2j + 1] the
   target's hub bits. */
__kernel void dg_reach_init(const uint nb, __global const uint *und, const uint off,
                            __global const int *qs, __global const int *qt,
                            __global const int *comp, __global const int4 *tree,
                            const uint dag, __global int4 *bq, const uint W, __global uint *vis,
                            __global uint *front, __global uint *q, __global uint *cnt,
                            const uint ring, __global uint *touched, __global const ulong2 *hub)
{
    const uint j = get_global_id(0);
    uint e, bit, qi;
    int s, t;
    if (j >= nb) return;
    qi = und[off + j];
    s = qs[qi]; t = qt[qi];
    if (dag) {
        const int4 tt = tree[comp[t]];
        bq[2 * j] = (int4)(comp[t], tt.y, tt.z, tt.w);
    } else {
        bq[2 * j] = (int4)(t, comp[t], 0, 0);
    }
    bq[2 * j + 1] = as_int4(hub[comp[t]]);
    e = (uint)(dag ? comp[s] : s) * W + (j >> 5);
    bit = 1u << (j & 31u);
    dg_reach_touch(cnt, ring, touched, e, atomic_or(&vis[e], bit));
    if (atomic_or(&front[e], bit) == 0u) q[atomic_inc(dg_reach_level(cnt, ring, 0u))] = e;
}

/* The search's arguments, after the graph's (the host sets them by index), and their names
   (macros, as DG_ADJ_ARGS: an OpenCL C 1.2 kernel cannot take a struct of pointers). */
#define DG_REACH_SEARCH_ARGS const uint W, __global const uint *qin, __global uint *qout, \
    __global uint *cnt, const uint ring, const uint L, __global uint *front, \
    __global uint *next, __global uint *vis, __global uint *done, __global const int4 *bq, \
    __global uchar *found, __global const int *comp, __global const int4 *tree, \
    __global const int2 *lab, const uint d, __global uint *touched, __global const ulong2 *hub, \
    __global const uint *sig
#define DG_REACH_SEARCH W, qin, qout, cnt, ring, L, front, next, vis, done, bq, found, comp, \
    tree, lab, d, touched, hub, sig

/* The two searches differ only in the functions below, which take `dag` (0: the pages,
   1: the DAG of components; a literal in each kernel, so the other branch folds away). Each
   comes with and without the signature test (`use_sig`, a literal too: the host takes the
   kernel with it where the signatures decided queries the intervals could not; without it
   the kernel is the one from before the signatures, whose speed testing them would cost on a
   graph where they fill up, e.g. 15-20% on the citation DAG: bench/NOTES.md).
   On the pages the graph is DG_ADJ (crow, ccol unused); on the DAG crow/ccol, the DAG's
   out-arcs (DG_ADJ unused). */

/* Index of search vertex x's arc 0, its out-degree in *deg. */
inline dg_pos dg_reach_row(const int dag, DG_ADJ_ARGS, __global const uint *crow, const uint x,
                         uint *deg)
{
    if (dag) {
        *deg = crow[x + 1] - crow[x];
        return crow[x];
    }
    return dg_row(DG_ADJ, (int)x, deg);
}

/* Head of arc k of the row whose arc 0 is at base. */
inline int dg_reach_arc(const int dag, DG_ADJ_ARGS, __global const int *ccol, const dg_pos base,
                        const uint k)
{
    return dag ? ccol[base + k] : dg_neighbor(DG_ADJ, base, k);
}

/* What the search reads of a newly reached search vertex u: its component, the hub bits of
   that, and (on the DAG) its tree intervals (see tree above). */
typedef struct {
    int comp;
    ulong2 hub;
    int4 tree;
} dg_reach_vertex;

inline dg_reach_vertex dg_reach_load(const int dag, const int u, __global const int *comp,
                                     __global const int4 *tree, __global const ulong2 *hub)
{
    dg_reach_vertex r;
    r.comp = dag ? u : comp[u];
    r.hub = hub[r.comp];
    r.tree = dag ? tree[u] : (int4)(0);
    return r;
}

/* Reaching u (read as ru) answers the query whose target is q = bq[2j] with hub bits h. On the
   pages: u is the target. On the DAG, where the index is exact: u's forest subtree holds
   the target's rank, or u lies in the target's subtree of the reverse forest, or u reaches
   a hub reaching the target (the target itself is one). */
inline int dg_reach_hit(const int dag, const int u, const dg_reach_vertex ru, const int4 q,
                        const ulong2 h)
{
    if (dag)
        return dg_reach_in(q.y, ru.tree.xy) || dg_reach_in(ru.tree.w, q.zw) || (ru.hub.y & h.x) != 0ul;
    return q.x == u;
}

/* The component of the target q = bq[2j]. */
inline int dg_reach_target_comp(const int dag, const int4 q) { return dag ? q.x : q.y; }

/* The work-group's entries: their scanned out-degrees, queue entries, bits to pass on and
   arc-0 indices (DG_WG each: the kernels require work-groups of DG_WG). */
typedef struct {
    uint off[DG_WG], e[DG_WG], bits[DG_WG];
    dg_pos base[DG_WG];
} dg_reach_group;

/* Level L: every queued (x, w) passes its bits on to x's out-neighbours u, minus those
   already at u and those whose target u cannot reach by the labels (hubs, signatures,
   intervals; both are added to vis[u], so a bit is tested at most once per vertex). Reaching
   the target answers the query. Load-balanced per work-group: DG_WG entries at a time, their
   out-arcs spread evenly over the work-items (a scan of the degrees), so a hub's list is
   walked by the whole group. Every work-item of the group runs it (barriers). */
inline void dg_reach_expand_body(const int dag, const int use_sig, DG_ADJ_ARGS,
                                 __global const uint *crow, __global const int *ccol,
                                 DG_REACH_SEARCH_ARGS, __local dg_reach_group *l)
{
    const uint nin = *dg_reach_level(cnt, ring, L), lid = get_local_id(0);
    __global uint *nc = dg_reach_level(cnt, ring, L + 1);
    uint c0;
    if (get_global_id(0) == 0) *dg_reach_level(cnt, ring, L + 2) = 0u;
    for (c0 = get_group_id(0) * DG_WG; c0 < nin; c0 += get_num_groups(0) * DG_WG) {
        uint e = 0u, bits = 0u, deg = 0u, total, t;
        dg_pos base = 0u;
        if (c0 + lid < nin) {
            e = qin[c0 + lid];
            bits = front[e] & ~done[e % W];
            front[e] = 0u;
            if (bits) base = dg_reach_row(dag, DG_ADJ, crow, e / W, &deg);
        }
        l->e[lid] = e; l->bits[lid] = bits; l->base[lid] = base; l->off[lid] = deg;
        total = dg_local_scan(l->off, lid);
        for (t = lid; t < total; t += DG_WG) {
            const uint o = dg_local_owner(l->off, DG_WG, t), w = l->e[o] % W;
            const int u = dg_reach_arc(dag, DG_ADJ, ccol, l->base[o], t - l->off[o]);
            const uint eu = (uint)u * W + w;
            uint cand = l->bits[o] & ~vis[eu], m, keep = 0u, old;
            dg_reach_vertex ru;
            if (!cand) continue;
            old = atomic_or(&vis[eu], cand);
            dg_reach_touch(cnt, ring, touched, eu, old);
            cand &= ~old;
            ru = dg_reach_load(dag, u, comp, tree, hub);
            for (m = cand; m; m &= m - 1u) {
                const uint b = 31u - clz(m & (0u - m)), j = w * 32u + b;
                const int4 qj = bq[2 * j];
                const ulong2 hj = as_ulong2(bq[2 * j + 1]);
                if (dg_reach_hit(dag, u, ru, qj, hj)) { found[j] = 1; atomic_or(&done[w], 1u << b); }
                else if (!dg_reach_hub_no(ru.hub, hj) &&
                         dg_reach_contains(lab, d, ru.comp, dg_reach_target_comp(dag, qj)) &&
                         (!use_sig || !dg_reach_sig_no(sig, ru.comp, dg_reach_target_comp(dag, qj))))
                    keep |= 1u << b;   /* the signatures last: they cost reads */
            }
            if (keep && atomic_or(&next[eu], keep) == 0u) qout[atomic_inc(nc)] = eu;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

/* On the pages (vertices). */
__kernel __attribute__((reqd_work_group_size(DG_WG, 1, 1)))
void dg_reach_expand(DG_ADJ_ARGS, DG_REACH_SEARCH_ARGS)
{
    __local dg_reach_group l;
    dg_reach_expand_body(0, 0, DG_ADJ, 0, 0, DG_REACH_SEARCH, &l);
}
__kernel __attribute__((reqd_work_group_size(DG_WG, 1, 1)))
void dg_reach_expand_sig(DG_ADJ_ARGS, DG_REACH_SEARCH_ARGS)
{
    __local dg_reach_group l;
    dg_reach_expand_body(0, 1, DG_ADJ, 0, 0, DG_REACH_SEARCH, &l);
}

/* On the DAG of components (crow/ccol: out-arcs; comp unused). */
__kernel __attribute__((reqd_work_group_size(DG_WG, 1, 1)))
void dg_reach_expand_dag(__global const uint *crow, __global const int *ccol,
                         DG_REACH_SEARCH_ARGS)
{
    __local dg_reach_group l;
    dg_reach_expand_body(1, 0, 0, 0u, 0, 0, 0, crow, ccol, DG_REACH_SEARCH, &l);
}
__kernel __attribute__((reqd_work_group_size(DG_WG, 1, 1)))
void dg_reach_expand_dag_sig(__global const uint *crow, __global const int *ccol,
                             DG_REACH_SEARCH_ARGS)
{
    __local dg_reach_group l;
    dg_reach_expand_body(1, 1, 0, 0u, 0, 0, 0, crow, ccol, DG_REACH_SEARCH, &l);
}

/* After a batch: its answers into res (found cleared for the next batch), vis zeroed where
   the batch touched it; cnt[ring + DG_RC_VISITED] sums the words touched over the batches. */
__kernel void dg_reach_finish(const uint nb, __global const uint *und, const uint off,
                              __global uchar *found, __global uchar *res,
                              __global uint *vis, __global const uint *touched,
                              __global uint *cnt, const uint ring)
{
    const uint nt = cnt[ring + DG_RC_TOUCHED];
    uint i;
    if (get_global_id(0) == 0) cnt[ring + DG_RC_VISITED] += nt;
    for (i = get_global_id(0); i < nt; i += get_global_size(0)) vis[touched[i]] = 0u;
    for (i = get_global_id(0); i < nb; i += get_global_size(0)) {
        res[und[off + i]] = found[i];
        found[i] = 0;
    }
}

/* ---- Building the labels on the device (DG_REACH_BUILD_DEVICE) ----
   The DAG of components (crow/ccol out-arcs, rrow/rcol in-arcs) comes with order[], its
   components level by level (longest path from a root, computed by the host), so every arc
   goes to a deeper level; the reverse DAG comes the same way (levels: longest path to a
   sink). Traversal k picks for every component one in-neighbour as its parent at random (in
   traversal 0 the deepest, as a depth-first search tends to: then descendants cluster in its
   order, which the signatures' bits follow): a spanning forest. Subtree sizes bottom-up,
   then each component takes a range of ranks top-down from its parent's (a post-order of the
   forest: subtrees are contiguous), then (lo, hi) = the smallest and largest rank among the
   component's descendants, bottom up. Unlike a DFS order the ranks need not fall along the
   arcs, so hi is a maximum too; an interval that does not contain another is still an exact
   "no". */

inline uint dg_reach_hash(uint x, const uint k)
{
    x ^= k * 0x9e3779b9u;
    x ^= x >> 16; x *= 0x7feb352du;
    x ^= x >> 15; x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

/* Component c's own signature bit (00_shared.h): from its rank r (1..nc) in traversal 0. */
inline uint dg_reach_sig_bit(const int r, const uint nc)
{
    const uint bits = 32u * DG_REACH_SIG_WORDS;
    return (uint)((ulong)(uint)(r - 1) * DG_REACH_SIG_SPREAD * bits / nc % bits);
}

/* phase 0: parent (a random in-neighbour; in traversal 0 the deepest), size 1; 1: add own
   size to the parent's (bottom-up); 2: a range of ranks from the parent's (top-down); 3: (lo,
   hi) (bottom-up), and in traversal 0 of either direction c's signature (its first
   DG_REACH_SIG_WORDS words: descendants, over the DAG's out-arcs; the next: ancestors, over
   the reverse DAG's, the roles of crow and rrow being swapped then); *total holds the
   components in phase 3. */
__kernel void dg_reach_forest(__global const uint *crow, __global const int *ccol,
                              __global const uint *rrow, __global const int *rcol,
                              __global const int *order, const uint lo, const uint hi,
                              const uint phase, const uint k, const uint d, const uint seed,
                              __global int *parent, __global uint *size, __global uint *base,
                              __global uint *alloc, __global uint *total,
                              __global int2 *lab, __global int4 *tree, __global uint *sig)
{
    const uint i = lo + get_global_id(0);
    int c;
    if (i >= hi) return;
    c = order[i];
    if (phase == 0) {
        const uint nin = rrow[c + 1] - rrow[c];
        parent[c] = nin ? rcol[rrow[c] + dg_reach_hash((uint)c, k + seed) % nin] : -1;
        if (k == 0 && nin > 1) {   /* traversal 0: the deepest in-neighbour (ties at random) */
            int best = parent[c];
            uint e;
            for (e = rrow[c]; e < rrow[c + 1]; e++) {
                const int p = rcol[e];
                const int dp = lab[(size_t)p * d + d - 1].x, db = lab[(size_t)best * d + d - 1].x;
                if (dp > db ||
                    (dp == db && dg_reach_hash((uint)p, seed) > dg_reach_hash((uint)best, seed)))
                    best = p;
            }
            parent[c] = best;
        }
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
        if (k == 0) tree[c].xy = (int2)((int)start + 1, r);
        if (k == (d - 1) / 2) tree[c].zw = (int2)((int)start + 1, r);   /* d: 2 x labels + 1 */
    } else {
        int2 l = lab[(size_t)c * d + k];
        uint e;
        for (e = crow[c]; e < crow[c + 1]; e++) {
            const int2 m = lab[(size_t)ccol[e] * d + k];
            l.x = min(l.x, m.x);
            l.y = max(l.y, m.y);
        }
        lab[(size_t)c * d + k] = l;
        if (k == 0 || k == (d - 1) / 2) {
            const uint side = k == 0 ? 0u : DG_REACH_SIG_WORDS, b = dg_reach_sig_bit(tree[c].y, *total);
            __global uint *to = DG_REACH_SIG(sig, c) + side;
            uint x[DG_REACH_SIG_WORDS], w;
            for (w = 0; w < DG_REACH_SIG_WORDS; w++) x[w] = w == b >> 5 ? 1u << (b & 31u) : 0u;
            for (e = crow[c]; e < crow[c + 1]; e++) {   /* each arc read once */
                __global const uint *from = DG_REACH_SIG(sig, ccol[e]) + side;
                for (w = 0; w < DG_REACH_SIG_WORDS; w++) x[w] |= from[w];
            }
            for (w = 0; w < DG_REACH_SIG_WORDS; w++) to[w] = x[w];
        }
    }
}
