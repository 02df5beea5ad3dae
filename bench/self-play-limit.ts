/**
 * The practical limit of expert iteration's self-play on this machine: what
 * a searched move would cost if everything but the network and the
 * observation encoder were free, the network ran as onnxruntime runs it
 * alone and the encoder as fast as the same encoder in C
 * (bench/c/lookahead.c). Measured on the self-play's own work: a run of the
 * preset from the same seed as the self-play bench's, its shards played in
 * this thread (the run is the same on any number of workers), records the
 * row count of every forward call and every position it encodes; then the
 * preset's network runs those row counts on an onnxruntime session alone,
 * and the C encoder encodes those positions. docs/engine-speed.md says how
 * it is read.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { coreEncoding, SearchCore } from '../agents/puct/core/search-core.ts';
import { type ObservationConfig, ObservationEncoder } from '../env/gym/observation.ts';
import { core, DEFAULT_RULES, sameRules } from '../env/index.ts';
import { type InferenceEngine, withWeights } from '../models/inference/inference-engine.ts';
import { OnnxForward } from '../models/inference/onnx-forward.ts';
import { loadOnnxRuntime } from '../models/inference/onnx-runtime.ts';
import { type MlpWeights, NUM_ACTIONS } from '../models/mlp-runner.ts';
import { algorithmOf } from '../train/algorithm/registry.ts';
import { observationOf, type TrainConfig } from '../train/settings/schema.ts';
import { playIteration } from '../train/shards/play-shard.ts';
import type {
  ShardIteration,
  ShardPlayer,
  ShardResult,
  ShardRunner,
  ShardRunnerContext,
} from '../train/shards/protocol.ts';
import {
  compileNativeEncoder,
  type EncodeFn,
  type EncodeRun,
  observationChecksum,
  timeEncodes,
  typescriptEncoder,
  type YardstickEncoding,
} from './encoder-yardstick.ts';
import { median } from './median.ts';

const { STATE_SIZE } = core;

/** What one iteration of the recorded run asked of the network and the encoder. */
export interface IterationWork {
  /** Searched moves played. */
  readonly moves: number;
  /** Rows of each forward call, in order. */
  readonly rows: readonly number[];
  /** Every position encoded (leaves, and the logged positions), STATE_SIZE bytes each. */
  readonly states: Uint8Array;
  /** The weights the iteration's shards played with. */
  readonly weights: MlpWeights;
  /** Floats an observation. */
  readonly inputSize: number;
  /** Seconds the forward calls took inside the self-play (one thread: its CPU time, near enough). */
  readonly forwardSeconds: number;
  /** Seconds the iteration's shards took to play, forward calls included. */
  readonly playSeconds: number;
}

/** Positions as they are encoded: a growing byte buffer. */
class StateLog {
  #bytes = new Uint8Array(1 << 20);
  #length = 0;

