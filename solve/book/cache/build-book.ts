import { randomBytes, randomInt } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../../../files/atomic-write.ts';
import type { EndgameValues } from '../../endgame/build.ts';
import { assembleBook } from '../assemble.ts';
import { OpeningBook } from '../book.ts';
import { type BookCheckReport, checkBook, DEFAULT_BOOK_CHECK_SAMPLES } from '../check.ts';
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

/** One build as its runner sees it. */
export interface BookRun {
  /**
   * Drawn afresh for each build and kept in its resume file across its
   * restarts: a queue runner names its jobs by it, so that a later build
   * never takes an earlier one's answers.
   */
  readonly nonce: string;
  /** Stops the run early (it resolves; the build saves what it has). */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Solves chunks of leaves somewhere (this thread, worker threads, queue
 * workers): `solve` gives `onChunk` each chunk's records (RECORD_BYTES each,
 * in the chunk's order) as it is done, `onLeaf` hears of each leaf solved; it
 * resolves once every chunk is done, and early when the run's signal aborts.
 */
export interface BookChunkRunner {
  /**
   * Whether its answers come from other processes (queue workers), which a
   * build cannot trust: it checks them by re-solving a sample they cannot
   * foresee before the book is written.
   */
  readonly foreign: boolean;
  /** Leaves it solves at once on this machine, for estimates (undefined: elsewhere). */
  readonly threads?: number;
  readonly solve: (
    chunks: readonly BookChunk[],
    onChunk: (index: number, records: Uint8Array) => void,
    onLeaf: () => void,
    run: BookRun,
  ) => Promise<void>;
  /**
   * Forgets the answers it keeps of the run (a check rejected them: no later
   * build may take them); says what it dropped, for the build's note.
   */
  readonly drop?: (run: BookRun) => Promise<string | null>;
}

/**
 * The share of the leaves from other processes (queue workers, a resume
 * file) a build re-solves here before it writes the book, at least its
 * check's sample (docs/reliability.md, "The opening book's trust model").
 */
export const FOREIGN_CHECK_SHARE = 0.01;

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
  /**
   * Leaves re-solved from scratch by the final check (checkBook's sample;
   * of leaves from other processes, at least FOREIGN_CHECK_SHARE of them).
   */
  readonly checkSamples?: number;
  /** Seed of the final check's sample (default: drawn from crypto randomness once the answers are in). */
  readonly checkSeed?: number;
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
  /** Leaves from other processes (the resume file, queue workers): the check's sample is drawn among them. */
  readonly foreign: number;
  readonly check: BookCheckReport;
  /** The seed of the check's sample. */
  readonly seed: number;
  readonly seconds: number;
}

/** A fresh seed for a check's sample, from crypto randomness (printed, so that the check can be repeated). */
export function freshCheckSeed(): number {
  return randomInt(1_000_000_000);
}

/** Refuses a book path that is a folder, before anything is solved. */
export function refuseFolderPath(path: string): void {
  let folder = false;
  try {
    folder = statSync(path).isDirectory();
  } catch {
    return;
  }
  if (folder) throw new BookFileError(`${path} is a folder, not a book file: name a file to write`);
}

/** The resume file of the book at `path`. */
export function resumeFileOf(path: string): string {
  return `${path}.leaves`;
}

/**
 * The leaves a resume file holds that are leaves of this build (a map by
 * state), and its build's nonce; no leaves, with a note, when it is of other
 * settings or damaged.
 */
function readResume(
  file: string,
  settings: BookSettings,
  leafKeys: ReadonlySet<string>,
  note: (message: string) => void,
): { solved: Map<string, Uint8Array>; nonce: string | undefined } {
  const solved = new Map<string, Uint8Array>();
  if (!existsSync(file)) return { solved, nonce: undefined };
  let nonce: string | undefined;
  try {
    const { header, records } = decodeBookFile(readFileSync(file));
    if (header.kind !== 'leaves' || !sameBookSettings(header, settings)) {
      note(`${file} holds leaves of another build: starting afresh`);
      return { solved, nonce: undefined };
    }
    nonce = header.nonce;
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
    nonce = undefined;
  }
  return { solved, nonce };
}

/**
 * Builds the book of `settings` into `options.path`: plans it, solves the
 * leaves not yet in its resume file in chunks on the runner (the resume file
 * rewritten atomically as chunks come in, so that a build stopped any way
 * goes on from there), derives the earlier plies from the leaves, checks the
 * whole (checkBook, with a sample re-solved here drawn once the answers are
 * in: among the leaves from other processes where there are any), writes it
 * atomically and removes the resume file. A check that fails drops what the
 * book was made of (the resume file, the runner's kept answers), with a note
 * saying so, so that the same command solves them again.
 */
export async function buildBook(
  settings: BookSettings,
  options: BuildBookOptions,
): Promise<BuiltBook> {
  const started = performance.now();
  const note = options.onNote ?? (() => {});
  refuseFolderPath(options.path);
  const levels = bookLevels(settings.rules, settings.plies);
  const leafKeys = levels[settings.plies] as Uint8Array;
  const total = leafKeys.length / KEY_BYTES;
  const leafSet = keySet(leafKeys);
  mkdirSync(dirname(options.path), { recursive: true });
  const resumeFile = resumeFileOf(options.path);
  const resume = readResume(resumeFile, settings, leafSet, note);
  const { solved } = resume;
  const resumed = solved.size;
  if (resumed > 0) note(`going on from ${resumeFile}: ${resumed} of ${total} leaves solved before`);
  // What another process wrote (an earlier build, or anyone) is checked as the queue's answers are.
  const foreign = new Set(solved.keys());
  const run = { nonce: resume.nonce ?? randomBytes(12).toString('hex'), signal: options.signal };
  const save = (): void => {
    writeFileAtomic(
      resumeFile,
      encodeBookFile('leaves', settings, sortedRecords(solved.values()), run.nonce),
    );
  };
  // Written before any job is sent, so that a restarted build names its jobs alike.
  if (resume.nonce === undefined) save();
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
    await options.runner.solve(
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
          const key = stateKey(record);
          solved.set(key, record);
          if (options.runner.foreign) foreign.add(key);
        }
        unsaved = true;
        if (performance.now() - savedAt >= SAVE_EVERY_MS) {
          save();
          savedAt = performance.now();
          unsaved = false;
        }
      },
      () => options.onProgress?.(++done, total),
      run,
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
  // Drawn now, once every answer is in: no worker could have known which leaves are re-solved.
  const seed = options.checkSeed ?? freshCheckSeed();
  const samples = options.checkSamples ?? DEFAULT_BOOK_CHECK_SAMPLES;
  let check: BookCheckReport;
  try {
    check = checkBook(book, {
      endgame: options.endgame,
      seed,
      ...(foreign.size > 0
        ? {
            samples: Math.max(samples, Math.ceil(foreign.size * FOREIGN_CHECK_SHARE)),
            among: foreign,
          }
        : { samples }),
    });
  } catch (err) {
    if (!(err instanceof BookFileError)) throw err;
    rmSync(resumeFile, { force: true });
    const dropped = (await options.runner.drop?.(run)) ?? null;
    note(
      `the book was not written: dropped ${resumeFile} (its ${solved.size} leaves)${dropped !== null ? ` and ${dropped}` : ''}; the same command solves them again`,
    );
    throw new BookFileError(`${err.message} (sample seed ${seed})`);
  }
  writeFileAtomic(options.path, encodeBookFile('book', settings, records));
  rmSync(resumeFile, { force: true });
  return {
    book,
    leaves: total,
    resumed,
    foreign: foreign.size,
    check,
    seed,
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
