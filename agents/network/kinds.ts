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

import type { CreateAgentOptions } from '../agent-options.ts';
import { type AgentKind, type AgentSpecOf, agentKind, registerAgentKinds } from '../spec.ts';
import { azGrammar, minimaxEvalGrammar, policyGrammar } from './grammar.ts';
import { noteOtherRules } from './rules-note.ts';

/*
 * What checks and makes these agents is loaded at the first spec of theirs:
 * the registration is only their grammar, so that a command that meets no
 * network spec starts without the inference backends and the searches (a
 * fifth of a command's start-up).
 *
 * Each check also resolves the process's inference backend (models/inference/)
 * in the thread that checks the specs, before any agent is made on a worker
 * thread: a fallback's one line is said there, once, and `--inference onnx`
 * without onnxruntime-node fails there.
 */
const policyAgents = () => import('./load-policy-agent.ts');
const searchAgents = () => import('./search-agents.ts');
async function resolveInference(): Promise<void> {
  await (await import('../../models/inference/inference-engine.ts')).inferenceEngine();
}

const policy = agentKind<'policy', CreateAgentOptions>({
  ...policyGrammar,
  // The file and its fit, without the inference session the agent would get.
  check: async (spec, { rules, options }) => {
    (await policyAgents()).checkPolicyAgent(spec.path, rules, options.files);
    await resolveInference();
  },
  create: async (spec, { rules, options }) =>
    (await policyAgents()).loadPolicyAgent(spec.path, rules, options.files),
});

/**
 * A network search's check: it loads the policy file it names (`policy`)
 * and fits it to the rules.
 */
function checkNetworkSearch<K extends 'az' | 'minimax-eval'>(
  policy: (spec: AgentSpecOf<K>) => string,
): AgentKind<K, CreateAgentOptions>['check'] {
  return async (spec, { name, rules, options }) => {
    const loaded = (await searchAgents()).loadSearchPolicy(policy(spec), rules, options.files);
    noteOtherRules(name, loaded.rules, rules);
    await resolveInference();
  };
}

const az = agentKind<'az', CreateAgentOptions>({
  ...azGrammar,
  check: checkNetworkSearch((spec) => spec.path),
  create: async (spec, { name, rules, options }) =>
    (await searchAgents()).createAzAgent(name, spec, rules, options.files),
});

const minimaxEval = agentKind<'minimax-eval', CreateAgentOptions>({
  ...minimaxEvalGrammar,
  check: checkNetworkSearch((spec) => spec.eval),
  create: async (spec, { name, rules, options }) =>
    (await searchAgents()).createMinimaxEvalAgent(name, spec, rules, options.files),
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
