/**
 * Vitest's global setup: the run's own temporary folder. TMPDIR points there,
 * so every `os.tmpdir()` of the test files, of their workers and of the
 * commands, Redis servers and browsers they start lands in it, and the run's
 * end removes it whole: a run leaves nothing in the system's temporary folder,
 * whatever its tests and their commands forget to remove. The folder's name
 * carries the run's process id, so that the next run removes the folder of a
 * run that was killed before its teardown.
 * The test files of the run also share there what each would otherwise
 * compute alike (the small opening books of test/solve/book-fixture.ts).
 * AYOAYO_KEEP_TEST_TEMP=1 keeps it, to look at what a failing test wrote.
 * A vitest started by a test (test/system-packages.test.ts) uses its parent's.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAlive } from '../../files/process-identity.ts';

export const TEMP_FOLDER_ENV = 'AYOAYO_TEST_TEMP';

const PREFIX = 'ayoayo-test-temp-';

/** Temporary folders of runs that were killed before their teardown. */
export function removeAbandonedFolders(parent: string): void {
  for (const name of readdirSync(parent)) {
    if (!name.startsWith(PREFIX)) continue;
    const pid = Number(name.slice(PREFIX.length).split('-')[0]);
    if (!Number.isInteger(pid) || !isAlive(pid)) {
      rmSync(join(parent, name), { recursive: true, force: true });
    }
  }
}

export default function setup(): () => void {
  if (process.env[TEMP_FOLDER_ENV]) return () => {};
  const parent = tmpdir();
  const before = process.env.TMPDIR;
  removeAbandonedFolders(parent);
  const folder = mkdtempSync(join(parent, `${PREFIX}${process.pid}-`));
  process.env[TEMP_FOLDER_ENV] = folder;
  process.env.TMPDIR = folder;
  return () => {
    delete process.env[TEMP_FOLDER_ENV];
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    if (process.env.AYOAYO_KEEP_TEST_TEMP === '1') {
      console.log(`The run's temporary files are kept in ${folder}`);
      return;
    }
    rmSync(folder, { recursive: true, force: true });
  };
}
