/**
 * On a machine without the system packages, the tests that need them skip with
 * one line naming the package and the apt command; with CI=true they fail with
 * the same message. Runs vitest itself on two such test files with a PATH that
 * holds node alone.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const bare = mkdtempSync(join(tmpdir(), 'ayoayo-bare-path-'));
symlinkSync(process.execPath, join(bare, 'node'));

function runWithoutPackages(ci: boolean) {
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: bare };
  delete env.CI;
  if (ci) env.CI = 'true';
  const run = spawnSync(
    process.execPath,
    [vitest, 'run', 'test/queue/tournament.test.ts', 'test/web/page.test.ts'],
    { cwd: root, encoding: 'utf8', env, timeout: 120_000 },
  );
  return { status: run.status, output: `${run.stdout}\n${run.stderr}` };
}

afterAll(() => rmSync(bare, { recursive: true, force: true }));

describe('tests that need a system package', () => {
  it('skip with one line naming the package and the apt command where it is missing', () => {
    const { status, output } = runWithoutPackages(false);
    expect(output).toMatch(
      /SKIPPED the queue tournament tests \(test\/queue\/tournament\.test\.ts\): .*sudo apt-get install redis-server/,
    );
    expect(output).toMatch(/SKIPPED the browser page tests .*sudo apt-get install chromium/);
    expect(output).toMatch(/vitest: 0 passed, 0 failed, \d+ skipped/);
    expect(status).toBe(0);
  });

  it('fail instead with CI=true, naming what is missing', () => {
    const { status, output } = runWithoutPackages(true);
    expect(output).not.toContain('SKIPPED');
    expect(output).toContain('install it with: sudo apt-get install redis-server');
    expect(output).toContain('install it with: sudo apt-get install chromium');
    expect(status).toBe(1);
  });
});
