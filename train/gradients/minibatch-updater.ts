import type * as tfType from '@tensorflow/tfjs';
import type { Random } from '../../env/random.ts';
import type { Tf } from '../../models/backend.ts';
import type { OnnxRuntime } from '../../models/inference/onnx-runtime.ts';
import type { NetworkConfig } from '../../models/policy-value-model.ts';
import { shuffledOrder } from './minibatch-rows.ts';
import { type GradientBatch, type Gradients, OnnxGradients } from './onnx-gradients.ts';
import { type GradientSource, OnnxGradientStep } from './onnx-step.ts';
import type { PolicyTerm } from './policy-term.ts';
import type { SliceThreads } from './slice-task.ts';
import { SlicedGradients } from './sliced-gradients.ts';
import { tfjsGradientStep } from './tfjs-step.ts';

/** What an updater needs to compute its gradients on onnxruntime-node. */
export interface OnnxGradientOptions {
  readonly runtime: OnnxRuntime;
  /** The model's shape, for the gradient graph (checked against the model's weights). */
  readonly network: NetworkConfig;
  /**
   * The run's `updateSlices`: each minibatch's gradients as this many slices'
   * on one-thread sessions, added in slice order; null (runs from before the
   * setting) for one session of UPDATE_THREADS threads over the whole minibatch.
   */
  readonly slices?: number | null;
  /** Worker threads the slices may run on (none: this thread). */
  readonly threads?: SliceThreads | null;
  /** Where the one line goes when the gradient session fails and tfjs takes over (stderr if not given). */
  readonly note?: (line: string) => void;
}

/**
 * The one gradient session's intra-op threads in the runs from before
 * `updateSlices` (their config has none), whatever their workers and cores.
 * onnxruntime splits some matrix products between its threads by their
 * number, which rounds the gradients differently for some minibatch sizes (an
 * epoch's last, shorter one), so a count that followed the workers would make
 * a run's results depend on them and on the machine's cores. The runs of
 * today cut each minibatch into slices instead (sliced-gradients.ts), which
 * any number of threads computes alike.
 */
export const UPDATE_THREADS = 2;

const toStderr = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/** How an update walks its rows: passes, rows a step, and whether a short last minibatch is left out. */
export interface MinibatchPlan {
  readonly epochs: number;
  readonly minibatchSize: number;
  /** Leave out an epoch's last minibatch when it has fewer than half a minibatch's rows (PPO: its normalised advantages are noisy). */
  readonly skipShortTail: boolean;
  /** The largest gradient norm applied (larger ones are scaled down to it). */
  readonly maxGradNorm: number;
}

/** What an update's steps came to: the means of its loss's statistics (in `lossStats` order) over its steps. */
export interface UpdateRun {
  readonly means: readonly number[];
  /** Rows run through the steps, epochs counted. */
  readonly samples: number;
  readonly seconds: number;
}

/** The rows of one minibatch step: rows `order[from]` .. `order[from + size - 1]`. */
interface PlannedMinibatch {
  readonly from: number;
  readonly size: number;
}

/** A loss in tfjs over a minibatch's first `size` rows: the total and its statistics (`lossStats` order). */
export type TfjsLoss = { total: tfType.Scalar; parts: tfType.Tensor[] };

/**
 * The update every algorithm runs, written once: `epochs` passes over the
 * rows, each shuffled (drawn from the run's generator as its first minibatch
 * is asked for), cut into minibatches, one gradient step each, the gradients
 * clipped by global norm. The next minibatch is filled into a second set of
 * arrays while a step's slices compute on the worker threads. The gradients
 * come from onnxruntime-node when the updater is given the runtime (it builds
 * the gradient graph of the algorithm's policy term), else from tfjs; Adam and
 * the clipping give tfjs's wasm floats either way (float-adam.ts). A gradient
 * session that fails to load, or fails at a step, hands over to tfjs with one
 * line: the run goes on (its floats then round as tfjs's do).
 *
 * An algorithm's updater says what a minibatch holds (`slot`), how its rows
 * are filled from the algorithm's buffer `B` (`fill`), how they read as the
 * gradient graph's columns and as tfjs's loss.
 */
