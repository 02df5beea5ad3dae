/**
 * The two-player, turn-based environment in Gymnasium form (PettingZoo's
 * classic games keep one environment for both players the same way): every
 * observation is from the side of the player to move, and each step's reward is
 * for the player who chose the action.
 */
import {
  core,
  IllegalActionError,
  type IllegalReason,
  illegalReason,
  type MoveReport,
  maskActions,
  maskToBytes,
  type Player,
  type Position,
  type PositionInput,
  positionFromState,
  Random,
  type RuleCode,
  type Rules,
  ruleCode,
  SEED_RANGE,
} from '../index.ts';
import { type ObservationConfig, ObservationEncoder, STORE_SCALE } from './observation.ts';
import { OpeningSampler } from './opening.ts';
import {
  type EnvOptions,
  EnvOptionsError,
  type EnvOptionsInput,
  parseOptions,
  type ResetOptionsInput,
  resetOptionsSchema,
  resolveEnvOptions,
  resolveStartPosition,
} from './options.ts';
import { actionSpace, type BoxSpace, type DiscreteSpace, observationSpace } from './spaces.ts';
import type {
  EpisodeOutcome,
  GymEnv,
  ResetArgs,
  ResetResult,
  StepInfo,
  StepResult,
} from './types.ts';

const { ACTIONS, STATE_SIZE, STORE_0, TO_MOVE, finalScores, setInitial } = core;

/** Thrown by `step` before the first `reset` or after the episode has ended. */
export class EpisodeStateError extends Error {
  override name = 'EpisodeStateError';
}

/** Validates a reset seed: a safe integer, each of which has a stream of its own. */
export function checkSeed(seed: unknown): number | undefined {
  if (seed === undefined) return undefined;
  if (typeof seed !== 'number' || !Number.isSafeInteger(seed)) {
    throw new EnvOptionsError(`invalid seed: expected ${SEED_RANGE}, got ${String(seed)}`);
  }
  return seed;
}

/** Bit mask to the `actionMask` / `legalActions` pair of `info`. */
export function maskToInfo(mask: number): { actionMask: Uint8Array; legalActions: number[] } {
  return {
    actionMask: maskToBytes(mask, new Uint8Array(ACTIONS)),
    legalActions: maskActions(mask),
  };
}

/**
 * Ayoayo for two players taking turns. `reset()` then `step(action)` until
 * `terminated` or `truncated`. See docs/environment.md for
 * the observation features, rewards, masks and truncation.
 */
export class AyoayoEnv implements GymEnv {
  readonly options: EnvOptions;
  readonly rules: Rules;
  readonly observationConfig: ObservationConfig;
  readonly observationSpace: BoxSpace;
  readonly actionSpace: DiscreteSpace;

  readonly #encoder: ObservationEncoder;
  readonly #opening: OpeningSampler;
  readonly #start = new Uint8Array(STATE_SIZE);
  readonly #state = new Uint8Array(STATE_SIZE);
  readonly #scores = new Int32Array(2);
  readonly #ruleCode: RuleCode;
  #rng = Random.fromSeed(0);
  #mask = 0;
  #plies = 0;
  #phase: 'before-reset' | 'running' | 'ended' = 'before-reset';

