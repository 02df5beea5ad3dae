/**
 * What an agent kind declares: each kind of agent spec (`random`, `mcts:N`,
 * `policy:PATH`, ...) says here, once, its grammar (its spec forms, its
 * parser of the argument's fields, a zod schema of spec-options.ts's
 * builders for a kind with options; whether it may be solver-backed,
 * `solve=1`, which the registry then wraps, see solver-backed.ts; whether it
 * runs commands), and how it is made where it runs (its check, its factory,
 * the files it reads). A kind's grammar is the same wherever it is made: the
 * browser page makes its network opponents its own way from the same
 * grammar. No Node built-in: the page's registry is made of these too.
 */
import type { Rules, RulesInput } from '../env/index.ts';
import type { EndgameValues } from '../solve/endgame/build.ts';
import type { Agent } from './agent.ts';
import type { SpecArgument } from './spec-grammar.ts';

/**
 * The parsed spec of each kind, by kind id: what its parser returns. Each
 * kind adds its entry where it is declared, by declaration merging (`declare
 * module '.../agent-kinds.ts' { interface AgentSpecs { mcts: { iterations: number } } }`).
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging, kind by kind
export interface AgentSpecs {}

/** A kind's id. */
export type AgentKindId = keyof AgentSpecs;

/** How a solver-backed spec shares its move's time: the solver first, the search the rest. */
export interface SolverShare {
  /** Milliseconds the exact solver may spend on a move. */
  readonly solveMs: number;
  /** Milliseconds the search gets when the solver does not prove the position. */
  readonly searchMs: number;
}

/**
 * A parsed agent spec: its kind, its name (the spec as given, trimmed: the
 * agent's name), what the kind's parser returned, and with `solve=1` how the
 * solver and the search share the move's time. Plain data (a worker thread
 * is sent it as it is); createAgent and checkAgentSpec take it as it is: a
 * spec is parsed once.
 */
export type AgentSpec = {
  [K in AgentKindId]: {
    readonly kind: K;
    readonly name: string;
    readonly solver?: SolverShare;
  } & AgentSpecs[K];
}[AgentKindId];

/** The parsed spec of kind `K`. */
export type AgentSpecOf<K extends AgentKindId> = Extract<AgentSpec, { readonly kind: K }>;

/** A spec that names no registered kind or does not parse; the message lists the valid forms. */
export class AgentSpecError extends Error {
  override name = 'AgentSpecError';
}

/**
 * The endgame tables a solver-backed agent's solver reads, which a registry
 * gives its kinds (the command line's: the user's cache, solve/endgame/cache/).
 */
export interface SolverEndgame {
  /** The table under `rules` for an agent made in this thread (built into the cache when missing); null: none. */
  readonly load: (rules: Rules) => EndgameValues | null;
  /**
   * Makes sure the table under `rules` is in the cache, building it there
   * when it is not: a check calls it in the thread that checks the specs, so
   * that worker threads read the table rather than each building it.
   */
  readonly prepare: (rules: Rules) => void;
}

/** What every registry makes its agents with: the rules they play under. */
export interface AgentMakingOptions {
  /** The rule options the agent will play under (default: Russ). */
  readonly rules?: RulesInput;
}

/** What a kind's check and factory are told besides the parsed spec. */
export interface AgentKindContext<O extends AgentMakingOptions = AgentMakingOptions> {
  /** The agent's name: its spec as given, trimmed. */
  readonly name: string;
  readonly rules: Rules;
  /** What the agent is made with (the registry's: the command line's CreateAgentOptions, the page's own). */
  readonly options: O;
}

/** What a kind's factory is told (the same as its check). */
export type AgentFactoryContext<O extends AgentMakingOptions = AgentMakingOptions> =
  AgentKindContext<O>;

/**
 * What the registry adds for a kind's own check and factory: its endgame
 * tables, for a kind that reads one itself.
 */
export interface WithEndgame {
  readonly endgame: SolverEndgame;
}

/**
 * Parses a kind's argument (the text after the colon split into its fields,
 * spec-grammar.ts; null without a colon) into its spec; throws `fail(why)`,
 * an AgentSpecError naming the spec, why, and the valid forms. `otherForms`
 * are the forms of the other specs of its name (other kinds that share it,
 * its solver-backed forms), for a message that says what else the name takes.
 */
export type SpecParser<T> = (
  argument: SpecArgument | null,
  fail: (why: string) => AgentSpecError,
  otherForms: readonly string[],
) => T;

/**
 * A kind that may be solver-backed: with `solve=1` (which needs its move
 * time `t=`), the registry makes it a SolvingAgent (agents/solving-agent.ts)
 * whose exact solver gets SOLVE_SHARE of the time first and the kind's own
 * search the rest.
 */
