import '../setup/builtin-algorithms.ts';
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockFileOf } from '../../files/folder-lock.ts';
import { runSweep } from '../../queue/sweep.ts';
import { parseSweepConfig } from '../../queue/sweep-plan.ts';
import { type CheckpointPayload, readCheckpoint } from '../../train/run/checkpoint.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
let runsDir: string;
/** The temp folder of this test's processes: the sweep must leave no folder of its own there. */
let temp: string;
const tmpBefore = process.env.TMPDIR;

beforeAll(() => {
  runsDir = mkdtempSync(join(tmpdir(), 'ayoayo-sweep-local-test-'));
  temp = join(runsDir, 'tmp');
  mkdirSync(temp);
  process.env.TMPDIR = temp;
});

afterAll(() => {
  if (tmpBefore === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = tmpBefore;
  rmSync(runsDir, { recursive: true, force: true });
});

const sweepFolders = (): string[] =>
  readdirSync(temp).filter((name) => name.startsWith('ayoayo-sweep-'));

const sweepOf = (name: string, iterations: number, learningRates: number[]) =>
  parseSweepConfig({
    name,
    runsDir,
    preset: 'smoke',
    base: { iterations },
    grid: { learningRate: learningRates },
  });

const latest = (sweep: string, run: string): CheckpointPayload =>
  readCheckpoint(join(runsDir, sweep, run, 'checkpoints', 'latest.json'));

/** The iteration column of a run's metrics.csv: one row per iteration trained, none twice. */
function metricsIterations(sweep: string, run: string): number[] {
  const [header, ...rows] = readFileSync(join(runsDir, sweep, run, 'metrics.csv'), 'utf8')
    .trim()
    .split('\n');
  const column = (header ?? '').split(',').indexOf('iteration');
  return rows.map((row) => Number(row.split(',')[column]));
}

describe('a local sweep stopped midway', () => {
  it('resumes the unfinished run from its newest checkpoint, ending as an uninterrupted sweep, and prints a line per run', async () => {
    const lines: string[] = [];
    const log = (line: string) => lines.push(line);
    // Stopped after the first run's second iteration, as a Ctrl-C would stop it.
    await runSweep(sweepOf('split', 4, [0.001, 0.003]), { progress: false, stopAfter: 2, log });
    expect(lines).toEqual([
      'run-01 (1/2 to train): learningRate 0.001',
      'run-01: stopped before its end; running the sweep again resumes it',
    ]);
    expect(latest('split', 'run-01').iteration).toBe(2);
    expect(existsSync(join(runsDir, 'split', 'run-01', 'run.json'))).toBe(false);

    lines.length = 0;
    const split = await runSweep(sweepOf('split', 4, [0.001, 0.003]), { progress: false, log });
    expect(lines).toEqual([
      'run-01 (1/2 to train): learningRate 0.001; resuming after iteration 2',
      'run-01: done',
      'run-02 (2/2 to train): learningRate 0.003',
      'run-02: done',
    ]);
    expect(metricsIterations('split', 'run-01')).toEqual([1, 2, 3, 4]);

    const whole = await runSweep(sweepOf('whole', 4, [0.001, 0.003]), { progress: false });
    for (const run of ['run-01', 'run-02']) {
      const a = latest('whole', run);
      const b = latest('split', run);
      expect(b.iteration).toBe(4);
      expect(b.weights).toEqual(a.weights);
      expect(b.optimizer).toEqual(a.optimizer);
      expect(b.rngState).toEqual(a.rngState);
      const evaluation = (sweep: string) =>
        JSON.parse(readFileSync(join(runsDir, sweep, run, 'final-evaluation.json'), 'utf8')).rows;
      expect(evaluation('split')).toEqual(evaluation('whole'));
    }
    expect(split.rows.map((r) => [r.name, r.finished, r.scores])).toEqual(
      whole.rows.map((r) => [r.name, r.finished, r.scores]),
    );
    expect(sweepFolders()).toEqual([]);

    lines.length = 0;
    await runSweep(sweepOf('split', 4, [0.001, 0.003]), { progress: false, log });
    expect(lines).toEqual(['run-01: finished before, skipped', 'run-02: finished before, skipped']);
  });

  it('refuses to resume a run whose checkpoint has other settings, naming them', async () => {
    await runSweep(sweepOf('changed', 4, [0.001]), { progress: false, stopAfter: 1 });
    const edited = parseSweepConfig({
      name: 'changed',
      runsDir,
      preset: 'smoke',
      base: { iterations: 4, hidden: [8] },
      grid: { learningRate: [0.001] },
    });
    await expect(runSweep(edited, { progress: false })).rejects.toThrow(
      `${join(runsDir, 'changed', 'run-01')} holds an unfinished run with other settings, hidden (run: [16], sweep: [8]): remove it or give the sweep another name`,
    );
  });

  it('Ctrl-C of `ayoayo sweep` ends it by the signal, keeps the run in its folder, and the next sweep resumes it', async () => {
    const config = join(runsDir, 'ctrl-c.json');
    writeFileSync(
      config,
      JSON.stringify({
        name: 'ctrl-c',
        runsDir,
        preset: 'smoke',
        base: { iterations: 20 },
        grid: { learningRate: [0.001] },
      }),
    );
    const checkpoint = join(runsDir, 'ctrl-c', 'run-01', 'checkpoints', 'latest.json');
    const ended = await new Promise<{ signal: NodeJS.Signals | null; stderr: string }>(
      (resolve) => {
        const child = spawn(process.execPath, ['bin/ayoayo.js', 'sweep', '--config', config], {
          cwd: root,
          env: { ...process.env, TMPDIR: temp },
        });
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
        });
        // Interrupted once the first run has checkpoints (written atomically: readable or absent).
        const poll = setInterval(() => {
          if (existsSync(checkpoint) && readCheckpoint(checkpoint).iteration >= 2) {
            clearInterval(poll);
            child.kill('SIGINT');
          }
        }, 50);
        child.once('close', (_code, signal) => {
          clearInterval(poll);
          resolve({ signal, stderr });
        });
      },
    );
    expect(ended.stderr).toContain('run-01 (1/1 to train): learningRate 0.001\n');
    expect(ended.signal).toBe('SIGINT');
    expect(existsSync(join(runsDir, 'ctrl-c', 'run-01', 'run.json'))).toBe(false);
    expect(existsSync(lockFileOf(join(runsDir, 'ctrl-c')))).toBe(false);
    expect(existsSync(lockFileOf(join(runsDir, 'ctrl-c', 'run-01')))).toBe(false);
    expect(sweepFolders()).toEqual([]);
    const saved = readCheckpoint(checkpoint).iteration;

    const lines: string[] = [];
    const sweep = parseSweepConfig(JSON.parse(readFileSync(config, 'utf8')));
    await runSweep(sweep, { progress: false, log: (line) => lines.push(line) });
    expect(lines).toEqual([
      `run-01 (1/1 to train): learningRate 0.001; resuming after iteration ${saved}`,
      'run-01: done',
    ]);
    expect(saved).toBeGreaterThanOrEqual(2);
    expect(metricsIterations('ctrl-c', 'run-01')).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
  });
});
