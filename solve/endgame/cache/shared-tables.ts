import { type Rules, rulesKey } from '../../../env/rules.ts';
import type { EndgameValues } from '../build.ts';
import { loadEndgameShowingProgress } from './progress.ts';
import { DEFAULT_ENDGAME_SEEDS, type EndgameCacheOptions, loadEndgame } from './table-cache.ts';

const tables = new Map<string, EndgameValues>();

function keyOf(seeds: number, rules: Rules): string {
  return `${seeds}|${rulesKey(rules)}`;
}

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
  const key = keyOf(seeds, rules);
  let table = tables.get(key);
  if (table === undefined) {
    table = loadEndgame(seeds, rules, options);
    tables.set(key, table);
  }
  return table;
}

/**
 * The endgame table for a solver-backed search (`solve=1`) under `rules`: the
 * one `ayoayo solve` uses, with its progress bar (or, off a terminal, a line
 * when the build starts and one when it ends) where it has to be built.
 */
export function solvingAgentEndgame(rules: Rules): EndgameValues {
  return loadEndgameShowingProgress(DEFAULT_ENDGAME_SEEDS, rules, {
    announceBuild: true,
    load: cachedEndgame,
  });
}

/**
 * Makes sure the solver-backed searches' table under `rules` is in the cache
 * and sound, building it there as solvingAgentEndgame would when it is not:
 * the kinds' checks call it in the thread that checks the specs, before a
 * tournament's or benchmark's threads start, so that the table is built once
 * and the threads read it. It keeps no table in this thread, which often
 * makes no agent itself: an agent made here reads the table again (a
 * fraction of a second).
 */
export function cacheSolvingAgentEndgame(rules: Rules): void {
  if (tables.has(keyOf(DEFAULT_ENDGAME_SEEDS, rules))) return;
  loadEndgameShowingProgress(DEFAULT_ENDGAME_SEEDS, rules, { announceBuild: true });
}

/**
 * The solver-backed agents' endgame tables, from the user's cache: the
 * command line's registry of agent kinds gives them to every solvable kind
 * (agents/agent-kinds.ts's SolverEndgame).
 */
export const SOLVER_ENDGAME = {
  load: solvingAgentEndgame,
  prepare: cacheSolvingAgentEndgame,
};
