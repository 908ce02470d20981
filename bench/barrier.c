/* barrier.c - what a device-wide barrier and its neighbours cost on an OpenCL GPU: the
   latencies a deep search's level is made of (issue 17). Plain OpenCL, no dyngraph.

   Each test is one kernel of G work-groups of 256 that loops N times; the figure is the
   kernel's event time / N, in microseconds a step:
     lbar     one local barrier
     load     work-item 0 of each group: one dependent global load (a chase in an L2-resident
              array, volatile)
     atomic   work-item 0: one dependent atomic_add whose result is used
     fence    a device-scope fence (membar.gl on NVIDIA) and a local barrier
     counter  the device-wide barrier of dg_bfs_deep: fence, arrival counter, the last arrival
              moves a generation word on, everyone polls it, fence, five counter reads
     flags    one flag word a group: fence, work-item 0 stores k with the group's payload,
              work-items 0..G-1 poll flag[lid] until it is k and sum the payloads (the level's
              counters come with the barrier), local barrier
     master   flags gathered by group 0, which then moves a generation word on
   A group that polls 2^24 times without passing gives up (counted as "aborted").

   cc -O2 -I. bench/barrier.c -o build/barrier -lOpenCL
     cg       cooperative groups' grid barrier: one atomic add a group that flips the top bit
              when the last arrives, polled by work-item 0; one fence before, one after
     cgacq    cg, its poll a PTX ld.acquire.gpu and no fence after it (NVIDIA)
     cgrel    cgacq, its add a PTX atom.add.release.gpu and no fence before it (NVIDIA)
     flags64  (not run) flags with the payload: four 64-bit words a group, the step in the high half of
              each (a 64-bit store is single-copy atomic, a vector store is not), one fence
   --acqrel: fence.acq_rel.gpu instead of membar.gl (= fence.sc.gpu) on NVIDIA.
   build/barrier [--groups 132,64,16,4,1] [--steps 20000] [--acqrel] */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *SRC =
