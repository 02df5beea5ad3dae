import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RULES,
  describeRuleOptions,
  describeRules,
  everyRules,
  formatRules,
  OTHER_RULES,
  parseRulesText,
  pickRules,
  RULE_NAMES,
  RULE_OPTIONS,
  RulesError,
  type RulesInput,
  resolveRules,
  ruleEntries,
  rulesKey,
  rulesSchema,
  sameRules,
} from '../../env/index.ts';

describe('rules', () => {
  it('default to Russ: the capturing seed is captured, leftovers go to the opponent', () => {
    expect(DEFAULT_RULES).toEqual({ captureSeedStays: false, leftoverTo: 'opponent' });
    expect(resolveRules()).toEqual(DEFAULT_RULES);
    expect(resolveRules(null)).toEqual(DEFAULT_RULES);
    expect(resolveRules({})).toEqual(DEFAULT_RULES);
  });

  it('merge a partial object over the defaults', () => {
    expect(resolveRules({ captureSeedStays: true })).toEqual({
      captureSeedStays: true,
      leftoverTo: 'opponent',
    });
    expect(resolveRules({ leftoverTo: 'owner' })).toEqual({
      captureSeedStays: false,
      leftoverTo: 'owner',
    });
    expect(resolveRules({ captureSeedStays: true, leftoverTo: 'owner' })).toEqual({
      captureSeedStays: true,
      leftoverTo: 'owner',
    });
  });

  it('give the same answer for the same object on every call', () => {
    const input: RulesInput = { leftoverTo: 'owner' };
    expect(resolveRules(input)).toEqual(resolveRules(input));
    expect(resolveRules(resolveRules(input))).toEqual({
      captureSeedStays: false,
      leftoverTo: 'owner',
    });
  });

  it('are frozen once resolved', () => {
    expect(Object.isFrozen(resolveRules({ captureSeedStays: true }))).toBe(true);
    expect(Object.isFrozen(DEFAULT_RULES)).toBe(true);
  });

  it.each<[string, unknown, RegExp]>([
    ['an unknown key', { captureSeed: true }, /captureSeed/],
    ['a string for a boolean', { captureSeedStays: 'true' }, /captureSeedStays/],
    ['an unknown leftoverTo', { leftoverTo: 'mover' }, /leftoverTo/],
    ['a number', 3, /rules must be an object, got number/],
  ])('reject %s with a RulesError naming it', (_name, input, message) => {
    expect(() => resolveRules(input as RulesInput)).toThrow(RulesError);
    expect(() => resolveRules(input as RulesInput)).toThrow(message);
  });

  it('have a strict schema for complete rule objects', () => {
    expect(rulesSchema.safeParse(DEFAULT_RULES).success).toBe(true);
    expect(rulesSchema.safeParse({ captureSeedStays: true }).success).toBe(false);
  });
});

describe('parseRulesText', () => {
  it.each<[string, { captureSeedStays: boolean; leftoverTo: string }]>([
    ['', DEFAULT_RULES],
    ['captureSeedStays=true', { captureSeedStays: true, leftoverTo: 'opponent' }],
    ['leftoverTo=owner', { captureSeedStays: false, leftoverTo: 'owner' }],
    ['captureSeedStays=true,leftoverTo=owner', { captureSeedStays: true, leftoverTo: 'owner' }],
    [' captureSeedStays=false , leftoverTo=opponent ', DEFAULT_RULES],
  ])('parses %j', (text, expected) => {
    expect(parseRulesText(text)).toEqual(expected);
  });

  it.each<[string, RegExp]>([
    ['captureSeedStays', /expected key=value/],
    ['captureSeedStays=true=false', /expected key=value/],
    ['captureSeedStays=yes', /captureSeedStays/],
    [
      'captureSeedStays=true,captureSeedStays=false',
      /invalid rules 'captureSeedStays=true,captureSeedStays=false': captureSeedStays is given twice; give each option once/,
    ],
    ['leftoverTo=nobody', /leftoverTo/],
    ['grandSlam=true', /grandSlam/],
  ])('rejects %j', (text, message) => {
    expect(() => parseRulesText(text)).toThrow(RulesError);
    expect(() => parseRulesText(text)).toThrow(message);
  });
});