export interface SolvableKind<K extends AgentKindId> {
  /**
   * Forms of its solver-backed specs for help, listed after every kind's own
   * (none where its forms show solve=1).
   */
  readonly forms: readonly string[];
  /** What its parser would return for `spec` with `timeMs` (the search's share) as a move's time. */
  readonly withTimeMs: (spec: AgentSpecOf<K>, timeMs: number) => AgentSpecs[K];
}

/** The grammar of one kind of agent spec: the same wherever its agents are made. */
export interface KindGrammar<K extends AgentKindId> {
  readonly kind: K;
  /** The spec's text before its colon (the whole spec for a kind without argument); default: the id. */
  readonly name?: string;
  /** The spec forms as help and error messages show them, e.g. `mcts:N`. */
  readonly forms: readonly string[];
  /**
   * For kinds that share a name: whether this one takes a spec with this
   * argument (null without one). The kind of a name that has no `takes`
   * takes what the others do not.
   */
  readonly takes?: (argument: SpecArgument | null) => boolean;
  readonly parse: SpecParser<AgentSpecs[K]>;
  /**
   * In a comma-separated list of agents: whether `piece` (trimmed), met after
   * a comma in an agent of this kind, continues it (an option, part of a
   * command) rather than starting another agent. Default: never.
   */
  readonly continues?: (piece: string) => boolean;
  /**
   * The paths of the files the spec reads (a policy, a network to search
   * with), as the spec writes them: a queue coordinator sends these with the
   * job, and a worker reads no other. Default: none.
   */
  readonly files?: (spec: AgentSpecOf<K>) => readonly string[];
  /** Whether (and how) it may be solver-backed; default: not. */
  readonly solvable?: SolvableKind<K>;
  /**
   * Whether its agents run commands of the spec's (external engines): a
   * queue worker refuses them unless told to run them. Default: not.
   */
  readonly runsCommands?: boolean;
}

/** One kind of agent spec, declared once: its grammar, and how its agents are made with options `O`. */
export interface AgentKind<
  K extends AgentKindId = AgentKindId,
  O extends AgentMakingOptions = AgentMakingOptions,
> extends KindGrammar<K> {
  /**
   * Throws what `create` would throw for a bad spec (a missing or invalid
   * file) without making the agent, which may be costly. Default: the parse
   * is the whole check.
   */
  readonly check?: (
    spec: AgentSpecOf<K>,
    context: AgentKindContext<O> & WithEndgame,
  ) => void | Promise<void>;
  readonly create: (
    spec: AgentSpecOf<K>,
    context: AgentFactoryContext<O> & WithEndgame,
  ) => Agent | Promise<Agent>;
}

/** Any kind's declaration: what a list of kinds holds. */
export type AnyAgentKind<O extends AgentMakingOptions = AgentMakingOptions> = {
  [K in AgentKindId]: AgentKind<K, O>;
}[AgentKindId];

/** Declares a kind (an identity that lets TypeScript type its functions by its id). */
export function agentKind<K extends AgentKindId, O extends AgentMakingOptions = AgentMakingOptions>(
  declaration: AgentKind<K, O>,
): AgentKind<K, O> {
  return declaration;
}

/**
 * The function that made a registration, by its module's URL and its export
 * name: worker threads have their own registry, and call it there.
 */
export interface AgentKindSource {
  readonly module: string;
  readonly register: string;
}

/** What a layer above agents/ registers (kind-registry.ts's register). */
export interface AgentKindRegistration<O extends AgentMakingOptions = AgentMakingOptions> {
  /** Its kinds, in the order help lists their forms (after those registered before). */
  readonly kinds: readonly AnyAgentKind<O>[];
  /** The endgame tables for the solver-backed kinds. */
  readonly solverEndgame?: SolverEndgame;
  /** Where worker threads find the function that registers these again; omit for this thread only. */
  readonly source?: AgentKindSource;
}

/**
 * A kind as the registry holds it: its id and name filled in, its functions
 * taking any parsed spec (the registry hands each its own kind's), and
 * solver-backed when it is solvable.
 */
export interface RegisteredKind<O extends AgentMakingOptions = AgentMakingOptions> {
  readonly kind: AgentKindId;
  readonly name: string;
  readonly forms: readonly string[];
  /** Its solver-backed forms (SolvableKind.forms; none when it is not solvable). */
  readonly solvedForms: readonly string[];
  readonly takes?: (argument: SpecArgument | null) => boolean;
  readonly parse: SpecParser<object>;
  readonly continues: (piece: string) => boolean;
  readonly files: (spec: AgentSpec) => readonly string[];
  readonly runsCommands: boolean;
  readonly check: (spec: AgentSpec, context: AgentKindContext<O>) => Promise<void>;
  readonly create: (spec: AgentSpec, context: AgentFactoryContext<O>) => Promise<Agent>;
}
