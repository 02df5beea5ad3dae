import type { Rules } from '../env/rules.ts';
import {
  DEFAULT_ENDGAME_SEEDS,
  type EndgameCacheOptions,
  loadEndgame,
} from '../eval/endgame-cache.ts';
import type { EndgameValues } from '../solve/index.ts';

const tables = new Map<string, EndgameValues>();

/**
 * The endgame table of every board of up to `seeds` seeds under `rules`,
 * read from the user's cache (built there on first use, about a minute for
 * 16 seeds) once per thread: the solver-backed searches and self-play's
 * rescoring solver of a thread share it. `options` apply when it is loaded.
 */
export function cachedEndgame(
  seeds: number,
  rules: Rules,
  options: EndgameCacheOptions = {},
): EndgameValues {
  const key = `${seeds}|${rules.captureSeedStays}|${rules.leftoverTo}`;
  let table = tables.get(key);
  if (table === undefined) {
    table = loadEndgame(seeds, rules, options);
    tables.set(key, table);
  }
  return table;
}

/** The endgame table for a solver-backed search (`solve=1`) under `rules`: the one `ayoayo solve` uses. */
export function solvingAgentEndgame(rules: Rules): EndgameValues {
  return cachedEndgame(DEFAULT_ENDGAME_SEEDS, rules);
}
