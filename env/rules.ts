import * as z from 'zod';
import { describeIssues } from './zod-issues.ts';

/** The two details on which written sources of Ayoayo differ (see docs/rules.md). */
export interface Rules {
  /** true: the capturing seed stays in its pit; false (Russ): it is captured too. */
  readonly captureSeedStays: boolean;
  /** Where the seeds left on the board go when the player to move cannot move. */
  readonly leftoverTo: 'opponent' | 'owner';
}

export const LEFTOVER_OPTIONS = ['opponent', 'owner'] as const;

/** Russ, Mancala Games (1984). */
export const DEFAULT_RULES: Rules = Object.freeze({
  captureSeedStays: false,
  leftoverTo: 'opponent',
});

export const rulesSchema = z
  .object({
    captureSeedStays: z.boolean().describe('the capturing seed stays in its pit'),
    leftoverTo: z.enum(LEFTOVER_OPTIONS).describe('who takes the seeds left on the board'),
  })
  .strict();

const partialRulesSchema = rulesSchema.partial().strict();

export type RulesInput = Partial<Rules>;

export class RulesError extends Error {
  override name = 'RulesError';
}

// Resolved rule objects are cached per input object so that hot callers passing
// the same object do not pay for validation on every call.
const resolved = new WeakMap<object, Rules>();

/** Merges a partial rules object over the defaults; unknown keys or bad values throw. */
export function resolveRules(input?: RulesInput | null): Rules {
  if (input === undefined || input === null || input === DEFAULT_RULES) return DEFAULT_RULES;
  if (typeof input !== 'object')
    throw new RulesError(`rules must be an object, got ${typeof input}`);
  const hit = resolved.get(input);
  if (hit) return hit;
  const parsed = partialRulesSchema.safeParse(input);
  if (!parsed.success) {
    throw new RulesError(`invalid rules: ${describeIssues(parsed.error)}`);
  }
  const rules: Rules = Object.freeze({ ...DEFAULT_RULES, ...stripUndefined(parsed.data) });
  resolved.set(input, rules);
  return rules;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Parses the CLI form `captureSeedStays=true,leftoverTo=owner`. */
export function parseRulesText(text: string): Rules {
  // Own keys only: `__proto__=1` assigned to a plain object would set its prototype, unseen.
  const out = new Map<string, unknown>();
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p.length > 0)) {
    const [key, value, ...rest] = part.split('=');
    if (key === undefined || value === undefined || rest.length > 0) {
      throw new RulesError(`invalid rules '${part}': expected key=value`);
    }
    if (out.has(key)) {
      throw new RulesError(`invalid rules '${text}': ${key} is given twice; give each option once`);
    }
    out.set(key, value === 'true' ? true : value === 'false' ? false : value);
  }
  return resolveRules(Object.fromEntries(out) as RulesInput);
}

/** `captureSeedStays=false,leftoverTo=opponent`: the form `parseRulesText` (and `--rules`) reads. */
export function formatRules(rules: Rules): string {
  return `captureSeedStays=${rules.captureSeedStays},leftoverTo=${rules.leftoverTo}`;
}
