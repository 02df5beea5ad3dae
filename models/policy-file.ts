import * as z from 'zod';
import { observationConfigSchema, observationSize } from '../env/gym/observation.ts';
import { rulesSchema } from '../env/rules.ts';
import { describeIssues } from '../env/zod-issues.ts';
import { decodeFloats, encodeFloats } from './base64-floats.ts';
import { PolicyFileError, WeightDataError } from './errors.ts';
import type { Activation, DenseWeights, MlpWeights } from './mlp-runner.ts';

/**
 * The project's own policy file (`ayoayo-policy`, version 1): the network's
 * architecture and weights plus everything a client needs to use it — the
 * observation encoding, the rule options it was trained under and where it came
 * from. Weights are base64 of little-endian float32, kernels row-major
 * [inputSize][outputSize]. Browser-safe: the web page decodes policies with it
 * (reading files from disk is in read-policy-file.ts).
 */
export const POLICY_FORMAT = 'ayoayo-policy';
export const POLICY_FORMAT_VERSION = 1;

const denseSchema = z
  .object({
    inputSize: z.number().int().positive(),
    outputSize: z.number().int().positive(),
    activation: z.enum(['relu', 'tanh', 'linear']),
    kernel: z.string().describe('base64 float32 LE, row-major [inputSize][outputSize]'),
    bias: z.string().describe('base64 float32 LE, [outputSize]'),
  })
  .strict();

export const policySourceSchema = z
  .object({
    run: z.string(),
    iteration: z.number().int().nonnegative(),
    samples: z.number().nonnegative().optional(),
    createdAt: z.string().optional(),
  })
  .strict();
export type PolicySource = z.infer<typeof policySourceSchema>;

export const policyFileSchema = z
  .object({
    format: z.literal(POLICY_FORMAT),
    formatVersion: z.literal(POLICY_FORMAT_VERSION),
    observation: observationConfigSchema,
    rules: rulesSchema,
    network: z
      .object({
        inputSize: z.number().int().positive(),
        hidden: z.array(denseSchema).min(1),
        policy: denseSchema,
        value: denseSchema,
      })
      .strict(),
    source: policySourceSchema.optional(),
    /** Latest evaluation: win rate (score) against each baseline. */
    evaluation: z.record(z.string(), z.number()).optional(),
    /**
     * sha256 of the file's JSON text without this field (models/policy-checksum.ts,
     * checked where files are read in Node); files written before it have none.
     */
    checksum: z
      .string()
      .regex(/^[0-9a-f]{64}$/, 'a sha256 in hex')
      .optional(),
  })
  .strict();
export type PolicyFile = z.infer<typeof policyFileSchema>;

function encodeDense(layer: DenseWeights): z.infer<typeof denseSchema> {
  return {
    inputSize: layer.inputSize,
    outputSize: layer.outputSize,
    activation: layer.activation,
    kernel: encodeFloats(layer.kernel),
    bias: encodeFloats(layer.bias),
  };
}

function decodeDense(
  layer: z.infer<typeof denseSchema>,
  name: string,
  where: string,
): DenseWeights {
  try {
    return {
      inputSize: layer.inputSize,
      outputSize: layer.outputSize,
      activation: layer.activation as Activation,
      kernel: decodeFloats(layer.kernel, layer.inputSize * layer.outputSize, `${name}.kernel`),
      bias: decodeFloats(layer.bias, layer.outputSize, `${name}.bias`),
    };
  } catch (error) {
    if (!(error instanceof WeightDataError)) throw error;
    throw new PolicyFileError('corrupt', `${where}: ${error.message}`);
  }
}

export function makePolicyFile(
  weights: MlpWeights,
  meta: Omit<PolicyFile, 'format' | 'formatVersion' | 'network' | 'checksum'>,
): PolicyFile {
  return {
    format: POLICY_FORMAT,
    formatVersion: POLICY_FORMAT_VERSION,
    ...meta,
    network: {
      inputSize: weights.inputSize,
      hidden: weights.hidden.map(encodeDense),
      policy: encodeDense(weights.policy),
      value: encodeDense(weights.value),
    },
  };
}

/** Validates a parsed policy file (shapes chain, heads have 6 and 1 outputs) and decodes its weights. */
export function decodePolicyFile(
  data: unknown,
  where: string,
): { file: PolicyFile; weights: MlpWeights } {
  const parsed = policyFileSchema.safeParse(data);
  if (!parsed.success) {
    const detail = describeIssues(parsed.error, '(root)', 3);
    throw new PolicyFileError(
      'corrupt',
      `${where} is not a valid ${POLICY_FORMAT} file: ${detail}`,
    );
  }
  const file = parsed.data;
  const net = file.network;
  const expectedInputs = observationSize(file.observation);
  if (net.inputSize !== expectedInputs) {
    throw new PolicyFileError(
      'incompatible',
      `${where}: the network takes ${net.inputSize} inputs but its observation encoding has ${expectedInputs}`,
    );
  }
  const hidden = net.hidden.map((h, i) => decodeDense(h, `hidden[${i}]`, where));
  let width = net.inputSize;
  hidden.forEach((h, i) => {
    if (h.inputSize !== width) {
      throw new PolicyFileError(
        'incompatible',
        `${where}: hidden[${i}] takes ${h.inputSize} inputs but receives ${width}`,
      );
    }
    width = h.outputSize;
  });
  const policy = decodeDense(net.policy, 'policy', where);
  const value = decodeDense(net.value, 'value', where);
  if (policy.inputSize !== width || policy.outputSize !== 6) {
    throw new PolicyFileError(
      'incompatible',
      `${where}: the policy head must map ${width} inputs to 6 logits`,
    );
  }
  if (value.inputSize !== width || value.outputSize !== 1) {
    throw new PolicyFileError(
      'incompatible',
      `${where}: the value head must map ${width} inputs to 1 value`,
    );
  }
  return { file, weights: { inputSize: net.inputSize, hidden, policy, value } };
}
