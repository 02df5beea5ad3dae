/**
 * The classic one-player gym loop: the learner steps, and a given opponent
 * agent answers inside the same `step`. Agents may be asynchronous (external
 * engines), so `reset` and `step` return promises.
 */
import { type MoveReport, type Player, type Position, Random, type Rules } from '../index.ts';
import { AyoayoEnv, checkSeed, EpisodeStateError } from './ayoayo-env.ts';
import type { ObservationConfig } from './observation.ts';
import {
  type EnvOptions,
  EnvOptionsError,
  type EnvOptionsInput,
  type ResetOptionsInput,
} from './options.ts';
import type { BoxSpace, DiscreteSpace } from './spaces.ts';
import type { GymEnv, ResetArgs, ResetResult, StepInfo, StepResult } from './types.ts';

export type LearnerSeat = Player | 'random';

/**
 * What the environment needs of the player in the other seat. Declared here,
 * structurally, so that the environment depends on nothing above it: every
 * agent of `agents/` (the `Agent` interface) fits it as it is.
 */
export interface Opponent {
  /** Named in the error when it chooses an illegal action. */
  readonly name: string;
  /** An action among `ctx.legal`; may be asynchronous (external engines). */
  act(
    position: Position,
    ctx: { readonly legal: readonly number[]; readonly rng: Random; readonly rules: Rules },
  ): number | Promise<number>;
  /** Called at each reset, before the episode's first move. */
  newGame?(): void;
}

export interface SingleAgentEnvOptions extends EnvOptionsInput {
  /** Plays the other seat. */
  readonly opponent: Opponent;
  /** The learner's seat: 0 (moves first), 1, or 'random' (drawn per episode from the reset seed). Default 'random'. */
  readonly learnerSeat?: LearnerSeat;
}

export interface SingleAgentInfo extends StepInfo {
  /** The learner's seat in this episode; observations are always from this side. */
  readonly learner: Player;
  /** The learner's move in this step (null after reset or a forfeit). */
  readonly learnerMove: MoveReport | null;
  /** The opponent's answer in this step, or in reset when it moves first (null if it did not move). */
  readonly opponentMove: MoveReport | null;
}

/** Tries before reset gives up on a start where the opponent ends the game at once. */
const RESET_ATTEMPTS = 100;

/**
 * A single-agent view of `AyoayoEnv`. Rewards are the learner's (the learner's
 * move and the opponent's answer combined, so `info.rewards` stays zero-sum);
 * observations are always from the learner's side.
 */
export class SingleAgentEnv implements GymEnv<SingleAgentInfo> {
  readonly env: AyoayoEnv;
  readonly opponent: Opponent;
  readonly learnerSeat: LearnerSeat;
  readonly observationSpace: BoxSpace;
  readonly actionSpace: DiscreteSpace;

  #rng = Random.fromSeed(0);
  #opponentRng = Random.fromSeed(0);
  #learner: Player = 0;
  #busy = false;

  constructor(options: SingleAgentEnvOptions) {
    if (options === null || typeof options !== 'object') {
      throw new EnvOptionsError('invalid single-agent options: expected an object');
    }
    const { opponent, learnerSeat = 'random', ...envOptions } = options;
    if (opponent === null || typeof opponent !== 'object' || typeof opponent.act !== 'function') {
      throw new EnvOptionsError(
        'invalid single-agent options: opponent must be an agent (with act())',
      );
    }
    if (learnerSeat !== 0 && learnerSeat !== 1 && learnerSeat !== 'random') {
      throw new EnvOptionsError(
        `invalid single-agent options: learnerSeat must be 0, 1 or 'random', got ${String(learnerSeat)}`,
      );
    }
    this.env = new AyoayoEnv(envOptions);
    this.opponent = opponent;
    this.learnerSeat = learnerSeat;
    this.observationSpace = this.env.observationSpace;
    this.actionSpace = this.env.actionSpace;
  }

