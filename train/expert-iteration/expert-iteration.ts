import { ObservationEncoder } from '../../env/gym/observation.ts';
import type { Random } from '../../env/random.ts';
import { loadEndgameShowingProgress } from '../../solve/endgame/cache/progress.ts';
import { cachedEndgame } from '../../solve/endgame/cache/shared-tables.ts';
import type { BuildOptions } from '../algorithm/descriptor.ts';
import type {
  AlgorithmProfile,
  LearnerParts,
  OwnMetrics,
  PositionWindow,
  TrainingAlgorithm,
} from '../algorithm/training-algorithm.ts';
import type { SelfPlayStats, UpdateStats } from '../iteration-stats.ts';
import { observationOf } from '../settings/schema.ts';
import { buildShardedSelfPlay } from '../shards/build.ts';
import type { ShardedSelfPlay } from '../shards/sharded-self-play.ts';
import { type TrainThreads, trainThreads } from '../threads/train-threads.ts';
import { addPositions, type LoggedPositions } from './position-log.ts';
import { ReplayBuffer } from './replay-buffer.ts';
import type { GamesInProgress } from './search-self-play.ts';
import { SearchTargetUpdater } from './search-update.ts';
import type { ExpertIterationConfig } from './settings.ts';
import { expertIterationShards } from './shards.ts';

/**
 * Expert iteration (AlphaZero at a small scale), one iteration at a time, in
 * the order the training loop calls it:
 *
 * 1. self-play: `gamesAtOnce` games split into shards played at once
 *    (train/shards/: on this machine's threads or the queue's workers), every
 *    move chosen by a search that uses the current network
 *    (search-self-play.ts), until `movesPerIteration` searched moves are
 *    made; the games still going on carry on at the next iteration;
 * 2. targets: each searched position of the games that ended, with the
 *    search's policy target (targets/) and a value target mixing the game's
 *    outcome with the search's value (`searchValueWeight`), joins the replay
 *    window of the last `replayIterations` iterations, shard after shard;
 * 3. update: `epochs` passes of shuffled minibatches over the window
 *    (search-update.ts), cross-entropy towards the policy targets, squared
 *    error towards the value targets;
 * 4. stats: what ran the network, and the share of positions the rescoring
 *    solver proved.
 *
 * The replay window goes into every checkpoint, so that resume stays exact.
 */
export class ExpertIteration implements TrainingAlgorithm {
  readonly snapshots = null;
  #provenShare = 0;

  constructor(
    private readonly config: ExpertIterationConfig,
    readonly selfPlay: ShardedSelfPlay<GamesInProgress, LoggedPositions>,
    readonly buffer: ReplayBuffer,
    readonly updater: SearchTargetUpdater,
    /** The worker threads its shards and gradient slices run on, if any (ended with it). */
    private readonly threads: TrainThreads | null = null,
  ) {}

  reset(_seed: number, rng: Random): void {
    this.selfPlay.reset(rng);
  }

  get gradientBackend(): 'onnx' | 'tfjs' {
    return this.updater.gradientBackend;
  }

  get gradientThreads(): string {
    return this.updater.gradientThreads;
  }

  // ---- 1. self-play ----------------------------------------------------------

  async collect(_rng: Random, iteration: number): Promise<SelfPlayStats> {
    // The shards draw from generators seeded at `reset`.
    const { outputs, stats } = await this.selfPlay.play(
      this.config.expertIteration.movesPerIteration,
      iteration,
    );
    // ---- 2. targets ----------------------------------------------------------
    this.buffer.startIteration();
    for (const positions of outputs) addPositions(positions, this.buffer);
    this.#provenShare = stats.plies > 0 ? (stats.tallies.proven ?? 0) / stats.plies : 0;
    return stats;
  }

  // ---- 3. update -------------------------------------------------------------

  update(rng: Random): Promise<UpdateStats> {
    return this.updater.update(this.buffer, rng);
  }

  // ---- 4. stats --------------------------------------------------------------

  ownMetrics(): OwnMetrics {
    return {
      'self_play/backend': this.selfPlay.backends,
      'self_play/proven_share': this.#provenShare,
    };
  }

  /** Expert iteration plays no earlier snapshots. */
  snapshotDue(): boolean {
    return false;
  }

  replay(): PositionWindow {
    return this.buffer.contents();
  }

  restoreReplay(saved: PositionWindow | null): void {
    if (saved === null) this.buffer.clear();
    else this.buffer.restore(saved);
  }

  profile(): AlgorithmProfile {
    return {
      shardSeconds: this.selfPlay.shardSeconds,
      tallies: { ...this.selfPlay.tallies },
      updateSharedSeconds: this.updater.sliceSeconds + this.updater.fillSeconds,
    };
  }

  async dispose(): Promise<void> {
    this.updater.dispose();
    await this.selfPlay.dispose();
    await this.threads?.dispose();
  }
}

/**
 * Expert iteration for `config` on the learner's network: its self-play
 * shards, played by the queue's runner when `options` gives one, else on up
 * to `workers` threads; the replay window and the update, whose gradient
 * slices use the same threads while self-play waits.
 */
export function buildExpertIteration(
  parts: LearnerParts,
  config: ExpertIterationConfig,
  { workers, shardRunner }: BuildOptions,
): ExpertIteration {
  const { tf, rules, obsSize, model, optimizer, inference } = parts;
  const ei = config.expertIteration;
  if (shardRunner === undefined && ei.solverNodes > 0 && ei.solverEndgameSeeds > 0) {
    // Built here once when it is not cached yet, so that this machine's worker
    // threads only read it (the queue's workers load their own).
    loadEndgameShowingProgress(ei.solverEndgameSeeds, rules, {
      quiet: !config.progress,
      announceBuild: true,
      load: cachedEndgame,
    });
  }
  const localShards = shardRunner === undefined ? ei.selfPlayShards : 0;
  // Slices run only on onnxruntime's gradient sessions; tfjs's update keeps no thread busy.
  const slices = inference.runtime === null ? null : config.updateSlices;
  const threads = trainThreads(workers, localShards, slices);
  const selfPlay = buildShardedSelfPlay(parts, config, expertIterationShards, threads, shardRunner);
  const buffer = new ReplayBuffer(
    ei.movesPerIteration * ei.replayIterations,
    new ObservationEncoder(observationOf(config), rules),
    ei.replayIterations,
  );
  const network = { hidden: config.hidden, activation: config.activation };
  const updater = new SearchTargetUpdater(
    tf,
    model,
    optimizer,
    {
      epochs: ei.epochs,
      minibatchSize: config.minibatchSize,
      valueCoef: config.valueCoef,
      maxGradNorm: config.maxGradNorm,
    },
    obsSize,
    // Where onnxruntime-node runs self-play it computes the update's gradients
    // too (the shards wait while the update runs).
    inference.runtime === null
      ? null
      : { runtime: inference.runtime, network, slices: config.updateSlices, threads },
  );
  return new ExpertIteration(config, selfPlay, buffer, updater, threads);
}
