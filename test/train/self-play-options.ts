import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_RULES } from '../../env/index.ts';
import type { Tf } from '../../models/backend.ts';
import { plainForward } from '../../models/mlp-runner.ts';
import { createPolicyValueModel, extractMlpWeights } from '../../models/policy-value-model.ts';
import { buildConfig } from '../../train/config/build.ts';
import { PRESETS } from '../../train/config/presets.ts';
import {
  SearchSelfPlay,
  type SearchSelfPlayOptions,
} from '../../train/expert-iteration/search-self-play.ts';
import type { ExpertIterationSettings } from '../../train/expert-iteration/settings.ts';
import { TrainingOpenings } from '../../train/expert-iteration/training-openings.ts';
import type { TrainConfig } from '../../train/settings/schema.ts';

/**
 * Search self-play options for tests: 8 games, 6 simulations, every move
 * searched in full, completed-Q targets, outcome values, no solver; the
 * overrides change any of them.
 */
export function selfPlayOptions(
  overrides: Partial<SearchSelfPlayOptions> = {},
): SearchSelfPlayOptions {
  return {
    games: 8,
    rules: DEFAULT_RULES,
    observation: { encoding: 'counts', lookahead: true, lookaheadEncoding: 'counts' },
    maxPlies: 200,
    simulations: 6,
    policyTarget: 'completed-q',
    completedQScale: 0.1,
    searchValueWeight: 0,
    solverNodes: 0,
    ...overrides,
  };
}

/**
 * Search self-play behind an untrained network of one 16-unit layer (weights
 * from `modelSeed`, run by the plain runner), from openings of 0-8 random
 * plies, with `selfPlayOptions(overrides)`.
 */
export function untrainedSelfPlay(
  tf: Tf,
  modelSeed: number,
  overrides: Partial<SearchSelfPlayOptions> = {},
): SearchSelfPlay {
  const options = selfPlayOptions(overrides);
  const network = { hidden: [16], activation: 'relu' as const };
  const model = createPolicyValueModel(tf, 146, network, modelSeed);
  const weights = extractMlpWeights(model, network);
  model.dispose();
  return new SearchSelfPlay(
    plainForward(weights),
    options,
    new TrainingOpenings({ minPlies: 0, maxPlies: 8, balanced: false }, options.rules),
  );
}

/**
 * A tiny expert-iteration run in a fresh temporary folder (the smoke preset,
 * 2 iterations of 160 moves by 8 games searched with 4 simulations, no
 * progress bar), with `expertIteration` changing any of its settings.
 */
export function tinyExpertIterationRun(
  name: string,
  expertIteration: Partial<ExpertIterationSettings>,
): TrainConfig {
  return buildConfig([
    PRESETS.smoke,
    {
      runsDir: mkdtempSync(join(tmpdir(), `ayoayo-${name}-`)),
      name,
      algorithm: 'expert-iteration',
      iterations: 2,
      minibatchSize: 32,
      progress: false,
      expertIteration: {
        simulations: 4,
        gamesAtOnce: 8,
        movesPerIteration: 160,
        ...expertIteration,
      },
    },
  ]);
}
