import { beforeAll, describe, expect, it } from 'vitest';
import { Random } from '../../env/random.ts';
import { loadBackend, type Tf } from '../../models/backend.ts';
import { MlpRunner, NUM_ACTIONS } from '../../models/mlp-runner.ts';
import {
  createPolicyValueModel,
  extractMlpWeights,
  type NetworkConfig,
} from '../../models/policy-value-model.ts';
import { estimateAdvantages } from '../../train/ppo/advantages.ts';
import { PolicyUpdater, type UpdateSettings } from '../../train/ppo/policy-update.ts';
import { RolloutBuffer } from '../../train/ppo/rollout-buffer.ts';

let tf: Tf;
beforeAll(async () => {
  tf = (await loadBackend('auto')).tf;
});

const OBS = 10;
const NETWORK: NetworkConfig = { hidden: [8], activation: 'tanh' };
const CLIP = 0.2;

function settings(overrides: Partial<UpdateSettings> = {}): UpdateSettings {
  return {
    algorithm: 'ppo',
    epochs: 1,
    minibatchSize: 64,
    clip: CLIP,
    valueCoef: 0.5,
    entropyCoef: 0,
    maxGradNorm: 1000,
    ...overrides,
  };
}

/** The policy's log-probabilities and values by a plain forward pass (no tfjs). */
function reference(
  model: ReturnType<typeof createPolicyValueModel>,
  obs: Float32Array,
  masks: Uint8Array,
  n: number,
) {
  const runner = new MlpRunner(extractMlpWeights(model, NETWORK));
  const logits = new Float32Array(n * NUM_ACTIONS);
  const values = new Float32Array(n);
  runner.forward(obs, n, logits, values);
  const logProbs: number[][] = [];
  for (let k = 0; k < n; k++) {
    const legal = [...Array(NUM_ACTIONS).keys()].filter((a) => masks[k * NUM_ACTIONS + a] === 1);
    const max = Math.max(...legal.map((a) => logits[k * NUM_ACTIONS + a] as number));
    const sum = legal.reduce(
      (s, a) => s + Math.exp((logits[k * NUM_ACTIONS + a] as number) - max),
      0,
    );
    logProbs.push(
      [...Array(NUM_ACTIONS).keys()].map((a) =>
        legal.includes(a)
          ? (logits[k * NUM_ACTIONS + a] as number) - max - Math.log(sum)
          : -Infinity,
      ),
    );
  }
  return { logProbs, values: [...values] };
}

describe('PPO objective on a tiny batch, against values computed by hand', () => {
  // Ratios chosen on both sides of the clip range, with both signs of advantage:
  // (1.5, +) and (0.5, -) are clipped; (1.5, -) and (0.5, +) keep the unclipped term.
  const cases = [
    { ratio: 1.5, advantage: 1, action: 0 },
    { ratio: 1.5, advantage: -1, action: 1 },
    { ratio: 0.5, advantage: 1, action: 2 },
    { ratio: 0.5, advantage: -1, action: 3 },
    { ratio: 1.1, advantage: 0.5, action: 4 },
    { ratio: 0.9, advantage: -0.5, action: 1 },
  ];
  const n = cases.length;

  function batch(model: ReturnType<typeof createPolicyValueModel>) {
    const rng = Random.fromSeed(11);
    const obs = Float32Array.from({ length: n * OBS }, () => rng.next() * 2 - 1);
    const masks = new Uint8Array(n * NUM_ACTIONS).fill(1);
    // The last row has two illegal actions: they must add nothing to the entropy.
    masks[(n - 1) * NUM_ACTIONS] = 0;
    masks[(n - 1) * NUM_ACTIONS + 5] = 0;
    const ref = reference(model, obs, masks, n);
    const buffer = new RolloutBuffer(n, OBS);
    const returns = [0.5, -0.25, 1, -1, 0, 0.75];
    cases.forEach((c, k) => {
      const logProb = (ref.logProbs[k]?.[c.action] as number) - Math.log(c.ratio);
      buffer.add(obs, k, masks, c.action, logProb, 0);
      buffer.advantages[k] = c.advantage;
      buffer.returns[k] = returns[k] as number;
    });
    return { buffer, ref, returns };
  }

  it('policy loss (clipped surrogate), value loss, entropy, approx KL and clip fraction', async () => {
    const model = createPolicyValueModel(tf, OBS, NETWORK, 5);
    const { buffer, ref, returns } = batch(model);
    const stats = await new PolicyUpdater(tf, model, tf.train.adam(1e-3), settings(), OBS).update(
      buffer,
      Random.fromSeed(1),
    );

    // By hand: advantages normalised over the minibatch (these have mean 0).
    const raw = cases.map((c) => c.advantage);
    const std = Math.sqrt(raw.reduce((s, a) => s + a * a, 0) / n) + 1e-8;
    const surrogate = cases.map((c) => {
      const a = c.advantage / std;
      const clipped = Math.min(Math.max(c.ratio, 1 - CLIP), 1 + CLIP);
      return Math.min(c.ratio * a, clipped * a);
    });
    // Row by row: 1.2a, 1.5a, 0.5a, 0.8a (a < 0 where the ratio wins), then inside the range.
    expect(surrogate[0]).toBeCloseTo((1.2 * 1) / std, 6);
    expect(surrogate[1]).toBeCloseTo((1.5 * -1) / std, 6);
    expect(surrogate[2]).toBeCloseTo((0.5 * 1) / std, 6);
    expect(surrogate[3]).toBeCloseTo((0.8 * -1) / std, 6);
    const policyLoss = -surrogate.reduce((s, x) => s + x, 0) / n;
    const valueLoss = ref.values.reduce((s, v, k) => s + (v - (returns[k] as number)) ** 2, 0) / n;
    const entropy =
      ref.logProbs.reduce(
        (s, row) => s - row.reduce((e, lp) => (Number.isFinite(lp) ? e + Math.exp(lp) * lp : e), 0),
        0,
      ) / n;
    const approxKl = cases.reduce((s, c) => s + (c.ratio - 1 - Math.log(c.ratio)), 0) / n;

    expect(stats.policyLoss).toBeCloseTo(policyLoss, 4);
    expect(stats.valueLoss).toBeCloseTo(valueLoss, 4);
    expect(stats.entropy).toBeCloseTo(entropy, 4);
    expect(stats.approxKl).toBeCloseTo(approxKl, 4);
    expect(stats.clipFraction).toBeCloseTo(4 / 6, 6);
    model.dispose();
  });
});

