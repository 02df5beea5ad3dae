import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RULES, initialPosition } from '../../env/index.ts';
import {
  bookPath,
  bookSettings,
  findBook,
  readBook,
  SHIPPED_BOOK_PLIES,
  shippedBookPath,
} from '../../solve/book/cache/book-cache.ts';
import { checkBook } from '../../solve/book/check.ts';
import { BOOK_TEST_MS, bookEndgame } from './book-fixture.ts';

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

  it('is found past a damaged cache copy of it, and the finder says which file it read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ayoayo-book-find-'));
    try {
      const cached = bookPath(dir, bookSettings(DEFAULT_RULES, SHIPPED_BOOK_PLIES));
      writeFileSync(cached, 'not a book');
      const refused: string[] = [];
      const read: string[] = [];
      const book = findBook(DEFAULT_RULES, {
        dir,
        onRefused: (path) => refused.push(path),
        onRead: (path) => read.push(path),
      });
      expect(book?.plies).toBe(SHIPPED_BOOK_PLIES);
      expect({ refused, read }).toEqual({ refused: [cached], read: [shippedBookPath()] });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
