/**
 * N environments in lockstep for batched inference. All results live in
 * typed arrays that are allocated once and rewritten by every `reset` and
 * `step`, so a rollout loop allocates nothing per step.
 *
 * Auto-reset follows the "same-step" convention of Stable-Baselines3 and
 * Gymnasium's SAME_STEP mode: when env i's episode ends during `step`,
 * `rewards[i]`, `terminated[i]`, `truncated[i]`, `finalScores` and
 * `episodePlies[i]` describe the finished episode, while `observations`,
 * `masks`, `toMove` and `states` already hold the first observation of the
 * next episode. The finished episode's last observation is not kept.
 */
import * as z from 'zod';
import {
  core,
  IllegalActionError,
  illegalReason,
  maskActions,
  maskToBytes,
  positionFromState,
  Random,
  type RuleCode,
  type Rules,
  ruleCode,
} from '../index.ts';
import { checkSeed } from './ayoayo-env.ts';
import { type ObservationConfig, ObservationEncoder, STORE_SCALE } from './observation.ts';
import { OpeningSampler } from './opening.ts';
import { type EnvOptions, envOptionsSchema, parseOptions, resolveEnvOptions } from './options.ts';
import { actionSpace, type BoxSpace, type DiscreteSpace, observationSpace } from './spaces.ts';

const { ACTIONS, STATE_SIZE, STORE_0, TO_MOVE, finalScores, setInitial } = core;
const CHILDREN_SIZE = ACTIONS * STATE_SIZE;

/** Options of `VectorEnv`: those of `AyoayoEnv` (illegal actions always throw) plus these two. */
export const vectorEnvOptionsSchema = envOptionsSchema
  .omit({ illegalAction: true })
  .extend({
    numEnvs: z
      .number()
      .int('numEnvs must be an integer')
      .min(1, 'numEnvs must be at least 1')
      .max(1 << 20, 'numEnvs must be at most 1048576')
      .describe('environments stepped together'),
    seed: z
      .number()
      .int('seed must be an integer')
      .default(0)
      .describe('seeds every environment (env i gets its own stream)'),
  })
  .strict();
export type VectorEnvOptionsInput = z.input<typeof vectorEnvOptionsSchema>;

/** An illegal action in one of the environments of a VectorEnv. */
export class VectorActionError extends IllegalActionError {
  override name = 'VectorActionError';
  constructor(
    readonly envIndex: number,
    action: unknown,
    reason: IllegalActionError['reason'],
    legal: readonly number[],
  ) {
    super(action, reason, legal);
    this.message = `env ${envIndex}: ${this.message}`;
  }
}

/** N Ayoayo environments stepped together; see the module comment for auto-reset. */
export class VectorEnv {
  readonly numEnvs: number;
  readonly obsSize: number;
  readonly options: EnvOptions;
  readonly rules: Rules;
  readonly observationConfig: ObservationConfig;
  /** The space of one environment's observation. */
  readonly observationSpace: BoxSpace;
  readonly actionSpace: DiscreteSpace;

  /** N x obsSize: env i's current observation at i * obsSize, from the side of `toMove[i]`. */
  readonly observations: Float32Array;
  /** N x 6: 1 where the action is legal in env i's current position (never all zero). */
  readonly masks: Uint8Array;
  /** The player to move in env i's current observation. */
  readonly toMove: Uint8Array;
  /** N x 16: env i's current engine state (read-only for callers; see `positionFromState`). */
  readonly states: Uint8Array;
  /** Reward of the last step for the player who moved in env i (`movers[i]`); the other player's is its negation. */
  readonly rewards: Float32Array;
  /** 1 where env i's episode ended this step because the game is over. */
  readonly terminated: Uint8Array;
  /** 1 where env i's episode was cut by maxPlies this step (never together with terminated). */
  readonly truncated: Uint8Array;
  /** The player who moved in env i in the last step. */
  readonly movers: Uint8Array;
  /**
   * N x 2 [player 0, player 1], valid where an episode ended this step: final
   * scores after the sweep when terminated, the stores as they stood when truncated.
   */
  readonly finalScores: Int16Array;
  /** Plies of env i's current episode; where an episode ended this step, its length. */
  readonly episodePlies: Uint16Array;

  readonly #encoder: ObservationEncoder;
  readonly #opening: OpeningSampler;
  readonly #start = new Uint8Array(STATE_SIZE);
  readonly #stateViews: Uint8Array[];
  /** Env i's children from its last encode, at i * CHILDREN_SIZE. */
  readonly #children: Uint8Array;
  readonly #maskBits: Uint8Array;
  readonly #plies: Uint16Array;
  readonly #rngs: Random[];
  readonly #scores = new Int32Array(2);
  readonly #captureReward: number;
  readonly #ruleCode: RuleCode;
  /** options.maxPlies, read once: the options object's shape varies with where it came from. */
  readonly #maxPlies: number;

