/**
 * A registry of agent kinds: it reads specs by the grammar (spec-grammar.ts)
 * and the kinds registered with it, and checks and makes their agents with
 * its options `O`. The command line's registry (spec.ts) holds agents/' own
 * kinds from the start, then those a higher layer registers
 * (agents/network/kinds.ts's registerNetworkKinds); the browser page's holds
 * the kinds that run there, made its own way (web/src/opponents.ts). A
 * solvable kind is held solver-backed (solver-backed.ts). Help text, error
 * messages and the splitting of a list of agents read the registry. No Node
 * built-in.
 */
import { resolveRules } from '../env/index.ts';
import type { Agent } from './agent.ts';
import {
  type AgentKind,
  type AgentKindId,
  type AgentKindRegistration,
  type AgentKindSource,
  type AgentMakingOptions,
  type AgentSpec,
  AgentSpecError,
  type AgentSpecOf,
  type AgentSpecs,
  type AnyAgentKind,
  type RegisteredKind,
  type SolverEndgame,
} from './agent-kinds.ts';
import { solverBacked } from './solver-backed.ts';
import { type SpecArgument, specParts, splitSpecList } from './spec-grammar.ts';

/** Kinds a registry leaves to a later registration, and what a spec of one says until then. */
export interface PendingKinds {
  /** What the kinds of each such name are, e.g. `policy` -> `policy agents`. */
  readonly names: ReadonlyMap<string, string>;
  /** How to register them, e.g. `import 'ayoayo/agents'`. */
  readonly how: string;
}

export interface AgentKindRegistryOptions<O extends AgentMakingOptions> {
  /** Its first kinds, in the order help lists their forms. */
  readonly kinds: readonly AnyAgentKind<O>[];
  /** The solver-backed kinds' endgame tables; without them a `solve=1` spec parses but is refused when checked or made. */
  readonly endgame?: SolverEndgame;
  readonly pending?: PendingKinds;
}

/** The endgame tables of a registry given none: a `solve=1` agent cannot be made. */
const NO_ENDGAME: SolverEndgame = {
  load: () => {
    throw new AgentSpecError('solve=1 needs the endgame tables, and this registry has none');
  },
  prepare: () => {
    throw new AgentSpecError('solve=1 needs the endgame tables, and this registry has none');
  },
};

export class AgentKindRegistry<O extends AgentMakingOptions> {
  /** The registered kinds in the order of registration (the order help lists their forms in). */
  readonly #kinds: RegisteredKind<O>[] = [];
  #endgame: SolverEndgame;
  readonly #pending: PendingKinds | undefined;
  /** The registrations worker threads repeat. */
  readonly #sources: AgentKindSource[] = [];

  constructor(options: AgentKindRegistryOptions<O>) {
    this.#endgame = options.endgame ?? NO_ENDGAME;
    this.#pending = options.pending;
    for (const declaration of options.kinds) this.#add(declaration);
  }

  /**
   * Registers kinds (a kind registered again is replaced in place), the
   * endgame tables of the solver-backed kinds, and where worker threads find
   * the function that does it again (its `source`). Registering twice
   * changes nothing.
   */
  register(registration: AgentKindRegistration<O>): void {
    for (const declaration of registration.kinds) this.#add(declaration);
    if (registration.solverEndgame !== undefined) this.#endgame = registration.solverEndgame;
    const { source } = registration;
    if (
      source !== undefined &&
      !this.#sources.some((s) => s.module === source.module && s.register === source.register)
    ) {
      this.#sources.push(source);
    }
  }

