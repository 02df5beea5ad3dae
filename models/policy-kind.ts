/**
 * Registers the agent kinds that load a trained network (`policy:PATH`, and the
 * network searches `az:PATH,...` and `minimax:...,eval=PATH`) with agents/ (which sits below the
 * models and cannot load them itself). Imported for its effect by
 * `models/index.ts`, by the command line and by the trainer's evaluation;
 * tournament worker threads import it again through `agentKindModules()`.
 */
import { registerAgentKind } from '../agents/spec.ts';
import { loadPolicyAgent } from './policy-agent.ts';
import { checkNetworkSearchSpec, createNetworkSearchAgent } from './search-agents.ts';

registerAgentKind('policy', {
  create: (spec, { rules }) => loadPolicyAgent(spec.path, rules),
  // A policy agent is cheap to make (a plain Float32Array runner, no tensors).
  check: async (spec, { rules }) => {
    await loadPolicyAgent(spec.path, rules);
  },
  module: import.meta.url,
});

registerAgentKind('network', {
  create: (spec, { rules }) => createNetworkSearchAgent(spec.spec, rules),
  check: (spec, { rules }) => checkNetworkSearchSpec(spec.spec, rules),
  module: import.meta.url,
});
