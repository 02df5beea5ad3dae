import '../setup/builtin-algorithms.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { Random } from '../../env/index.ts';
import { loadBackend, type Tf } from '../../models/backend.ts';
import { NUM_ACTIONS } from '../../models/mlp-runner.ts';
import { buildConfig } from '../../train/config/build.ts';
import { PositionLog } from '../../train/expert-iteration/position-log.ts';
import { untrainedSelfPlay } from './self-play-options.ts';

let tf: Tf;
beforeAll(async () => {
  tf = (await loadBackend('cpu')).tf;
});

/** Mean entropy (nats) of the policy targets of one shard's 240 searched moves, seed 12. */
function meanTargetEntropy(completedQScale: number): number {
  const selfPlay = untrainedSelfPlay(tf, 3, { completedQScale });
  const rng = Random.fromSeed(12);
  selfPlay.reset(rng);
  const log = new PositionLog();
  selfPlay.collect(240, log, rng);
  const { policies, count } = log.positions();
  let total = 0;
  for (let r = 0; r < count; r++) {
    for (let a = 0; a < NUM_ACTIONS; a++) {
      const p = policies[r * NUM_ACTIONS + a] as number;
      if (p > 0) total -= p * Math.log(p);
    }
  }
  return total / count;
}

describe('completedQScale', () => {
  it("softens the completed-Q targets as it falls (more of the network's prior kept)", () => {
    const soft = meanTargetEntropy(0.02);
    const usual = meanTargetEntropy(0.1);
    const sharp = meanTargetEntropy(0.5);
    expect(soft).toBeGreaterThan(usual + 0.05);
    expect(usual).toBeGreaterThan(sharp + 0.05);
  });

  it('is refused at 0 or above 10, naming its flag', () => {
    const bad = (completedQScale: number) => () =>
      buildConfig([{ algorithm: 'expert-iteration', expertIteration: { completedQScale } }]);
    expect(bad(0)).toThrow(/expertIteration.completedQScale \(--completed-q-scale\): Too small/);
    expect(bad(11)).toThrow(/expertIteration.completedQScale \(--completed-q-scale\): Too big/);
  });

  it('is refused with visit-count targets, which it would not change', () => {
    const build = (completedQScale: number) =>
      buildConfig([
        {
          algorithm: 'expert-iteration',
          expertIteration: { policyTarget: 'visits', completedQScale },
        },
      ]);
    expect(() => build(0.05)).toThrow(
      /expertIteration.completedQScale \(--completed-q-scale\): is 0.05, but policyTarget is visits: it scales the completed-q target only/,
    );
    const config = build(0.1);
    expect(config).toMatchObject({ expertIteration: { policyTarget: 'visits' } });
  });
});
