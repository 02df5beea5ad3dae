/**
 * The engine's fast path, for search and self-play.
 *
 * A game state is a `Uint8Array(STATE_SIZE)`: pits 0..11 in sowing order, then the
 * two stores and the player to move. Everything here works in place on such
 * buffers and allocates nothing per move. The public, validated API
 * (`position`, `applyAction`, ...) is built on top of it in `game.ts`.
 * The rules come as one rule code (`ruleCode(rules)`, env/rule-code.ts),
 * computed once by the caller.
 */

import { LEFTOVER_TO_OWNER, type RuleCode, SEED_STAYS } from './rule-code.ts';

export const PITS = 12;
export const STORE_0 = 12;
export const STORE_1 = 13;
export const TO_MOVE = 14;
/** Bytes per state; 16 rather than 15 so that batches of states stay aligned. */
export const STATE_SIZE = 16;
export const ACTIONS = 6;
export const TOTAL_SEEDS = 48;
export const WINNING_STORE = 25;

/** Status codes of a move attempt, in the order the rules report them. */
export const OK = 0;
export const GAME_OVER = 1;
export const EMPTY_PIT = 2;
export const ENDLESS_RELAY = 3;
export const DOES_NOT_FEED = 4;
export type MoveStatus = 0 | 1 | 2 | 3 | 4;

/** Per-move facts, filled in by `playInPlace` when one is passed (reused, not allocated). */
export class MoveStats {
  laps = 0;
  seedsSown = 0;
  /** The pit where the last seed of the last lap landed. */
  endPit = -1;
  /** Seeds moved into the mover's store (the capturing seed included unless it stays). */
  captured = 0;
  /** The pit captured from, or -1. */
  capturedPit = -1;
}

/**
 * What each legal action did, filled in by `expand` when one is passed (reused,
 * not allocated): action a's facts at index a, meaningful where it was legal.
 */
export class ActionStats {
  readonly laps = new Uint32Array(ACTIONS);
  readonly seedsSown = new Uint32Array(ACTIONS);
  /** The pit where the last seed of the last lap landed. */
  readonly endPit = new Int8Array(ACTIONS);
  /** Seeds moved into the mover's store (the capturing seed included unless it stays). */
  readonly captured = new Uint8Array(ACTIONS);
  /** The pit captured from, or -1. */
  readonly capturedPit = new Int8Array(ACTIONS);
}

/** Called after each lap with the pit lifted, its seed count and where the lap ended. */
export type LapListener = (from: number, seeds: number, end: number, state: Uint8Array) => void;

/** True when the row starting at `base` (0 or 6) holds no seeds. */
export function rowIsEmpty(s: Uint8Array, base: number): boolean {
  return (
    ((s[base] as number) |
      (s[base + 1] as number) |
      (s[base + 2] as number) |
      (s[base + 3] as number) |
      (s[base + 4] as number) |
      (s[base + 5] as number)) ===
    0
  );
}

// The lap engine works on the board packed four pits a word, eight bits a pit
// (pit p in bits 8 * (p & 3) of word p >> 2). No pit ever holds more than 48
// seeds, so adding a lap's per-pit changes to the words never carries from one
// pit into the next: a whole lap, however many seeds, is three additions of
// precomputed words, and a board is saved and compared in three words. States
// must therefore hold 48 seeds in all, as every Position does.

/** Most seeds a pit can hold, rounded up to a power of two for the table index. */
const SEED_SLOTS = 64;

/**
 * LAP[((p * 64) + n) * 4 + k]: for a lap of n seeds lifted from pit p, the change
 * of word k (k < 3): p loses its n seeds, every other pit gains one seed per
 * whole round of 11 and the rest go one each to the pits after p; at k = 3 the
 * pit where the last seed lands.
 */
const LAP = new Int32Array(PITS * SEED_SLOTS * 4);

