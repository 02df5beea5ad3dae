import '../setup/builtin-algorithms.ts';
import { describe, expect, it } from 'vitest';
import { Random } from '../../env/random.ts';
import { loadBackend } from '../../models/backend.ts';
import { setInferenceChoice } from '../../models/inference/choice.ts';
import { OnnxForward } from '../../models/inference/onnx-forward.ts';
import { loadOnnxRuntime } from '../../models/inference/onnx-runtime.ts';
import { buildConfig } from '../../train/config/build.ts';
import { PRESETS } from '../../train/config/presets.ts';
import { OnnxGradients } from '../../train/gradients/onnx-gradients.ts';
import { buildLearner, disposeLearner } from '../../train/learner.ts';
import type { ConfigLayer } from '../../train/settings/layer.ts';

const { tf } = await loadBackend('auto');
const onnx = (await loadOnnxRuntime()).runtime !== null;

/**
 * Tensors, onnxruntime inference sessions and gradient sessions alive after
 * each of `iterations` collect + update steps, and after the learner is disposed.
 */
async function liveAfterIterations(layer: ConfigLayer, iterations: number) {
  const config = buildConfig([PRESETS.smoke, layer]);
  const learner = await buildLearner(tf, config, { workers: 0 });
  const rng = Random.fromSeed(1);
  learner.algorithm.reset(1, rng);
  const count = () => ({
    tensors: tf.memory().numTensors,
    sessions: OnnxForward.live,
    gradientSessions: OnnxGradients.live,
  });
  const live: ReturnType<typeof count>[] = [];
  for (let i = 0; i < iterations; i++) {
    await learner.algorithm.collect(rng, i + 1);
    await learner.algorithm.update(rng);
    live.push(count());
  }
  await disposeLearner(learner);
  return { live, after: count(), gradientBackend: learner.algorithm.gradientBackend };
}

const algorithms: [string, ConfigLayer][] = [
  ['expert iteration', { algorithm: 'expert-iteration' }],
  [
    'expert iteration with exact targets',
    {
      algorithm: 'expert-iteration',
      expertIteration: { solverNodes: 500, solverEndgameSeeds: 0 },
    },
  ],
  ['PPO', { algorithm: 'ppo', ppo: { poolShare: 0.5, snapshotEvery: 1 } }],
  ['REINFORCE', { algorithm: 'reinforce' }],
];

describe('self-play inference leaks nothing per iteration', () => {
  it.each(algorithms)('%s on tfjs: the tensor count stays put', async (_, layer) => {
    setInferenceChoice('tfjs');
    const before = tf.memory().numTensors;
    const { live, after, gradientBackend } = await liveAfterIterations(layer, 4);
    expect(live.map((l) => l.tensors)).toEqual(live.map(() => live[0]?.tensors));
    expect(after.tensors).toBe(before);
    // On the fallback the gradients are tfjs's too.
    expect(gradientBackend).toBe('tfjs');
    expect(live.every((l) => l.gradientSessions === 0)).toBe(true);
  });

  it.skipIf(!onnx).each(algorithms)(
    '%s on onnxruntime: one session a network, all released at the end',
    async (_, layer) => {
      setInferenceChoice('onnx');
      const before = tf.memory().numTensors;
      const { live, after, gradientBackend } = await liveAfterIterations(layer, 4);
      // A new session from the new weights each iteration, the old one released.
      expect(new Set(live.map((l) => l.sessions)).size).toBe(1);
      expect(live.map((l) => l.tensors)).toEqual(live.map(() => live[0]?.tensors));
      // The update's gradients: one session for the whole run.
      expect(gradientBackend).toBe('onnx');
      expect(live.map((l) => l.gradientSessions)).toEqual(live.map(() => 1));
      expect(after).toEqual({ tensors: before, sessions: 0, gradientSessions: 0 });
    },
  );
});
