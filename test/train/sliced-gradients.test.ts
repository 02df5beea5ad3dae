import type * as tfType from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBackend, type Tf } from '../../models/backend.ts';
import { loadOnnxRuntime, type OnnxRuntime } from '../../models/inference/onnx-runtime.ts';
import { createPolicyValueModel, type NetworkConfig } from '../../models/policy-value-model.ts';
import { type GradientBatch, OnnxGradients } from '../../train/gradients/onnx-gradients.ts';
import type { PolicyTerm } from '../../train/gradients/policy-term.ts';
import type { SliceThreads } from '../../train/gradients/slice-task.ts';
import { SlicedGradients } from '../../train/gradients/sliced-gradients.ts';
import { sliceRows } from '../../train/gradients/slices.ts';
import { TrainThreads } from '../../train/threads/train-threads.ts';
import { inputSize, randomMinibatch, relativeDifference, termOf } from './gradient-batches.ts';

const runtime: OnnxRuntime | null = (await loadOnnxRuntime()).runtime;
let tf: Tf;

beforeAll(async () => {
  tf = (await loadBackend('wasm')).tf;
});

const network: NetworkConfig = { hidden: [48, 32], activation: 'relu' };
const losses: PolicyTerm[] = [
  termOf({ kind: 'search-targets', valueCoef: 0.5 }),
  termOf({ kind: 'ppo', valueCoef: 0.5, clip: 0.2, entropyCoef: 0.01 }),
];

/** A copy of a result (the gradient objects overwrite theirs at the next call). */
const copied = (result: { gradients: readonly Float32Array[]; stats: Float32Array }) => ({
  gradients: result.gradients.map((g) => Float32Array.from(g)),
  stats: Float32Array.from(result.stats),
});

describe.skipIf(runtime === null)("a minibatch's gradients in slices", () => {
  const pools: TrainThreads[] = [];
  afterAll(async () => {
    for (const pool of pools) await pool.dispose();
  });
  const model = () => createPolicyValueModel(tf, inputSize, network, 3);
  const weightsOf = (m: tfType.LayersModel) =>
    m.trainableWeights.map((w) => (w.read() as tfType.Variable).dataSync() as Float32Array);

  it('cuts the rows as evenly as whole rows allow, every row in one slice', () => {
    const cuts = (size: number, slices: number) =>
      Array.from({ length: slices }, (_, i) => sliceRows(size, slices, i));
    expect(cuts(10, 4)).toEqual([
      { from: 0, to: 2 },
      { from: 2, to: 5 },
      { from: 5, to: 7 },
      { from: 7, to: 10 },
    ]);
    // Fewer rows than slices: some slices are empty.
    expect(cuts(3, 8).filter(({ from, to }) => to > from)).toHaveLength(3);
  });

  it.each(losses)(
    "$name: the slices' gradients and statistics add up to the whole minibatch's (1e-5), with empty slices too",
    async (loss) => {
      const m = model();
      const weights = weightsOf(m);
      const whole = new OnnxGradients(runtime as OnnxRuntime, inputSize, network, loss);
      const full = randomMinibatch(31, 96);
      for (const slices of [1, 3, 8]) {
        const sliced = new SlicedGradients(
          runtime as OnnxRuntime,
          { inputSize, network, loss },
          slices,
          96,
          null,
        );
        for (const batch of [full, { ...full, size: 37 }, { ...full, size: 5 }]) {
          const expected = copied(whole.compute(batch, weights));
          const got = await sliced.compute(batch, weights);
          got.gradients.forEach((g, i) => {
            expect(relativeDifference(expected.gradients[i] as Float32Array, g)).toBeLessThan(1e-5);
          });
          expected.stats.forEach((stat, i) => {
            expect(got.stats[i]).toBeCloseTo(stat, 5);
          });
        }
        sliced.dispose();
      }
      whole.dispose();
      m.dispose();
    },
  );

  it.each(losses)(
    '$name: the same to the bit in this thread and on 2, 3, 4 or 8 threads',
    async (loss) => {
      const m = model();
      const weights = weightsOf(m);
      const graph = { inputSize, network, loss };
      const here = new SlicedGradients(runtime as OnnxRuntime, graph, 8, 128, null);
      const full = randomMinibatch(32, 128);
      const batches: GradientBatch[] = [full, { ...full, size: 45 }, { ...full, size: 3 }];
      const expected: ReturnType<typeof copied>[] = [];
      for (const batch of batches) expected.push(copied(await here.compute(batch, weights)));
      for (const threads of [2, 3, 4, 8]) {
        const pool = new TrainThreads(threads);
        pools.push(pool);
        const sliced = new SlicedGradients(runtime as OnnxRuntime, graph, 8, 128, pool);
        expect(sliced.threads).toBe(threads);
        // Two updates of the batches: the threads serve one update's steps, then are free.
        for (let update = 0; update < 2; update++) {
          for (const [i, batch] of batches.entries()) {
            const got = await sliced.compute(batch, weights);
            got.gradients.forEach((g, w) => {
              expect(g).toEqual(expected[i]?.gradients[w]);
            });
            expect(got.stats).toEqual(expected[i]?.stats);
          }
          await sliced.release();
        }
        sliced.dispose();
      }
      here.dispose();
      m.dispose();
    },
  );

  it("rejects with a thread's failure, and frees the other threads", async () => {
    const m = model();
    const pool = new TrainThreads(2);
    pools.push(pool);
    let served = 0;
    const failing: SliceThreads = {
      threads: 3,
      serveSlices(serving, threads) {
        served++;
        if (served === 2) return Promise.reject(new Error('injected: the thread died'));
        return pool.serveSlices(serving, threads);
      },
    };
    const graph = { inputSize, network, loss: losses[0] as PolicyTerm };
    const sliced = new SlicedGradients(runtime as OnnxRuntime, graph, 8, 64, failing);
    await expect(sliced.compute(randomMinibatch(33, 64), weightsOf(m))).rejects.toThrow(
      'injected: the thread died',
    );
    // The pool's threads serve no longer: they take other work.
    const again = new SlicedGradients(runtime as OnnxRuntime, graph, 8, 64, pool);
    await expect(again.compute(randomMinibatch(33, 64), weightsOf(m))).resolves.toBeDefined();
    await again.release();
    sliced.dispose();
    again.dispose();
    m.dispose();
  });

  it('refuses a slice count that is not a positive integer', () => {
    for (const slices of [0, 2.5]) {
      expect(
        () =>
          new SlicedGradients(
            runtime as OnnxRuntime,
            { inputSize, network, loss: termOf({ kind: 'search-targets', valueCoef: 1 }) },
            slices,
            64,
            null,
          ),
      ).toThrow(`a minibatch's slices must be a positive integer, got ${slices}`);
    }
  });
});
