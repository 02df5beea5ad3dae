import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildConfig } from '../../train/config/build.ts';
import { PRESETS } from '../../train/config/presets.ts';
import { readCheckpoint } from '../../train/run/checkpoint.ts';
import { runPaths } from '../../train/run/paths.ts';
import { train } from '../../train/trainer.ts';
import { RunClock } from '../../train/training-loop.ts';

describe('the time limit', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('checkpoints the iteration it stops at wherever in the iteration the time runs out', async () => {
    const runsDir = mkdtempSync(join(tmpdir(), 'ayoayo-time-limit-'));
    // The clock says the time is up from its (k+1)-th question on: every place
    // the loop asks, in turn, including just after an iteration's checkpoint
    // was decided, where a run used to end one iteration past its checkpoint.
    for (let k = 0; k < 8; k++) {
      let asked = 0;
      vi.spyOn(RunClock.prototype, 'timeUp').mockImplementation(() => ++asked > k);
      const config = buildConfig([
        PRESETS.smoke,
        {
          runsDir,
          name: `k${k}`,
          iterations: 100,
          evalEvery: 4,
          checkpointEvery: 3,
          finalEvalGames: 2,
          timeLimitMinutes: 60,
          progress: false,
        },
      ]);
      const lines: string[] = [];
      const result = await train(config, { resume: false, log: (line) => lines.push(line) });
      vi.restoreAllMocks();
      expect(result.iteration, `time up from question ${k + 1}`).toBeLessThan(100);
      if (result.iteration > 0) {
        expect(readCheckpoint(runPaths(config).latest).iteration, `k = ${k}`).toBe(
          result.iteration,
        );
      }
      expect(lines).toContain(
        `ayoayo train: the time limit of 60 minutes stopped the run after iteration ${result.iteration} of 100; --resume with a larger --time-limit-minutes continues it`,
      );
    }
  });

  it('keeps the iteration it stops at, even when the time runs out during an evaluation, and says so', async () => {
    const runsDir = mkdtempSync(join(tmpdir(), 'ayoayo-time-limit-'));
    // Evaluations of 200 games a baseline take longer than the whole limit, so
    // the time runs out during the first one (iteration 4), between checkpoints (every 3).
    const config = buildConfig([
      PRESETS.smoke,
      {
        runsDir,
        name: 't',
        iterations: 100,
        evalEvery: 4,
        checkpointEvery: 3,
        evalGames: 200,
        finalEvalGames: 2,
        timeLimitMinutes: 0.02,
        progress: false,
      },
    ]);
    const lines: string[] = [];
    const result = await train(config, { resume: false, log: (line) => lines.push(line) });
    expect(result.iteration).toBeLessThan(100);
    expect(readCheckpoint(runPaths(config).latest).iteration).toBe(result.iteration);
    expect(lines).toContain(
      `ayoayo train: the time limit of 0.02 minutes stopped the run after iteration ${result.iteration} of 100; --resume with a larger --time-limit-minutes continues it`,
    );
  });
});
