import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import yargs from 'yargs';
import { buildConfig } from '../../train/config/build.ts';
import { configFlags, configFromFlags, SETTING_FLAGS } from '../../train/config/flags.ts';
import { DEFAULT_BLOCKS, DEFAULT_CONFIG } from '../../train/config/presets.ts';
import {
  expertIterationSettingsSchema,
  ppoSettingsSchema,
  sharedSettingsSchema,
} from '../../train/config/schema.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

async function parse(args: string[]): Promise<Record<string, unknown>> {
  const argv = await yargs(args).options(configFlags()).strict().parseAsync();
  return configFromFlags(argv);
}

async function configOf(args: string[]) {
  return buildConfig([await parse(args)]);
}

describe('train settings on the command line', () => {
  it('are named in kebab-case, and the camelCase spelling still works', async () => {
    expect(Object.keys(configFlags())).toContain('num-envs');
    expect(Object.keys(configFlags()).filter((f) => /[A-Z]/.test(f))).toEqual([]);
    expect(await parse(['--num-envs', '8', '--time-limit-minutes', 'none'])).toEqual({
      numEnvs: 8,
      timeLimitMinutes: null,
    });
    expect(await parse(['--numEnvs', '8', '--hidden', '32,16'])).toEqual({
      numEnvs: 8,
      hidden: [32, 16],
    });
    // An empty list is 'none', as the help shows its default.
    expect(await parse(['--extra-eval-opening-plies', 'none'])).toEqual({
      extraEvalOpeningPlies: [],
    });
    // No flag given: nothing overrides the preset or the config file.
    expect(await parse([])).toEqual({});
  });

  it('every field of every block has a flag, and each flag sets the field of the run’s algorithm', async () => {
    const targets = (block: 'ppo' | 'expertIteration') =>
      SETTING_FLAGS.flatMap((f) => (f[block] === undefined ? [] : [f[block]]));
    expect(new Set(targets('ppo'))).toEqual(new Set(Object.keys(ppoSettingsSchema.shape)));
    expect(new Set(targets('expertIteration'))).toEqual(
      new Set(Object.keys(expertIterationSettingsSchema.shape)),
    );
    expect(SETTING_FLAGS.flatMap((f) => (f.shared === undefined ? [] : [f.shared]))).toEqual([
      'name',
      'runsDir',
      'seed',
      'backend',
      'algorithm',
      ...Object.keys(sharedSettingsSchema.shape).slice(4),
    ]);
    // `--epochs` is each algorithm's own; `--num-envs` is expert iteration's `--games-at-once`.
    expect(await configOf(['--epochs', '3'])).toMatchObject({ ppo: { epochs: 3 } });
    expect(
      await configOf([
        '--algorithm',
        'expert-iteration',
        '--epochs',
        '3',
        '--num-envs',
        '32',
        '--search-simulations',
        '8',
      ]),
    ).toMatchObject({
      expertIteration: { epochs: 3, gamesAtOnce: 32, simulations: 8 },
    });
    expect(
      await configOf(['--algorithm', 'expert-iteration', '--games-at-once', '16']),
    ).toMatchObject({ expertIteration: { gamesAtOnce: 16 } });
  });

  it("refuses a flag of the other algorithm, naming the flag and the run's algorithm", async () => {
    await expect(configOf(['--games-at-once', '16'])).rejects.toThrow(
      "invalid config: expertIteration.gamesAtOnce (--games-at-once): applies to --algorithm expert-iteration only (the run's algorithm is ppo)",
    );
    await expect(
      configOf(['--algorithm', 'expert-iteration', '--rollout-steps', '8', '--clip', '0.1']),
    ).rejects.toThrow(
      "invalid config: ppo.rolloutSteps (--rollout-steps): applies to --algorithm ppo or reinforce only (the run's algorithm is expert-iteration); expert iteration plays --moves-per-iteration moves per iteration; ppo.clip (--clip): applies to --algorithm ppo or reinforce only (the run's algorithm is expert-iteration)",
    );
    await expect(
      configOf(['--search-simulations', '0', '--algorithm', 'expert-iteration']),
    ).rejects.toThrow(
      'invalid config: expertIteration.simulations (--search-simulations): Too small',
    );
  });

  it('`ayoayo train --help` shows every setting in kebab-case with its default and unit, grouped by algorithm', () => {
    const run = spawnSync(process.execPath, ['bin/ayoayo.js', 'train', '--help'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(run.status).toBe(0);
    const help = run.stdout.replace(/\s+/g, ' ');
    for (const { flag } of SETTING_FLAGS) expect(help).toContain(`--${flag} `);
    expect(help).not.toMatch(/--[a-z]+[A-Z]/);
    expect(help).toContain(`[default: ${DEFAULT_CONFIG.ppo.numEnvs} games at once]`);
    expect(help).toContain(`[default: ${DEFAULT_BLOCKS.expertIteration.movesPerIteration} moves]`);
    expect(help).toContain(`[default: ${DEFAULT_CONFIG.evalGames} games]`);
    expect(help).toContain('--time-limit-minutes');
    expect(help).toContain('[default: none]');
    expect(help).toContain(`[default: ${DEFAULT_CONFIG.hidden.join(',')} units per layer]`);
    expect(help).toContain('[choices: "ppo", "reinforce", "expert-iteration"]');
    const ppoGroup = help.indexOf('PPO and REINFORCE settings');
    const eiGroup = help.indexOf('Expert iteration settings');
    expect(ppoGroup).toBeGreaterThan(0);
    expect(help.indexOf('--rollout-steps')).toBeGreaterThan(ppoGroup);
    expect(help.indexOf('--search-simulations')).toBeGreaterThan(eiGroup);
    expect(help).not.toContain('alphazero');
    expect(help).not.toMatch(/self-play \(PPO\)/);
  });
});
