/**
 * System packages some tests need (Debian's redis-server, chromium,
 * python3-numpy, gcc, clang and lld; .ci/run installs them). On a machine without
 * one, the tests that need it skip, each file printing one line that names the package and
 * the apt command; with CI=true they run and fail with that same message, so
 * CI can never pass by skipping.
 */
import { spawnSync } from 'node:child_process';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findChromium } from '../web/chromium.ts';

export interface SystemPackage {
  /** The Debian package to install. */
  readonly apt: string;
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
  missing: memo(() => runs('redis-server', ['--version'])),
};

/** Debian's Chromium, found on PATH as web/chromium.ts launches it. */
export const CHROMIUM_BROWSER: SystemPackage = {
  apt: 'chromium',
  missing: memo(() => (findChromium() === null ? 'no chromium on PATH' : null)),
};

export const PYTHON_NUMPY: SystemPackage = {
  apt: 'python3-numpy',
  missing: memo(() => runs('python3', ['-c', 'import numpy'])),
};

/** A C compiler as `cc` (Debian's gcc), for the engine and encoder benches' native C yardsticks. */
export const C_COMPILER: SystemPackage = {
  apt: 'gcc',
  missing: memo(() => runs(process.env.CC ?? 'cc', ['--version'])),
};

/** Debian's clang and lld, for the engine and encoder benches' C yardsticks built as WebAssembly. */
export const CLANG_WASM32: SystemPackage = {
  apt: 'clang lld',
  missing: memo(() => runs('wasm-ld', ['--version']) ?? runs('clang', ['--version'])),
};

export function inCi(): boolean {
  const ci = process.env.CI ?? '';
  return ci !== '' && ci !== 'false' && ci !== '0';
}

function message(pkg: SystemPackage, why: string): string {
  return `${why}; install it with: sudo apt-get install ${pkg.apt} (.ci/run does)`;
}

/**
 * True when the tests of `file` that need `pkg` should be skipped here: the
 * package is missing and this is not CI. Prints the one skip line then.
 */
export function skipWithout(pkg: SystemPackage, file: string, tests: string): boolean {
  const why = pkg.missing();
  if (why === null || inCi()) return false;
  const name = relative(process.cwd(), file.startsWith('file:') ? fileURLToPath(file) : file);
  console.warn(`SKIPPED ${tests} (${name}): ${message(pkg, why)}. With CI=true they fail instead.`);
  return true;
}

/** Throws the package's install message when it is missing (for CI, where nothing skips). */
export function requireSystemPackage(pkg: SystemPackage): void {
  const why = pkg.missing();
  if (why !== null) throw new Error(message(pkg, why));
}
