import { describe, expect, it } from 'vitest';
import { loadBackend } from '../../models/backend.ts';
import { setInferenceChoice } from '../../models/inference/choice.ts';
import { readPolicyFile } from '../../models/read-policy-file.ts';
import { parseTrainConfig, trainConfigSchema } from '../../train/config/build.ts';
import { readCheckpoint } from '../../train/run/checkpoint.ts';
import { runPaths } from '../../train/run/paths.ts';
import { train } from '../../train/trainer.ts';
import { ending, readJson, savedRuns } from './saved-runs.ts';

/**
 * A run saved before the rules were one setting (test/fixtures/train/README.md):
 * its config.json and checkpoint hold the rule options as two settings of
 * their own, here other than the defaults (the capturing seed stays, the
 * leftover seeds go to their owner).
 */
const { fixture, copyRun, expected } = savedRuns('grouped-config-runs');
const name = 'expert-iteration';

const { name: backend } = await loadBackend('auto');
// Made with the fallback's inference, as the other saved runs: floats match on the same backends only.
setInferenceChoice('tfjs');

describe('a run saved with the rule options as two settings', () => {
  it('reads as the config of today, its rules one value', () => {
    const saved = readJson(fixture(`${name}/config.json`));
    expect(saved).toMatchObject({ captureSeedStays: true, leftoverTo: 'owner' });
    const config = parseTrainConfig(saved);
    expect(config.rules).toEqual({ captureSeedStays: true, leftoverTo: 'owner' });
    expect(config).not.toHaveProperty('captureSeedStays');
    expect(config).not.toHaveProperty('leftoverTo');
    // Every other setting as it was saved.
    const { captureSeedStays: _, leftoverTo: __, ...others } = saved;
    expect(config).toMatchObject({ ...others, expertIteration: expect.any(Object) });
  });

  it('resumes as the same run, and saves its config in the form of today', async () => {
    const runsDir = copyRun(name);
    const result = await train([{ name, runsDir }], { resume: true, log: () => {} });
    expect(result.iteration).toBe(4);
    const saved = readJson(runPaths({ runsDir, name }).config);
    expect(trainConfigSchema.safeParse(saved).success).toBe(true);
    expect(saved).not.toHaveProperty('captureSeedStays');
    expect(saved.rules).toEqual({ captureSeedStays: true, leftoverTo: 'owner' });
    expect(readCheckpoint(runPaths({ runsDir, name }).latest).config).toEqual(saved);
    // The policy is stamped with the run's rules.
    expect(readPolicyFile(result.policyPath).file.rules).toEqual(saved.rules);
    const end = expected(name);
    // The uninterrupted run was trained on the fixture's backend; floating point differs elsewhere.
    if (backend === end.backend) expect(ending(runsDir, name, backend)).toEqual(end);
  });
});
