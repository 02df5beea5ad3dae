import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Agent } from '../agents/agent.ts';
import { resolveObservationConfig } from '../env/gym/observation.ts';
import type { Rules } from '../env/index.ts';
import { loadPolicy } from '../models/load-policy.ts';
import type { MlpWeights } from '../models/mlp-runner.ts';
import { createPolicyAgent } from '../models/policy-agent.ts';
import { checkPolicyChecksum, encodePolicyFile } from '../models/policy-checksum.ts';
import { decodePolicyFile, makePolicyFile } from '../models/policy-file.ts';
import { QueueError } from './errors.ts';

/** Largest policy file that travels through the queue (the shipped 256x256 one is 0.6 MB). */
export const MAX_POLICY_BYTES = 32 * 1024 * 1024;

/** Policies are stored once per content, not once per job: `ayoayo:policy:<sha256>`. */
const policyKey = (sha: string): string => `ayoayo:policy:${sha}`;
const POLICY_TTL_SECONDS = 7 * 24 * 3600;

/** A policy file as the queue shares it: its text and the sha256 that names it. */
export interface SharedPolicy {
  readonly sha: string;
  readonly text: string;
}

/**
 * Reads the policy behind a `policy:PATH` spec on the coordinator (a policy
 * file, a checkpoint or a run folder) as a policy file, named by its sha256,
 * which the jobs carry instead of the path. The coordinator keeps it, so that
 * it can store it again if Redis loses it.
 */
export function sharePolicy(path: string): SharedPolicy {
  const loaded = loadPolicy(path);
  const file = makePolicyFile(loaded.weights, {
    observation: loaded.observation,
    rules: loaded.rules,
    ...(loaded.source !== undefined ? { source: loaded.source } : {}),
  });
  const text = encodePolicyFile(file);
  if (Buffer.byteLength(text) > MAX_POLICY_BYTES) {
    throw new QueueError(
      `policy ${path} is larger than ${MAX_POLICY_BYTES} bytes, too large for the queue`,
    );
  }
  return { sha: createHash('sha256').update(text).digest('hex'), text };
}

/** Stores a shared policy in Redis, where the workers fetch it by its sha256. */
export async function storePolicy(redis: Redis, policy: SharedPolicy): Promise<void> {
  await redis.set(policyKey(policy.sha), policy.text, 'EX', POLICY_TTL_SECONDS);
}

/** Every weight must be a finite number: a NaN network would play, badly, without a word. */
function checkFinite(weights: MlpWeights, where: string): void {
  for (const [i, layer] of [...weights.hidden, weights.policy, weights.value].entries()) {
    for (const values of [layer.kernel, layer.bias]) {
      if (!values.every(Number.isFinite))
        throw new QueueError(`${where}: layer ${i} has non-finite weights`);
    }
  }
}

/**
 * Validates a policy file received as data: size cap, its checksum, the policy
 * file schema and finite weights. Throws a one-line error naming what is wrong.
 */
export function validatePolicyText(
  text: string,
  where: string,
): ReturnType<typeof decodePolicyFile> {
  if (Buffer.byteLength(text) > MAX_POLICY_BYTES) {
    throw new QueueError(`${where} is larger than ${MAX_POLICY_BYTES} bytes`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new QueueError(`${where} is not valid JSON`);
  }
  checkPolicyChecksum(data, where);
  const decoded = decodePolicyFile(data, where);
  checkFinite(decoded.weights, where);
  return decoded;
}

/** A shared policy: its checksum, then validatePolicyText. */
export function decodeSharedPolicy(text: string, sha: string): ReturnType<typeof decodePolicyFile> {
  const where = `policy ${sha.slice(0, 12)} from the queue`;
  if (createHash('sha256').update(text).digest('hex') !== sha) {
    throw new QueueError(`${where} does not match its checksum`);
  }
  return validatePolicyText(text, where);
}

/** A worker's cache of validated policies, fetched from Redis by sha256. */
export class PolicyCache {
  private readonly cache = new Map<string, ReturnType<typeof decodePolicyFile>>();

  constructor(private readonly redis: Redis) {}

  /** The agent for a shared policy, named by its original spec so that records match a local run. */
  async agent(sha: string, name: string, rules: Rules): Promise<Agent> {
    let decoded = this.cache.get(sha);
    if (decoded === undefined) {
      const text = await this.redis.get(policyKey(sha));
      if (text === null)
        throw new QueueError(`policy ${sha.slice(0, 12)} is not in the queue's store (expired?)`);
      decoded = decodeSharedPolicy(text, sha);
      this.cache.set(sha, decoded);
    }
    return createPolicyAgent(
      name,
      decoded.weights,
      resolveObservationConfig(decoded.file.observation),
      rules,
    );
  }
}
