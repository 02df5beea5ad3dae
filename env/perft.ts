import { ACTIONS, expand, STATE_SIZE } from './core.ts';
import type { Position } from './position.ts';
import { ruleCode } from './rule-code.ts';
import { type RulesInput, resolveRules } from './rules.ts';

/**
 * Leaf count at `depth` plies: positions reached by every sequence of exactly
 * `depth` legal actions (a game that ends sooner contributes nothing at that
 * depth). Pins the engine's behaviour while it is optimised.
 */
export function perft(pos: Position, depth: number, rules?: RulesInput): number {
  const code = ruleCode(resolveRules(rules));
  const buffers = Array.from({ length: depth + 1 }, () => new Uint8Array(ACTIONS * STATE_SIZE));
  const status = Array.from({ length: depth + 1 }, () => new Uint8Array(ACTIONS));
  const walk = (state: Uint8Array, left: number): number => {
    if (left === 0) return 1;
    const children = buffers[left] as Uint8Array;
    const mask = expand(state, code, children, status[left] as Uint8Array);
    let total = 0;
    for (let a = 0; a < ACTIONS; a++) {
      if (mask & (1 << a)) {
        total += walk(children.subarray(a * STATE_SIZE, (a + 1) * STATE_SIZE), left - 1);
      }
    }
    return total;
  };
  return walk(pos.toState(), depth);
}
