import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_RULES } from '../../env/index.ts';
import { lockFileOf } from '../../files/folder-lock.ts';
import { endgamePath, loadEndgame } from '../../solve/endgame/cache/table-cache.ts';
import { buildEndgame } from '../../solve/index.ts';
import { runAyoayo, startAyoayo, until } from '../ayoayo-command.ts';

const dirs: string[] = [];
const started: ChildProcessWithoutNullStreams[] = [];
afterAll(() => {
  for (const child of started) child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ayoayo-endgame-cache-'));
  dirs.push(dir);
  return dir;
}

interface ThreadLoad {
  readonly built: boolean;
  readonly notes: string[];
  readonly sum: number;
}

/** `threads` threads that load the table of `seeds` seeds from `dir` at the same moment. */
function loadOnThreads(dir: string, seeds: number, threads: number): Promise<ThreadLoad[]> {
  const barrier = new SharedArrayBuffer(4);
  return Promise.all(
    Array.from(
      { length: threads },
      () =>
        new Promise<ThreadLoad>((resolve, reject) => {
          const worker = new Worker(new URL('./endgame-load.fixture.js', import.meta.url), {
            workerData: { dir, seeds, threads, barrier },
          });
          worker.once('message', (result: ThreadLoad) => {
            resolve(result);
            void worker.terminate();
          });
          worker.once('error', reject);
        }),
    ),
  );
}

describe('the endgame cache', () => {
  it('builds a table once for threads that need it at once: one builds, the others wait and read it', async () => {
    const dir = scratch();
    const loads = await loadOnThreads(dir, 10, 2);
    expect(loads.map((l) => l.built).sort()).toEqual([false, true]);
    const path = endgamePath(dir, 10, DEFAULT_RULES);
    const builder = loads.find((l) => l.built) as ThreadLoad;
    const reader = loads.find((l) => !l.built) as ThreadLoad;
    expect(builder.notes).toEqual([]);
    expect(reader.notes).toEqual([
      `waiting for another thread of this process to build ${path} (its lock: ${lockFileOf(path)})`,
    ]);
    expect(reader.sum).toBe(builder.sum);
    // The lock is gone with the build: only the table is left.
    expect(readdirSync(dir)).toEqual([path.slice(dir.length + 1)]);
  });

  it('leaves signals alone while it builds: killed, a build ends at once, and the next takes its lock over', async () => {
    const home = scratch();
    const path = endgamePath(join(home, 'ayoayo'), 12, DEFAULT_RULES);
    const args = ['solve', '2,0,0,0,1,0/3,0,0,0,0,0/22-20/0', '--endgame', '12', '--quiet'];
    const first = startAyoayo(args, { XDG_CACHE_HOME: home }, started);
    await until(() => existsSync(lockFileOf(path)), 'the build to take its lock');
    first.child.kill('SIGTERM');
    // A handler would only run after the build (about 5 s of CPU), and save the table.
    expect(await first.ended).toBe(-1);
    expect(first.child.signalCode).toBe('SIGTERM');
    expect(existsSync(path)).toBe(false);
    const second = await runAyoayo(args, '', { env: { XDG_CACHE_HOME: home } });
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    expect(existsSync(path)).toBe(true);
    expect(existsSync(lockFileOf(path))).toBe(false);
  });

  it('builds the table without saving it where a folder stands at its path, leaving no file behind', () => {
    const dir = scratch();
    const path = endgamePath(dir, 6, DEFAULT_RULES);
    mkdirSync(path);
    const notes: string[] = [];
    const table = loadEndgame(6, DEFAULT_RULES, { dir, onNote: (n) => notes.push(n) });
    expect(notes).toEqual([
      `${path} is a folder, not an endgame table: building the table without saving it`,
    ]);
    expect(table.lo).toEqual(buildEndgame(6, DEFAULT_RULES).lo);
    expect(readdirSync(dir)).toEqual([path.slice(dir.length + 1)]);
    expect(readdirSync(path)).toEqual([]);
  });
});
