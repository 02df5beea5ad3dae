import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { codeFingerprint, fingerprintSources } from '../../queue/code-fingerprint.ts';
import { ayoayoVersion } from '../../queue/version.ts';

const root = mkdtempSync(join(tmpdir(), 'ayoayo-fingerprint-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function write(path: string, text: string): void {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), text);
}

describe('the code fingerprint in the version the queue compares', () => {
  it('changes with the TypeScript sources that run jobs, and with nothing else', () => {
    write('env/core.ts', 'export const A = 1;\n');
    write('train/expert-iteration/search.ts', 'export const B = 2;\n');
    const before = fingerprintSources(root);
    expect(before).toMatch(/^[0-9a-f]{64}$/);
    expect(fingerprintSources(root)).toBe(before);

    // Outside the fingerprinted folders, or not a source: the same code plays.
    write('cli/commands/show.ts', 'export const C = 3;\n');
    write('docs/notes.md', 'notes\n');
    write('env/types.d.ts', 'export type T = number;\n');
    write('models/pretrained/policy.json', '{}\n');
    expect(fingerprintSources(root)).toBe(before);

    write('env/core.ts', 'export const A = 2;\n');
    const edited = fingerprintSources(root);
    expect(edited).not.toBe(before);
    write('env/core.ts', 'export const A = 1;\n');
    expect(fingerprintSources(root)).toBe(before);

    // The games, tournaments and jobs a worker runs are part of it.
    for (const file of ['eval/match.ts', 'queue/jobs.ts']) {
      write(file, 'export const D = 4;\n');
      expect(fingerprintSources(root)).not.toBe(before);
      rmSync(join(root, file));
      expect(fingerprintSources(root)).toBe(before);
    }

    // A file moved is other code too, though every byte is the same.
    renameSync(join(root, 'train/expert-iteration/search.ts'), join(root, 'train/search.ts'));
    expect(fingerprintSources(root)).not.toBe(before);
  });

  it("is the sources' own when run from them, and part of the version", () => {
    const repository = fileURLToPath(new URL('../..', import.meta.url));
    const fingerprint = fingerprintSources(repository);
    expect(codeFingerprint()).toBe(fingerprint);
    expect(ayoayoVersion().endsWith(`+${fingerprint.slice(0, 12)}`)).toBe(true);
  });
});
