import { MinimaxAgent } from '../agents/minimax.ts';
import { gamesProgressBar } from '../display/progress.ts';
import {
  applyAction,
  core,
  DEFAULT_RULES,
  everyRules,
  formatPosition,
  initialPosition,
  legalActions,
  outcome,
  type Player,
  type Position,
  parseRulesText,
  positionFromState,
  Random,
  type Rules,
  ruleCode,
  sameRules,
} from '../env/index.ts';
import { DEFAULT_OPENING_PLIES, openingFor } from '../eval/openings.ts';
import { loadEndgame } from '../solve/endgame/cache/table-cache.ts';
import { boardsOf, unrankBoard } from '../solve/endgame/rank.ts';
import {
  buildEndgame,
  type EndgameValues,
  gameValue,
  Solver,
  type StateSolution,
  valueWord,
} from '../solve/index.ts';
import { checkWinningStrategy } from './solve-strategy.ts';
import type { Emit } from './types.ts';

const { legalMask } = core;

// Override with SOLVE_BENCH_GAMES, _MS (budget per position), _SEED, _TABLE_BITS,
// _ENDGAME (seeds of the endgame table, 0: none) and _PARTS (times,endgame,build;
// moonshot only when asked, with its own budget _MOONSHOT_MS per position;
// endless only when asked, every position of up to _ENDLESS_SEEDS seeds;
// _EFFECT_GAMES: the games whose positions the endgame part solves; book only
// when asked, every position of up to _BOOK_PLIES plies).
const GAMES = Number(process.env.SOLVE_BENCH_GAMES ?? 12);
/** _RULES: rule options in the form `--rules` takes (docs/rules.md); the defaults otherwise. */
const RULES =
  process.env.SOLVE_BENCH_RULES !== undefined
    ? parseRulesText(process.env.SOLVE_BENCH_RULES)
    : DEFAULT_RULES;
const BUDGET_MS = Number(process.env.SOLVE_BENCH_MS ?? 10_000);
const SEED = Number(process.env.SOLVE_BENCH_SEED ?? 2200);
const TABLE_BITS = Number(process.env.SOLVE_BENCH_TABLE_BITS ?? 20);
const ENDGAME = Number(process.env.SOLVE_BENCH_ENDGAME ?? 16);
const PARTS = (process.env.SOLVE_BENCH_PARTS ?? 'times,endgame,build').split(',');
/** What the endgame table buys: these tables, on the positions of the first games from these plies. */
const EFFECT_TABLES = [0, 12, 14, 16];
const EFFECT_GAMES = Number(process.env.SOLVE_BENCH_EFFECT_GAMES ?? 3);
const EFFECT_PLIES: readonly [number, number] = [8, 17];
const MOONSHOT_MS = Number(process.env.SOLVE_BENCH_MOONSHOT_MS ?? 600_000);
const ENDLESS_SEEDS = Number(process.env.SOLVE_BENCH_ENDLESS_SEEDS ?? 5);
/** Larger endgame tables (only when asked): built, then solving the positions of plies 7-12. */
const LARGER_TABLES = (process.env.SOLVE_BENCH_LARGER_TABLES ?? '16,18,20').split(',').map(Number);
/** The opening book (only when asked): every position of up to _BOOK_PLIES plies from the start. */
const BOOK_PLIES = Number(process.env.SOLVE_BENCH_BOOK_PLIES ?? 3);
/** How many positions of each ply the moonshot tries: the start, and seeded openings of 2 and 4 plies. */
const MOONSHOT: readonly [number, number][] = [
  [4, 4],
  [2, 2],
  [0, 1],
];
const FIRST_PLY = 6;
/** Plies of the game (from the start, the opening's included) by bucket. */
const BUCKETS: readonly [string, number, number][] = [
  ['6-11', 6, 11],
  ['12-17', 12, 17],
  ['18-23', 18, 23],
  ['24+', 24, Number.POSITIVE_INFINITY],
];

/** A position of a game and the ply it was reached at. */
export interface GamePosition {
  readonly game: number;
  readonly ply: number;
  readonly position: Position;
}

/**
 * Positions of games between strong agents: `minimax:8` playing itself from
 * the tournaments' seeded balanced openings (4 random plies), every position
 * from `firstPly` to the end. Deterministic: the agent's ties are broken by
 * a generator seeded per game.
 */
