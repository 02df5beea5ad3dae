import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Rules } from '../env/index.ts';
import { buildEndgame, decodeEndgame, type EndgameValues, encodeEndgame } from '../solve/index.ts';
import { writeFileAtomic } from './atomic-write.ts';
import { cacheDir } from './cache-dir.ts';

/**
 * The endgame table the solver's users look boards of up to this many seeds
 * up in (`ayoayo solve`, the accuracy generator, the solver-backed searches),
 * so that one cached file serves them all: built once in about a minute, then
 * read; with it most positions of real games are proven in a few thousand
 * nodes, without it in millions.
 */
export const DEFAULT_ENDGAME_SEEDS = 16;
/** The largest table they build: 18 seeds take several minutes and ~0.5 GB; more, too long here. */
export const MAX_ENDGAME_SEEDS = 18;

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
  const capture = rules.captureSeedStays ? 'seed-stays' : 'seed-captured';
  return join(dir, `endgame-${maxSeeds}-${capture}-leftover-${rules.leftoverTo}.bin`);
}

/**
 * The endgame table of every board of up to `maxSeeds` seeds (solve's
 * buildEndgame) under `rules`: read from the cache folder when it is there
 * and sound, else built and written there atomically, so that only the first
 * use pays for the build (about a minute for 16 seeds). A damaged file is
 * built again, and a folder it cannot write only costs the saving.
 */
export function loadEndgame(
  maxSeeds: number,
  rules: Rules,
  options: EndgameCacheOptions = {},
): EndgameValues {
  const dir = options.dir ?? cacheDir();
  const path = endgamePath(dir, maxSeeds, rules);
  if (existsSync(path)) {
    try {
      const values = decodeEndgame(readFileSync(path));
      if (
        values.maxSeeds === maxSeeds &&
        values.captureSeedStays === rules.captureSeedStays &&
        values.leftoverToOwner === (rules.leftoverTo === 'owner')
      ) {
        return values;
      }
      options.onNote?.(`${path} holds another table: building it again`);
    } catch (err) {
      options.onNote?.(`${path}: ${(err as Error).message}: building it again`);
    }
  }
  const values = buildEndgame(maxSeeds, rules, options.onProgress);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileAtomic(path, encodeEndgame(values));
  } catch (err) {
    options.onNote?.(`could not save the endgame table to ${path}: ${(err as Error).message}`);
  }
  return values;
}
