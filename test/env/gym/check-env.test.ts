import { describe, expect, it } from 'vitest';
import {
  AyoayoEnv,
  type CheckableEnv,
  CheckEnvError,
  checkEnv,
  type EnvOptionsInput,
  type ResetArgs,
  type ResetResult,
  type StepResult,
  VectorEnv,
} from '../../../env/gym/index.ts';

/**
 * An AyoayoEnv with one defect put in on purpose: checkEnv must notice each
 * one (a checker that never fails would prove nothing).
 */
class Tampered implements CheckableEnv {
  readonly inner: AyoayoEnv;
  calls = 0;

  constructor(
    readonly defect: (res: StepResult, self: Tampered) => StepResult,
    options: EnvOptionsInput = {},
    readonly resetDefect: (args: ResetArgs<unknown>, self: Tampered) => ResetArgs<unknown> = (a) =>
      a,
    /** Keep answering the last result after the episode ended instead of throwing. */
    readonly silentAfterEnd = false,
  ) {
    this.inner = new AyoayoEnv(options);
  }
  last: StepResult | null = null;
  get observationSpace() {
    return this.inner.observationSpace;
  }
  get actionSpace() {
    return this.inner.actionSpace;
  }
  get rules() {
    return this.inner.rules;
  }
  get observationConfig() {
    return this.inner.observationConfig;
  }
  get options() {
    return this.inner.options;
  }
  reset(args: ResetArgs<unknown> = {}): ResetResult {
    this.last = null;
    return this.inner.reset(this.resetDefect(args, this) as ResetArgs<never>);
  }
  step(action: number): StepResult {
    this.calls++;
    if (this.silentAfterEnd && this.last !== null) return this.last;
    const res = this.defect(this.inner.step(action), this);
    if (res.terminated || res.truncated) this.last = res;
    return res;
  }
}

const intact = (res: StepResult): StepResult => res;

describe('checkEnv', () => {
  it('accepts the intact wrapper (so the defects below are what it rejects)', async () => {
    await expect(checkEnv(() => new Tampered(intact))).resolves.toMatchObject({ kind: 'single' });
  });

  it.each<[string, () => Tampered, RegExp]>([
    [
      'observations outside the bounds',
      () => new Tampered((res) => ({ ...res, observation: res.observation.map((x) => x * 10) })),
      /outside/,
    ],
    [
      'an observation of the wrong size',
      () => new Tampered((res) => ({ ...res, observation: res.observation.subarray(1) })),
      /observation size/,
    ],
    [
      'a mask that differs from the engine',
      () =>
        new Tampered((res) => ({
          ...res,
          info: { ...res.info, actionMask: Uint8Array.from(res.info.actionMask, () => 1) },
        })),
      /actionMask/,
    ],
    [
      'rewards that are not zero-sum',
      () =>
        new Tampered((res) => ({
          ...res,
          info: { ...res.info, rewards: [res.reward, res.reward] },
        })),
      /zero-sum/,
    ],
    [
      'a reward for the wrong player',
      () => new Tampered((res) => ({ ...res, reward: 0 - res.reward })),
      /reward/,
    ],
    [
      'truncation reported as termination',
      () =>
        new Tampered(
          (res) => (res.truncated ? { ...res, truncated: false, terminated: true } : res),
          {
            maxPlies: 5,
          },
        ),
      /terminated without info.outcome|engine says the game goes on/,
    ],
    [
      'a seed that is ignored',
      () =>
        new Tampered(intact, { randomOpeningPlies: 4 }, (args, self) => ({
          ...args,
          seed: self.calls++,
        })),
      /differs between runs with the same seed|same seed/,
    ],
    [
      'stepping after the end that does not throw',
      () => new Tampered(intact, {}, undefined, true),
      /after the episode ended did not throw/,
    ],
  ])('rejects %s', async (_name, make, message) => {
    const run = checkEnv(make, { seed: 1, episodes: 3 });
    await expect(run).rejects.toThrow(CheckEnvError);
    await expect(checkEnv(make, { seed: 1, episodes: 3 })).rejects.toThrow(message);
  });

  it('rejects a VectorEnv whose observations are tampered with', async () => {
    class Bad extends VectorEnv {
      override step(actions: ArrayLike<number>): void {
        super.step(actions);
        this.observations[0] = 99;
      }
    }
    await expect(checkEnv(() => new Bad({ numEnvs: 2 }), { vectorSteps: 5 })).rejects.toThrow(
      /outside the space/,
    );
  });

  it('rejects a VectorEnv whose rewards are wrong', async () => {
    class Bad extends VectorEnv {
      override step(actions: ArrayLike<number>): void {
        super.step(actions);
        for (let i = 0; i < this.numEnvs; i++)
          if (this.terminated[i]) this.rewards[i] = 0 - (this.rewards[i] as number);
      }
    }
    await expect(checkEnv(() => new Bad({ numEnvs: 4 }), { vectorSteps: 100 })).rejects.toThrow(
      /reward/,
    );
  });
});
