/* kernels/20_sync.cl - the device mirror: scattering staged uploads, filling buffers. */

/* The staging buffer holds the chunks' data followed by their descriptors: (source offset,
   destination offset, length), in int32 entries, as ulong triples padded to 4, from ulong
   `first` on (`desc` is the staging buffer again). Work-group c copies chunks c, c + groups,
   ... into dst: one write of the staging buffer and one launch per destination buffer,
   however many pages changed. */
__kernel void dg_scatter(__global const int *stage, __global int *dst,
                         __global const ulong *desc, const uint first, const uint n)
{
    uint c;
    for (c = get_group_id(0); c < n; c += get_num_groups(0)) {
        __global const ulong *x = desc + first + 4 * (size_t)c;
        const ulong src = x[0], to = x[1], len = x[2];
        ulong i;
        for (i = get_local_id(0); i < len; i += get_local_size(0))
            dst[to + i] = stage[src + i];
    }
}

/* buf[i] = value for i < n. */
__kernel void dg_fill_int(__global int *buf, const int value, const uint n)
{
    const size_t i = get_global_id(0);
    if (i < n) buf[i] = value;
}

/* dst block c = src block list[at + c], for c < n, blocks of `words` entries (work-group c,
   c + groups, ...): the stale pages (words = P) or directory blocks a host call needs,
   gathered for one read-back (>>mirror, ownership), or pages a batch lays out again. */
__kernel void dg_gather_pages(__global const int *src, __global const int *list, const uint at,
                              const uint n, const uint words, __global int *dst)
{
    uint c, i;
    for (c = get_group_id(0); c < n; c += get_num_groups(0)) {
        __global const int *from = src + (size_t)list[at + c] * words;
        __global int *to = dst + (size_t)c * words;
        for (i = get_local_id(0); i < words; i += get_local_size(0)) to[i] = from[i];
    }
}
