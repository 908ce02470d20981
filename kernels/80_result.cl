/* kernels/80_result.cl - results that follow the graph (module RESULT, >>result in
   dyngraph.h): BFS and SSSP distances brought up to date after a batch of changes.

   A result keeps float distances (BFS: levels, exact in float below 2^24) in one data
   buffer, with an invalid flag and a stamp per vertex (layout: DG_RES_* in 00_shared.h).
   An update runs three steps [Vora 2017 (KickStarter); Feng 2021 (RisGraph)]:
   1. trimming (dg_res_check, a launch and a 2-word read-back a round): a vertex y whose
      in-arcs lost something (a deletion, a weight raised, a removed neighbour) is a suspect.
      It keeps its distance if an in-neighbour z that is not invalid supports it:
      dist[z] < dist[y] and dist[z] + w(z, y) == dist[y] (the float addition that set it).
      Else y is invalid, and its dependents (out-neighbours whose distance it set that way)
      are the next round's suspects. Support is strictly shorter, so support chains end at
      the source: every vertex left valid still has a real path of its distance. A vertex
      found supported by z is checked again if z falls later (z's dependents).
   2. repair (dg_res_repair): invalid vertices get INFINITY; their in-neighbours that still
      have a distance (the boundary) join the tails of inserted arcs (or lowered weights) in
      the first frontier, on the device.
   3. propagation: relax the frontier's out-arcs with atomic_min, round after round, until
      nothing is lowered: in one work-group while the frontier is small (dg_res_push_local,
      many rounds a launch), balanced over the edges when it holds hubs (dg_res_propagate),
      else one launch a round queued without the host (dg_res_push).
   Every distance is then the one a fresh run computes: values only fall from upper bounds
   that are real paths, and every arc that can lower one is relaxed. */

inline __global uint *dg_res_dist(__global int *data)
{
    return (__global uint *)(data + DG_RES_HDR);
}
inline __global uint *dg_res_inval(__global int *data)
{
    return (__global uint *)(data + DG_RES_HDR) + (uint)data[DG_RES_N];
}
inline __global uint *dg_res_stamp(__global int *data)
{
    return (__global uint *)(data + DG_RES_HDR) + 2u * (uint)data[DG_RES_N];
}

/* The weight of arc z -> y from z's out-list (its first DG_RES_SCAN entries), or -1 (the
   caller then takes z for no support: checking y too strictly only costs work). */
inline float dg_res_arc_weight(__global const int *dir, __global const int *opool,
                               __global const int4 *oidx, __global const int *olatab,
                               __global const float *owpool, const int z, const int y)
{
    uint deg, k;
    const dg_pos base = dg_row(dir, 0, opool, oidx, olatab, z, &deg);
    if (deg > DG_RES_SCAN) deg = DG_RES_SCAN;
    for (k = 0; k < deg; k++) {
        const dg_pos x = dg_entry(dir, 0, opool, oidx, olatab, base, k);
        if (opool[x] == y) return owpool[x];
    }
    return -1.0f;
}

/* Trimming: each suspect y (list[0..n)) that is not the source, not invalid and has a
   distance looks for support among its in-neighbours (DG_ADJ: the in-store; wpool its
   weights for DG_RES_W_ENTRY; the out-store opool/oidx/olatab/owpool for DG_RES_W_LOOKUP).
   Unsupported: invalid, listed in all (length cnt[1]), and its dependents (out-neighbours
   y2 not invalid with dist[y] + w == dist[y2], dist[y] < dist[y2]) are the next round's
   suspects (next, length cnt[0]; once a round: stamp). A work-group takes one suspect at a
   time (a hub's lists are read DG_WG entries a step; the support search stops at the first
   step that found one); the suspects are distinct, so only y's group writes inval[y]. */
