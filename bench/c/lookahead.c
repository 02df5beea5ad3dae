/*
 * The C comparison of the observation encoder (env/gym/observation.ts with
 * `{ encoding: 'counts', lookahead: true }`, 146 floats, or with the
 * thermometer board of the training presets, `{ encoding: 'thermometer',
 * lookahead: true }`, 278 floats): the same features,
 * computed the same way (every action played, then every reply to each legal
 * child, with the "can the mover still move?" test after each reply), written
 * as fast C rather than as a plain loop: the board is one 16-byte vector and a
 * lap is one vector addition from a table, as the TypeScript engine adds
 * packed words. It answers how far the encoder's speed is from what the
 * processor does with the same algorithm. bench/encoder.bench.ts builds it
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
#ifndef __wasm__
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#endif

enum { PITS = 12, STATE_SIZE = 16, ACTIONS = 6, WINNING = 25, SLOTS = 64 };
enum { OK = 0, GAME_OVER = 1, EMPTY_PIT = 2, ENDLESS_RELAY = 3, DOES_NOT_FEED = 4 };
/* 14 base features (146 with the thermometer board: 12 levels a pit), then 22
 * per action: legal, capture, laps, ends, result, opp_capture, opp_can_win,
 * value2, 12 pits after the move, the two stores. */
enum { LEVELS = 12, BLOCK = 22, OBS = 14 + ACTIONS * BLOCK, THERMOMETER_OBS = OBS + 12 * (LEVELS - 1) };

typedef uint8_t board_t __attribute__((vector_size(16), aligned(16)));
typedef uint64_t halves_t __attribute__((vector_size(16), aligned(16)));

/* LAP[pit * 64 + n]: what a lap of n seeds lifted from pit adds to each pit; LAP_END: where it ends. */
static board_t LAP[PITS * SLOTS];
static uint8_t LAP_END[PITS * SLOTS];
/* The feature tables of observation.ts: n / 12, (n - 48) / 24, min(1, log2(1 + n) / 8). */
static float PIT_F[49];
static float STORE_F[97];
/* THERMO_F[n]: a pit of n seeds as the thermometer's 12 levels (seeds >= 1 .. >= 12). */
static float THERMO_F[49][LEVELS];

/* What the caller shares with the encoder: in wasm, JavaScript reads and writes it in place. */
static struct {
  uint8_t state[STATE_SIZE];
  float laps_f[255]; /* the laps feature for 0..254 laps, filled by the caller */
  float obs[THERMOMETER_OBS];
} io;

static void init_tables(void) {
  for (int p = 0; p < PITS; p++) {
    for (int n = 1; n <= 48; n++) {
      board_t change = {0};
      int end = p;
      for (int k = 0; k < n; k++) {
        end = (end + 1) % PITS;
        if (end == p) end = (end + 1) % PITS;
        change[end] += 1;
      }
      change[p] -= (uint8_t)n;
      LAP[p * SLOTS + n] = change;
      LAP_END[p * SLOTS + n] = (uint8_t)end;
    }
  }
  for (int n = 0; n <= 48; n++) PIT_F[n] = (float)((double)n / 12);
  for (int i = 0; i < 97; i++) STORE_F[i] = (float)((double)(i - 48) / 24);
  for (int n = 0; n <= 48; n++)
    for (int b = 0; b < LEVELS; b++) THERMO_F[n][b] = n > b ? 1.0f : 0.0f;
}

static inline int same(board_t a, board_t b) {
  halves_t x = (halves_t)a ^ (halves_t)b;
  return (x[0] | x[1]) == 0;
}

static inline int row_is_empty(board_t b, int base) {
  return (b[base] | b[base + 1] | b[base + 2] | b[base + 3] | b[base + 4] | b[base + 5]) == 0;
}

static inline int has_winning_store(board_t b) { return b[12] >= WINNING || b[13] >= WINNING; }

/* Plays `action` for the mover of `b`: OK and the position in *out, or why it is illegal.
 * With `laps` given, the laps sown (1 + relays) go there. */
static inline int play(board_t b, int action, int css, board_t *out, uint32_t *laps) {
  int mover = b[14];
  int base = mover * 6;
  int pit = base + action;
  int seeds = b[pit];
  if (seeds == 0) return EMPTY_PIT;
  int opponent_was_empty = row_is_empty(b, 6 - base);
  /* Brent's cycle detection over lap starts, as the engine. */
  board_t w = b, saved = b;
  int saved_pit = pit;
  uint32_t power = 1, since_save = 0;
  int end;
  for (;;) {
    int lap = pit * SLOTS + seeds;
    w += LAP[lap];
    end = LAP_END[lap];
    seeds = w[end];
    if (seeds == 1) break;
    pit = end;
    if (pit == saved_pit && same(w, saved)) return ENDLESS_RELAY;
    if (++since_save == power) {
      saved = w;
      saved_pit = pit;
      power <<= 1;
      since_save = 0;
    }
  }
  int captured = 0;
  if (end >= base && end < base + 6) {
    int facing = 11 - end;
    int facing_seeds = w[facing];
    if (facing_seeds > 0) {
      w[facing] = 0;
      captured = facing_seeds;
      if (!css) {
        w[end] = 0;
        captured++;
      }
    }
  }
  if (opponent_was_empty && row_is_empty(w, 6 - base)) return DOES_NOT_FEED;
  w[12 + mover] += (uint8_t)captured;
  w[14] = (uint8_t)(1 - mover);
  *out = w;
  if (laps) *laps = power + since_save;
  return OK;
}

/* fast.ts hasLegalMove: a pit of 1..11 seeds whose lap ends in an empty pit proves a move
 * while the opponent's row holds seeds; otherwise the moves are tried. */
