#!/usr/bin/env node
// Launcher for the `ayoayo` command. Installed from npm, the package holds the
// compiled code (dist/) and this runs it directly. In a clone of the
// repository, where the TypeScript sources sit beside this file, it runs those
// through tsx instead, so the command (and the tests that spawn it) always run
// the code as it is now, never a stale build.
import { existsSync } from 'node:fs';

const sources = new URL('../cli/main.ts', import.meta.url);
if (existsSync(sources)) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(sources.href);
} else {
  await import(new URL('../dist/cli/main.js', import.meta.url).href);
}
