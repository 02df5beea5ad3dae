/**
 * The phases of a game that accuracy is reported by, in plies from the start:
 * the solver bench's 6-11, 12-17, 18-23 and 24+, and the 4-5 before them (the
 * benchmark samples from ply 4 on).
 */
export const PHASES = ['4-5', '6-11', '12-17', '18-23', '24+'] as const;
export type Phase = (typeof PHASES)[number];

/** First ply of each phase, in PHASES' order. */
const STARTS = [4, 6, 12, 18, 24] as const;

/** The first ply the benchmark samples. */
export const FIRST_PLY = STARTS[0];

/** The phase of a position `ply` plies into the game (ply >= FIRST_PLY). */
export function phaseOf(ply: number): Phase {
  if (!Number.isInteger(ply) || ply < FIRST_PLY) {
    throw new RangeError(`the benchmark's phases start at ply ${FIRST_PLY}, got ${ply}`);
  }
  let i = STARTS.length - 1;
  while ((STARTS[i] as number) > ply) i--;
  return PHASES[i] as Phase;
}
