/*
 * The C comparison of the observation encoder (env/gym/observation.ts with
 * `{ encoding: 'counts', lookahead: true }`, 146 floats, or with the
 * thermometer board of the training presets, `{ encoding: 'thermometer',
 * lookahead: true }`, 278 floats): the same features,
 * computed the same way by the C encoder that the self-play search core runs
 * (agents/puct/core/encoder.h). It answers how far the
 * encoder's speed is from what the processor does with the same algorithm. bench/encoder.bench.ts builds it
 * natively (`cc -O2`) and for wasm32 (clang, no C library) and first checks
 * that it writes the TypeScript encoder's observations, bit for bit.
 *
 * The positions are those of random games from the start, every position
 * before each ply and the final one, the child picked as the engine bench's
 * expand loop picks it (sfc32 from seed 1, as env/random.ts), or those of a
 * file of POSITIONS x 16 bytes (the states a self-play encoded, say).
 *
 *   lookahead verify POSITIONS RULES [ENCODING [FILE]]
 *       encodes the first POSITIONS positions under the rule code RULES
 *       (yardstick.h) and prints {"positions":..,"checksum":..}
 *       (the legal masks and every float's bits, folded)
 *   lookahead time POSITIONS SECONDS [ENCODING [FILE]]
 *       encodes the POSITIONS positions over and over for about SECONDS (default
 *       rules) and prints {"encodes":..,"cpuMs":..}
 * ENCODING is the board's, counts (the default) or thermometer.
 */
#include <stdint.h>
#include "yardstick.h"
#include "../../agents/puct/core/encoder.h"
#ifndef __wasm__
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#endif

/* What the caller shares with the encoder: in wasm, JavaScript reads and writes it in place. */
static struct {
  uint8_t state[STATE_SIZE];
  float obs[THERMOMETER_OBS];
} io;

/* Writes the observation of io.state into io.obs (the board as a thermometer
 * when `thermometer`); returns the legal mask. */
static int encode_io(int css, int to_owner, int thermometer) {
  board_t s, children[ACTIONS];
  __builtin_memcpy(&s, io.state, STATE_SIZE);
  return encode(s, io.obs, children, css, to_owner, thermometer);
}

#ifdef __wasm__
/* The WebAssembly build's entry points: JavaScript writes io.state and the laps
 * feature's table in the module's memory and reads io.obs after each encode. */
__attribute__((export_name("init"))) void wasm_init(void) { init_tables(); }
__attribute__((export_name("state_at"))) uint8_t *wasm_state_at(void) { return io.state; }
__attribute__((export_name("laps_at"))) float *wasm_laps_at(void) { return LAPS_F; }
__attribute__((export_name("obs_at"))) float *wasm_obs_at(void) { return io.obs; }
__attribute__((export_name("encode"))) int wasm_encode(int rules) {
  return encode_io(rules & SEED_STAYS, (rules & LEFTOVER_TO_OWNER) != 0, 0);
}
#else

/* The positions of random games from the start, as described at the top. */
static uint8_t (*make_positions(long count, int css))[STATE_SIZE] {
  uint8_t(*positions)[STATE_SIZE] = malloc((size_t)count * STATE_SIZE);
  rng_t rng = rng_from_seed(1);
  board_t s = {4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4};
  for (long i = 0; i < count; i++) {
    __builtin_memcpy(positions[i], &s, STATE_SIZE);
    board_t children[ACTIONS];
    int mask = 0;
    for (int a = 0; a < ACTIONS; a++)
      if (!has_winning_store(s) && play(s, a, css, &children[a], 0) == OK) mask |= 1 << a;
    if (mask == 0) {
      s = (board_t){4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4};
      continue;
    }
    int k = rng_int(&rng, __builtin_popcount((unsigned)mask));
    int action = 0;
    for (;; action++)
      if ((mask >> action & 1) && k-- == 0) break;
    s = children[action];
  }
  return positions;
}

/* COUNT positions from FILE (COUNT x 16 bytes), or NULL after a message. */
static uint8_t (*read_positions(const char *file, long count))[STATE_SIZE] {
  uint8_t(*positions)[STATE_SIZE] = malloc((size_t)count * STATE_SIZE);
  FILE *in = fopen(file, "rb");
  if (in == NULL || fread(positions, STATE_SIZE, (size_t)count, in) != (size_t)count) {
    fprintf(stderr, "lookahead: cannot read %ld positions from %s\n", count, file);
    return NULL;
  }
  fclose(in);
  return positions;
}

int main(int argc, char **argv) {
  init_tables();
  for (int n = 0; n < 255; n++) {
    double f = log2(1 + n) / 8;
    LAPS_F[n] = (float)(f < 1 ? f : 1);
  }
  int thermometer = argc >= 5 && strcmp(argv[4], "thermometer") == 0;
  if (argc >= 5 && !thermometer && strcmp(argv[4], "counts") != 0) {
    fprintf(stderr, "lookahead: ENCODING is counts or thermometer, not %s\n", argv[4]);
    return 2;
  }
  const char *file = argc == 6 ? argv[5] : NULL;
  if ((argc >= 4 && argc <= 6) && strcmp(argv[1], "verify") == 0) {
    long count = atol(argv[2]);
    int rules = atoi(argv[3]);
    int css = rules & SEED_STAYS, to_owner = (rules & LEFTOVER_TO_OWNER) != 0;
    uint8_t(*positions)[STATE_SIZE] =
        file != NULL ? read_positions(file, count) : make_positions(count, css);
    if (positions == NULL) return 1;
    int size = thermometer ? THERMOMETER_OBS : OBS;
    uint32_t checksum = 0;
    for (long i = 0; i < count; i++) {
      __builtin_memcpy(io.state, positions[i], STATE_SIZE);
      checksum = checksum * 31u + (uint32_t)encode_io(css, to_owner, thermometer);
      for (int k = 0; k < size; k++) {
        uint32_t bits;
        __builtin_memcpy(&bits, &io.obs[k], 4);
        checksum = checksum * 31u + bits;
      }
    }
    printf("{\"positions\":%ld,\"checksum\":%u}\n", count, checksum);
    return 0;
  }
  if ((argc >= 4 && argc <= 6) && strcmp(argv[1], "time") == 0) {
    long count = atol(argv[2]);
    double seconds = atof(argv[3]);
    uint8_t(*positions)[STATE_SIZE] =
        file != NULL ? read_positions(file, count) : make_positions(count, 0);
    if (positions == NULL) return 1;
    long encodes = 0;
    uint32_t sink = 0;
    double start = clock_ms(CLOCK_MONOTONIC), cpu_start = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
    while (clock_ms(CLOCK_MONOTONIC) - start < seconds * 1000) {
      for (long i = 0; i < count; i++) {
        __builtin_memcpy(io.state, positions[i], STATE_SIZE);
        sink += (uint32_t)encode_io(0, 0, thermometer);
      }
      encodes += count;
    }
    double cpu = clock_ms(CLOCK_PROCESS_CPUTIME_ID) - cpu_start;
    printf("{\"encodes\":%ld,\"cpuMs\":%.3f,\"sink\":%u}\n", encodes, cpu, sink);
    return 0;
  }
  fprintf(stderr,
          "usage: lookahead verify POSITIONS RULES [ENCODING [FILE]] | "
          "lookahead time POSITIONS SECONDS [ENCODING [FILE]]\n");
  return 2;
}
#endif
