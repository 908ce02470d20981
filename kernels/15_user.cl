/* kernels/15_user.cl - what user functions see: dg_args (several buffers, scalars, the graph's
   degrees and neighbours), float atomics, and the kernel templates of dg_program_create.

   Compiled into user programs only (after 00_shared.h and 10_adjacency.cl, before the user's
   source); the library's own kernels do not use it. A user function of a kind ending in _ARGS
   gets `const dg_args *a` where the plain kinds' get `__global int *data`:
       int  visit(int src, int dst, float w, const dg_args *a)    DG_OP_ADVANCE_ARGS
       int  keep(int v, const dg_args *a)                         DG_OP_FILTER_ARGS
       void apply(int v, const dg_args *a)                        DG_OP_COMPUTE_ARGS
       float value(int v, const dg_args *a)                       DG_OP_REDUCE
       int   value(int v, const dg_args *a)                       DG_OP_REDUCE_INT
   The host's dg_args (buffers[8], ints[8], floats[8]) arrives here as: */

typedef struct dg_args {
    __global void *buffers[DG_ARGS_BUFFERS];  /* NULL where the host gave none */
    int ints[DG_ARGS_SCALARS];
    float floats[DG_ARGS_SCALARS];
    /* the graph, for the helpers below: the out-store and the in-store (the out-store again in
       an undirected graph), and the id bound */
    __global const int *dir;
    uint dso[2];
    __global const int *pool[2];
    __global const int4 *idx[2];
    __global const int *latab[2];
    __global const float *wpool[2];           /* NULL: every weight 1 (the in-store's always) */
    uint bound;
} dg_args;

/* Typed views of buffer i (no as_float needed). */
inline __global int   *dg_ints(const dg_args *a, int i)   { return (__global int *)a->buffers[i]; }
inline __global uint  *dg_uints(const dg_args *a, int i)  { return (__global uint *)a->buffers[i]; }
inline __global float *dg_floats(const dg_args *a, int i) { return (__global float *)a->buffers[i]; }

/* The graph: ids run 0 .. dg_vertex_bound(a) - 1; removed ids are no vertex (degree 0). */
inline int dg_vertex_bound(const dg_args *a) { return (int)a->bound; }
inline int dg_is_vertex(const dg_args *a, int v)
{
    return v >= 0 && (uint)v < a->bound && a->dir[DG_DS * (size_t)v] >= 0;
}
/* s = 0: out-store, 1: in-store. v must be an id below the bound. */
inline int dg__store_degree(const dg_args *a, int s, int v)
{
    return (int)dg_degree(a->dir, a->dso[s], a->pool[s], a->idx[s], a->latab[s], v);
}
inline dg_pos dg__store_entry(const dg_args *a, int s, int v, int k)
{
    uint deg;
    const dg_pos base = dg_row(a->dir, a->dso[s], a->pool[s], a->idx[s], a->latab[s], v, &deg);
    return dg_entry(a->dir, a->dso[s], a->pool[s], a->idx[s], a->latab[s], base, (uint)k);
}
inline int dg_out_degree(const dg_args *a, int v) { return dg__store_degree(a, 0, v); }
inline int dg_in_degree(const dg_args *a, int v)  { return dg__store_degree(a, 1, v); }
/* Neighbour k (0 <= k < degree) of v, and that edge's weight: O(1), large lists included. */
inline int dg_out_neighbor(const dg_args *a, int v, int k) { return a->pool[0][dg__store_entry(a, 0, v, k)]; }
inline int dg_in_neighbor(const dg_args *a, int v, int k)  { return a->pool[1][dg__store_entry(a, 1, v, k)]; }
inline float dg_out_weight(const dg_args *a, int v, int k)
{
    return a->wpool[0] ? a->wpool[0][dg__store_entry(a, 0, v, k)] : 1.0f;
}

