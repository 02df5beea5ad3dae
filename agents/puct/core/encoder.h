/*
 * The engine and the observation encoder in C, for the self-play search core
 * (search-core.c) and the encoder bench's yardstick (bench/c/lookahead.c):
 * env/gym/observation.ts with lookahead, the board as counts (146 floats) or
 * as a thermometer (278), computed the same way and written bit for bit the
 * same (every action played, then every reply to each legal child, with the
 * "can the mover still move?" test after each reply). The board is one
 * 16-byte vector and a lap is one vector addition from a table, as the
 * TypeScript engine adds packed words.
 */
#ifndef AYOAYO_ENCODER_H
#define AYOAYO_ENCODER_H
#include <stdint.h>

enum { PITS = 12, STATE_SIZE = 16, ACTIONS = 6, WINNING = 25, SLOTS = 64 };
enum { OK = 0, GAME_OVER = 1, EMPTY_PIT = 2, ENDLESS_RELAY = 3, DOES_NOT_FEED = 4 };
/* 14 base features (146 with the thermometer board: 12 levels a pit), then 22
 * per action: legal, capture, laps, ends, result, opp_capture, opp_can_win,
 * value2, 12 pits after the move, the two stores. */
enum { LEVELS = 12, BLOCK = 22, OBS = 14 + ACTIONS * BLOCK, THERMOMETER_OBS = OBS + 12 * (LEVELS - 1) };
/* Laps whose feature the table holds; from here on the feature is 1. */
enum { LAPS_TABLE = 255 };

typedef uint8_t board_t __attribute__((vector_size(16), aligned(16)));
typedef uint64_t halves_t __attribute__((vector_size(16), aligned(16)));

/* LAP[pit * 64 + n]: what a lap of n seeds lifted from pit adds to each pit; LAP_END: where it ends. */
static board_t LAP[PITS * SLOTS];
static uint8_t LAP_END[PITS * SLOTS];
/* The feature tables of observation.ts: n / 12, (n - 48) / 24. */
static float PIT_F[49];
static float STORE_F[97];
/* THERMO_F[n]: a pit of n seeds as the thermometer's 12 levels (seeds >= 1 .. >= 12). */
static float THERMO_F[49][LEVELS];
/* The laps feature, min(1, log2(1 + n) / 8), filled by the caller (as JavaScript's Math.log2 rounds it). */
static float LAPS_F[LAPS_TABLE];

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

/* The final (player - other) difference of a finished game, as fast.ts finalDifference
 * and core.ts finalScores. */
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

/* Writes the observation of `s` into `obs` (the board as a thermometer when
 * `thermometer`) and each legal action's child into children[a]; returns the
 * legal mask (0 when the game is over). */
static int encode(board_t s, float *obs, board_t *children, int css, int to_owner, int thermometer) {
  int mover = s[14];
  int own = mover * 6, opp = 6 - own;
  int own_store = 12 + mover, opp_store = 13 - mover;
  int pits = thermometer ? 12 * LEVELS : 12;
  if (thermometer) write_thermometer_pits(obs, s, own, opp);
  else write_pits(obs, s, own, opp);
  obs[pits] = STORE_F[48 + s[own_store]];
  obs[pits + 1] = STORE_F[48 + s[opp_store]];
  int over = has_winning_store(s);
  int mask = 0;
  for (int a = 0; a < ACTIONS; a++) {
    float *f = obs + pits + 2 + a * BLOCK;
    uint32_t laps;
    if (over || play(s, a, css, &children[a], &laps) != OK) {
      for (int i = 0; i < BLOCK; i++) f[i] = 0;
      continue;
    }
    board_t child = children[a];
    mask |= 1 << a;
    int child_own = child[own_store], child_opp = child[opp_store];
    f[0] = 1;
    f[1] = STORE_F[48 + child_own - s[own_store]];
    f[2] = laps < LAPS_TABLE ? LAPS_F[laps] : 1;
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

#endif
