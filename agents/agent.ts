import type { Position } from '../env/position.ts';
import type { Random } from '../env/random.ts';
import type { Rules } from '../env/rules.ts';

/** What an agent has at hand when it chooses a move. */
export interface AgentContext {
  /** The legal actions of the position, ascending (never empty when asked). */
  readonly legal: readonly number[];
  /** A seeded generator owned by the game being played; the agent's only randomness. */
  readonly rng: Random;
  readonly rules: Rules;
}

/**
 * Anything that plays Ayoayo: baselines, search, trained policies, external
 * engines. Evaluation and play depend only on this interface.
 */
export interface Agent {
  /** The spec it was made from, e.g. `minimax:4` (used in tables and CSVs). */
  readonly name: string;
  /** An action among `ctx.legal`; may be asynchronous (external engines). */
  act(position: Position, ctx: AgentContext): number | Promise<number>;
  /**
   * The agent's own estimate of the position's value for the player to move,
   * in [-1, 1] (+1: a win), without a search: a network's value head. Agents
   * with nothing of the kind leave it out. The accuracy benchmark compares
   * its sign with the exact value (eval/accuracy/).
   */
  estimateValue?(position: Position, rules: Rules): number;
  /** Called before each new game (e.g. to clear per-game caches). */
  newGame?(): void;
  /** Frees processes, workers or memory held by the agent. */
  close?(): Promise<void> | void;
}
