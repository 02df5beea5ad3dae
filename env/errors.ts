/** Why an action cannot be played, as named in the rules. */
export const ILLEGAL_REASONS = [
  'not-an-action',
  'game-over',
  'empty-pit',
  'endless-relay',
  'does-not-feed',
] as const;
export type IllegalReason = (typeof ILLEGAL_REASONS)[number];

export class IllegalActionError extends Error {
  override name = 'IllegalActionError';
  constructor(
    readonly action: unknown,
    readonly reason: IllegalReason,
    readonly legal: readonly number[],
  ) {
    super(
      `illegal action ${String(action)}: ${reason.replaceAll('-', ' ')}; legal actions: ${
        legal.length > 0 ? legal.join(', ') : 'none (the game is over)'
      }`,
    );
  }
}

/** A malformed position; `field` names what is wrong (pits, stores, toMove, text). */
export class PositionError extends Error {
  override name = 'PositionError';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`invalid ${field}: ${message}`);
  }
}
