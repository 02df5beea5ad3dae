import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../files/atomic-write.ts';

const dir = mkdtempSync(join(tmpdir(), 'ayoayo-atomic-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('writeFileAtomic', () => {
  it('writes the file whole and leaves no temp file', () => {
    const path = join(dir, 'a.json');
    writeFileAtomic(path, '{"a":1}\n');
    writeFileAtomic(path, new Uint8Array([1, 2, 3]));
    expect([...readFileSync(path)]).toEqual([1, 2, 3]);
    expect(readdirSync(dir)).toEqual(['a.json']);
  });

  it('throws where a folder stands at the path, and leaves no temp file behind', () => {
    const inside = mkdtempSync(join(dir, 'folder-'));
    const path = join(inside, 'table.bin');
    mkdirSync(path);
    expect(() => writeFileAtomic(path, new Uint8Array(1 << 20))).toThrow(/EISDIR|EEXIST|ENOTEMPTY/);
    expect(readdirSync(inside)).toEqual(['table.bin']);
    expect(readdirSync(path)).toEqual([]);
  });
});
