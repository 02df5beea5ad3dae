import { StoreDifferenceEvaluator } from '../agents/evaluator.ts';
import { MctsAgent } from '../agents/mcts.ts';
import { MinimaxSearch } from '../agents/minimax-search.ts';
import { PuctSearch } from '../agents/puct/search.ts';
import {
  applyAction,
  core,
  DEFAULT_RULES,
  initialPosition,
  legalActions,
  outcome,
  type Position,
  Random,
} from '../env/index.ts';
import type { Emit } from './types.ts';

/** The engine functions `midgames` plays with: this tree's, or an earlier commit's in bench/against.ts. */
export type MidgameEngine = Pick<
  typeof import('../env/index.ts'),
  'applyAction' | 'initialPosition' | 'legalActions' | 'outcome' | 'Random'
>;

/** Midgame positions from seeded random play (5..20 plies in), for search speed. */
export function midgames(
  count: number,
  env: MidgameEngine = { applyAction, initialPosition, legalActions, outcome, Random },
): Position[] {
  const rng = env.Random.fromSeed(12);
  const out: Position[] = [];
  while (out.length < count) {
    let pos = env.initialPosition();
    const plies = 5 + rng.int(16);
    for (let i = 0; i < plies && env.outcome(pos) === null; i++)
      pos = env.applyAction(pos, rng.pick(env.legalActions(pos)));
    if (env.outcome(pos) === null) out.push(pos);
  }
  return out;
}

/** Best of `runs` timings of `fn` in ms (the machine is shared: the minimum is the least disturbed). */
export function bestOf(runs: number, fn: () => void): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

export async function run(emit: Emit): Promise<void> {
  const rules = DEFAULT_RULES;
  const positions = midgames(40);

  // Nodes per second over many searches, with and without the transposition table.
  for (const ttBits of [18, 0]) {
    const search = new MinimaxSearch({ rules, ttBits });
    const sweep = (depth: number): number => {
      let nodes = 0;
      for (const pos of positions) {
        search.clear();
        nodes += search.search(pos.toState(), { depth }).nodes;
      }
      return nodes;
    };
    sweep(10); // warm-up for the JIT
    let nodes = 0;
    const ms = bestOf(3, () => {
      nodes = sweep(12);
    });
    emit({
      name: 'minimax-nodes-per-sec',
      ttBits,
      depth: 12,
      positions: positions.length,
      nodesPerSearch: Math.round(nodes / positions.length),
      msPerSearch: Number((ms / positions.length).toFixed(2)),
      nodesPerSec: Math.round(nodes / (ms / 1000)),
    });
  }

  // The start position to fixed depths, from a fresh table each time.
  const start = core.setInitial(new Uint8Array(core.STATE_SIZE));
  const search = new MinimaxSearch({ rules });
  for (const depth of [4, 6, 8, 10, 12, 14]) {
    let nodes = 0;
    const ms = bestOf(5, () => {
      search.clear();
      nodes = search.search(start, { depth }).nodes;
    });
    emit({ name: 'minimax-start', depth, nodes, ms: Number(ms.toFixed(2)) });
  }

  // How deep minimax:t=200ms gets from midgame positions.
  const depths: number[] = [];
  for (const pos of positions.slice(0, 10)) {
    search.clear();
    depths.push(search.search(pos.toState(), { timeMs: 200 }).depth);
  }
  // A search also stops early once the result is proven (a won or lost endgame).
  depths.sort((x, y) => x - y);
  emit({ name: 'minimax-200ms-depth', medianDepth: depths[depths.length >> 1], depths });

  // MCTS iterations per second (each iteration: selection, one expansion, a random playout).
  const mcts = new MctsAgent({ iterations: 1000, rules });
  const rng = Random.fromSeed(3);
  const actAll = (): void => {
    for (const pos of positions) mcts.act(pos, { legal: legalActions(pos, rules), rng, rules });
  };
  actAll();
  const ms = bestOf(3, actAll);
  emit({
    name: 'mcts-iterations-per-sec',
    iterationsPerMove: 1000,
    msPerMove: Number((ms / positions.length).toFixed(2)),
    iterationsPerSec: Math.round((1000 * positions.length) / (ms / 1000)),
  });

  puctSimulations(emit, positions);
}

/** PUCT's own speed: uniform priors and the store difference as the value, 800 simulations a move. */
export function puctSimulations(emit: Emit, positions: readonly Position[]): void {
  for (const batchSize of [1, 16]) {
    const search = new PuctSearch(new StoreDifferenceEvaluator(), {
      rules: DEFAULT_RULES,
      batchSize,
    });
    let simulations = 0;
    const all = (): void => {
      simulations = 0;
      for (const pos of positions) {
        simulations += search.search(pos.toState(), { simulations: 800 }).simulations;
      }
    };
    all();
    const ms = bestOf(3, all);
    emit({
      name: 'puct-simulations-per-sec',
      evaluator: 'store-difference',
      batchSize,
      simulationsPerMove: 800,
      msPerMove: Number((ms / positions.length).toFixed(2)),
      simulationsPerSec: Math.round(simulations / (ms / 1000)),
    });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await run((m) => console.log(JSON.stringify(m)));
}