for (let p = 0; p < PITS; p++) {
  for (let n = 1; n <= TOTAL_SEEDS; n++) {
    const at = (p * SEED_SLOTS + n) * 4;
    const change = new Array<number>(PITS).fill(0);
    change[p] = -n;
    let end = p;
    for (let k = 0; k < n; k++) {
      end = (end + 1) % PITS;
      if (end === p) end = (end + 1) % PITS;
      change[end] = (change[end] as number) + 1;
    }
    change.forEach((c, q) => {
      const word = at + (q >> 2);
      LAP[word] = ((LAP[word] as number) + c * 2 ** (8 * (q & 3))) | 0;
    });
    LAP[at + 3] = end;
  }
}

/**
 * The board being played, as words and as the same bytes. In memory rather than
 * in variables: the relay loop has more live values than there are registers,
 * and a module-level typed array is the cheapest memory to spill to.
 */
const WORDS = new Int32Array(4);
const WORD_BYTES = new Uint8Array(WORDS.buffer);
/**
 * Pit p's byte in WORD_BYTES is p ^ PIT_BYTE: the words are laid out by
 * arithmetic (pit p in bits 8 * (p & 3)), the bytes by the platform's byte order.
 */
const PIT_BYTE = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1 ? 0 : 3;

/** Pits `at .. at + 3` of `s` as one word. */
function packWord(s: Uint8Array, at: number): number {
  return (
    (s[at] as number) |
    ((s[at + 1] as number) << 8) |
    ((s[at + 2] as number) << 16) |
    ((s[at + 3] as number) << 24)
  );
}

/**
 * Plays `action` for the player to move in the state at `src[srcAt ..]` and
 * writes the position it leads to at `dst[dstAt ..]` (which may be the same
 * bytes). Returns OK or why the move is illegal; an illegal move leaves `dst`
 * as it was (unless `onLap` is given: the laps played are written there).
 */
export function playFrom(
  src: Uint8Array,
  srcAt: number,
  dst: Uint8Array,
  dstAt: number,
  action: number,
  code: RuleCode,
  stats: MoveStats | null = null,
  onLap: LapListener | null = null,
): MoveStatus {
  const facts = stats === null ? null : ONE_MOVE;
  const status = playActions(src, srcAt, dst, dstAt, 0, action, action, code, null, facts, onLap);
  if (stats !== null && status === OK) {
    stats.laps = ONE_MOVE.laps[action] as number;
    stats.seedsSown = ONE_MOVE.seedsSown[action] as number;
    stats.endPit = ONE_MOVE.endPit[action] as number;
    stats.captured = ONE_MOVE.captured[action] as number;
    stats.capturedPit = ONE_MOVE.capturedPit[action] as number;
  }
  return status;
}

/** Where `playFrom` collects the facts of its one move for its MoveStats. */
const ONE_MOVE = new ActionStats();

// Literal numbers below rather than the module's constants: a module constant
// read inside a hot function costs a load and an initialisation check each time.
// The rule code's bits are such literals too: checked here, once.
if (SEED_STAYS !== 1 || LEFTOVER_TO_OWNER !== 2) {
  throw new Error('core.ts reads the rule code as bits 0 (SEED_STAYS) and 1 (LEFTOVER_TO_OWNER)');
}

/**
 * Plays actions `first..last` from the state at `src[srcAt ..]`, each from that
 * same position: action a's position goes to `dst[dstAt + (a - first) * dstStride ..]`
 * (unless `dst` is null: then only the statuses are wanted) and its status to
 * `status[a]` (when given). Returns the status of `last`.
 * One loop over the actions rather than a call each, so that `expand` reads and
 * packs the position once.
 */
