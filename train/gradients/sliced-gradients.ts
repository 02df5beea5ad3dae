import type { OnnxRuntime } from '../../models/inference/onnx-runtime.ts';
import { type WeightShape, weightShapes } from './gradient-graph.ts';
import type { GradientBatch, Gradients, OnnxGradients } from './onnx-gradients.ts';
import {
  CONTROL,
  CONTROL_WORDS,
  SliceHand,
  type SliceServing,
  type SliceThreads,
} from './slice-task.ts';
import {
  checkColumns,
  columnWidths,
  computeSlice,
  type SliceGraph,
  type SliceLayout,
  slicedSession,
  sliceLayout,
  slicesWithRows,
  sumSlices,
} from './slices.ts';

/**
 * How long the updater's thread blocks waiting for its helpers before it
 * waits on its event loop. A step's waits last about a slice or less (1-2 ms),
 * and Atomics.waitAsync's wake-up comes through the event loop, measured
 * 0.2-0.6 ms after Atomics.wait's (a tenth of a step on 2 cores); a helper
 * that takes longer (a machine that keeps it waiting, a thread that died) is
 * waited for there, where its failure is seen.
 */
const BLOCKING_WAIT_MS = 5;

/**
 * Blocks until control word `word` of `control` reaches `value`, a server
 * fails, or BLOCKING_WAIT_MS pass; true if the word got there.
 */
function waitHere(control: Int32Array, word: number, value: number): boolean {
  const until = performance.now() + BLOCKING_WAIT_MS;
  for (;;) {
    if (Atomics.load(control, CONTROL.failed) !== 0) return false;
    const now = Atomics.load(control, word);
    if (now >= value) return true;
    const left = until - performance.now();
    if (left <= 0) return false;
    Atomics.wait(control, word, now, left);
  }
}

/** Ranges of floats a step's sum is cut into, per thread: enough that the threads end together. */
const RANGES_PER_THREAD = 4;

/** The helpers of one update (slice-task.ts): their shared memory, their tasks and this thread's hand. */
interface Serving {
  readonly shared: SliceServing;
  readonly control: Int32Array;
  readonly helpers: number;
  readonly hand: SliceHand;
  readonly done: Promise<void>;
  /** Rejects with the first helper's failure. */
  readonly failure: Promise<never>;
}

/**
 * A minibatch's gradients as the sum of `slices` slices (slices.ts), each
 * computed by a one-thread session: by this thread and, of the worker threads
 * given, as many helpers as make up to `slices` threads in all
 * (slice-task.ts), or by this thread alone when there are none or one. The result is the same to the bit
 * either way, and for any number of threads: each slice's rows, session and
 * weights are the same, and the slices are added in slice order, float by
 * float.
 */
export class SlicedGradients {
  readonly weights: readonly WeightShape[];
  readonly #graph: SliceGraph;
  readonly #layout: SliceLayout;
  readonly #widths: ReadonlyMap<string, number>;
  readonly #threads: SliceThreads | null;
  readonly #runtime: OnnxRuntime;
  readonly #capacity: number;
  /** This thread's session, made at the first step it computes. */
  #session: OnnxGradients | null = null;
  #outputs: Float32Array | null = null;
  #serving: Serving | null = null;
  /** The sums, one run of floats that the gradients and statistics returned are views of. */
  readonly #sums: Float32Array;
  readonly #result: Gradients;
  #disposed = false;
  /** Seconds this thread spent computing slices and their sums (for benchmarks: the part threads share). */
  hereSeconds = 0;

