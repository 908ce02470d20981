/* kernels/25_update.cl - batches applied on the device (module UPDATE, >>update in dyngraph.h).

   A batch of dg_edge {src, dst, weight} (12 bytes, read as int triples) becomes arcs: edge i
   gives arc i (directed), or arcs 2i (src -> dst) and 2i+1 (dst -> src) (undirected). The
   arcs are sorted by (source, target) with two stable radix sorts (by target, then by
   source; the arc numbers ride along as values, so the first of equal arcs is the first
   given), repeats dropped, and each kept arc looked up in its source's list: the lists are
   cut into chunks of DG_UP_CHUNK entries, and each entry of a chunk is searched for among
   its list's arcs (sorted by target): the cost is the entries of the lists touched, spread
   evenly over the device, however long a list is. Then, per store:
   - plan (one work-item per list, the first arc of its run): do the new arcs fit in place
     (in the gap after the list, free entries being -1; on a large list's last page)? A list
     without room stamps and lists its page, which is laid out again here (dg_up_room_*: onto
     itself and new pages the host reserved), or, where a list is or becomes large, by the
     host (headers, slots, directory), the device moving the lists' entries (dg_up_move).
     Removals always fit; a large list that needs fewer pages is listed for the host, which
     releases them.
   - insertion: each arc writes its entry at degree + rank; the run's first arc writes the
     degree and the page's end.
   - removal: the removed entries are marked, the entries that survive past the new degree
     move into the marked places below it, and the tail is cleared.
   Every page written is marked and listed (cbits / clist) for the host, whose copy of it
   is then stale (manual section 11). */

