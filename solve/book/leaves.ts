import { core } from '../../env/index.ts';
import type { EndgameValues } from '../endgame/build.ts';
import { Solver } from '../solver.ts';
import {
  type BookSettings,
  DEPTH_AT,
  KEY_BYTES,
  RECORD_BYTES,
  VALUE_AT,
  valueCode,
} from './format.ts';

const { ACTIONS } = core;

/**
 * Solves a book's leaves: every move's value with no budget, each leaf from
 * a cleared table of the book's size, so that a leaf's record (its proof
 * depths too) is the same whatever was solved before it: a book built in
 * any chunks, on any threads or queue workers, is the same to the byte.
 */
export class LeafSolver {
  readonly #solver: Solver;

  /** `endgame`: the table of `settings.endgameSeeds` seeds under its rules (null for 0 seeds). */
  constructor(settings: BookSettings, endgame: EndgameValues | null) {
    const seeds = endgame?.maxSeeds ?? 0;
    if (seeds !== settings.endgameSeeds) {
      throw new RangeError(
        `the book is solved with the endgame table of ${settings.endgameSeeds} seeds, got one of ${seeds}`,
      );
    }
    this.#solver = new Solver({ rules: settings.rules, tableBits: settings.tableBits, endgame });
  }

  /** The record of the leaf whose key (KEY_BYTES) starts `keys` at `at`. */
  solve(keys: Uint8Array, at = 0): Uint8Array {
    const record = new Uint8Array(RECORD_BYTES);
    record.set(keys.subarray(at, at + KEY_BYTES));
    this.#solver.clear();
    const result = this.#solver.solveState(record.subarray(0, KEY_BYTES), { moves: true });
    for (let a = 0; a < ACTIONS; a++) {
      if ((result.legalMask & (1 << a)) === 0) continue;
      record[VALUE_AT + a] = valueCode(result.moveLo[a] as number, result.moveHi[a] as number);
      record[DEPTH_AT + a] = result.moveDepth[a] as number;
    }
    return record;
  }

  /** The records of the leaves `keys` (KEY_BYTES each), in their order; `onLeaf` hears of each. */
  solveAll(keys: Uint8Array, onLeaf: () => void = () => {}): Uint8Array {
    const count = keys.length / KEY_BYTES;
    const out = new Uint8Array(count * RECORD_BYTES);
    for (let i = 0; i < count; i++) {
      out.set(this.solve(keys, i * KEY_BYTES), i * RECORD_BYTES);
      onLeaf();
    }
    return out;
  }
}
