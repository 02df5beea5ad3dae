import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const vitest = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));

/** Runs vitest on test/fixtures/summary-reporter (or one file of it) with the summary reporter. */
function runFixtures(only?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [vitest, 'run', '--config', 'test/fixtures/summary-reporter/vitest.config.ts'],
      {
        cwd: root,
        env: { ...process.env, ...(only !== undefined ? { FIXTURE: only } : {}) },
      },
    );
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.resume();
    child.once('error', reject);
    child.once('close', () => resolve(stdout));
  });
}

const closingLine = (stdout: string): string => stdout.trimEnd().split('\n').at(-1) ?? '';

describe('the closing summary line', () => {
  it('counts files that fail outside their tests and unhandled errors as failures', async () => {
    // A passing test; a file whose beforeAll throws (its 2 tests are skipped); a file that
    // does not load; a passing test that leaves an unhandled error behind.
    const stdout = await runFixtures();
    expect(closingLine(stdout)).toBe('vitest: 2 passed, 3 failed, 2 skipped');
    expect(stdout).toMatch(
      /counted as failed: 2 test file\(s\) failed outside their tests: .*before-all-fails.fixture.ts, .*load-fails.fixture.ts; 1 unhandled error\(s\)/,
    );
  });

  it('says 0 failed only when nothing failed', async () => {
    expect(closingLine(await runFixtures('passing.fixture.ts'))).toBe(
      'vitest: 1 passed, 0 failed, 0 skipped',
    );
  });
});
