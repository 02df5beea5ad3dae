import type * as tfType from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Random } from '../../env/index.ts';
import { loadBackend, type Tf } from '../../models/backend.ts';
import {
  loadOnnxRuntime,
  type OnnxRuntime,
  type OrtNativeSession,
} from '../../models/inference/onnx-runtime.ts';
import { NUM_ACTIONS } from '../../models/mlp-runner.ts';
import { createPolicyValueModel, type NetworkConfig } from '../../models/policy-value-model.ts';
import { POLICY_TARGET, searchTargetLoss } from '../../train/expert-iteration/loss.ts';
import { ReplayBuffer } from '../../train/expert-iteration/replay-buffer.ts';
import { SearchTargetUpdater } from '../../train/expert-iteration/search-update.ts';
import type {
  MinibatchUpdater,
  OnnxGradientOptions,
} from '../../train/gradients/minibatch-updater.ts';
import { type GradientBatch, OnnxGradients } from '../../train/gradients/onnx-gradients.ts';
import { GRADIENT_INPUTS } from '../../train/gradients/policy-term.ts';
import { POLICY_GRADIENT_INPUTS, policyGradientLoss } from '../../train/ppo/loss.ts';
import { PolicyUpdater } from '../../train/ppo/policy-update.ts';
import { RolloutBuffer } from '../../train/ppo/rollout-buffer.ts';
import { TrainThreads } from '../../train/threads/train-threads.ts';
import { randomPositions } from '../agents/positions.ts';
import {
  encoder,
  inputSize,
  type LossSpec,
  randomMinibatch,
  relativeDifference,
  termOf,
} from './gradient-batches.ts';

const runtime: OnnxRuntime | null = (await loadOnnxRuntime()).runtime;
let tf: Tf;

beforeAll(async () => {
  tf = (await loadBackend('wasm')).tf;
});

const { observation, mask, valueTarget } = GRADIENT_INPUTS;
const policyTarget = POLICY_TARGET;
const { action, oldLogProb, advantage } = POLICY_GRADIENT_INPUTS;

/** tfjs's gradients (in trainable-weight order) and loss statistics of the updaters' own tfjs losses. */
function tfjsGradients(model: tfType.LayersModel, batch: GradientBatch, loss: LossSpec) {
  const variables = model.trainableWeights.map((w) => w.read() as tfType.Variable);
  const n = batch.size;
  const column = (name: string, width: number) => {
    const values = (batch.columns[name] as Float32Array).subarray(0, n * width);
    return width === 1 ? tf.tensor1d(values) : tf.tensor2d(values, [n, width]);
  };
  return tf.tidy(() => {
    const obs = column(observation, inputSize);
    const legal = column(mask, NUM_ACTIONS);
    let parts: number[] = [];
    const { grads } = tf.variableGrads(() => {
      const result =
        loss.kind === 'search-targets'
          ? searchTargetLoss(
              tf,
              model,
              {
                obs,
                mask: legal,
                targets: column(policyTarget, NUM_ACTIONS),
                valueTargets: column(valueTarget, 1),
              },
              loss.valueCoef,
            )
          : policyGradientLoss(
              tf,
              model,
              {
                obs,
                mask: legal,
                actions: column(action, NUM_ACTIONS),
                oldLogProbs: column(oldLogProb, 1),
                advantages: column(advantage, 1),
                returns: column(valueTarget, 1),
              },
              { algorithm: loss.kind, ...loss },
            );
      parts = result.parts.map((t) => t.dataSync()[0] as number);
      return result.total;
    }, variables);
    return { gradients: variables.map((v) => (grads[v.name] as tfType.Tensor).dataSync()), parts };
  });
}

