/* kernels/35_sort.cl - the GPU radix sort of dg_sort_pairs (module SORT, >>sort in dyngraph.h).

   Stable LSD radix sort of 32-bit keys (and 32-bit values carried along), DG_SORT_BITS bits a
   pass ([Satish 2009]'s scheme, as the 003 document's GPU sort): the keys are cut into tiles of
   DG_SORT_ITEMS x DG_WG, each work-item taking DG_SORT_ITEMS consecutive ones.
   1. dg_sort_count: per tile, how many keys have each digit, into hist[digit * ngroups + tile]
      (digit-major, so that one exclusive scan of hist gives every tile's start for each digit);
   2. the library's scan (dg_scan's kernels) over hist;
   3. dg_sort_scatter: per tile, each key's place among the tile's keys of its digit (in index
      order: stable) from one local scan of the per-work-item digit counts; the tile is sorted
      by digit in local memory so, and written out in order, each key at the tile's start for
      its digit plus its place (a digit's keys of a tile go out as one run of consecutive
      addresses: coalesced writes).
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

#if 2 * DG_SORT_ITEMS > DG_SORT_BINS
#error "dg_sort_scatter keeps a tile's keys and values in its count array: 2 x DG_SORT_ITEMS <= DG_SORT_BINS"
#endif
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
    uint k[DG_SORT_ITEMS], v[DG_SORT_ITEMS], cnt[DG_SORT_BINS], i, d;
    for (d = 0; d < DG_SORT_BINS; d++) cnt[d] = 0;
    for (i = 0; i < DG_SORT_ITEMS; i++) {
        k[i] = 0; v[i] = 0;
        if (base + i < n) {
            k[i] = kin[base + i];
            if (with_values) v[i] = vin[base + i];
            cnt[dg_sort_digit(k[i], shift)]++;
        }
    }
    dg_sort_places(c, tot, cnt, lid);
    /* c[d * DG_WG] where the tile's digit d starts; the tile's global start for d from hist.
       (uint arithmetic: to[d] may wrap, to[d] + place does not.) */
    if (lid < DG_SORT_BINS) to[lid] = hist[(size_t)lid * ngroups + grp] - c[lid * DG_WG];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (i = 0; i < DG_SORT_ITEMS; i++)   /* the tile sorted by digit, stably, in c */
        if (base + i < n) {
            const uint o = cnt[dg_sort_digit(k[i], shift)]++;
            c[o] = k[i];
            c[DG_WG * DG_SORT_ITEMS + o] = v[i];
        }
    barrier(CLK_LOCAL_MEM_FENCE);
    /* written out in order: a digit's keys of the tile go to consecutive places */
    for (i = lid; i < m; i += DG_WG) {
        const uint key = c[i], o = to[dg_sort_digit(key, shift)] + i;
        kout[o] = key;
        if (with_values) vout[o] = c[DG_WG * DG_SORT_ITEMS + i];
    }
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
        for (i = 0; i < DG_SORT_ITEMS; i++)
            if (base + i < n) {
                const uint o = cnt[dg_sort_digit(k[i], shift)]++;
                c[o] = k[i];
                c[DG_WG * DG_SORT_ITEMS + o] = v[i];
            }
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
