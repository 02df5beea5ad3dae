import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildConfig, differingSettings, runLocation } from '../config/build.ts';
import type { TrainConfig } from '../config/schema.ts';
import { TrainConfigError } from '../errors.ts';
import { type CheckpointPayload, readCheckpoint } from './checkpoint.ts';
import { runPaths } from './paths.ts';

/**
 * Settings a resumed run may change: how long it runs, how it is shown, and how
 * it is evaluated. Everything else shapes the training itself and stays as saved.
 */
export const CHANGEABLE_ON_RESUME = [
  'iterations',
  'timeLimitMinutes',
  'progress',
  'workers',
  'evalEvery',
  'evalGames',
  'evalOpponents',
  'evalOpeningPlies',
  'extraEvalOpeningPlies',
  'finalEvalGames',
  'keepCheckpoints',
] as const satisfies readonly (keyof TrainConfig)[];

/** Where the run lives comes from the command line, never from the checkpoint (runs can be copied). */
const LOCATION = ['name', 'runsDir'] as const satisfies readonly (keyof TrainConfig)[];

type RunPaths = ReturnType<typeof runPaths>;

const ITER_FILE = /^iter-(\d+)\.json$/;

/** `iter-NNNNNN.json` checkpoints of a run, newest first. */
function iterationCheckpoints(paths: RunPaths): { iteration: number; path: string }[] {
  if (!existsSync(paths.checkpoints)) return [];
  return readdirSync(paths.checkpoints)
    .flatMap((name) => {
      const match = ITER_FILE.exec(name);
      return match ? [{ iteration: Number(match[1]), path: join(paths.checkpoints, name) }] : [];
    })
    .sort((a, b) => b.iteration - a.iteration);
}

/** True when the run folder holds any checkpoint (latest or per-iteration). */
export function hasCheckpoints(paths: RunPaths): boolean {
  return existsSync(paths.latest) || iterationCheckpoints(paths).length > 0;
}

/**
 * The newest complete checkpoint of a run. `latest.json` is written after the
 * iteration's own `iter-*.json`, so a run killed between the two leaves a newer
 * iteration file: that one wins. A corrupt `latest.json` is an error, not
 * silently skipped; unreadable newer iteration files are skipped with a note.
 */
export function findResumePoint(
  paths: RunPaths,
  log: (line: string) => void = () => {},
): { path: string; payload: CheckpointPayload } {
  const latest = existsSync(paths.latest) ? readCheckpoint(paths.latest) : null;
  for (const candidate of iterationCheckpoints(paths)) {
    if (latest !== null && candidate.iteration <= latest.iteration) break;
    try {
      return { path: candidate.path, payload: readCheckpoint(candidate.path) };
    } catch (error) {
      log(`skipping ${candidate.path}: ${(error as Error).message}`);
    }
  }
  if (latest === null) readCheckpoint(paths.latest); // throws: names the missing file
  return { path: paths.latest, payload: latest as CheckpointPayload };
}

/** A temp file of the atomic writer (`.NAME.PID.tmp`) left behind by a killed process. */
const TEMP_FILE = /^\..+\.\d+\.tmp$/;

/** Deletes temp files that a killed trainer left in the run folder. */
export function removeOrphanTempFiles(paths: RunPaths): string[] {
  const removed: string[] = [];
  for (const dir of [paths.dir, paths.checkpoints, paths.pool]) {
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      if (!TEMP_FILE.test(name)) continue;
      rmSync(join(dir, name), { force: true });
      removed.push(join(dir, name));
    }
  }
  return removed;
}

/**
 * The config a resumed run trains with: the saved one, at the location
 * `requested` names, with the changeable settings from `requested`. Any other
 * setting that differs is an error naming each one.
 */
export function resumedConfig(saved: TrainConfig, requested: TrainConfig): TrainConfig {
  const keep = new Set<string>([...CHANGEABLE_ON_RESUME, ...LOCATION]);
  const requestedFields = requested as Record<string, unknown>;
  const differing = differingSettings(saved, requested, keep);
  if (differing.length > 0) {
    const detail = differing
      .map((d) => `${d.path} (run: ${JSON.stringify(d.a)}, given: ${JSON.stringify(d.b)})`)
      .join(', ');
    throw new TrainConfigError(
      `--resume cannot change ${detail}; a resumed run may change only ${CHANGEABLE_ON_RESUME.join(', ')}`,
    );
  }
  const out: Record<string, unknown> = { ...saved };
  for (const key of keep) out[key] = requestedFields[key];
  return out as TrainConfig;
}

/**
 * The config for `train --resume` from command-line layers (preset, config
 * file, flags): the run's saved settings with those layers on top, so that only
 * settings actually given can differ from the run's (and are then refused by
 * `resumedConfig` unless changeable).
 */
export function buildResumeConfig(
  layers: readonly (Record<string, unknown> | undefined)[],
  where = 'config',
): TrainConfig {
  const located = runLocation(layers, where);
  const { payload } = findResumePoint(runPaths(located));
  return buildConfig(
    [payload.config, ...layers, { name: located.name, runsDir: located.runsDir }],
    where,
  );
}
