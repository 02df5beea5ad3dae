import { DEFAULT_RULES } from '../../env/index.ts';
import { assembleBook } from '../../solve/book/assemble.ts';
import { OpeningBook } from '../../solve/book/book.ts';
import type { BookSettings } from '../../solve/book/format.ts';
import { LeafSolver } from '../../solve/book/leaves.ts';
import { bookLevels } from '../../solve/book/plan.ts';
import { loadEndgame } from '../../solve/endgame/cache/table-cache.ts';
import type { EndgameValues } from '../../solve/index.ts';

/** The books' tests solve positions: seconds each, minutes on a loaded machine. */
export const BOOK_TEST_MS = 600_000;

/**
 * The books' endgame table: 16 seeds, as the package's books are built (with
 * a smaller one the leaves take minutes, not seconds), read from the user's
 * cache, where `ayoayo solve` keeps it (built there once when it is missing,
 * about a minute).
 */
export const TEST_ENDGAME_SEEDS = 16;
let endgame: EndgameValues | null = null;
export function bookEndgame(): EndgameValues {
  endgame ??= loadEndgame(TEST_ENDGAME_SEEDS, DEFAULT_RULES);
  return endgame;
}

/** A small book's settings: the default rules, the package's solver settings. */
export function smallSettings(plies: number): BookSettings {
  return { rules: DEFAULT_RULES, plies, endgameSeeds: TEST_ENDGAME_SEEDS, tableBits: 20 };
}

const books = new Map<number, OpeningBook>();
/** The book of `plies` plies (1 or 2: seconds), built in this thread once a test file. */
export function smallBook(plies: number): OpeningBook {
  let book = books.get(plies);
  if (book === undefined) {
    const settings = smallSettings(plies);
    const levels = bookLevels(settings.rules, plies);
    const leaves = new LeafSolver(settings, bookEndgame()).solveAll(levels[plies] as Uint8Array);
    book = new OpeningBook(settings, assembleBook(settings, levels, leaves));
    books.set(plies, book);
  }
  return book;
}
