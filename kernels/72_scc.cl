/* kernels/72_scc.cl - strongly connected components on the device (module SCC, >>scc in
   dyngraph.h): trimming, one forward-backward search from a pivot (the giant component), then
   rounds of signatures for the rest (the ECL-SCC idea: min-propagation both ways; arcs
   between different signatures are dropped, so the parts shrink round by round).

   scc[v]: DG_SCC_UNSET while v is unassigned, -1 for a removed id, else the final label (the
   smallest id of v's component). Every sweep walks arcs u->v whose ends are both unassigned,
   self-loops skipped: either the out-lists' edge chunks (list == NULL: off, sv, nchunks, mec,
   total as in 10_adjacency.cl) or an arc list asrc/adst of m arcs cut into chunks of mec
   arcs. A sweep sets *flag when it changed something; the host repeats it until it does not.
   mk[v] holds two bits: DG_SCC_OUT / DG_SCC_IN (trimming: has an unassigned out-neighbour;
   forward-backward: reached forward / backward). sin[v] / sout[v] (a round's signatures):
   the smallest id that reaches v / that v reaches, within v's part; two vertices of one
   component have the same pair, so an arc whose ends differ in either lies in no component. */

#ifndef DG_SCC_JUMPS
#define DG_SCC_JUMPS 8                   /* steps of jumping a signature takes at most */
#endif
/* The flags of changed vertices: two bits a vertex, 16 vertices a word, a forward half then
   a backward half of nw = (n + 15) / 16 words: bit 2i, vertex i changed in the last sweep;
   bit 2i + 1, in this one (so one read tells both). dg_scc_next moves the second to the
   first between sweeps. */
#define DG_SCC_FLAGS(f, at, v) (((f)[(at) + ((uint)(v) >> 4)] >> (2u * ((uint)(v) & 15u))) & 3u)
inline void dg_scc_flag(__global uint *f, const uint at, const int v)
{
    atomic_or(&f[at + ((uint)v >> 4)], 2u << (2u * ((uint)v & 15u)));
}

/* What one arc u->v does in a sweep of the given mode (fw, bw: whether its forward and its
   backward part can change anything); returns 1 when it changed something. A vertex whose
   forward (backward) state changed gets its second bit in fl set (in its backward half, from
   word nw). */
inline int dg_scc_arc(const int mode, const int u, const int v, const int fw, const int bw, __global uint *mk,
                      __global int *sin, __global int *sout, __global uint *fl, const uint nw)
{
    int c = 0;
    switch (mode) {
    case DG_SCC_MARK:                    /* trimming: v has an in-neighbour, u an out-neighbour */
        if (!(mk[u] & DG_SCC_OUT)) atomic_or(&mk[u], DG_SCC_OUT);
        if (!(mk[v] & DG_SCC_IN)) atomic_or(&mk[v], DG_SCC_IN);
        return 0;
    case DG_SCC_FWBW: {                  /* forward along u->v, backward against it */
        const uint s = mk[u], t = mk[v];
        if (fw && (s & DG_SCC_OUT) && !(t & DG_SCC_OUT)) { atomic_or(&mk[v], DG_SCC_OUT); dg_scc_flag(fl, 0, v); c = 1; }
        if (bw && (t & DG_SCC_IN) && !(s & DG_SCC_IN)) { atomic_or(&mk[u], DG_SCC_IN); dg_scc_flag(fl, nw, u); c = 1; }
        return c;
    }
    default:                             /* DG_SCC_SIGN: sin forward along u->v, sout backward */
        if (fw) {                        /* jumping: sin[a] reaches a, which reaches u */
            int a = sin[u], aa, j;
            for (j = 0; j < DG_SCC_JUMPS && (aa = sin[a]) < a; j++) a = aa;
            if (a < sin[v] && atomic_min(&sin[v], a) > a) { dg_scc_flag(fl, 0, v); c = 1; }
        }
        if (bw) {
            int b = sout[v], bb, j;
            for (j = 0; j < DG_SCC_JUMPS && (bb = sout[b]) < b; j++) b = bb;
            if (b < sout[u] && atomic_min(&sout[u], b) > b) { dg_scc_flag(fl, nw, u); c = 1; }
        }
        return c;
    }
}

/* One arc u->v (u != v) of a sweep: skipped unless both ends are unassigned and (with fl,
   the flags above) one end changed since the start of the last sweep;
   KEEP counts it into *kept and WRITE writes it at *at when its ends have the same
   signatures; the other modes apply dg_scc_arc. Returns 1 when it changed something. */
