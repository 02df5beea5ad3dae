import '../setup/builtin-algorithms.ts';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBackend } from '../../models/backend.ts';
import { setInferenceChoice } from '../../models/inference/choice.ts';
import { parseSweepConfig, planSweep } from '../../queue/sweep-plan.ts';
import { isRunFinished, RUN_DONE_FILE } from '../../queue/sweep-store.ts';
import { buildConfig } from '../../train/config/build.ts';
import { readLayer } from '../../train/config/layers.ts';
import { PRESETS } from '../../train/config/presets.ts';
import { parseTrainConfig, trainConfigSchema } from '../../train/config/validate.ts';
import { readCheckpoint } from '../../train/run/checkpoint.ts';
import { runPaths } from '../../train/run/paths.ts';
import { train } from '../../train/trainer.ts';
import { runAyoayo } from '../ayoayo-command.ts';
import { ending, readJson, savedRuns } from './saved-runs.ts';

/**
 * Run folders saved before the settings were grouped by algorithm
 * (test/fixtures/train/README.md): a flat config.json and checkpoint,
 * stopped after iteration 2 of 4, and what the uninterrupted run held after
 * iteration 4.
 */
const { fixture, copyRun, expected } = savedRuns('flat-config-runs');

/** The saved config.json is in the grouped form, the one the run trains with. */
function expectGroupedConfigJson(runsDir: string, name: string, algorithm: string): void {
  const saved = readJson(runPaths({ runsDir, name }).config);
  expect(trainConfigSchema.safeParse(saved).success).toBe(true);
  expect(saved.algorithm).toBe(algorithm);
  expect(saved).not.toHaveProperty('numEnvs');
  expect(readCheckpoint(runPaths({ runsDir, name }).latest).config).toEqual(saved);
}

const { name: backend } = await loadBackend('auto');
// The fixtures were trained with the fallback's inference (tfjs for self-play,
// the plain runner for evaluation); floats are the same on the same backends only.
setInferenceChoice('tfjs');

