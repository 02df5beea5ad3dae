import { buildOnnxModel, ONNX_INPUTS, ONNX_LOGIT_OUTPUTS } from '../export/onnx-model.ts';
import { type MlpWeights, NUM_ACTIONS } from '../mlp-runner.ts';
import type { OnnxRuntime, OrtNativeSession, OrtTensor } from './onnx-runtime.ts';

/**
 * One thread's session options: one intra-op thread, since the project runs
 * its searches, self-play shards and tournaments on threads and processes of
 * their own, one session each.
 */
const SESSION_OPTIONS = {
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  executionMode: 'sequential',
  graphOptimizationLevel: 'all',
  executionProviders: ['cpu'],
} as const;

/**
 * Tensors over the caller's arrays, one per batch size, remade only when the
 * caller hands another array: onnxruntime reads the inputs from, and writes
 * the outputs into, the caller's memory, with no copy and no allocation per call.
 */
class TensorViews {
  readonly #views = new Map<number, { readonly array: Float32Array; readonly tensor: OrtTensor }>();

  constructor(
    private readonly runtime: OnnxRuntime,
    private readonly width: number,
  ) {}

  of(array: Float32Array, batch: number): OrtTensor {
    const known = this.#views.get(batch);
    if (known !== undefined && known.array === array) return known.tensor;
    const tensor = new this.runtime.Tensor(
      'float32',
      array.length === batch * this.width ? array : array.subarray(0, batch * this.width),
      [batch, this.width],
    );
    this.#views.set(batch, { array, tensor });
    return tensor;
  }
}

/**
 * A network's forward pass through onnxruntime-node: an in-memory ONNX model
 * of the weights (the exporter's graph with the raw logits as output,
 * models/export/onnx-model.ts), one native session, run synchronously.
 */
export class OnnxForward {
  readonly #session: OrtNativeSession;
  readonly #inputs: TensorViews;
  readonly #logits: TensorViews;
  readonly #values: TensorViews;
  #disposed = false;

  constructor(runtime: OnnxRuntime, weights: MlpWeights) {
    const model = buildOnnxModel(weights, {
      description: 'ayoayo policy-value network (in memory, for inference)',
      metadata: {},
      producerVersion: '1',
      outputs: 'logits',
    });
    this.#session = runtime.newSession();
    this.#session.loadModel(
      model.buffer as ArrayBuffer,
      model.byteOffset,
      model.byteLength,
      SESSION_OPTIONS,
    );
    this.#inputs = new TensorViews(runtime, weights.inputSize);
    this.#logits = new TensorViews(runtime, NUM_ACTIONS);
    this.#values = new TensorViews(runtime, 1);
  }

  /** Writes 6 logits and one value per row of `observations` (the plain runner's contract). */
  forward(observations: Float32Array, batch: number, logits: Float32Array, values: Float32Array) {
    if (this.#disposed) throw new Error('the onnxruntime session was released');
    this.#session.run(
      { [ONNX_INPUTS.observation]: this.#inputs.of(observations, batch) },
      {
        [ONNX_LOGIT_OUTPUTS.logits]: this.#logits.of(logits, batch),
        [ONNX_LOGIT_OUTPUTS.value]: this.#values.of(values, batch),
      },
      {},
    );
  }

  /** Releases the native session (its memory is not the garbage collector's). */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#session.dispose();
  }
}
