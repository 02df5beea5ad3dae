/**
 * An agent that cannot give a legal move (an external engine that answers late,
 * answers garbage or dies) throws this from `act`; the game is scored as lost by
 * that agent and the message is kept with the game's record.
 */
export class ForfeitError extends Error {
  override name = 'ForfeitError';
}