describe('the option table', () => {
  it('lists each option once with its values, default, words and file-name keys', () => {
    expect(RULE_NAMES).toEqual(['captureSeedStays', 'leftoverTo']);
    for (const name of RULE_NAMES) {
      const option: {
        values: readonly unknown[];
        default: unknown;
        keys: readonly string[];
        says: readonly string[];
      } = RULE_OPTIONS[name];
      expect(option.values.length, name).toBeGreaterThanOrEqual(2);
      // The first value is the default, so the default rules' code is 0.
      expect(option.values[0], name).toBe(option.default);
      expect(option.keys, name).toHaveLength(option.values.length);
      expect(option.says, name).toHaveLength(option.values.length);
      expect(new Set(option.keys).size, name).toBe(option.keys.length);
    }
  });

  it('gives every combination of the values once, the defaults first', () => {
    const all = everyRules();
    expect(all).toHaveLength(4);
    expect(all[0]).toEqual(DEFAULT_RULES);
    expect(new Set(all.map(formatRules)).size).toBe(all.length);
    for (const rules of all) expect(Object.isFrozen(rules)).toBe(true);
    expect(all).toContainEqual({ captureSeedStays: true, leftoverTo: 'owner' });
  });
});

describe('rulesKey', () => {
  it("is one word per rule set, today's endgame table file names", () => {
    expect(everyRules().map(rulesKey)).toEqual([
      'seed-captured-leftover-opponent',
      'seed-stays-leftover-opponent',
      'seed-captured-leftover-owner',
      'seed-stays-leftover-owner',
    ]);
  });

  it('is the same for equal rules, whatever object holds them', () => {
    const a = resolveRules({ leftoverTo: 'owner' });
    const b = parseRulesText('leftoverTo=owner,captureSeedStays=false');
    expect(a).not.toBe(b);
    expect(rulesKey(a)).toBe(rulesKey(b));
  });
});

describe('sameRules', () => {
  it('tells equal rules from different ones', () => {
    const all = everyRules();
    for (const [i, a] of all.entries()) {
      for (const [j, b] of all.entries()) expect(sameRules(a, b), `${i} ${j}`).toBe(i === j);
      expect(sameRules(a, parseRulesText(formatRules(a)))).toBe(true);
    }
  });
});

describe('formatRules', () => {
  it('writes every option in table order, which parseRulesText reads back', () => {
    expect(formatRules(DEFAULT_RULES)).toBe('captureSeedStays=false,leftoverTo=opponent');
    for (const rules of everyRules()) expect(parseRulesText(formatRules(rules))).toEqual(rules);
  });

  it('has an example of every option away from its default for help texts', () => {
    expect(formatRules(OTHER_RULES)).toBe('captureSeedStays=true,leftoverTo=owner');
    expect(describeRuleOptions()).toBe(
      'captureSeedStays=false|true (the capturing seed stays in its pit), leftoverTo=opponent|owner (who takes the seeds left on the board)',
    );
  });
});

describe('ruleEntries, pickRules and describeRules', () => {
  it('read the options alone, in table order', () => {
    const rules = resolveRules({ captureSeedStays: true });
    expect(ruleEntries(rules)).toEqual([
      ['captureSeedStays', true],
      ['leftoverTo', 'opponent'],
    ]);
    const flat = { name: 'run', hidden: [8], leftoverTo: 'owner', captureSeedStays: true } as const;
    expect(JSON.stringify(pickRules(flat))).toBe('{"captureSeedStays":true,"leftoverTo":"owner"}');
    expect(() => pickRules({ ...flat, leftoverTo: 'nobody' } as never)).toThrow(/leftoverTo/);
  });

  it('say the rules in words', () => {
    expect(describeRules(DEFAULT_RULES)).toBe(
      'the capturing seed is captured too; seeds left at the end go to the player who made the last move',
    );
    expect(describeRules(OTHER_RULES)).toBe(
      'the capturing seed stays in its pit; seeds left at the end go to the owner of each row',
    );
  });
});

describe('rulesSchema', () => {
  it('accepts every rule set and reports a bad value by its option', () => {
    for (const rules of everyRules()) expect(rulesSchema.parse(rules)).toEqual(rules);
    const bad = rulesSchema.safeParse({ captureSeedStays: 1, leftoverTo: 'owner' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['captureSeedStays']);
  });
});
