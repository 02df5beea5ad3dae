import { z } from 'zod';
import type { Agent } from '../agents/agent.ts';
import { CachedEvaluator } from '../agents/evaluation-cache.ts';
import type { Evaluator } from '../agents/evaluator.ts';
import { MinimaxAgent } from '../agents/minimax.ts';
import { MAX_PLY } from '../agents/minimax-search.ts';
import { type PuctLimits, type PuctOptions, type PuctResult, PuctSearch } from '../agents/puct.ts';
import { PuctAgent } from '../agents/puct-agent.ts';
import { describeIssues } from '../env/gym/options.ts';
import type { Position } from '../env/position.ts';
import type { Rules } from '../env/rules.ts';
import { NetworkSpecError } from './errors.ts';
import { type LoadedPolicy, loadPolicy } from './load-policy.ts';
import { encoderFor, type ForwardPass, NetworkEvaluator } from './network-evaluator.ts';
import { NetworkLeafEvaluator } from './network-leaf.ts';
import { tfjsForward } from './tfjs-forward.ts';

/** The spec forms of the agents that search with a trained network. */
export const NETWORK_SEARCH_FORMS = [
  'az:PATH[,sims=N|,t=50ms][,c=1.5][,prior=0.5][,temp=1][,cache=16][,batch=16][,reuse=1][,gumbel=0]',
  'minimax:t=50ms,eval=PATH[,k=16][,cache=16]',
] as const;

export { NetworkSpecError };

/** Simulations a move when an az spec gives neither sims nor t. */
export const DEFAULT_SIMULATIONS = 800;

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
    gumbel: z.enum(['0', '1'], 'gumbel must be 0 or 1').default('0'),
  })
  .strict()
  .refine((o) => o.sims === undefined || o.t === undefined, 'give sims or t, not both')
  .refine((o) => o.gumbel === '0' || o.t === undefined, 'gumbel=1 needs sims, not t');

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

/** A network search spec, parsed, with its policy loaded. */
type NetworkSearchPlan =
  | { readonly kind: 'az'; readonly o: AzOptions; readonly loaded: LoadedPolicy }
  | { readonly kind: 'minimax'; readonly o: MinimaxEvalOptions; readonly loaded: LoadedPolicy };

type MinimaxEvalOptions = z.output<typeof minimaxSchema>;

/**
 * Parses `az:...` or `minimax:...,eval=PATH`, loads (and so validates) its
 * policy and checks that the network's input fits its observation encoding
 * under `rules`: everything that can go wrong before the agent exists.
 */
function planNetworkSearch(spec: string, rules: Rules): NetworkSearchPlan {
  const name = spec.trim();
  const colon = name.indexOf(':');
  const kind = name.slice(0, colon);
  const { bare, options } = splitFields(name.slice(colon + 1));
  let plan: NetworkSearchPlan;
  if (kind === 'az') {
    if (bare.length !== 1 || (bare[0] as string).length === 0) {
      throw new NetworkSpecError(
        `invalid agent '${spec}': az needs one policy path first, e.g. az:models/pretrained,t=50ms`,
      );
    }
    const o = parseWith(azSchema, options, spec);
    plan = { kind, o, loaded: loadPolicy(bare[0] as string) };
  } else if (kind === 'minimax') {
    const [first, ...extra] = bare;
    if (extra.length > 0) {
      throw new NetworkSpecError(`invalid agent '${spec}': unexpected '${extra.join(',')}'`);
    }
    const input: Record<string, string> = { ...options };
    if (first !== undefined && first.length > 0) input.depth = first;
    const o = parseWith(minimaxSchema, input, spec);
    plan = { kind, o, loaded: loadPolicy(o.eval) };
  } else {
    throw new NetworkSpecError(`invalid agent '${spec}': not a network search agent`);
  }
  encoderFor(plan.loaded.weights, plan.loaded.observation, rules);
  return plan;
}

/**
 * Checks a network search spec as createNetworkSearchAgent would, without
 * making the agent (no tfjs backend, no tensors): for a tournament to refuse a
 * bad spec before its worker threads make the agents.
 */
export function checkNetworkSearchSpec(spec: string, rules: Rules): void {
  planNetworkSearch(spec, rules);
}

/**
 * Builds `az:...` (PUCT with the network's priors and value) or
 * `minimax:...,eval=PATH` (alpha-beta with the store difference plus k times
 * the network's value at the horizon) from its spec. The agent's name is the
 * spec as given.
 */
export async function createNetworkSearchAgent(spec: string, rules: Rules): Promise<Agent> {
  const name = spec.trim();
  const plan = planNetworkSearch(spec, rules);
  if (plan.kind === 'az') {
    const { o, loaded } = plan;
    const evaluator = await azEvaluator(loaded, rules, o);
    return new PuctAgent(evaluator, {
      name,
      ...puctOptions(o, rules),
      reuseTree: o.reuse === '1',
      gumbel: o.gumbel === '1',
      ...azLimits(o),
    });
  }
  const { o, loaded } = plan;
  const network = new NetworkEvaluator(loaded.weights, loaded.observation, rules);
  return new MinimaxAgent({
    name,
    rules,
    leaf: new NetworkLeafEvaluator(cached(network, o.cache), o.k, rules),
    ...(o.depth !== undefined ? { depth: o.depth } : { timeMs: o.t as number }),
  });
}

