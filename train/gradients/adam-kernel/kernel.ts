import { ADAM_WASM } from './adam-wasm.ts';

/** What adam.c exports (its memory and heap start as far as they are used here). */
interface KernelExports {
  readonly memory: { readonly buffer: ArrayBuffer; grow(pages: number): number };
  readonly __heap_base: { readonly value: number };
  sum_squares(at: number, count: number): number;
  adam(
    weights: number,
    first: number,
    second: number,
    gradients: number,
    count: number,
    ...constants: number[]
  ): void;
}

let compiled: WebAssembly.Module | null = null;

function kernelExports(): KernelExports {
  compiled ??= new WebAssembly.Module(Buffer.from(ADAM_WASM, 'base64'));
  const exports = new WebAssembly.Instance(compiled, {}).exports;
  const { memory, __heap_base, sum_squares, adam } = exports as Record<string, unknown>;
  const has = (value: unknown, key: string): boolean =>
    typeof value === 'object' && value !== null && key in value;
  if (
    !has(memory, 'grow') ||
    !has(__heap_base, 'value') ||
    typeof sum_squares !== 'function' ||
    typeof adam !== 'function'
  ) {
    throw new Error(
      "Adam's WebAssembly kernel lacks its exports: rebuild it (npm run build:adam-kernel)",
    );
  }
  return exports as unknown as KernelExports;
}

/** `bytes` rounded up to whole 16-byte SIMD vectors. */
const aligned = (bytes: number): number => Math.ceil(bytes / 16) * 16;

/**
 * Adam's floats (the weights, both moments and a step's gradients, `floats`
 * each, every weight one after the other) in the memory of one instance of
 * the kernel (adam.c), and its two functions over them. The memory never
 * grows after the arrays are made, so the arrays stay valid.
 */
export class AdamKernel {
  readonly weights: Float32Array;
  readonly first: Float32Array;
  readonly second: Float32Array;
  readonly gradients: Float32Array;
  readonly #exports: KernelExports;

  constructor(readonly floats: number) {
    const exports = kernelExports();
    const base = aligned(Number(exports.__heap_base.value));
    const stride = aligned(4 * floats);
    const { memory } = exports;
    const pages = Math.ceil((base + 4 * stride - memory.buffer.byteLength) / 65536);
    if (pages > 0) memory.grow(pages);
    const at = (k: number): Float32Array =>
      new Float32Array(memory.buffer, base + k * stride, floats);
    this.weights = at(0);
    this.first = at(1);
    this.second = at(2);
    this.gradients = at(3);
    this.#exports = exports;
  }

  /** The gradients' floats `from` to `from + count` squared and summed in float32, first to last. */
  sumSquares(from: number, count: number): number {
    if (from < 0 || count < 0 || from + count > this.floats) {
      throw new Error(`floats ${from} to ${from + count} are outside the kernel's ${this.floats}`);
    }
    return this.#exports.sum_squares(this.gradients.byteOffset + 4 * from, count);
  }

  /**
   * One Adam step over every float with the gradients scaled by `scale`;
   * the other constants float32 values, as FloatAdam computes them.
   */
  adam(constants: readonly number[]): void {
    const { weights, first, second, gradients, floats } = this;
    this.#exports.adam(
      weights.byteOffset,
      first.byteOffset,
      second.byteOffset,
      gradients.byteOffset,
      floats,
      ...constants,
    );
  }
}