function playActions(
  src: Uint8Array,
  srcAt: number,
  dst: Uint8Array | null,
  dstAt: number,
  dstStride: number,
  first: number,
  last: number,
  code: RuleCode,
  status: Uint8Array | null,
  stats: ActionStats | null,
  onLap: LapListener | null,
): MoveStatus {
  const mover = src[srcAt + 14] as number; // TO_MOVE
  const base = mover * 6;
  // `| 0` keeps the words int32: as they come, the compiler would keep them
  // tagged and check and untag them on every use.
  const board0 = packWord(src, srcAt) | 0;
  const board1 = packWord(src, srcAt + 4) | 0;
  const board2 = packWord(src, srcAt + 8) | 0;
  const store0 = src[srcAt + 12] as number;
  const store1 = src[srcAt + 13] as number;
  const pad = src[srcAt + 15] as number;
  const opponentWasEmpty =
    (mover === 0 ? (board1 >>> 16) | board2 : board0 | (board1 & 0xffff)) === 0;
  // -1 (all ones) where the capturing seed is captured too, 0 where it stays.
  const lastSeed = (code & 1) - 1; // SEED_STAYS
  // Locals rather than the module's arrays: a module binding is loaded and its
  // map checked again after every call the loop may make (onLap).
  const W = WORDS;
  const WB = WORD_BYTES;
  const L = LAP;
  const flip = PIT_BYTE;
  let result: MoveStatus = 0;

  actions: for (let action = first; action <= last; action++) {
    let pit = base + action;
    let seeds = src[srcAt + pit] as number;
    if (seeds === 0) {
      result = 2; // EMPTY_PIT
      if (status !== null) status[action] = result;
      continue;
    }
    W[0] = board0;
    W[1] = board1;
    W[2] = board2;

    // Brent's cycle detection over lap starts (the board and the pit lifted)
    // keeps one saved start, so memory stays constant however long a relay
    // runs, and a repeated lap start is found exactly. Laps = power + sinceSave.
    let saved0 = board0;
    let saved1 = board1;
    let saved2 = board2;
    let savedPit = pit;
    let power = 1;
    let sinceSave = 0;
    let sown = 0;
    let end: number;
    for (;;) {
      sown += seeds;
      const lap = ((pit << 6) | seeds) << 2;
      W[0] = ((W[0] as number) + (L[lap] as number)) | 0;
      W[1] = ((W[1] as number) + (L[lap + 1] as number)) | 0;
      W[2] = ((W[2] as number) + (L[lap + 2] as number)) | 0;
      end = L[lap + 3] as number;
      if (onLap !== null && dst !== null) {
        // The listener may play moves itself, which reuses WORDS.
        const w0 = W[0] as number;
        const w1 = W[1] as number;
        const w2 = W[2] as number;
        const out = dstAt + (action - first) * dstStride;
        writeBoard(dst, out, w0, w1, w2);
        onLap(pit, seeds, end, dst);
        W[0] = w0;
        W[1] = w1;
        W[2] = w2;
      }
      seeds = WB[end ^ flip] as number;
      if (seeds === 1) break;
      pit = end;
      if (pit === savedPit && W[0] === saved0 && W[1] === saved1 && W[2] === saved2) {
        result = 3; // ENDLESS_RELAY
        if (status !== null) status[action] = result;
        continue actions;
      }
      if (++sinceSave === power) {
        saved0 = W[0] as number;
        saved1 = W[1] as number;
        saved2 = W[2] as number;
        savedPit = pit;
        power <<= 1;
        sinceSave = 0;
      }
    }

    // The capture without branches, since whether it happens is close to a coin
    // toss: `capture` is all ones when the move ends in the mover's row facing seeds.
    const facing = 11 - end;
    const facingSeeds = WB[facing ^ flip] as number;
    const row = end - base;
    const capture = ~((row | (5 - row)) >> 31) & (-facingSeeds >> 31);
    WB[facing ^ flip] = facingSeeds & ~capture;
    WB[end ^ flip] = 1 + (lastSeed & capture);
    const b0 = W[0] as number;
    const b1 = W[1] as number;
    const b2 = W[2] as number;
    if (opponentWasEmpty && (mover === 0 ? (b1 >>> 16) | b2 : b0 | (b1 & 0xffff)) === 0) {
      result = 4; // DOES_NOT_FEED
      if (status !== null) status[action] = result;
      continue;
    }
    const captured = (facingSeeds - lastSeed) & capture;
    if (dst !== null) {
      const out = dstAt + (action - first) * dstStride;
      writeBoard(dst, out, b0, b1, b2);
      dst[out + 12] = store0 + (mover === 0 ? captured : 0);
      dst[out + 13] = store1 + (mover === 0 ? 0 : captured);
      dst[out + 14] = 1 - mover;
      dst[out + 15] = pad;
    }
    if (stats !== null) {
      stats.laps[action] = power + sinceSave;
      stats.seedsSown[action] = sown;
      stats.endPit[action] = end;
      stats.captured[action] = captured;
      stats.capturedPit[action] = facing | ~capture;
    }
    result = 0; // OK
    if (status !== null) status[action] = result;
  }
  return result;
}

