import type * as tfType from '@tensorflow/tfjs';
import { Random } from '../../env/random.ts';
import { type BackendChoice, loadBackend, type Tf } from '../../models/backend.ts';
import { createPolicyValueModel, type NetworkConfig } from '../../models/policy-value-model.ts';
import { type LoggedPositions, PositionLog } from './position-log.ts';
import {
  type GamesInProgress,
  SearchSelfPlay,
  type SearchSelfPlayOptions,
  type SearchSelfPlayStats,
} from './search-self-play.ts';
import { type OpeningDistribution, TrainingOpenings } from './training-openings.ts';

/**
 * A shard of expert iteration's self-play is one unit of work: "play these
 * games on with this network for this many moves, and return the positions
 * of the games that ended". Its setup, task and result are plain data (typed
 * arrays and numbers), so that a worker thread, or another machine, can play
 * it; the coordinator (sharded-self-play.ts) adds the results shard by shard
 * in a fixed order.
 */

/** What a shard's self-play is built from; the same for every iteration of a run. */
export interface ShardSetup {
  readonly backend: BackendChoice;
  readonly obsSize: number;
  readonly network: NetworkConfig;
  /** `games` is the shard's share of the games. */
  readonly selfPlay: SearchSelfPlayOptions;
  readonly openings: OpeningDistribution;
}

/** One iteration of one shard: its games (null: start fresh ones), its generator and its moves. */
export interface ShardIteration {
  readonly games: GamesInProgress | null;
  readonly rngState: readonly number[];
  readonly moves: number;
}

/** A shard's iteration with everything needed to play it elsewhere: the setup and the network's weights. */
export interface ShardTask extends ShardIteration {
  readonly setup: ShardSetup;
  /** The network's weights in `model.getWeights()` order. */
  readonly weights: readonly Float32Array[];
}

/** What a shard's iteration gives back: the games to carry on, the generator, the finished games' positions. */
export interface ShardResult {
  readonly games: GamesInProgress;
  readonly rngState: number[];
  readonly positions: LoggedPositions;
  readonly stats: SearchSelfPlayStats;
  /**
   * The inference the shard's network ran on (the tfjs backend's name:
   * `wasm`, `cpu`, `tensorflow`). Runs are identical across machines for the
   * same backend only: floating point rounds differently on another.
   */
  readonly backend: string;
}

/** Plays a shard's iterations with a network it is given (the learner's, or a worker's copy). */
export class ShardPlayer {
  readonly selfPlay: SearchSelfPlay;
  readonly #backend: string;

  constructor(tf: Tf, model: tfType.LayersModel, setup: ShardSetup) {
    const openings = new TrainingOpenings(setup.openings, setup.selfPlay.rules);
    this.selfPlay = new SearchSelfPlay(tf, model, setup.selfPlay, openings);
    this.#backend = tf.getBackend();
  }

  /** Carries the shard's games on (or starts fresh ones) with its own generator for `moves` moves. */
  play(iteration: ShardIteration): ShardResult {
    const { selfPlay } = this;
    const rng = Random.fromState([...iteration.rngState]);
    if (iteration.games === null) selfPlay.reset(rng);
    else selfPlay.importGames(iteration.games);
    const log = new PositionLog();
    const stats = selfPlay.collect(iteration.moves, log, rng);
    return {
      games: selfPlay.exportGames(),
      rngState: rng.getState(),
      positions: log.positions(),
      stats,
      backend: this.#backend,
    };
  }
}

/** The network's weights as arrays, in `model.getWeights()` order (to send to a shard). */
export function weightArrays(model: tfType.LayersModel): Float32Array[] {
  return model.getWeights().map((w) => Float32Array.from(w.dataSync() as Float32Array));
}

interface WorkerPlayer {
  readonly tf: Tf;
  readonly model: tfType.LayersModel;
  readonly player: ShardPlayer;
}

// A worker thread plays shards of one run (a pool lives as long as its run):
// it builds a network and searches once per distinct setup (shards differ
// only when the games do not split evenly) and reuses them at every task.
const players = new Map<string, WorkerPlayer>();

async function playerFor(setup: ShardSetup): Promise<WorkerPlayer> {
  const key = JSON.stringify(setup);
  const known = players.get(key);
  if (known !== undefined) return known;
  const { tf } = await loadBackend(setup.backend);
  // The seed is irrelevant: every task brings the learner's weights.
  const model = createPolicyValueModel(tf, setup.obsSize, setup.network, 0);
  const player = { tf, model, player: new ShardPlayer(tf, model, setup) };
  players.set(key, player);
  return player;
}

/**
 * Plays a shard's task in this thread (a self-play worker's job): builds or
 * reuses the shard's network, takes the task's weights and plays the
 * iteration.
 */
export async function playShard(task: ShardTask): Promise<ShardResult> {
  const { tf, model, player } = await playerFor(task.setup);
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
  return player.play(task);
}
