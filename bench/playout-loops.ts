/**
 * The engine bench's two playout loops and their timing, over any engine with
 * the core's API (bench/against.ts runs an earlier commit's through them too;
 * it loads this module once per engine, so that each copy is compiled for one).
 */
import type * as Core from '../env/core.ts';
import type { Random } from '../env/random.ts';
import { DEFAULT_RULE_CODE, type RuleCode } from '../env/rule-code.ts';
import type { TimedRun } from './native-playouts.ts';

/** What the loops use of env/core.ts. */
export type PlayoutCore = Pick<
  typeof Core,
  'ACTIONS' | 'POPCOUNT' | 'STATE_SIZE' | 'expand' | 'finalScores' | 'nthAction' | 'setInitial'
>;

export interface PlayoutLoops {
  /**
   * One complete random game the way search walks the tree: each ply generates
   * every legal move at once with `expand` (all six children played into a
   * reused buffer) and continues from a uniformly chosen child. Returns the plies.
   */
  expandPlayout(
    state: Uint8Array,
    children: Uint8Array,
    status: Uint8Array,
    rng: Random,
    code: RuleCode,
  ): number;
  /**
   * Plays games from the start with `play` for `seconds` of wall time and counts
   * the CPU time they took (scoring them under the default rules).
   */
  timeGames(play: (state: Uint8Array) => number, seconds: number): TimedRun;
}

export function playoutLoops(core: PlayoutCore): PlayoutLoops {
  const { POPCOUNT, STATE_SIZE, expand, finalScores, nthAction, setInitial } = core;
  return {
    expandPlayout(state, children, status, rng, code) {
      let plies = 0;
      for (;;) {
        const mask = expand(state, code, children, status);
        if (mask === 0) return plies;
        const at = nthAction(mask, rng.int(POPCOUNT[mask] as number)) * STATE_SIZE;
        for (let k = 0; k < STATE_SIZE; k++) state[k] = children[at + k] as number;
        plies++;
      }
    },
    timeGames(play, seconds) {
      const state = new Uint8Array(STATE_SIZE);
      const scores = [0, 0];
      let games = 0;
      let plies = 0;
      const cpu = process.cpuUsage();
      const start = performance.now();
      while (performance.now() - start < seconds * 1000) {
        for (let i = 0; i < 500; i++) {
          setInitial(state);
          plies += play(state);
          // 0, which an engine from before rule codes reads as `false`: its default too.
          finalScores(state, 0, DEFAULT_RULE_CODE, scores);
          games++;
        }
      }
      const used = process.cpuUsage(cpu);
      return { games, plies, cpuMs: (used.user + used.system) / 1000 };
    },
  };
}
