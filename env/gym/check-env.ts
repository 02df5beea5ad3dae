/**
 * A reusable environment checker in the spirit of Gymnasium's `check_env`:
 * every view of the environment (AyoayoEnv in each configuration,
 * SingleAgentEnv, VectorEnv, or anything with the same interface) must pass it.
 * It plays seeded random episodes and compares everything it sees with the
 * engine's public API.
 */
import {
  IllegalActionError,
  initialPosition,
  legalActions,
  type Outcome,
  outcome,
  type Player,
  type Position,
  playMove,
  positionFromState,
  Random,
  type Rules,
} from '../index.ts';
import {
  type ObservationConfig,
  ObservationEncoder,
  observationSize,
  STORE_SCALE,
} from './observation.ts';
import type { EnvOptions } from './options.ts';
import { firstOutside } from './spaces.ts';
import type { GymEnv, ResetResult, StepInfo, StepResult } from './types.ts';
import { VectorEnv } from './vector-env.ts';

/** A single-environment view that `checkEnv` can verify against the engine. */
export interface CheckableEnv<I extends StepInfo = StepInfo> extends GymEnv<I> {
  readonly rules: Rules;
  readonly observationConfig: ObservationConfig;
  readonly options: Pick<
    EnvOptions,
    'illegalAction' | 'captureReward' | 'maxPlies' | 'randomOpeningPlies'
  >;
}

export interface CheckEnvOptions {
  /** Seeds the episodes and the random actions (default 0). */
  readonly seed?: number;
  /** Episodes per pass for single environments (default 4). */
  readonly episodes?: number;
  /** Steps per pass for a VectorEnv (default 200). */
  readonly vectorSteps?: number;
}

export interface CheckEnvReport {
  readonly kind: 'single' | 'vector';
  /** Episodes finished in the first pass. */
  readonly episodes: number;
  /** Steps taken in the first pass. */
  readonly steps: number;
  /** What was verified. */
  readonly checks: readonly string[];
}

export class CheckEnvError extends Error {
  override name = 'CheckEnvError';
}

/**
 * Checks an environment built by `makeEnv` (called several times: the checker
 * needs fresh instances). Resolves to a report, or rejects with a
 * CheckEnvError saying what is wrong and where.
 */
export async function checkEnv(
  makeEnv: () => CheckableEnv | VectorEnv,
  opts: CheckEnvOptions = {},
): Promise<CheckEnvReport> {
  const seed = opts.seed ?? 0;
  const first = makeEnv();
  if (first instanceof VectorEnv) {
    return checkVector(first, makeEnv as () => VectorEnv, seed, opts.vectorSteps ?? 200);
  }
  return checkSingle(first, makeEnv as () => CheckableEnv, seed, opts.episodes ?? 4);
}

function fail(where: string, what: string): never {
  throw new CheckEnvError(`checkEnv: ${what} (${where})`);
}

