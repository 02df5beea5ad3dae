// The thread pool's worker entry when running from the TypeScript sources
// (tsx, vitest): register tsx in this thread, then run worker.ts. The compiled
// package has no such shim: tsc turns worker.ts itself into dist/threads/worker.js.
// No top-level await: piscina may first try to require() this file.
import { register } from 'tsx/esm/api';

register();
const task = import('./worker.ts');

/** @param {import('./protocol.ts').ThreadTask} message */
export default async function run(message) {
  const { default: runThreadTask } = await task;
  return runThreadTask(message);
}
