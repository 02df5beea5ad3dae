import '../setup/builtin-algorithms.ts';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildConfig } from '../../train/config/build.ts';
import { PRESETS } from '../../train/config/presets.ts';
import { timeLimitLine } from '../../train/report/final-evaluation.ts';
import { type CheckpointPayload, readCheckpoint } from '../../train/run/checkpoint.ts';
import { runPaths } from '../../train/run/paths.ts';
import { RunClock } from '../../train/run/run.ts';
import type { ConfigLayer } from '../../train/settings/layer.ts';
import type { TrainConfig } from '../../train/settings/schema.ts';
import { train } from '../../train/trainer.ts';

/**
 * Trains a smoke run of 100 iterations (evaluations every 4, checkpoints every
 * 3) that the time limit stops: checks that it stops early, that its latest
 * checkpoint is the iteration it stopped at, and that it says why. Returns
 * that iteration.
 */
async function stoppedByTheTimeLimit(name: string, settings: ConfigLayer): Promise<number> {
  const config = buildConfig([
    PRESETS.smoke,
    {
      runsDir,
      name,
      iterations: 100,
      evalEvery: 4,
      checkpointEvery: 3,
      finalEvalGames: 2,
      progress: false,
      ...settings,
    },
  ]);
  const lines: string[] = [];
  const { iteration } = await train(config, { resume: false, log: (line) => lines.push(line) });
  vi.restoreAllMocks();
  expect(iteration, name).toBeLessThan(100);
  // A run stopped before its first iteration has no checkpoint.
  if (iteration > 0) {
    expect(readCheckpoint(runPaths(config).latest).iteration, name).toBe(iteration);
  }
  // Its last line says where it stopped, and so does its final table's heading.
  expect(lines.at(-1)).toBe(timeLimitLine(config, iteration));
  expect(lines.at(-1)).toContain(`stopped the run after iteration ${iteration} of 100`);
  expect(lines).toContainEqual(
    expect.stringMatching(`after iteration ${iteration} of 100 \\(the time limit of`),
  );
  return iteration;
}

const runsDir = mkdtempSync(join(tmpdir(), 'ayoayo-time-limit-'));

describe('the time limit', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('checkpoints the iteration it stops at wherever in the iteration the time runs out', async () => {
    // The clock says the time is up from its (k+1)-th question on: every place
    // the loop asks, in turn, including just after an iteration's checkpoint
    // was decided, where a run used to end one iteration past its checkpoint.
    for (let k = 0; k < 8; k++) {
      let asked = 0;
      vi.spyOn(RunClock.prototype, 'timeUp').mockImplementation(() => ++asked > k);
      await stoppedByTheTimeLimit(`time-up-from-question-${k + 1}`, { timeLimitMinutes: 60 });
    }
  });

  it('keeps the iteration it stops at, even when the time runs out during an evaluation, and says so', async () => {
    // Evaluations of 200 games a baseline take longer than the whole limit, so
    // the time runs out during the first one (iteration 4), between checkpoints (every 3).
    const iteration = await stoppedByTheTimeLimit('t', { evalGames: 200, timeLimitMinutes: 0.02 });
    expect(iteration).toBeGreaterThan(0);
  });
});

/**
 * A tiny expert-iteration run (the algorithm of `npm start`) of 8 iterations,
 * with checkpoints every 3 and evaluations every 2: games go on from one
 * iteration to the next between checkpoint boundaries.
 */
function carriedGames(dir: string, name: string): TrainConfig {
  return buildConfig([
    PRESETS.smoke,
    {
      runsDir: dir,
      name,
      algorithm: 'expert-iteration',
      iterations: 8,
      checkpointEvery: 3,
      evalEvery: 2,
      timeLimitMinutes: 60,
      // One kept: the boundary's checkpoint must outlive the one the stop writes.
      keepCheckpoints: 1,
      minibatchSize: 32,
      expertIteration: {
        simulations: 4,
        gamesAtOnce: 8,
        movesPerIteration: 80,
        openingPlies: 0,
        openingPliesMax: 6,
        balancedOpenings: true,
        selfPlayShards: 2,
        replayIterations: 2,
        epochs: 2,
      },
    },
  ]);
}

/** What a run trained and evaluated, without the wall-clock columns. */
function trained(payload: CheckpointPayload) {
  return {
    iteration: payload.iteration,
    weights: payload.weights,
    optimizer: payload.optimizer,
    rngState: payload.rngState,
    replay: payload.replay,
    samples: payload.counters.samples,
    metrics: payload.metrics.map((row) =>
      Object.fromEntries(
        Object.entries(row).filter(([k]) => !k.startsWith('perf/') && k !== 'elapsed_s'),
      ),
    ),
    curve: payload.curve.map(({ minutes: _, ...point }) => point),
    best: payload.best,
    lastEvaluation: payload.lastEvaluation,
  };
}

