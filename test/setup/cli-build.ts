/**
 * Vitest's global setup: compiles the sources once, without type checking (the
 * suite's typecheck step does that), into a folder of this run that the `ayoayo`
 * commands the tests start then run (bin/ayoayo.js reads AYOAYO_CLI_BUILD).
 * Through tsx, each of those commands spends about a second of CPU loading
 * its modules; compiled, a quarter of that. The build sits in the repository
 * (test/dist-cli/, ignored by git) so that the compiled code resolves the
 * project's packages, and the package's own name, as dist/ does.
 * A vitest started by a test (test/system-packages.test.ts) uses its parent's.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isAlive } from '../../files/process-identity.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

const builds = join(root, 'test', 'dist-cli');

/** Builds of runs that were killed before their teardown. */
function removeAbandonedBuilds(): void {
  if (!existsSync(builds)) return;
  for (const name of readdirSync(builds)) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || !isAlive(pid)) {
      rmSync(join(builds, name), { recursive: true, force: true });
    }
  }
}

export default function setup(): () => void {
  if (process.env.AYOAYO_CLI_BUILD) return () => {};
  removeAbandonedBuilds();
  const out = join(builds, String(process.pid));
  const flags = ['--out', out, '--no-check', '--no-declarations'];
  execFileSync(process.execPath, ['scripts/build.mjs', ...flags], {
    cwd: root,
    stdio: 'inherit',
  });
  process.env.AYOAYO_CLI_BUILD = out;
  return () => {
    delete process.env.AYOAYO_CLI_BUILD;
    rmSync(out, { recursive: true, force: true });
  };
}
