import { beforeAll, describe, expect, it } from 'vitest';
import { Random } from '../../env/random.ts';
import { loadBackend, type Tf } from '../../models/backend.ts';
import { argmaxLegal, MlpRunner, maskedSoftmax, NUM_ACTIONS } from '../../models/mlp-runner.ts';
import {
  createPolicyValueModel,
  extractMlpWeights,
  maskedLogits,
} from '../../models/policy-value-model.ts';

let tf: Tf;
beforeAll(async () => {
  tf = (await loadBackend('auto')).tf;
});

const config = { hidden: [32, 16], activation: 'relu' as const };

function randomBatch(
  rng: Random,
  n: number,
  size: number,
): { obs: Float32Array; masks: Uint8Array } {
  const obs = new Float32Array(n * size).map(() => rng.next() * 2 - 1);
  const masks = new Uint8Array(n * NUM_ACTIONS);
  for (let r = 0; r < n; r++) {
    masks[r * NUM_ACTIONS + rng.int(NUM_ACTIONS)] = 1;
    for (let a = 0; a < NUM_ACTIONS; a++) if (rng.next() < 0.5) masks[r * NUM_ACTIONS + a] = 1;
  }
  return { obs, masks };
}

describe('policy-value model', () => {
  it('rejects a bad input size and bad hidden sizes', () => {
    expect(() => createPolicyValueModel(tf, 0, config, 1)).toThrow(/inputSize/);
    expect(() => createPolicyValueModel(tf, 10, { hidden: [], activation: 'relu' }, 1)).toThrow();
  });

  it('gives exactly zero probability to illegal actions, in tfjs and in the runner', () => {
    const model = createPolicyValueModel(tf, 20, config, 3);
    const rng = Random.fromSeed(7);
    const { obs, masks } = randomBatch(rng, 64, 20);
    const probs = tf.tidy(() => {
      const [logits] = model.predict(tf.tensor2d(obs, [64, 20])) as [
        ReturnType<typeof tf.tensor2d>,
      ];
      // Exaggerate the logits so that a soft penalty would leak probability.
      const big = tf.mul(logits, 1e4);
      return tf
        .softmax(maskedLogits(tf, big, tf.tensor2d(masks, [64, NUM_ACTIONS], 'float32')))
        .dataSync();
    });
    const runner = new MlpRunner(extractMlpWeights(model, config));
    const logits = new Float32Array(64 * NUM_ACTIONS);
    runner.forward(obs, 64, logits, new Float32Array(64));
    const runnerProbs = new Float32Array(64 * NUM_ACTIONS);
    for (let r = 0; r < 64; r++) maskedSoftmax(logits, r * 6, masks, r * 6, runnerProbs, r * 6);
    for (let k = 0; k < 64 * NUM_ACTIONS; k++) {
      if (masks[k] === 0) {
        expect(probs[k]).toBe(0);
        expect(runnerProbs[k]).toBe(0);
      }
    }
    model.dispose();
  });

  it('the plain runner agrees with the tfjs model (logits, values, argmax)', () => {
    const model = createPolicyValueModel(tf, 30, config, 5);
    const rng = Random.fromSeed(9);
    const n = 200;
    const { obs, masks } = randomBatch(rng, n, 30);
    const [l, v] = model.predict(tf.tensor2d(obs, [n, 30])) as [
      ReturnType<typeof tf.tensor2d>,
      ReturnType<typeof tf.tensor2d>,
    ];
    const tfLogits = l.dataSync() as Float32Array;
    const tfValues = v.dataSync() as Float32Array;
    l.dispose();
    v.dispose();
    const runner = new MlpRunner(extractMlpWeights(model, config));
    const logits = new Float32Array(n * NUM_ACTIONS);
    const values = new Float32Array(n);
    runner.forward(obs, n, logits, values);
    for (let k = 0; k < n * NUM_ACTIONS; k++)
      expect(Math.abs((logits[k] as number) - (tfLogits[k] as number))).toBeLessThan(1e-4);
    for (let r = 0; r < n; r++) {
      expect(Math.abs((values[r] as number) - (tfValues[r] as number))).toBeLessThan(1e-4);
      expect(argmaxLegal(logits, r * 6, masks, r * 6)).toBe(
        argmaxLegal(tfLogits, r * 6, masks, r * 6),
      );
    }
    model.dispose();
  });
});
