import { type DenseWeights, type MlpWeights, NUM_ACTIONS } from '../mlp-runner.ts';
import {
  FLOAT,
  type INodeProto,
  type ITensorProto,
  type IValueInfoProto,
  initializer,
  intAttribute,
  node,
  serializeModel,
  tensorInput,
} from './onnx-graph.ts';

export const ONNX_INPUTS = { observation: 'observation', actionMask: 'action_mask' } as const;
export const ONNX_OUTPUTS = { policy: 'policy', value: 'value' } as const;

/**
 * Where the mask is 0 the logit is replaced by this before the softmax: exp of
 * it underflows to exactly 0 in float32, and the softmax is then multiplied by
 * the mask, so an illegal action's probability is exactly 0.0 even when no
 * action is legal (then every probability is 0, as in the runner's maskedSoftmax).
 */
export const MASKED_LOGIT = -1e9;

/** Gemm (x @ kernel + bias) and its activation; returns the name of the layer's output. */
function dense(
  layer: DenseWeights,
  name: string,
  input: string,
  nodes: INodeProto[],
  inits: ITensorProto[],
): string {
  inits.push(initializer(`${name}/kernel`, [layer.inputSize, layer.outputSize], layer.kernel));
  inits.push(initializer(`${name}/bias`, [layer.outputSize], layer.bias));
  const linear = layer.activation === 'linear' ? name : `${name}/linear`;
  nodes.push(node('Gemm', [input, `${name}/kernel`, `${name}/bias`], linear));
  if (layer.activation === 'linear') return linear;
  nodes.push(node(layer.activation === 'relu' ? 'Relu' : 'Tanh', [linear], name));
  return name;
}

export interface OnnxModelOptions {
  /** Shown as the graph's doc string (what the model is, where it came from). */
  readonly description: string;
  /** Stored as the model's metadata_props (string key/value pairs). */
  readonly metadata: Record<string, string>;
  readonly producerVersion: string;
  /**
   * `probabilities` (the exported model): inputs `observation` and
   * `action_mask`, outputs the masked softmax `policy` and `value`.
   * `logits` (the project's own inference, models/inference/): the input
   * `observation` alone, outputs the 6 raw `policy_logits` and `value`, as the
   * plain runner's forward pass gives them.
   */
  readonly outputs?: 'probabilities' | 'logits';
}

/** The output names of a `logits` model: the same as the tfjs network's. */
export const ONNX_LOGIT_OUTPUTS = { logits: 'policy_logits', value: 'value' } as const;

/**
 * The policy-value MLP as a serialized ONNX model (opset 13). Inputs
 * `observation` [batch, inputSize] and `action_mask` [batch, 6] (1 legal, 0
 * illegal), both float32; outputs `policy` [batch, 6] (masked softmax, illegal
 * actions exactly 0) and `value` [batch, 1] (tanh, from the mover's side).
 * With `outputs: 'logits'`, no mask: `policy_logits` [batch, 6] and `value`.
 */
export function buildOnnxModel(weights: MlpWeights, options: OnnxModelOptions): Uint8Array {
  const nodes: INodeProto[] = [];
  const inits: ITensorProto[] = [];
  let x: string = ONNX_INPUTS.observation;
  weights.hidden.forEach((layer, i) => {
    x = dense(layer, `hidden_${i + 1}`, x, nodes, inits);
  });
  const logits = dense(weights.policy, ONNX_LOGIT_OUTPUTS.logits, x, nodes, inits);
  const value = dense(weights.value, ONNX_OUTPUTS.value, x, nodes, inits);
  if (value !== ONNX_OUTPUTS.value) throw new Error('the value head must end in a tanh');
  const observationInput = tensorInput(
    ONNX_INPUTS.observation,
    weights.inputSize,
    'encoded position, see manifest.json',
  );
  const valueOutput = tensorInput(
    ONNX_OUTPUTS.value,
    1,
    'expected result for the player to move, in [-1, 1]',
  );
  const io =
    options.outputs === 'logits'
      ? {
          input: [observationInput],
          output: [
            tensorInput(ONNX_LOGIT_OUTPUTS.logits, NUM_ACTIONS, 'action logits, unmasked'),
            valueOutput,
          ],
        }
      : maskedPolicy(logits, nodes, inits, observationInput, valueOutput);

  return serializeModel({
    graphName: 'ayoayo_policy_value',
    description: options.description,
    metadata: options.metadata,
    producerVersion: options.producerVersion,
    nodes,
    initializers: inits,
    inputs: io.input,
    outputs: io.output,
  });
}

/** The masked softmax over `logits` (the exported model's `policy`) and the graph's inputs and outputs with it. */
function maskedPolicy(
  logits: string,
  nodes: INodeProto[],
  inits: ITensorProto[],
  observationInput: IValueInfoProto,
  valueOutput: IValueInfoProto,
): { input: IValueInfoProto[]; output: IValueInfoProto[] } {
  inits.push(initializer('zero', [], new Float32Array([0])));
  inits.push(initializer('masked_logit', [], new Float32Array([MASKED_LOGIT])));
  nodes.push(node('Greater', [ONNX_INPUTS.actionMask, 'zero'], 'legal'));
  nodes.push(node('Where', ['legal', logits, 'masked_logit'], 'masked_logits'));
  nodes.push(node('Softmax', ['masked_logits'], 'softmax', [intAttribute('axis', 1)]));
  nodes.push(node('Cast', ['legal'], 'legal_float', [intAttribute('to', FLOAT)]));
  nodes.push(node('Mul', ['softmax', 'legal_float'], ONNX_OUTPUTS.policy));
  return {
    input: [
      observationInput,
      tensorInput(ONNX_INPUTS.actionMask, NUM_ACTIONS, '1 where the action is legal, else 0'),
    ],
    output: [
      tensorInput(ONNX_OUTPUTS.policy, NUM_ACTIONS, 'action probabilities, illegal actions 0'),
      valueOutput,
    ],
  };
}
