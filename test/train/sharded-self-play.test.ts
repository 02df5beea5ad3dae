import '../setup/builtin-algorithms.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { Random } from '../../env/index.ts';
import { loadBackend, type Tf } from '../../models/backend.ts';
import { buildConfig } from '../../train/config/build.ts';
import { readLayer } from '../../train/config/layers.ts';
import { PRESETS } from '../../train/config/presets.ts';
import type { ExpertIteration } from '../../train/expert-iteration/expert-iteration.ts';
import {
  type ExpertIterationSettings,
  expertIterationSettingsSchema,
} from '../../train/expert-iteration/settings.ts';
import { buildLearner, disposeLearner } from '../../train/learner.ts';
import type { TrainConfig } from '../../train/settings/schema.ts';

let tf: Tf;

beforeAll(async () => {
  tf = (await loadBackend('auto')).tf;
});

const config = (extra: Partial<ExpertIterationSettings> = {}): TrainConfig =>
  buildConfig([
    PRESETS.smoke,
    {
      algorithm: 'expert-iteration',
      minibatchSize: 32,
      expertIteration: {
        simulations: 4,
        gamesAtOnce: 10,
        movesPerIteration: 120,
        openingPlies: 0,
        openingPliesMax: 6,
        selfPlayShards: 3,
        replayIterations: 2,
        searchValueWeight: 0.5,
        ...extra,
      },
    },
  ]);

/**
 * Three iterations of games and updates; what the buffer, the generator and
 * the network's weights hold after each, and where the update's gradients ran.
 */
async function iterate(workers: number, extra: Partial<ExpertIterationSettings> = {}) {
  const learner = await buildLearner(tf, config(extra), { workers });
  const algorithm = learner.algorithm as ExpertIteration;
  const rng = Random.fromSeed(21);
  const out: unknown[] = [];
  try {
    algorithm.reset(1, rng);
    for (let i = 0; i < 3; i++) {
      const stats = await algorithm.collect(rng, i + 1);
      const update = await algorithm.update(rng);
      const { seconds: _s, ...counts } = stats;
      const replay = algorithm.replay();
      const weights = learner.model.getWeights().map((w) => Array.from(w.dataSync()));
      out.push({ counts, policyLoss: update.policyLoss, replay, rng: rng.getState(), weights });
    }
    return {
      out,
      evaluations: algorithm.selfPlay.tallies.evaluations,
      gradients: algorithm.updater.gradientThreads,
    };
  } finally {
    await disposeLearner(learner);
  }
}

describe('sharded self-play', () => {
  it('plays the same games and trains the same network, to the bit, in this thread or on 1, 2, 4 or 8 workers', async () => {
    const inProcess = await iterate(0);
    expect(inProcess.gradients).toMatch(/^(8 slices on 1 thread|tfjs)$/);
    for (const workers of [1, 2, 4, 8]) {
      const onWorkers = await iterate(workers);
      expect(onWorkers.out).toEqual(inProcess.out);
      expect(onWorkers.evaluations).toBe(inProcess.evaluations);
      // The update's 8 slices ran on the workers.
      if (inProcess.gradients !== 'tfjs') {
        const threads = workers === 1 ? '1 thread' : `${Math.min(workers, 8)} threads`;
        expect(onWorkers.gradients).toBe(`8 slices on ${threads}`);
      }
    }
    const first = inProcess.out[0] as { counts: { plies: number; games: number } };
    // Every shard plays its share of the moves and finishes at least one game.
    expect(first.counts.plies).toBeGreaterThanOrEqual(10 * 12);
    expect(first.counts.games).toBeGreaterThanOrEqual(3);
  });

  it('splits the games between the shards, each with its own generator', async () => {
    const one = await iterate(0, { selfPlayShards: 1 });
    const three = await iterate(0);
    // Different shards draw different openings and Gumbel noise: the games differ.
    expect(three.out).not.toEqual(one.out);
  });

  it.each(['quick', 'long'])(
    'the %s preset plays enough shards for 8 cores, each with games of its own',
    (preset) => {
      const built = buildConfig([PRESETS[preset]]);
      const blocks: Readonly<Record<string, unknown>> = built;
      const { selfPlayShards, gamesAtOnce } = expertIterationSettingsSchema.parse(
        blocks.expertIteration,
      );
      expect(selfPlayShards).toBeGreaterThanOrEqual(8);
      expect(gamesAtOnce / selfPlayShards).toBeGreaterThanOrEqual(16);
      // The update's slices keep as many cores busy.
      expect(built.updateSlices).toBeGreaterThanOrEqual(8);
    },
  );

  it('refuses more shards than games, and shards for PPO', () => {
    expect(() => config({ selfPlayShards: 11 })).toThrow(
      /expertIteration.selfPlayShards \(--self-play-shards\): is 11, more than gamesAtOnce \(10\): every shard needs a game/,
    );
    expect(() => buildConfig([readLayer({ selfPlayShards: 2 }, 'config')])).toThrow(
      /expertIteration.selfPlayShards \(--self-play-shards\): applies to --algorithm expert-iteration only/,
    );
  });
});
