/**
 * The grammar of the agent kinds that play with a trained network, the same
 * wherever they are made: `policy:PATH`, and the network searches
 * `az:PATH,...` (which may be solver-backed, `solve=1`) and
 * `minimax:...,eval=PATH`. The command line makes them from the files their
 * specs name (kinds.ts); the browser page from the network it was served
 * (web/src/opponents.ts). No Node built-in.
 */
// A namespace import: a bundle keeps the parts it uses (`{ z }` keeps all of zod, 450 KB).
import * as z from 'zod';
import type { KindGrammar, SpecParser } from '../agent-kinds.ts';
import { MAX_PLY } from '../minimax-search.ts';
import { givesOption, isOption, specFields } from '../spec-grammar.ts';
import {
  decimalOption,
  durationOption,
  fieldOptions,
  integerOption,
  parseSpecOptions,
  requiredArgument,
  switchOption,
} from '../spec-options.ts';

declare module '../agent-kinds.ts' {
  interface AgentSpecs {
    policy: { readonly path: string };
    az: AzSpec;
    'minimax-eval': MinimaxEvalSpec;
  }
}

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
export const parseAzSpec: SpecParser<AzSpec> = (argument, fail) => {
  const { bare, options } = fieldOptions(argument?.fields ?? specFields(''), fail);
  if (bare.length !== 1 || (bare[0] as string).length === 0) {
    throw fail('az needs one policy path first, e.g. az:models/pretrained,t=50ms');
  }
  return { path: bare[0] as string, options: parseSpecOptions(azOptionsSchema, options, fail) };
};

/** Parses what follows `minimax:` in a spec with `eval=PATH`: a depth or t=, then the options. */
export const parseMinimaxEvalSpec: SpecParser<MinimaxEvalSpec> = (argument, fail) => {
  const { bare, options } = fieldOptions(argument?.fields ?? specFields(''), fail);
  const [first, ...extra] = bare;
  if (extra.length > 0) throw fail(`unexpected '${extra.join(',')}'`);
  const input: Record<string, string> = { ...options };
  if (first !== undefined && first.length > 0) input.depth = first;
  return parseSpecOptions(minimaxSchema, input, fail);
};

export const policyGrammar: KindGrammar<'policy'> = {
  kind: 'policy',
  forms: ['policy:PATH'],
  parse: (argument, fail) => ({
    path: requiredArgument(argument, 'policy needs a path, e.g. policy:runs/x/best', fail),
  }),
  files: (spec) => [spec.path],
};

export const azGrammar: KindGrammar<'az'> = {
  kind: 'az',
  forms: [
    'az:PATH[,sims=N|,t=50ms][,c=1.5][,prior=0.5][,temp=1][,cache=16][,batch=16][,reuse=1][,gumbel=0][,solve=1]',
  ],
  parse: parseAzSpec,
  continues: isOption,
  files: (spec) => [spec.path],
  // Its form shows solve=1 already.
  solvable: {
    forms: [],
    withTimeMs: (spec, t) => ({ path: spec.path, options: { ...spec.options, t } }),
  },
};

export const minimaxEvalGrammar: KindGrammar<'minimax-eval'> = {
  kind: 'minimax-eval',
  name: 'minimax',
  forms: ['minimax:t=50ms,eval=PATH[,k=16][,cache=16]'],
  // Alpha-beta with a network is the minimax that names one.
  takes: (argument) => givesOption(argument, 'eval'),
  parse: parseMinimaxEvalSpec,
  continues: isOption,
  files: (spec) => [spec.eval],
};
