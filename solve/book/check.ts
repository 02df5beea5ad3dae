import { core, formatPosition, positionFromState, Random, ruleCode } from '../../env/index.ts';
import type { EndgameValues } from '../endgame/build.ts';
import { endgameBounds } from '../endgame/lookup.ts';
import { recordFromChildren } from './assemble.ts';
import type { OpeningBook } from './book.ts';
import { BookFileError, KEY_BYTES, RECORD_BYTES, VALUE_AT } from './format.ts';
import { LeafSolver } from './leaves.ts';
import { bookLevels, keySet, stateKey } from './plan.ts';

const { ACTIONS, STATE_SIZE, expand, legalMask } = core;

/** Leaves checkBook re-solves from scratch by default. */
export const DEFAULT_BOOK_CHECK_SAMPLES = 8;

export interface BookCheckOptions {
  /** The book's endgame table (its settings' seeds): leaves' moves into it are checked against it. */
  readonly endgame?: EndgameValues | null;
  /** Leaves re-solved from scratch (default DEFAULT_BOOK_CHECK_SAMPLES; 0: none). */
  readonly samples?: number;
  /**
   * Seed of the sample (needed when there is one). A sample only catches a
   * forger who cannot foresee it: draw the seed afresh (the CLI's is from
   * crypto randomness, printed, so that a check can be repeated).
   */
  readonly seed?: number;
  /** The leaves (stateKeys) the sample is drawn from (default: every leaf). */
  readonly among?: ReadonlySet<string>;
  /** Hears of each sampled leaf re-solved (done, of all), and before the first (0). */
  readonly onSample?: (done: number, total: number) => void;
}

/** What checkBook found: positions checked against their replies and re-solved. */
export interface BookCheckReport {
  readonly entries: number;
  readonly leaves: number;
  /** Leaf moves whose reply the endgame table proves, compared with it. */
  readonly endgameMoves: number;
  readonly resolved: number;
}

function fail(check: string, state: Uint8Array, what: string): never {
  const where = formatPosition(positionFromState(state));
  throw new BookFileError(`the book fails its ${check} check: position ${where}: ${what}`);
}

/**
 * Checks that a book holds what a build under its settings would, and throws
 * a BookFileError naming the first check it fails and the position:
 *
 * - plan: it holds exactly the positions reachable within its plies;
 * - moves: each entry's moves are the position's legal moves;
 * - replies: every entry before the last ply holds, for each move, its
 *   reply's value negated and depth plus one (so its value is the best of its
 *   children's), a finished reply its result;
 * - endgame: a leaf's move into the endgame table agrees with the table's bounds;
 * - sample: a seeded sample of leaves re-solved from scratch gives the same
 *   records, depths too (every other position follows from the leaves by
 *   the replies check).
 */
