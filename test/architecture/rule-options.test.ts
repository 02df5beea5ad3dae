import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RULE_NAMES } from '../../env/index.ts';

/**
 * A rule option is declared once, in env/rules.ts's table, and implemented in
 * the engine (docs/architecture.md, "Adding a rule option"): everything else
 * reaches the options through the Rules value (its key, equality, parser,
 * formatter, schema) and the engine through one rule code. So no source file
 * outside env/ spells an option's name, and no file anywhere spells one a
 * second way (`leftoverToOwner` beside `leftoverTo`), but these, which show
 * the rules to people or to other programs in words of their own.
 */
const ALLOWED: Record<string, string> = {
  'models/export/encoder-check.ts':
    "the game's rules condensed for whoever ports an exported policy (features.md): prose on what each option does",
  'models/export/manifest.ts':
    'the lookahead procedure for whoever ports an exported policy: prose on what the leftover option does',
  'examples/python/client.py':
    "a client in another language: its own port of the rules, reading an export's rules by name",
  'train/config/legacy-shapes.ts':
    'a frozen copy of the config runs saved before the rules were one setting: the two options as its keys were then, never a new one',
};

const root = fileURLToPath(new URL('../..', import.meta.url));
const SOURCE = /\.(ts|mts|cts|tsx|js|mjs|cjs|py|c|h|html|css)$/;
const SKIPPED = new Set(['node_modules', 'dist', 'test', '.git']);

/** Every source file under `dir` but the tests, relative to the repository's root. */
function sources(dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : sources(path);
    return entry.isFile() && SOURCE.test(entry.name)
      ? [relative(root, path).replaceAll('\\', '/')]
      : [];
  });
}

/** `path:line: text` of each line of `text` that spells an option's name (or a longer word made from it). */
function spellings(path: string, text: string, names: readonly string[]): string[] {
  const pattern = new RegExp(`\\b(?:${names.join('|')})\\w*`);
  return text
    .split('\n')
    .flatMap((line, i) => (pattern.test(line) ? [`${path}:${i + 1}: ${line.trim()}`] : []));
}

/** `path:line: word` of each word that extends an option's name, a second spelling of it. */
function secondSpellings(path: string, text: string, names: readonly string[]): string[] {
  const pattern = new RegExp(`\\b(?:${names.join('|')})[A-Z_]\\w*`, 'g');
  return text
    .split('\n')
    .flatMap((line, i) => [...line.matchAll(pattern)].map((m) => `${path}:${i + 1}: ${m[0]}`));
}

describe('the rule options', () => {
  const files = sources();
  const read = (path: string): string => readFileSync(join(root, path), 'utf8');

  it('are spelled outside env/ only by the files that show the rules in words', () => {
    expect(files.length).toBeGreaterThan(300);
    const found = files
      .filter((path) => !path.startsWith('env/') && !(path in ALLOWED))
      .flatMap((path) => spellings(path, read(path), RULE_NAMES));
    expect(
      found,
      'these name a rule option outside env/: go through the Rules value (rulesKey, sameRules, formatRules, ruleEntries, pickRules, the schema) or the rule code instead (docs/architecture.md, "Adding a rule option")',
    ).toEqual([]);
  });

  it('each have one spelling, env/ included', () => {
    const found = files
      .filter((path) => !(path in ALLOWED))
      .flatMap((path) => secondSpellings(path, read(path), RULE_NAMES));
    expect(found).toEqual([]);
  });

  it('keep no file on the list that no longer names an option', () => {
    const stale = Object.keys(ALLOWED).filter(
      (path) => !files.includes(path) || spellings(path, read(path), RULE_NAMES).length === 0,
    );
    expect(stale).toEqual([]);
  });
});

describe('spellings', () => {
  const names = ['captureSeedStays', 'leftoverTo'];

  it('finds a name, a longer word made from it, and nothing else', () => {
    const text = [
      'const stays = rules.captureSeedStays;',
      'const owner = leftoverToOwner;',
      'const code = ruleCode(rules); // SEED_STAYS',
      "const key = 'leftover-owner';",
    ].join('\n');
    expect(spellings('x.ts', text, names)).toEqual([
      'x.ts:1: const stays = rules.captureSeedStays;',
      'x.ts:2: const owner = leftoverToOwner;',
    ]);
    expect(secondSpellings('x.ts', text, names)).toEqual(['x.ts:2: leftoverToOwner']);
  });
});