export function gamePositions(
  seed: number,
  games: number,
  firstPly: number,
  rules: Rules,
): GamePosition[] {
  const out: GamePosition[] = [];
  for (let game = 0; game < games; game++) {
    const agent = new MinimaxAgent({ rules, depth: 8 });
    const rng = Random.fromSeed(`${seed}|solve-bench|${game}`);
    let position = openingFor(seed, game, DEFAULT_OPENING_PLIES, rules).position;
    for (let ply = DEFAULT_OPENING_PLIES; outcome(position, rules) === null; ply++) {
      if (ply >= firstPly) out.push({ game, ply, position });
      const legal = legalActions(position, rules);
      position = applyAction(position, agent.act(position, { legal, rng, rules }), rules);
    }
  }
  return out;
}

/** `count` positions of each of `plies`, by random play from the start (seeded; games that end early are skipped). */
function openingPositions(
  seed: number,
  plies: readonly number[],
  count: number,
  rules: Rules,
): GamePosition[] {
  const rng = Random.fromSeed(`${seed}|opening-positions`);
  const out: GamePosition[] = [];
  for (const ply of plies) {
    for (let made = 0; made < count; ) {
      let position = initialPosition();
      for (let i = 0; i < ply && outcome(position, rules) === null; i++) {
        position = applyAction(position, rng.pick(legalActions(position, rules)), rules);
      }
      if (outcome(position, rules) !== null) continue;
      out.push({ game: made, ply, position });
      made++;
    }
  }
  return out;
}

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}

/** Solves each position from an empty table (cold, as one `ayoayo solve` would), every move's value. */
function solveCold(
  positions: readonly GamePosition[],
  endgame: EndgameValues | undefined,
  label: string,
  everyMove = false,
): { ply: number; result: StateSolution; cpuMs: number }[] {
  const solver = new Solver({
    rules: RULES,
    tableBits: TABLE_BITS,
    ...(endgame !== undefined ? { endgame } : {}),
  });
  const bar = gamesProgressBar({ label, unit: 'positions' });
  const results = positions.map(({ ply, position }, i) => {
    solver.clear();
    const cpu = process.cpuUsage();
    const result = solver.solveState(position.toState(), {
      timeMs: BUDGET_MS,
      ...(everyMove ? { moves: true } : {}),
    });
    const used = process.cpuUsage(cpu);
    bar.update(i + 1, positions.length);
    return { ply, result, cpuMs: (used.user + used.system) / 1000 };
  });
  bar.stop();
  return results;
}

/** A solve's values, the position's and every action's, as one string to compare. */
function solutionKey(r: StateSolution): string {
  return `${r.lo},${r.hi}|${[...r.moveLo].join(',')}|${[...r.moveHi].join(',')}`;
}

/** The median, 90th percentile and largest of some milliseconds, rounded. */
function spread(ms: number[]): { medianMs: number; p90Ms: number; maxMs: number } {
  const sorted = [...ms].sort((x, y) => x - y);
  return {
    medianMs: Math.round(quantile(sorted, 0.5)),
    p90Ms: Math.round(quantile(sorted, 0.9)),
    maxMs: Math.round(sorted.at(-1) ?? Number.NaN),
  };
}

/** Milliseconds to solve, the budget for a position not solved in it. */
function wallTimes(results: readonly { result: StateSolution }[]): number[] {
  return results.map((r) => (r.result.complete ? r.result.elapsedMs : BUDGET_MS));
}

function endgameTable(seeds: number): EndgameValues | undefined {
  if (seeds === 0) return undefined;
  const bar = gamesProgressBar({ label: `endgame table, ${seeds} seeds`, unit: 'boards' });
  try {
    return loadEndgame(seeds, RULES, {
      onProgress: (done, total) => bar.update(done, total),
    });
  } finally {
    bar.stop();
  }
}

