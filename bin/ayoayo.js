#!/usr/bin/env node
// Launcher for the `ayoayo` command: there is no build step, so register tsx
// and load the TypeScript entry point directly.
import { register } from 'tsx/esm/api';

register();
await import(new URL('../cli/main.ts', import.meta.url).href);
