import { randomBytes } from 'node:crypto';
import {
  linkSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { isAlive, processStart } from './process-identity.ts';

/**
 * An exclusive lock on a folder that one process writes (a training run, a
 * sweep), so that a second process fails at once, naming the holder, instead of
 * writing over the first. The lock is a small JSON file beside the folder
 * (`.NAME.lock`, so that a copied run does not carry it), created atomically
 * with its content (a hard link of a finished temp file) and removed when the
 * holder releases it, exits, fails or is stopped by SIGINT, SIGTERM or SIGHUP.
 * A lock left by a killed process (kill -9, a crash) is stale: on this host its
 * pid is gone, or is now another process (its start time differs), and the
 * next process takes the lock over. A lock held from another host cannot be
 * checked and is reported with that host's name.
 *
 * Hand-written rather than a library's: proper-lockfile, the well-kept one,
 * decides staleness by a modification time that the holder refreshes on a
 * timer, which a training step holding the event loop for seconds would let
 * lapse, and it records no holder to name.
 */

/** Who holds a lock, as its file says. */
export interface LockHolder {
  readonly pid: number;
  readonly host: string;
  /** The holder's command line (URL passwords hidden). */
  readonly command: string;
  /** ISO time the lock was taken. */
  readonly since: string;
  /** The holder's start time as /proc gives it (Linux), to tell a reused pid. */
  readonly started: string | null;
  readonly token: string;
}

/** The folder is locked by another live process (or one on another host). */
export class FolderLockError extends Error {
  override name = 'FolderLockError';
  constructor(
    readonly lockFile: string,
    readonly holder: LockHolder,
    message: string,
  ) {
    super(message);
  }
}

export interface FolderLock {
  /** The lock file. */
  readonly file: string;
  /** Removes the lock file if it is still this lock's; safe to call twice. */
  release(): void;
}

/**
 * The lock file of a folder: `.NAME.lock` beside it, where NAME is the folder's
 * real name: a symbolic link to a locked folder (or into its parent) names the
 * same lock, so two runs cannot write one folder through two names.
 */
export function lockFileOf(dir: string): string {
  const full = realPath(resolve(dir));
  return join(dirname(full), `.${basename(full)}.lock`);
}

/** The path with its symbolic links resolved, as far as it exists (a run's folder may not yet). */
function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(realPath(parent), basename(path));
  }
}

/** The command line that took the lock, as a user would recognise it, with URL passwords hidden. */
function commandLine(): string {
  const [, script, ...args] = process.argv;
  const name = script !== undefined && /ayoayo(\.js)?$/.test(script) ? 'ayoayo' : 'node';
  return [name, ...(name === 'node' && script !== undefined ? [script] : []), ...args]
    .map((arg) => arg.replace(/(\/\/[^:/@\s]*:)[^@/\s]*@/g, '$1***@'))
    .join(' ');
}

function readHolder(file: string): LockHolder | null {
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockHolder>;
    if (
      typeof data.pid !== 'number' ||
      typeof data.host !== 'string' ||
      typeof data.token !== 'string'
    )
      return null;
    return {
      pid: data.pid,
      host: data.host,
      command: typeof data.command === 'string' ? data.command : '',
      since: typeof data.since === 'string' ? data.since : '',
      started: typeof data.started === 'string' ? data.started : null,
      token: data.token,
    };
  } catch {
    return null;
  }
}

/** Whether a holder is gone: on this host, its pid is dead or now another process. */
function isStale(holder: LockHolder | null): boolean {
  if (holder === null) return true; // not a lock this code wrote: no live holder to name
  if (holder.host !== hostname()) return false;
  if (!isAlive(holder.pid)) return true;
  const started = processStart(holder.pid);
  return holder.started !== null && started !== null && started !== holder.started;
}

/**
 * The live holder of a folder's lock, or null when the folder is free (no lock,
 * or a stale one).
 */
export function folderLockHolder(dir: string): LockHolder | null {
  const holder = readHolder(lockFileOf(dir));
  return holder === null || isStale(holder) ? null : holder;
}

function lockedError(dir: string, what: string, file: string, holder: LockHolder): FolderLockError {
  const here = holder.host === hostname();
  const who = `pid ${holder.pid}${here ? '' : ` on host ${holder.host}`}${holder.command !== '' ? ` (${holder.command})` : ''}`;
  const since = holder.since !== '' ? `, since ${holder.since}` : '';
  const advice = here ? 'wait for it to end or stop it' : `if that process is gone, remove ${file}`;
  return new FolderLockError(file, holder, `${what} ${dir} is in use by ${who}${since}: ${advice}`);
}

/** Throws FolderLockError naming the holder if another live process holds the folder's lock. */
export function checkFolderUnlocked(dir: string, what = 'folder'): void {
  const holder = folderLockHolder(dir);
  if (holder !== null) throw lockedError(dir, what, lockFileOf(dir), holder);
}

/**
 * Removes a stale lock without removing a fresh one that another process took
 * meanwhile: the file is first renamed to a name of this process's own, and
 * put back if it turns out not to be the stale one read before.
 */
