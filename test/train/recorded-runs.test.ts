import '../setup/builtin-algorithms.ts';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBackend } from '../../models/backend.ts';
import { setInferenceChoice } from '../../models/inference/choice.ts';
import { buildConfig } from '../../train/config/build.ts';
import { PRESETS } from '../../train/config/presets.ts';
import { parseTrainConfig } from '../../train/config/validate.ts';
import { readCheckpoint } from '../../train/run/checkpoint.ts';
import { runPaths } from '../../train/run/paths.ts';
import type { ConfigLayer } from '../../train/settings/layer.ts';
import { train } from '../../train/trainer.ts';

/**
 * Four short runs recorded by the trainer before train/ was regrouped and its
 * config nested per algorithm (test/fixtures/train/README.md): the same
 * settings, given in today's form, must train the same runs, move for move.
 */
interface Recorded {
  readonly flat: Record<string, unknown>;
  readonly backend: string;
  readonly metrics: Record<string, number | string>[];
  readonly weights: string;
  readonly optimizer: string;
  readonly replay: string | null;
  readonly rngState: number[];
  readonly counters: { games: number; plies: number; samples: number };
}

const recorded = JSON.parse(
  readFileSync(new URL('../fixtures/train/recorded-runs.json', import.meta.url), 'utf8'),
) as Record<string, Recorded>;

const base: ConfigLayer = {
  iterations: 4,
  checkpointEvery: 2,
  evalEvery: 2,
  seed: 7,
  learningRateDecay: true,
};

/** The recorded runs' settings as they are written today. */
const RUNS: Record<string, ConfigLayer> = {
  ppo: {
    ...base,
    minibatchSize: 32,
    ppo: {
      epochs: 2,
      poolShare: 0.3,
      snapshotEvery: 1,
      baselineShare: 0.2,
      baselineOpponents: ['greedy'],
    },
  },
  reinforce: { ...base, algorithm: 'reinforce', minibatchSize: 32, ppo: { gamma: 0.99 } },
  'expert-iteration': {
    ...base,
    algorithm: 'expert-iteration',
    minibatchSize: 32,
    expertIteration: {
      gamesAtOnce: 8,
      movesPerIteration: 80,
      simulations: 4,
      selfPlayShards: 2,
      replayIterations: 2,
      searchValueWeight: 0.5,
      openingPlies: 0,
      openingPliesMax: 8,
      balancedOpenings: true,
      epochs: 2,
    },
  },
  'expert-iteration-visits': {
    ...base,
    algorithm: 'expert-iteration',
    minibatchSize: 16,
    valueCoef: 1,
    expertIteration: {
      policyTarget: 'visits',
      gamesAtOnce: 6,
      movesPerIteration: 72,
      simulations: 5,
      openingPlies: 2,
      epochs: 3,
    },
  },
};

const sha = (value: unknown): string =>
  createHash('sha256').update(JSON.stringify(value)).digest('hex');

/** Columns added since the runs were recorded (checked on their own below). */
const ADDED_SINCE = [
  'self_play/backend',
  'eval/errors_vs_perfect_play',
  'eval/value_sign_accuracy',
  'self_play/proven_share',
  'update/gradient_backend',
];

/** Metrics rows without the wall-clock columns and those added since. */
const withoutTiming = (rows: readonly Record<string, number | string>[]) =>
  rows.map((row) =>
    Object.fromEntries(
      Object.entries(row).filter(
        ([k]) => !k.startsWith('perf/') && k !== 'elapsed_s' && !ADDED_SINCE.includes(k),
      ),
    ),
  );

const { name: backend } = await loadBackend('auto');
// The runs were recorded with self-play through tfjs and evaluation through the
// plain runner, the fallback's inference: floats are the same on the same
// backends only, so these runs are pinned to it (onnxruntime's runs differ in rounding).
setInferenceChoice('tfjs');

describe('runs recorded before the regrouping', () => {
  it('cover both algorithms and both search targets', () => {
    expect(Object.keys(recorded)).toEqual(Object.keys(RUNS));
  });

  it.each(Object.keys(RUNS))(
    '%s: its flat config reads as the grouped one written today',
    (name) => {
      const dir = mkdtempSync(join(tmpdir(), 'ayoayo-recorded-'));
      const run = recorded[name] as Recorded;
      // Recorded before `updateSlices`: their updates took one gradient session of two threads.
      const today = buildConfig([
        PRESETS.smoke,
        RUNS[name],
        { name, runsDir: dir, updateSlices: null },
      ]);
      expect(parseTrainConfig({ ...run.flat, runsDir: dir })).toEqual(today);
    },
  );

  // Floating point is the same on the same backend only (the runs were recorded on wasm).
  it.skipIf(backend !== (recorded.ppo as Recorded).backend).each(Object.keys(RUNS))(
    '%s: trains the same run, move for move (losses, weights, Adam state, replay window, generator)',
    async (name) => {
      const dir = mkdtempSync(join(tmpdir(), 'ayoayo-recorded-'));
      const run = recorded[name] as Recorded;
      const config = buildConfig([PRESETS.smoke, RUNS[name], { name, runsDir: dir }]);
      await train(config, { resume: false, log: () => {} });
      const end = readCheckpoint(runPaths(config).latest);
      expect(withoutTiming(end.metrics)).toEqual(run.metrics);
      // Expert iteration's rows name the inference its shards ran on (tfjs on this
      // backend, as pinned above); PPO's leave it empty.
      const backends = end.metrics.map((row) => row['self_play/backend']);
      expect(new Set(backends)).toEqual(
        new Set([config.algorithm === 'expert-iteration' ? `tfjs-${backend}` : '']),
      );
      expect(end.metrics.at(-1)?.['eval/errors_vs_perfect_play']).toEqual(expect.any(Number));
      // Pinned to tfjs, as recorded: the updates computed their gradients there too.
      expect(new Set(end.metrics.map((row) => row['update/gradient_backend']))).toEqual(
        new Set(['tfjs']),
      );
      expect({
        weights: sha(end.weights),
        optimizer: sha(end.optimizer),
        replay: end.replay === null ? null : sha(end.replay),
        rngState: end.rngState,
        counters: {
          games: end.counters.games,
          plies: end.counters.plies,
          samples: end.counters.samples,
        },
      }).toEqual({
        weights: run.weights,
        optimizer: run.optimizer,
        replay: run.replay,
        rngState: run.rngState,
        counters: run.counters,
      });
    },
  );
});
