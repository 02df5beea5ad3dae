import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_RULES, Random } from '../../env/index.ts';
import { writeFileAtomic } from '../../files/atomic-write.ts';
import { lockBuildWaiting } from '../../files/folder-lock.ts';
import { assembleBook } from '../../solve/book/assemble.ts';
import { OpeningBook } from '../../solve/book/book.ts';
import type { BookChunkRunner } from '../../solve/book/cache/build-book.ts';
import {
  type BookSettings,
  DEPTH_AT,
  decodeBookFile,
  encodeBookFile,
  KEY_BYTES,
  RECORD_BYTES,
  VALUE_AT,
} from '../../solve/book/format.ts';
import { LeafSolver } from '../../solve/book/leaves.ts';
import { bookLevels, stateKey } from '../../solve/book/plan.ts';
import { loadEndgame } from '../../solve/endgame/cache/table-cache.ts';
import type { EndgameValues } from '../../solve/index.ts';
import { TEMP_FOLDER_ENV } from '../setup/temp-folder.ts';

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
/**
 * The book of `plies` plies (1: about 4 s, 2: about 15 s), built once a test
 * run: the first file that needs it builds it in its thread and leaves it in
 * the run's temporary folder (test/setup/temp-folder.ts) for the others, which
 * wait for it rather than build it too. A file run outside the suite's setup
 * builds its own.
 */
export function smallBook(plies: number): OpeningBook {
  let book = books.get(plies);
  if (book === undefined) {
    const settings = smallSettings(plies);
    const shared = process.env[TEMP_FOLDER_ENV];
    book =
      shared === undefined
        ? buildSmallBook(settings)
        : sharedSmallBook(settings, join(shared, `small-book-${plies}.bin`));
    books.set(plies, book);
  }
  return book;
}

function buildSmallBook(settings: BookSettings): OpeningBook {
  const levels = bookLevels(settings.rules, settings.plies);
  const leaves = new LeafSolver(settings, bookEndgame()).solveAll(
    levels[settings.plies] as Uint8Array,
  );
  return new OpeningBook(settings, assembleBook(settings, levels, leaves));
}

function sharedSmallBook(settings: BookSettings, path: string): OpeningBook {
  const read = (): OpeningBook | null =>
    existsSync(path) ? new OpeningBook(settings, decodeBookFile(readFileSync(path)).records) : null;
  const found = read();
  if (found !== null) return found;
  const lock = lockBuildWaiting(path, 'test book', () => {});
  try {
    const builtMeanwhile = read();
    if (builtMeanwhile !== null) return builtMeanwhile;
    const book = buildSmallBook(settings);
    writeFileAtomic(path, encodeBookFile('book', settings, book.records));
    return book;
  } finally {
    lock?.release();
  }
}

/**
 * The positions (stateKeys) the book check used to re-solve: always seed 1,
 * 8 positions of the whole book. A forger who knows it forges every leaf
 * outside it.
 */
export function seedOneSample(book: OpeningBook): Set<string> {
  const rng = Random.fromSeed(1);
  const picked = new Set<number>();
  while (picked.size < Math.min(8, book.size)) picked.add(rng.int(book.size));
  return new Set([...picked].map((i) => stateKey(book.stateAt(i))));
}

/** The records (RECORD_BYTES each) `book` holds for the positions of `keys` (KEY_BYTES each), in their order. */
export function recordsOf(book: OpeningBook, keys: Uint8Array): Uint8Array {
  const records = new Uint8Array((keys.length / KEY_BYTES) * RECORD_BYTES);
  for (let i = 0; i * KEY_BYTES < keys.length; i++) {
    const at = book.indexOf(keys.subarray(i * KEY_BYTES, (i + 1) * KEY_BYTES)) * RECORD_BYTES;
    if (at < 0) throw new Error(`position ${i} of the keys is not in the book`);
    records.set(book.records.subarray(at, at + RECORD_BYTES), i * RECORD_BYTES);
  }
  return records;
}

/**
 * A runner that answers every chunk from `book` (its records for the chunk's
 * leaves) instead of solving: for tests of what a build does with answers,
 * where solving the leaves again would cost seconds and show no more.
 */
export function answeringRunner(book: OpeningBook): BookChunkRunner {
  return {
    foreign: false,
    threads: 1,
    solve: async (chunks, onChunk, onLeaf) => {
      chunks.forEach((chunk, i) => {
        for (let at = 0; at < chunk.keys.length; at += KEY_BYTES) onLeaf();
        onChunk(i, recordsOf(book, chunk.keys));
      });
    },
  };
}

/**
 * Leaves' records (RECORD_BYTES each) forged, but for those in `spare`: two
 * moves of different values swapped where the leaf has them, else a move's
 * proof depth one more, so that every forged record differs from the true one.
 * Returns the copy and how many it forged.
 */
export function forgeLeaves(
  records: Uint8Array,
  spare: ReadonlySet<string>,
): { records: Uint8Array; forged: number } {
  const out = records.slice();
  let forged = 0;
  for (let at = 0; at < out.length; at += RECORD_BYTES) {
    if (spare.has(stateKey(out.subarray(at, at + KEY_BYTES)))) continue;
    const legal = [0, 1, 2, 3, 4, 5].filter((a) => out[at + VALUE_AT + a] !== 0);
    const first = legal[0] as number;
    const other = legal.find((a) => out[at + VALUE_AT + a] !== out[at + VALUE_AT + first]);
    if (other !== undefined) {
      const code = out[at + VALUE_AT + first] as number;
      out[at + VALUE_AT + first] = out[at + VALUE_AT + other] as number;
      out[at + VALUE_AT + other] = code;
    } else {
      out[at + DEPTH_AT + first] = (out[at + DEPTH_AT + first] as number) + 1;
    }
    forged++;
  }
  return { records: out, forged };
}
