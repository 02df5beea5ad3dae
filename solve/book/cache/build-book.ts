import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../../../files/atomic-write.ts';
import type { EndgameValues } from '../../endgame/build.ts';
import { assembleBook } from '../assemble.ts';
import { OpeningBook } from '../book.ts';
import { type BookCheckReport, checkBook } from '../check.ts';
import {
  BookFileError,
  type BookSettings,
  compareKeys,
  decodeBookFile,
  encodeBookFile,
  KEY_BYTES,
  RECORD_BYTES,
  sameBookSettings,
  sortedRecords,
} from '../format.ts';
import { bookLevels, keySet, stateKey } from '../plan.ts';

/** Leaves a chunk of the build holds: a thread's or a queue job's unit of work. */
export const CHUNK_LEAVES = 16;
/** The resume file is written at most this often while chunks come in (and when the build stops). */
const SAVE_EVERY_MS = 5_000;

/** Some of a book's leaves to solve (LeafSolver), KEY_BYTES a key. */
export interface BookChunk {
  readonly settings: BookSettings;
  readonly keys: Uint8Array;
}

/**
 * Solves chunks of leaves somewhere (this thread, worker threads, queue
 * workers): `onChunk` gets each chunk's records (RECORD_BYTES each, in the
 * chunk's order) as it is done, `onLeaf` hears of each leaf solved; it
 * resolves once every chunk is done, and stops early (resolving) when
 * `signal` aborts.
 */
export type BookChunkRunner = (
  chunks: readonly BookChunk[],
  onChunk: (index: number, records: Uint8Array) => void,
  onLeaf: () => void,
  signal?: AbortSignal,
) => Promise<void>;

/** The build stopped on its signal; the leaves solved are in the resume file. */
export class BookBuildStopped extends Error {
  override name = 'BookBuildStopped';
  /** The command ends as a Ctrl-C does. */
  readonly exitCode = 130;
  constructor(
    readonly solved: number,
    readonly leaves: number,
    readonly resumeFile: string,
  ) {
    super(
      `stopped: ${solved} of ${leaves} leaves are saved in ${resumeFile}; run the same command to go on`,
    );
  }
}

export interface BuildBookOptions {
  /** Where the book goes; its resume file (the leaves solved so far) is `${path}.leaves`. */
  readonly path: string;
  readonly runner: BookChunkRunner;
  /** Hears how far the build got: leaves solved (resumed ones included) of all. */
  readonly onProgress?: (done: number, total: number) => void;
  /** Hears why a resume file is not used, and how many leaves it gave. */
  readonly onNote?: (message: string) => void;
  /** Positions re-solved from scratch by the final check (checkBook's sample). */
  readonly checkSamples?: number;
  /** The endgame table the leaves were solved with, for the final check (null: none). */
  readonly endgame: EndgameValues | null;
  /** Stops the build: the leaves solved are saved, and BookBuildStopped thrown. */
  readonly signal?: AbortSignal;
  /** Leaves per chunk (default CHUNK_LEAVES): the book is the same whatever the split. */
  readonly chunkLeaves?: number;
}

export interface BuiltBook {
  readonly book: OpeningBook;
  /** Leaves of the book, and how many of them came from the resume file. */
  readonly leaves: number;
  readonly resumed: number;
  readonly check: BookCheckReport;
  readonly seconds: number;
}

/** The resume file of the book at `path`. */
export function resumeFileOf(path: string): string {
  return `${path}.leaves`;
}

/**
 * The leaves a resume file holds that are leaves of this build (a map by
 * state); empty, with a note, when it is of other settings or damaged.
 */
function readResume(
  file: string,
  settings: BookSettings,
  leafKeys: ReadonlySet<string>,
  note: (message: string) => void,
): Map<string, Uint8Array> {
  const solved = new Map<string, Uint8Array>();
  if (!existsSync(file)) return solved;
  try {
    const { header, records } = decodeBookFile(readFileSync(file));
    if (header.kind !== 'leaves' || !sameBookSettings(header, settings)) {
      note(`${file} holds leaves of another build: starting afresh`);
      return solved;
    }
    for (let at = 0; at < records.length; at += RECORD_BYTES) {
      const record = records.subarray(at, at + RECORD_BYTES);
      const key = stateKey(record);
      if (!leafKeys.has(key))
        throw new BookFileError('it holds a position that is no leaf of the book');
      solved.set(key, record);
    }
  } catch (err) {
    note(`${file}: ${(err as Error).message}: starting afresh`);
    solved.clear();
  }
  return solved;
}

