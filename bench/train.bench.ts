import { observationSize } from '../env/gym/observation.ts';
import { Random } from '../env/random.ts';
import { loadBackend } from '../models/backend.ts';
import { createPolicyValueModel } from '../models/policy-value-model.ts';
import { DEFAULT_CONFIG, PRESETS, rulesOf, type TrainConfig } from '../train/config.ts';
import { OpponentPool } from '../train/opponent-pool.ts';
import { PolicyUpdater } from '../train/policy-update.ts';
import { computeAdvantages, RolloutBuffer } from '../train/rollout-buffer.ts';
import { SelfPlay } from '../train/self-play.ts';
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
      poolShare: 0,
      baselineShare: 0,
    };
    const rules = rulesOf(config);
    const obsSize = observationSize({ encoding: config.encoding, lookahead: config.lookahead });
    const model = createPolicyValueModel(
      tf,
      obsSize,
      { hidden: config.hidden, activation: config.activation },
      1,
    );
    const optimizer = tf.train.adam(config.learningRate);
    const updater = new PolicyUpdater(tf, model, optimizer, config, obsSize);
    const selfPlay = new SelfPlay(
      tf,
      model,
      { ...config, numEnvs: config.numEnvs, seed: 1, rules },
      new OpponentPool(1),
      [],
      { poolShare: 0, baselineShare: 0 },
      rules,
    );
    const rng = Random.fromSeed(1);
    selfPlay.reset(1, rng);
    const buffer = new RolloutBuffer(config.numEnvs * config.rolloutSteps, obsSize);
    let plies = 0;
    let rolloutSeconds = 0;
    let samples = 0;
    let updateSeconds = 0;
    for (let i = 0; i < 8; i++) {
      const rollout = await selfPlay.collect(config.rolloutSteps, buffer, rng);
      computeAdvantages(buffer, config.gamma, config.gaeLambda);
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
    optimizer.dispose();
    model.dispose();
  }
}
