import { describe, expect, it } from 'vitest';
import {
  type Encoding,
  featureNames,
  lookaheadBlockSize,
  ObservationEncoder,
} from '../../env/gym/observation.ts';
import {
  applyAction,
  DEFAULT_RULES,
  legalActions,
  OTHER_RULES,
  outcome,
  type Player,
  type Position,
  playMove,
  positionFromState,
  type Rules,
} from '../../env/index.ts';
import { lookaheadProcedure } from '../../models/export/manifest.ts';
import { randomGamePositions } from './positions.ts';

/**
 * The lookahead features computed the way the manifest's lookahead procedure
 * tells a client to, with the engine's public API only: if this agrees with
 * the encoder, a client following the text gets the same observation.
 */
function documentedLookahead(p: Position, rules: Rules, pitEncoding: Encoding): number[] {
  const m = p.toMove;
  const o: Player = m === 0 ? 1 : 0;
  const out: number[] = [];
  const finalDifference = (x: Position): number => {
    const result = outcome(x, rules);
    if (result === null) throw new Error('not finished');
    return result.scores[m] - result.scores[o];
  };
  const legal = outcome(p, rules) === null ? legalActions(p, rules) : [];
  for (let a = 0; a < 6; a++) {
    if (!legal.includes(a)) {
      out.push(...new Array<number>(lookaheadBlockSize(pitEncoding)).fill(0));
      continue;
    }
    const { position: c, report } = playMove(p, a, rules);
    const head = [1, (c.stores[m] - p.stores[m]) / 24, Math.min(1, Math.log2(1 + report.laps) / 8)];
    const replies = outcome(c, rules) === null ? legalActions(c, rules) : [];
    let tail: number[];
    if (replies.length === 0) {
      const d = finalDifference(c);
      tail = [1, Math.sign(d), 0, 0, d / 24];
    } else {
      let oppCapture = 0;
      let canWin = 0;
      let value2 = Number.POSITIVE_INFINITY;
      for (const r of replies) {
        const after = applyAction(c, r, rules);
        oppCapture = Math.max(oppCapture, after.stores[o] - c.stores[o]);
        const finished = outcome(after, rules) !== null;
        const d = finished ? finalDifference(after) : after.stores[m] - after.stores[o];
        if (finished && d < 0) canWin = 1;
        value2 = Math.min(value2, d);
      }
      tail = [0, 0, oppCapture / 24, canWin, value2 / 24];
    }
    // counts: seeds / 12; onehot: the bucket of exactly b (b = 0..11) or 12 and more; thermometer: seeds >= b (b = 1..12).
    const pit = (seeds: number): number[] =>
      pitEncoding === 'counts'
        ? [seeds / 12]
        : pitEncoding === 'onehot'
          ? Array.from({ length: 13 }, (_, b) => ((b < 12 ? seeds === b : seeds >= 12) ? 1 : 0))
          : Array.from({ length: 12 }, (_, b) => (seeds >= b + 1 ? 1 : 0));
    const pits = [
      ...c.pits.slice(m * 6, m * 6 + 6).flatMap(pit),
      ...c.pits.slice(o * 6, o * 6 + 6).flatMap(pit),
    ];
    out.push(...head, ...tail, ...pits, c.stores[m] / 24, c.stores[o] / 24);
  }
  return out;
}

describe('the manifest’s lookahead procedure', () => {
  it.each<Encoding>(['counts', 'onehot', 'thermometer'])(
    'names every feature of an action in the encoder’s order (boards after the moves: %s)',
    (lookaheadEncoding) => {
      const size = lookaheadBlockSize(lookaheadEncoding);
      const names = featureNames({ lookahead: true, lookaheadEncoding }).slice(14, 14 + size);
      const text = lookaheadProcedure(lookaheadEncoding).join(' ');
      expect(text).toContain(`there are ${size} features`);
      for (const name of new Set(
        names.map((n) => n.replace('la0_', 'la{a}_').replace(/pit_\d+/, 'pit_k')),
      )) {
        // A bucket's name is given with its range (eq_b, ge_b) or as it is (ge_12).
        const general = name.replace(/_(eq|ge)_\d+$/, '_$1_b');
        expect(text.includes(name) || text.includes(general), name).toBe(true);
      }
    },
  );

  it.each<[string, Rules, Encoding]>([
    ['default rules', DEFAULT_RULES, 'counts'],
    ['the other rule options', OTHER_RULES, 'counts'],
    ['default rules', DEFAULT_RULES, 'thermometer'],
    ['the other rule options', OTHER_RULES, 'onehot'],
  ])('gives exactly the encoder’s features (%s, boards after the moves: %s)', (_, rules, pits) => {
    const observation = { encoding: 'counts', lookahead: true, lookaheadEncoding: pits } as const;
    const block = lookaheadBlockSize(pits);
    const batch = randomGamePositions(400, observation, rules, 99);
    const encoder = new ObservationEncoder(observation, rules);
    const obs = new Float32Array(encoder.size);
    let endings = 0;
    for (let n = 0; n < batch.count; n++) {
      const p = positionFromState(batch.states.subarray(n * 16, n * 16 + 16));
      encoder.encode(p.toState(), obs, 0);
      const want = documentedLookahead(p, rules, pits);
      const got = Array.from(obs.subarray(14));
      expect(got.length).toBe(want.length);
      want.forEach((w, i) => {
        expect(got[i], `feature ${i} of position ${n}`).toBe(Math.fround(w));
      });
      for (let a = 0; a < 6; a++) endings += got[a * block + 3] as number;
    }
    // The game-ending branch is exercised, not only the reply branch.
    expect(endings).toBeGreaterThan(0);
  });
});
