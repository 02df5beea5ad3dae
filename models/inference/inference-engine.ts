import { isMainThread } from 'node:worker_threads';
import { loadBackend, type Tf } from '../backend.ts';
import type { BackendChoice } from '../backend-choice.ts';
import { InferenceError } from '../errors.ts';
import { type ForwardPass, type MlpWeights, plainForward, sameWeights } from '../mlp-runner.ts';
import { TfjsForward } from '../tfjs-forward.ts';
import { type InferenceChoice, inferenceChoice } from './choice.ts';
import { OnnxForward } from './onnx-forward.ts';
import { loadOnnxRuntime, type OnnxRuntime } from './onnx-runtime.ts';

/**
 * What runs a network's forward pass: `onnx` (onnxruntime-node, every batch
 * size), `tfjs` (the fallback: tfjs for batched callers, the plain runner for
 * single positions) or `plain` (the plain runner for everything).
 */
export type InferenceBackend = 'onnx' | 'tfjs' | 'plain';

/** A network's forward pass that takes new weights (the learner's, after each update). */
export interface NetworkInference {
  /** What runs this network's calls: `onnx`, `tfjs` or `plain`. */
  readonly runs: 'onnx' | 'tfjs' | 'plain';
  /** 6 logits and one value per row (see ForwardPass). */
  readonly forward: ForwardPass;
  /** Replaces the weights (a new session or new tensors; the old ones are released). */
  setWeights(weights: MlpWeights): void;
  /** Releases the session or tensors; the forward pass may not be called after. */
  dispose(): void;
}

export interface CreateInferenceOptions {
  /**
   * True when the calls come in batches (a batched search, self-play, PPO's
   * rollouts): on the fallback they go through tfjs, as single positions go
   * through the plain runner. With onnxruntime-node both run on it: it is
   * the fastest at every batch size from 1 on (bench/network-search.bench.ts).
   */
  readonly batched: boolean;
}

type Runner = { forward: ForwardPass; dispose(): void };

class Inference implements NetworkInference {
  #runner: Runner;
  #weights: MlpWeights;
  readonly forward: ForwardPass;

  constructor(
    readonly runs: 'onnx' | 'tfjs' | 'plain',
    private readonly make: (weights: MlpWeights) => Runner,
    weights: MlpWeights,
  ) {
    this.#runner = make(weights);
    this.#weights = weights;
    this.forward = (observations, batch, logits, values) =>
      this.#runner.forward(observations, batch, logits, values);
  }

  /**
   * Runs `weights` from here. The same values as now keep the runner: a
   * worker thread that plays several of an iteration's shards gets the same
   * weights with each, and a new onnxruntime session costs ~2 ms (3x256) to
   * their comparison's 0.1 ms.
   */
  setWeights(weights: MlpWeights): void {
    if (sameWeights(weights, this.#weights)) return;
    const next = this.make(weights);
    this.#runner.dispose();
    this.#runner = next;
    this.#weights = weights;
  }

  dispose(): void {
    this.#runner.dispose();
  }
}

function plainRunner(weights: MlpWeights): Runner {
  return { forward: plainForward(weights), dispose: () => {} };
}

/**
 * The inference backend of a thread, resolved once: onnxruntime-node loaded
 * (or found missing), tfjs loaded when a batched network first needs it.
 */
export class InferenceEngine {
  #tf: Promise<Tf> | null = null;

  constructor(
    readonly backend: InferenceBackend,
    /** onnxruntime-node when it runs the networks (the trainer computes its gradients on it too). */
    readonly runtime: OnnxRuntime | null,
    private readonly tfjsBackend: BackendChoice,
  ) {}

  /** One line for logs: what runs the networks. */
  describe(): string {
    if (this.backend === 'onnx') {
      return `onnxruntime-node ${this.runtime?.version ?? ''} (CPU, 1 thread a session)`;
    }
    if (this.backend === 'tfjs') return 'tfjs for batches, the plain runner for single positions';
    return 'the plain runner';
  }

  /** A network's forward pass on this backend (see CreateInferenceOptions for `batched`). */
  async create(weights: MlpWeights, options: CreateInferenceOptions): Promise<NetworkInference> {
    if (this.backend === 'tfjs' && options.batched) {
      this.#tf ??= loadBackend(this.tfjsBackend).then((loaded) => loaded.tf);
      const tf = await this.#tf;
      return new Inference('tfjs', (w) => new TfjsForward(tf, w), weights);
    }
    return this.createNow(weights);
  }

  /** As `create` with `batched: false` (no tfjs to load), made at once. */
  createNow(weights: MlpWeights): NetworkInference {
    const { runtime } = this;
    if (this.backend === 'onnx' && runtime !== null) {
      return new Inference('onnx', (w) => new OnnxForward(runtime, w), weights);
    }
    return new Inference('plain', plainRunner, weights);
  }
}

/**
 * A forward pass with `weights`: made on `engine` the first time (when
 * `inference` is null), else `inference` given the new weights.
 */
export async function withWeights(
  engine: InferenceEngine,
  inference: NetworkInference | null,
  weights: MlpWeights,
  options: CreateInferenceOptions,
): Promise<NetworkInference> {
  if (inference === null) return engine.create(weights, options);
  inference.setWeights(weights);
  return inference;
}

const engines = new Map<InferenceChoice, Promise<InferenceEngine>>();
let noted = false;

export interface InferenceEngineOptions {
  /** The tfjs backend the fallback loads for batches (default auto). */
  readonly tfjsBackend?: BackendChoice;
  /**
   * Where the one line goes that says onnxruntime-node did not load and what
   * runs instead (default: stderr, from the main thread only, once a process).
   */
  readonly note?: (line: string) => void;
}

/**
 * The inference engine for `choice` (default: the process's, AYOAYO_INFERENCE
 * or `--inference`), resolved once per thread. `auto` takes onnxruntime-node
 * where it loads, else falls back to tfjs and the plain runner with one line
 * saying so (never a crash); `onnx` without a working onnxruntime-node is an
 * InferenceError naming why.
 */
export function inferenceEngine(
  choice: InferenceChoice = inferenceChoice(),
  options: InferenceEngineOptions = {},
): Promise<InferenceEngine> {
  let engine = engines.get(choice);
  if (engine === undefined) {
    engine = resolve(choice, options);
    engines.set(choice, engine);
    // A failed resolution (`onnx` without the package) is not remembered: the error is the answer each time.
    engine.catch(() => engines.delete(choice));
  }
  return engine;
}

async function resolve(
  choice: InferenceChoice,
  options: InferenceEngineOptions,
): Promise<InferenceEngine> {
  const tfjsBackend = options.tfjsBackend ?? 'auto';
  if (choice === 'plain' || choice === 'tfjs')
    return new InferenceEngine(choice, null, tfjsBackend);
  const { runtime, reason } = await loadOnnxRuntime();
  if (runtime !== null) return new InferenceEngine('onnx', runtime, tfjsBackend);
  if (choice === 'onnx') {
    throw new InferenceError(
      `inference onnx needs onnxruntime-node: ${reason}; use --inference auto or tfjs`,
    );
  }
  const engine = new InferenceEngine('tfjs', null, tfjsBackend);
  const note = options.note ?? noteOncePerProcess;
  note(`ayoayo: ${reason}; inference runs on ${engine.describe()}`);
  return engine;
}

function noteOncePerProcess(line: string): void {
  if (noted || !isMainThread) return;
  noted = true;
  process.stderr.write(`${line}\n`);
}
