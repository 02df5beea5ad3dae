import { describe, expect, it } from 'vitest';
import {
  applyAction,
  IllegalActionError,
  type IllegalReason,
  illegalReason,
  initialPosition,
  isTerminal,
  legalActions,
  outcome,
  type Position,
  parsePosition,
  playMove,
  position,
  RulesError,
  type RulesInput,
  traceMove,
} from '../../env/index.ts';
import { refRelay, refSowLap } from './reference.ts';

/** A position written as in docs/rules.md: pits 0..5 | 6..11, stores, player to move. */
function board(pits: number[], stores: [number, number], toMove: 0 | 1): Position {
  return position({ pits, stores, toMove });
}

/** The whole observable board, for comparing a result in one assertion. */
function whole(pos: Position): { pits: number[]; stores: number[]; toMove: number } {
  return { pits: Array.from(pos.pits), stores: Array.from(pos.stores), toMove: pos.toMove };
}

function thrown(fn: () => unknown): IllegalActionError {
  try {
    fn();
  } catch (error) {
    if (error instanceof IllegalActionError) return error;
    throw error;
  }
  throw new Error('expected an IllegalActionError, nothing was thrown');
}

interface Scenario {
  rule: string;
  before: Position;
  action: number;
  rules?: RulesInput;
  after: { pits: number[]; stores: number[]; toMove: number };
  report: {
    laps: number;
    seedsSown: number;
    endPit: number;
    captured: number;
    capturedFrom: number | null;
  };
}

