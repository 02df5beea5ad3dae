/*
 * The self-play search core: the searches of SearchSelfPlay's games, run in
 * WebAssembly one simulation a game at a time, float for float the searches
 * agents/puct/ runs in TypeScript (search.ts stepped one leaf at a time with
 * `rememberEvaluations` and prior weight 1, a Gumbel root chooser
 * (gumbel.ts) or PUCT with root noise at the root), so that a run's games are
 * the same whichever plays them. What it does not do stays in TypeScript,
 * where the same code serves the TypeScript searches: the network, the
 * draws of the random generator (Gumbel noise, Dirichlet root noise), the
 * logs of the root's priors, and each move's result and target. The softmax
 * of the network's logits is models/softmax.ts's, with V8's Math.exp
 * (js-exp.h). search-core.ts gives JavaScript its arrays, and expert
 * iteration's self-play drives it (train/expert-iteration/core-searches.ts);
 * docs/engine-speed.md says what it costs.
 *
 * Doubles are computed in the order TypeScript computes them (no fused
 * multiply-adds: built with -ffp-contract=off), and Math.min and Math.max are
 * reproduced with their signed zeros. One instance holds the searches of one
 * SearchSelfPlay: `init` lays out every array once, and the memory never grows
 * afterwards, so that JavaScript's views of it stay valid.
 */
#include "encoder.h"
#include "js-exp.h"
#include "opening-value.h"

enum { SEED_STAYS = 1, LEFTOVER_TO_OWNER = 2 };

/* A search tree (agents/puct/tree.ts), its arrays one after the other. */
typedef struct {
  uint8_t *states;
  int32_t *parent;
  int8_t *action;
  float *prior;
  int32_t *visits;
  double *value_sum;
  int32_t *first_child;
  uint8_t *child_count;
  uint8_t *solved;
  double *exact;
  int32_t size;
} tree_t;

/* A tree's evaluations (agents/puct/evaluation-memory.ts). */
typedef struct {
  float *priors;
  double *values;
  int32_t *recall;
} evals_t;

/* Where each array starts, for JavaScript's views (search-core.ts's LAYOUT names them in this order). */
enum {
  L_OBSERVATIONS,
  L_ROOT_STATES,
  L_SEARCHING,
  L_CURRENT,
  L_ROOT,
  L_DONE,
  L_EVALUATIONS,
  L_ROOT_RAW,
  L_READY,
  L_GUMBEL,
  L_LOGITS,
  L_PRIORS,
  L_MAX_LOGIT,
  L_SEQUENCES,
  L_LEAF_MASK,
  L_LEAF_PRIORS,
  L_LEAF_VALUES,
  L_STEP_GAME,
  L_STEP_ROW,
  L_TREES,
  L_LAPS,
  L_STEP_ENCODED,
  L_FINISHED,
  L_NET_LOGITS,
  L_NET_VALUES,
  L_COUNT
};
/* A tree's fields in the L_TREES table, ten pointers a tree, two trees a game. */
enum { TREE_FIELDS = 10 };

static int32_t layout[L_COUNT];

static int games, simulations, capacity, obs_size, css, to_owner, thermometer, gumbel;
static double exploration, value_scale;

static tree_t *trees;
static evals_t *evals;
static float *observations;
static uint8_t *root_states, *searching, *ready, *leaf_mask;
/* Per game, whether its search has run its simulations (search_done), kept up to date for JavaScript. */
static uint8_t *finished;
static int32_t *current, *root, *done, *evaluations, *root_ready, *choices;
static int32_t *leaf_node, *leaf_from, *sequences, *step_game, *step_row;
static double *root_raw, *gumbel_noise, *logits, *priors, *max_logit, *leaf_values;
static float *leaf_priors;
/* The network's outputs for the step's rows (6 logits and a value a row): it writes them here. */
static float *net_logits, *net_values;
static board_t *leaf_children;
/* The positions the last select_all encoded, in order (for benchmarks: what the encoder did). */
static board_t *step_encoded;
static int32_t step_rows, step_encodes;

extern unsigned char __heap_base;
static uintptr_t heap_top;

/* `bytes` of zeroed memory, 16-byte aligned, or 0 when the memory cannot grow. */
static void *take(uintptr_t bytes) {
  if (heap_top == 0) heap_top = (uintptr_t)&__heap_base;
  uintptr_t at = (heap_top + 15) & ~(uintptr_t)15;
  heap_top = at + bytes;
  uintptr_t have = __builtin_wasm_memory_size(0) * 65536;
  if (heap_top > have) {
    uintptr_t pages = (heap_top - have + 65535) / 65536;
    if (__builtin_wasm_memory_grow(0, pages) == (uintptr_t)-1) return 0;
  }
  return (void *)at;
}

