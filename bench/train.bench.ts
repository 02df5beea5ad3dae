import { availableParallelism } from 'node:os';
import { Random } from '../env/random.ts';
import { loadBackend } from '../models/backend.ts';
import { buildConfig } from '../train/config/build.ts';
import { PRESETS } from '../train/config/presets.ts';
import { ExpertIteration } from '../train/expert-iteration/expert-iteration.ts';
import { buildLearner, disposeLearner } from '../train/learner.ts';
import type { Emit } from './types.ts';

/**
 * Self-play plies per second and update samples per second (epochs counted)
 * of each preset's algorithm, after two warm-up iterations, with no pool or
 * baseline opponents. PPO (`quick-ppo`, `long-ppo`): VectorEnv stepping, lookahead
 * encoding and one batched tfjs inference per step. Expert iteration (`quick`, `long`):
 * searched moves per second, each behind a Gumbel search whose leaves of all
 * games go through the network in one batched call, and those leaf
 * evaluations per second.
 */
export async function run(emit: Emit): Promise<void> {
  const { tf, name: backend } = await loadBackend('auto');
  for (const preset of ['quick', 'quick-ppo', 'long', 'long-ppo'] as const) {
    const base = PRESETS[preset];
    const selfOnly =
      base?.algorithm === 'expert-iteration' ? {} : { ppo: { poolShare: 0, baselineShare: 0 } };
    const config = buildConfig([base, { seed: 1, ...selfOnly }]);
    // Expert iteration's shards play on worker threads as in a run (one per core at most).
    const workers = Math.min(config.workers, availableParallelism());
    const learner = await buildLearner(tf, config, { workers });
    const { algorithm } = learner;
    const rng = Random.fromSeed(1);
    algorithm.reset(1, rng);
    let plies = 0;
    let rolloutSeconds = 0;
    let samples = 0;
    let updateSeconds = 0;
    const searchSelfPlay = algorithm instanceof ExpertIteration ? algorithm.selfPlay : null;
    let evaluations = 0;
    for (let i = 0; i < 8; i++) {
      const evaluationsBefore = searchSelfPlay?.evaluations ?? 0;
      const rollout = await algorithm.collect(rng, i + 1);
      const update = algorithm.update(rng);
      if (i < 2) continue;
      plies += rollout.plies;
      evaluations += (searchSelfPlay?.evaluations ?? 0) - evaluationsBefore;
      rolloutSeconds += rollout.seconds;
      samples += update.samples;
      updateSeconds += update.seconds;
    }
    emit({
      name: 'self-play',
      preset,
      backend,
      algorithm: config.algorithm,
      hidden: config.hidden.join('x'),
      ...(config.algorithm === 'expert-iteration'
        ? { gamesAtOnce: config.expertIteration.gamesAtOnce }
        : { numEnvs: config.ppo.numEnvs }),
      selfPlayPliesPerSec: Math.round(plies / rolloutSeconds),
      ...(config.algorithm === 'expert-iteration'
        ? {
            searchSimulations: config.expertIteration.simulations,
            selfPlayShards: config.expertIteration.selfPlayShards,
            workers,
            leafEvaluationsPerSec: Math.round(evaluations / rolloutSeconds),
          }
        : {}),
      updateSamplesPerSec: Math.round(samples / updateSeconds),
    });
    await disposeLearner(learner);
  }
}