// Every expected board below was worked out by hand, lap by lap, from docs/rules.md;
// the comments give the laps (pits in order 0..5 | 6..11).
const scenarios: Scenario[] = [
  {
    // lift 4 -> 5,6 (relay at 6) | lift 6 -> 7,8 (relay) | lift 8 -> 9,10,11 (relay at 11)
    // | lift 11 -> 0,1: pit 1 was empty, own row, facing pit 10 holds 1: capture 1 + 1.
    rule: 'relay across both rows, back into the own row',
    before: board([0, 0, 0, 0, 2, 0, 1, 0, 2, 0, 0, 1], [20, 22], 0),
    action: 4,
    after: { pits: [1, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 0], stores: [22, 22], toMove: 1 },
    report: { laps: 4, seedsSown: 9, endPit: 1, captured: 2, capturedFrom: 10 },
  },
  {
    // lift 2 (12) -> 3..11, 0, 1, skips 2, 3: pit 3 now 11 (relay)
    // | lift 3 (11) -> 4..11, 0, 1, 2: pit 2 (emptied by the lift) was empty: capture pit 9 (2) + 1.
    rule: 'a 12+ seed lap skips its origin',
    before: board([0, 0, 12, 9, 0, 0, 0, 0, 0, 0, 0, 0], [13, 14], 0),
    action: 2,
    after: { pits: [2, 2, 0, 0, 2, 2, 2, 2, 2, 0, 2, 2], stores: [16, 14], toMove: 1 },
    report: { laps: 2, seedsSown: 23, endPit: 2, captured: 3, capturedFrom: 9 },
  },
  {
    // lift 0 (23) -> two rounds of 1..11, then 1: pit 1 now 11 (relay)
    // | lift 1 (11) -> 2..11, 0: pit 0 was empty: capture pit 11 (3) + 1.
    rule: 'a 23+ seed lap goes round twice',
    before: board([23, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [9, 8], 0),
    action: 0,
    after: { pits: [0, 0, 3, 3, 3, 3, 3, 3, 3, 3, 3, 0], stores: [13, 8], toMove: 1 },
    report: { laps: 2, seedsSown: 34, endPit: 0, captured: 4, capturedFrom: 11 },
  },
  {
    // lift 0 (22) -> exactly two rounds of 1..11, ending in pit 11 (now 3: relay)
    // | lift 11 (3) -> 0, 1, 2 (now 9: relay) | lift 2 (9) -> 3..11: pit 11 was empty,
    // in the opponent's row: no capture.
    rule: 'a lap of exactly 22 seeds ends just before its origin',
    before: board([22, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0, 1], [10, 9], 0),
    action: 0,
    after: { pits: [1, 3, 0, 3, 3, 3, 3, 3, 3, 3, 3, 1], stores: [10, 9], toMove: 1 },
    report: { laps: 3, seedsSown: 34, endPit: 11, captured: 0, capturedFrom: null },
  },
  {
    // lift 2 -> 3: empty, own row, facing pit 8 holds 3: 3 + the capturing seed.
    rule: 'capture takes the capturing seed too (captureSeedStays=false)',
    before: board([2, 0, 1, 0, 0, 0, 0, 0, 3, 0, 0, 1], [20, 21], 0),
    action: 2,
    after: { pits: [2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], stores: [24, 21], toMove: 1 },
    report: { laps: 1, seedsSown: 1, endPit: 3, captured: 4, capturedFrom: 8 },
  },
  {
    rule: 'capture leaves the capturing seed (captureSeedStays=true)',
    before: board([2, 0, 1, 0, 0, 0, 0, 0, 3, 0, 0, 1], [20, 21], 0),
    action: 2,
    rules: { captureSeedStays: true },
    after: { pits: [2, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1], stores: [23, 21], toMove: 1 },
    report: { laps: 1, seedsSown: 1, endPit: 3, captured: 3, capturedFrom: 8 },
  },
  {
    // Player 1: lift 7 -> 8, 9: pit 9 was empty, own row, facing pit 2 holds 4: 4 + 1.
    rule: 'capture by player 1 from player 0',
    before: board([1, 0, 4, 0, 0, 0, 0, 2, 0, 0, 0, 1], [21, 19], 1),
    action: 1,
    after: { pits: [1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1], stores: [21, 24], toMove: 0 },
    report: { laps: 1, seedsSown: 2, endPit: 9, captured: 5, capturedFrom: 2 },
  },
  {
    // lift 2 -> 3: empty, own row, but facing pit 8 is empty: nothing captured.
    rule: 'facing an empty pit captures nothing',
    before: board([2, 0, 1, 0, 0, 0, 0, 0, 0, 3, 0, 1], [20, 21], 0),
    action: 2,
    after: { pits: [2, 0, 0, 1, 0, 0, 0, 0, 0, 3, 0, 1], stores: [20, 21], toMove: 1 },
    report: { laps: 1, seedsSown: 1, endPit: 3, captured: 0, capturedFrom: null },
  },
  {
    // lift 5 -> 6, 7: pit 7 was empty, in the opponent's row: no capture although
    // the facing pit 4 holds 3.
    rule: "ending in the opponent's row captures nothing (player 0)",
    before: board([0, 0, 0, 0, 3, 2, 1, 0, 0, 0, 0, 0], [21, 21], 0),
    action: 5,
    after: { pits: [0, 0, 0, 0, 3, 0, 2, 1, 0, 0, 0, 0], stores: [21, 21], toMove: 1 },
    report: { laps: 1, seedsSown: 2, endPit: 7, captured: 0, capturedFrom: null },
  },
  {
    // Player 1: lift 11 -> 0, 1: pit 1 was empty, player 0's row: facing pit 10 keeps its 3.
    rule: "ending in the opponent's row captures nothing (player 1)",
    before: board([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 2], [21, 21], 1),
    action: 5,
    after: { pits: [2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0], stores: [21, 21], toMove: 0 },
    report: { laps: 1, seedsSown: 2, endPit: 1, captured: 0, capturedFrom: null },
  },
  {
    // Player 1's row is empty; lift 5 -> 6, 7, 8 puts seeds there: legal.
    rule: 'feeding: a move that feeds an empty row is legal',
    before: board([0, 0, 0, 1, 0, 3, 0, 0, 0, 0, 0, 0], [22, 22], 0),
    action: 5,
    after: { pits: [0, 0, 0, 1, 0, 0, 1, 1, 1, 0, 0, 0], stores: [22, 22], toMove: 1 },
    report: { laps: 1, seedsSown: 3, endPit: 8, captured: 0, capturedFrom: null },
  },
  {
    // lift 2 -> 3 captures pit 8 (3) + 1: 25 seeds.
    rule: 'win at 25',
    before: board([2, 0, 1, 0, 0, 0, 0, 0, 3, 0, 0, 1], [21, 20], 0),
    action: 2,
    after: { pits: [2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], stores: [25, 20], toMove: 1 },
    report: { laps: 1, seedsSown: 1, endPit: 3, captured: 4, capturedFrom: 8 },
  },
  {
    // lift 2 -> 3 captures pit 8 (3) + 1: the board is empty at 24-24.
    rule: 'draw at 24-24',
    before: board([0, 0, 1, 0, 0, 0, 0, 0, 3, 0, 0, 0], [20, 24], 0),
    action: 2,
    after: { pits: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], stores: [24, 24], toMove: 1 },
    report: { laps: 1, seedsSown: 1, endPit: 3, captured: 4, capturedFrom: 8 },
  },
];

describe('one action, whole board (scenarios)', () => {
  it.each(scenarios.map((s) => [s.rule, s] as const))('%s', (_rule, s) => {
    const { position: next, report } = playMove(s.before, s.action, s.rules);
    expect(whole(next)).toEqual(s.after);
    expect(report).toEqual({
      player: s.before.toMove,
      action: s.action,
      pit: s.before.toMove * 6 + s.action,
      ...s.report,
    });
    expect(applyAction(s.before, s.action, s.rules).equals(next)).toBe(true);
    expect(legalActions(s.before, s.rules)).toContain(s.action);
  });
});

