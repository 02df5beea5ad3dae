import { type Rules, type RulesInput, resolveRules } from '../env/index.ts';
import type { Agent } from './agent.ts';
import { ExternalAgent } from './external.ts';
import { GreedyAgent } from './greedy.ts';
import { MctsAgent } from './mcts.ts';
import { MinimaxAgent } from './minimax.ts';
import { MAX_PLY } from './minimax-search.ts';
import { RandomAgent } from './random.ts';

/** Every form an agent spec can take, as shown in error messages and help. */
export const AGENT_SPEC_FORMS = [
  'random',
  'greedy',
  'minimax:D',
  'minimax:t=200ms',
  'mcts:N',
  'ext:COMMAND',
  'policy:PATH',
  'az:PATH[,sims=N|,t=50ms][,c=1.5][,prior=0.5][,batch=16]',
  'minimax:t=50ms,eval=PATH[,k=16]',
] as const;

/** A parsed agent spec. */
export type AgentSpec =
  | { readonly kind: 'random' }
  | { readonly kind: 'greedy' }
  | { readonly kind: 'minimax'; readonly depth: number }
  | { readonly kind: 'minimax'; readonly timeMs: number }
  | { readonly kind: 'mcts'; readonly iterations: number }
  | { readonly kind: 'ext'; readonly command: string }
  | { readonly kind: 'policy'; readonly path: string }
  /** Search with a trained network (az:..., minimax:...,eval=...), parsed by models/search-agents.ts. */
  | { readonly kind: 'network'; readonly spec: string };

export class AgentSpecError extends Error {
  override name = 'AgentSpecError';
}

const FORMS_HELP = `valid agents: ${AGENT_SPEC_FORMS.join(', ')}`;

/** Parses an agent spec string; throws an AgentSpecError naming the valid forms. */
export function parseAgentSpec(spec: string): AgentSpec {
  const text = typeof spec === 'string' ? spec.trim() : '';
  const colon = text.indexOf(':');
  const kind = colon < 0 ? text : text.slice(0, colon);
  const arg = colon < 0 ? null : text.slice(colon + 1);
  const bad = (why: string): AgentSpecError =>
    new AgentSpecError(`invalid agent '${String(spec)}': ${why}; ${FORMS_HELP}`);
  switch (kind) {
    case 'random':
    case 'greedy':
      if (arg !== null) throw bad(`${kind} takes no argument`);
      return { kind };
    case 'az':
      if (arg === null || arg.trim().length === 0)
        throw bad('az needs a policy path, e.g. az:models/pretrained,t=50ms');
      return { kind: 'network', spec: text };
    case 'minimax': {
      if (arg?.includes(',')) {
        // Only alpha-beta with a network takes options; 'minimax:4,minimax:6' is two agents.
        if (/(^|,)\s*eval=/.test(arg)) return { kind: 'network', spec: text };
        throw bad(
          `minimax takes one depth or time, and options after a comma only with eval=PATH; to name several agents, give each its own --agents entry`,
        );
      }
      if (arg === null) throw bad('minimax needs a depth (minimax:4) or a time (minimax:t=200ms)');
      const time = /^t=(\d+(?:\.\d+)?)(ms|s)$/.exec(arg);
      if (time !== null) {
        const timeMs = Number(time[1]) * (time[2] === 's' ? 1000 : 1);
        if (!(timeMs > 0)) throw bad('the time must be positive');
        return { kind, timeMs };
      }
      if (!/^\d+$/.test(arg) || Number(arg) < 1 || Number(arg) > MAX_PLY) {
        throw bad(`the depth must be an integer in 1..${MAX_PLY}, or t=<time>ms / t=<time>s`);
      }
      return { kind, depth: Number(arg) };
    }
    case 'mcts':
      if (arg === null || !/^\d+$/.test(arg) || Number(arg) < 1 || Number(arg) > 10_000_000) {
        throw bad('mcts needs a number of iterations per move in 1..10000000, e.g. mcts:1000');
      }
      return { kind, iterations: Number(arg) };
    case 'ext':
      if (arg === null || arg.trim().length === 0)
        throw bad('ext needs a command, e.g. ext:python3 engine.py');
      return { kind, command: arg.trim() };
    case 'policy':
      if (arg === null || arg.trim().length === 0)
        throw bad('policy needs a path, e.g. policy:runs/x/best');
      return { kind, path: arg.trim() };
    default:
      throw bad(kind.length === 0 ? 'empty agent name' : `unknown agent '${kind}'`);
  }
}

