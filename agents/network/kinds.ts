/**
 * The agent kinds that load a trained network, each declared once (forms,
 * parser, check, factory, files): `policy:PATH`, and the network searches
 * `az:PATH,...` (which may be solver-backed, `solve=1`) and
 * `minimax:...,eval=PATH`. agents/ sits below the models and cannot load them
 * itself: registerNetworkKinds registers them with its registry, with the
 * endgame tables of the solver-backed kinds (`minimax:t=50ms,solve=1` too).
 * The entry points that meet agent specs call it (the command line, the
 * package's `ayoayo/models`, training's evaluation, the queue); a
 * tournament's worker threads call it again (agentKindSources).
 */

import { inferenceEngine } from '../../models/inference/inference-engine.ts';
import { type AgentKind, type AgentSpecOf, agentKind, registerAgentKinds } from '../spec.ts';
import { isOption, optionKeys, requiredArgument } from '../spec-options.ts';
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

declare module '../agent-kinds.ts' {
  interface AgentSpecs {
    policy: { readonly path: string };
    az: AzSpec;
    'minimax-eval': MinimaxEvalSpec;
  }
}

/*
 * Each check also resolves the process's inference backend (models/inference/)
 * in the thread that checks the specs, before any agent is made on a worker
 * thread: a fallback's one line is said there, once, and `--inference onnx`
 * without onnxruntime-node fails there.
 */

const policy = agentKind({
  kind: 'policy',
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
});

/**
 * A network search: key=value options follow its argument, and its check
 * loads the policy file it names (`policy`) and fits it to the rules.
 */
function networkSearch<K extends 'az' | 'minimax-eval'>(
  declaration: Omit<AgentKind<K>, 'continues' | 'files' | 'check'> & {
    readonly policy: (spec: AgentSpecOf<K>) => string;
  },
): AgentKind<K> {
  const { policy, ...rest } = declaration;
  return {
    ...rest,
    continues: isOption,
    files: (spec) => [policy(spec)],
    check: async (spec, { name, rules, files }) => {
      const loaded = loadSearchPolicy(policy(spec), rules, files);
      noteOtherRules(name, loaded.rules, rules);
      await inferenceEngine();
    },
  };
}

const az = networkSearch({
  kind: 'az',
  forms: [
    'az:PATH[,sims=N|,t=50ms][,c=1.5][,prior=0.5][,temp=1][,cache=16][,batch=16][,reuse=1][,gumbel=0][,solve=1]',
  ],
  parse: parseAzSpec,
  policy: (spec) => spec.path,
  create: (spec, { name, rules, files }) => createAzAgent(name, spec, rules, files),
  // Its form shows solve=1 already.
  solvable: {
    forms: [],
    withTimeMs: (spec, t) => ({ path: spec.path, options: { ...spec.options, t } }),
  },
});

const minimaxEval = networkSearch({
  kind: 'minimax-eval',
  name: 'minimax',
  forms: ['minimax:t=50ms,eval=PATH[,k=16][,cache=16]'],
  // Alpha-beta with a network is the minimax that names one.
  takes: (argument) => optionKeys(argument).includes('eval'),
  parse: parseMinimaxEvalSpec,
  policy: (spec) => spec.eval,
  create: (spec, { name, rules, files }) => createMinimaxEvalAgent(name, spec, rules, files),
});

/**
 * Registers the kinds that play with a trained network, and where worker
 * threads find this function to do it again. Calling it again changes
 * nothing.
 */
export function registerNetworkKinds(): void {
  registerAgentKinds({
    kinds: [policy, az, minimaxEval],
    source: { module: import.meta.url, register: 'registerNetworkKinds' },
  });
}
