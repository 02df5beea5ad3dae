import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_RULES, type Rules, rulesKey, sameRules } from '../../../env/index.ts';
import { cacheDir } from '../../../files/cache-dir.ts';
import { readBytesBounded } from '../../../files/read-bounded.ts';
import { DEFAULT_ENDGAME_SEEDS } from '../../endgame/cache/table-cache.ts';
import type { OpeningBook } from '../book.ts';
import { BOOK_TABLE_BITS, type BookSettings, MAX_BOOK_PLIES } from '../format.ts';
import { MAX_BOOK_BYTES, openBook } from '../open-book.ts';

/** The plies of the book that ships with the package (default rules). */
export const SHIPPED_BOOK_PLIES = 6;
/**
 * The plies of a book built on first use for other rules (about 600 leaves,
 * a few minutes on one core); `ayoayo book build --plies N` builds deeper.
 */
export const FIRST_USE_BOOK_PLIES = 4;

/** The settings of the book of `plies` plies under `rules`, as the package's books are built. */
export function bookSettings(rules: Rules, plies: number): BookSettings {
  return { rules, plies, endgameSeeds: DEFAULT_ENDGAME_SEEDS, tableBits: BOOK_TABLE_BITS };
}

/** A book's file name: its plies and rules (and its endgame table where it is not the default). */
export function bookFileName(settings: BookSettings): string {
  const table =
    settings.endgameSeeds === DEFAULT_ENDGAME_SEEDS && settings.tableBits === BOOK_TABLE_BITS
      ? ''
      : `-e${settings.endgameSeeds}-t${settings.tableBits}`;
  return `book-${settings.plies}-${rulesKey(settings.rules)}${table}.bin`;
}

/** Where the book of `settings` is cached in `dir`. */
export function bookPath(dir: string, settings: BookSettings): string {
  return join(dir, bookFileName(settings));
}

/** The book the package ships (default rules, SHIPPED_BOOK_PLIES), beside this code. */
export function shippedBookPath(): string {
  return fileURLToPath(
    new URL(
      `../shipped/${bookFileName(bookSettings(DEFAULT_RULES, SHIPPED_BOOK_PLIES))}`,
      import.meta.url,
    ),
  );
}

/**
 * Reads the book at `path` (a regular file within MAX_BOOK_BYTES: a device
 * or a pipe named as a book is refused, not read) and checks it against
 * `settings` and for what can be checked without solving (openBook); throws
 * a BoundedReadError or a BookFileError naming what is wrong.
 */
export function readBook(path: string, settings: BookSettings): OpeningBook {
  const bytes = readBytesBounded(path, {
    what: `book ${path}`,
    kind: 'an opening book',
    maxBytes: MAX_BOOK_BYTES,
  });
  return openBook(bytes, settings);
}

export interface FindBookOptions {
  /** The cache folder (default: the user's, see cacheDir). */
  readonly dir?: string;
  /** Hears of each book file found that is not used, and why. */
  readonly onRefused?: (path: string, why: string) => void;
  /** Hears of the file the book found was read from. */
  readonly onRead?: (path: string) => void;
  /** Where the shipped book is (default shippedBookPath(); tests pass others). */
  readonly shipped?: string;
}

/**
 * The deepest sound book under `rules` there is, without building one: the
 * cache's books of MAX_BOOK_PLIES plies down to 1, and for the default rules
 * the shipped one; null when there is none. A file that does not read is
 * passed over (onRefused hears why).
 */
export function findBook(rules: Rules, options: FindBookOptions = {}): OpeningBook | null {
  const dir = options.dir ?? cacheDir();
  const refused = options.onRefused ?? (() => {});
  for (let plies = MAX_BOOK_PLIES; plies >= 1; plies--) {
    const settings = bookSettings(rules, plies);
    const candidates = [bookPath(dir, settings)];
    if (sameRules(rules, DEFAULT_RULES) && plies === SHIPPED_BOOK_PLIES) {
      candidates.push(options.shipped ?? shippedBookPath());
    }
    for (const path of candidates) {
      if (!existsSync(path)) continue;
      let book: OpeningBook;
      try {
        book = readBook(path, settings);
      } catch (err) {
        refused(path, (err as Error).message);
        continue;
      }
      options.onRead?.(path);
      return book;
    }
  }
  return null;
}
