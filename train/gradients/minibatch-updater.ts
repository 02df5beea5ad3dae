import type * as tfType from '@tensorflow/tfjs';
import type { Tf } from '../../models/backend.ts';
import type { OnnxRuntime } from '../../models/inference/onnx-runtime.ts';
import type { NetworkConfig } from '../../models/policy-value-model.ts';
import { type GradientBatch, type Gradients, OnnxGradients } from './onnx-gradients.ts';
import { type GradientSource, OnnxGradientStep } from './onnx-step.ts';
import type { GradientLoss } from './policy-terms.ts';
import type { SliceThreads } from './slice-task.ts';
import { SlicedGradients } from './sliced-gradients.ts';

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

/**
 * What every updater shares: its model's variables, and where a minibatch's
 * gradients come from — onnxruntime-node when the updater is given the runtime
 * (it builds the gradient graph of its own loss), else tfjs. A gradient session
 * that fails to load, or fails at a step, hands over to tfjs with one line:
 * the run goes on (its floats then round as tfjs's do). Subclasses fill their
 * minibatch and say how it reads as the gradient graph's columns and as tfjs's
 * loss.
 */
export abstract class MinibatchUpdater {
  protected readonly variables: tfType.Variable[];
  #onnx: OnnxGradientStep | null = null;
  readonly #note: (line: string) => void;

  constructor(
    protected readonly tf: Tf,
    protected readonly model: tfType.LayersModel,
    readonly optimizer: tfType.AdamOptimizer,
    maxGradNorm: number,
    inputSize: number,
    minibatchSize: number,
    loss: GradientLoss,
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
          ? new OnnxGradients(onnx.runtime, inputSize, onnx.network, loss, UPDATE_THREADS)
          : new SlicedGradients(
              onnx.runtime,
              { inputSize, network: onnx.network, loss },
              slices,
              minibatchSize,
              onnx.threads ?? null,
            );
    } catch (error) {
      this.#handOver(`its gradient session did not load (${messageOf(error)})`);
      return;
    }
    try {
      this.#onnx = new OnnxGradientStep(tf, this.variables, optimizer, gradients, maxGradNorm);
    } catch (error) {
      // A graph that is not the model's is a caller's mistake, not a runtime fault: no fallback.
      gradients.dispose();
      throw error;
    }
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

  /**
   * Runs an update's steps (`steps`), then gives the weights and Adam's state
   * back to tfjs and frees the threads its gradients used, so that self-play
   * has them again.
   */
  protected async updating<T>(steps: () => Promise<T>): Promise<T> {
    try {
      return await steps();
    } finally {
      await this.#onnx?.end();
    }
  }

  /** Seconds this thread spent on the slices' gradients and sums so far (benchmarks; 0 on worker threads or one session). */
  get sliceSeconds(): number {
    const source = this.#onnx?.gradients;
    return source instanceof SlicedGradients ? source.hereSeconds : 0;
  }

  /**
   * One gradient step over the first `size` rows of the minibatch; returns
   * the loss's statistics. `prepareNext` (once, before the step returns) fills
   * the next minibatch into other arrays than this step's: where the step's
   * slices run on worker threads, while they compute.
   */
  protected async step(size: number, prepareNext?: () => void): Promise<ArrayLike<number>> {
    let prepared = prepareNext === undefined;
    // Kept until the step ends: thrown inside it, it would stop the step with its slices half taken.
    let failure: { readonly error: unknown } | null = null;
    const meanwhile = (): void => {
      if (prepared) return;
      prepared = true;
      try {
        prepareNext?.();
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
      const batch = this.minibatch(size);
      let gradients: Gradients;
      try {
        gradients = await onnx.compute(batch, meanwhile);
      } catch (error) {
        // This step applied nothing yet: the steps before it go back to tfjs's model and optimizer, and tfjs computes this one.
        await onnx.end();
        onnx.dispose();
        this.#onnx = null;
        this.#handOver(`a gradient step failed (${messageOf(error)})`);
        return this.tfjsStep(size);
      }
      return onnx.apply(gradients);
    }
    return this.tfjsStep(size);
  }

  #handOver(what: string): void {
    this.#note(
      `ayoayo train: onnxruntime-node's gradients stopped: ${what}; the updates compute their gradients in tfjs from here`,
    );
  }

  /** The minibatch as the gradient graph's inputs. */
  protected abstract minibatch(size: number): GradientBatch;

  /** The step with tfjs's own gradients. */
  protected abstract tfjsStep(size: number): Float32Array;
}
