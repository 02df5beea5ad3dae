import { type ChildProcess, spawn } from 'node:child_process';
import { BroadcastChannel, isMainThread } from 'node:worker_threads';

/**
 * Every external engine process alive anywhere in this program, so that none
 * outlives it. Engines run in their own process group (so a shell wrapper and
 * everything it starts can be killed together); they are killed when this
 * process exits or is stopped by SIGINT, SIGTERM or SIGHUP. Engines started in
 * worker threads are reported to the main thread over a BroadcastChannel (signal
 * handlers only run there); the main thread listens once `watchEngineWorkers()`
 * has been called (the tournament pool does).
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
  hook();
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

/**
 * What the exit hooks cannot cover: `kill -9` of this program, or a crash that
 * skips 'exit'. Each engine gets a watchdog, a tiny `sh` in its own group that
 * blocks reading a pipe only this process writes to; when this process (or the
 * worker thread that started the engine) ends in any way, the pipe closes, the
 * read returns and the watchdog kills the engine's whole group. A polite engine
 * notices anyway, as its own stdin closes; the watchdog is for hung ones.
 * Stop the watchdog with `stopWatchdog` once the engine is gone.
 */
export function startWatchdog(pid: number): ChildProcess {
  const watchdog = spawn(
    'sh',
    ['-c', 'read -r _; kill -s KILL -- "-$1" 2>/dev/null', 'ayoayo-watchdog', String(pid)],
    {
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
    },
  );
  watchdog.on('error', () => {});
  watchdog.stdin?.on('error', () => {});
  // Neither the watchdog nor its (idle) pipe keeps this program running.
  watchdog.unref();
  return watchdog;
}

/** Ends a watchdog without letting it act (its engine was stopped on purpose). */
export function stopWatchdog(watchdog: ChildProcess): void {
  try {
    watchdog.kill('SIGKILL');
  } catch {
    // already gone
  }
  watchdog.stdin?.destroy();
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
      hook();
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

function hook(): void {
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
