import '../setup/builtin-algorithms.ts';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAgent } from '../../agents/spec.ts';
import { ObservationEncoder } from '../../env/gym/observation.ts';
import { initialPosition, legalActions, Random, resolveRules } from '../../env/index.ts';
import { encodeCheckpoint } from '../../models/checkpoint-file.ts';
import { loadPolicy } from '../../models/load-policy.ts';
import { buildConfig } from '../../train/config/build.ts';
import { PRESETS } from '../../train/config/presets.ts';
import { readCheckpoint } from '../../train/run/checkpoint.ts';
import { runPaths } from '../../train/run/paths.ts';
import { train } from '../../train/trainer.ts';

describe('lookaheadEncoding: the boards after the moves in another encoding', () => {
  it('trains a network over them, which loads and plays as a policy with the same encoder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ayoayo-la-encoding-'));
    const config = buildConfig([
      PRESETS.smoke,
      {
        runsDir: dir,
        name: 't',
        iterations: 1,
        algorithm: 'expert-iteration',
        encoding: 'thermometer',
        lookaheadEncoding: 'thermometer',
      },
    ]);
    await train(config, { resume: false, log: () => {} });

    const saved = readCheckpoint(runPaths(config).latest);
    expect(saved.config.lookaheadEncoding).toBe('thermometer');
    const policy = loadPolicy(join(dir, 't'));
    expect(policy.observation).toEqual({
      encoding: 'thermometer',
      lookahead: true,
      lookaheadEncoding: 'thermometer',
    });
    expect(policy.weights.inputSize).toBe(new ObservationEncoder(policy.observation).size);
    expect(policy.weights.inputSize).toBe(146 + 6 * 154);

    const agent = await createAgent(`policy:${join(dir, 't')}`);
    const start = initialPosition();
    const legal = legalActions(start);
    const ctx = { legal, rng: Random.fromSeed(1), rules: resolveRules({}) };
    expect(legal).toContain(await agent.act(start, ctx));
  });

  it('is counts for a run saved before the setting existed, which resumes unchanged', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ayoayo-la-encoding-'));
    const config = buildConfig([PRESETS.smoke, { runsDir: dir, name: 'old', iterations: 1 }]);
    await train(config, { resume: false, log: () => {} });
    // The run as an earlier version wrote it: no lookaheadEncoding in the checkpoint's config.
    const paths = runPaths(config);
    const payload = JSON.parse(readFileSync(paths.latest, 'utf8')).payload;
    delete payload.config.lookaheadEncoding;
    writeFileSync(paths.latest, encodeCheckpoint(payload));

    expect(loadPolicy(paths.latest).observation.lookaheadEncoding).toBe('counts');
    const result = await train([{ runsDir: dir, name: 'old', iterations: 2 }], {
      resume: true,
      log: () => {},
    });
    expect(result.iteration).toBe(2);
    expect(readCheckpoint(paths.latest).config.lookaheadEncoding).toBe('counts');
  });

  it('refuses an unknown encoding by name', () => {
    expect(() => buildConfig([PRESETS.smoke, { lookaheadEncoding: 'binary' as 'counts' }])).toThrow(
      /lookaheadEncoding/,
    );
  });
});
