/**
 * System packages some tests need (Debian's redis-server, chromium, python3,
 * python3-numpy, gcc, clang and lld; .ci/run installs them), and the one way a
 * test file uses one: `describeWithSystemPackage`. On a machine without the
 * package its suite is skipped, no hook of it runs, and the file prints one
 * line that names the package and the apt command; with CI=true the suite runs
 * and fails with that same message, so CI can never pass by skipping.
 * test/system-packages.test.ts fails for a test file that uses a package
 * outside such a suite (test/system-packages-scan.ts).
 */
import { spawnSync } from 'node:child_process';
import { relative } from 'node:path';
import { beforeAll, describe, expect } from 'vitest';
import { findChromium } from '../web/chromium.ts';

export interface SystemPackage {
  /** The Debian package(s) to install. */
  readonly apt: string;
  /**
   * The programs it brings and the scripts that run on them, as a test names
   * them in a string: the string's first word, or the end of a path.
   */
  readonly programs: readonly string[];
  /** The project's functions that start or run it. */
  readonly starters: readonly string[];
  /** Why it is missing here, or null when it is present. */
  readonly missing: () => string | null;
}

function runs(command: string, args: readonly string[]): string | null {
  const run = spawnSync(command, args, { encoding: 'utf8', timeout: 10_000 });
  if (run.error !== undefined) return `${command}: ${run.error.message}`;
  return run.status === 0 ? null : `${command} ${args.join(' ')}: ${run.stderr.trim()}`;
}

function memo(check: () => string | null): () => string | null {
  let result: string | null | undefined;
  return () => {
    if (result === undefined) result = check();
    return result;
  };
}

export const REDIS_SERVER: SystemPackage = {
  apt: 'redis-server',
  programs: ['redis-server'],
  starters: ['startTestRedis', 'startRedisServer'],
  missing: memo(() => runs('redis-server', ['--version'])),
};

/** Debian's Chromium, found on PATH as web/chromium.ts launches it. */
export const CHROMIUM_BROWSER: SystemPackage = {
  apt: 'chromium',
  programs: ['chromium'],
  starters: ['launchChromium'],
  missing: memo(() => (findChromium() === null ? 'no chromium on PATH' : null)),
};

/** Python 3, for the README's example engine in Python (an `ext:` agent). */
export const PYTHON3: SystemPackage = {
  apt: 'python3',
  programs: ['python3', 'test/fixtures/ext-engines/engine.py'],
  starters: [],
  missing: memo(() => runs('python3', ['--version'])),
};

/** Python 3 with numpy, for the Python client of an exported policy. */
export const PYTHON_NUMPY: SystemPackage = {
  apt: 'python3-numpy',
  programs: ['python3', 'examples/python/client.py'],
  starters: [],
  missing: memo(() => runs('python3', ['-c', 'import numpy'])),
};

/** A C compiler as `cc` (Debian's gcc), for the engine and encoder benches' native C yardsticks. */
export const C_COMPILER: SystemPackage = {
  apt: 'gcc',
  programs: ['cc', 'gcc'],
  starters: ['buildNative', 'compileNativePlayouts', 'compileNativeEncoder'],
  missing: memo(() => runs(process.env.CC ?? 'cc', ['--version'])),
};

/** Debian's clang and lld, for the engine and encoder benches' C yardsticks built as WebAssembly. */
export const CLANG_WASM32: SystemPackage = {
  apt: 'clang lld',
  programs: ['clang', 'wasm-ld'],
  starters: ['buildWasm', 'compileWasmPlayouts', 'compileWasmEncoder'],
  missing: memo(() => runs('wasm-ld', ['--version']) ?? runs('clang', ['--version'])),
};

/** Every system package, by the name a test file imports it under. */
export const SYSTEM_PACKAGES: Readonly<Record<string, SystemPackage>> = {
  REDIS_SERVER,
  CHROMIUM_BROWSER,
  PYTHON3,
  PYTHON_NUMPY,
  C_COMPILER,
  CLANG_WASM32,
};

export function inCi(): boolean {
  const ci = process.env.CI ?? '';
  return ci !== '' && ci !== 'false' && ci !== '0';
}

function message(pkg: SystemPackage, why: string): string {
  return `${why}; install it with: sudo apt-get install ${pkg.apt} (.ci/run does)`;
}

/** Throws the package's install message when it is missing. */
function requireSystemPackage(pkg: SystemPackage): void {
  const why = pkg.missing();
  if (why !== null) throw new Error(message(pkg, why));
}

/**
 * A suite that needs `pkg`: its tests, and every hook that starts or uses the
 * package, go in `body` (the body itself runs when the tests are collected,
 * skipped or not, so it only declares). Where the package is missing the
 * suite is skipped, with one line naming `title`, the test file and the apt
 * command; with CI=true it runs instead, and its first hook fails with that
 * message before any other hook of it runs.
 */
export function describeWithSystemPackage(
  pkg: SystemPackage,
  title: string,
  body: () => void,
  options: { readonly timeout?: number } = {},
): void {
  const why = pkg.missing();
  const skip = why !== null && !inCi();
  if (skip) {
    const file = relative(process.cwd(), expect.getState().testPath ?? '');
    console.warn(
      `SKIPPED ${title} (${file}): ${message(pkg, why)}. With CI=true they fail instead.`,
    );
  }
  describe.skipIf(skip)(title, options, () => {
    beforeAll(() => requireSystemPackage(pkg));
    body();
  });
}
