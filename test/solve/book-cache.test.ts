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
import { DEFAULT_RULES, resolveRules } from '../../env/index.ts';
import { OpeningBook } from '../../solve/book/book.ts';
import { bookPath, bookSettings, FIRST_USE_BOOK_PLIES } from '../../solve/book/cache/book-cache.ts';
import { firstUseAnnouncement } from '../../solve/book/cache/book-cost.ts';
import {
  BookBuildStopped,
  type BookChunkRunner,
  buildBook,
  resumeFileOf,
} from '../../solve/book/cache/build-book.ts';
import { resolveEveryLeaf } from '../../solve/book/cache/full-check.ts';
import { loadBook, setFirstUseBookRunner } from '../../solve/book/cache/load-book.ts';
import { localBookRunner } from '../../solve/book/cache/local-runner.ts';
import { decodeBookFile, encodeBookFile, RECORD_BYTES } from '../../solve/book/format.ts';
import { bookLevels } from '../../solve/book/plan.ts';
import {
  answeringRunner,
  BOOK_TEST_MS,
  bookEndgame,
  forgeLeaves,
  recordsOf,
  seedOneSample,
  smallBook,
  smallSettings,
} from './book-fixture.ts';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ayoayo-book-cache-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the books cache', { timeout: BOOK_TEST_MS }, () => {
  it('builds a missing book once, reads it after, and refuses a cut or damaged one with a line naming why, then builds it again', async () => {
    const dir = tempDir();
    const notes: string[] = [];
    const options = {
      dir,
      plies: 1,
      quiet: true,
      // No shipped book: the default rules' small book is built as other rules' are.
      shipped: [],
      checkSamples: 1,
      onNote: (n: string) => notes.push(n),
    };
    const built = await loadBook(DEFAULT_RULES, options);
    const path = bookPath(dir, bookSettings(DEFAULT_RULES, 1));
    expect(existsSync(path)).toBe(true);
    expect(built.records).toEqual(smallBook(1).records);
    // Said before any solving: what it builds, where, and how to build it ahead.
    const announced =
      'building the opening book of 1 ply under captureSeedStays=false,leftoverTo=opponent into the cache, once (6 leaves to solve; `ayoayo book build --rules captureSeedStays=false,leftoverTo=opponent --plies 1` builds it ahead)';
    expect(notes).toEqual([announced]);
    notes.length = 0;
    const bytes = readFileSync(path);
    // The builds again take the leaves from the book just built, as the first build solved them:
    // what is tested below is the refusal, and that the book comes back the same.
    const before = setFirstUseBookRunner(() => answeringRunner(built));
    try {
      // A file cut short: refused, then built again (a fresh process: another folder key).
      truncateSync(path, bytes.length - 10);
      const again = await loadBook(DEFAULT_RULES, { ...options, dir: `${dir}/.` });
      expect(notes).toEqual([
        expect.stringMatching(
          new RegExp(
            `^${path.replace(/[.]/g, '\\.')}: the book is \\d+ bytes past its header, expected \\d+ for 7 entries \\(cut short\\): building it again$`,
          ),
        ),
        announced,
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
        announced,
      ]);
      expect(readFileSync(path)).toEqual(bytes);
    } finally {
      setFirstUseBookRunner(before);
    }
  });

  it('goes on from its resume file after a stop, to the same book', async () => {
    const dir = tempDir();
    const settings = smallSettings(1);
    const path = join(dir, 'book.bin');
    const endgame = bookEndgame();
    const local = localBookRunner(() => endgame);
    const controller = new AbortController();
    // Stops after the first chunk.
    const firstOnly: BookChunkRunner = {
      foreign: false,
      solve: (chunks, onChunk, onLeaf, run) =>
        local.solve(
          chunks,
          (i, records) => {
            onChunk(i, records);
            controller.abort();
          },
          onLeaf,
          run,
        ),
    };
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

  it('refuses a path that is a folder before it solves anything', async () => {
    const dir = tempDir();
    let solved = 0;
    await expect(
      buildBook(smallSettings(1), {
        path: dir,
        runner: localBookRunner(() => bookEndgame()),
        endgame: bookEndgame(),
        onProgress: (done) => {
          solved = done;
        },
      }),
    ).rejects.toThrow(`${dir} is a folder, not a book file: name a file to write`);
    expect(solved).toBe(0);
    expect(existsSync(resumeFileOf(dir))).toBe(false);
  });

  it("checks the leaves of a resume file as another process's: forged ones are refused and dropped, and true ones pass the same check", async () => {
    const dir = tempDir();
    const settings = smallSettings(2);
    const path = join(dir, 'book.bin');
    const endgame = bookEndgame();
    const book = smallBook(2);
    // Every leaf but those the check used to re-solve (always seed 1) forged, as a forger would.
    const spare = seedOneSample(book);
    const leaves = recordsOf(book, bookLevels(settings.rules, 2)[2] as Uint8Array);
    const { records: forged, forged: count } = forgeLeaves(leaves, spare);
    // Fewer true leaves than the sample: whatever leaves it draws, it meets a forged one.
    expect(leaves.length / RECORD_BYTES - count).toBeLessThan(8);
    writeFileSync(resumeFileOf(path), encodeBookFile('leaves', settings, forged));
    const notes: string[] = [];
    const options = {
      path,
      runner: localBookRunner(() => endgame),
      endgame,
      onNote: (n: string) => notes.push(n),
    };
    await expect(buildBook(settings, options)).rejects.toThrow(
      /^the book fails its (sample|endgame) check: position .*\(sample seed \d+\)$/,
    );
    expect(existsSync(path)).toBe(false);
    expect(notes).toEqual([
      `going on from ${resumeFileOf(path)}: 28 of 28 leaves solved before`,
      `the book was not written: dropped ${resumeFileOf(path)} (its 28 leaves); the same command solves them again`,
    ]);
    expect(existsSync(resumeFileOf(path))).toBe(false);
    // The true leaves, from another process too: the same check passes them, and the book is
    // the true one (solving the 28 leaves here again would cost 15-30 s and show no more).
    writeFileSync(resumeFileOf(path), encodeBookFile('leaves', settings, leaves));
    notes.length = 0;
    const again = await buildBook(settings, options);
    expect(notes).toEqual([`going on from ${resumeFileOf(path)}: 28 of 28 leaves solved before`]);
    expect([again.resumed, again.foreign]).toEqual([28, 28]);
    expect(again.check.resolved).toBeGreaterThanOrEqual(8);
    expect(decodeBookFile(readFileSync(path)).records).toEqual(book.records);
  });

  it('re-solves every leaf in a full check, and counts and names those a book holds otherwise', async () => {
    const book = smallBook(1);
    const runner = localBookRunner(() => bookEndgame());
    let heard = 0;
    expect(await resolveEveryLeaf(book, runner, { onLeaf: () => heard++ })).toEqual({
      leaves: 6,
      resolved: 6,
      disagree: 0,
      first: null,
    });
    expect(heard).toBe(6);
    const { records: forged } = forgeLeaves(book.records, new Set());
    // The true answers again, from the book rather than solved a second time.
    const report = await resolveEveryLeaf(
      new OpeningBook(book.settings, forged),
      answeringRunner(book),
    );
    expect(report).toMatchObject({ leaves: 6, resolved: 6, disagree: 6 });
    expect(report.first).toMatch(/^position [0-9,/-]+: action \d comes out otherwise$/);
  });

  it('announces a first-use book with its leaves and, from the measured means, about how long', () => {
    const stays = resolveRules({ captureSeedStays: true });
    expect(firstUseAnnouncement(bookSettings(stays, FIRST_USE_BOOK_PLIES), 2)).toMatch(
      /^building the opening book of 4 plies under captureSeedStays=true,leftoverTo=opponent into the cache, once \(604 leaves to solve, about [\d.]+ (h|min) of CPU, about [\d.]+ (h|min) on 2 threads \(more on a busy machine\); `ayoayo book build --rules captureSeedStays=true,leftoverTo=opponent --plies 4` builds it ahead\)$/,
    );
  });
});
