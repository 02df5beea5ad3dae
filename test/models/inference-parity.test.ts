import { beforeAll, describe, expect, it } from 'vitest';
import { NetworkEvaluator } from '../../agents/network/network-evaluator.ts';
import { PuctSearch } from '../../agents/puct/search.ts';
import { midgames } from '../../bench/agents.bench.ts';
import { DEFAULT_RULES, Random } from '../../env/index.ts';
import { loadBackend, type Tf } from '../../models/backend.ts';
import { OnnxForward } from '../../models/inference/onnx-forward.ts';
import { loadOnnxRuntime, type OnnxRuntime } from '../../models/inference/onnx-runtime.ts';
import { loadPolicy } from '../../models/load-policy.ts';
import {
  type ForwardPass,
  type MlpWeights,
  maskedSoftmax,
  NUM_ACTIONS,
  plainForward,
} from '../../models/mlp-runner.ts';
import {
  createPolicyValueModel,
  extractMlpWeights,
  type NetworkConfig,
} from '../../models/policy-value-model.ts';
import { TfjsForward } from '../../models/tfjs-forward.ts';
import { PositionLog } from '../../train/expert-iteration/position-log.ts';
import { SearchSelfPlay } from '../../train/expert-iteration/search-self-play.ts';
import { TrainingOpenings } from '../../train/expert-iteration/training-openings.ts';
import { randomGamePositions } from '../export/positions.ts';
import { selfPlayOptions } from '../train/self-play-options.ts';

/**
 * Every inference backend computes the same network: the plain runner,
 * tfjs and onnxruntime-node agree on policies and values within float
 * rounding, and searches on them pick the same moves.
 */

const TOLERANCE = 1e-5;
const observation = { encoding: 'counts', lookahead: true, lookaheadEncoding: 'counts' } as const;
const rules = DEFAULT_RULES;

let tf: Tf;
let runtime: OnnxRuntime | null;
beforeAll(async () => {
  tf = (await loadBackend('auto')).tf;
  runtime = (await loadOnnxRuntime()).runtime;
});

/** A seeded network with biases and weights moved off their initial values (biases start at 0). */
function network(config: NetworkConfig, seed: number): MlpWeights {
  const model = createPolicyValueModel(tf, 146, config, seed);
  const rng = Random.fromSeed(seed);
  const weights = extractMlpWeights(model, config);
  model.dispose();
  for (const layer of [...weights.hidden, weights.policy, weights.value]) {
    for (const a of [layer.kernel, layer.bias]) {
      for (let i = 0; i < a.length; i++) a[i] = (a[i] as number) + (rng.next() - 0.5) * 0.1;
    }
  }
  return weights;
}

interface Backend {
  readonly name: string;
  readonly forward: ForwardPass;
  readonly dispose: () => void;
}

function backends(weights: MlpWeights): Backend[] {
  const tfjs = new TfjsForward(tf, weights);
  const list: Backend[] = [
    { name: 'plain', forward: plainForward(weights), dispose: () => {} },
    { name: 'tfjs', forward: tfjs.forward.bind(tfjs), dispose: () => tfjs.dispose() },
  ];
  if (runtime !== null) {
    const onnx = new OnnxForward(runtime, weights);
    list.push({ name: 'onnx', forward: onnx.forward.bind(onnx), dispose: () => onnx.dispose() });
  }
  return list;
}

