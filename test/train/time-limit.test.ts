import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildConfig } from '../../train/config/build.ts';
import { PRESETS } from '../../train/config/presets.ts';
import { readCheckpoint } from '../../train/run/checkpoint.ts';
import { runPaths } from '../../train/run/paths.ts';
import type { ConfigLayer } from '../../train/settings/layer.ts';
import { train } from '../../train/trainer.ts';
import { RunClock } from '../../train/training-loop.ts';

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
  expect(lines).toContain(
    `ayoayo train: the time limit of ${config.timeLimitMinutes} minutes stopped the run after iteration ${iteration} of 100; --resume with a larger --time-limit-minutes continues it`,
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
