/* kernels/72_scc.cl - strongly connected components on the device (module SCC, >>scc in
   dyngraph.h): trimming, one forward-backward search from a pivot (the giant component), then
   rounds of colouring (Orzan's; Slota et al.'s Multistep) for the rest.

   scc[v]: DG_SCC_UNSET while v is unassigned, -1 for a removed id, else the final label (the
   smallest id of v's component). Every sweep walks arcs u->v whose ends are both unassigned,
   self-loops skipped: either the out-lists' edge chunks (list == NULL: off, sv, nchunks, mec,
   total as in 10_adjacency.cl) or an arc list asrc/adst of m arcs cut into chunks of mec
   arcs. A sweep sets *flag when it changed something; the host repeats it until it does not.
   mk[v] holds two bits: DG_SCC_OUT / DG_SCC_IN (trimming: has an unassigned out-/in-neighbour;
   forward-backward: reached forward / backward; colouring: DG_SCC_IN = reaches its root). */

/* What one arc u->v does in a sweep of the given mode; returns 1 when it changed something. */
inline int dg_scc_arc(const int mode, const int u, const int v, __global uint *mk, __global int *col)
{
    switch (mode) {
    case DG_SCC_MARK:                    /* trimming: v has an in-neighbour, u an out-neighbour */
        if (!(mk[u] & DG_SCC_OUT)) atomic_or(&mk[u], DG_SCC_OUT);
        if (!(mk[v] & DG_SCC_IN)) atomic_or(&mk[v], DG_SCC_IN);
        return 0;
    case DG_SCC_FWBW: {                  /* forward along u->v, backward against it */
        const uint s = mk[u], t = mk[v];
        int c = 0;
        if ((s & DG_SCC_OUT) && !(t & DG_SCC_OUT)) { atomic_or(&mk[v], DG_SCC_OUT); c = 1; }
        if ((t & DG_SCC_IN) && !(s & DG_SCC_IN)) { atomic_or(&mk[u], DG_SCC_IN); c = 1; }
        return c;
    }
    case DG_SCC_COLOR: {                 /* col[v] = the smallest id that reaches v */
        int c = col[u];
        const int cc = col[c];           /* jumping: col[c] reaches c, which reaches u */
        if (cc < c) c = cc;
        return c < col[v] && atomic_min(&col[v], c) > c;
    }
    default:                             /* DG_SCC_BACK: reaching the root within one colour */
        if (col[u] == col[v] && (mk[v] & DG_SCC_IN) && !(mk[u] & DG_SCC_IN)) {
            atomic_or(&mk[u], DG_SCC_IN);
            return 1;
        }
        return 0;
    }
}

/* The arcs of work-item c's chunk with both ends unassigned: walks them, applying mode
   (mode DG_SCC_KEEP: counts them into cnt[c]; DG_SCC_WRITE: writes them to osrc/odst from
   cnt[c], the scan of the counts). One work-item per chunk. */
__kernel void dg_scc_sweep(DG_ADJ_ARGS, __global const uint *off, __global const int *sv,
                           const uint nchunks, const uint mec, const uint total,
                           __global const int *asrc, __global const int *adst, const uint m,
                           const int mode, __global const int *scc, __global uint *mk,
                           __global int *col, __global uint *cnt, __global int *osrc,
                           __global int *odst, __global uint *flag)
{
    const size_t c = get_global_id(0);
    uint kept = 0, at = 0;
    int changed = 0;
    if (c >= nchunks) return;
    if (mode == DG_SCC_WRITE) at = cnt[c];
    if (asrc) {                          /* the arc list */
        const uint first = (uint)c * mec, last = m - first < mec ? m : first + mec;   /* no wrap */
        uint i;
        for (i = first; i < last; i++) {
            const int u = asrc[i], v = adst[i];
            if (scc[u] != DG_SCC_UNSET || scc[v] != DG_SCC_UNSET) continue;
            if (mode == DG_SCC_KEEP) kept++;
            else if (mode == DG_SCC_WRITE) { osrc[at] = u; odst[at] = v; at++; }
            else changed |= dg_scc_arc(mode, u, v, mk, col);
        }
    } else {                             /* the pages' edge chunks */
        dg_ec_walk w = dg_ec_start(sv, (uint)c, mec, total);
        while (dg_ec_next(off, &w)) {
            uint deg, k;
            const uint base = dg_row(DG_ADJ, w.v, &deg);
            if (scc[w.v] != DG_SCC_UNSET) continue;
            for (k = w.k0; k < w.k1; k++) {
                const int v = dg_neighbor(DG_ADJ, base, k);
                if (v == w.v || scc[v] != DG_SCC_UNSET) continue;
                if (mode == DG_SCC_KEEP) kept++;
                else if (mode == DG_SCC_WRITE) { osrc[at] = w.v; odst[at] = v; at++; }
                else changed |= dg_scc_arc(mode, w.v, v, mk, col);
            }
        }
    }
    if (mode == DG_SCC_KEEP) cnt[c] = kept;
    if (changed) *flag = 1;
}

