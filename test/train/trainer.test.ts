import '../setup/builtin-algorithms.ts';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadOnnxRuntime } from '../../models/inference/onnx-runtime.ts';
import { readPolicyFile } from '../../models/read-policy-file.ts';
import { capWorkers } from '../../threads/pool.ts';
import { buildConfig } from '../../train/config/build.ts';
import { readLayer } from '../../train/config/layers.ts';
import { PRESETS } from '../../train/config/presets.ts';
import { CheckpointError, readCheckpoint } from '../../train/run/checkpoint.ts';
import { runPaths } from '../../train/run/paths.ts';
import type { ConfigLayer } from '../../train/settings/layer.ts';
import type { TrainConfig } from '../../train/settings/schema.ts';
import { runWorkers } from '../../train/threads/run-workers.ts';
import { train } from '../../train/trainer.ts';

const quiet = { log: () => {} };

function smokeConfig(runsDir: string, overrides: ConfigLayer = {}): TrainConfig {
  return buildConfig([PRESETS.smoke, { runsDir, ...overrides }]);
}

/**
 * Metrics without the wall-clock columns. Evaluation scores stay: their games
 * are seeded from the run's seed, the pairing and the game number, so runs
 * that differ only in name and path score alike.
 */
function deterministicMetrics(path: string): string[][] {
  const [header, ...rows] = readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.split(','));
  const keep = (header as string[]).map((h) => !h.startsWith('perf/') && h !== 'elapsed_s');
  return [header as string[], ...rows].map((r) => r.filter((_, i) => keep[i]));
}