"#if defined(NV) && defined(ACQREL)\n"
"#define FENCE() asm volatile(\"fence.acq_rel.gpu;\" : : : \"memory\")\n"
"#elif defined(NV)\n"
"#define FENCE() asm volatile(\"membar.gl;\" : : : \"memory\")\n"
"#else\n"
"#define FENCE() mem_fence(CLK_GLOBAL_MEM_FENCE)\n"
"#endif\n"
"#define SPIN (1u << 24)\n"
"#ifdef NV\n"
"inline uint ld_acq(volatile __global uint *p) { uint v; asm volatile(\"ld.acquire.gpu.global.u32 %0, [%1];\" : \"=r\"(v) : \"l\"(p) : \"memory\"); return v; }\n"
"inline uint add_rel(__global uint *p, uint x) { uint v; asm volatile(\"atom.add.release.gpu.global.u32 %0, [%1], %2;\" : \"=r\"(v) : \"l\"(p), \"r\"(x) : \"memory\"); return v; }\n"
"#define ACQ_FENCE()\n"
"#else\n"
"inline uint ld_acq(volatile __global uint *p) { return *p; }\n"
"inline uint add_rel(__global uint *p, uint x) { FENCE(); return atomic_add(p, x); }\n"
"#define ACQ_FENCE() FENCE()\n"
"#endif\n"
"__kernel void lbar(__global uint *w, uint n) {\n"
"  __local uint l; uint i; if (get_local_id(0) == 0) l = 0; barrier(CLK_LOCAL_MEM_FENCE);\n"
"  for (i = 0; i < n; i++) { if (get_local_id(0) == (i & 255)) l += i; barrier(CLK_LOCAL_MEM_FENCE); }\n"
"  if (get_local_id(0) == 0) w[get_group_id(0)] = l; }\n"
"__kernel void load(__global uint *w, uint n) {\n"
"  volatile __global uint *v = w + 49152; uint i, x = get_group_id(0) & 1023u;\n"
"  if (get_local_id(0) == 0) { for (i = 0; i < n; i++) x = v[x]; w[4096 + get_group_id(0)] = x; } }\n"
"__kernel void atom(__global uint *w, uint n) {\n"
"  uint i, x = 0; __global uint *a = w + 8192 + 32 * get_group_id(0);\n"
"  if (get_local_id(0) == 0) { for (i = 0; i < n; i++) x = atomic_add(a + (x & 1u), 1u); w[4096 + get_group_id(0)] = x; } }\n"
"__kernel void fence(__global uint *w, uint n) {\n"
"  uint i; for (i = 0; i < n; i++) { w[16384 + get_global_id(0)] = i; FENCE(); barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE); } }\n"
"__kernel void counter(__global uint *w, uint n) {\n"
"  __local uint l_end, l_sum; volatile __global uint *gen = w + 1; const uint G = get_num_groups(0);\n"
"  uint k; if (get_local_id(0) == 0) { l_end = 0; l_sum = 0; } barrier(CLK_LOCAL_MEM_FENCE);\n"
"  for (k = 1; k <= n && !l_end; k++) {\n"
"    w[16384 + get_global_id(0)] = k; FENCE(); barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);\n"
"    if (get_local_id(0) == 0) { uint s = 0;\n"
"      atomic_add(w + 64, 1u);\n"
"      FENCE();\n"
"      if (atomic_inc(w) + 1u == G * k) atomic_cmpxchg(w + 1, k - 1u, k);\n"
"      for (;;) { const uint v = *gen; if (v >= k) break; if (++s > SPIN) { l_end = 1; atomic_inc(w + 2); break; } }\n"
"      FENCE(); { volatile __global uint *c = w + 64; l_sum += c[0] + c[1] + c[2] + c[3] + c[4]; } }\n"
"    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE); }\n"
"  if (get_local_id(0) == 0) w[4096 + get_group_id(0)] = l_sum; }\n"
"__kernel void flags(__global uint *w, uint n) {\n"
"  __local uint l_end, l_sum; volatile __global uint4 *f = (volatile __global uint4 *)(w + 32768);\n"
"  const uint G = get_num_groups(0), lid = get_local_id(0), g = get_group_id(0); uint k;\n"
"  if (lid == 0) { l_end = 0; l_sum = 0; } barrier(CLK_LOCAL_MEM_FENCE);\n"
"  for (k = 1; k <= n && !l_end; k++) {\n"
"    w[16384 + get_global_id(0)] = k; FENCE(); barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);\n"
"    if (lid == 0) f[g] = (uint4)(k, g, 2u * g, 1u);\n"
"    if (lid < G) { uint s = 0; uint4 v;\n"
"      for (;;) { v = f[lid]; if (v.x >= k) break; if (++s > SPIN) { l_end = 1; atomic_inc(w + 2); break; } }\n"
"      FENCE(); atomic_add(&l_sum, v.y + v.z + v.w); }\n"
"    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE); }\n"
"  if (lid == 0) w[4096 + g] = l_sum; }\n"
"__kernel void master(__global uint *w, uint n) {\n"
"  __local uint l_end, l_sum; volatile __global uint *f = w + 32768; volatile __global uint *gen = w + 1;\n"
"  const uint G = get_num_groups(0), lid = get_local_id(0), g = get_group_id(0); uint k;\n"
"  if (lid == 0) { l_end = 0; l_sum = 0; } barrier(CLK_LOCAL_MEM_FENCE);\n"
"  for (k = 1; k <= n && !l_end; k++) {\n"
"    w[16384 + get_global_id(0)] = k; FENCE(); barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);\n"
"    if (lid == 0) f[g] = k;\n"
"    if (g == 0 && lid < G) { uint s = 0; while (f[lid] < k) if (++s > SPIN) { l_end = 1; break; } }\n"
"    if (g == 0) { barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE); if (lid == 0) { FENCE(); *gen = k; } }\n"
"    if (lid == 0) { uint s = 0; while (*gen < k) if (++s > SPIN) { l_end = 1; atomic_inc(w + 2); break; } FENCE(); l_sum += k; }\n"
"    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE); }\n"
"  if (lid == 0) w[4096 + g] = l_sum; }\n"
"/* CUDA's grid barrier: one add a group, the last flips the top bit; ARRIVE(p, x) adds, POLL(p)\n"
"   reads, AFTER() follows a passed poll */\n"
"#define CG_KERNEL(NAME, ARRIVE, POLL, AFTER) \\\n"
"__kernel void NAME(__global uint *w, uint n) { \\\n"
"  __local uint l_end, l_sum; volatile __global uint *a = w + 3; const uint G = get_num_groups(0), lid = get_local_id(0), g = get_group_id(0); uint k; \\\n"
"  if (lid == 0) { l_end = 0; l_sum = 0; } barrier(CLK_LOCAL_MEM_FENCE); \\\n"
"  for (k = 1; k <= n && !l_end; k++) { \\\n"
"    w[16384 + get_global_id(0)] = k; barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE); \\\n"
"    if (lid == 0) { uint s = 0, old, nb = g == 0 ? 0x80000000u - (G - 1u) : 1u; \\\n"
"      old = ARRIVE(w + 3, nb); \\\n"
"      while (((old ^ POLL(a)) & 0x80000000u) == 0u) if (++s > SPIN) { l_end = 1; atomic_inc(w + 2); break; } \\\n"
"      AFTER(); l_sum += k; } \\\n"
"    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE); } \\\n"
"  if (lid == 0) w[4096 + g] = l_sum; }\n"
"inline uint add_fenced(__global uint *p, uint x) { FENCE(); return atomic_add(p, x); }\n"
"inline uint ld_plain(volatile __global uint *p) { return *p; }\n"
"CG_KERNEL(cg, add_fenced, ld_plain, FENCE)\n"
"CG_KERNEL(cgacq, add_fenced, ld_acq, ACQ_FENCE)\n"
"CG_KERNEL(cgrel, add_rel, ld_acq, ACQ_FENCE)\n"
"__kernel void flags64(__global uint *w, uint n) {\n"
"  __local uint l_end, l_n, l_m, l_x; volatile __global ulong *f = (volatile __global ulong *)(w + 32768);\n"
"  const uint G = get_num_groups(0), lid = get_local_id(0), g = get_group_id(0); uint k, tot = 0;\n"
"  if (lid == 0) l_end = 0; barrier(CLK_LOCAL_MEM_FENCE);\n"
"  for (k = 1; k <= n && !l_end; k++) {\n"
"    w[16384 + get_global_id(0)] = k; if (lid == 0) { l_n = 0; l_m = 0; l_x = 0; } barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);\n"
"    if (lid == 0) { const ulong h = (ulong)k << 32; FENCE(); f[4 * g] = h | g; f[4 * g + 1] = h | (2u * g); f[4 * g + 2] = h | 7u; f[4 * g + 3] = h | 1u; }\n"
"    if (lid < G) { uint s = 0; ulong a, b, c, d;\n"
"      for (;;) { a = f[4 * lid]; b = f[4 * lid + 1]; c = f[4 * lid + 2]; d = f[4 * lid + 3];\n"
"        if ((uint)(a >> 32) == k && (uint)(b >> 32) == k && (uint)(c >> 32) == k && (uint)(d >> 32) == k) break;\n"
"        if (++s > SPIN) { l_end = 1; atomic_inc(w + 2); break; } }\n"
"      FENCE(); atomic_add(&l_n, (uint)a); atomic_add(&l_m, (uint)b + (uint)d); atomic_max(&l_x, (uint)c); }\n"
"    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE); tot += l_n + l_m + l_x; }\n"
"  if (lid == 0) w[4096 + g] = tot; }\n";

