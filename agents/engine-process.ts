import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { killGroup, registerEngine, unregisterEngine } from './engine-registry.ts';
import { ForfeitError } from './forfeit.ts';

/** Lines of the engine's stderr kept for error messages. */
const STDERR_LINES = 5;
/** How long `close` waits for a polite exit (stdin closed, SIGTERM) before SIGKILL. */
const CLOSE_GRACE_MS = 500;

interface Pending {
  resolve(line: string): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/**
 * One running external engine: a shell command line started in its own process
 * group, spoken to one line at a time. A request that fails (no answer in time,
 * the engine died) rejects with a ForfeitError saying why; after a timeout the
 * engine is killed, since its late answer would be taken for the next one.
 */
export class EngineProcess {
  readonly command: string;
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #pid: number;
  #buffer = '';
  #pending: Pending | null = null;
  #stderr: string[] = [];
  #stderrPartial = '';
  #exit: string | null = null;
  readonly #exited: Promise<void>;

  constructor(command: string) {
    this.command = command;
    this.#child = spawn(command, { shell: true, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    this.#pid = this.#child.pid ?? -1;
    if (this.#pid > 0) registerEngine(this.#pid);
    this.#child.stdout.setEncoding('utf8');
    this.#child.stderr.setEncoding('utf8');
    this.#child.stdout.on('data', (chunk: string) => this.#onStdout(chunk));
    this.#child.stderr.on('data', (chunk: string) => this.#onStderr(chunk));
    // Writing to an engine that has died raises EPIPE here; its exit is reported instead.
    this.#child.stdin.on('error', () => {});
    this.#exited = new Promise((resolve) => {
      this.#child.once('error', (err) => {
        this.#onGone(`could not be started: ${err.message}`);
        resolve();
      });
      this.#child.once('exit', (code, signal) => {
        this.#onGone(signal !== null ? `was killed by ${signal}` : `exited with code ${code}`);
        resolve();
      });
    });
    // A detached child would otherwise keep the event loop waiting on it.
    this.#child.unref();
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
      this.#child.stdin.write(`${line}\n`);
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
      this.#child.stdin.end();
      if (this.#pid > 0) {
        try {
          process.kill(-this.#pid, 'SIGTERM');
        } catch {
          // already gone
        }
      }
      const grace = new Promise((resolve) => setTimeout(resolve, CLOSE_GRACE_MS).unref());
      await Promise.race([this.#exited, grace]);
    }
    this.kill();
  }

  #onStdout(chunk: string): void {
    this.#buffer += chunk;
    for (;;) {
      const newline = this.#buffer.indexOf('\n');
      if (newline < 0) break;
      const line = this.#buffer.slice(0, newline).replace(/\r$/, '');
      this.#buffer = this.#buffer.slice(newline + 1);
      const pending = this.#pending;
      // Lines written while nothing was asked are dropped (stdout is for answers only).
      if (pending === null) continue;
      this.#pending = null;
      clearTimeout(pending.timer);
      pending.resolve(line);
    }
  }

  #onStderr(chunk: string): void {
    const lines = (this.#stderrPartial + chunk).split('\n');
    this.#stderrPartial = lines.pop() ?? '';
    for (const line of lines) if (line.trim().length > 0) this.#stderr.push(line.trim());
    if (this.#stderr.length > STDERR_LINES)
      this.#stderr.splice(0, this.#stderr.length - STDERR_LINES);
  }

  #onGone(how: string): void {
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
    const tail = [...this.#stderr, this.#stderrPartial.trim()].filter((l) => l.length > 0);
    const detail = tail.length > 0 ? ` (stderr: ${tail.slice(-2).join(' | ')})` : '';
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
    this.#child.stdin.destroy();
    this.#child.stdout.destroy();
    this.#child.stderr.destroy();
  }
}
