import { z } from 'zod';
import type { Rules } from '../../env/rules.ts';
import { NetworkSpecError } from '../../models/errors.ts';
import { inferenceEngine, type NetworkInference } from '../../models/inference/inference-engine.ts';
import { type LoadedPolicy, loadPolicy } from '../../models/load-policy.ts';
import type { Agent } from '../agent.ts';
import type { JobFiles } from '../agent-kinds.ts';
import { CachedEvaluator } from '../evaluation-cache.ts';
import type { Evaluator } from '../evaluator.ts';
import { MinimaxAgent } from '../minimax.ts';
import { MAX_PLY } from '../minimax-search.ts';
import { PuctAgent } from '../puct/agent.ts';
import type { PuctLimits, PuctOptions } from '../puct/search.ts';
import {
  decimalOption,
  durationOption,
  integerOption,
  parseSpecOptions,
  splitFields,
  switchOption,
} from '../spec-options.ts';
import { encoderFor, type ForwardPass, NetworkEvaluator } from './network-evaluator.ts';
import { NetworkLeafEvaluator } from './network-leaf.ts';

export { NetworkSpecError };

/** Simulations a move when an az spec gives neither sims nor t. */
const DEFAULT_SIMULATIONS = 800;

const cacheBits = integerOption('cache', 0, 24, ' (log2 of the entries; 0: none)');

/**
 * The options of an `az:` spec after its path, which `ayoayo serve --search`
 * takes too; `solve=` is the registry's (agents/solver-backed.ts).
 */
export const azOptionsSchema = z
  .object({
    sims: integerOption('sims', 1, 10_000_000).optional(),
    t: durationOption('t').optional(),
    c: decimalOption('c', '> 0', (c) => c > 0).default(1.5),
    prior: decimalOption('prior', 'in [0, 1]', (p) => p >= 0 && p <= 1).default(0.5),
    temp: decimalOption('temp', '> 0', (t) => t > 0).default(1),
    cache: cacheBits.default(16),
    batch: integerOption('batch', 1, 256).default(16),
    reuse: switchOption('reuse').default(true),
    gumbel: switchOption('gumbel').default(false),
  })
  .strict()
  .refine((o) => o.sims === undefined || o.t === undefined, 'give sims or t, not both')
  .refine((o) => !o.gumbel || o.t === undefined, 'gumbel=1 needs sims, not t');

const minimaxSchema = z
  .object({
    depth: integerOption('the depth', 1, MAX_PLY).optional(),
    t: durationOption('t').optional(),
    eval: z.string().min(1, 'eval needs a policy path'),
    k: decimalOption('k', '>= 0', (k) => k >= 0).default(16),
    cache: cacheBits.default(16),
  })
  .strict()
  .refine((o) => (o.depth === undefined) !== (o.t === undefined), 'give a depth or t=<time>');

/** The options of an `az:` spec after its path, parsed and defaulted. */
export type AzOptions = z.output<typeof azOptionsSchema>;

/** A parsed `az:PATH,...` spec. */
export interface AzSpec {
  readonly path: string;
  readonly options: AzOptions;
}

/** The options of a parsed `minimax:...,eval=PATH` spec (depth or t, eval, k, cache). */
export type MinimaxEvalSpec = z.output<typeof minimaxSchema>;

/** Parses what follows `az:`: the policy path, then the options. */
export function parseAzSpec(argument: string | null, fail: (why: string) => Error): AzSpec {
  const { bare, options } = splitFields(argument ?? '', fail);
  if (bare.length !== 1 || (bare[0] as string).length === 0) {
    throw fail('az needs one policy path first, e.g. az:models/pretrained,t=50ms');
  }
  return { path: bare[0] as string, options: parseSpecOptions(azOptionsSchema, options, fail) };
}

/** Parses what follows `minimax:` in a spec with `eval=PATH`: a depth or t=, then the options. */
export function parseMinimaxEvalSpec(
  argument: string | null,
  fail: (why: string) => Error,
): MinimaxEvalSpec {
  const { bare, options } = splitFields(argument ?? '', fail);
  const [first, ...extra] = bare;
  if (extra.length > 0) throw fail(`unexpected '${extra.join(',')}'`);
  const input: Record<string, string> = { ...options };
  if (first !== undefined && first.length > 0) input.depth = first;
  return parseSpecOptions(minimaxSchema, input, fail);
}

