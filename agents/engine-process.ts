import { type LaunchedEngine, launchEngine } from './engine-launch.ts';
import {
  armEngineCleanup,
  killGroup,
  registerEngine,
  unregisterEngine,
} from './engine-registry.ts';
import { ForfeitError } from './forfeit.ts';
import { type BoundedLine, LineSplitter } from './line-splitter.ts';
import { StderrTail } from './stderr-tail.ts';

/** Lines of the engine's stderr kept for error messages. */
const STDERR_LINES = 5;
/** Longest stdout line (bytes) taken from an engine: an answer is `{"action":N}`, so this is generous. */
export const MAX_ANSWER_LENGTH = 64 * 1024;
/** How long `close` waits for a polite exit (stdin closed, SIGTERM) before SIGKILL. */
const CLOSE_GRACE_MS = 500;

interface Pending {
  resolve(line: string): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/**
 * One running external engine: a shell command line started in its own process
 * group (with a watcher, see engine-launch.ts), spoken to one line at a time. A
 * request that fails (no answer in time, the engine died) rejects with a
 * ForfeitError saying why; after a timeout the engine is killed, since its late
 * answer would be taken for the next one.
 */
export class EngineProcess {
  readonly command: string;
  readonly #pipes: LaunchedEngine;
  readonly #pid: number;
  readonly #stdout = new LineSplitter(MAX_ANSWER_LENGTH, (line) => this.#onLine(line));
  #pending: Pending | null = null;
  readonly #stderr = new StderrTail(STDERR_LINES);
  #exit: string | null = null;
  readonly #exited: Promise<void>;

  constructor(command: string) {
    this.command = command;
    // The signal handlers go in before the engine exists: a signal that came
    // between the two would end this program by its default action, running nothing.
    armEngineCleanup();
    this.#pipes = launchEngine(command);
    this.#pid = this.#pipes.child.pid ?? -1;
    if (this.#pid > 0) registerEngine(this.#pid);
    this.#pipes.stderr.setEncoding('utf8');
    this.#pipes.stdout.on('data', (chunk: Buffer) => this.#onStdout(chunk));
    this.#pipes.stderr.on('data', (chunk: string) => this.#stderr.push(chunk));
    // Writing to an engine that has died raises EPIPE here; its exit is reported instead.
    this.#pipes.stdin.on('error', () => {});
    this.#exited = new Promise((resolve) => {
      this.#pipes.child.once('error', (err) => {
        this.#onGone(`could not be started: ${err.message}`);
        resolve();
      });
      this.#pipes.child.once('exit', (code, signal) => {
        this.#onGone(signal !== null ? `was killed by ${signal}` : `exited with code ${code}`);
        resolve();
      });
    });
    // An idle engine does not keep this program running; `close` refs it while it
    // waits for the exit (see there).
    this.#pipes.child.unref();
  }

  get alive(): boolean {
    return this.#exit === null;
  }

  /** Sends one line and resolves with the next line the engine writes. */
  request(line: string, timeoutMs: number): Promise<string> {
    if (this.#exit !== null) return Promise.reject(new ForfeitError(this.#gone()));
    if (this.#pending !== null) return Promise.reject(new Error('engine request already pending'));
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending = null;
        reject(new ForfeitError(`did not answer within ${timeoutMs} ms`));
        this.kill();
      }, timeoutMs);
      this.#pending = { resolve, reject, timer };
      this.#pipes.stdin.write(`${line}\n`);
    });
  }

  /** Stops the engine at once (the whole process group). */
  kill(): void {
    if (this.#pid > 0) {
      killGroup(this.#pid);
      unregisterEngine(this.#pid);
    }
    this.#release();
  }

  /** Closes the engine's stdin (a polite engine exits at end of input), then kills it. */
  async close(): Promise<void> {
    if (this.#exit === null) {
      this.#pipes.stdin.end();
      if (this.#pid > 0) {
        try {
          process.kill(-this.#pid, 'SIGTERM');
        } catch {
          // already gone
        }
      }
      // Both the child and the grace timer must be ref'd while this waits: with
      // everything unref'd, once the engine's pipes close the event loop can find
      // nothing left to do before the exit is reported, and Node ends the program
      // with code 13 (unsettled top-level await), losing every result.
      this.#pipes.child.ref();
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise((resolve) => {
        timer = setTimeout(resolve, CLOSE_GRACE_MS);
      });
      await Promise.race([this.#exited, grace]);
      clearTimeout(timer);
      this.#pipes.child.unref();
    }
    this.kill();
  }

  #onStdout(chunk: Buffer): void {
    this.#stdout.push(chunk);
    // An engine spamming one endless line is cut off as soon as it passes the limit.
    if (this.#stdout.pending > MAX_ANSWER_LENGTH) this.#misbehaved(this.#tooLong());
  }

  #onLine(line: BoundedLine): void {
    if (this.#exit !== null) return;
    if ('tooLong' in line) {
      this.#misbehaved(this.#tooLong());
      return;
    }
    const pending = this.#pending;
    // Lines written while nothing was asked are dropped (stdout is for answers only).
    if (pending === null) return;
    this.#pending = null;
    clearTimeout(pending.timer);
    pending.resolve(line.line);
  }

  #tooLong(): string {
    return `wrote a stdout line longer than ${MAX_ANSWER_LENGTH} bytes`;
  }

  /** Stops an engine that broke the protocol; a pending request fails with `reason`. */
  #misbehaved(reason: string): void {
    if (this.#exit !== null) return;
    this.#exit = reason;
    this.kill();
  }

  #onGone(how: string): void {
    // Whatever the engine left running in its group (a wrapper's children, the
    // watcher) goes with it.
    if (this.#pid > 0) killGroup(this.#pid);
    this.#pipes.watcherPipe.destroy();
    if (this.#exit !== null) return;
    this.#exit = how;
    if (this.#pid > 0) unregisterEngine(this.#pid);
    const pending = this.#pending;
    if (pending !== null) {
      this.#pending = null;
      clearTimeout(pending.timer);
      // Let any last stderr output arrive so that the message can show it.
      setImmediate(() => pending.reject(new ForfeitError(this.#gone())));
    }
  }

  #gone(): string {
    const tail = this.#stderr.last(2);
    const detail = tail.length > 0 ? ` (stderr: ${tail.join(' | ')})` : '';
    return `engine ${this.#exit ?? 'stopped'}${detail}`;
  }

  #release(): void {
    this.#exit ??= 'was stopped';
    const pending = this.#pending;
    if (pending !== null) {
      this.#pending = null;
      clearTimeout(pending.timer);
      pending.reject(new ForfeitError(this.#gone()));
    }
    this.#pipes.stdin.destroy();
    this.#pipes.stdout.destroy();
    this.#pipes.stderr.destroy();
    this.#pipes.watcherPipe.destroy();
  }
}
