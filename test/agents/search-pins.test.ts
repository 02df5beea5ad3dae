import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  agentGame,
  batchedSearches,
  gumbelSearches,
  noisySearches,
  otherRulesSearches,
  plainSearches,
  reusedSearches,
  steppedSearches,
} from './search-pins.ts';

// Results of seeded searches as the PUCT search gave them before it was split
// into its parts (agents/puct/search.ts as one class): a refactoring of the search
// must leave each of them exactly as it was. A change that means to alter the
// search's behaviour regenerates this file and says why.
const expected = JSON.parse(
  readFileSync(new URL('./search-pins.json', import.meta.url), 'utf8'),
) as Record<string, unknown>;

describe('seeded searches give the results pinned before the split', () => {
  it.each([
    ['plain', plainSearches],
    ['otherRules', otherRulesSearches],
    ['noisy', noisySearches],
    ['batched', batchedSearches],
    ['reused', reusedSearches],
    ['gumbel', gumbelSearches],
    ['stepped', steppedSearches],
    ['agentGame', agentGame],
  ] as const)('%s', (name, run) => {
    expect(run()).toEqual(expected[name]);
  });
});
