import '../setup/builtin-algorithms.ts';
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadBackend } from '../../models/backend.ts';
import { encodeCheckpoint } from '../../models/checkpoint-file.ts';
import { setInferenceChoice } from '../../models/inference/choice.ts';
import { loadPolicy } from '../../models/load-policy.ts';
import { readPolicyFile } from '../../models/read-policy-file.ts';
import { buildConfig } from '../../train/config/build.ts';
import { readLayer } from '../../train/config/layers.ts';
import { parseTrainConfig, trainConfigSchema } from '../../train/config/validate.ts';
import { readCheckpoint } from '../../train/run/checkpoint.ts';
import { runPaths } from '../../train/run/paths.ts';
import { train } from '../../train/trainer.ts';
import { expectOneLineError } from '../ayoayo-command.ts';
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
    // Every other setting as it was saved, but those removed since, which it held at their
    // defaults, and those added since at the value that trains it as it was.
    const { captureSeedStays: _, leftoverTo: __, expertIteration, ...others } = saved;
    const removed = ['fullSearchShare', 'cheapSimulations', 'solverPlaysProven', 'alphaBetaDepth'];
    expect(expertIteration).toMatchObject({ fullSearchShare: 1, alphaBetaDepth: 0 });
    const kept = Object.entries(expertIteration as object).filter(
      ([key]) => !removed.includes(key) && key !== 'alphaBetaShare',
    );
    expect(config).toEqual({
      ...others,
      rules: config.rules,
      updateSlices: null,
      expertIteration: Object.fromEntries(kept),
    });
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
    // The policy is stamped with the run's rules, and its checkpoints, of then and of today, say them.
    expect(readPolicyFile(result.policyPath).file.rules).toEqual(saved.rules);
    expect(loadPolicy(fixture(`${name}/checkpoints/latest.json`)).rules).toEqual(saved.rules);
    expect(loadPolicy(runPaths({ runsDir, name }).latest).rules).toEqual(saved.rules);
    const end = expected(name);
    // The uninterrupted run was trained on the fixture's backend; floating point differs elsewhere.
    if (backend === end.backend) expect(ending(runsDir, name, backend)).toEqual(end);
  });
});

describe('a setting that was removed', () => {
  const refused = (setting: string, value: string) =>
    new RegExp(
      `expertIteration.${setting} \\(--[a-z-]+\\) is ${value}, but this version has no such setting any more \\(.+\\); it reads the setting only at`,
    );

  it('is dropped at the value every run had without it, and refused, naming it, at another', () => {
    // As a config file or a sweep gives them: read once, where they come in.
    const read = (fields: Record<string, unknown>, where = 'config') =>
      buildConfig([readLayer(fields, where)], where);
    const layer = (expertIteration: object) => ({ algorithm: 'expert-iteration', expertIteration });
    expect(read(layer({ alphaBetaDepth: 0, solverPlaysProven: false }))).toEqual(read(layer({})));
    // One that counted only beside another removed setting is dropped at any value.
    expect(read(layer({ alphaBetaShare: 0.5, cheapSimulations: 2 }))).toEqual(read(layer({})));
    expect(() => read(layer({ alphaBetaDepth: 8 }))).toThrow(refused('alphaBetaDepth', '8'));
    // Keyed by its flag, as a flat config file or a sweep gave it.
    expect(() => read({ algorithm: 'expert-iteration', fullSearchShare: 0.25 }, 'sweep x')).toThrow(
      /^invalid sweep x: expertIteration.fullSearchShare \(--full-search-share\) is 0.25/,
    );
    expect(read({ algorithm: 'expert-iteration', solverPlaysProven: false })).toEqual(
      read(layer({})),
    );
    // Code gives today's shape: a removed setting there is unknown.
    expect(() => buildConfig([layer({ alphaBetaDepth: 0 })])).toThrow(
      /expertIteration.alphaBetaDepth: unknown setting/,
    );
  });

  it("at another value in a run's config.json, refuses the resume in one line naming it", async () => {
    const runsDir = copyRun(name);
    const path = runPaths({ runsDir, name }).config;
    const saved = readJson(path);
    const expertIteration = { ...(saved.expertIteration as object), solverPlaysProven: true };
    writeFileSync(path, JSON.stringify({ ...saved, expertIteration }));
    await expectOneLineError(
      ['train', '--runs-dir', runsDir, '--name', name, '--resume'],
      `ayoayo: invalid config ${path}: expertIteration.solverPlaysProven (--solver-plays-proven) is true, but this version has no such setting any more`,
    );
  });

  it('at another value in its checkpoint, refuses the resume naming it', async () => {
    const runsDir = copyRun(name);
    const { latest } = runPaths({ runsDir, name });
    const payload = JSON.parse(readFileSync(latest, 'utf8')).payload;
    payload.config.expertIteration.alphaBetaDepth = 8;
    writeFileSync(latest, encodeCheckpoint(payload));
    await expect(train([{ name, runsDir }], { resume: true, log: () => {} })).rejects.toThrow(
      refused('alphaBetaDepth', '8'),
    );
  });
});
