import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DEFAULT_RULES,
  formatPosition,
  positionFromState,
  type Rules,
  rulesKey,
  sameRules,
} from '../../../env/index.ts';
import { cacheDir } from '../../../files/cache-dir.ts';
import { readBytesBounded } from '../../../files/read-bounded.ts';
import { DEFAULT_ENDGAME_SEEDS } from '../../endgame/cache/table-cache.ts';
import type { OpeningBook } from '../book.ts';
import { BOOK_TABLE_BITS, BookFileError, type BookSettings, MAX_BOOK_PLIES } from '../format.ts';
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

/** A book the package ships, pinned: its file's SHA-256 is part of the code. */
export interface ShippedBook {
  readonly settings: BookSettings;
  /** The SHA-256 of the whole file as this version ships it (`sha256sum`). */
  readonly sha256: string;
  readonly path: string;
}

/** Where a shipped book of `settings` is, beside this code. */
function shippedPath(settings: BookSettings): string {
  return fileURLToPath(new URL(`../shipped/${bookFileName(settings)}`, import.meta.url));
}

/**
 * The books the package ships. A book's own checksum only shows that it was
 * not damaged: a book with values swapped and its checksum made again passes
 * it, and every check short of re-solving every leaf; so the shipped ones
 * are pinned here, and for their rules no cache file of their plies or fewer
 * is read (docs/reliability.md, "The opening book's trust model").
 */
export const SHIPPED_BOOKS: readonly ShippedBook[] = [
  {
    settings: bookSettings(DEFAULT_RULES, SHIPPED_BOOK_PLIES),
    sha256: 'f6f0121ac41a84e2c64b945cbc39f14058388655f1e29a2baae92e1c58379575',
    path: shippedPath(bookSettings(DEFAULT_RULES, SHIPPED_BOOK_PLIES)),
  },
];

/** The book the package ships for the default rules. */
export function shippedBookPath(): string {
  return (SHIPPED_BOOKS[0] as ShippedBook).path;
}

/** The shipped book under `rules` among `shipped`, if any. */
export function shippedBookFor(
  rules: Rules,
  shipped: readonly ShippedBook[] = SHIPPED_BOOKS,
): ShippedBook | undefined {
  return shipped.find((b) => sameRules(b.settings.rules, rules));
}

/**
 * Reads a shipped book, after checking its file against its pinned SHA-256:
 * a changed file is refused with a BookFileError naming it.
 */
export function readShippedBook(shipped: ShippedBook): OpeningBook {
  const bytes = readBytesBounded(shipped.path, {
    what: `book ${shipped.path}`,
    kind: 'an opening book',
    maxBytes: MAX_BOOK_BYTES,
  });
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (sha256 !== shipped.sha256) {
    throw new BookFileError(
      `the package's opening book ${shipped.path} was changed: its SHA-256 is ${sha256.slice(0, 12)}..., not the ${shipped.sha256.slice(0, 12)}... this version of ayoayo ships; install ayoayo again (in a clone: git checkout -- solve/book/shipped)`,
    );
  }
  return openBook(bytes, shipped.settings);
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

/**
 * Checks a deeper book against the shipped one of its rules: at every
 * position of the shipped book, each move's value must be the same (their
 * proof depths may differ: the shipped book's last ply is solved, the deeper
 * book's derived). Throws a BookFileError naming the first that is not.
 */
export function checkAgainstShipped(book: OpeningBook, shipped: OpeningBook): void {
  for (let i = 0; i < shipped.size; i++) {
    const state = shipped.stateAt(i);
    const ours = shipped.entryAt(i).moves;
    const theirs = book.lookup(state)?.moves;
    const same =
      theirs !== undefined &&
      theirs.length === ours.length &&
      theirs.every(
        (m, j) => m.action === ours[j]?.action && m.lo === ours[j]?.lo && m.hi === ours[j]?.hi,
      );
    if (!same) {
      throw new BookFileError(
        `its values disagree with the package's book at position ${formatPosition(positionFromState(state))}`,
      );
    }
  }
}

export interface FindBookOptions {
  /** The cache folder (default: the user's, see cacheDir). */
  readonly dir?: string;
  /** Hears of each book file found that is not used, and why. */
  readonly onRefused?: (path: string, why: string) => void;
  /** Hears of the file the book found was read from. */
  readonly onRead?: (path: string) => void;
  /** The books the package ships (default SHIPPED_BOOKS; tests pass others). */
  readonly shipped?: readonly ShippedBook[];
}

/**
 * The deepest sound book under `rules` there is, without building one; null
 * when there is none. Where the package ships a book under `rules`, it is
 * read (checked against its pin), and the cache is only looked at for
 * deeper books, each used only if it agrees with the shipped one; otherwise
 * the cache's books of MAX_BOOK_PLIES plies down to 1 (the user's own
 * builds, checked when they were built). A file that does not read is
 * passed over (onRefused hears why).
 */
export function findBook(rules: Rules, options: FindBookOptions = {}): OpeningBook | null {
  const dir = options.dir ?? cacheDir();
  const refused = options.onRefused ?? (() => {});
  const pinned = shippedBookFor(rules, options.shipped);
  let shipped: OpeningBook | null | undefined;
  const readShipped = (): OpeningBook | null => {
    if (shipped !== undefined || pinned === undefined) return shipped ?? null;
    try {
      shipped = readShippedBook(pinned);
    } catch (err) {
      refused(pinned.path, (err as Error).message);
      shipped = null;
    }
    return shipped;
  };
  const lowest = pinned === undefined ? 1 : pinned.settings.plies + 1;
  for (let plies = MAX_BOOK_PLIES; plies >= lowest; plies--) {
    const settings = bookSettings(rules, plies);
    const path = bookPath(dir, settings);
    if (!existsSync(path)) continue;
    let book: OpeningBook;
    try {
      book = readBook(path, settings);
      if (pinned !== undefined) {
        const reference = readShipped();
        if (reference === null) {
          throw new BookFileError("the package's book, which it must agree with, is refused");
        }
        checkAgainstShipped(book, reference);
      }
    } catch (err) {
      refused(path, (err as Error).message);
      continue;
    }
    options.onRead?.(path);
    return book;
  }
  if (pinned === undefined) return null;
  const book = readShipped();
  if (book !== null) options.onRead?.(pinned.path);
  return book;
}
