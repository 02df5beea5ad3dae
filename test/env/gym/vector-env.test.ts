import { describe, expect, it } from 'vitest';
import {
  AyoayoEnv,
  checkEnv,
  EnvOptionsError,
  VectorActionError,
  VectorEnv,
  type VectorEnvOptionsInput,
} from '../../../env/gym/index.ts';
import {
  applyAction,
  IllegalActionError,
  outcome,
  positionFromState,
  Random,
} from '../../../env/index.ts';

const VARIANTS: [string, VectorEnvOptionsInput][] = [
  ['default', { numEnvs: 8 }],
  ['onehot', { numEnvs: 4, observation: { encoding: 'onehot' } }],
  [
    'thermometer + lookahead',
    { numEnvs: 4, observation: { encoding: 'thermometer', lookahead: true } },
  ],
  [
    'counts + lookahead, other rules',
    { numEnvs: 4, observation: { lookahead: true }, rules: { leftoverTo: 'owner' } },
  ],
  ['captureReward', { numEnvs: 6, captureReward: 0.25 }],
  ['random openings', { numEnvs: 6, randomOpeningPlies: 4, seed: 9 }],
  ['startPosition', { numEnvs: 3, startPosition: '0,3,0,9,1,5/2,0,4,0,13,1/6-4/1' }],
  ['short maxPlies (truncation + auto-reset)', { numEnvs: 5, maxPlies: 11 }],
  ['one env', { numEnvs: 1 }],
];

describe('VectorEnv passes checkEnv', () => {
  it.each(VARIANTS)('%s', async (_name, options) => {
    const report = await checkEnv(() => new VectorEnv(options), { seed: 2, vectorSteps: 150 });
    expect(report.kind).toBe('vector');
    expect(report.episodes).toBeGreaterThan(0);
  });
});

/** Uniform random legal actions from the masks. */
function randomActions(env: VectorEnv, rng: Random, out: Int32Array): Int32Array {
  for (let i = 0; i < env.numEnvs; i++) {
    const legal = [0, 1, 2, 3, 4, 5].filter((a) => env.masks[i * 6 + a] === 1);
    out[i] = rng.pick(legal);
  }
  return out;
}