/** Unpacks the board words into `dst[at .. at + 11]`. */
function writeBoard(dst: Uint8Array, at: number, b0: number, b1: number, b2: number): void {
  dst[at] = b0;
  dst[at + 1] = b0 >>> 8;
  dst[at + 2] = b0 >>> 16;
  dst[at + 3] = b0 >>> 24;
  dst[at + 4] = b1;
  dst[at + 5] = b1 >>> 8;
  dst[at + 6] = b1 >>> 16;
  dst[at + 7] = b1 >>> 24;
  dst[at + 8] = b2;
  dst[at + 9] = b2 >>> 8;
  dst[at + 10] = b2 >>> 16;
  dst[at + 11] = b2 >>> 24;
}

/** Bit a set where `status[a]` is OK. */
function okMask(status: Uint8Array): number {
  return (
    (((status[0] as number) - 1) >>> 31) |
    ((((status[1] as number) - 1) >>> 31) << 1) |
    ((((status[2] as number) - 1) >>> 31) << 2) |
    ((((status[3] as number) - 1) >>> 31) << 3) |
    ((((status[4] as number) - 1) >>> 31) << 4) |
    ((((status[5] as number) - 1) >>> 31) << 5)
  );
}

/**
 * Plays `action` for the player to move, in place. Returns OK or why the move is
 * illegal; an illegal move leaves the state as it was, unless `onLap` is given
 * (then the laps played before the move was found illegal are written there).
 */
export function playInPlace(
  s: Uint8Array,
  action: number,
  code: RuleCode,
  stats: MoveStats | null = null,
  onLap: LapListener | null = null,
): MoveStatus {
  return playFrom(s, 0, s, 0, action, code, stats, onLap);
}

/** True once a store holds 25 or more seeds (the game then ends at once). */
export function hasWinningStore(s: Uint8Array): boolean {
  return (s[12] as number) >= 25 || (s[13] as number) >= 25; // STORE_0, STORE_1, WINNING_STORE
}

/**
 * Plays `action` from `src` into `dst` (a state-sized view): on OK `dst` holds
 * the position after the move, otherwise it is left as it was.
 */
export function playInto(
  src: Uint8Array,
  dst: Uint8Array,
  action: number,
  code: RuleCode,
  stats: MoveStats | null = null,
): MoveStatus {
  if (hasWinningStore(src)) return GAME_OVER;
  return playFrom(src, 0, dst, 0, action, code, stats);
}

/**
 * Plays every action of the position into `children` (ACTIONS * STATE_SIZE bytes,
 * child a at offset a * STATE_SIZE) and writes each action's status; returns a
 * bit mask of the legal actions, and what each legal one did into `stats` when
 * given. This is legal-move generation and move making in one pass: search and
 * the environment's lookahead reuse the children.
 */
export function expand(
  s: Uint8Array,
  code: RuleCode,
  children: Uint8Array,
  status: Uint8Array,
  stats: ActionStats | null = null,
): number {
  if (hasWinningStore(s)) {
    status.fill(1); // GAME_OVER
    return 0;
  }
  playActions(s, 0, children, 0, 16, 0, 5, code, status, stats, null);
  return okMask(status);
}

