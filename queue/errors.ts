/**
 * Errors of the queue that report a user's mistake or a fault outside the
 * program (a bad sweep file, a job or policy that fails validation, a corrupt
 * stored run, an unreachable Redis), so the command line prints them as one
 * line. Kept apart from the modules that load BullMQ and ioredis, so that
 * recognising them costs the command line nothing at start-up.
 */
export class QueueError extends Error {
  override name = 'QueueError';
}

/** The Redis URL is malformed, or the server cannot be reached or refuses us. */
export class QueueConnectionError extends QueueError {
  override name = 'QueueConnectionError';
}

/**
 * A job failed on the workers after its attempts (a worker refused it, say an
 * `ext:` agent without --allow-ext, or it kept failing): the reason is the
 * worker's, reported on the coordinator as one line.
 */
export class QueueJobError extends QueueError {
  override name = 'QueueJobError';
}

/**
 * Nobody served the queue for the coordinator's timeout (`--queue-timeout`):
 * no job ran or finished for that long. The message says what was waiting and
 * how many workers were connected.
 */
export class QueueTimeoutError extends QueueError {
  override name = 'QueueTimeoutError';
}

/**
 * The coordinator was stopped (Ctrl-C) while it waited: the message says what
 * was done and how to go on; the jobs stay queued. `exitCode` is the shell's
 * code for the signal.
 */
export class QueueStoppedError extends QueueError {
  override name = 'QueueStoppedError';
  constructor(
    message: string,
    readonly exitCode = 130,
  ) {
    super(message);
  }
}
