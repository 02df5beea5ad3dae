import { algorithmOf } from '../algorithm/registry.ts';
import type { TrainConfig } from '../settings/schema.ts';

/**
 * Every agent spec a run plays against: the evaluation's baselines and its
 * algorithm's training opponents. A queue job of the run carries the files
 * these read, and a worker refuses the external engines among them unless
 * allowed.
 */
export function baselineSpecs(config: TrainConfig): string[] {
  return [...new Set([...config.evalOpponents, ...algorithmOf(config).opponents(config)])];
}