/** The options of an `az:` spec after its path, parsed and defaulted. */
export type AzOptions = z.output<typeof azSchema>;

/**
 * Parses the options of an `az:` spec without its path (`sims=200,c=1`; empty:
 * the defaults), e.g. for `ayoayo serve --search`. Bad options throw a
 * NetworkSpecError naming them, with `what` as the thing that was invalid.
 */
export function parseAzOptions(text: string, what: string): AzOptions {
  const { bare, options } = splitFields(text);
  const stray = bare.filter((field) => field.length > 0);
  if (stray.length > 0) {
    throw new NetworkSpecError(
      `invalid ${what}: '${stray.join(',')}' is not key=value; e.g. sims=200 or t=50ms,c=1.5`,
    );
  }
  const parsed = azSchema.safeParse(options);
  if (!parsed.success) {
    throw new NetworkSpecError(`invalid ${what}: ${describeIssues(parsed.error, 'options')}`);
  }
  return parsed.data;
}

function azLimits(o: AzOptions): PuctLimits {
  return o.t !== undefined ? { timeMs: o.t } : { simulations: o.sims ?? DEFAULT_SIMULATIONS };
}

function puctOptions(o: AzOptions, rules: Rules): PuctOptions {
  return { rules, exploration: o.c, priorWeight: o.prior, batchSize: o.batch };
}

function cached(evaluator: Evaluator, bits: number): Evaluator {
  return bits > 0 ? new CachedEvaluator(evaluator, bits) : evaluator;
}

/**
 * The network evaluator an az search uses: batches through tfjs (7x more
 * simulations a second at 16: bench/network-search.bench.ts), single leaves
 * through the plain runner (tfjs at batch 1 costs more per call).
 */
async function azEvaluator(loaded: LoadedPolicy, rules: Rules, o: AzOptions): Promise<Evaluator> {
  // Gumbel root search evaluates one leaf at a time.
  const batched = o.batch > 1 && o.gumbel === '0';
  const forward = batched ? await tfjsForward(loaded.weights) : undefined;
  return evaluatorWith(loaded, rules, o, forward);
}

function evaluatorWith(
  loaded: LoadedPolicy,
  rules: Rules,
  o: AzOptions,
  forward: ForwardPass | undefined,
): Evaluator {
  const network = new NetworkEvaluator(loaded.weights, loaded.observation, rules, {
    temperature: o.temp,
    ...(forward !== undefined ? { forward } : {}),
  });
  return cached(network, o.cache);
}

/**
 * One PUCT search a position, with a loaded policy and `az:` options, for
 * answering independent requests (the HTTP service): no tree kept from one
 * position to the next (the evaluation cache is, being exact), and ties
 * between equally good moves go to the lowest action, so the answer is a
 * function of the position and rules under a simulation budget. The network's
 * lookahead features depend on the rules, so each rule set gets its own
 * evaluator (sharing the forward pass).
 */
export class PolicySearch {
  readonly #searches = new Map<string, PuctSearch>();
  readonly #limits: PuctLimits;

  private constructor(
    readonly policy: LoadedPolicy,
    readonly options: AzOptions,
    readonly description: string,
    readonly forward: ForwardPass | undefined,
  ) {
    this.#limits = azLimits(options);
  }

  /** Parses `options` (as parseAzOptions) and prepares the forward pass. */
  static async create(policy: LoadedPolicy, options: string, what: string): Promise<PolicySearch> {
    const o = parseAzOptions(options, what);
    if (o.gumbel === '1') {
      throw new NetworkSpecError(
        `invalid ${what}: gumbel=1 is for agents; the service searches by PUCT`,
      );
    }
    const forward = o.batch > 1 ? await tfjsForward(policy.weights) : undefined;
    const limits = azLimits(o);
    const description = [
      'timeMs' in limits ? `t=${limits.timeMs}ms` : `sims=${limits.simulations}`,
      `c=${o.c}`,
      `prior=${o.prior}`,
      `temp=${o.temp}`,
      `cache=${o.cache}`,
      `batch=${o.batch}`,
    ].join(',');
    return new PolicySearch(policy, o, description, forward);
  }

  /** Searches an unfinished position under `rules`; the move is `bestActions[0]`. */
  search(position: Position, rules: Rules): PuctResult {
    const key = `${rules.captureSeedStays}/${rules.leftoverTo}`;
    let search = this.#searches.get(key);
    if (search === undefined) {
      const evaluator = evaluatorWith(this.policy, rules, this.options, this.forward);
      search = new PuctSearch(evaluator, puctOptions(this.options, rules));
      this.#searches.set(key, search);
    }
    return search.search(position.stateView, this.#limits);
  }
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
