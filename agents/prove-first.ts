import type { Position } from '../env/index.ts';
import type { Agent, AgentContext } from './agent.ts';
import { MinimaxSearch, PROVEN } from './minimax-search.ts';

/**
 * Alpha-beta first, for `proveMs`: when it proves the game's result (a forced
 * win, or a loss however long it is resisted), its move is played; otherwise
 * `inner` chooses. Alpha-beta reaches depth 15-20 in a few milliseconds and
 * proves endgames that a network-guided tree search resolves slowly.
 */
export class ProveFirstAgent implements Agent {
  readonly name: string;
  readonly #inner: Agent;
  readonly #proveMs: number;
  readonly #search: MinimaxSearch;
  /** Moves decided by a proof (for analysis). */
  proven = 0;

  constructor(
    inner: Agent,
    proveMs: number,
    options: { rules: AgentContext['rules']; name: string },
  ) {
    if (!(proveMs > 0 && Number.isFinite(proveMs))) {
      throw new RangeError(`the proving time must be a positive number of ms, got ${proveMs}`);
    }
    this.#inner = inner;
    this.#proveMs = proveMs;
    this.#search = new MinimaxSearch({ rules: options.rules });
    this.name = options.name;
  }

  newGame(): void {
    this.#inner.newGame?.();
  }

  act(position: Position, ctx: AgentContext): number | Promise<number> {
    if (ctx.legal.length === 1) return ctx.legal[0] as number;
    this.#search.useRules(ctx.rules);
    const result = this.#search.search(position.stateView, { timeMs: this.#proveMs });
    if (Math.abs(result.value) > PROVEN) {
      this.proven++;
      return ctx.rng.pick(result.bestActions);
    }
    return this.#inner.act(position, ctx);
  }

  close(): Promise<void> | void {
    return this.#inner.close?.();
  }
}
