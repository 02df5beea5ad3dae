import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyAction,
  core,
  DEFAULT_RULE_CODE,
  everyRules,
  formatPosition,
  IllegalActionError,
  legalActions,
  outcome,
  type Position,
  parsePosition,
  playMove,
  positionFromState,
  Random,
  type Rules,
  ruleCode,
} from '../../env/index.ts';
import { type RefState, refLegal, refOutcome, refPlay } from './reference.ts';
import { randomGame } from './samples.ts';

// Each property runs over complete random games: fast-check draws the seed and
// the rule options, the game itself is played with the engine's seeded Random.
const gameSeed = fc.integer({ min: 0, max: 2 ** 31 - 1 });
const anyRules = fc.constantFrom(...everyRules());
const RUNS = { numRuns: 120 };

function total(pos: Position): number {
  return pos.pits.reduce((a, b) => a + b, 0) + pos.stores[0] + pos.stores[1];
}

function snapshot(pos: Position): number[] {
  return [...pos.pits, ...pos.stores, pos.toMove, ...pos.toState()];
}

function accepts(pos: Position, action: number, rules: Rules): boolean {
  try {
    applyAction(pos, action, rules);
    return true;
  } catch (error) {
    if (error instanceof IllegalActionError) return false;
    throw error;
  }
}

function refStateOf(pos: Position): RefState {
  return { pits: Array.from(pos.pits), stores: [pos.stores[0], pos.stores[1]], toMove: pos.toMove };
}

describe('over random games', () => {
  it('conserves the 48 seeds', () => {
    fc.assert(
      fc.property(gameSeed, anyRules, (seed, rules) => {
        for (const pos of randomGame(seed, rules).positions) expect(total(pos)).toBe(48);
      }),
      RUNS,
    );
  });

  it('never changes a position passed to applyAction, legalActions or outcome', () => {
    fc.assert(
      fc.property(gameSeed, anyRules, (seed, rules) => {
        for (const pos of randomGame(seed, rules).positions) {
          const before = snapshot(pos);
          legalActions(pos, rules);
          outcome(pos, rules);
          for (let a = 0; a < 6; a++) accepts(pos, a, rules);
          expect(snapshot(pos)).toEqual(before);
        }
      }),
      RUNS,
    );
  });

  it('has a legal action in every unfinished position, and none in a finished one', () => {
    fc.assert(
      fc.property(gameSeed, anyRules, (seed, rules) => {
        const { positions } = randomGame(seed, rules);
        for (const pos of positions) {
          expect(legalActions(pos, rules).length > 0).toBe(outcome(pos, rules) === null);
        }
        const last = positions[positions.length - 1] as Position;
        const result = outcome(last, rules);
        expect(result).not.toBeNull();
        if (result !== null) {
          const [s0, s1] = result.scores;
          // A store of 25 ends the game at once, seeds still on the board; otherwise all are swept.
          if (Math.max(s0, s1) < 25) expect(s0 + s1).toBe(48);
          expect(result.winner).toBe(s0 > s1 ? 0 : s1 > s0 ? 1 : null);
        }
      }),
      RUNS,
    );
  });

  it('round-trips the notation', () => {
    fc.assert(
      fc.property(gameSeed, (seed) => {
        for (const pos of randomGame(seed).positions) {
          const text = formatPosition(pos);
          expect(parsePosition(text).equals(pos)).toBe(true);
          expect(formatPosition(parsePosition(text))).toBe(text);
        }
      }),
      RUNS,
    );
  });

  it('lists as legal exactly the actions applyAction accepts', () => {
    fc.assert(
      fc.property(gameSeed, anyRules, (seed, rules) => {
        for (const pos of randomGame(seed, rules).positions) {
          const accepted = [0, 1, 2, 3, 4, 5].filter((a) => accepts(pos, a, rules));
          expect(legalActions(pos, rules)).toEqual(accepted);
        }
      }),
      RUNS,
    );
  });

  it('agrees with the fast path (expand, playInPlace, finalScores)', () => {
    const children = new Uint8Array(6 * core.STATE_SIZE);
    const status = new Uint8Array(6);
    const copy = new Uint8Array(core.STATE_SIZE);
    const scores = [0, 0];
    fc.assert(
      fc.property(gameSeed, anyRules, (seed, rules) => {
        for (const pos of randomGame(seed, rules).positions) {
          const state = pos.toState();
          const code = ruleCode(rules);
          const mask = core.expand(state, code, children, status);
          const legal = legalActions(pos, rules);
          expect([0, 1, 2, 3, 4, 5].filter((a) => mask & (1 << a))).toEqual(legal);
          for (const a of legal) {
            const next = applyAction(pos, a, rules).toState();
            expect(children.subarray(a * core.STATE_SIZE, (a + 1) * core.STATE_SIZE)).toEqual(next);
            copy.set(state);
            expect(core.playInPlace(copy, a, code)).toBe(core.OK);
            expect(copy).toEqual(next);
          }
          const finished = core.finalScores(state, mask, code, scores);
          const result = outcome(pos, rules);
          expect(finished).toBe(result !== null);
          if (result !== null) expect(scores).toEqual(result.scores);
        }
      }),
      RUNS,
    );
  });

  it('agrees with the naive reference implementation move by move', () => {
    fc.assert(
      fc.property(gameSeed, anyRules, (seed, rules) => {
        const { positions, actions } = randomGame(seed, rules);
        positions.forEach((pos, i) => {
          const ref = refStateOf(pos);
          expect(legalActions(pos, rules)).toEqual(refLegal(ref, rules.captureSeedStays));
          expect(outcome(pos, rules)?.scores ?? null).toEqual(
            refOutcome(ref, rules.captureSeedStays, rules.leftoverTo),
          );
          const action = actions[i];
          if (action === undefined) return;
          const expected = refPlay(ref, action, rules.captureSeedStays);
          if (typeof expected === 'string')
            throw new Error(`reference rejects ${action}: ${expected}`);
          const { position: next, report } = playMove(pos, action, rules);
          expect(refStateOf(next)).toEqual(expected.state);
          expect(report.laps).toBe(expected.laps);
          expect(report.capturedFrom).toBe(expected.capturedFrom);
        });
      }),
      RUNS,
    );
  });
});

