/**
 * The file of an accuracy set (docs/accuracy.md): JSON lines, a header line
 * naming how the set was made (generator, seed, solver, budget, rules, what
 * was sampled and dropped per phase, the checksum of the rest), then one
 * critical position per line with its exact value and every legal move's.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import {
  describeIssues,
  legalActions,
  type Position,
  parsePosition,
  type Rules,
  resolveRules,
  rulesSchema,
} from '../../env/index.ts';
import { PHASES, phaseOf } from './phases.ts';
import { AccuracySetError } from './set-error.ts';
import { readSetFile, setLines } from './set-file.ts';

export { AccuracySetError };

/** The header's `format`: what the file is. */
export const SET_FORMAT = 'ayoayo-accuracy-set';
/** The header's `version`: the layout of the lines below. */
export const SET_VERSION = 1;

const valueSchema = z.enum(['win', 'draw', 'loss']);
/** An exact value for the player to move. */
export type ExactValue = z.infer<typeof valueSchema>;

/** Order of values, for comparing them: loss < draw < win. */
export const VALUE_RANK: Readonly<Record<ExactValue, number>> = { loss: -1, draw: 0, win: 1 };

const phaseCountsSchema = z
  .object({
    /** Positions of the games' sampled plies given to the solver. */
    sampled: z.number().int().nonnegative(),
    /** Proven, with moves of different values: kept. */
    critical: z.number().int().nonnegative(),
    /** Proven, every move of the same value. */
    notCritical: z.number().int().nonnegative(),
    /** Not proven within the budget: dropped. */
    unproven: z.number().int().nonnegative(),
    /** Critical, but already in the set (or in an excluded one). */
    duplicate: z.number().int().nonnegative(),
  })
  .strict();
export type PhaseCounts = z.infer<typeof phaseCountsSchema>;

const headerSchema = z
  .object({
    format: z.literal(SET_FORMAT),
    version: z.literal(SET_VERSION),
    /** The command that made the file. */
    generator: z.string(),
    seed: z.number().int(),
    /** The solver that proved the values (solve/'s sources' hash, and their commit when known). */
    solver: z.string(),
    /** The solver's budget per position. */
    budget: z
      .object({
        nodes: z.number().int().positive().optional(),
        timeMs: z.number().optional(),
        /** Boards of at most this many seeds were looked up in the endgame table. */
        endgameSeeds: z.number().int().nonnegative().optional(),
      })
      .strict(),
    rules: rulesSchema,
    /** The agents whose games the positions come from. */
    agents: z.array(z.string()).min(1),
    /** Random plies before the agents played: fewest, most. */
    openingPlies: z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()]),
    games: z.number().int().nonnegative(),
    positions: z.number().int().nonnegative(),
    /** Per phase: what was sampled, kept and dropped. */
    phases: z.record(z.enum(PHASES), phaseCountsSchema),
    /** sha256 of the position lines (joined by newlines), in hex. */
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
  })
  .strict();
export type SetHeader = z.infer<typeof headerSchema>;

const positionSchema = z
  .object({
    /** The position, in notation (docs/rules.md). */
    position: z.string(),
    /** Plies from the start of its game. */
    ply: z.number().int().min(4),
    phase: z.enum(PHASES),
    /** Its exact value for the player to move. */
    value: valueSchema,
    /** Each action's exact value for the mover (actions 0..5; null: illegal). */
    moves: z.array(valueSchema.nullable()).length(6),
    /** The game's agents, seat 0 then seat 1. */
    agents: z.tuple([z.string(), z.string()]),
    /** How the game opened: `random-N` or `balanced-N` (N random plies). */
    opening: z.string().regex(/^(random|balanced)-\d+$/),
    /** The game's index in the generator's sequence. */
    game: z.number().int().nonnegative(),
  })
  .strict();
export type SetPositionLine = z.infer<typeof positionSchema>;

/** A position of a set, parsed. */
export interface SetPosition extends SetPositionLine {
  readonly parsed: Position;
  /** Bit a: action a loses value (its value is below the position's). */
  readonly losingMask: number;
}

/** An accuracy set read from its file. */
export interface AccuracySet {
  /** The file it was read from. */
  readonly path: string;
  readonly header: SetHeader;
  readonly rules: Rules;
  readonly positions: readonly SetPosition[];
}

/** The sha256 of the position lines, as the header records it. */
export function positionsChecksum(lines: readonly string[]): string {
  return createHash('sha256').update(lines.join('\n')).digest('hex');
}