describe('trainer', () => {
  it('trains the same network with 1, 2 or 8 workers, and says in its first line what its threads do', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ayoayo-train-'));
    const onnx = (await loadOnnxRuntime()).runtime !== null;
    const cores = availableParallelism();
    const trained: { weights: string; metrics: string[][] }[] = [];
    /** The first iteration's metrics of the run on each number of threads. */
    const firstIteration = new Map<number, string[][]>();
    // 128 units and 64-row minibatches: shapes whose products onnxruntime
    // rounds differently on one thread and on two.
    for (const workers of [1, 2, 8]) {
      const lines: string[] = [];
      const used = Math.min(workers, cores, 4);
      // A count of workers capped to threads an earlier run had (8 on 2 cores is 2) plays
      // what that run played: its first line is checked, and its first iteration.
      const repeated = firstIteration.has(used);
      const config = smokeConfig(dir, {
        name: `w${workers}`,
        algorithm: 'expert-iteration',
        iterations: 3,
        hidden: [128, 128],
        workers,
        expertIteration: { selfPlayShards: 4 },
      });
      await train(config, {
        resume: false,
        log: (line) => lines.push(line),
        ...(repeated ? { stopAfter: 1 } : {}),
      });
      if (workers > used) {
        expect(lines[0]).toBe(
          cores < 4
            ? `ayoayo train: workers ${workers} capped at ${cores}, the number of cores here`
            : "ayoayo train: workers 8 capped at 4, the run's 4 self-play shards (expertIteration.selfPlayShards)",
        );
        lines.shift();
      }
      const threads = used === 1 ? '1 thread' : `${used} threads`;
      expect(lines[0]).toContain(
        `${used} worker thread${used === 1 ? '' : 's'} of ${cores} cores: self-play in 4 shards on ${threads}, evaluations on ${threads}, ${onnx ? `the update's gradients in 8 slices on ${threads} on onnxruntime-node, Adam in WebAssembly` : "the update's gradients and Adam on tfjs"}`,
      );
      const paths = runPaths(config);
      const metrics = deterministicMetrics(paths.metrics);
      if (repeated) {
        expect(metrics).toEqual(firstIteration.get(used));
        continue;
      }
      firstIteration.set(used, metrics.slice(0, 2));
      trained.push({
        weights: JSON.stringify(readPolicyFile(paths.policy).file.network),
        metrics,
      });
    }
    for (const other of trained.slice(1)) {
      expect(other.metrics).toEqual(trained[0]?.metrics);
      expect(other.weights === trained[0]?.weights).toBe(true);
    }
    rmSync(dir, { recursive: true, force: true });
    // Runs of 128-unit layers: 35 s on 2 idle cores for three whole ones.
  }, 180_000);

  it('a tiny run writes config, metrics, checkpoints, a curve and a policy, and resumes exactly', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ayoayo-train-'));
    // Uninterrupted: 4 iterations.
    const whole = smokeConfig(dir, { name: 'whole', iterations: 4, checkpointEvery: 2 });
    const result = await train(whole, { resume: false, ...quiet });
    expect(result.iteration).toBe(4);
    const paths = runPaths(whole);
    for (const f of [
      paths.config,
      paths.metrics,
      paths.latest,
      paths.best,
      paths.policy,
      `${paths.curve}.svg`,
      `${paths.curve}.png`,
    ]) {
      expect(existsSync(f), f).toBe(true);
    }
    expect(readFileSync(paths.metrics, 'utf8').trim().split('\n')).toHaveLength(5);
    expect(JSON.parse(readFileSync(paths.config, 'utf8')).name).toBe('whole');

    // Interrupted after 2 iterations, then resumed to 4: the same run.
    const split = smokeConfig(dir, { name: 'split', iterations: 4, checkpointEvery: 2 });
    await train(split, { resume: false, stopAfter: 2, ...quiet });
    expect(readCheckpoint(runPaths(split).latest).iteration).toBe(2);
    const resumed = await train(split, { resume: true, ...quiet });
    expect(resumed.finalEvaluation?.rows).toEqual(result.finalEvaluation?.rows);
    const a = readCheckpoint(paths.latest);
    const b = readCheckpoint(runPaths(split).latest);
    expect(b.iteration).toBe(4);
    expect(b.weights).toEqual(a.weights);
    expect(b.optimizer).toEqual(a.optimizer);
    expect(b.rngState).toEqual(a.rngState);
    expect(deterministicMetrics(runPaths(split).metrics)).toEqual(
      deterministicMetrics(paths.metrics),
    );
  });

  it('refuses to start over an existing run, and reports corrupt or missing checkpoints clearly', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ayoayo-train-'));
    const config = smokeConfig(dir, { name: 'r', iterations: 1 });
    await train(config, { resume: false, ...quiet });
    await expect(train(config, { resume: false, ...quiet })).rejects.toThrow(
      /already has checkpoints.*--resume/,
    );
    const paths = runPaths(config);
    const text = readFileSync(paths.latest, 'utf8');
    writeFileSync(paths.latest, text.slice(0, text.length / 2));
    expect(() => readCheckpoint(paths.latest)).toThrow(CheckpointError);
    // The same iteration's own file is intact: the run resumes from it, saying so.
    const lines: string[] = [];
    await train(config, { resume: true, log: (line) => lines.push(line) });
    expect(lines[0]).toBe(
      `checkpoint ${paths.latest} is corrupt: not valid JSON (truncated?); resuming from the newest intact checkpoint instead, ${join(paths.checkpoints, 'iter-000001.json')} (iteration 1)`,
    );
    // With no intact checkpoint left, a corrupt latest.json is the error.
    rmSync(join(paths.checkpoints, 'iter-000001.json'));
    writeFileSync(paths.latest, text.slice(0, text.length / 2));
    await expect(train(config, { resume: true, ...quiet })).rejects.toThrow(/corrupt/);
    writeFileSync(paths.latest, text.replace('"iteration":1', '"iteration":7'));
    await expect(train(config, { resume: true, ...quiet })).rejects.toThrow(/checksum/);
    const missing = smokeConfig(dir, { name: 'never-ran' });
    await expect(train(missing, { resume: true, ...quiet })).rejects.toThrow(
      /there is no run .*never-ran to resume/,
    );
  });

  it('survives being killed at any moment: the latest checkpoint is whole and the run resumes exactly', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ayoayo-kill-'));
    const args = ['bin/ayoayo.js', 'train', '--preset', 'smoke', '--runs-dir', dir, '--name', 'k'];
    // Several Adam steps per iteration, so that any optimizer state lost on resume shows.
    const steps = ['--epochs', '3', '--minibatch-size', '32'];
    const child = spawn(
      'node',
      [...args, ...steps, '--iterations', '400', '--eval-every', '1000'],
      {
        stdio: 'ignore',
      },
    );
    const latest = join(dir, 'k', 'checkpoints', 'latest.json');
    // Kill it mid-run, once a few checkpoints have been written (however long a loaded machine takes).
    const exited = new Promise((resolve) => child.on('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      const poll = setInterval(() => {
        if (existsSync(latest) && readCheckpoint(latest).iteration >= 3) {
          clearInterval(poll);
          child.kill('SIGKILL');
          resolve();
        }
      }, 20);
      void exited.then(() => {
        clearInterval(poll);
        reject(new Error('the trainer ended before its third checkpoint'));
      });
    });
    await exited;
    const saved = readCheckpoint(latest);
    const config = buildConfig([
      PRESETS.smoke,
      {
        runsDir: dir,
        name: 'k',
        iterations: saved.iteration + 1,
        ppo: { epochs: 3 },
        minibatchSize: 32,
      },
    ]);
    const result = await train(config, { resume: true, ...quiet });
    expect(result.iteration).toBe(saved.iteration + 1);
    expect(result.finalEvaluation).not.toBeNull();

    // Killed at whatever iteration the kill landed on, the resumed run is the
    // uninterrupted one, bit for bit.
    const straight = { ...config, name: 'straight' };
    const straightResult = await train(straight, { resume: false, ...quiet });
    const a = readCheckpoint(runPaths(straight).latest);
    const b = readCheckpoint(latest);
    expect(b.iteration).toBe(a.iteration);
    expect(b.weights).toEqual(a.weights);
    expect(b.optimizer).toEqual(a.optimizer);
    expect(b.rngState).toEqual(a.rngState);
    // Evaluations too: the last iteration's and the final one.
    expect(b.lastEvaluation).toEqual(a.lastEvaluation);
    expect(b.metrics.at(-1)?.['eval/score_vs_random']).toBe(
      a.metrics.at(-1)?.['eval/score_vs_random'],
    );
    expect(result.finalEvaluation?.rows).toEqual(straightResult.finalEvaluation?.rows);
  }, 600_000);
});

