import { describe, expect, it } from 'vitest';
import {
  describeFeatures,
  featureNames,
  ObservationConfigError,
  ObservationEncoder,
  observationConfigSchema,
  observationSize,
} from '../../../env/gym/index.ts';
import {
  formatPosition,
  legalActions,
  type Position,
  parsePosition,
  playMove,
  Random,
  type Rules,
  resolveRules,
} from '../../../env/index.ts';
import { randomGame, randomPosition } from '../samples.ts';
import { type Encoding, referenceObservation } from './reference-features.ts';

const ENCODINGS: Encoding[] = ['counts', 'onehot', 'thermometer'];
const RULE_SETS: Rules[] = [
  resolveRules({}),
  resolveRules({ captureSeedStays: true }),
  resolveRules({ leftoverTo: 'owner' }),
  resolveRules({ captureSeedStays: true, leftoverTo: 'owner' }),
];

/** Positions from random games (all plies, the final ones included) and random boards. */
function samplePositions(seed: number, rules: Rules, games: number, boards: number): Position[] {
  const out: Position[] = [];
  for (let g = 0; g < games; g++) out.push(...randomGame(seed * 1000 + g, rules).positions);
  const rng = Random.fromSeed(seed);
  for (let b = 0; b < boards; b++) out.push(randomPosition(rng));
  // Few seeds left: games about to end, feeding, sweeps.
  for (let b = 0; b < boards; b++) out.push(randomPosition(rng, 1 + rng.int(8)));
  return out;
}

function maskOf(pos: Position, rules: Rules): number {
  return legalActions(pos, rules).reduce((m, a) => m | (1 << a), 0);
}

describe('observation sizes and names', () => {
  it.each([
    ['counts', false, 14, 'counts'],
    ['onehot', false, 158, 'counts'],
    ['thermometer', false, 146, 'counts'],
    ['counts', true, 146, 'counts'],
    ['onehot', true, 290, 'counts'],
    ['thermometer', true, 278, 'counts'],
    ['thermometer', true, 1070, 'thermometer'],
    ['counts', true, 1010, 'onehot'],
  ] as const)(
    '%s with lookahead %s has %i features (lookahead pits: %s)',
    (encoding, lookahead, size, lookaheadEncoding) => {
      const cfg = { encoding, lookahead, lookaheadEncoding };
      expect(observationSize(cfg)).toBe(size);
      expect(new ObservationEncoder(cfg).size).toBe(size);
      const names = featureNames(cfg);
      expect(names).toHaveLength(size);
      expect(new Set(names).size).toBe(size);
      for (const f of describeFeatures(cfg)) {
        expect(f.scaling.length).toBeGreaterThan(0);
        expect(f.low).toBeLessThan(f.high);
      }
    },
  );

  it('names features as documented', () => {
    const names = featureNames({ encoding: 'counts', lookahead: true });
    expect(names.slice(0, 14)).toEqual([
      ...[0, 1, 2, 3, 4, 5].map((k) => `own_pit_${k}`),
      ...[0, 1, 2, 3, 4, 5].map((k) => `opp_pit_${k}`),
      'own_store',
      'opp_store',
    ]);
    expect(names.slice(14 + 3 * 22, 14 + 3 * 22 + 8)).toEqual([
      'la3_legal',
      'la3_capture',
      'la3_laps',
      'la3_ends',
      'la3_result',
      'la3_opp_capture',
      'la3_opp_can_win',
      'la3_value2',
    ]);
    expect(names.at(-1)).toBe('la5_opp_store');
    expect(featureNames({ encoding: 'onehot' }).slice(0, 13)).toEqual([
      ...Array.from({ length: 12 }, (_, b) => `own_pit_0_eq_${b}`),
      'own_pit_0_ge_12',
    ]);
    expect(featureNames({ encoding: 'thermometer' })[11]).toBe('own_pit_0_ge_12');
    // The lookahead's pits in the thermometer: 12 levels a pit, the two stores after them.
    const thermometer = featureNames({ lookahead: true, lookaheadEncoding: 'thermometer' });
    expect(thermometer.slice(14 + 8, 14 + 8 + 13)).toEqual([
      ...Array.from({ length: 12 }, (_, b) => `la0_own_pit_0_ge_${b + 1}`),
      'la0_own_pit_1_ge_1',
    ]);
    expect(thermometer.slice(14 + 152, 14 + 155)).toEqual([
      'la0_own_store',
      'la0_opp_store',
      'la1_legal',
    ]);
  });

  it('defaults to counts without lookahead', () => {
    expect(observationSize()).toBe(14);
    expect(observationConfigSchema.parse({})).toEqual({
      encoding: 'counts',
      lookahead: false,
      lookaheadEncoding: 'counts',
    });
  });

  it('rejects bad configs with a message naming the field', () => {
    expect(() => observationSize({ encoding: 'binary' as 'counts' })).toThrow(
      ObservationConfigError,
    );
    expect(() => observationSize({ encoding: 'binary' as 'counts' })).toThrow(/encoding/);
    expect(() => new ObservationEncoder({ lookahead: 1 as unknown as boolean })).toThrow(
      /lookahead/,
    );
    expect(() => observationSize({ extra: true } as object)).toThrow(/extra/);
  });
});

