/*
 * The C comparison loop of bench/engine.bench.ts: the rules of docs/rules.md in
 * plain C on a byte array (the same 16-byte state layout as env/core.ts: sow
 * seed by seed skipping the origin, relay while the last pit was occupied,
 * capture opposite on the mover's row, feeding, endless relays found exactly
 * with Brent's method), the same random generator (sfc32 seeded through
 * splitmix32, as env/random.ts) and the same two playout loops, with the same
 * move picking (a table for the k-th legal action, a branch-free occupied mask).
 * It is the yardstick the TypeScript engine is measured against; the bench
 * compiles it with `cc -O2` and first checks that it plays the same games.
 *
 *   playouts verify GAMES RULES
 *       plays GAMES games of each loop from seed 1 under the rule code RULES
 *       (yardstick.h) and prints, per loop, the
 *       games, the plies and a checksum of the final scores (one JSON line each)
 *   playouts time LOOP SECONDS
 *       LOOP is "reject" or "expand"; plays games (default rules) for about
 *       SECONDS and prints {"games":..,"plies":..,"elapsedMs":..,"cpuMs":..}
 */
#include <stdint.h>
#ifdef __wasm__
/* Built freestanding for wasm32 (bench/wasm-playouts.ts): no C library. Every
 * copy below has a constant size, which clang inlines; the one comparison
 * (a lap start against the saved one) is written out. */
#define memcpy __builtin_memcpy
#define memset __builtin_memset
static inline int bytes_differ(const void *x, const void *y, unsigned long n) {
  const uint8_t *a = x, *b = y;
  for (unsigned long i = 0; i < n; i++)
    if (a[i] != b[i]) return 1;
  return 0;
}
#define memcmp bytes_differ
#else
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#endif

enum { PITS = 12, STORE_0 = 12, TO_MOVE = 14, STATE_SIZE = 16, ACTIONS = 6, WINNING = 25 };
enum { OK = 0, GAME_OVER = 1, EMPTY_PIT = 2, ENDLESS_RELAY = 3, DOES_NOT_FEED = 4 };

#include "yardstick.h"

/* ---- the rules ---- */

static inline int row_is_empty(const uint8_t *s, int base) {
  return (s[base] | s[base + 1] | s[base + 2] | s[base + 3] | s[base + 4] | s[base + 5]) == 0;
}

static inline int has_winning_store(const uint8_t *s) {
  return s[STORE_0] >= WINNING || s[STORE_0 + 1] >= WINNING;
}

/* Plays `action` for the player to move, in place; OK or why it is illegal. */
static int play(uint8_t *s, int action, int rules) {
  int mover = s[TO_MOVE];
  int base = mover * 6;
  int pit = base + action;
  int seeds = s[pit];
  if (seeds == 0) return EMPTY_PIT;
  int opp_base = 6 - base;
  int opponent_was_empty = row_is_empty(s, opp_base);

  /* Brent's cycle detection over lap starts (board and pit lifted). */
  uint8_t saved[PITS];
  memcpy(saved, s, PITS);
  int saved_pit = pit;
  int power = 1, since_save = 0;
  int end;
  for (;;) {
    s[pit] = 0;
    end = pit;
    if (seeds < PITS) {
      for (int k = 0; k < seeds; k++) {
        end = end == 11 ? 0 : end + 1;
        s[end]++;
      }
    } else {
      int rounds = seeds / 11, rest = seeds - rounds * 11;
      for (int i = 0; i < PITS; i++) s[i] += rounds;
      s[pit] = 0;
      if (rest == 0) {
        end = pit == 0 ? 11 : pit - 1;
      } else {
        for (int k = 0; k < rest; k++) {
          end = end == 11 ? 0 : end + 1;
          s[end]++;
        }
      }
    }
    seeds = s[end];
    if (seeds == 1) break;
    pit = end;
    if (pit == saved_pit && memcmp(s, saved, PITS) == 0) return ENDLESS_RELAY;
    if (++since_save == power) {
      memcpy(saved, s, PITS);
      saved_pit = pit;
      power <<= 1;
      since_save = 0;
    }
  }
  if (end >= base && end < base + 6) {
    int facing = 11 - end;
    int f = s[facing];
    if (f > 0) {
      s[facing] = 0;
      int captured = f;
      if (!(rules & SEED_STAYS)) {
        s[end] = 0;
        captured++;
      }
      s[STORE_0 + mover] += captured;
    }
  }
  if (opponent_was_empty && row_is_empty(s, opp_base)) return DOES_NOT_FEED;
  s[TO_MOVE] = 1 - mover;
  return OK;
}

