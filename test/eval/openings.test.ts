import { describe, expect, it } from 'vitest';
import { MinimaxSearch } from '../../agents/minimax-search.ts';
import { OpeningSampler } from '../../env/gym/opening.ts';
import {
  applyAction,
  core,
  DEFAULT_RULES,
  formatPosition,
  initialPosition,
  legalActions,
  Random,
  resolveRules,
} from '../../env/index.ts';
import { isBalancedState, MAX_OPENING_IMBALANCE, openingFor } from '../../eval/openings.ts';

describe('openingFor', () => {
  it('replays its random moves from the start to its position', () => {
    for (let index = 0; index < 30; index++) {
      const opening = openingFor(5, index, 4, DEFAULT_RULES);
      expect(opening.moves).toHaveLength(4);
      let pos = initialPosition();
      for (const a of opening.moves) pos = applyAction(pos, a, DEFAULT_RULES);
      expect(formatPosition(pos)).toBe(formatPosition(opening.position));
      expect(legalActions(opening.position, DEFAULT_RULES).length).toBeGreaterThan(0);
    }
  });

  it('is a function of the seed and index, diverse across indexes and seeds', () => {
    const a = Array.from({ length: 40 }, (_, i) =>
      openingFor(1, i, 4, DEFAULT_RULES).moves.join(''),
    );
    const b = Array.from({ length: 40 }, (_, i) =>
      openingFor(1, i, 4, DEFAULT_RULES).moves.join(''),
    );
    const c = Array.from({ length: 40 }, (_, i) =>
      openingFor(2, i, 4, DEFAULT_RULES).moves.join(''),
    );
    expect(a).toEqual(b);
    expect(new Set(a).size).toBeGreaterThan(25);
    expect(c).not.toEqual(a);
  });

  it('only gives balanced openings', () => {
    const search = new MinimaxSearch({ rules: DEFAULT_RULES, ttBits: 0 });
    for (let index = 0; index < 50; index++) {
      const { position } = openingFor(3, index, 6, DEFAULT_RULES);
      const { value } = search.search(position.toState(), { depth: 4 });
      expect(Math.abs(value)).toBeLessThanOrEqual(MAX_OPENING_IMBALANCE);
    }
  });

  it('with 0 plies is the start, and follows the rule options', () => {
    expect(formatPosition(openingFor(1, 0, 0, DEFAULT_RULES).position)).toBe(
      formatPosition(initialPosition()),
    );
    const stays = resolveRules({ captureSeedStays: true });
    for (let index = 0; index < 20; index++) {
      const opening = openingFor(1, index, 4, stays);
      let pos = initialPosition();
      for (const a of opening.moves) pos = applyAction(pos, a, stays);
      expect(formatPosition(pos)).toBe(formatPosition(opening.position));
    }
    expect(() => openingFor(1, 0, -1, DEFAULT_RULES)).toThrow(/opening plies/);
  });

  it('rates a position as the depth-4 search does, asked again or under other rules', () => {
    const rulesSets = [DEFAULT_RULES, resolveRules({ captureSeedStays: true })];
    const searches = rulesSets.map((rules) => new MinimaxSearch({ rules, ttBits: 0 }));
    const sampler = new OpeningSampler(DEFAULT_RULES);
    const start = core.setInitial(new Uint8Array(core.STATE_SIZE));
    const rng = Random.fromSeed('balance memo');
    let differ = 0;
    for (let i = 0; i < 300; i++) {
      const state = new Uint8Array(core.STATE_SIZE);
      sampler.draw(state, start, rng.int(9), rng);
      const expected = searches.map(
        (search) => Math.abs(search.search(state, { depth: 4 }).value) <= MAX_OPENING_IMBALANCE,
      );
      if (expected[0] !== expected[1]) differ++;
      for (let ask = 0; ask < 2; ask++) {
        expect(rulesSets.map((rules) => isBalancedState(state, rules))).toEqual(expected);
      }
    }
    // Positions the two rule sets rate otherwise: a memo blind to the rules would fail above.
    expect(differ).toBeGreaterThan(0);
  });
});
