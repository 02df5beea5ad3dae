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
