// A worker thread of test/eval/endgame-cache.test.ts: waits at a barrier
// shared with the other threads, then loads the endgame table of
// workerData.seeds seeds from workerData.dir, and reports whether it built it
// and what it was told. JavaScript, as threads/worker.js: it registers tsx first.
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { loadEndgame } = await import('../../solve/endgame/cache/table-cache.ts');
const { DEFAULT_RULES } = await import('../../env/index.ts');

/** @type {{ dir: string, seeds: number, threads: number, barrier: SharedArrayBuffer }} */
const { dir, seeds, threads, barrier } = workerData;
const arrived = new Int32Array(barrier);
Atomics.add(arrived, 0, 1);
Atomics.notify(arrived, 0);
for (let n = Atomics.load(arrived, 0); n < threads; n = Atomics.load(arrived, 0)) {
  Atomics.wait(arrived, 0, n, 100);
}
let built = false;
/** @type {string[]} */
const notes = [];
const table = loadEndgame(seeds, DEFAULT_RULES, {
  dir,
  onProgress: () => {
    built = true;
  },
  onNote: (note) => notes.push(note),
});
let sum = 0;
for (let i = 0; i < table.lo.length; i++) sum += (table.lo[i] ?? 0) * 31 + (table.hi[i] ?? 0);
parentPort?.postMessage({ built, notes, sum });
