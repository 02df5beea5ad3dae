import { z } from 'zod';
import type { Agent } from '../agents/agent.ts';
import type { JobFiles } from '../agents/agent-kinds.ts';
import { CachedEvaluator } from '../agents/evaluation-cache.ts';
import type { Evaluator } from '../agents/evaluator.ts';
import { MinimaxAgent } from '../agents/minimax.ts';
import { MAX_PLY } from '../agents/minimax-search.ts';
import { type PuctLimits, type PuctOptions, PuctSearch } from '../agents/puct.ts';
import { PuctAgent } from '../agents/puct-agent.ts';
import { PositionProver, SOLVE_SHARE, SolvingAgent } from '../agents/solving-agent.ts';
import { DURATION_FORMS, integerIn, parseDuration, splitFields } from '../agents/spec-options.ts';
import { describeIssues } from '../env/gym/options.ts';
import type { Position } from '../env/position.ts';
import { type Rules, rulesKey, sameRules } from '../env/rules.ts';
import type { EndgameValues } from '../solve/index.ts';
import { NetworkSpecError } from './errors.ts';
import { inferenceEngine, type NetworkInference } from './inference/inference-engine.ts';
import { type LoadedPolicy, loadPolicy } from './load-policy.ts';
import { NUM_ACTIONS } from './mlp-runner.ts';
import { encoderFor, type ForwardPass, NetworkEvaluator } from './network-evaluator.ts';
import { NetworkLeafEvaluator } from './network-leaf.ts';
import { solvingAgentEndgame } from './solver-endgame.ts';

export { NetworkSpecError };

/** Simulations a move when an az spec gives neither sims nor t. */
export const DEFAULT_SIMULATIONS = 800;

// Every numeric option's message names its range.
const integer = (what: string, min: number, max: number, note = '') =>
  z.string().transform((text, ctx) => {
    const n = integerIn(text, min, max);
    if (n !== null) return n;
    ctx.addIssue({
      code: 'custom',
      message: `${what} must be an integer in ${min}..${max}${note}`,
    });
    return z.NEVER;
  });
const decimal = (what: string, range: string, inRange: (x: number) => boolean) =>
  z.string().transform((text, ctx) => {
    const x = /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN;
    if (inRange(x)) return x;
    ctx.addIssue({ code: 'custom', message: `${what} must be a number ${range}` });
    return z.NEVER;
  });
const time = z.string().transform((text, ctx) => {
  const ms = parseDuration(text);
  if (ms !== null) return ms;
  ctx.addIssue({ code: 'custom', message: `t must be ${DURATION_FORMS}` });
  return z.NEVER;
});
const cacheBits = integer('cache', 0, 24, ' (log2 of the entries; 0: none)');

const azSchema = z
  .object({
    sims: integer('sims', 1, 10_000_000).optional(),
    t: time.optional(),
    c: decimal('c', '> 0', (c) => c > 0).default(1.5),
    prior: decimal('prior', 'in [0, 1]', (p) => p >= 0 && p <= 1).default(0.5),
    temp: decimal('temp', '> 0', (t) => t > 0).default(1),
    cache: cacheBits.default(16),
    batch: integer('batch', 1, 256).default(16),
    reuse: z.enum(['0', '1'], 'reuse must be 0 or 1').default('1'),
    gumbel: z.enum(['0', '1'], 'gumbel must be 0 or 1').default('0'),
    solve: z.enum(['0', '1'], 'solve must be 0 or 1').default('0'),
  })
  .strict()
  .refine((o) => o.sims === undefined || o.t === undefined, 'give sims or t, not both')
  .refine(
    (o) => o.solve === '0' || o.t !== undefined,
    'solve=1 needs t (az:PATH,t=50ms,solve=1): the solver gets a share of the time',
  )
  .refine((o) => o.gumbel === '0' || o.t === undefined, 'gumbel=1 needs sims, not t');

const minimaxSchema = z
  .object({
    depth: integer('the depth', 1, MAX_PLY).optional(),
    t: time.optional(),
    eval: z.string().min(1, 'eval needs a policy path'),
    k: decimal('k', '>= 0', (k) => k >= 0).default(16),
    cache: cacheBits.default(16),
  })
  .strict()
  .refine((o) => (o.depth === undefined) !== (o.t === undefined), 'give a depth or t=<time>');

