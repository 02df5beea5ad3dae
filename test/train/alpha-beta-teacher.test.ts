import { beforeAll, describe, expect, it } from 'vitest';
import { MinimaxSearch } from '../../agents/minimax-search.ts';
import { core, DEFAULT_RULE_CODE, DEFAULT_RULES, Random } from '../../env/index.ts';
import { loadBackend, type Tf } from '../../models/backend.ts';
import { NUM_ACTIONS } from '../../models/mlp-runner.ts';
import { buildConfig } from '../../train/config/build.ts';
import { type LoggedPositions, PositionLog } from '../../train/expert-iteration/position-log.ts';
import { AlphaBetaTeacher } from '../../train/expert-iteration/targets/alpha-beta-teacher.ts';
import { readCheckpoint } from '../../train/run/checkpoint.ts';
import { runPaths } from '../../train/run/paths.ts';
import { train } from '../../train/trainer.ts';
import { randomPositions } from '../agents/positions.ts';
import { tinyExpertIterationRun, untrainedSelfPlay } from './self-play-options.ts';

const { STATE_SIZE } = core;
const rules = DEFAULT_RULES;
let tf: Tf;

beforeAll(async () => {
  tf = (await loadBackend('auto')).tf;
});

/** The teacher's target: uniform over the actions a fresh search of that depth rates best. */
function expectedTarget(state: Uint8Array, depth: number): number[] {
  const best = new MinimaxSearch({ rules, ttBits: 0 }).search(state, { depth }).bestActions;
  return Array.from({ length: NUM_ACTIONS }, (_, a) => (best.includes(a) ? 1 / best.length : 0));
}

const row = (policies: Float32Array, r: number) =>
  Array.from(policies.subarray(r * NUM_ACTIONS, (r + 1) * NUM_ACTIONS));

describe('the alpha-beta teacher', () => {
  it('targets the best moves of a search of its depth, legal and summing to 1, whatever it taught before', () => {
    const positions = randomPositions(5, 40).map((p) => p.toState());
    const teacher = new AlphaBetaTeacher(rules, 4);
    // Taught forwards, then backwards by the same teacher (its table full of the others).
    const forwards = new Float32Array(positions.length * NUM_ACTIONS).fill(0.5);
    for (const [i, s] of positions.entries()) teacher.teach(s, forwards, i * NUM_ACTIONS);
    const backwards = new Float32Array(positions.length * NUM_ACTIONS);
    for (let i = positions.length - 1; i >= 0; i--) {
      teacher.teach(positions[i] as Uint8Array, backwards, i * NUM_ACTIONS);
    }
    expect(backwards).toEqual(forwards);
    let ties = 0;
    positions.forEach((state, i) => {
      const target = row(forwards, i);
      const mask = core.legalMask(state, DEFAULT_RULE_CODE);
      target.forEach((p, a) => {
        if ((mask & (1 << a)) === 0) expect(p).toBe(0);
      });
      expect(target.reduce((x, y) => x + y, 0)).toBeCloseTo(1, 6);
      const expected = expectedTarget(state, 4);
      for (const [a, p] of target.entries()) expect(p).toBeCloseTo(expected[a] as number, 6);
      if (target.filter((p) => p > 0).length > 1) ties++;
    });
    // Equal values share the target (an opening has several moves of the same value).
    expect(ties).toBeGreaterThan(0);
  });

  it('refuses a depth that is not a positive whole number of plies', () => {
    expect(() => new AlphaBetaTeacher(rules, 0)).toThrow(/positive whole number of plies, got 0/);
    expect(() => new AlphaBetaTeacher(rules, 2.5)).toThrow(/got 2.5/);
  });
});

/** One shard's self-play of 240 moves, seed 12, with the given teacher (depth 0: none). */
function play(alphaBetaDepth: number, alphaBetaShare = 1, solverNodes = 0): LoggedPositions {
  const selfPlay = untrainedSelfPlay(tf, 3, { alphaBetaDepth, alphaBetaShare, solverNodes });
  const rng = Random.fromSeed(12);
  selfPlay.reset(rng);
  const log = new PositionLog();
  selfPlay.collect(240, log, rng);
  return log.positions();
}

