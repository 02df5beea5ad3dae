import { describe, expect, it } from 'vitest';
import { featureNames, ObservationEncoder } from '../../env/gym/observation.ts';
import {
  applyAction,
  legalActions,
  outcome,
  type Player,
  type Position,
  playMove,
  positionFromState,
  type Rules,
} from '../../env/index.ts';
import { LOOKAHEAD_PROCEDURE } from '../../models/export/manifest.ts';
import { randomGamePositions } from './positions.ts';

/**
 * The lookahead features computed the way the manifest's LOOKAHEAD_PROCEDURE
 * tells a client to, with the engine's public API only: if this agrees with
 * the encoder, a client following the text gets the same observation.
 */
function documentedLookahead(p: Position, rules: Rules): number[] {
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
      out.push(...new Array<number>(22).fill(0));
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
    const pits = [
      ...c.pits.slice(m * 6, m * 6 + 6).map((s) => s / 12),
      ...c.pits.slice(o * 6, o * 6 + 6).map((s) => s / 12),
    ];
    out.push(...head, ...tail, ...pits, c.stores[m] / 24, c.stores[o] / 24);
  }
  return out;
}

describe('the manifest’s lookahead procedure', () => {
  it('names the 22 features per action in the encoder’s order', () => {
    const names = featureNames({ encoding: 'counts', lookahead: true }).slice(14, 36);
    const text = LOOKAHEAD_PROCEDURE.join(' ');
    for (const name of names)
      expect(text).toContain(name.replace('la0_', 'la{a}_').replace(/_\d+$/, '_k'));
  });

  it.each<[string, Rules]>([
    ['default rules', { captureSeedStays: false, leftoverTo: 'opponent' }],
    ['the other rule options', { captureSeedStays: true, leftoverTo: 'owner' }],
  ])('gives exactly the encoder’s features (%s)', (_, rules) => {
    const observation = { encoding: 'counts', lookahead: true } as const;
    const batch = randomGamePositions(400, observation, rules, 99);
    const encoder = new ObservationEncoder(observation, rules);
    const obs = new Float32Array(encoder.size);
    let endings = 0;
    for (let n = 0; n < batch.count; n++) {
      const p = positionFromState(batch.states.subarray(n * 16, n * 16 + 16));
      encoder.encode(p.toState(), obs, 0);
      const want = documentedLookahead(p, rules);
      const got = Array.from(obs.subarray(14));
      expect(got.length).toBe(want.length);
      want.forEach((w, i) => {
        expect(got[i], `feature ${i} of position ${n}`).toBe(Math.fround(w));
      });
      for (let a = 0; a < 6; a++) endings += got[a * 22 + 3] as number;
    }
    // The game-ending branch is exercised, not only the reply branch.
    expect(endings).toBeGreaterThan(0);
  });
});