/** One position's line, its fields in a fixed order (the checksum is over these texts). */
export function positionLine(p: SetPositionLine): string {
  const { position, ply, phase, value, moves, agents, opening, game } = p;
  return JSON.stringify({ position, ply, phase, value, moves, agents, opening, game });
}

/** The whole file: the header (its checksum computed here), then a line per position. */
export function formatAccuracySet(
  header: Omit<SetHeader, 'sha256' | 'positions' | 'format' | 'version'>,
  positions: readonly SetPositionLine[],
): string {
  const lines = positions.map(positionLine);
  const full: SetHeader = {
    format: SET_FORMAT,
    version: SET_VERSION,
    ...header,
    positions: positions.length,
    sha256: positionsChecksum(lines),
  };
  return `${[JSON.stringify(full), ...lines].join('\n')}\n`;
}

/**
 * Reads and checks an accuracy set: the file (see readSetFile: its size is
 * capped), the header, the checksum, and every line (a position in notation,
 * its phase, a value for exactly each legal action, the position's value the
 * best of them, some move below it). Throws an AccuracySetError naming the
 * file, the line and what is wrong.
 */
export function readAccuracySet(path: string): AccuracySet {
  return parseAccuracySet(readSetFile(path), path);
}

/** readAccuracySet's work on a file's text (CRLF or a byte order mark allowed: see setLines); `path` names it in messages. */
export function parseAccuracySet(text: string, path: string): AccuracySet {
  const lines = setLines(text);
  const fail = (line: number, why: string): AccuracySetError =>
    new AccuracySetError(`accuracy set ${path}, line ${line}: ${why}`);
  const header = headerSchema.safeParse(jsonOf(lines[0], 1, fail));
  if (!header.success) {
    throw fail(
      1,
      `not an ${SET_FORMAT} header (version ${SET_VERSION}): ${describeIssues(header.error, 'header')}`,
    );
  }
  const body = lines.slice(1);
  if (body.length !== header.data.positions) {
    throw fail(
      1,
      `the header counts ${header.data.positions} positions but the file has ${body.length}`,
    );
  }
  if (positionsChecksum(body) !== header.data.sha256) {
    throw new AccuracySetError(
      `accuracy set ${path} does not match its checksum: its positions were changed after it was made; make it again with the generator`,
    );
  }
  const rules = resolveRules(header.data.rules);
  const positions = body.map((line, i) => checkedPosition(line, i + 2, rules, fail));
  return { path, header: header.data, rules, positions };
}

function jsonOf(
  line: string | undefined,
  number: number,
  fail: (line: number, why: string) => AccuracySetError,
): unknown {
  if (line === undefined || line.trim() === '') throw fail(number, 'empty line');
  try {
    return JSON.parse(line);
  } catch {
    throw fail(number, 'not valid JSON');
  }
}

function checkedPosition(
  line: string,
  number: number,
  rules: Rules,
  fail: (line: number, why: string) => AccuracySetError,
): SetPosition {
  const parsed = positionSchema.safeParse(jsonOf(line, number, fail));
  if (!parsed.success) throw fail(number, describeIssues(parsed.error, 'line'));
  const p = parsed.data;
  let pos: Position;
  try {
    pos = parsePosition(p.position);
  } catch (err) {
    throw fail(number, (err as Error).message);
  }
  if (phaseOf(p.ply) !== p.phase) {
    throw fail(number, `ply ${p.ply} is in phase ${phaseOf(p.ply)}, not ${p.phase}`);
  }
  const legal = legalActions(pos, rules);
  for (let a = 0; a < 6; a++) {
    if (legal.includes(a) !== (p.moves[a] !== null)) {
      throw fail(
        number,
        `action ${a} is ${legal.includes(a) ? 'legal' : 'illegal'} but its value is ${String(p.moves[a])}`,
      );
    }
  }
  const ranks = legal.map((a) => VALUE_RANK[p.moves[a] as ExactValue]);
  const best = Math.max(...ranks);
  if (best !== VALUE_RANK[p.value]) {
    throw fail(number, `the value ${p.value} is not that of its best move`);
  }
  let losingMask = 0;
  for (const a of legal) {
    if (VALUE_RANK[p.moves[a] as ExactValue] < best) losingMask |= 1 << a;
  }
  if (losingMask === 0) throw fail(number, 'not critical: every move has the same value');
  return { ...p, parsed: pos, losingMask };
}
