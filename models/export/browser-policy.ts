/**
 * Reads an ayoayo-policy file (the `json` export) in a browser: no Node APIs
 * (base64 through `atob`), so the web page can bundle it. Mirrors
 * models/policy-file.ts, which reads the same files in Node.
 */
import { z } from 'zod';
import {
  type ObservationConfig,
  observationConfigSchema,
  observationSize,
} from '../../env/gym/observation.ts';
import { type Rules, resolveRules, rulesSchema } from '../../env/rules.ts';
import type { DenseWeights, MlpWeights } from '../mlp-runner.ts';

const denseSchema = z.object({
  inputSize: z.number().int().positive(),
  outputSize: z.number().int().positive(),
  activation: z.enum(['relu', 'tanh', 'linear']),
  kernel: z.string(),
  bias: z.string(),
});

const browserPolicySchema = z.object({
  format: z.literal('ayoayo-policy'),
  formatVersion: z.literal(1),
  observation: observationConfigSchema,
  rules: rulesSchema,
  network: z.object({
    inputSize: z.number().int().positive(),
    hidden: z.array(denseSchema).min(1),
    policy: denseSchema,
    value: denseSchema,
  }),
  source: z
    .object({ run: z.string(), iteration: z.number(), samples: z.number().optional() })
    .partial()
    .optional(),
  evaluation: z.record(z.string(), z.number()).optional(),
});

export interface BrowserPolicy {
  readonly weights: MlpWeights;
  readonly observation: ObservationConfig;
  readonly rules: Rules;
  readonly source: { run?: string; iteration?: number } | undefined;
  readonly evaluation: Record<string, number> | undefined;
}

/** Little-endian float32 values from base64, with `atob` (browsers, Node 16+). */
export function base64ToFloats(text: string, expectedLength: number, what: string): Float32Array {
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    throw new Error(`${what} is not valid base64`);
  }
  if (binary.length !== expectedLength * 4) {
    throw new Error(
      `${what}: expected ${expectedLength} float32 values (${expectedLength * 4} bytes), found ${binary.length} bytes`,
    );
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  const view = new DataView(bytes.buffer);
  const out = new Float32Array(expectedLength);
  for (let i = 0; i < expectedLength; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}

function dense(layer: z.infer<typeof denseSchema>, name: string, from: number): DenseWeights {
  if (layer.inputSize !== from) {
    throw new Error(`${name} takes ${layer.inputSize} inputs but receives ${from}`);
  }
  return {
    inputSize: layer.inputSize,
    outputSize: layer.outputSize,
    activation: layer.activation,
    kernel: base64ToFloats(layer.kernel, layer.inputSize * layer.outputSize, `${name}.kernel`),
    bias: base64ToFloats(layer.bias, layer.outputSize, `${name}.bias`),
  };
}

/** Validates a parsed policy file and decodes its weights; errors say what is wrong. */
export function decodeBrowserPolicy(data: unknown): BrowserPolicy {
  const parsed = browserPolicySchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? issue.path.join('.') : '(root)';
    throw new Error(`not an ayoayo-policy file: ${where}: ${issue?.message ?? 'invalid'}`);
  }
  const { network, observation } = parsed.data;
  const size = observationSize(observation);
  if (network.inputSize !== size) {
    throw new Error(`the network takes ${network.inputSize} inputs, the observation has ${size}`);
  }
  let width = network.inputSize;
  const hidden = network.hidden.map((layer, i) => {
    const decoded = dense(layer, `hidden[${i}]`, width);
    width = decoded.outputSize;
    return decoded;
  });
  const policy = dense(network.policy, 'policy', width);
  const value = dense(network.value, 'value', width);
  if (policy.outputSize !== 6 || value.outputSize !== 1) {
    throw new Error('the policy head must have 6 outputs and the value head 1');
  }
  return {
    weights: { inputSize: network.inputSize, hidden, policy, value },
    observation,
    rules: resolveRules(parsed.data.rules),
    source: parsed.data.source,
    evaluation: parsed.data.evaluation,
  };
}