describe('training config', () => {
  it('names unknown and invalid fields', () => {
    expect(() => buildConfig([{ iterashuns: 3 }])).toThrow(/iterashuns/);
    expect(() => buildConfig([{ clip: -1 }])).toThrow(/clip/);
    expect(() => buildConfig([{ encoding: 'pictures' }])).toThrow(/encoding/);
    expect(() => buildConfig([{ name: '../escape' }])).toThrow(/name/);
  });
});

describe('training config: refusals and caps', () => {
  it('refuses __proto__, constructor and prototype keys', () => {
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      const layer = JSON.parse(`{"${key}": {"iterations": 5}}`) as Record<string, unknown>;
      expect(() => buildConfig([layer], 'config (c.json and flags)')).toThrow(
        `invalid config (c.json and flags): key "${key}" is not allowed`,
      );
    }
  });

  it("'train --config' with a __proto__ key exits 1 with one line", () => {
    const dir = mkdtempSync(join(tmpdir(), 'ayoayo-proto-'));
    const file = join(dir, 'c.json');
    writeFileSync(file, '{"__proto__": {"iterations": 5}, "name": "p"}');
    const r = spawnSync('node', ['bin/ayoayo.js', 'train', '--config', file, '--runs-dir', dir], {
      encoding: 'utf8',
    });
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toMatch(/^ayoayo: invalid config .*: key "__proto__" is not allowed$/);
    expect(existsSync(join(dir, 'p'))).toBe(false);
  });

  it('refuses a baseline share without baseline opponents, naming both fields', () => {
    expect(() =>
      buildConfig([readLayer({ baselineShare: 0.5, baselineOpponents: [] }, 'config')]),
    ).toThrow(/ppo.baselineShare \(--baseline-share\): is 0.5 but baselineOpponents is empty/);
    expect(buildConfig([{ ppo: { baselineShare: 0, baselineOpponents: [] } }])).toMatchObject({
      ppo: { baselineShare: 0 },
    });
  });

  it("uses one worker per core by default, and caps workers at the cores and at the run's shards with one line", () => {
    const notes: string[] = [];
    const note = (line: string) => notes.push(line);
    const ei = (workers: number | null, shards: number) =>
      buildConfig([
        PRESETS.smoke,
        { algorithm: 'expert-iteration', workers, expertIteration: { selfPlayShards: shards } },
      ]);
    expect(runWorkers(ei(null, 8), note, 16)).toBe(8);
    expect(runWorkers(ei(null, 8), note, 2)).toBe(2);
    expect(runWorkers(buildConfig([{ workers: null }]), note, 6)).toBe(6);
    expect(notes).toEqual([]);
    expect(runWorkers(ei(12, 8), note, 16)).toBe(8);
    expect(runWorkers(ei(12, 8), note, 4)).toBe(4);
    expect(runWorkers(buildConfig([{ workers: 12 }]), note, 6)).toBe(6);
    expect(runWorkers(ei(0, 8), note, 4)).toBe(0);
    expect(notes).toEqual([
      "ayoayo train: workers 12 capped at 8, the run's 8 self-play shards (expertIteration.selfPlayShards)",
      'ayoayo train: workers 12 capped at 4, the number of cores here',
      'ayoayo train: workers 12 capped at 6, the number of cores here',
    ]);
  });

  it('caps evaluation workers at the core count, saying so', () => {
    const capped: number[] = [];
    expect(capWorkers(1000, (cores) => capped.push(cores), 2)).toBe(2);
    expect(capped).toEqual([2]);
    expect(capWorkers(2, (cores) => capped.push(cores), 2)).toBe(2);
    expect(capWorkers(0, (cores) => capped.push(cores), 2)).toBe(0);
    expect(capped).toHaveLength(1);
  });
});
