/**
 * README.md's command table names every `ayoayo` subcommand, and nothing that
 * is not one, so the quick guide cannot fall behind the command line.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { commandName, commands } from '../../cli/commands/index.ts';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The subcommand of each row of the README's "## Commands" table, in order. */
function tableCommands(): string[] {
  const section = readme.split(/^## Commands$/m)[1]?.split(/^## /m)[0] ?? '';
  return [...section.matchAll(/^\| `ayoayo ([a-z-]+)/gm)].map((m) => m[1] as string);
}

describe("README's command table", () => {
  it('lists every subcommand once, as cli/commands/index.ts does', () => {
    expect(tableCommands().sort()).toEqual(commands.map(commandName).sort());
  });
});
