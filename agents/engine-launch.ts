import { type ChildProcess, spawn } from 'node:child_process';
import { Socket } from 'node:net';
import type { Readable, Writable } from 'node:stream';

/**
 * The shell script an engine's command line runs under. A watcher starts first
 * in the background, in the engine's own process group, and blocks reading
 * fd 3, the far end of a pipe only this program holds; then the main shell
 * closes its copy of fd 3 and runs the command line (with no positional
 * parameters, as under `sh -c`). However this program ends (an exit, a signal,
 * `kill -9`), the pipe closes, the read returns and the watcher kills the whole
 * group, itself included. The pipe exists before the engine does, so there is
 * no moment when an engine runs unwatched. The watcher ignores TERM and HUP, so
 * that a polite close (SIGTERM to the group) does not disarm it: the shell
 * ignores them while it forks the watcher (a trap set inside the watcher would
 * leave it open to a signal that came first) and restores them for the engine.
 */
const LAUNCHER =
  'trap "" TERM HUP; { read -r _ <&3; kill -s KILL 0; } </dev/null >/dev/null 2>&1 & trap - TERM HUP; exec 3<&-; eval "shift; $1"';

/** An engine process with its pipes: stdin, stdout, stderr, and the watcher's pipe. */
export interface LaunchedEngine {
  readonly child: ChildProcess;
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly stderr: Readable;
  /** Closing this (or this program ending) makes the watcher kill the engine's group. */
  readonly watcherPipe: Socket;
}

/** Starts `command` (a shell command line) in a process group of its own, watched as above. */
export function launchEngine(command: string): LaunchedEngine {
  const child = spawn('/bin/sh', ['-c', LAUNCHER, 'ayoayo-engine', command], {
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
  });
  const [stdin, stdout, stderr, watcherPipe] = child.stdio;
  if (stdin === null || stdout === null || stderr === null || !(watcherPipe instanceof Socket)) {
    throw new Error('launchEngine: spawn did not open the four pipes asked for');
  }
  // The watcher's pipe is never read or written; it must not keep this program running.
  watcherPipe.unref();
  watcherPipe.on('error', () => {});
  return { child, stdin, stdout, stderr, watcherPipe };
}