describe('a run saved with the flat config of earlier versions', () => {
  it.each([
    ['expert-iteration', 'expert-iteration'],
    ['ppo', 'ppo'],
  ])('%s: resumes as the same run and saves its config grouped', async (name, algorithm) => {
    const runsDir = copyRun(name);
    // As `ayoayo train --resume --name NAME` gives it: the saved settings come from the checkpoint.
    const result = await train([{ name, runsDir }], { resume: true, log: () => {} });
    expect(result.iteration).toBe(4);
    expectGroupedConfigJson(runsDir, name, algorithm);
    const end = expected(name);
    // The uninterrupted run was trained on the fixture's backend; floating point differs elsewhere.
    if (backend === end.backend) expect(ending(runsDir, name, backend)).toEqual(end);
  });

  it('resumes from the command line, which may still extend it', async () => {
    const name = 'expert-iteration';
    const runsDir = copyRun(name);
    const args = ['train', '--runs-dir', runsDir, '--name', name, '--resume'];
    const run = await runAyoayo([...args, '--iterations', '3', '--no-progress']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('resuming after iteration 2');
    expectGroupedConfigJson(runsDir, name, 'expert-iteration');
    expect(readCheckpoint(runPaths({ runsDir, name }).latest).iteration).toBe(3);
    // A setting of the run that differs is still refused, named as it is called today.
    const changed = await runAyoayo([...args, '--search-simulations', '8']);
    expect(changed.stderr).toMatch(
      /^ayoayo: --resume cannot change expertIteration.simulations \(--search-simulations\) \(run: 4, given: 8\)/,
    );
  }, 60_000);

  it('reads as the grouped config that trains the same: alphazero is expert-iteration, its moves numEnvs x rolloutSteps', () => {
    const flat = readJson(fixture('expert-iteration/config.json'));
    expect(flat).toMatchObject({ algorithm: 'alphazero', numEnvs: 6, rolloutSteps: 6 });
    const config = parseTrainConfig(flat);
    expect(config).toMatchObject({
      algorithm: 'expert-iteration',
      hidden: flat.hidden,
      learningRate: flat.learningRate,
      expertIteration: {
        gamesAtOnce: 6,
        movesPerIteration: 36,
        selfPlayShards: 2,
        simulations: 4,
        replayIterations: 2,
        searchValueWeight: 0.5,
        epochs: 2,
        openingPlies: 0,
        openingPliesMax: 4,
      },
    });
    // The settings PPO alone read are dropped.
    expect(config).not.toHaveProperty('ppo');
    expect(config).not.toHaveProperty('poolShare');
    const ppo = parseTrainConfig(readJson(fixture('ppo/config.json')));
    expect(ppo).toMatchObject({
      algorithm: 'ppo',
      ppo: { numEnvs: 8, rolloutSteps: 6, poolShare: 0.5, poolSize: 2, openingPlies: 4 },
    });
    expect(ppo).not.toHaveProperty('expertIteration');
  });

  it('is accepted as a --config file, and a flat config that is broken is named as such', () => {
    const file = readJson(fixture('expert-iteration/config.json'));
    expect(buildConfig([readLayer(file, 'config'), { iterations: 9 }])).toEqual({
      ...parseTrainConfig(file),
      iterations: 9,
    });
    expect(() => parseTrainConfig({ ...file, numEnvs: 0 })).toThrow(
      /invalid config \(flat, as saved before the settings were grouped by algorithm\): numEnvs: Too small/,
    );
  });

  it('a sweep run finished with it counts as finished when the sweep plans the same settings', () => {
    const runsDir = mkdtempSync(join(tmpdir(), 'ayoayo-flat-sweep-'));
    const flat = { ...readJson(fixture('expert-iteration/config.json')), runsDir, name: 'run-01' };
    const run = { name: 'run-01', params: {}, config: parseTrainConfig(flat) };
    mkdirSync(join(runsDir, 'run-01'));
    const record = { name: 'run-01', params: {}, config: flat, elapsedSeconds: 1 };
    writeFileSync(join(runsDir, 'run-01', RUN_DONE_FILE), JSON.stringify(record));
    expect(isRunFinished(run)).toBe(true);
    const other = { ...run, config: { ...run.config, seed: 12 } };
    expect(() => isRunFinished(other)).toThrow(/holds a finished run with other settings/);
  });

  /** The long preset's run as it was before its 8 shards and the update's slices: 2 shards, one two-thread gradient session, 2 workers. */
  const MADE_BEFORE_SLICES = {
    expertIteration: { selfPlayShards: 2 },
    updateSlices: null,
    workers: 2,
  } as const;

  it('the flat config.json the pretrained policy of 940 iterations shipped with reads as the long preset', () => {
    const shipped = readJson(
      new URL('../fixtures/train/flat-config-long-940.json', import.meta.url).pathname,
    );
    expect(shipped.algorithm).toBe('alphazero');
    expect(parseTrainConfig(shipped)).toEqual(
      buildConfig([
        PRESETS.long,
        {
          name: shipped.name,
          runsDir: shipped.runsDir,
          progress: false,
          iterations: 940,
          encoding: 'counts',
          hidden: [256, 256, 256],
        },
        MADE_BEFORE_SLICES,
      ]),
    );
  });

  it('models/pretrained/config.json is the long preset as it is now, but for its name, folder, progress bar and the shards, update and workers of its day', () => {
    const shipped = readJson(
      new URL('../../models/pretrained/config.json', import.meta.url).pathname,
    );
    expect(parseTrainConfig(shipped)).toEqual(
      buildConfig([
        PRESETS.long,
        { name: shipped.name, runsDir: shipped.runsDir, progress: shipped.progress === true },
        MADE_BEFORE_SLICES,
      ]),
    );
  });
});

describe('settings keyed by their flags (flat layers: flat config files, sweeps)', () => {
  it('go into the block of the run’s algorithm; alphazero still names expert iteration', () => {
    const read = (fields: Record<string, unknown>) => buildConfig([readLayer(fields, 'config')]);
    expect(
      read({ algorithm: 'alphazero', searchSimulations: 8, numEnvs: 32, epochs: 3 }),
    ).toMatchObject({
      algorithm: 'expert-iteration',
      expertIteration: { simulations: 8, gamesAtOnce: 32, epochs: 3 },
    });
    expect(read({ numEnvs: 32, epochs: 3, poolShare: 0 })).toMatchObject({
      algorithm: 'ppo',
      ppo: { numEnvs: 32, epochs: 3, poolShare: 0 },
    });
    // A layer naming `alphazero` keeps its meaning of numEnvs and rolloutSteps given together.
    expect(read({ algorithm: 'alphazero', numEnvs: 64, rolloutSteps: 16 })).toMatchObject({
      expertIteration: { gamesAtOnce: 64, movesPerIteration: 1024 },
    });
    expect(() => buildConfig([{ ppo: 5 }])).toThrow(
      'invalid config: ppo: must be an object of ppo settings',
    );
  });

  it('a sweep of earlier versions plans the same runs, and one that cannot mean the same is refused clearly', () => {
    const runs = planSweep(
      parseSweepConfig({
        name: 'old',
        preset: 'quick',
        base: { iterations: 10 },
        grid: { searchSimulations: [8, 32], replayIterations: [1, 3] },
      }),
    );
    const run = (simulations: number, replayIterations: number) =>
      expect.objectContaining({
        algorithm: 'expert-iteration',
        expertIteration: expect.objectContaining({ simulations, replayIterations }),
      });
    expect(runs.map((r) => r.config)).toEqual([run(8, 1), run(8, 3), run(32, 1), run(32, 3)]);
    expect(() =>
      planSweep(parseSweepConfig({ name: 'old', preset: 'quick', grid: { rolloutSteps: [16] } })),
    ).toThrow(
      /sweep old run-01 .*ppo.rolloutSteps \(--rollout-steps\): applies to --algorithm ppo or reinforce only \(the run's algorithm is expert-iteration\); expert iteration plays --moves-per-iteration moves/,
    );
  });

  it('a preset may hold both blocks; a config file or flags may not', () => {
    const smoke = buildConfig([PRESETS.smoke, { algorithm: 'expert-iteration' }]);
    expect(smoke).toMatchObject({ expertIteration: { gamesAtOnce: 16, movesPerIteration: 128 } });
    expect(buildConfig([{ ...PRESETS.smoke }])).toMatchObject({ ppo: { numEnvs: 16 } });
    const file = { algorithm: 'ppo', expertIteration: { simulations: 8 } };
    const dir = mkdtempSync(join(tmpdir(), 'ayoayo-flat-'));
    writeFileSync(join(dir, 'c.json'), JSON.stringify(file));
    const fromFile = readLayer(JSON.parse(readFileSync(join(dir, 'c.json'), 'utf8')), 'config');
    expect(() => buildConfig([fromFile])).toThrow(
      "invalid config: expertIteration.simulations (--search-simulations): applies to --algorithm expert-iteration only (the run's algorithm is ppo)",
    );
    expect(() => parseTrainConfig({ ...buildConfig([]), expertIteration: {} })).toThrow(
      "invalid config: expertIteration: applies to --algorithm expert-iteration only (the run's algorithm is ppo)",
    );
  });
});
