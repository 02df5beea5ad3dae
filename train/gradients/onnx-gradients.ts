import {
  ONE_THREAD_SESSION,
  type OnnxRuntime,
  type OrtNativeSession,
  type OrtTensor,
} from '../../models/inference/onnx-runtime.ts';
import type { NetworkConfig } from '../../models/policy-value-model.ts';
import {
  buildGradientGraph,
  type GradientGraphOptions,
  gradientName,
  type WeightShape,
  weightShapes,
} from './gradient-graph.ts';
import {
  dataInputs,
  GRADIENT_INPUTS,
  lossStats,
  type PolicyTerm,
  ROW_WEIGHT,
} from './policy-term.ts';

/**
 * A minibatch as the gradient graph's data inputs: each input's rows in one
 * array (rows 0..size-1 used), named as in GRADIENT_INPUTS.
 */
export interface GradientBatch {
  readonly size: number;
  readonly columns: Readonly<Record<string, Float32Array>>;
  /** For a sliced session: 1 / the rows of the whole minibatch these rows are a slice of. */
  readonly rowWeight?: number;
}

/** One step's gradients (in weight order) and the loss's statistics (in `lossStats` order). */
export interface Gradients {
  readonly gradients: readonly Float32Array[];
  readonly stats: Float32Array;
}

interface Binding {
  readonly observations: Float32Array;
  readonly feeds: Record<string, OrtTensor>;
}

/**
 * A minibatch's loss gradients computed by onnxruntime-node from the gradient
 * graph of one loss (gradient-graph.ts), for a network whose weights the
 * caller passes in at each step (the optimizer stays the caller's). Outputs are
 * written into arrays this object owns, reused from step to step.
 *
 * `threads` is the session's intra-op thread count. One thread and two may
 * round some products apart, so a run's count never follows its workers or
 * cores: the runs of before `updateSlices` take UPDATE_THREADS
 * (minibatch-updater.ts), the others one-thread sessions of slices
 * (sliced-gradients.ts); a session of a given count repeats its gradients bit
 * for bit (a test checks it). A `sliced` session computes a slice of a larger
 * minibatch (gradient-graph.ts): its batches carry `rowWeight`.
 */
export class OnnxGradients {
  /** Sessions not yet released (for tests and leak checks). */
  static live = 0;
  readonly weights: readonly WeightShape[];
  readonly #runtime: OnnxRuntime;
  readonly #session: OrtNativeSession;
  readonly #inputs: readonly { name: string; width: number }[];
  readonly #gradients: Float32Array[];
  readonly #stats: Float32Array;
  readonly #fetches: Record<string, OrtTensor> = {};
  readonly #bindings = new Map<number, Binding>();
  /** A sliced session's row weight, fed as a scalar. */
  readonly #rowWeight: { readonly value: Float32Array; readonly tensor: OrtTensor } | null;
  #disposed = false;

  constructor(
    runtime: OnnxRuntime,
    inputSize: number,
    network: NetworkConfig,
    readonly loss: PolicyTerm,
    threads = 1,
    { sliced = false }: GradientGraphOptions = {},
  ) {
    if (!Number.isInteger(threads) || threads < 1) {
      throw new Error(`the gradient session's threads must be a positive integer, got ${threads}`);
    }
    this.#runtime = runtime;
    this.weights = weightShapes(inputSize, network);
    this.#inputs = dataInputs(inputSize, loss);
    const graph = buildGradientGraph(inputSize, network, loss, { sliced });
    this.#session = runtime.newSession();
    this.#session.loadModel(graph.buffer as ArrayBuffer, graph.byteOffset, graph.byteLength, {
      ...ONE_THREAD_SESSION,
      intraOpNumThreads: threads,
      // onnxruntime's pool threads otherwise spin after each step: a core
      // burnt through the self-play or the rollouts that follow.
      extra: { session: { intra_op: { allow_spinning: '0' } } },
    });
    OnnxGradients.live++;
    const value = new Float32Array(1);
    this.#rowWeight = sliced ? { value, tensor: new runtime.Tensor('float32', value, []) } : null;
    this.#gradients = this.weights.map((w) => new Float32Array(w.shape.reduce((a, b) => a * b, 1)));
    const stats = lossStats(loss);
    this.#stats = new Float32Array(stats.length);
    stats.forEach((name, i) => {
      this.#fetches[name] = new runtime.Tensor('float32', this.#stats.subarray(i, i + 1), []);
    });
    this.weights.forEach((w, i) => {
      this.#fetches[gradientName(w.name)] = new runtime.Tensor(
        'float32',
        this.#gradients[i] as Float32Array,
        w.shape,
      );
    });
  }

  /**
   * The gradients of the loss over `batch` at `weights` (one array per weight,
   * in order). The arrays returned are this object's, overwritten by the next call.
   */
  compute(batch: GradientBatch, weights: readonly Float32Array[]): Gradients {
    if (this.#disposed) throw new Error('the onnxruntime gradient session was released');
    if (weights.length !== this.weights.length) {
      throw new Error(`expected ${this.weights.length} weight arrays, got ${weights.length}`);
    }
    const observations = batch.columns[GRADIENT_INPUTS.observation];
    let binding = this.#bindings.get(batch.size);
    if (binding === undefined || binding.observations !== observations) {
      binding = this.#bind(batch);
      this.#bindings.set(batch.size, binding);
    }
    const feeds = { ...binding.feeds };
    if (this.#rowWeight !== null) {
      if (batch.rowWeight === undefined) {
        throw new Error("a sliced gradient session's batch needs its rowWeight");
      }
      this.#rowWeight.value[0] = batch.rowWeight;
      feeds[ROW_WEIGHT] = this.#rowWeight.tensor;
    }
    this.weights.forEach((w, i) => {
      feeds[w.name] = new this.#runtime.Tensor('float32', weights[i] as Float32Array, w.shape);
    });
    this.#session.run(feeds, this.#fetches, {});
    return { gradients: this.#gradients, stats: this.#stats };
  }

  /** Tensors over the batch's arrays, reused while the caller keeps the same arrays. */
  #bind(batch: GradientBatch): Binding {
    const n = batch.size;
    const feeds: Record<string, OrtTensor> = {};
    for (const { name, width } of this.#inputs) {
      const array = batch.columns[name];
      if (array === undefined || array.length < n * width) {
        throw new Error(
          `the gradient batch's ${name} needs ${n * width} floats (${n} rows of ${width}), got ${array?.length ?? 'none'}`,
        );
      }
      feeds[name] = new this.#runtime.Tensor('float32', array.subarray(0, n * width), [n, width]);
    }
    return { observations: batch.columns[GRADIENT_INPUTS.observation] as Float32Array, feeds };
  }

  /** Releases the native session. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    OnnxGradients.live--;
    this.#session.dispose();
  }
}