export abstract class MinibatchUpdater<B, M> {
  protected readonly variables: tfType.Variable[];
  #onnx: OnnxGradientStep | null = null;
  readonly #note: (line: string) => void;
  /** Two minibatches: the step's, and the next one, filled while the step's slices are computed. */
  #slots: [M, M] | null = null;
  #slot = 0;
  #order = new Int32Array(0);
  /** Seconds spent filling minibatches (benchmarks: work that overlaps the slices' threads). */
  fillSeconds = 0;

  constructor(
    protected readonly tf: Tf,
    protected readonly model: tfType.LayersModel,
    readonly optimizer: tfType.AdamOptimizer,
    protected readonly plan: MinibatchPlan,
    protected readonly inputSize: number,
    term: PolicyTerm,
    onnx: OnnxGradientOptions | null,
  ) {
    this.variables = model.trainableWeights.map((w) => w.read() as tfType.Variable);
    this.#note = onnx?.note ?? toStderr;
    if (onnx === null) return;
    let gradients: GradientSource;
    try {
      const slices = onnx.slices ?? null;
      gradients =
        slices === null
          ? new OnnxGradients(onnx.runtime, inputSize, onnx.network, term, UPDATE_THREADS)
          : new SlicedGradients(
              onnx.runtime,
              { inputSize, network: onnx.network, loss: term },
              slices,
              plan.minibatchSize,
              onnx.threads ?? null,
            );
    } catch (error) {
      this.#handOver(`its gradient session did not load (${messageOf(error)})`);
      return;
    }
    try {
      this.#onnx = new OnnxGradientStep(tf, this.variables, optimizer, gradients, plan.maxGradNorm);
    } catch (error) {
      // A graph that is not the model's is a caller's mistake, not a runtime fault: no fallback.
      gradients.dispose();
      throw error;
    }
  }

  /** The arrays of one minibatch of up to `rows` rows. */
  protected abstract slot(rows: number): M;

  /** Fills the first `size` rows of `into` with rows `order[from]` .. of `buffer`. */
  protected abstract fill(buffer: B, order: Int32Array, from: number, size: number, into: M): void;

  /** The minibatch as the gradient graph's inputs, by name. */
  protected abstract columns(minibatch: M): Readonly<Record<string, Float32Array>>;

  /** The loss of the minibatch's first `size` rows in tfjs (inside tf.variableGrads). */
  protected abstract tfjsLoss(minibatch: M, size: number): TfjsLoss;

  /** The first `size` rows of a minibatch's column of `width` floats a row, as a tensor ([size] for one). */
  protected rows(column: Float32Array, width: number, size: number): tfType.Tensor {
    const values = column.subarray(0, size * width);
    return width === 1 ? this.tf.tensor1d(values) : this.tf.tensor2d(values, [size, width]);
  }

  /** Releases the gradient session (the model and optimizer are the learner's). */
  dispose(): void {
    this.#onnx?.dispose();
  }

  /** What computes the gradients: `onnx` (onnxruntime-node) or `tfjs`. */
  get gradientBackend(): 'onnx' | 'tfjs' {
    return this.#onnx === null ? 'tfjs' : 'onnx';
  }

  /**
   * Where the gradients are computed, for the run's first line: `8 slices on
   * 4 threads` (or `on 1 thread`: this one), `one session of 2 threads`, or
   * `tfjs`.
   */
  get gradientThreads(): string {
    const source = this.#onnx?.gradients;
    if (source === undefined) return 'tfjs';
    if (source instanceof SlicedGradients) {
      return `${source.slices} slices on ${source.threads} thread${source.threads === 1 ? '' : 's'}`;
    }
    return `one session of ${UPDATE_THREADS} threads`;
  }

  /** Seconds this thread spent on the slices' gradients and sums so far (benchmarks; 0 on worker threads or one session). */
  get sliceSeconds(): number {
    const source = this.#onnx?.gradients;
    return source instanceof SlicedGradients ? source.hereSeconds : 0;
  }

  /**
   * The update's steps over the first `rows` rows of `buffer` (see the class),
   * then the weights and Adam's state given back to tfjs and the threads its
   * gradients used freed, so that self-play has them again.
   */
  protected async run(buffer: B, rows: number, rng: Random): Promise<UpdateRun> {
    try {
      return await this.#steps(buffer, rows, rng);
    } finally {
      await this.#onnx?.end();
    }
  }