describe('self-play with the alpha-beta teacher', () => {
  it("plays the search's games; every trained position's policy target is the teacher's, the value target the search's", () => {
    const plain = play(0);
    const taught = play(3);
    expect(taught.states).toEqual(plain.states);
    expect(taught.values).toEqual(plain.values);
    let differs = 0;
    for (let r = 0; r < taught.count; r++) {
      const state = taught.states.subarray(r * STATE_SIZE, (r + 1) * STATE_SIZE);
      const expected = expectedTarget(state, 3);
      for (const [a, p] of row(taught.policies, r).entries()) {
        expect(p).toBeCloseTo(expected[a] as number, 6);
      }
      if (row(plain.policies, r).some((p, a) => Math.abs(p - (expected[a] as number)) > 1e-6)) {
        differs++;
      }
    }
    expect(taught.count).toBeGreaterThan(100);
    // The search's targets are soft, the teacher's are not: nearly every row changed.
    expect(differs).toBeGreaterThan(taught.count / 2);
  });

  it('takes about its share of the positions, the rest keeping the search’s soft targets', () => {
    const half = play(3, 0.5);
    let teacher = 0;
    for (let r = 0; r < half.count; r++) {
      const state = half.states.subarray(r * STATE_SIZE, (r + 1) * STATE_SIZE);
      const got = row(half.policies, r);
      const expected = expectedTarget(state, 3);
      if (got.every((p, a) => Math.abs(p - (expected[a] as number)) < 1e-6)) {
        teacher++;
        continue;
      }
      // Completed-Q's improved policy gives every legal move something.
      const mask = core.legalMask(state, DEFAULT_RULE_CODE);
      for (const [a, p] of got.entries()) expect(p > 0).toBe((mask & (1 << a)) !== 0);
    }
    expect(half.count).toBeGreaterThan(100);
    expect(teacher / half.count).toBeGreaterThan(0.35);
    expect(teacher / half.count).toBeLessThan(0.65);
  });

  it('leaves the positions the solver proves to the solver, and its proofs still rescore the rest', () => {
    const solverOnly = play(0, 1, 5000);
    const both = play(3, 1, 5000);
    expect(both.values).toEqual(solverOnly.values);
    let proven = 0;
    let taught = 0;
    for (let r = 0; r < both.count; r++) {
      const state = both.states.subarray(r * STATE_SIZE, (r + 1) * STATE_SIZE);
      const expected = expectedTarget(state, 3);
      const solver = row(solverOnly.policies, r);
      const got = row(both.policies, r);
      // The moves the solver kept are those its own row gives anything to (the search's targets are soft).
      got.forEach((p, a) => {
        if (p > 0) expect(solver[a]).toBeGreaterThan(0);
      });
      if (got.every((p, a) => Math.abs(p - (expected[a] as number)) < 1e-6)) taught++;
      else if (got.every((p, a) => Math.abs(p - (solver[a] as number)) < 1e-6)) proven++;
    }
    expect(taught).toBeGreaterThan(0);
    expect(proven).toBeGreaterThan(0);
  });
});

describe('a training run with the alpha-beta teacher', () => {
  it('trains from a tiny budget, and refuses a depth out of range naming the setting', async () => {
    const config = tinyExpertIterationRun('taught', { alphaBetaDepth: 4, alphaBetaShare: 0.5 });
    await train(config, { resume: false, log: () => {} });
    const { iteration, counters } = readCheckpoint(runPaths(config).latest);
    expect(iteration).toBe(2);
    expect(counters.samples).toBeGreaterThan(0);
    const bad = (ei: Record<string, number>) => () =>
      buildConfig([{ algorithm: 'expert-iteration', expertIteration: ei }]);
    expect(bad({ alphaBetaDepth: 17 })).toThrow(
      /expertIteration.alphaBetaDepth \(--alpha-beta-depth\): Too big/,
    );
    expect(bad({ alphaBetaShare: 0 })).toThrow(
      /expertIteration.alphaBetaShare \(--alpha-beta-share\): Too small/,
    );
  });
});
