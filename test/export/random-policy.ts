import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ObservationConfig, observationSize } from '../../env/gym/observation.ts';
import { DEFAULT_RULES, Random, type Rules } from '../../env/index.ts';
import type { DenseWeights, MlpWeights } from '../../models/mlp-runner.ts';
import { encodePolicyFile } from '../../models/policy-checksum.ts';
import { makePolicyFile } from '../../models/policy-file.ts';

function dense(
  rng: Random,
  inputSize: number,
  outputSize: number,
  activation: DenseWeights['activation'],
): DenseWeights {
  const scale = Math.sqrt(2 / inputSize);
  return {
    inputSize,
    outputSize,
    activation,
    kernel: Float32Array.from({ length: inputSize * outputSize }, () => rng.normal() * scale),
    bias: Float32Array.from({ length: outputSize }, () => rng.normal() * 0.1),
  };
}

/** Seeded random weights: a policy whose choices vary from position to position. */
export function randomWeights(inputSize: number, hidden: number, seed: number): MlpWeights {
  const rng = Random.fromSeed(seed);
  return {
    inputSize,
    hidden: [dense(rng, inputSize, hidden, 'relu')],
    policy: dense(rng, hidden, 6, 'linear'),
    value: dense(rng, hidden, 1, 'tanh'),
  };
}

/** Writes an ayoayo-policy file with random weights into `dir` and returns its path. */
export function writeRandomPolicy(
  dir: string,
  observation: ObservationConfig = {
    encoding: 'counts',
    lookahead: true,
    lookaheadEncoding: 'counts',
  },
  seed = 7,
  rules: Rules = DEFAULT_RULES,
): string {
  mkdirSync(dir, { recursive: true });
  const weights = randomWeights(observationSize(observation), 32, seed);
  const file = makePolicyFile(weights, {
    observation,
    rules,
    source: { run: 'random-test-policy', iteration: 3 },
    evaluation: { random: 0.5 },
  });
  const path = join(dir, 'policy.json');
  writeFileSync(path, encodePolicyFile(file));
  return path;
}
