/* kernels/70_graph.cl - whole-graph algorithms (module GRAPH, >>graph in dyngraph.h):
   weakly connected components and PageRank. */

/* ---- weakly connected components: hooking on every arc, then pointer jumping ----
   comp[v] is a vertex of v's component, never above v: it starts at v (at -1 for a removed
   id), and a hook only lowers the label of a root (comp[r] == r) to a smaller vertex joined to
   it by an arc. So following comp[] from any vertex ends at a root, and once no arc joins two
   roots each component has one root, its smallest vertex ([Shiloach 1982]: hooking on the
   minimum, with full pointer jumping between passes). Afforest [Sutton 2018] first: two
   rounds of one sampled neighbour per vertex, then the passes over the arcs skip the lists of
   the component most samples fall in. */
inline int dg_cc_root(__global const int *comp, int x)
{
    int p;
    while ((p = comp[x]) != x) x = p;
    return x;
}

/* comp[v] for from <= v < n (one work-item each from `from` on). */
__kernel void dg_cc_init(__global const int *dir, __global int *comp, const uint from, const uint n)
{
    const size_t v = from + get_global_id(0);
    if (v >= n) return;
    comp[v] = dir[DG_DS * v] < 0 ? -1 : (int)v;
}

/* Hooks the roots of u and v, the larger onto the smaller; 1 if that lowered a root's label. */
inline int dg_cc_link(__global int *comp, const int u, const int v)
{
    const int ru = dg_cc_root(comp, u), rv = dg_cc_root(comp, v);
    return ru != rv && atomic_min(&comp[max(ru, rv)], min(ru, rv)) > min(ru, rv);
}

/* Afforest's sampling [Sutton 2018]: every live vertex links to its neighbour r (if it has
   one). A few such rounds (with jumps between) join most of a giant component cheaply. */
__kernel void dg_cc_sample(DG_ADJ_ARGS, __global int *comp, const uint n, const uint r)
{
    const size_t v = get_global_id(0);
    uint deg;
    dg_pos base;
    if (v >= n || comp[v] < 0) return;
    base = dg_row(DG_ADJ, (int)v, &deg);
    if (deg > r) dg_cc_link(comp, (int)v, dg_neighbor(DG_ADJ, base, r));
}

/* out[i] = the root of vertex (i * 2654435761) mod n (-1: removed), i < ns: a sample of the
   labels, whose most frequent root is taken for the giant component. */
__kernel void dg_cc_gather(__global const int *comp, const uint n, __global int *out, const uint ns)
{
    const size_t i = get_global_id(0);
    int v;
    if (i >= ns) return;
    v = (int)((uint)((ulong)i * 2654435761u % n));
    out[i] = comp[v] < 0 ? -1 : dg_cc_root(comp, v);
}

/* One pass over the arcs, edge chunks of mec arcs per work-item (hubs spread over many),
   skipping the lists of vertices whose root is `skip` (the giant component; -1: none: an
   undirected graph holds every arc in both lists, so the other end links it). Sets *flag when
   a hook lowered a root's label. */
__kernel void dg_cc_hook(DG_ADJ_ARGS, __global const dg_pos *off, __global const int *sv,
                         const uint nchunks, const uint mec, const ulong total,
                         __global int *comp, __global uint *flag, const int skip)
{
    const size_t c = get_global_id(0);
    dg_ec_walk w;
    int changed = 0;
    if (c >= nchunks) return;
    w = dg_ec_start(sv, (uint)c, mec, total);
    while (dg_ec_next(off, &w)) {
        uint deg, k;
        const dg_pos base = dg_row(DG_ADJ, w.v, &deg);
        if (skip >= 0 && dg_cc_root(comp, w.v) == skip) continue;
        for (k = w.k0; k < w.k1; k++)
            if (dg_cc_link(comp, w.v, dg_neighbor(DG_ADJ, base, k))) changed = 1;
    }
    if (changed) *flag = 1;
}

/* *count += how many v < n have x[v] == v (roots: the components of a labelling), one atomic a
   work-group. */
