import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isUserError } from '../../cli/error-report.ts';
import { QueueConnectionError, QueueError } from '../../queue/errors.ts';
import { expectOneLineError } from '../ayoayo-command.ts';

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
    (row) => expectOneLineError(row.args, row.stderr),
    60_000,
  );

  it('counts the queue errors as user mistakes, not bugs', () => {
    expect(isUserError(new QueueError('sweep x: bad'))).toBe(true);
    expect(isUserError(new QueueConnectionError('cannot use the queue'))).toBe(true);
  });
});
