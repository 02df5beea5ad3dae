/**
 * Vitest's global setup: a folder the test files of one run share for what
 * each would otherwise compute alike (the small opening books of
 * test/solve/book-fixture.ts, a quarter of a minute each), named to them in
 * AYOAYO_TEST_SHARED and removed at the run's end. A vitest started by a test
 * uses its parent's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const SHARED_FOLDER_ENV = 'AYOAYO_TEST_SHARED';

export default function setup(): () => void {
  if (process.env[SHARED_FOLDER_ENV]) return () => {};
  const folder = mkdtempSync(join(tmpdir(), 'ayoayo-test-run-'));
  process.env[SHARED_FOLDER_ENV] = folder;
  return () => {
    delete process.env[SHARED_FOLDER_ENV];
    rmSync(folder, { recursive: true, force: true });
  };
}
