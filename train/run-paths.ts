import { join } from 'node:path';
import type { TrainConfig } from './config.ts';

/** Paths inside a run folder. */
export function runPaths(config: Pick<TrainConfig, 'runsDir' | 'name'>) {
  const dir = join(config.runsDir, config.name);
  return {
    dir,
    config: join(dir, 'config.json'),
    metrics: join(dir, 'metrics.csv'),
    curve: join(dir, 'learning-curve'),
    checkpoints: join(dir, 'checkpoints'),
    latest: join(dir, 'checkpoints', 'latest.json'),
    best: join(dir, 'checkpoints', 'best.json'),
    pool: join(dir, 'pool'),
    policy: join(dir, 'policy.json'),
    evalPolicy: join(dir, 'eval-policy.json'),
    finalEvaluation: join(dir, 'final-evaluation.json'),
  };
}
