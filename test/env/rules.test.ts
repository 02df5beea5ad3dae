import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RULES,
  parseRulesText,
  RulesError,
  type RulesInput,
  resolveRules,
  rulesSchema,
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
