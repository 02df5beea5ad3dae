import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type Rules, rulesKey, sameRules } from '../../../env/index.ts';
import { writeFileAtomic } from '../../../files/atomic-write.ts';
import { cacheDir } from '../../../files/cache-dir.ts';
import { lockBuildWaiting } from '../../../files/folder-lock.ts';
import { buildEndgame, type EndgameValues, endgameOffsets } from '../build.ts';
import { checkEndgame } from '../check.ts';
import { decodeEndgame, encodeEndgame } from '../file.ts';

/**
 * The endgame table the solver's users look boards of up to this many seeds
 * up in (`ayoayo solve`, the accuracy generator, the solver-backed searches),
 * so that one cached file serves them all: built once in about a minute, then
 * read; with it most positions of real games are proven in a few thousand
 * nodes, without it in millions.
 */
export const DEFAULT_ENDGAME_SEEDS = 16;
/**
 * The largest table they build: 20 seeds, 452 MB, about ten minutes of one
 * core and 4.7 GB of memory to build (docs/solver.md, "Larger tables").
 */
export const MAX_ENDGAME_SEEDS = 20;

export interface EndgameCacheOptions {
  /** The folder of the cached tables (default: the user's cache folder, see cacheDir). */
  readonly dir?: string;
  /** Hears how far a build got (boards done of all), when the table has to be built. */
  readonly onProgress?: (boardsDone: number, boardsTotal: number) => void;
  /** Hears why the table is built rather than read (a damaged file, a folder it cannot write). */
  readonly onNote?: (message: string) => void;
}

/** Where the table of `maxSeeds` seeds under `rules` is cached in `dir`. */
export function endgamePath(dir: string, maxSeeds: number, rules: Rules): string {
  return join(dir, `endgame-${maxSeeds}-${rulesKey(rules)}.bin`);
}

/** What the file at `path` is now (its identity, size and time), to tell a new one; null: none. */
function seenAt(path: string): string | null {
  try {
    const stat = statSync(path);
    return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}`;
  } catch {
    return null;
  }
}

/** The header's most bytes (its JSON line is about 150). */
const MAX_HEADER_BYTES = 4096;

/**
 * The table cached at `path` when it is there and sound: the right seeds and
 * rules, its checksum, and checkEndgame's checks of what it holds (about
 * 0.2 s for 16 seeds); else null, with a note saying why.
 */
function readCached(
  path: string,
  maxSeeds: number,
  rules: Rules,
  note: (message: string) => void,
): EndgameValues | null {
  if (!existsSync(path)) return null;
  try {
    const expected = 2 * (endgameOffsets(maxSeeds)[maxSeeds + 1] as number);
    const size = statSync(path).size;
    if (size > expected + MAX_HEADER_BYTES) {
      note(`${path} is ${size} bytes, more than a table of ${maxSeeds} seeds: building it again`);
      return null;
    }
    const values = decodeEndgame(readFileSync(path));
    if (values.maxSeeds !== maxSeeds || !sameRules(values.rules, rules)) {
      note(`${path} holds another table: building it again`);
      return null;
    }
    checkEndgame(values);
    return values;
  } catch (err) {
    note(`${path}: ${(err as Error).message}: building it again`);
    return null;
  }
}

/** Whether `path` is a folder (where a file cannot be written). */
function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The endgame table of every board of up to `maxSeeds` seeds (solve's
 * buildEndgame) under `rules`: read from the cache folder when it is there
 * and sound (readCached), else built and written there atomically, so that
 * only the first use pays for the build (about a minute for 16 seeds). A
 * damaged, wrong or other code's file is built again; threads and processes
 * that need the table at once build it once (the others wait, then read
 * it); a folder it cannot write, or a folder at the table's path, only costs
 * the saving.
 */
export function loadEndgame(
  maxSeeds: number,
  rules: Rules,
  options: EndgameCacheOptions = {},
): EndgameValues {
  const dir = options.dir ?? cacheDir();
  const path = endgamePath(dir, maxSeeds, rules);
  const note = (message: string): void => options.onNote?.(message);
  if (isFolder(path)) {
    note(`${path} is a folder, not an endgame table: building the table without saving it`);
    return buildEndgame(maxSeeds, rules, options.onProgress);
  }
  const seen = seenAt(path);
  const cached = readCached(path, maxSeeds, rules, note);
  if (cached !== null) return cached;
  const lock = lockBuildWaiting(path, 'endgame table', note);
  try {
    // Another thread or process may have built it meanwhile.
    if (seenAt(path) !== seen) {
      const built = readCached(path, maxSeeds, rules, note);
      if (built !== null) return built;
    }
    const values = buildEndgame(maxSeeds, rules, options.onProgress);
    try {
      mkdirSync(dir, { recursive: true });
      writeFileAtomic(path, encodeEndgame(values));
    } catch (err) {
      note(`could not save the endgame table to ${path}: ${(err as Error).message}`);
    }
    return values;
  } finally {
    lock?.release();
  }
}
