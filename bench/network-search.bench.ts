import { MinimaxAgent } from '../agents/minimax.ts';
import type { PuctResult } from '../agents/puct.ts';
import { createAgent } from '../agents/spec.ts';
import { DEFAULT_RULES, legalActions, Random } from '../env/index.ts';
import { loadBackend } from '../models/backend.ts';
import { loadPolicy } from '../models/load-policy.ts';
import { MlpRunner } from '../models/mlp-runner.ts';
import { TfjsForward } from '../models/tfjs-forward.ts';
import { bestOf, midgames } from './agents.bench.ts';
import type { Emit } from './types.ts';

const POLICY = 'models/pretrained';

/**
 * Search with the shipped network: the forward pass per position (plain runner
 * vs tfjs at several batch sizes), PUCT simulations per second with single
 * leaves and with batches, and alpha-beta nodes per second with the value at
 * the horizon.
 */
export async function run(emit: Emit): Promise<void> {
  const rules = DEFAULT_RULES;
  const positions = midgames(20);
  const weights = loadPolicy(POLICY).weights;

  // The forward pass alone, per position.
  const runner = new MlpRunner(weights);
  const tfjsForward = new TfjsForward((await loadBackend('auto')).tf, weights);
  const tfjs = tfjsForward.forward.bind(tfjsForward);
  for (const batch of [1, 16, 64]) {
    const obs = new Float32Array(batch * weights.inputSize).map((_, i) => (i % 7) / 10);
    const logits = new Float32Array(batch * 6);
    const values = new Float32Array(batch);
    const reps = Math.ceil(2000 / batch);
    for (const [name, forward] of [
      ['plain', (): void => runner.forward(obs, batch, logits, values)],
      ['tfjs', (): void => tfjs(obs, batch, logits, values)],
    ] as const) {
      forward();
      const ms = bestOf(3, () => {
        for (let r = 0; r < reps; r++) forward();
      });
      emit({
        name: 'network-forward',
        runner: name,
        batch,
        usPerPosition: Number(((ms * 1000) / (reps * batch)).toFixed(1)),
      });
    }
  }

  // PUCT with the network: 800 simulations a move, no cache (every leaf evaluated).
  for (const batch of [1, 16]) {
    const agent = await createAgent(`az:${POLICY},sims=800,cache=0,batch=${batch}`, { rules });
    let simulations = 0;
    const all = async (): Promise<number> => {
      simulations = 0;
      const start = performance.now();
      for (const pos of positions) {
        await agent.act(pos, { legal: legalActions(pos, rules), rng: Random.fromSeed(1), rules });
        simulations += (agent as { lastSearch?: PuctResult }).lastSearch?.simulations ?? 0;
      }
      return performance.now() - start;
    };
    await all();
    let ms = Number.POSITIVE_INFINITY;
    for (let r = 0; r < 2; r++) ms = Math.min(ms, await all());
    emit({
      name: 'az-simulations-per-sec',
      batch,
      simulationsPerMove: 800,
      msPerMove: Number((ms / positions.length).toFixed(1)),
      simulationsPerSec: Math.round(simulations / (ms / 1000)),
    });
  }

  // Alpha-beta with store difference + 16 x value at the horizon, depth 6.
  const net = await createAgent(`minimax:6,eval=${POLICY}`, { rules });
  const plain = new MinimaxAgent({ rules, depth: 6 });
  for (const [label, agent] of [
    ['network', net],
    ['store-difference', plain],
  ] as const) {
    let nodes = 0;
    const start = performance.now();
    for (const pos of positions) {
      await agent.act(pos, { legal: legalActions(pos, rules), rng: Random.fromSeed(1), rules });
      nodes += (agent as { lastSearch?: { nodes: number } }).lastSearch?.nodes ?? 0;
    }
    const ms = performance.now() - start;
    emit({
      name: 'minimax-leaf-nodes-per-sec',
      leaf: label,
      depth: 6,
      nodesPerSearch: Math.round(nodes / positions.length),
      nodesPerSec: Math.round(nodes / (ms / 1000)),
    });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await run((m) => console.log(JSON.stringify(m)));
}