/** Each first move's value, and its win (for whichever side) played out against every reply. */
function firstMoves(solver: Solver, start: Position, endgame: EndgameValues | undefined) {
  return legalActions(start, RULES).map((action) => {
    const child = applyAction(start, action, RULES);
    solver.clear();
    const r = solver.solveState(child.toState(), { timeMs: MOONSHOT_MS, moves: false });
    // The child's value is for the side to move there; the first mover's is its negation.
    const value = gameValue(-r.hi, -r.lo);
    const winner =
      r.lo === r.hi && r.lo !== 0 ? ((r.lo === 1 ? child.toMove : start.toMove) as Player) : null;
    const check = winner === null ? null : checkWinningStrategy(child, winner, RULES, endgame);
    return {
      action,
      value,
      ...(check !== null ? { winner, verified: check.verified, positions: check.positions } : {}),
    };
  });
}

/**
 * The solver on positions from real games (docs/solver.md, "Speed").
 *
 * - times: every position from ply 6 on, solved cold within the budget, with
 *   the endgame table: by ply bucket, how many were solved and the median, 90th
 *   percentile and largest time, on the clock (a position not solved counts as
 *   the budget) and in CPU time of this process (the machine is shared: the
 *   clock also counts the time other processes had the cores); nodes per second.
 * - endgame: what the table buys, the same solves with tables of 0 (none) to 16
 *   seeds on the positions of the first games from ply 8 to 17, and whether
 *   each table's values (position and every action) agree with the search
 *   without one wherever both are exact.
 * - build: how long the tables take to build (the cache is not used).
 * - larger (only when asked): the tables of SOLVE_BENCH_LARGER_TABLES seeds
 *   (16,18,20) built from scratch, their size, time and peak memory, and the
 *   nodes and time each saves on positions of plies 7-12, every move's value.
 * - book (only when asked): every position of the first plies, its value for
 *   the first player (a perfect opening book).
 * - moonshot (only when asked): the value alone of the start and of seeded
 *   openings of 2 and 4 plies, each with a long budget and a 512 MB table; a
 *   win of the start is then played out against every reply
 *   (checkWinningStrategy) to check it without the solver's word for it, and
 *   so is the win (for either side) after each first move.
 */