/* scc[v] = -1 for a removed id, DG_SCC_UNSET for a live vertex. */
__kernel void dg_scc_init(__global const int *dir, __global int *scc, const uint n)
{
    const size_t v = get_global_id(0);
    if (v < n) scc[v] = dir[DG_DS * v] < 0 ? -1 : DG_SCC_UNSET;
}

/* One vertex step of a phase, for the unassigned v < n (ctl: DG_SCC_CTL_* words):
   DG_SCC_TRIM   no unassigned in- or out-neighbour (mk): v is a component alone;
   DG_SCC_PIVOT_MIN  reached both ways from the pivot: ctl[MIN] = the smallest such id;
   DG_SCC_PIVOT_SET  the same vertices take it as their label;
   DG_SCC_COLOR_START  col[v] = v, mk[v] = 0;
   DG_SCC_ROOTS  a colour's root (col[v] == v) reaches itself: mk[v] = DG_SCC_IN;
   DG_SCC_TAKE   reaching its colour's root: label = the colour (its smallest id).
   Each vertex that gets its label counts in ctl[DG_SCC_CTL_DONE]. */
__kernel void dg_scc_step(__global int *scc, __global uint *mk, __global int *col, const uint n,
                          const int step, __global uint *ctl)
{
    const size_t v = get_global_id(0);
    int label = DG_SCC_UNSET;
    if (v >= n || scc[v] != DG_SCC_UNSET) return;
    switch (step) {
    case DG_SCC_TRIM:
        if ((mk[v] & (DG_SCC_IN | DG_SCC_OUT)) != (DG_SCC_IN | DG_SCC_OUT)) label = (int)v;
        break;
    case DG_SCC_PIVOT_MIN:
        if (mk[v] == (DG_SCC_IN | DG_SCC_OUT)) atomic_min((volatile __global int *)&ctl[DG_SCC_CTL_MIN], (int)v);
        break;
    case DG_SCC_PIVOT_SET:
        if (mk[v] == (DG_SCC_IN | DG_SCC_OUT)) label = (int)ctl[DG_SCC_CTL_MIN];
        break;
    case DG_SCC_COLOR_START:
        col[v] = (int)v;
        mk[v] = 0;
        break;
    case DG_SCC_ROOTS:
        if (col[v] == (int)v) mk[v] = DG_SCC_IN;
        break;
    default:                             /* DG_SCC_TAKE */
        if (mk[v] & DG_SCC_IN) label = col[v];
        break;
    }
    if (label != DG_SCC_UNSET) {
        scc[v] = label;
        atomic_inc(&ctl[DG_SCC_CTL_DONE]);
    }
}

/* The pivot of the forward-backward search: the unassigned vertex of largest
   min(out-degree, in-degree) (ties: the smallest id), per work-group into part (pairs of
   score, id), the host picks the best. DG_ADJ is the out-store; the in-store follows. */
__kernel __attribute__((reqd_work_group_size(DG_WG, 1, 1)))
void dg_scc_pivot(DG_ADJ_ARGS, __global const int *idir, const uint idso, __global const int *ipool,
                  __global const int4 *iidx, __global const int *ilatab, __global const int *scc,
                  const uint n, __global uint *part)
{
    __local uint ls[DG_WG], lv[DG_WG];
    const uint lid = (uint)get_local_id(0);
    uint best = 0, bv = 0xffffffffu, s;
    size_t v;
    for (v = get_global_id(0); v < n; v += get_global_size(0)) {
        if (scc[v] == DG_SCC_UNSET) {
            const uint sc = min(dg_degree(DG_ADJ, (int)v), dg_degree(idir, idso, ipool, iidx, ilatab, (int)v));
            if (sc > best || bv == 0xffffffffu) { best = sc; bv = (uint)v; }
        }
    }
    ls[lid] = best; lv[lid] = bv;
    for (s = DG_WG >> 1; s > 0; s >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < s && lv[lid + s] != 0xffffffffu &&
            (lv[lid] == 0xffffffffu || ls[lid + s] > ls[lid] || (ls[lid + s] == ls[lid] && lv[lid + s] < lv[lid]))) {
            ls[lid] = ls[lid + s]; lv[lid] = lv[lid + s];
        }
    }
    if (lid == 0) { part[2 * get_group_id(0)] = ls[0]; part[2 * get_group_id(0) + 1] = lv[0]; }
}
