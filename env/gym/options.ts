/** The environments' options: one zod schema, resolved once into plain values. */
import * as z from 'zod';
import {
  core,
  describeIssues,
  type Position,
  type PositionInput,
  parsePosition,
  position,
  type Rules,
  resolveRules,
  ruleCode,
  rulesSchema,
  START_NOTATION,
} from '../index.ts';
import { hasLegalMove } from './fast.ts';
import {
  type ObservationConfig,
  observationConfigSchema,
  resolveObservationConfig,
} from './observation.ts';

/**
 * Default move cap. Games measured with the engine (2 random opening plies,
 * then both sides the same kind of player; alpha-beta on store difference with
 * random tie-breaks) that finished were all far shorter: random vs random mean 25 / longest 65
 * plies (2,000 games), depth 2 vs depth 2 mean 32 / longest 85 (1,200 games,
 * of which 4 cycled forever), depth 4 vs depth 4 mean 27 / longest 58. 200 is
 * over twice the longest finished game, so the cap cuts cycles, not games.
 */
export const DEFAULT_MAX_PLIES = 200;

const startPositionSchema = z
  .union([
    z.string(),
    z.looseObject({ pits: z.unknown(), stores: z.unknown(), toMove: z.unknown() }),
  ])
  .describe(`a notation string (e.g. ${START_NOTATION}) or {pits, stores, toMove}`);

const randomOpeningPlies = z
  .number()
  .int('randomOpeningPlies must be an integer')
  .min(0, 'randomOpeningPlies must be >= 0')
  .max(1000, 'randomOpeningPlies must be at most 1000')
  .describe('uniformly random plies played at reset, seeded, before the episode starts');

const optionFields = {
  rules: rulesSchema
    .partial()
    .strict()
    .optional()
    .describe('rule options (docs/rules.md), e.g. {captureSeedStays: true}; defaults: Russ'),
  observation: observationConfigSchema
    .optional()
    .describe('observation encoding; default {encoding: "counts", lookahead: false}'),
  maxPlies: z
    .number()
    .int('maxPlies must be an integer')
    .min(1, 'maxPlies must be at least 1')
    .max(65535, 'maxPlies must be at most 65535')
    .default(DEFAULT_MAX_PLIES)
    .describe('plies after which an episode is truncated'),
  randomOpeningPlies: randomOpeningPlies.default(0),
  startPosition: startPositionSchema
    .optional()
    .describe('where episodes start (before any random opening plies); default: the start'),
  captureReward: z
    .number()
    .finite('captureReward must be a finite number')
    .default(0)
    .describe("shaping: reward += captureReward * seeds captured / 24 for the move's player"),
  illegalAction: z
    .enum(['error', 'lose'])
    .default('error')
    .describe(
      "'error': an illegal action throws; 'lose': it ends the game as a loss for the mover",
    ),
};

/** Options of `AyoayoEnv` (strict: unknown keys are errors). */
export const envOptionsSchema = z.object(optionFields).strict();
export type EnvOptionsInput = z.input<typeof envOptionsSchema>;

/** Per-reset overrides accepted by `reset({ options })`. */
export const resetOptionsSchema = z
  .object({
    startPosition: optionFields.startPosition,
    randomOpeningPlies: randomOpeningPlies.optional(),
  })
  .strict();
export type ResetOptionsInput = z.input<typeof resetOptionsSchema>;

/** Options after validation and defaults. */
export interface EnvOptions {
  readonly rules: Rules;
  readonly observation: ObservationConfig;
  readonly maxPlies: number;
  readonly randomOpeningPlies: number;
  /** The episode start before random opening plies (the initial position by default). */
  readonly startPosition: Position | null;
  readonly captureReward: number;
  readonly illegalAction: 'error' | 'lose';
}

export class EnvOptionsError extends Error {
  override name = 'EnvOptionsError';
}

// The project's zod issue formatter lives with the engine (env/zod-issues.ts);
// re-exported here, where it was first written, for the modules importing it from here.
export { describeIssues } from '../zod-issues.ts';

/** Parses `schema` or throws EnvOptionsError with every problem named. */
export function parseOptions<S extends z.ZodType>(
  schema: S,
  input: unknown,
  what: string,
): z.output<S> {
  const parsed = schema.safeParse(input ?? {});
  if (!parsed.success) {
    throw new EnvOptionsError(`invalid ${what}: ${describeIssues(parsed.error, 'options')}`);
  }
  return parsed.data;
}

/** A start position from the notation or an object; rejects finished positions. */
export function resolveStartPosition(
  input: string | PositionInput | undefined,
  rules: Rules,
): Position | null {
  if (input === undefined) return null;
  let pos: Position;
  try {
    pos = typeof input === 'string' ? parsePosition(input) : position(input);
  } catch (err) {
    throw new EnvOptionsError(`invalid startPosition: ${(err as Error).message}`);
  }
  const state = pos.toState();
  if (core.hasWinningStore(state) || !hasLegalMove(state, ruleCode(rules))) {
    throw new EnvOptionsError('invalid startPosition: the game is already over in this position');
  }
  return pos;
}

/** Validates `AyoayoEnv` options and fills in the defaults. */
export function resolveEnvOptions(input?: EnvOptionsInput | null): EnvOptions {
  const data = parseOptions(envOptionsSchema, input, 'environment options');
  const rules = resolveRules(data.rules);
  return Object.freeze({
    rules,
    observation: resolveObservationConfig(data.observation),
    maxPlies: data.maxPlies,
    randomOpeningPlies: data.randomOpeningPlies,
    startPosition: resolveStartPosition(
      data.startPosition as string | PositionInput | undefined,
      rules,
    ),
    captureReward: data.captureReward,
    illegalAction: data.illegalAction,
  });
}
