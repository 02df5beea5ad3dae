import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type * as tfType from '@tensorflow/tfjs';
import { writeFileAtomic } from '../../files/atomic-write.ts';
import type { Tf } from '../backend.ts';
import { type DenseWeights, type MlpWeights, NUM_ACTIONS } from '../mlp-runner.ts';
import { POLICY_OUTPUT, VALUE_OUTPUT } from '../policy-value-model.ts';

export const TFJS_MODEL_FILE = 'model.json';
export const TFJS_WEIGHTS_FILE = 'weights.bin';

/**
 * The network as a tfjs Layers model with the trainer's layer names (input
 * `observation`, `hidden_1..n`, outputs `policy_logits` and `value`), holding
 * the given weights. Unlike the trainer's factory it keeps each hidden layer's
 * own activation, so any ayoayo-policy file converts.
 */
export function buildLayersModel(tf: Tf, weights: MlpWeights): tfType.LayersModel {
  const input = tf.input({ shape: [weights.inputSize], name: 'observation' });
  const layer = (w: DenseWeights, name: string, x: tfType.SymbolicTensor) => {
    const dense = tf.layers.dense({
      units: w.outputSize,
      activation: w.activation,
      name,
      kernelInitializer: 'zeros',
    });
    const y = dense.apply(x) as tfType.SymbolicTensor;
    const kernel = tf.tensor2d(w.kernel, [w.inputSize, w.outputSize]);
    const bias = tf.tensor1d(w.bias);
    dense.setWeights([kernel, bias]);
    kernel.dispose();
    bias.dispose();
    return y;
  };
  let x: tfType.SymbolicTensor = input;
  weights.hidden.forEach((w, i) => {
    x = layer(w, `hidden_${i + 1}`, x);
  });
  if (weights.policy.outputSize !== NUM_ACTIONS || weights.value.activation !== 'tanh') {
    throw new Error('the network needs a 6-logit policy head and a tanh value head');
  }
  const logits = layer(weights.policy, POLICY_OUTPUT, x);
  const value = layer(weights.value, VALUE_OUTPUT, x);
  return tf.model({ inputs: input, outputs: [logits, value], name: 'ayoayo_policy_value' });
}

/**
 * Saves the network as `model.json` + `weights.bin` in `dir`, the layout
 * `tf.loadLayersModel(url)` reads, through a save handler that writes each file
 * atomically (weights first, so model.json never names missing weights).
 * `metadata` goes into model.json's `userDefinedMetadata`.
 */
export async function saveTfjsModel(
  tf: Tf,
  weights: MlpWeights,
  dir: string,
  metadata: Record<string, unknown>,
): Promise<string[]> {
  const model = buildLayersModel(tf, weights);
  try {
    await model.save(
      tf.io.withSaveHandler(async (artifacts) => {
        if (artifacts.weightSpecs === undefined || artifacts.weightData === undefined) {
          throw new Error('tfjs produced no weights to save');
        }
        const data = tf.io.CompositeArrayBuffer.join(artifacts.weightData);
        writeFileAtomic(join(dir, TFJS_WEIGHTS_FILE), new Uint8Array(data));
        const modelJson = {
          format: 'layers-model',
          generatedBy: artifacts.generatedBy,
          convertedBy: null,
          modelTopology: artifacts.modelTopology,
          weightsManifest: [{ paths: [TFJS_WEIGHTS_FILE], weights: artifacts.weightSpecs }],
          userDefinedMetadata: { ayoayo: metadata },
        };
        writeFileAtomic(join(dir, TFJS_MODEL_FILE), `${JSON.stringify(modelJson)}\n`);
        return {
          modelArtifactsInfo: {
            dateSaved: new Date(),
            modelTopologyType: 'JSON',
            weightDataBytes: data.byteLength,
          },
        };
      }),
    );
  } finally {
    model.dispose();
  }
  return [TFJS_MODEL_FILE, TFJS_WEIGHTS_FILE];
}

/**
 * An IO handler that reads a saved Layers model from disk (model.json and the
 * weight files it lists, relative to it), for `tf.loadLayersModel` in Node
 * without tfjs-node's `file://` handler.
 */
export function tfjsFileHandler(tf: Tf, modelJsonPath: string): tfType.io.IOHandler {
  return {
    load: async () => {
      const modelJson = JSON.parse(readFileSync(modelJsonPath, 'utf8')) as tfType.io.ModelJSON;
      return tf.io.getModelArtifactsForJSON(modelJson, async (manifest) => {
        const specs: tfType.io.WeightsManifestEntry[] = [];
        const buffers: ArrayBuffer[] = [];
        for (const group of manifest) {
          specs.push(...group.weights);
          for (const path of group.paths) {
            const bytes = readFileSync(join(dirname(modelJsonPath), path));
            buffers.push(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
          }
        }
        return [specs, tf.io.concatenateArrayBuffers(buffers)];
      });
    },
  };
}
