import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { folderLockHolder, lockFileOf, lockFolder } from '../../files/folder-lock.ts';
import { startAyoayo, until } from '../ayoayo-command.ts';

// Two processes on one run folder: the second fails at once naming the first,
// whatever the first is doing, and the lock goes away with its holder however
// it ends (kill -9 leaves it stale, and the next run takes it over).

const children: ChildProcessWithoutNullStreams[] = [];

const ayoayo = (args: readonly string[]) => startAyoayo(args, {}, children);

const train = (runs: string, ...more: string[]) =>
  ayoayo(['train', '--preset', 'smoke', '--runs-dir', runs, '--name', 'race', ...more]);

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

describe('a run folder in use', () => {
  it('two trains racing on one --name: one trains, the other fails at once naming it', async () => {
    const runs = mkdtempSync(join(tmpdir(), 'ayoayo-lock-'));
    const a = train(runs, '--iterations', '6', '--seed', '1');
    const b = train(runs, '--iterations', '6', '--seed', '2');
    const codes = await Promise.all([a.ended, b.ended]);
    expect([...codes].sort()).toEqual([0, 1]);
    const [winner, loser, seed] = codes[0] === 0 ? [a, b, 1] : [b, a, 2];
    expect(loser.out.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(loser.out.stderr).toMatch(
      new RegExp(
        `^ayoayo: run ${join(runs, 'race')} is in use by pid ${winner.child.pid} \\(ayoayo train --preset smoke --runs-dir ${runs} --name race --iterations 6 --seed ${seed}\\), since \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z: wait for it to end or stop it\\n$`,
      ),
    );
    // The folder holds the winner's run, whole, and the lock is gone with it.
    const config = JSON.parse(readFileSync(join(runs, 'race', 'config.json'), 'utf8'));
    expect(config.seed).toBe(seed);
    expect(
      readFileSync(join(runs, 'race', 'metrics.csv'), 'utf8')
        .trim()
        .split('\n'),
    ).toHaveLength(7);
    expect(existsSync(lockFileOf(join(runs, 'race')))).toBe(false);
  }, 120_000);

  it('--resume of a run in use fails at once naming the holder; SIGINT releases the lock', async () => {
    const runs = mkdtempSync(join(tmpdir(), 'ayoayo-lock-'));
    const lock = lockFileOf(join(runs, 'race'));
    const holder = train(runs, '--iterations', '100000');
    await until(() => existsSync(lock), 'the run to start');
    const resumed = train(runs, '--resume', '--iterations', '100001');
    expect(await resumed.ended).toBe(1);
    expect(resumed.out.stderr).toMatch(
      new RegExp(`^ayoayo: run ${join(runs, 'race')} is in use by pid ${holder.child.pid} \\(`),
    );
    holder.child.kill('SIGINT');
    await holder.ended;
    expect(existsSync(lock)).toBe(false);
  }, 60_000);

  it('a lock left by kill -9 is stale: the next run takes it over', async () => {
    const runs = mkdtempSync(join(tmpdir(), 'ayoayo-lock-'));
    const dir = join(runs, 'race');
    const killed = train(runs, '--iterations', '100000');
    await until(() => existsSync(join(dir, 'config.json')), 'the run to start');
    killed.child.kill('SIGKILL');
    await killed.ended;
    expect(JSON.parse(readFileSync(lockFileOf(dir), 'utf8')).pid).toBe(killed.child.pid);
    // What the next train does first (a whole second run would add nothing but time).
    expect(folderLockHolder(dir)).toBeNull();
    const next = lockFolder(dir, 'run');
    expect(JSON.parse(readFileSync(lockFileOf(dir), 'utf8')).pid).toBe(process.pid);
    next.release();
  }, 60_000);

  it('two sweeps of one folder: the second fails at once naming the first; SIGTERM releases it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ayoayo-lock-'));
    const config = join(dir, 'sweep.json');
    writeFileSync(
      config,
      JSON.stringify({
        name: 's',
        runsDir: join(dir, 'runs'),
        preset: 'smoke',
        base: { iterations: 100000 },
        grid: { learningRate: [0.001] },
      }),
    );
    const first = ayoayo(['sweep', '--config', config]);
    await until(() => existsSync(lockFileOf(join(dir, 'runs', 's'))), 'the sweep to start');
    const second = ayoayo(['sweep', '--config', config]);
    expect(await second.ended).toBe(1);
    expect(second.out.stderr).toMatch(
      new RegExp(
        `^ayoayo: sweep ${join(dir, 'runs', 's')} is in use by pid ${first.child.pid} \\(ayoayo sweep --config ${config}\\), since .*\\n$`,
      ),
    );
    first.child.kill('SIGTERM');
    await first.ended;
    expect(existsSync(lockFileOf(join(dir, 'runs', 's')))).toBe(false);
  }, 120_000);
});
