import {
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_RULES } from '../../env/index.ts';
import { bookPath, bookSettings } from '../../solve/book/cache/book-cache.ts';
import {
  BookBuildStopped,
  type BookChunkRunner,
  buildBook,
  resumeFileOf,
} from '../../solve/book/cache/build-book.ts';
import { loadBook } from '../../solve/book/cache/load-book.ts';
import { localBookRunner } from '../../solve/book/cache/local-runner.ts';
import { decodeBookFile } from '../../solve/book/format.ts';
import { BOOK_TEST_MS, bookEndgame, smallBook, smallSettings } from './book-fixture.ts';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ayoayo-book-cache-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const NO_SHIPPED = '/nonexistent/book.bin';

describe('the books cache', { timeout: BOOK_TEST_MS }, () => {
  it('builds a missing book once, reads it after, and refuses a cut or damaged one with a line naming why, then builds it again', async () => {
    const dir = tempDir();
    const notes: string[] = [];
    const options = {
      dir,
      plies: 1,
      quiet: true,
      shipped: NO_SHIPPED,
      checkSamples: 1,
      onNote: (n: string) => notes.push(n),
    };
    const built = await loadBook(DEFAULT_RULES, options);
    const path = bookPath(dir, bookSettings(DEFAULT_RULES, 1));
    expect(existsSync(path)).toBe(true);
    expect(built.records).toEqual(smallBook(1).records);
    expect(notes).toEqual([]);
    const bytes = readFileSync(path);
    // A file cut short: refused, then built again (a fresh process: another folder key).
    truncateSync(path, bytes.length - 10);
    const again = await loadBook(DEFAULT_RULES, { ...options, dir: `${dir}/.` });
    expect(notes).toEqual([
      expect.stringMatching(
        new RegExp(
          `^${path.replace(/[.]/g, '\\.')}: the book is \\d+ bytes past its header, expected \\d+ for 7 entries \\(cut short\\): building it again$`,
        ),
      ),
    ]);
    expect(again.records).toEqual(built.records);
    expect(readFileSync(path)).toEqual(bytes);
    // Damaged in its records.
    const damaged = Buffer.from(bytes);
    damaged[damaged.length - 1] = (damaged[damaged.length - 1] as number) ^ 1;
    writeFileSync(path, damaged);
    notes.length = 0;
    await loadBook(DEFAULT_RULES, { ...options, dir: `${dir}/./` });
    expect(notes).toEqual([
      `${join(`${dir}/./`, 'book-1-seed-captured-leftover-opponent.bin')}: the book is damaged (its SHA-256 does not match): building it again`,
    ]);
    expect(readFileSync(path)).toEqual(bytes);
  });

  it('goes on from its resume file after a stop, to the same book', async () => {
    const dir = tempDir();
    const settings = smallSettings(1);
    const path = join(dir, 'book.bin');
    const endgame = bookEndgame();
    const local = localBookRunner(() => endgame);
    const controller = new AbortController();
    // Stops after the first chunk.
    const firstOnly: BookChunkRunner = (chunks, onChunk, onLeaf, signal) =>
      local(
        chunks,
        (i, records) => {
          onChunk(i, records);
          controller.abort();
        },
        onLeaf,
        signal,
      );
    const stopped = buildBook(settings, {
      path,
      runner: firstOnly,
      endgame,
      signal: controller.signal,
      chunkLeaves: 2,
    });
    await expect(stopped).rejects.toThrow(BookBuildStopped);
    await expect(stopped).rejects.toThrow(
      `stopped: 2 of 6 leaves are saved in ${resumeFileOf(path)}; run the same command to go on`,
    );
    expect(decodeBookFile(readFileSync(resumeFileOf(path))).header).toMatchObject({
      kind: 'leaves',
      entries: 2,
    });
    const notes: string[] = [];
    const solvedNow: number[] = [];
    const built = await buildBook(settings, {
      path,
      runner: local,
      endgame,
      checkSamples: 0,
      chunkLeaves: 2,
      onNote: (n) => notes.push(n),
      onProgress: (done) => solvedNow.push(done),
    });
    expect(notes).toEqual([`going on from ${resumeFileOf(path)}: 2 of 6 leaves solved before`]);
    expect(solvedNow[0]).toBe(2);
    expect(built.resumed).toBe(2);
    expect(existsSync(resumeFileOf(path))).toBe(false);
    expect(decodeBookFile(readFileSync(path)).records).toEqual(smallBook(1).records);
  });
});
