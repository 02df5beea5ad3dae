/** Words (4 bytes) per state key: the whole 16-byte engine state. */
const KEY_WORDS = 4;
/** Entries per bucket: a probe looks at both, a store replaces the one worth less. */
const WAYS = 2;
export const DEFAULT_TABLE_BITS = 20;
export const MAX_TABLE_BITS = 26;
/** Questions an entry remembers failures of: prove / disprove, "at least a draw" / "a win". */
const QUESTIONS = 4;

/** The index of the question "is the value at least t?" (t = 0, 1), to prove or to disprove. */
export function question(t: number, prove: boolean): number {
  return prove ? t : 2 + t;
}

/**
 * The solver's transposition table: for each state it remembers what has been
 * proven about it and how deep a search failed to prove more.
 *
 * - `lo`/`hi`: proven bounds on the mover's value (see value.ts). They are facts
 *   about the game, true whatever depth found them, so they are never aged out
 *   by depth, only by replacement.
 * - `failed[question]`: the deepest search that failed to prove, or to
 *   disprove, "is the value at least t?" (t = 0, 1): four questions in all
 *   (`question(t, prove)`). A later search of the same question at that depth
 *   or less would fail again, so it is skipped.
 * - `move`: the action that gave the best lower bound, tried first next time.
 * - `work`: log2 of the nodes the entry cost, so replacement keeps costly ones.
 *
 * Entries live in flat typed arrays (24 bytes each), in buckets of two; each
 * keeps its whole state, so collisions are harmless. Results never depend on
 * the table's size, only speed does (every stored fact is proven).
 */
export class ProofTable {
  /** Entries in all. */
  readonly size: number;
  readonly #bucketMask: number;
  readonly #keys: Int32Array;
  /** 0: empty slot; else 1 + (lo + 1) * 3 + (hi + 1). */
  readonly #bounds: Uint8Array;
  /** Four bytes an entry: the failed depth of each question. */
  readonly #failed: Uint8Array;
  readonly #move: Int8Array;
  readonly #work: Uint8Array;

  /** A table of 2^bits entries (bits in 1..26; 24 bytes an entry). */
  constructor(bits: number = DEFAULT_TABLE_BITS) {
    if (!Number.isInteger(bits) || bits < 1 || bits > MAX_TABLE_BITS) {
      throw new RangeError(
        `table bits must be an integer in 1..${MAX_TABLE_BITS}, got ${String(bits)}`,
      );
    }
    this.size = 2 ** bits;
    this.#bucketMask = this.size / WAYS - 1;
    this.#keys = new Int32Array(this.size * KEY_WORDS);
    this.#bounds = new Uint8Array(this.size);
    this.#failed = new Uint8Array(this.size * QUESTIONS);
    this.#move = new Int8Array(this.size);
    this.#work = new Uint8Array(this.size);
  }

  /** Forgets everything. */
  clear(): void {
    this.#bounds.fill(0);
  }

  /** The slot holding the state at `words[at..at+3]` (hash from stateHash), or -1. */
  find(words: Int32Array, at: number, hash: number): number {
    let slot = (hash & this.#bucketMask) * WAYS;
    for (let way = 0; way < WAYS; way++, slot++) {
      if (this.#bounds[slot] !== 0 && this.#sameKey(slot, words, at)) return slot;
    }
    return -1;
  }

  #sameKey(slot: number, words: Int32Array, at: number): boolean {
    const k = slot * KEY_WORDS;
    const keys = this.#keys;
    return (
      keys[k] === words[at] &&
      keys[k + 1] === words[at + 1] &&
      keys[k + 2] === words[at + 2] &&
      keys[k + 3] === words[at + 3]
    );
  }

  /** Proven lower bound of the entry in `slot`. */
  lo(slot: number): number {
    return ((((this.#bounds[slot] as number) - 1) / 3) | 0) - 1;
  }

  /** Proven upper bound of the entry in `slot`. */
  hi(slot: number): number {
    return (((this.#bounds[slot] as number) - 1) % 3) - 1;
  }

  /** The deepest search that failed on `question` (see `question`; 0 if none). */
  failedDepth(slot: number, question: number): number {
    return this.#failed[slot * QUESTIONS + question] as number;
  }

  move(slot: number): number {
    return this.#move[slot] as number;
  }

  /**
   * Records proven bounds of a state, intersected with those known. Replaces
   * the bucket's cheaper entry when the state is new to the table. Returns the
   * slot, for `fail` and `setMove`.
   */
  store(words: Int32Array, at: number, hash: number, lo: number, hi: number, work: number): number {
    let slot = this.find(words, at, hash);
    if (slot >= 0) {
      const oldLo = this.lo(slot);
      const oldHi = this.hi(slot);
      if (oldLo > lo) lo = oldLo;
      if (oldHi < hi) hi = oldHi;
      if ((this.#work[slot] as number) < work) this.#work[slot] = work;
    } else {
      slot = this.#claim(hash, work);
      const k = slot * KEY_WORDS;
      this.#keys[k] = words[at] as number;
      this.#keys[k + 1] = words[at + 1] as number;
      this.#keys[k + 2] = words[at + 2] as number;
      this.#keys[k + 3] = words[at + 3] as number;
      const f = slot * QUESTIONS;
      this.#failed[f] = 0;
      this.#failed[f + 1] = 0;
      this.#failed[f + 2] = 0;
      this.#failed[f + 3] = 0;
      this.#move[slot] = -1;
      this.#work[slot] = work;
    }
    this.#bounds[slot] = 1 + (lo + 1) * 3 + (hi + 1);
    return slot;
  }

  /** Records that a search of `depth` plies failed on `question` (slot from `store`). */
  fail(slot: number, question: number, depth: number): void {
    const i = slot * QUESTIONS + question;
    if ((this.#failed[i] as number) < depth) this.#failed[i] = depth;
  }

  /** Records the action to try first in the state of `slot`. */
  setMove(slot: number, move: number): void {
    this.#move[slot] = move;
  }

  /** A slot of the hash's bucket for a new entry: the first way keeps the costlier entry. */
  #claim(hash: number, work: number): number {
    const first = (hash & this.#bucketMask) * WAYS;
    if (this.#bounds[first] === 0) return first;
    const second = first + 1;
    if (this.#bounds[second] === 0 || work < (this.#work[first] as number)) return second;
    this.#copy(first, second);
    return first;
  }

  #copy(from: number, to: number): void {
    const keys = this.#keys;
    const failed = this.#failed;
    for (let i = 0; i < KEY_WORDS; i++)
      keys[to * KEY_WORDS + i] = keys[from * KEY_WORDS + i] as number;
    for (let i = 0; i < QUESTIONS; i++)
      failed[to * QUESTIONS + i] = failed[from * QUESTIONS + i] as number;
    this.#bounds[to] = this.#bounds[from] as number;
    this.#move[to] = this.#move[from] as number;
    this.#work[to] = this.#work[from] as number;
  }
}
