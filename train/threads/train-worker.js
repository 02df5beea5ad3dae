// A training's worker thread entry when running from the TypeScript sources
// (tsx, vitest): register tsx in this thread, then run train-worker.ts. The
// compiled package has no such shim: tsc turns train-worker.ts itself into
// dist/train/threads/train-worker.js.
// No top-level await: piscina may first try to require() this file.
import { register } from 'tsx/esm/api';

register();
const worker = import('./train-worker.ts');

/** @param {import('./train-worker.ts').ShardThreadTask} task */
export async function playShardTask(task) {
  return (await worker).playShardTask(task);
}

/** @param {import('../gradients/slice-task.ts').SliceServeTask} task */
export async function serveSlices(task) {
  return (await worker).serveSlices(task);
}
