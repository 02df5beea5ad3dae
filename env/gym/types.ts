/** The shapes that the environments hand out (Gymnasium's reset/step, in TypeScript). */
import type { IllegalReason, MoveReport, Player, Position } from '../index.ts';
import type { BoxSpace, DiscreteSpace } from './spaces.ts';

/** How an episode ended (absent while it goes on and when it is truncated). */
export interface EpisodeOutcome {
  /**
   * Final [player 0, player 1] seeds: after the end-of-game sweep when the game
   * was played out; the stores as they stood when an illegal action forfeited.
   */
  readonly scores: readonly [number, number];
  /** The winning player, or null for a 24-24 draw. */
  readonly winner: Player | null;
  /** 'game-over': played to the end; 'illegal-action': forfeited (illegalAction: 'lose'). */
  readonly reason: 'game-over' | 'illegal-action';
}

/** `info` of `reset` and `step`. */
export interface StepInfo {
  /** The player whose side the observation is from (at the end: who would move next). */
  readonly toMove: Player;
  /** The current position. */
  readonly position: Position;
  /**
   * 1 where the action is legal. All zeros once the game is over (terminated);
   * at truncation the position is unfinished and the mask shows its legal
   * actions, though stepping is an error.
   */
  readonly actionMask: Uint8Array;
  /** The legal actions as a list, ascending (empty when terminated). */
  readonly legalActions: number[];
  /** The engine's report of the move this step played (null after reset or a forfeit). */
  readonly lastMove: MoveReport | null;
  /** This step's rewards for [player 0, player 1]; they always sum to 0. */
  readonly rewards: readonly [number, number];
  /** Plies played in this episode so far (random opening plies not counted). */
  readonly plies: number;
  /** Set when the episode terminated; null while it goes on and when truncated. */
  readonly outcome: EpisodeOutcome | null;
  /** Set when an illegal action forfeited the game (illegalAction: 'lose'). */
  readonly illegalAction?: { readonly action: number; readonly reason: IllegalReason };
}

export interface ResetResult<I extends StepInfo = StepInfo> {
  readonly observation: Float32Array;
  readonly info: I;
}

export interface StepResult<I extends StepInfo = StepInfo> {
  readonly observation: Float32Array;
  /** Reward for the player who chose the action. */
  readonly reward: number;
  /** The game is over (played out, or forfeited by an illegal action). */
  readonly terminated: boolean;
  /** The move cap ended the episode; never true together with `terminated`. */
  readonly truncated: boolean;
  readonly info: I;
}

/** What reset() accepts. */
export interface ResetArgs<O> {
  /** Seeds the episode's randomness; without it the environment's generator goes on. */
  readonly seed?: number;
  readonly options?: O;
}

/** Anything with Gymnasium's single-environment interface (step may be async). */
export interface GymEnv<I extends StepInfo = StepInfo> {
  readonly observationSpace: BoxSpace;
  readonly actionSpace: DiscreteSpace;
  reset(args?: ResetArgs<unknown>): ResetResult<I> | Promise<ResetResult<I>>;
  step(action: number): StepResult<I> | Promise<StepResult<I>>;
}