function parseWith<S extends z.ZodType>(
  schema: S,
  input: unknown,
  fail: (why: string) => Error,
): z.output<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw fail(describeIssues(parsed.error, 'options'));
  return parsed.data;
}

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
  return { path: bare[0] as string, options: parseWith(azSchema, options, fail) };
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
  return parseWith(minimaxSchema, input, fail);
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
  const inference = await networkInference(loaded, o.batch > 1 && o.gumbel === '0');
  const solveMs = o.solve === '1' && o.t !== undefined ? o.t * SOLVE_SHARE : 0;
  const search = new PuctAgent(evaluatorWith(loaded, rules, o, inference.forward), {
    name,
    ...puctOptions(o, rules),
    reuseTree: o.reuse === '1',
    gumbel: o.gumbel === '1',
    ...(solveMs > 0 ? { timeMs: (o.t as number) - solveMs } : azLimits(o)),
    onClose: () => inference.dispose(),
  });
  // The solver first, with its share of the time; the search with the rest.
  return solveMs > 0
    ? new SolvingAgent(search, { name, rules, solveMs, endgame: solvingAgentEndgame(rules) })
    : search;
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

/** The options of an `az:` spec after its path, parsed and defaulted. */
export type AzOptions = z.output<typeof azSchema>;

/**
 * Parses the options of an `az:` spec without its path (`sims=200,c=1`; empty:
 * the defaults), e.g. for `ayoayo serve --search`. Bad options throw a
 * NetworkSpecError naming them, with `what` as the thing that was invalid.
 */