describe('one update moves the policy the right way', () => {
  it.each(['ppo', 'reinforce'] as const)(
    '%s: raises the probability of an action with positive advantage, lowers one with negative',
    async (algorithm) => {
      const model = createPolicyValueModel(tf, OBS, NETWORK, 9);
      const rng = Random.fromSeed(4);
      const obs = Float32Array.from({ length: OBS }, () => rng.next());
      const masks = new Uint8Array(NUM_ACTIONS).fill(1);
      const before = reference(model, obs, masks, 1).logProbs[0] as number[];
      const buffer = new RolloutBuffer(2, OBS);
      // The same position twice: action 2 turned out well, action 4 badly.
      buffer.add(obs, 0, masks, 2, before[2] as number, 0);
      buffer.add(obs, 0, masks, 4, before[4] as number, 0);
      buffer.advantages.set([1, -1]);
      buffer.returns.set([0, 0]);
      const updater = new PolicyUpdater(
        tf,
        model,
        tf.train.adam(0.01),
        settings({ algorithm, valueCoef: 0 }),
        OBS,
      );
      await updater.update(buffer, Random.fromSeed(2));
      const after = reference(model, obs, masks, 1).logProbs[0] as number[];
      expect(after[2]).toBeGreaterThan((before[2] as number) + 1e-3);
      expect(after[4]).toBeLessThan((before[4] as number) - 1e-3);
      model.dispose();
    },
  );
});

describe("the trainer's advantage estimate (GAE along each player's moves)", () => {
  /**
   * Player 0 moves at samples 0, 2, 4 (the game ends after 4, a win: +1);
   * player 1 at 1 and 3, whose chain is cut by the end of the rollout
   * (bootstrap value 0.4).
   */
  function chains(): RolloutBuffer {
    const buffer = new RolloutBuffer(5, 1);
    const obs = new Float32Array(1);
    const masks = new Uint8Array(NUM_ACTIONS).fill(1);
    for (const v of [0.2, 0.3, -0.1, 0.1, 0.5]) buffer.add(obs, 0, masks, 0, 0, v);
    buffer.next.set([2, 3, 4, -1, -1]);
    buffer.rewards[4] = 1;
    buffer.dones[4] = 1;
    buffer.bootstrap[3] = 0.4;
    return buffer;
  }

  it('PPO: gamma 0.9 and lambda 0.5 give the hand-computed advantages and returns', () => {
    const buffer = chains();
    estimateAdvantages(buffer, 'ppo', { gamma: 0.9, gaeLambda: 0.5 });
    // delta4 = 1 - 0.5; delta2 = 0.9 * 0.5 + 0.1; A2 = 0.55 + 0.45 * 0.5;
    // delta0 = 0.9 * -0.1 - 0.2; A0 = -0.29 + 0.45 * 0.775;
    // delta3 = 0.9 * 0.4 - 0.1; delta1 = 0.9 * 0.1 - 0.3; A1 = -0.21 + 0.45 * 0.26.
    const advantages = [0.05875, -0.093, 0.775, 0.26, 0.5];
    const returns = [0.25875, 0.207, 0.675, 0.36, 1];
    expect([...buffer.advantages]).toEqual(advantages.map((a) => expect.closeTo(a, 6)));
    expect([...buffer.returns]).toEqual(returns.map((r) => expect.closeTo(r, 6)));
  });

  it('REINFORCE: Monte Carlo returns (lambda 1), discounted per own move', () => {
    const buffer = chains();
    estimateAdvantages(buffer, 'reinforce', { gamma: 0.9, gaeLambda: 0.5 });
    // Player 0 wins two own moves after sample 0: 0.9^2; player 1 bootstraps: 0.9 * 0.4, 0.9^2 * 0.4.
    const returns = [0.81, 0.324, 0.9, 0.36, 1];
    expect([...buffer.returns]).toEqual(returns.map((r) => expect.closeTo(r, 6)));
  });
});
