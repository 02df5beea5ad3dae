import type * as tfType from '@tensorflow/tfjs';
import type { Agent } from '../agents/agent.ts';
import { createAgent } from '../agents/spec.ts';
import { ObservationEncoder, observationSize } from '../env/gym/observation.ts';
import type { Rules } from '../env/rules.ts';
import type { Tf } from '../models/backend.ts';
import { makePolicyFile, type PolicyFile } from '../models/policy-file.ts';
import { createPolicyValueModel, extractMlpWeights } from '../models/policy-value-model.ts';
import { rulesOf, type TrainConfig } from './config/schema.ts';
import { AlphaZero } from './expert-iteration/expert-iteration.ts';
import { SearchBuffer } from './expert-iteration/replay-buffer.ts';
import { SearchSelfPlay } from './expert-iteration/search-self-play.ts';
import { SearchTargetUpdater } from './expert-iteration/search-update.ts';
import type { ShardSetup } from './expert-iteration/shard.ts';
import { ShardedSelfPlay, shareOf } from './expert-iteration/sharded-self-play.ts';
import { TrainingOpenings } from './expert-iteration/training-openings.ts';
import { OpponentPool } from './ppo/opponent-pool.ts';
import { PolicyUpdater } from './ppo/policy-update.ts';
import { PolicyGradient } from './ppo/ppo.ts';
import { RolloutBuffer } from './ppo/rollout-buffer.ts';
import { SelfPlay } from './ppo/rollouts.ts';
import type { TrainingAlgorithm } from './training-algorithm.ts';

/** Everything that learns or plays in a run: the network, its optimiser, the algorithm's self-play and update. */
export interface Learner {
  readonly tf: Tf;
  readonly rules: Rules;
  readonly obsSize: number;
  readonly model: tfType.LayersModel;
  readonly optimizer: tfType.AdamOptimizer;
  readonly pool: OpponentPool;
  readonly algorithm: TrainingAlgorithm;
}

/**
 * Builds a fresh learner for `config`: the network seeded with the run's seed,
 * Adam at the configured rate, an empty opponent pool and the baseline
 * opponents (only when some games are played against them), and expert
 * iteration's self-play shards on up to `workers` threads. The trainer and
 * the self-play benchmark both start from here; disposeLearner ends it.
 */
export async function buildLearner(
  tf: Tf,
  config: TrainConfig,
  options: { readonly workers?: number } = {},
): Promise<Learner> {
  const rules = rulesOf(config);
  const obsSize = observationSize({ encoding: config.encoding, lookahead: config.lookahead });
  const model = createPolicyValueModel(
    tf,
    obsSize,
    { hidden: config.hidden, activation: config.activation },
    config.seed,
  );
  const optimizer = tf.train.adam(config.learningRate);
  const pool = new OpponentPool(config.poolSize);
  const parts = { tf, rules, obsSize, model, optimizer, pool };
  const algorithm =
    config.algorithm === 'alphazero'
      ? expertIteration(parts, config, options.workers ?? 0)
      : await policyGradient(parts, config);
  return { ...parts, algorithm };
}

/** What every algorithm is built from. */
type LearnerParts = Omit<Learner, 'algorithm'>;

async function policyGradient(
  { tf, rules, obsSize, model, optimizer, pool }: LearnerParts,
  config: TrainConfig,
): Promise<PolicyGradient> {
  const updater = new PolicyUpdater(
    tf,
    model,
    optimizer,
    { ...config, algorithm: config.algorithm === 'reinforce' ? 'reinforce' : 'ppo' },
    obsSize,
  );
  const baselines: Agent[] = [];
  if (config.baselineShare > 0) {
    for (const spec of config.baselineOpponents)
      baselines.push(await createAgent(spec, { rules, seed: config.seed }));
  }
  const selfPlay = new SelfPlay(
    tf,
    model,
    {
      numEnvs: config.numEnvs,
      seed: config.seed,
      rules,
      encoding: config.encoding,
      lookahead: config.lookahead,
      maxPlies: config.maxPlies,
      openingPlies: config.openingPlies,
    },
    pool,
    baselines,
    { poolShare: config.poolShare, baselineShare: config.baselineShare },
    rules,
  );
  const buffer = new RolloutBuffer(config.numEnvs * config.rolloutSteps, obsSize);
  return new PolicyGradient(selfPlay, buffer, updater, config);
}

function expertIteration(
  { tf, rules, obsSize, model, optimizer }: LearnerParts,
  config: TrainConfig,
  workers: number,
): AlphaZero {
  const openingDistribution = {
    minPlies: config.openingPlies,
    maxPlies: config.openingPliesMax ?? config.openingPlies,
    balanced: config.balancedOpenings,
  };
  const openings = new TrainingOpenings(openingDistribution, rules);
  const observation = { encoding: config.encoding, lookahead: config.lookahead };
  const shards = config.selfPlayShards;
  const setups: ShardSetup[] = Array.from({ length: shards }, (_, i) => ({
    // The workers load the run's backend, as this thread did.
    backend: config.backend,
    obsSize,
    network: { hidden: config.hidden, activation: config.activation },
    selfPlay: {
      numEnvs: shareOf(config.numEnvs, shards, i),
      rules,
      observation,
      maxPlies: config.maxPlies,
      simulations: config.searchSimulations,
      policyTarget: config.policyTarget,
      searchValueWeight: config.searchValueWeight,
    },
    openings: openingDistribution,
  }));
  const selfPlay = new ShardedSelfPlay(
    model,
    setups,
    workers,
    (setup) => new SearchSelfPlay(tf, model, setup.selfPlay, openings),
  );
  const moves = config.numEnvs * config.rolloutSteps;
  const buffer = new SearchBuffer(
    moves * config.replayIterations,
    new ObservationEncoder(observation, rules),
    config.replayIterations,
  );
  const updater = new SearchTargetUpdater(tf, model, optimizer, config, obsSize);
  return new AlphaZero(selfPlay, buffer, updater, moves);
}

/** Frees the learner's tensors and stops its self-play worker threads. */
export async function disposeLearner(learner: Learner): Promise<void> {
  await learner.algorithm.dispose();
  learner.optimizer.dispose();
  learner.model.dispose();
}

/** The learner's current weights as a policy file, stamped with the run and iteration. */
export function learnerPolicyFile(
  learner: Learner,
  config: TrainConfig,
  at: { readonly iteration: number; readonly samples: number },
  evaluation?: Record<string, number>,
): PolicyFile {
  return makePolicyFile(extractMlpWeights(learner.model, config), {
    observation: { encoding: config.encoding, lookahead: config.lookahead },
    rules: learner.rules,
    source: {
      run: config.name,
      iteration: at.iteration,
      samples: at.samples,
      createdAt: new Date().toISOString(),
    },
    ...(evaluation ? { evaluation } : {}),
  });
}
