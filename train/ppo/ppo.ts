import type { Agent } from '../../agents/agent.ts';
import { createAgent, type JobFiles } from '../../agents/spec.ts';
import type { Random } from '../../env/random.ts';
import type {
  LearnerParts,
  OwnMetrics,
  PositionWindow,
  TrainingAlgorithm,
} from '../algorithm/training-algorithm.ts';
import type {} from '../iteration-stats.ts';
import { observationOf } from '../settings/schema.ts';
import { type TrainThreads, trainThreads } from '../threads/train-threads.ts';
import { estimateAdvantages } from './advantages.ts';
import { OpponentPool } from './opponent-pool.ts';
import { PolicyUpdater, type PolicyUpdateStats } from './policy-update.ts';
import { RolloutBuffer } from './rollout-buffer.ts';
import { PolicyRollouts, type RolloutStats } from './rollouts.ts';
import type { PpoConfig } from './settings.ts';

/**
 * PPO (clipped) or REINFORCE with the value as baseline, one iteration at a
 * time, in the order the training loop calls it:
 *
 * 1. collect: `numEnvs` games stepped in lockstep for `rolloutSteps` steps,
 *    the learner sampling its policy against itself, earlier snapshots of
 *    itself (`poolShare` of the games) and baseline agents (`baselineShare`);
 * 2. targets: advantages by GAE along each player's own chain of moves
 *    (REINFORCE: Monte Carlo returns);
 * 3. update: `epochs` passes of shuffled minibatches of the clipped surrogate
 *    (REINFORCE: one pass of the plain policy gradient), a value loss and an
 *    entropy bonus;
 * 4. stats: PPO's approximate KL and clip fraction, and the scores against
 *    the pool and the baselines, as metrics.csv columns.
 */
export class PolicyGradient implements TrainingAlgorithm {
  #rollout: RolloutStats | null = null;
  #update: PolicyUpdateStats | null = null;

  constructor(
    private readonly config: PpoConfig,
    readonly rollouts: PolicyRollouts,
    readonly buffer: RolloutBuffer,
    readonly updater: PolicyUpdater,
    readonly snapshots: OpponentPool,
    /** The worker threads its update's gradient slices run on, if any (ended with it). */
    private readonly threads: TrainThreads | null = null,
  ) {}

  reset(seed: number, rng: Random): void {
    this.rollouts.reset(seed, rng);
  }

  // ---- 1. collect ------------------------------------------------------------

  async collect(rng: Random): Promise<RolloutStats> {
    const { ppo, algorithm } = this.config;
    this.#rollout = await this.rollouts.collect(ppo.rolloutSteps, this.buffer, rng);
    // ---- 2. targets ----------------------------------------------------------
    estimateAdvantages(this.buffer, algorithm, ppo);
    return this.#rollout;
  }

  // ---- 3. update -------------------------------------------------------------

  async update(rng: Random): Promise<PolicyUpdateStats> {
    this.#update = await this.updater.update(this.buffer, rng);
    return this.#update;
  }

  // ---- 4. stats --------------------------------------------------------------

  ownMetrics(): OwnMetrics {
    const rollout = this.#rollout;
    const update = this.#update;
    return {
      'losses/approx_kl': update?.approxKl ?? '',
      'losses/clip_fraction': update?.clipFraction ?? '',
      'charts/score_vs_pool': rollout !== null && rollout.poolGames > 0 ? rollout.poolScore : '',
      'charts/score_vs_baselines':
        rollout !== null && rollout.baselineGames > 0 ? rollout.baselineScore : '',
    };
  }

  snapshotDue(iteration: number): boolean {
    return this.config.ppo.poolShare > 0 && iteration % this.config.ppo.snapshotEvery === 0;
  }

  /** Each iteration learns from its own games only. */
  replay(): null {
    return null;
  }

  restoreReplay(saved: PositionWindow | null): void {
    if (saved !== null)
      throw new RangeError('holds a replay window, which PPO and REINFORCE never keep');
  }

  /** What computes the update's gradients: `onnx` (onnxruntime-node) or `tfjs`. */
  get gradientBackend(): 'onnx' | 'tfjs' {
    return this.updater.gradientBackend;
  }

  get gradientThreads(): string {
    return this.updater.gradientThreads;
  }

  async dispose(): Promise<void> {
    this.updater.dispose();
    this.rollouts.dispose();
    this.snapshots.dispose();
    await this.threads?.dispose();
  }
}

/**
 * PPO or REINFORCE for `config` on the learner's network: the baseline
 * opponents (only when some games are played against them), an empty
 * opponent pool, the rollouts, their buffer and the update, whose gradient
 * slices run on up to `workers` threads.
 */
export async function buildPolicyGradient(
  { tf, rules, obsSize, model, optimizer, inference }: LearnerParts,
  config: PpoConfig,
  workers: number,
  files?: JobFiles,
): Promise<PolicyGradient> {
  const { ppo } = config;
  // First: a baseline that fails to load leaves no session or thread behind.
  const baselines: Agent[] = [];
  if (ppo.baselineShare > 0) {
    for (const spec of ppo.baselineOpponents)
      baselines.push(await createAgent(spec, { rules, ...(files !== undefined ? { files } : {}) }));
  }
  const threads = inference.runtime === null ? null : trainThreads(workers, 0, config.updateSlices);
  const updater = new PolicyUpdater(
    tf,
    model,
    optimizer,
    {
      algorithm: config.algorithm,
      epochs: ppo.epochs,
      minibatchSize: config.minibatchSize,
      clip: ppo.clip,
      valueCoef: config.valueCoef,
      entropyCoef: ppo.entropyCoef,
      maxGradNorm: config.maxGradNorm,
    },
    obsSize,
    // Where onnxruntime-node runs the rollouts' network it computes the update's
    // gradients too (nothing else runs during the update).
    inference.runtime === null
      ? null
      : {
          runtime: inference.runtime,
          network: { hidden: config.hidden, activation: config.activation },
          slices: config.updateSlices,
          threads,
        },
  );
  const opponents = new OpponentPool(ppo.poolSize, inference);
  const rollouts = new PolicyRollouts(
    model,
    { hidden: config.hidden, activation: config.activation },
    inference,
    {
      numEnvs: ppo.numEnvs,
      seed: config.seed,
      rules,
      observation: observationOf(config),
      maxPlies: config.maxPlies,
      openingPlies: ppo.openingPlies,
    },
    opponents,
    baselines,
    { poolShare: ppo.poolShare, baselineShare: ppo.baselineShare },
    rules,
  );
  const buffer = new RolloutBuffer(ppo.numEnvs * ppo.rolloutSteps, obsSize);
  return new PolicyGradient(config, rollouts, buffer, updater, opponents, threads);
}
