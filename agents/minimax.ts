import type { Position, Rules } from '../env/index.ts';
import type { Agent, AgentContext } from './agent.ts';
import { type LeafEvaluator, MinimaxSearch, type SearchResult } from './minimax-search.ts';

export interface MinimaxAgentOptions {
  readonly rules: Rules;
  /** Plies to search; exclusive with `timeMs`. */
  readonly depth?: number;
  /** Milliseconds per move (iterative deepening until time runs out). */
  readonly timeMs?: number;
  /** log2 of the transposition table size; 0 disables the table. */
  readonly ttBits?: number;
  /** The horizon's evaluation (default: the store difference). */
  readonly leaf?: LeafEvaluator;
  readonly name?: string;
  /** Called when the agent is closed (e.g. to release the leaf network's session). */
  readonly onClose?: () => void;
}

/**
 * Alpha-beta search to a fixed depth or for a fixed time (see MinimaxSearch).
 * Among root actions of exactly equal value it picks with the game's generator,
 * so two minimax agents do not replay one game forever.
 */
export class MinimaxAgent implements Agent {
  readonly name: string;
  readonly #search: MinimaxSearch;
  readonly #limits: { depth?: number; timeMs?: number };
  readonly #onClose: (() => void) | undefined;
  /** The last search made (for benchmarks and the CLI). */
  lastSearch: SearchResult | null = null;

  constructor(options: MinimaxAgentOptions) {
    const { depth, timeMs } = options;
    if ((depth === undefined) === (timeMs === undefined)) {
      throw new RangeError('minimax needs exactly one of depth and timeMs');
    }
    if (timeMs !== undefined && !(timeMs > 0 && Number.isFinite(timeMs))) {
      throw new RangeError(`minimax time must be a positive number of milliseconds, got ${timeMs}`);
    }
    this.#limits = depth !== undefined ? { depth } : { timeMs: timeMs as number };
    this.#search = new MinimaxSearch({
      rules: options.rules,
      ...(options.ttBits !== undefined ? { ttBits: options.ttBits } : {}),
      ...(options.leaf !== undefined ? { leaf: options.leaf } : {}),
    });
    this.name =
      options.name ?? (depth !== undefined ? `minimax:${depth}` : `minimax:t=${timeMs}ms`);
    this.#onClose = options.onClose;
  }

  close(): void {
    this.#onClose?.();
  }

  act(position: Position, ctx: AgentContext): number {
    if (ctx.legal.length === 1) return ctx.legal[0] as number;
    this.#search.useRules(ctx.rules);
    const result = this.#search.search(position.stateView, this.#limits);
    this.lastSearch = result;
    return ctx.rng.pick(result.bestActions);
  }
}