describe('the worked example of docs/rules.md', () => {
  const start = initialPosition();

  it('plays action 0 from the start to the documented board and report', () => {
    const { position: next, report } = playMove(start, 0);
    expect(whole(next)).toEqual({
      pits: [2, 7, 0, 6, 1, 6, 6, 6, 0, 0, 6, 6],
      stores: [2, 0],
      toMove: 1,
    });
    expect(report).toEqual({
      player: 0,
      action: 0,
      pit: 0,
      laps: 5,
      seedsSown: 4 + 5 + 5 + 6 + 6,
      endPit: 2,
      captured: 2,
      capturedFrom: 9,
    });
  });

  it('traces the five documented laps', () => {
    expect(traceMove(start, 0)).toEqual([
      { from: 0, seeds: 4, end: 4, pitsAfter: [0, 5, 5, 5, 5, 4, 4, 4, 4, 4, 4, 4] },
      { from: 4, seeds: 5, end: 9, pitsAfter: [0, 5, 5, 5, 0, 5, 5, 5, 5, 5, 4, 4] },
      { from: 9, seeds: 5, end: 2, pitsAfter: [1, 6, 6, 5, 0, 5, 5, 5, 5, 0, 5, 5] },
      { from: 2, seeds: 6, end: 8, pitsAfter: [1, 6, 0, 6, 1, 6, 6, 6, 6, 0, 5, 5] },
      { from: 8, seeds: 6, end: 2, pitsAfter: [2, 7, 1, 6, 1, 6, 6, 6, 0, 1, 6, 6] },
    ]);
  });

  it('does not change the start position', () => {
    playMove(start, 0);
    expect(whole(start)).toEqual({ pits: new Array(12).fill(4), stores: [0, 0], toMove: 0 });
  });
});

describe('endless relay', () => {
  // Found by searching random positions; lifting pit 5 here relays forever.
  const endless = parsePosition('1,4,3,2,1,6/1,0,2,4,0,2/14-8/0');

  it('is illegal, and the other moves are not', () => {
    expect(thrown(() => applyAction(endless, 5)).reason).toBe('endless-relay');
    expect(illegalReason(endless, 5)).toBe('endless-relay');
    expect(legalActions(endless)).toEqual([0, 1, 2, 3, 4]);
    expect(() => traceMove(endless, 5)).toThrow(/endless relay/);
  });

  it('really repeats: 36 laps sown one seed at a time bring back the first lap start', () => {
    const pits = Array.from(endless.pits);
    let from = 5;
    for (let lap = 0; lap < 36; lap++) {
      const end = refSowLap(pits, from);
      expect(pits[end], `lap ${lap + 1} must not end the move`).toBeGreaterThan(1);
      from = end;
    }
    expect(from).toBe(5);
    expect(pits).toEqual(Array.from(endless.pits));
    expect(refRelay(endless.pits, 5)).toEqual({ endless: true, firstSeen: 0, cycle: 36 });
  });
});

describe('feeding', () => {
  // Player 1's row is empty. Action 3: 3 -> 4, empty, facing pit 7 empty: nothing fed.
  const hungry = board([0, 0, 0, 1, 0, 3, 0, 0, 0, 0, 0, 0], [22, 22], 0);

  it('a move that leaves the opponent without seeds is illegal (does-not-feed)', () => {
    expect(legalActions(hungry)).toEqual([5]);
    const error = thrown(() => applyAction(hungry, 3));
    expect(error.reason).toBe('does-not-feed');
    expect(error.legal).toEqual([5]);
    expect(error.message).toMatch(/legal actions: 5$/);
  });
});

