import { BroadcastChannel, isMainThread } from 'node:worker_threads';

/**
 * Every external engine process alive anywhere in this program, so that none
 * outlives it. Engines run in their own process group (so a shell wrapper and
 * everything it starts can be killed together); they are killed when this
 * process exits or is stopped by SIGINT, SIGTERM or SIGHUP (`kill -9` runs no
 * handler: the watcher in each engine's group covers it, see engine-launch.ts).
 * Engines started in worker threads are reported to the main thread over a
 * BroadcastChannel (signal handlers only run there); the main thread listens
 * once `watchEngineWorkers()` has been called (the tournament pool does).
 */
const CHANNEL = 'ayoayo:engine-processes';
const groups = new Set<number>();
let hooked = false;
let channel: BroadcastChannel | null = null;

interface Announcement {
  readonly pid: number;
  readonly alive: boolean;
}

/** Records a live engine's process group (its leader's pid). */
export function registerEngine(pid: number): void {
  groups.add(pid);
  announce({ pid, alive: true });
  armEngineCleanup();
}

/** Forgets an engine that has been stopped. */
export function unregisterEngine(pid: number): void {
  groups.delete(pid);
  announce({ pid, alive: false });
}

/** Kills a process group at once; quiet if it is already gone. */
export function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** In the main thread: also track (and on exit kill) engines started by worker threads. */
export function watchEngineWorkers(): void {
  if (!isMainThread || channel !== null) return;
  channel = new BroadcastChannel(CHANNEL);
  channel.unref();
  channel.onmessage = (event: unknown) => {
    const data = (event as { data: Announcement }).data;
    if (data.alive) {
      groups.add(data.pid);
      armEngineCleanup();
    } else {
      groups.delete(data.pid);
    }
  };
}

function announce(message: Announcement): void {
  if (isMainThread) return;
  channel ??= new BroadcastChannel(CHANNEL);
  channel.unref();
  channel.postMessage(message);
}

function killAll(): void {
  for (const pid of groups) killGroup(pid);
  groups.clear();
}

/** Installs the exit and signal handlers (once); call it before starting an engine. */
export function armEngineCleanup(): void {
  if (hooked) return;
  hooked = true;
  process.once('exit', killAll);
  if (!isMainThread) return;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const onSignal = (): void => {
      killAll();
      // Re-raise so that the default action (or other handlers) still end the program.
      process.removeListener(signal, onSignal);
      process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
}
