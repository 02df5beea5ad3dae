/**
 * Registers the `policy:PATH` agent kind with agents/ (which sits below the
 * models and cannot load them itself). Imported for its effect by
 * `models/index.ts`, by the command line and by the trainer's evaluation;
 * tournament worker threads import it again through `agentKindModules()`.
 */
import { registerAgentKind } from '../agents/spec.ts';
import { loadPolicyAgent } from './policy-agent.ts';

registerAgentKind('policy', {
  create: (spec, { rules }) => loadPolicyAgent(spec.path, rules),
  module: import.meta.url,
});
