import {
  ONE_THREAD_SESSION,
  type OnnxRuntime,
  type OrtNativeSession,
  type OrtTensor,
} from '../../models/inference/onnx-runtime.ts';
import { NUM_ACTIONS } from '../../models/mlp-runner.ts';
import type { NetworkConfig } from '../../models/policy-value-model.ts';
import {
  buildGradientGraph,
  GRADIENT_INPUTS,
  GRADIENT_STATS,
  gradientName,
  type WeightShape,
  weightShapes,
} from './gradient-graph.ts';

/** A minibatch in the updater's arrays: rows 0..size-1 are used. */
export interface Minibatch {
  readonly observations: Float32Array;
  readonly masks: Float32Array;
  readonly policies: Float32Array;
  readonly values: Float32Array;
  readonly size: number;
}

/** One step's gradients (in weight order) and its losses. */
export interface Gradients {
  readonly gradients: readonly Float32Array[];
  readonly policyLoss: number;
  readonly valueLoss: number;
  readonly entropy: number;
}

interface Binding {
  readonly minibatch: Minibatch;
  readonly feeds: Record<string, OrtTensor>;
}

/**
 * A minibatch's loss gradients computed by onnxruntime-node from the gradient
 * graph (gradient-graph.ts), for a network whose weights the caller passes in
 * at each step (the optimizer stays the caller's). Outputs are written into
 * arrays this object owns, reused from step to step.
 */
export class OnnxGradients {
  /** Sessions not yet released (for tests and leak checks). */
  static live = 0;
  readonly weights: readonly WeightShape[];
  readonly #runtime: OnnxRuntime;
  readonly #session: OrtNativeSession;
  readonly #inputSize: number;
  readonly #gradients: Float32Array[];
  readonly #stats = {
    policyLoss: new Float32Array(1),
    valueLoss: new Float32Array(1),
    entropy: new Float32Array(1),
  };
  readonly #fetches: Record<string, OrtTensor>;
  readonly #bindings = new Map<number, Binding>();
  #disposed = false;

  constructor(runtime: OnnxRuntime, inputSize: number, network: NetworkConfig, valueCoef: number) {
    this.#runtime = runtime;
    this.#inputSize = inputSize;
    this.weights = weightShapes(inputSize, network);
    const graph = buildGradientGraph(inputSize, network, valueCoef);
    this.#session = runtime.newSession();
    this.#session.loadModel(
      graph.buffer as ArrayBuffer,
      graph.byteOffset,
      graph.byteLength,
      ONE_THREAD_SESSION,
    );
    OnnxGradients.live++;
    this.#gradients = this.weights.map((w) => new Float32Array(w.shape.reduce((a, b) => a * b, 1)));
    this.#fetches = {
      [GRADIENT_STATS.policyLoss]: new runtime.Tensor('float32', this.#stats.policyLoss, []),
      [GRADIENT_STATS.valueLoss]: new runtime.Tensor('float32', this.#stats.valueLoss, []),
      [GRADIENT_STATS.entropy]: new runtime.Tensor('float32', this.#stats.entropy, []),
    };
    this.weights.forEach((w, i) => {
      this.#fetches[gradientName(w.name)] = new runtime.Tensor(
        'float32',
        this.#gradients[i] as Float32Array,
        w.shape,
      );
    });
  }

  /** The gradients of the loss over `minibatch` at `weights` (one array per weight, in order). */
  compute(minibatch: Minibatch, weights: readonly Float32Array[]): Gradients {
    if (this.#disposed) throw new Error('the onnxruntime gradient session was released');
    if (weights.length !== this.weights.length) {
      throw new Error(`expected ${this.weights.length} weight arrays, got ${weights.length}`);
    }
    let binding = this.#bindings.get(minibatch.size);
    if (binding === undefined || binding.minibatch.observations !== minibatch.observations) {
      binding = this.#bind(minibatch);
      this.#bindings.set(minibatch.size, binding);
    }
    const feeds = { ...binding.feeds };
    this.weights.forEach((w, i) => {
      feeds[w.name] = new this.#runtime.Tensor('float32', weights[i] as Float32Array, w.shape);
    });
    this.#session.run(feeds, this.#fetches, {});
    return {
      gradients: this.#gradients,
      policyLoss: this.#stats.policyLoss[0] as number,
      valueLoss: this.#stats.valueLoss[0] as number,
      entropy: this.#stats.entropy[0] as number,
    };
  }

  #bind(minibatch: Minibatch): Binding {
    const n = minibatch.size;
    const view = (array: Float32Array, width: number) =>
      new this.#runtime.Tensor('float32', array.subarray(0, n * width), [n, width]);
    return {
      minibatch,
      feeds: {
        [GRADIENT_INPUTS.observation]: view(minibatch.observations, this.#inputSize),
        [GRADIENT_INPUTS.mask]: view(minibatch.masks, NUM_ACTIONS),
        [GRADIENT_INPUTS.policyTarget]: view(minibatch.policies, NUM_ACTIONS),
        [GRADIENT_INPUTS.valueTarget]: view(minibatch.values, 1),
      },
    };
  }

  /** Releases the native session. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    OnnxGradients.live--;
    this.#session.dispose();
  }
}
