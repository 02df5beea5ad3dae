import { core, type Rules } from '../../env/index.ts';
import { type ExactValues, moveValuesOf } from '../review.ts';
import type { StateSolution } from '../solver.ts';
import type { OpeningBook } from './book.ts';

const { ACTIONS } = core;

/**
 * What the book knows of a state, as the solver would report it (every
 * move's bounds and proof depth, the moves that keep an exact value), or
 * null when the state is not in the book. Nodes 0: nothing was searched.
 */
export function bookSolution(book: OpeningBook, state: Uint8Array): StateSolution | null {
  const started = performance.now();
  const entry = book.lookup(state);
  if (entry === null) return null;
  const moveLo = new Int8Array(ACTIONS);
  const moveHi = new Int8Array(ACTIONS);
  const moveDepth = new Uint8Array(ACTIONS);
  let legalMask = 0;
  let bestMask = 0;
  let complete = true;
  for (const m of entry.moves) {
    legalMask |= 1 << m.action;
    moveLo[m.action] = m.lo;
    moveHi[m.action] = m.hi;
    moveDepth[m.action] = m.depth;
    if (m.lo !== m.hi) complete = false;
    if (entry.lo === entry.hi && m.lo === entry.lo) bestMask |= 1 << m.action;
  }
  return {
    lo: entry.lo,
    hi: entry.hi,
    legalMask,
    moveLo,
    moveHi,
    moveDepth,
    bestMask,
    depth: entry.depth,
    nodes: 0,
    elapsedMs: performance.now() - started,
    complete,
    budgetSpent: false,
  };
}

/**
 * An oracle that answers from the book where the position is in it (the
 * book of the game's rules `book` gives, null for none), else asks `rest`.
 */
export function bookFirst(
  book: (rules: Rules) => OpeningBook | null,
  rest: ExactValues,
): ExactValues {
  return (position, rules) => {
    const found = book(rules);
    const result = found === null ? null : bookSolution(found, position.stateView);
    return result === null ? rest(position, rules) : moveValuesOf(position, result);
  };
}
