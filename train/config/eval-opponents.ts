import { checkAgentSpec, type JobFiles, parseAgentList } from '../../agents/spec.ts';
import { TrainConfigError } from '../errors.ts';
import type { TrainConfig } from '../settings/schema.ts';

/**
 * Checks the evaluation's baselines before the first iteration: a bad or
 * repeated spec would otherwise fail at the first evaluation, after the
 * iterations since the last checkpoint were trained for nothing.
 */
export async function checkEvalOpponents(config: TrainConfig, files?: JobFiles): Promise<void> {
  try {
    parseAgentList(config.evalOpponents);
    for (const spec of config.evalOpponents) {
      await checkAgentSpec(spec, {
        rules: config.rules,
        ...(files !== undefined ? { files } : {}),
      });
    }
  } catch (error) {
    throw new TrainConfigError(
      `evalOpponents (--eval-opponents): ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
