import { availableParallelism } from 'node:os';
import { Random } from '../env/random.ts';
import { loadBackend } from '../models/backend.ts';
import { buildConfig } from '../train/config/build.ts';
import { PRESETS } from '../train/config/presets.ts';
import { buildLearner, disposeLearner, type Learner } from '../train/learner.ts';
import type { ConfigLayer } from '../train/settings/layer.ts';
import { runWorkers } from '../train/threads/run-workers.ts';
import { benchPresets } from './train-presets.ts';
import type { Emit } from './types.ts';

/**
 * What the presets' 8 self-play shards and 8 update slices cost per
 * iteration against the 2 shards and one two-thread gradient session they
 * had before (`--self-play-shards 2`, `updateSlices` null: an old run's
 * settings), each change alone too, on this machine's cores: the runs'
 * iterations alternate in one process, so that whatever else the machine
 * does weighs on all alike, and `ratioToOld` is a run's seconds an iteration
 * (self-play and update) over the old run's. Two warm-up
 * iterations each, then ITERATIONS. `npm run bench -- train-shard-cost`.
 */
const WARM_UP = 2;
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 16);
/** The runs compared: an old run's settings, each change alone, and the preset. */
const VARIANTS: Readonly<Record<string, ConfigLayer>> = {
  old: { expertIteration: { selfPlayShards: 2 }, updateSlices: null },
  shardsOnly: { updateSlices: null },
  slicesOnly: { expertIteration: { selfPlayShards: 2 } },
  fourSlices: { updateSlices: 4 },
  twoSlices: { updateSlices: 2 },
  preset: {},
};

export async function run(emit: Emit): Promise<void> {
  const { tf, name: backend } = await loadBackend('auto');
  for (const preset of benchPresets()) {
    const names = Object.keys(VARIANTS);
    const configs = names.map((name) =>
      buildConfig([PRESETS[preset], { seed: 1 }, VARIANTS[name] as ConfigLayer]),
    );
    const learners: Learner[] = [];
    const selfPlay = names.map(() => 0);
    const update = names.map(() => 0);
    try {
      for (const config of configs) {
        learners.push(await buildLearner(tf, config, { workers: runWorkers(config) }));
      }
      const rngs = learners.map((learner) => {
        const rng = Random.fromSeed(1);
        learner.algorithm.reset(1, rng);
        return rng;
      });
      for (let i = 0; i < WARM_UP + ITERATIONS; i++) {
        for (const [k, learner] of learners.entries()) {
          const rng = rngs[k] as Random;
          const start = performance.now();
          await learner.algorithm.collect(rng, i + 1);
          const collected = performance.now();
          await learner.algorithm.update(rng);
          if (i < WARM_UP) continue;
          selfPlay[k] = (selfPlay[k] as number) + (collected - start) / 1000;
          update[k] = (update[k] as number) + (performance.now() - collected) / 1000;
        }
      }
    } finally {
      for (const learner of learners) await disposeLearner(learner);
    }
    const round = (x: number): number => Math.round(x * 1000) / 1000;
    const total = (k: number): number => (selfPlay[k] as number) + (update[k] as number);
    for (const [k, variant] of names.entries()) {
      emit({
        name: 'shard-cost',
        preset,
        variant,
        backend,
        cores: availableParallelism(),
        iterations: ITERATIONS,
        selfPlaySeconds: round((selfPlay[k] as number) / ITERATIONS),
        updateSeconds: round((update[k] as number) / ITERATIONS),
        ratioToOld: round(total(k) / total(0)),
      });
    }
  }
}