describe('a run the time limit cut short', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ayoayo-time-limit-resume-'));
  const whole = carriedGames(dir, 'whole');
  let uncut: Promise<CheckpointPayload> | null = null;
  const uncutRun = (): Promise<CheckpointPayload> => {
    uncut ??= train(whole, { resume: false, log: () => {} }).then(() =>
      readCheckpoint(runPaths(whole).latest),
    );
    return uncut;
  };

  it('resumed with its time limit still up, trains nothing and ends where it ended', async () => {
    // A limit of 6 ms runs out during the first iteration, before the first boundary.
    const config = { ...carriedGames(dir, 'still-up'), timeLimitMinutes: 1e-4 };
    await train(config, { resume: false, log: () => {} });
    const stopped = readCheckpoint(runPaths(config).latest);
    expect(stopped.iteration).toBe(1);
    const lines: string[] = [];
    const resumed = await train(config, { resume: true, log: (line) => lines.push(line) });
    expect(resumed.iteration).toBe(1);
    expect(lines.join('\n')).not.toContain('starts over');
    expect(lines.at(-1)).toBe(timeLimitLine(config, 1));
    expect(readCheckpoint(runPaths(config).latest).weights).toEqual(stopped.weights);
  }, 120_000);

  it('evaluates on its schedule only, and an evaluation never changes what the run trains', async () => {
    // The same run evaluated at every iteration trains the same network.
    const often = { ...carriedGames(dir, 'evaluated-often'), evalEvery: 1 };
    await train(often, { resume: false, log: () => {} });
    const a = trained(await uncutRun());
    const b = trained(readCheckpoint(runPaths(often).latest));
    for (const key of ['weights', 'optimizer', 'rngState', 'replay', 'samples'] as const) {
      expect(b[key], key).toEqual(a[key]);
    }
    expect(b.curve.length).toBeGreaterThan(a.curve.length);
  }, 120_000);

  it.each([
    // Between the boundaries at 3 and 6: the resume trains 4 and 5 again from 3.
    { stopAt: 5, resumesFrom: 'iter-000003.json' },
    // Before the first boundary: the resume starts over.
    { stopAt: 2, resumesFrom: null },
  ])(
    'says where it stopped, and --resume trains it on to the uncut run, bit for bit (stopped after $stopAt)',
    async ({ stopAt, resumesFrom }) => {
      const config = carriedGames(dir, `cut-${stopAt}`);
      const paths = runPaths(config);
      const lines: string[] = [];
      const cut = await train(config, {
        resume: false,
        timeUpAfter: stopAt,
        log: (line) => lines.push(line),
      });
      expect(cut.iteration).toBe(stopAt);
      expect(lines.at(-1)).toBe(timeLimitLine(config, stopAt));
      expect(lines.at(-1)).toContain(`after iteration ${stopAt} of 8`);
      const saved = JSON.parse(readFileSync(paths.finalEvaluation, 'utf8'));
      expect(saved).toMatchObject({ iteration: stopAt, iterations: 8, stoppedBy: 'time limit' });
      const stopped = readCheckpoint(paths.latest);
      expect(stopped.iteration).toBe(stopAt);
      // No evaluation at the stop, only those due: the uncut run's up to there.
      expect(stopped.curve.every((point) => point.iteration % 2 === 0)).toBe(true);
      // The checkpoint of the boundary before the stop stays for the resume.
      if (resumesFrom !== null) expect(existsSync(join(paths.checkpoints, resumesFrom))).toBe(true);

      const resumedLines: string[] = [];
      const resumed = await train(config, {
        resume: true,
        log: (line) => resumedLines.push(line),
      });
      expect(resumed.iteration).toBe(8);
      expect(trained(readCheckpoint(paths.latest))).toEqual(trained(await uncutRun()));
      expect(resumedLines[0]).toContain(
        resumesFrom === null
          ? `stopped at iteration ${stopAt}, before its first checkpoint boundary (every 3 iterations): it starts over`
          : `stopped at iteration ${stopAt}, between checkpoint boundaries (every 3 iterations): it resumes from ${join(paths.checkpoints, resumesFrom)}`,
      );
      const final = JSON.parse(readFileSync(paths.finalEvaluation, 'utf8'));
      expect(final).toMatchObject({ iteration: 8, iterations: 8, stoppedBy: null });
    },
    120_000,
  );
});
