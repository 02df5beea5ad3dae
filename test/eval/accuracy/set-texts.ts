// Accuracy set files for the tests, made from the shipped main set: a few of
// its positions, and the same with planted values (a checksum made again, as
// someone planting them would).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ACCURACY_SETS } from '../../../eval/accuracy/shipped-sets.ts';

/** The shipped main set's file, as it is in the repository (LF line ends). */
export const MAIN_TEXT = readFileSync(ACCURACY_SETS.main as string, 'utf8');

const [MAIN_HEADER, ...MAIN_LINES] = MAIN_TEXT.trimEnd().split('\n') as [string, ...string[]];

/** Seeds on the board (not in the stores) of a position in notation. */
function boardSeeds(notation: string): number {
  const [row0, row1] = notation.split('/') as [string, string];
  return `${row0},${row1}`
    .split(',')
    .map(Number)
    .reduce((a, b) => a + b, 0);
}

/**
 * The first `count` position lines of the main set with at most 9 seeds on
 * the board: the solver proves them in milliseconds without an endgame table.
 */
export function smallPositionLines(count: number): string[] {
  const lines = MAIN_LINES.filter(
    (line) => boardSeeds((JSON.parse(line) as { position: string }).position) <= 9,
  ).slice(0, count);
  if (lines.length < count)
    throw new Error(`the main set has only ${lines.length} small positions`);
  return lines;
}

/**
 * A set file of these position lines under the main set's header, its count
 * and checksum made again; `budget` replaces the header's (endgameSeeds 0:
 * verified without the table).
 */
export function setText(
  lines: readonly string[],
  budget: Record<string, number> = { nodes: 4_000_000, endgameSeeds: 0 },
): string {
  const header = JSON.parse(MAIN_HEADER) as Record<string, unknown>;
  header.budget = budget;
  header.positions = lines.length;
  header.sha256 = createHash('sha256').update(lines.join('\n')).digest('hex');
  return `${[JSON.stringify(header), ...lines].join('\n')}\n`;
}

type Value = 'win' | 'draw' | 'loss';
const TURNED: Readonly<Record<Value, Value>> = { win: 'loss', draw: 'draw', loss: 'win' };
const RANK: Readonly<Record<Value, number>> = { loss: -1, draw: 0, win: 1 };

/**
 * The line with every move's value turned over (a win for a loss) and the
 * position's value the best of them: still a well-formed critical position,
 * so only re-solving it shows the values are wrong. An agent that plays
 * perfectly errs wherever a planted line's best move is really a losing one.
 */
export function plantedLine(line: string): string {
  const p = JSON.parse(line) as { value: Value; moves: (Value | null)[] };
  p.moves = p.moves.map((v) => (v === null ? null : TURNED[v]));
  const ranks = p.moves.flatMap((v) => (v === null ? [] : [RANK[v]]));
  p.value = (['loss', 'draw', 'win'] as const)[Math.max(...ranks) + 1] as Value;
  return JSON.stringify(p);
}
