/**
 * The agent kinds that load a trained network, as the command line makes
 * them: their grammar (grammar.ts: `policy:PATH`, the network searches
 * `az:PATH,...` and `minimax:...,eval=PATH`) with a check and a factory that
 * read the files their specs name and run the network on the process's
 * inference backend. agents/ sits below the models and cannot load them
 * itself: registerNetworkKinds registers them with the command line's
 * registry. The entry points that meet agent specs call it (the command
 * line, the package's `ayoayo/agents`, training's evaluation, the queue); a
 * tournament's worker threads call it again (agentKindSources).
 */

import { inferenceEngine } from '../../models/inference/inference-engine.ts';
import type { CreateAgentOptions } from '../agent-options.ts';
import { type AgentKind, type AgentSpecOf, agentKind, registerAgentKinds } from '../spec.ts';
import { azGrammar, minimaxEvalGrammar, policyGrammar } from './grammar.ts';
import { checkPolicyAgent, loadPolicyAgent } from './load-policy-agent.ts';
import { noteOtherRules } from './rules-note.ts';
import { createAzAgent, createMinimaxEvalAgent, loadSearchPolicy } from './search-agents.ts';

/*
 * Each check also resolves the process's inference backend (models/inference/)
 * in the thread that checks the specs, before any agent is made on a worker
 * thread: a fallback's one line is said there, once, and `--inference onnx`
 * without onnxruntime-node fails there.
 */

const policy = agentKind<'policy', CreateAgentOptions>({
  ...policyGrammar,
  // The file and its fit, without the inference session the agent would get.
  check: async (spec, { rules, options }) => {
    checkPolicyAgent(spec.path, rules, options.files);
    await inferenceEngine();
  },
  create: (spec, { rules, options }) => loadPolicyAgent(spec.path, rules, options.files),
});

/**
 * A network search's check: it loads the policy file it names (`policy`)
 * and fits it to the rules.
 */
function checkNetworkSearch<K extends 'az' | 'minimax-eval'>(
  policy: (spec: AgentSpecOf<K>) => string,
): AgentKind<K, CreateAgentOptions>['check'] {
  return async (spec, { name, rules, options }) => {
    const loaded = loadSearchPolicy(policy(spec), rules, options.files);
    noteOtherRules(name, loaded.rules, rules);
    await inferenceEngine();
  };
}

const az = agentKind<'az', CreateAgentOptions>({
  ...azGrammar,
  check: checkNetworkSearch((spec) => spec.path),
  create: (spec, { name, rules, options }) => createAzAgent(name, spec, rules, options.files),
});

const minimaxEval = agentKind<'minimax-eval', CreateAgentOptions>({
  ...minimaxEvalGrammar,
  check: checkNetworkSearch((spec) => spec.eval),
  create: (spec, { name, rules, options }) =>
    createMinimaxEvalAgent(name, spec, rules, options.files),
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
