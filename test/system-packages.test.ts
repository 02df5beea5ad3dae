/**
 * On a machine without the system packages, the tests that need them skip with
 * one line naming the package and the apt command; with CI=true they fail with
 * the same message. Runs vitest itself on such test files with a PATH that
 * holds node alone. And every test file uses a system package only inside the
 * one guard, `describeWithSystemPackage` (test/system-packages-scan.ts).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { SourceFile } from './architecture/layers.ts';
import { runNestedVitest } from './nested-vitest.ts';
import { unguardedUses } from './system-packages-scan.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const bare = mkdtempSync(join(tmpdir(), 'ayoayo-bare-path-'));
symlinkSync(process.execPath, join(bare, 'node'));

/** Starting vitest and collecting these files takes a while on a loaded machine. */
const RUN_MS = 300_000;

function runWithoutPackages(ci: boolean): Promise<{ status: number | null; output: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: bare };
  delete env.CI;
  if (ci) env.CI = 'true';
  return runNestedVitest(
    ['test/queue/tournament.test.ts', 'test/queue/hostile-jobs.test.ts', 'test/web/page.test.ts'],
    env,
  );
}

afterAll(() => rmSync(bare, { recursive: true, force: true }));

describe('tests that need a system package', () => {
  it(
    'skip with one line naming the package and the apt command where it is missing',
    async () => {
      const { status, output } = await runWithoutPackages(false);
      expect(output).toMatch(
        /SKIPPED a tournament through the queue \(test\/queue\/tournament\.test\.ts\): .*sudo apt-get install redis-server/,
      );
      // Its other suite, which needs no Redis, runs; no hook of the skipped one does.
      expect(output).toMatch(
        /SKIPPED a worker takes hostile jobs without harm \(test\/queue\/hostile-jobs\.test\.ts\): .*sudo apt-get install redis-server/,
      );
      expect(output).toMatch(
        /SKIPPED the browser page in headless Chromium \(test\/web\/page\.test\.ts\): .*sudo apt-get install chromium/,
      );
      expect(output.match(/SKIPPED/g)).toHaveLength(3);
      expect(output).toMatch(/vitest: 1 passed, 0 failed, \d+ skipped/);
      expect(status).toBe(0);
    },
    RUN_MS,
  );

  it(
    'fail instead with CI=true, naming what is missing',
    async () => {
      const { status, output } = await runWithoutPackages(true);
      expect(output).not.toContain('SKIPPED');
      expect(output).toContain('install it with: sudo apt-get install redis-server');
      expect(output).toContain('install it with: sudo apt-get install chromium');
      // Each guarded suite fails (its tests are not run); hostile-jobs' other suite passes.
      expect(output).toMatch(/vitest: 1 passed, 3 failed, \d+ skipped/);
      expect(status).toBe(1);
    },
    RUN_MS,
  );
});

function testFiles(): SourceFile[] {
  return readdirSync(join(root, 'test'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.test.ts'))
    .map((entry) => {
      const path = relative(root, join(entry.parentPath, entry.name)).replaceAll('\\', '/');
      return { path, text: readFileSync(join(root, path), 'utf8') };
    });
}

describe('every test file', () => {
  it('uses a system package only in the hooks and tests of a describeWithSystemPackage suite', () => {
    const files = testFiles();
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap((file) => unguardedUses(file))).toEqual([]);
  });
});

const file = (text: string): SourceFile => ({ path: 'test/x.test.ts', text });

describe('unguardedUses', () => {
  it('finds a server started in a top-level hook, and a top-level hook using what a suite sets up', () => {
    expect(
      unguardedUses(
        file(`let redis;
let worker;
beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(async () => {
  await worker.close();
});
describeWithSystemPackage(REDIS_SERVER, 'a queue', () => {
  beforeAll(async () => {
    worker = await startQueueWorker({ url: redis.url });
  });
  it('works', () => {});
});`),
      ),
    ).toEqual([
      'test/x.test.ts:4: startTestRedis needs redis-server: use it in a hook or test of describeWithSystemPackage(REDIS_SERVER, ...)',
      'test/x.test.ts:6: a top-level afterAll uses worker, set up by a describeWithSystemPackage suite, and runs even where that suite is skipped: put it in the suite',
    ]);
  });

  it('leaves alone a use in a hook or test of a suite guarded by its package, with or without options, and strings only compared', () => {
    expect(
      unguardedUses(
        file(`import { startTestRedis } from './redis-server.ts';
const scratch = mkdtempSync('x');
afterAll(() => rmSync(scratch));
describeWithSystemPackage(REDIS_SERVER, 'a queue', () => {
  let redis;
  beforeAll(async () => {
    redis = await startTestRedis();
  });
  describe('inside', () => {
    it('stops', () => redis.stop());
  });
});
describeWithSystemPackage(PYTHON_NUMPY, 'python', () => {
  it('spawns', () => spawnSync('python3', ['-c', '1']));
  it('an engine', () => run(\`ext:node \${join(root, 'test/fixtures/ext-engines/engine.py')}\`));
});
describeWithSystemPackage(
  REDIS_SERVER,
  'a queue with a longer timeout',
  () => {
    beforeAll(async () => {
      await startTestRedis();
    });
  },
  { timeout: 60_000 },
);
it('parses a spec naming python', () => {
  expect(parse('ext:python3 engine.py')).toEqual({ command: 'python3 engine.py' });
});
const FILES = ['test/fixtures/ext-engines/engine.py'];`),
      ),
    ).toEqual([
      'test/x.test.ts:15: test/fixtures/ext-engines/engine.py needs python3: use it in a hook or test of describeWithSystemPackage(PYTHON3, ...)',
    ]);
  });

  it('finds a use guarded by another package, or run as the tests are collected', () => {
    expect(
      unguardedUses(
        file(`describeWithSystemPackage(CLANG_WASM32, 'wasm', () => {
  it('builds', () => compileNativePlayouts());
});
describeWithSystemPackage(C_COMPILER, 'native', () => {
  describe('inner', () => {
    const native = compileNativePlayouts();
  });
});
it('spawns', () => spawnSync('python3', ['-c', '1']));`),
      ),
    ).toEqual([
      'test/x.test.ts:2: compileNativePlayouts needs gcc: use it in a hook or test of describeWithSystemPackage(C_COMPILER, ...)',
      'test/x.test.ts:6: compileNativePlayouts runs when the tests are collected, even where C_COMPILER is missing: use it in a hook or test of the suite',
      'test/x.test.ts:9: python3 needs python3 or python3-numpy: use it in a hook or test of describeWithSystemPackage(PYTHON3 or PYTHON_NUMPY, ...)',
    ]);
  });

  it("counts a top-level helper that starts a package as one of the package's starters", () => {
    expect(
      unguardedUses(
        file(`async function withBrowser(run) {
  const browser = await launchChromium();
  try { await run(browser); } finally { await browser.close(); }
}
const shot = () => withBrowser(async () => {});
it('draws', () => shot());`),
      ),
    ).toEqual([
      'test/x.test.ts:6: shot needs chromium: use it in a hook or test of describeWithSystemPackage(CHROMIUM_BROWSER, ...)',
    ]);
  });
});
