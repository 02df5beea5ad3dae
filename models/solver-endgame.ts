import type { Rules } from '../env/rules.ts';
import { loadEndgame } from '../eval/endgame-cache.ts';
import type { EndgameValues } from '../solve/index.ts';

/**
 * Seeds of the endgame table behind the solver-backed searches (`solve=1`):
 * 16, the table `ayoayo solve` uses, so that one cached file serves both.
 * With it the solver proves most positions of the late middle game within a
 * few milliseconds; without it, only the last few plies.
 */
export const SOLVING_AGENT_ENDGAME_SEEDS = 16;

const tables = new Map<string, EndgameValues>();

/**
 * The endgame table for a solver-backed search under `rules`: read from the
 * user's cache (built there on first use, about a minute), once per thread.
 */
export function solvingAgentEndgame(rules: Rules): EndgameValues {
  const key = `${rules.captureSeedStays}|${rules.leftoverTo}`;
  let table = tables.get(key);
  if (table === undefined) {
    table = loadEndgame(SOLVING_AGENT_ENDGAME_SEEDS, rules);
    tables.set(key, table);
  }
  return table;
}