static inline int has_legal_move(board_t b, int css) {
  int base = b[14] * 6;
  if (!row_is_empty(b, 6 - base)) {
    for (int p = base; p < base + 6; p++) {
      int n = b[p];
      int last = p + n;
      if (n >= 1 && n < PITS && b[last >= PITS ? last - PITS : last] == 0) return 1;
    }
  }
  board_t ignored;
  for (int a = 0; a < ACTIONS; a++)
    if (b[base + a] != 0 && play(b, a, css, &ignored, 0) == OK) return 1;
  return 0;
}

/* The final (player - other) difference of a finished game, as fast.ts finalDifference. */
static inline int final_difference(board_t s, int player, int to_owner) {
  int s0 = s[12], s1 = s[13];
  if (s0 < WINNING && s1 < WINNING) {
    int row0 = 0, row1 = 0;
    for (int i = 0; i < 6; i++) {
      row0 += s[i];
      row1 += s[i + 6];
    }
    if (to_owner) {
      s0 += row0;
      s1 += row1;
    } else if (s[14] == 0) {
      s1 += row0 + row1;
    } else {
      s0 += row0 + row1;
    }
  }
  return player == 0 ? s0 - s1 : s1 - s0;
}

static inline void write_pits(float *out, board_t b, int own, int opp) {
  for (int k = 0; k < 6; k++) {
    out[k] = PIT_F[b[own + k]];
    out[6 + k] = PIT_F[b[opp + k]];
  }
}

static inline void write_thermometer_pits(float *out, board_t b, int own, int opp) {
  for (int k = 0; k < 6; k++) {
    __builtin_memcpy(out + k * LEVELS, THERMO_F[b[own + k]], sizeof THERMO_F[0]);
    __builtin_memcpy(out + (6 + k) * LEVELS, THERMO_F[b[opp + k]], sizeof THERMO_F[0]);
  }
}

/* Writes the observation of io.state into io.obs (the board as a thermometer
 * when `thermometer`); returns the legal mask. */
static int encode(int css, int to_owner, int thermometer) {
  board_t s;
  __builtin_memcpy(&s, io.state, STATE_SIZE);
  int mover = s[14];
  int own = mover * 6, opp = 6 - own;
  int own_store = 12 + mover, opp_store = 13 - mover;
  float *obs = io.obs;
  int pits = thermometer ? 12 * LEVELS : 12;
  if (thermometer) write_thermometer_pits(obs, s, own, opp);
  else write_pits(obs, s, own, opp);
  obs[pits] = STORE_F[48 + s[own_store]];
  obs[pits + 1] = STORE_F[48 + s[opp_store]];
  int over = has_winning_store(s);
  int mask = 0;
  for (int a = 0; a < ACTIONS; a++) {
    float *f = obs + pits + 2 + a * BLOCK;
    board_t child;
    uint32_t laps;
    if (over || play(s, a, css, &child, &laps) != OK) {
      for (int i = 0; i < BLOCK; i++) f[i] = 0;
      continue;
    }
    mask |= 1 << a;
    int child_own = child[own_store], child_opp = child[opp_store];
    f[0] = 1;
    f[1] = STORE_F[48 + child_own - s[own_store]];
    f[2] = laps < 255 ? io.laps_f[laps] : 1;
    write_pits(f + 8, child, own, opp);
    f[20] = STORE_F[48 + child_own];
    f[21] = STORE_F[48 + child_opp];
    int replies = 0, best_capture = 0, opp_can_win = 0, value2 = 48;
    if (!has_winning_store(child)) {
      for (int r = 0; r < ACTIONS; r++) {
        board_t reply;
        if (play(child, r, css, &reply, 0) != OK) continue;
        replies++;
        int gain = reply[opp_store] - child_opp;
        if (gain > best_capture) best_capture = gain;
        int diff;
        if (has_winning_store(reply) || !has_legal_move(reply, css)) {
          diff = final_difference(reply, mover, to_owner);
          if (diff < 0) opp_can_win = 1;
        } else {
          diff = reply[own_store] - reply[opp_store];
        }
        if (diff < value2) value2 = diff;
      }
    }
    if (replies == 0) {
      int diff = final_difference(child, mover, to_owner);
      f[3] = 1;
      f[4] = diff > 0 ? 1 : diff < 0 ? -1 : 0;
      f[5] = 0;
      f[6] = 0;
      f[7] = STORE_F[48 + diff];
    } else {
      f[3] = 0;
      f[4] = 0;
      f[5] = STORE_F[48 + best_capture];
      f[6] = (float)opp_can_win;
      f[7] = STORE_F[48 + value2];
    }
  }
  return mask;
}

#ifdef __wasm__
/* The WebAssembly build's entry points: JavaScript writes io.state and io.laps_f
 * in the module's memory and reads io.obs after each encode. */
__attribute__((export_name("init"))) void wasm_init(void) { init_tables(); }
__attribute__((export_name("state_at"))) uint8_t *wasm_state_at(void) { return io.state; }
__attribute__((export_name("laps_at"))) float *wasm_laps_at(void) { return io.laps_f; }
__attribute__((export_name("obs_at"))) float *wasm_obs_at(void) { return io.obs; }
__attribute__((export_name("encode"))) int wasm_encode(int rules) {
  return encode(rules & SEED_STAYS, (rules & LEFTOVER_TO_OWNER) != 0, 0);
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
    io.laps_f[n] = (float)(f < 1 ? f : 1);
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
      checksum = checksum * 31u + (uint32_t)encode(css, to_owner, thermometer);
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
        sink += (uint32_t)encode(0, 0, thermometer);
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
