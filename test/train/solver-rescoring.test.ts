import '../setup/builtin-algorithms.ts';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { core, DEFAULT_RULE_CODE, DEFAULT_RULES, Random } from '../../env/index.ts';
import { loadBackend, type Tf } from '../../models/backend.ts';
import { NUM_ACTIONS } from '../../models/mlp-runner.ts';
import { endgamePath } from '../../solve/endgame/cache/table-cache.ts';
import { Solver, type StateSolution } from '../../solve/index.ts';
import { buildConfig } from '../../train/config/build.ts';
import { type LoggedPositions, PositionLog } from '../../train/expert-iteration/position-log.ts';
import {
  rescorePolicy,
  SolverRescoring,
  unknownMoves,
} from '../../train/expert-iteration/targets/solver-rescoring.ts';
import { readCheckpoint } from '../../train/run/checkpoint.ts';
import { runPaths } from '../../train/run/paths.ts';
import { train } from '../../train/trainer.ts';
import { tinyExpertIterationRun, untrainedSelfPlay } from './self-play-options.ts';

const { STATE_SIZE } = core;
const rules = DEFAULT_RULES;
let tf: Tf;

beforeAll(async () => {
  tf = (await loadBackend('auto')).tf;
});

/** A fresh solver with a large budget: what the targets are checked against. */
function reference(state: Uint8Array): StateSolution {
  return new Solver({ rules, tableBits: 16 }).solveState(state, { nodes: 400_000, moves: true });
}

/** Positions of seeded random games, from the middle game on (where small budgets prove things). */
function randomPositions(count: number, seed: number): Uint8Array[] {
  const rng = Random.fromSeed(seed);
  const out: Uint8Array[] = [];
  while (out.length < count) {
    const s = core.setInitial(new Uint8Array(STATE_SIZE));
    for (let ply = 0; ; ply++) {
      const mask = core.legalMask(s, DEFAULT_RULE_CODE);
      if (mask === 0) break;
      if (ply >= 10 && rng.next() < 0.3 && out.length < count) out.push(s.slice());
      core.playInPlace(
        s,
        core.nthAction(mask, rng.int(core.POPCOUNT[mask] as number)),
        DEFAULT_RULE_CODE,
      );
    }
  }
  return out;
}

describe('the rescoring solver', () => {
  it('drops the moves proven to lose the value, keeps the proportions of the rest, and returns the proven bounds', () => {
    const rescoring = new SolverRescoring(rules, null, 20_000);
    let checked = 0;
    let proven = 0;
    let dropped = 0;
    for (const state of randomPositions(60, 4)) {
      const mask = core.legalMask(state, DEFAULT_RULE_CODE);
      const search = new Float32Array(NUM_ACTIONS);
      for (let a = 0; a < NUM_ACTIONS; a++) search[a] = (mask & (1 << a)) !== 0 ? (a + 1) / 21 : 0;
      const policy = search.slice();
      const bounds = unknownMoves(mask);
      const exact = rescoring.prove(state, bounds);
      rescorePolicy(policy, 0, bounds);
      const truth = reference(state);
      // What the reference itself cannot prove is not checked (a few early positions).
      if (truth.lo !== truth.hi) continue;
      checked++;
      expect(bounds.lo).toBeLessThanOrEqual(truth.lo);
      expect(bounds.hi).toBeGreaterThanOrEqual(truth.hi);
      expect(exact).toBe(bounds.lo === bounds.hi);
      if (exact) {
        proven++;
        expect(bounds.lo).toBe(truth.lo);
      }
      let sum = 0;
      let keptSearch = 0;
      for (let a = 0; a < NUM_ACTIONS; a++) {
        sum += policy[a] as number;
        if ((mask & (1 << a)) === 0) expect(policy[a]).toBe(0);
        // A move proven to keep the value is never dropped.
        if ((truth.bestMask & (1 << a)) !== 0) expect(policy[a]).toBeGreaterThan(0);
        if (policy[a] === 0 && (mask & (1 << a)) !== 0) {
          dropped++;
          expect(truth.moveHi[a]).toBeLessThan(truth.lo);
        } else {
          keptSearch += search[a] as number;
        }
      }
      expect(sum).toBeCloseTo(1, 5);
      for (let a = 0; a < NUM_ACTIONS; a++) {
        if ((policy[a] as number) > 0)
          expect(policy[a]).toBeCloseTo((search[a] as number) / keptSearch, 5);
      }
    }
    expect(checked).toBeGreaterThan(40);
    expect(proven).toBeGreaterThan(30);
    expect(dropped).toBeGreaterThan(10);
  });

  it('refuses a budget that is not a positive whole number of nodes', () => {
    expect(() => new SolverRescoring(rules, null, 0)).toThrow(
      /positive whole number of nodes, got 0/,
    );
    expect(() => new SolverRescoring(rules, null, 1.5)).toThrow(/got 1.5/);
  });
});