/* Float atomics (OpenCL C 1.2 has none): compare-and-swap loops on the bits. Each returns the
   old value. min/max leave the value alone when it is already at least as small/large (no
   write); a NaN argument is ignored by min/max. */
inline float dg_atomic_add_float(__global float *p, float x)
{
    volatile __global uint *q = (volatile __global uint *)p;
    uint old = *q, seen;
    while ((seen = atomic_cmpxchg(q, old, as_uint(as_float(old) + x))) != old) old = seen;
    return as_float(old);
}
inline float dg_atomic_min_float(__global float *p, float x)
{
    volatile __global uint *q = (volatile __global uint *)p;
    uint old = *q, seen;
    while (x < as_float(old) && (seen = atomic_cmpxchg(q, old, as_uint(x))) != old) old = seen;
    return as_float(old);
}
inline float dg_atomic_max_float(__global float *p, float x)
{
    volatile __global uint *q = (volatile __global uint *)p;
    uint old = *q, seen;
    while (x > as_float(old) && (seen = atomic_cmpxchg(q, old, as_uint(x))) != old) old = seen;
    return as_float(old);
}

/* ---- the templates (the host writes one line per op, DG_USER_<KIND>(name, function, args)) ----
   Every user kernel ends with the same parameters, DG_USER_PARAMS (the out-store's DG_ADJ_ARGS
   and weights, the in-store's, the bound, the buffers, the scalars); dg_args_make gathers
   them. */
#define DG_USER_PARAMS \
    __global const int *u_dir, const uint u_dso0, __global const int *u_pool0, __global const int4 *u_idx0, \
    __global const int *u_lat0, __global const float *u_w0, \
    __global const int *u_dir1, const uint u_dso1, __global const int *u_pool1, __global const int4 *u_idx1, \
    __global const int *u_lat1, __global const float *u_w1, \
    const uint u_bound, \
    __global int *u_b0, __global int *u_b1, __global int *u_b2, __global int *u_b3, \
    __global int *u_b4, __global int *u_b5, __global int *u_b6, __global int *u_b7, \
    const int8 u_ints, const float8 u_floats
#define DG_USER_PASS u_dir, u_dso0, u_pool0, u_idx0, u_lat0, u_w0, u_dir1, u_dso1, u_pool1, u_idx1, u_lat1, u_w1, u_bound, \
    u_b0, u_b1, u_b2, u_b3, u_b4, u_b5, u_b6, u_b7, u_ints, u_floats

inline dg_args dg_args_make(DG_USER_PARAMS)
{
    dg_args a;
    a.buffers[0] = u_b0; a.buffers[1] = u_b1; a.buffers[2] = u_b2; a.buffers[3] = u_b3;
    a.buffers[4] = u_b4; a.buffers[5] = u_b5; a.buffers[6] = u_b6; a.buffers[7] = u_b7;
    vstore8(u_ints, 0, a.ints);
    vstore8(u_floats, 0, a.floats);
    a.dir = u_dir;
    a.dso[0] = u_dso0; a.dso[1] = u_dso1;
    (void)u_dir1;                             /* u_dir again: one directory for both stores */
    a.pool[0] = u_pool0; a.idx[0] = u_idx0; a.latab[0] = u_lat0; a.wpool[0] = u_w0;
    a.pool[1] = u_pool1; a.idx[1] = u_idx1; a.latab[1] = u_lat1; a.wpool[1] = u_w1;
    a.bound = u_bound;
    return a;
}
/* What the user function gets as its last argument: style 0 `__global int *data` (buffer 0),
   style 1 `const dg_args *`. */
#define DG_USER_LAST_0(a) ((__global int *)(a).buffers[0])
#define DG_USER_LAST_1(a) (&(a))

/* The element i of the input: in[i], or vertex i when in is NULL (every id below the bound;
   the kernel skips those that are no vertex). */
inline int dg_user_element(__global const int *in, const uint i) { return in ? in[i] : (int)i; }