static void set_initial(uint8_t *s) {
  memset(s, 0, STATE_SIZE);
  for (int i = 0; i < PITS; i++) s[i] = 4;
}

static inline int popcount6(int m) { return __builtin_popcount((unsigned)m); }

/* The k-th set bit of a 6-bit mask, from a table as core.nthAction does. */
static uint8_t NTH[64 * 8];
static void init_nth(void) {
  for (int m = 0; m < 64; m++) {
    int k = 0;
    for (int a = 0; a < ACTIONS; a++)
      if (m & (1 << a)) NTH[m * 8 + k++] = (uint8_t)a;
  }
}
static inline int nth_action(int mask, int k) { return NTH[(mask << 3) | k]; }

/* The actions whose pit holds seeds, without a branch per pit, as core.occupiedMask. */
static inline int occupied_mask(const uint8_t *s) {
  int base = s[TO_MOVE] * 6, mask = 0;
  for (int a = 0; a < ACTIONS; a++) mask |= ((s[base + a] + 63) >> 6) << a;
  return mask;
}

/* Final scores of a finished game. */
static void final_scores(const uint8_t *s, int rules, int *scores) {
  int s0 = s[STORE_0], s1 = s[STORE_0 + 1];
  if (s0 >= WINNING || s1 >= WINNING) {
    scores[0] = s0;
    scores[1] = s1;
    return;
  }
  int row0 = 0, row1 = 0;
  for (int i = 0; i < 6; i++) {
    row0 += s[i];
    row1 += s[i + 6];
  }
  int board = row0 + row1;
  if (rules & LEFTOVER_TO_OWNER) {
    scores[0] = s0 + row0;
    scores[1] = s1 + row1;
  } else if (s[TO_MOVE] == 0) {
    scores[0] = s0;
    scores[1] = s1 + board;
  } else {
    scores[0] = s0 + board;
    scores[1] = s1;
  }
}

/* ---- the two loops of bench/engine.bench.ts ---- */

/*
 * agents/playout.ts randomPlayout: rejection sampling among the non-empty pits.
 * play() sows in place, so each attempt is played on a copy (two 16-byte
 * memcpy calls, next to nothing in C).
 */
static int reject_playout(uint8_t *state, rng_t *rng, int rules) {
  uint8_t scratch[STATE_SIZE];
  int plies = 0;
  for (;;) {
    if (has_winning_store(state)) return plies;
    int candidates = occupied_mask(state);
    for (;;) {
      if (candidates == 0) return plies;
      int action = nth_action(candidates, rng_int(rng, popcount6(candidates)));
      memcpy(scratch, state, STATE_SIZE);
      if (play(scratch, action, rules) == OK) {
        memcpy(state, scratch, STATE_SIZE);
        break;
      }
      candidates &= ~(1 << action);
    }
    plies++;
  }
}

/* core.expand: all six children of a position, their statuses, the legal mask. */
static int expand(const uint8_t *s, int rules, uint8_t *children, uint8_t *status) {
  if (has_winning_store(s)) {
    memset(status, GAME_OVER, ACTIONS);
    return 0;
  }
  int mask = 0;
  int base = s[TO_MOVE] * 6;
  for (int a = 0; a < ACTIONS; a++) {
    if (s[base + a] == 0) {
      status[a] = EMPTY_PIT;
      continue;
    }
    uint8_t *child = children + a * STATE_SIZE;
    memcpy(child, s, STATE_SIZE);
    int st = play(child, a, rules);
    status[a] = (uint8_t)st;
    if (st == OK) mask |= 1 << a;
  }
  return mask;
}

/* bench/engine.bench.ts expandPlayout: expand every ply, continue from a random child. */
static int expand_playout(uint8_t *state, rng_t *rng, int rules) {
  uint8_t children[ACTIONS * STATE_SIZE];
  uint8_t status[ACTIONS];
  int plies = 0;
  for (;;) {
    int mask = expand(state, rules, children, status);
    if (mask == 0) return plies;
    int action = nth_action(mask, rng_int(rng, popcount6(mask)));
    memcpy(state, children + action * STATE_SIZE, STATE_SIZE);
    plies++;
  }
}

typedef int (*playout_fn)(uint8_t *, rng_t *, int);

