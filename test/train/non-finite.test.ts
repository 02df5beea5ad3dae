import '../setup/builtin-algorithms.ts';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { encodeFloats } from '../../models/base64-floats.ts';
import { encodeCheckpoint, readCheckpointPayload } from '../../models/checkpoint-file.ts';
import { buildConfig } from '../../train/config/build.ts';
import { PRESETS } from '../../train/config/presets.ts';
import { PolicyUpdater } from '../../train/ppo/policy-update.ts';
import { readCheckpoint } from '../../train/run/checkpoint.ts';
import { runPaths } from '../../train/run/paths.ts';
import { train } from '../../train/trainer.ts';

const quiet = { log: () => {} };

afterEach(() => {
  vi.restoreAllMocks();
});

describe('non-finite numbers in training', () => {
  it('stops with a clear error at the first non-finite loss, keeping the last good checkpoint', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ayoayo-nan-'));
    const config = buildConfig([PRESETS.smoke, { runsDir: dir, name: 'n', iterations: 5 }]);
    const update = PolicyUpdater.prototype.update;
    let calls = 0;
    vi.spyOn(PolicyUpdater.prototype, 'update').mockImplementation(async function (
      this: PolicyUpdater,
      ...args
    ) {
      const stats = await update.apply(this, args);
      calls++;
      return calls === 3 ? { ...stats, valueLoss: Number.NaN } : stats;
    });
    await expect(train(config, { resume: false, ...quiet })).rejects.toThrow(
      /training stopped at iteration 3: the value loss is NaN; the last good checkpoint, .*latest\.json, is kept/,
    );
    const paths = runPaths(config);
    expect(readCheckpoint(paths.latest).iteration).toBe(2);
    expect(readFileSync(paths.metrics, 'utf8').trim().split('\n')).toHaveLength(3);
  });

  it('refuses to resume from a checkpoint whose weights hold NaN', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ayoayo-nan-'));
    const config = buildConfig([PRESETS.smoke, { runsDir: dir, name: 'n', iterations: 1 }]);
    await train(config, { resume: false, ...quiet });
    const latest = runPaths(config).latest;
    const payload = readCheckpointPayload(latest) as { weights: { name: string; data: string }[] };
    const first = payload.weights[0];
    if (first === undefined) throw new Error('checkpoint without weights');
    const values = new Float32Array(Uint8Array.from(Buffer.from(first.data, 'base64')).buffer);
    values[0] = Number.NaN;
    first.data = encodeFloats(values);
    writeFileSync(latest, encodeCheckpoint(payload));
    // The iteration's own file is intact too: without it, nothing is left to resume from.
    rmSync(join(runPaths(config).checkpoints, 'iter-000001.json'));
    await expect(train({ ...config, iterations: 2 }, { resume: true, ...quiet })).rejects.toThrow(
      /checkpoint .*latest\.json is corrupt: tensor hidden_1\/kernel: value 0 is NaN/,
    );
  });
});