inline int dg_scc_visit(const int mode, const int u, const int v, __global const int *scc, __global uint *mk,
                        __global int *sin, __global int *sout, __global uint *fl, const uint nw, uint *kept,
                        uint *at, __global int *osrc, __global int *odst)
{
    int fw = 1, bw = 1;
    if (fl) {                            /* changed in the last sweep, or already in this one */
        fw = DG_SCC_FLAGS(fl, 0, u) != 0;
        bw = DG_SCC_FLAGS(fl, nw, v) != 0;
        if (!fw && !bw) return 0;
    }
    if (scc[u] != DG_SCC_UNSET || scc[v] != DG_SCC_UNSET) return 0;
    if (mode < DG_SCC_KEEP) return dg_scc_arc(mode, u, v, fw, bw, mk, sin, sout, fl, nw);
    if (sin[u] != sin[v] || sout[u] != sout[v]) return 0;
    if (mode == DG_SCC_KEEP) (*kept)++;
    else { osrc[*at] = u; odst[*at] = v; (*at)++; }
    return 0;
}

/* The arcs of work-item c's chunk, each through dg_scc_visit (KEEP: the count into cnt[c];
   WRITE: written to osrc/odst from cnt[c], the scan of the counts). One work-item a
   chunk. */
__kernel void dg_scc_sweep(DG_ADJ_ARGS, __global const dg_pos *off, __global const int *sv,
                           const uint nchunks, const uint mec, const ulong total,
                           __global const int *asrc, __global const int *adst, const uint m,
                           const int mode, __global const int *scc, __global uint *mk,
                           __global int *sin, __global int *sout, __global uint *fl, const uint n,
                           __global uint *cnt, __global int *osrc,
                           __global int *odst, __global uint *flag)
{
    const size_t c = get_global_id(0);
    const uint nw = (n + 15) / 16;
    uint kept = 0, at = 0;
    int changed = 0;
    if (c >= nchunks) return;
    if (mode == DG_SCC_WRITE) at = cnt[c];
    if (asrc && mode < DG_SCC_KEEP) {    /* the arc list, strided: neighbours read neighbours */
        uint i;
        for (i = (uint)c; i < m; i += nchunks)
            changed |= dg_scc_visit(mode, asrc[i], adst[i], scc, mk, sin, sout, fl, nw, &kept, &at, osrc, odst);
    } else if (asrc) {                   /* the arc list, chunk c (KEEP, WRITE: kept in order) */
        const uint first = (uint)c * mec, last = m - first < mec ? m : first + mec;   /* no wrap */
        uint i;
        for (i = first; i < last; i++)
            changed |= dg_scc_visit(mode, asrc[i], adst[i], scc, mk, sin, sout, fl, nw, &kept, &at, osrc, odst);
    } else {                             /* the pages' edge chunks */
        dg_ec_walk w = dg_ec_start(sv, (uint)c, mec, total);
        while (dg_ec_next(off, &w)) {
            uint deg, k;
            const dg_pos base = dg_row(DG_ADJ, w.v, &deg);
            if (scc[w.v] != DG_SCC_UNSET) continue;
            for (k = w.k0; k < w.k1; k++) {
                const int v = dg_neighbor(DG_ADJ, base, k);
                if (v != w.v)
                    changed |= dg_scc_visit(mode, w.v, v, scc, mk, sin, sout, fl, nw, &kept, &at, osrc, odst);
            }
        }
    }
    if (mode == DG_SCC_KEEP) cnt[c] = kept;
    if (changed) *flag = 1;
}

/* Between two sweeps: each vertex's "changed in this sweep" becomes "in the last one". */
__kernel void dg_scc_next(__global uint *fl, const uint words)
{
    const size_t i = get_global_id(0);
    if (i < words) fl[i] = (fl[i] >> 1) & 0x55555555u;
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
   DG_SCC_PARTS  the parts the pivot's search leaves (reached forward only, backward only,
                 neither) as signatures, so the first compaction drops the arcs between them;
   DG_SCC_CLEAR  mk[v] = 0;
   DG_SCC_SIGN_START  sin[v] = sout[v] = v;
   DG_SCC_TAKE   sin[v] == sout[v]: v reaches and is reached by that id, the smallest of
                 its part that reaches v, so of its component: the label.
   Each vertex that gets its label counts in ctl[DG_SCC_CTL_DONE]. */
__kernel void dg_scc_step(__global int *scc, __global uint *mk, __global int *sin, __global int *sout,
                          const uint n, const int step, __global uint *ctl)
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
    case DG_SCC_PARTS:
        sin[v] = (int)mk[v];
        sout[v] = 0;
        break;
    case DG_SCC_CLEAR:
        mk[v] = 0;
        break;
    case DG_SCC_SIGN_START:
        sin[v] = sout[v] = (int)v;
        break;
    default:                             /* DG_SCC_TAKE */
        if (sin[v] == sout[v]) label = sin[v];
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
