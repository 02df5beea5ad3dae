/**
 * Agent specs, the strings that name agents (`minimax:4`, `policy:runs/x`):
 * parsed, checked and made through the registry of agent kinds
 * (agent-kinds.ts), with agents/'s own kinds registered on import.
 */
import { resolveRules } from '../env/index.ts';
import type { Agent } from './agent.ts';
import {
  type AgentSpec,
  AgentSpecError,
  agentSpecForms,
  type CreateAgentOptions,
  kindOf,
  kindsNamed,
  type RegisteredKind,
} from './agent-kinds.ts';
import './builtin-kinds.ts';

export {
  type AgentKind,
  type AgentKindContext,
  type AgentKindId,
  type AgentSpec,
  AgentSpecError,
  type AgentSpecOf,
  type AgentSpecs,
  agentKindModules,
  agentSpecForms,
  type CreateAgentOptions,
  type JobFiles,
  registerAgentKind,
} from './agent-kinds.ts';

/**
 * Kinds that a higher layer registers, named here only so that their specs
 * say what to import until it has (models/policy-kind.ts registers them).
 */
const REGISTERED_BY_MODELS: ReadonlyMap<string, string> = new Map([
  ['policy', 'policy agents'],
  ['az', 'network search agents'],
]);

interface Located {
  readonly kind: RegisteredKind;
  readonly argument: string | null;
  readonly fail: (why: string) => AgentSpecError;
}

/** The kind a spec names and its argument; throws an AgentSpecError naming the valid forms. */
function locate(spec: string): Located {
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
    const elsewhere = REGISTERED_BY_MODELS.get(name);
    if (elsewhere !== undefined) {
      throw new AgentSpecError(
        `${elsewhere} are not available: import 'ayoayo/models' (models/index.ts) first to load '${text}'`,
      );
    }
    throw fail(`unknown agent '${name}'`);
  }
  return { kind, argument, fail };
}

/** Parses an agent spec string; throws an AgentSpecError naming the valid forms. */
export function parseAgentSpec(spec: string): AgentSpec {
  const { kind, argument, fail } = locate(spec);
  return { ...kind.parse(argument, fail), kind: kind.kind } as AgentSpec;
}

/**
 * Parses every spec of a list of agents (a tournament's, a benchmark's, a
 * run's baselines) and refuses one listed twice: their games or rows would
 * carry one name for two agents.
 */
export function parseAgentList(specs: readonly string[]): void {
  const seen = new Set<string>();
  for (const spec of specs) {
    parseAgentSpec(spec);
    if (seen.has(spec)) throw new RangeError(`agent '${spec}' is listed twice`);
    seen.add(spec);
  }
}

/**
 * Throws the error createAgent would throw for a bad spec, without making the
 * agent: a tournament checks its specs in its own thread first, since an
 * error thrown on a worker thread arrives as a plain Error, its class (and so
 * whether it is a user's mistake) lost. External engines are not started: an
 * engine that fails forfeits its games.
 */
export async function checkAgentSpec(
  spec: string,
  options: CreateAgentOptions = {},
): Promise<void> {
  const { kind, argument, fail } = locate(spec);
  const parsed = { ...kind.parse(argument, fail), kind: kind.kind } as AgentSpec;
  await kind.check?.(parsed as never, {
    name: spec.trim(),
    rules: resolveRules(options.rules),
    ...(options.files !== undefined ? { files: options.files } : {}),
  });
}

/**
 * The paths of the files an agent spec reads (its policy, its network), as
 * the spec writes them: what a queue job must carry for a worker to make it.
 */
export function specFiles(spec: string): string[] {
  const { kind, argument, fail } = locate(spec);
  const parsed = { ...kind.parse(argument, fail), kind: kind.kind } as AgentSpec;
  return [...(kind.files?.(parsed as never) ?? [])];
}

/**
 * Creates an agent from its spec, the one place where specs are interpreted
 * (see agentSpecForms). The agent's name is the spec as given (trimmed).
 * Asynchronous because some agents load a model.
 */
export async function createAgent(spec: string, options: CreateAgentOptions = {}): Promise<Agent> {
  const { kind, argument, fail } = locate(spec);
  const parsed = { ...kind.parse(argument, fail), kind: kind.kind } as AgentSpec;
  const rules = resolveRules(options.rules);
  return kind.create(parsed as never, {
    name: spec.trim(),
    rules,
    options,
    ...(options.files !== undefined ? { files: options.files } : {}),
  });
}

/** Whether `piece` of a comma-separated list names a registered kind (`random`, `mcts:...`). */
function startsAgent(piece: string): boolean {
  const colon = piece.indexOf(':');
  const name = colon < 0 ? piece : piece.slice(0, colon);
  return kindsNamed(name).length > 0 || REGISTERED_BY_MODELS.has(name);
}

/** Whether `piece`, met after a comma, continues the agent `current` (see AgentKind.continues). */
function continuesAgent(current: string, piece: string): boolean {
  if (piece.length === 0 || startsAgent(piece)) return false;
  const colon = current.indexOf(':');
  if (colon < 0) return false;
  return kindsNamed(current.slice(0, colon)).some((k) => k.continues?.(piece) === true);
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
