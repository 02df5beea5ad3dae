import { z } from 'zod';
import type { Agent } from '../agents/agent.ts';
import { CachedEvaluator } from '../agents/evaluation-cache.ts';
import { MinimaxAgent } from '../agents/minimax.ts';
import { MAX_PLY } from '../agents/minimax-search.ts';
import { PuctAgent } from '../agents/puct-agent.ts';
import { describeIssues } from '../env/gym/options.ts';
import type { Rules } from '../env/rules.ts';
import { NetworkSpecError } from './errors.ts';
import { loadPolicy } from './load-policy.ts';
import { NetworkEvaluator } from './network-evaluator.ts';
import { NetworkLeafEvaluator } from './network-leaf.ts';
import { tfjsForward } from './tfjs-forward.ts';

/** The spec forms of the agents that search with a trained network. */
export const NETWORK_SEARCH_FORMS = [
  'az:PATH[,sims=N|,t=50ms][,c=1.5][,prior=0.5][,temp=1][,cache=16][,batch=16][,reuse=1]',
  'minimax:t=50ms,eval=PATH[,k=16][,cache=16]',
] as const;

export { NetworkSpecError };

const time = z
  .string()
  .regex(/^\d+(\.\d+)?(ms|s)$/, 'a time such as 50ms or 2s')
  .transform((t) => (t.endsWith('ms') ? Number(t.slice(0, -2)) : Number(t.slice(0, -1)) * 1000))
  .refine((ms) => ms > 0, 'the time must be positive');
const number = (what: string) =>
  z
    .string()
    .regex(/^-?\d+(\.\d+)?$/, `${what} must be a number`)
    .transform(Number);
const cacheBits = z
  .string()
  .regex(/^\d+$/, 'cache must be log2 of the entries, an integer in 0..24 (0: none)')
  .transform(Number)
  .refine((b) => b <= 24, 'cache must be at most 24');

const azSchema = z
  .object({
    sims: z
      .string()
      .regex(/^\d+$/, 'sims must be a positive integer')
      .transform(Number)
      .refine((n) => n >= 1 && n <= 10_000_000, 'sims must be in 1..10000000')
      .optional(),
    t: time.optional(),
    c: number('c')
      .refine((c) => c > 0, 'c must be positive')
      .default(1.5),
    prior: number('prior')
      .refine((p) => p >= 0 && p <= 1, 'prior must be in [0, 1]')
      .default(0.5),
    temp: number('temp')
      .refine((t) => t > 0, 'temp must be positive')
      .default(1),
    cache: cacheBits.default(16),
    batch: z
      .string()
      .regex(/^\d+$/, 'batch must be an integer in 1..256')
      .transform(Number)
      .refine((b) => b >= 1 && b <= 256, 'batch must be an integer in 1..256')
      .default(16),
    reuse: z.enum(['0', '1'], 'reuse must be 0 or 1').default('1'),
  })
  .strict()
  .refine((o) => o.sims === undefined || o.t === undefined, 'give sims or t, not both');

const minimaxSchema = z
  .object({
    depth: z
      .string()
      .regex(/^\d+$/, `the depth must be an integer in 1..${MAX_PLY}`)
      .transform(Number)
      .refine((d) => d >= 1 && d <= MAX_PLY, `the depth must be an integer in 1..${MAX_PLY}`)
      .optional(),
    t: time.optional(),
    eval: z.string().min(1, 'eval needs a policy path'),
    k: number('k')
      .refine((k) => k >= 0, 'k must be at least 0')
      .default(16),
    cache: cacheBits.default(16),
  })
  .strict()
  .refine((o) => (o.depth === undefined) !== (o.t === undefined), 'give a depth or t=<time>');

/** True when `spec` names an agent built here (so the generic parser hands it over). */
export function isNetworkSearchSpec(spec: string): boolean {
  const text = spec.trim();
  return text.startsWith('az:') || (text.startsWith('minimax:') && /(^|,)eval=/.test(text));
}

/** `a,b=1,c=2` after the kind: the leading bare fields and the key=value options. */
function splitFields(rest: string): { bare: string[]; options: Record<string, string> } {
  const bare: string[] = [];
  const options: Record<string, string> = {};
  for (const field of rest.split(',')) {
    const eq = field.indexOf('=');
    if (eq < 0) bare.push(field.trim());
    else options[field.slice(0, eq).trim()] = field.slice(eq + 1).trim();
  }
  return { bare, options };
}

function parseWith<S extends z.ZodType>(schema: S, input: unknown, spec: string): z.output<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    throw new NetworkSpecError(
      `invalid agent '${spec}': ${describeIssues(parsed.error, 'options')}; forms: ${NETWORK_SEARCH_FORMS.join(', ')}`,
    );
  }
  return parsed.data;
}

/**
 * Builds `az:...` (PUCT with the network's priors and value) or
 * `minimax:...,eval=PATH` (alpha-beta with the store difference plus k times
 * the network's value at the horizon) from its spec. The agent's name is the
 * spec as given.
 */
export async function createNetworkSearchAgent(spec: string, rules: Rules): Promise<Agent> {
  const name = spec.trim();
  const colon = name.indexOf(':');
  const kind = name.slice(0, colon);
  const { bare, options } = splitFields(name.slice(colon + 1));
  if (kind === 'az') {
    if (bare.length !== 1 || (bare[0] as string).length === 0) {
      throw new NetworkSpecError(
        `invalid agent '${spec}': az needs one policy path first, e.g. az:models/pretrained,t=50ms`,
      );
    }
    const o = parseWith(azSchema, options, spec);
    // Batches go through tfjs (7x more simulations a second at 16: bench/network-search.bench.ts),
    // single leaves through the plain runner (tfjs at batch 1 costs more per call).
    const network = await networkEvaluator(bare[0] as string, rules, o.temp, o.batch > 1);
    const evaluator = o.cache > 0 ? new CachedEvaluator(network, o.cache) : network;
    return new PuctAgent(evaluator, {
      name,
      rules,
      exploration: o.c,
      priorWeight: o.prior,
      batchSize: o.batch,
      reuseTree: o.reuse === '1',
      ...(o.t !== undefined ? { timeMs: o.t } : { simulations: o.sims ?? 800 }),
    });
  }
  if (kind === 'minimax') {
    const [first, ...extra] = bare;
    if (extra.length > 0) {
      throw new NetworkSpecError(`invalid agent '${spec}': unexpected '${extra.join(',')}'`);
    }
    const input: Record<string, string> = { ...options };
    if (first !== undefined && first.length > 0) input.depth = first;
    const o = parseWith(minimaxSchema, input, spec);
    const network = await networkEvaluator(o.eval, rules, 1, false);
    const evaluator = o.cache > 0 ? new CachedEvaluator(network, o.cache) : network;
    return new MinimaxAgent({
      name,
      rules,
      leaf: new NetworkLeafEvaluator(evaluator, o.k, rules),
      ...(o.depth !== undefined ? { depth: o.depth } : { timeMs: o.t as number }),
    });
  }
  throw new NetworkSpecError(`invalid agent '${spec}': not a network search agent`);
}

/** The evaluator of the policy at `path`, for play under `rules` (through tfjs if asked). */
export async function networkEvaluator(
  path: string,
  rules: Rules,
  temperature: number,
  useTfjs: boolean,
): Promise<NetworkEvaluator> {
  const loaded = loadPolicy(path);
  return new NetworkEvaluator(loaded.weights, loaded.observation, rules, {
    temperature,
    ...(useTfjs ? { forward: await tfjsForward(loaded.weights) } : {}),
  });
}
