import { createRequire } from 'node:module';

/**
 * This ayoayo's version (package.json), stamped on the jobs whose results must
 * be the same wherever they run (self-play shards): a worker of another
 * version plays other code, so it refuses them rather than change the run.
 * Read through the package's own name, which resolves from the sources and
 * from dist/ alike.
 */
export const AYOAYO_VERSION: string = (
  createRequire(import.meta.url)('ayoayo/package.json') as { version: string }
).version;
