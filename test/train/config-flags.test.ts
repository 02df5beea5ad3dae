import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import yargs from 'yargs';
import { configFlags } from '../../cli/train-flags.ts';
import { buildConfig } from '../../train/config/build.ts';
import { settingFlags } from '../../train/config/flags.ts';
import { layerFromArgv, readLayer } from '../../train/config/layers.ts';
import { parseTrainConfig } from '../../train/config/validate.ts';
import { expertIterationSettingsSchema } from '../../train/expert-iteration/settings.ts';
import { DEFAULT_CONFIG } from '../../train/index.ts';
import { ppoSettingsSchema } from '../../train/ppo/settings.ts';
import { DEFAULT_SHARED, sharedSettingsSchema } from '../../train/settings/schema.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The layer the flags give. */
async function layerOf(args: string[]) {
  const argv = await yargs(args)
    .options(configFlags())
    .strict()
    .exitProcess(false)
    .fail((message) => {
      throw new Error(message);
    })
    .parseAsync();
  return layerFromArgv(argv);
}

/** The settings the flags give, as plain data. */
async function parse(args: string[]): Promise<Record<string, unknown>> {
  return JSON.parse(JSON.stringify((await layerOf(args)).settings));
}

async function configOf(args: string[]) {
  return buildConfig([await layerOf(args)]);
}

