import { existsSync } from 'node:fs';
import { gamesProgressBar } from '../../../display/progress.ts';
import { type Rules, rulesKey } from '../../../env/index.ts';
import { cacheDir } from '../../../files/cache-dir.ts';
import { lockBuildWaiting } from '../../../files/folder-lock.ts';
import type { EndgameValues } from '../../endgame/build.ts';
import { solvingAgentEndgame } from '../../endgame/cache/shared-tables.ts';
import type { OpeningBook } from '../book.ts';
import {
  bookPath,
  bookSettings,
  FIRST_USE_BOOK_PLIES,
  type FindBookOptions,
  findBook,
  readBook,
  readShippedBook,
  shippedBookFor,
} from './book-cache.ts';
import { firstUseAnnouncement } from './book-cost.ts';
import { type BookChunkRunner, buildBook } from './build-book.ts';
import { localBookRunner } from './local-runner.ts';

export interface LoadBookOptions extends FindBookOptions {
  /** Plies of the book built when there is none (default FIRST_USE_BOOK_PLIES). */
  readonly plies?: number;
  /** No progress bar or notes on stderr. */
  readonly quiet?: boolean;
  /** Hears each note (a file refused and why, a wait for another build) as well. */
  readonly onNote?: (message: string) => void;
  /** Positions a build re-solves from scratch to check the book (default checkBook's). */
  readonly checkSamples?: number;
}

/**
 * How a first-use build solves its leaves: in this thread unless a caller
 * that may start worker threads (the CLI) says otherwise.
 */
let firstUseRunner: (endgame: EndgameValues | null) => BookChunkRunner = (endgame) =>
  localBookRunner(() => endgame);

/**
 * Makes first-use builds solve their leaves with the runner `make` gives (the
 * CLI: worker threads); returns the maker it replaces.
 */
export function setFirstUseBookRunner(
  make: (endgame: EndgameValues | null) => BookChunkRunner,
): (endgame: EndgameValues | null) => BookChunkRunner {
  const before = firstUseRunner;
  firstUseRunner = make;
  return before;
}

const books = new Map<string, Promise<OpeningBook>>();
const found = new Map<string, OpeningBook | null>();

/**
 * The deepest sound book under `rules` there is (findBook: the package's,
 * the cache's), or null, without building one and without a word: for
 * answers that are as good without a book (solve, review), read once per
 * thread.
 */
export function bookIfAny(rules: Rules): OpeningBook | null {
  const key = rulesKey(rules);
  if (!found.has(key)) found.set(key, findBook(rules));
  return found.get(key) ?? null;
}

/**
 * The opening book under `rules` for the perfect player and the exact
 * values: the deepest sound one there is (findBook: the package's, pinned,
 * for rules it ships one for; the cache's), else one of `plies` plies built
 * into the cache now, announced first (what, and about how much CPU it
 * takes), with a progress bar (off a terminal, a line when it ends), the
 * others waiting for it; a damaged or other code's file at its place is
 * refused with a line naming why and built again. A shipped book that was
 * changed is refused, not built again. Read once per thread and rules.
 */
export function loadBook(rules: Rules, options: LoadBookOptions = {}): Promise<OpeningBook> {
  const dir = options.dir ?? cacheDir();
  const key = `${dir}|${rulesKey(rules)}|${options.plies ?? FIRST_USE_BOOK_PLIES}`;
  let book = books.get(key);
  if (book === undefined) {
    book = openOrBuild(rules, dir, options);
    books.set(key, book);
    // A build that fails is tried again by the next caller.
    book.catch(() => books.delete(key));
  }
  return book;
}

async function openOrBuild(
  rules: Rules,
  dir: string,
  options: LoadBookOptions,
): Promise<OpeningBook> {
  const quiet = options.quiet ?? false;
  const note = (message: string): void => {
    if (!quiet) process.stderr.write(`ayoayo: ${message}\n`);
    options.onNote?.(message);
  };
  const settings = bookSettings(rules, options.plies ?? FIRST_USE_BOOK_PLIES);
  const path = bookPath(dir, settings);
  const found = findBook(rules, {
    ...options,
    dir,
    onRefused: (file, why) =>
      note(`${file}: ${why}: ${file === path ? 'building it again' : 'not used'}`),
  });
  if (found !== null) return found;
  const shipped = shippedBookFor(rules, options.shipped);
  // Refused above; its error says how to restore it.
  if (shipped !== undefined) return readShippedBook(shipped);
  const lock = lockBuildWaiting(path, 'opening book', note);
  try {
    // Another thread or process may have built it meanwhile.
    if (existsSync(path)) {
      try {
        return readBook(path, settings);
      } catch {
        // Refused above with its reason; built again below.
      }
    }
    const endgame = solvingAgentEndgame(rules);
    const runner = firstUseRunner(endgame);
    note(firstUseAnnouncement(settings, runner.threads));
    const announce = !quiet && process.stderr.isTTY !== true;
    const bar = gamesProgressBar({
      quiet,
      label: `opening book, ${settings.plies} plies`,
      unit: 'positions',
    });
    try {
      const built = await buildBook(settings, {
        path,
        runner,
        endgame,
        ...(options.checkSamples !== undefined ? { checkSamples: options.checkSamples } : {}),
        onProgress: (done, total) => bar.update(done, total),
        onNote: note,
      });
      if (announce) {
        process.stderr.write(
          `ayoayo: built the opening book of ${settings.plies} plies (${built.book.size} positions) in ${built.seconds.toFixed(1)} s\n`,
        );
      }
      return built.book;
    } finally {
      bar.stop();
    }
  } finally {
    lock?.release();
  }
}
