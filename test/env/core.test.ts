import { describe, expect, it } from 'vitest';
import {
  core,
  DEFAULT_RULE_CODE,
  initialPosition,
  Random,
  type RuleCode,
  resolveRules,
  ruleCode,
} from '../../env/index.ts';
import { type RefState, refPlay } from './reference.ts';
import { randomPosition } from './samples.ts';

const { ACTIONS, STATE_SIZE, OK, GAME_OVER, EMPTY_PIT, ENDLESS_RELAY, DOES_NOT_FEED } = core;

const STATUS_OF_REASON = {
  'game-over': GAME_OVER,
  'empty-pit': EMPTY_PIT,
  'endless-relay': ENDLESS_RELAY,
  'does-not-feed': DOES_NOT_FEED,
} as const;

/** The rule code with the capture rule as given, the other options at their defaults. */
const captureCode = (stays: boolean): RuleCode =>
  ruleCode(resolveRules({ captureSeedStays: stays }));
const OWNER = ruleCode(resolveRules({ leftoverTo: 'owner' }));

function refStateOf(s: Uint8Array): RefState {
  return {
    pits: Array.from(s.subarray(0, 12)),
    stores: [s[core.STORE_0] as number, s[core.STORE_1] as number],
    toMove: s[core.TO_MOVE] as 0 | 1,
  };
}

function stateOf(r: RefState): number[] {
  return [...r.pits, r.stores[0], r.stores[1], r.toMove, 0];
}

/**
 * States of random positions with 14..31 seeds on the board, where endless relays
 * are most common (about 4 moves in 10 000), and no winning store.
 */
function samplePlayableStates(count: number, seed: number): Uint8Array[] {
  const rng = Random.fromSeed(seed);
  const out: Uint8Array[] = [];
  while (out.length < count) {
    const state = randomPosition(rng, 14 + rng.int(18)).toState();
    if (!core.hasWinningStore(state)) out.push(state);
  }
  return out;
}

describe('playInPlace against the naive reference', () => {
  // Brent's detector keeps one saved lap start; the reference keeps them all.
  // The relays found come back to their first lap start after 36 or more laps,
  // so Brent's saved start has moved on several times before the repeat is seen.
  it('finds exactly the same endless relays, and plays every other move the same', () => {
    const states = samplePlayableStates(12_000, 2024);
    const stats = new core.MoveStats();
    const copy = new Uint8Array(STATE_SIZE);
    let endless = 0;
    let played = 0;
    states.forEach((state, i) => {
      const captureSeedStays = i % 2 === 1;
      const ref = refStateOf(state);
      for (let a = 0; a < ACTIONS; a++) {
        copy.set(state);
        const status = core.playInPlace(copy, a, captureCode(captureSeedStays), stats);
        const expected = refPlay(ref, a, captureSeedStays);
        if (typeof expected === 'string') {
          expect(status, `${ref.pits}/${ref.toMove} action ${a}`).toBe(STATUS_OF_REASON[expected]);
          if (expected === 'endless-relay') endless++;
        } else {
          expect(status, `${ref.pits}/${ref.toMove} action ${a}`).toBe(OK);
          expect(Array.from(copy)).toEqual(stateOf(expected.state));
          expect([stats.laps, stats.seedsSown, stats.endPit, stats.captured]).toEqual([
            expected.laps,
            expected.seedsSown,
            expected.endPit,
            expected.captured,
          ]);
          expect(stats.capturedPit).toBe(expected.capturedFrom ?? -1);
          played++;
        }
      }
    });
    // The sample must actually exercise the detector on both sides.
    expect(endless).toBeGreaterThanOrEqual(10);
    expect(played).toBeGreaterThan(50_000);
  });
});

