import { Random } from '../../env/random.ts';
import { loadBackend } from '../../models/backend.ts';
import type { BackendChoice } from '../../models/backend-choice.ts';
import {
  type InferenceEngine,
  inferenceEngine,
  type NetworkInference,
  withWeights,
} from '../../models/inference/inference-engine.ts';
import type { MlpWeights } from '../../models/mlp-runner.ts';
import type {
  PlayerOf,
  ShardIteration,
  ShardPlayer,
  ShardResult,
  ShardSetup,
  ShardTask,
} from './protocol.ts';

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

/** Plays one iteration with `player`, its generator made from the iteration's state and given back. */
export function playIteration<C, O>(
  player: ShardPlayer<C, O>,
  iteration: ShardIteration<C>,
  local: boolean,
  backend: string,
): ShardResult<C, O> {
  const rng = Random.fromState([...iteration.rngState]);
  const played = player.play(iteration.carry, iteration.moves, rng, local);
  return { ...played, rngState: rng.getState(), backend };
}

/** A network with its forward pass, and the shard players that run it in one thread. */
export class ShardPlayers {
  #inference: NetworkInference | null = null;
  #backend = '';
  readonly #players = new Map<string, ShardPlayer>();

  /** `engine`: what runs the network here; tfjs on `tfjsBackend`; `playerOf` makes a setup's player. */
  constructor(
    private readonly engine: InferenceEngine,
    private readonly tfjsBackend: BackendChoice,
    private readonly playerOf: PlayerOf,
  ) {}

  /** Takes `weights` into the network (built at the first call, its session kept for the same weights). */
  async load(weights: MlpWeights): Promise<void> {
    const first = this.#inference === null;
    this.#inference = await withWeights(this.engine, this.#inference, weights, { batched: true });
    if (first) this.#backend = await inferenceName(this.#inference, this.tfjsBackend);
  }

  /** One iteration of a shard of `setup` with the weights loaded last; its player is built once per setup. */
  async play<C, O>(setup: ShardSetup, iteration: ShardIteration<C>, local: boolean) {
    const inference = this.#inference;
    if (inference === null) throw new Error('a shard played before any weights were loaded');
    const key = JSON.stringify(setup);
    let player = this.#players.get(key);
    if (player === undefined) {
      player = await this.playerOf(setup, inference.forward);
      this.#players.set(key, player);
    }
    const made: ShardPlayer = player;
    // The player was built by the algorithm named in the setup, whose shards carry C and give O.
    return playIteration(made as ShardPlayer<C, O>, iteration, local, this.#backend);
  }

  dispose(): void {
    this.#inference?.dispose();
    this.#inference = null;
  }
}

// A worker thread plays shards of one run (a pool lives as long as its run):
// one network per inference setup and a player per shard setup, reused at
// every task, each task bringing the learner's weights.
const threadPlayers = new Map<string, ShardPlayers>();

/**
 * Plays a shard's task in this thread (a worker thread's job): builds or
 * reuses the network and the shard's player (`playerOf`), takes the task's
 * weights and plays the iteration.
 */
export async function playShard(task: ShardTask, playerOf: PlayerOf): Promise<ShardResult> {
  const { inference, backend } = task.setup;
  const key = JSON.stringify({ inference, backend });
  let players = threadPlayers.get(key);
  if (players === undefined) {
    const engine = await inferenceEngine(inference, { tfjsBackend: backend });
    players = new ShardPlayers(engine, backend, playerOf);
    threadPlayers.set(key, players);
  }
  await players.load(task.weights);
  return players.play(task.setup, task, task.local);
}
