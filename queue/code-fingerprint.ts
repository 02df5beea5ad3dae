import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folders whose code decides what a queue job does on a worker: the
 * engine, the searches, the networks and their inference, the solver, the
 * trainer, the games, tournaments and accuracy scoring, and the jobs
 * themselves.
 */
export const FINGERPRINTED_FOLDERS = [
  'env',
  'files',
  'solve',
  'models',
  'agents',
  'eval',
  'train',
  'queue',
] as const;

/** Where `npm run build` stamps the sources' fingerprint, in dist/ (scripts/build.mjs). */
export const FINGERPRINT_FILE = 'code-fingerprint.json';

/**
 * sha256 of the TypeScript sources of FINGERPRINTED_FOLDERS under `root`: each
 * file's path (relative, with `/`) and contents, in path order. Two checkouts
 * share it exactly when those sources are the same, whatever else differs.
 */
export function fingerprintSources(root: string): string {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) files.push(path);
    }
  };
  for (const folder of FINGERPRINTED_FOLDERS) {
    if (existsSync(join(root, folder))) walk(join(root, folder));
  }
  const hash = createHash('sha256');
  const paths = files.map((file) => relative(root, file).split(sep).join('/')).sort();
  for (const path of paths) {
    hash.update(`${path}\0`);
    hash.update(readFileSync(join(root, path)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/**
 * This code's fingerprint: the one the build stamped beside the compiled code
 * (the package ships no sources), else that of the sources it runs from.
 */
export function codeFingerprint(): string {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const stamped = join(root, FINGERPRINT_FILE);
  if (!existsSync(stamped)) return fingerprintSources(root);
  const { sources } = JSON.parse(readFileSync(stamped, 'utf8')) as { sources?: unknown };
  if (typeof sources !== 'string' || !/^[0-9a-f]{64}$/.test(sources)) {
    throw new Error(`${stamped} holds no fingerprint: build the package again (npm run build)`);
  }
  return sources;
}
