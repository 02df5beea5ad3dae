import type * as tfType from '@tensorflow/tfjs';
import type { Tf } from '../../models/backend.ts';
import { AdamKernel } from './adam-kernel/kernel.ts';

/**
 * Adam's running products beta1^t and beta2^t, which tfjs keeps in private
 * variables, out of getWeights(), and recomputes with pow() in setWeights()
 * (the last bits differ from the step-by-step product), so whoever saves or
 * lends out the optimizer's state reads and writes them here.
 */
export interface AdamPowers {
  readonly accBeta1: tfType.Variable;
  readonly accBeta2: tfType.Variable;
}

/** The optimizer's running products, or null for an optimizer without them (not Adam). */
export function adamPowers(optimizer: tfType.Optimizer): AdamPowers | null {
  const powers = optimizer as unknown as Partial<AdamPowers>;
  const { accBeta1, accBeta2 } = powers;
  return accBeta1 === undefined || accBeta2 === undefined ? null : { accBeta1, accBeta2 };
}

/** tfjs's Adam settings as getConfig() gives them. */
interface AdamConfig {
  readonly learningRate: number;
  readonly beta1: number;
  readonly beta2: number;
  readonly epsilon: number;
}

function adamConfig(optimizer: tfType.Optimizer): AdamConfig {
  const config = optimizer.getConfig();
  const { learningRate, beta1, beta2, epsilon } = config;
  if (
    typeof learningRate !== 'number' ||
    typeof beta1 !== 'number' ||
    typeof beta2 !== 'number' ||
    typeof epsilon !== 'number'
  ) {
    throw new Error(`the optimizer is not tfjs's Adam (its config: ${JSON.stringify(config)})`);
  }
  return { learningRate, beta1, beta2, epsilon };
}

const f = Math.fround;

/**
 * An update's gradient steps, clipped by global norm and applied by Adam, in
 * a WebAssembly kernel (adam-kernel/adam.c) instead of tfjs tensors: tfjs's
 * 90-odd calls took 2.4 ms of each of `npm start`'s steps (80 ms an iteration,
 * on the main thread alone, where more cores cannot shorten it), the kernel
 * with its copies 0.3 ms.
 *
 * Every operation rounds to float32 in the order of tfjs's own clipping
 * (tfjs-step.ts applyClippedGradients) and Adam (tfjs-core's AdamOptimizer),
 * as its wasm kernels do (a sum from the first float to the last; +, *, / and
 * sqrt correctly rounded): the weights and moments are tfjs's wasm Adam's to
 * the bit (test/train/float-adam.test.ts), so runs from before it resume
 * unchanged.
 *
 * The state stays the tfjs optimizer's between updates (checkpoints save it
 * from there): `borrow` reads the weights, the moments and the powers at an
 * update's start, `giveBack` writes them back at its end.
 */
export class FloatAdam {
  /** Each weight's floats, in weight order: what the next step's gradients are computed at. */
  readonly weightViews: readonly Float32Array[];
  readonly #offsets: readonly number[];
  #powers: { beta1: number; beta2: number };
  #steps = 0;

  private constructor(
    private readonly tf: Tf,
    private readonly optimizer: tfType.Optimizer,
    private readonly variables: readonly tfType.Variable[],
    private readonly config: AdamConfig,
    private readonly kernel: AdamKernel,
    powers: { beta1: number; beta2: number },
  ) {
    const offsets: number[] = [];
    let at = 0;
    for (const v of variables) {
      offsets.push(at);
      at += v.size;
    }
    this.#offsets = offsets;
    this.weightViews = variables.map((_, i) => this.#view(kernel.weights, i));
    this.#powers = powers;
  }

  /** Takes the optimizer's state (zero moments before its first step) and the variables' values. */
  static async borrow(
    tf: Tf,
    optimizer: tfType.Optimizer,
    variables: readonly tfType.Variable[],
  ): Promise<FloatAdam> {
    const config = adamConfig(optimizer);
    const powers = adamPowers(optimizer);
    if (powers === null) throw new Error("the optimizer is not tfjs's Adam (no running powers)");
    const named = await optimizer.getWeights();
    named[0]?.tensor.dispose();
    const slots = named.slice(1);
    const count = variables.length;
    if (slots.length !== 0 && slots.length !== 2 * count) {
      throw new Error(`the optimizer holds ${slots.length} moments for ${count} weights`);
    }
    const kernel = new AdamKernel(variables.reduce((sum, v) => sum + v.size, 0));
    let at = 0;
    variables.forEach((v, i) => {
      kernel.weights.set(v.dataSync() as Float32Array, at);
      const first = slots[i]?.tensor;
      const second = slots[count + i]?.tensor;
      if (first !== undefined) kernel.first.set(first.dataSync() as Float32Array, at);
      if (second !== undefined) kernel.second.set(second.dataSync() as Float32Array, at);
      at += v.size;
    });
    return new FloatAdam(tf, optimizer, variables, config, kernel, {
      beta1: powers.accBeta1.dataSync()[0] as number,
      beta2: powers.accBeta2.dataSync()[0] as number,
    });
  }

  /** Weight `i`'s floats within one of the kernel's arrays. */
  #view(array: Float32Array, i: number): Float32Array {
    const from = this.#offsets[i] as number;
    return array.subarray(from, from + (this.variables[i] as tfType.Variable).size);
  }