export function parseAzOptions(text: string, what: string): AzOptions {
  const fail = (why: string) => new NetworkSpecError(`invalid ${what}: ${why}`);
  const { bare, options } = splitFields(text, fail);
  const stray = bare.filter((field) => field.length > 0);
  if (stray.length > 0) {
    throw fail(`'${stray.join(',')}' is not key=value; e.g. sims=200 or t=50ms,c=1.5`);
  }
  return parseWith(azSchema, options, fail);
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
 * The forward pass of a network search on the process's inference backend
 * (models/inference/): onnxruntime-node where it loads; else batches through
 * tfjs (7x more simulations a second than the plain runner at 16:
 * bench/network-search.bench.ts) and single leaves through the plain runner.
 */
async function networkInference(loaded: LoadedPolicy, batched: boolean): Promise<NetworkInference> {
  return (await inferenceEngine()).create(loaded.weights, { batched });
}

function evaluatorWith(
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

/** What a PolicySearch found for a position: PUCT's search, or the solver's proof. */
export interface PolicySearchResult {
  /** The move: the search's best (most visited, ties to the lowest action), or the proven one. */
  readonly action: number;
  /** PUCT's simulations (0 when the solver proved the position and PUCT did not run). */
  readonly simulations: number;
  /** Visits of each root action (all 0 when the solver answered). */
  readonly visits: Float64Array;
  /** Visits normalised over the legal actions; when the solver answered, 1 on its move. */
  readonly policy: Float64Array;
  /** Mean value of each root action for the player to move (0 if never visited). */
  readonly q: Float64Array;
  /** The position's value for the player to move: exact when `solved`. */
  readonly value: number;
  /** True when the game's result from the position is proven (by PUCT's tree or the solver). */
  readonly solved: boolean;
}

export interface PolicySearchOptions {
  /**
   * With solve=1: the endgame table its solver reads under the policy's rules,
   * loaded once at creation (default: solvingAgentEndgame's, as the
   * `az:...,solve=1` agent reads; null: none). Positions under other rules
   * are solved without one, so that no request builds a table.
   */
  readonly endgame?: (rules: Rules) => EndgameValues | null;
}

/**
 * One PUCT search a position, with a loaded policy and `az:` options, for
 * answering independent requests (the HTTP service): no tree kept from one
 * position to the next (the evaluation cache is, being exact), and ties
 * between equally good moves go to the lowest action, so the answer is a
 * function of the position and rules under a simulation budget. The network's
 * lookahead features depend on the rules, so each rule set gets its own
 * evaluator (sharing the forward pass).
 *
 * With solve=1 (which needs t) the exact solver first gets its share of the
 * time (SOLVE_SHARE), as in the `az:...,solve=1` agent: when it proves the
 * position, the answer is a move that keeps the proven value (a won
 * position's from a fresh shallowest proof, see PositionProver; else the
 * lowest such action) and PUCT does not run; otherwise PUCT gets the rest of
 * the time. Its proof table is cleared for each position, so that which
 * proven move is answered depends on the request alone.
 */
export class PolicySearch {
  readonly #searches = new Map<string, PuctSearch>();
  readonly #provers = new Map<string, PositionProver>();
  readonly #limits: PuctLimits;
  readonly #solveMs: number;
  readonly #endgame: EndgameValues | null;

  private constructor(
    readonly policy: LoadedPolicy,
    readonly options: AzOptions,
    readonly description: string,
    readonly inference: NetworkInference,
    endgame: EndgameValues | null,
  ) {
    this.#solveMs = options.solve === '1' && options.t !== undefined ? options.t * SOLVE_SHARE : 0;
    this.#limits =
      this.#solveMs > 0 ? { timeMs: (options.t as number) - this.#solveMs } : azLimits(options);
    this.#endgame = endgame;
  }

  /** Parses `options` (as parseAzOptions) and prepares the forward pass (and with solve=1 the endgame table). */
  static async create(
    policy: LoadedPolicy,
    options: string,
    what: string,
    { endgame = solvingAgentEndgame }: PolicySearchOptions = {},
  ): Promise<PolicySearch> {
    const o = parseAzOptions(options, what);
    if (o.gumbel === '1') {
      throw new NetworkSpecError(
        `invalid ${what}: gumbel=1 is for agents; the service searches by PUCT`,
      );
    }
    const table = o.solve === '1' ? endgame(policy.rules) : null;
    const inference = await networkInference(policy, o.batch > 1);
    const limits = azLimits(o);
    const description = [
      'timeMs' in limits ? `t=${limits.timeMs}ms` : `sims=${limits.simulations}`,
      `c=${o.c}`,
      `prior=${o.prior}`,
      `temp=${o.temp}`,
      `cache=${o.cache}`,
      `batch=${o.batch}`,
      ...(o.solve === '1' ? ['solve=1'] : []),
    ].join(',');
    return new PolicySearch(policy, o, description, inference, table);
  }

  /** Searches an unfinished position under `rules` (with solve=1, the solver first). */
  search(position: Position, rules: Rules): PolicySearchResult {
    const key = rulesKey(rules);
    if (this.#solveMs > 0) {
      const proven = this.#prover(key, rules).prove(position, rules);
      if (proven !== null) {
        const action = proven.progress ?? (proven.moves[0] as number);
        const policy = new Float64Array(NUM_ACTIONS);
        policy[action] = 1;
        return {
          action,
          simulations: 0,
          visits: new Float64Array(NUM_ACTIONS),
          policy,
          q: new Float64Array(NUM_ACTIONS),
          value: proven.value,
          solved: true,
        };
      }
    }
    let search = this.#searches.get(key);
    if (search === undefined) {
      const evaluator = evaluatorWith(this.policy, rules, this.options, this.inference.forward);
      search = new PuctSearch(evaluator, puctOptions(this.options, rules));
      this.#searches.set(key, search);
    }
    const found = search.search(position.stateView, this.#limits);
    return { ...found, action: found.bestActions[0] as number };
  }

  /** The solver for `rules`, its table cleared (see the class). */
  #prover(key: string, rules: Rules): PositionProver {
    let prover = this.#provers.get(key);
    if (prover === undefined) {
      const own = sameRules(rules, this.policy.rules);
      prover = new PositionProver({
        name: `--search ${this.description}`,
        rules,
        solveMs: this.#solveMs,
        endgame: own ? this.#endgame : null,
      });
      this.#provers.set(key, prover);
    }
    prover.clear();
    return prover;
  }
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
