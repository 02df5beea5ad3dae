/**
 * The registry of agent kinds: each kind of agent spec (`random`, `mcts:N`,
 * `policy:PATH`, ...) declares here, once, its spec forms, its parser, its
 * check and its factory. agents/ registers its own kinds (builtin-kinds.ts);
 * a higher layer registers those it can make (models/policy-kind.ts: the
 * agents that load a trained network). Help text, error messages and the
 * splitting of a comma-separated list of agents are read from the registry.
 * Use it through spec.ts, which registers agents/'s own kinds first.
 */
import type { Rules, RulesInput } from '../env/index.ts';
import type { Agent } from './agent.ts';

/**
 * The parsed spec of each registered kind, by kind id. Each kind adds its
 * entry where it is defined, by declaration merging (`declare module
 * '.../agent-kinds.ts' { interface AgentSpecs { mcts: { iterations: number } } }`).
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging, kind by kind
export interface AgentSpecs {}

/** A kind's id. */
export type AgentKindId = keyof AgentSpecs;

/** A parsed agent spec: its kind and what the kind's parser returned. */
export type AgentSpec = { [K in AgentKindId]: { readonly kind: K } & AgentSpecs[K] }[AgentKindId];

/** The parsed spec of kind `K`. */
export type AgentSpecOf<K extends AgentKindId> = Extract<AgentSpec, { readonly kind: K }>;

/** A spec that names no registered kind or does not parse; the message lists the valid forms. */
export class AgentSpecError extends Error {
  override name = 'AgentSpecError';
}

/**
 * The files a queue job carries, by the path its agent specs name each with:
 * the file's text, checked against its sha256 when it arrived. Where given,
 * an agent reads the files its spec names from these only, never from the
 * disk: a job is untrusted input (see AgentKind.files).
 */
export type JobFiles = Readonly<Record<string, string>>;

export interface CreateAgentOptions {
  /** The rule options the agent will play under (default: Russ). */
  readonly rules?: RulesInput;
  /** Kept for agents that need a seed when created; play itself uses each game's generator. */
  readonly seed?: number;
  /** Per-move time limit of external engines (ms, default 5000). */
  readonly moveTimeoutMs?: number;
  /** Extra time for an external engine's first move after it starts (ms, default 5000). */
  readonly startupMs?: number;
  /** A queue job's files: the only files the agent may read (default: the disk). */
  readonly files?: JobFiles;
}

/** What a kind's check and factory are told besides the parsed spec. */
export interface AgentKindContext {
  /** The agent's name: its spec as given, trimmed. */
  readonly name: string;
  readonly rules: Rules;
  /** A queue job's files (CreateAgentOptions.files): the only files the agent may read. */
  readonly files?: JobFiles;
}

/** One kind of agent spec. */
export interface AgentKind<K extends AgentKindId = AgentKindId> {
  /** The spec's text before its colon (the whole spec for a kind without argument); default: the id. */
  readonly name?: string;
  /** The spec forms as help and error messages show them, e.g. `mcts:N`. */
  readonly forms: readonly string[];
  /**
   * For kinds that share a name: whether this one takes a spec with this
   * argument (the text after the colon, null without one). The kind of a
   * name that has no `takes` takes what the others do not.
   */
  readonly takes?: (argument: string | null) => boolean;
  /**
   * Parses the argument (null when the spec has no colon); throws
   * `fail(why)`, an AgentSpecError naming the spec, why, and the valid forms.
   */
  readonly parse: (argument: string | null, fail: (why: string) => AgentSpecError) => AgentSpecs[K];
  /**
   * In a comma-separated list of agents: whether `piece`, met after a comma
   * in an agent of this kind, continues it (an option, part of a command)
   * rather than starting another agent. Default: never.
   */
  readonly continues?: (piece: string) => boolean;
  /**
   * The paths of the files the spec reads (a policy, a network to search
   * with), as the spec writes them: a queue coordinator sends these with the
   * job, and a worker reads no other. Default: none.
   */
  readonly files?: (spec: AgentSpecOf<K>) => readonly string[];
  /**
   * Throws what `create` would throw for a bad spec (a missing or invalid
   * file) without making the agent, which may be costly. Default: the parse
   * is the whole check.
   */
  readonly check?: (spec: AgentSpecOf<K>, context: AgentKindContext) => void | Promise<void>;
  readonly create: (
    spec: AgentSpecOf<K>,
    context: AgentKindContext & { readonly options: CreateAgentOptions },
  ) => Agent | Promise<Agent>;
  /**
   * URL of the module whose import registers this kind (its own
   * `import.meta.url`), for a kind registered from outside agents/. Threads
   * have their own modules: a tournament's worker threads import it so that
   * the kind works there too.
   */
  readonly module?: string;
}

/** A registered kind, its id and name filled in. */
export type RegisteredKind = AgentKind & { readonly kind: AgentKindId; readonly name: string };

/** The registered kinds in the order of registration (the order help lists their forms in). */
const kinds: RegisteredKind[] = [];

/**
 * Registers how to parse, check and make the agents of kind `kind`; a kind
 * registered again is replaced in place.
 */
export function registerAgentKind<K extends AgentKindId>(kind: K, definition: AgentKind<K>): void {
  const entry = { ...definition, kind, name: definition.name ?? kind } as unknown as RegisteredKind;
  const at = kinds.findIndex((k) => k.kind === kind);
  if (at >= 0) kinds[at] = entry;
  else kinds.push(entry);
}

/** The kind that takes a spec of `name` with `argument`, if one is registered. */
export function kindOf(name: string, argument: string | null): RegisteredKind | undefined {
  const named = kinds.filter((k) => k.name === name);
  return (
    named.find((k) => k.takes?.(argument) === true) ?? named.find((k) => k.takes === undefined)
  );
}

/** Every registered kind of this name. */
export function kindsNamed(name: string): RegisteredKind[] {
  return kinds.filter((k) => k.name === name);
}

/** Every form an agent spec can take now, as shown in help and error messages. */
export function agentSpecForms(): string[] {
  return kinds.flatMap((k) => k.forms);
}

/** The modules that registered kinds in this thread from outside agents/, for worker threads to import. */
export function agentKindModules(): string[] {
  return [...new Set(kinds.flatMap((k) => (k.module === undefined ? [] : [k.module])))];
}
