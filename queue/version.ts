import { createRequire } from 'node:module';
import { codeFingerprint } from './code-fingerprint.ts';

/**
 * This ayoayo's version, stamped on the jobs whose results must be the same
 * wherever they run (self-play shards): package.json's version and the first
 * 12 hex digits of the fingerprint of the code that plays them
 * (`0.1.0+3f2a...`), so that two checkouts of one release that differ in that
 * code differ here too. A worker of another version plays other code, so it
 * refuses such jobs rather than change the run. The package's own name
 * resolves from the sources and from dist/ alike.
 */
export const AYOAYO_VERSION: string = `${
  (createRequire(import.meta.url)('ayoayo/package.json') as { version: string }).version
}+${codeFingerprint().slice(0, 12)}`;