describe('VectorEnv', () => {
  it('runs random-agent episodes to the end in every env', () => {
    const env = new VectorEnv({ numEnvs: 16, seed: 4 });
    const rng = Random.fromSeed(4);
    const actions = new Int32Array(16);
    const finished = new Array<number>(16).fill(0);
    for (let t = 0; t < 200; t++) {
      env.step(randomActions(env, rng, actions));
      for (let i = 0; i < 16; i++)
        if (env.terminated[i] || env.truncated[i]) finished[i] = (finished[i] as number) + 1;
    }
    for (const count of finished) expect(count).toBeGreaterThan(2);
  });

  it('auto-resets in the same step: the finished episode in rewards/flags, the new one in observations', () => {
    const env = new VectorEnv({ numEnvs: 8, seed: 1 });
    const startObservation = env.observations.slice(0, env.obsSize);
    const rng = Random.fromSeed(1);
    const actions = new Int32Array(8);
    let checked = 0;
    for (let t = 0; t < 120; t++) {
      const before = env.states.slice();
      env.step(randomActions(env, rng, actions));
      for (let i = 0; i < 8; i++) {
        if (!env.terminated[i]) continue;
        checked++;
        // What the finished episode's last move led to, by the engine.
        const prev = positionFromState(before.subarray(i * 16, i * 16 + 16));
        const final = outcome(applyAction(prev, actions[i] as number, env.rules), env.rules);
        expect(final).not.toBeNull();
        expect(Array.from(env.finalScores.subarray(2 * i, 2 * i + 2))).toEqual(final?.scores);
        const mover = env.movers[i] as 0 | 1;
        expect(mover).toBe(prev.toMove);
        const expected = final?.winner === null ? 0 : final?.winner === mover ? 1 : -1;
        expect(env.rewards[i]).toBe(expected);
        // ...while the slot already shows the next episode's start.
        expect(
          Array.from(env.observations.subarray(i * env.obsSize, (i + 1) * env.obsSize)),
        ).toEqual(Array.from(startObservation));
        expect(Array.from(env.states.subarray(i * 16, i * 16 + 16))).toEqual([
          4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0, 0,
        ]);
        expect(Array.from(env.masks.subarray(i * 6, i * 6 + 6))).toEqual([1, 1, 1, 1, 1, 1]);
        expect(env.toMove[i]).toBe(0);
      }
    }
    expect(checked).toBeGreaterThan(10);
  });

  it('env i follows the same trajectory as an AyoayoEnv given the same actions', () => {
    const options = {
      observation: { encoding: 'onehot', lookahead: true },
      captureReward: 0.5,
    } as const;
    const vec = new VectorEnv({ numEnvs: 3, ...options });
    const single = new AyoayoEnv(options);
    const rng = Random.fromSeed(6);
    let { observation } = single.reset();
    const actions = new Int32Array(3);
    let episodes = 0;
    for (let t = 0; t < 150; t++) {
      expect(Array.from(vec.observations.subarray(vec.obsSize, 2 * vec.obsSize))).toEqual(
        Array.from(observation),
      );
      randomActions(vec, rng, actions);
      vec.step(actions);
      const res = single.step(actions[1] as number);
      expect(vec.rewards[1]).toBe(Math.fround(res.reward));
      expect(vec.terminated[1]).toBe(res.terminated ? 1 : 0);
      observation = res.observation;
      if (res.terminated || res.truncated) {
        observation = single.reset().observation;
        episodes++;
      }
    }
    expect(episodes).toBeGreaterThan(2);
  });

  it('an illegal action throws naming the env and its legal actions; nothing is stepped', () => {
    const env = new VectorEnv({ numEnvs: 3, startPosition: '0,3,0,9,1,5/2,0,4,0,13,1/6-4/0' });
    const states = env.states.slice();
    let err: unknown = null;
    try {
      env.step([1, 1, 0]);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(VectorActionError);
    expect(err).toBeInstanceOf(IllegalActionError);
    expect((err as VectorActionError).envIndex).toBe(2);
    expect((err as Error).message).toBe(
      'env 2: illegal action 0: empty pit; legal actions: 1, 3, 4, 5',
    );
    expect(Array.from(env.states)).toEqual(Array.from(states));
    expect(() => env.step([1, 1])).toThrow(/one action per environment \(3\), got 2/);
    expect(() => env.step([1, 1, 7])).toThrow(/env 2: illegal action 7: not an action/);
  });

  it('reset(seed) reproduces the starts; reset() goes on', () => {
    const env = new VectorEnv({ numEnvs: 4, randomOpeningPlies: 5, seed: 3 });
    const first = env.states.slice();
    env.reset(3);
    expect(Array.from(env.states)).toEqual(Array.from(first));
    env.reset();
    expect(Array.from(env.states)).not.toEqual(Array.from(first));
    const other = new VectorEnv({ numEnvs: 4, randomOpeningPlies: 5, seed: 4 });
    expect(Array.from(other.states)).not.toEqual(Array.from(first));
    // Each env draws its own opening.
    const rows = new Set([0, 1, 2, 3].map((i) => first.subarray(i * 16, i * 16 + 16).join(',')));
    expect(rows.size).toBe(4);
  });

  it('validates its options', () => {
    expect(() => new VectorEnv({} as VectorEnvOptionsInput)).toThrow(/numEnvs/);
    expect(() => new VectorEnv({ numEnvs: 0 })).toThrow(EnvOptionsError);
    expect(
      () => new VectorEnv({ numEnvs: 2, illegalAction: 'lose' } as VectorEnvOptionsInput),
    ).toThrow(/illegalAction/);
    expect(() => new VectorEnv({ numEnvs: 2, seed: 0.5 })).toThrow(/seed/);
  });
});