__kernel __attribute__((reqd_work_group_size(DG_WG, 1, 1)))
void dg_roots_count(__global const int *x, const uint n, __global uint *count)
{
    __local uint s[DG_WG];
    const size_t v = get_global_id(0);
    const uint lid = (uint)get_local_id(0);
    s[lid] = v < n && x[v] == (int)v;
    DG_LOCAL_SUM(s, lid);
    if (lid == 0 && s[0]) atomic_add(count, s[0]);
}

/* ---- results that follow the graph (>>result): labels brought up to date ----
   Removals: the components that held an end of a removed edge (or a removed vertex) are
   marked by their old label, each of their vertices starts again on its own, and hooking runs
   over the arcs of those vertices only (every arc that joins two of them has its tail among
   them). Insertions: the ends of each inserted edge that still exists are hooked. */

/* mark[comp[v]] = 1 for each v = list[i] (i < n) below nold (the ids the labels cover) that
   has a label: its component may have split. */
__kernel void dg_cc_mark(__global const int *list, const uint n, const uint nold, __global const int *comp,
                         __global uint *mark)
{
    const size_t i = get_global_id(0);
    int v, c;
    if (i >= n) return;
    v = list[i];
    if ((uint)v < nold && (c = comp[v]) >= 0) mark[c] = 1u;
}

/* Every id v < n (each work-item reads and writes only comp[v]): a removed id loses its label;
   a live vertex without one (its id handed out again) becomes a component of its own; with
   marks, a live vertex of a marked component too, and it is listed in out (length *cnt). */
__kernel void dg_cc_reset(__global const int *dir, __global int *comp, __global const uint *mark,
                          const int marks, const uint n, __global int *out, __global uint *cnt)
{
    const size_t v = get_global_id(0);
    int c;
    if (v >= n) return;
    c = comp[v];
    if (dir[DG_DS * v] < 0) comp[v] = -1;
    else if (c < 0) comp[v] = (int)v;
    else if (marks && mark[c]) {
        comp[v] = (int)v;
        out[atomic_inc(cnt)] = (int)v;
    }
}

/* Removals checked first by a search from the removed edges' ends: if the two ends of every
   removed edge still reach each other, no component split (an old path goes around each
   removed edge). Balls grow from every end, a round a launch: a vertex joins the ball that
   reaches it first (vis[v] = the round's stamp, tag[v] = the ball's end), and balls that meet
   are united (uf over the ends' ids, hooking as dg_cc_link). Stamps grow across updates:
   vis[v] < base means not reached in this one. Lists longer than DG_CC_CUT_DEG are not
   crossed: the search is for short detours, and finding less only sends the update to the
   slower path. */
__kernel void dg_cc_cut_seed(DG_ADJ_ARGS, __global const int *cut, const uint n, __global uint *vis,
                             __global int *tag, __global int *uf, __global int *out, __global uint *cnt,
                             const uint base, const int lone)
{
    const size_t i = get_global_id(0);
    int e;
    if (i >= 2 * (size_t)n) return;
    e = cut[i];
    if (lone && dg_degree(DG_ADJ, e) == 0) atomic_inc(&cnt[3]);   /* an end left alone: a split */
    if (atomic_xchg(&vis[e], base) != base) {
        tag[e] = e;
        uf[e] = e;
        out[atomic_inc(&cnt[0])] = e;
    }
}

/* One round over DG_ADJ (both stores, one launch each, in a directed graph): teams of
   DG_RES_TEAM work-items take a vertex of in[0..cnt[ci]) at a time; out's length: cnt[co]. */
__kernel void dg_cc_cut_round(DG_ADJ_ARGS, __global const int *in, __global uint *vis, __global int *tag,
                              __global int *uf, __global int *out, __global uint *cnt, const uint ci,
                              const uint co, const uint base, const uint stamp)
{
    const uint gid = (uint)get_global_id(0), lane = gid % DG_RES_TEAM;
    const uint teams = (uint)get_global_size(0) / DG_RES_TEAM, n = cnt[ci];
    uint i;
    for (i = gid / DG_RES_TEAM; i < n; i += teams) {
        const int u = in[i];
        uint deg, k;
        const dg_pos b = dg_row(DG_ADJ, u, &deg);
        if (deg > DG_CC_CUT_DEG) continue;               /* a hub: not crossed (only less found) */
        for (k = lane; k < deg; k += DG_RES_TEAM) {
            const int x = dg_neighbor(DG_ADJ, b, k);
            const uint v = vis[x];
            if (v < base) {                              /* not reached yet: this ball's */
                if (atomic_cmpxchg(&vis[x], v, stamp) == v) {
                    tag[x] = tag[u];
                    out[atomic_inc(&cnt[co])] = x;
                }
            } else if (v < stamp) {                      /* reached before this round: unite */
                dg_cc_link(uf, tag[u], tag[x]);
            }
        }
    }
}

