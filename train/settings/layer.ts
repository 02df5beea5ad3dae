import type { Rules } from '../../env/rules.ts';
import type { SharedSettings } from './schema.ts';

/**
 * Settings a preset, a config file, a sweep or the command line gives, in the
 * nested shape of a config: some shared settings (the rules as some of their
 * options), the algorithm, and blocks of algorithm settings, each partial.
 * buildConfig lays them over the defaults, later layers winning.
 */
export type ConfigLayer = Omit<Partial<SharedSettings>, 'rules'> & {
  readonly rules?: Partial<Rules>;
  readonly algorithm?: string;
  readonly [block: string]: unknown;
};

/** A layer's (or a block's) fields, as read from a file or built from flags. */
export type Fields = Record<string, unknown>;

/** True for an object of fields (not null, not an array). */
export const isFields = (value: unknown): value is Fields =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/*
 * How buildConfig reads a layer's blocks of other algorithms than the run's:
 * a preset may hold blocks for several algorithms (a run takes its own); a
 * flag sets its field in every block that has the flag (`--epochs`), so such
 * a field is an error only when no field of the run's algorithm answers to
 * that flag; any other block of another algorithm is an error.
 */
const PRESET = Symbol('a preset');
const FLAG_FIELDS = Symbol('the block fields set by flags');

type Marked = ConfigLayer & {
  readonly [PRESET]?: true;
  readonly [FLAG_FIELDS]?: ReadonlyMap<string, string>;
};

/** `layer` as a preset (a copy made by spreading stays one). */
export function asPreset(layer: ConfigLayer): ConfigLayer {
  const marked: Marked = { ...layer, [PRESET]: true };
  return marked;
}

export function isPreset(layer: object): boolean {
  const marked: { readonly [PRESET]?: true } = layer;
  return marked[PRESET] === true;
}

/** `layer`, whose block fields (`ppo.epochs`) were set by the flags `fields` maps them to. */
export function withFlagFields(
  layer: ConfigLayer,
  fields: ReadonlyMap<string, string>,
): ConfigLayer {
  const marked: Marked = { ...layer, [FLAG_FIELDS]: fields };
  return marked;
}

/** The block fields of `layer` that flags set (`block.field`), and the flag that set each. */
export function flagFieldsOf(layer: object): ReadonlyMap<string, string> {
  const marked: { readonly [FLAG_FIELDS]?: ReadonlyMap<string, string> } = layer;
  return marked[FLAG_FIELDS] ?? new Map();
}
