import '../setup/builtin-algorithms.ts';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { INFERENCE_ENV, setInferenceChoice } from '../../models/inference/choice.ts';
import { loadOnnxRuntime } from '../../models/inference/onnx-runtime.ts';
import { buildConfig } from '../../train/config/build.ts';
import { PRESETS } from '../../train/config/presets.ts';
import { readCheckpoint } from '../../train/run/checkpoint.ts';
import { runPaths } from '../../train/run/paths.ts';
import { findResumePoint } from '../../train/run/resume.ts';
import type { ConfigLayer } from '../../train/settings/layer.ts';
import type { TrainConfig } from '../../train/settings/schema.ts';
import { train } from '../../train/trainer.ts';

function smoke(runsDir: string, overrides: ConfigLayer = {}): TrainConfig {
  return buildConfig([PRESETS.smoke, { runsDir, ...overrides }]);
}

/** sha256 of every file under a folder, by relative path. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    out[path.slice(dir.length)] = createHash('sha256').update(readFileSync(path)).digest('hex');
  }
  return out;
}

describe('resume', () => {
  it('writes where the command line says: a copied run resumes in the copy, the original is untouched', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ayoayo-resume-'));
    const lines: string[] = [];
    const log = (line: string) => lines.push(line);
    await train(smoke(dir, { name: 'orig', iterations: 1 }), { resume: false, log });
    cpSync(join(dir, 'orig'), join(dir, 'copy'), { recursive: true });
    const before = snapshot(join(dir, 'orig'));

    // As the CLI gives it: the saved settings, then what the command line gives.
    const given = { runsDir: dir, name: 'copy', iterations: 2, evalGames: 2 };
    const result = await train([given], { resume: true, log });
    expect(result.runDir).toBe(join(dir, 'copy'));
    expect(snapshot(join(dir, 'orig'))).toEqual(before);
    const copy = runPaths(given);
    expect(readCheckpoint(copy.latest).config.hidden).toEqual(PRESETS.smoke?.settings.hidden);
    expect(readCheckpoint(copy.latest).iteration).toBe(2);
    expect(readCheckpoint(copy.latest).config.name).toBe('copy');
    expect(readFileSync(copy.metrics, 'utf8').trim().split('\n')).toHaveLength(3);
  });

  it('refuses another algorithm in one short message, whether given as a flag or by a preset', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ayoayo-resume-'));
    await train(smoke(dir, { name: 'p', iterations: 1, algorithm: 'ppo', progress: false }), {
      resume: false,
      log: () => {},
    });
    const message =
      '--resume cannot change algorithm (run: "ppo", given: "expert-iteration"); a resumed run may change only iterations,';
    const resume = { resume: true, log: () => {} };
    await expect(
      train([{ runsDir: dir, name: 'p', algorithm: 'expert-iteration' }], resume),
    ).rejects.toThrow(message);
    await expect(
      train([PRESETS.quick, { runsDir: dir, name: 'p', iterations: 2 }], resume),
    ).rejects.toThrow(message);
  });

  it('refuses setting flags that differ from the saved run, naming each', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ayoayo-resume-'));
    await train(smoke(dir, { name: 'r', iterations: 1, progress: false }), {
      resume: false,
      log: () => {},
    });
    const given = { runsDir: dir, name: 'r', iterations: 3 };
    const attempt = (extra: Record<string, unknown>) =>
      train([{ ...given, ...extra }], { resume: true, log: () => {} });
    await expect(attempt({ hidden: [32], learningRate: 0.01, encoding: 'onehot' })).rejects.toThrow(
      /--resume cannot change hidden \(run: \[16\], given: \[32\]\), encoding \(run: "counts", given: "onehot"\), learningRate .*may change only iterations/,
    );
    // The library call refuses the same way when the whole config is given.
    await expect(
      train(smoke(dir, { ...given, ppo: { gamma: 0.9 } }), { resume: true, log: () => {} }),
    ).rejects.toThrow(/--resume cannot change ppo.gamma \(--gamma\) \(run: 1, given: 0.9\)/);
    expect(readCheckpoint(runPaths({ runsDir: dir, name: 'r' }).latest).iteration).toBe(1);
  });

  it('continues from the newest complete checkpoint after a kill while writing latest, and removes the temp file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ayoayo-resume-'));
    const config = smoke(dir, { name: 'k', iterations: 3 });
    await train(config, { resume: false, stopAfter: 3, log: () => {} });
    const paths = runPaths(config);
    // Killed between iter-000003.json and latest.json: latest still holds iteration 2,
    // and the half-written temp file of latest stays behind.
    const older = readFileSync(join(paths.checkpoints, 'iter-000002.json'), 'utf8');
    writeFileSync(paths.latest, older);
    const temp = join(paths.checkpoints, '.latest.json.99999.tmp');
    writeFileSync(temp, older.slice(0, 100));
    expect(findResumePoint(paths).payload.iteration).toBe(3);

    const lines: string[] = [];
    const result = await train(
      { ...config, iterations: 4 },
      { resume: true, log: (l) => lines.push(l) },
    );
    expect(lines.join('\n')).toMatch(/resuming after iteration 3 from .*iter-000003\.json/);
    expect(result.iteration).toBe(4);
    expect(readFileSync(paths.metrics, 'utf8').trim().split('\n')).toHaveLength(5);
    expect(existsSync(temp)).toBe(false);
  });
});

describe('resume with other evaluation baselines', () => {
  it("keeps the earlier baselines' scores in metrics.csv", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ayoayo-resume-'));
    const first = smoke(dir, {
      name: 'eo',
      iterations: 2,
      evalEvery: 1,
      evalGames: 2,
      evalOpponents: ['random'],
      progress: false,
    });
    await train(first, { resume: false, log: () => {} });
    const given = { runsDir: dir, name: 'eo', iterations: 3, evalOpponents: ['greedy'] };
    await train([given], { resume: true, log: () => {} });
    const [header, ...rows] = readFileSync(runPaths(given).metrics, 'utf8').trim().split('\n');
    const columns = (header ?? '').split(',');
    const random = columns.indexOf('eval/score_vs_random');
    const greedy = columns.indexOf('eval/score_vs_greedy');
    expect(random).toBeGreaterThan(greedy);
    expect(greedy).toBeGreaterThan(0);
    const cells = rows.map((row) => row.split(','));
    expect(cells.map((c) => c[random] !== '')).toEqual([true, true, false]);
    expect(cells.map((c) => c[greedy] !== '')).toEqual([false, false, true]);
  });
});

const onnx = (await loadOnnxRuntime()).runtime !== null;

describe('resume where the gradients are computed elsewhere', () => {
  const before = process.env[INFERENCE_ENV];
  afterEach(() => {
    if (before === undefined) delete process.env[INFERENCE_ENV];
    else process.env[INFERENCE_ENV] = before;
  });

  it.skipIf(!onnx)(
    'goes on, says so in one line, and metrics.csv names where each update computed its gradients',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'ayoayo-resume-'));
      const lines: string[] = [];
      const log = (line: string) => lines.push(line);
      setInferenceChoice('onnx');
      await train(smoke(dir, { name: 'g', iterations: 2, progress: false }), {
        resume: false,
        log,
      });
      expect(lines.some((l) => l.includes('computed their gradients on'))).toBe(false);
      setInferenceChoice('tfjs');
      const config = { runsDir: dir, name: 'g', iterations: 3 };
      await train([config], { resume: true, log });
      expect(lines.filter((l) => l.includes('computed their gradients on'))).toEqual([
        'ayoayo train: the updates computed their gradients on onnx up to iteration 2 and on tfjs from here: from here the run differs from an uninterrupted one in float rounding',
      ]);
      const metrics = readCheckpoint(runPaths(config).latest).metrics;
      expect(metrics.map((row) => row['update/gradient_backend'])).toEqual([
        'onnx',
        'onnx',
        'tfjs',
      ]);
    },
  );
});