describe('inference backends', () => {
  it.skipIf(process.env.CI !== 'true')('onnxruntime-node loads in CI', async () => {
    expect((await loadOnnxRuntime()).reason).toBeNull();
  });

  it.each([
    [{ hidden: [16], activation: 'relu' }, 1],
    [{ hidden: [64, 32], activation: 'tanh' }, 2],
    [{ hidden: [128, 128], activation: 'relu' }, 3],
    [{ hidden: [256, 256, 256], activation: 'relu' }, 4],
  ] as [NetworkConfig, number][])(
    'agree on policies and values within 1e-5, at every batch size (%o)',
    (config, seed) => {
      const weights = network(config, seed);
      const positions = randomGamePositions(300, observation, rules, seed);
      const n = positions.count;
      const all = backends(weights);
      expect(all.length).toBe(runtime === null ? 2 : 3);
      const outputs = all.map(({ forward }) => {
        const logits = new Float32Array(n * NUM_ACTIONS);
        const values = new Float32Array(n);
        // Uneven batches, each through views of the whole arrays, as the searches call it.
        for (let start = 0, size = 1; start < n; start += size, size = (size * 3) % 67) {
          const rows = Math.min(size, n - start);
          const part = {
            logits: new Float32Array(rows * NUM_ACTIONS),
            values: new Float32Array(rows),
          };
          forward(
            positions.observations.subarray(start * positions.size),
            rows,
            part.logits,
            part.values,
          );
          logits.set(part.logits, start * NUM_ACTIONS);
          values.set(part.values, start);
        }
        const probabilities = new Float32Array(n * NUM_ACTIONS);
        for (let r = 0; r < n; r++) {
          const at = r * NUM_ACTIONS;
          maskedSoftmax(logits, at, positions.masks, at, probabilities, at);
        }
        return { probabilities, values };
      });
      const reference = outputs[0] as (typeof outputs)[number];
      for (const [b, out] of outputs.entries()) {
        let worst = 0;
        for (let k = 0; k < n * NUM_ACTIONS; k++) {
          worst = Math.max(
            worst,
            Math.abs((out.probabilities[k] as number) - (reference.probabilities[k] as number)),
          );
          if (positions.masks[k] === 0) expect(out.probabilities[k]).toBe(0);
        }
        for (let r = 0; r < n; r++) {
          worst = Math.max(
            worst,
            Math.abs((out.values[r] as number) - (reference.values[r] as number)),
          );
        }
        expect({ backend: all[b]?.name, worst: worst < TOLERANCE }).toEqual({
          backend: all[b]?.name,
          worst: true,
        });
      }
      for (const backend of all) backend.dispose();
    },
  );

  it('a seeded PUCT search with the shipped network picks the same moves on each backend', () => {
    const policy = loadPolicy('models/pretrained');
    const all = backends(policy.weights);
    const positions = midgames(12);
    let compared = 0;
    for (const position of positions) {
      const results = all.map(({ forward }) =>
        new PuctSearch(
          new NetworkEvaluator(policy.weights, policy.observation, rules, { forward }),
          { rules, batchSize: 16 },
        ).search(position.toState(), { simulations: 200 }),
      );
      const reference = results[0];
      if (reference === undefined) throw new Error('no backend');
      const sorted = [...reference.visits].sort((a, b) => b - a);
      // Two moves within a few visits of each other tie within rounding: either may win.
      if ((sorted[0] as number) - (sorted[1] as number) < 10) continue;
      compared++;
      for (const result of results) expect(result.bestActions).toEqual(reference.bestActions);
    }
    expect(compared).toBeGreaterThan(6);
    for (const backend of all) backend.dispose();
  });

  it('seeded expert-iteration self-play plays the same games on each backend', () => {
    const weights = network({ hidden: [64, 64], activation: 'relu' }, 5);
    const all = backends(weights);
    const logs = all.map(({ forward }) => {
      const play = new SearchSelfPlay(
        forward,
        selfPlayOptions({ simulations: 8, searchValueWeight: 0.5 }),
        new TrainingOpenings({ minPlies: 0, maxPlies: 4, balanced: false }, rules),
      );
      const rng = Random.fromSeed(11);
      play.reset(rng);
      const log = new PositionLog();
      const stats = play.collect(160, log, rng);
      return { positions: log.positions(), plies: stats.plies, exported: play.exportGames() };
    });
    const reference = logs[0] as (typeof logs)[number];
    expect(reference.positions.count).toBeGreaterThan(0);
    for (const log of logs) {
      // The same moves: the same positions searched, the same games in progress.
      expect(log.plies).toBe(reference.plies);
      expect(log.positions.states).toEqual(reference.positions.states);
      expect(log.exported.states).toEqual(reference.exported.states);
      for (let k = 0; k < reference.positions.policies.length; k++) {
        expect(
          Math.abs(
            (log.positions.policies[k] as number) - (reference.positions.policies[k] as number),
          ),
        ).toBeLessThan(1e-4);
      }
    }
    for (const backend of all) backend.dispose();
  });
});
