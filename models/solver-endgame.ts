import type { Rules } from '../env/rules.ts';
import { DEFAULT_ENDGAME_SEEDS, loadEndgame } from '../eval/endgame-cache.ts';
import type { EndgameValues } from '../solve/index.ts';

const tables = new Map<string, EndgameValues>();

/**
 * The endgame table for a solver-backed search (`solve=1`) under `rules`, the
 * one `ayoayo solve` uses: read from the
 * user's cache (built there on first use, about a minute), once per thread.
 */
export function solvingAgentEndgame(rules: Rules): EndgameValues {
  const key = `${rules.captureSeedStays}|${rules.leftoverTo}`;
  let table = tables.get(key);
  if (table === undefined) {
    table = loadEndgame(DEFAULT_ENDGAME_SEEDS, rules);
    tables.set(key, table);
  }
  return table;
}
