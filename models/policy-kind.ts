/**
 * Registers the agent kinds that load files: a trained network (`policy:PATH`,
 * the network searches `az:PATH,...` and `minimax:...,eval=PATH`) or the
 * solver's endgame table (`minimax:t=50ms,solve=1`), with
 * agents/ (which sits below the models and cannot load them itself), each
 * declared once: forms, parser, check, factory. Imported for its effect by
 * `models/index.ts`, by the command line and by the trainer's evaluation;
 * tournament worker threads import it again through `agentKindModules()`.
 */
import { type AgentKind, type AgentSpecOf, registerAgentKind } from '../agents/spec.ts';
import { isOption, optionKeys, requiredArgument } from '../agents/spec-options.ts';
import { inferenceEngine } from './inference/inference-engine.ts';
import { checkPolicyAgent, loadPolicyAgent } from './policy-agent.ts';
import { noteOtherRules } from './rules-note.ts';
import {
  type AzSpec,
  createAzAgent,
  createMinimaxEvalAgent,
  loadSearchPolicy,
  type MinimaxEvalSpec,
  parseAzSpec,
  parseMinimaxEvalSpec,
} from './search-agents.ts';
import { cacheSolvingAgentEndgame } from './solver-endgame.ts';
import {
  createMinimaxSolveAgent,
  type MinimaxSolveSpec,
  parseMinimaxSolveSpec,
} from './solving-kinds.ts';

declare module '../agents/agent-kinds.ts' {
  interface AgentSpecs {
    policy: { readonly path: string };
    az: AzSpec;
    'minimax-eval': MinimaxEvalSpec;
    'minimax-solve': MinimaxSolveSpec;
  }
}

registerAgentKind('policy', {
  forms: ['policy:PATH'],
  parse: (argument, fail) => ({
    path: requiredArgument(argument, 'policy needs a path, e.g. policy:runs/x/best', fail),
  }),
  files: (spec) => [spec.path],
  // The file and its fit, without the inference session the agent would get.
  check: async (spec, { rules, files }) => {
    checkPolicyAgent(spec.path, rules, files);
    await inferenceEngine();
  },
  create: (spec, { rules, files }) => loadPolicyAgent(spec.path, rules, files),
  module: import.meta.url,
});

/*
 * Each check also resolves the process's inference backend (models/inference/)
 * in the thread that checks the specs, before any agent is made on a worker
 * thread: a fallback's one line is said there, once, and `--inference onnx`
 * without onnxruntime-node fails there.
 */

/**
 * Registers a network search: key=value options follow its argument, and its
 * check loads the policy file it names (`policy`) and fits it to the rules.
 */
function registerNetworkSearch<K extends 'az' | 'minimax-eval'>(
  kind: K,
  definition: Pick<AgentKind<K>, 'name' | 'forms' | 'takes' | 'parse' | 'create'> & {
    readonly policy: (spec: AgentSpecOf<K>) => string;
    /** Whether the spec's search is solver-backed (`solve=1`): its check loads the endgame table. */
    readonly solves?: (spec: AgentSpecOf<K>) => boolean;
  },
): void {
  const { policy, solves, ...rest } = definition;
  registerAgentKind(kind, {
    ...rest,
    continues: isOption,
    files: (spec) => [policy(spec)],
    check: async (spec, { name, rules, files }) => {
      const loaded = loadSearchPolicy(policy(spec), rules, files);
      noteOtherRules(name, loaded.rules, rules);
      await inferenceEngine();
      if (solves?.(spec) === true) cacheSolvingAgentEndgame(rules);
    },
    module: import.meta.url,
  });
}

registerNetworkSearch('az', {
  forms: [
    'az:PATH[,sims=N|,t=50ms][,c=1.5][,prior=0.5][,temp=1][,cache=16][,batch=16][,reuse=1][,gumbel=0][,solve=1]',
  ],
  parse: parseAzSpec,
  policy: (spec) => spec.path,
  // The parser refuses solve=1 without t=, so solve=1 is a solver-backed search.
  solves: (spec) => spec.options.solve === '1',
  create: (spec, { name, rules, files }) => createAzAgent(name, spec, rules, files),
});

registerNetworkSearch('minimax-eval', {
  name: 'minimax',
  forms: ['minimax:t=50ms,eval=PATH[,k=16][,cache=16]'],
  // Alpha-beta with a network is the minimax that names one.
  takes: (argument) => optionKeys(argument).includes('eval'),
  parse: parseMinimaxEvalSpec,
  policy: (spec) => spec.eval,
  create: (spec, { name, rules, files }) => createMinimaxEvalAgent(name, spec, rules, files),
});

/*
 * The solver-backed searches read the endgame table from eval's cache
 * (models/solver-endgame.ts). Their checks make sure it is cached, in the
 * thread that checks the specs, building it there with its progress bar when
 * it is not: a tournament's or benchmark's threads then read it rather than
 * each building it at once.
 */
registerAgentKind('minimax-solve', {
  name: 'minimax',
  forms: ['minimax:t=50ms,solve=1'],
  takes: (argument) => optionKeys(argument).includes('solve'),
  continues: isOption,
  parse: parseMinimaxSolveSpec,
  check: (_spec, { rules }) => cacheSolvingAgentEndgame(rules),
  create: (spec, { name, rules }) => createMinimaxSolveAgent(name, spec, rules),
  module: import.meta.url,
});
