/**
 * A training loss and its gradient with respect to every weight of the
 * policy-value MLP, as one ONNX graph, so that onnxruntime computes a
 * minibatch's gradients with its native kernels (several times faster on a CPU
 * than tfjs on wasm). The backward pass is written out layer by layer, as
 * autodiff would derive it for this one network; the policy's part of the
 * loss is the algorithm's own term (policy-term.ts: expert iteration's
 * cross-entropy, PPO's surrogate):
 *
 *   loss = policy term + valueCoef * value squared error
 *   policy: logp = logSoftmax(where(mask > 0, logits, -1e9)), the term's dL/dlogits
 *   value:  v = tanh(u), L = mean((v - target)^2)
 *           dL/du = 2 (v - target) (1 - v^2) / batch
 *   a dense layer y = x W + b: dW = x^T dy, db = sum over the batch of dy, dx = dy W^T
 *   relu: dz = da where z > 0, else 0; tanh: dz = da (1 - a^2)
 *
 * The weights are inputs, not constants, so one session serves every step.
 *
 * A sliced graph (`sliced: true`) computes one slice of a larger minibatch:
 * `batch` is then the whole minibatch's rows, given as the input `row_weight`
 * (1 / batch), and every mean is the slice's sum times it, so that the
 * slices' gradients and statistics add up to the whole minibatch's.
 */
import {
  FLOAT,
  type INodeProto,
  type ITensorProto,
  type IValueInfoProto,
  initializer,
  int64Initializer,
  intAttribute,
  node,
  serializeModel,
  tensorInput,
} from '../../models/export/onnx-graph.ts';
import { MASKED_LOGIT } from '../../models/export/onnx-model.ts';
import { NUM_ACTIONS } from '../../models/mlp-runner.ts';
import type { NetworkConfig } from '../../models/policy-value-model.ts';
import {
  dataInputs,
  GRADIENT_INPUTS,
  lossStats,
  type PolicyTerm,
  ROW_WEIGHT,
} from './policy-term.ts';

/** Adds one node to the graph under construction; returns its output's name. */
type AddNode = (
  op: string,
  inputs: string[],
  output: string,
  attrs?: INodeProto['attribute'],
) => string;

/** Adds the nodes of the mean over the minibatch of `input` (every element), as the scalar `output`. */
type BatchMean = (input: string, output: string) => string;

/** Adds a policy term's steps; returns the initializers of its constants. */
function addTerm(term: PolicyTerm, add: AddNode, mean: BatchMean): ITensorProto[] {
  for (const step of term.steps) {
    if ('mean' in step) {
      mean(step.mean, step.output);
      continue;
    }
    const attributes = Object.entries(step.attributes ?? {}).map(([name, value]) =>
      intAttribute(name, value),
    );
    add(step.op, [...step.inputs], step.output, attributes.length > 0 ? attributes : undefined);
  }
  return term.constants.map(({ name, value }) => initializer(name, [], new Float32Array([value])));
}

/** One weight of the network: its name (tfjs layer name / kernel or bias) and shape. */
export interface WeightShape {
  readonly name: string;
  readonly shape: readonly number[];
}

/** The network's weights in the order of the tfjs model's trainable weights. */
export function weightShapes(inputSize: number, network: NetworkConfig): WeightShape[] {
  const out: WeightShape[] = [];
  let width = inputSize;
  network.hidden.forEach((units, i) => {
    out.push({ name: `hidden_${i + 1}/kernel`, shape: [width, units] });
    out.push({ name: `hidden_${i + 1}/bias`, shape: [units] });
    width = units;
  });
  out.push({ name: 'policy_logits/kernel', shape: [width, NUM_ACTIONS] });
  out.push({ name: 'policy_logits/bias', shape: [NUM_ACTIONS] });
  out.push({ name: 'value/kernel', shape: [width, 1] });
  out.push({ name: 'value/bias', shape: [1] });
  return out;
}

/** The name of the gradient output of weight `name`. */
export function gradientName(name: string): string {
  return `grad/${name}`;
}

/** How a gradient graph weighs its rows. */
export interface GradientGraphOptions {
  /**
   * The graph computes a slice of a larger minibatch: each row weighs the
   * input `row_weight` (1 / the whole minibatch's rows) rather than 1 / the
   * rows it is given.
   */
  readonly sliced?: boolean;
}