  async #steps(buffer: B, rows: number, rng: Random): Promise<UpdateRun> {
    const start = performance.now();
    if (this.#order.length < rows) this.#order = new Int32Array(rows);
    this.#slots ??= [this.slot(this.plan.minibatchSize), this.slot(this.plan.minibatchSize)];
    const plan = this.#plan(rows, rng);
    const totals: number[] = [];
    let steps = 0;
    let samples = 0;
    let current = plan.next();
    this.#slot = 0;
    if (!current.done) this.#fill(buffer, current.value, 0);
    while (!current.done) {
      const { size } = current.value;
      let upcoming: IteratorResult<PlannedMinibatch> = { done: true, value: undefined };
      const stats = await this.#step(size, () => {
        upcoming = plan.next();
        if (!upcoming.done) this.#fill(buffer, upcoming.value, 1 - this.#slot);
      });
      for (let s = 0; s < stats.length; s++) totals[s] = (totals[s] ?? 0) + (stats[s] as number);
      steps++;
      samples += size;
      current = upcoming;
      this.#slot = 1 - this.#slot;
    }
    const d = Math.max(1, steps);
    return {
      means: totals.map((total) => total / d),
      samples,
      seconds: (performance.now() - start) / 1000,
    };
  }

  /** The update's minibatches in order: each epoch's rows shuffled, cut into minibatches. */
  *#plan(n: number, rng: Random): Generator<PlannedMinibatch> {
    const { epochs, minibatchSize, skipShortTail } = this.plan;
    const order = this.#order;
    for (let epoch = 0; epoch < epochs; epoch++) {
      shuffledOrder(order, n, rng);
      for (let from = 0; from < n; from += minibatchSize) {
        const size = Math.min(minibatchSize, n - from);
        if (skipShortTail && size < Math.min(minibatchSize, n) / 2) break;
        yield { from, size };
      }
    }
  }

  #fill(buffer: B, { from, size }: PlannedMinibatch, slot: number): void {
    const start = performance.now();
    const slots = this.#slots as [M, M];
    this.fill(buffer, this.#order, from, size, slots[slot] as M);
    this.fillSeconds += (performance.now() - start) / 1000;
  }

  /** The step's minibatch. */
  #current(): M {
    return (this.#slots as [M, M])[this.#slot] as M;
  }

  /**
   * One gradient step over the first `size` rows of the step's minibatch;
   * returns the loss's statistics. `prepareNext` (once, before the step
   * returns) fills the next minibatch into the other arrays: where the
   * step's slices run on worker threads, while they compute.
   */
  async #step(size: number, prepareNext: () => void): Promise<ArrayLike<number>> {
    let prepared = false;
    // Kept until the step ends: thrown inside it, it would stop the step with its slices half taken.
    let failure: { readonly error: unknown } | null = null;
    const meanwhile = (): void => {
      if (prepared) return;
      prepared = true;
      try {
        prepareNext();
      } catch (error) {
        failure = { error };
      }
    };
    const stats = await this.#stepNow(size, meanwhile);
    meanwhile();
    if (failure !== null) throw (failure as { readonly error: unknown }).error;
    return stats;
  }

  async #stepNow(size: number, meanwhile: () => void): Promise<ArrayLike<number>> {
    const onnx = this.#onnx;
    if (onnx !== null) {
      const batch: GradientBatch = { size, columns: this.columns(this.#current()) };
      let gradients: Gradients;
      try {
        gradients = await onnx.compute(batch, meanwhile);
      } catch (error) {
        // This step applied nothing yet: the steps before it go back to tfjs's model and optimizer, and tfjs computes this one.
        await onnx.end();
        onnx.dispose();
        this.#onnx = null;
        this.#handOver(`a gradient step failed (${messageOf(error)})`);
        return this.#tfjsStep(size);
      }
      return onnx.apply(gradients);
    }
    return this.#tfjsStep(size);
  }

  /** The step with tfjs's own gradients. */
  #tfjsStep(size: number): Float32Array {
    const minibatch = this.#current();
    return tfjsGradientStep(this.tf, this.variables, this.optimizer, this.plan.maxGradNorm, () =>
      this.tfjsLoss(minibatch, size),
    );
  }

  #handOver(what: string): void {
    this.#note(
      `ayoayo train: onnxruntime-node's gradients stopped: ${what}; the updates compute their gradients in tfjs from here`,
    );
  }
}