/* ADVANCE over the store DG_ADJ (out or in), as DG_DEFINE_ADVANCE. */
#define DG_USER_ADVANCE(NAME, FN, STYLE) \
    DG_ADVANCE_KERNEL(NAME, FN, DG_USER_PARAMS, dg_args a_ = dg_args_make(DG_USER_PASS);, DG_USER_LAST_##STYLE(a_))

/* FILTER: flag[i] = the predicate of element i. */
#define DG_USER_FILTER(NAME, FN, STYLE) \
__kernel void NAME(__global const int *in, const uint n, __global uint *flag, DG_USER_PARAMS) \
{ \
    const size_t i = get_global_id(0); \
    dg_args a_ = dg_args_make(DG_USER_PASS); \
    if (i < n) flag[i] = FN(in[i], DG_USER_LAST_##STYLE(a_)) != 0; \
}

/* COMPUTE: the function on every element (in NULL: on every vertex). */
#define DG_USER_COMPUTE(NAME, FN, STYLE) \
__kernel void NAME(__global const int *in, const uint n, DG_USER_PARAMS) \
{ \
    const size_t i = get_global_id(0); \
    dg_args a_ = dg_args_make(DG_USER_PASS); \
    if (i < n) { \
        const int v = dg_user_element(in, (uint)i); \
        if (in || dg_is_vertex(&a_, v)) FN(v, DG_USER_LAST_##STYLE(a_)); \
    } \
}

/* REDUCE: part[group] = the group's sum / min / max (OP: DG_REDUCE_MIN, DG_REDUCE_MAX, else
   the sum) of FN over its elements, each work-item striding over the input (grid-stride).
   TYPE: float, or long for DG_OP_REDUCE_INT (exact 64-bit sums of the int values). */
#define DG_USER_REDUCE_T(NAME, FN, TYPE, ZERO_SUM, ZERO_MIN, ZERO_MAX, MIN, MAX) \
__kernel void NAME(__global const int *in, const uint n, __global TYPE *part, const int OP, DG_USER_PARAMS) \
{ \
    __local TYPE x[DG_WG]; \
    const uint lid = (uint)get_local_id(0); \
    const size_t stride = get_global_size(0); \
    size_t i; \
    uint s; \
    dg_args a_ = dg_args_make(DG_USER_PASS); \
    TYPE acc = OP == DG_REDUCE_MIN ? ZERO_MIN : OP == DG_REDUCE_MAX ? ZERO_MAX : ZERO_SUM; \
    for (i = get_global_id(0); i < n; i += stride) { \
        const int v = dg_user_element(in, (uint)i); \
        if (in || dg_is_vertex(&a_, v)) { \
            const TYPE y = (TYPE)FN(v, &a_); \
            acc = OP == DG_REDUCE_MIN ? MIN(acc, y) : OP == DG_REDUCE_MAX ? MAX(acc, y) : acc + y; \
        } \
    } \
    x[lid] = acc; \
    for (s = DG_WG >> 1; s > 0; s >>= 1) { \
        barrier(CLK_LOCAL_MEM_FENCE); \
        if (lid < s) \
            x[lid] = OP == DG_REDUCE_MIN ? MIN(x[lid], x[lid + s]) \
                   : OP == DG_REDUCE_MAX ? MAX(x[lid], x[lid + s]) : x[lid] + x[lid + s]; \
    } \
    if (lid == 0) part[get_group_id(0)] = x[0]; \
}
/* floats: fmin/fmax (defined for the infinities that start a min/max; a NaN is ignored) */
#define DG_USER_REDUCE(NAME, FN, STYLE) DG_USER_REDUCE_T(NAME, FN, float, 0.0f, INFINITY, -INFINITY, fmin, fmax)
#define DG_USER_REDUCE_INT(NAME, FN, STYLE) DG_USER_REDUCE_T(NAME, FN, long, 0L, LONG_MAX, LONG_MIN, min, max)
