import { beforeAll, describe, expect, it } from 'vitest';
import { loadBackend, type Tf } from '../../models/backend.ts';
import { inferenceEngine } from '../../models/inference/inference-engine.ts';
import { type MlpWeights, NUM_ACTIONS, sameWeights } from '../../models/mlp-runner.ts';
import {
  createPolicyValueModel,
  extractMlpWeights,
  type NetworkConfig,
} from '../../models/policy-value-model.ts';

const network: NetworkConfig = { hidden: [16, 8], activation: 'relu' };
const inputSize = 12;
let tf: Tf;
beforeAll(async () => {
  tf = (await loadBackend('wasm')).tf;
});

const weightsOf = (seed: number): MlpWeights => {
  const model = createPolicyValueModel(tf, inputSize, network, seed);
  const weights = extractMlpWeights(model, network);
  model.dispose();
  return weights;
};

describe("a network's weights handed to its inference", () => {
  it('are the same when every float, shape and activation is', () => {
    const weights = weightsOf(1);
    expect(sameWeights(weights, structuredClone(weights))).toBe(true);
    expect(sameWeights(weights, weightsOf(2))).toBe(false);
    const oneFloat = structuredClone(weights);
    const kernel = oneFloat.hidden[1]?.kernel as Float32Array;
    kernel[5] = (kernel[5] as number) + 1e-7;
    expect(sameWeights(weights, oneFloat)).toBe(false);
    const signed = structuredClone(weights);
    (signed.value.bias as Float32Array)[0] = 0;
    const negative = structuredClone(signed);
    (negative.value.bias as Float32Array)[0] = -0;
    expect(sameWeights(signed, negative)).toBe(false);
    expect(
      sameWeights(weights, { ...weights, policy: { ...weights.policy, activation: 'tanh' } }),
    ).toBe(false);
  });

  it('run from setWeights on, on every backend, whether or not they are the ones it had', async () => {
    const first = weightsOf(1);
    const second = weightsOf(2);
    const observations = Float32Array.from({ length: 3 * inputSize }, (_, i) => (i % 5) / 4);
    const outputs = (run: {
      forward: (o: Float32Array, b: number, l: Float32Array, v: Float32Array) => void;
    }) => {
      const logits = new Float32Array(3 * NUM_ACTIONS);
      const values = new Float32Array(3);
      run.forward(observations, 3, logits, values);
      return [...logits, ...values];
    };
    const engine = await inferenceEngine('auto');
    for (const batched of [false, true]) {
      const inference = await engine.create(first, { batched });
      const before = outputs(inference);
      inference.setWeights(structuredClone(first));
      expect(outputs(inference)).toEqual(before);
      inference.setWeights(second);
      const after = outputs(inference);
      expect(after).not.toEqual(before);
      inference.setWeights(structuredClone(first));
      expect(outputs(inference)).toEqual(before);
      inference.dispose();
    }
  });
});