/* Math.max and Math.min of two numbers that are not NaN: +0 is above -0. */
static inline double js_max(double a, double b) {
  if (a > b) return a;
  if (b > a) return b;
  return __builtin_signbit(a) ? b : a;
}
static inline double js_min(double a, double b) {
  if (a < b) return a;
  if (b < a) return b;
  return __builtin_signbit(a) ? a : b;
}

static inline tree_t *tree_of(int g) { return &trees[2 * g + current[g]]; }
static inline tree_t *previous_of(int g) { return &trees[2 * g + 1 - current[g]]; }
static inline evals_t *now_of(int g) { return &evals[2 * g + current[g]]; }
static inline evals_t *before_of(int g) { return &evals[2 * g + 1 - current[g]]; }

static inline board_t state_of(tree_t *t, int node) {
  board_t s;
  __builtin_memcpy(&s, t->states + node * STATE_SIZE, STATE_SIZE);
  return s;
}

static int add_node(tree_t *t, int parent, int action, float prior) {
  int node = t->size++;
  t->parent[node] = parent;
  t->action[node] = (int8_t)action;
  t->prior[node] = prior;
  t->first_child[node] = -1;
  t->visits[node] = 0;
  t->value_sum[node] = 0;
  t->child_count[node] = 0;
  t->solved[node] = 0;
  t->exact[node] = 0;
  return node;
}

static inline int is_expanded(tree_t *t, int node) { return t->first_child[node] >= 0 && t->solved[node] == 0; }

static inline double mean_value(tree_t *t, int c) {
  if (t->solved[c]) return t->exact[c];
  int n = t->visits[c];
  return n > 0 ? t->value_sum[c] / n : 0;
}

static inline int holds(tree_t *t, int node, board_t s) { return same(state_of(t, node), s); }

/* tree.ts findNear: the expanded child or grandchild of `r` holding `s`, or -1. */
static int find_near(tree_t *t, int r, board_t s) {
  if (!is_expanded(t, r)) return -1;
  int first = t->first_child[r], end = first + t->child_count[r];
  for (int c = first; c < end; c++) {
    if (holds(t, c, s)) return is_expanded(t, c) ? c : -1;
    if (!is_expanded(t, c)) continue;
    int g0 = t->first_child[c], g1 = g0 + t->child_count[c];
    for (int k = g0; k < g1; k++)
      if (holds(t, k, s)) return is_expanded(t, k) ? k : -1;
  }
  return -1;
}

/* simulation.ts selectChild. */
static int select_child(tree_t *t, int node) {
  int parent_visits = t->visits[node];
  double parent_q = -t->value_sum[node] / parent_visits;
  double scale = exploration * __builtin_sqrt((double)parent_visits);
  int first = t->first_child[node], end = first + t->child_count[node];
  int best = first;
  double best_score = -__builtin_inf();
  for (int c = first; c < end; c++) {
    int n = t->visits[c];
    double q = t->solved[c] ? t->exact[c] : n == 0 ? parent_q : t->value_sum[c] / n;
    double score = q + (scale * (double)t->prior[c]) / (double)(1 + n);
    if (score > best_score) {
      best_score = score;
      best = c;
    }
  }
  return best;
}

static int try_solve(tree_t *t, int node) {
  int first = t->first_child[node], end = first + t->child_count[node];
  double best = -__builtin_inf();
  int all_solved = 1;
  for (int c = first; c < end; c++) {
    if (!t->solved[c]) {
      all_solved = 0;
      continue;
    }
    if (t->exact[c] > best) best = t->exact[c];
  }
  if (best != 1 && !all_solved) return 0;
  t->solved[node] = 1;
  t->exact[node] = -best;
  return 1;
}

/* simulation.ts backUp. */
static void back_up(tree_t *t, int leaf, double leaf_value) {
  double value = leaf_value;
  int solving = t->solved[leaf] == 1;
  for (int node = leaf; node >= 0; node = t->parent[node]) {
    t->visits[node] += 1;
    t->value_sum[node] += value;
    value = -value;
    int up = t->parent[node];
    if (solving && up >= 0 && t->solved[up] == 0) solving = try_solve(t, up);
    else solving = 0;
  }
}

