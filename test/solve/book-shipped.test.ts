import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_RULES, initialPosition, parsePosition } from '../../env/index.ts';
import { assembleBook } from '../../solve/book/assemble.ts';
import { OpeningBook } from '../../solve/book/book.ts';
import {
  bookPath,
  bookSettings,
  findBook,
  readBook,
  readShippedBook,
  SHIPPED_BOOK_PLIES,
  SHIPPED_BOOKS,
  type ShippedBook,
  shippedBookPath,
} from '../../solve/book/cache/book-cache.ts';
import { checkBook } from '../../solve/book/check.ts';
import {
  DEPTH_AT,
  decodeBookFile,
  encodeBookFile,
  KEY_BYTES,
  RECORD_BYTES,
  VALUE_AT,
  valueCode,
} from '../../solve/book/format.ts';
import { bookLevels } from '../../solve/book/plan.ts';
import { runAyoayo } from '../ayoayo-command.ts';
import { BOOK_TEST_MS, bookEndgame, smallBook, smallSettings } from './book-fixture.ts';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ayoayo-book-shipped-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The leaf of the forged book: actions 3 (a loss) and 5 (a win). */
const FORGED_LEAF = '0,0,0,1,11,1/7,4,13,6,0,1/0-4/0';

/** The shipped book's file with the leaf's moves 3 and 5 swapped, its checksum made again. */
function forgedShippedCopy(): Uint8Array {
  const { header, records } = decodeBookFile(readFileSync(shippedBookPath()));
  const book = new OpeningBook(header, records);
  const at = book.indexOf(parsePosition(FORGED_LEAF).stateView) * RECORD_BYTES;
  const forged = records.slice();
  // Values and proof depths alike: its parent's record, derived from it, then still agrees.
  for (const field of [VALUE_AT, DEPTH_AT]) {
    forged[at + field + 3] = records[at + field + 5] as number;
    forged[at + field + 5] = records[at + field + 3] as number;
  }
  return encodeBookFile('book', header, forged);
}

describe("the package's opening book", { timeout: BOOK_TEST_MS }, () => {
  it('is the default rules’ book of 6 plies, sound, a seeded sample re-solved from scratch agreeing', () => {
    const book = readBook(shippedBookPath(), bookSettings(DEFAULT_RULES, SHIPPED_BOOK_PLIES));
    expect([book.plies, book.size]).toEqual([6, 16_598]);
    const report = checkBook(book, { endgame: bookEndgame(), samples: 3, seed: 5 });
    expect(report).toMatchObject({ entries: 16_598, leaves: 12_943, resolved: 3 });
    expect(report.endgameMoves).toBeGreaterThan(0);
    // The start: only action 2 wins (docs/solver.md).
    const start = book.lookup(initialPosition().stateView);
    expect(start?.moves.map((m) => m.lo)).toEqual([-1, -1, 1, -1, -1, -1]);
  });

  it('is the file its pin in the code names, to the byte', () => {
    for (const shipped of SHIPPED_BOOKS) {
      const sha256 = createHash('sha256').update(readFileSync(shipped.path)).digest('hex');
      expect(sha256).toBe(shipped.sha256);
    }
  });

  it('is refused, in one line naming it, when its file was changed (its own checksum made again)', () => {
    const dir = tempDir();
    const path = join(dir, 'book.bin');
    writeFileSync(path, forgedShippedCopy());
    const changed: ShippedBook = { ...(SHIPPED_BOOKS[0] as ShippedBook), path };
    expect(() => readShippedBook(changed)).toThrow(
      new RegExp(
        `^the package's opening book ${path.replace(/[.]/g, '\\.')} was changed: its SHA-256 is [0-9a-f]{12}\\.\\.\\., not the f6f0121ac41a\\.\\.\\. this version of ayoayo ships; install ayoayo again`,
      ),
    );
  });

  it('is what is read under the default rules past a forged copy in the cache, which is not even opened', () => {
    const dir = tempDir();
    const cached = bookPath(dir, bookSettings(DEFAULT_RULES, SHIPPED_BOOK_PLIES));
    writeFileSync(cached, forgedShippedCopy());
    // The forged copy is a sound book by every check short of re-solving that leaf.
    expect(readBook(cached, bookSettings(DEFAULT_RULES, SHIPPED_BOOK_PLIES)).size).toBe(16_598);
    const refused: string[] = [];
    const read: string[] = [];
    const book = findBook(DEFAULT_RULES, {
      dir,
      onRefused: (path) => refused.push(path),
      onRead: (path) => read.push(path),
    });
    expect({ refused, read }).toEqual({ refused: [], read: [shippedBookPath()] });
    const leaf = book?.lookup(parsePosition(FORGED_LEAF).stateView);
    expect(leaf?.moves.filter((m) => m.lo === 1).map((m) => m.action)).toEqual([5]);
  });

  it('is what `ayoayo solve` answers from with a forged copy in the cache: action 5 wins, 3 loses', async () => {
    const cache = tempDir();
    mkdirSync(join(cache, 'ayoayo'));
    writeFileSync(
      bookPath(join(cache, 'ayoayo'), bookSettings(DEFAULT_RULES, SHIPPED_BOOK_PLIES)),
      forgedShippedCopy(),
    );
    const { code, stdout } = await runAyoayo(['solve', FORGED_LEAF], '', {
      env: { XDG_CACHE_HOME: cache },
    });
    expect(code).toBe(0);
    expect(stdout).toContain('from the opening book of 6 plies');
    expect(stdout).toMatch(/^3\s+3\s+loss\s*$/m);
    expect(stdout).toMatch(/^5\s+5\s+win\s+best$/m);
  });
});

