import { describe, expect, it } from 'vitest';
import {
  AyoayoEnv,
  checkEnv,
  DEFAULT_MAX_PLIES,
  EnvOptionsError,
  type EnvOptionsInput,
  EpisodeStateError,
  observationSize,
  type StepResult,
} from '../../../env/gym/index.ts';
import {
  formatPosition,
  IllegalActionError,
  initialPosition,
  legalActions,
  outcome,
  parsePosition,
  playMove,
  Random,
} from '../../../env/index.ts';

const VARIANTS: [string, EnvOptionsInput][] = [
  ['default (counts)', {}],
  ['onehot', { observation: { encoding: 'onehot' } }],
  ['thermometer', { observation: { encoding: 'thermometer' } }],
  ['counts + lookahead', { observation: { lookahead: true } }],
  ['onehot + lookahead', { observation: { encoding: 'onehot', lookahead: true } }],
  ['thermometer + lookahead', { observation: { encoding: 'thermometer', lookahead: true } }],
  ['captureReward', { captureReward: 0.5 }],
  ['illegalAction lose', { illegalAction: 'lose' }],
  ['random openings', { randomOpeningPlies: 6 }],
  ['startPosition (notation)', { startPosition: '0,3,0,9,1,5/2,0,4,0,13,1/6-4/1' }],
  [
    'startPosition (object)',
    { startPosition: { pits: [2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2], stores: [12, 12], toMove: 0 } },
  ],
  [
    'other rules',
    { rules: { captureSeedStays: true, leftoverTo: 'owner' }, observation: { lookahead: true } },
  ],
  ['short maxPlies (truncation)', { maxPlies: 12, randomOpeningPlies: 2 }],
];

describe('AyoayoEnv passes checkEnv', () => {
  it.each(VARIANTS)('%s', async (_name, options) => {
    const report = await checkEnv(() => new AyoayoEnv(options), { seed: 3, episodes: 4 });
    expect(report.kind).toBe('single');
    expect(report.episodes).toBe(4);
    expect(report.steps).toBeGreaterThan(0);
  });
});

/** Plays a seeded random episode, returning every step result. */
function randomEpisode(env: AyoayoEnv, seed: number): StepResult[] {
  const rng = Random.fromSeed(seed);
  let { info } = env.reset({ seed });
  const steps: StepResult[] = [];
  for (;;) {
    const res = env.step(rng.pick(info.legalActions));
    steps.push(res);
    if (res.terminated || res.truncated) return steps;
    info = res.info;
  }
}