  add(state: Uint8Array): void {
    if (this.#length + STATE_SIZE > this.#bytes.length) {
      const next = new Uint8Array(this.#bytes.length * 2);
      next.set(this.#bytes);
      this.#bytes = next;
    }
    for (let i = 0; i < STATE_SIZE; i++) this.#bytes[this.#length + i] = state[i] as number;
    this.#length += STATE_SIZE;
  }

  take(): Uint8Array {
    const out = this.#bytes.slice(0, this.#length);
    this.#length = 0;
    return out;
  }
}

/**
 * Plays every shard in this thread as the local runner does (one forward
 * pass taking the learner's weights), recording each iteration's work: the
 * rows of every forward call, and every position an observation encoder
 * encodes while the shards play (ObservationEncoder's encode, watched for
 * the length of a play: whatever encodes them, the algorithm's own code).
 */
export class RecordingShards<C, O> implements ShardRunner<C, O> {
  /** One entry an iteration played. */
  readonly iterations: IterationWork[] = [];
  /** The run's config (its rules and observation). */
  readonly config: TrainConfig;
  readonly #engine: InferenceEngine;
  readonly #context: ShardRunnerContext<C, O>;
  #inference: Awaited<ReturnType<typeof withWeights>> | null = null;
  #players: ShardPlayer<C, O>[] = [];
  #rows: number[] = [];
  #forwardSeconds = 0;
  readonly #states = new StateLog();

  constructor(engine: InferenceEngine, context: ShardRunnerContext<C, O>) {
    this.#engine = engine;
    this.#context = context;
    this.config = context.config;
    if (context.setups.length === 0) throw new Error('recording self-play: no shard');
  }

  async play(
    iterations: readonly ShardIteration<C>[],
    weights: MlpWeights,
  ): Promise<ShardResult<C, O>[]> {
    const inference = await withWeights(this.#engine, this.#inference, weights, { batched: true });
    if (this.#inference === null) {
      this.#inference = inference;
      const { shards } = algorithmOf(this.config);
      if (shards === null) throw new Error(`${this.config.algorithm} plays no shards`);
      const forward: typeof inference.forward = (observations, batch, logits, values) => {
        this.#rows.push(batch);
        const start = performance.now();
        inference.forward(observations, batch, logits, values);
        this.#forwardSeconds += (performance.now() - start) / 1000;
      };
      this.#players = await Promise.all(
        // The player of the run's algorithm, whose shards carry C and give O.
        this.#context.setups.map(
          async (setup) => (await shards.player(setup.play, forward)) as ShardPlayer<C, O>,
        ),
      );
    }
    const encode = ObservationEncoder.prototype.encode;
    const states = this.#states;
    ObservationEncoder.prototype.encode = function (this: ObservationEncoder, state, out, offset) {
      states.add(state);
      return encode.call(this, state, out, offset);
    };
    // The search core encodes its leaves in WebAssembly.
    SearchCore.watchEncodes = (encoded, count) => {
      for (let k = 0; k < count; k++) states.add(encoded.subarray(k * STATE_SIZE));
    };
    let results: ShardResult<C, O>[];
    const start = performance.now();
    try {
      results = iterations.map((it, i) =>
        playIteration(this.#players[i] as ShardPlayer<C, O>, it, true, inference.runs),
      );
    } finally {
      ObservationEncoder.prototype.encode = encode;
      SearchCore.watchEncodes = null;
    }
    this.iterations.push({
      moves: results.reduce((sum, r) => sum + r.stats.plies, 0),
      rows: this.#rows,
      states: this.#states.take(),
      weights,
      inputSize: weights.inputSize,
      forwardSeconds: this.#forwardSeconds,
      playSeconds: (performance.now() - start) / 1000,
    });
    this.#rows = [];
    this.#forwardSeconds = 0;
    return results;
  }

  dispose(): Promise<void> {
    this.#inference?.dispose();
    return Promise.resolve();
  }
}

/** The limit of one preset's self-play, per searched move, and what it is made of. */
export interface SelfPlayLimit {
  /** CPU seconds a searched move at the limit: the network's part and the encoder's. */
  readonly secondsPerMove: number;
  readonly forwardSecondsPerMove: number;
  readonly encoderSecondsPerMove: number;
  /** Mean rows a forward call, and encodes a searched move. */
  readonly meanRows: number;
  readonly encodesPerMove: number;
  /** The C encoder's and the TypeScript encoder's rates on the recorded positions (per CPU second). */
  readonly cEncodesPerSec: number;
  readonly tsEncodesPerSec: number;
  /**
   * A search that costs nothing: the recorded forward calls, each after the
   * TypeScript encoder wrote its rows (replayForwardCalls), CPU seconds a move
   * in all and in the forward calls alone.
   */
  readonly searchFreeSecondsPerMove: number;
  readonly searchFreeForwardSecondsPerMove: number;
  /** The recorded self-play's seconds a move, in all and in its forward calls (one thread). */
  readonly playSecondsPerMove: number;
  readonly playForwardSecondsPerMove: number;
}

function cpuSecondsSince(from: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1e6;
}

/**
 * The recorded iterations' forward calls replayed in order on an onnxruntime
 * session of their own (the last iteration's weights, the calls' arrays
 * reused as the self-play reuses its own): CPU seconds in all and in the
 * forward calls, the median of `rounds` passes after one to warm up.
 *
 * `encode` null: the calls alone, on fixed rows (the limit's network part).
 * Else a search that costs nothing: before each call `encode` writes its rows
 * from the recorded positions, spread over the calls in proportion to their
 * rows (the leaves, and the logged positions between them). This shows how
 * much the encoder's work between the calls costs the network, and the
 * ceiling of any search core that keeps this encoder and onnxruntime.
 */
async function replayForwardCalls(
  work: readonly IterationWork[],
  rounds: number,
  encode: EncodeFn | null,
): Promise<{ seconds: number; forwardSeconds: number }> {
  const { runtime, reason } = await loadOnnxRuntime();
  if (runtime === null) throw new Error(`the self-play limit needs onnxruntime-node: ${reason}`);
  const last = work[work.length - 1] as IterationWork;
  const size = last.inputSize;
  const forward = new OnnxForward(runtime, last.weights);
  try {
    const most = Math.max(...work.flatMap((w) => w.rows));
    const observations = new Float32Array(most * size).map((_, i) => (i % 7) / 10);
    const logits = new Float32Array(most * NUM_ACTIONS);
    const values = new Float32Array(most);
    const alone = (): { seconds: number; forwardSeconds: number } => {
      const start = process.cpuUsage();
      for (const { rows } of work) {
        for (const n of rows) forward.forward(observations, n, logits, values);
      }
      const seconds = cpuSecondsSince(start);
      return { seconds, forwardSeconds: seconds };
    };
    const searchFree = (write: EncodeFn): { seconds: number; forwardSeconds: number } => {
      let forwardSeconds = 0;
      const start = process.cpuUsage();
      for (const { rows, states } of work) {
        const total = rows.reduce((sum, n) => sum + n, 0);
        const positions = states.length / STATE_SIZE;
        let rowsDone = 0;
        let encoded = 0;
        for (const n of rows) {
          rowsDone += n;
          const upTo = Math.round((rowsDone * positions) / total);
          for (let row = 0; encoded < upTo; encoded++, row = (row + 1) % n) {
            const at = encoded * STATE_SIZE;
            write(states.subarray(at, at + STATE_SIZE), observations, row * size);
          }
          const before = process.cpuUsage();
          forward.forward(observations, n, logits, values);
          forwardSeconds += cpuSecondsSince(before);
        }
      }
      return { seconds: cpuSecondsSince(start), forwardSeconds };
    };
    const pass = () => (encode === null ? alone() : searchFree(encode));
    pass();
    const passes = Array.from({ length: rounds }, pass);
    return {
      seconds: median(passes.map((p) => p.seconds)),
      forwardSeconds: median(passes.map((p) => p.forwardSeconds)),
    };
  } finally {
    forward.dispose();
  }
}

/** Encodes a second of CPU time. */
const encodeRate = (run: EncodeRun): number => run.encodes / (run.cpuMs / 1000);

/**
 * The C encoder's and the TypeScript encoder's rates on `states` (the
 * recorded positions) in `encoding`, the median of `rounds` alternating
 * rounds of `seconds`, after checking that C writes the TypeScript
 * encoder's observations bit for bit.
 */
function encoderRates(
  states: Uint8Array,
  encoding: YardstickEncoding,
  inputSize: number,
  rounds: number,
  seconds: number,
): { c: number; ts: number } {
  const native = compileNativeEncoder();
  if (typeof native === 'string') throw new Error(`the self-play limit needs C: ${native}`);
  const dir = mkdtempSync(join(tmpdir(), 'ayoayo-limit-'));
  try {
    const file = join(dir, 'positions');
    writeFileSync(file, states);
    const count = states.length / STATE_SIZE;
    const input = { encoding, file };
    const ts = typescriptEncoder(DEFAULT_RULES, encoding);
    const expected = observationChecksum(ts, states, inputSize);
    const got = native.verify(count, DEFAULT_RULES, input);
    if (got !== expected) {
      throw new Error(
        `bench/c/lookahead.c writes other observations than the encoder on the self-play's positions: checksum ${got}, TypeScript ${expected}`,
      );
    }
    timeEncodes(ts, states, seconds, inputSize); // warm-up for the JIT
    const c: number[] = [];
    const t: number[] = [];
    for (let r = 0; r < rounds; r++) {
      c.push(encodeRate(native.time(count, seconds, input)));
      t.push(encodeRate(timeEncodes(ts, states, seconds, inputSize)));
    }
    return { c: median(c), ts: median(t) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    native.dispose();
  }
}

/** What the C yardstick encodes of an observation config (the core's encoder.h), or why it cannot. */
export function yardstickEncoding(observation: ObservationConfig): YardstickEncoding {
  const encoding = coreEncoding(observation);
  if (encoding !== null) return encoding;
  throw new Error(
    `the C encoder writes the board as counts or a thermometer with lookahead over counts, not ${JSON.stringify(observation)}`,
  );
}

/**
 * The limit of the recorded iterations' self-play: their forward calls on
 * onnxruntime alone and their encodes at the C encoder's rate, per searched
 * move. The rules must be the default ones (the C encoder's timing runs them).
 */
export async function selfPlayLimit(
  work: readonly IterationWork[],
  config: TrainConfig,
  options: { readonly rounds?: number; readonly encoderSeconds?: number } = {},
): Promise<SelfPlayLimit> {
  const { rounds = 3, encoderSeconds = 1 } = options;
  if (!sameRules(config.rules, DEFAULT_RULES)) {
    throw new Error('the self-play limit is measured under the default rules');
  }
  const last = work[work.length - 1];
  if (last === undefined) throw new Error('the self-play limit needs a recorded iteration');
  const moves = work.reduce((sum, w) => sum + w.moves, 0);
  const rows = work.flatMap((w) => w.rows);
  const forward = (await replayForwardCalls(work, rounds, null)).seconds;
  const states = concat(work.map((w) => w.states));
  const encodes = states.length / STATE_SIZE;
  const encoding = yardstickEncoding(observationOf(config));
  const rates = encoderRates(states, encoding, last.inputSize, rounds, encoderSeconds);
  const searchFree = await replayForwardCalls(
    work,
    rounds,
    typescriptEncoder(DEFAULT_RULES, encoding),
  );
  const forwardSecondsPerMove = forward / moves;
  const encoderSecondsPerMove = encodes / rates.c / moves;
  return {
    secondsPerMove: forwardSecondsPerMove + encoderSecondsPerMove,
    forwardSecondsPerMove,
    encoderSecondsPerMove,
    meanRows: rows.reduce((sum, n) => sum + n, 0) / rows.length,
    encodesPerMove: encodes / moves,
    cEncodesPerSec: rates.c,
    tsEncodesPerSec: rates.ts,
    searchFreeSecondsPerMove: searchFree.seconds / moves,
    searchFreeForwardSecondsPerMove: searchFree.forwardSeconds / moves,
    playSecondsPerMove: work.reduce((sum, w) => sum + w.playSeconds, 0) / moves,
    playForwardSecondsPerMove: work.reduce((sum, w) => sum + w.forwardSeconds, 0) / moves,
  };
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * Floating-point operations of one training sample's forward and backward
 * pass through `weights`' dense layers: 2 in x out each way for every
 * layer, forward and for the weights' gradients, and for the inputs'
 * gradients of every layer but the first (the observation needs none).
 */
export function updateFlopsPerSample(weights: MlpWeights): number {
  const layers = [...weights.hidden, weights.policy, weights.value];
  const products = layers.map((l) => 2 * l.inputSize * l.outputSize);
  const all = products.reduce((sum, f) => sum + f, 0);
  return 3 * all - (products[0] as number);
}
