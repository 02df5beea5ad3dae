import { core, type Rules } from '../../env/index.ts';
import {
  type BookSettings,
  codeBounds,
  compareKeys,
  DEPTH_AT,
  KEY_BYTES,
  RECORD_BYTES,
  VALUE_AT,
} from './format.ts';

const { ACTIONS, STATE_SIZE } = core;

/** One legal move of a book position: proven bounds on the mover's value after it, and its proof depth. */
export interface BookMove {
  readonly action: number;
  /** -1 loss, 0 draw, 1 win, for the player who plays it; lo === hi where exact. */
  readonly lo: number;
  readonly hi: number;
  /**
   * Plies of the proof of its value: at a leaf, the solver's iteration that
   * settled it (a fresh table each leaf); above, one more than the reply's
   * (positionDepth). Smaller is a shorter proof.
   */
  readonly depth: number;
}

/** A position of the book. */
export interface BookEntry {
  /** Its legal moves, ascending (never empty: finished positions are not in the book). */
  readonly moves: readonly BookMove[];
  /** Bounds on its value for the player to move: the best of its moves'. */
  readonly lo: number;
  readonly hi: number;
  /** Its proof depth (positionDepth). */
  readonly depth: number;
}

/**
 * A position's proof depth from its moves': a won position the shortest of
 * its winning moves' (one proof is enough), any other the longest of all
 * (every move must be refuted).
 */
export function positionDepth(moves: readonly BookMove[]): number {
  let lo = -1;
  for (const m of moves) if (m.lo > lo) lo = m.lo;
  let depth = lo === 1 ? Number.POSITIVE_INFINITY : 0;
  for (const m of moves) {
    if (lo === 1) {
      if (m.lo === 1 && m.depth < depth) depth = m.depth;
    } else if (m.depth > depth) depth = m.depth;
  }
  return depth;
}

/** The entry a record at `at` of `records` holds. */
export function entryOf(records: Uint8Array, at: number): BookEntry {
  const moves: BookMove[] = [];
  let lo = -1;
  let hi = -1;
  for (let a = 0; a < ACTIONS; a++) {
    const bounds = codeBounds(records[at + VALUE_AT + a] as number);
    if (bounds === null) continue;
    moves.push({ action: a, ...bounds, depth: records[at + DEPTH_AT + a] as number });
    if (bounds.lo > lo) lo = bounds.lo;
    if (bounds.hi > hi) hi = bounds.hi;
  }
  return { moves, lo, hi, depth: positionDepth(moves) };
}

/**
 * An opening book (docs/solver.md, "The opening book"): every position
 * reachable within `plies` plies of the start under its rules, with the
 * exact value and proof depth of each of its legal moves. Lookups by engine
 * state, by binary search over the records sorted by state.
 */
export class OpeningBook {
  readonly settings: BookSettings;
  readonly #records: Uint8Array;
  readonly #key = new Uint8Array(KEY_BYTES);

  /** `records`: sorted, checked records (format.ts; decodeBookFile or assembleBook gives them). */
  constructor(settings: BookSettings, records: Uint8Array) {
    this.settings = settings;
    this.#records = records;
  }

  get rules(): Rules {
    return this.settings.rules;
  }

  get plies(): number {
    return this.settings.plies;
  }

  /** Positions in the book. */
  get size(): number {
    return this.#records.length / RECORD_BYTES;
  }

  /** The records, sorted by state (for writing the book out). */
  get records(): Uint8Array {
    return this.#records;
  }

  /** The index of the state's record (an engine state, its pad byte ignored); -1 when it is not in the book. */
  indexOf(state: Uint8Array): number {
    const key = this.#key;
    key.set(state.subarray(0, STATE_SIZE - 1));
    key[STATE_SIZE - 1] = 0;
    let low = 0;
    let high = this.size - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const c = compareKeys(this.#records, mid * RECORD_BYTES, key, 0);
      if (c === 0) return mid;
      if (c < 0) low = mid + 1;
      else high = mid - 1;
    }
    return -1;
  }

  /** The state's entry, or null when it is not in the book. */
  lookup(state: Uint8Array): BookEntry | null {
    const i = this.indexOf(state);
    return i < 0 ? null : entryOf(this.#records, i * RECORD_BYTES);
  }

  /** The state (a copy) of record `index`. */
  stateAt(index: number): Uint8Array {
    return this.#records.slice(index * RECORD_BYTES, index * RECORD_BYTES + KEY_BYTES);
  }

  /** The entry of record `index`. */
  entryAt(index: number): BookEntry {
    return entryOf(this.#records, index * RECORD_BYTES);
  }
}
