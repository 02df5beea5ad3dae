import { buildOnnxModel, ONNX_INPUTS, ONNX_LOGIT_OUTPUTS } from '../export/onnx-model.ts';
import { type MlpWeights, NUM_ACTIONS } from '../mlp-runner.ts';
import {
  ONE_THREAD_SESSION,
  type OnnxRuntime,
  type OrtNativeSession,
  type OrtTensor,
} from './onnx-runtime.ts';

/** One batch size's feeds and fetches: tensors over the caller's arrays. */
interface Binding {
  readonly observations: Float32Array;
  readonly logits: Float32Array;
  readonly values: Float32Array;
  readonly feeds: Record<string, OrtTensor>;
  readonly fetches: Record<string, OrtTensor>;
}

/**
 * A network's forward pass through onnxruntime-node: an in-memory ONNX model
 * of the weights (the exporter's graph with the raw logits as output,
 * models/export/onnx-model.ts), one native session, run synchronously.
 */
export class OnnxForward {
  /** Sessions of this thread not yet released (for tests and leak checks). */
  static live = 0;
  readonly #session: OrtNativeSession;
  readonly #inputSize: number;
  // Per batch size, remade only when the caller hands other arrays: onnxruntime
  // reads the inputs from, and writes the outputs into, the caller's memory,
  // with no copy and no allocation per call.
  readonly #bindings = new Map<number, Binding>();
  #disposed = false;

  constructor(
    private readonly runtime: OnnxRuntime,
    weights: MlpWeights,
  ) {
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
      ONE_THREAD_SESSION,
    );
    this.#inputSize = weights.inputSize;
    OnnxForward.live++;
  }

  /** Writes 6 logits and one value per row of `observations` (the plain runner's contract). */
  forward(observations: Float32Array, batch: number, logits: Float32Array, values: Float32Array) {
    if (this.#disposed) throw new Error('the onnxruntime session was released');
    let binding = this.#bindings.get(batch);
    if (
      binding === undefined ||
      binding.observations !== observations ||
      binding.logits !== logits ||
      binding.values !== values
    ) {
      binding = this.#bind(observations, batch, logits, values);
      this.#bindings.set(batch, binding);
    }
    this.#session.run(binding.feeds, binding.fetches, {});
  }

  #bind(observations: Float32Array, batch: number, logits: Float32Array, values: Float32Array) {
    const view = (array: Float32Array, width: number) =>
      new this.runtime.Tensor(
        'float32',
        array.length === batch * width ? array : array.subarray(0, batch * width),
        [batch, width],
      );
    return {
      observations,
      logits,
      values,
      feeds: { [ONNX_INPUTS.observation]: view(observations, this.#inputSize) },
      fetches: {
        [ONNX_LOGIT_OUTPUTS.logits]: view(logits, NUM_ACTIONS),
        [ONNX_LOGIT_OUTPUTS.value]: view(values, 1),
      },
    };
  }

  /** Releases the native session (its memory is not the garbage collector's). */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    OnnxForward.live--;
    this.#session.dispose();
  }
}
