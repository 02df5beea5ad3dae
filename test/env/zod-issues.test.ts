import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { describeIssues } from '../../env/index.ts';

const schema = z
  .object({ a: z.number(), b: z.object({ c: z.array(z.string()) }), d: z.boolean() })
  .strict();

function errorOf(input: unknown): z.ZodError {
  const parsed = schema.safeParse(input);
  if (parsed.success) throw new Error('expected a validation error');
  return parsed.error;
}

describe('describeIssues', () => {
  it('names every field with its dotted path, on one line', () => {
    const text = describeIssues(errorOf({ a: 'x', b: { c: ['ok', 3] }, d: true }));
    expect(text).toBe(
      'a: Invalid input: expected number, received string; b.c.1: Invalid input: expected string, received number',
    );
  });

  it('prefixes problems with the whole value by the root name, or shows them alone', () => {
    expect(describeIssues(errorOf(7), 'options')).toBe(
      'options: Invalid input: expected object, received number',
    );
    expect(describeIssues(errorOf(7))).toBe('Invalid input: expected object, received number');
  });

  it('counts the issues past the limit instead of dropping them', () => {
    const error = errorOf({ a: 'x', b: 1, d: 2, e: 3 });
    expect(error.issues).toHaveLength(4);
    const text = describeIssues(error, 'body', 2);
    expect(text.split('; ')).toHaveLength(2);
    expect(text).toMatch(/^a: .*; b: .* \(and 2 more\)$/);
  });
});
