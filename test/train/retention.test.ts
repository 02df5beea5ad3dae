import '../setup/builtin-algorithms.ts';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildConfig } from '../../train/config/build.ts';
import { readLayer } from '../../train/config/layers.ts';
import { PRESETS } from '../../train/config/presets.ts';
import { readCheckpoint } from '../../train/run/checkpoint.ts';
import { runPaths } from '../../train/run/paths.ts';
import { findResumePoint } from '../../train/run/resume.ts';
import { planRetention } from '../../train/run/retention.ts';
import type { ConfigLayer } from '../../train/settings/layer.ts';
import type { TrainConfig } from '../../train/settings/schema.ts';
import { train } from '../../train/trainer.ts';

const scratch = mkdtempSync(join(tmpdir(), 'ayoayo-retention-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const range = (from: number, to: number, step = 1): number[] =>
  Array.from({ length: Math.floor((to - from) / step) + 1 }, (_, i) => from + i * step);

describe('planRetention', () => {
  it('keeps the newest checkpoints and the pool snapshots they would sample', () => {
    // Checkpoints every 5 iterations, snapshots every 5, a pool of 3.
    const plan = planRetention(range(5, 100, 5), range(5, 100, 5), 3, 3);
    expect(plan.keptCheckpoints).toEqual([90, 95, 100]);
    expect(plan.deletedCheckpoints).toEqual(range(5, 85, 5));
    // Resumed from iteration 90 the pool holds the snapshots of 80, 85 and 90.
    expect(plan.keptPool).toEqual([80, 85, 90, 95, 100]);
    expect(plan.deletedPool).toEqual(range(5, 75, 5));
  });

  it('keeps snapshots newer than every checkpoint: the trainer samples them now', () => {
    const plan = planRetention([10, 20, 30], range(2, 36, 2), 1, 2);
    expect(plan.keptCheckpoints).toEqual([30]);
    expect(plan.keptPool).toEqual([28, 30, 32, 34, 36]);
  });

  it('deletes nothing while there are no more checkpoints than it keeps', () => {
    const plan = planRetention([1, 2], [1, 2], 3, 10);
    expect(plan.deletedCheckpoints).toEqual([]);
    expect(plan.deletedPool).toEqual([]);
    expect(planRetention([], [], 3, 10).keptPool).toEqual([]);
  });

  it('keeps the whole pool a checkpoint needs when there are fewer snapshots than the pool holds', () => {
    const plan = planRetention([4, 8, 12], [3, 6, 9, 12], 2, 5);
    expect(plan.keptCheckpoints).toEqual([8, 12]);
    expect(plan.keptPool).toEqual([3, 6, 9, 12]);
  });

  it('keeps no snapshot for an algorithm without a pool (expert iteration resumed from a run of earlier versions)', () => {
    const plan = planRetention([4, 8], [2, 4, 6], 3, 0);
    expect(plan.keptCheckpoints).toEqual([4, 8]);
    expect(plan.keptPool).toEqual([]);
    expect(plan.deletedPool).toEqual([2, 4, 6]);
  });
});

function tiny(overrides: ConfigLayer): TrainConfig {
  // Keyed by their flags, as a config file gives them.
  return buildConfig([
    PRESETS.smoke,
    readLayer(
      {
        runsDir: scratch,
        iterations: 12,
        checkpointEvery: 1,
        keepCheckpoints: 2,
        snapshotEvery: 1,
        poolSize: 3,
        poolShare: 0.5,
        evalEvery: 4,
        ...overrides,
      },
      'config',
    ),
  ]);
}

describe('a run on disk', () => {
  it('stays bounded while it trains, and still resumes', async () => {
    const config = tiny({ name: 'bounded' });
    const paths = runPaths(config);
    await train(config, { resume: false, log: () => {}, stopAfter: 9 });
    const checkpoints = readdirSync(paths.checkpoints).sort();
    expect(checkpoints).toEqual([
      'best.json',
      'iter-000008.json',
      'iter-000009.json',
      'latest.json',
    ]);
    // The newest checkpoint's pool (iterations 7-9) and the older kept one's (6-8) are on disk.
    expect(readdirSync(paths.pool).sort()).toEqual([6, 7, 8, 9].map((i) => `iter-00000${i}.json`));
    const point = findResumePoint(paths);
    for (const entry of point.payload.pool) {
      expect(readdirSync(paths.pool)).toContain(entry.path.replace('pool/', ''));
    }
    expect(readCheckpoint(join(paths.checkpoints, 'iter-000008.json')).iteration).toBe(8);

    const resumed = await train(config, { resume: true, log: () => {} });
    expect(resumed.iteration).toBe(12);
    expect(readdirSync(paths.checkpoints).sort()).toEqual([
      'best.json',
      'iter-000011.json',
      'iter-000012.json',
      'latest.json',
    ]);
    expect(readdirSync(paths.pool)).toHaveLength(4);
  }, 120_000);
});
