/* trand.h - the tests' random numbers: splitmix64, seeded by setting rng_state. */
#ifndef TRAND_H
#define TRAND_H
#include <stdint.h>
static uint64_t rng_state;
static uint64_t rnext(void)
{   /* splitmix64 */
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static uint32_t rnd(uint32_t n) { return n ? (uint32_t)(rnext() % n) : 0; }
static int chance(int percent) { return (int)rnd(100) < percent; }
#endif
