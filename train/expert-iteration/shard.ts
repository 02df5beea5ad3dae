import type * as tfType from '@tensorflow/tfjs';
import { Random } from '../../env/random.ts';
import { type BackendChoice, loadBackend, type Tf } from '../../models/backend.ts';
import { createPolicyValueModel, type NetworkConfig } from '../../models/policy-value-model.ts';
import type { RolloutStats } from '../ppo/rollouts.ts';
import { type LoggedPositions, PositionLog } from './position-log.ts';
import {
  type GamesInProgress,
  SearchSelfPlay,
  type SearchSelfPlayOptions,
} from './search-self-play.ts';
import { type OpeningDistribution, TrainingOpenings } from './training-openings.ts';

/** What a shard's self-play is built from; the same for every iteration of a run. */
export interface ShardSetup {
  readonly backend: BackendChoice;
  readonly obsSize: number;
  readonly network: NetworkConfig;
  /** `numEnvs` is the shard's share of the games. */
  readonly selfPlay: SearchSelfPlayOptions;
  readonly openings: OpeningDistribution;
}

/** One iteration of one shard: its games (null: start fresh ones), its generator, the current weights. */
export interface ShardTask {
  readonly setup: ShardSetup;
  /** The network's weights in `model.getWeights()` order. */
  readonly weights: readonly Float32Array[];
  readonly games: GamesInProgress | null;
  readonly rngState: readonly number[];
  readonly moves: number;
}

export interface ShardResult {
  readonly games: GamesInProgress;
  readonly rngState: number[];
  readonly positions: LoggedPositions;
  readonly stats: RolloutStats;
  /** Positions run through the network. */
  readonly evaluations: number;
}

/** The network's weights as arrays, in `model.getWeights()` order (to send to a shard). */
export function weightArrays(model: tfType.LayersModel): Float32Array[] {
  return model.getWeights().map((w) => Float32Array.from(w.dataSync() as Float32Array));
}

interface ShardPlayer {
  readonly tf: Tf;
  readonly model: tfType.LayersModel;
  readonly selfPlay: SearchSelfPlay;
}

// A worker thread plays shards of one run (a pool lives as long as its run):
// it builds a network and searches once per distinct setup (shards differ
// only when the games do not split evenly) and reuses them at every task.
const players = new Map<string, ShardPlayer>();

async function playerFor(setup: ShardSetup): Promise<ShardPlayer> {
  const key = JSON.stringify(setup);
  const known = players.get(key);
  if (known !== undefined) return known;
  const { tf } = await loadBackend(setup.backend);
  // The seed is irrelevant: every task brings the learner's weights.
  const model = createPolicyValueModel(tf, setup.obsSize, setup.network, 0);
  const openings = new TrainingOpenings(setup.openings, setup.selfPlay.rules);
  const player = { tf, model, selfPlay: new SearchSelfPlay(tf, model, setup.selfPlay, openings) };
  players.set(key, player);
  return player;
}

/**
 * Plays one shard's iteration in this thread (a self-play worker's task):
 * takes the learner's weights, carries the shard's games on with its own
 * generator and returns the finished games' positions and what goes on.
 */
export async function playShard(task: ShardTask): Promise<ShardResult> {
  const { tf, model, selfPlay } = await playerFor(task.setup);
  const current = model.getWeights();
  if (current.length !== task.weights.length) {
    throw new RangeError(
      `shard task has ${task.weights.length} weight arrays, the network ${current.length}`,
    );
  }
  const tensors = task.weights.map((data, i) =>
    tf.tensor(data, (current[i] as tfType.Tensor).shape),
  );
  model.setWeights(tensors);
  for (const t of tensors) t.dispose();
  const rng = Random.fromState([...task.rngState]);
  if (task.games === null) selfPlay.reset(rng);
  else selfPlay.importGames(task.games);
  const log = new PositionLog();
  const before = selfPlay.evaluations;
  const stats = selfPlay.collect(task.moves, log, rng);
  return {
    games: selfPlay.exportGames(),
    rngState: rng.getState(),
    positions: log.positions(),
    stats,
    evaluations: selfPlay.evaluations - before,
  };
}