  constructor(options: VectorEnvOptionsInput) {
    const data = parseOptions(vectorEnvOptionsSchema, options, 'vector environment options');
    const { numEnvs, seed, ...envOptions } = data;
    this.options = resolveEnvOptions({ ...(envOptions as object), illegalAction: 'error' });
    this.numEnvs = numEnvs;
    this.rules = this.options.rules;
    this.observationConfig = this.options.observation;
    this.observationSpace = observationSpace(this.observationConfig);
    this.actionSpace = actionSpace(this.observationConfig);
    this.#encoder = new ObservationEncoder(this.observationConfig, this.rules);
    this.#opening = new OpeningSampler(this.rules);
    this.#captureReward = this.options.captureReward;
    this.#maxPlies = this.options.maxPlies;
    this.#ruleCode = ruleCode(this.rules);
    if (this.options.startPosition) this.#start.set(this.options.startPosition.toState());
    else setInitial(this.#start);

    const n = numEnvs;
    this.obsSize = this.#encoder.size;
    this.observations = new Float32Array(n * this.obsSize);
    this.masks = new Uint8Array(n * ACTIONS);
    this.toMove = new Uint8Array(n);
    this.states = new Uint8Array(n * STATE_SIZE);
    this.rewards = new Float32Array(n);
    this.terminated = new Uint8Array(n);
    this.truncated = new Uint8Array(n);
    this.movers = new Uint8Array(n);
    this.finalScores = new Int16Array(n * 2);
    this.episodePlies = new Uint16Array(n);
    this.#stateViews = Array.from({ length: n }, (_, i) =>
      this.states.subarray(i * STATE_SIZE, (i + 1) * STATE_SIZE),
    );
    this.#children = new Uint8Array(n * CHILDREN_SIZE);
    this.#maskBits = new Uint8Array(n);
    this.#plies = new Uint16Array(n);
    this.#rngs = new Array<Random>(n);
    this.#seed(seed);
    this.reset();
  }

  /**
   * Starts a new episode in every environment. A seed reseeds them all (env i
   * from `seed` and i); without one each environment's generator goes on.
   */
  reset(seed?: number): void {
    if (checkSeed(seed) !== undefined) this.#seed(seed as number);
    this.rewards.fill(0);
    this.terminated.fill(0);
    this.truncated.fill(0);
    this.movers.fill(0);
    this.finalScores.fill(0);
    this.episodePlies.fill(0);
    for (let i = 0; i < this.numEnvs; i++) this.#startEpisode(i);
  }

  /**
   * Plays `actions[i]` in env i, for every i. All actions are checked first:
   * an illegal one throws a VectorActionError naming the env and its legal
   * actions, and nothing is stepped.
   */
  step(actions: ArrayLike<number>): void {
    const n = this.numEnvs;
    if (actions === null || typeof actions !== 'object' || actions.length !== n) {
      throw new RangeError(
        `step() needs one action per environment (${n}), got ${actions === null || typeof actions !== 'object' ? String(actions) : actions.length}`,
      );
    }
    const maskBits = this.#maskBits;
    for (let i = 0; i < n; i++) {
      const a = actions[i] as number;
      if (
        !(a >= 0 && a < ACTIONS && Number.isInteger(a)) ||
        ((maskBits[i] as number) & (1 << a)) === 0
      ) {
        throw this.#illegal(i, a);
      }
    }

    const states = this.states;
    const children = this.#children;
    const captureReward = this.#captureReward;
    for (let i = 0; i < n; i++) {
      const a = actions[i] as number;
      const at = i * STATE_SIZE;
      const mover = states[at + TO_MOVE] as number;
      const storeBefore = states[at + STORE_0 + mover] as number;
      const from = i * CHILDREN_SIZE + a * STATE_SIZE;
      for (let k = 0; k < STATE_SIZE; k++) states[at + k] = children[from + k] as number;
      const plies = (this.#plies[i] as number) + 1;
      this.#plies[i] = plies;
      this.movers[i] = mover;
      this.episodePlies[i] = plies;
      let reward =
        (captureReward * ((states[at + STORE_0 + mover] as number) - storeBefore)) / STORE_SCALE;

      const mask = this.#encode(i);
      if (mask === 0) {
        const scores = this.#scores;
        finalScores(this.#stateViews[i] as Uint8Array, 0, this.#ruleCode, scores);
        const own = scores[mover] as number;
        const other = scores[1 - mover] as number;
        reward += own > other ? 1 : own < other ? -1 : 0;
        this.finalScores[2 * i] = scores[0] as number;
        this.finalScores[2 * i + 1] = scores[1] as number;
        this.terminated[i] = 1;
        this.truncated[i] = 0;
        this.#startEpisode(i);
      } else if (plies >= this.#maxPlies) {
        this.finalScores[2 * i] = states[at + STORE_0] as number;
        this.finalScores[2 * i + 1] = states[at + STORE_0 + 1] as number;
        this.terminated[i] = 0;
        this.truncated[i] = 1;
        this.#startEpisode(i);
      } else {
        this.terminated[i] = 0;
        this.truncated[i] = 0;
      }
      this.rewards[i] = reward;
    }
  }

  #seed(seed: number): void {
    for (let i = 0; i < this.numEnvs; i++) this.#rngs[i] = Random.fromSeed(`vector:${seed}:${i}`);
  }

  /** Draws env i's next start and encodes it; the episode's ply count restarts. */
  #startEpisode(i: number): void {
    this.#opening.draw(
      this.#stateViews[i] as Uint8Array,
      this.#start,
      this.options.randomOpeningPlies,
      this.#rngs[i] as Random,
    );
    this.#plies[i] = 0;
    this.#encode(i);
  }

  /** Encodes env i's state into its observation slot; keeps its children and mask. */
  #encode(i: number): number {
    const enc = this.#encoder;
    const mask = enc.encode(this.#stateViews[i] as Uint8Array, this.observations, i * this.obsSize);
    this.#children.set(enc.children, i * CHILDREN_SIZE);
    this.#maskBits[i] = mask;
    maskToBytes(mask, this.masks, i * ACTIONS);
    this.toMove[i] = this.states[i * STATE_SIZE + TO_MOVE] as number;
    return mask;
  }

  #illegal(i: number, action: number): VectorActionError {
    const legal = maskActions(this.#maskBits[i] as number);
    const pos = positionFromState(this.#stateViews[i] as Uint8Array);
    const reason = illegalReason(pos, action, this.rules) ?? 'not-an-action';
    return new VectorActionError(i, action, reason, legal);
  }
}