#ifdef __wasm__
/*
 * The WebAssembly build's entry points: the same loops, driven from
 * JavaScript, which does the timing and reads the results from these globals.
 */
static rng_t wasm_rng;
static double wasm_plies;
static uint32_t wasm_checksum;

/* Seeds the generator (as Random.fromSeed) and zeroes the counters. */
__attribute__((export_name("start"))) void wasm_start(uint32_t seed) {
  init_nth();
  wasm_rng = rng_from_seed(seed);
  wasm_plies = 0;
  wasm_checksum = 0;
}

/* Plays `games` games of a loop (0 reject, 1 expand) from the start, counting plies and folding scores. */
__attribute__((export_name("play"))) void wasm_play(int loop, int games, int rules) {
  playout_fn play = loop == 1 ? expand_playout : reject_playout;
  uint8_t state[STATE_SIZE];
  int scores[2];
  for (int g = 0; g < games; g++) {
    set_initial(state);
    wasm_plies += play(state, &wasm_rng, rules);
    final_scores(state, rules, scores);
    wasm_checksum = wasm_checksum * 31u + (uint32_t)(scores[0] * 64 + scores[1]);
  }
}

/*
 * One expand called from JavaScript, as a search built on a wasm core would
 * call it every ply: the position at buffer() + 0, its six children written at
 * buffer() + 16 .. 111, their statuses at buffer() + 112 .. 117.
 */
static uint8_t wasm_buffer[STATE_SIZE + ACTIONS * STATE_SIZE + ACTIONS];
__attribute__((export_name("buffer"))) uint8_t *wasm_buffer_at(void) { return wasm_buffer; }
__attribute__((export_name("expand"))) int wasm_expand(int rules) {
  return expand(wasm_buffer, rules, wasm_buffer + STATE_SIZE, wasm_buffer + STATE_SIZE * (ACTIONS + 1));
}

__attribute__((export_name("plies"))) double wasm_plies_played(void) { return wasm_plies; }
__attribute__((export_name("checksum"))) uint32_t wasm_checksum_now(void) { return wasm_checksum; }
#else

int main(int argc, char **argv) {
  init_nth();
  if (argc == 4 && strcmp(argv[1], "verify") == 0) {
    long games = atol(argv[2]);
    int rules = atoi(argv[3]);
    const char *names[2] = {"reject", "expand"};
    playout_fn loops[2] = {reject_playout, expand_playout};
    for (int l = 0; l < 2; l++) {
      rng_t rng = rng_from_seed(1);
      uint8_t state[STATE_SIZE];
      long plies = 0;
      uint32_t checksum = 0;
      int scores[2];
      for (long g = 0; g < games; g++) {
        set_initial(state);
        plies += loops[l](state, &rng, rules);
        final_scores(state, rules, scores);
        checksum = checksum * 31u + (uint32_t)(scores[0] * 64 + scores[1]);
      }
      printf("{\"loop\":\"%s\",\"games\":%ld,\"plies\":%ld,\"checksum\":%u}\n", names[l], games,
             plies, checksum);
    }
    return 0;
  }
  if (argc == 4 && strcmp(argv[1], "time") == 0) {
    playout_fn loop = strcmp(argv[2], "expand") == 0 ? expand_playout : reject_playout;
    double seconds = atof(argv[3]);
    rng_t rng = rng_from_seed(1);
    uint8_t state[STATE_SIZE];
    long games = 0, plies = 0;
    int scores[2];
    uint32_t sink = 0;
    double start = clock_ms(CLOCK_MONOTONIC), cpu_start = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
    double elapsed = 0;
    while (elapsed < seconds * 1000) {
      for (int i = 0; i < 1000; i++) {
        set_initial(state);
        plies += loop(state, &rng, 0);
        final_scores(state, 0, scores);
        sink += (uint32_t)scores[0];
        games++;
      }
      elapsed = clock_ms(CLOCK_MONOTONIC) - start;
    }
    double cpu = clock_ms(CLOCK_PROCESS_CPUTIME_ID) - cpu_start;
    printf("{\"games\":%ld,\"plies\":%ld,\"elapsedMs\":%.3f,\"cpuMs\":%.3f,\"sink\":%u}\n", games,
           plies, elapsed, cpu, sink);
    return 0;
  }
  fprintf(stderr, "usage: playouts verify GAMES RULES | playouts time reject|expand SECONDS\n");
  return 2;
}
#endif