/* search-targets.ts mixedValue, with the root's softmax priors. */
static double mixed_value(int g, int legal, const double *visits, const double *q) {
  const double *p = priors + g * ACTIONS;
  double total = 0, visited_prior = 0, weighted = 0;
  for (int a = 0; a < ACTIONS; a++) {
    if (!(legal & (1 << a))) continue;
    double n = visits[a];
    total += n;
    if (n > 0) {
      double pa = js_max(p[a], 4.9406564584124654e-324);
      visited_prior += pa;
      weighted += pa * q[a];
    }
  }
  if (total == 0) return root_raw[g];
  return (root_raw[g] + (total * weighted) / visited_prior) / (total + 1);
}

/* search-targets.ts transformedCompletedQ with its defaults but c_scale (rescaled, c_visit 50). */
static void transformed_completed_q(int g, int legal, const double *visits, const double *q, double *out) {
  double fill = mixed_value(g, legal, visits, q);
  for (int a = 0; a < ACTIONS; a++) out[a] = !(legal & (1 << a)) ? 0 : visits[a] > 0 ? q[a] : fill;
  double min = __builtin_inf(), max = -__builtin_inf(), max_visits = 0;
  for (int a = 0; a < ACTIONS; a++) {
    if (!(legal & (1 << a))) continue;
    min = js_min(min, out[a]);
    max = js_max(max, out[a]);
    max_visits = js_max(max_visits, visits[a]);
  }
  double scale = (50 + max_visits) * value_scale;
  double range = js_max(max - min, 1e-8);
  for (int a = 0; a < ACTIONS; a++) {
    if (!(legal & (1 << a))) continue;
    double value = (out[a] - min) / range;
    out[a] = scale * value;
  }
}

/* gumbel.ts bestConsidered: the best-scored legal action visited `considered` times, or -1. */
static int best_considered(int g, int legal, const double *visits, const double *q, double considered) {
  double sigma[ACTIONS];
  transformed_completed_q(g, legal, visits, q, sigma);
  const double *noise = gumbel_noise + g * ACTIONS, *l = logits + g * ACTIONS;
  int best = -1;
  double best_score = -__builtin_inf();
  for (int a = 0; a < ACTIONS; a++) {
    if (!(legal & (1 << a)) || visits[a] != considered) continue;
    double score = js_max(-1e9, noise[a] + l[a] - max_logit[g] + sigma[a]);
    if (score > best_score) {
      best_score = score;
      best = a;
    }
  }
  return best;
}

/* The root's child that Gumbel's Sequential Halving simulates next (root-chooser.ts, gumbel.ts). */
static int choose(int g, tree_t *t, int r) {
  int first = t->first_child[r], end = first + t->child_count[r];
  int legal = 0;
  double visits[ACTIONS] = {0}, q[ACTIONS] = {0};
  for (int c = first; c < end; c++) {
    int a = t->action[c];
    legal |= 1 << a;
    visits[a] = t->visits[c];
    q[a] = mean_value(t, c);
  }
  int simulation = choices[g]++;
  int considered = __builtin_popcount((unsigned)legal);
  /* Past the schedule's end no count qualifies (TypeScript reads undefined there). */
  double wanted = simulation < simulations ? sequences[(considered - 1) * simulations + simulation] : -1;
  int best = best_considered(g, legal, visits, q, wanted);
  if (best < 0) {
    double least = __builtin_inf();
    for (int a = 0; a < ACTIONS; a++)
      if (legal & (1 << a)) least = js_min(least, visits[a]);
    best = best_considered(g, legal, visits, q, least);
  }
  for (int c = first; c < end; c++)
    if (t->action[c] == best) return c;
  return -1;
}

/* The previous search's node at `node`'s position if it was evaluated there, else -1. */
static int recalled(int g, int node) {
  int from = now_of(g)->recall[node];
  return from >= 0 && previous_of(g)->first_child[from] >= 0 ? from : -1;
}

/* evaluation-memory.ts restore: the previous search's priors of `from` into the leaf's; its value. */
static double restore(int g, int from) {
  evals_t *before = before_of(g);
  for (int a = 0; a < ACTIONS; a++) leaf_priors[g * ACTIONS + a] = before->priors[from * ACTIONS + a];
  return before->values[from];
}

