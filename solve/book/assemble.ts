import { core, ruleCode } from '../../env/index.ts';
import { signValue } from '../value.ts';
import { entryOf } from './book.ts';
import {
  type BookSettings,
  compareKeys,
  DEPTH_AT,
  KEY_BYTES,
  RECORD_BYTES,
  sortedRecords,
  VALUE_AT,
  valueCode,
} from './format.ts';
import { stateKey } from './plan.ts';

const { ACTIONS, STATE_SIZE, TO_MOVE, expand, finalScores, legalMask } = core;

/** The deepest proof depth a record holds (a byte). */
const MAX_RECORD_DEPTH = 255;

/**
 * What a move of a finished child is worth to the player who made it: the
 * game's result; its proof depth 1 (the move itself).
 */
function finishedMove(child: Uint8Array, mover: number, code: number): { lo: number; hi: number } {
  const scores = [0, 0];
  finalScores(child, 0, code, scores);
  const v = signValue((scores[mover] as number) - (scores[1 - mover] as number));
  return { lo: v, hi: v };
}

/**
 * The record of an unfinished position whose every move leads to a finished
 * game or to a position `recordOf` gives: each move's bounds are the reply's
 * negated, its depth one more than the reply's.
 */
export function recordFromChildren(
  state: Uint8Array,
  settings: BookSettings,
  recordOf: (child: Uint8Array) => Uint8Array,
): Uint8Array {
  const code = ruleCode(settings.rules);
  const record = new Uint8Array(RECORD_BYTES);
  record.set(state.subarray(0, KEY_BYTES - 1));
  const children = new Uint8Array(ACTIONS * STATE_SIZE);
  const mask = expand(record, code, children, new Uint8Array(ACTIONS));
  const mover = state[TO_MOVE] as number;
  for (let a = 0; a < ACTIONS; a++) {
    if ((mask & (1 << a)) === 0) continue;
    const child = children.subarray(a * STATE_SIZE, (a + 1) * STATE_SIZE);
    child[STATE_SIZE - 1] = 0;
    if (legalMask(child, code) === 0) {
      const { lo, hi } = finishedMove(child, mover, code);
      record[VALUE_AT + a] = valueCode(lo, hi);
      record[DEPTH_AT + a] = 1;
      continue;
    }
    const reply = entryOf(recordOf(child), 0);
    record[VALUE_AT + a] = valueCode(-reply.hi, -reply.lo);
    record[DEPTH_AT + a] = Math.min(MAX_RECORD_DEPTH, reply.depth + 1);
  }
  return record;
}

/**
 * The whole book from its plan (plan.ts's bookLevels) and its leaves' records
 * (leaves.ts, sorted as the last level): every position of the earlier
 * levels gets its moves from its replies, deepest first. Records sorted by
 * state. Throws a RangeError when the leaves are not exactly the plan's.
 */
export function assembleBook(
  settings: BookSettings,
  levels: readonly Uint8Array[],
  leaves: Uint8Array,
): Uint8Array {
  const last = levels[settings.plies];
  if (last === undefined || levels.length !== settings.plies + 1) {
    throw new RangeError(`the plan has ${levels.length - 1} plies, the book ${settings.plies}`);
  }
  const count = last.length / KEY_BYTES;
  if (leaves.length !== count * RECORD_BYTES) {
    throw new RangeError(`the book needs ${count} leaves, got ${leaves.length / RECORD_BYTES}`);
  }
  const records = new Map<string, Uint8Array>();
  for (let i = 0; i < count; i++) {
    if (compareKeys(last, i * KEY_BYTES, leaves, i * RECORD_BYTES) !== 0) {
      throw new RangeError(`leaf ${i} is not the plan's`);
    }
    const record = leaves.subarray(i * RECORD_BYTES, (i + 1) * RECORD_BYTES);
    records.set(stateKey(record), record);
  }
  // The earlier levels' positions, made on demand: a reply is usually first
  // reached one ply later, but may have been reached earlier by another way.
  const interior = new Map<string, Uint8Array>();
  for (let ply = 0; ply < settings.plies; ply++) {
    const level = levels[ply] as Uint8Array;
    for (let at = 0; at < level.length; at += KEY_BYTES) {
      const state = level.subarray(at, at + KEY_BYTES);
      interior.set(stateKey(state), state);
    }
  }
  const making = new Set<string>();
  const recordOf = (state: Uint8Array): Uint8Array => {
    const key = stateKey(state);
    const known = records.get(key);
    if (known !== undefined) return known;
    const own = interior.get(key);
    if (own === undefined)
      throw new RangeError("a move leads out of the book: the plan is not the book's");
    if (making.has(key)) throw new RangeError("the book's positions repeat along a line");
    making.add(key);
    const record = recordFromChildren(own, settings, recordOf);
    making.delete(key);
    records.set(key, record);
    return record;
  };
  for (const state of interior.values()) recordOf(state);
  return sortedRecords(records.values());
}