describe('AyoayoEnv episodes', () => {
  it('reset gives the start position from player 0 side with every action legal', () => {
    const env = new AyoayoEnv();
    const { observation, info } = env.reset({ seed: 1 });
    expect(observation).toHaveLength(observationSize());
    expect(Array.from(observation.subarray(0, 12))).toEqual(
      new Array(12).fill(Math.fround(4 / 12)),
    );
    expect(info.position.equals(initialPosition())).toBe(true);
    expect(info.toMove).toBe(0);
    expect(Array.from(info.actionMask)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(info.legalActions).toEqual([0, 1, 2, 3, 4, 5]);
    expect(info.lastMove).toBeNull();
    expect(info.rewards).toEqual([0, 0]);
    expect(info.outcome).toBeNull();
  });

  it('reports each move exactly as the engine does and plays random games to the end', () => {
    const env = new AyoayoEnv({ observation: { lookahead: true } });
    for (let seed = 0; seed < 20; seed++) {
      const rng = Random.fromSeed(seed);
      let { info } = env.reset({ seed });
      for (;;) {
        const action = rng.pick(info.legalActions);
        const before = info.position;
        const res = env.step(action);
        const engine = playMove(before, action, env.rules);
        expect(res.info.lastMove).toEqual(engine.report);
        expect(res.info.position.equals(engine.position)).toBe(true);
        if (res.terminated || res.truncated) {
          expect(res.terminated).toBe(true);
          break;
        }
        info = res.info;
      }
    }
  });

  it('rewards the mover +1/-1/0 at the end and nothing before (default)', () => {
    const env = new AyoayoEnv();
    for (let seed = 0; seed < 30; seed++) {
      const steps = randomEpisode(env, seed);
      const last = steps.at(-1) as StepResult;
      for (const s of steps.slice(0, -1)) expect(s.reward).toBe(0);
      const result = outcome(last.info.position, env.rules);
      expect(result).not.toBeNull();
      const mover = last.info.lastMove?.player as 0 | 1;
      const expected = result?.winner === null ? 0 : result?.winner === mover ? 1 : -1;
      expect(last.reward).toBe(expected);
      expect(last.info.rewards[mover]).toBe(expected);
      expect(last.info.rewards[1 - mover]).toBe(0 - expected);
      expect(last.info.outcome).toEqual({ ...result, reason: 'game-over' });
      expect(Array.from(last.info.actionMask)).toEqual([0, 0, 0, 0, 0, 0]);
      expect(last.info.legalActions).toEqual([]);
    }
  });

  it('adds captureReward * captured / 24 for the mover', () => {
    const env = new AyoayoEnv({ captureReward: 0.5 });
    let captures = 0;
    for (let seed = 0; seed < 10; seed++) {
      for (const s of randomEpisode(env, seed)) {
        const captured = s.info.lastMove?.captured ?? 0;
        if (captured > 0) captures++;
        const terminal = s.terminated ? Math.sign(s.reward - (0.5 * captured) / 24) : 0;
        expect(s.reward).toBeCloseTo(terminal + (0.5 * captured) / 24, 12);
        expect((s.info.rewards[0] as number) + (s.info.rewards[1] as number)).toBe(0);
      }
    }
    expect(captures).toBeGreaterThan(0);
  });

  it('truncates at maxPlies: truncated, never terminated, reward 0, real mask, then errors', () => {
    const env = new AyoayoEnv({ maxPlies: 7 });
    let truncations = 0;
    for (let seed = 0; seed < 20; seed++) {
      const steps = randomEpisode(env, seed);
      const last = steps.at(-1) as StepResult;
      expect(steps.length).toBeLessThanOrEqual(7);
      for (const s of steps.slice(0, -1)) expect(s.terminated || s.truncated).toBe(false);
      if (last.terminated) {
        expect(outcome(last.info.position, env.rules)).not.toBeNull(); // a short game that really ended
        continue;
      }
      expect(steps).toHaveLength(7);
      truncations++;
      expect(last.truncated).toBe(true);
      expect(last.terminated).toBe(false);
      expect(last.reward).toBe(0);
      expect(last.info.rewards).toEqual([0, 0]);
      expect(last.info.outcome).toBeNull();
      expect(outcome(last.info.position, env.rules)).toBeNull();
      expect(last.info.legalActions).toEqual(legalActions(last.info.position, env.rules));
      expect(() => env.step(last.info.legalActions[0] as number)).toThrow(EpisodeStateError);
    }
    expect(truncations).toBeGreaterThan(10);
  });

  it('a game that ends on the last allowed ply is terminated, not truncated', () => {
    const full = new AyoayoEnv();
    const length = randomEpisode(full, 4).length;
    const capped = new AyoayoEnv({ maxPlies: length });
    const last = randomEpisode(capped, 4).at(-1) as StepResult;
    expect(last.terminated).toBe(true);
    expect(last.truncated).toBe(false);
  });

  it('throws on illegal actions naming the legal ones, and leaves the episode as it was', () => {
    const env = new AyoayoEnv({ startPosition: '0,3,0,9,1,5/2,0,4,0,13,1/6-4/0' });
    const { observation, info } = env.reset();
    expect(info.legalActions).not.toContain(0);
    const err = (() => {
      try {
        env.step(0);
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(err).toBeInstanceOf(IllegalActionError);
    expect((err as IllegalActionError).reason).toBe('empty-pit');
    expect((err as IllegalActionError).legal).toEqual(info.legalActions);
    expect((err as Error).message).toContain(`legal actions: ${info.legalActions.join(', ')}`);
    expect(() => env.step(6)).toThrow(/not an action/);
    const res = env.step(info.legalActions[0] as number);
    expect(res.info.lastMove?.action).toBe(info.legalActions[0]);
    expect(observation).toHaveLength(env.observationSpace.shape[0]);
  });

  it("illegalAction 'lose' forfeits: -1 for the mover, +1 for the other, the board unchanged", () => {
    const start = '0,3,0,9,1,5/2,0,4,0,13,1/6-4/0';
    const env = new AyoayoEnv({ startPosition: start, illegalAction: 'lose' });
    env.reset();
    const res = env.step(2);
    expect(res.terminated).toBe(true);
    expect(res.truncated).toBe(false);
    expect(res.reward).toBe(-1);
    expect(res.info.rewards).toEqual([-1, 1]);
    expect(res.info.outcome).toEqual({ scores: [6, 4], winner: 1, reason: 'illegal-action' });
    expect(res.info.illegalAction).toEqual({ action: 2, reason: 'empty-pit' });
    expect(formatPosition(res.info.position)).toBe(start);
    expect(Array.from(res.info.actionMask)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(() => env.step(1)).toThrow(EpisodeStateError);
    // Non-actions are programming errors, not forfeits.
    env.reset();
    expect(() => env.step(-1)).toThrow(IllegalActionError);
  });

  it('errors before reset and after the end', () => {
    const env = new AyoayoEnv();
    expect(() => env.step(0)).toThrow(/before reset/);
    randomEpisode(env, 1);
    expect(() => env.step(0)).toThrow(/after the episode ended/);
  });
});

describe('AyoayoEnv starts', () => {
  it('random openings are seeded, diverse and never finished', () => {
    const env = new AyoayoEnv({ randomOpeningPlies: 4 });
    const starts = new Set<string>();
    for (let seed = 0; seed < 40; seed++) {
      const a = env.reset({ seed }).info.position;
      const b = env.reset({ seed }).info.position;
      expect(a.equals(b)).toBe(true);
      expect(outcome(a, env.rules)).toBeNull();
      starts.add(formatPosition(a));
    }
    expect(starts.size).toBeGreaterThan(20);
    // Without a seed the generator goes on: consecutive resets differ.
    env.reset({ seed: 1 });
    const next = env.reset().info.position;
    expect(next.equals(env.reset({ seed: 1 }).info.position)).toBe(false);
  });

  it('an opening stops early rather than end the game', () => {
    // Player 0 to move: every legal move but one would win at once.
    const env = new AyoayoEnv({
      startPosition: '0,0,0,0,0,1/1,0,0,0,0,0/23-23/0',
      randomOpeningPlies: 50,
    });
    for (let seed = 0; seed < 5; seed++) {
      const { info } = env.reset({ seed });
      expect(outcome(info.position, env.rules)).toBeNull();
      expect(info.legalActions.length).toBeGreaterThan(0);
    }
  });

  it('reset options override the start and the opening for one episode', () => {
    const env = new AyoayoEnv({ randomOpeningPlies: 3 });
    const custom = '4,4,4,4,4,4/4,4,4,4,4,4/0-0/1';
    const { info } = env.reset({
      seed: 2,
      options: { startPosition: custom, randomOpeningPlies: 0 },
    });
    expect(formatPosition(info.position)).toBe(custom);
    expect(env.reset({ seed: 2 }).info.position.equals(parsePosition(custom))).toBe(false);
    expect(() => env.reset({ options: { maxPlies: 3 } as object })).toThrow(/maxPlies/);
  });
});

describe('AyoayoEnv options', () => {
  it('defaults', () => {
    const env = new AyoayoEnv();
    expect(env.options).toMatchObject({
      maxPlies: DEFAULT_MAX_PLIES,
      randomOpeningPlies: 0,
      captureReward: 0,
      illegalAction: 'error',
      startPosition: null,
      observation: { encoding: 'counts', lookahead: false },
      rules: { captureSeedStays: false, leftoverTo: 'opponent' },
    });
    expect(env.actionSpace).toEqual({ type: 'discrete', n: 6 });
  });

  it.each([
    [{ maxPlies: 0 }, /maxPlies/],
    [{ maxPlies: 2.5 }, /maxPlies must be an integer/],
    [{ randomOpeningPlies: -1 }, /randomOpeningPlies/],
    [{ captureReward: Number.NaN }, /captureReward/],
    [{ illegalAction: 'ignore' }, /illegalAction/],
    [{ observation: { encoding: 'bits' } }, /observation\.encoding/],
    [{ rules: { captureSeedStays: 'yes' } }, /rules\.captureSeedStays/],
    [{ rules: { sowing: 'clockwise' } }, /sowing/],
    [{ startPosition: '4,4,4/4,4,4' }, /startPosition/],
    [{ startPosition: { pits: [1], stores: [0, 0], toMove: 0 } }, /startPosition: invalid pits/],
    [{ startPosition: '0,0,0,0,0,0/1,1,1,1,1,1/30-12/0' }, /already over/],
    [{ seed: 3 }, /Unrecognized key.*seed/],
  ])('rejects %j', (options, message) => {
    expect(() => new AyoayoEnv(options as EnvOptionsInput)).toThrow(EnvOptionsError);
    expect(() => new AyoayoEnv(options as EnvOptionsInput)).toThrow(message);
  });

  it('rejects a non-integer seed', () => {
    expect(() => new AyoayoEnv().reset({ seed: 1.5 })).toThrow(/seed/);
  });
});
