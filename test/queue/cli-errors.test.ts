import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isUserError } from '../../cli/error-report.ts';
import { QueueConnectionError, QueueError } from '../../queue/errors.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

function ayoayo(args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bin/ayoayo.js', ...args], { cwd: root });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once('close', (code) => resolve({ code, stderr }));
  });
}

describe('queue mistakes on the command line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ayoayo-queue-errors-'));
  const badGrid = join(dir, 'bad-grid.json');
  writeFileSync(badGrid, '{"name": "x", "grid": {"learningRate": "fast"}}');
  const rows = [
    {
      case: 'a sweep whose grid is not a list',
      args: ['sweep', '--config', badGrid],
      stderr: `ayoayo: invalid sweep config ${badGrid}: grid.learningRate:`,
    },
    {
      case: 'a queue URL of another scheme',
      args: ['eval', '--agents', 'random,greedy', '--games', '2', '--queue', 'http://localhost:1'],
      stderr: "ayoayo: invalid queue URL 'http://localhost:1/': unsupported scheme 'http:'",
    },
  ];
  it.concurrent.each(rows)(
    '$case: one line, exit 1, no stack trace',
    async (row) => {
      const { code, stderr } = await ayoayo(row.args);
      expect(stderr.startsWith(row.stderr), stderr).toBe(true);
      expect(stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(code).toBe(1);
    },
    60_000,
  );

  it('counts the queue errors as user mistakes, not bugs', () => {
    expect(isUserError(new QueueError('sweep x: bad'))).toBe(true);
    expect(isUserError(new QueueConnectionError('cannot use the queue'))).toBe(true);
  });
});
