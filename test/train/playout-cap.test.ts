import { beforeAll, describe, expect, it } from 'vitest';
import { Random } from '../../env/index.ts';
import { loadBackend, type Tf } from '../../models/backend.ts';
import { NUM_ACTIONS } from '../../models/mlp-runner.ts';
import { buildConfig } from '../../train/config/build.ts';
import { type LoggedPositions, PositionLog } from '../../train/expert-iteration/position-log.ts';
import type { SearchSelfPlayStats } from '../../train/expert-iteration/search-self-play.ts';
import { readCheckpoint } from '../../train/run/checkpoint.ts';
import { runPaths } from '../../train/run/paths.ts';
import { train } from '../../train/trainer.ts';
import { tinyExpertIterationRun, untrainedSelfPlay } from './self-play-options.ts';

let tf: Tf;

beforeAll(async () => {
  tf = (await loadBackend('auto')).tf;
});

/**
 * Self-play with AlphaZero's visit counts as the target, full searches of 7
 * simulations and cheap ones of 2: a cheap search's policy is made of halves
 * (0, 1/2, 1), a full one's only when it stopped early on a proven root, so
 * the share of such policies in the log shows which searches it holds.
 */
function play(
  fullSearchShare: number,
  maxPlies = 200,
): { log: LoggedPositions; stats: SearchSelfPlayStats; plies: Int32Array; logged: Int32Array } {
  const selfPlay = untrainedSelfPlay(tf, 2, {
    maxPlies,
    simulations: 7,
    fullSearchShare,
    cheapSimulations: 2,
    policyTarget: 'visits',
  });
  const rng = Random.fromSeed(13);
  selfPlay.reset(rng);
  const log = new PositionLog();
  const stats = selfPlay.collect(1200, log, rng);
  const games = selfPlay.exportGames();
  return { log: log.positions(), stats, plies: games.plies, logged: games.logCount };
}

/** The share of the logged policy targets made of halves only, as a 2-simulation search's are. */
function halvesShare(log: LoggedPositions): number {
  let halves = 0;
  for (let row = 0; row < log.count; row++) {
    const policy = log.policies.subarray(row * NUM_ACTIONS, (row + 1) * NUM_ACTIONS);
    if (policy.every((p) => p === 0 || p === 0.5 || p === 1)) halves++;
  }
  return halves / log.count;
}

describe('playout cap randomization', () => {
  it('trains only on the moves searched in full, about the share asked', () => {
    const { log, stats, plies, logged } = play(0.25);
    expect(log.count).toBe(stats.learnerSamples);
    expect(log.count).toBeGreaterThan(0);
    // As many halves as when every move is searched in full (proven roots), not the
    // three quarters of the log that cheap searches would make.
    const natural = halvesShare(play(1).log);
    expect(halvesShare(log)).toBeLessThan(natural + 0.1);
    expect(halvesShare(log)).toBeLessThan(0.4);
    // The finished games' moves: a quarter of them trained on, give or take the draw.
    const played = stats.meanGamePlies * stats.games;
    expect(log.count / played).toBeGreaterThan(0.15);
    expect(log.count / played).toBeLessThan(0.35);
    // Games in progress count every move they played and log only the full ones.
    plies.forEach((p, g) => {
      expect(logged[g]).toBeLessThanOrEqual(p);
    });
  });

  it('with every move in full, trains on every move', () => {
    const { log, stats } = play(1);
    expect(log.count).toBe(stats.meanGamePlies * stats.games);
  });

  it('caps a game at maxPlies moves of either kind', () => {
    const { stats, plies } = play(0.25, 12);
    expect(stats.games).toBeGreaterThan(0);
    expect(stats.meanGamePlies).toBeLessThanOrEqual(12);
    for (const p of plies) expect(p).toBeLessThanOrEqual(12);
  });

  it('a tiny training run trains on fewer positions than it plays', async () => {
    const config = tinyExpertIterationRun('pcr', {
      simulations: 8,
      fullSearchShare: 0.3,
      cheapSimulations: 2,
      selfPlayShards: 2,
    });
    await train(config, { resume: false, log: () => {} });
    const { counters } = readCheckpoint(runPaths(config).latest);
    expect(counters.samples).toBeGreaterThan(0);
    expect(counters.samples).toBeLessThan(0.5 * counters.plies);
  });

  it('refuses a cheap search that is not cheaper, or no full searches, naming the setting', () => {
    const bad = (ei: Record<string, number>) => () =>
      buildConfig([{ algorithm: 'expert-iteration', expertIteration: ei }]);
    expect(bad({ fullSearchShare: 0.25, simulations: 8, cheapSimulations: 8 })).toThrow(
      'expertIteration.cheapSimulations (--cheap-simulations): is 8, not fewer than simulations (8): a cheap search must be cheaper than a full one',
    );
    expect(bad({ fullSearchShare: 0 })).toThrow(
      /expertIteration.fullSearchShare \(--full-search-share\): Too small/,
    );
  });
});