  constructor(options?: EnvOptionsInput) {
    this.options = resolveEnvOptions(options);
    this.rules = this.options.rules;
    this.#ruleCode = ruleCode(this.rules);
    this.observationConfig = this.options.observation;
    this.observationSpace = observationSpace(this.observationConfig);
    this.actionSpace = actionSpace(this.observationConfig);
    this.#encoder = new ObservationEncoder(this.observationConfig, this.rules);
    this.#opening = new OpeningSampler(this.rules);
    if (this.options.startPosition) this.#start.set(this.options.startPosition.toState());
    else setInitial(this.#start);
  }

  /** The current position. */
  get position(): Position {
    return positionFromState(this.#state);
  }

  /** True between an ending step and the next reset. */
  get done(): boolean {
    return this.#phase === 'ended';
  }

  /**
   * Starts an episode. A `seed` reseeds the environment's generator (used for
   * random opening plies); `options` may override `startPosition` and
   * `randomOpeningPlies` for this episode.
   */
  reset(args: ResetArgs<ResetOptionsInput> = {}): ResetResult {
    const seed = checkSeed(args.seed);
    const overrides = parseOptions(resetOptionsSchema, args.options, 'reset options');
    if (seed !== undefined) this.#rng = Random.fromSeed(seed);
    const start =
      overrides.startPosition === undefined
        ? this.#start
        : (
            resolveStartPosition(
              overrides.startPosition as string | PositionInput,
              this.rules,
            ) as Position
          ).toState();
    const plies = overrides.randomOpeningPlies ?? this.options.randomOpeningPlies;
    this.#opening.draw(this.#state, start, plies, this.#rng);
    this.#plies = 0;
    this.#phase = 'running';
    const observation = new Float32Array(this.#encoder.size);
    this.#mask = this.#encoder.encode(this.#state, observation, 0);
    return {
      observation,
      info: this.#info(this.#mask, null, [0, 0], null),
    };
  }

  /**
   * Plays `action` (0..5 from the mover's side) for the player to move. The
   * reward is for that player: +1 / -1 / 0 when the move ends the game, plus
   * `captureReward` * captured / 24. Illegal actions throw IllegalActionError
   * naming the legal ones (or, with illegalAction 'lose', forfeit the game).
   */
  step(action: number): StepResult {
    if (this.#phase !== 'running') {
      throw new EpisodeStateError(
        this.#phase === 'before-reset'
          ? 'step() called before reset()'
          : 'step() called after the episode ended (terminated or truncated); call reset() first',
      );
    }
    const legal = maskToInfo(this.#mask).legalActions;
    if (
      typeof action !== 'number' ||
      !Number.isInteger(action) ||
      action < 0 ||
      action >= ACTIONS
    ) {
      throw new IllegalActionError(action, 'not-an-action', legal);
    }
    if ((this.#mask & (1 << action)) === 0) {
      const reason = illegalReason(this.position, action, this.rules) ?? 'empty-pit';
      if (this.options.illegalAction === 'error')
        throw new IllegalActionError(action, reason, legal);
      return this.#forfeit(action, reason);
    }

    const enc = this.#encoder;
    const mover = this.#state[TO_MOVE] as Player;
    const report: MoveReport = {
      player: mover,
      action,
      pit: mover * 6 + action,
      laps: enc.laps[action] as number,
      seedsSown: enc.seedsSown[action] as number,
      endPit: enc.endPit[action] as number,
      captured: enc.captured[action] as number,
      capturedFrom:
        (enc.capturedPit[action] as number) >= 0 ? (enc.capturedPit[action] as number) : null,
    };
    this.#state.set(enc.children.subarray(action * STATE_SIZE, (action + 1) * STATE_SIZE));
    this.#plies++;

    const observation = new Float32Array(enc.size);
    const mask = enc.encode(this.#state, observation, 0);
    this.#mask = mask;
    let reward = (this.options.captureReward * report.captured) / STORE_SCALE;
    let outcome: EpisodeOutcome | null = null;
    const terminated = mask === 0;
    if (terminated) {
      const scores = this.#scores;
      finalScores(this.#state, 0, this.#ruleCode, scores);
      const s0 = scores[0] as number;
      const s1 = scores[1] as number;
      const winner: Player | null = s0 > s1 ? 0 : s1 > s0 ? 1 : null;
      outcome = { scores: [s0, s1], winner, reason: 'game-over' };
      reward += winner === null ? 0 : winner === mover ? 1 : -1;
    }
    const truncated = !terminated && this.#plies >= this.options.maxPlies;
    if (terminated || truncated) this.#phase = 'ended';
    const rewards = pairFor(mover, reward);
    return {
      observation,
      reward,
      terminated,
      truncated,
      info: this.#info(mask, report, rewards, outcome),
    };
  }

  /** illegalAction 'lose': the mover loses at once; the board is left as it was. */
  #forfeit(action: number, reason: IllegalReason): StepResult {
    const mover = this.#state[TO_MOVE] as Player;
    this.#phase = 'ended';
    this.#mask = 0;
    const observation = new Float32Array(this.#encoder.size);
    // The observation of the unchanged position; only the mask says the game is over.
    this.#encoder.encode(this.#state, observation, 0);
    const outcome: EpisodeOutcome = {
      scores: [this.#state[STORE_0] as number, this.#state[STORE_0 + 1] as number],
      winner: (1 - mover) as Player,
      reason: 'illegal-action',
    };
    const info: StepInfo = {
      ...this.#info(0, null, pairFor(mover, -1), outcome),
      illegalAction: { action, reason },
    };
    return { observation, reward: -1, terminated: true, truncated: false, info };
  }

  #info(
    mask: number,
    lastMove: MoveReport | null,
    rewards: readonly [number, number],
    outcome: EpisodeOutcome | null,
  ): StepInfo {
    return {
      toMove: this.#state[TO_MOVE] as Player,
      position: this.position,
      ...maskToInfo(mask),
      lastMove,
      rewards,
      plies: this.#plies,
      outcome,
    };
  }
}

/** The zero-sum pair [r0, r1] in which `player` gets `reward`. */
export function pairFor(player: Player, reward: number): [number, number] {
  const other = 0 - reward;
  return player === 0 ? [reward, other] : [other, reward];
}
