/*
 * What the C yardsticks (playouts.c, lookahead.c) share: sfc32 seeded through
 * splitmix32, the stream of env/random.ts, so that they play the engine's
 * games; and, in the native builds, the clock they time themselves with.
 */
#ifndef AYOAYO_YARDSTICK_H
#define AYOAYO_YARDSTICK_H
#include <stdint.h>
#ifndef __wasm__
#include <time.h>
#endif

typedef struct {
  uint32_t a, b, c, d;
} rng_t;

static inline uint32_t rng_next(rng_t *r) {
  uint32_t t = r->a + r->b + r->d;
  r->d += 1;
  r->a = r->b ^ (r->b >> 9);
  r->b = r->c + (r->c << 3);
  r->c = (r->c << 21) | (r->c >> 11);
  r->c += t;
  return t;
}

static uint32_t splitmix_h;
static uint32_t splitmix_next(void) {
  splitmix_h += 0x9e3779b9u;
  uint32_t z = splitmix_h;
  z = (z ^ (z >> 16)) * 0x85ebca6bu;
  z = (z ^ (z >> 13)) * 0xc2b2ae35u;
  return z ^ (z >> 16);
}

static rng_t rng_from_seed(uint32_t seed) {
  rng_t r;
  splitmix_h = seed;
  r.a = splitmix_next();
  r.b = splitmix_next();
  r.c = splitmix_next();
  r.d = splitmix_next();
  for (int i = 0; i < 12; i++) rng_next(&r);
  return r;
}

/*
 * The rules come as the engine's rule code (env/rule-code.ts: the options of
 * env/rules.ts's table in turn, a bit each): these are its bits.
 * test/bench checks that the programs play the engine's games under every code.
 */
enum { SEED_STAYS = 1, LEFTOVER_TO_OWNER = 2 };

/* Uniform in [0, n): floor(u / 2^32 * n), exactly what Random.int computes. */
static inline int rng_int(rng_t *r, int n) { return (int)(((uint64_t)rng_next(r) * (uint64_t)n) >> 32); }

#ifndef __wasm__
static double clock_ms(clockid_t clock) {
  struct timespec t;
  clock_gettime(clock, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}
#endif

#endif
