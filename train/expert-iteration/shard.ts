import { Random } from '../../env/random.ts';
import { loadBackend } from '../../models/backend.ts';
import type { BackendChoice } from '../../models/backend-choice.ts';
import {
  type InferenceBackend,
  inferenceEngine,
  type NetworkInference,
  withWeights,
} from '../../models/inference/inference-engine.ts';
import type { ForwardPass, MlpWeights } from '../../models/mlp-runner.ts';
import { cachedEndgame } from '../../solve/endgame/cache/shared-tables.ts';
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
  /** What runs the network (the learner's thread resolved it, so every shard runs alike). */
  readonly inference: InferenceBackend;
  /** The tfjs backend, where tfjs runs it. */
  readonly backend: BackendChoice;
  /** `games` is the shard's share of the games. */
  readonly selfPlay: SearchSelfPlayOptions;
  readonly openings: OpeningDistribution;
  /** The rescoring solver's endgame table: boards of up to this many seeds (0: none), with `selfPlay.solverNodes`. */
  readonly endgameSeeds: number;
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
  /** The learner's current weights. */
  readonly weights: MlpWeights;
  /**
   * Whether the result carries the positions' observations (LoggedPositions
   * `encoded`): for a worker thread beside the learner, not for a queue's
   * worker, whose results cross the network (an observation is 70 times a
   * state's bytes).
   */
  readonly encodePositions?: boolean;
}

/** What a shard's iteration gives back: the games to carry on, the generator, the finished games' positions. */
export interface ShardResult {
  readonly games: GamesInProgress;
  readonly rngState: number[];
  readonly positions: LoggedPositions;
  readonly stats: SearchSelfPlayStats;
  /**
   * What the shard's network ran on (inferenceName: `onnx`, `plain`,
   * `tfjs-wasm`). Runs are identical across machines for the same backend
   * only: floating point rounds differently on another.
   */
  readonly backend: string;
}

/**
 * What a network's forward pass runs on, as a shard's result and metrics.csv
 * name it: `onnx`, `plain`, or tfjs with its backend (`tfjs-wasm`).
 */
export async function inferenceName(
  inference: NetworkInference,
  tfjsBackend: BackendChoice,
): Promise<string> {
  return inference.runs === 'tfjs'
    ? `tfjs-${(await loadBackend(tfjsBackend)).name}`
    : inference.runs;
}

/** Plays a shard's iterations with the forward pass it is given (of the learner's weights). */
export class ShardPlayer {
  readonly selfPlay: SearchSelfPlay;
  readonly #backend: string;

  /** `backend` names what runs `forward` in the results (inferenceName). */
  constructor(forward: ForwardPass, setup: ShardSetup, backend: string) {
    const { rules, solverNodes } = setup.selfPlay;
    const openings = new TrainingOpenings(setup.openings, rules);
    const endgame =
      solverNodes > 0 && setup.endgameSeeds > 0 ? cachedEndgame(setup.endgameSeeds, rules) : null;
    this.selfPlay = new SearchSelfPlay(forward, setup.selfPlay, openings, endgame);
    this.#backend = backend;
  }

  /**
   * Carries the shard's games on (or starts fresh ones) with its own
   * generator for `moves` moves; `encode`: the positions come with their
   * observations (every shard played on this machine; not a queue's).
   */
  play(iteration: ShardIteration, encode = false): ShardResult {
    const { selfPlay } = this;
    const rng = Random.fromState([...iteration.rngState]);
    if (iteration.games === null) selfPlay.reset(rng);
    else selfPlay.importGames(iteration.games);
    const log = new PositionLog();
    const stats = selfPlay.collect(iteration.moves, log, rng);
    const start = performance.now();
    const positions = log.positions(encode ? selfPlay.encoder : undefined);
    return {
      games: selfPlay.exportGames(),
      rngState: rng.getState(),
      positions,
      // The shard's seconds (benchmarks weigh the shards by them) include the encoding.
      stats: { ...stats, seconds: stats.seconds + (performance.now() - start) / 1000 },
      backend: this.#backend,
    };
  }
}

interface WorkerPlayer {
  readonly inference: NetworkInference;
  readonly player: ShardPlayer;
}

// A worker thread plays shards of one run (a pool lives as long as its run):
// it builds a network and searches once per distinct setup (shards differ
// only when the games do not split evenly) and reuses them at every task,
// each task bringing the learner's weights.
const players = new Map<string, WorkerPlayer>();

async function playerFor(setup: ShardSetup, weights: MlpWeights): Promise<WorkerPlayer> {
  const key = JSON.stringify(setup);
  const known = players.get(key);
  const engine = await inferenceEngine(setup.inference, { tfjsBackend: setup.backend });
  const inference = await withWeights(engine, known?.inference ?? null, weights, { batched: true });
  if (known !== undefined) return known;
  const backend = await inferenceName(inference, setup.backend);
  const player = { inference, player: new ShardPlayer(inference.forward, setup, backend) };
  players.set(key, player);
  return player;
}

/**
 * Plays a shard's task in this thread (a self-play worker's job): builds or
 * reuses the shard's network and searches, takes the task's weights and plays
 * the iteration.
 */
export async function playShard(task: ShardTask): Promise<ShardResult> {
  const { player } = await playerFor(task.setup, task.weights);
  return player.play(task, task.encodePositions === true);
}