  /** `capacity`: the most rows a minibatch has (the run's `minibatchSize`). */
  constructor(
    runtime: OnnxRuntime,
    graph: SliceGraph,
    readonly slices: number,
    capacity: number,
    threads: SliceThreads | null,
  ) {
    if (!Number.isInteger(slices) || slices < 1) {
      throw new Error(`a minibatch's slices must be a positive integer, got ${slices}`);
    }
    this.#runtime = runtime;
    this.#graph = graph;
    this.#capacity = capacity;
    this.weights = weightShapes(graph.inputSize, graph.network);
    this.#layout = sliceLayout(graph);
    this.#widths = columnWidths(graph);
    this.#threads = threads !== null && Math.min(threads.threads, slices) > 1 ? threads : null;
    this.#sums = new Float32Array(this.#layout.stride);
    const { weightOffsets, weightLengths, statsOffset, stats } = this.#layout;
    this.#result = {
      gradients: weightLengths.map((length, w) => {
        const from = weightOffsets[w] as number;
        return this.#sums.subarray(from, from + length);
      }),
      stats: this.#sums.subarray(statsOffset, statsOffset + stats),
    };
  }

  /** The threads the slices run on, this one included (1: this thread alone). */
  get threads(): number {
    return this.#threads === null ? 1 : Math.min(this.#threads.threads, this.slices);
  }

  /**
   * The gradients of the loss over `batch` at `weights` (one array per weight,
   * in order) and its statistics. The arrays returned are this object's,
   * overwritten by the next call. `meanwhile` (the next minibatch's filling)
   * runs on this thread while the helpers start on the slices; without
   * helpers the caller runs it after.
   */
  async compute(
    batch: GradientBatch,
    weights: readonly Float32Array[],
    meanwhile?: () => void,
  ): Promise<Gradients> {
    if (this.#disposed) throw new Error('the sliced gradient sessions were released');
    if (weights.length !== this.weights.length) {
      throw new Error(`expected ${this.weights.length} weight arrays, got ${weights.length}`);
    }
    if (batch.size > this.#capacity) {
      throw new Error(`a minibatch of ${batch.size} rows, more than the ${this.#capacity} planned`);
    }
    checkColumns(batch, this.#widths);
    if (this.#threads === null) this.#computeHere(batch, weights);
    else await this.#computeOn(this.#threads, batch, weights, meanwhile);
    return this.#result;
  }

  /** This thread's session, made at the first step it computes. */
  #sessionHere(): OnnxGradients {
    this.#session ??= slicedSession(this.#runtime, this.#graph);
    return this.#session;
  }

  #computeHere(batch: GradientBatch, weights: readonly Float32Array[]): void {
    const session = this.#sessionHere();
    this.#outputs ??= new Float32Array(this.slices * this.#layout.stride);
    const outputs = this.#outputs;
    const start = performance.now();
    const computed = slicesWithRows(batch.size, this.slices);
    for (const index of computed) {
      const at = { size: batch.size, slices: this.slices, index };
      computeSlice(session, batch.columns, this.#widths, weights, at, outputs, this.#layout);
    }
    const all = { from: 0, to: this.#layout.stride };
    sumSlices(outputs, computed, this.#layout.stride, all, this.#sums);
    this.hereSeconds += (performance.now() - start) / 1000;
  }

  async #computeOn(
    threads: SliceThreads,
    batch: GradientBatch,
    weights: readonly Float32Array[],
    meanwhile: (() => void) | undefined,
  ): Promise<void> {
    this.#serving ??= this.#startServing(threads);
    const serving = this.#serving;
    const { shared, control, helpers, hand } = serving;
    await this.#until(serving, CONTROL.joined, helpers);
    const { size } = batch;
    for (const [name, width] of this.#widths) {
      new Float32Array(shared.columns[name] as SharedArrayBuffer).set(
        (batch.columns[name] as Float32Array).subarray(0, size * width),
      );
    }
    const sharedWeights = new Float32Array(shared.weights);
    weights.forEach((weight, w) => {
      sharedWeights.set(weight, this.#layout.weightOffsets[w] as number);
    });
    Atomics.store(control, CONTROL.size, size);
    for (const word of [CONTROL.nextSlice, CONTROL.slicesDone, CONTROL.nextRange, CONTROL.parked]) {
      Atomics.store(control, word, 0);
    }
    Atomics.add(control, CONTROL.step, 1);
    Atomics.notify(control, CONTROL.step);
    // The helpers have the step's rows in shared memory: this thread's other work (the next
    // minibatch) goes first, then it takes what slices are left, reading the batch's own arrays.
    meanwhile?.();
    // This thread takes its share too: the step goes on even while the machine keeps a helper waiting.
    const start = performance.now();
    hand.takeSlices(size, weights, () => batch.columns);
    this.hereSeconds += (performance.now() - start) / 1000;
    await this.#until(serving, CONTROL.slicesDone, this.slices);
    hand.takeRanges(size);
    await this.#until(serving, CONTROL.parked, helpers);
    this.#sums.set(new Float32Array(shared.sums));
  }

  #startServing(threads: SliceThreads): Serving {
    const floats = (count: number) => new SharedArrayBuffer(count * 4);
    const helpers = this.threads - 1;
    const shared: SliceServing = {
      graph: this.#graph,
      slices: this.slices,
      ranges: RANGES_PER_THREAD * this.threads,
      control: new SharedArrayBuffer(CONTROL_WORDS * 4),
      columns: Object.fromEntries(
        [...this.#widths].map(([name, width]) => [name, floats(this.#capacity * width)]),
      ),
      weights: floats(this.#layout.statsOffset),
      outputs: floats(this.slices * this.#layout.stride),
      sums: floats(this.#layout.stride),
    };
    const tasks = Array.from({ length: helpers }, () => threads.serveSlices(shared, helpers));
    const failure = Promise.race(tasks).then(
      () => Promise.reject(new Error('a gradient slice server stopped before it was told to')),
      (error: unknown) => Promise.reject(error),
    );
    // Seen by whoever waits on the helpers; never unhandled.
    failure.catch(() => {});
    const done = Promise.allSettled(tasks).then(() => {});
    const hand = new SliceHand(shared, this.#sessionHere());
    return { shared, control: new Int32Array(shared.control), helpers, hand, done, failure };
  }

  /**
   * Waits until control word `word` reaches `value`. A server's failure ends
   * them all (the threads are free again) and is thrown.
   */
  async #until(serving: Serving, word: number, value: number): Promise<void> {
    const { control } = serving;
    if (waitHere(control, word, value)) return;
    try {
      for (;;) {
        if (Atomics.load(control, CONTROL.failed) !== 0) await serving.failure;
        const now = Atomics.load(control, word);
        if (now >= value) return;
        const wait = Atomics.waitAsync(control, word, now);
        if (wait.async) await Promise.race([wait.value, serving.failure]);
      }
    } catch (error) {
      await this.#stop();
      throw error;
    }
  }

  /** Ends this update's servers: the threads are free for other work (self-play) again. */
  async release(): Promise<void> {
    await this.#stop();
  }

  async #stop(): Promise<void> {
    const serving = this.#serving;
    if (serving === null) return;
    this.#serving = null;
    Atomics.store(serving.control, CONTROL.stop, 1);
    Atomics.add(serving.control, CONTROL.step, 1);
    Atomics.notify(serving.control, CONTROL.step);
    await serving.done;
  }

  /** Releases this thread's session and tells the servers to end (the threads' sessions live as long as their pool). */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    void this.#stop();
    this.#session?.dispose();
  }
}
