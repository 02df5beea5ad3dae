import '../setup/builtin-algorithms.ts';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as tfType from '@tensorflow/tfjs';
import * as ort from 'onnxruntime-web';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBackend, type Tf } from '../../models/backend.ts';
import { exportPolicy } from '../../models/export/export-policy.ts';
import { tfjsFileHandler } from '../../models/export/tfjs-model.ts';
import { type LoadedPolicy, loadPolicy } from '../../models/load-policy.ts';
import { MlpRunner, maskedSoftmax, NUM_ACTIONS } from '../../models/mlp-runner.ts';
import { decodePolicyFile } from '../../models/policy-file.ts';
import { createPolicyValueModel, maskedLogits } from '../../models/policy-value-model.ts';
import { buildConfig } from '../../train/config/build.ts';
import { PRESETS } from '../../train/config/presets.ts';
import { readCheckpoint } from '../../train/run/checkpoint.ts';
import { restoreModelWeights } from '../../train/run/model-state.ts';
import { runPaths, train } from '../../train/trainer.ts';
import { type PositionBatch, randomGamePositions } from './positions.ts';

const POSITIONS = 1200;
const TOLERANCE = 1e-5;
/** Closer than this, two actions count as tied: any of them is an acceptable argmax. */
const TIE = 1e-6;

interface Outputs {
  readonly probabilities: Float32Array;
  readonly values: Float32Array;
}

/** Masked softmax probabilities and values of a tfjs Layers model (the trainer's way). */
function runLayersModel(tf: Tf, model: tfType.LayersModel, batch: PositionBatch): Outputs {
  return tf.tidy(() => {
    const x = tf.tensor2d(batch.observations, [batch.count, batch.size]);
    const [logits, value] = model.predict(x) as [tfType.Tensor, tfType.Tensor];
    const mask = tf.tensor2d(batch.masks, [batch.count, NUM_ACTIONS]);
    const probabilities = tf.softmax(maskedLogits(tf, logits, mask));
    return {
      probabilities: probabilities.dataSync() as Float32Array,
      values: value.dataSync() as Float32Array,
    };
  });
}

function runJsonRunner(path: string, batch: PositionBatch): Outputs {
  const { weights } = decodePolicyFile(JSON.parse(readFileSync(path, 'utf8')), path);
  const runner = new MlpRunner(weights);
  const logits = new Float32Array(batch.count * NUM_ACTIONS);
  const values = new Float32Array(batch.count);
  runner.forward(batch.observations, batch.count, logits, values);
  const probabilities = new Float32Array(batch.count * NUM_ACTIONS);
  for (let n = 0; n < batch.count; n++) {
    maskedSoftmax(logits, n * 6, batch.masks, n * 6, probabilities, n * 6);
  }
  return { probabilities, values };
}

async function runOnnx(
  session: ort.InferenceSession,
  batch: PositionBatch,
  from: number,
  count: number,
): Promise<Outputs> {
  const size = batch.size;
  const result = await session.run({
    observation: new ort.Tensor(
      'float32',
      batch.observations.slice(from * size, (from + count) * size),
      [count, size],
    ),
    action_mask: new ort.Tensor('float32', batch.masks.slice(from * 6, (from + count) * 6), [
      count,
      6,
    ]),
  });
  expect(result.policy?.dims).toEqual([count, 6]);
  expect(result.value?.dims).toEqual([count, 1]);
  return {
    probabilities: result.policy?.data as Float32Array,
    values: result.value?.data as Float32Array,
  };
}

interface Agreement {
  maxProbabilityDiff: number;
  maxValueDiff: number;
  argmaxMismatches: number;
  nearTies: number;
  illegalNonZero: number;
}

function argmax(probs: Float32Array, row: number): number {
  let best = 0;
  for (let a = 1; a < 6; a++)
    if ((probs[row * 6 + a] as number) > (probs[row * 6 + best] as number)) best = a;
  return best;
}

function compare(reference: Outputs, other: Outputs, batch: PositionBatch): Agreement {
  const out: Agreement = {
    maxProbabilityDiff: 0,
    maxValueDiff: 0,
    argmaxMismatches: 0,
    nearTies: 0,
    illegalNonZero: 0,
  };
  for (let n = 0; n < batch.count; n++) {
    for (let a = 0; a < 6; a++) {
      const i = n * 6 + a;
      const p = other.probabilities[i] as number;
      const diff = Math.abs(p - (reference.probabilities[i] as number));
      if (!(diff <= out.maxProbabilityDiff)) out.maxProbabilityDiff = diff;
      if (batch.masks[i] === 0 && p !== 0) out.illegalNonZero++;
    }
    const valueDiff = Math.abs((other.values[n] as number) - (reference.values[n] as number));
    if (!(valueDiff <= out.maxValueDiff)) out.maxValueDiff = valueDiff;
    const best = argmax(reference.probabilities, n);
    const chosen = argmax(other.probabilities, n);
    if (chosen === best) continue;
    const gap =
      (reference.probabilities[n * 6 + best] as number) -
      (reference.probabilities[n * 6 + chosen] as number);
    if (gap < TIE) out.nearTies++;
    else out.argmaxMismatches++;
  }
  return out;
}

