import { describe, expect, it } from 'vitest';
import {
  applyAction,
  initialPosition,
  legalActions,
  type Position,
  perft,
  position,
  type RulesInput,
} from '../../env/index.ts';
import { type RefState, refLegal, refPlay } from './reference.ts';

/**
 * Leaf counts at depths 1..6 from the start. They pin the engine's behaviour
 * while it is optimised: any change to them is a change of rules.
 * leftoverTo only decides who gets the seeds left at the end, never which moves
 * are legal, so its counts are the default ones.
 */
const PINNED: [string, RulesInput, number[]][] = [
  ['default (Russ)', {}, [6, 28, 132, 624, 2870, 13041]],
  ['captureSeedStays=true', { captureSeedStays: true }, [6, 28, 130, 604, 2779, 12715]],
  ['leftoverTo=owner', { leftoverTo: 'owner' }, [6, 28, 132, 624, 2870, 13041]],
];

/** The same count through the public API only, as plainly as possible. */
function naivePerft(pos: Position, depth: number, rules: RulesInput): number {
  if (depth === 0) return 1;
  let leaves = 0;
  for (const action of legalActions(pos, rules)) {
    leaves += naivePerft(applyAction(pos, action, rules), depth - 1, rules);
  }
  return leaves;
}

/** And through the test's independent reference implementation of the rules. */
function referencePerft(state: RefState, depth: number, captureSeedStays: boolean): number {
  if (depth === 0) return 1;
  let leaves = 0;
  for (const action of refLegal(state, captureSeedStays)) {
    const move = refPlay(state, action, captureSeedStays);
    if (typeof move === 'string') throw new Error(`reference: legal action ${action} is ${move}`);
    leaves += referencePerft(move.state, depth - 1, captureSeedStays);
  }
  return leaves;
}

const START: RefState = { pits: new Array(12).fill(4), stores: [0, 0], toMove: 0 };

describe('perft from the start', () => {
  it.each(PINNED)('%s: the engine matches the pinned table', (_name, rules, counts) => {
    expect(counts.map((_, i) => perft(initialPosition(), i + 1, rules))).toEqual(counts);
  });

  it.each(PINNED)('%s: a naive walk over the public API agrees', (_name, rules, counts) => {
    expect(counts.map((_, i) => naivePerft(initialPosition(), i + 1, rules))).toEqual(counts);
  });

  it.each(PINNED)('%s: the reference implementation agrees', (_name, rules, counts) => {
    const captureSeedStays = rules.captureSeedStays ?? false;
    expect(counts.map((_, i) => referencePerft(START, i + 1, captureSeedStays))).toEqual(counts);
  });

  it('counts the position itself at depth 0, and nothing past the end of a game', () => {
    expect(perft(initialPosition(), 0)).toBe(1);
    // Player 0 to move, no move feeds player 1's empty row: the game is over.
    const over = position({
      pits: [1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0],
      stores: [23, 23],
      toMove: 0,
    });
    expect(perft(over, 0)).toBe(1);
    expect(perft(over, 1)).toBe(0);
    expect(perft(over, 3)).toBe(0);
  });
});
