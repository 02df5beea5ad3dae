import { MinimaxAgent } from '../agents/minimax.ts';
import {
  applyAction,
  DEFAULT_RULES,
  legalActions,
  outcome,
  type Position,
  Random,
  type Rules,
} from '../env/index.ts';
import { DEFAULT_OPENING_PLIES, openingFor } from '../eval/openings.ts';
import { Solver, type StateSolution } from '../solve/index.ts';
import type { Emit } from './types.ts';

/** Games and budget; override with SOLVE_BENCH_GAMES / SOLVE_BENCH_MS / SOLVE_BENCH_SEED. */
const GAMES = Number(process.env.SOLVE_BENCH_GAMES ?? 12);
const BUDGET_MS = Number(process.env.SOLVE_BENCH_MS ?? 10_000);
const SEED = Number(process.env.SOLVE_BENCH_SEED ?? 2200);
const TABLE_BITS = Number(process.env.SOLVE_BENCH_TABLE_BITS ?? 22);
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

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}

/**
 * Solve times of positions from real games (docs/solver.md, "Speed"): every
 * position from ply 6 on, each solved from an empty table (cold, as a single
 * `ayoayo solve` would) with every move's value, within the budget; by ply
 * bucket, the median and 90th percentile of the time (a position not solved
 * in the budget counts as the budget), how many were solved, and nodes/s.
 */
export async function run(emit: Emit): Promise<void> {
  const rules = DEFAULT_RULES;
  const positions = gamePositions(SEED, GAMES, FIRST_PLY, rules);
  const solver = new Solver({ rules, tableBits: TABLE_BITS });
  const results: { ply: number; result: StateSolution }[] = [];
  for (const [i, { ply, position }] of positions.entries()) {
    solver.clear();
    const result = solver.solveState(position.toState(), { timeMs: BUDGET_MS });
    results.push({ ply, result });
    if (process.stderr.isTTY === true) {
      process.stderr.write(`\rsolve bench: ${i + 1}/${positions.length} positions\x1b[K`);
    }
  }
  if (process.stderr.isTTY === true) process.stderr.write('\r\x1b[K');

  const common = { games: GAMES, seed: SEED, budgetMs: BUDGET_MS, tableBits: TABLE_BITS };
  for (const [bucket, from, to] of BUCKETS) {
    const inBucket = results.filter((r) => r.ply >= from && r.ply <= to);
    const times = inBucket.map((r) => (r.result.complete ? r.result.elapsedMs : BUDGET_MS));
    times.sort((x, y) => x - y);
    emit({
      name: 'solve-time-by-ply',
      plies: bucket,
      ...common,
      positions: inBucket.length,
      solved: inBucket.filter((r) => r.result.complete).length,
      medianMs: Math.round(quantile(times, 0.5)),
      p90Ms: Math.round(quantile(times, 0.9)),
      maxMs: Math.round(times.at(-1) ?? Number.NaN),
    });
  }
  const fromPly8 = results.filter((r) => r.ply >= 8);
  const nodes = results.reduce((n, r) => n + r.result.nodes, 0);
  const ms = results.reduce((t, r) => t + r.result.elapsedMs, 0);
  emit({
    name: 'solve-summary',
    ...common,
    positions: results.length,
    fromPly8: fromPly8.length,
    unsolvedFromPly8: fromPly8.filter((r) => !r.result.complete).length,
    maxMsFromPly8: Math.round(Math.max(...fromPly8.map((r) => r.result.elapsedMs))),
    nodesPerSec: Math.round(nodes / (ms / 1000)),
    totalSeconds: Math.round(ms / 1000),
  });
}
