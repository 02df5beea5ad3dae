import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { lockFileOf } from '../../files/folder-lock.ts';

const fixture = fileURLToPath(new URL('./bar-on-signal.fixture.ts', import.meta.url));
const HIDE = '\x1b[?25l';
const SHOW = '\x1b[?25h';
const dir = mkdtempSync(join(tmpdir(), 'ayoayo-bar-signal-'));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Ended {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the fixture, sends `signal` once its bar is drawn, and waits for its end. */
function interrupt(args: readonly string[], signal: NodeJS.Signals): Promise<Ended> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', fixture, ...args]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout === 'ready\n') child.kill(signal);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** Whether the cursor is shown again after the bar last hid it. */
const cursorShown = (text: string): boolean =>
  text.includes(HIDE) && text.indexOf(SHOW, text.lastIndexOf(HIDE)) > 0;

describe('a progress bar interrupted in a terminal', () => {
  it.each([
    ['train', 'SIGINT'],
    ['games', 'SIGINT'],
    ['train', 'SIGTERM'],
  ] as const)(
    '%s bar: %s shows the cursor again and still ends the program',
    async (kind, signal) => {
      const ended = await interrupt([kind], signal);
      expect(cursorShown(ended.stderr), JSON.stringify(ended.stderr)).toBe(true);
      expect(ended.signal).toBe(signal);
    },
  );

  it('with a folder lock held: the lock is released and the signal ends the program', async () => {
    const run = join(dir, 'run');
    const ended = await interrupt(['train', 'lock', run], 'SIGINT');
    expect(cursorShown(ended.stderr), JSON.stringify(ended.stderr)).toBe(true);
    expect(ended.signal).toBe('SIGINT');
    expect(existsSync(lockFileOf(run))).toBe(false);
  });

  it('a command that handles SIGINT itself still gets it, and ends on its own', async () => {
    const ended = await interrupt(['games', 'handled'], 'SIGINT');
    expect(cursorShown(ended.stderr), JSON.stringify(ended.stderr)).toBe(true);
    expect(ended.stdout).toBe('ready\nhandled\n');
    expect([ended.code, ended.signal]).toEqual([0, null]);
  });
});