const probeStatus = new Uint8Array(ACTIONS);

/** Bit mask of the legal actions (0 when the game is over). */
export function legalMask(s: Uint8Array, code: RuleCode): number {
  if (hasWinningStore(s)) return 0;
  playActions(s, 0, null, 0, 0, 0, 5, code, probeStatus, null, null);
  return okMask(probeStatus);
}

/**
 * What playing `action` in `s` would give (OK or why it is illegal), without
 * writing the position anywhere. `s` must not hold a winning store.
 */
export function moveStatus(s: Uint8Array, action: number, code: RuleCode): MoveStatus {
  return playActions(s, 0, null, 0, 0, action, action, code, null, null, null);
}

/**
 * Bit mask of the actions whose pit holds seeds (bit a for action a): the
 * candidates for a move, before the relay and feeding rules are checked.
 */
export function occupiedMask(s: Uint8Array): number {
  const base = (s[14] as number) * 6; // TO_MOVE
  // (seeds + 63) >> 6 is 1 for 1..48 seeds and 0 for none: no branch per pit.
  return (
    (((s[base] as number) + 63) >> 6) |
    ((((s[base + 1] as number) + 63) >> 6) << 1) |
    ((((s[base + 2] as number) + 63) >> 6) << 2) |
    ((((s[base + 3] as number) + 63) >> 6) << 3) |
    ((((s[base + 4] as number) + 63) >> 6) << 4) |
    ((((s[base + 5] as number) + 63) >> 6) << 5)
  );
}

/**
 * Final scores of a finished game, into `scores` (length 2). `mask` is the
 * position's legal mask (0 when finished). Returns false while the game goes on.
 */
export function finalScores(
  s: Uint8Array,
  mask: number,
  code: RuleCode,
  scores: Int32Array | number[],
): boolean {
  const s0 = s[STORE_0] as number;
  const s1 = s[STORE_1] as number;
  if (s0 >= WINNING_STORE || s1 >= WINNING_STORE) {
    scores[0] = s0;
    scores[1] = s1;
    return true;
  }
  if (mask !== 0) return false;
  let row0 = 0;
  let row1 = 0;
  for (let i = 0; i < 6; i++) {
    row0 += s[i] as number;
    row1 += s[i + 6] as number;
  }
  if ((code & 2) !== 0) {
    // LEFTOVER_TO_OWNER: each player takes the seeds of their own row.
    scores[0] = s0 + row0;
    scores[1] = s1 + row1;
  } else if (s[TO_MOVE] === 0) {
    // The player who cannot move (0) gets nothing; the last mover takes the board.
    scores[0] = s0;
    scores[1] = s1 + row0 + row1;
  } else {
    scores[0] = s0 + row0 + row1;
    scores[1] = s1;
  }
  return true;
}

/** Writes the start position into `s`. */
export function setInitial(s: Uint8Array): Uint8Array {
  s.fill(0);
  for (let i = 0; i < PITS; i++) s[i] = 4;
  return s;
}

/** Counts of bits set in a 6-bit mask, for picking among legal actions. */
export const POPCOUNT: Uint8Array = Uint8Array.from({ length: 64 }, (_, m) => {
  let c = 0;
  for (let x = m; x !== 0; x &= x - 1) c++;
  return c;
});

/** NTH[mask * 8 + k]: the k-th set bit of a 6-bit mask, -1 past the last. */
const NTH: Int8Array = Int8Array.from({ length: 64 * 8 }, (_, i) => {
  let m = i >> 3;
  for (let k = i & 7; k > 0; k--) m &= m - 1;
  return 31 - Math.clz32(m & -m);
});

/** The index of the k-th set bit of a 6-bit mask (k from 0), -1 when there is none. */
export function nthAction(mask: number, k: number): number {
  // A table rather than a loop over the bits: that loop's exit is a branch the
  // processor mispredicts about every other call.
  return mask >>> 6 === 0 && k >>> 3 === 0 ? (NTH[(mask << 3) | k] as number) : -1;
}