__kernel __attribute__((reqd_work_group_size(DG_WG, 1, 1)))
void dg_res_check(DG_ADJ_ARGS, __global const float *wpool, __global const int *opool,
                  __global const int4 *oidx, __global const int *olatab,
                  __global const float *owpool, const int mode, const int src,
                  __global const int *list, const uint n, __global int *data,
                  __global int *next, __global int *all, __global uint *cnt, const uint stamp)
{
    __local int l_go, l_found;
    __global uint *dist = dg_res_dist(data), *inval = dg_res_inval(data), *stamps = dg_res_stamp(data);
    const uint lid = (uint)get_local_id(0);
    uint i;
    for (i = (uint)get_group_id(0); i < n; i += (uint)get_num_groups(0)) {
        const int y = list[i];
        if (lid == 0) {
            l_go = y != src && !inval[y] && as_float(dist[y]) != INFINITY;
            l_found = 0;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (l_go) {
            const float dy = as_float(dist[y]);
            uint deg, k0, odeg, k;
            const dg_pos base = dg_row(DG_ADJ, y, &deg);
            for (k0 = 0; k0 < deg; k0 += DG_WG) {
                const uint kk = k0 + lid;
                int f;
                if (kk < deg) {
                    const dg_pos x = dg_entry(DG_ADJ, base, kk);
                    const int z = pool[x];
                    const float dz = as_float(dist[z]);
                    if (dz < dy && !inval[z]) {
                        const float w = mode == DG_RES_W_UNIT ? 1.0f : mode == DG_RES_W_ENTRY ? wpool[x]
                                      : dg_res_arc_weight(dir, opool, oidx, olatab, owpool, z, y);
                        if (w >= 0.0f && dz + w == dy) l_found = 1;      /* supported */
                    }
                }
                barrier(CLK_LOCAL_MEM_FENCE);
                f = l_found;
                barrier(CLK_LOCAL_MEM_FENCE);
                if (f) break;
            }
            if (!l_found) {                            /* (read by every work-item alike) */
                const dg_pos ob = dg_row(dir, 0, opool, oidx, olatab, y, &odeg);
                if (lid == 0) {
                    inval[y] = 1u;
                    all[atomic_inc(&cnt[1])] = y;
                }
                for (k = lid; k < odeg; k += DG_WG) {
                    const dg_pos x = dg_entry(dir, 0, opool, oidx, olatab, ob, k);
                    const int y2 = opool[x];
                    const float d2 = as_float(dist[y2]);
                    if (!inval[y2] && dy < d2 && dy + (mode == DG_RES_W_UNIT ? 1.0f : owpool[x]) == d2 &&
                        atomic_xchg(&stamps[y2], stamp) != stamp)
                        next[atomic_inc(&cnt[0])] = y2;
                }
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

#define DG_RES_T (DG_WG < DG_RES_TEAM ? DG_WG : DG_RES_TEAM)

/* Propagation's step: d's distance falls to nb (float bits; atomic_min); 1 if d is to be
   listed for the next round (the first time this round: stamp). */
inline int dg_res_lower(const int d, const uint nb, __global uint *dist, __global uint *stamps, const uint stamp)
{
    return nb < dist[d] && nb < atomic_min(&dist[d], nb) && atomic_xchg(&stamps[d], stamp) != stamp;
}

/* Propagation's step over entry k of s's list (base from dg_row, ds = dist[s]): 1 with the
   neighbour in *d when it is to be listed (dg_res_lower). */
inline int dg_res_entry(DG_ADJ_ARGS, __global const float *wpool, const dg_pos base, const uint k, const float ds,
                        const int unit, __global uint *dist, __global uint *stamps, const uint stamp, int *d)
{
    const dg_pos x = dg_entry(DG_ADJ, base, k);
    *d = pool[x];
    return dg_res_lower(*d, as_uint(ds + (unit ? 1.0f : wpool[x])), dist, stamps, stamp);
}

/* Propagation, one round balanced over the edges (an ADVANCE; a frontier with hubs): keeps
   d, once a round (the stamp in the header), when its distance fell. */
inline int dg_res_relax(int s, int d, float w, __global int *data)
{
    const float ds = as_float(dg_res_dist(data)[s]);
    if (ds == INFINITY) return 0;
    return dg_res_lower(d, as_uint(ds + (data[DG_RES_UNIT] ? 1.0f : w)), dg_res_dist(data), dg_res_stamp(data),
                        (uint)data[DG_RES_ROUND]);
}
DG_DEFINE_ADVANCE(dg_res_propagate, dg_res_relax)

/* Propagation while the frontier is small: rounds run inside one work-group, with barriers
   between them, and no launch or host round trip a round. Entered at round rr with the
   frontier in la (length cnt[r3], r3 = rr mod 3); round t reads la or lb (t even: la) and
   writes the other. It stops after max_rounds, when the frontier is empty, or when it holds
   more than `limit` vertices (then the queued kernel below goes on); it leaves the frontier's
   length in cnt[(r3 + t) mod 3], zero in cnt[(r3 + t + 1) mod 3] (as round rr + t - 1 of the
   queued kernel would), and status = {t, length}. A vertex with more than DG_RES_LIGHT
   neighbours is set aside and its list strided by a team of DG_RES_T work-items; a round
   whose lists hold more than edges_max entries is left to the kernels that take all
   work-groups (t may then be 0; so is it when the frontier it is given is empty or larger
   than limit): one work-group waits on memory a round of its lists after another (a
   Kronecker update's repair frontier of ~2,000 vertices: 0.7 ms in one group). */
__kernel __attribute__((reqd_work_group_size(DG_WG, 1, 1)))
void dg_res_push_local(DG_ADJ_ARGS, __global const float *wpool, __global int *la, __global int *lb,
                       __global uint *cnt, const uint r3, const uint stamp0, const uint max_rounds,
                       const uint limit, const uint edges_max, __global uint *status, __global int *data)
{
    __local uint l_out, l_heavy, l_edges;
    __local int heavy[DG_RES_HEAVY];
    __global uint *dist = dg_res_dist(data), *stamps = dg_res_stamp(data);
    const uint lid = (uint)get_local_id(0), lane = lid % DG_RES_T, team = lid / DG_RES_T;
    const int unit = data[DG_RES_UNIT] || !wpool;
    uint n = cnt[r3], t = 0;
    while (t < max_rounds && n && n <= limit) {
        __global const int *in = (t & 1u) ? lb : la;
        __global int *out = (t & 1u) ? la : lb;
        const uint stamp = stamp0 + t;
        uint i, nh;
        if (lid == 0) { l_out = 0; l_heavy = 0; l_edges = 0; }
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        for (i = lid; i < n; i += DG_WG)               /* the lists' entries, summed */
            atomic_add(&l_edges, min(dg_degree(DG_ADJ, in[i]), edges_max + 1u));
        barrier(CLK_LOCAL_MEM_FENCE);
        if (l_edges > edges_max) break;                /* many edges or hubs: for all work-groups */
        for (i = lid; i < n; i += DG_WG) {
            const int s = in[i];
            const float ds = as_float(dist[s]);
            uint deg, k;
            dg_pos base;
            if (ds == INFINITY) continue;
            base = dg_row(DG_ADJ, s, &deg);
            if (deg > DG_RES_LIGHT) {
                const uint h = atomic_inc(&l_heavy);
                if (h < DG_RES_HEAVY) { heavy[h] = s; continue; }
            }
            for (k = 0; k < deg; k++) {
                int d;
                if (dg_res_entry(DG_ADJ, wpool, base, k, ds, unit, dist, stamps, stamp, &d)) out[atomic_inc(&l_out)] = d;
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        nh = min(l_heavy, (uint)DG_RES_HEAVY);
        for (i = team; i < nh; i += DG_WG / DG_RES_T) {
            const int s = heavy[i];
            const float ds = as_float(dist[s]);
            uint deg, k;
            const dg_pos base = dg_row(DG_ADJ, s, &deg);
            for (k = lane; k < deg; k += DG_RES_T) {
                int d;
                if (dg_res_entry(DG_ADJ, wpool, base, k, ds, unit, dist, stamps, stamp, &d)) out[atomic_inc(&l_out)] = d;
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        n = l_out;
        t++;
        barrier(CLK_LOCAL_MEM_FENCE);                 /* every work-item has read l_out */
    }
    if (lid == 0) {
        cnt[(r3 + t) % 3] = n;
        cnt[(r3 + t + 1) % 3] = 0u;
        status[0] = t;
        status[1] = n;
    }
}

/* Propagation, rounds queued without the host (one launch a round). Round r relaxes the
   out-arcs of in[0..cnt[r3]) (r3 = r mod 3) with atomic_min and lists each vertex it lowered
   once (stamp) in out (length cnt[(r3 + 1) mod 3], zeroed by round r - 1); it zeroes
   cnt[(r3 + 2) mod 3] for round r + 1. Teams of DG_RES_T work-items take one vertex at a
   time and stride its list; the teams stride the frontier. */
__kernel void dg_res_push(DG_ADJ_ARGS, __global const float *wpool, __global const int *in,
                          __global int *out, __global uint *cnt, const uint r3, const uint stamp,
                          __global int *data)
{
    __global uint *dist = dg_res_dist(data), *stamps = dg_res_stamp(data);
    const uint gid = (uint)get_global_id(0), lane = gid % DG_RES_T;
    const uint teams = (uint)get_global_size(0) / DG_RES_T, n = cnt[r3];
    __global uint *ocnt = &cnt[(r3 + 1) % 3];
    const int unit = data[DG_RES_UNIT] || !wpool;
    uint i;
    if (gid == 0) cnt[(r3 + 2) % 3] = 0u;
    for (i = gid / DG_RES_T; i < n; i += teams) {
        const int s = in[i];
        const float ds = as_float(dist[s]);
        uint deg, k;
        const dg_pos base = dg_row(DG_ADJ, s, &deg);
        if (ds == INFINITY) continue;
        for (k = lane; k < deg; k += DG_RES_T) {
            int d;
            if (dg_res_entry(DG_ADJ, wpool, base, k, ds, unit, dist, stamps, stamp, &d)) out[atomic_inc(ocnt)] = d;
        }
    }
}

/* Unit weights: each inserted arc arcs[2i] -> arcs[2i + 1] (i < n) is relaxed alone (its
   tail's other arcs did not change); a head whose distance fell is listed in out (length
   *cnt, once: stamp), after the boundary. */
__kernel void dg_res_seed(__global const int *arcs, const uint n, __global int *data, __global int *out,
                          __global uint *cnt, const uint stamp)
{
    const size_t i = get_global_id(0);
    __global uint *dist = dg_res_dist(data);
    float ds;
    int d;
    if (i >= n) return;
    ds = as_float(dist[arcs[2 * i]]);
    d = arcs[2 * i + 1];
    if (ds != INFINITY && dg_res_lower(d, as_uint(ds + 1.0f), dist, dg_res_stamp(data), stamp))
        out[atomic_inc(cnt)] = d;
}

/* Repair: each invalid vertex y = list[i] (i < n) gets INFINITY and loses its flag; its
   in-neighbours (DG_ADJ: the in-store) that have a distance are listed in out (length
   *cnt, once: stamp): the boundary propagation starts from. (An in-neighbour invalid but
   not yet reset may be listed: it has INFINITY by the time propagation reads it.) A
   work-group a vertex. */
__kernel __attribute__((reqd_work_group_size(DG_WG, 1, 1)))
void dg_res_repair(DG_ADJ_ARGS, __global const int *list, const uint n, __global int *data,
                   __global int *out, __global uint *cnt, const uint stamp)
{
    __global uint *dist = dg_res_dist(data), *stamps = dg_res_stamp(data);
    const uint lid = (uint)get_local_id(0);
    uint i;
    for (i = (uint)get_group_id(0); i < n; i += (uint)get_num_groups(0)) {
        const int y = list[i];
        uint deg, k;
        const dg_pos base = dg_row(DG_ADJ, y, &deg);
        if (lid == 0) { dist[y] = as_uint(INFINITY); dg_res_inval(data)[y] = 0u; }
        for (k = lid; k < deg; k += DG_WG) {
            const int z = pool[dg_entry(DG_ADJ, base, k)];
            if (as_float(dist[z]) != INFINITY && atomic_xchg(&stamps[z], stamp) != stamp)
                out[atomic_inc(cnt)] = z;
        }
    }
}

/* Repair: the invalid vertices list[0..n) get INFINITY and lose their flag. */
__kernel void dg_res_reset(__global const int *list, const uint n, __global int *data)
{
    const size_t i = get_global_id(0);
    if (i >= n) return;
    dg_res_dist(data)[list[i]] = as_uint(INFINITY);
    dg_res_inval(data)[list[i]] = 0u;
}

/* From the BFS module's levels (-1: unreached) to distances, and back. */
__kernel void dg_res_from_levels(__global const int *lv, __global int *data, const uint n)
{
    const size_t v = get_global_id(0);
    if (v >= n) return;
    dg_res_dist(data)[v] = lv[v] < 0 ? as_uint(INFINITY) : as_uint((float)lv[v]);
}
__kernel void dg_res_to_levels(__global const int *data, __global int *lv, const uint n)
{
    const size_t v = get_global_id(0);
    float d;
    if (v >= n) return;
    d = as_float(((__global const uint *)(data + DG_RES_HDR))[v]);   /* (dg_res_dist, const) */
    lv[v] = d == INFINITY ? -1 : (int)d;
}
