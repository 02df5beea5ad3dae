/**
 * Every spelling of an agent spec means what it meant before issue 53 gave
 * the specs one grammar: spec-spellings.json holds what the parser of then
 * made of each (captured from its code): the parsed spec or the error, the
 * files it reads, each list of agents split, and `ayoayo serve --search`'s
 * options.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerNetworkKinds } from '../../agents/network/kinds.ts';
import { parseAzOptions } from '../../agents/network/policy-search.ts';
import {
  agentSpecForms,
  parseAgentList,
  parseAgentSpec,
  specFiles,
  splitAgentList,
} from '../../agents/spec.ts';

type Outcome = { value: unknown } | { error: string; class: string };

interface Registry {
  readonly forms: readonly string[];
  readonly specs: readonly { spec: string; parsed: Outcome; files?: string[] }[];
  readonly lists: readonly { list: string[]; split: string[] }[];
}

const TODAY = JSON.parse(
  readFileSync(new URL('./spec-spellings.json', import.meta.url), 'utf8'),
) as {
  withoutNetworkKinds: Registry;
  withNetworkKinds: Registry;
  azOptions: { text: string; parsed: Outcome }[];
  listedTwice: Outcome;
};

/** What `f` returns or throws, as the table holds it (the forms in a message written {forms}). */
function outcome(f: () => unknown): Outcome {
  try {
    return { value: JSON.parse(JSON.stringify(f())) };
  } catch (err) {
    const { message, name } = err as Error;
    return { error: message.replace(agentSpecForms().join(', '), '{forms}'), class: name };
  }
}

function checkRegistry(registry: Registry): void {
  it('lists the same forms', () => {
    expect(agentSpecForms()).toEqual(registry.forms);
  });

  it.each(registry.specs)('parses $spec as before', ({ spec, parsed, files }) => {
    expect(outcome(() => parseAgentSpec(spec))).toEqual(parsed);
    if (files !== undefined) expect(specFiles(spec)).toEqual(files);
  });

  it.each(registry.lists.map(({ list, split }) => [JSON.stringify(list), list, split] as const))(
    'splits %s as before',
    (_, list, split) => {
      expect(splitAgentList(list)).toEqual(split);
    },
  );
}

describe('agent specs with agents/ own kinds', () => {
  checkRegistry(TODAY.withoutNetworkKinds);

  it('refuses an agent listed twice as before', () => {
    expect(outcome(() => parseAgentList(['random', 'minimax:4', 'random']))).toEqual(
      TODAY.listedTwice,
    );
  });
});

describe('agent specs with the network kinds registered', () => {
  beforeAll(() => registerNetworkKinds());

  checkRegistry(TODAY.withNetworkKinds);

  it.each(TODAY.azOptions)("reads serve --search's options $text as before", ({ text, parsed }) => {
    expect(outcome(() => parseAzOptions(text, '--search'))).toEqual(parsed);
  });
});
