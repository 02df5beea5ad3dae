import { loadOnnxRuntime } from '../../models/inference/onnx-runtime.ts';
import type { OnnxGradients } from './onnx-gradients.ts';
import {
  columnWidths,
  computeSlice,
  type SliceGraph,
  type SliceLayout,
  slicedSession,
  sliceLayout,
  sliceRows,
  slicesWithRows,
  sumSlices,
} from './slices.ts';

/**
 * The update's gradient slices on worker threads. For one update (its
 * minibatch steps one after the other) the updater's thread and its helpers
 * (servers on worker threads) work each step together: each takes slices one
 * at a time until none is left, waits until every slice is computed, takes
 * ranges of the floats to sum over the slices in slice order until none is
 * left, and the helpers park and wait for the next step. They meet in shared
 * memory only (the control words below, waited on with Atomics), so a step
 * costs no message, and a helper that the machine keeps waiting only leaves
 * more slices to the others; the updater starts a step only when every helper
 * has parked, so none takes part of a step it did not wait for. Whichever
 * thread computes a slice or sums a range, the sums are the same.
 */

/** The control words of a serving (an Int32Array over `SliceServing.control`). */
export const CONTROL = {
  /** Incremented by the updater to start a step (or to stop). */
  step: 0,
  /** 1: the servers return. */
  stop: 1,
  /** The step's minibatch rows. */
  size: 2,
  /** The next slice to take, and the slices computed. */
  nextSlice: 3,
  slicesDone: 4,
  /** The next range of floats to sum. */
  nextRange: 5,
  /** Helpers done with the step. */
  parked: 6,
  /** Helpers started. */
  joined: 7,
  /** 1: a server failed (its task rejects with the reason). */
  failed: 8,
} as const;
export const CONTROL_WORDS = 9;

/** What every server of one update shares (plain data and shared memory). */
export interface SliceServing {
  readonly graph: SliceGraph;
  /** The minibatch's slices (a run's `updateSlices`). */
  readonly slices: number;
  /** The ranges the floats of a slice's outputs are summed in. */
  readonly ranges: number;
  readonly control: SharedArrayBuffer;
  /** Each data input's rows (up to the largest minibatch's), by input name. */
  readonly columns: Readonly<Record<string, SharedArrayBuffer>>;
  /** The weights, one after the other in weight order. */
  readonly weights: SharedArrayBuffer;
  /** Each slice's outputs (sliceLayout's stride floats each). */
  readonly outputs: SharedArrayBuffer;
  /** The step's sums (stride floats). */
  readonly sums: SharedArrayBuffer;
}

/** A task of a thread that serves an update's gradient slices (a worker thread's serveSlices). */
export interface SliceServeTask {
  readonly serving: SliceServing;
  readonly threads: number;
}

/** Who serves slices on other threads (the training's worker threads, train/train-threads.ts). */
export interface SliceThreads {
  readonly threads: number;
  /** Runs serveSlices(serving, helpers) on one of the threads. */
  serveSlices(serving: SliceServing, helpers: number): Promise<void>;
}

/** Blocks until control word `at` is at least `value`, or a server failed. */
function waitFor(control: Int32Array, at: number, value: number): void {
  for (;;) {
    const now = Atomics.load(control, at);
    if (now >= value || Atomics.load(control, CONTROL.failed) !== 0) return;
    Atomics.wait(control, at, now);
  }
}

/** Adds one to control word `at`, waking whoever waits for it to reach `last`. */
function count(control: Int32Array, at: number, last: number): void {
  if (Atomics.add(control, at, 1) + 1 >= last) Atomics.notify(control, at);
}

// A thread keeps one session per graph as long as it lives (the pool lives as long as its run).
const sessions = new Map<string, OnnxGradients>();

/** This thread's one-thread session of the sliced gradient graph `graph`. */
export async function sessionFor(graph: SliceGraph): Promise<OnnxGradients> {
  const key = JSON.stringify(graph);
  const known = sessions.get(key);
  if (known !== undefined) return known;
  const { runtime, reason } = await loadOnnxRuntime();
  if (runtime === null)
    throw new Error(`onnxruntime-node did not load on a worker thread: ${reason}`);
  const session = slicedSession(runtime, graph);
  sessions.set(key, session);
  return session;
}

/**
 * One thread's part in an update's steps (a server's, or the updater's own
 * thread's): it takes slices to compute while any is left, then, once every
 * slice is computed, ranges of floats to sum while any is left.
 */