describe('end of the game', () => {
  it('ends at once when a store reaches 25, before any sweep', () => {
    // The 'win at 25' scenario: player 1 still has a seed to play in pit 11.
    const won = applyAction(board([2, 0, 1, 0, 0, 0, 0, 0, 3, 0, 0, 1], [21, 20], 0), 2);
    expect(outcome(won)).toEqual({ scores: [25, 20], winner: 0 });
    expect(outcome(won, { leftoverTo: 'owner' })).toEqual({ scores: [25, 20], winner: 0 });
    expect(legalActions(won)).toEqual([]);
    expect(isTerminal(won)).toBe(true);
    expect(thrown(() => applyAction(won, 5)).reason).toBe('game-over');
  });

  it('is a draw at 24-24', () => {
    // The 'draw at 24-24' scenario: the capture empties the board.
    const drawn = applyAction(board([0, 0, 1, 0, 0, 0, 0, 0, 3, 0, 0, 0], [20, 24], 0), 2);
    expect(outcome(drawn)).toEqual({ scores: [24, 24], winner: null });
    expect(legalActions(drawn)).toEqual([]);
  });

  it('can end 24-24 after a sweep', () => {
    // Player 1 cannot move; player 0, the last mover, takes the 4 seeds left.
    const swept = board([0, 3, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0], [20, 24], 1);
    expect(outcome(swept)).toEqual({ scores: [24, 24], winner: null });
  });

  it('goes on while the mover has a legal move', () => {
    expect(outcome(initialPosition())).toBeNull();
    expect(isTerminal(initialPosition())).toBe(false);
  });

  // Player 0 to move, player 1's row empty, and neither move feeds
  // (0 -> 1 and 4 -> 5 both end in empty pits facing empty pits): no legal move.
  const stuck = board([1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0], [23, 23], 0);

  it('sweeps the leftovers to the opponent of the player who cannot move (default)', () => {
    expect(legalActions(stuck)).toEqual([]);
    expect(outcome(stuck)).toEqual({ scores: [23, 25], winner: 1 });
    expect(outcome(stuck, { leftoverTo: 'opponent' })).toEqual({ scores: [23, 25], winner: 1 });
  });

  it('sweeps each side to its owner with leftoverTo=owner', () => {
    expect(outcome(stuck, { leftoverTo: 'owner' })).toEqual({ scores: [25, 23], winner: 0 });
  });

  it('gives the last mover the board when the mover has an empty row', () => {
    const empty = board([3, 0, 2, 0, 0, 1, 0, 0, 0, 0, 0, 0], [20, 22], 1);
    expect(outcome(empty)).toEqual({ scores: [26, 22], winner: 0 });
    expect(outcome(empty, { leftoverTo: 'owner' })).toEqual({ scores: [26, 22], winner: 0 });
  });

  it('has every action report game-over once finished', () => {
    for (const action of [0, 1, 2, 3, 4, 5]) {
      expect(illegalReason(stuck, action)).toBe('game-over');
      expect(thrown(() => applyAction(stuck, action)).reason).toBe('game-over');
    }
    expect(thrown(() => applyAction(stuck, 0)).message).toMatch(/none \(the game is over\)/);
  });
});

describe('illegal actions', () => {
  const afterExample = applyAction(initialPosition(), 0); // player 1: pits 8 and 9 are empty

  it.each<[string, Position, number, IllegalReason]>([
    ['empty pit', afterExample, 2, 'empty-pit'],
    ['empty pit', afterExample, 3, 'empty-pit'],
    ['not an action: 7', afterExample, 7, 'not-an-action'],
    ['not an action: 6', afterExample, 6, 'not-an-action'],
    ['not an action: -1', afterExample, -1, 'not-an-action'],
    ['not an action: 1.5', afterExample, 1.5, 'not-an-action'],
    ['not an action: NaN', afterExample, Number.NaN, 'not-an-action'],
  ])(
    '%s (action %s) is rejected with its reason and the legal actions',
    (_name, pos, action, reason) => {
      const error = thrown(() => applyAction(pos, action));
      expect(error.reason).toBe(reason);
      expect(error.legal).toEqual([0, 1, 4, 5]);
      expect(error.message).toContain(reason.replaceAll('-', ' '));
      expect(error.message).toContain('legal actions: 0, 1, 4, 5');
      expect(illegalReason(pos, action)).toBe(reason);
    },
  );

  it('rejects a non-number action', () => {
    const error = thrown(() => applyAction(afterExample, '1' as unknown as number));
    expect(error.reason).toBe('not-an-action');
  });

  it('leaves the position untouched after a rejected action', () => {
    const before = whole(afterExample);
    thrown(() => applyAction(afterExample, 2));
    expect(whole(afterExample)).toEqual(before);
  });

  it('has traceMove reject what applyAction rejects', () => {
    expect(() => traceMove(afterExample, 2)).toThrow(IllegalActionError);
    expect(() => traceMove(afterExample, 9)).toThrow(/not an action/);
  });
});

describe('rules argument', () => {
  const start = initialPosition();

  it.each<[string, unknown, RegExp]>([
    ['an unknown key', { captureSeedStay: true }, /captureSeedStay/],
    ['a wrong type', { captureSeedStays: 'yes' }, /captureSeedStays/],
    ['a wrong value', { leftoverTo: 'nobody' }, /leftoverTo/],
    ['not an object', 'owner', /rules must be an object/],
  ])('rejects %s with a clear error', (_name, rules, message) => {
    for (const call of [
      () => legalActions(start, rules as RulesInput),
      () => applyAction(start, 0, rules as RulesInput),
      () => outcome(start, rules as RulesInput),
    ]) {
      expect(call).toThrow(RulesError);
      expect(call).toThrow(message);
    }
  });
});
