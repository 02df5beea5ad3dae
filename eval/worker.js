// The tournament's worker entry when running from the TypeScript sources
// (tsx, vitest): register tsx in this thread, then run worker.ts. The compiled
// package has no such shim: tsc turns worker.ts itself into dist/eval/worker.js.
// No top-level await: piscina may first try to require() this file.
import { register } from 'tsx/esm/api';

register();
const task = import('./worker.ts');

/** @param {import('./worker-protocol.ts').WorkerTask} message */
export default async function run(message) {
  const { default: playChunkTask } = await task;
  return playChunkTask(message);
}
