/**
 * Agent specs, the strings that name agents (`minimax:4`, `policy:runs/x`):
 * parsed once into an AgentSpec, then checked and made from it, through the
 * registry of agent kinds (kind-registry.ts).
 */
import { resolveRules } from '../env/index.ts';
import type { Agent } from './agent.ts';
import {
  type AgentKindContext,
  type AgentSpec,
  AgentSpecError,
  type CreateAgentOptions,
  type RegisteredKind,
} from './agent-kinds.ts';
import { agentSpecForms, kindById, kindOf, kindsNamed, otherFormsOf } from './kind-registry.ts';

export {
  type AgentFactoryContext,
  type AgentKind,
  type AgentKindContext,
  type AgentKindId,
  type AgentKindRegistration,
  type AgentKindSource,
  type AgentSpec,
  AgentSpecError,
  type AgentSpecOf,
  type AgentSpecs,
  type AnyAgentKind,
  agentKind,
  type CreateAgentOptions,
  type JobFiles,
  type SolvableKind,
  type SolverEndgame,
  type SolverShare,
  type SpecParser,
} from './agent-kinds.ts';
export { agentKindSources, agentSpecForms, registerAgentKinds } from './kind-registry.ts';

/**
 * The kinds that play with a trained network, named here only so that their
 * specs say what to import until they are registered (agents/network/kinds.ts
 * registers them; the `ayoayo/agents` entry does on import).
 */
const NETWORK_KINDS: ReadonlyMap<string, string> = new Map([
  ['policy', 'policy agents'],
  ['az', 'network search agents'],
]);

/**
 * Parses an agent spec string once, into what checkAgentSpec, specFiles and
 * createAgent take; throws an AgentSpecError naming the valid forms.
 */
export function parseAgentSpec(spec: string): AgentSpec {
  const text = typeof spec === 'string' ? spec.trim() : '';
  const colon = text.indexOf(':');
  const name = colon < 0 ? text : text.slice(0, colon);
  const argument = colon < 0 ? null : text.slice(colon + 1);
  const fail = (why: string): AgentSpecError =>
    new AgentSpecError(
      `invalid agent '${String(spec)}': ${why}; valid agents: ${agentSpecForms().join(', ')}`,
    );
  if (name.length === 0) throw fail('empty agent name');
  const kind = kindOf(name, argument);
  if (kind === undefined) {
    const elsewhere = NETWORK_KINDS.get(name);
    if (elsewhere !== undefined) {
      throw new AgentSpecError(
        `${elsewhere} are not available: import 'ayoayo/agents' (or call registerNetworkKinds from agents/network/kinds.ts) first to load '${text}'`,
      );
    }
    throw fail(`unknown agent '${name}'`);
  }
  const fields = kind.parse(argument, fail, otherFormsOf(kind));
  return { ...fields, kind: kind.kind, name: text } as AgentSpec;
}

/** A spec parsed (when given as text) and its registered kind. */
function resolve(given: string | AgentSpec): { spec: AgentSpec; kind: RegisteredKind } {
  const spec = typeof given === 'string' ? parseAgentSpec(given) : given;
  const kind = kindById(spec.kind);
  if (kind === undefined) {
    throw new AgentSpecError(`invalid agent '${spec.name}': no kind '${spec.kind}' is registered`);
  }
  return { spec, kind };
}

/** What a kind's check and factory are told of `spec` made with `options`. */
function contextOf(spec: AgentSpec, options: CreateAgentOptions): AgentKindContext {
  return {
    name: spec.name,
    rules: resolveRules(options.rules),
    ...(options.files !== undefined ? { files: options.files } : {}),
  };
}

/**
 * Parses every spec of a list of agents (a tournament's, a benchmark's, a
 * run's baselines) and refuses one listed twice: their games or rows would
 * carry one name for two agents.
 */
export function parseAgentList(specs: readonly string[]): AgentSpec[] {
  const seen = new Set<string>();
  return specs.map((spec) => {
    const parsed = parseAgentSpec(spec);
    if (seen.has(spec)) throw new RangeError(`agent '${spec}' is listed twice`);
    seen.add(spec);
    return parsed;
  });
}

/**
 * Throws the error createAgent would throw for a bad spec, without making the
 * agent: a tournament checks its specs in its own thread first, since an
 * error thrown on a worker thread arrives as a plain Error, its class (and so
 * whether it is a user's mistake) lost. External engines are not started: an
 * engine that fails forfeits its games.
 */
export async function checkAgentSpec(
  given: string | AgentSpec,
  options: CreateAgentOptions = {},
): Promise<void> {
  const { spec, kind } = resolve(given);
  await kind.check(spec, contextOf(spec, options));
}

/**
 * The paths of the files an agent spec reads (its policy, its network), as
 * the spec writes them: what a queue job must carry for a worker to make it.
 */
export function specFiles(given: string | AgentSpec): string[] {
  const { spec, kind } = resolve(given);
  return [...kind.files(spec)];
}

/**
 * Creates an agent from its spec (text, or parsed by parseAgentSpec), the one
 * place where specs are interpreted (see agentSpecForms). The agent's name is
 * the spec as given (trimmed). Asynchronous because some agents load a model.
 */
export async function createAgent(
  given: string | AgentSpec,
  options: CreateAgentOptions = {},
): Promise<Agent> {
  const { spec, kind } = resolve(given);
  return kind.create(spec, { ...contextOf(spec, options), options });
}

/** Whether `piece` of a comma-separated list names a registered kind (`random`, `mcts:...`). */
function startsAgent(piece: string): boolean {
  const colon = piece.indexOf(':');
  const name = colon < 0 ? piece : piece.slice(0, colon);
  return kindsNamed(name).length > 0 || NETWORK_KINDS.has(name);
}

/** Whether `piece`, met after a comma, continues the agent `current` (see AgentKind.continues). */
function continuesAgent(current: string, piece: string): boolean {
  if (piece.length === 0 || startsAgent(piece)) return false;
  const colon = current.indexOf(':');
  if (colon < 0) return false;
  return kindsNamed(current.slice(0, colon)).some((k) => k.continues(piece));
}

/**
 * Splits comma-separated lists of agents (`--agents random,mcts:50`) at the
 * commas that separate agents, keeping those inside one (an ext: command
 * line, the options of a network search) as each kind declares. A piece that
 * continues no agent starts one of its own, so that a mistyped agent is
 * reported by its own name.
 */
export function splitAgentList(values: readonly string[]): string[] {
  const specs: string[] = [];
  for (const value of values) {
    let current: string | null = null;
    for (const piece of value.split(',')) {
      if (current !== null && continuesAgent(current.trim(), piece.trim())) {
        current = `${current},${piece}`;
        continue;
      }
      if (current !== null) specs.push(current.trim());
      current = piece;
    }
    if (current !== null) specs.push(current.trim());
  }
  return specs.filter((s) => s.length > 0);
}
