/**
 * Reads an ayoayo-policy file (the `json` export) in a browser: the same
 * validation and decoding as Node (models/policy-file.ts is browser-safe),
 * returned in the shape the page uses.
 */
import { type ObservationConfig, resolveObservationConfig } from '../../env/gym/observation.ts';
import { type Rules, resolveRules } from '../../env/rules.ts';
import type { MlpWeights } from '../mlp-runner.ts';
import { decodePolicyFile } from '../policy-file.ts';

export interface BrowserPolicy {
  readonly weights: MlpWeights;
  readonly observation: ObservationConfig;
  readonly rules: Rules;
  readonly source: { run?: string; iteration?: number } | undefined;
  readonly evaluation: Record<string, number> | undefined;
}

/** Validates a parsed policy file and decodes its weights; errors say what is wrong. */
export function decodeBrowserPolicy(data: unknown): BrowserPolicy {
  const { file, weights } = decodePolicyFile(data, 'policy file');
  return {
    weights,
    observation: resolveObservationConfig(file.observation),
    rules: resolveRules(file.rules),
    source: file.source,
    evaluation: file.evaluation,
  };
}
