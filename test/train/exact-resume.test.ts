import '../setup/builtin-algorithms.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Random } from '../../env/random.ts';
import { buildConfig } from '../../train/config/build.ts';
import { readLayer } from '../../train/config/layers.ts';
import { PRESETS } from '../../train/config/presets.ts';
import { ERRORS_SERIES } from '../../train/report/learning-curve.ts';
import { type CheckpointPayload, readCheckpoint } from '../../train/run/checkpoint.ts';
import { runPaths } from '../../train/run/paths.ts';
import type { TrainConfig } from '../../train/settings/schema.ts';
import { train } from '../../train/trainer.ts';

const quiet = { log: () => {} };
const ITERATIONS = 9;

/**
 * A tiny run that still exercises everything a resume must restore: several
 * Adam steps per iteration, the opponent pool, a baseline opponent, learning
 * rate annealing, and checkpoints every 2 iterations.
 */
function tiny(runsDir: string, name: string): TrainConfig {
  // Keyed by their flags, as a config file gives them.
  return buildConfig([
    PRESETS.smoke,
    readLayer(
      {
        runsDir,
        name,
        iterations: ITERATIONS,
        epochs: 3,
        minibatchSize: 32,
        checkpointEvery: 2,
        snapshotEvery: 2,
        poolShare: 0.3,
        baselineShare: 0.2,
        baselineOpponents: ['greedy'],
        learningRateDecay: true,
        learningRate: 0.003,
        evalEvery: 4,
      },
      'config',
    ),
  ]);
}

/**
 * Metrics rows without the wall-clock columns. Evaluation scores stay: their
 * games are seeded from the run's seed, the pairing and the game number, not
 * from the run's path, so a resumed run scores as the uninterrupted one.
 */
function trainingMetrics(payload: CheckpointPayload) {
  return payload.metrics.map((row) =>
    Object.fromEntries(
      Object.entries(row).filter(([k]) => !k.startsWith('perf/') && k !== 'elapsed_s'),
    ),
  );
}

describe('resume is exact', () => {
  it('a run stopped at a random iteration and resumed ends byte-identical to an uninterrupted one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ayoayo-exact-'));
    const whole = tiny(dir, 'whole');
    await train(whole, { resume: false, ...quiet });

    // Stopped after a seeded random iteration past the first checkpoint (as a
    // kill would: work after the last checkpoint is lost), then resumed to the end.
    const stopAt = 3 + Random.fromSeed('exact-resume').int(ITERATIONS - 4);
    const split = tiny(dir, 'split');
    await train(split, { resume: false, stopAfter: stopAt, ...quiet });
    const saved = readCheckpoint(runPaths(split).latest);
    expect(saved.iteration).toBe(stopAt - (stopAt % 2));
    await train(split, { resume: true, ...quiet });

    const a = readCheckpoint(runPaths(whole).latest);
    const b = readCheckpoint(runPaths(split).latest);
    expect(b.iteration).toBe(ITERATIONS);
    expect(b.weights).toEqual(a.weights);
    expect(b.optimizer).toEqual(a.optimizer);
    expect(b.rngState).toEqual(a.rngState);
    expect(b.counters.samples).toBe(a.counters.samples);
    expect(b.pool.map((p) => p.iteration)).toEqual(a.pool.map((p) => p.iteration));
    expect(trainingMetrics(b)).toEqual(trainingMetrics(a));
    expect(Object.keys(a.metrics.at(-1) ?? {}).filter((k) => k.startsWith('eval/'))).toEqual([
      'eval/errors_vs_perfect_play',
      'eval/value_sign_accuracy',
      'eval/score_vs_random',
    ]);
    expect(b.lastEvaluation).toEqual(a.lastEvaluation);
    // The accuracy against perfect play comes back with the checkpoint, so the resumed rows repeat it.
    expect(a.lastAccuracy?.errors).toBeGreaterThan(0);
    expect(b.lastAccuracy).toEqual(a.lastAccuracy);
    expect(b.best).toEqual(a.best);
    const scores = (p: CheckpointPayload) => p.curve.map(({ minutes: _, ...point }) => point);
    expect(scores(b)).toEqual(scores(a));
    // Each evaluation: the score against random, then the error rate against perfect play.
    expect(a.curve.map((p) => [p.iteration, p.opponent])).toEqual(
      [4, 8, 9].flatMap((i) => [
        [i, 'random'],
        [i, ERRORS_SERIES],
      ]),
    );
  });
});

describe('resume is exact with expert iteration', () => {
  it.each([
    { replayIterations: 1, searchValueWeight: 0, selfPlayShards: 1 },
    // A window longer than the checkpoint interval: resume must bring the window back;
    // shards draw from generators seeded at each checkpoint boundary.
    { replayIterations: 3, searchValueWeight: 0.5, selfPlayShards: 2 },
    // The rescoring solver's table is cleared at each shard iteration: its targets depend on the games alone.
    {
      replayIterations: 2,
      searchValueWeight: 0.5,
      selfPlayShards: 2,
      solverNodes: 2000,
      solverEndgameSeeds: 0,
    },
  ])(
    'an expert-iteration run (%o) stopped and resumed ends identical to an uninterrupted one',
    async (targets) => {
      const dir = mkdtempSync(join(tmpdir(), 'ayoayo-exact-az-'));
      const config = (name: string) =>
        buildConfig([
          PRESETS.smoke,
          {
            runsDir: dir,
            name,
            algorithm: 'expert-iteration',
            iterations: 6,
            minibatchSize: 32,
            checkpointEvery: 2,
            evalEvery: 3,
            learningRateDecay: true,
            expertIteration: {
              simulations: 4,
              gamesAtOnce: 8,
              movesPerIteration: 80,
              openingPlies: 0,
              openingPliesMax: 8,
              balancedOpenings: true,
              epochs: 2,
              ...targets,
            },
          },
        ]);
      const whole = config('whole');
      await train(whole, { resume: false, ...quiet });
      const stopAt = 3 + Random.fromSeed('exact-resume-az').int(3);
      const split = config('split');
      await train(split, { resume: false, stopAfter: stopAt, ...quiet });
      await train(split, { resume: true, ...quiet });

      const a = readCheckpoint(runPaths(whole).latest);
      const b = readCheckpoint(runPaths(split).latest);
      expect(b.iteration).toBe(6);
      expect(b.weights).toEqual(a.weights);
      expect(b.optimizer).toEqual(a.optimizer);
      expect(b.rngState).toEqual(a.rngState);
      expect(b.counters.samples).toBe(a.counters.samples);
      expect(trainingMetrics(b)).toEqual(trainingMetrics(a));
      expect(b.lastEvaluation).toEqual(a.lastEvaluation);
      expect(b.replay).toEqual(a.replay);
      expect(b.replay?.iterationRows.length).toBe(targets.replayIterations);
      if ('solverNodes' in targets) {
        expect(a.metrics.some((row) => Number(row['self_play/proven_share']) > 0)).toBe(true);
      }
    },
  );
});