describe('playFrom and playInPlace', () => {
  it('play every lap size from every pit as the reference does (1..48 seeds)', () => {
    // One pit of n seeds and the other 48 - n spread over the board and a store:
    // every entry of the engine's lap table is used, relays and captures included.
    const rng = Random.fromSeed(77);
    const copy = new Uint8Array(STATE_SIZE);
    let checked = 0;
    for (let pit = 0; pit < 12; pit++) {
      for (let n = 1; n <= 48; n++) {
        for (const captureSeedStays of [false, true]) {
          const pits = new Array<number>(12).fill(0);
          pits[pit] = n;
          const rest = 48 - n;
          const onBoard = rng.int(Math.min(rest, 24) + 1);
          for (let k = 0; k < onBoard; k++) {
            const q = (pit + 1 + rng.int(11)) % 12;
            pits[q] = (pits[q] as number) + 1;
          }
          const toMove = pit < 6 ? 0 : 1;
          const ref: RefState = { pits, stores: [rest - onBoard, 0], toMove };
          const state = Uint8Array.from(stateOf(ref));
          copy.set(state);
          const status = core.playInPlace(copy, pit % 6, captureCode(captureSeedStays));
          const expected = refPlay(ref, pit % 6, captureSeedStays);
          if (typeof expected === 'string') {
            expect(status).toBe(STATUS_OF_REASON[expected]);
          } else {
            expect(status, `${pits}/${toMove}`).toBe(OK);
            expect(Array.from(copy)).toEqual(stateOf(expected.state));
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('leave the destination as it was after an illegal move', () => {
    const states = samplePlayableStates(3000, 11);
    const dst = new Uint8Array(3 * STATE_SIZE);
    let illegal = 0;
    for (const state of states) {
      for (let a = 0; a < ACTIONS; a++) {
        const inPlace = state.slice();
        const status = core.playInPlace(inPlace, a, DEFAULT_RULE_CODE);
        dst.fill(0xee);
        expect(core.playFrom(state, 0, dst, STATE_SIZE, a, DEFAULT_RULE_CODE)).toBe(status);
        if (status === OK) {
          expect(Array.from(dst.subarray(STATE_SIZE, 2 * STATE_SIZE))).toEqual(Array.from(inPlace));
        } else {
          illegal++;
          expect(Array.from(inPlace)).toEqual(Array.from(state));
        }
        // Only the state-sized window at the offset is written.
        const outside = [...dst.subarray(0, STATE_SIZE), ...dst.subarray(2 * STATE_SIZE)];
        expect(outside.every((b) => b === 0xee)).toBe(true);
        if (status !== OK) expect(dst.every((b) => b === 0xee)).toBe(true);
      }
    }
    expect(illegal).toBeGreaterThan(2000);
  });

  it('read a state at an offset of a larger buffer', () => {
    const states = samplePlayableStates(500, 12);
    const batch = new Uint8Array(states.length * STATE_SIZE);
    states.forEach((s, i) => {
      batch.set(s, i * STATE_SIZE);
    });
    const single = new Uint8Array(STATE_SIZE);
    const fromBatch = new Uint8Array(STATE_SIZE);
    states.forEach((state, i) => {
      for (let a = 0; a < ACTIONS; a++) {
        const status = core.playInto(state, single, a, captureCode(true));
        expect(core.playFrom(batch, i * STATE_SIZE, fromBatch, 0, a, captureCode(true))).toBe(
          status,
        );
        if (status === OK) expect(Array.from(fromBatch)).toEqual(Array.from(single));
      }
    });
  });
});

describe('expand', () => {
  it('plays every action into its child slot, with the same status as playInto', () => {
    const states = samplePlayableStates(3000, 5);
    const children = new Uint8Array(ACTIONS * STATE_SIZE);
    const status = new Uint8Array(ACTIONS);
    const single = new Uint8Array(STATE_SIZE);
    for (const state of states) {
      for (const captureSeedStays of [false, true]) {
        const before = Array.from(state);
        const mask = core.expand(state, captureCode(captureSeedStays), children, status);
        expect(Array.from(state)).toEqual(before);
        expect(mask).toBe(core.legalMask(state, captureCode(captureSeedStays)));
        for (let a = 0; a < ACTIONS; a++) {
          const st = core.playInto(state, single, a, captureCode(captureSeedStays));
          expect(status[a]).toBe(st);
          expect((mask >> a) & 1).toBe(st === OK ? 1 : 0);
          if (st === OK) {
            expect(Array.from(children.subarray(a * STATE_SIZE, (a + 1) * STATE_SIZE))).toEqual(
              Array.from(single),
            );
          }
        }
      }
    }
  });

  it('reports game over when a store holds 25', () => {
    const state = new Uint8Array(STATE_SIZE);
    state.set([4, 4, 4, 4, 4, 3, 0, 0, 0, 0, 0, 0, 25, 0, 0]);
    const status = new Uint8Array(ACTIONS);
    expect(
      core.expand(state, DEFAULT_RULE_CODE, new Uint8Array(ACTIONS * STATE_SIZE), status),
    ).toBe(0);
    expect(Array.from(status)).toEqual(new Array(ACTIONS).fill(GAME_OVER));
    expect(core.legalMask(state, DEFAULT_RULE_CODE)).toBe(0);
    expect(core.playInto(state, new Uint8Array(STATE_SIZE), 0, DEFAULT_RULE_CODE)).toBe(GAME_OVER);
  });
});

describe('finalScores', () => {
  const state = (values: number[]): Uint8Array => {
    const s = new Uint8Array(STATE_SIZE);
    s.set(values);
    return s;
  };

  it('is false while there is a legal move and no winning store', () => {
    const s = initialPosition().toState();
    const scores = [0, 0];
    expect(
      core.finalScores(s, core.legalMask(s, DEFAULT_RULE_CODE), DEFAULT_RULE_CODE, scores),
    ).toBe(false);
  });

  it('takes the stores as they are once one holds 25', () => {
    const scores = [0, 0];
    const s = state([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 25, 20, 1]);
    expect(core.finalScores(s, 0b100000, DEFAULT_RULE_CODE, scores)).toBe(true);
    expect(scores).toEqual([25, 20]);
  });

  it('sweeps the board to the last mover, or to each owner', () => {
    // Player 1 to move with no legal move: 3 seeds on player 0's side, 2 on player 1's.
    const s = state([1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 20, 23, 1]);
    const scores = new Int32Array(2);
    expect(core.finalScores(s, 0, DEFAULT_RULE_CODE, scores)).toBe(true);
    expect(Array.from(scores)).toEqual([25, 23]);
    expect(core.finalScores(s, 0, OWNER, scores)).toBe(true);
    expect(Array.from(scores)).toEqual([23, 25]);
    s[core.TO_MOVE] = 0;
    expect(core.finalScores(s, 0, DEFAULT_RULE_CODE, scores)).toBe(true);
    expect(Array.from(scores)).toEqual([20, 28]);
  });
});

describe('small helpers', () => {
  it('POPCOUNT and nthAction enumerate the set bits of every 6-bit mask', () => {
    for (let mask = 0; mask < 64; mask++) {
      const bits = [0, 1, 2, 3, 4, 5].filter((a) => mask & (1 << a));
      expect(core.POPCOUNT[mask]).toBe(bits.length);
      expect(bits.map((_, k) => core.nthAction(mask, k))).toEqual(bits);
    }
  });

  it("occupiedMask has bit a set exactly when the mover's pit of action a holds seeds", () => {
    for (const state of samplePlayableStates(2000, 13)) {
      const base = (state[core.TO_MOVE] as number) * 6;
      let expected = 0;
      for (let a = 0; a < ACTIONS; a++) if ((state[base + a] as number) > 0) expected |= 1 << a;
      expect(core.occupiedMask(state)).toBe(expected);
    }
  });

  it('nthAction is -1 past the last set bit', () => {
    expect(core.nthAction(0, 0)).toBe(-1);
    expect(core.nthAction(0b101, 2)).toBe(-1);
    expect(core.nthAction(0b111111, 6)).toBe(-1);
  });

  it('setInitial writes the start over any state', () => {
    const s = new Uint8Array(STATE_SIZE).fill(9);
    expect(Array.from(core.setInitial(s))).toEqual(Array.from(initialPosition().toState()));
  });

  it('hasWinningStore looks at both stores', () => {
    const s = new Uint8Array(STATE_SIZE);
    s[core.STORE_1] = 24;
    expect(core.hasWinningStore(s)).toBe(false);
    s[core.STORE_1] = 25;
    expect(core.hasWinningStore(s)).toBe(true);
    s[core.STORE_1] = 0;
    s[core.STORE_0] = 30;
    expect(core.hasWinningStore(s)).toBe(true);
  });
});
