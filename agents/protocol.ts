import { z } from 'zod';
import { type Position, pickRules, type Rules, rulesSchema } from '../env/index.ts';

/**
 * The external engine protocol: one JSON object per line each way.
 *
 * Request (this project to the engine), with every rule option in `rules`
 * (docs/agents.md shows one):
 *   {"pits":[4,4,4,4,4,4,4,4,4,4,4,4],"stores":[0,0],"toMove":0,
 *    "legal":[0,1,2,3,4,5],"rules":{...}}
 * Answer: {"action":2}, with the action one of `legal` (extra fields are ignored).
 */
export interface EngineRequest {
  /** Pits 0..11 in sowing order (0..5 player 0's row, 6..11 player 1's). */
  readonly pits: readonly number[];
  readonly stores: readonly [number, number];
  readonly toMove: 0 | 1;
  /** The legal actions (0..5 from the mover's side), ascending. */
  readonly legal: readonly number[];
  readonly rules: Rules;
}

export function engineRequest(
  position: Position,
  legal: readonly number[],
  rules: Rules,
): EngineRequest {
  return {
    pits: position.pits,
    stores: position.stores,
    toMove: position.toMove,
    legal,
    rules: pickRules(rules),
  };
}

const count = z.number().int().min(0);

/**
 * What `ayoayo engine` accepts; rules default, and `legal` is optional (it is
 * worked out again from the position, and a given list that differs from it is
 * refused with an error line).
 */
export const engineRequestSchema = z.object({
  pits: z.array(count).length(12),
  stores: z.tuple([count, count]),
  toMove: z.union([z.literal(0), z.literal(1)]),
  legal: z.array(z.number().int()).optional(),
  rules: rulesSchema.partial().strict().optional(),
});

const answerSchema = z.object({ action: z.number().int() });

/** Parses an engine's answer line; returns the action or a description of what is wrong. */
export function parseAnswer(line: string): { action: number } | { error: string } {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return { error: `answered garbage (not JSON): ${quote(line)}` };
  }
  const parsed = answerSchema.safeParse(json);
  if (!parsed.success) {
    return { error: `answered garbage (expected {"action": N}): ${quote(line)}` };
  }
  return { action: parsed.data.action };
}

/** A line shortened for an error message. */
export function quote(line: string, max = 120): string {
  const text = line.length > max ? `${line.slice(0, max)}...` : line;
  return JSON.stringify(text);
}
