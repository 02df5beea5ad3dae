import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type ObservationConfig, resolveObservationConfig } from '../env/gym/observation.ts';
import { type Rules, resolveRules } from '../env/rules.ts';
import { CHECKPOINT_KIND, loadTensorData, readCheckpoint } from '../train/checkpoint.ts';
import type { DenseWeights, MlpWeights } from './mlp-runner.ts';
import { decodePolicyFile, POLICY_FORMAT, type PolicySource } from './policy-file.ts';

export interface LoadedPolicy {
  readonly weights: MlpWeights;
  readonly observation: ObservationConfig;
  readonly rules: Rules;
  readonly source: PolicySource | undefined;
  readonly evaluation: Record<string, number> | undefined;
  /** The file actually read. */
  readonly path: string;
}

/**
 * Finds the policy file behind a `policy:PATH` spec: a policy file, a checkpoint,
 * an exported model folder (policy.json), or a run folder (its best checkpoint,
 * else its latest).
 */
export function resolvePolicyPath(path: string): string {
  if (!existsSync(path)) throw new Error(`policy ${path} does not exist`);
  if (!statSync(path).isDirectory()) return path;
  const candidates = ['policy.json', 'checkpoints/best.json', 'checkpoints/latest.json'];
  for (const candidate of candidates) {
    const full = join(path, candidate);
    if (existsSync(full)) return full;
  }
  throw new Error(`no policy in folder ${path}: expected one of ${candidates.join(', ')}`);
}

/** Loads a policy file or a training checkpoint as plain weights for the runner. */
export function loadPolicy(path: string): LoadedPolicy {
  const file = resolvePolicyPath(path);
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    throw new Error(`policy ${file} is corrupt: not valid JSON`);
  }
  const kind = (data as { kind?: unknown; format?: unknown } | null) ?? {};
  if (kind.kind === CHECKPOINT_KIND) return fromCheckpoint(file);
  if (kind.format === POLICY_FORMAT) {
    const { file: policy, weights } = decodePolicyFile(data, file);
    return {
      weights,
      observation: resolveObservationConfig(policy.observation),
      rules: resolveRules(policy.rules),
      source: policy.source,
      evaluation: policy.evaluation,
      path: file,
    };
  }
  throw new Error(`${file} is neither an ${POLICY_FORMAT} file nor an ayoayo checkpoint`);
}

function fromCheckpoint(file: string): LoadedPolicy {
  const payload = readCheckpoint(file);
  const byName = new Map(payload.weights.map((t) => [t.name, t]));
  const dense = (layer: string, activation: DenseWeights['activation']): DenseWeights => {
    const kernel = byName.get(`${layer}/kernel`);
    const bias = byName.get(`${layer}/bias`);
    if (kernel === undefined || bias === undefined || kernel.shape.length !== 2) {
      throw new Error(`checkpoint ${file} is incompatible: layer ${layer} is missing`);
    }
    return {
      inputSize: kernel.shape[0] as number,
      outputSize: kernel.shape[1] as number,
      activation,
      kernel: loadTensorData(kernel),
      bias: loadTensorData(bias),
    };
  };
  const config = payload.config;
  const hidden = config.hidden.map((_, i) => dense(`hidden_${i + 1}`, config.activation));
  return {
    weights: {
      inputSize: (hidden[0] as DenseWeights).inputSize,
      hidden,
      policy: dense('policy_logits', 'linear'),
      value: dense('value', 'tanh'),
    },
    observation: resolveObservationConfig({
      encoding: config.encoding,
      lookahead: config.lookahead,
    }),
    rules: resolveRules({
      captureSeedStays: config.captureSeedStays,
      leftoverTo: config.leftoverTo,
    }),
    source: { run: config.name, iteration: payload.iteration, samples: payload.counters.samples },
    evaluation: payload.lastEvaluation ?? undefined,
    path: file,
  };
}