const networks: [string, NetworkConfig, LossSpec][] = [
  [
    'one relu layer',
    { hidden: [32], activation: 'relu' },
    { kind: 'search-targets', valueCoef: 1 },
  ],
  [
    'two relu layers',
    { hidden: [64, 48], activation: 'relu' },
    { kind: 'search-targets', valueCoef: 0.5 },
  ],
  [
    'three tanh layers',
    { hidden: [40, 40, 24], activation: 'tanh' },
    { kind: 'search-targets', valueCoef: 2 },
  ],
  [
    'two relu layers',
    { hidden: [64, 48], activation: 'relu' },
    { kind: 'ppo', valueCoef: 0.5, clip: 0.2, entropyCoef: 0.01 },
  ],
  [
    'two tanh layers',
    { hidden: [40, 24], activation: 'tanh' },
    { kind: 'ppo', valueCoef: 1, clip: 0.5, entropyCoef: 0.1 },
  ],
  [
    'one relu layer',
    { hidden: [32], activation: 'relu' },
    { kind: 'reinforce', valueCoef: 0.5, clip: 0.2, entropyCoef: 0.02 },
  ],
];

describe.skipIf(runtime === null)('training gradients on onnxruntime-node', () => {
  const sessions: OnnxGradients[] = [];
  afterAll(() => {
    for (const s of sessions) s.dispose();
  });

  /** A fresh model of `seed`, the gradient session of `loss` for it (released after the tests) and its weights. */
  function sessionFor(network: NetworkConfig, loss: LossSpec, seed: number) {
    const model = createPolicyValueModel(tf, inputSize, network, seed);
    const gradients = new OnnxGradients(runtime as OnnxRuntime, inputSize, network, termOf(loss));
    sessions.push(gradients);
    const weights = model.trainableWeights.map(
      (w) => (w.read() as tfType.Variable).dataSync() as Float32Array,
    );
    return { model, gradients, weights };
  }

  it.each(networks)(
    "%s, %j: the gradient graph's gradients and statistics are tfjs's (1e-5), on full and partial minibatches",
    (_, network, loss) => {
      const { model, gradients, weights } = sessionFor(network, loss, 7);
      const full = randomMinibatch(11, 96);
      for (const batch of [full, { ...full, size: 37 }]) {
        const expected = tfjsGradients(model, batch, loss);
        const got = gradients.compute(batch, weights);
        expect(got.gradients).toHaveLength(expected.gradients.length);
        got.gradients.forEach((g, i) => {
          expect(g.length).toBe(expected.gradients[i]?.length);
          expect(relativeDifference(expected.gradients[i] as Float32Array, g)).toBeLessThan(1e-5);
        });
        expect(got.stats).toHaveLength(loss.kind === 'search-targets' ? 3 : 5);
        expected.parts.forEach((part, i) => {
          expect(got.stats[i]).toBeCloseTo(part, 5);
        });
        if (loss.kind === 'ppo') {
          // The batch exercises the clip: some ratios outside it, most inside.
          const clipFraction = got.stats[4] as number;
          expect(clipFraction).toBeGreaterThan(0.05);
          expect(clipFraction).toBeLessThan(0.95);
        }
      }
      model.dispose();
    },
  );

  it.each(networks.filter(([, , loss], i) => i === 0 || loss.kind !== 'search-targets'))(
    "%s, %j: an illegal action's logit gets no gradient, as in tfjs, even where a target weighs it or no action is legal",
    (_, network, loss) => {
      const { model, gradients, weights } = sessionFor(network, loss, 8);
      const batch = randomMinibatch(12, 64);
      const legal = batch.columns[mask] as Float32Array;
      const targets = batch.columns[policyTarget] as Float32Array;
      let touched = 0;
      for (let row = 0; row < batch.size; row += 5) {
        const at = row * NUM_ACTIONS;
        const illegal = [0, 1, 2, 3, 4, 5].find((a) => legal[at + a] === 0);
        if (loss.kind === 'search-targets') {
          if (illegal === undefined) continue;
          targets[at + illegal] = 0.25; // a target that weighs an illegal action
        } else {
          legal.fill(0, at, at + NUM_ACTIONS); // a row with no legal action
        }
        touched++;
      }
      expect(touched).toBeGreaterThan(3);
      const expected = tfjsGradients(model, batch, loss);
      const got = gradients.compute(batch, weights);
      got.gradients.forEach((g, i) => {
        expect(relativeDifference(expected.gradients[i] as Float32Array, g)).toBeLessThan(1e-5);
      });
      model.dispose();
    },
  );

  /**
   * Weights after an update with onnxruntime's gradients agree with those after
   * one with tfjs's. Adam divides by the gradient's own scale, so a weight whose
   * gradient is near 0 may move by up to 2 learning rates a step differently;
   * nearly all others agree to rounding.
   */
  function expectSameWeights(onnx: Float32Array[], plain: Float32Array[], bound: number) {
    let close = 0;
    let total = 0;
    onnx.forEach((w, i) => {
      const p = plain[i] as Float32Array;
      for (let k = 0; k < w.length; k++) {
        const d = Math.abs((w[k] as number) - (p[k] as number));
        expect(d).toBeLessThanOrEqual(bound);
        if (d < 1e-5) close++;
        total++;
      }
    });
    expect(close / total).toBeGreaterThan(0.99);
  }
  const learningRate = 1e-3;
  const updateNetwork: NetworkConfig = { hidden: [64, 64], activation: 'relu' };

  /**
   * One update from a fresh model of `seed`, with onnxruntime's gradients for
   * `loss` or with tfjs's: its statistics and the weights it leaves.
   */
  async function updateOnce<U extends MinibatchUpdater<unknown, unknown>, S>(
    seed: number,
    withOnnx: boolean,
    makeUpdater: (
      model: tfType.LayersModel,
      optimizer: tfType.AdamOptimizer,
      onnx: OnnxGradientOptions | null,
    ) => U,
    update: (updater: U) => Promise<S>,
  ): Promise<{ stats: S; weights: Float32Array[] }> {
    const model = createPolicyValueModel(tf, inputSize, updateNetwork, seed);
    const optimizer = tf.train.adam(learningRate);
    const onnx = withOnnx ? { runtime: runtime as OnnxRuntime, network: updateNetwork } : null;
    const updater = makeUpdater(model, optimizer, onnx);
    expect(updater.gradientBackend).toBe(withOnnx ? 'onnx' : 'tfjs');
    const stats = await update(updater);
    const weights = model.getWeights().map((w) => Float32Array.from(w.dataSync()));
    updater.dispose();
    optimizer.dispose();
    model.dispose();
    return { stats, weights };
  }

  it("expert iteration's update with onnxruntime's gradients moves the weights as one with tfjs's", async () => {
    const settings = { epochs: 2, minibatchSize: 64, valueCoef: 1, maxGradNorm: 0.5 };
    const batch = randomMinibatch(12, 200);
    const buffer = new ReplayBuffer(200, encoder);
    buffer.startIteration();
    const states = randomPositions(12, 200).map((p) => p.toState());
    const targets = batch.columns[policyTarget] as Float32Array;
    states.forEach((s, i) => {
      buffer.add(
        s,
        targets.subarray(i * NUM_ACTIONS, (i + 1) * NUM_ACTIONS),
        0,
        batch.columns[valueTarget]?.[i] as number,
      );
    });
    const run = (withOnnx: boolean) =>
      updateOnce(
        3,
        withOnnx,
        (model, optimizer, onnx) =>
          new SearchTargetUpdater(tf, model, optimizer, settings, inputSize, onnx),
        (updater) => updater.update(buffer, Random.fromSeed(5)),
      );
    const onnx = await run(true);
    const plain = await run(false);
    expect(onnx.stats.samples).toBe(plain.stats.samples);
    expect(onnx.stats.policyLoss).toBeCloseTo(plain.stats.policyLoss, 5);
    expect(onnx.stats.valueLoss).toBeCloseTo(plain.stats.valueLoss, 5);
    expectSameWeights(onnx.weights, plain.weights, 2 * learningRate * 2 * Math.ceil(200 / 64));
  });

  it.each(['ppo', 'reinforce'] as const)(
    "%s's update with onnxruntime's gradients moves the weights as one with tfjs's",
    async (algorithm) => {
      const settings = {
        algorithm,
        epochs: 3,
        minibatchSize: 64,
        clip: 0.2,
        valueCoef: 0.5,
        entropyCoef: 0.01,
        maxGradNorm: 0.5,
      };
      const batch = randomMinibatch(13, 200);
      const buffer = new RolloutBuffer(200, inputSize);
      const masks = Uint8Array.from(batch.columns[mask] as Float32Array);
      const actions = batch.columns[action] as Float32Array;
      for (let i = 0; i < 200; i++) {
        const taken = actions.subarray(i * NUM_ACTIONS, (i + 1) * NUM_ACTIONS).indexOf(1);
        const k = buffer.add(
          batch.columns[observation] as Float32Array,
          i,
          masks,
          taken,
          batch.columns[oldLogProb]?.[i] as number,
          0,
        );
        buffer.advantages[k] = batch.columns[advantage]?.[i] as number;
        buffer.returns[k] = batch.columns[valueTarget]?.[i] as number;
      }
      const run = (withOnnx: boolean) =>
        updateOnce(
          4,
          withOnnx,
          (model, optimizer, onnx) =>
            new PolicyUpdater(tf, model, optimizer, settings, inputSize, onnx),
          (updater) => updater.update(buffer, Random.fromSeed(6)),
        );
      const onnx = await run(true);
      const plain = await run(false);
      expect(onnx.stats.samples).toBe(plain.stats.samples);
      for (const stat of [
        'policyLoss',
        'valueLoss',
        'entropy',
        'approxKl',
        'clipFraction',
      ] as const) {
        expect(onnx.stats[stat]).toBeCloseTo(plain.stats[stat], 4);
      }
      // Later epochs see a policy that has moved: PPO's clip must have cut in.
      if (algorithm === 'ppo') expect(onnx.stats.clipFraction).toBeGreaterThan(0);
      const steps = (algorithm === 'ppo' ? 3 : 1) * Math.ceil(200 / 64);
      expectSameWeights(onnx.weights, plain.weights, 2 * learningRate * steps);
    },
  );

  it.each(networks.filter(([, , loss], i) => i === 1 || loss.kind === 'ppo'))(
    '%s, %j: a session of two threads gives the same gradients each time, whatever the rows',
    (_, network, loss) => {
      // Runs take one fixed thread count (UPDATE_THREADS): onnxruntime splits
      // some products by the count, so one thread and two may round apart; a
      // given count must not, or resumed and repeated runs would drift.
      const model = createPolicyValueModel(tf, inputSize, network, 5);
      const weights = model.trainableWeights.map(
        (w) => (w.read() as tfType.Variable).dataSync() as Float32Array,
      );
      const first = new OnnxGradients(runtime as OnnxRuntime, inputSize, network, termOf(loss), 2);
      const second = new OnnxGradients(runtime as OnnxRuntime, inputSize, network, termOf(loss), 2);
      sessions.push(first, second);
      for (const rows of [1024, 700, 64]) {
        const batch = randomMinibatch(21, rows);
        const expected = first.compute(batch, weights).gradients.map((g) => Float32Array.from(g));
        for (const session of [first, second]) {
          session.compute(batch, weights).gradients.forEach((g, i) => {
            expect(g).toEqual(expected[i]);
          });
        }
      }
      model.dispose();
    },
  );

  it('refuses a thread count that is not a positive integer', () => {
    const network: NetworkConfig = { hidden: [8], activation: 'relu' };
    const loss: LossSpec = { kind: 'search-targets', valueCoef: 1 };
    for (const threads of [0, 1.5]) {
      expect(
        () => new OnnxGradients(runtime as OnnxRuntime, inputSize, network, termOf(loss), threads),
      ).toThrow(`the gradient session's threads must be a positive integer, got ${threads}`);
    }
  });

  it('names the input a batch lacks or holds too few rows of', () => {
    const network: NetworkConfig = { hidden: [16], activation: 'relu' };
    const gradients = new OnnxGradients(
      runtime as OnnxRuntime,
      inputSize,
      network,
      termOf({ kind: 'reinforce', valueCoef: 1, clip: 0.2, entropyCoef: 0 }),
    );
    sessions.push(gradients);
    const model = createPolicyValueModel(tf, inputSize, network, 1);
    const weights = model.getWeights().map((w) => w.dataSync() as Float32Array);
    const batch = randomMinibatch(14, 8);
    const { [advantage]: _, ...withoutAdvantage } = batch.columns;
    expect(() => gradients.compute({ size: 8, columns: withoutAdvantage }, weights)).toThrow(
      "the gradient batch's advantage needs 8 floats (8 rows of 1), got none",
    );
    expect(() => gradients.compute({ size: 9, columns: batch.columns }, weights)).toThrow(
      `the gradient batch's observation needs ${9 * inputSize} floats (9 rows of ${inputSize}), got ${8 * inputSize}`,
    );
    model.dispose();
  });

  it("refuses a network that is not the model's, naming both, and releases the session", () => {
    const model = createPolicyValueModel(tf, inputSize, { hidden: [16], activation: 'relu' }, 1);
    const optimizer = tf.train.adam(1e-3);
    const live = OnnxGradients.live;
    expect(
      () =>
        new SearchTargetUpdater(
          tf,
          model,
          optimizer,
          { epochs: 1, minibatchSize: 8, valueCoef: 1, maxGradNorm: 1 },
          inputSize,
          { runtime: runtime as OnnxRuntime, network: { hidden: [16, 16], activation: 'relu' } },
        ),
    ).toThrow(
      /gradient graph's weights \(hidden_1\/kernel.*hidden_2\/kernel.*\) are not the model's/,
    );
    expect(OnnxGradients.live).toBe(live);
    optimizer.dispose();
    model.dispose();
  });

  /** The real runtime, but its gradient sessions fail to load, or fail at their `failAt`-th run. */
  function failingRuntime(fault: { load: boolean; failAt: number }): OnnxRuntime {
    const real = runtime as OnnxRuntime;
    let runs = 0;
    return {
      version: real.version,
      Tensor: real.Tensor,
      newSession: () => {
        const session = real.newSession();
        return {
          loadModel: (...args: Parameters<OrtNativeSession['loadModel']>) => {
            if (fault.load) throw new Error('Load model from buffer failed (injected)');
            session.loadModel(...args);
          },
          run: (...args: Parameters<OrtNativeSession['run']>) => {
            if (++runs === fault.failAt) throw new Error('RUNTIME_EXCEPTION (injected)');
            return session.run(...args);
          },
          dispose: () => session.dispose(),
        };
      },
    };
  }

  it.each([
    ['fails to load', { load: true, failAt: 0 }],
    ['fails at its third step', { load: false, failAt: 3 }],
  ])(
    'a gradient session that %s hands over to tfjs with one line, and the update goes on',
    async (_, fault) => {
      const settings = { epochs: 2, minibatchSize: 32, valueCoef: 1, maxGradNorm: 0.5 };
      const network: NetworkConfig = { hidden: [16], activation: 'relu' };
      const model = createPolicyValueModel(tf, inputSize, network, 2);
      const optimizer = tf.train.adam(1e-3);
      const live = OnnxGradients.live;
      const notes: string[] = [];
      const updater = new SearchTargetUpdater(tf, model, optimizer, settings, inputSize, {
        runtime: failingRuntime(fault),
        network,
        note: (line) => notes.push(line),
      });
      expect(updater.gradientBackend).toBe(fault.load ? 'tfjs' : 'onnx');
      const batch = randomMinibatch(15, 128);
      const buffer = new ReplayBuffer(128, encoder);
      buffer.startIteration();
      randomPositions(15, 128).forEach((p, i) => {
        const targets = batch.columns[policyTarget] as Float32Array;
        buffer.add(p.toState(), targets.subarray(i * NUM_ACTIONS, (i + 1) * NUM_ACTIONS), 0, 0.5);
      });
      const before = model.getWeights().map((w) => Float32Array.from(w.dataSync()));
      const stats = await updater.update(buffer, Random.fromSeed(7));
      // All 2 x 4 steps were taken, the failed one by tfjs, and the weights moved.
      expect(stats.samples).toBe(2 * 128);
      expect(Number.isFinite(stats.policyLoss) && Number.isFinite(stats.valueLoss)).toBe(true);
      const after = model.getWeights().map((w) => w.dataSync());
      expect(after.some((w, i) => w.some((x, k) => x !== before[i]?.[k]))).toBe(true);
      expect(updater.gradientBackend).toBe('tfjs');
      expect(notes).toHaveLength(1);
      expect(notes[0]).toMatch(
        fault.load
          ? /onnxruntime-node's gradients stopped: its gradient session did not load \(Load model from buffer failed \(injected\)\); the updates compute their gradients in tfjs from here/
          : /onnxruntime-node's gradients stopped: a gradient step failed \(RUNTIME_EXCEPTION \(injected\)\)/,
      );
      // The failed session is released: nothing is left to dispose.
      expect(OnnxGradients.live).toBe(live);
      updater.dispose();
      optimizer.dispose();
      model.dispose();
    },
  );
});

