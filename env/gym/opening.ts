/** Seeded random openings for diversified episode starts, allocation-free. */
import { core, type Random, type RuleCode, type Rules, ruleCode } from '../index.ts';
import { hasLegalMove } from './fast.ts';

const { ACTIONS, OK, POPCOUNT, STATE_SIZE, TO_MOVE, hasWinningStore, nthAction, playInPlace } =
  core;

/**
 * Plays random opening plies. Each ply is uniform among the legal actions
 * after which the game goes on, so an opening never ends the game; if every
 * legal action would end it, the opening stops early there.
 */
export class OpeningSampler {
  readonly #children = new Uint8Array(ACTIONS * STATE_SIZE);
  readonly #views: Uint8Array[];
  readonly #ruleCode: RuleCode;

  constructor(rules: Rules) {
    this.#ruleCode = ruleCode(rules);
    this.#views = Array.from({ length: ACTIONS }, (_, a) =>
      this.#children.subarray(a * STATE_SIZE, (a + 1) * STATE_SIZE),
    );
  }

  /**
   * Copies `start` into `out`, then plays up to `plies` random plies there with
   * `rng` (drawing nothing when `plies` is 0). Returns the plies played.
   */
  draw(out: Uint8Array, start: Uint8Array, plies: number, rng: Random): number {
    out.set(start);
    const code = this.#ruleCode;
    for (let ply = 0; ply < plies; ply++) {
      if (hasWinningStore(out)) return ply;
      const own = (out[TO_MOVE] as number) * 6;
      let goesOn = 0;
      for (let a = 0; a < ACTIONS; a++) {
        if (out[own + a] === 0) continue;
        const child = this.#views[a] as Uint8Array;
        child.set(out);
        if (playInPlace(child, a, code) !== OK) continue;
        if (!hasWinningStore(child) && hasLegalMove(child, code)) goesOn |= 1 << a;
      }
      if (goesOn === 0) return ply;
      const action = nthAction(goesOn, rng.int(POPCOUNT[goesOn] as number));
      out.set(this.#views[action] as Uint8Array);
    }
    return plies;
  }
}