/* leaf-batch.ts recall: the leaf takes what the previous search knew of its node `from`. */
static void recall_leaf(int g, int from) {
  tree_t *p = previous_of(g);
  int first = p->first_child[from], end = first + p->child_count[from];
  int mask = 0;
  for (int c = first; c < end; c++) {
    mask |= 1 << p->action[c];
    leaf_children[g * ACTIONS + p->action[c]] = state_of(p, c);
  }
  leaf_mask[g] = (uint8_t)mask;
  leaf_values[g] = restore(g, from);
}

/* leaf-batch.ts play, the encoder playing the leaf's moves: its observation into row `row`. */
static void play_leaf(int g, tree_t *t, int node, int row) {
  board_t s = state_of(t, node);
  step_encoded[step_encodes++] = s;
  int mask = encode(s, observations + row * obs_size, leaf_children + g * ACTIONS, css, to_owner, thermometer);
  if (mask == 0) {
    int margin = final_difference(s, 1 - s[14], to_owner);
    t->solved[node] = 1;
    t->exact[node] = margin > 0 ? 1 : margin < 0 ? -1 : 0;
    return;
  }
  leaf_mask[g] = (uint8_t)mask;
}

/* search.ts #readyRoot, once the root is expanded; JavaScript then adds root noise or Gumbel's logits. */
static int ready_root(int g) {
  if (root_ready[g] || done[g] == 0) return 0;
  if (tree_of(g)->child_count[root[g]] == 0) return -1;
  root_ready[g] = 1;
  ready[g] = 1;
  return 0;
}

static int search_done(int g) {
  tree_t *t = tree_of(g);
  if (t->solved[root[g]]) return done[g] > 0;
  return done[g] >= simulations + 1;
}

/* One simulation of game g: 1 when its leaf waits for the network, 0 when it ended at once, -1 on error. */
static int select_one(int g, int row) {
  tree_t *t = tree_of(g);
  int r = root[g];
  int waiting = 0;
  if (!t->solved[r]) {
    int node = r;
    while (is_expanded(t, node)) {
      /* Gumbel's chooser takes the root's actions once the root is expanded (ready). */
      node = node == r && gumbel && root_ready[g] ? choose(g, t, r) : select_child(t, node);
      if (node < 0) return -1;
    }
    if (!t->solved[node]) {
      int from = recalled(g, node);
      leaf_from[g] = from;
      if (from >= 0) recall_leaf(g, from);
      else play_leaf(g, t, node, row);
    }
    if (t->solved[node]) {
      back_up(t, node, t->exact[node]);
      done[g] += 1;
    } else {
      leaf_node[g] = node;
      waiting = 1;
    }
  }
  if (!waiting && ready_root(g) < 0) return -1;
  return waiting;
}

/* search.ts completeLeaves for game g's leaf, its priors and value in place (or recalled). */
static int complete(int g) {
  tree_t *t = tree_of(g);
  int node = leaf_node[g], from = leaf_from[g];
  evaluations[g] += 1;
  if (from >= 0) leaf_values[g] = restore(g, from);
  double value = leaf_values[g];
  if (node == root[g]) root_raw[g] = value;
  int mask = leaf_mask[g];
  int count = __builtin_popcount((unsigned)mask);
  int first = t->size;
  const float *p = leaf_priors + g * ACTIONS;
  for (int a = 0; a < ACTIONS; a++) {
    if (!(mask & (1 << a))) continue;
    /* Prior weight 1: search.ts's mix of the network's prior and a uniform one is the prior itself. */
    int child = add_node(t, node, a, p[a]);
    __builtin_memcpy(t->states + child * STATE_SIZE, &leaf_children[g * ACTIONS + a], STATE_SIZE);
  }
  t->first_child[node] = first;
  t->child_count[node] = (uint8_t)count;
  /* evaluation-memory.ts expanded */
  evals_t *now = now_of(g);
  for (int a = 0; a < ACTIONS; a++) now->priors[node * ACTIONS + a] = p[a];
  now->values[node] = value;
  int before = from >= 0 ? previous_of(g)->first_child[from] : -1;
  for (int k = 0; k < count; k++) now->recall[first + k] = before >= 0 ? before + k : -1;
  back_up(t, node, -value);
  done[g] += 1;
  finished[g] = (uint8_t)search_done(g);
  return ready_root(g);
}

__attribute__((export_name("layout"))) int32_t *wasm_layout(void) { return layout; }

/*
 * Lays out the searches of `count` games of `sims` simulations after the root's
 * expansion; the observation is the thermometer board's when `thermo`, under
 * the rule code `rules`; `exploration_c` is PUCT's c, `c_scale` the
 * completed-Q scale, `gumbel_root` whether Gumbel's Sequential Halving picks
 * the root's actions. Returns 0, or -1 when the memory cannot grow.
 */