/**
 * Builds the book of `settings` into `options.path`: plans it, solves the
 * leaves not yet in its resume file in chunks on the runner (the resume file
 * rewritten atomically as chunks come in, so that a build stopped any way
 * goes on from there), derives the earlier plies from the leaves, checks the
 * whole (checkBook, with a re-solved sample), writes it atomically and
 * removes the resume file.
 */
export async function buildBook(
  settings: BookSettings,
  options: BuildBookOptions,
): Promise<BuiltBook> {
  const started = performance.now();
  const note = options.onNote ?? (() => {});
  const levels = bookLevels(settings.rules, settings.plies);
  const leafKeys = levels[settings.plies] as Uint8Array;
  const total = leafKeys.length / KEY_BYTES;
  const leafSet = keySet(leafKeys);
  mkdirSync(dirname(options.path), { recursive: true });
  const resumeFile = resumeFileOf(options.path);
  const solved = readResume(resumeFile, settings, leafSet, note);
  const resumed = solved.size;
  if (resumed > 0) note(`going on from ${resumeFile}: ${resumed} of ${total} leaves solved before`);
  const save = (): void => {
    writeFileAtomic(resumeFile, encodeBookFile('leaves', settings, sortedRecords(solved.values())));
  };
  const chunks: BookChunk[] = [];
  let pending: number[] = [];
  const flush = (): void => {
    if (pending.length === 0) return;
    const keys = new Uint8Array(pending.length * KEY_BYTES);
    pending.forEach((at, i) => {
      keys.set(leafKeys.subarray(at, at + KEY_BYTES), i * KEY_BYTES);
    });
    chunks.push({ settings, keys });
    pending = [];
  };
  for (let at = 0; at < leafKeys.length; at += KEY_BYTES) {
    if (solved.has(stateKey(leafKeys.subarray(at, at + KEY_BYTES)))) continue;
    pending.push(at);
    if (pending.length === (options.chunkLeaves ?? CHUNK_LEAVES)) flush();
  }
  flush();
  let done = resumed;
  options.onProgress?.(done, total);
  let savedAt = performance.now();
  let unsaved = false;
  try {
    await options.runner(
      chunks,
      (index, records) => {
        const chunk = chunks[index] as BookChunk;
        if (records.length !== (chunk.keys.length / KEY_BYTES) * RECORD_BYTES) {
          throw new BookFileError(
            `chunk ${index} came back with ${records.length / RECORD_BYTES} records, not ${chunk.keys.length / KEY_BYTES}`,
          );
        }
        for (let i = 0; i * KEY_BYTES < chunk.keys.length; i++) {
          if (compareKeys(chunk.keys, i * KEY_BYTES, records, i * RECORD_BYTES) !== 0) {
            throw new BookFileError(
              `chunk ${index} came back with other positions than it was given`,
            );
          }
          const record = records.slice(i * RECORD_BYTES, (i + 1) * RECORD_BYTES);
          solved.set(stateKey(record), record);
        }
        unsaved = true;
        if (performance.now() - savedAt >= SAVE_EVERY_MS) {
          save();
          savedAt = performance.now();
          unsaved = false;
        }
      },
      () => options.onProgress?.(++done, total),
      options.signal,
    );
  } finally {
    if (unsaved) save();
  }
  if (solved.size < total) {
    if (options.signal?.aborted === true)
      throw new BookBuildStopped(solved.size, total, resumeFile);
    throw new BookFileError(`the build solved ${solved.size} of ${total} leaves`);
  }
  const records = assembleBook(settings, levels, sortedRecords(solved.values()));
  const book = new OpeningBook(settings, records);
  const check = checkBook(book, {
    endgame: options.endgame,
    ...(options.checkSamples !== undefined ? { samples: options.checkSamples } : {}),
  });
  writeFileAtomic(options.path, encodeBookFile('book', settings, records));
  rmSync(resumeFile, { force: true });
  return {
    book,
    leaves: total,
    resumed,
    check,
    seconds: (performance.now() - started) / 1000,
  };
}

/** The file's size in bytes, or null when there is none. */
export function fileSize(path: string): number | null {
  try {
    return statSync(path).size;
  } catch {
    return null;
  }
}
