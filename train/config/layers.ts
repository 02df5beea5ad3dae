import { TrainConfigError } from '../errors.ts';
import { type Fields, isFields } from '../settings/layer.ts';
import { byKey, nestFlags } from './flags.ts';
import { upgradeLayer } from './legacy.ts';

/**
 * A layer of a run's config as buildConfig takes it: its settings in today's
 * nested shape, and where they came from, which decides how its blocks of
 * other algorithms than the run's are read: a preset may hold blocks for
 * several algorithms (a run takes its own); a flag sets its field in every
 * block that has it (`--epochs`), an error only where no field of the run's
 * algorithm answers to that flag; anything else of another algorithm is an
 * error. Settings handed over as a plain object come from code: today's
 * shape, read as given.
 */
export interface Layer {
  readonly from: 'preset' | 'file' | 'flags' | 'code';
  readonly settings: Readonly<Fields>;
  /** The block fields (`ppo.epochs`) a flag's name set, each with that flag (the command line's, or a file's keys named so). */
  readonly flagFields?: Readonly<Record<string, string>>;
}

/** The layers a run's config is built from, in order (undefined ones are left out). */
export type ConfigLayers = readonly (Layer | Readonly<Fields> | undefined)[];

/** True for a Layer, false for plain settings. */
export const isLayer = (value: object): value is Layer =>
  'from' in value && 'settings' in value && isFields(value.settings);

/** `given` as a layer: plain settings (a ConfigLayer, or anything to validate) are code's. */
export const asLayer = (given: Layer | Readonly<Fields>): Layer =>
  isLayer(given) ? given : { from: 'code', settings: given };

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Refuses keys that would replace an object's prototype rather than add a field (`merged.__proto__ = x`). */
export function checkKeys(fields: object, where: string): void {
  for (const [key, value] of Object.entries(fields)) {
    if (FORBIDDEN_KEYS.has(key)) {
      throw new TrainConfigError(`invalid ${where}: key ${JSON.stringify(key)} is not allowed`);
    }
    if (isFields(value)) checkKeys(value, where);
  }
}

/**
 * Settings read from a file or a sweep, as a layer: in any form earlier
 * versions read (legacy.ts, upgraded here, once), the keys named after flags
 * in camelCase (`searchSimulations`, as flat config files and sweeps give
 * them) nested where they go.
 */
export function readLayer(fields: Fields, where: string): Layer {
  checkKeys(fields, where);
  const { settings, flagFields } = nestFlags(upgradeLayer(fields, where));
  return { from: 'file', settings, flagFields };
}

/** The settings given on the command line (yargs' parsed arguments) as a layer, nested once here. */
export function layerFromArgv(argv: Readonly<Fields>): Layer {
  const given: Fields = {};
  for (const key of byKey().keys()) if (argv[key] !== undefined) given[key] = argv[key];
  return { from: 'flags', ...nestFlags(given) };
}
