import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import {
  ENCODINGS,
  type ObservationConfig,
  observationConfigSchema,
  resolveObservationConfig,
} from '../env/gym/observation.ts';
import { type Rules, resolveRules, rulesSchema } from '../env/rules.ts';
import { describeIssues } from '../env/zod-issues.ts';
import { BoundedReadError, readTextBounded } from '../files/read-bounded.ts';
import {
  CHECKPOINT_KIND,
  CheckpointError,
  checkpointPayloadOf,
  loadTensorData,
  tensorSchema,
} from './checkpoint-file.ts';
import { PolicyFileError } from './errors.ts';
import type { DenseWeights, MlpWeights } from './mlp-runner.ts';
import { checkPolicyChecksum } from './policy-checksum.ts';
import { decodePolicyFile, POLICY_FORMAT, type PolicySource } from './policy-file.ts';
import { sha256Hex } from './sha256.ts';

/**
 * The part of a checkpoint's payload a policy needs. The trainer's own schema
 * (train/run/checkpoint.ts) checks the whole payload; this one is looser so that
 * models/ does not depend on train/.
 */
const checkpointPolicySchema = z.object({
  config: z.object({
    name: z.string(),
    hidden: z.array(z.number().int().positive()).min(1),
    activation: z.enum(['relu', 'tanh']),
    encoding: z.enum(ENCODINGS),
    lookahead: z.boolean(),
    // Absent from the checkpoints of runs from before it existed: the observation's default then.
    lookaheadEncoding: observationConfigSchema.shape.lookaheadEncoding,
    // One setting in today's checkpoints; in earlier versions', each option a setting of its own.
    rules: rulesSchema.optional(),
    ...rulesSchema.partial().shape,
  }),
  iteration: z.number().int().nonnegative(),
  counters: z.object({ samples: z.number().nonnegative() }),
  weights: z.array(tensorSchema),
  lastEvaluation: z.record(z.string(), z.number()).nullable(),
});

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
 * Largest policy file or checkpoint read from disk: the shipped 4x256 policy
 * is 1.6 MB and a long run's checkpoint, with its Adam state, about 5 MB; a
 * file far larger is not a policy (`/dev/zero` or a log would otherwise be
 * read until memory runs out).
 */
export const MAX_POLICY_FILE_BYTES = 256 * 1024 * 1024;

/**
 * The files a queue job carries, by the path its agent specs name each with:
 * the file's text, checked against its sha256 when it arrived. Where given,
 * an agent reads the files its spec names from these only, never from the
 * disk: a job is untrusted input.
 */
export type JobFiles = Readonly<Record<string, string>>;

/**
 * Finds the policy file behind a `policy:PATH` spec: a policy file, a checkpoint,
 * an exported model folder (policy.json), or a run folder (its best checkpoint,
 * else its latest).
 */
export function resolvePolicyPath(path: string): string {
  if (!existsSync(path)) throw new PolicyFileError('missing', `policy ${path} does not exist`);
  if (!statSync(path).isDirectory()) return path;
  const candidates = ['policy.json', 'checkpoints/best.json', 'checkpoints/latest.json'];
  for (const candidate of candidates) {
    const full = join(path, candidate);
    if (existsSync(full)) return full;
  }
  throw new PolicyFileError(
    'missing',
    `no policy in folder ${path}: expected one of ${candidates.join(', ')}`,
  );
}

/** The text of the policy file behind `path` on disk, read within MAX_POLICY_FILE_BYTES. */
export function readPolicyText(path: string): { text: string; file: string } {
  const file = resolvePolicyPath(path);
  try {
    return {
      text: readTextBounded(file, {
        what: `policy ${file}`,
        kind: 'a policy file',
        maxBytes: MAX_POLICY_FILE_BYTES,
      }),
      file,
    };
  } catch (err) {
    if (!(err instanceof BoundedReadError)) throw err;
    throw new PolicyFileError(err.reason === 'missing' ? 'missing' : 'unreadable', err.message);
  }
}

/**
 * Loads a policy file or a training checkpoint as plain weights for the
 * runner: from `files` when given (a queue job's; a path it does not carry is
 * refused, whatever is on this machine's disk), else from the disk. The text
 * is decoded once per process (decodeOnce, below): callers share the
 * weights and must not change them.
 */
