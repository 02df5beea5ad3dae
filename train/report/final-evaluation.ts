import { existsSync } from 'node:fs';
import { writeFileAtomic } from '../../files/atomic-write.ts';
import { encodePolicyFile } from '../../models/policy-checksum.ts';
import { learnerPolicyFile } from '../learner.ts';
import type { LoopEnd, Run } from '../run/run.ts';
import type { TrainConfig } from '../settings/schema.ts';
import { type EvaluationResult, evaluatePolicy } from './evaluate.ts';
import { writeLearningCurve } from './learning-curve.ts';

/**
 * What the last line of a run the time limit stopped says: where it stopped,
 * and that a resume trains it on to the network of the uncut run.
 */
export function timeLimitLine(config: TrainConfig, iteration: number): string {
  return `ayoayo train: the time limit of ${config.timeLimitMinutes} minutes stopped the run after iteration ${iteration} of ${config.iterations}, so its network is not the one the full run trains; --resume with a larger --time-limit-minutes (or none) trains it on to that network`;
}

/**
 * Writes the run's policy file and, when the run is done (all iterations or
 * the time limit), evaluates it with more games than during training, prints
 * the table, and stamps the policy with the final scores. A run stopped early
 * (`stopAfter`) gets its policy file but no final evaluation. A run the time
 * limit stopped says so in its table's heading, its last line, its
 * final-evaluation.json and its learning curve's title.
 */
export async function finishRun(
  run: Run,
  end: LoopEnd,
  log: (line: string) => void,
): Promise<EvaluationResult | null> {
  const { config, state, learner, paths } = run;
  const at = { iteration: state.iteration, samples: state.counters.samples };
  const writePolicy = (evaluation?: Record<string, number>) =>
    writeFileAtomic(
      paths.policy,
      encodePolicyFile(learnerPolicyFile(learner, config, at, evaluation)),
    );
  writePolicy(state.lastEvaluation ?? undefined);
  if (end === 'stop-after') return null;
  const cut = end === 'time-limit';
  const seed = config.seed * 15485863 + 1;
  const evaluateFrom = (openingPlies: number, gamesSeed: number) =>
    evaluatePolicy({
      policyPath: paths.policy,
      opponents: config.evalOpponents,
      games: config.finalEvalGames,
      seed: gamesSeed,
      workers: run.workers,
      rules: learner.rules,
      openingPlies,
      onProgress: config.progress,
      ...(run.files !== undefined ? { files: run.files } : {}),
    });
  const result = await evaluateFrom(config.evalOpeningPlies, seed);
  writePolicy(Object.fromEntries(result.rows.map((r) => [r.opponent, r.score])));
  // A policy can be strong from one opening depth only: the other depths get tables of their own.
  const otherDepths: (EvaluationResult & { readonly openingPlies: number })[] = [];
  for (const openingPlies of new Set(config.extraEvalOpeningPlies)) {
    if (openingPlies === config.evalOpeningPlies) continue;
    otherDepths.push({ openingPlies, ...(await evaluateFrom(openingPlies, seed + openingPlies)) });
  }
  const saved = {
    ...result,
    iteration: state.iteration,
    iterations: config.iterations,
    stoppedBy: cut ? 'time limit' : null,
    openingPlies: config.evalOpeningPlies,
    otherOpeningDepths: otherDepths,
  };
  writeFileAtomic(paths.finalEvaluation, `${JSON.stringify(saved, null, 2)}\n`);
  const stopped = cut
    ? ` of ${config.iterations} (the time limit of ${config.timeLimitMinutes} minutes stopped it there)`
    : '';
  await writeLearningCurve(
    paths.curve,
    state.curve,
    `${config.name}: score of the policy alone against baselines${cut ? `, iteration ${state.iteration}${stopped}` : ''}`,
    { iteration: state.iteration, rows: result.rows },
  );
  const bestCheckpoint = existsSync(paths.best) ? paths.best : paths.latest;
  log('');
  log(
    `Final evaluation of ${paths.policy} (policy alone, argmax, no search) after iteration ${state.iteration}${stopped}, from ${config.evalOpeningPlies}-ply openings:`,
  );
  log(result.table);
  for (const other of otherDepths) {
    log('');
    log(`From ${other.openingPlies}-ply openings:`);
    log(other.table);
  }
  log(
    `Learning curve: ${paths.curve}.svg / .png; metrics: ${paths.metrics}; best checkpoint: ${bestCheckpoint}`,
  );
  if (cut) log(timeLimitLine(config, state.iteration));
  return result;
}
