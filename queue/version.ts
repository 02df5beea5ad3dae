import { createRequire } from 'node:module';
import { codeFingerprint } from './code-fingerprint.ts';

// Computed on first use: hashing the sources takes tens of milliseconds, which
// every command started from the sources would otherwise pay at import.
let version: string | undefined;

/**
 * This ayoayo's version, stamped on every queue job and naming the queue its
 * jobs go through: package.json's version and the first 12 hex digits of the
 * fingerprint of the code that runs them (`0.1.0+3f2a...`), so that two
 * checkouts of one release that differ in that code differ here too. A worker
 * of another version runs other code: it serves another queue, and never
 * sees these jobs. The package's own name resolves from the sources and from
 * dist/ alike.
 */
export function ayoayoVersion(): string {
  if (version === undefined) {
    const { version: release } = createRequire(import.meta.url)('ayoayo/package.json') as {
      version: string;
    };
    version = `${release}+${codeFingerprint().slice(0, 12)}`;
  }
  return version;
}
