import { DEFAULT_RULES } from '../../env/index.ts';
import type { SearchSelfPlayOptions } from '../../train/expert-iteration/search-self-play.ts';

/**
 * Search self-play options for tests: 8 games, 6 simulations, every move
 * searched in full, completed-Q targets, outcome values, no solver; the
 * overrides change any of them.
 */
export function selfPlayOptions(
  overrides: Partial<SearchSelfPlayOptions> = {},
): SearchSelfPlayOptions {
  return {
    games: 8,
    rules: DEFAULT_RULES,
    observation: { encoding: 'counts', lookahead: true },
    maxPlies: 200,
    simulations: 6,
    fullSearchShare: 1,
    cheapSimulations: 2,
    policyTarget: 'completed-q',
    searchValueWeight: 0,
    solverNodes: 0,
    solverPlaysProven: false,
    ...overrides,
  };
}
