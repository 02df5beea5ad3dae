/**
 * The grammar of agent specs, the one tokenizer of their text: a spec is
 * `name` or `name:argument`, an argument is comma-separated fields (bare
 * values, then `key=value` options), and a list of agents (`--agents
 * random,minimax:4,az:PATH,t=50ms`) is split at the commas that separate
 * agents, keeping those inside one (its options, an external engine's
 * command line) as its kind declares. Everything else reads these tokens: a
 * kind's parser gets its argument split into fields (spec-options.ts reads
 * their values), the registry its name and its list's pieces. No Node
 * built-in: the browser page reads its opponents' specs with it too.
 */

/** One field of a spec's argument, or one piece of a list of specs: the text between two commas. */
export interface SpecField {
  /** As written (untrimmed). */
  readonly text: string;
  /** Its key, trimmed, when it holds `=` (`key=value`); else null. */
  readonly key: string | null;
  /** Trimmed: the value after the first `=`, or the whole field without one. */
  readonly value: string;
}

/** The text after a spec's colon: as written, and split into its fields. */
export interface SpecArgument {
  readonly text: string;
  /** Its comma-separated fields, in order (an empty text is one empty field). */
  readonly fields: readonly SpecField[];
}

/** A spec split at its first colon: its name, and its argument (null without a colon). */
export interface SpecParts {
  /** The spec trimmed: an agent's name. */
  readonly text: string;
  readonly name: string;
  readonly argument: SpecArgument | null;
}

/** `text` split at its commas into fields. */
export function specFields(text: string): SpecField[] {
  return text.split(',').map((field) => {
    const eq = field.indexOf('=');
    return eq < 0
      ? { text: field, key: null, value: field.trim() }
      : { text: field, key: field.slice(0, eq).trim(), value: field.slice(eq + 1).trim() };
  });
}

/** `text` as an argument: itself and its fields. */
export function specArgument(text: string): SpecArgument {
  return { text, fields: specFields(text) };
}

/** An argument of these fields (their texts joined by commas again); null for none. */
export function argumentOf(fields: readonly SpecField[]): SpecArgument | null {
  return fields.length > 0 ? { text: fields.map((f) => f.text).join(','), fields } : null;
}

/** A spec split into its name and argument (see SpecParts); `spec` is trimmed first. */
export function specParts(spec: string): SpecParts {
  const text = spec.trim();
  const colon = text.indexOf(':');
  return colon < 0
    ? { text, name: text, argument: null }
    : { text, name: text.slice(0, colon), argument: specArgument(text.slice(colon + 1)) };
}

/** Whether an argument gives the option `key` (`key=...` among its fields). */
export function givesOption(argument: SpecArgument | null, key: string): boolean {
  return argument?.fields.some((field) => field.key === key) === true;
}

/** Whether `piece` of a list, trimmed, is a `key=value` option of lower-case letters. */
export function isOption(piece: string): boolean {
  return /^[a-z]+=/.test(piece);
}

/** The key of an option `piece` (isOption), else null. */
export function optionKeyOf(piece: string): string | null {
  return isOption(piece) ? piece.slice(0, piece.indexOf('=')) : null;
}

/** What splitting a list of specs needs to know of the kinds (the registry's). */
export interface ListGrammar {
  /** Whether a piece named `name` (its text before a colon) starts an agent of its own. */
  readonly startsAgent: (name: string) => boolean;
  /** Whether `piece`, met after a comma in an agent named `name`, continues it (AgentKind.continues). */
  readonly continues: (name: string, piece: string) => boolean;
}

/** Whether `piece` (trimmed), met after a comma, continues the agent `current` (trimmed). */
function continuesAgent(current: string, piece: string, grammar: ListGrammar): boolean {
  if (piece.length === 0 || grammar.startsAgent(specParts(piece).name)) return false;
  const colon = current.indexOf(':');
  if (colon < 0) return false;
  return grammar.continues(current.slice(0, colon), piece);
}

/**
 * Splits comma-separated lists of agents (`--agents random,mcts:50`) into
 * their specs, trimmed, at the commas that separate agents; a comma whose
 * next piece `grammar` says continues the agent before it stays inside that
 * agent. A piece that continues no agent starts one of its own, so that a
 * mistyped agent is reported by its own name; empty pieces are dropped.
 */
export function splitSpecList(values: readonly string[], grammar: ListGrammar): string[] {
  const specs: string[] = [];
  for (const value of values) {
    let current: string | null = null;
    for (const { text: piece } of specFields(value)) {
      if (current !== null && continuesAgent(current.trim(), piece.trim(), grammar)) {
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