export interface CreateAgentOptions {
  /** The rule options the agent will play under (default: Russ). */
  readonly rules?: RulesInput;
  /** Kept for agents that need a seed when created; play itself uses each game's generator. */
  readonly seed?: number;
  /** Per-move time limit of external engines (ms, default 5000). */
  readonly moveTimeoutMs?: number;
  /** Extra time for an external engine's first move after it starts (ms, default 5000). */
  readonly startupMs?: number;
}

/** The kinds that agents/ parses but cannot make: a higher layer registers them. */
export type ExtensionKind = 'policy' | 'network';

/** How a registered kind makes its agent from the parsed spec. */
export interface AgentKind<K extends ExtensionKind = ExtensionKind> {
  readonly create: (
    spec: Extract<AgentSpec, { kind: K }>,
    context: { readonly name: string; readonly rules: Rules; readonly options: CreateAgentOptions },
  ) => Agent | Promise<Agent>;
  /**
   * Throws what `create` would throw for a bad spec (a missing or invalid
   * file, a bad option) without making the agent, which may be costly.
   */
  readonly check: (
    spec: Extract<AgentSpec, { kind: K }>,
    context: { readonly name: string; readonly rules: Rules },
  ) => void | Promise<void>;
  /**
   * URL of the module whose import registers this kind (its own
   * `import.meta.url`). Threads have their own modules: a tournament's worker
   * threads import it so that the kind works there too.
   */
  readonly module: string;
}

const extensions = new Map<ExtensionKind, AgentKind>();

/**
 * Registers how to make the agents of `kind`. agents/ sits below the trained
 * models, so `policy:PATH` agents exist once models/ has registered them
 * (importing `models/index.ts`, i.e. `ayoayo/models`, does it).
 */
export function registerAgentKind<K extends ExtensionKind>(
  kind: K,
  definition: AgentKind<K>,
): void {
  extensions.set(kind, definition as unknown as AgentKind);
}

/** The modules that registered kinds in this thread, for worker threads to import. */
export function agentKindModules(): string[] {
  return [...new Set([...extensions.values()].map((kind) => kind.module))];
}

/** The registered kind for `kind`, or the error that says what to import. */
function extensionKind(kind: ExtensionKind, name: string): AgentKind {
  const found = extensions.get(kind);
  if (found === undefined) {
    throw new AgentSpecError(
      `${kind === 'policy' ? 'policy agents' : 'network search agents'} are not available: import 'ayoayo/models' (models/index.ts) first to load '${name}'`,
    );
  }
  return found;
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
  const parsed = parseAgentSpec(spec);
  if (parsed.kind !== 'policy' && parsed.kind !== 'network') return;
  const name = spec.trim();
  const kind = extensionKind(parsed.kind, name) as AgentKind<typeof parsed.kind>;
  await kind.check(parsed as never, { name, rules: resolveRules(options.rules) });
}

/**
 * Creates an agent from its spec, the one place where specs are interpreted
 * (see AGENT_SPEC_FORMS). The agent's name is the spec as given (trimmed).
 * Asynchronous because policy agents load a model.
 */
export async function createAgent(spec: string, options: CreateAgentOptions = {}): Promise<Agent> {
  const parsed = parseAgentSpec(spec);
  const rules = resolveRules(options.rules);
  const name = spec.trim();
  switch (parsed.kind) {
    case 'random':
      return new RandomAgent(name);
    case 'greedy':
      return new GreedyAgent(name);
    case 'minimax':
      return new MinimaxAgent({
        rules,
        name,
        ...('depth' in parsed ? { depth: parsed.depth } : { timeMs: parsed.timeMs }),
      });
    case 'mcts':
      return new MctsAgent({ iterations: parsed.iterations, rules, name });
    case 'ext':
      return new ExternalAgent(parsed.command, {
        name,
        ...(options.moveTimeoutMs !== undefined ? { moveTimeoutMs: options.moveTimeoutMs } : {}),
        ...(options.startupMs !== undefined ? { startupMs: options.startupMs } : {}),
      });
    case 'policy':
    case 'network': {
      const kind = extensionKind(parsed.kind, name) as AgentKind<typeof parsed.kind>;
      return kind.create(parsed as never, { name, rules, options });
    }
  }
}
