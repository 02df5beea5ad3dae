import type * as tfType from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ObservationEncoder } from '../../env/gym/observation.ts';
import { DEFAULT_RULES, Random } from '../../env/index.ts';
import { loadBackend, type Tf } from '../../models/backend.ts';
import { loadOnnxRuntime, type OnnxRuntime } from '../../models/inference/onnx-runtime.ts';
import { NUM_ACTIONS } from '../../models/mlp-runner.ts';
import {
  createPolicyValueModel,
  maskedLogits,
  type NetworkConfig,
} from '../../models/policy-value-model.ts';
import { ReplayBuffer } from '../../train/expert-iteration/replay-buffer.ts';
import { SearchTargetUpdater } from '../../train/expert-iteration/search-update.ts';
import { type Minibatch, OnnxGradients } from '../../train/gradients/onnx-gradients.ts';
import { randomPositions } from '../agents/positions.ts';

const runtime: OnnxRuntime | null = (await loadOnnxRuntime()).runtime;
let tf: Tf;
const encoder = new ObservationEncoder({ encoding: 'counts', lookahead: true }, DEFAULT_RULES);
const inputSize = encoder.size;

beforeAll(async () => {
  tf = (await loadBackend('wasm')).tf;
});

/** `count` positions from random play with random policy targets over their legal actions and random value targets. */
function randomMinibatch(seed: number, count: number): Minibatch {
  const rng = Random.fromSeed(seed);
  const observations = new Float32Array(count * inputSize);
  const masks = new Float32Array(count * NUM_ACTIONS);
  const policies = new Float32Array(count * NUM_ACTIONS);
  const values = new Float32Array(count);
  randomPositions(seed, count).forEach((position, i) => {
    const mask = encoder.encode(position.toState(), observations, i * inputSize);
    let total = 0;
    for (let a = 0; a < NUM_ACTIONS; a++) {
      masks[i * NUM_ACTIONS + a] = (mask >> a) & 1;
      const p = (mask >> a) & 1 ? rng.next() : 0;
      policies[i * NUM_ACTIONS + a] = p;
      total += p;
    }
    for (let k = i * NUM_ACTIONS; k < (i + 1) * NUM_ACTIONS; k++) {
      policies[k] = (policies[k] as number) / total;
    }
    values[i] = 2 * rng.next() - 1;
  });
  return { observations, masks, policies, values, size: count };
}

/** tfjs's gradients (in trainable-weight order) and loss parts of the updater's loss. */
function tfjsGradients(model: tfType.LayersModel, batch: Minibatch, valueCoef: number) {
  const variables = model.trainableWeights.map((w) => w.read() as tfType.Variable);
  const n = batch.size;
  return tf.tidy(() => {
    const obs = tf.tensor2d(batch.observations.subarray(0, n * inputSize), [n, inputSize]);
    const mask = tf.tensor2d(batch.masks.subarray(0, n * NUM_ACTIONS), [n, NUM_ACTIONS]);
    const targets = tf.tensor2d(batch.policies.subarray(0, n * NUM_ACTIONS), [n, NUM_ACTIONS]);
    const valueTargets = tf.tensor1d(batch.values.subarray(0, n));
    let parts: number[] = [];
    const { grads } = tf.variableGrads(() => {
      const [logits, value] = model.apply(obs, { training: true }) as tfType.Tensor[];
      const logProbs = tf.logSoftmax(maskedLogits(tf, logits as tfType.Tensor, mask));
      const policyLoss = tf.neg(tf.mean(tf.sum(tf.mul(targets, logProbs), 1)));
      const valueLoss = tf.mean(
        tf.square(tf.sub(tf.reshape(value as tfType.Tensor, [-1]), valueTargets)),
      );
      const entropy = tf.neg(tf.mean(tf.sum(tf.mul(tf.exp(logProbs), logProbs), 1)));
      parts = [policyLoss, valueLoss, entropy].map((t) => t.dataSync()[0] as number);
      return tf.add(policyLoss, tf.mul(valueCoef, valueLoss)) as tfType.Scalar;
    }, variables);
    return { gradients: variables.map((v) => (grads[v.name] as tfType.Tensor).dataSync()), parts };
  });
}

/** Largest |a - b| over the largest |a|: the difference relative to the gradient's scale. */
function relativeDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let diff = 0;
  let scale = 1e-12;
  for (let i = 0; i < a.length; i++) {
    diff = Math.max(diff, Math.abs((a[i] as number) - (b[i] as number)));
    scale = Math.max(scale, Math.abs(a[i] as number));
  }
  return diff / scale;
}

const networks: [string, NetworkConfig, number][] = [
  ['one relu layer', { hidden: [32], activation: 'relu' }, 1],
  ['two relu layers', { hidden: [64, 48], activation: 'relu' }, 0.5],
  ['three tanh layers', { hidden: [40, 40, 24], activation: 'tanh' }, 2],
];