/* cnt[2] += the removed edges cut[2i], cut[2i + 1] (i < n) whose ends' balls are not united. */
__kernel void dg_cc_cut_check(__global const int *cut, const uint n, __global int *uf, __global uint *cnt)
{
    const size_t i = get_global_id(0);
    if (i < n && dg_cc_root(uf, cut[2 * i]) != dg_cc_root(uf, cut[2 * i + 1])) atomic_inc(&cnt[2]);
}

/* Hooking over the arcs of listed vertices (an ADVANCE): keeps d when a root's label fell. */
inline int dg_cc_relink(int s, int d, float w, __global int *comp)
{
    (void)w;
    return dg_cc_link(comp, s, d);
}
DG_DEFINE_ADVANCE(dg_cc_relink_advance, dg_cc_relink)

/* The same in one work-group, passes separated by barriers until one lowers no root (a few
   inserted edges: no flag read back a pass). */
__kernel __attribute__((reqd_work_group_size(DG_WG, 1, 1)))
void dg_cc_pairs_local(__global const int *pairs, const uint n, __global int *comp)
{
    __local int l_changed;
    const uint lid = (uint)get_local_id(0);
    for (;;) {
        uint i;
        int changed = 0;
        if (lid == 0) l_changed = 0;
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        for (i = lid; i < n; i += DG_WG)
            if (dg_cc_link(comp, pairs[2 * i], pairs[2 * i + 1])) changed = 1;
        if (changed) l_changed = 1;
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        changed = l_changed;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (!changed) break;
    }
}

/* Hooks the ends of each inserted edge pairs[2i], pairs[2i+1] (i < n); sets *flag when a
   root's label fell. */
__kernel void dg_cc_pairs(__global const int *pairs, const uint n, __global int *comp, __global uint *flag)
{
    const size_t i = get_global_id(0);
    if (i < n && dg_cc_link(comp, pairs[2 * i], pairs[2 * i + 1])) *flag = 1;
}

__kernel void dg_cc_jump(__global int *comp, const uint n)
{
    const size_t v = get_global_id(0);
    if (v >= n || comp[v] < 0) return;
    comp[v] = dg_cc_root(comp, (int)v);
}

/* ---- PageRank, pulled over the in-arcs ----
   Each iteration: contrib[u] = rank[u] / outdeg(u) and the dangling mass (rank of live
   vertices without out-arcs), summed per work-group into part[] and by dg_pr_sum into
   tot[DG_PR_DANGLING]; then next[v] = (1 - d) / n + d * (sum of contrib over v's in-arcs +
   dangling / n), and |next[v] - rank[v]| summed the same way into tot[DG_PR_CHANGE]. */

/* The work-group's sum of x (one value per work-item), in s[0] for work-item 0. */
inline float dg_local_sum(__local float *s, const float x)
{
    const uint lid = (uint)get_local_id(0);
    uint d;
    s[lid] = x;
    for (d = DG_WG >> 1; d > 0; d >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < d) s[lid] += s[lid + d];
    }
    return s[0];
}
/* The work-group's sum of x into part[group]. */
inline void dg_group_sum(__local float *s, const float x, __global float *part)
{
    const float t = dg_local_sum(s, x);
    if (get_local_id(0) == 0) part[get_group_id(0)] = t;
}

__kernel __attribute__((reqd_work_group_size(DG_WG, 1, 1)))
void dg_pr_contrib(DG_ADJ_ARGS, __global const float *rank, __global float *contrib,
                   __global float *part, const uint n)
{
    __local float s[DG_WG];
    const size_t v = get_global_id(0);
    float dangling = 0.0f;
    if (v < n) {
        const uint deg = dg_degree(DG_ADJ, (int)v);
        const float r = rank[v];
        contrib[v] = deg ? r / (float)deg : 0.0f;
        if (!deg && dir[DG_DS * v + dso] >= 0) dangling = r;
    }
    dg_group_sum(s, dangling, part);
}