/**
 * Loads (and so validates) a network search's policy and checks that the
 * network's input fits its observation encoding under `rules`: all that can
 * go wrong after the spec parsed, before the agent exists (no tfjs backend,
 * no tensors).
 */
export function loadSearchPolicy(path: string, rules: Rules, files?: JobFiles): LoadedPolicy {
  const loaded = loadPolicy(path, files);
  encoderFor(loaded.weights, loaded.observation, rules);
  return loaded;
}

/** `az:...`: PUCT with the network's priors and value. */
export async function createAzAgent(
  name: string,
  spec: AzSpec,
  rules: Rules,
  files?: JobFiles,
): Promise<Agent> {
  const o = spec.options;
  const loaded = loadSearchPolicy(spec.path, rules, files);
  // Gumbel root search evaluates one leaf at a time.
  const inference = await networkInference(loaded, o.batch > 1 && !o.gumbel);
  return new PuctAgent(evaluatorWith(loaded, rules, o, inference.forward), {
    name,
    ...puctOptions(o, rules),
    reuseTree: o.reuse,
    gumbel: o.gumbel,
    ...azLimits(o),
    onClose: () => inference.dispose(),
  });
}

/**
 * `minimax:...,eval=PATH`: alpha-beta with the store difference plus k times
 * the network's value at the horizon.
 */
export async function createMinimaxEvalAgent(
  name: string,
  o: MinimaxEvalSpec,
  rules: Rules,
  files?: JobFiles,
): Promise<Agent> {
  const loaded = loadSearchPolicy(o.eval, rules, files);
  const inference = await networkInference(loaded, false);
  const network = new NetworkEvaluator(loaded.weights, loaded.observation, rules, {
    forward: inference.forward,
  });
  return new MinimaxAgent({
    name,
    rules,
    leaf: new NetworkLeafEvaluator(cached(network, o.cache), o.k, rules),
    ...(o.depth !== undefined ? { depth: o.depth } : { timeMs: o.t as number }),
    onClose: () => inference.dispose(),
  });
}

/** A PUCT search's budget from az options: t, else sims (default DEFAULT_SIMULATIONS). */
export function azLimits(o: AzOptions): PuctLimits {
  return o.t !== undefined ? { timeMs: o.t } : { simulations: o.sims ?? DEFAULT_SIMULATIONS };
}

/** PUCT's options from az options. */
export function puctOptions(o: AzOptions, rules: Rules): PuctOptions {
  return { rules, exploration: o.c, priorWeight: o.prior, batchSize: o.batch };
}

function cached(evaluator: Evaluator, bits: number): Evaluator {
  return bits > 0 ? new CachedEvaluator(evaluator, bits) : evaluator;
}

/**
 * The forward pass of a network search on the process's inference backend
 * (models/inference/): onnxruntime-node where it loads; else batches through
 * tfjs (7x more simulations a second than the plain runner at 16:
 * bench/network-search.bench.ts) and single leaves through the plain runner.
 */
export async function networkInference(
  loaded: LoadedPolicy,
  batched: boolean,
): Promise<NetworkInference> {
  return (await inferenceEngine()).create(loaded.weights, { batched });
}

/** The network's evaluator under `rules`, with az's temperature and evaluation cache. */
export function evaluatorWith(
  loaded: LoadedPolicy,
  rules: Rules,
  o: AzOptions,
  forward: ForwardPass,
): Evaluator {
  const network = new NetworkEvaluator(loaded.weights, loaded.observation, rules, {
    temperature: o.temp,
    forward,
  });
  return cached(network, o.cache);
}

/**
 * The evaluator of the policy at `path`, for play under `rules`, on the
 * process's inference backend (`batched`: see CreateInferenceOptions).
 */
export async function networkEvaluator(
  path: string,
  rules: Rules,
  temperature: number,
  batched: boolean,
): Promise<NetworkEvaluator> {
  const loaded = loadPolicy(path);
  const inference = await networkInference(loaded, batched);
  return new NetworkEvaluator(loaded.weights, loaded.observation, rules, {
    temperature,
    forward: inference.forward,
  });
}