export class SliceHand {
  readonly #serving: SliceServing;
  readonly #control: Int32Array;
  readonly #layout: SliceLayout;
  readonly #widths: ReadonlyMap<string, number>;
  readonly #outputs: Float32Array;
  readonly #sums: Float32Array;

  constructor(
    serving: SliceServing,
    private readonly session: OnnxGradients,
  ) {
    this.#serving = serving;
    this.#control = new Int32Array(serving.control);
    this.#layout = sliceLayout(serving.graph);
    this.#widths = columnWidths(serving.graph);
    this.#outputs = new Float32Array(serving.outputs);
    this.#sums = new Float32Array(serving.sums);
  }

  /**
   * Computes slices of the step's `size` rows while any is left; `rows`
   * gives the columns that hold a slice's rows (this thread's copy of them).
   */
  takeSlices(
    size: number,
    weights: readonly Float32Array[],
    rows: (from: number, to: number) => Readonly<Record<string, Float32Array>>,
  ): void {
    const { slices } = this.#serving;
    for (;;) {
      const index = Atomics.add(this.#control, CONTROL.nextSlice, 1);
      if (index >= slices || Atomics.load(this.#control, CONTROL.failed) !== 0) return;
      const { from, to } = sliceRows(size, slices, index);
      const at = { size, slices, index };
      computeSlice(
        this.session,
        rows(from, to),
        this.#widths,
        weights,
        at,
        this.#outputs,
        this.#layout,
      );
      count(this.#control, CONTROL.slicesDone, slices);
    }
  }

  /** Sums ranges of the slices' outputs while any is left (every slice computed). */
  takeRanges(size: number): void {
    const { slices, ranges } = this.#serving;
    const computed = slicesWithRows(size, slices);
    const { stride } = this.#layout;
    for (;;) {
      const r = Atomics.add(this.#control, CONTROL.nextRange, 1);
      if (r >= ranges || Atomics.load(this.#control, CONTROL.failed) !== 0) return;
      sumSlices(this.#outputs, computed, stride, sliceRows(stride, ranges, r), this.#sums);
    }
  }
}

/**
 * Serves an update's steps in this thread until told to stop, beside the
 * updater's own thread (`helpers` servers in all). onnxruntime-node takes no
 * shared memory, so the weights and each slice's rows are copied into this
 * thread's own arrays first.
 */
export async function serveSlices(serving: SliceServing, helpers: number): Promise<void> {
  const control = new Int32Array(serving.control);
  const fail = (): void => {
    Atomics.store(control, CONTROL.failed, 1);
    for (const word of [CONTROL.slicesDone, CONTROL.parked, CONTROL.joined]) {
      Atomics.notify(control, word);
    }
  };
  let hand: SliceHand;
  try {
    hand = new SliceHand(serving, await sessionFor(serving.graph));
  } catch (error) {
    fail();
    throw error;
  }
  const layout = sliceLayout(serving.graph);
  const widths = columnWidths(serving.graph);
  const weights = layout.weightLengths.map((length) => new Float32Array(length));
  const shared = new Float32Array(serving.weights);
  const own = new Map(
    [...widths].map(([name, width]) => [name, { width, rows: new Float32Array(0) }]),
  );
  const columns: Record<string, Float32Array> = {};
  const rows = (from: number, to: number): Readonly<Record<string, Float32Array>> => {
    for (const [name, copy] of own) {
      const source = serving.columns[name] as SharedArrayBuffer;
      if (copy.rows.length * 4 < source.byteLength)
        copy.rows = new Float32Array(source.byteLength / 4);
      const { width } = copy;
      copy.rows.set(new Float32Array(source, from * width * 4, (to - from) * width), from * width);
      columns[name] = copy.rows;
    }
    return columns;
  };
  // A serving's steps count from 0: a server that joins late (or after a stop) finds it past 0.
  let step = 0;
  count(control, CONTROL.joined, helpers);
  for (;;) {
    Atomics.wait(control, CONTROL.step, step);
    step = Atomics.load(control, CONTROL.step);
    if (Atomics.load(control, CONTROL.stop) !== 0) return;
    try {
      const size = Atomics.load(control, CONTROL.size);
      weights.forEach((weight, w) => {
        const from = layout.weightOffsets[w] as number;
        weight.set(shared.subarray(from, from + weight.length));
      });
      hand.takeSlices(size, weights, rows);
      waitFor(control, CONTROL.slicesDone, serving.slices);
      hand.takeRanges(size);
      count(control, CONTROL.parked, helpers);
    } catch (error) {
      fail();
      throw error;
    }
  }
}
