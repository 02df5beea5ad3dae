/**
 * Game values for the player to move, as small integers: the solver's search
 * works on these, the public API turns them into words.
 *
 * A position's value is known as a pair of proven bounds `lo <= hi`. `lo` is
 * what the mover can force (a strategy that ends the game, every line, with at
 * least that result); `hi` is what the opponent can hold the mover to (a
 * strategy that ends the game with at most that). Endless play has no result
 * under the rules, so neither bound ever relies on it: where `lo === hi` the
 * value is exact however endless play were scored.
 */
export const LOSS = -1;
export const DRAW = 0;
export const WIN = 1;
export type Value = -1 | 0 | 1;

/** A value in words: `unknown` where the bounds have not met. */
export type GameValue = 'win' | 'draw' | 'loss' | 'unknown';
/** A proven bound in words. */
export type BoundValue = 'win' | 'draw' | 'loss';

const WORDS: readonly BoundValue[] = ['loss', 'draw', 'win'];

/** `loss`, `draw` or `win` for -1, 0, 1. */
export function valueWord(value: number): BoundValue {
  return WORDS[value + 1] as BoundValue;
}

/** The value in words: exact when the bounds agree, else `unknown`. */
export function gameValue(lo: number, hi: number): GameValue {
  return lo === hi ? valueWord(lo) : 'unknown';
}

/** The sign of a store difference, as a value. */
export function signValue(margin: number): Value {
  return margin > 0 ? WIN : margin < 0 ? LOSS : DRAW;
}
