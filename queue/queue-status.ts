import type { Queue, QueueEvents, Worker } from 'bullmq';
import type { Redis } from 'ioredis';

/** While Redis stays unreachable, the status line comes again at most this often. */
export const DOWN_REPEAT_MS = 30_000;

/** `1m30s`, `42s`. */
export function durationText(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

/** The first line of an error's message (ioredis sometimes adds more). */
const firstLine = (err: Error): string => err.message.split('\n')[0] ?? String(err);

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/** Whether an error says the connection to Redis is gone (rather than a command or job failing). */
export function isConnectionError(err: Error): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  if (code !== undefined && CONNECTION_CODES.has(code)) return true;
  return /Connection is closed|ECONNREFUSED|ECONNRESET|ETIMEDOUT|Socket closed unexpectedly/.test(
    err.message,
  );
}

/**
 * What a process says while its Redis is unreachable: one line when the
 * connection is lost, the same at most every DOWN_REPEAT_MS while it stays
 * lost, and one when it is back; never a raw error per reconnect attempt.
 * Every BullMQ Queue, QueueEvents and Worker and every ioredis client of the
 * project reports to one through `watch` (without an 'error' listener they
 * print each failed reconnect as a multi-line stack trace).
 */
export class QueueStatus {
  private downSince: number | null = null;
  private lastSaid = 0;

  /**
   * @param where the queue as it may be shown (password hidden)
   * @param log where the lines go
   * @param now the clock (tests)
   */
  constructor(
    private readonly where: string,
    private readonly log: (line: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Listens for the errors of a BullMQ object or an ioredis client: a lost
   * connection is a status line as above, any other error one line of its own.
   */
  watch(source: Queue | QueueEvents | Worker | Redis): void {
    (source as { on(event: 'error', listener: (err: Error) => void): unknown }).on(
      'error',
      (err: Error) => {
        if (isConnectionError(err)) this.failed(err);
        else this.log(`queue error: ${firstLine(err)}`);
      },
    );
  }

  /** Whether Redis is known to be unreachable now. */
  get down(): boolean {
    return this.downSince !== null;
  }

  /** A connection error (or a command that failed for lack of a connection). */
  failed(err: Error): void {
    const now = this.now();
    if (this.downSince === null) {
      this.downSince = now;
      this.lastSaid = now;
      this.log(
        `the queue at ${this.where} is unreachable (${firstLine(err)}); waiting for it to come back`,
      );
    } else if (now - this.lastSaid >= DOWN_REPEAT_MS) {
      this.lastSaid = now;
      this.log(
        `the queue at ${this.where} is still unreachable after ${durationText(now - this.downSince)} (${firstLine(err)})`,
      );
    }
  }

  /** A command went through: if Redis was unreachable, say that it is back. */
  succeeded(): void {
    if (this.downSince === null) return;
    const lost = this.now() - this.downSince;
    this.downSince = null;
    this.log(`the queue at ${this.where} is back after ${durationText(lost)}`);
  }
}
