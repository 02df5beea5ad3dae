import type { OnnxRuntime } from '../../models/inference/onnx-runtime.ts';
import type { NetworkConfig } from '../../models/policy-value-model.ts';
import { weightShapes } from './gradient-graph.ts';
import { type GradientBatch, OnnxGradients } from './onnx-gradients.ts';
import { dataInputs, lossStats, type PolicyTerm } from './policy-term.ts';

/**
 * A minibatch cut into a fixed number of slices, each slice's gradients
 * computed by a one-thread session of the sliced gradient graph
 * (gradient-graph.ts) and the slices' outputs added in slice order: a sum
 * that depends on the run's `updateSlices` only, never on how many threads
 * computed the slices or which thread computed which.
 */

/** What a sliced gradient session is built for: the network's shape and the loss. */
export interface SliceGraph {
  readonly inputSize: number;
  readonly network: NetworkConfig;
  readonly loss: PolicyTerm;
}

/** A one-thread session of the sliced gradient graph `graph` (each thread that computes slices has one). */
export function slicedSession(runtime: OnnxRuntime, graph: SliceGraph): OnnxGradients {
  return new OnnxGradients(runtime, graph.inputSize, graph.network, graph.loss, 1, {
    sliced: true,
  });
}

/** Slice `i` of a minibatch of `size` rows cut into `slices`: rows `from` to `to` (excluded), as even as whole rows allow. */
export function sliceRows(size: number, slices: number, i: number): { from: number; to: number } {
  return {
    from: Math.floor((size * i) / slices),
    to: Math.floor((size * (i + 1)) / slices),
  };
}

/**
 * Where each slice's outputs go in one array: a run of `stride` floats per
 * slice, its weights' gradients at `weightOffsets` (in weight order), then
 * the loss's statistics at `statsOffset`.
 */
export interface SliceLayout {
  readonly weightOffsets: readonly number[];
  readonly weightLengths: readonly number[];
  readonly statsOffset: number;
  readonly stats: number;
  readonly stride: number;
}

/** The layout of a slice's outputs of `graph`. */
export function sliceLayout(graph: SliceGraph): SliceLayout {
  const weightLengths = weightShapes(graph.inputSize, graph.network).map((w) =>
    w.shape.reduce((a, b) => a * b, 1),
  );
  const weightOffsets: number[] = [];
  let at = 0;
  for (const length of weightLengths) {
    weightOffsets.push(at);
    at += length;
  }
  const stats = lossStats(graph.loss).length;
  return { weightOffsets, weightLengths, statsOffset: at, stats, stride: at + stats };
}

/** The row width of each of the graph's data inputs, by name. */
export function columnWidths(graph: SliceGraph): ReadonlyMap<string, number> {
  return new Map(dataInputs(graph.inputSize, graph.loss).map((input) => [input.name, input.width]));
}

/** Throws, naming the input, where `batch` lacks one of `widths`' inputs or holds too few rows of it. */
export function checkColumns(batch: GradientBatch, widths: ReadonlyMap<string, number>): void {
  for (const [name, width] of widths) {
    const column = batch.columns[name];
    if (column === undefined || column.length < batch.size * width) {
      throw new Error(
        `the gradient batch's ${name} needs ${batch.size * width} floats (${batch.size} rows of ${width}), got ${column?.length ?? 'none'}`,
      );
    }
  }
}

/**
 * Computes slice `i` of the first `size` rows of `columns` (every input's
 * rows, as in a GradientBatch) at `weights` with the sliced `session`, and
 * writes its outputs into slice i's run of `outputs`. False for a slice of no
 * rows (a minibatch of fewer rows than slices), which writes nothing.
 */
export function computeSlice(
  session: OnnxGradients,
  columns: Readonly<Record<string, Float32Array>>,
  widths: ReadonlyMap<string, number>,
  weights: readonly Float32Array[],
  at: { readonly size: number; readonly slices: number; readonly index: number },
  outputs: Float32Array,
  layout: SliceLayout,
): boolean {
  const { from, to } = sliceRows(at.size, at.slices, at.index);
  if (to === from) return false;
  const rows: Record<string, Float32Array> = {};
  for (const [name, width] of widths) {
    const column = columns[name];
    if (column === undefined) throw new Error(`the gradient batch has no ${name}`);
    rows[name] = column.subarray(from * width, to * width);
  }
  const batch: GradientBatch = { size: to - from, columns: rows, rowWeight: 1 / at.size };
  const result = session.compute(batch, weights);
  const base = at.index * layout.stride;
  result.gradients.forEach((gradient, w) => {
    outputs.set(gradient, base + (layout.weightOffsets[w] as number));
  });
  outputs.set(result.stats, base + layout.statsOffset);
  return true;
}

/**
 * Sums floats `from` to `to` (excluded) of the outputs of `slices` (their
 * indices, in slice order) into `into`: each float the sum of the slices'
 * in slice order, in double precision, rounded to float32 once. Any split of
 * the floats into ranges gives the same sums. (Float by float, four slices
 * at a time, left to right: about twice as fast as slice after slice.)
 */
export function sumSlices(
  outputs: Float32Array,
  slices: readonly number[],
  stride: number,
  range: { readonly from: number; readonly to: number },
  into: Float32Array,
): void {
  if (slices.length === 8) {
    sumEight(outputs, slices, stride, range, into);
    return;
  }
  const o = outputs;
  const at = slices.map((slice) => slice * stride);
  const n = at.length;
  for (let j = range.from; j < range.to; j++) {
    let x = 0;
    let k = 0;
    for (; k + 4 <= n; k += 4) {
      x =
        x +
        (o[(at[k] as number) + j] as number) +
        (o[(at[k + 1] as number) + j] as number) +
        (o[(at[k + 2] as number) + j] as number) +
        (o[(at[k + 3] as number) + j] as number);
    }
    for (; k < n; k++) x += o[(at[k] as number) + j] as number;
    into[j] = x;
  }
}

/**
 * sumSlices for eight slices (the default's full minibatches), each float's
 * sum written out: the same additions in the same order, about twice as fast.
 */
function sumEight(
  outputs: Float32Array,
  slices: readonly number[],
  stride: number,
  range: { readonly from: number; readonly to: number },
  into: Float32Array,
): void {
  const [s0, s1, s2, s3, s4, s5, s6, s7] = slices.map((slice) =>
    outputs.subarray(slice * stride, (slice + 1) * stride),
  ) as [
    Float32Array,
    Float32Array,
    Float32Array,
    Float32Array,
    Float32Array,
    Float32Array,
    Float32Array,
    Float32Array,
  ];
  for (let j = range.from; j < range.to; j++) {
    into[j] =
      0 +
      (s0[j] as number) +
      (s1[j] as number) +
      (s2[j] as number) +
      (s3[j] as number) +
      (s4[j] as number) +
      (s5[j] as number) +
      (s6[j] as number) +
      (s7[j] as number);
  }
}

/** The slices of a minibatch of `size` rows that hold any (all of them unless it has fewer rows than slices). */
export function slicesWithRows(size: number, slices: number): number[] {
  return Array.from({ length: slices }, (_, i) => i).filter((i) => {
    const { from, to } = sliceRows(size, slices, i);
    return to > from;
  });
}