describe.skipIf(runtime === null)('expert iteration gradients on onnxruntime-node', () => {
  const sessions: OnnxGradients[] = [];
  afterAll(() => {
    for (const s of sessions) s.dispose();
  });

  it.each(networks)(
    "%s: the gradient graph's gradients and losses are tfjs's (1e-5), on full and partial minibatches",
    (_, network, valueCoef) => {
      const model = createPolicyValueModel(tf, inputSize, network, 7);
      const gradients = new OnnxGradients(runtime as OnnxRuntime, inputSize, network, valueCoef);
      sessions.push(gradients);
      const weights = model.trainableWeights.map(
        (w) => (w.read() as tfType.Variable).dataSync() as Float32Array,
      );
      const full = randomMinibatch(11, 96);
      for (const batch of [full, { ...full, size: 37 }]) {
        const expected = tfjsGradients(model, batch, valueCoef);
        const got = gradients.compute(batch, weights);
        expect(got.gradients).toHaveLength(expected.gradients.length);
        got.gradients.forEach((g, i) => {
          expect(g.length).toBe(expected.gradients[i]?.length);
          expect(relativeDifference(expected.gradients[i] as Float32Array, g)).toBeLessThan(1e-5);
        });
        const [policyLoss, valueLoss, entropy] = expected.parts as [number, number, number];
        expect(got.policyLoss).toBeCloseTo(policyLoss, 5);
        expect(got.valueLoss).toBeCloseTo(valueLoss, 5);
        expect(got.entropy).toBeCloseTo(entropy, 5);
      }
      model.dispose();
    },
  );

  it("an update with onnxruntime's gradients moves the weights as one with tfjs's", () => {
    const network: NetworkConfig = { hidden: [64, 64], activation: 'relu' };
    const settings = { epochs: 2, minibatchSize: 64, valueCoef: 1, maxGradNorm: 0.5 };
    const batch = randomMinibatch(12, 200);
    const buffer = new ReplayBuffer(200, encoder);
    buffer.startIteration();
    const states = randomPositions(12, 200).map((p) => p.toState());
    states.forEach((s, i) => {
      buffer.add(
        s,
        batch.policies.subarray(i * NUM_ACTIONS, (i + 1) * NUM_ACTIONS),
        0,
        batch.values[i] as number,
      );
    });
    const learningRate = 1e-3;
    const run = (withOnnx: boolean) => {
      const model = createPolicyValueModel(tf, inputSize, network, 3);
      const optimizer = tf.train.adam(learningRate);
      const onnx = withOnnx
        ? new OnnxGradients(runtime as OnnxRuntime, inputSize, network, settings.valueCoef)
        : null;
      const updater = new SearchTargetUpdater(tf, model, optimizer, settings, inputSize, onnx);
      expect(updater.gradientBackend).toBe(withOnnx ? 'onnx' : 'tfjs');
      const stats = updater.update(buffer, Random.fromSeed(5));
      const weights = model.getWeights().map((w) => Float32Array.from(w.dataSync()));
      updater.dispose();
      optimizer.dispose();
      model.dispose();
      return { stats, weights };
    };
    const onnx = run(true);
    const plain = run(false);
    expect(onnx.stats.samples).toBe(plain.stats.samples);
    expect(onnx.stats.policyLoss).toBeCloseTo(plain.stats.policyLoss, 5);
    expect(onnx.stats.valueLoss).toBeCloseTo(plain.stats.valueLoss, 5);
    // Adam divides by the gradient's own scale, so a weight whose gradient is near 0 may move by
    // up to 2 learning rates a step differently; nearly all others agree to rounding.
    const steps = 2 * Math.ceil(200 / 64);
    let close = 0;
    let total = 0;
    onnx.weights.forEach((w, i) => {
      const p = plain.weights[i] as Float32Array;
      for (let k = 0; k < w.length; k++) {
        const d = Math.abs((w[k] as number) - (p[k] as number));
        expect(d).toBeLessThanOrEqual(2 * learningRate * steps);
        if (d < 1e-5) close++;
        total++;
      }
    });
    expect(close / total).toBeGreaterThan(0.99);
  });

  it('refuses a gradient graph whose weights are not the model’s, naming both', () => {
    const model = createPolicyValueModel(tf, inputSize, { hidden: [16], activation: 'relu' }, 1);
    const other = new OnnxGradients(
      runtime as OnnxRuntime,
      inputSize,
      {
        hidden: [16, 16],
        activation: 'relu',
      },
      1,
    );
    sessions.push(other);
    const optimizer = tf.train.adam(1e-3);
    expect(
      () =>
        new SearchTargetUpdater(
          tf,
          model,
          optimizer,
          { epochs: 1, minibatchSize: 8, valueCoef: 1, maxGradNorm: 1 },
          inputSize,
          other,
        ),
    ).toThrow(
      /gradient graph's weights \(hidden_1\/kernel.*hidden_2\/kernel.*\) are not the model's/,
    );
    optimizer.dispose();
    model.dispose();
  });
});
