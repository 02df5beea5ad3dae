import { z } from 'zod';
import {
  describeIssues,
  outcome,
  type Position,
  PositionError,
  parsePosition,
  position,
  type Rules,
  RulesError,
  resolveRules,
  rulesSchema,
} from '../env/index.ts';

/** A request the service refuses, with the HTTP status, the reason sent back and any headers. */
export class RequestError extends Error {
  override name = 'RequestError';
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

const positionObjectSchema = z
  .object({
    pits: z.array(z.number()).describe('12 seed counts in sowing order: pits 0..5, then 6..11'),
    stores: z.array(z.number()).describe('[store of player 0, store of player 1]'),
    toMove: z.number().describe('the player to move, 0 or 1'),
  })
  .strict();

/** The body of `POST /act`. */
export const actRequestSchema = z
  .object({
    position: z
      .union([
        z.string().max(200).describe("notation, e.g. '4,4,4,4,4,4/4,4,4,4,4,4/0-0/0'"),
        positionObjectSchema,
      ])
      .describe('the position to move in'),
    rules: rulesSchema
      .partial()
      .strict()
      .optional()
      .describe('rule options (default: the policy’s)'),
  })
  .strict();
export type ActRequest = z.infer<typeof actRequestSchema>;

/** A validated request: a real, unfinished position and complete rules. */
export interface ParsedActRequest {
  readonly position: Position;
  readonly rules: Rules;
}

function issues(error: z.ZodError): string {
  return describeIssues(error, 'body', 3);
}

/**
 * Checks a parsed JSON body: its shape (zod), then the position (counts,
 * 48 seeds, player to move) and the rules with the engine's own validation,
 * and that the game is not over. Every refusal is a 400 naming what is wrong.
 */
export function parseActRequest(body: unknown, defaultRules: Rules): ParsedActRequest {
  const parsed = actRequestSchema.safeParse(body);
  if (!parsed.success) throw new RequestError(400, `invalid request: ${issues(parsed.error)}`);
  let rules: Rules;
  let pos: Position;
  try {
    rules = resolveRules({ ...defaultRules, ...parsed.data.rules });
    const input = parsed.data.position;
    pos = typeof input === 'string' ? parsePosition(input) : position(input);
  } catch (error) {
    // The engine's messages name the field: "invalid pits: seeds on the board ...".
    if (error instanceof PositionError || error instanceof RulesError) {
      throw new RequestError(400, error.message);
    }
    throw error;
  }
  const result = outcome(pos, rules);
  if (result !== null) {
    throw new RequestError(
      400,
      `the game is over in this position (final score ${result.scores[0]}-${result.scores[1]}): there is no move to choose`,
    );
  }
  return { position: pos, rules };
}
