/*
 * The depth-4 minimax value of an opening for the player to move, as
 * agents/minimax-search.ts's MinimaxSearch computes it (`search(state,
 * { depth: 4 })`'s value): the store difference at the horizon, a finished
 * game's margin beyond +-100 000 less the plies to it. eval/openings.ts's
 * isBalancedState asks it of every opening it rates (balanced within 4 seeds).
 * Alpha-beta's root value is the minimax value whatever the move order, so
 * no ordering is copied.
 */
#ifndef AYOAYO_OPENING_VALUE_H
#define AYOAYO_OPENING_VALUE_H
#include "encoder.h"

enum { MINIMAX_WIN = 100000, MINIMAX_INFINITY = 1000000 };

/* minimax-search.ts #finished: a finished game's value at `ply` for the player to move. */
static int finished_value(board_t s, int ply, int to_owner) {
  int margin = final_difference(s, s[14], to_owner);
  if (margin > 0) return MINIMAX_WIN - ply + margin;
  if (margin < 0) return -MINIMAX_WIN + ply + margin;
  return 0;
}

/* minimax-search.ts #leaf: a horizon node's value (a game with no move left is finished). */
static int horizon_value(board_t s, int ply, int css, int to_owner) {
  if (has_winning_store(s)) return finished_value(s, ply, to_owner);
  int mover = s[14], own = mover * 6, opp = 6 - own;
  int own_seeds = 0, opp_seeds = 0;
  for (int i = 0; i < 6; i++) {
    own_seeds += s[own + i];
    opp_seeds += s[opp + i];
  }
  if (own_seeds == 0) return finished_value(s, ply, to_owner);
  if (opp_seeds == 0 && !has_legal_move(s, css)) return finished_value(s, ply, to_owner);
  return s[12 + mover] - s[13 - mover];
}

static int negamax(board_t s, int ply, int depth, int alpha, int beta, int css, int to_owner) {
  if (depth == 0) return horizon_value(s, ply, css, to_owner);
  board_t children[ACTIONS];
  int mask = 0;
  if (!has_winning_store(s))
    for (int a = 0; a < ACTIONS; a++)
      if (play(s, a, css, &children[a], 0) == OK) mask |= 1 << a;
  if (mask == 0) return finished_value(s, ply, to_owner);
  int best = -MINIMAX_INFINITY;
  for (int a = 0; a < ACTIONS; a++) {
    if (!(mask & (1 << a))) continue;
    int value = -negamax(children[a], ply + 1, depth - 1, -beta, -alpha, css, to_owner);
    if (value > best) {
      best = value;
      if (value > alpha) {
        alpha = value;
        if (value >= beta) break;
      }
    }
  }
  return best;
}

#endif
