import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { observationSize } from '../../env/gym/observation.ts';
import { writeFileAtomic } from '../../files/atomic-write.ts';
import { loadBackend } from '../backend.ts';
import { type LoadedPolicy, loadPolicy } from '../load-policy.ts';
import { encodePolicyFile } from '../policy-checksum.ts';
import { makePolicyFile } from '../policy-file.ts';
import {
  encoderVectors,
  FEATURE_SPEC_FILE,
  featureSpecMarkdown,
  VECTORS_FILE,
} from './encoder-check.ts';
import {
  buildManifest,
  type ExportedPolicy,
  type ExportFormat,
  type ExportManifest,
  MANIFEST_FILE,
  MANIFEST_FORMAT_VERSION,
  MASKED_SOFTMAX_RULE,
} from './manifest.ts';
import { buildOnnxModel } from './onnx-model.ts';
import { saveTfjsModel } from './tfjs-model.ts';

export const JSON_POLICY_FILE = 'policy.json';
export const ONNX_MODEL_FILE = 'model.onnx';

export interface ExportOptions {
  /** A policy file, a training checkpoint, or a folder holding one (see loadPolicy). */
  readonly from: string;
  readonly format: ExportFormat;
  /** Folder to write into (created if missing; files of the same name are replaced). */
  readonly out: string;
  /** The export time written to the manifest (default: now). */
  readonly now?: Date;
}

export interface ExportResult {
  readonly out: string;
  /** Every file written: the model's, features.md, vectors.json, then the manifest. */
  readonly files: readonly string[];
  readonly manifest: ExportManifest;
  readonly policy: LoadedPolicy;
}

/** The policy as an ayoayo-policy file: the `json` format, run by models/mlp-runner.ts. */
export function policyFileOf(policy: ExportedPolicy) {
  return makePolicyFile(policy.weights, {
    observation: policy.observation,
    rules: policy.rules,
    ...(policy.source ? { source: policy.source } : {}),
    ...(policy.evaluation ? { evaluation: policy.evaluation } : {}),
  });
}

/** Key facts about the policy, stored inside the model files themselves too. */
function summary(policy: ExportedPolicy): Record<string, string> {
  return {
    'ayoayo.manifest': MANIFEST_FILE,
    'ayoayo.manifest_version': String(MANIFEST_FORMAT_VERSION),
    'ayoayo.observation': JSON.stringify({
      ...policy.observation,
      size: policy.weights.inputSize,
    }),
    'ayoayo.rules': JSON.stringify(policy.rules),
    'ayoayo.source': JSON.stringify(policy.source ?? null),
  };
}

async function writeModel(policy: ExportedPolicy, format: ExportFormat, out: string) {
  if (format === 'json') {
    writeFileAtomic(join(out, JSON_POLICY_FILE), `${encodePolicyFile(policyFileOf(policy))}\n`);
    return [JSON_POLICY_FILE];
  }
  if (format === 'onnx') {
    const source = policy.source
      ? `run ${policy.source.run}, iteration ${policy.source.iteration}`
      : 'unknown run';
    const bytes = buildOnnxModel(policy.weights, {
      description: `Ayoayo policy-value network (${source}). Inputs: observation, action_mask; outputs: policy (masked softmax), value. See ${MANIFEST_FILE}.`,
      metadata: summary(policy),
      producerVersion: String(MANIFEST_FORMAT_VERSION),
    });
    writeFileAtomic(join(out, ONNX_MODEL_FILE), bytes);
    return [ONNX_MODEL_FILE];
  }
  const { tf } = await loadBackend('auto');
  return saveTfjsModel(tf, policy.weights, out, {
    ...summary(policy),
    outputs: 'policy_logits (6 unmasked logits), value (tanh)',
    masking: MASKED_SOFTMAX_RULE,
  });
}

/**
 * Exports a trained policy for other clients: the model files of one format
 * plus `manifest.json`, each written atomically (temp file, then rename).
 */
export async function exportPolicy(options: ExportOptions): Promise<ExportResult> {
  const policy = loadPolicy(options.from);
  const expected = observationSize(policy.observation);
  if (expected !== policy.weights.inputSize) {
    throw new Error(
      `${policy.path}: the network takes ${policy.weights.inputSize} inputs but its observation encoding has ${expected}`,
    );
  }
  const out = resolve(options.out);
  mkdirSync(out, { recursive: true });
  const files = await writeModel(policy, options.format, out);
  // Beside every format: what a client in another language needs to write and check its encoder.
  writeFileAtomic(join(out, FEATURE_SPEC_FILE), featureSpecMarkdown(policy));
  const vectors = encoderVectors(policy);
  writeFileAtomic(join(out, VECTORS_FILE), `${JSON.stringify(vectors)}\n`);
  const manifest = {
    ...buildManifest(policy, options.format, files, options.now ?? new Date()),
    encoderCheck: {
      featureSpec: FEATURE_SPEC_FILE,
      vectors: VECTORS_FILE,
      positions: vectors.positions.length,
      meaning: `${FEATURE_SPEC_FILE} says how to compute every feature; ${VECTORS_FILE} holds positions with their exact features, legal actions, probabilities and value, to check a client's encoder and network against`,
    },
  };
  writeFileAtomic(join(out, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  return {
    out,
    files: [...files, FEATURE_SPEC_FILE, VECTORS_FILE, MANIFEST_FILE],
    manifest,
    policy,
  };
}