describe.skipIf(runtime === null)('the next minibatch filled while the slices compute', () => {
  it('ends the update with the filling error, the steps before it kept and the threads free', async () => {
    const network: NetworkConfig = { hidden: [16], activation: 'relu' };
    const pool = new TrainThreads(2);
    const settings = { epochs: 1, minibatchSize: 32, valueCoef: 1, maxGradNorm: 1 };
    const make = (model: tfType.LayersModel, optimizer: tfType.AdamOptimizer) =>
      new SearchTargetUpdater(tf, model, optimizer, settings, inputSize, {
        runtime: runtime as OnnxRuntime,
        network,
        slices: 4,
        threads: pool,
      });
    const batch = randomMinibatch(21, 128);
    const buffer = new ReplayBuffer(128, encoder);
    buffer.startIteration();
    randomPositions(21, 128).forEach((p, i) => {
      const targets = batch.columns[policyTarget] as Float32Array;
      buffer.add(p.toState(), targets.subarray(i * NUM_ACTIONS, (i + 1) * NUM_ACTIONS), 0, 0.5);
    });
    // The masks read well for the first minibatch (32 rows of 6) and fail in the second's filling,
    // which runs while the helper computes the first step's slices.
    const masks = buffer.masks;
    let reads = 0;
    buffer.masks = new Proxy(masks, {
      get(target, key) {
        if (typeof key === 'string' && /^\d+$/.test(key) && ++reads > 32 * NUM_ACTIONS) {
          throw new Error('injected: a row could not be read');
        }
        return Reflect.get(target, key);
      },
    });
    const model = createPolicyValueModel(tf, inputSize, network, 4);
    const optimizer = tf.train.adam(1e-3);
    const updater = make(model, optimizer);
    const before = model.getWeights().map((w) => Float32Array.from(w.dataSync()));
    await expect(updater.update(buffer, Random.fromSeed(3))).rejects.toThrow(
      'injected: a row could not be read',
    );
    // The first step was applied and given back to the model; Adam counted it.
    const after = model.getWeights().map((w) => w.dataSync());
    expect(after.some((w, i) => w.some((x, k) => x !== before[i]?.[k]))).toBe(true);
    expect((await optimizer.getWeights())[0]?.tensor.dataSync()[0]).toBe(1);
    // The pool's threads serve the next update: it runs all four steps.
    buffer.masks = masks;
    const stats = await updater.update(buffer, Random.fromSeed(3));
    expect(stats.samples).toBe(128);
    updater.dispose();
    optimizer.dispose();
    model.dispose();
    await pool.dispose();
  });
});
