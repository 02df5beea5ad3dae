import '../setup/builtin-algorithms.ts';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockFolder } from '../../files/folder-lock.ts';
import { readPolicyFile } from '../../models/read-policy-file.ts';
import { runSweep } from '../../queue/sweep.ts';
import { parseSweepConfig, planSweep } from '../../queue/sweep-plan.ts';
import { storeRun } from '../../queue/sweep-store.ts';
import { type QueueWorker, startQueueWorker } from '../../queue/worker.ts';
import { writeRandomPolicy } from '../export/random-policy.ts';
import { describeWithSystemPackage, REDIS_SERVER } from '../system-packages.ts';
import { startTestRedis, type TestRedis } from './redis-server.ts';

let redis: TestRedis;
let workers: QueueWorker[] = [];
let runsDir: string;

describeWithSystemPackage(REDIS_SERVER, 'sweeps through the queue', () => {
  beforeAll(async () => {
    redis = await startTestRedis();
    runsDir = mkdtempSync(join(tmpdir(), 'ayoayo-sweep-test-'));
  });

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.close()));
    await redis?.stop();
    if (runsDir) rmSync(runsDir, { recursive: true, force: true });
  });

  describe('sweep plans', () => {
    it('a grid is every combination, validated by the training schema', () => {
      const sweep = parseSweepConfig({
        name: 'g',
        preset: 'smoke',
        grid: { learningRate: [0.001, 0.01], hidden: [[8], [16, 16]] },
      });
      const runs = planSweep(sweep);
      expect(runs.map((r) => r.name)).toEqual(['run-01', 'run-02', 'run-03', 'run-04']);
      expect(runs.map((r) => [r.config.learningRate, r.config.hidden])).toEqual([
        [0.001, [8]],
        [0.001, [16, 16]],
        [0.01, [8]],
        [0.01, [16, 16]],
      ]);
      expect(runs[0]?.config.runsDir).toBe(join('runs', 'g'));
      expect(() =>
        planSweep(parseSweepConfig({ name: 'g', grid: { learningRate: [-1] } })),
      ).toThrow(/sweep g run-01 .*learningRate/);
      expect(() => planSweep(parseSweepConfig({ name: 'g', grid: { nope: [1] } }))).toThrow(/nope/);
      expect(() => parseSweepConfig({ name: 'g' })).toThrow(/either grid or random/);
    });

    it('a random search is seeded: the same seed draws the same runs, within the ranges', () => {
      const config = {
        name: 'r',
        random: {
          samples: 5,
          seed: 7,
          space: {
            learningRate: { min: 1e-4, max: 1e-2, log: true },
            activation: ['relu', 'tanh'],
          },
        },
      };
      const a = planSweep(parseSweepConfig(config));
      const b = planSweep(parseSweepConfig(config));
      const c = planSweep(parseSweepConfig({ ...config, random: { ...config.random, seed: 8 } }));
      expect(a.map((r) => r.params)).toEqual(b.map((r) => r.params));
      expect(a.map((r) => r.params)).not.toEqual(c.map((r) => r.params));
      for (const run of a) {
        expect(run.config.learningRate).toBeGreaterThanOrEqual(1e-4);
        expect(run.config.learningRate).toBeLessThanOrEqual(1e-2);
      }
    });
  });

  describe('storing a run', () => {
    it('refuses a run folder that another process holds (a train of the same name), naming it', () => {
      const sweep = parseSweepConfig({
        name: 'held',
        runsDir,
        preset: 'smoke',
        grid: { learningRate: [0.001] },
      });
      const [run] = planSweep(sweep);
      if (run === undefined) throw new Error('no run planned');
      const result = {
        config: JSON.stringify(run.config),
        metrics: 'iteration\n',
        finalEvaluation: null,
        policy: readFileSync(writeRandomPolicy(join(runsDir, 'policy-for-held')), 'utf8'),
        learningCurve: null,
        elapsedSeconds: 1,
      };
      const dir = join(runsDir, 'held', 'run-01');
      const lock = lockFolder(dir, 'run');
      try {
        expect(() => storeRun(run, result)).toThrow(
          new RegExp(`^run ${dir} is in use by pid ${process.pid} \\(`),
        );
        expect(existsSync(join(dir, 'run.json'))).toBe(false);
      } finally {
        lock.release();
      }
      storeRun(run, result);
      expect(existsSync(join(dir, 'run.json'))).toBe(true);
    });
  });

  describe('a sweep through the queue', () => {
    it('trains 2 smoke runs on two workers, stores each run, compares them, and skips them when run again', async () => {
      workers = [
        await startQueueWorker({ url: redis.url }),
        await startQueueWorker({ url: redis.url }),
      ];
      const sweep = parseSweepConfig({
        name: 'tiny',
        runsDir,
        preset: 'smoke',
        base: { iterations: 1 },
        grid: { learningRate: [0.001, 0.003] },
      });
      const summary = await runSweep(sweep, { queue: redis.url });
      for (const name of ['run-01', 'run-02']) {
        const dir = join(runsDir, 'tiny', name);
        for (const file of [
          'config.json',
          'metrics.csv',
          'final-evaluation.json',
          'policy.json',
          'run.json',
        ]) {
          expect(existsSync(join(dir, file)), `${name}/${file}`).toBe(true);
        }
        readPolicyFile(join(dir, 'policy.json'));
      }
      const config = JSON.parse(
        readFileSync(join(runsDir, 'tiny', 'run-02', 'config.json'), 'utf8'),
      );
      expect(config.learningRate).toBe(0.003);
      expect(summary.rows.map((r) => [r.name, r.finished, Object.keys(r.scores)])).toEqual([
        ['run-01', true, ['random']],
        ['run-02', true, ['random']],
      ]);
      expect(summary.text).toMatch(/run-02\s+0.003\s+\d+\.\d%/);
      expect(existsSync(join(runsDir, 'tiny', 'summary.png'))).toBe(true);

      const stamp = statSync(join(runsDir, 'tiny', 'run-01', 'policy.json')).mtimeMs;
      const lines: string[] = [];
      await runSweep(sweep, { queue: redis.url, log: (line) => lines.push(line) });
      expect(lines).toEqual([
        'run-01: finished before, skipped',
        'run-02: finished before, skipped',
      ]);
      expect(statSync(join(runsDir, 'tiny', 'run-01', 'policy.json')).mtimeMs).toBe(stamp);
    });
  });
});
