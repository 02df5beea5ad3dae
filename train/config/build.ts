import { isDeepStrictEqual } from 'node:util';
import { algorithmNamed, algorithmOf, defaultAlgorithm } from '../algorithm/registry.ts';
import { type Fields, isFields } from '../settings/layer.ts';
import { DEFAULT_SHARED, sharedSettingsSchema, type TrainConfig } from '../settings/schema.ts';
import { answersTo } from './flags.ts';
import { asLayer, type ConfigLayers, checkKeys } from './layers.ts';
import {
  blockOwner,
  configError,
  configIssues,
  type Issue,
  otherAlgorithmIssue,
  settingName,
} from './validate.ts';

const DEFAULTS: Readonly<Fields> = DEFAULT_SHARED;

/**
 * A run's config: the defaults, then each layer over them (a preset, a
 * config file, command-line flags; later layers win), then validated. Each
 * layer is in today's nested shape (files and sweeps are read by readLayer,
 * flags by layerFromArgv, once, where they come in): shared settings,
 * `algorithm`, and the run's algorithm's block (`expertIteration:
 * { simulations: 32 }`). An object setting (`rules`) is laid over its value
 * option by option. Settings of another algorithm are an error naming each,
 * except in a preset, which may hold blocks for several, and for a flag that
 * the run's algorithm has too (`--epochs`).
 */
export function buildConfig(layers: ConfigLayers, where = 'config'): TrainConfig {
  const read = layers.filter((l) => l !== undefined).map(asLayer);
  for (const layer of read) checkKeys(layer.settings, where);
  const given = read.findLast((l) => l.settings.algorithm !== undefined)?.settings.algorithm;
  const algorithm = given ?? defaultAlgorithm();
  // An unknown algorithm is reported by the schema; its settings are read as the default's meanwhile.
  const chosen = typeof algorithm === 'string' ? algorithmNamed(algorithm) : undefined;
  const own = chosen ?? algorithmOf({ algorithm: defaultAlgorithm() });
  const shared: Fields = {};
  const block: Fields = {};
  const problems: Issue[] = [];
  for (const layer of read) {
    const flagFields = layer.flagFields ?? {};
    for (const [key, value] of Object.entries(layer.settings)) {
      if (key === 'algorithm' || value === undefined) continue;
      const owner = blockOwner(key);
      if (owner === undefined) {
        const before = shared[key] ?? DEFAULTS[key];
        shared[key] = isFields(value) && isFields(before) ? { ...before, ...value } : value;
      } else if (!isFields(value)) {
        problems.push({ path: [key], message: `must be an object of ${key} settings` });
      } else if (owner === own) {
        for (const [field, v] of Object.entries(value)) if (v !== undefined) block[field] = v;
      } else if (layer.from !== 'preset') {
        for (const field of Object.keys(value)) {
          const flag = flagFields[`${key}.${field}`];
          if (flag !== undefined && answersTo(own, flag)) continue;
          problems.push(otherAlgorithmIssue(owner, field, String(algorithm)));
        }
      }
    }
  }
  const checked = configIssues({ ...shared, algorithm, [own.block]: block });
  // Settings of another algorithm are named beside every other problem, never instead of them.
  if ('issues' in checked) {
    throw configError(where, [...checked.issues, ...(chosen !== undefined ? problems : [])]);
  }
  if (problems.length > 0 && chosen !== undefined) throw configError(where, problems);
  return checked.config;
}

/**
 * The run folder layers name (`name`, `runsDir`, defaults under them),
 * checked as the schema checks them, without the rest of the config (whose
 * algorithm may come from the run's checkpoint).
 */
export function runLocation(
  layers: ConfigLayers,
  where = 'config',
): { readonly name: string; readonly runsDir: string } {
  const location: Fields = { name: DEFAULT_SHARED.name, runsDir: DEFAULT_SHARED.runsDir };
  for (const layer of layers) {
    if (layer === undefined) continue;
    const { settings } = asLayer(layer);
    checkKeys(settings, where);
    const fields: Readonly<Fields> = { ...settings };
    for (const key of ['name', 'runsDir'] as const) {
      if (fields[key] !== undefined) location[key] = fields[key];
    }
  }
  const parsed = sharedSettingsSchema.pick({ name: true, runsDir: true }).safeParse(location);
  if (!parsed.success) throw configError(where, parsed.error.issues);
  return parsed.data;
}

/**
 * The settings in which two configs differ, by path (`hidden`,
 * `expertIteration.simulations (--search-simulations)`), leaving out
 * `ignore`; of two algorithms, only `algorithm` itself.
 */
export function differingSettings(
  a: TrainConfig,
  b: TrainConfig,
  ignore: ReadonlySet<string>,
): { readonly path: string; readonly a: unknown; readonly b: unknown }[] {
  const out: { path: string; a: unknown; b: unknown }[] = [];
  const fa: Readonly<Fields> = a;
  const fb: Readonly<Fields> = b;
  const sameBlock = algorithmNamed(a.algorithm)?.block === algorithmNamed(b.algorithm)?.block;
  for (const key of Object.keys(fa)) {
    if (ignore.has(key)) continue;
    if (blockOwner(key) !== undefined) {
      const ba = fa[key];
      const bb = fb[key];
      if (!sameBlock || !isFields(ba) || !isFields(bb)) continue;
      for (const field of Object.keys(ba)) {
        if (!isDeepStrictEqual(ba[field], bb[field])) {
          out.push({ path: settingName([key, field]), a: ba[field], b: bb[field] });
        }
      }
    } else if (!isDeepStrictEqual(fa[key], fb[key])) {
      out.push({ path: key, a: fa[key], b: fb[key] });
    }
  }
  return out;
}
