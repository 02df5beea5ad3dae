import { describe, expect, it } from 'vitest';
import { finalDifference, hasLegalMove } from '../../../env/gym/fast.ts';
import { core, outcome, Random, resolveRules, ruleCode } from '../../../env/index.ts';
import { randomPosition } from '../samples.ts';

describe('hasLegalMove', () => {
  it('agrees with legalMask on random positions, both capture rules', () => {
    // Few seeds on the board make positions without a legal move (empty rows,
    // feeding) common enough to be tested; many seeds make long relays.
    const rng = Random.fromSeed(31);
    let checked = 0;
    let without = 0;
    while (checked < 40_000) {
      const state = randomPosition(rng, 1 + rng.int(48)).toState();
      if (core.hasWinningStore(state)) continue;
      for (const captureSeedStays of [false, true]) {
        const code = ruleCode(resolveRules({ captureSeedStays }));
        const expected = core.legalMask(state, code) !== 0;
        expect(hasLegalMove(state, code), Array.from(state).join(',')).toBe(expected);
        if (!expected) without++;
        checked++;
      }
    }
    expect(without).toBeGreaterThan(50);
  });
});

describe('finalDifference', () => {
  it('is the final score difference outcome() reports, from either side', () => {
    const rng = Random.fromSeed(32);
    const scores = new Int32Array(2);
    let finished = 0;
    for (let i = 0; i < 20_000 && finished < 300; i++) {
      const pos = randomPosition(rng, 1 + rng.int(10));
      for (const leftoverTo of ['opponent', 'owner'] as const) {
        const end = outcome(pos, { leftoverTo });
        if (end === null) continue;
        finished++;
        for (const player of [0, 1]) {
          const diff = (end.scores[player] as number) - (end.scores[1 - player] as number);
          const code = ruleCode(resolveRules({ leftoverTo }));
          expect(finalDifference(pos.toState(), player, code, scores)).toBe(diff);
        }
      }
    }
    expect(finished).toBeGreaterThanOrEqual(300);
  });
});
