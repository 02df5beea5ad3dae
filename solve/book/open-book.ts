import { formatRules, sameRules } from '../../env/index.ts';
import { OpeningBook } from './book.ts';
import { checkBook } from './check.ts';
import { BookFileError, type BookSettings, decodeBookFile, sameBookSettings } from './format.ts';

/** The most bytes a book file may have, 256 MiB: over 9 million positions (ply 9 alone holds about 1.2 million). */
export const MAX_BOOK_BYTES = 256 * 1024 * 1024;

/**
 * The book in a book file's bytes (read from the cache, or fetched by the
 * page), checked for what can be checked without solving (checkBook with no
 * sample: its plan, its moves, every entry before the last ply against its
 * replies) and, given `expected`, against the settings it must have been
 * built with; throws a BookFileError naming what is wrong.
 */
export function openBook(bytes: Uint8Array, expected?: BookSettings): OpeningBook {
  if (bytes.length > MAX_BOOK_BYTES) {
    throw new BookFileError(
      `${bytes.length} bytes is more than a book holds (${MAX_BOOK_BYTES} at most)`,
    );
  }
  const { header, records } = decodeBookFile(bytes);
  if (header.kind !== 'book') throw new BookFileError("it holds a build's leaves, not a book");
  const settings: BookSettings = {
    rules: header.rules,
    plies: header.plies,
    endgameSeeds: header.endgameSeeds,
    tableBits: header.tableBits,
  };
  if (expected !== undefined && !sameBookSettings(settings, expected)) {
    throw new BookFileError(
      settings.plies === expected.plies && sameRules(settings.rules, expected.rules)
        ? 'it was built with other solver settings'
        : `it holds the book of ${settings.plies} plies under ${formatRules(settings.rules)}, not of ${expected.plies} under ${formatRules(expected.rules)}`,
    );
  }
  const book = new OpeningBook(settings, records);
  checkBook(book, { samples: 0 });
  return book;
}