#define CK(x) do { cl_int e_ = (x); if (e_ != CL_SUCCESS) { fprintf(stderr, "barrier: %s failed: %d (line %d)\n", #x, e_, __LINE__); return 1; } } while (0)

int main(int argc, char **argv)
{
    const char *names[] = { "lbar", "load", "atom", "fence", "counter", "flags", "master", "cg", "cgacq", "cgrel" };
    const int NT = 10;
    long groups[16] = { 0, 64, 32, 16, 4, 1 };
    int ngroups = 6, a, t, gi, nv = 0, acqrel = 0;
    cl_uint steps = 20000, np = 0, i, cus = 0;
    cl_platform_id plats[8];
    cl_device_id dev = NULL;
    cl_context ctx;
    cl_command_queue q;
    cl_program prog;
    cl_mem w;
    cl_int err;
    char pname[256] = "", dname[256] = "";
    const size_t words = 65536;
    for (a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--acqrel")) acqrel = 1;
        else if (!strcmp(argv[a], "--steps") && a + 1 < argc) steps = (cl_uint)atol(argv[++a]);
        else if (!strcmp(argv[a], "--groups") && a + 1 < argc) {
            char *s = argv[++a];
            for (ngroups = 0; ngroups < 16 && *s; ngroups++) { groups[ngroups] = strtol(s, &s, 10); if (*s == ',') s++; }
        } else { fprintf(stderr, "usage: barrier [--groups LIST (0: one a compute unit)] [--steps N] [--acqrel]\n"); return 2; }
    }
    CK(clGetPlatformIDs(8, plats, &np));
    for (i = 0; i < np && !dev; i++)                       /* a GPU first, else any device */
        if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_GPU, 1, &dev, NULL) != CL_SUCCESS) dev = NULL;
        else clGetPlatformInfo(plats[i], CL_PLATFORM_NAME, sizeof pname, pname, NULL);
    for (i = 0; i < np && !dev; i++)
        if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS) dev = NULL;
        else clGetPlatformInfo(plats[i], CL_PLATFORM_NAME, sizeof pname, pname, NULL);
    if (!dev) { fprintf(stderr, "barrier: no OpenCL device\n"); return 1; }
    CK(clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof dname, dname, NULL));
    CK(clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, NULL));
    nv = strstr(pname, "NVIDIA") != NULL;
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err); CK(err);
    q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err); CK(err);
    prog = clCreateProgramWithSource(ctx, 1, &SRC, NULL, &err); CK(err);
    if (clBuildProgram(prog, 1, &dev, !nv ? "" : acqrel ? "-DNV -DACQREL" : "-DNV", NULL, NULL) != CL_SUCCESS) {
        char log[8192] = "";
        clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "barrier: build failed:\n%s\n", log);
        return 1;
    }
    w = clCreateBuffer(ctx, CL_MEM_READ_WRITE, words * 4, NULL, &err); CK(err);
    printf("## device-wide barrier and latencies: %s (%u compute units), %u steps, us a step; fence: %s\n\n",
           dname, cus, steps, !nv ? "mem_fence" : acqrel ? "fence.acq_rel.gpu" : "membar.gl");
    printf("| groups |");
    for (t = 0; t < NT; t++) printf(" %s |", names[t]);
    printf(" aborted |\n|---:|");
    for (t = 0; t < NT; t++) printf("---:|");
    printf("---:|\n");
    for (gi = 0; gi < ngroups; gi++) {
        size_t G = groups[gi] > 0 ? (size_t)groups[gi] : cus, gsz = G * 256, lsz = 256;
        cl_uint aborted = 0;
        if (G > 256) continue;
        printf("| %zu |", G);
        for (t = 0; t < NT; t++) {
            cl_kernel kr = clCreateKernel(prog, names[t], &err);
            cl_uint *init = (cl_uint *)calloc(words, 4), s = steps, ab[3];
            cl_event ev;
            cl_ulong t0, t1;
            int rep;
            double best = 1e30;
            CK(err);
            for (i = 0; i < 1024; i++) init[49152 + i] = (i * 2654435761u >> 7) & 1023u;   /* the chase */
            for (rep = 0; rep < 3; rep++) {
                CK(clEnqueueWriteBuffer(q, w, CL_TRUE, 0, words * 4, init, 0, NULL, NULL));
                CK(clSetKernelArg(kr, 0, sizeof w, &w));
                CK(clSetKernelArg(kr, 1, sizeof s, &s));
                CK(clEnqueueNDRangeKernel(q, kr, 1, NULL, &gsz, &lsz, 0, NULL, &ev));
                CK(clWaitForEvents(1, &ev));
                CK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL));
                CK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL));
                CK(clReleaseEvent(ev));
                CK(clEnqueueReadBuffer(q, w, CL_TRUE, 0, sizeof ab, ab, 0, NULL, NULL));
                if (t >= 4) aborted += ab[2];
                if ((double)(t1 - t0) < best) best = (double)(t1 - t0);
            }
            printf(" %.3f |", best * 1e-3 / steps);
            fflush(stdout);
            free(init);
            clReleaseKernel(kr);
        }
        printf(" %u |\n", aborted);
    }
    clReleaseMemObject(w);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return 0;
}