export function loadPolicy(path: string, files?: JobFiles): LoadedPolicy {
  if (files === undefined) {
    const { text, file } = readPolicyText(path);
    return decodeOnce(`file:${resolve(file)}`, text, file, () => loadPolicyText(text, file));
  }
  if (!Object.hasOwn(files, path)) {
    throw new PolicyFileError(
      'not-sent',
      `the policy file ${path} was not sent with the job: a queue worker reads only the files its job carries`,
    );
  }
  const text = files[path] as string;
  const where = `${path} (sent with the job)`;
  return decodeOnce(`sent:${path}`, text, where, () => loadPolicyText(text, where));
}

/**
 * Policies decoded in this process (thread), kept by where their text came
 * from (a file's absolute path, or a queue job's file by the path its spec
 * names) and its sha256: a spec's check and its agent, and several agents
 * that name one file, decode it once, while a file rewritten since (a run's
 * latest checkpoint) is decoded again. The last MAX_KEPT sources are kept, so
 * that a long-lived worker's jobs do not pile policies up.
 */
const decoded = new Map<string, { readonly sha: string; readonly policy: LoadedPolicy }>();
const MAX_KEPT = 8;

/** The policy of `text`, read from `source` as `path`, decoded only if this text was not decoded there before. */
function decodeOnce(
  source: string,
  text: string,
  path: string,
  decode: () => LoadedPolicy,
): LoadedPolicy {
  const sha = sha256Hex(text);
  const found = decoded.get(source);
  decoded.delete(source);
  const policy = found?.sha === sha ? found.policy : decode();
  decoded.set(source, { sha, policy });
  if (decoded.size > MAX_KEPT) decoded.delete(decoded.keys().next().value as string);
  // Two spellings of one file share its weights, each named as it was read.
  return policy.path === path ? policy : { ...policy, path };
}

/** Decodes a policy file's or a checkpoint's text; `file` names it in errors. */
export function loadPolicyText(text: string, file: string): LoadedPolicy {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new PolicyFileError('corrupt', `policy ${file} is corrupt: not valid JSON`);
  }
  const kind = (data as { kind?: unknown; format?: unknown } | null) ?? {};
  if (kind.kind === CHECKPOINT_KIND) return fromCheckpoint(data, file);
  if (kind.format === POLICY_FORMAT) {
    checkPolicyChecksum(data, `policy ${file}`);
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
  throw new PolicyFileError(
    'corrupt',
    `${file} is neither an ${POLICY_FORMAT} file nor an ayoayo checkpoint`,
  );
}

function fromCheckpoint(data: unknown, file: string): LoadedPolicy {
  const parsed = checkpointPolicySchema.safeParse(checkpointPayloadOf(data, file));
  if (!parsed.success) {
    throw new CheckpointError(
      `checkpoint ${file} is incompatible: ${describeIssues(parsed.error, '(root)')}`,
    );
  }
  const payload = parsed.data;
  const byName = new Map(payload.weights.map((t) => [t.name, t]));
  const dense = (layer: string, activation: DenseWeights['activation']): DenseWeights => {
    const kernel = byName.get(`${layer}/kernel`);
    const bias = byName.get(`${layer}/bias`);
    if (kernel === undefined || bias === undefined || kernel.shape.length !== 2) {
      throw new CheckpointError(`checkpoint ${file} is incompatible: layer ${layer} is missing`);
    }
    return {
      inputSize: kernel.shape[0] as number,
      outputSize: kernel.shape[1] as number,
      activation,
      kernel: loadTensorData(kernel, `checkpoint ${file}`),
      bias: loadTensorData(bias, `checkpoint ${file}`),
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
      lookaheadEncoding: config.lookaheadEncoding,
    }),
    rules: resolveRules(config.rules ?? z.object(rulesSchema.partial().shape).parse(config)),
    source: { run: config.name, iteration: payload.iteration, samples: payload.counters.samples },
    evaluation: payload.lastEvaluation ?? undefined,
    path: file,
  };
}
