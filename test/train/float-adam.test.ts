import type * as tfType from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { Random } from '../../env/random.ts';
import { loadBackend, type Tf } from '../../models/backend.ts';
import { createPolicyValueModel, type NetworkConfig } from '../../models/policy-value-model.ts';
import { adamPowers, FloatAdam } from '../../train/gradients/float-adam.ts';
import { applyClippedGradients } from '../../train/gradients/tfjs-step.ts';
import { inputSize } from './gradient-batches.ts';

let tf: Tf;
beforeAll(async () => {
  tf = (await loadBackend('wasm')).tf;
});

const network: NetworkConfig = { hidden: [48, 32], activation: 'relu' };

/** A model's variables' values and an optimizer's whole state, as plain numbers to compare. */
async function stateOf(variables: readonly tfType.Variable[], optimizer: tfType.Optimizer) {
  const named = await optimizer.getWeights();
  const powers = adamPowers(optimizer);
  const state = {
    weights: variables.map((v) => Float32Array.from(v.dataSync() as Float32Array)),
    slots: named.map(({ name, tensor }) => ({ name, values: Array.from(tensor.dataSync()) })),
    powers: [powers?.accBeta1.dataSync()[0], powers?.accBeta2.dataSync()[0]],
  };
  named[0]?.tensor.dispose();
  return state;
}

/** Gradients of a model's shapes: some steps large (clipped to the norm), some small (not). */
function randomGradients(variables: readonly tfType.Variable[], rng: Random, step: number) {
  const size = step % 3 === 0 ? 4 : 0.01;
  return variables.map((v) =>
    Float32Array.from({ length: v.size }, () => (rng.next() * 2 - 1) * size),
  );
}

/** Two copies of one model, each with its own Adam. */
function twins(learningRate: number) {
  const a = createPolicyValueModel(tf, inputSize, network, 5);
  const b = createPolicyValueModel(tf, inputSize, network, 5);
  b.setWeights(a.getWeights());
  const variablesOf = (m: tfType.LayersModel) =>
    m.trainableWeights.map((w) => w.read() as tfType.Variable);
  return {
    models: [a, b],
    tfjs: { variables: variablesOf(a), optimizer: tf.train.adam(learningRate) },
    float: { variables: variablesOf(b), optimizer: tf.train.adam(learningRate) },
  };
}

describe("FloatAdam: tfjs's clipped Adam on Float32Arrays", () => {
  it("steps as tfjs's wasm Adam does, to the bit, and gives its state back to the optimizer", async () => {
    const { models, tfjs, float } = twins(3e-3);
    // The kernel takes four floats at a time: a count that is no multiple of 4 runs its last floats one by one too.
    expect(tfjs.variables.reduce((sum, v) => sum + v.size, 0) % 4).not.toBe(0);
    const rng = Random.fromSeed(7);
    const maxGradNorm = 0.5;
    // Three updates of a few steps each, the learning rate changed between them as a run's decay does.
    let step = 0;
    for (const learningRate of [3e-3, 2e-3, 1e-3]) {
      for (const o of [tfjs.optimizer, float.optimizer]) {
        (o as unknown as { learningRate: number }).learningRate = learningRate;
      }
      const adam = await FloatAdam.borrow(tf, float.optimizer, float.variables);
      for (let k = 0; k < 7; k++, step++) {
        const gradients = randomGradients(tfjs.variables, rng, step);
        tf.tidy(() => {
          const grads: tfType.NamedTensorMap = {};
          tfjs.variables.forEach((v, i) => {
            grads[v.name] = tf.tensor(gradients[i] as Float32Array, v.shape);
          });
          applyClippedGradients(tf, tfjs.optimizer, grads, maxGradNorm);
        });
        adam.step(gradients, maxGradNorm);
      }
      await adam.giveBack();
      const [expected, got] = [
        await stateOf(tfjs.variables, tfjs.optimizer),
        await stateOf(float.variables, float.optimizer),
      ];
      expect(got.weights).toEqual(expected.weights);
      expect(got.powers).toEqual(expected.powers);
      // The slots' values and the step count, under the names tfjs gives them.
      expect(got.slots.map((s) => s.values)).toEqual(expected.slots.map((s) => s.values));
      expect(got.slots[0]?.values).toEqual([step]);
      expect(got.slots.map((s) => s.name.replace(/_\d+/g, ''))).toEqual(
        expected.slots.map((s) => s.name.replace(/_\d+/g, '')),
      );
    }
    for (const m of models) m.dispose();
    tfjs.optimizer.dispose();
    float.optimizer.dispose();
  });

  it('gives nothing back after no step: the optimizer stays as it was', async () => {
    const { models, float } = twins(1e-3);
    const before = await stateOf(float.variables, float.optimizer);
    const adam = await FloatAdam.borrow(tf, float.optimizer, float.variables);
    await adam.giveBack();
    expect(await stateOf(float.variables, float.optimizer)).toEqual(before);
    for (const m of models) m.dispose();
    float.optimizer.dispose();
  });
});
