import type { Preset } from '../algorithm/descriptor.ts';
import { onRegistered } from '../algorithm/registry.ts';
import type { Layer } from './layers.ts';

/**
 * The presets of no one algorithm: their shared settings. An algorithm adds
 * its block to one by a preset of the same name (`smoke` is small for PPO
 * and expert iteration alike).
 */
const SHARED_PRESETS: Readonly<Record<string, Preset>> = {
  /** For tests: seconds, not minutes, with any algorithm (PPO unless a test says otherwise). */
  smoke: {
    help: 'seconds, for tests (any algorithm)',
    settings: {
      name: 'smoke',
      iterations: 2,
      hidden: [16],
      minibatchSize: 64,
      checkpointEvery: 1,
      evalEvery: 1,
      evalGames: 4,
      finalEvalGames: 4,
      evalOpponents: ['random'],
      workers: 0,
      progress: false,
    },
  },
};

/**
 * Named starting points, partial configs of the nested shape: the shared
 * presets with every algorithm's blocks of them, and the algorithms' own.
 * Flags and --config files override them. Unlike a config file or flags, a
 * preset may hold blocks for several algorithms: a run takes its own
 * algorithm's block and leaves the others.
 */
export const PRESETS: Record<string, Layer> = {};
const HELP: Record<string, string> = {};

function addPresets(presets: Readonly<Record<string, Preset>>): void {
  for (const [name, { help, settings }] of Object.entries(presets)) {
    const known = PRESETS[name]?.settings ?? {};
    const twice = Object.keys(settings).find((key) => key in known);
    if (twice !== undefined) throw new Error(`preset ${name}: ${twice} is set twice`);
    PRESETS[name] = { from: 'preset', settings: { ...known, ...settings } };
    if (help !== undefined) HELP[name] = help;
  }
}

addPresets(SHARED_PRESETS);
onRegistered((descriptor) => addPresets(descriptor.presets));

/** `--preset`'s help: each preset's line. */
export function presetsHelp(): string {
  return Object.keys(PRESETS)
    .map((name) => `${name}: ${HELP[name] ?? 'a preset'}`)
    .join('; ');
}