/** The serialized gradient graph of the loss of `term` for a network of this shape. */
export function buildGradientGraph(
  inputSize: number,
  network: NetworkConfig,
  term: PolicyTerm,
  { sliced = false }: GradientGraphOptions = {},
): Uint8Array {
  const nodes: INodeProto[] = [];
  const inits: ITensorProto[] = [
    initializer('zero', [], new Float32Array([0])),
    initializer('one', [], new Float32Array([1])),
    initializer('masked_logit', [], new Float32Array([MASKED_LOGIT])),
    initializer('value_scale', [], new Float32Array([2 * term.valueCoef])),
    int64Initializer('axis_0', [0]),
    int64Initializer('axis_1', [1]),
  ];
  const add: AddNode = (op, inputs, output, attrs) => {
    nodes.push(node(op, inputs, output, attrs));
    return output;
  };
  const keep0 = [intAttribute('keepdims', 0)];

  // 1 / batch: given for a slice, else from the observation's shape.
  let mean: BatchMean;
  if (sliced) {
    add('Identity', [ROW_WEIGHT], 'inv_batch');
    mean = (input, output) => {
      add('ReduceSum', [input], `${output}_sum`, keep0);
      return add('Mul', [`${output}_sum`, 'inv_batch'], output);
    };
  } else {
    add('Shape', [GRADIENT_INPUTS.observation], 'shape');
    add('Gather', ['shape', 'axis_0'], 'batch_int', [intAttribute('axis', 0)]);
    add('Cast', ['batch_int'], 'batch', [intAttribute('to', FLOAT)]);
    add('Div', ['one', 'batch'], 'inv_batch');
    mean = (input, output) => add('ReduceMean', [input], output, keep0);
  }

  // Forward, keeping each layer's input and output for the backward pass.
  const weights = weightShapes(inputSize, network);
  const layers = network.hidden.map((_, i) => `hidden_${i + 1}`);
  const inputs: string[] = [];
  let x: string = GRADIENT_INPUTS.observation;
  for (const layer of layers) {
    inputs.push(x);
    add('Gemm', [x, `${layer}/kernel`, `${layer}/bias`], `${layer}/z`);
    x = add(network.activation === 'relu' ? 'Relu' : 'Tanh', [`${layer}/z`], `${layer}/a`);
  }
  const trunk = x;
  add('Gemm', [trunk, 'policy_logits/kernel', 'policy_logits/bias'], 'logits');
  add('Gemm', [trunk, 'value/kernel', 'value/bias'], 'value_linear');
  add('Tanh', ['value_linear'], 'value');

  // The policy: masked log-probabilities, their entropy, and the term's loss and dL/dlogits.
  add('Greater', [GRADIENT_INPUTS.mask, 'zero'], 'legal');
  add('Where', ['legal', 'logits', 'masked_logit'], 'masked_logits');
  add('LogSoftmax', ['masked_logits'], 'log_probs', [intAttribute('axis', 1)]);
  add('Exp', ['log_probs'], 'probs');
  add('Mul', ['probs', 'log_probs'], 'p_log_p');
  add('ReduceSum', ['p_log_p', 'axis_1'], 'row_entropy', keep0);
  mean('row_entropy', 'mean_entropy');
  add('Neg', ['mean_entropy'], 'entropy');
  inits.push(...addTerm(term, add, mean));

  // The mask passes no gradient to an illegal action's logit, as tfjs's where
  // does: it matters where a target weighs an illegal action or a row has none legal.
  add('Where', ['legal', 'd_masked_logits', 'zero'], 'd_logits');

  // The value loss.
  add('Sub', ['value', GRADIENT_INPUTS.valueTarget], 'value_error');
  add('Mul', ['value_error', 'value_error'], 'value_error_2');
  mean('value_error_2', 'value_loss');

  // Backward: the value head, then both heads into the trunk.
  add('Mul', ['value', 'value'], 'value_2');
  add('Sub', ['one', 'value_2'], 'tanh_slope');
  add('Mul', ['value_error', 'tanh_slope'], 'value_slope_error');
  add('Mul', ['value_slope_error', 'value_scale'], 'value_scaled');
  add('Mul', ['value_scaled', 'inv_batch'], 'd_value_linear');
  const transA = [intAttribute('transA', 1)];
  const transB = [intAttribute('transB', 1)];
  add('Gemm', [trunk, 'd_logits'], gradientName('policy_logits/kernel'), transA);
  add('ReduceSum', ['d_logits', 'axis_0'], gradientName('policy_logits/bias'), keep0);
  add('Gemm', [trunk, 'd_value_linear'], gradientName('value/kernel'), transA);
  add('ReduceSum', ['d_value_linear', 'axis_0'], gradientName('value/bias'), keep0);
  add('Gemm', ['d_logits', 'policy_logits/kernel'], 'd_trunk_policy', transB);
  add('Gemm', ['d_value_linear', 'value/kernel'], 'd_trunk_value', transB);
  let dA = add('Add', ['d_trunk_policy', 'd_trunk_value'], 'd_trunk');

  // Backward: the hidden layers, last to first.
  for (let i = layers.length - 1; i >= 0; i--) {
    const layer = layers[i] as string;
    let dZ: string;
    if (network.activation === 'relu') {
      add('Greater', [`${layer}/z`, 'zero'], `${layer}/active`);
      dZ = add('Where', [`${layer}/active`, dA, 'zero'], `${layer}/dz`);
    } else {
      add('Mul', [`${layer}/a`, `${layer}/a`], `${layer}/a2`);
      add('Sub', ['one', `${layer}/a2`], `${layer}/slope`);
      dZ = add('Mul', [dA, `${layer}/slope`], `${layer}/dz`);
    }
    add('Gemm', [inputs[i] as string, dZ], gradientName(`${layer}/kernel`), transA);
    add('ReduceSum', [dZ, 'axis_0'], gradientName(`${layer}/bias`), keep0);
    if (i > 0) dA = add('Gemm', [dZ, `${layer}/kernel`], `${layers[i - 1]}/da`, transB);
  }

  const graphInputs: IValueInfoProto[] = [
    ...dataInputs(inputSize, term).map((input) => tensorInput(input.name, input.width, input.doc)),
    ...(sliced ? [tensorInput(ROW_WEIGHT, [], "1 / the whole minibatch's rows", false)] : []),
    ...weights.map((w) => tensorInput(w.name, w.shape, 'network weight', false)),
  ];
  const graphOutputs: IValueInfoProto[] = [
    ...weights.map((w) => tensorInput(gradientName(w.name), w.shape, 'dLoss/dWeight', false)),
    ...lossStats(term).map((name) => tensorInput(name, [], name, false)),
  ];
  return serializeModel({
    graphName: 'ayoayo_policy_value_gradients',
    description: `${term.name} loss gradients of the ayoayo policy-value MLP${sliced ? ' over a slice of a minibatch' : ''} (in memory)`,
    metadata: {},
    producerVersion: '1',
    nodes,
    initializers: inits,
    inputs: graphInputs,
    outputs: graphOutputs,
  });
}