  /**
   * Parses an agent spec's text once, into what check, files and create
   * take; throws an AgentSpecError naming the valid forms.
   */
  parse(spec: string): AgentSpec {
    const { text, name, argument } = specParts(typeof spec === 'string' ? spec : '');
    const fail = (why: string): AgentSpecError =>
      new AgentSpecError(
        `invalid agent '${String(spec)}': ${why}; valid agents: ${this.forms().join(', ')}`,
      );
    if (name.length === 0) throw fail('empty agent name');
    const kind = this.#kindOf(name, argument);
    if (kind === undefined) {
      const pending = this.#pending?.names.get(name);
      if (pending !== undefined) {
        throw new AgentSpecError(
          `${pending} are not available: ${this.#pending?.how} first to load '${text}'`,
        );
      }
      throw fail(`unknown agent '${name}'`);
    }
    const fields = kind.parse(argument, fail, this.#otherFormsOf(kind));
    return { ...fields, kind: kind.kind, name: text } as AgentSpec;
  }

  /**
   * Parses every spec of a list of agents (a tournament's, a benchmark's, a
   * run's baselines) and refuses one listed twice: their games or rows would
   * carry one name for two agents.
   */
  parseList(specs: readonly string[]): AgentSpec[] {
    const seen = new Set<string>();
    return specs.map((spec) => {
      const parsed = this.parse(spec);
      if (seen.has(spec)) throw new RangeError(`agent '${spec}' is listed twice`);
      seen.add(spec);
      return parsed;
    });
  }

  /**
   * Splits comma-separated lists of agents (`--agents random,mcts:50`) at the
   * commas that separate agents, keeping those inside one (an ext: command
   * line, the options of a network search) as each kind declares
   * (spec-grammar.ts's splitSpecList).
   */
  splitList(values: readonly string[]): string[] {
    return splitSpecList(values, {
      startsAgent: (name) =>
        this.#named(name).length > 0 || this.#pending?.names.has(name) === true,
      continues: (name, piece) => this.#named(name).some((k) => k.continues(piece)),
    });
  }

  /** Every form an agent spec can take, as shown in help and error messages. */
  forms(): string[] {
    return formsOf(this.#kinds);
  }

  /**
   * Throws the error create would throw for a bad spec, without making the
   * agent: a tournament checks its specs in its own thread first, since an
   * error thrown on a worker thread arrives as a plain Error, its class (and
   * so whether it is a user's mistake) lost. External engines are not
   * started: an engine that fails forfeits its games.
   */
  async check(given: string | AgentSpec, options: O): Promise<void> {
    const { spec, kind } = this.#resolve(given);
    await kind.check(spec, contextOf(spec, options));
  }

  /**
   * The paths of the files an agent spec reads (its policy, its network), as
   * the spec writes them: what a queue job must carry for a worker to make it.
   */
  files(given: string | AgentSpec): string[] {
    const { spec, kind } = this.#resolve(given);
    return [...kind.files(spec)];
  }

  /** Whether the agent of a spec runs a command of the spec's (an external engine). */
  runsCommands(given: string | AgentSpec): boolean {
    return this.#resolve(given).kind.runsCommands;
  }

  /**
   * Creates an agent from its spec (text, or parsed), the one place where
   * specs are interpreted. The agent's name is the spec as given (trimmed).
   * Asynchronous because some agents load a model.
   */
  async create(given: string | AgentSpec, options: O): Promise<Agent> {
    const { spec, kind } = this.#resolve(given);
    return kind.create(spec, contextOf(spec, options));
  }

  /**
   * The registrations made with a `source` (by module URL and function), for
   * worker threads to make again.
   */
  sources(): AgentKindSource[] {
    return this.#sources.map((s) => ({ ...s }));
  }

  /** A spec parsed (when given as text) and its registered kind. */
  #resolve(given: string | AgentSpec): { spec: AgentSpec; kind: RegisteredKind<O> } {
    const spec = typeof given === 'string' ? this.parse(given) : given;
    const kind = this.#kinds.find((k) => k.kind === spec.kind);
    if (kind === undefined) {
      throw new AgentSpecError(
        `invalid agent '${spec.name}': no kind '${spec.kind}' is registered`,
      );
    }
    return { spec, kind };
  }

  /** Adds a kind, or replaces in place one registered before under its id. */
  #add(declaration: AnyAgentKind<O>): void {
    const entry = this.#registered(declaration as AgentKind<AgentKindId, O>);
    const at = this.#kinds.findIndex((k) => k.kind === entry.kind);
    if (at >= 0) this.#kinds[at] = entry;
    else this.#kinds.push(entry);
  }

  /** `declaration` as the registry holds it: each function handed its own kind's specs. */
  #registered<K extends AgentKindId>(declaration: AgentKind<K, O>): RegisteredKind<O> {
    // The registry finds a spec's kind by the spec's own `kind`: a kind only ever gets its own specs.
    const own = (spec: AgentSpec) => spec as AgentSpecOf<K>;
    const { check, files, continues, solvable } = declaration;
    const endgame = (): SolverEndgame => this.#endgame;
    const entry: RegisteredKind<O> = {
      kind: declaration.kind,
      name: declaration.name ?? declaration.kind,
      forms: declaration.forms,
      solvedForms: solvable?.forms ?? [],
      ...(declaration.takes !== undefined ? { takes: declaration.takes } : {}),
      parse: declaration.parse,
      continues: (piece) => continues?.(piece) === true,
      files: (spec) => files?.(own(spec)) ?? [],
      runsCommands: declaration.runsCommands === true,
      check: async (spec, context) => {
        await check?.(own(spec), { ...context, endgame: endgame() });
      },
      create: async (spec, context) =>
        declaration.create(own(spec), { ...context, endgame: endgame() }),
    };
    if (solvable === undefined) return entry;
    const withTimeMs = (spec: AgentSpec, timeMs: number): AgentSpec => {
      const fields: AgentSpecs[K] = solvable.withTimeMs(own(spec), timeMs);
      return { ...fields, kind: spec.kind, name: spec.name } as AgentSpec;
    };
    return solverBacked(entry, withTimeMs, endgame);
  }

  /** The kind that takes a spec of `name` with `argument`, if one is registered. */
  #kindOf(name: string, argument: SpecArgument | null): RegisteredKind<O> | undefined {
    const named = this.#named(name);
    return (
      named.find((k) => k.takes?.(argument) === true) ?? named.find((k) => k.takes === undefined)
    );
  }

  /** Every registered kind of this name. */
  #named(name: string): RegisteredKind<O>[] {
    return this.#kinds.filter((k) => k.name === name);
  }

  /** The forms of the other specs of `kind`'s name: other kinds of that name, its solver-backed ones. */
  #otherFormsOf(kind: RegisteredKind<O>): string[] {
    return formsOf(this.#named(kind.name)).filter((form) => !kind.forms.includes(form));
  }
}

/** The forms of `of`: every kind's own, then the solver-backed ones. */
function formsOf(of: readonly Pick<RegisteredKind, 'forms' | 'solvedForms'>[]): string[] {
  return [...of.flatMap((k) => k.forms), ...of.flatMap((k) => k.solvedForms)];
}

/** What a kind's check and factory are told of `spec` made with `options`. */
function contextOf<O extends AgentMakingOptions>(spec: AgentSpec, options: O) {
  return { name: spec.name, rules: resolveRules(options.rules), options };
}
