/* kernels/35_sort.cl - the GPU radix sort of dg_sort_pairs (module SORT, >>sort in dyngraph.h).

   Stable LSD radix sort of 32-bit keys (and 32-bit values carried along), DG_SORT_BITS bits a
   pass: the keys are cut into tiles of DG_SORT_ITEMS x DG_WG, each work-item taking
   DG_SORT_ITEMS consecutive ones. Each pass ends in dg_sort_scatter: per tile, each key's place
   among the tile's keys of its digit (in index order: stable) from one local scan of the
   per-work-item digit counts; the tile sorted by digit in local memory so, and written out in
   order, each key at the tile's start for its digit plus its place (a digit's keys of a tile
   go out as one run of consecutive addresses: coalesced writes). The tiles' starts come one of
   two ways (the host picks by the number of tiles, >>sort; dg_sort_sweep does dg_sort_scatter's
   work then):
   - three launches a pass ([Satish 2009], the 003 document's sort): dg_sort_count (per tile,
     how many keys have each digit), the library's scan over those counts, dg_sort_scatter;
   - one launch a pass ("onesweep", [Adinets & Merrill 2022]), for few tiles, where launches
     cost more than the keys: dg_sort_hist counts the digits of every pass at once (a pass's
     counts do not depend on the order the earlier passes left); in dg_sort_sweep a
     work-group takes the next tile by a ticket (tiles start in ticket order, so a tile waits
     only for tiles that run), publishes its count of each digit, and looks back over the
     tiles before it for the count of that digit before it (decoupled look-back: a tile that
     knows its inclusive count publishes it, and the look-back stops there). It needs only that
     a work-group that runs goes on running (GPUs, PoCL's threads, one thread alike): a tile
     waits only for tiles with earlier tickets, taken by work-groups that run.
   A batch of at most one tile (dg_sort_tile) is sorted by one work-group in local memory, every
   pass in one launch. */

inline uint dg_sort_digit(const uint k, const uint shift) { return (k >> shift) & (DG_SORT_BINS - 1u); }

/* cnt[d]: how many of this work-item's keys have digit d, in; out: its first place for digit d
   in the tile sorted by digit (stable: digit-major, then work-item order), from an exclusive
   scan of c[d * DG_WG + lid] in that order (work-item lid scans entries lid * DG_SORT_BINS ..
   + DG_SORT_BINS - 1 after the scan of the work-items' sums). c keeps the places. */
inline void dg_sort_places(__local uint *c, __local uint *tot, uint *cnt, const uint lid)
{
    uint d, run = 0;
    for (d = 0; d < DG_SORT_BINS; d++) c[d * DG_WG + lid] = cnt[d];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (d = 0; d < DG_SORT_BINS; d++) run += c[lid * DG_SORT_BINS + d];
    tot[lid] = run;
    dg_local_scan(tot, lid);
    run = tot[lid];
    for (d = 0; d < DG_SORT_BINS; d++) {
        const uint x = c[lid * DG_SORT_BINS + d];
        c[lid * DG_SORT_BINS + d] = run;
        run += x;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (d = 0; d < DG_SORT_BINS; d++) cnt[d] = c[d * DG_WG + lid];
}

/* Per tile, how many keys have each digit, into hist[digit * ngroups + tile]
   (digit-major: one exclusive scan of hist gives every tile's start for each digit). */
__kernel __attribute__((reqd_work_group_size(DG_WG, 1, 1)))
void dg_sort_count(__global const uint *keys, const uint n, const uint shift, __global uint *hist,
                   const uint ngroups)
{
    __local uint h[DG_SORT_BINS];
    const uint lid = (uint)get_local_id(0), grp = (uint)get_group_id(0);
    const size_t base = ((size_t)grp * DG_WG + lid) * DG_SORT_ITEMS;
    uint i;
    if (lid < DG_SORT_BINS) h[lid] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (i = 0; i < DG_SORT_ITEMS; i++)
        if (base + i < n) atomic_inc(&h[dg_sort_digit(keys[base + i], shift)]);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < DG_SORT_BINS) hist[(size_t)lid * ngroups + grp] = h[lid];
}

/* The status words of the look-back (sw from DG_SORT_SW_STATUS, kernels/00_shared.h): 0 not
   yet; bit 31 clear: the tile's count of the digit, plus 1; bit 31 set: the count of the digit
   in this tile and all before it, plus 1 (never published by the last tile, so it stays below
   2^31 - 1 for n < 2^31). */
