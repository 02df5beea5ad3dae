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