/* float bits that order as unsigned ints as the floats do (for atomic_min) */
inline uint dg_up_fkey(const float f)
{
    const uint u = as_uint(f);
    return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

inline int dg_up_alive(__global const int *dir, const uint bound, const int v)
{
    return v >= 0 && (uint)v < bound && dir[DG_DS * (size_t)v] >= 0;
}

/* source and target of arc a (edge a, or edge a/2 both ways) */
inline int dg_up_src(__global const int *e, const uint two, const uint a)
{
    return two ? e[3 * (size_t)(a >> 1) + (a & 1u)] : e[3 * (size_t)a];
}
inline int dg_up_dst(__global const int *e, const uint two, const uint a)
{
    return two ? e[3 * (size_t)(a >> 1) + 1u - (a & 1u)] : e[3 * (size_t)a + 1];
}
inline int dg_up_wbits(__global const int *e, const uint two, const uint a)
{
    return e[3 * (size_t)(two ? a >> 1 : a) + 2];
}

/* Checks edge i and makes its arcs: keys = targets, values = arc numbers. Bad edges are
   reported by their smallest index (range or NaN; a removed vertex), with key 0. */
__kernel void dg_up_arcs(__global const int *e, const uint n, const uint bound,
                         __global const int *dir, const uint two, const uint check_nan,
                         const uint weighted, __global uint *keys, __global uint *vals,
                         __global uint *cnt)
{
    const uint i = (uint)get_global_id(0);
    int s, d;
    float w;
    if (i >= n) return;
    s = e[3 * (size_t)i]; d = e[3 * (size_t)i + 1]; w = as_float(e[3 * (size_t)i + 2]);
    if (s < 0 || d < 0 || (uint)s >= bound || (uint)d >= bound || (check_nan && isnan(w))) {
        atomic_min(&cnt[DG_UP_BAD], i);
        s = d = 0;
    } else if (!dg_up_alive(dir, bound, s) || !dg_up_alive(dir, bound, d)) {
        atomic_min(&cnt[DG_UP_DEAD], i);
    }
    if (weighted && !isnan(w)) {   /* (the plain read first: the minimum only falls, and most
                                      batches' weights are equal, so most work-items skip the atomic) */
        const uint key = dg_up_fkey(w);
        if (key < ((volatile __global uint *)cnt)[DG_UP_WMIN]) atomic_min(&cnt[DG_UP_WMIN], key);
    }
    if (two) {
        keys[2 * i] = (uint)d; vals[2 * i] = 2 * i;
        keys[2 * i + 1] = (uint)s; vals[2 * i + 1] = 2 * i + 1;
    } else {
        keys[i] = (uint)d; vals[i] = i;
    }
}

/* keys = the sources of the arcs (in their order after the sort by target) */
__kernel void dg_up_srckeys(__global const int *e, __global const uint *vals, const uint m,
                            const uint two, __global uint *keys)
{
    const uint i = (uint)get_global_id(0);
    if (i < m) keys[i] = (uint)dg_up_src(e, two, vals[i]);
}

/* The m <= DG_UP_SMALL arcs of a small batch sorted in one work-group, in the order of the two
   radix sorts (source, then target, then arc number): keys = sources, vals = arc numbers. Each
   arc is (source, target, arc) packed in 64 bits (sb + sb + ab bits: the host checks they fit),
   sorted by a bitonic network in local memory: one launch instead of 3 (two one-tile sorts and
   dg_up_srckeys between them: ~0.1 ms for a 1,000-edge batch on the H200 machine). Ids are cut to sb bits: a bad one is
   rejected after the lookup, as with the radix sorts. */
__kernel void dg_up_sort_small(__global const int *e, const uint m, const uint two, const uint sb,
                               const uint ab, __global uint *keys, __global uint *vals)
{
    __local ulong t[DG_UP_SMALL];
    const uint lid = (uint)get_local_id(0), ls = (uint)get_local_size(0);
    const uint idmask = (uint)(((ulong)1 << sb) - 1);
    uint n = 1, i, k, j;
    while (n < m) n <<= 1;
    for (i = lid; i < n; i += ls)
        t[i] = i >= m ? ~(ulong)0 :
               ((ulong)((uint)dg_up_src(e, two, i) & idmask) << (sb + ab)) |
               ((ulong)((uint)dg_up_dst(e, two, i) & idmask) << ab) | (ulong)i;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (k = 2; k <= n; k <<= 1)
        for (j = k >> 1; j > 0; j >>= 1) {
            for (i = lid; i < n / 2; i += ls) {     /* pair (a, a + j), ascending where a & k == 0 */
                const uint a = ((i & ~(j - 1)) << 1) | (i & (j - 1)), b = a + j;
                const ulong x = t[a], y = t[b];
                if ((x > y) == ((a & k) == 0)) { t[a] = y; t[b] = x; }
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    for (i = lid; i < m; i += ls) {
        keys[i] = (uint)(t[i] >> (sb + ab));
        vals[i] = (uint)(t[i] & (((ulong)1 << ab) - 1));
    }
}

/* flag[i] = 1 for the first of equal arcs (sorted by source, then target); flag[m] = 0. A
   batch that fails its check (dg_up_arcs: cnt) keeps no arc: every count after this is 0, so
   the kernels that follow (which read their counts on the device, the host reading the check
   later) neither look up its bad ids nor write anything. */
__kernel void dg_up_unique(__global const int *e, __global const uint *keys,
                           __global const uint *vals, const uint m, const uint two,
                           __global const uint *cnt, __global uint *flag)
{
    const uint i = (uint)get_global_id(0);
    if (i < m)
        flag[i] = cnt[DG_UP_BAD] == 0xffffffffu && cnt[DG_UP_DEAD] == 0xffffffffu &&
                  (i == 0 || keys[i] != keys[i - 1] ||
                   dg_up_dst(e, two, vals[i]) != dg_up_dst(e, two, vals[i - 1]));
    else if (i == m)
        flag[i] = 0;
}

/* The kept arcs, in order: asrc, adst, aw (weight bits); pos = -1 (not found yet). */
__kernel void dg_up_gather(__global const int *e, __global const uint *keys,
                           __global const uint *vals, __global const uint *flag,
                           __global const uint *sc, const uint m, const uint two,
                           __global int *asrc, __global int *adst, __global int *aw,
                           __global int *pos)
{
    const uint i = (uint)get_global_id(0);
    if (i < m && flag[i]) {
        const uint j = sc[i];
        asrc[j] = (int)keys[i];
        adst[j] = dg_up_dst(e, two, vals[i]);
        aw[j] = dg_up_wbits(e, two, vals[i]);
        pos[j] = -1;
    }
}

/* The first arc of the run of arc i's source (runs sorted by source) */
inline uint dg_up_head(__global const int *src, const uint i)
{
    const int u = src[i];
    uint lo = 0, hi = i;                 /* src[hi] == u */
    while (lo < hi) {
        const uint mid = (lo + hi) >> 1;
        if (src[mid] < u) lo = mid + 1; else hi = mid;
    }
    return lo;
}
/* One past the last arc of the run starting at h (n arcs in all) */
inline uint dg_up_end(__global const int *src, const uint h, const uint n)
{
    const int u = src[h];
    uint lo = h + 1, hi = n;
    while (lo < hi) {
        const uint mid = (lo + hi) >> 1;
        if (src[mid] <= u) lo = mid + 1; else hi = mid;
    }
    return lo;
}

/* Chunks of DG_UP_CHUNK entries of each run's list: cc[h] at the run's first arc, 0 for the
   other arcs and for i in [n, m] (n = nb[ni] arcs: none of a batch that fails its check,
   dg_up_unique). */
__kernel void dg_up_chunks(__global const int *src, __global const uint *nb, const uint ni,
                           const uint m, DG_ADJ_ARGS, __global uint *cc)
{
    const uint i = (uint)get_global_id(0), n = nb[ni];
    uint c = 0;
    if (i > m) return;
    if (i < n && (i == 0 || src[i] != src[i - 1])) {
        uint deg;
        dg_row(DG_ADJ, src[i], &deg);
        c = (deg + DG_UP_CHUNK - 1) / DG_UP_CHUNK;
    }
    cc[i] = c;
}

/* Finds the arcs in their lists: chunk c (of co[n] in all, co the scan of dg_up_chunks) reads
   its entries and searches each among its run's targets; a hit sets pos[j] to the entry's
   place in the list. Grid-stride over the chunks (their number is on the device only). */
__kernel void dg_up_find(__global const int *src, __global const int *dst,
                         __global const uint *nb, const uint ni, __global const uint *co,
                         DG_ADJ_ARGS, __global int *pos)
{
    const uint n = nb[ni], total = co[n];
    uint c;
    for (c = (uint)get_global_id(0); c < total; c += (uint)get_global_size(0)) {
        const uint h = dg_global_owner(co, n, c), end = dg_up_end(src, h, n);
        uint deg, x, x1;
        const dg_pos base = dg_row(DG_ADJ, src[h], &deg);
        x = (c - co[h]) * DG_UP_CHUNK;
        x1 = min(deg, x + DG_UP_CHUNK);
        for (; x < x1; x++) {
            const int v = pool[dg_entry(DG_ADJ, base, x)];
            uint lo = h, hi = end;
            while (lo < hi) {
                const uint mid = (lo + hi) >> 1;
                if (dst[mid] < v) lo = mid + 1; else hi = mid;
            }
            if (lo < end && dst[lo] == v) pos[lo] = (int)x;
        }
    }
}

/* flag[i] = whether arc i < n was found (want = 1) or not (want = 0); flag[i] = 0 for
   i in [n, m] */
__kernel void dg_up_pick(__global const int *pos, __global const uint *nb, const uint ni,
                         const uint m, const uint want, __global uint *flag)
{
    const uint i = (uint)get_global_id(0), n = nb[ni];
    if (i <= m) flag[i] = i < n && (pos[i] >= 0) == (want != 0);
}

/* Keeps the flagged arcs in order (o* = the arcs i with flag[i], at sc[i]) and counts the
   edges they stand for into cnt[DG_UP_EDGES]: each arc, or (two) those with src <= dst. */
__kernel void dg_up_select(__global const int *src, __global const int *dst,
                           __global const int *x, __global const uint *flag,
                           __global const uint *sc, const uint m, const uint two,
                           __global int *osrc, __global int *odst, __global int *ox,
                           __global uint *cnt)
{
    __local uint l_n;
    const uint i = (uint)get_global_id(0), lid = (uint)get_local_id(0);
    if (lid == 0) l_n = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (i < m && flag[i]) {
        const uint j = sc[i];
        osrc[j] = src[i]; odst[j] = dst[i]; ox[j] = x[i];
        if (!two || src[i] <= dst[i]) atomic_inc(&l_n);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0 && l_n) atomic_add(&cnt[DG_UP_EDGES], l_n);
}

/* keys = x, vals = 0..n-1 (to sort the arcs by target, for the in-store) */
__kernel void dg_up_keys(__global const int *x, const uint n, __global uint *keys,
                         __global uint *vals)
{
    const uint i = (uint)get_global_id(0);
    if (i < n) { keys[i] = (uint)x[i]; vals[i] = i; }
}
/* o*[i] = *[vals[i]]: the arcs in the sorted order */
__kernel void dg_up_permute(__global const uint *vals, const uint n, __global const int *a,
                            __global const int *b, __global const int *c, __global int *oa,
                            __global int *ob, __global int *oc)
{
    const uint i = (uint)get_global_id(0);
    if (i < n) { const uint v = vals[i]; oa[i] = a[v]; ob[i] = b[v]; oc[i] = c[v]; }
}

/* ---- writing one store: the arcs src/dst/x (x: weight bits, or the entry's place for a
   removal), n of them, sorted by source ---- */

/* The writable form of DG_ADJ_ARGS. */
#define DG_UP_ADJ_ARGS __global const int *dir, const uint dso, __global int *pool, \
                       __global const int4 *idx, __global const int *latab

/* Marks page p for this batch (a bit a page, cleared before each batch); lists it the first
   time. */
inline void dg_up_touch(__global uint *cbits, __global int *clist, __global uint *cnt,
                        const uint slot, const int p)
{
    const uint b = 1u << ((uint)p & 31u);
    if (!(cbits[(uint)p >> 5] & b) && !(atomic_or(&cbits[(uint)p >> 5], b) & b))
        clist[atomic_inc(&cnt[slot])] = p;
}

/* Page count of a large list of deg entries (at least 1) */
inline uint dg_up_la_pages(const uint deg)
{
    return deg <= DG_C0 ? 1u : 1u + (deg - DG_C0 + DG_CN - 1u) / DG_CN;
}

/* Plan, one work-item per run (its first arc h) of the arcs src[0..nb[ni]) (none for a batch
   that fails its check: dg_up_unique): segdeg[h] = the list's degree now; a run
   that does not fit in place stamps the list's page (hstamp = gen) and lists it (hlist,
   counted in cnt[slot]): the host makes room there. Removal runs zero their hole and mover
   counters (hc, mc); they always fit. A list of lkeep entries or more is listed in llist
   (counted in cnt[lslot]): the host drops its hash index, if it has one (shorter lists have
   none: dg__truncate_list). */
__kernel void dg_up_plan(__global const int *src, __global const uint *nb, const uint ni,
                         const uint removal, DG_UP_ADJ_ARGS, __global uint *segdeg, __global int *hstamp,
                         const int gen, __global uint *hc, __global uint *mc,
                         __global int *hlist, __global uint *cnt, const uint slot,
                         __global int *llist, const uint lkeep, const uint lslot)
{
    const uint h = (uint)get_global_id(0), n = nb[ni];
    uint deg, c, ok = 1;
    int page, u;
    __global const int *pg;
    if (h >= n || (h > 0 && src[h] == src[h - 1])) return;
    u = src[h];
    c = dg_up_end(src, h, n) - h;
    page = dir[DG_DS * (size_t)u + dso];
    pg = pool + ((size_t)page << DG_LOG_P);
    deg = (uint)pg[dir[DG_DS * (size_t)u + dso + 1]];
    segdeg[h] = deg;
    if (deg >= lkeep) llist[atomic_inc(&cnt[lslot])] = u;   /* its host index (if any) goes */
    if (removal) {                       /* always in place; a large list that needs fewer
                                            pages is listed (vertex, pages) for the host */
        hc[h] = 0; mc[h] = 0;
        if (pg[DG_PAGE_LARGE] && dg_up_la_pages(deg - c) < (uint)idx[page].z) {
            const uint at = atomic_inc(&cnt[slot]);
            hlist[2 * at] = u;
            hlist[2 * at + 1] = (int)dg_up_la_pages(deg - c);
        }
        return;
    }
    if (pg[DG_PAGE_LARGE]) {             /* room left on its last page */
        const uint L = (uint)idx[page].z;
        ok = deg + c <= DG_C0 + (L - 1u) * DG_CN;
    } else {                             /* the gap after the list: -1 entries up to the slots */
        const uint at = (uint)dir[DG_DS * (size_t)u + dso + 1] + 1u + deg;
        const uint limit = DG_P - 2u * (uint)pg[DG_PAGE_NVERTS];
        uint k;
        ok = at + c <= limit;
        for (k = 0; ok && k < c; k++) ok = pg[at + k] == -1;
    }
    if (!ok && hstamp[page] != gen && atomic_xchg(&hstamp[page], gen) != gen)
        hlist[atomic_inc(&cnt[slot])] = page;
}

/* Arcs of u among src[0..n) (sorted by source) */
inline uint dg_up_count(__global const int *src, const uint n, const int u)
{
    uint lo = 0, hi = n, a;
    while (lo < hi) {                    /* first arc of u */
        const uint mid = (lo + hi) >> 1;
        if (src[mid] < u) lo = mid + 1; else hi = mid;
    }
    a = lo; hi = n;
    while (lo < hi) {                    /* one past its last */
        const uint mid = (lo + hi) >> 1;
        if (src[mid] <= u) lo = mid + 1; else hi = mid;
    }
    return lo - a;
}

/* The lists of the pages the host makes room on (dg__room_plan): list l of vertex lv[l],
   whose degree entry is at pool[lpos[l]], has ldeg[l] entries and takes lk[l] arcs of the
   batch (arcs src[0..n), sorted by source). */
__kernel void dg_up_degs(__global const int *lv, __global const ulong *lpos, const uint nl,
                         __global const int *pool, __global const int *src, const uint n,
                         __global uint *ldeg, __global uint *lk)
{
    const uint l = (uint)get_global_id(0);
    if (l >= nl) return;
    ldeg[l] = (uint)pool[lpos[l]];
    lk[l] = dg_up_count(src, n, lv[l]);
}

/* ---- room made on the device: an ordinary page whose lists lack room (rpg[i], i < np) is
   laid out again as the host's batches lay out a page (dg__layout): its lists, each with
   the arcs it takes, in slot order, on the page itself while they fit, else greedily onto
   it and new pages (ids[], reserved by the host), each filled to DG_PACK_FILL_NUM /
   DG_PACK_FILL_DEN, the free entries spread as equal gaps after the lists. A large list's
   page, or a page one of whose lists would outgrow a page, is left to the host (listed in
   fb, counted in cnt[slot]). The lists of page i are lofs[i] .. lofs[i] + nl[i] - 1 of the
   list arrays (lofs: the scan of nl). ---- */

/* Room 1, one work-item a page: its lists (0 for a large list's page). */
__kernel void dg_up_room_count(__global const int *rpg, const uint np, __global const int *pool,
                               __global uint *nl)
{
    const uint i = (uint)get_global_id(0);
    __global const int *pg;
    if (i >= np) return;
    pg = pool + ((size_t)rpg[i] << DG_LOG_P);
    nl[i] = pg[DG_PAGE_LARGE] ? 0u : (uint)pg[DG_PAGE_NVERTS];
}

/* Room 2, one work-group a page (grid-stride): per list (at o = lofs[i] + j, one work-item
   each) its vertex lv, old record offset lold, degree ldeg and arcs lk; then (one work-item)
   the plan: lt = (page t << 16) | slot (page 0: the page itself, t > 0: its new page t - 1),
   lnew = the record's offset there; npg[i] = the new pages it takes. */
__kernel void dg_up_room_plan(__global const int *rpg, const uint np, __global const int *pool,
                              __global const int *src, const uint n, __global const uint *lofs,
                              __global int *lv, __global uint *lold, __global uint *ldeg,
                              __global uint *lk, __global uint *lt, __global uint *lnew,
                              __global uint *npg, __global int *fb, __global uint *cnt,
                              const uint slot)
{
    const uint T = DG_P / DG_PACK_FILL_DEN * DG_PACK_FILL_NUM, lid = (uint)get_local_id(0);
    uint i, j;
    for (i = (uint)get_group_id(0); i < np; i += (uint)get_num_groups(0)) {
        __global const int *pg = pool + ((size_t)rpg[i] << DG_LOG_P);
        const uint o = lofs[i], large = pg[DG_PAGE_LARGE] != 0, nl = large ? 0u : (uint)pg[DG_PAGE_NVERTS];
        uint t0, t, total = DG_PAGE_RECORDS, big = large;
        /* (no branch around a barrier, not even a uniform one: PoCL) */
        for (j = lid; j < nl; j += (uint)get_local_size(0)) {
            const int v = pg[DG_P - 1u - 2u * j];
            const uint off = (uint)pg[DG_P - 2u - 2u * j];
            lv[o + j] = v; lold[o + j] = off; ldeg[o + j] = (uint)pg[off]; lk[o + j] = dg_up_count(src, n, v);
        }
        barrier(CLK_GLOBAL_MEM_FENCE);
        if (lid == 0) {                                          /* the plan */
            for (j = 0; j < nl; j++) {
                const uint rec = 3u + ldeg[o + j] + lk[o + j];   /* record and slot */
                total += rec;
                big |= DG_PAGE_RECORDS + rec > DG_P;
            }
            npg[i] = 0;
            if (big) {
                if (nl) lt[o] = DG_UP_NOROOM;
                fb[atomic_inc(&cnt[slot])] = rpg[i];
            }
            for (t0 = 0, t = 0; !big && t0 < nl; t++) {  /* one page a step, as dg__layout */
                uint used = DG_PAGE_RECORDS + 3u + ldeg[o + t0] + lk[o + t0], e = t0 + 1u, gap, off = DG_PAGE_RECORDS;
                if (total <= DG_P) {
                    e = nl; used = total;
                } else {
                    for (; e < nl; e++) {
                        const uint rr = 3u + ldeg[o + e] + lk[o + e];
                        if (used + rr > T && !(used + rr <= DG_P && used < T / 8u * 7u)) break;
                        used += rr;
                    }
                }
                gap = (DG_P - used) / (e - t0);
                for (j = t0; j < e; j++) {
                    lt[o + j] = t << 16 | (j - t0);
                    lnew[o + j] = off;
                    off += 1u + ldeg[o + j] + lk[o + j];
                    if (j + 1u < e) off += gap;
                }
                t0 = e;
            }
            if (!big) npg[i] = t - 1u;
        }
    }
}

/* Room 3, one work-group a page (grid-stride): the page and its new pages (ids from pofs[i],
   the scan of npg) cleared, then written, W work-items a list: headers, slots, each record's
   degree (with the arcs it takes: dg_up_insert writes them after) and old entries (from scr,
   the copy of the page made before), the lists' directory entries (their blocks marked in dblk:
   the host's copies of them are old now) and the new pages' index entries (their first lists in
   nfirst, for the host's); each page written is marked and listed. */
__kernel void dg_up_room_write(__global const int *rpg, const uint np, __global const uint *nls,
                               __global const uint *lofs, __global const uint *npg,
                               __global const uint *pofs, __global const int *ids,
                               __global const int *lv, __global const uint *lold,
                               __global const uint *ldeg, __global const uint *lk,
                               __global const uint *lt, __global const uint *lnew,
                               __global int *dir, const uint dso, __global int *pool,
                               __global float *wpool, __global int4 *idx,
                               __global const int *scr, __global const float *wscr,
                               __global uint *cbits, __global int *clist, __global uint *cnt,
                               const uint slot, __global uint *dblk,
                               __global int *nfirst)
{
    const uint W = get_local_size(0) < 32u ? (uint)get_local_size(0) : 32u;
    const uint lane = (uint)get_local_id(0) % W, w = (uint)get_local_id(0) / W, nw = (uint)get_local_size(0) / W;
    uint i, j, t, x;
    for (i = (uint)get_group_id(0); i < np; i += (uint)get_num_groups(0)) {
        const uint o = lofs[i], nl = nls[i] && lt[o] != DG_UP_NOROOM ? nls[i] : 0u;   /* 0: the host's */
        for (t = 0; nl && t <= npg[i]; t++) {
            const size_t q = (size_t)(t ? ids[pofs[i] + t - 1u] : rpg[i]) << DG_LOG_P;
            for (x = DG_PAGE_RECORDS + (uint)get_local_id(0); x < DG_P; x += (uint)get_local_size(0)) {
                pool[q + x] = -1;
                if (wpool) wpool[q + x] = 0.0f;
            }
            if (wpool && get_local_id(0) < DG_PAGE_RECORDS) wpool[q + get_local_id(0)] = 0.0f;   /* (as dg__page_new) */
        }
        barrier(CLK_GLOBAL_MEM_FENCE);
        for (j = w; j < nl; j += nw) {                           /* W work-items a list */
            const uint pt = lt[o + j] >> 16, s = lt[o + j] & 0xffffu, off = lnew[o + j], deg = ldeg[o + j];
            const int page = pt ? ids[pofs[i] + pt - 1u] : rpg[i], v = lv[o + j];
            const size_t q = (size_t)page << DG_LOG_P, from = ((size_t)i << DG_LOG_P) + lold[o + j] + 1u;
            for (x = lane; x < deg; x += W) {
                pool[q + off + 1u + x] = scr[from + x];
                if (wpool) wpool[q + off + 1u + x] = wscr[from + x];
            }
            if (lane) continue;
            pool[q + off] = (int)(deg + lk[o + j]);
            pool[q + DG_P - 2u - 2u * s] = (int)off;
            pool[q + DG_P - 1u - 2u * s] = v;
            dir[DG_DS * (size_t)v + dso] = page;
            dir[DG_DS * (size_t)v + dso + 1u] = (int)off;
            atomic_or(&dblk[(uint)v >> (DG_DIR_BLOCK_LOG + 5)], 1u << (((uint)v >> DG_DIR_BLOCK_LOG) & 31u));
            if (s == 0) {                                        /* the page's first list */
                uint e = j + 1u;
                while (e < nl && (lt[o + e] >> 16) == pt) e++;
                pool[q + DG_PAGE_NVERTS] = (int)(e - j);
                pool[q + DG_PAGE_END] = (int)(lnew[o + e - 1u] + 1u + ldeg[o + e - 1u] + lk[o + e - 1u]);
                pool[q + DG_PAGE_LARGE] = 0;
                idx[page] = (int4)(v, -1, -1, -1);
                if (pt) nfirst[pofs[i] + pt - 1u] = v;            /* (for the host's index) */
                dg_up_touch(cbits, clist, cnt, slot, page);
            }
        }
        barrier(CLK_GLOBAL_MEM_FENCE);   /* (the next page's clearing comes after these writes) */
    }
}

/* The lists the host laid out again move to their new places (the directory, index and LA
   table already say where): list l of vertex mv[l] copies its mdeg[l] entries from its old
   page's copy in scr (degree entry at mfrom[l]; 0xffffffff: a large list, which stays). One
   work-group a list (grid-stride). */
__kernel void dg_up_move(__global const int *mv, __global const uint *mfrom,
                         __global const uint *mdeg, const uint nm, DG_UP_ADJ_ARGS,
                         __global float *wpool, __global const int *scr,
                         __global const float *wscr, __global uint *cbits,
                         __global int *clist, __global uint *cnt, const uint slot)
{
    uint l, x, deg;
    dg_pos base;
    for (l = (uint)get_group_id(0); l < nm; l += (uint)get_num_groups(0)) {
        if (mfrom[l] == 0xffffffffu) continue;
        base = dg_row(DG_ADJ, mv[l], &deg);
        for (x = (uint)get_local_id(0); x < mdeg[l]; x += (uint)get_local_size(0)) {
            const dg_pos at = dg_entry(DG_ADJ, base, x);
            pool[at] = scr[mfrom[l] + 1u + x];
            if (wpool) wpool[at] = wscr[mfrom[l] + 1u + x];
            if (x == 0 || (at & (DG_P - 1u)) == DG_PAGE_RECORDS)
                dg_up_touch(cbits, clist, cnt, slot, (int)(at >> DG_LOG_P));
        }
        if (get_local_id(0) == 0) dg_up_touch(cbits, clist, cnt, slot, (int)((base - 1u) >> DG_LOG_P));
    }
}

/* Large lists' new continuation pages (the host only linked them: dg__la_fresh), n (page, end)
   pairs, set up as the host sets up a page (dg__page_new): no vertices, records to `end`, a
   large list's page, every other entry -1, weights 0. One work-group a page (grid-stride).
   (`end` is what the host's page would say; dg_up_insert, which writes every entry of these
   pages, sets the end again, so no test can tell a wrong one: a guard.) */
__kernel __attribute__((reqd_work_group_size(DG_WG, 1, 1)))
void dg_up_la_init(__global int *pool, __global float *wpool, __global const int *pages, const uint n)
{
    uint i, k;
    for (i = (uint)get_group_id(0); i < n; i += (uint)get_num_groups(0)) {
        const dg_pos base = DG_PAGE_POS(pages[2 * i]);
        const int end = pages[2 * i + 1];
        for (k = (uint)get_local_id(0); k < DG_P; k += DG_WG) {
            pool[base + k] = k == DG_PAGE_NVERTS ? 0 : k == DG_PAGE_END ? end : k == DG_PAGE_LARGE ? 1 : -1;
            if (wpool) wpool[base + k] = 0.0f;
        }
    }
}

/* Large lists the host grew in a device batch's room (after its sync: their first pages' index
   entries and their LA-table segments are here): n (first page p0, pages before L) pairs, one
   work-group a list (grid-stride): pages 1..L-1 take the new page count, pages L.. their whole
   entry (owner, place, count; no LA table), as the host wrote its copies (dg__room_large). */
__kernel void dg_up_la_grow(__global const int *gl, const uint n, __global int4 *idx,
                            __global const int *latab)
{
    uint l, j;
    for (l = (uint)get_group_id(0); l < n; l += (uint)get_num_groups(0)) {
        const int4 e0 = idx[gl[2 * l]];
        const uint L = (uint)gl[2 * l + 1];
        for (j = 1u + (uint)get_local_id(0); j < (uint)e0.z; j += (uint)get_local_size(0)) {
            const int p = latab[e0.w + 1 + (int)j];
            if (j < L) idx[p].z = e0.z;
            else idx[p] = (int4)(e0.x, (int)j, e0.z, -1);
        }
    }
}

/* Insertion (every list has room now): arc i of its run goes to entry degree + rank; the
   run's first arc writes the new degree and, where the list ends its page's records, the
   page's end; an arc that fills a continuation page marks it full. */
__kernel void dg_up_insert(__global const int *src, __global const int *dst,
                           __global const int *x, const uint n, DG_UP_ADJ_ARGS,
                           __global float *wpool, __global const uint *segdeg,
                           __global uint *cbits, __global int *clist, __global uint *cnt,
                           const uint slot)
{
    const uint i = (uint)get_global_id(0);
    uint h, deg, d0;
    dg_pos base, at;
    int u, page;
    if (i >= n) return;
    u = src[i];
    page = dir[DG_DS * (size_t)u + dso];
    h = dg_up_head(src, i);
    d0 = segdeg[h];
    base = dg_row(DG_ADJ, u, &deg);
    at = dg_entry(DG_ADJ, base, d0 + (i - h));
    pool[at] = dst[i];
    if (wpool) wpool[at] = as_float(x[i]);
    if ((at & (DG_P - 1u)) == DG_P - 1u) pool[(at & ~(dg_pos)(DG_P - 1u)) + DG_PAGE_END] = (int)DG_P;
    dg_up_touch(cbits, clist, cnt, slot, (int)(at >> DG_LOG_P));
    if (i == h) {
        const uint c = dg_up_end(src, h, n) - h;
        const dg_pos le = dg_entry(DG_ADJ, base, d0 + c - 1u);
        const uint end = (uint)(le & (DG_P - 1u)) + 1u;
        __global int *lg = pool + ((size_t)(le >> DG_LOG_P) << DG_LOG_P);
        pool[base - 1u] = (int)(d0 + c);
        if ((uint)lg[DG_PAGE_END] < end) lg[DG_PAGE_END] = (int)end;
        dg_up_touch(cbits, clist, cnt, slot, page);
    }
}

#define DG_UP_GONE (-2)    /* a removed entry, until its place is filled or cleared */

/* Removal 1: mark the removed entries */
__kernel void dg_up_rm_mark(__global const int *src, __global const int *x, __global const uint *nb,
                            const uint ni,
                            DG_UP_ADJ_ARGS)
{
    const uint i = (uint)get_global_id(0), n = nb[ni];
    uint deg;
    dg_pos base;
    if (i >= n) return;
    base = dg_row(DG_ADJ, src[i], &deg);
    pool[dg_entry(DG_ADJ, base, (uint)x[i])] = DG_UP_GONE;
}

/* Removal 2: a run of r removals from a list of deg entries keeps deg - r of them. Its
   holes are the removed places below deg - r (arc i's own place), its movers the entries
   kept at or above deg - r (arc i looks at place deg - r + rank); each listed at h + k. */
__kernel void dg_up_rm_pair(__global const int *src, __global const int *x, __global const uint *nb,
                            const uint ni,
                            DG_UP_ADJ_ARGS, __global const uint *segdeg, __global uint *hc,
                            __global uint *mc, __global uint *holes, __global uint *movers)
{
    const uint i = (uint)get_global_id(0), n = nb[ni];
    uint h, r, nd, deg, y;
    dg_pos base;
    if (i >= n) return;
    h = dg_up_head(src, i);
    r = dg_up_end(src, h, n) - h;
    nd = segdeg[h] - r;
    base = dg_row(DG_ADJ, src[i], &deg);
    y = nd + (i - h);
    if (pool[dg_entry(DG_ADJ, base, y)] != DG_UP_GONE) movers[h + atomic_inc(&mc[h])] = y;
    if ((uint)x[i] < nd) holes[h + atomic_inc(&hc[h])] = (uint)x[i];
}

/* Removal 3: hole k of a run takes mover k */
__kernel void dg_up_rm_move(__global const int *src, __global const uint *nb,
                            const uint ni, DG_UP_ADJ_ARGS,
                            __global float *wpool, __global const uint *hc,
                            __global const uint *holes, __global const uint *movers,
                            __global uint *cbits, __global int *clist, __global uint *cnt,
                            const uint slot)
{
    const uint i = (uint)get_global_id(0), n = nb[ni];
    uint h, deg;
    dg_pos base, to, from;
    if (i >= n) return;
    h = dg_up_head(src, i);
    if (i - h >= hc[h]) return;
    base = dg_row(DG_ADJ, src[i], &deg);
    to = dg_entry(DG_ADJ, base, holes[i]);
    from = dg_entry(DG_ADJ, base, movers[i]);
    pool[to] = pool[from];
    if (wpool) wpool[to] = wpool[from];
    dg_up_touch(cbits, clist, cnt, slot, (int)(to >> DG_LOG_P));
}

/* Removal 4: the last r places become free (-1); the run's first arc writes the degree and
   the end of the list's (new) last page where the list ends it; a large list left with one
   page becomes an ordinary list there. */
__kernel void dg_up_rm_trim(__global const int *src, __global const uint *nb,
                            const uint ni, DG_UP_ADJ_ARGS,
                            __global const uint *segdeg, __global uint *cbits,
                            __global int *clist, __global uint *cnt, const uint slot)
{
    const uint i = (uint)get_global_id(0), n = nb[ni];
    uint h, r, nd, deg;
    dg_pos base, at;
    int page;
    if (i >= n) return;
    page = dir[DG_DS * (size_t)src[i] + dso];
    h = dg_up_head(src, i);
    r = dg_up_end(src, h, n) - h;
    nd = segdeg[h] - r;
    base = dg_row(DG_ADJ, src[i], &deg);
    at = dg_entry(DG_ADJ, base, nd + (i - h));
    pool[at] = -1;
    dg_up_touch(cbits, clist, cnt, slot, (int)(at >> DG_LOG_P));
    if (i == h) {
        __global int *pg = pool + ((size_t)page << DG_LOG_P);
        pool[base - 1u] = (int)nd;
        dg_up_touch(cbits, clist, cnt, slot, page);
        if (pg[DG_PAGE_LARGE]) {         /* the list's new last page ends with it */
            const uint L = dg_up_la_pages(nd);
            if (L == 1u) {               /* back to an ordinary list (the host drops the rest) */
                pg[DG_PAGE_LARGE] = 0;
                pg[DG_PAGE_END] = (int)(DG_PAGE_RECORDS + 1u + nd);
            } else {
                __global int *lg = pool + ((size_t)latab[idx[page].w + (int)L] << DG_LOG_P);
                lg[DG_PAGE_END] = (int)(DG_PAGE_RECORDS + nd - DG_C0 - (L - 2u) * DG_CN);
            }
        } else if ((uint)pg[DG_PAGE_END] == (uint)(base & (DG_P - 1u)) + segdeg[h]) {
            pg[DG_PAGE_END] = (int)((uint)(base & (DG_P - 1u)) + nd);
        }
    }
}

/* Removal 5, one work-group a large list that needs fewer pages (hlist: vertex, pages L; the
   count in cnt[slot], grid-stride): the index entries of its pages as the host leaves them
   (dg__shrink_large): pages L.. free (every field -1), the others' page count L, and for L = 1
   the first page an ordinary one's. The host changes its copies alike and sends none. */
__kernel void dg_up_rm_shrink(__global const int *hl, __global const uint *cnt, const uint slot,
                              __global const int *dir, const uint dso, __global int4 *idx,
                              __global const int *latab)
{
    const uint k = cnt[slot];
    uint l, j;
    for (l = (uint)get_group_id(0); l < k; l += (uint)get_num_groups(0)) {
        const int p0 = dir[DG_DS * (size_t)hl[2 * l] + dso];
        const uint L = (uint)hl[2 * l + 1];
        const int4 e0 = idx[p0];
        barrier(CLK_GLOBAL_MEM_FENCE);   /* (every work-item read p0's entry before it changes) */
        for (j = (uint)get_local_id(0); j < (uint)e0.z; j += (uint)get_local_size(0)) {
            const int p = latab[e0.w + 1 + (int)j];
            if (j >= L) idx[p] = (int4)(-1, -1, -1, -1);
            else if (L == 1u) idx[p] = (int4)(e0.x, -1, -1, -1);
            else idx[p].z = (int)L;
        }
    }
}
