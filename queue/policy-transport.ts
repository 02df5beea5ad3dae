import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { loadPolicy } from '../models/load-policy.ts';
import type { MlpWeights } from '../models/mlp-runner.ts';
import { checkPolicyChecksum, encodePolicyFile } from '../models/policy-checksum.ts';
import { decodePolicyFile, makePolicyFile, type PolicyFile } from '../models/policy-file.ts';
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
 * A policy file as the queue shares it, named by the sha256 of its text,
 * which the jobs carry instead of the file (`what` names it in errors: over
 * the size cap it is refused). The coordinator keeps it, so that it can store
 * it again if Redis loses it.
 */
export function sharePolicyFile(file: PolicyFile, what: string): SharedPolicy {
  const text = encodePolicyFile(file);
  if (Buffer.byteLength(text) > MAX_POLICY_BYTES) {
    throw new QueueError(
      `${what} is larger than ${MAX_POLICY_BYTES} bytes, too large for the queue`,
    );
  }
  return { sha: createHash('sha256').update(text).digest('hex'), text };
}

/**
 * Reads the policy behind a `policy:PATH` spec on the coordinator (a policy
 * file, a checkpoint or a run folder) as a shared policy file.
 */
export function sharePolicy(path: string): SharedPolicy {
  const loaded = loadPolicy(path);
  const file = makePolicyFile(loaded.weights, {
    observation: loaded.observation,
    rules: loaded.rules,
    ...(loaded.source !== undefined ? { source: loaded.source } : {}),
  });
  return sharePolicyFile(file, `policy ${path}`);
}

/**
 * Stores a shared policy in Redis, where the workers fetch it by its sha256,
 * for `ttlSeconds` (a week by default; a training run's network of one
 * iteration, a day).
 */
export async function storePolicy(
  redis: Redis,
  policy: SharedPolicy,
  ttlSeconds = POLICY_TTL_SECONDS,
): Promise<void> {
  await redis.set(policyKey(policy.sha), policy.text, 'EX', ttlSeconds);
}

/** Removes a shared policy from Redis once no job needs it (a training run's earlier networks). */
export async function forgetPolicy(redis: Redis, sha: string): Promise<void> {
  await redis.del(policyKey(sha));
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

/** A shared policy (`what`: a policy, a training run's network): its checksum, then validatePolicyText. */
export function decodeSharedPolicy(
  text: string,
  sha: string,
  what = 'policy',
): ReturnType<typeof decodePolicyFile> {
  const where = `${what} ${sha.slice(0, 12)} from the queue`;
  if (createHash('sha256').update(text).digest('hex') !== sha) {
    throw new QueueError(`${where} does not match its checksum`);
  }
  return validatePolicyText(text, where);
}

/** Policies a worker keeps: a tournament's few, and a training run's newest networks. */
export const POLICY_CACHE_SIZE = 8;

interface HeldPolicy {
  readonly text: string;
  readonly decoded: ReturnType<typeof decodePolicyFile>;
}

/**
 * A worker's cache of validated policy files, fetched from Redis by sha256:
 * each is fetched and checked once (checksum, size cap, schema, finite
 * weights), and the least recently used goes when more than
 * POLICY_CACHE_SIZE are held (a training run brings a network per iteration).
 */
export class PolicyCache {
  private readonly cache = new Map<string, HeldPolicy>();

  constructor(private readonly redis: Redis) {}

  /** A shared policy (`what` names it in errors), decoded; fetched from Redis unless held. */
  async policy(sha: string, what = 'policy'): Promise<ReturnType<typeof decodePolicyFile>> {
    return (await this.#held(sha, what)).decoded;
  }

  /** A shared policy's text, checked as `policy` checks it, for agents made from a job's files. */
  async text(sha: string, what = 'policy'): Promise<string> {
    return (await this.#held(sha, what)).text;
  }

  async #held(sha: string, what: string): Promise<HeldPolicy> {
    const held = this.cache.get(sha);
    if (held !== undefined) {
      // Most recently used last: Maps keep insertion order.
      this.cache.delete(sha);
      this.cache.set(sha, held);
      return held;
    }
    const text = await this.redis.get(policyKey(sha));
    if (text === null)
      throw new QueueError(`${what} ${sha.slice(0, 12)} is not in the queue's store (expired?)`);
    const entry = { text, decoded: decodeSharedPolicy(text, sha, what) };
    this.cache.set(sha, entry);
    for (const oldest of this.cache.keys()) {
      if (this.cache.size <= POLICY_CACHE_SIZE) break;
      this.cache.delete(oldest);
    }
    return entry;
  }
}
