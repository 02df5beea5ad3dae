import { ObservationEncoder } from '../../env/gym/observation.ts';
import type { Random } from '../../env/random.ts';
import type { InferenceBackend } from '../../models/inference/inference-engine.ts';
import { loadEndgameShowingProgress } from '../../solve/endgame/cache/progress.ts';
import { cachedEndgame } from '../../solve/endgame/cache/shared-tables.ts';
import { observationOf } from '../config/schema.ts';
import { type TrainThreads, trainThreads } from '../train-threads.ts';
import type {
  LearnerParts,
  OwnMetrics,
  PositionWindow,
  TrainingAlgorithm,
  UpdateStats,
} from '../training-algorithm.ts';
import { ReplayBuffer } from './replay-buffer.ts';
import type { SearchSelfPlayStats } from './search-self-play.ts';
import { SearchTargetUpdater } from './search-update.ts';
import type { ExpertIterationConfig } from './settings.ts';
import type { ShardSetup } from './shard.ts';
import {
  localShardRunner,
  ShardedSelfPlay,
  type ShardRunnerFactory,
  shareOf,
} from './sharded-self-play.ts';

/**
 * Expert iteration (AlphaZero at a small scale), one iteration at a time, in
 * the order the training loop calls it:
 *
 * 1. collect: `gamesAtOnce` games of self-play, split into shards played at
 *    once, every move chosen by a search that uses the current network, until
 *    `movesPerIteration` searched moves are made; the games still going on
 *    carry on at the next iteration;
 * 2. targets: each searched position of the games that ended, with the
 *    search's policy target (targets/) and a value target mixing the game's
 *    outcome with the search's value (`searchValueWeight`), joins the replay
 *    window of the last `replayIterations` iterations;
 * 3. update: `epochs` passes of shuffled minibatches over the window,
 *    cross-entropy towards the policy targets, squared error towards the
 *    value targets;
 * 4. stats: none of its own (the shared metrics.csv columns say it all).
 *
 * The replay window goes into every checkpoint, so that resume stays exact.
 */
export class ExpertIteration implements TrainingAlgorithm {
  readonly snapshots = null;

  constructor(
    private readonly config: ExpertIterationConfig,
    readonly selfPlay: ShardedSelfPlay,
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

  // ---- 1. collect and 2. targets ---------------------------------------------

  collect(_rng: Random, iteration: number): Promise<SearchSelfPlayStats> {
    // The shards draw from generators seeded at `reset`; the finished games'
    // positions and targets come back shard by shard into the newest
    // iteration of the replay window.
    this.buffer.startIteration();
    return this.selfPlay.collect(
      this.config.expertIteration.movesPerIteration,
      this.buffer,
      iteration,
    );
  }

  // ---- 3. update -------------------------------------------------------------

  update(rng: Random): Promise<UpdateStats> {
    return this.updater.update(this.buffer, rng);
  }

  // ---- 4. stats --------------------------------------------------------------

  ownMetrics(): OwnMetrics {
    return {
      'self_play/backend': this.selfPlay.backends,
      'self_play/proven_share': this.selfPlay.provenShare,
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

  async dispose(): Promise<void> {
    this.updater.dispose();
    await this.selfPlay.dispose();
    await this.threads?.dispose();
  }
}

/**
 * The setup of each of a run's self-play shards (its share of the games), the
 * same for every iteration, with `inference` running the network. A queue
 * worker rebuilds a shard's setup from the run's config with this too, so both
 * sides play the same shard, on the worker's own inference backend.
 */
export function shardSetups(
  config: ExpertIterationConfig,
  inference: InferenceBackend,
): ShardSetup[] {
  const ei = config.expertIteration;
  const observation = observationOf(config);
  const { rules } = config;
  const shards = ei.selfPlayShards;
  return Array.from({ length: shards }, (_, i) => ({
    // What runs the network where the shard plays (a queue worker names its own), tfjs on the run's backend.
    inference,
    backend: config.backend,
    selfPlay: {
      games: shareOf(ei.gamesAtOnce, shards, i),
      rules,
      observation,
      maxPlies: config.maxPlies,
      simulations: ei.simulations,
      policyTarget: ei.policyTarget,
      completedQScale: ei.completedQScale,
      searchValueWeight: ei.searchValueWeight,
      solverNodes: ei.solverNodes,
    },
    openings: {
      minPlies: ei.openingPlies,
      maxPlies: ei.openingPliesMax ?? ei.openingPlies,
      balanced: ei.balancedOpenings,
    },
    endgameSeeds: ei.solverEndgameSeeds,
  }));
}

/**
 * Expert iteration for `config` on the learner's network: one shard setup per
 * self-play shard, played by `shardRunner`'s runner when given (the queue's),
 * else on up to `workers` threads; the replay window and the update, whose
 * gradient slices use the same threads while self-play waits.
 */
export function buildExpertIteration(
  { tf, rules, obsSize, model, optimizer, inference }: LearnerParts,
  config: ExpertIterationConfig,
  workers: number,
  shardRunner?: ShardRunnerFactory,
): ExpertIteration {
  const ei = config.expertIteration;
  const observation = observationOf(config);
  const setups = shardSetups(config, inference.backend);
  if (shardRunner === undefined && ei.solverNodes > 0 && ei.solverEndgameSeeds > 0) {
    // Built here once when it is not cached yet, so that this machine's worker
    // threads only read it (the queue's workers load their own).
    loadEndgameShowingProgress(ei.solverEndgameSeeds, rules, {
      quiet: !config.progress,
      announceBuild: true,
      load: cachedEndgame,
    });
  }
  const localShards = shardRunner === undefined ? setups.length : 0;
  // Slices run only on onnxruntime's gradient sessions; tfjs's update keeps no thread busy.
  const slices = inference.runtime === null ? null : config.updateSlices;
  const threads = trainThreads(workers, localShards, slices);
  const runner =
    shardRunner !== undefined
      ? shardRunner({ config, setups })
      : localShardRunner(inference, config.backend, setups, threads);
  const network = { hidden: config.hidden, activation: config.activation };
  const selfPlay = new ShardedSelfPlay(model, network, setups.length, runner);
  const buffer = new ReplayBuffer(
    ei.movesPerIteration * ei.replayIterations,
    new ObservationEncoder(observation, rules),
    ei.replayIterations,
  );
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