/* tot[slot] = the sum of part[0..np), by one work-group. */
__kernel __attribute__((reqd_work_group_size(DG_WG, 1, 1)))
void dg_pr_sum(__global const float *part, const uint np, __global float *tot, const uint slot)
{
    __local float s[DG_WG];
    uint i;
    float x = 0.0f;
    for (i = (uint)get_local_id(0); i < np; i += DG_WG) x += part[i];
    dg_group_sum(s, x, tot + slot);
}

/* In the pulls, DG_ADJ is the in-store (the out-store of an undirected graph); nlive: live
   vertices. A vertex with more than DG_PR_HUB in-arcs (a hub) is summed by a whole work-group
   (dg_pr_pull_hubs, first), the others by a work-item each (dg_pr_pull): one work-item looping
   over a hub's 100k arcs would hold up the whole iteration. */
inline float dg_pr_value(const float sum, __global const float *tot, const float damping, const float nlive)
{
    return (1.0f - damping) / nlive + damping * (sum + tot[DG_PR_DANGLING] / nlive);
}

/* The hubs (in-degree > DG_PR_HUB) listed once per call: hubs[0 .. *nhubs). */
__kernel void dg_pr_hubs(DG_ADJ_ARGS, __global int *hubs, __global uint *nhubs, const uint n)
{
    const size_t v = get_global_id(0);
    if (v < n && dg_degree(DG_ADJ, (int)v) > DG_PR_HUB) hubs[atomic_inc(nhubs)] = (int)v;
}

/* Work-group g sums hub hubs[g]. */
__kernel __attribute__((reqd_work_group_size(DG_WG, 1, 1)))
void dg_pr_pull_hubs(DG_ADJ_ARGS, __global const float *contrib, __global const int *hubs,
                     __global float *next, __global const float *tot, const float damping,
                     const float nlive)
{
    __local float s[DG_WG];
    const int v = hubs[get_group_id(0)];
    uint deg, k;
    const dg_pos base = dg_row(DG_ADJ, v, &deg);
    float x = 0.0f, t;
    for (k = (uint)get_local_id(0); k < deg; k += DG_WG) x += contrib[dg_neighbor(DG_ADJ, base, k)];
    t = dg_local_sum(s, x);
    if (get_local_id(0) == 0) next[v] = dg_pr_value(t, tot, damping, nlive);
}

__kernel __attribute__((reqd_work_group_size(DG_WG, 1, 1)))
void dg_pr_pull(DG_ADJ_ARGS, __global const float *contrib, __global const float *rank,
                __global float *next, __global float *part, __global const float *tot,
                const float damping, const float nlive, const uint n)
{
    __local float s[DG_WG];
    const size_t v = get_global_id(0);
    float change = 0.0f;
    if (v < n) {
        float x = 0.0f;
        if (dir[DG_DS * v + dso] >= 0) {
            uint deg, k;
            const dg_pos base = dg_row(DG_ADJ, (int)v, &deg);
            if (deg > DG_PR_HUB) {
                x = next[v];                       /* written by dg_pr_pull_hubs */
            } else {
                for (k = 0; k < deg; k++) x += contrib[dg_neighbor(DG_ADJ, base, k)];
                x = dg_pr_value(x, tot, damping, nlive);
            }
        }
        next[v] = x;
        change = fabs(x - rank[v]);
    }
    dg_group_sum(s, change, part);
}

/* rank[v] = r0 for a live vertex, 0 for a removed id (the start of PageRank). */
/* The start: r0 for the live vertices from `from` on, 0 for removed ids; below `from` a live
   vertex keeps its rank (a warm start from the last result). */
__kernel void dg_pr_init(__global const int *dir, __global float *rank, const float r0, const uint from,
                         const uint n)
{
    const size_t v = get_global_id(0);
    if (v >= n) return;
    if (dir[DG_DS * v] < 0) rank[v] = 0.0f;
    else if (v >= from) rank[v] = r0;
}