function expectAgreement(name: string, agreement: Agreement): void {
  const where = `${name}: ${JSON.stringify(agreement)}`;
  expect(agreement.illegalNonZero, where).toBe(0);
  expect(agreement.argmaxMismatches, where).toBe(0);
  expect(agreement.maxProbabilityDiff, where).toBeLessThanOrEqual(TOLERANCE);
  expect(agreement.maxValueDiff, where).toBeLessThanOrEqual(TOLERANCE);
}

describe('exported models agree with the trained model', () => {
  let tf: Tf;
  let dir: string;
  let checkpoint: string;
  let policy: LoadedPolicy;
  let batch: PositionBatch;
  let reference: Outputs;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ayoayo-export-'));
    const config = buildConfig([PRESETS.smoke, { runsDir: dir, name: 'parity' }]);
    await train(config, { resume: false, log: () => {} });
    checkpoint = runPaths(config).latest;
    ({ tf } = await loadBackend('auto'));

    // The trained model as the trainer holds it: its factory, then the checkpoint's weights.
    const payload = readCheckpoint(checkpoint);
    policy = loadPolicy(checkpoint);
    const model = createPolicyValueModel(
      tf,
      policy.weights.inputSize,
      { hidden: payload.config.hidden, activation: payload.config.activation },
      payload.config.seed,
    );
    restoreModelWeights(tf, model, payload.weights, checkpoint);
    batch = randomGamePositions(POSITIONS, policy.observation, policy.rules, 2024);
    reference = runLayersModel(tf, model, batch);
    model.dispose();
  });

  it('the reference itself is a real, masked policy over enough positions', () => {
    expect(batch.count).toBeGreaterThanOrEqual(1000);
    let illegal = 0;
    let spread = 0;
    for (let n = 0; n < batch.count; n++) {
      let sum = 0;
      for (let a = 0; a < 6; a++) {
        const p = reference.probabilities[n * 6 + a] as number;
        sum += p;
        if (batch.masks[n * 6 + a] === 0) {
          illegal++;
          expect(p).toBe(0);
        }
      }
      expect(sum).toBeCloseTo(1, 5);
      const legal = batch.masks.subarray(n * 6, n * 6 + 6).reduce((s, m) => s + m, 0);
      spread = Math.max(
        spread,
        (reference.probabilities[n * 6 + argmax(reference.probabilities, n)] as number) - 1 / legal,
      );
    }
    // Positions with illegal actions are present, and the policy is not uniform.
    expect(illegal).toBeGreaterThan(100);
    expect(spread).toBeGreaterThan(1e-3);
  });

  it('ONNX (onnxruntime-web, wasm), tfjs (loadLayersModel) and the JSON runner all agree', async () => {
    const onnxDir = join(dir, 'onnx');
    const tfjsDir = join(dir, 'tfjs');
    const jsonDir = join(dir, 'json');
    await exportPolicy({ from: checkpoint, format: 'onnx', out: onnxDir });
    await exportPolicy({ from: checkpoint, format: 'tfjs', out: tfjsDir });
    await exportPolicy({ from: checkpoint, format: 'json', out: jsonDir });

    ort.env.wasm.numThreads = 1;
    const session = await ort.InferenceSession.create(readFileSync(join(onnxDir, 'model.onnx')));
    expect(session.inputNames).toEqual(['observation', 'action_mask']);
    expect(session.outputNames).toEqual(['policy', 'value']);
    const onnx = await runOnnx(session, batch, 0, batch.count);
    // A batch of one gives the same numbers as the big batch.
    const single = await runOnnx(session, batch, 7, 1);
    for (let a = 0; a < 6; a++) {
      expect(single.probabilities[a]).toBeCloseTo(onnx.probabilities[7 * 6 + a] as number, 6);
    }
    await session.release();

    const loaded = await tf.loadLayersModel(tfjsFileHandler(tf, join(tfjsDir, 'model.json')));
    expect(loaded.inputs[0]?.shape).toEqual([null, batch.size]);
    const tfjs = runLayersModel(tf, loaded, batch);
    loaded.dispose();

    const json = runJsonRunner(join(jsonDir, 'policy.json'), batch);

    const results = {
      onnx: compare(reference, onnx, batch),
      tfjs: compare(reference, tfjs, batch),
      json: compare(reference, json, batch),
    };
    for (const [name, agreement] of Object.entries(results)) expectAgreement(name, agreement);
    console.log(`parity over ${batch.count} positions: ${JSON.stringify(results)}`);
  });

  it('the comparison notices a model that differs by one small weight change', async () => {
    const jsonDir = join(dir, 'json-changed');
    await exportPolicy({ from: checkpoint, format: 'json', out: jsonDir });
    const path = join(jsonDir, 'policy.json');
    const file = JSON.parse(readFileSync(path, 'utf8'));
    const bias = Buffer.from(file.network.policy.bias, 'base64');
    bias.writeFloatLE(bias.readFloatLE(0) + 0.01, 0);
    file.network.policy.bias = bias.toString('base64');
    const changed = join(jsonDir, 'changed.json');
    writeFileSync(changed, JSON.stringify(file));
    const agreement = compare(reference, runJsonRunner(changed, batch), batch);
    expect(agreement.maxProbabilityDiff).toBeGreaterThan(TOLERANCE);
  });
});