function sameArray(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

function maskOf(legal: readonly number[]): Uint8Array {
  const mask = new Uint8Array(6);
  for (const a of legal) mask[a] = 1;
  return mask;
}

/** `fn` must throw (synchronously or by rejecting); returns what it threw. */
async function mustThrow(where: string, what: string, fn: () => unknown): Promise<unknown> {
  try {
    await fn();
  } catch (err) {
    return err;
  }
  return fail(where, `${what} did not throw`);
}

function terminalReward(result: Outcome | { winner: Player | null }, actor: Player): number {
  return result.winner === null ? 0 : result.winner === actor ? 1 : -1;
}

// ---------------------------------------------------------------- single environments

interface Frame {
  observation: Float32Array;
  mask: Uint8Array;
  reward: number;
  terminated: boolean;
  truncated: boolean;
  rewards: readonly number[];
  toMove: Player;
}

class SingleChecker {
  readonly encoder: ObservationEncoder;
  readonly scratch: Float32Array;
  steps = 0;
  episodes = 0;

  constructor(readonly env: CheckableEnv) {
    this.encoder = new ObservationEncoder(env.observationConfig, env.rules);
    this.scratch = new Float32Array(this.encoder.size);
  }

  /** Everything that must hold for any observation + info the environment hands out. */
  observation(where: string, observation: Float32Array, info: StepInfo, ended: boolean): void {
    const env = this.env;
    if (!(observation instanceof Float32Array)) fail(where, 'observation is not a Float32Array');
    const size = observationSize(env.observationConfig);
    if (env.observationSpace.shape[0] !== size || observation.length !== size) {
      fail(
        where,
        `observation size ${observation.length}, space ${env.observationSpace.shape[0]}, expected ${size}`,
      );
    }
    const outside = firstOutside(env.observationSpace, observation);
    if (outside >= 0) {
      fail(
        where,
        `observation[${outside}] = ${observation[outside]} outside [${env.observationSpace.low[outside]}, ${env.observationSpace.high[outside]}]`,
      );
    }
    const pos = info.position;
    if (info.toMove !== pos.toMove)
      fail(where, `info.toMove ${info.toMove} but the position has ${pos.toMove} to move`);
    this.encoder.encode(pos.toState(), this.scratch, 0);
    if (!sameArray(this.scratch, observation)) {
      fail(where, 'observation differs from an independent encoding of info.position');
    }
    const legal = legalActions(pos, env.rules);
    const expectedMask = ended && info.outcome !== null ? new Uint8Array(6) : maskOf(legal);
    if (!(info.actionMask instanceof Uint8Array) || !sameArray(info.actionMask, expectedMask)) {
      fail(
        where,
        `actionMask [${Array.from(info.actionMask)}] but expected [${Array.from(expectedMask)}]`,
      );
    }
    const listed = [0, 1, 2, 3, 4, 5].filter((a) => expectedMask[a] === 1);
    if (!sameArray(info.legalActions, listed)) {
      fail(where, `legalActions [${info.legalActions}] do not match the mask [${listed}]`);
    }
    if (
      info.rewards.length !== 2 ||
      Math.abs((info.rewards[0] as number) + (info.rewards[1] as number)) > 1e-9
    ) {
      fail(where, `rewards [${info.rewards}] are not a zero-sum pair`);
    }
    if (!ended && listed.length === 0) fail(where, 'the episode goes on but no action is legal');
  }

  step(where: string, actor: Player, res: StepResult): void {
    const { info } = res;
    const env = this.env;
    if (res.terminated && res.truncated) fail(where, 'terminated and truncated together');
    const ended = res.terminated || res.truncated;
    this.observation(where, res.observation, info, ended);
    if (res.reward !== info.rewards[actor]) {
      fail(
        where,
        `reward ${res.reward} but info.rewards[${actor}] (the acting player) is ${info.rewards[actor]}`,
      );
    }
    const engineOutcome = outcome(info.position, env.rules);
    if (res.terminated) {
      if (info.outcome === null) fail(where, 'terminated without info.outcome');
      if (info.outcome.reason === 'game-over') {
        if (engineOutcome === null) fail(where, 'terminated but the engine says the game goes on');
        if (!sameArray(info.outcome.scores, engineOutcome.scores)) {
          fail(where, `outcome scores [${info.outcome.scores}], engine [${engineOutcome.scores}]`);
        }
      }
      if (env.options.captureReward === 0 && res.reward !== terminalReward(info.outcome, actor)) {
        fail(
          where,
          `final reward ${res.reward} does not match winner ${info.outcome.winner} for player ${actor}`,
        );
      }
    } else {
      if (engineOutcome !== null)
        fail(where, 'the engine says the game is over but terminated is false');
      if (info.outcome !== null) fail(where, 'info.outcome set while not terminated');
      if (env.options.captureReward === 0 && res.reward !== 0)
        fail(where, `reward ${res.reward} before the end`);
    }
    if (res.truncated && info.plies < env.options.maxPlies) {
      fail(where, `truncated after ${info.plies} plies, maxPlies ${env.options.maxPlies}`);
    }
  }
}

function frameOf(
  res: ResetResult | StepResult,
  reward = 0,
  terminated = false,
  truncated = false,
): Frame {
  return {
    observation: res.observation.slice(),
    mask: res.info.actionMask.slice(),
    reward,
    terminated,
    truncated,
    rewards: [...res.info.rewards],
    toMove: res.info.toMove,
  };
}

function compareFrames(where: string, a: Frame, b: Frame): void {
  if (!sameArray(a.observation, b.observation))
    fail(where, 'observation differs between runs with the same seed');
  if (!sameArray(a.mask, b.mask)) fail(where, 'actionMask differs between runs with the same seed');
  if (!Object.is(a.reward, b.reward) || !sameArray(a.rewards, b.rewards)) {
    fail(where, 'rewards differ between runs with the same seed');
  }
  if (a.terminated !== b.terminated || a.truncated !== b.truncated || a.toMove !== b.toMove) {
    fail(where, 'terminated/truncated/toMove differ between runs with the same seed');
  }
}

const NOT_ACTIONS = [-1, 6, 0.5, Number.NaN];

/**
 * Plays `episodes` seeded random episodes. With `reference`, also probes
 * illegal actions before each step and compares every frame with the reference.
 */
async function playEpisodes(
  checker: SingleChecker,
  seed: number,
  episodes: number,
  reference: Frame[][] | null,
): Promise<Frame[][]> {
  const env = checker.env;
  const rng = Random.fromSeed(`checkEnv:${seed}`);
  const runs: Frame[][] = [];
  for (let e = 0; e < episodes; e++) {
    const frames: Frame[] = [];
    let where = `episode ${e}, reset`;
    let res: ResetResult | StepResult = await env.reset({ seed: seed + e });
    checker.observation(where, res.observation, res.info, false);
    if (res.info.rewards[0] !== 0 || res.info.rewards[1] !== 0)
      fail(where, 'reset info.rewards is not [0, 0]');
    frames.push(frameOf(res));
    const cap = env.options.maxPlies + 2;
    for (let t = 0; ; t++) {
      where = `episode ${e}, step ${t}`;
      if (t > cap)
        fail(where, `episode still running after ${cap} steps (maxPlies ${env.options.maxPlies})`);
      const info: StepInfo = res.info;
      const legal = info.legalActions;
      if (reference !== null) await probeIllegal(where, env, info);
      const actor = info.toMove;
      const stepped: StepResult = await env.step(rng.pick(legal));
      checker.steps++;
      checker.step(where, actor, stepped);
      const frame = frameOf(stepped, stepped.reward, stepped.terminated, stepped.truncated);
      const expected = reference?.[e]?.[t + 1];
      if (reference !== null) {
        if (expected === undefined)
          fail(where, 'the episode is longer than with the same seed before');
        compareFrames(where, frame, expected);
      }
      frames.push(frame);
      res = stepped;
      if (stepped.terminated || stepped.truncated) break;
    }
    const expectedLength = reference?.[e]?.length;
    if (expectedLength !== undefined && expectedLength !== frames.length) {
      fail(`episode ${e}`, 'the episode is shorter than with the same seed before');
    }
    await mustThrow(`episode ${e}, after the end`, 'step() after the episode ended', () =>
      env.step(0),
    );
    checker.episodes++;
    runs.push(frames);
  }
  return runs;
}

/** Non-actions must throw in any mode; illegal pits must throw (illegalAction 'error') without a trace. */
async function probeIllegal(where: string, env: CheckableEnv, info: StepInfo): Promise<void> {
  for (const bad of NOT_ACTIONS) {
    const err = await mustThrow(where, `step(${bad})`, () => env.step(bad));
    if (!(err instanceof IllegalActionError) || err.reason !== 'not-an-action') {
      fail(where, `step(${bad}) threw ${String(err)}, expected IllegalActionError 'not-an-action'`);
    }
  }
  if (env.options.illegalAction !== 'error') return;
  const illegal = [0, 1, 2, 3, 4, 5].find((a) => info.actionMask[a] === 0);
  if (illegal === undefined) return;
  const err = await mustThrow(where, `illegal step(${illegal})`, () => env.step(illegal));
  if (!(err instanceof IllegalActionError) || !sameArray(err.legal, info.legalActions)) {
    fail(
      where,
      `illegal step(${illegal}) threw ${String(err)}, expected IllegalActionError naming [${info.legalActions}]`,
    );
  }
}

/** illegalAction 'lose': the first illegal pit found ends the game as a loss for the mover. */
async function checkForfeit(env: CheckableEnv, seed: number): Promise<void> {
  const rng = Random.fromSeed(`checkEnv:forfeit:${seed}`);
  let res: ResetResult | StepResult = await env.reset({ seed });
  for (let t = 0; t <= env.options.maxPlies; t++) {
    const where = `forfeit episode, step ${t}`;
    const illegal = [0, 1, 2, 3, 4, 5].find((a) => res.info.actionMask[a] === 0);
    const actor = res.info.toMove;
    if (illegal !== undefined) {
      const lost = await env.step(illegal);
      if (!lost.terminated || lost.truncated)
        fail(where, 'an illegal action did not terminate the episode');
      if (lost.reward !== -1 || lost.info.rewards[actor] !== -1) {
        fail(where, `forfeit reward ${lost.reward} is not a loss for player ${actor}`);
      }
      if (
        lost.info.outcome?.reason !== 'illegal-action' ||
        lost.info.outcome.winner !== 1 - actor
      ) {
        fail(where, 'forfeit outcome must name the illegal action and the other player as winner');
      }
      if (!sameArray(lost.info.actionMask, new Uint8Array(6)))
        fail(where, 'mask after a forfeit is not all zeros');
      await mustThrow(where, 'step() after a forfeit', () => env.step(0));
      return;
    }
    const stepped: StepResult = await env.step(rng.pick(res.info.legalActions));
    res = stepped.terminated || stepped.truncated ? await env.reset() : stepped;
  }
}

async function checkSingle(
  env: CheckableEnv,
  makeEnv: () => CheckableEnv,
  seed: number,
  episodes: number,
): Promise<CheckEnvReport> {
  await mustThrow('before reset', 'step() before reset()', () => env.step(0));
  const checker = new SingleChecker(env);
  const first = await playEpisodes(checker, seed, episodes, null);
  // Same seeds, a fresh instance, illegal actions tried before every step: the same trajectory.
  const replay = makeEnv();
  await playEpisodes(new SingleChecker(replay), seed, episodes, first);
  // Reseeding the same instance starts the first episode again.
  const again = await env.reset({ seed });
  compareFrames('reset with the first seed again', frameOf(again), first[0]?.[0] as Frame);
  if (env.options.illegalAction === 'lose') await checkForfeit(makeEnv(), seed);
  return {
    kind: 'single',
    episodes: checker.episodes,
    steps: checker.steps,
    checks: [
      'observations: Float32Array of the declared size, inside the declared bounds',
      'observations equal an independent encoding of info.position; toMove matches',
      'masks and legalActions equal the engine (all zeros once terminated)',
      'rewards zero-sum, for the acting player, terminal rewards match the winner',
      'terminated iff the engine says the game is over; truncated only at maxPlies',
      'same seed, same trajectory (fresh instance and reseeded instance)',
      'errors: step before reset, after the end, non-actions, illegal actions (no trace left)',
      ...(env.options.illegalAction === 'lose' ? ['illegal action forfeits the game'] : []),
    ],
  };
}

// ---------------------------------------------------------------- VectorEnv

interface VectorSnapshot {
  observations: Float32Array;
  masks: Uint8Array;
  toMove: Uint8Array;
  states: Uint8Array;
  rewards: Float32Array;
  terminated: Uint8Array;
  truncated: Uint8Array;
  movers: Uint8Array;
  finalScores: Int16Array;
  episodePlies: Uint16Array;
}

function snapshot(v: VectorEnv): VectorSnapshot {
  return {
    observations: v.observations.slice(),
    masks: v.masks.slice(),
    toMove: v.toMove.slice(),
    states: v.states.slice(),
    rewards: v.rewards.slice(),
    terminated: v.terminated.slice(),
    truncated: v.truncated.slice(),
    movers: v.movers.slice(),
    finalScores: v.finalScores.slice(),
    episodePlies: v.episodePlies.slice(),
  };
}

function compareSnapshots(where: string, a: VectorSnapshot, b: VectorSnapshot, why: string): void {
  for (const key of Object.keys(a) as (keyof VectorSnapshot)[]) {
    if (!sameArray(a[key], b[key])) fail(where, `${key} differs ${why}`);
  }
}

function stateOf(v: VectorEnv, i: number): Uint8Array {
  return v.states.subarray(i * 16, (i + 1) * 16);
}

function positionOrFail(where: string, state: Uint8Array): Position {
  try {
    return positionFromState(state);
  } catch (err) {
    return fail(where, `states holds an invalid position: ${(err as Error).message}`);
  }
}

/** Checks every env's current observation, mask and toMove against the engine. */
function checkVectorObservations(
  where: string,
  v: VectorEnv,
  encoder: ObservationEncoder,
  scratch: Float32Array,
): void {
  const size = observationSize(v.observationConfig);
  const n = v.numEnvs;
  if (
    v.obsSize !== size ||
    v.observationSpace.shape[0] !== size ||
    v.observations.length !== n * size ||
    v.masks.length !== n * 6 ||
    v.states.length !== n * 16 ||
    v.finalScores.length !== n * 2 ||
    [v.toMove, v.rewards, v.terminated, v.truncated, v.movers, v.episodePlies].some(
      (b) => b.length !== n,
    )
  ) {
    fail(where, 'buffer sizes do not match numEnvs and the observation size');
  }
  for (let i = 0; i < n; i++) {
    const at = `${where}, env ${i}`;
    const outside = firstOutside(v.observationSpace, v.observations, i * size);
    if (outside >= 0)
      fail(
        at,
        `observation feature ${outside} = ${v.observations[i * size + outside]} outside the space`,
      );
    const pos = positionOrFail(at, stateOf(v, i));
    encoder.encode(pos.toState(), scratch, 0);
    if (!sameArray(scratch, v.observations.subarray(i * size, (i + 1) * size))) {
      fail(at, 'observation differs from an independent encoding of its state');
    }
    const legal = legalActions(pos, v.rules);
    if (legal.length === 0) fail(at, 'a finished position is showing (auto-reset missed)');
    if (!sameArray(v.masks.subarray(i * 6, (i + 1) * 6), maskOf(legal)))
      fail(at, 'mask differs from the engine');
    if (v.toMove[i] !== pos.toMove) fail(at, 'toMove differs from the state');
  }
}

async function checkVector(
  v: VectorEnv,
  makeEnv: () => VectorEnv,
  seed: number,
  steps: number,
): Promise<CheckEnvReport> {
  const twin = makeEnv();
  if (!(twin instanceof VectorEnv) || twin.numEnvs !== v.numEnvs)
    fail('setup', 'makeEnv must build equal VectorEnvs');
  const encoder = new ObservationEncoder(v.observationConfig, v.rules);
  const scratch = new Float32Array(encoder.size);
  const n = v.numEnvs;
  const rng = Random.fromSeed(`checkEnv:vector:${seed}`);
  const start = (v.options.startPosition ?? initialPosition()).toState();
  const fresh = (i: number): boolean =>
    v.options.randomOpeningPlies > 0 || sameArray(stateOf(v, i), start);

  v.reset(seed);
  twin.reset(seed);
  const initial = snapshot(v);
  compareSnapshots(
    'reset',
    initial,
    snapshot(twin),
    'between two VectorEnvs reset with the same seed',
  );
  checkVectorObservations('reset', v, encoder, scratch);
  for (let i = 0; i < n; i++)
    if (!fresh(i)) fail(`reset, env ${i}`, 'does not hold the configured start');

  const plies = new Array<number>(n).fill(0);
  const actions = new Int32Array(n);
  let episodes = 0;
  let illegalProbed = false;
  for (let t = 0; t < steps; t++) {
    const where = `step ${t}`;
    for (let i = 0; i < n; i++) {
      const legal = [0, 1, 2, 3, 4, 5].filter((a) => v.masks[i * 6 + a] === 1);
      actions[i] = rng.pick(legal);
    }
    if (!illegalProbed) illegalProbed = await probeVectorIllegal(where, v, actions);
    const before = snapshot(v);
    v.step(actions);
    twin.step(actions);
    compareSnapshots(
      where,
      snapshot(v),
      snapshot(twin),
      'between two VectorEnvs with the same seed and actions',
    );
    checkVectorObservations(where, v, encoder, scratch);
    for (let i = 0; i < n; i++) {
      const at = `${where}, env ${i}`;
      const prev = positionFromState(before.states.subarray(i * 16, (i + 1) * 16));
      const { position: next, report } = playMove(prev, actions[i] as number, v.rules);
      const ply = (plies[i] as number) + 1;
      plies[i] = ply;
      if (v.movers[i] !== prev.toMove) fail(at, 'movers differs from the player who moved');
      if (v.episodePlies[i] !== ply) fail(at, `episodePlies ${v.episodePlies[i]}, expected ${ply}`);
      const shaping = (v.options.captureReward * report.captured) / STORE_SCALE;
      const result = outcome(next, v.rules);
      const term = v.terminated[i] === 1;
      const trunc = v.truncated[i] === 1;
      if (term && trunc) fail(at, 'terminated and truncated together');
      if (term !== (result !== null))
        fail(at, `terminated ${term} but the engine says ${result ? 'over' : 'going on'}`);
      let expectedReward = shaping;
      if (result !== null) {
        expectedReward += terminalReward(result, prev.toMove);
        if (!sameArray(v.finalScores.subarray(2 * i, 2 * i + 2), result.scores)) {
          fail(
            at,
            `finalScores [${v.finalScores.subarray(2 * i, 2 * i + 2)}], engine [${result.scores}]`,
          );
        }
      } else if (trunc) {
        if (ply !== v.options.maxPlies)
          fail(at, `truncated after ${ply} plies, maxPlies ${v.options.maxPlies}`);
        if (!sameArray(v.finalScores.subarray(2 * i, 2 * i + 2), next.stores))
          fail(at, 'finalScores at truncation are not the stores');
      } else {
        if (ply >= v.options.maxPlies) fail(at, 'not truncated at maxPlies');
        if (!sameArray(stateOf(v, i), next.toState()))
          fail(at, 'state differs from the engine after the action');
      }
      if (Math.abs((v.rewards[i] as number) - expectedReward) > 1e-6) {
        fail(at, `reward ${v.rewards[i]}, expected ${expectedReward}`);
      }
      if (term || trunc) {
        // Same-step auto-reset: the new episode's first observation is already there.
        if (!fresh(i)) fail(at, 'after the episode ended, the env does not hold a new start');
        plies[i] = 0;
        episodes++;
      }
    }
  }
  v.reset(seed);
  compareSnapshots(
    'reset with the first seed again',
    snapshot(v),
    initial,
    'from the first reset with that seed',
  );
  return {
    kind: 'vector',
    episodes,
    steps,
    checks: [
      'buffer sizes; observations inside the declared bounds and equal to an independent encoding',
      'masks and toMove equal the engine; never a finished position showing',
      'transitions, rewards (for the mover), finalScores and episodePlies equal the engine',
      'terminated iff the game is over; truncated only at maxPlies; same-step auto-reset',
      'same seed, same buffers (two instances, and reset with the seed again)',
      `errors: illegal actions name the env and leave every buffer unchanged${illegalProbed ? '' : ' (no illegal action met)'}`,
    ],
  };
}

/** Tries an illegal action in the first env that has one; returns whether one was found. */
async function probeVectorIllegal(
  where: string,
  v: VectorEnv,
  actions: Int32Array,
): Promise<boolean> {
  const before = snapshot(v);
  const wrongLength = await mustThrow(where, 'step() with too few actions', () =>
    v.step(actions.subarray(1)),
  );
  if (!(wrongLength instanceof Error)) fail(where, 'step() with too few actions threw a non-Error');
  for (let i = 0; i < v.numEnvs; i++) {
    const illegal = [0, 1, 2, 3, 4, 5].find((a) => v.masks[i * 6 + a] === 0);
    if (illegal === undefined) continue;
    const bad = Int32Array.from(actions);
    bad[i] = illegal;
    const err = await mustThrow(where, `an illegal action in env ${i}`, () => v.step(bad));
    const legal = [0, 1, 2, 3, 4, 5].filter((a) => v.masks[i * 6 + a] === 1);
    if (
      !(err instanceof IllegalActionError) ||
      !err.message.includes(`env ${i}`) ||
      !sameArray(err.legal, legal)
    ) {
      fail(
        where,
        `illegal action in env ${i} threw ${String(err)}; expected an IllegalActionError naming env ${i} and [${legal}]`,
      );
    }
    compareSnapshots(where, snapshot(v), before, 'after a rejected step');
    return true;
  }
  return false;
}
