/**
 * The pieces ONNX graphs are written with here (onnx-proto's messages): float
 * tensors as initializers, typed inputs and outputs, nodes. The exported and
 * in-memory inference models (onnx-model.ts) and the training step's gradient
 * graph (train/gradients/) are built from them.
 */
import onnxProto from 'onnx-proto';

export const { onnx } = onnxProto;
export type INodeProto = onnxProto.onnx.INodeProto;
export type ITensorProto = onnxProto.onnx.ITensorProto;
export type IValueInfoProto = onnxProto.onnx.IValueInfoProto;
export type IAttributeProto = onnxProto.onnx.IAttributeProto;

/** ONNX opset the graphs are written for (Softmax over one axis, Where, Gemm, ReduceSum with axes as an input). */
export const ONNX_OPSET = 13;
/** IR version 8 (ONNX 1.10), read by every ONNX Runtime since 1.10. */
export const ONNX_IR_VERSION = 8;

export const FLOAT = onnx.TensorProto.DataType.FLOAT;
export const INT64 = onnx.TensorProto.DataType.INT64;

function floatBytes(values: Float32Array): Uint8Array {
  const bytes = new Uint8Array(values.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < values.length; i++) view.setFloat32(i * 4, values[i] as number, true);
  return bytes;
}

/** A float32 constant of the graph, little-endian raw data. */
export function initializer(name: string, dims: number[], values: Float32Array): ITensorProto {
  return { name, dims, dataType: FLOAT, rawData: floatBytes(values) };
}

/** An int64 constant of the graph (axes, shapes). */
export function int64Initializer(name: string, values: readonly number[]): ITensorProto {
  return { name, dims: [values.length], dataType: INT64, int64Data: [...values] };
}

/** A float32 input or output of shape [batch, ...dims] (or exactly `dims` when `batch` is false). */
export function tensorInput(
  name: string,
  width: number | readonly number[],
  doc: string,
  batch = true,
): IValueInfoProto {
  const dims = typeof width === 'number' ? [width] : width;
  return {
    name,
    docString: doc,
    type: {
      tensorType: {
        elemType: FLOAT,
        shape: {
          dim: [...(batch ? [{ dimParam: 'batch' }] : []), ...dims.map((d) => ({ dimValue: d }))],
        },
      },
    },
  };
}

/** A node with one output, named after it. */
export function node(
  opType: string,
  inputs: string[],
  output: string,
  attribute?: INodeProto['attribute'],
): INodeProto {
  return { opType, name: output, input: inputs, output: [output], attribute: attribute ?? [] };
}

/** An integer attribute (axis, transA, keepdims, to). */
export function intAttribute(name: string, value: number): IAttributeProto {
  return { name, type: onnx.AttributeProto.AttributeType.INT, i: value };
}

/** A serialized model of one graph. */
export function serializeModel(options: {
  readonly graphName: string;
  readonly description: string;
  readonly metadata: Record<string, string>;
  readonly producerVersion: string;
  readonly nodes: INodeProto[];
  readonly initializers: ITensorProto[];
  readonly inputs: IValueInfoProto[];
  readonly outputs: IValueInfoProto[];
}): Uint8Array {
  const model = onnx.ModelProto.create({
    irVersion: ONNX_IR_VERSION,
    opsetImport: [{ domain: '', version: ONNX_OPSET }],
    producerName: 'ayoayo',
    producerVersion: options.producerVersion,
    docString: options.description,
    metadataProps: Object.entries(options.metadata).map(([key, value]) => ({ key, value })),
    graph: {
      name: options.graphName,
      docString: options.description,
      node: options.nodes,
      initializer: options.initializers,
      input: options.inputs,
      output: options.outputs,
    },
  });
  return onnx.ModelProto.encode(model).finish();
}