__attribute__((export_name("init"))) int wasm_init(int count, int sims, int thermo, int rules,
                                                   double exploration_c, double c_scale,
                                                   int gumbel_root) {
  init_tables();
  games = count;
  simulations = sims;
  thermometer = thermo;
  obs_size = thermo ? THERMOMETER_OBS : OBS;
  css = rules & SEED_STAYS;
  to_owner = (rules & LEFTOVER_TO_OWNER) != 0;
  exploration = exploration_c;
  value_scale = c_scale;
  gumbel = gumbel_root;
  /* Each simulation expands at most one leaf's six children. */
  capacity = 1 + ACTIONS * (sims + 1);
  uintptr_t n = (uintptr_t)count, cap = (uintptr_t)capacity;
  trees = take(2 * n * sizeof(tree_t));
  evals = take(2 * n * sizeof(evals_t));
  int32_t *tree_table = take(2 * n * TREE_FIELDS * 4);
  if (trees == 0 || evals == 0 || tree_table == 0) return -1;
  for (uintptr_t k = 0; k < 2 * n; k++) {
    tree_t *t = &trees[k];
    t->states = take(cap * STATE_SIZE);
    t->parent = take(cap * 4);
    t->action = take(cap);
    t->prior = take(cap * 4);
    t->visits = take(cap * 4);
    t->value_sum = take(cap * 8);
    t->first_child = take(cap * 4);
    t->child_count = take(cap);
    t->solved = take(cap);
    t->exact = take(cap * 8);
    t->size = 0;
    evals[k].priors = take(cap * ACTIONS * 4);
    evals[k].values = take(cap * 8);
    evals[k].recall = take(cap * 4);
    if (evals[k].recall == 0) return -1;
    void *fields[TREE_FIELDS] = {t->states,      t->parent,      t->action, t->prior, t->visits,
                                 t->value_sum,   t->first_child, t->child_count, t->solved, t->exact};
    for (int f = 0; f < TREE_FIELDS; f++) tree_table[k * TREE_FIELDS + f] = (int32_t)(uintptr_t)fields[f];
  }
  observations = take(n * obs_size * 4);
  root_states = take(n * STATE_SIZE);
  searching = take(n);
  finished = take(n);
  ready = take(n);
  leaf_mask = take(n);
  current = take(n * 4);
  root = take(n * 4);
  done = take(n * 4);
  evaluations = take(n * 4);
  root_ready = take(n * 4);
  choices = take(n * 4);
  leaf_node = take(n * 4);
  leaf_from = take(n * 4);
  sequences = take(ACTIONS * (uintptr_t)sims * 4);
  step_game = take(n * 4);
  step_row = take(n * 4);
  root_raw = take(n * 8);
  gumbel_noise = take(n * ACTIONS * 8);
  logits = take(n * ACTIONS * 8);
  priors = take(n * ACTIONS * 8);
  max_logit = take(n * 8);
  leaf_values = take(n * 8);
  leaf_priors = take(n * ACTIONS * 4);
  leaf_children = take(n * ACTIONS * STATE_SIZE);
  step_encoded = take(n * STATE_SIZE);
  net_logits = take(n * ACTIONS * 4);
  net_values = take(n * 4);
  if (net_values == 0) return -1;
  void *arrays[L_COUNT] = {observations, root_states, searching, current,  root,
                           done,         evaluations, root_raw,  ready,    gumbel_noise,
                           logits,       priors,      max_logit, sequences, leaf_mask,
                           leaf_priors,  leaf_values, step_game, step_row, tree_table,
                           LAPS_F,       step_encoded, finished,  net_logits, net_values};
  for (int k = 0; k < L_COUNT; k++) layout[k] = (int32_t)(uintptr_t)arrays[k];
  return 0;
}

/* Forgets game g's trees (a new game). */
__attribute__((export_name("reset"))) void wasm_reset(int g) {
  tree_of(g)->size = 0;
  previous_of(g)->size = 0;
}