describe('ObservationEncoder', () => {
  it.each(RULE_SETS.map((r, i) => [i, r] as const))(
    'equals the slow reference on sampled positions (rules %i), all encodings',
    (index, rules) => {
      const positions = samplePositions(11 + index, rules, 12, 80);
      const seen = { ends: 0, wins: 0, losses: 0, oppCanWin: 0, oppCapture: 0, value2Negative: 0 };
      const encoders = ENCODINGS.flatMap((encoding) => [
        new ObservationEncoder({ encoding, lookahead: false }, rules),
        ...ENCODINGS.map(
          (lookaheadEncoding) =>
            new ObservationEncoder({ encoding, lookahead: true, lookaheadEncoding }, rules),
        ),
      ]);
      for (const pos of positions) {
        const state = pos.toState();
        for (const enc of encoders) {
          const out = new Float32Array(enc.size);
          const mask = enc.encode(state, out, 0);
          expect(mask).toBe(maskOf(pos, rules));
          const expected = referenceObservation(
            pos,
            rules,
            enc.config.encoding,
            enc.config.lookahead,
            enc.config.lookaheadEncoding,
          );
          expect(Array.from(out)).toEqual(Array.from(expected));
        }
        const la = referenceObservation(pos, rules, 'counts', true).subarray(14);
        for (let a = 0; a < 6; a++) {
          const f = la.subarray(a * 22, a * 22 + 22);
          if (f[3] === 1) seen.ends++;
          if (f[4] === 1) seen.wins++;
          if (f[4] === -1) seen.losses++;
          if (f[6] === 1) seen.oppCanWin++;
          if ((f[5] as number) > 0) seen.oppCapture++;
          if ((f[7] as number) < 0) seen.value2Negative++;
        }
      }
      // The sample exercises every branch of the lookahead. A move that ends the game
      // loses only when leftovers go to their owners and the opponent keeps seeds it
      // cannot move (endless relays): rare, so only rule set 2's sample is required to have one.
      if (index !== 2) seen.losses = 1;
      for (const [what, count] of Object.entries(seen)) expect(count, what).toBeGreaterThan(0);
    },
  );

  it('equals the slow reference bit for bit on 2700 more random positions, one encoder reused', () => {
    // One encoder per rule set encodes every position in turn, so a buffer left
    // over from the previous position (children, replies, statistics) would show.
    let compared = 0;
    RULE_SETS.forEach((rules, index) => {
      const positions = samplePositions(101 + index, rules, 15, 150);
      // Each encoding of the board with a different encoding of the lookahead's boards.
      const encoders = ENCODINGS.map(
        (encoding, i) =>
          new ObservationEncoder(
            { encoding, lookahead: true, lookaheadEncoding: ENCODINGS[(i + 2) % 3] as Encoding },
            rules,
          ),
      );
      for (const pos of positions) {
        const state = pos.toState();
        for (const enc of encoders) {
          const out = new Float32Array(enc.size);
          expect(enc.encode(state, out, 0)).toBe(maskOf(pos, rules));
          const expected = referenceObservation(
            pos,
            rules,
            enc.config.encoding,
            true,
            enc.config.lookaheadEncoding,
          );
          expect(Array.from(out), formatPosition(pos)).toEqual(Array.from(expected));
          compared++;
        }
      }
    });
    expect(compared).toBeGreaterThan(8000);
  });

  it('writes only its own slice and allocates its result into the caller buffer', () => {
    const enc = new ObservationEncoder({ encoding: 'onehot', lookahead: true });
    const out = new Float32Array(enc.size * 3).fill(7);
    const pos = parsePosition('0,3,0,9,1,5/2,0,4,0,13,1/6-4/1');
    enc.encode(pos.toState(), out, enc.size);
    expect(out.subarray(0, enc.size).every((v) => v === 7)).toBe(true);
    expect(out.subarray(2 * enc.size).every((v) => v === 7)).toBe(true);
    const alone = new Float32Array(enc.size);
    enc.encode(pos.toState(), alone, 0);
    expect(Array.from(out.subarray(enc.size, 2 * enc.size))).toEqual(Array.from(alone));
  });

  it('leaves children and per-action facts that match playing each move', () => {
    const rules = resolveRules({});
    const enc = new ObservationEncoder({}, rules);
    for (const pos of randomGame(5, rules).positions.slice(0, -1)) {
      const mask = enc.encode(pos.toState(), new Float32Array(enc.size), 0);
      for (const a of legalActions(pos, rules)) {
        expect(mask & (1 << a)).not.toBe(0);
        const child = Array.from(enc.children.subarray(a * 16, a * 16 + 16));
        const played = samplePlay(pos, a, rules);
        expect(child).toEqual(Array.from(played.state));
        expect(enc.laps[a]).toBe(played.laps);
        expect(enc.captured[a]).toBe(played.captured);
      }
    }
  });

  it('gives mask 0 and all-zero lookahead once the game is over', () => {
    const finished = parsePosition('1,0,0,0,0,0/0,0,0,0,0,2/25-20/0');
    const enc = new ObservationEncoder({ lookahead: true });
    const out = new Float32Array(enc.size).fill(9);
    expect(enc.encode(finished.toState(), out, 0)).toBe(0);
    expect(out.subarray(14).every((v) => v === 0)).toBe(true);
    expect(out[12]).toBe(Math.fround(25 / 24));
  });
});

function samplePlay(pos: Position, action: number, rules: Rules) {
  const { position, report } = playMove(pos, action, rules);
  return { state: position.toState(), laps: report.laps, captured: report.captured };
}
