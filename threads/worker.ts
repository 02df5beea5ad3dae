import type { ThreadCall } from './job.ts';
import { JOB_DONE, PROGRESS_INTERVAL_MS, type ThreadTask } from './protocol.ts';

/**
 * A thread's task of the pool (pool.ts), piscina's entry point. Compiled,
 * this file is `dist/threads/worker.js` and piscina loads it directly; in the
 * sources, `threads/worker.js` registers tsx first and then delegates here.
 */
export default async function runThreadTask(task: ThreadTask): Promise<unknown> {
  for (const call of task.setup) await setUp(call);
  const handler = await exported(task.job);
  let unreported = 0;
  let lastReport = performance.now();
  const report = (): void => {
    if (unreported > 0) task.progress.postMessage(unreported);
    unreported = 0;
    lastReport = performance.now();
  };
  const count = (): void => {
    unreported++;
    if (performance.now() - lastReport >= PROGRESS_INTERVAL_MS) report();
  };
  try {
    return await handler(task.input, count);
  } finally {
    report();
    task.progress.postMessage(JOB_DONE);
    task.progress.close();
  }
}

/** The setup calls this thread has made. */
const done = new Set<string>();

async function setUp(call: ThreadCall): Promise<void> {
  const key = `${call.module}#${call.name}`;
  if (done.has(key)) return;
  (await exported(call))(undefined, () => {});
  done.add(key);
}

type Exported = (input: unknown, count: () => void) => unknown;

/**
 * The functions calls have named so far, by module and name: a module is
 * imported once, not at every task (from the sources, each import() waits on
 * tsx's loader thread, some milliseconds a task).
 */
const functions = new Map<string, Exported>();

/** The function a call names. */
async function exported(call: ThreadCall): Promise<Exported> {
  const key = `${call.module}#${call.name}`;
  const known = functions.get(key);
  if (known !== undefined) return known;
  const value: unknown = ((await import(call.module)) as Record<string, unknown>)[call.name];
  if (typeof value !== 'function') {
    throw new Error(`${call.module} has no function ${call.name} for a thread to call`);
  }
  functions.set(key, value as Exported);
  return value as Exported;
}
