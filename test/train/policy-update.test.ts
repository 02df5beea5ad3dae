import { beforeAll, describe, expect, it } from 'vitest';
import { Random } from '../../env/random.ts';
import { loadBackend, type Tf } from '../../models/backend.ts';
import { NUM_ACTIONS } from '../../models/mlp-runner.ts';
import { createPolicyValueModel } from '../../models/policy-value-model.ts';
import { PolicyUpdater, type UpdateSettings } from '../../train/ppo/policy-update.ts';
import { RolloutBuffer } from '../../train/ppo/rollout-buffer.ts';

let tf: Tf;
beforeAll(async () => {
  tf = (await loadBackend('auto')).tf;
});

const OBS = 12;
const settings: UpdateSettings = {
  algorithm: 'ppo',
  epochs: 1,
  minibatchSize: 128,
  clip: 0.2,
  valueCoef: 0.5,
  entropyCoef: 0.0,
  maxGradNorm: 5,
};

/** A fixed batch where action (row mod 6) is good and the return is +1 or -1 by a visible feature. */
function fixedBatch(n: number): RolloutBuffer {
  const rng = Random.fromSeed(3);
  const buffer = new RolloutBuffer(n, OBS);
  const obs = new Float32Array(OBS);
  const mask = new Uint8Array(NUM_ACTIONS).fill(1);
  for (let k = 0; k < n; k++) {
    for (let i = 0; i < OBS; i++) obs[i] = rng.next();
    const good = k % 6;
    obs[good] = 2;
    const action = rng.int(6);
    buffer.add(obs, 0, mask, action, Math.log(1 / 6), 0);
    buffer.advantages[k] = action === good ? 1 : -0.2;
    buffer.returns[k] = (obs[0] as number) > 0.5 ? 1 : -1;
  }
  return buffer;
}

describe('PolicyUpdater', () => {
  it('leaks no tensors across update steps (after a burn-in step)', async () => {
    const model = createPolicyValueModel(tf, OBS, { hidden: [16], activation: 'relu' }, 1);
    const updater = new PolicyUpdater(tf, model, tf.train.adam(1e-3), settings, OBS);
    const buffer = fixedBatch(256);
    const rng = Random.fromSeed(1);
    await updater.update(buffer, rng);
    const before = tf.memory().numTensors;
    await updater.update(buffer, rng);
    await updater.update(buffer, rng);
    expect(tf.memory().numTensors).toBe(before);
    model.dispose();
  });

  it('counts only the rows it trained on: a short tail of the rollout is left out', async () => {
    const model = createPolicyValueModel(tf, OBS, { hidden: [16], activation: 'relu' }, 3);
    const updater = new PolicyUpdater(
      tf,
      model,
      tf.train.adam(1e-3),
      { ...settings, epochs: 3 },
      OBS,
    );
    // 300 rows in minibatches of 128: 128 + 128 trained, a tail of 44 (< 64) dropped, each epoch.
    const stats = await updater.update(fixedBatch(300), Random.fromSeed(4));
    expect(stats.samples).toBe(3 * 256);
    model.dispose();
  });

  it.each(['ppo', 'reinforce'] as const)(
    '%s: the loss falls when fitting a fixed batch',
    async (algorithm) => {
      const model = createPolicyValueModel(tf, OBS, { hidden: [32], activation: 'relu' }, 2);
      // Many small epochs so that PPO's clipping does not stop progress.
      const updater = new PolicyUpdater(
        tf,
        model,
        tf.train.adam(3e-3),
        { ...settings, algorithm },
        OBS,
      );
      const rng = Random.fromSeed(2);
      const buffer = fixedBatch(512);
      const first = await updater.update(buffer, rng);
      let last = first;
      for (let i = 0; i < 30; i++) {
        // Refresh the behaviour log-probabilities so each round is a fresh PPO problem.
        last = await updater.update(buffer, rng);
      }
      expect(last.valueLoss).toBeLessThan(first.valueLoss * 0.7);
      expect(last.policyLoss).toBeLessThan(first.policyLoss);
      model.dispose();
    },
  );
});
