/* launch.c - the host's cost of a kernel launch on the first GPU (else any OpenCL device): a
   plain queue, a profiling queue without and with an event per launch (released at once, or
   kept), and with 20 clSetKernelArg a launch. 2000 launches of a 270,336-item kernel that does
   nothing, twice. Build: cc -O2 bench/launch.c -o build/launch -lOpenCL
   (bench/NOTES.md, "events cost a launch": dyngraph keeps events only for calls given stats) */
#define _POSIX_C_SOURCE 200809L
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e6 + t.tv_nsec * 1e-3; }
static const char *src = "__kernel void k(__global int *a, __global int *b, const uint n, const int l, __global int *c, __global int *d,"
  " const uint x0, const uint x1, const uint x2, const uint x3, const uint x4, const uint x5, const uint x6, const uint x7,"
  " const uint x8, const uint x9, const uint y0, const uint y1, const uint y2, const uint y3) { if (get_global_id(0) == 0 && n == 12345u) a[0] = l; }\n";
int main(void) {
    cl_platform_id pl[4]; cl_uint np = 0, i; cl_device_id dev = NULL; cl_int e;
    clGetPlatformIDs(4, pl, &np);
    for (i = 0; i < np && !dev; i++) if (clGetDeviceIDs(pl[i], CL_DEVICE_TYPE_GPU, 1, &dev, NULL) != CL_SUCCESS) dev = NULL;
    if (!dev) clGetDeviceIDs(pl[0], CL_DEVICE_TYPE_ALL, 1, &dev, NULL);
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
    cl_command_queue qp = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &e);
    cl_command_queue qn = clCreateCommandQueue(ctx, dev, 0, &e);
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &e);
    clBuildProgram(p, 1, &dev, "", NULL, NULL);
    cl_kernel k = clCreateKernel(p, "k", &e);
    cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 1 << 20, NULL, &e);
    cl_uint u = 0; cl_int l = 0; int arg, mode, rep;
    char name[128]; clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
    printf("device: %s (%s)\n", name, e == CL_SUCCESS ? "ok" : "error");
    for (arg = 0; arg < 20; arg++) { if (arg < 2 || arg == 4 || arg == 5) clSetKernelArg(k, arg, sizeof a, &a); else if (arg == 3) clSetKernelArg(k, arg, sizeof l, &l); else clSetKernelArg(k, arg, sizeof u, &u); }
    for (rep = 0; rep < 2; rep++)
    for (mode = 0; mode < 5; mode++) {
        /* 0: no event, plain queue; 1: profiling queue, no event; 2: profiling queue, event released at once;
           3: event kept (retained, released at the end); 4: mode 2 plus 20 clSetKernelArg a launch */
        cl_command_queue q = mode == 0 ? qn : qp;
        size_t g = 270336, lw = 256; int n = 2000, j; cl_event evs[2000]; double t0, t1, t2;
        clFinish(q);
        t0 = now();
        for (j = 0; j < n; j++) {
            cl_event ev = NULL;
            l = j;
            if (mode == 4) for (arg = 0; arg < 20; arg++) { if (arg < 2 || arg == 4 || arg == 5) clSetKernelArg(k, arg, sizeof a, &a); else if (arg == 3) clSetKernelArg(k, arg, sizeof l, &l); else clSetKernelArg(k, arg, sizeof u, &u); }
            else clSetKernelArg(k, 3, sizeof l, &l);
            clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &lw, 0, NULL, mode >= 2 ? &ev : NULL);
            if (mode == 3) evs[j] = ev; else if (ev) clReleaseEvent(ev);
        }
        t1 = now();
        clFinish(q);
        t2 = now();
        if (mode == 3) for (j = 0; j < n; j++) clReleaseEvent(evs[j]);
        printf("mode %d: enqueue %.2f us a launch (host), %.2f us a launch until finished\n", mode, (t1 - t0) / n, (t2 - t0) / n);
    }
    return 0;
}
