import onnxProto from 'onnx-proto';
import { type DenseWeights, type MlpWeights, NUM_ACTIONS } from '../mlp-runner.ts';

const { onnx } = onnxProto;
type INodeProto = onnxProto.onnx.INodeProto;
type ITensorProto = onnxProto.onnx.ITensorProto;
type IValueInfoProto = onnxProto.onnx.IValueInfoProto;

/** ONNX opset the graph is written for (Softmax over one axis, Where, Gemm). */
export const ONNX_OPSET = 13;
/** IR version 8 (ONNX 1.10), read by every ONNX Runtime since 1.10. */
export const ONNX_IR_VERSION = 8;
export const ONNX_INPUTS = { observation: 'observation', actionMask: 'action_mask' } as const;
export const ONNX_OUTPUTS = { policy: 'policy', value: 'value' } as const;

/**
 * Where the mask is 0 the logit is replaced by this before the softmax: exp of
 * it underflows to exactly 0 in float32, and the softmax is then multiplied by
 * the mask, so an illegal action's probability is exactly 0.0 even when no
 * action is legal (then every probability is 0, as in the runner's maskedSoftmax).
 */
const MASKED_LOGIT = -1e9;

const FLOAT = onnx.TensorProto.DataType.FLOAT;

function floatBytes(values: Float32Array): Uint8Array {
  const bytes = new Uint8Array(values.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < values.length; i++) view.setFloat32(i * 4, values[i] as number, true);
  return bytes;
}

function initializer(name: string, dims: number[], values: Float32Array): ITensorProto {
  return { name, dims, dataType: FLOAT, rawData: floatBytes(values) };
}

function tensorInput(name: string, width: number, doc: string): IValueInfoProto {
  return {
    name,
    docString: doc,
    type: {
      tensorType: {
        elemType: FLOAT,
        shape: { dim: [{ dimParam: 'batch' }, { dimValue: width }] },
      },
    },
  };
}

function node(
  opType: string,
  inputs: string[],
  output: string,
  attribute?: INodeProto['attribute'],
): INodeProto {
  return { opType, name: output, input: inputs, output: [output], attribute: attribute ?? [] };
}

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

  const model = onnx.ModelProto.create({
    irVersion: ONNX_IR_VERSION,
    opsetImport: [{ domain: '', version: ONNX_OPSET }],
    producerName: 'ayoayo',
    producerVersion: options.producerVersion,
    docString: options.description,
    metadataProps: Object.entries(options.metadata).map(([key, value]) => ({ key, value })),
    graph: {
      name: 'ayoayo_policy_value',
      docString: options.description,
      node: nodes,
      initializer: inits,
      ...io,
    },
  });
  return onnx.ModelProto.encode(model).finish();
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
  nodes.push(
    node('Softmax', ['masked_logits'], 'softmax', [
      { name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: 1 },
    ]),
  );
  nodes.push(
    node('Cast', ['legal'], 'legal_float', [
      { name: 'to', type: onnx.AttributeProto.AttributeType.INT, i: FLOAT },
    ]),
  );
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
