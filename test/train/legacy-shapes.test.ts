import '../setup/builtin-algorithms.ts';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { algorithmOf } from '../../train/algorithm/registry.ts';
import { upgradeSaved } from '../../train/config/legacy.ts';
import { parseTrainConfig } from '../../train/config/validate.ts';
import { sharedSettingsSchema } from '../../train/settings/schema.ts';

const fixture = (path: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`../fixtures/train/${path}`, import.meta.url), 'utf8')) as Record<
    string,
    unknown
  >;

/** The config.json of a run saved by each earlier version (test/fixtures/train/README.md). */
const SAVED = {
  'flat (77a0fa0), expert iteration': 'flat-config-runs/expert-iteration/config.json',
  'flat (77a0fa0), PPO': 'flat-config-runs/ppo/config.json',
  'flat, the pretrained policy of 940 iterations': 'flat-config-long-940.json',
  'grouped (d00aed7), rule options apart': 'grouped-config-runs/expert-iteration/config.json',
  'before updateSlices (a927700)': 'two-thread-update-runs/expert-iteration/config.json',
} as const;

describe('a config saved by an earlier version', () => {
  it.each(Object.entries(SAVED))(
    '%s reads whole from its frozen shape: no setting of today takes today’s default',
    (_, path) => {
      const upgraded = upgradeSaved(fixture(path)) as Record<string, unknown>;
      const config = parseTrainConfig(fixture(path));
      const { block, settings } = algorithmOf(config);
      // Every setting of today is in the upgraded config itself, so a default changed
      // today (or a bound) cannot change what the old run reads.
      for (const key of Object.keys(sharedSettingsSchema.shape))
        expect(upgraded).toHaveProperty(key);
      const own = upgraded[block] as Record<string, unknown>;
      for (const key of Object.keys(settings.shape)) expect(own).toHaveProperty(key);
    },
  );
});
