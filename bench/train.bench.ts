import { Random } from '../env/random.ts';
import { loadBackend } from '../models/backend.ts';
import { DEFAULT_CONFIG, PRESETS, type TrainConfig } from '../train/config.ts';
import { buildLearner, disposeLearner } from '../train/learner.ts';
import { estimateAdvantages } from '../train/rollout-buffer.ts';
import type { Emit } from './types.ts';

/**
 * Self-play plies per second (VectorEnv stepping, lookahead encoding and one
 * batched tfjs inference per step included) and PPO update samples per second
 * (epochs counted), for the `quick` (npm start) and `long` (pretrained) networks.
 * Pure self-play (no pool, no baseline opponents), after two warm-up iterations.
 */
export async function run(emit: Emit): Promise<void> {
  const { tf, name: backend } = await loadBackend('auto');
  for (const preset of ['quick', 'long'] as const) {
    const config: TrainConfig = {
      ...DEFAULT_CONFIG,
      ...PRESETS[preset],
      seed: 1,
      poolShare: 0,
      baselineShare: 0,
    };
    const learner = await buildLearner(tf, config);
    const { selfPlay, updater, buffer } = learner;
    const rng = Random.fromSeed(1);
    selfPlay.reset(1, rng);
    let plies = 0;
    let rolloutSeconds = 0;
    let samples = 0;
    let updateSeconds = 0;
    for (let i = 0; i < 8; i++) {
      const rollout = await selfPlay.collect(config.rolloutSteps, buffer, rng);
      estimateAdvantages(buffer, config);
      const update = updater.update(buffer, rng);
      if (i < 2) continue;
      plies += rollout.plies;
      rolloutSeconds += rollout.seconds;
      samples += update.samples;
      updateSeconds += update.seconds;
    }
    emit({
      name: 'self-play',
      preset,
      backend,
      hidden: config.hidden.join('x'),
      numEnvs: config.numEnvs,
      selfPlayPliesPerSec: Math.round(plies / rolloutSeconds),
      updateSamplesPerSec: Math.round(samples / updateSeconds),
    });
    disposeLearner(learner);
  }
}