describe('a deeper book in the cache under rules the package ships a book for', {
  timeout: BOOK_TEST_MS,
}, () => {
  it('is read where it agrees with the shipped book, and refused, naming the position, where it does not', () => {
    const dir = tempDir();
    // A 1-ply book stands in for the shipped one, pinned as the package pins its own.
    const shippedFile = join(dir, 'shipped-1.bin');
    const one = smallBook(1);
    writeFileSync(shippedFile, encodeBookFile('book', one.settings, one.records));
    const shipped: ShippedBook = {
      settings: one.settings,
      sha256: createHash('sha256').update(readFileSync(shippedFile)).digest('hex'),
      path: shippedFile,
    };
    const two = smallBook(2);
    const cached = bookPath(dir, bookSettings(DEFAULT_RULES, 2));
    writeFileSync(cached, encodeBookFile('book', two.settings, two.records));
    const read: string[] = [];
    const found = findBook(DEFAULT_RULES, {
      dir,
      shipped: [shipped],
      onRead: (path) => read.push(path),
    });
    expect([found?.plies, read]).toEqual([2, [cached]]);
    // A leaf's every move made a win for its mover: a sound book by its own checks, but its
    // parent, a leaf of the shipped book, now holds a loss where it holds another value.
    const settings = smallSettings(2);
    const levels = bookLevels(settings.rules, 2);
    const leaves = (levels[2] as Uint8Array).length / KEY_BYTES;
    const records = new Uint8Array(leaves * RECORD_BYTES);
    let forgedOne = false;
    for (let i = 0; i < leaves; i++) {
      const at = two.indexOf((levels[2] as Uint8Array).subarray(i * KEY_BYTES)) * RECORD_BYTES;
      records.set(two.records.subarray(at, at + RECORD_BYTES), i * RECORD_BYTES);
      const entry = two.entryAt(at / RECORD_BYTES);
      if (!forgedOne && entry.lo !== 1) {
        for (const m of entry.moves)
          records[i * RECORD_BYTES + VALUE_AT + m.action] = valueCode(1, 1);
        forgedOne = true;
      }
    }
    const forged = new OpeningBook(settings, assembleBook(settings, levels, records));
    writeFileSync(cached, encodeBookFile('book', settings, forged.records));
    const refused: string[] = [];
    const fallback = findBook(DEFAULT_RULES, {
      dir,
      shipped: [shipped],
      onRefused: (path, why) => refused.push(`${path}: ${why}`),
    });
    expect(fallback?.plies).toBe(1);
    expect(refused).toEqual([
      expect.stringMatching(
        new RegExp(
          `^${cached.replace(/[.]/g, '\\.')}: its values disagree with the package's book at position [0-9,/-]+$`,
        ),
      ),
    ]);
  });
});
