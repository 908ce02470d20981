/* memlat.c - the memory latency that bounds random single-edge mutations: dependent random
   4-byte loads (pointer chasing over a shuffled 128 MiB array) and independent random loads.
   cc -O2 bench/memlat.c -o build/memlat */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <time.h>

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }

int main(void) {
    size_t n = (size_t)1 << 25, i, steps = 10000000;
    uint32_t *a = (uint32_t *)malloc(n * sizeof *a), x = 0;
    uint64_t r = 88172645463325252ull, sum = 0;
    double t0, t1, t2;
    if (!a) return 1;
    for (i = 0; i < n; i++) a[i] = (uint32_t)i;
    for (i = n - 1; i > 0; i--) {                       /* Sattolo: one cycle through all */
        size_t j;
        uint32_t t;
        r ^= r << 13; r ^= r >> 7; r ^= r << 17;
        j = (size_t)(r % i);
        t = a[i]; a[i] = a[j]; a[j] = t;
    }
    t0 = now();
    for (i = 0; i < steps; i++) x = a[x];
    t1 = now();
    for (i = 0; i < steps; i++) { r ^= r << 13; r ^= r >> 7; r ^= r << 17; sum += a[r & (n - 1)]; }
    t2 = now();
    printf("memlat: dependent random load %.1f ns, independent random load %.1f ns (%u %llu)\n",
           (t1 - t0) * 1e9 / (double)steps, (t2 - t1) * 1e9 / (double)steps, x, (unsigned long long)sum);
    free(a);
    return 0;
}
