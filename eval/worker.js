// Entry point of the tournament's worker threads. There is no build step, so
// register tsx in this thread and load the TypeScript task from there. No
// top-level await: piscina may first try to require() this file.
import { register } from 'tsx/esm/api';

register();
const task = import('./worker.ts');

/** @param {import('./worker-protocol.ts').WorkerTask} message */
export default async function run(message) {
  const { playChunkTask } = await task;
  return playChunkTask(message);
}
