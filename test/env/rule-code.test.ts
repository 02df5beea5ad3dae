import { describe, expect, it } from 'vitest';
import {
  core,
  DEFAULT_RULE_CODE,
  DEFAULT_RULES,
  everyRules,
  initialPosition,
  legalActions,
  outcome,
  parsePosition,
  RulesError,
  resolveRules,
  ruleCode,
} from '../../env/index.ts';
import { LEFTOVER_TO_OWNER, ruleBits, SEED_STAYS } from '../../env/rule-code.ts';

describe('ruleCode', () => {
  it('packs each rule set into its own small integer, the defaults into 0', () => {
    const codes = everyRules().map(ruleCode);
    expect(codes).toEqual([0, 1, 2, 3]);
    expect(DEFAULT_RULE_CODE).toBe(0);
    expect(ruleCode(DEFAULT_RULES)).toBe(0);
  });

  it('has a bit for each two-valued option, which the engine tests', () => {
    expect(SEED_STAYS).toBe(ruleCode(resolveRules({ captureSeedStays: true })));
    expect(LEFTOVER_TO_OWNER).toBe(ruleCode(resolveRules({ leftoverTo: 'owner' })));
    expect(ruleBits('leftoverTo', 'opponent')).toBe(0);
    expect(ruleCode(resolveRules({ captureSeedStays: true, leftoverTo: 'owner' }))).toBe(
      SEED_STAYS | LEFTOVER_TO_OWNER,
    );
  });

  it('refuses a value that is none of its option', () => {
    const bad = { captureSeedStays: false, leftoverTo: 'nobody' } as never;
    expect(() => ruleCode(bad)).toThrow(RulesError);
    expect(() => ruleCode(bad)).toThrow(
      'invalid rules: leftoverTo: "nobody" is not one of its values',
    );
  });

  it('drives the engine as the rules say: the capture rule in moves, the leftover rule in scores', () => {
    // Player 0 cannot move (its one seed would not feed the empty row): the
    // seed goes to player 1, or stays with its owner.
    const end = parsePosition('1,0,0,0,0,0/0,0,0,0,0,0/23-24/0');
    const scores = new Int32Array(2);
    for (const rules of everyRules()) {
      expect(core.finalScores(end.toState(), 0, ruleCode(rules), scores)).toBe(true);
      expect(Array.from(scores)).toEqual(rules.leftoverTo === 'owner' ? [24, 24] : [23, 25]);
      expect(outcome(end, rules)?.scores).toEqual(Array.from(scores));
      const state = initialPosition().toState();
      core.playInPlace(state, 0, ruleCode(rules));
      // docs/rules.md's worked example: 2 seeds captured, or 1 with the capturing seed staying.
      expect(state[core.STORE_0]).toBe(rules.captureSeedStays ? 1 : 2);
      expect(legalActions(initialPosition(), rules)).toEqual([0, 1, 2, 3, 4, 5]);
    }
  });
});