/* search.ts begin: a search of game g's root state, the last search's tree kept for its evaluations. */
__attribute__((export_name("begin"))) void wasm_begin(int g) {
  int last = root[g]; /* the last search's root, in what becomes the previous tree */
  current[g] = 1 - current[g];
  tree_t *t = tree_of(g);
  t->size = 0;
  int r = add_node(t, -1, -1, 0);
  root[g] = r;
  __builtin_memcpy(t->states + r * STATE_SIZE, root_states + g * STATE_SIZE, STATE_SIZE);
  board_t s = state_of(t, r);
  tree_t *p = previous_of(g);
  int from = -1;
  if (p->size > 0 && last >= 0) from = holds(p, last, s) ? last : find_near(p, last, s);
  now_of(g)->recall[r] = from;
  choices[g] = 0;
  done[g] = 0;
  evaluations[g] = 0;
  root_ready[g] = 0;
  searching[g] = 1;
  finished[g] = 0;
}

/*
 * One simulation for each searching game whose search is not done, in the
 * games' order: the leaves that wait for the network in the step's table
 * (game, row; row -1 for a leaf recalled from the last search), their
 * observations in rows 0, 1, ... Returns the leaves, or -1 when a search went
 * wrong (a finished game searched).
 */
__attribute__((export_name("select_all"))) int wasm_select_all(void) {
  int rows = 0, leaves = 0;
  step_encodes = 0;
  for (int g = 0; g < games; g++) {
    if (!searching[g] || finished[g]) continue;
    int waiting = select_one(g, rows);
    if (waiting < 0) return -1;
    if (waiting == 0) {
      finished[g] = (uint8_t)search_done(g);
      continue;
    }
    step_game[leaves] = g;
    step_row[leaves++] = leaf_from[g] >= 0 ? -1 : rows++;
  }
  step_rows = rows;
  return leaves;
}

/* The rows the last select_all wrote. */
__attribute__((export_name("step_rows"))) int wasm_step_rows(void) { return step_rows; }

/* The positions the last select_all encoded (its rows, and the finished games it found). */
__attribute__((export_name("step_encodes"))) int wasm_step_encodes(void) { return step_encodes; }

/*
 * models/softmax.ts softmaxInto: the softmax of the 6 logits at `logits` over
 * the actions of `mask` into `out` (floats), the sum taken before `out`
 * rounds, with JavaScript's Math.exp.
 */
static void softmax_into(const float *logits, int mask, float *out) {
  double max = -__builtin_inf();
  for (int a = 0; a < ACTIONS; a++) {
    double logit = logits[a];
    if ((mask & (1 << a)) && logit > max) max = logit;
  }
  double sum = 0;
  for (int a = 0; a < ACTIONS; a++) {
    double p = mask & (1 << a) ? js_exp((double)logits[a] - max) : 0;
    out[a] = (float)p;
    sum += p;
  }
  if (sum > 0)
    for (int a = 0; a < ACTIONS; a++) out[a] = (float)((double)out[a] / sum);
}

/*
 * Expands and backs up the `leaves` leaves of the last select_all: the
 * network's leaves with the softmax of their logits and their values (its
 * outputs for their rows), the recalled ones with their own; `ready[g]` is
 * set for each game whose root this expanded. 0, or -1 on error.
 */
__attribute__((export_name("complete_all"))) int wasm_complete_all(int leaves) {
  for (int i = 0; i < leaves; i++) {
    int r = step_row[i], g = step_game[i];
    if (r < 0) continue;
    softmax_into(net_logits + r * ACTIONS, leaf_mask[g], leaf_priors + g * ACTIONS);
    leaf_values[g] = net_values[r];
  }
  for (int i = 0; i < leaves; i++)
    if (complete(step_game[i]) < 0) return -1;
  return 0;
}

/* JavaScript's Math.exp (js-exp.h), for the test that checks it against V8's. */
__attribute__((export_name("js_exp"))) double wasm_js_exp(double x) { return js_exp(x); }

/* A position for opening_value, written by JavaScript. */
static uint8_t opening[STATE_SIZE];

__attribute__((export_name("opening_at"))) uint8_t *wasm_opening_at(void) { return opening; }

/* The engine's tables, for an instance that only rates openings (init makes them too). */
__attribute__((export_name("init_engine"))) void wasm_init_engine(void) { init_tables(); }

/* opening-value.h: the depth-`depth` minimax value of `opening` for its player to move, under rule code `rules`. */
__attribute__((export_name("opening_value"))) int wasm_opening_value(int depth, int rules) {
  board_t s;
  __builtin_memcpy(&s, opening, STATE_SIZE);
  return negamax(s, 0, depth, -MINIMAX_INFINITY, MINIMAX_INFINITY, rules & SEED_STAYS,
                 (rules & LEFTOVER_TO_OWNER) != 0);
}