export function checkBook(book: OpeningBook, options: BookCheckOptions = {}): BookCheckReport {
  const { settings } = book;
  const code = ruleCode(settings.rules);
  const levels = bookLevels(settings.rules, settings.plies);
  const leafKeys = keySet(levels[settings.plies] as Uint8Array);
  let planned = 0;
  for (const level of levels) {
    for (let at = 0; at < level.length; at += KEY_BYTES) {
      const state = level.subarray(at, at + KEY_BYTES);
      if (book.indexOf(state) < 0) fail('plan', state, 'reachable, but not in the book');
      planned++;
    }
  }
  if (planned !== book.size) {
    throw new BookFileError(
      `the book fails its plan check: it holds ${book.size} positions, its plies reach ${planned}`,
    );
  }
  const records = book.records;
  const recordOf = (child: Uint8Array): Uint8Array => {
    const i = book.indexOf(child);
    if (i < 0) fail('replies', child, 'a move of the book leads to it, but it is not in the book');
    return records.subarray(i * RECORD_BYTES, (i + 1) * RECORD_BYTES);
  };
  const children = new Uint8Array(ACTIONS * STATE_SIZE);
  const status = new Uint8Array(ACTIONS);
  let endgameMoves = 0;
  for (let i = 0; i < book.size; i++) {
    const record = records.subarray(i * RECORD_BYTES, (i + 1) * RECORD_BYTES);
    const state = record.subarray(0, KEY_BYTES);
    const mask = expand(state, code, children, status);
    for (let a = 0; a < ACTIONS; a++) {
      if ((record[VALUE_AT + a] !== 0) !== ((mask & (1 << a)) !== 0)) {
        fail(
          'moves',
          state,
          `action ${a} is ${(mask & (1 << a)) !== 0 ? 'legal' : 'illegal'}, the book says otherwise`,
        );
      }
    }
    if (!leafKeys.has(stateKey(state))) {
      const expected = recordFromChildren(state, settings, recordOf);
      for (let b = KEY_BYTES; b < RECORD_BYTES; b++) {
        if (expected[b] !== record[b]) {
          const a = (b - KEY_BYTES) % ACTIONS;
          fail('replies', state, `action ${a} does not hold its reply's value and depth`);
        }
      }
      continue;
    }
    const endgame = options.endgame ?? null;
    if (endgame === null) continue;
    const { moves } = book.entryAt(i);
    for (let a = 0; a < ACTIONS; a++) {
      if ((mask & (1 << a)) === 0) continue;
      const child = children.subarray(a * STATE_SIZE, (a + 1) * STATE_SIZE);
      if (legalMask(child, code) === 0) continue;
      const bounds = endgameBounds(endgame, child);
      if (bounds === null) continue;
      endgameMoves++;
      const move = moves.find((m) => m.action === a);
      if (move === undefined || move.lo < -bounds.hi || move.hi > -bounds.lo) {
        fail(
          'endgame',
          state,
          `action ${a}'s value is outside what the endgame table proves of its reply`,
        );
      }
    }
  }
  const resolved = resolveSample(book, options, leafKeys);
  return { entries: book.size, leaves: leafKeys.size, endgameMoves, resolved };
}

/**
 * Re-solves a seeded sample of the book's leaves (of `options.among`, where
 * given) from scratch and compares each whole record; returns how many.
 */
function resolveSample(
  book: OpeningBook,
  options: BookCheckOptions,
  leafKeys: ReadonlySet<string>,
): number {
  const among = options.among ?? leafKeys;
  const candidates: number[] = [];
  for (let i = 0; i < book.size; i++) {
    const key = stateKey(book.records.subarray(i * RECORD_BYTES, i * RECORD_BYTES + KEY_BYTES));
    if (leafKeys.has(key) && among.has(key)) candidates.push(i);
  }
  const samples = Math.min(options.samples ?? DEFAULT_BOOK_CHECK_SAMPLES, candidates.length);
  if (samples <= 0) return 0;
  if (options.seed === undefined) throw new RangeError("the book check's sample needs a seed");
  const { settings } = book;
  const endgame = options.endgame ?? null;
  if ((endgame?.maxSeeds ?? 0) !== settings.endgameSeeds) {
    throw new RangeError(
      `re-solving the book's sample needs the endgame table of ${settings.endgameSeeds} seeds`,
    );
  }
  const leaves = new LeafSolver(settings, endgame);
  const rng = Random.fromSeed(options.seed);
  const picked = new Set<number>();
  while (picked.size < samples) picked.add(candidates[rng.int(candidates.length)] as number);
  let done = 0;
  options.onSample?.(0, samples);
  for (const i of [...picked].sort((x, y) => x - y)) {
    const state = book.stateAt(i);
    const stored = book.records.subarray(i * RECORD_BYTES, (i + 1) * RECORD_BYTES);
    const fresh = leaves.solve(state);
    for (let b = KEY_BYTES; b < RECORD_BYTES; b++) {
      if (fresh[b] !== stored[b]) {
        fail(
          'sample',
          state,
          `re-solved from scratch, action ${(b - KEY_BYTES) % ACTIONS} comes out otherwise`,
        );
      }
    }
    options.onSample?.(++done, samples);
  }
  return samples;
}

/**
 * The odds that `sampled` leaves drawn at random (without repeats) from
 * `leaves` include at least one of `forged` ones: 1 - C(L-k, n) / C(L, n).
 */
export function sampleCatchOdds(leaves: number, sampled: number, forged: number): number {
  if (forged <= 0 || sampled <= 0) return 0;
  if (sampled + forged > leaves) return 1;
  let miss = 1;
  for (let i = 0; i < sampled; i++) miss *= (leaves - forged - i) / (leaves - i);
  return 1 - miss;
}
