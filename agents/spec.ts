/**
 * Agent specs, the strings that name agents (`minimax:4`, `policy:runs/x`):
 * the command line's registry of agent kinds (kind-registry.ts) and its
 * functions. A spec is parsed once into an AgentSpec, then checked and made
 * from it. The registry holds agents/' own kinds (builtin-kinds.ts: the
 * browser's, the perfect player, external engines) from the start, and the
 * endgame tables of the user's cache for the solver-backed kinds; the kinds
 * that load a network are registered by a call (agents/network/kinds.ts).
 */
import { SOLVER_ENDGAME } from '../solve/endgame/cache/shared-tables.ts';
import type { Agent } from './agent.ts';
import type { AgentKindRegistration, AgentKindSource, AgentSpec } from './agent-kinds.ts';
import type { CreateAgentOptions } from './agent-options.ts';
import { BUILTIN_KINDS } from './builtin-kinds.ts';
import { AgentKindRegistry } from './kind-registry.ts';

export {
  type AgentFactoryContext,
  type AgentKind,
  type AgentKindContext,
  type AgentKindId,
  type AgentKindRegistration,
  type AgentKindSource,
  type AgentMakingOptions,
  type AgentSpec,
  AgentSpecError,
  type AgentSpecOf,
  type AgentSpecs,
  type AnyAgentKind,
  agentKind,
  type KindGrammar,
  type SolvableKind,
  type SolverEndgame,
  type SolverShare,
  type SpecParser,
} from './agent-kinds.ts';
export type { CreateAgentOptions, JobFiles } from './agent-options.ts';

/** The command line's registry: every kind registered in this thread. */
const registry = new AgentKindRegistry<CreateAgentOptions>({
  kinds: BUILTIN_KINDS,
  endgame: SOLVER_ENDGAME,
  // The kinds that play with a trained network, named here only so that their
  // specs say what to import until they are registered (agents/network/kinds.ts
  // registers them; the `ayoayo/agents` entry does on import).
  pending: {
    names: new Map([
      ['policy', 'policy agents'],
      ['az', 'network search agents'],
    ]),
    how: "import 'ayoayo/agents' (or call registerNetworkKinds from agents/network/kinds.ts)",
  },
});

/**
 * Registers a layer's kinds (a kind registered again is replaced in place),
 * the endgame tables of the solver-backed kinds, and where worker threads
 * find the function that does it again (its `source`). Calling it twice
 * changes nothing.
 */
export function registerAgentKinds(registration: AgentKindRegistration<CreateAgentOptions>): void {
  registry.register(registration);
}

/** Every form an agent spec can take now, as shown in help and error messages. */
export function agentSpecForms(): string[] {
  return registry.forms();
}

/**
 * The registrations made in this thread from outside agents/ (by module URL
 * and function), for worker threads to make again.
 */
export function agentKindSources(): AgentKindSource[] {
  return registry.sources();
}

/**
 * Parses an agent spec string once, into what checkAgentSpec, specFiles and
 * createAgent take; throws an AgentSpecError naming the valid forms.
 */
export function parseAgentSpec(spec: string): AgentSpec {
  return registry.parse(spec);
}

/**
 * Parses every spec of a list of agents (a tournament's, a benchmark's, a
 * run's baselines) and refuses one listed twice: their games or rows would
 * carry one name for two agents.
 */
export function parseAgentList(specs: readonly string[]): AgentSpec[] {
  return registry.parseList(specs);
}

/**
 * Throws the error createAgent would throw for a bad spec, without making the
 * agent: a tournament checks its specs in its own thread first, since an
 * error thrown on a worker thread arrives as a plain Error, its class (and so
 * whether it is a user's mistake) lost. External engines are not started: an
 * engine that fails forfeits its games.
 */
export function checkAgentSpec(
  given: string | AgentSpec,
  options: CreateAgentOptions = {},
): Promise<void> {
  return registry.check(given, options);
}

/**
 * The paths of the files an agent spec reads (its policy, its network), as
 * the spec writes them: what a queue job must carry for a worker to make it.
 */
export function specFiles(given: string | AgentSpec): string[] {
  return registry.files(given);
}

/** Whether the agent of a spec runs a command of the spec's (`ext:`): a queue worker refuses it unless allowed. */
export function specRunsCommands(given: string | AgentSpec): boolean {
  return registry.runsCommands(given);
}

/**
 * Creates an agent from its spec (text, or parsed by parseAgentSpec), the one
 * place where specs are interpreted (see agentSpecForms). The agent's name is
 * the spec as given (trimmed). Asynchronous because some agents load a model.
 */
export function createAgent(
  given: string | AgentSpec,
  options: CreateAgentOptions = {},
): Promise<Agent> {
  return registry.create(given, options);
}

/**
 * Splits comma-separated lists of agents (`--agents random,mcts:50`) at the
 * commas that separate agents, keeping those inside one (an ext: command
 * line, the options of a network search) as each kind declares. A piece that
 * continues no agent starts one of its own, so that a mistyped agent is
 * reported by its own name.
 */
export function splitAgentList(values: readonly string[]): string[] {
  return registry.splitList(values);
}
