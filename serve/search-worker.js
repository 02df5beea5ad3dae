// A service's search thread entry when running from the TypeScript sources
// (tsx, vitest): register tsx in this thread, then run search-worker.ts. The
// compiled package has no such shim: tsc turns search-worker.ts itself into
// dist/serve/search-worker.js.
// No top-level await: piscina may first try to require() this file.
import { register } from 'tsx/esm/api';

register();
const worker = import('./search-worker.ts');

/** @param {import('./search-task.ts').SearchTask} task */
export default async function run(task) {
  const { default: runSearchTask } = await worker;
  return runSearchTask(task);
}
