import type { Agent } from '../agents/agent.ts';
import {
  applyAction,
  legalActions,
  outcome,
  type Position,
  type Random,
  type Rules,
} from '../env/index.ts';

/** Plies after which an unfinished game is stopped and scored as a draw. */
export const DEFAULT_MAX_PLIES = 500;

/** How one game went, by seat (player 0 moves first from the start). */
export interface GameResult {
  /** Final seeds [player 0, player 1]; the stores at the moment of a forfeit or the ply cap. */
  readonly scores: readonly [number, number];
  /** The winning seat, or null for a draw. */
  readonly winner: 0 | 1 | null;
  /** Plies in the whole game, the opening's included. */
  readonly plies: number;
  readonly seconds: number;
  /** Set when a seat could not give a legal move: who, and why. That seat loses. */
  readonly forfeit: { readonly seat: 0 | 1; readonly reason: string } | null;
  /** The game reached the ply cap and was scored as a draw. */
  readonly truncated: boolean;
  /**
   * The agents' actions in order, from the position they took over at (after
   * the opening): the game's moves, for a review (an answer that forfeited is
   * not among them).
   */
  readonly actions: readonly number[];
}

export interface GameSetup {
  /** The agents by seat: [player 0, player 1]. */
  readonly players: readonly [Agent, Agent];
  /** Where the agents take over (after the opening). */
  readonly start: Position;
  /** Plies already played to reach `start`. */
  readonly openingPlies: number;
  readonly rules: Rules;
  /** Each seat's generator for this game. */
  readonly rngs: readonly [Random, Random];
  readonly maxPlies?: number;
}

/**
 * Plays one game between two agents. An agent that throws or answers an action
 * that is not legal forfeits (loses) the game; the reason is recorded and play
 * goes on with the next game.
 */
export async function playGame(setup: GameSetup): Promise<GameResult> {
  const started = performance.now();
  const maxPlies = setup.maxPlies ?? DEFAULT_MAX_PLIES;
  const { players, rules, rngs } = setup;
  for (const agent of players) agent.newGame?.();
  let position = setup.start;
  let plies = setup.openingPlies;
  const actions: number[] = [];
  const done = (rest: Omit<GameResult, 'plies' | 'seconds' | 'actions'>): GameResult => ({
    ...rest,
    plies,
    seconds: (performance.now() - started) / 1000,
    actions,
  });
  for (;;) {
    const end = outcome(position, rules);
    if (end !== null) {
      return done({ scores: end.scores, winner: end.winner, forfeit: null, truncated: false });
    }
    if (plies >= maxPlies) {
      return done({ scores: position.stores, winner: null, forfeit: null, truncated: true });
    }
    const seat = position.toMove;
    const agent = players[seat];
    const legal = legalActions(position, rules);
    let action: number;
    try {
      action = await agent.act(position, { legal, rng: rngs[seat], rules });
    } catch (err) {
      const reason = `${agent.name}: ${err instanceof Error ? err.message : String(err)}`;
      return done({
        scores: position.stores,
        winner: seat === 0 ? 1 : 0,
        forfeit: { seat, reason },
        truncated: false,
      });
    }
    if (!legal.includes(action)) {
      const reason = `${agent.name}: chose illegal action ${String(action)}; legal actions: ${legal.join(', ')}`;
      return done({
        scores: position.stores,
        winner: seat === 0 ? 1 : 0,
        forfeit: { seat, reason },
        truncated: false,
      });
    }
    position = applyAction(position, action, rules);
    actions.push(action);
    plies++;
  }
}
