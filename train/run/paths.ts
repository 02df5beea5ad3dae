import { existsSync, lstatSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { RunFolderError } from '../errors.ts';
import type { SharedSettings } from '../settings/schema.ts';

/** Paths inside a run folder. */
export function runPaths(config: Pick<SharedSettings, 'runsDir' | 'name'>) {
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

/**
 * Deletes a run folder for `--overwrite`, but only a folder directly inside the
 * runs folder that holds a run's config.json and checkpoints/ folder: a
 * mistyped name or runs folder must never delete anything else.
 */
export function removeRun(config: Pick<SharedSettings, 'runsDir' | 'name'>): void {
  const paths = runPaths(config);
  const inside =
    basename(paths.dir) === config.name &&
    config.name !== '.' &&
    config.name !== '..' &&
    resolve(dirname(paths.dir)) === resolve(config.runsDir);
  if (!inside) {
    throw new RunFolderError(
      'not-a-folder-name',
      `--overwrite refuses to delete ${paths.dir}: run name ${JSON.stringify(config.name)} is not a plain folder name`,
    );
  }
  if (!existsSync(paths.dir)) return;
  const isRun =
    lstatSync(paths.dir).isDirectory() &&
    existsSync(paths.config) &&
    existsSync(paths.checkpoints) &&
    lstatSync(paths.checkpoints).isDirectory();
  if (!isRun) {
    throw new RunFolderError(
      'not-a-run',
      `--overwrite refuses to delete ${paths.dir}: it does not look like a training run (no config.json and checkpoints/ folder in it)`,
    );
  }
  rmSync(paths.dir, { recursive: true, force: true });
}

export type RunPaths = ReturnType<typeof runPaths>;

/**
 * Throws a RunFolderError when the runs folder or the run's folder is a file:
 * said at once in words, not as the raw error of the first mkdir or scandir.
 */
export function checkRunLocation(config: Pick<SharedSettings, 'runsDir' | 'name'>): void {
  const paths = runPaths(config);
  for (const [path, what] of [
    [resolve(config.runsDir), '--runs-dir'],
    [paths.dir, `run ${JSON.stringify(config.name)} (--name)`],
  ] as const) {
    if (existsSync(path) && !statSync(path).isDirectory()) {
      throw new RunFolderError('not-a-run', `${what} ${path} is a file, not a folder`);
    }
  }
}
