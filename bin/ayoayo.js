#!/usr/bin/env node
// Launcher for the `ayoayo` command. Installed from npm, the package holds the
// compiled code (dist/) and this runs it directly. In a clone of the
// repository, where the TypeScript sources sit beside this file, it runs those
// through tsx instead, so the command always runs the code as it is now, never
// a stale build. The test suite compiles the sources afresh at its start and
// names that build in AYOAYO_CLI_BUILD (test/setup/cli-build.ts): the hundreds
// of commands it starts then skip tsx's second or so of loading each.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const sources = new URL('../cli/main.ts', import.meta.url);
const inClone = existsSync(sources);
const testBuild = inClone ? process.env.AYOAYO_CLI_BUILD : undefined;
if (testBuild) {
  await import(pathToFileURL(join(testBuild, 'cli', 'main.js')).href);
} else if (inClone) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(sources.href);
} else {
  await import(new URL('../dist/cli/main.js', import.meta.url).href);
}