describe('train settings on the command line', () => {
  it('are named in kebab-case, and the camelCase spelling still works', async () => {
    expect(Object.keys(configFlags())).toContain('num-envs');
    expect(Object.keys(configFlags()).filter((f) => /[A-Z]/.test(f))).toEqual([]);
    // A flag of several algorithms' blocks sets each; the run takes its own algorithm's.
    expect(await parse(['--num-envs', '8', '--time-limit-minutes', 'none'])).toEqual({
      timeLimitMinutes: null,
      ppo: { numEnvs: 8 },
      expertIteration: { gamesAtOnce: 8 },
    });
    expect(await parse(['--numEnvs', '8', '--hidden', '32,16'])).toEqual({
      hidden: [32, 16],
      ppo: { numEnvs: 8 },
      expertIteration: { gamesAtOnce: 8 },
    });
    // An empty list is 'none', as the help shows its default.
    expect(await parse(['--extra-eval-opening-plies', 'none'])).toEqual({
      extraEvalOpeningPlies: [],
    });
    // No flag given: nothing overrides the preset or the config file.
    expect(await parse([])).toEqual({});
    // A list of agents is split as every list of agents is: the commas inside one agent stay.
    expect(
      await parse(['--eval-opponents', 'az:models/pretrained,sims=50,minimax:2,greedy']),
    ).toEqual({ evalOpponents: ['az:models/pretrained,sims=50', 'minimax:2', 'greedy'] });
  });

  it('every field of every block has a flag, and each flag sets the field of the run’s algorithm', async () => {
    const targets = (block: string | null) =>
      settingFlags().flatMap((f) =>
        f.targets.filter((t) => (t.algorithm?.block ?? null) === block && !t.alias),
      );
    const fields = (block: string) => new Set(targets(block).map((t) => t.field));
    expect(fields('ppo')).toEqual(new Set(Object.keys(ppoSettingsSchema.shape)));
    expect(fields('expertIteration')).toEqual(
      new Set(Object.keys(expertIterationSettingsSchema.shape)),
    );
    expect(targets(null).map((t) => t.field)).toEqual([
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

  it('refuses a setting given under two of its names with different values, naming both', async () => {
    const twice =
      'are two names of one expert iteration setting, expertIteration.gamesAtOnce, given different values: give one of them';
    const ei = ['--algorithm', 'expert-iteration'];
    await expect(configOf([...ei, '--num-envs', '4', '--games-at-once', '8'])).rejects.toThrow(
      `--num-envs 4 and --games-at-once 8 ${twice}`,
    );
    // A config file's flag names are the same two names.
    expect(() =>
      readLayer({ algorithm: 'expert-iteration', numEnvs: 4, gamesAtOnce: 8 }, 'config'),
    ).toThrow(`--num-envs 4 and --games-at-once 8 ${twice}`);
    // The same value twice is one setting given once.
    expect(await configOf([...ei, '--num-envs', '8', '--games-at-once', '8'])).toMatchObject({
      expertIteration: { gamesAtOnce: 8 },
    });
  });

  it('names every unknown key of a config, top level or nested, with the nearest known key', () => {
    const where = 'config (c.json and flags)';
    // Under PPO, a misspelt key of expert iteration's block: unknown, named without a flag
    // it does not have, and the misspelt top-level key beside it.
    // As a config file gives them (read once where they come in), then built.
    const fromFile = (fields: Record<string, unknown>, at = 'config') =>
      buildConfig([readLayer(fields, at)], at);
    expect(() => fromFile({ hiddden: [8], expertIteration: { simulatons: 4 } }, where)).toThrow(
      `invalid ${where}: hiddden: unknown setting (did you mean hidden?); expertIteration.simulatons: unknown setting (did you mean simulations?), and expertIteration applies to --algorithm expert-iteration only (the run's algorithm is ppo)`,
    );
    expect(() =>
      fromFile({
        algorithm: 'expert-iteration',
        seeed: 2,
        searchSimulatons: 8,
        rules: { captureSeedStay: true },
        expertIteration: { simulatons: 4, zzzzzz: 1 },
      }),
    ).toThrow(
      'invalid config: rules.captureSeedStay: unknown setting (did you mean captureSeedStays?); expertIteration.simulatons: unknown setting (did you mean simulations?); expertIteration.zzzzzz: unknown setting; seeed: unknown setting (did you mean seed?); searchSimulatons: unknown setting (did you mean searchSimulations?)',
    );
    // A whole saved config (a run's config.json) names them the same way.
    expect(() => parseTrainConfig({ ...DEFAULT_CONFIG, ppo: { gama: 0.9 } })).toThrow(
      'invalid config: ppo.gama: unknown setting (did you mean gamma?)',
    );
  });

  it('the rules are one setting: --rules gives the options, the others keep their defaults', async () => {
    expect(await configOf(['--rules', 'leftoverTo=owner'])).toMatchObject({
      rules: { captureSeedStays: false, leftoverTo: 'owner' },
    });
    expect(
      await configOf(['--rules', 'captureSeedStays=true,leftoverTo=owner', '--iterations', '3']),
    ).toMatchObject({ iterations: 3, rules: { captureSeedStays: true, leftoverTo: 'owner' } });
    await expect(configOf(['--rules', 'leftoverTo=moon'])).rejects.toThrow(
      /^--rules: invalid rules: leftoverTo: Invalid option/,
    );
    // A layer gives some of the options; the others stay as the layers under it set them.
    expect(
      buildConfig([{ rules: { captureSeedStays: true } }, { rules: { leftoverTo: 'owner' } }])
        .rules,
    ).toEqual({ captureSeedStays: true, leftoverTo: 'owner' });
    expect(() => buildConfig([{ rules: { leftoverTo: 'moon' } }])).toThrow(
      /^invalid config: rules.leftoverTo: Invalid option/,
    );
    // The two rule flags of before are gone: one spelling of the rules on every command.
    await expect(parse(['--capture-seed-stays'])).rejects.toThrow(/Unknown argument/);
  });

  it('`ayoayo train --help` shows every setting in kebab-case with its default and unit, grouped by algorithm', () => {
    const run = spawnSync(process.execPath, ['bin/ayoayo.js', 'train', '--help'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(run.status).toBe(0);
    const help = run.stdout.replace(/\s+/g, ' ');
    for (const { flag } of settingFlags()) expect(help).toContain(`--${flag} `);
    expect(help).not.toMatch(/--[a-z]+[A-Z]/);
    expect(help).toContain(`[default: ${ppoSettingsSchema.parse({}).numEnvs} games at once]`);
    expect(help).toContain(
      `[default: ${expertIterationSettingsSchema.parse({}).movesPerIteration} moves]`,
    );
    expect(help).toContain(`[default: ${DEFAULT_SHARED.evalGames} games]`);
    expect(help).toContain('--time-limit-minutes');
    expect(help).toContain('[default: none]');
    expect(help).toContain(`[default: ${DEFAULT_SHARED.hidden.join(',')} units per layer]`);
    // Each setting's range, from its schema.
    expect(help).toMatch(
      /--num-envs +ppo, reinforce: environments stepped in lockstep; an integer from 1 to 8192/,
    );
    expect(help).toContain('Adam learning rate; a number above 0, at most 1');
    expect(help).toContain('hidden layer widths (comma-separated); each an integer from 1 to 4096');
    expect(help).toContain('[default: captureSeedStays=false,leftoverTo=opponent]');
    // Every preset, with its line.
    for (const preset of ['quick', 'long', 'quick-ppo', 'long-ppo', 'smoke']) {
      expect(help).toMatch(new RegExp(`[(;] ?${preset}: `));
    }
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