  /**
   * One step: the gradients (in weight order) scaled down to a global norm of
   * at most `maxGradNorm` (tfjs's min(1, maxGradNorm / (sqrt(addN(each
   * weight's sum of squares)) + 1e-6))), then Adam's moments and the weights.
   */
  step(gradients: readonly Float32Array[], maxGradNorm: number): void {
    const { kernel } = this;
    if (gradients.length !== this.weightViews.length) {
      throw new Error(
        `expected ${this.weightViews.length} gradient arrays, got ${gradients.length}`,
      );
    }
    let total = 0;
    gradients.forEach((g, k) => {
      const expected = (this.weightViews[k] as Float32Array).length;
      if (g.length !== expected) {
        throw new Error(`gradient ${k} has ${g.length} floats, its weight ${expected}`);
      }
      const from = this.#offsets[k] as number;
      kernel.gradients.set(g, from);
      const sum = kernel.sumSquares(from, g.length);
      total = k === 0 ? sum : f(total + sum);
    });
    const norm = f(Math.sqrt(total));
    const scale = Math.min(1, f(f(maxGradNorm) / f(norm + f(1e-6))));
    const { beta1, beta2, epsilon, learningRate } = this.config;
    kernel.adam([
      scale,
      f(beta1),
      f(beta2),
      f(1 - beta1),
      f(1 - beta2),
      f(epsilon),
      f(-learningRate),
      f(1 - this.#powers.beta1),
      f(1 - this.#powers.beta2),
    ]);
    this.#powers = {
      beta1: f(this.#powers.beta1 * f(beta1)),
      beta2: f(this.#powers.beta2 * f(beta2)),
    };
    this.#steps++;
  }

  /**
   * Writes the weights, the moments, the step count and the powers back into
   * the variables and the optimizer (nothing if no step was taken).
   */
  async giveBack(): Promise<void> {
    if (this.#steps === 0) return;
    const { tf, optimizer, variables, kernel } = this;
    variables.forEach((variable, i) => {
      const value = tf.tensor(this.#view(kernel.weights, i), variable.shape);
      variable.assign(value);
      value.dispose();
    });
    const before = await optimizer.getWeights();
    const iterations = (before[0]?.tensor.dataSync()[0] ?? 0) as number;
    const moments = (array: Float32Array, suffix: string) =>
      variables.map((variable, i) => ({
        name: `${variable.name}/${suffix}`,
        tensor: tf.tensor(this.#view(array, i), variable.shape),
      }));
    const after = [
      { name: 'iter', tensor: tf.scalar(iterations + this.#steps, 'int32') },
      ...moments(kernel.first, 'm'),
      ...moments(kernel.second, 'v'),
    ];
    await optimizer.setWeights(after);
    // setWeights makes variables of the tensors given and drops the old moments without freeing them.
    for (const { tensor } of [...before, ...after]) tensor.dispose();
    const powers = adamPowers(optimizer) as AdamPowers;
    for (const [power, value] of [
      [powers.accBeta1, this.#powers.beta1],
      [powers.accBeta2, this.#powers.beta2],
    ] as const) {
      const t = tf.scalar(value);
      power.assign(t);
      t.dispose();
    }
    this.#steps = 0;
  }
}