describe('long relays', () => {
  // Legal moves of over a thousand laps, found by searching random positions with
  // the fast path; the reference sows them one seed at a time to confirm the count.
  it.each([
    ['1,2,1,3,1,2/1,2,1,2,1,2/13-16/0', 3, 1058],
    ['2,1,3,1,2,1/2,1,2,1,2,1/15-14/0', 2, 1058],
    ['1,0,2,3,2,2/1,2,1,2,1,2/9-20/0', 4, 1057],
    ['3,2,1,2,1,2/1,2,3,0,6,3/1-21/1', 5, 1048],
    ['1,2,1,0,2,5/2,0,1,2,1,2/10-19/1', 0, 1030],
  ])('%s action %i is played to the end (%i laps)', (notation, action, laps) => {
    const pos = parsePosition(notation);
    expect(legalActions(pos)).toContain(action);
    const { position: next, report } = playMove(pos, action);
    const expected = refPlay(refStateOf(pos), action, false);
    if (typeof expected === 'string') throw new Error(`reference rejects the move: ${expected}`);
    expect(expected.laps).toBe(laps);
    expect(report.laps).toBe(laps);
    expect(refStateOf(next)).toEqual(expected.state);
  });

  it('are played whenever they occur in random positions (no lap cap)', () => {
    // About one legal move in 10 000 takes over 100 laps; the search runs on the
    // fast path and each find is checked through the public API and the reference.
    fc.assert(
      fc.property(gameSeed, (seed) => {
        const rng = Random.fromSeed(seed);
        const stats = new core.MoveStats();
        const state = new Uint8Array(core.STATE_SIZE);
        const copy = new Uint8Array(core.STATE_SIZE);
        let found = 0;
        for (let tries = 0; tries < 200_000 && found < 3; tries++) {
          state.fill(0);
          const onBoard = 14 + rng.int(18);
          for (let k = 0; k < onBoard; k++) {
            const pit = rng.int(12);
            state[pit] = (state[pit] as number) + 1;
          }
          const store0 = rng.int(48 - onBoard + 1);
          state[core.STORE_0] = store0;
          state[core.STORE_1] = 48 - onBoard - store0;
          state[core.TO_MOVE] = rng.int(2);
          if (core.hasWinningStore(state)) continue;
          for (let a = 0; a < 6; a++) {
            copy.set(state);
            if (
              core.playInPlace(copy, a, DEFAULT_RULE_CODE, stats) !== core.OK ||
              stats.laps <= 100
            )
              continue;
            const pos = positionFromState(state);
            const expected = refPlay(refStateOf(pos), a, false);
            if (typeof expected === 'string') throw new Error(`reference rejects: ${expected}`);
            expect(legalActions(pos)).toContain(a);
            const { position: next, report } = playMove(pos, a);
            expect(report.laps).toBe(expected.laps);
            expect(refStateOf(next)).toEqual(expected.state);
            found++;
          }
        }
        expect(found).toBeGreaterThan(0);
      }),
      { numRuns: 3 },
    );
  });
});
