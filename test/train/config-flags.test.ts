import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import yargs from 'yargs';
import { configFlags, configFromFlags, kebabCase } from '../../train/config/flags.ts';
import { DEFAULT_CONFIG, trainConfigSchema } from '../../train/config/schema.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

async function parse(args: string[]): Promise<Record<string, unknown>> {
  const argv = await yargs(args).options(configFlags()).strict().parseAsync();
  return configFromFlags(argv);
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
    // No flag given: nothing overrides the preset or the config file.
    expect(await parse([])).toEqual({});
  });

  it('`ayoayo train --help` shows every setting in kebab-case with its default and unit', () => {
    const run = spawnSync(process.execPath, ['bin/ayoayo.js', 'train', '--help'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(run.status).toBe(0);
    const help = run.stdout.replace(/\s+/g, ' ');
    for (const name of Object.keys(trainConfigSchema.shape)) {
      expect(help).toContain(`--${kebabCase(name)} `);
    }
    expect(help).not.toMatch(/--[a-z]+[A-Z]/);
    expect(help).toContain(`[default: ${DEFAULT_CONFIG.numEnvs} games at once]`);
    expect(help).toContain(`[default: ${DEFAULT_CONFIG.evalGames} games]`);
    expect(help).toContain('--time-limit-minutes');
    expect(help).toContain('[default: none]');
    expect(help).toContain(`[default: ${DEFAULT_CONFIG.hidden.join(',')} units per layer]`);
  });
});
