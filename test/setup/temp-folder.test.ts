import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runNestedVitest } from '../nested-vitest.ts';
import { removeAbandonedFolders, TEMP_FOLDER_ENV } from './temp-folder.ts';

/** Set in the vitest this file starts, whose only test writes in its temporary folder. */
const NESTED_ENV = 'AYOAYO_TEMP_FOLDER_NESTED';
const nested = process.env[NESTED_ENV] === '1';

/** A process id no process has: above the kernel's largest. */
const DEAD_PID = 4_194_305;

function runNested(parent: string): Promise<{ status: number | null; output: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: parent, [NESTED_ENV]: '1' };
  delete env[TEMP_FOLDER_ENV];
  delete env.AYOAYO_KEEP_TEST_TEMP;
  return runNestedVitest(['test/setup/temp-folder.test.ts'], env);
}

describe.skipIf(nested)("a test run's temporary folder", () => {
  it("is the tests' os.tmpdir(), named with the run's process id", () => {
    const folder = process.env[TEMP_FOLDER_ENV];
    expect(folder).toBeDefined();
    expect(tmpdir()).toBe(folder);
    expect(basename(folder ?? '')).toMatch(/^ayoayo-test-temp-\d+-/);
  });

  it("is removed at the run's end, with what its tests and their commands wrote", async () => {
    const parent = mkdtempSync(join(tmpdir(), 'ayoayo-temp-parent-'));
    const { status, output } = await runNested(parent);
    expect(output).toMatch(/vitest: 1 passed, 0 failed/);
    expect(status).toBe(0);
    expect(readdirSync(parent)).toEqual([]);
  }, 120_000);

  it('removes the folders of runs that no longer run, and keeps the others', () => {
    const parent = mkdtempSync(join(tmpdir(), 'ayoayo-abandoned-'));
    const live = `ayoayo-test-temp-${process.pid}-abc`;
    const dead = `ayoayo-test-temp-${DEAD_PID}-abc`;
    for (const name of [live, dead, 'ayoayo-test-temp-x-abc', 'another-folder']) {
      mkdirSync(join(parent, name));
      writeFileSync(join(parent, name, 'file'), 'x');
    }
    removeAbandonedFolders(parent);
    expect(readdirSync(parent).sort()).toEqual(['another-folder', live]);
  });
});

describe.runIf(nested)('inside the nested run', () => {
  it('writes in a folder of its own under the TMPDIR it was given', () => {
    const folder = mkdtempSync(join(tmpdir(), 'ayoayo-nested-'));
    writeFileSync(join(folder, 'scratch'), 'x');
    expect(basename(dirname(folder))).toMatch(/^ayoayo-test-temp-\d+-/);
  });
});
