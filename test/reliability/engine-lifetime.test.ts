import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { groupRunning, pidsRunning } from '../processes.ts';

// Engines must not outlive the `ayoayo` that started them, however it ends:
// SIGTERM (signal handlers kill the engines' groups), an error (the agent is
// closed, and an exit hook kills whatever is left), and kill -9 (no handler
// runs: the watcher in each engine's group notices the closed pipe and kills
// the group), even when the signal comes the moment the engine is spawned.

const root = fileURLToPath(new URL('../..', import.meta.url));
const fixtures = join(root, 'test/fixtures/ext-engines');

/** Pids of hang.mjs engines started with argument `tag`. */
function enginesTagged(tag: string): number[] {
  return pidsRunning(`hang.mjs\0${tag}`);
}

/** The process group of a pid (field 5 of /proc/PID/stat). */
function groupOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
}

async function waitFor(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// Whatever a failing test leaves behind is cleaned up: these processes and groups only.
const started: ChildProcessWithoutNullStreams[] = [];
const groups: number[] = [];
afterAll(() => {
  for (const child of started) if (child.exitCode === null) child.kill('SIGKILL');
  for (const group of groups) if (groupRunning(group)) process.kill(-group, 'SIGKILL');
});

function ayoayo(args: readonly string[]): {
  child: ChildProcessWithoutNullStreams;
  ended: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
} {
  const child = spawn(process.execPath, ['bin/ayoayo.js', ...args], { cwd: root });
  started.push(child);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>(
    (resolve) => child.once('exit', (code, signal) => resolve({ code, signal, stderr })),
  );
  return { child, ended };
}

/** A tournament whose external engine hangs forever (and ignores SIGTERM and its stdin). */
async function hungTournament(tag: string, workers: number) {
  const run = ayoayo([
    'eval',
    '--agents',
    `ext:node ${join(fixtures, 'hang.mjs')} ${tag},random`,
    '--games',
    '2',
    '--workers',
    String(workers),
    '--move-timeout',
    '600000',
    '--quiet',
  ]);
  await waitFor(() => enginesTagged(tag).length > 0, 'the engine started');
  const [engine] = enginesTagged(tag) as [number];
  const group = groupOf(engine);
  groups.push(group);
  // The engine has a group of its own, not ayoayo's.
  expect(group).not.toBe(groupOf(run.child.pid as number));
  return { ...run, group };
}

/**
 * Runs signal-at-spawn.ts: it starts a hung engine and sends itself `signal` as
 * soon as spawn returns; resolves with how it ended and the engine's group.
 */
async function signalAtSpawn(signal: NodeJS.Signals, tag: string) {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(fixtures, 'signal-at-spawn.ts'),
      `node ${join(fixtures, 'hang.mjs')} ${tag}`,
      signal,
    ],
    { cwd: root },
  );
  started.push(child);
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  const ended = await new Promise<NodeJS.Signals | null>((resolve) =>
    child.once('exit', (_code, how) => resolve(how)),
  );
  const group = Number(stdout.trim());
  expect(group).toBeGreaterThan(0);
  groups.push(group);
  return { ended, group };
}

describe('engines do not outlive ayoayo', () => {
  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    it(`${signal} the moment the engine is spawned: the engine group is killed all the same`, async () => {
      const tag = `--lifetime-at-spawn-${signal}`;
      const { ended, group } = await signalAtSpawn(signal, tag);
      expect(ended).toBe(signal);
      await waitFor(() => !groupRunning(group), 'the engine group is gone');
      expect(enginesTagged(tag)).toEqual([]);
    }, 60_000);
  }

  it('SIGTERM: the engine group is killed and ayoayo ends by the signal', async () => {
    const { child, ended, group } = await hungTournament('--lifetime-term', 0);
    child.kill('SIGTERM');
    expect((await ended).signal).toBe('SIGTERM');
    await waitFor(() => !groupRunning(group), 'the engine group is gone');
    expect(enginesTagged('--lifetime-term')).toEqual([]);
  }, 60_000);

  it('kill -9, engine in a worker thread: the watcher kills the engine group', async () => {
    const { child, ended, group } = await hungTournament('--lifetime-kill', 1);
    child.kill('SIGKILL');
    expect((await ended).signal).toBe('SIGKILL');
    await waitFor(() => !groupRunning(group), 'the engine group is gone');
    expect(enginesTagged('--lifetime-kill')).toEqual([]);
  }, 60_000);

  it('an error mid-game: ayoayo fails in one line and takes the engine group with it', async () => {
    // A wrapper engine that answers, with a hung helper process in its group.
    const engine = `sh -c 'node ${join(fixtures, 'hang.mjs')} --lifetime-error & exec node ${join(fixtures, 'first-legal.mjs')}'`;
    const { child, ended } = ayoayo(['play', '--against', `ext:${engine}`, '--seat', '0']);
    // One move (the engine starts to answer it), then the input ends before the game does.
    child.stdin.write('0\n');
    await waitFor(() => enginesTagged('--lifetime-error').length > 0, 'the engine started');
    const group = groupOf(enginesTagged('--lifetime-error')[0] as number);
    groups.push(group);
    child.stdin.end();
    const { code, stderr } = await ended;
    expect(code).toBe(1);
    expect(stderr).toBe('ayoayo: input ended before the game did\n');
    await waitFor(() => !groupRunning(group), 'the engine group is gone');
  }, 60_000);
});
