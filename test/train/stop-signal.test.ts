import '../setup/builtin-algorithms.ts';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lockFileOf } from '../../files/folder-lock.ts';
import { readCheckpoint } from '../../train/run/checkpoint.ts';
import { runPaths } from '../../train/run/paths.ts';
import { startAyoayo, until } from '../ayoayo-command.ts';

const children: ChildProcessWithoutNullStreams[] = [];

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

describe('a run stopped during an evaluation in its own thread', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'ends at %s without finishing the evaluation, its checkpoints kept and its folder unlocked',
    async (signal) => {
      const runsDir = mkdtempSync(join(tmpdir(), 'ayoayo-stop-'));
      const paths = runPaths({ runsDir, name: 'stop' });
      // Iteration 1 is checkpointed; iteration 2, the last, is evaluated with
      // far more games than the test could wait for, all in the main thread.
      const { child, out, ended } = startAyoayo(
        [
          'train',
          '--preset',
          'smoke',
          '--workers',
          '0',
          '--iterations',
          '2',
          '--checkpoint-every',
          '1',
          '--eval-every',
          '2',
          '--eval-games',
          '1000000',
          '--runs-dir',
          runsDir,
          '--name',
          'stop',
        ],
        {},
        children,
      );
      // The evaluation writes the policy it plays just before its first game.
      await until(() => existsSync(paths.evalPolicy), 'the evaluation to start', 120_000);
      child.kill(signal);
      expect(await ended, out.stderr).toBe(-1);
      expect(child.signalCode).toBe(signal);
      // As a stop between evaluations leaves it: the last checkpoint, the metrics up to it, no lock.
      expect(readCheckpoint(paths.latest).iteration).toBe(1);
      expect(readFileSync(paths.metrics, 'utf8').trim().split('\n')).toHaveLength(2);
      expect(existsSync(lockFileOf(paths.dir))).toBe(false);
    },
    180_000,
  );
});