export async function run(emit: Emit): Promise<void> {
  const rules = RULES;
  const positions = gamePositions(SEED, GAMES, FIRST_PLY, rules);
  const common = { games: GAMES, seed: SEED, budgetMs: BUDGET_MS, tableBits: TABLE_BITS };

  if (PARTS.includes('times')) {
    const results = solveCold(positions, endgameTable(ENDGAME), 'solve');
    for (const [bucket, from, to] of BUCKETS) {
      const inBucket = results.filter((r) => r.ply >= from && r.ply <= to);
      emit({
        name: 'solve-time-by-ply',
        plies: bucket,
        ...common,
        endgameSeeds: ENDGAME,
        positions: inBucket.length,
        solved: inBucket.filter((r) => r.result.complete).length,
        wall: spread(wallTimes(inBucket)),
        cpu: spread(inBucket.map((r) => r.cpuMs)),
      });
    }
    const fromPly8 = results.filter((r) => r.ply >= 8);
    const nodes = results.reduce((n, r) => n + r.result.nodes, 0);
    const ms = results.reduce((t, r) => t + r.result.elapsedMs, 0);
    emit({
      name: 'solve-summary',
      ...common,
      endgameSeeds: ENDGAME,
      positions: results.length,
      fromPly8: fromPly8.length,
      unsolvedFromPly8: fromPly8.filter((r) => !r.result.complete).length,
      // The aim (docs/solver.md): solved within 10 s on one core, in CPU time
      // (on a shared machine the clock also counts other processes' turns).
      solvedIn10sCpuFromPly8: fromPly8.filter((r) => r.result.complete && r.cpuMs <= 10_000).length,
      maxWallMsFromPly8: Math.round(Math.max(...fromPly8.map((r) => r.result.elapsedMs))),
      maxCpuMsFromPly8: Math.round(Math.max(...fromPly8.map((r) => r.cpuMs))),
      nodesPerWallSec: Math.round(nodes / (ms / 1000)),
      nodesPerCpuSec: Math.round(nodes / (results.reduce((t, r) => t + r.cpuMs, 0) / 1000)),
      totalSeconds: Math.round(ms / 1000),
    });
  }

  if (PARTS.includes('endgame')) {
    const subset = positions.filter(
      (p) => p.game < EFFECT_GAMES && p.ply >= EFFECT_PLIES[0] && p.ply <= EFFECT_PLIES[1],
    );
    // A second method on real positions: the table's values (fixed-point
    // iteration) against the search without it, wherever both are exact.
    let reference: readonly { result: StateSolution }[] | null = null;
    for (const seeds of EFFECT_TABLES) {
      const results = solveCold(subset, endgameTable(seeds), `endgame ${seeds}`);
      reference ??= results;
      const compared = results.filter(
        (r, i) => r.result.complete && reference?.[i]?.result.complete,
      );
      const disagree = results.filter((r, i) => {
        const other = reference?.[i]?.result;
        return (
          r.result.complete &&
          other?.complete === true &&
          solutionKey(r.result) !== solutionKey(other)
        );
      });
      emit({
        name: 'solve-endgame-effect',
        ...common,
        games: EFFECT_GAMES,
        plies: `${EFFECT_PLIES[0]}-${EFFECT_PLIES[1]}`,
        endgameSeeds: seeds,
        positions: results.length,
        solved: results.filter((r) => r.result.complete).length,
        wall: spread(wallTimes(results)),
        cpu: spread(results.map((r) => r.cpuMs)),
        cpuSeconds: Math.round(results.reduce((t, r) => t + r.cpuMs, 0) / 1000),
        nodes: results.reduce((n, r) => n + r.result.nodes, 0),
        comparedWithNoTable: seeds === 0 ? 0 : compared.length,
        disagreeWithNoTable: disagree.length,
      });
    }
  }

  if (PARTS.includes('build')) {
    for (const seeds of [10, 12, 14, 16]) {
      const started = performance.now();
      const cpu = process.cpuUsage();
      const table = buildEndgame(seeds, rules);
      const used = process.cpuUsage(cpu);
      emit({
        name: 'endgame-build',
        endgameSeeds: seeds,
        boards: table.lo.length,
        seconds: Number(((performance.now() - started) / 1000).toFixed(1)),
        cpuSeconds: Number(((used.user + used.system) / 1e6).toFixed(1)),
        megabytes: Number(((2 * table.lo.length) / 1e6).toFixed(1)),
      });
    }
  }

  if (PARTS.includes('larger')) {
    // What a table larger than the default costs and buys: each built from
    // scratch (its peak memory is the process's), then the same seeded
    // positions of plies 7-12 (15 a ply, random play from the start: the
    // perfect agent's positions past the opening book) solved cold with every
    // move's value.
    const early = openingPositions(SEED, [7, 8, 9, 10, 11, 12], 15, rules);
    for (const seeds of LARGER_TABLES) {
      const started = performance.now();
      const cpu = process.cpuUsage();
      const table = buildEndgame(seeds, rules);
      const used = process.cpuUsage(cpu);
      const solved = solveCold(early, table, `${seeds} seeds`, true);
      emit({
        name: 'endgame-larger',
        endgameSeeds: seeds,
        boards: table.lo.length,
        megabytes: Number(((2 * table.lo.length) / 1e6).toFixed(1)),
        buildSeconds: Number(((performance.now() - started) / 1000).toFixed(1)),
        buildCpuSeconds: Number(((used.user + used.system) / 1e6).toFixed(1)),
        peakRssMegabytes: Math.round(process.resourceUsage().maxRSS / 1024),
        positions: early.length,
        solved: solved.filter((r) => r.result.complete).length,
        nodes: solved.reduce((n, r) => n + r.result.nodes, 0),
        cpu: spread(solved.map((r) => r.cpuMs)),
        cpuSeconds: Number((solved.reduce((t, r) => t + r.cpuMs, 0) / 1000).toFixed(1)),
      });
    }
  }

  if (PARTS.includes('endless')) {
    // Where endless play decides: every position with few seeds on the board
    // (every board, every split of the stores, either player to move) whose
    // value the deepest search leaves open although no budget stopped it.
    for (const variant of [rules, ...everyRules().filter((other) => !sameRules(other, rules))]) {
      const solver = new Solver({ rules: variant });
      const code = ruleCode(variant);
      for (let seeds = 1; seeds <= ENDLESS_SEEDS; seeds++) {
        const state = new Uint8Array(16);
        let positions = 0;
        let open = 0;
        let example: string | null = null;
        for (let rank = 0; rank < boardsOf(seeds); rank++) {
          for (let store0 = 24 - seeds; store0 <= 24; store0++) {
            for (const toMove of [0, 1]) {
              unrankBoard(rank, seeds, state);
              state[12] = store0;
              state[13] = 48 - seeds - store0;
              state[14] = toMove;
              if (legalMask(state, code) === 0) continue;
              positions++;
              const result = solver.solveState(state);
              if (result.lo !== result.hi && !result.budgetSpent) {
                open++;
                example ??= formatPosition(positionFromState(state));
              }
            }
          }
        }
        emit({
          name: 'solve-endless',
          rules: variant,
          seeds,
          positions,
          decidedByEndlessPlay: open,
          example,
        });
      }
    }
  }

  if (PARTS.includes('book')) {
    // A perfect opening book: every position reached in the first plies
    // (transpositions once), its value for the first player.
    const endgame = endgameTable(ENDGAME);
    const solver = new Solver({ rules, tableBits: 22, ...(endgame ? { endgame } : {}) });
    let layer = new Map([[formatPosition(initialPosition()), initialPosition()]]);
    for (let ply = 1; ply <= BOOK_PLIES; ply++) {
      const next = new Map<string, Position>();
      for (const pos of layer.values()) {
        if (outcome(pos, rules) !== null) continue;
        for (const a of legalActions(pos, rules)) {
          const child = applyAction(pos, a, rules);
          next.set(formatPosition(child), child);
        }
      }
      layer = next;
      const counts = { win: 0, draw: 0, loss: 0, unknown: 0 };
      let cpuMs = 0;
      let maxCpuMs = 0;
      for (const pos of layer.values()) {
        const cpu = process.cpuUsage();
        const r = solver.solveState(pos.toState(), { timeMs: BUDGET_MS, moves: false });
        const used = process.cpuUsage(cpu);
        const ms = (used.user + used.system) / 1000;
        cpuMs += ms;
        maxCpuMs = Math.max(maxCpuMs, ms);
        // For the first player (player 0), whoever is to move here.
        const value = pos.toMove === 0 ? gameValue(r.lo, r.hi) : gameValue(-r.hi, -r.lo);
        counts[value]++;
      }
      emit({
        name: 'solve-book',
        rules,
        ply,
        endgameSeeds: ENDGAME,
        budgetMs: BUDGET_MS,
        positions: layer.size,
        forFirstPlayer: counts,
        cpuSeconds: Number((cpuMs / 1000).toFixed(1)),
        maxCpuMs: Math.round(maxCpuMs),
      });
    }
  }

  if (PARTS.includes('moonshot')) {
    // How far toward the start: the position's value alone, with a long budget.
    const endgame = endgameTable(ENDGAME);
    const solver = new Solver({
      rules,
      tableBits: 24,
      ...(endgame !== undefined ? { endgame } : {}),
    });
    for (const [plies, count] of MOONSHOT) {
      for (let i = 0; i < count; i++) {
        const position = openingFor(SEED, i, plies, rules).position;
        solver.clear();
        const cpu = process.cpuUsage();
        const result = solver.solveState(position.toState(), {
          timeMs: MOONSHOT_MS,
          moves: false,
        });
        const used = process.cpuUsage(cpu);
        const won = result.lo === result.hi && result.lo !== 0;
        const check =
          won && plies === 0
            ? checkWinningStrategy(
                position,
                (result.lo === 1 ? position.toMove : 1 - position.toMove) as Player,
                rules,
                endgame,
              )
            : null;
        emit({
          name: 'solve-moonshot',
          rules,
          ply: plies,
          position: formatPosition(position),
          seed: SEED,
          endgameSeeds: ENDGAME,
          budgetSeconds: MOONSHOT_MS / 1000,
          value: gameValue(result.lo, result.hi),
          bounds: [valueWord(result.lo), valueWord(result.hi)],
          depth: result.depth,
          nodes: result.nodes,
          seconds: Number((result.elapsedMs / 1000).toFixed(1)),
          cpuSeconds: Number(((used.user + used.system) / 1e6).toFixed(1)),
          // The start's win played out against every reply (solve-strategy.ts).
          ...(check !== null ? { strategyCheck: check } : {}),
          ...(check !== null ? { firstMoves: firstMoves(solver, position, endgame) } : {}),
        });
      }
    }
  }
}
