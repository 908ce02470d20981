/* trand.h - the tests' random numbers: splitmix64, seeded by setting rng_state (or by
   trand_seed, from a program's command line). */
#ifndef TRAND_H
#define TRAND_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
static uint64_t rng_state;
static inline uint64_t rnext(void)
{   /* splitmix64 */
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static inline uint32_t rnd(uint32_t n) { return n ? (uint32_t)(rnext() % n) : 0; }
static inline int chance(int percent) { return (int)rnd(100) < percent; }

/* The seed of a run: argv[1] if given (strtoull, any base), else dflt. It is printed,
   "<prog>: seed N", so that the run can be repeated, and rng_state starts from it. */
static inline uint64_t trand_seed(int argc, char **argv, uint64_t dflt, const char *prog)
{
    uint64_t s = argc > 1 ? strtoull(argv[1], NULL, 0) : dflt;
    printf("%s: seed %llu\n", prog, (unsigned long long)s);
    rng_state = s;
    return s;
}
#endif
