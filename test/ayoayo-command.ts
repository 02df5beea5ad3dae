import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Runs `ayoayo ...args` from this repository's bin, as a user would, to its
 * end, `stdin` as its input; `node` options go to Node before the script,
 * `env` is added to this process's environment.
 */
export function runAyoayo(
  args: readonly string[],
  stdin = '',
  options: { readonly node?: readonly string[]; readonly env?: NodeJS.ProcessEnv } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...(options.node ?? []), 'bin/ayoayo.js', ...args], {
      cwd: root,
      env: { ...process.env, ...options.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    // A command that exits without reading its input must not fail the test with EPIPE.
    child.stdin.on('error', () => {});
    child.stdin.end(stdin);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Runs `ayoayo ...args` and checks that it ends as a user's mistake should:
 * exit 1 and one line on stderr, starting with `stderrStart` (no stack trace).
 */
export async function expectOneLineError(
  args: readonly string[],
  stderrStart: string,
): Promise<void> {
  const { code, stderr } = await runAyoayo(args);
  expect(stderr.startsWith(stderrStart), stderr).toBe(true);
  expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(code).toBe(1);
}

/** A running `ayoayo` child process, its output collected as it comes. */
export interface RunningAyoayo {
  readonly child: ChildProcessWithoutNullStreams;
  readonly out: { stdout: string; stderr: string };
  /** Its exit code; -1 when a signal ended it. */
  readonly ended: Promise<number>;
}

/**
 * Starts `ayoayo ...args` from this repository's bin with `env` added to this
 * process's environment, for tests that act on it while it runs (signals,
 * races); `started` collects every child, so that a test can kill what is left.
 */
export function startAyoayo(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
  started: ChildProcessWithoutNullStreams[] = [],
): RunningAyoayo {
  const child = spawn(process.execPath, ['bin/ayoayo.js', ...args], {
    cwd: root,
    env: { ...process.env, ...env },
  });
  started.push(child);
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => {
    out.stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    out.stderr += chunk.toString();
  });
  const ended = new Promise<number>((resolve) =>
    child.once('close', (code) => resolve(code ?? -1)),
  );
  return { child, out, ended };
}

/** Waits until `condition` holds, or fails naming `what` after `ms`. */
export async function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  ms = 30_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