function removeStale(file: string, stale: LockHolder | null): void {
  const aside = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.stale`;
  try {
    renameSync(file, aside);
  } catch {
    return; // gone already: someone else cleaned it up
  }
  const moved = readHolder(aside);
  if (moved !== null && moved.token !== stale?.token) {
    try {
      linkSync(aside, file);
    } catch {
      // another lock was taken in the meantime; that one stands
    }
  }
  unlinkSync(aside);
}

const held = new Map<string, LockHolder>();
let hookedExit = false;
let hookedSignals = false;

function releaseFile(file: string, token: string): void {
  if (readHolder(file)?.token === token) {
    try {
      unlinkSync(file);
    } catch {
      // already removed
    }
  }
  held.delete(file);
}

function releaseAll(): void {
  for (const [file, holder] of held) releaseFile(file, holder.token);
}

/**
 * Held locks are released on exit, and (with `signals`) on SIGINT, SIGTERM
 * and SIGHUP when nothing else handles the signal (then the signal is raised
 * again so that it ends the program as it would have; a command that handles
 * it itself exits, and the exit releases the locks).
 */
function hook(signals: boolean): void {
  if (!hookedExit) {
    hookedExit = true;
    process.on('exit', releaseAll);
  }
  if (!signals || hookedSignals || !isMainThread) return;
  hookedSignals = true;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const onSignal = (): void => {
      if (process.listenerCount(signal) > 1) return;
      releaseAll();
      process.removeListener(signal, onSignal);
      process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
}

export interface LockOptions {
  /**
   * Release the lock on SIGINT, SIGTERM and SIGHUP (default true). A lock
   * held through long synchronous work leaves them alone: a handler would
   * only run after the work, so the signal would not stop it; unhandled, the
   * signal ends the process at once, and the lock it leaves is stale (its
   * pid is gone), which the next process takes over.
   */
  readonly releaseOnSignals?: boolean;
}

/**
 * Takes the folder's lock (creating the folder's parent if needed), or throws
 * FolderLockError naming the live holder: pid, host, command and since when.
 * `what` names the folder in that message ("run", "sweep").
 */
export function lockFolder(dir: string, what = 'folder', options: LockOptions = {}): FolderLock {
  const file = lockFileOf(dir);
  mkdirSync(dirname(file), { recursive: true });
  const holder: LockHolder = {
    pid: process.pid,
    host: hostname(),
    command: commandLine(),
    since: new Date().toISOString(),
    started: processStart(process.pid),
    token: randomBytes(12).toString('hex'),
  };
  const temp = `${file}.${process.pid}.${holder.token}.tmp`;
  writeFileSync(temp, `${JSON.stringify(holder)}\n`);
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        linkSync(temp, file);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const other = readHolder(file);
      if (!isStale(other) || attempt >= 3) {
        if (other !== null) throw lockedError(dir, what, file, other);
        throw new Error(`cannot take the lock ${file}: it keeps changing`);
      }
      removeStale(file, other);
    }
  } finally {
    unlinkSync(temp);
  }
  held.set(file, holder);
  hook(options.releaseOnSignals ?? true);
  return { file, release: () => releaseFile(file, holder.token) };
}

/** Blocks this thread for `ms` (a lock taken synchronously has no event loop to wait on). */
function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Takes the folder's lock, waiting while another live process, or another
 * thread of this one, holds it; `onWait` hears of the holder once, when there
 * is one to wait for. For synchronous work that one process should do while
 * the others wait for its result (building a cached file), rather than fail:
 * the lock is not released on signals (see LockOptions).
 */
export function lockFolderWaiting(
  dir: string,
  what: string,
  onWait: (holder: LockHolder, lockFile: string) => void = () => {},
  pollMs = 200,
): FolderLock {
  let told = false;
  for (;;) {
    try {
      return lockFolder(dir, what, { releaseOnSignals: false });
    } catch (error) {
      if (!(error instanceof FolderLockError)) throw error;
      if (!told) onWait(error.holder, error.lockFile);
      told = true;
      sleep(pollMs);
    }
  }
}

/**
 * The lock of a cached file's build (`what`: `endgame table`), so that
 * threads and processes that find no file wait for one of them to build it,
 * `note` hearing once whom they wait for: null when it cannot be taken (a
 * folder it cannot write), which only costs the wait.
 */
export function lockBuildWaiting(
  path: string,
  what: string,
  note: (message: string) => void,
): FolderLock | null {
  try {
    return lockFolderWaiting(path, what, (holder, lockFile) => {
      const here = holder.host === hostname();
      const who =
        here && holder.pid === process.pid
          ? 'another thread of this process'
          : `pid ${holder.pid}${here ? '' : ` on host ${holder.host}`}${holder.command !== '' ? ` (${holder.command})` : ''}`;
      note(`waiting for ${who} to build ${path} (its lock: ${lockFile})`);
    });
  } catch {
    return null;
  }
}
