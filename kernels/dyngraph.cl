/* kernels/dyngraph.cl - dyngraph's OpenCL C 1.2 kernels.

   PLACEHOLDER: the real kernels (page sync, scan, compact, advance, algorithms) come later.
   For now one trivial kernel, so that the generator, the generated header and the build of
   the program can be exercised end to end.

   tools/gen_kernels.sh turns every .cl file of kernels/ into dyngraph_kernels.cl.h: run
   `make kernels` after editing (and commit both); `make test` fails while the header is stale. */

/* buf[i] = value for i < n. Launch with a global size >= n. */
__kernel void dg_fill_int(__global int *buf, const int value, const uint n)
{
    const size_t i = get_global_id(0);
    if (i < n)
        buf[i] = value;
}