/** One shard's self-play of 300 moves with the solver's budget (0: none), seed 11. */
function play(solverNodes: number): { log: LoggedPositions; proven: number; evaluations: number } {
  const selfPlay = untrainedSelfPlay(tf, 3, { searchValueWeight: 0.5, solverNodes });
  const rng = Random.fromSeed(11);
  selfPlay.reset(rng);
  const log = new PositionLog();
  const stats = selfPlay.collect(300, log, rng);
  return { log: log.positions(), proven: stats.proven, evaluations: stats.evaluations };
}

describe('self-play with the rescoring solver', () => {
  it('plays the same games; where the solver proved something the targets are its values, elsewhere the search’s', () => {
    const plain = play(0);
    const rescored = play(5000);
    expect(plain.proven).toBe(0);
    expect(rescored.log.states).toEqual(plain.log.states);
    let changed = 0;
    let exactRows = 0;
    for (let row = 0; row < plain.log.count; row++) {
      const state = rescored.log.states.subarray(row * STATE_SIZE, (row + 1) * STATE_SIZE);
      const before = plain.log.values[row] as number;
      const after = rescored.log.values[row] as number;
      const p0 = plain.log.policies.subarray(row * NUM_ACTIONS, (row + 1) * NUM_ACTIONS);
      const p1 = rescored.log.policies.subarray(row * NUM_ACTIONS, (row + 1) * NUM_ACTIONS);
      const same = after === before && p1.every((p, a) => p === p0[a]);
      if (same) continue;
      changed++;
      const truth = reference(state);
      // A value the solver changed is a bound it proved (the outcome mixed with the search's value clamped to it).
      if (after !== before) {
        expect([-1, 0, 1]).toContain(after);
        expect(after).toBeGreaterThanOrEqual(truth.lo);
        expect(after).toBeLessThanOrEqual(truth.hi);
      }
      if (truth.lo === truth.hi && after === truth.lo) exactRows++;
      let kept = 0;
      for (let a = 0; a < NUM_ACTIONS; a++) {
        if (p1[a] === 0 && (p0[a] as number) > 0) {
          // Only a move proven to lose the value leaves the policy.
          expect(truth.moveHi[a]).toBeLessThan(truth.lo);
        } else {
          kept += p0[a] as number;
        }
      }
      for (let a = 0; a < NUM_ACTIONS; a++) {
        if ((p1[a] as number) > 0) expect(p1[a]).toBeCloseTo((p0[a] as number) / kept, 5);
      }
    }
    expect(changed).toBeGreaterThan(0);
    expect(exactRows).toBeGreaterThan(0);
    expect(rescored.proven).toBeGreaterThanOrEqual(exactRows);
  });
});

describe('a training run with the rescoring solver', () => {
  const cache = mkdtempSync(join(tmpdir(), 'ayoayo-rescoring-cache-'));
  const before = process.env.XDG_CACHE_HOME;
  process.env.XDG_CACHE_HOME = cache;
  afterAll(() => {
    if (before === undefined) delete process.env.XDG_CACHE_HOME;
    else process.env.XDG_CACHE_HOME = before;
  });

  it('builds its endgame table into the cache once, reports the share it proved and trains', async () => {
    const config = tinyExpertIterationRun('rescored', {
      selfPlayShards: 2,
      solverNodes: 1000,
      solverEndgameSeeds: 8,
    });
    await train(config, { resume: false, log: () => {} });
    expect(existsSync(endgamePath(join(cache, 'ayoayo'), 8, rules))).toBe(true);
    const { metrics } = readCheckpoint(runPaths(config).latest);
    const shares = metrics.map((row) => Number(row['self_play/proven_share']));
    expect(shares.length).toBe(2);
    for (const share of shares) {
      expect(share).toBeGreaterThan(0);
      expect(share).toBeLessThanOrEqual(1);
    }
  });

  it('refuses a negative budget or a table larger than it builds, naming the setting', () => {
    const bad = (ei: Record<string, number>) => () =>
      buildConfig([{ algorithm: 'expert-iteration', expertIteration: ei }]);
    expect(bad({ solverNodes: -1 })).toThrow(
      /expertIteration.solverNodes \(--solver-nodes\): Too small/,
    );
    expect(bad({ solverEndgameSeeds: 30 })).toThrow(
      /expertIteration.solverEndgameSeeds \(--solver-endgame-seeds\): Too big/,
    );
  });
});
