/**
 * The registry of agent kinds: agents/' own kinds (builtin-kinds.ts) from the
 * start, then those a higher layer registers with registerAgentKinds
 * (agents/network/kinds.ts's registerNetworkKinds, which the entry points that
 * meet network specs call). A solvable kind is held solver-backed
 * (solver-backed.ts). Help text, error messages and the splitting of a list
 * of agents read the registry; specs go through it in spec.ts.
 */

import { SOLVER_ENDGAME } from '../solve/endgame/cache/shared-tables.ts';
import type {
  AgentKind,
  AgentKindId,
  AgentKindRegistration,
  AgentKindSource,
  AgentSpec,
  AgentSpecOf,
  AgentSpecs,
  RegisteredKind,
  SolverEndgame,
} from './agent-kinds.ts';
import { BUILTIN_KINDS } from './builtin-kinds.ts';
import { solverBacked } from './solver-backed.ts';

/** The registered kinds in the order of registration (the order help lists their forms in). */
const kinds: RegisteredKind[] = [];
/** The endgame tables of the solver-backed kinds: the user's cache, unless a registration gives others. */
let endgame: SolverEndgame = SOLVER_ENDGAME;
/** The registrations worker threads repeat. */
const sources: AgentKindSource[] = [];

/** `declaration` as the registry holds it: each function handed its own kind's specs. */
function registered<K extends AgentKindId>(declaration: AgentKind<K>): RegisteredKind {
  // The registry finds a spec's kind by the spec's own `kind`: a kind only ever gets its own specs.
  const own = (spec: AgentSpec) => spec as AgentSpecOf<K>;
  const { check, files, continues, solvable } = declaration;
  const entry: RegisteredKind = {
    kind: declaration.kind,
    name: declaration.name ?? declaration.kind,
    forms: declaration.forms,
    solvedForms: solvable?.forms ?? [],
    ...(declaration.takes !== undefined ? { takes: declaration.takes } : {}),
    parse: declaration.parse,
    continues: (piece) => continues?.(piece) === true,
    files: (spec) => files?.(own(spec)) ?? [],
    check: async (spec, context) => {
      await check?.(own(spec), { ...context, endgame });
    },
    create: async (spec, context) => declaration.create(own(spec), { ...context, endgame }),
  };
  if (solvable === undefined) return entry;
  const withTimeMs = (spec: AgentSpec, timeMs: number): AgentSpec => {
    const fields: AgentSpecs[K] = solvable.withTimeMs(own(spec), timeMs);
    return { ...fields, kind: spec.kind, name: spec.name } as AgentSpec;
  };
  return solverBacked(entry, withTimeMs, () => endgame);
}

/** Adds a kind, or replaces in place one registered before under its id. */
function add(entry: RegisteredKind): void {
  const at = kinds.findIndex((k) => k.kind === entry.kind);
  if (at >= 0) kinds[at] = entry;
  else kinds.push(entry);
}

for (const declaration of BUILTIN_KINDS) add(registered(declaration as AgentKind));

/**
 * Registers a layer's kinds (a kind registered again is replaced in place),
 * the endgame tables of the solver-backed kinds, and where worker threads
 * find the function that does it again (its `source`). Calling it twice
 * changes nothing.
 */
export function registerAgentKinds(registration: AgentKindRegistration): void {
  for (const declaration of registration.kinds) add(registered(declaration as AgentKind));
  if (registration.solverEndgame !== undefined) endgame = registration.solverEndgame;
  const { source } = registration;
  if (
    source !== undefined &&
    !sources.some((s) => s.module === source.module && s.register === source.register)
  ) {
    sources.push(source);
  }
}

/** The kind that takes a spec of `name` with `argument`, if one is registered. */
export function kindOf(name: string, argument: string | null): RegisteredKind | undefined {
  const named = kindsNamed(name);
  return (
    named.find((k) => k.takes?.(argument) === true) ?? named.find((k) => k.takes === undefined)
  );
}

/** The kind registered under `id`, if any. */
export function kindById(id: AgentKindId): RegisteredKind | undefined {
  return kinds.find((k) => k.kind === id);
}

/** Every registered kind of this name. */
export function kindsNamed(name: string): RegisteredKind[] {
  return kinds.filter((k) => k.name === name);
}

/** The forms of `of`: every kind's own, then the solver-backed ones. */
function formsOf(of: readonly RegisteredKind[]): string[] {
  return [...of.flatMap((k) => k.forms), ...of.flatMap((k) => k.solvedForms)];
}

/** Every form an agent spec can take now, as shown in help and error messages. */
export function agentSpecForms(): string[] {
  return formsOf(kinds);
}

/** The forms of the other specs of `kind`'s name: other kinds of that name, its solver-backed ones. */
export function otherFormsOf(kind: RegisteredKind): string[] {
  return formsOf(kindsNamed(kind.name)).filter((form) => !kind.forms.includes(form));
}

/**
 * The registrations made in this thread from outside agents/ (by module URL
 * and function), for worker threads to make again.
 */
export function agentKindSources(): AgentKindSource[] {
  return sources.map((s) => ({ ...s }));
}