  get rules(): Rules {
    return this.env.rules;
  }

  get options(): EnvOptions {
    return this.env.options;
  }

  get observationConfig(): ObservationConfig {
    return this.env.observationConfig;
  }

  /**
   * Starts an episode: draws the learner's seat (if 'random'), resets the game
   * and lets the opponent move first when the learner has seat 1. A start where
   * the opponent's first move ends the game is redrawn (random openings), up to
   * 100 times. Shaping reward of an opponent move made here is not reported.
   */
  async reset(args: ResetArgs<ResetOptionsInput> = {}): Promise<ResetResult<SingleAgentInfo>> {
    const seed = checkSeed(args.seed);
    return this.#exclusive(async () => {
      if (seed !== undefined) this.#rng = Random.fromSeed(seed);
      this.#learner =
        this.learnerSeat === 'random' ? (this.#rng.int(2) as Player) : this.learnerSeat;
      this.#opponentRng = this.#rng.fork('opponent');
      const envSeed = this.#rng.nextUint32();
      this.opponent.newGame?.();
      for (let attempt = 0; attempt < RESET_ATTEMPTS; attempt++) {
        const first = this.env.reset({
          ...(attempt === 0 ? { seed: envSeed } : {}),
          ...(args.options === undefined ? {} : { options: args.options }),
        });
        if (first.info.toMove === this.#learner) {
          return { observation: first.observation, info: this.#info(first.info, null, null) };
        }
        const answer = await this.#opponentMove(first.info);
        if (!answer.terminated && !answer.truncated) {
          return {
            observation: answer.observation,
            info: {
              ...this.#info(answer.info, null, answer.info.lastMove),
              rewards: [0, 0],
            },
          };
        }
      }
      throw new EpisodeStateError(
        `the opponent ends the game with its first move from this start (${RESET_ATTEMPTS} draws tried)`,
      );
    });
  }

  /** Plays the learner's action, then the opponent's answer unless the episode ended. */
  async step(action: number): Promise<StepResult<SingleAgentInfo>> {
    return this.#exclusive(async () => {
      const mine = this.env.step(action);
      if (mine.terminated || mine.truncated) {
        return { ...mine, info: this.#info(mine.info, mine.info.lastMove, null) };
      }
      const theirs = await this.#opponentMove(mine.info);
      const reward = mine.reward - theirs.reward;
      const rewards: [number, number] = [
        (mine.info.rewards[0] as number) + (theirs.info.rewards[0] as number),
        (mine.info.rewards[1] as number) + (theirs.info.rewards[1] as number),
      ];
      return {
        observation: theirs.observation,
        reward,
        terminated: theirs.terminated,
        truncated: theirs.truncated,
        info: { ...this.#info(theirs.info, mine.info.lastMove, theirs.info.lastMove), rewards },
      };
    });
  }

  async #opponentMove(info: StepInfo): Promise<StepResult> {
    const action = await this.opponent.act(info.position, {
      legal: info.legalActions,
      rng: this.#opponentRng,
      rules: this.env.rules,
    });
    if (!info.legalActions.includes(action)) {
      throw new EpisodeStateError(
        `opponent ${this.opponent.name} chose illegal action ${String(action)}; legal actions: ${info.legalActions.join(', ')}`,
      );
    }
    return this.env.step(action);
  }

  #info(
    info: StepInfo,
    learnerMove: MoveReport | null,
    opponentMove: MoveReport | null,
  ): SingleAgentInfo {
    return { ...info, learner: this.#learner, learnerMove, opponentMove };
  }

  /** One reset or step at a time: a second call before the first settles is a usage error. */
  async #exclusive<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#busy) {
      throw new EpisodeStateError('reset()/step() called while the previous call is still running');
    }
    this.#busy = true;
    try {
      return await fn();
    } finally {
      this.#busy = false;
    }
  }
}