#define DG_SORT_INCL 0x80000000u

/* Digit counts of every pass, in one read of the keys (grid-stride: few work-groups, few
   global atomics). */
__kernel __attribute__((reqd_work_group_size(DG_WG, 1, 1)))
void dg_sort_hist(__global const uint *keys, const uint n, const uint passes, __global uint *sw)
{
    __local uint h[DG_SORT_PASSES * DG_SORT_BINS];
    const uint lid = (uint)get_local_id(0);
    size_t i;
    uint p;
    for (p = lid; p < DG_SORT_PASSES * DG_SORT_BINS; p += DG_WG) h[p] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (i = get_global_id(0); i < n; i += get_global_size(0)) {
        const uint k = keys[i];
        for (p = 0; p < passes; p++) atomic_inc(&h[p * DG_SORT_BINS + dg_sort_digit(k, p * DG_SORT_BITS)]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (p = lid; p < passes * DG_SORT_BINS; p += DG_WG)
        if (h[p]) atomic_add(&sw[DG_SORT_PASSES + p], h[p]);
}

#define DG_SORT_LB (DG_WG / DG_SORT_BINS)   /* the look-back's window: tiles read at once a digit */
/* before[d] = the keys of digit d in the tiles before tile t, from their status words
   st[tile * DG_SORT_BINS + d]: their counts, back to the nearest tile that published its
   inclusive count (tile 0 always does). The whole work-group looks back: DG_SORT_LB work-items
   a digit read DG_SORT_LB tiles at once, then one of them adds the window up to the nearest
   inclusive count or the first tile not yet published (from where the next round reads; such
   a tile holds an earlier ticket: it runs). top[d]: the tile the next round reads below. */
inline void dg_sort_look_back(__global uint *st, const uint t, __local uint *before, __local uint *top,
                              __local uint *win, const uint lid)
{
    const uint d = lid / DG_SORT_LB, i = lid % DG_SORT_LB;
    uint more = t > 0, k;
    if (lid < DG_SORT_BINS) { before[lid] = 0; top[lid] = t; }
    barrier(CLK_LOCAL_MEM_FENCE);
    while (more) {                               /* (uniform: read from local memory) */
        const uint j = top[d];
        win[lid] = j > i ? atomic_or(&st[(size_t)(j - 1 - i) * DG_SORT_BINS + d], 0u) : 0u;   /* (an atomic read:
                                                                  OpenCL 1.2 promises no other to see it) */
        barrier(CLK_LOCAL_MEM_FENCE);
        if (i == 0 && j > 0) {
            uint sum = before[d], next = j;
            for (k = 0; k < DG_SORT_LB; k++) {
                const uint w = win[lid + k];
                if (w == 0u) break;              /* not yet published: read again */
                sum += (w & ~DG_SORT_INCL) - 1u;
                next--;
                if (w & DG_SORT_INCL) { next = 0; break; }
            }
            before[d] = sum;
            top[d] = next;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (more = 0, k = 0; k < DG_SORT_BINS; k++) more |= top[k];   /* (top is next written
                                                                           after the next barrier) */
    }
}

#if 2 * DG_SORT_ITEMS > DG_SORT_BINS
#error "dg_sort_scatter keeps a tile's keys and values in its count array: 2 x DG_SORT_ITEMS <= DG_SORT_BINS"
#endif
#if DG_WG < DG_SORT_BINS
#error "dg_sort_sweep looks back with a work-item a digit: DG_WG >= DG_SORT_BINS"
#endif
/* This work-item's keys of the tile (from base; values if with_values) into k and v, and how
   many have each digit into cnt. */
inline void dg_sort_load(__global const uint *kin, __global const uint *vin, const uint n, const size_t base,
                         const uint shift, const int with_values, uint *k, uint *v, uint *cnt)
{
    uint i, d;
    for (d = 0; d < DG_SORT_BINS; d++) cnt[d] = 0;
    for (i = 0; i < DG_SORT_ITEMS; i++) {
        k[i] = 0; v[i] = 0;
        if (base + i < n) {
            k[i] = kin[base + i];
            if (with_values) v[i] = vin[base + i];
            cnt[dg_sort_digit(k[i], shift)]++;
        }
    }
}
/* After dg_sort_places (cnt: this work-item's places): its keys and values into the tile sorted
   by digit, stably, in c (keys, then values from DG_WG x DG_SORT_ITEMS). */
inline void dg_sort_local(__local uint *c, const uint *k, const uint *v, uint *cnt, const uint n,
                          const size_t base, const uint shift)
{
    uint i;
    for (i = 0; i < DG_SORT_ITEMS; i++)
        if (base + i < n) {
            const uint o = cnt[dg_sort_digit(k[i], shift)]++;
            c[o] = k[i];
            c[DG_WG * DG_SORT_ITEMS + o] = v[i];
        }
}
/* ... and with to[] (per digit: where the tile's keys of that digit go, less the tile's start
   for it): the tile (m keys) sorted so, then written out in order (a digit's keys of the tile go
   to consecutive places). */
inline void dg_sort_write(__local uint *c, __local const uint *to, const uint *k, const uint *v, uint *cnt,
                          const uint n, const size_t base, const uint m, const uint shift, const uint lid,
                          __global uint *kout, __global uint *vout, const int with_values)
{
    uint i;
    dg_sort_local(c, k, v, cnt, n, base, shift);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (i = lid; i < m; i += DG_WG) {
        const uint key = c[i], o = to[dg_sort_digit(key, shift)] + i;
        kout[o] = key;
        if (with_values) vout[o] = c[DG_WG * DG_SORT_ITEMS + i];
    }
}

/* One pass over the keys' digit at shift, tile = work-group: the tiles' starts for each digit
   from hist (dg_sort_count's, scanned). */
__kernel __attribute__((reqd_work_group_size(DG_WG, 1, 1)))
void dg_sort_scatter(__global const uint *kin, __global const uint *vin, __global uint *kout,
                     __global uint *vout, const uint n, const uint shift, __global const uint *hist,
                     const uint ngroups, const int with_values)
{
    /* [digit][work-item]: counts, then their scan; then the tile sorted by digit (its keys,
       then its values) */
    __local uint c[DG_SORT_BINS * DG_WG];
    __local uint tot[DG_WG];
    __local uint to[DG_SORT_BINS];          /* per digit: global start - the tile's start */
    const uint lid = (uint)get_local_id(0), grp = (uint)get_group_id(0);
    const size_t base = ((size_t)grp * DG_WG + lid) * DG_SORT_ITEMS, tile0 = (size_t)grp * DG_WG * DG_SORT_ITEMS;
    const uint m = n - tile0 < DG_WG * DG_SORT_ITEMS ? (uint)(n - tile0) : DG_WG * DG_SORT_ITEMS;
    uint k[DG_SORT_ITEMS], v[DG_SORT_ITEMS], cnt[DG_SORT_BINS];
    dg_sort_load(kin, vin, n, base, shift, with_values, k, v, cnt);
    dg_sort_places(c, tot, cnt, lid);
    /* c[d * DG_WG] where the tile's digit d starts; the tile's global start for d from hist.
       (uint arithmetic: to[d] may wrap, to[d] + place does not.) */
    if (lid < DG_SORT_BINS) to[lid] = hist[(size_t)lid * ngroups + grp] - c[lid * DG_WG];
    barrier(CLK_LOCAL_MEM_FENCE);
    dg_sort_write(c, to, k, v, cnt, n, base, m, shift, lid, kout, vout, with_values);
}

/* The same pass the onesweep way: the tile by a ticket (sw[pass]), its starts by a look-back
   over the tiles before (ntiles tiles; sw as dg_sort_hist left it). incl = 0 (a test hook):
   only tile 0 publishes its inclusive counts, so every look-back adds windows back to it. */
__kernel __attribute__((reqd_work_group_size(DG_WG, 1, 1)))
void dg_sort_sweep(__global const uint *kin, __global const uint *vin, __global uint *kout,
                   __global uint *vout, const uint n, const uint pass, __global uint *sw,
                   const uint ntiles, const int with_values, const int incl)
{
    __local uint c[DG_SORT_BINS * DG_WG];
    __local uint tot[DG_WG];
    __local uint to[DG_SORT_BINS];
    __local uint own[DG_SORT_BINS], before[DG_SORT_BINS], top[DG_SORT_BINS], tl;
    const uint lid = (uint)get_local_id(0), shift = pass * DG_SORT_BITS;
    __global uint *st = sw + DG_SORT_SW_STATUS + (size_t)pass * ntiles * DG_SORT_BINS;
    uint grp, m, k[DG_SORT_ITEMS], v[DG_SORT_ITEMS], cnt[DG_SORT_BINS], d;
    size_t base, tile0;
    if (lid == 0) tl = atomic_inc(&sw[pass]);
    barrier(CLK_LOCAL_MEM_FENCE);
    grp = tl;
    base = ((size_t)grp * DG_WG + lid) * DG_SORT_ITEMS;
    tile0 = (size_t)grp * DG_WG * DG_SORT_ITEMS;
    m = n - tile0 < DG_WG * DG_SORT_ITEMS ? (uint)(n - tile0) : DG_WG * DG_SORT_ITEMS;
    dg_sort_load(kin, vin, n, base, shift, with_values, k, v, cnt);
    dg_sort_places(c, tot, cnt, lid);
    /* digit d's count in the tile published at once, the count before the tile looked back for,
       then the inclusive count published (all but the last tile); the global start of d: the
       keys of smaller digits */
    if (lid < DG_SORT_BINS) {
        own[lid] = (lid + 1 < DG_SORT_BINS ? c[(lid + 1) * DG_WG] : m) - c[lid * DG_WG];
        if (grp > 0 && grp + 1 < ntiles) atomic_xchg(&st[(size_t)grp * DG_SORT_BINS + lid], own[lid] + 1u);
    }
    dg_sort_look_back(st, grp, before, top, tot, lid);    /* (tot is free: its scan is done) */
    if (lid < DG_SORT_BINS) {
        __global const uint *h = sw + DG_SORT_PASSES + pass * DG_SORT_BINS;
        uint start = 0;
        if (grp + 1 < ntiles && (incl || grp == 0))
            atomic_xchg(&st[(size_t)grp * DG_SORT_BINS + lid], DG_SORT_INCL | (before[lid] + own[lid] + 1u));
        for (d = 0; d < lid; d++) start += h[d];
        to[lid] = start + before[lid] - c[lid * DG_WG];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    dg_sort_write(c, to, k, v, cnt, n, base, m, shift, lid, kout, vout, with_values);
}

/* All passes over n <= DG_SORT_ITEMS x DG_WG pairs, in place, by one work-group: each pass the
   per-work-item digit counts are scanned (as in dg_sort_scatter) and the tile is written sorted
   by digit into local memory, from where each work-item takes its DG_SORT_ITEMS keys again. */
__kernel __attribute__((reqd_work_group_size(DG_WG, 1, 1)))
void dg_sort_tile(__global uint *keys, __global uint *vals, const uint n, const uint passes, const int with_values)
{
    __local uint c[DG_SORT_BINS * DG_WG];
    __local uint tot[DG_WG];
    const uint lid = (uint)get_local_id(0), base = lid * DG_SORT_ITEMS;
    uint k[DG_SORT_ITEMS], v[DG_SORT_ITEMS], cnt[DG_SORT_BINS], i, d, pass;
    for (i = 0; i < DG_SORT_ITEMS; i++) {
        k[i] = base + i < n ? keys[base + i] : 0;
        v[i] = with_values && base + i < n ? vals[base + i] : 0;
    }
    for (pass = 0; pass < passes; pass++) {
        const uint shift = pass * DG_SORT_BITS;
        for (d = 0; d < DG_SORT_BINS; d++) cnt[d] = 0;
        for (i = 0; i < DG_SORT_ITEMS; i++)
            if (base + i < n) cnt[dg_sort_digit(k[i], shift)]++;
        dg_sort_places(c, tot, cnt, lid);
        barrier(CLK_LOCAL_MEM_FENCE);
        dg_sort_local(c, k, v, cnt, n, base, shift);
        barrier(CLK_LOCAL_MEM_FENCE);
        for (i = 0; i < DG_SORT_ITEMS; i++)
            if (base + i < n) { k[i] = c[base + i]; v[i] = c[DG_WG * DG_SORT_ITEMS + base + i]; }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (i = 0; i < DG_SORT_ITEMS; i++)
        if (base + i < n) {
            keys[base + i] = k[i];
            if (with_values) vals[base + i] = v[i];
        }
}
